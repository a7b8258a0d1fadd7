"""kg view: commands registered on kg.cli.app.app."""
from kg.cli.app import app  # noqa: F401
