"""Where a build folder is, and how one is replaced whole.

A build is written into a hidden sibling folder (``.NAME.new-<pid>-*``) and swapped in whole
(``writing``), so a reader always finds one complete build: the previous one until the swap,
then the new one. ``find_build`` tells which folder a reader reads. This module imports none of
the stages that write into a folder (their checks are given: ``FolderChecks``).
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from kg.errors import KgError
from kg.layout import (ASSET_FILE, BUILD_ENTRIES, DEFAULT_EXPORTS, GRAPH_JSON, MANIFEST, PAGE_DIGESTS, PAGE_FILE,
                       STORE, THEMES_JS, VIEWS, Manifest, is_build)
from kg.util.signals import deferred_sigint


class FolderError(KgError):
    """The folder a build is to be written to cannot take it. The message asks for another folder;
    the command line adds which of its options names it (kg.cli.build)."""


def find_build(path: Path | str | None = None, exports: Path = DEFAULT_EXPORTS) -> Path:
    """The build folder at ``path`` (or where its cut swap left it), or the most recent build under ``exports``."""
    if path is not None:
        path = Path(path)
        if not path.exists() and is_build(previous(path)):
            # A build's swap was cut, or is under way this instant: read the previous build
            # where it is. Readers never rename; the next build puts it back (recover()).
            return previous(path)
        if not is_build(path):
            if not path.exists():
                raise KgError(f"{path}: no such build folder (make one with `kg build CORPUS --out {path}`)")
            raise KgError(f"{path}: not a kg build folder (no {MANIFEST} and {GRAPH_JSON}); give the "
                          f"folder `kg build` wrote, such as {DEFAULT_EXPORTS}/NAME")
        return path
    # Hidden folders are builds under way or killed (.NAME.new-*) or kept during a swap
    # (.NAME.old): never a build of their own. A cut swap's .old is found through NAME.
    builds = []
    if exports.is_dir():
        names = {p.name for p in exports.iterdir() if not p.name.startswith(".")}
        names |= {p.name[1:-4] for p in exports.glob(".*.old")}
        builds = [b for b in (_readable(exports / n) for n in sorted(names)) if b is not None]
    if not builds:
        raise KgError(f"no build found under {exports}/ (run `kg build CORPUS` first, or name a build folder)")
    return max(builds, key=lambda b: (b / MANIFEST).stat().st_mtime)


def _readable(path: Path) -> Path | None:
    if is_build(path):
        return path
    if not path.exists() and is_build(previous(path)):
        return previous(path)
    return None


def output_path(path: Path | str) -> Path:
    """``path`` made absolute and without "." or "..": a build is written beside its folder
    (``.NAME.new-*``, ``.NAME.lock``), which needs the folder's real name, and "." has none."""
    return Path(os.path.abspath(path))


def make_parent(path: Path) -> None:
    """Create the folder the build folder goes in, or say in one line why it cannot be."""
    try:
        file = next((p for p in reversed(path.parents) if p.exists() and not p.is_dir()), None)
    except PermissionError:  # a folder on the way cannot be entered
        raise FolderError(f"{path.parent}: cannot hold the build folder (Permission denied); give another folder") from None
    if file is not None:
        raise FolderError(f"{file}: is a file, so it cannot hold the build folder; give another folder")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise FolderError(f"{path.parent}: cannot hold the build folder ({e.strerror or e}); give another folder") from None
    if not os.access(path.parent, os.W_OK | os.X_OK):  # else found only at the end, after the extraction
        raise FolderError(f"{path.parent}: cannot hold the build folder (Permission denied); give another folder")


# Tells whether a folder a stage of kg writes into a build (its name the key) holds only that
# stage's files: given by the caller, so that this module imports none of the stages.
FolderChecks = Mapping[str, Callable[[Path], bool]]


def check_replaceable(path: Path, folders: FolderChecks = {}) -> None:
    """Refuse to write a build over anything but a kg build or an empty folder: a build
    replaces its folder whole, and a user's own files there would be deleted with it.
    ``folders`` tells kg's own subfolders (``{"neo4j-import": is_import_folder}``) from a user's."""
    try:
        _check_replaceable(path, folders)
    except PermissionError:  # a folder on the way cannot be entered: stat itself fails
        raise FolderError(f"{path}: cannot be reached (Permission denied); give another folder") from None


def _check_replaceable(path: Path, folders: FolderChecks) -> None:
    if path.is_symlink():  # the swap would replace the link, not the folder it names
        raise FolderError(f"{path}: is a symbolic link; give the folder it points to")
    if path.exists() and not path.is_dir():
        raise FolderError(f"{path}: is a file; a build goes in a folder (a new one, or an earlier kg build)")
    if path.is_dir() and not is_build(path) and any(path.iterdir()):
        raise FolderError(f"{path}: is a folder that is not a kg build; kg replaces the folder it builds in whole, "
                      f"so give a new or empty folder, or an earlier build's")
    if is_build(path):
        foreign = _foreign_files(path, folders)
        if foreign:
            raise FolderError(f"{path}: the build folder also holds {', '.join(foreign[:3])}"
                          f"{' and more' if len(foreign) > 3 else ''}, which the new build would delete; "
                          f"move them out first, or give another folder")


def _foreign_files(build: Path, folders: FolderChecks) -> list[str]:
    """Paths in a build folder that kg did not write, relative to it."""
    # The store's engine may leave files beside it; macOS leaves .DS_Store anywhere.
    known = BUILD_ENTRIES | {f"{STORE}.{x}" for x in ("wal", "lock", "shadow", "tmp")} | {".DS_Store"}
    out = [p.name for p in build.iterdir() if p.name not in known]
    views = build / VIEWS
    if views.is_dir():
        for p in views.iterdir():
            if p.name == "lib" and p.is_dir():
                out += [f"{VIEWS}/lib/{q.name}" for q in p.iterdir() if not ASSET_FILE.fullmatch(q.name)]
            elif not ((PAGE_FILE.fullmatch(p.name) or p.name.removesuffix(".tmp") in (PAGE_DIGESTS, THEMES_JS)) and p.is_file()) \
                    and p.name != ".DS_Store":
                out.append(f"{VIEWS}/{p.name}")
    for name, is_kgs in folders.items():
        folder = build / name
        if folder.is_dir() and any(folder.iterdir()) and not is_kgs(folder):
            out.append(f"{name}/ (files kg did not write)")
    return sorted(out)


def previous(path: Path) -> Path:
    """Where a build's swap keeps the previous build until the new one is in place."""
    return path.with_name(f".{path.name}.old")


def recover(path: Path) -> None:
    """Put the previous build back if a swap was cut between its two renames (writers only)."""
    old = previous(path)
    if not path.exists() and is_build(old):
        old.rename(path)


def built_from(out: Path) -> str | None:
    """The corpus (an absolute path) an earlier build in ``out`` was made from, if known."""
    try:
        corpus = Manifest.read(out).corpus
    except (OSError, KgError):
        return None
    # Manifests before 2026-12-03 kept the path as typed, relative to a folder now unknown.
    return corpus if isinstance(corpus, str) and Path(corpus).is_absolute() else None


# --- writing a build ---------------------------------------------------------------------------

@contextmanager
def writing(out: Path, folders: FolderChecks = {}, check: Callable[[Path], None] | None = None) -> Iterator[Path]:
    """A fresh hidden folder beside ``out`` to write a build into, swapped in for ``out`` when the
    block ends (the block writes the manifest last) and deleted if the block fails or is
    interrupted, leaving the previous build as it was.

    ``check(out)`` runs under the swap lock just before the swap and may raise to cancel it:
    ``kg add`` makes sure the build it added to is still the one there."""
    out = output_path(out)
    make_parent(out)
    _remove_dead_builds(out)
    # The writer's pid in the name tells a later build whether this folder is still being written.
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-{os.getpid()}-", dir=out.parent))
    tmp.chmod(0o777 & ~_umask())  # mkdtemp makes it 0700; a build folder is as readable as any other
    try:
        yield tmp
        if not is_build(tmp):
            raise RuntimeError(f"{tmp}: the build written has no {MANIFEST} and {GRAPH_JSON}")
        with swap_lock(out):
            check_replaceable(out, folders)  # again: something may have appeared there meanwhile
            if check is not None:
                check(out)
            # Once begun, the swap ends: a Ctrl-C during it (say while the previous build is
            # deleted) is dropped, since the new build is in place or about to be, and saying
            # "left as it was" would be wrong.
            with deferred_sigint():
                swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def swap_in(new: Path, out: Path) -> None:
    """Replace ``out`` by ``new``; at every instant one complete build is on disk."""
    old = previous(out)
    # A swap cut earlier may have left the previous build only at .old: put it back
    # before anything is deleted, or a second cut swap would leave no build at all.
    recover(out)
    if old.exists():
        shutil.rmtree(old)
    if out.exists():
        os.replace(out, old)
    os.replace(new, out)
    shutil.rmtree(old, ignore_errors=True)


@contextmanager
def swap_lock(out: Path) -> Iterator[None]:
    """One swap into ``out`` at a time: two builds into one folder take turns at the end
    (interleaved, one's rename back of .NAME.old would break the other's)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX; swaps are not serialised there
        yield
        return
    with open(out.parent / f".{out.name}.lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _remove_dead_builds(out: Path) -> None:
    """Delete the temporary folders of builds into ``out`` whose process is gone (killed hard:
    SIGKILL or a power cut leave no chance to clean up). Folders of live builds stay."""
    for d in out.parent.glob(f".{out.name}.new-*"):
        pid = d.name[len(out.name) + 6:].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(d, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
