"""``tavlakit record``: a page to play a live game on, that writes the match as it is played."""

from __future__ import annotations

import ipaddress
import socket
import webbrowser
from pathlib import Path

import typer

from ..i18n import _
from .common import RULES_HELP, default_numbering, fail, parse_rules


def record(
    out: Path = typer.Argument(Path("match.mat"), help=_("The transcript to write (.mat); an unfinished one goes on.")),
    rules: str | None = typer.Option(None, help=f"{RULES_HELP} " + _("Default: tavla (a file: its own).")),
    length: int | None = typer.Option(None, "--length", help=_("Match length in points (default 5).")),
    players: tuple[str, str] | None = typer.Option(None, "--players", help=_("The two players' names.")),
    port: int = typer.Option(0, "--port", help=_("Port to listen on (default: a free one).")),
    host: str = typer.Option("127.0.0.1", "--host", help=_("Address to listen on (default: this machine only).")),
    seed: int | None = typer.Option(None, "--seed", help=_("Seed of the page's 'Roll for me' dice.")),
    browser: bool = typer.Option(True, "--browser/--no-browser", help=_("Open the page in a web browser.")),
) -> None:
    """Record a live game: a page with the board to play the moves on; every
    completed turn is written to OUT at once.

    The page is served on this machine only unless --host names another
    address; its address holds a secret token, and requests without it are
    refused.
    """
    from ..recorder.app import make_app  # the web server's libraries, for this command only
    from ..recorder.session import Session

    if out.suffix.lower() != ".mat":
        raise fail(_("{path}: the recorder writes a .mat transcript").format(path=out))
    try:
        session = Session.open(
            out,
            rules=parse_rules(rules) if rules else None,
            length=length,
            players=(players[0], players[1]) if players else None,
            seed=seed,
        )
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    session.numbering = default_numbering()  # the Turkish (absolute) one in Turkish, as the other pages
    if not _loopback(host):
        typer.echo(
            _(
                "warning: listening on {host}: anyone on the network can reach the page; "
                "only its address, with the token, lets them play"
            ).format(host=host),
            err=True,
        )
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)  # connections wait from now on, before the server has started
    except OSError as exc:
        raise fail(
            _("cannot listen on {host} port {port}: {reason}").format(host=host, port=port, reason=exc)
        ) from None
    app = make_app(session)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/?token={app.state.token}"
    typer.echo(_("recording to {path}").format(path=out))
    typer.echo(_("open {url}").format(url=url), err=False)
    if browser:
        webbrowser.open(url)
    _serve(app, sock)


def _serve(app: object, sock: socket.socket) -> None:
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))  # type: ignore[arg-type]
    server.run(sockets=[sock])


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
