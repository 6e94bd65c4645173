"""The recording page's web server (Starlette): the page, and JSON endpoints that act on the
:class:`~tavlakit.recorder.session.Session`.

Every request must carry the session's token (the page's address has it;
the page sends it with each call): without it the answer is 403. The
handlers run on the server's one event loop, one at a time.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..engine.numbering import Numbering
from ..engine.play import parse_part
from ..i18n import _
from .session import Refused, Session
from .view import page, state

Action = Callable[[Session, dict[str, Any]], dict[str, Any] | None]


def _number(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refused(_("{key} must be a whole number").format(key=key))
    return value


def _dice(s: Session, body: dict[str, Any]) -> None:
    dice = body.get("dice")
    if not isinstance(dice, list) or len(dice) != 2:
        raise Refused(_("a roll is two dice 1-6, not {dice}").format(dice=dice))
    if s.phase == "opening":
        s.opening((dice[0], dice[1]))
    else:
        s.enter_dice((dice[0], dice[1]))


def _text(s: Session, body: dict[str, Any]) -> None:
    """Typed: dice before the play, a move (``24/18``, ``bar/22``, ``6/off``) during it, in the numbering shown."""
    text = str(body.get("text", "")).strip()
    if s.phase != "move":
        s.enter_text(text)
        return
    try:
        parts = [parse_part(part) for part in text.split()]
    except ValueError as exc:
        raise Refused(str(exc)) from None
    if not parts:
        raise Refused(_("type a move such as 24/18"))
    flip = s.numbering.flips(s.on_roll)
    for moves in parts:
        src, dst = moves[0].src, moves[-1].dst
        if flip:
            src, dst = (25 - src if 0 < src < 25 else src), (25 - dst if 0 < dst < 25 else dst)
        s.move(src, dst)


def _select(s: Session, body: dict[str, Any]) -> dict[str, Any]:
    src = _number(body, "src")
    return {"selected": src, "targets": s.targets(src)}


def _resign(s: Session, body: dict[str, Any]) -> None:
    kind = body.get("kind", "single")
    if kind not in ("single", "mars", "backgammon"):
        raise Refused(_("a resignation is single, mars or backgammon"))
    s.resign(_number(body, "player"), kind)


def _numbering(s: Session, body: dict[str, Any]) -> None:
    s.numbering = Numbering.ABSOLUTE if body.get("absolute") else Numbering.RELATIVE


ACTIONS: dict[str, Action] = {
    "dice": _dice,
    "text": _text,
    "roll": lambda s, b: (s.roll_for_me(), None)[1],
    "select": _select,
    "move": lambda s, b: s.move(_number(b, "src"), _number(b, "dst")),
    "undo": lambda s, b: s.undo(),
    "done": lambda s, b: s.finish(),
    "double": lambda s, b: s.double(),
    "take": lambda s, b: s.take(),
    "drop": lambda s, b: s.drop(),
    "resign": _resign,
    "next": lambda s, b: s.next_game(),
    "numbering": _numbering,
}


def make_app(session: Session, token: str | None = None) -> Starlette:
    """The web app of ``session``; ``token`` (default: a new random one) is
    the app's ``state.token``, needed by every request."""
    secret = token or secrets.token_urlsafe(16)

    def allowed(given: object) -> bool:
        return isinstance(given, str) and secrets.compare_digest(given, secret)

    def forbidden() -> Response:
        return JSONResponse({"error": _("this page's session token is missing or wrong")}, status_code=403)

    async def home(request: Request) -> Response:
        if not allowed(request.query_params.get("token")):
            return forbidden()
        return HTMLResponse(page(session, secret), headers=_HEADERS)

    async def current(request: Request) -> Response:
        if not allowed(request.headers.get("x-token")):
            return forbidden()
        return JSONResponse(state(session))

    async def act(request: Request) -> Response:
        if not allowed(request.headers.get("x-token")):
            return forbidden()
        action = ACTIONS.get(request.path_params["action"])
        if action is None:
            return JSONResponse({"error": _("no such action")}, status_code=404)
        try:
            body = await request.json()
        except json.JSONDecodeError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        try:
            extra = action(session, body) or {}
        except Refused as exc:
            return JSONResponse(state(session, str(exc)))
        return JSONResponse(state(session, **extra))

    routes = [
        Route("/", home),
        Route("/api/state", current),
        Route("/api/{action}", act, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.state.token = secret
    return app


#: The page loads nothing from elsewhere.
_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; connect-src 'self'; style-src 'unsafe-inline'; "
    "script-src 'unsafe-inline'; img-src data:",
    "Cache-Control": "no-store",
}

__all__ = ["ACTIONS", "make_app"]
