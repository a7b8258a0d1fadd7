"""Remake the README's screenshots of kg's views from the seed build, in headless Chromium.

Builds the seed list (`kg build seeds/iclr2025_abstracts.txt --out <a temporary folder>`), opens
the build's overview (`index.html`, the concept map), its map of themes (`map.html`, with the paper
selected) and the paper's own page (`views/paper-...html`) in headless Chromium, waits until each
page's graph is laid out (the page sets `kgView.ready`), and writes docs/images/overview.png,
docs/images/map.png and docs/images/paper.png as palette PNGs (under 100 KB each). The paper is
ThinK, or, if the seed list no longer holds it, the paper with the most related papers.

Needs the test extras (`pip install -e '.[test]'`: Playwright, Pillow) and Debian's Chromium
(`apt-get install chromium`; the browser is never downloaded). Offline, under a minute:

    python scripts/screenshots.py
"""
from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "seeds" / "iclr2025_abstracts.txt"
IMAGES = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
# As tests/test_browser.py runs it: no sandbox (root in a container), nothing fetched.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]


def build_seed(out: Path) -> None:
    """The seed build, as the README's first command makes it (extractions cached as usual)."""
    subprocess.run([sys.executable, "-m", "kg", "build", str(SEED), "--out", str(out)], check=True, cwd=ROOT)


def pick_paper(build: Path, name: str) -> str:
    """The id of the paper ``name`` names (as `kg view --paper` reads it), else the paper with the most
    related papers."""
    from kg.errors import KgError
    from kg.graph.io import read_json
    from kg.analysis.related import find_paper

    g = read_json(build / "graph.json")
    try:
        return find_paper(g, name)
    except KgError as e:
        print(f"screenshots: {e}; taking the paper with the most related papers", file=sys.stderr)
    neighbours = Counter()
    for u, v, key in g.edges(keys=True):
        if key == "RELATED_TO":
            neighbours[u] += 1
            neighbours[v] += 1
    if not neighbours:
        sys.exit(f"screenshots: no related papers in {build}")
    return neighbours.most_common(1)[0][0]


def wait_ready(page, timeout: float = 60.0) -> None:
    """Until the graph has stabilized and the page has fitted it (polled: the pages' CSP forbids the
    eval that Playwright's wait_for_function needs)."""
    t0 = time.monotonic()
    while not page.evaluate("() => !!(window.kgView && window.kgView.ready)"):
        if time.monotonic() - t0 > timeout:
            sys.exit(f"screenshots: {page.url} never finished its layout in {timeout:.0f} s")
        time.sleep(0.1)
    time.sleep(0.5)  # a few frames for the canvas to draw the fitted view


def save_png(raw: bytes, path: Path) -> None:
    """A palette PNG (UI colours fit in 256): a third of the size of Chromium's, text as sharp."""
    try:
        from PIL import Image
    except ImportError:  # the PNG as Chromium wrote it
        path.write_bytes(raw)
        return
    im = Image.open(io.BytesIO(raw)).convert("RGB")
    im.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


def shoot(build: Path, paper_id: str, out_dir: Path, width: int, height: int, chromium: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    from kg.builds import page_name

    shots = [
        # The overview: the concept map, as it opens.
        ("overview.png", build / "index.html", None),
        # The map, with the paper selected: its theme, its related papers' links, its details.
        ("map.png", build / "map.html",
         f"() => {{ kgView.network.selectNodes([{paper_id!r}]); kgView.showDetails({paper_id!r}); }}"),
        ("paper.png", build / "views" / page_name("paper", paper_id), None),
    ]
    written = []
    out_dir.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            for name, html, then in shots:
                if not html.exists():
                    sys.exit(f"screenshots: {html} was not written by the build")
                page.goto(html.as_uri())
                wait_ready(page)
                if then:
                    page.evaluate(then)
                    time.sleep(0.5)
                path = out_dir / name
                save_png(page.screenshot(), path)
                written.append(path)
        finally:
            browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python scripts/screenshots.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-dir", type=Path, default=IMAGES, help="where the PNGs go (default: docs/images/)")
    ap.add_argument("--paper", default="ThinK",
                    help="the paper shown: an id, title words or a concept, as `kg view --paper` takes it "
                         "(default: ThinK; if none matches, the paper with the most related papers)")
    ap.add_argument("--build", type=Path, metavar="BUILD_DIR",
                    help="an existing seed build to photograph instead of building one")
    ap.add_argument("--width", type=int, default=1280, help="viewport width in CSS pixels (default 1280)")
    ap.add_argument("--height", type=int, default=800, help="viewport height (default 800)")
    ap.add_argument("--chromium", default=CHROMIUM, help=f"the browser to drive (default {CHROMIUM})")
    args = ap.parse_args(argv)
    if not Path(args.chromium).exists():
        sys.exit(f"screenshots: {args.chromium} not found (apt-get install chromium)")

    with tempfile.TemporaryDirectory(prefix="kg-screenshots-") as tmp:
        build = args.build
        if build is None:
            build = Path(tmp) / "iclr2025_abstracts"
            build_seed(build)
        paper_id = pick_paper(build, args.paper)
        for path in shoot(build, paper_id, args.out_dir, args.width, args.height, args.chromium):
            print(f"{path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
