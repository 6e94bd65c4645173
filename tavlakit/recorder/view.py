"""What the recording page shows of a :class:`~tavlakit.recorder.session.Session`: the board (SVG, with areas to
tap), the state in words in the language in use, what may be done now. The page's script only shows this.

>>> import tempfile, pathlib
>>> from tavlakit.engine.rules import Rules
>>> s = Session.open(pathlib.Path(tempfile.mkdtemp()) / "m.mat", rules=Rules.preset("tavla"), players=("Ali", "Veli"))
>>> s.opening((3, 5)); s.enter_dice((6, 5))
>>> shown = state(s)
>>> shown["status"], shown["dice"], shown["can"]["done"]
('Veli plays 6-5 (şeş beş)', 'şeş beş', False)
"""

from __future__ import annotations

import html
from importlib import resources
from typing import Any

from ..engine.dicenames import dice_name
from ..engine.numbering import Numbering
from ..engine.play import Play
from ..i18n import N_, _, language, ngettext
from ..pictures import svg
from ..record.match import Turn
from .session import Session

#: How a game ended, said after the points.
_KINDS = {"mars": N_("mars"), "backgammon": N_("backgammon")}


def state(session: Session, refused: str | None = None, **extra: Any) -> dict[str, Any]:
    """Everything the page shows now, as JSON-ready data; ``refused``: why the last attempt was refused."""
    s = session
    names = s.match.players
    on_roll = s.on_roll
    playing = s.phase in ("roll", "move", "cube")
    dice = s.turn.dice
    board = svg.board(
        s.position.apply(s.turn.steps()) if s.phase == "move" else s.position,
        dice=dice,
        cube=(s.cube, s.owner) if s.rules.cube else None,
        score=s.score(),
        length=s.match.length,
        names=names,
        player=on_roll,
        numbering=s.numbering,
        flipped=on_roll == 1,
        size=None,
        on_roll=playing,
        spots=True,
    )
    return {
        "phase": s.phase,
        "board": board,
        "status": status(s),
        "dice": dice_name(dice) if dice else "",
        "play": _play_text(s),
        "movable": s.movable(),
        "turns": [turn_text(s, t) for t in (s.game.turns if s.game and s.phase != "opening" else [])],
        "score": _score_text(s),
        "numbering": s.numbering.value,
        "refused": refused,
        "can": {
            "dice": s.phase in ("opening", "roll"),
            "undo": s.phase == "move",
            "done": s.phase == "move" and s.to_play() == 0,
            "double": s.may_double(),
            "answer": s.phase == "cube",
            "resign": playing,
            "next": s.phase == "game-over",
        },
        **extra,
    }


def status(s: Session) -> str:
    """The state in one sentence: who is to do what, or how the game or match ended."""
    names = s.match.players
    who = names[s.on_roll]
    if s.phase == "opening":
        return _("Opening throw: one die each, {first}'s then {second}'s (the higher starts)").format(
            first=names[0], second=names[1]
        )
    if s.phase == "roll":
        if s.may_double():
            return _("{name} to roll, or to double").format(name=who)
        return _("{name} to roll").format(name=who)
    if s.phase == "cube":
        return _("{name} doubles to {value}: {other}, take or drop?").format(
            name=who, value=2 * s.cube, other=names[1 - s.on_roll]
        )
    if s.phase == "move":
        assert s.turn.dice is not None
        roll = _roll_text(s.turn.dice)
        if s.to_play() == 0:
            return _("{name} played {roll}: Done to pass the dice, or Undo").format(name=who, roll=roll)
        return _("{name} plays {roll}").format(name=who, roll=roll)
    game = s.game
    assert game is not None and game.result is not None
    text = result_text(s)
    if s.phase == "match-over":
        a, b = s.score()
        return _("{result}. {name} wins the match {a}-{b}").format(
            result=text, name=names[game.result.winner], a=max(a, b), b=min(a, b)
        )
    return text


def result_text(s: Session) -> str:
    """``Ali wins 2 points (mars)``: the last game's result."""
    game = s.game
    assert game is not None and game.result is not None
    result = game.result
    text = ngettext("{name} wins {points} point", "{name} wins {points} points", result.points).format(
        name=s.match.players[result.winner], points=result.points
    )
    if s.result_kind in ("mars", "backgammon"):
        kind = _(_KINDS[s.result_kind])
        text = f"{text} ({kind})"
    if result.resigned:
        text = _("{result} (resigned)").format(result=text)
    return text


def turn_text(s: Session, turn: Turn) -> str:
    """One line of the game's list of turns."""
    name = s.match.players[turn.player]
    if turn.kind == "double":
        return _("{name} doubles to {value}").format(name=name, value=turn.cube)
    if turn.kind == "take":
        return _("{name} takes").format(name=name)
    if turn.kind == "drop":
        return _("{name} drops").format(name=name)
    assert turn.dice is not None
    moves = Play(turn.moves).notation(_("bar"), _("off"), flip=s.numbering.flips(turn.player))
    return f"{name} {_roll_text(turn.dice)}: " + (moves or _("cannot move"))


def _roll_text(dice: tuple[int, int]) -> str:
    return f"{dice[0]}-{dice[1]} ({dice_name(dice)})"


def _play_text(s: Session) -> str:
    steps = s.turn.steps()
    return Play(steps).notation(_("bar"), _("off"), merge=False, flip=s.numbering.flips(s.on_roll)) if steps else ""


def _score_text(s: Session) -> str:
    a, b = s.score()
    names = s.match.players
    return _("{first} {a} – {b} {second}, match to {length}").format(
        first=names[0], a=a, b=b, second=names[1], length=s.match.length
    )


def page(session: Session, token: str) -> str:
    """The recording page: the board, the dice, the buttons; its script asks the server for everything else."""
    s = session
    names = s.match.players
    e = html.escape
    title = _("Recording {first} vs {second}").format(first=names[0], second=names[1])
    faces = "".join(
        f'<button type="button" class="face" data-face="{n}" aria-label="{n}">{_FACE[n]}</button>' for n in range(1, 7)
    )
    kinds = [("single", _("single game")), ("mars", _("mars"))]
    if s.rules.backgammon:
        kinds.append(("backgammon", _("backgammon")))
    w = {
        key: e(text)
        for key, text in {
            "seed": _("seed {seed}").format(seed=s.seed),
            "dice": _("Dice"),
            "typed": _("dice or move"),
            "example": _("65, şeş beş, 24/18"),
            "enter": _("Enter"),
            "rolled": _("dice from the seeded generator"),
            "roll": _("Roll for me"),
            "undo": _("Undo"),
            "done": _("Done"),
            "double": _("Double"),
            "take": _("Take"),
            "drop": _("Drop"),
            "next": _("Next game"),
            "resign": _("Resign"),
            "resigns": _("Resigns"),
            "numbering": _("Turkish numbering (White 24→1, Black 1→24)"),
            "game": _("This game"),
            "speak": _("Say the dice's name aloud"),
        }.items()
    }
    cube = s.rules.cube
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{language()}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(title)}</title><style>{_asset('recorder.css')}</style></head>",
        f'<body data-token="{e(token)}">',
        f'<header><h1>{e(title)}</h1><span class="score" data-role="score"></span>'
        f'<span class="where">{e(s.rules.name)} · {e(str(s.path))} · {w["seed"]}</span></header>',
        '<main><section class="board" data-role="board"></section>',
        '<section class="panel">',
        '<p class="status" data-role="status" aria-live="polite"></p>',
        '<p class="refused" data-role="refused" role="alert" hidden></p>',
        '<p class="play" data-role="play"></p>',
        f'<div class="dicepad" data-role="dicepad"><span class="label">{w["dice"]}</span>{faces}</div>',
        '<form class="typed" data-role="typed" autocomplete="off">',
        f'<input name="text" data-role="text" enterkeyhint="go" aria-label="{w["typed"]}"'
        f' placeholder="{w["example"]}">',
        f'<button type="submit">{w["enter"]}</button>',
        f'<button type="button" data-act="roll" title="{w["rolled"]}">{w["roll"]}</button></form>',
        '<div class="buttons">',
        f'<button type="button" data-act="undo" data-can="undo">{w["undo"]} <kbd>U</kbd></button>',
        f'<button type="button" data-act="done" data-can="done" class="main">{w["done"]} <kbd>Enter</kbd></button>',
        f'<button type="button" data-act="double" data-can="double">{w["double"]}</button>' if cube else "",
        f'<button type="button" data-act="take" data-can="answer">{w["take"]}</button>' if cube else "",
        f'<button type="button" data-act="drop" data-can="answer">{w["drop"]}</button>' if cube else "",
        f'<button type="button" data-act="next" data-can="next" class="main">{w["next"]}</button>',
        "</div>",
        f'<details class="resign"><summary>{w["resign"]}</summary>',
        '<select data-role="resigner">'
        + "".join(f'<option value="{i}">{e(n)}</option>' for i, n in enumerate(names))
        + "</select>",
        '<select data-role="resign-kind">'
        + "".join(f'<option value="{k}">{e(t)}</option>' for k, t in kinds)
        + "</select>",
        f'<button type="button" data-act="resign" data-can="resign">{w["resigns"]}</button></details>',
        '<label class="numbering"><input type="checkbox" data-role="numbering"'
        + (" checked" if s.numbering is Numbering.ABSOLUTE else "")
        + f"> {w['numbering']}</label>",
        f'<label class="numbering"><input type="checkbox" data-role="speak"> {w["speak"]}</label>',
        f'<h2>{w["game"]}</h2><ol class="turns" data-role="turns"></ol>',
        "</section></main>",
        f"<script>{_asset('recorder.js')}</script></body></html>",
    ]
    return "\n".join(p for p in parts if p)


#: The die faces as characters (⚀ .. ⚅).
_FACE = {n: chr(0x267F + n) for n in range(1, 7)}


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


__all__ = ["page", "result_text", "state", "status", "turn_text"]
