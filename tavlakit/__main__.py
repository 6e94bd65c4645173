"""``python -m tavlakit`` runs the command line."""

from .cli import app

app(prog_name="tavlakit")
