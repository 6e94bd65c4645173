"""The ``tavlakit`` command line (Typer): one module per command, registered here.

A command's module is imported when the command runs: ``tavlakit validate``
loads neither the analysis nor the viewer. Everything else (``--help``, a
test's ``CliRunner``) sees every command.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import typer

#: Command name -> (module in this package, function).
COMMANDS = {
    "validate": ("validate", "validate"), "convert": ("convert", "convert"), "stats": ("stats", "stats"),
    "analyse": ("analyse", "analyse"), "board": ("board", "board"), "moves": ("board", "moves"),
    "show": ("show", "show"),
}


class _App(typer.Typer):
    """A Typer app that registers its commands on first use: only the one
    named on the command line when it is run as the program."""

    def __init__(self, **options: Any) -> None:
        self._loaded: list[str] = []
        super().__init__(**options)
        self.callback()(_group)  # a group even with one command loaded: `tavlakit validate ...` as always

    @property
    def registered_commands(self) -> list[Any]:
        if not self._loaded:
            self.load(list(COMMANDS))
        return self._commands

    @registered_commands.setter
    def registered_commands(self, value: list[Any]) -> None:
        self._commands = value

    def load(self, names: list[str]) -> None:
        """Import and register these commands (those not registered yet)."""
        for name in names:
            if name not in self._loaded:
                module, function = COMMANDS[name]
                self._loaded.append(name)
                self.command(name)(getattr(importlib.import_module(f".{module}", __name__), function))
        # the order of the help page, whatever was loaded first
        self._commands.sort(key=lambda info: list(COMMANDS).index(str(info.name)))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        argv = kwargs.get("args") or (args[0] if args else sys.argv[1:])
        chosen = argv[0] if argv else None
        self.load([chosen] if chosen in COMMANDS else list(COMMANDS))
        return super().__call__(*args, **kwargs)


def _group() -> None:
    """Tavla and backgammon records: validate, convert, analyse."""


app = _App(
    help="Tavla and backgammon records: validate, convert, analyse.",
    no_args_is_help=True,
    add_completion=False,
)


def main() -> None:  # pragma: no cover - console entry
    app()
