"""The one exception type the CLI turns into a one-line message and exit status 2."""


class KgError(Exception):
    """A user-facing error: bad input, a missing build, a query the engine rejects.

    The message must stand alone on one line and name the file (and line)
    or the thing at fault, since the CLI prints it without a traceback.
    """

    exit_code = 2
