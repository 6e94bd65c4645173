"""The language of the command line: ``--lang``, or the environment.

Typer builds its help from strings evaluated when the command modules are
imported, so the language is chosen twice: :func:`early_language` reads
``--lang`` and the environment before the commands are imported (so text
built with ``_()`` at import is already in the language), and
:class:`LocalisedGroup` translates the help texts (docstrings, ``N_()``
strings) when Click formats them, after ``--lang`` was read. Problem codes
and JSON keys stay English.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import typer
from typer import core
from typer._click import exceptions as click  # the Click Typer vendors and raises

from ..i18n import (
    N_,
    _,
    available_languages,
    language,
    language_from_environment,
    match_language,
    set_language,
)

#: Typer's own words in its help and errors, by their name in ``typer.rich_utils``.
TYPER_TEXT = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
}
#: Typer's messages that go through gettext (Typer's ``core._``), and the help
#: of the ``--help`` option Click adds to every command: the catalog has them.
TYPER_MESSAGES = (
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("Aborted!"),
    N_("default: {default}"),
    N_("required"),
    N_("Show this message and exit."),
)
#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130

LANG_HELP = N_(
    "Language of messages and help (before or after the command). Default: from LANGUAGE, LC_ALL, "
    "LC_MESSAGES or LANG, else en."
)
#: Exit status of a usage error (an unknown option, a missing argument, a bad value).
USAGE = 2


def early_language(argv: Sequence[str], environ: Mapping[str, str]) -> None:
    """When this process is the ``tavlakit`` program (``argv[0]`` its console
    script or ``python -m tavlakit``), use the language ``--lang`` in ``argv``
    or the environment asks for (an unknown one is left to the option to
    report). A program that only imports the CLI keeps its language."""
    program = Path(argv[0]) if argv else Path()
    if program.name != "tavlakit" and program.parts[-2:] != ("tavlakit", "__main__.py"):
        return
    chosen = language_from_environment(environ)
    argv = argv[1:]
    for i, arg in enumerate(argv):
        value = (
            arg.partition("=")[2]
            if arg.startswith("--lang=")
            else argv[i + 1]
            if arg == "--lang" and i + 1 < len(argv)
            else None
        )
        if value is not None:
            chosen = match_language(value) or chosen
    set_language(chosen)


def choose_language(value: str | None) -> str | None:
    """The ``--lang`` callback: use it, or a clear error naming the languages."""
    if value is not None:
        try:
            set_language(value)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        localise_typer()
    return value


def show_version(value: bool) -> None:
    """The ``--version`` callback: print the version and stop."""
    if value:
        from .. import __version__

        typer.echo(f"tavlakit {__version__}")
        raise typer.Exit()


def options(
    lang: str | None = typer.Option(
        None, "--lang", metavar="|".join(available_languages()), help=LANG_HELP, is_eager=True, callback=choose_language
    ),
    version: bool = typer.Option(
        False, "--version", help=N_("Print the version and exit."), is_eager=True, callback=show_version
    ),
) -> None:
    """The options of every command (registered as the app's callback)."""


def lang_first(args: Sequence[str]) -> list[str]:
    """``args`` with every ``--lang X`` (or ``--lang=X``) moved in front of
    the command, where the group reads it: ``tavlakit validate --lang tr
    x.mat`` is ``tavlakit --lang tr validate x.mat``. Nothing after ``--``
    is moved.

    >>> lang_first(["validate", "--lang", "tr", "x.mat"])
    ['--lang', 'tr', 'validate', 'x.mat']
    """
    moved: list[str] = []
    rest: list[str] = []
    items = list(args)
    i = 0
    while i < len(items):
        arg = items[i]
        if arg == "--":
            rest.extend(items[i:])
            break
        if arg.startswith("--lang="):
            moved.append(arg)
        elif arg == "--lang":
            moved.extend(items[i : i + 2])
            i += 1
        else:
            rest.append(arg)
        i += 1
    return moved + rest


def usage_message(exc: click.ClickException) -> str:
    """The one line that says what is wrong with the command line."""
    if isinstance(exc, click.BadParameter) and exc.param is None and exc.param_hint is None:
        message = exc.message  # raised by a command's body: no "Invalid value:" in front
    else:
        message = exc.format_message()
    return _("error: {message}").format(message=" ".join(message.split()))


def localise(command: Any, ctx: typer.Context) -> None:
    """Translate the help texts of a Click command and its options in place."""
    for item in [command, *command.get_params(ctx)]:
        for attribute in ("help", "short_help"):
            text = getattr(item, attribute, None)
            if text:
                setattr(item, attribute, _(text))


def localise_typer() -> None:
    """Typer's own words (panel titles, hints) in the language in use.

    Typer's help formatter is imported only to speak another language: its
    words are English already, and importing it (rich's Markdown included)
    would add a tenth of a second to every ``tavlakit validate``."""
    if language() == "en" and "typer.rich_utils" not in sys.modules:
        return
    from typer import rich_utils

    for name, text in TYPER_TEXT.items():
        setattr(rich_utils, name, _(text))


class LocalisedGroup(core.TyperGroup):
    """The app's command group: language from the environment, then
    ``--lang``; the help of each command translated when it is shown."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **kwargs: Any,
    ) -> Any:
        """Run the command line; a usage error (Click's or a command's
        ``BadParameter``) is one line ``error: ...`` on stderr and exit
        status 2, however Typer would have drawn it."""
        previous = language()
        set_language(language_from_environment(os.environ))
        localise_typer()
        typer_gettext = getattr(core, "_", None)  # Typer's "Missing command." and the like
        if typer_gettext is not None:
            core._ = _  # type: ignore[attr-defined]
        try:
            arguments = lang_first(sys.argv[1:] if args is None else args)
            try:
                status = super().main(
                    arguments,
                    prog_name,
                    complete_var,
                    standalone_mode=False,
                    windows_expand_args=windows_expand_args,
                    **kwargs,
                )
            except click.ClickException as exc:
                if not standalone_mode:
                    raise
                if isinstance(exc, click.NoArgsIsHelpError):  # "tavlakit" alone: the help
                    exc.show()
                else:
                    typer.echo(usage_message(exc), err=True)
                sys.exit(USAGE if isinstance(exc, click.UsageError) else exc.exit_code)
            except typer.Abort:
                if not standalone_mode:
                    raise
                typer.echo(_("Aborted!"), err=True)
                sys.exit(1)
            if not standalone_mode:
                return status
            sys.exit(status if isinstance(status, int) else 0)
        finally:
            if typer_gettext is not None:
                core._ = typer_gettext  # type: ignore[attr-defined]
            set_language(previous)
            localise_typer()

    def invoke(self, ctx: Any) -> Any:
        """Run the command; Ctrl-C at any moment of it is one line on stderr
        and exit status 130 (the workers are already stopped by
        :func:`tavlakit.collections.parallel.pmap`; outputs are written to a temporary
        name and renamed, so nothing is left half-written)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            typer.echo(_("interrupted"), err=True)
            raise typer.Exit(INTERRUPTED) from None

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            localise(command, ctx)
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        localise(self, ctx)
        super().format_help(ctx, formatter)
