"""The `kg` command line: a thin layer over the library.

Each module registers its commands on ``kg.cli.app.app``; ``main`` turns
KgError and Ctrl-C into one line and a non-zero exit, never a traceback.
"""
from __future__ import annotations

import sys

INTERRUPTED = "kg: interrupted; previous output left as it was"

# The imports take about a second; a Ctrl-C meanwhile gets the same one line as later on.
try:
    import click
    import typer

    from kg.cli.app import app
    from kg.cli import (add, build, evaluate, export, query, related, stats, train,  # noqa: F401  (registers commands)
                        train_relations, trends, view)
    from kg.errors import KgError
except KeyboardInterrupt:
    print(INTERRUPTED, file=sys.stderr)
    sys.exit(130)


def _classes(name: str, *bases: type) -> tuple[type, ...]:
    """click's exception class ``name`` and Typer's own copy of it: Typer 0.2x vendors click
    (``typer._click``), whose classes are not click's, so both must be caught."""
    found = {c for b in bases for c in b.__mro__ if c.__name__ == name}
    return tuple(found | {getattr(click.exceptions, name)})


_USAGE_ERRORS = _classes("ClickException", typer.BadParameter)
_EXITS = _classes("Exit", typer.Exit)
_ABORTS = _classes("Abort", typer.Abort)


def main() -> None:
    try:
        rv = app(standalone_mode=False)
    except _EXITS as exc:
        sys.exit(exc.exit_code)
    except _USAGE_ERRORS as exc:  # usage errors: click's own one-line message
        # Typer 0.29 reports a bad choice through pydantic, whose text starts "Value error, ".
        exc.message = exc.message.removeprefix("Value error, ")
        exc.show()
        sys.exit(2)
    except (KeyboardInterrupt, *_ABORTS):
        rv = 130
    except KgError as exc:
        print(f"kg: error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        raise  # a reader that stopped early (`| head`): not an error of kg's
    except OSError as exc:
        # A file system refusal no command foresaw (a read-only build, an --out under a file or in
        # /proc): still one line, naming the path, rather than a traceback.
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"kg: error: {where}{exc.strerror or exc}", file=sys.stderr)
        sys.exit(2)
    # Outside standalone mode Typer does not raise on Ctrl-C or typer.Exit(n): it returns 130 or n.
    if rv == 130:
        print(INTERRUPTED, file=sys.stderr)
    sys.exit(rv if isinstance(rv, int) else 0)
