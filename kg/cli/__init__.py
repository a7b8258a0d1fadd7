"""The `kg` command line: a thin layer over the library.

Each module registers its commands on ``kg.cli.app.app``; ``main`` turns
KgError and Ctrl-C into one line and a non-zero exit, never a traceback.
"""
from __future__ import annotations

import sys

import click

from kg.cli.app import app
from kg.cli import build, evaluate, export, query, related, view  # noqa: F401  (registers commands)
from kg.errors import KgError


def main() -> None:
    try:
        app(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:  # usage errors: click's own one-line message
        exc.show()
        sys.exit(2)
    except (KeyboardInterrupt, click.exceptions.Abort):
        print("kg: interrupted; previous output left as it was", file=sys.stderr)
        sys.exit(130)
    except KgError as exc:
        print(f"kg: error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
