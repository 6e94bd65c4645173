"""tavlakit's lossless JSON: one object per match (see ``docs/json-schema.md``).

>>> import io
>>> from tavlakit.record import Game, Match, Result, Turn
>>> from tavlakit.play import Move
>>> match = Match(("Ann", "Bob"), 3, [Game(1, (0, 0), [Turn(0, dice=(3, 1), moves=(Move(8, 5), Move(6, 5)))],
...                                        Result(0, 1, True))])
>>> out = io.StringIO()
>>> write_json(match, out)
[]
>>> print(out.getvalue().splitlines()[12])
    {"player": 0, "dice": [3, 1], "moves": ["8/5", "6/5"]}
>>> read_json(out.getvalue()) == match
True

Every field of the record model is kept except where a record was read
from (line, column, raw text, source file) and the reading problems.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any, get_args

from ..play import Move, parse_part
from ..i18n import N_, _
from ..problem import Problem
from ..record import Game, Match, Result, RollStatus, Turn, TurnKind
from .text import read_input

__all__ = ["read_json", "write_json", "match_to_dict", "match_from_dict", "FORMAT", "VERSION"]

FORMAT = "tavlakit-match"
VERSION = 1
_KINDS = get_args(TurnKind)
_STATUSES = get_args(RollStatus)


# --- writing ---------------------------------------------------------------------


def _turn_to_dict(turn: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {"player": turn.player}
    if turn.kind != "roll":
        out["kind"] = turn.kind
    if turn.dice is not None:
        out["dice"] = list(turn.dice)
    if turn.moves:
        out["moves"] = [str(move) for move in turn.moves]
    if turn.status != "play":
        out["status"] = turn.status
    if turn.cube is not None:
        out["cube"] = turn.cube
    if turn.comment is not None:
        out["comment"] = turn.comment
    if turn.number is not None:
        out["number"] = turn.number
    if turn.extra:
        out["extra"] = {k: list(v) for k, v in turn.extra.items()}
    return out


def _game_to_dict(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {"number": game.number, "score": list(game.score)}
    if game.crawford is not None:
        out["crawford"] = game.crawford
    if game.start is not None:
        out["start"] = game.start
    if game.cube != 1:
        out["cube"] = game.cube
    if game.cube_owner is not None:
        out["cube_owner"] = game.cube_owner
    if game.result is not None:
        r = game.result
        out["result"] = {"winner": r.winner, "points": r.points, "resigned": r.resigned}
    if game.comments:
        out["comments"] = list(game.comments)
    if game.extra:
        out["extra"] = {k: list(v) for k, v in game.extra.items()}
    out["turns"] = [_turn_to_dict(t) for t in game.turns]
    return out


def match_to_dict(match: Match) -> dict[str, Any]:
    """The JSON object of ``match`` (plain dicts and lists)."""
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "players": list(match.players),
                           "length": match.length, "tags": dict(match.tags)}
    if match.comments:
        out["comments"] = list(match.comments)
    out["games"] = [_game_to_dict(g) for g in match.games]
    return out


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def write_json(match: Match, stream: IO[str]) -> list[Problem]:
    """Write ``match``, one turn per line. Returns ``lost-on-write`` problems
    only for moves that do not go forward (the reader refuses them)."""
    problems = [Problem("lost-on-write", "warning", _("move {move} does not go forward; it will not read back").format(
                            move=move),
                        file=match.source, line=turn.line, game=game.number, move=turn.number)
                for game in match.games for turn in game.turns for move in turn.moves
                if not 0 <= move.dst < move.src <= 25]
    data = match_to_dict(match)
    games = data.pop("games")
    lines = ["{"]
    lines.extend(f" {_dumps(k)}: {_dumps(v)}," for k, v in data.items())
    lines.append(' "games": [' if games else ' "games": []')
    for i, game in enumerate(games):
        turns = game.pop("turns")
        lines.append("  {")
        lines.extend(f"   {_dumps(k)}: {_dumps(v)}," for k, v in game.items())
        if turns:
            lines.append('   "turns": [')
            lines.extend(f"    {_dumps(t)}{',' if j < len(turns) - 1 else ''}" for j, t in enumerate(turns))
            lines.append("   ]")
        else:
            lines.append('   "turns": []')
        lines.append("  }" + ("," if i < len(games) - 1 else ""))
    if games:
        lines.append(" ]")
    lines.append("}")
    stream.write("\n".join(lines) + "\n")
    return problems


# --- reading ---------------------------------------------------------------------


class _Invalid(ValueError):
    """A schema violation at a JSON path."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path or '/'}: {message}")


def _expect(value: Any, kind: type | tuple[type, ...], path: str, what: str) -> Any:
    if not isinstance(value, kind):
        raise _Invalid(path, _("expected {what}, found {value}").format(what=_(what), value=json.dumps(
            value, ensure_ascii=False)[:40]))
    return value


def _int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Invalid(path, _("expected a whole number, found {value}").format(value=json.dumps(value)[:40]))
    return value


def _player(value: Any, path: str) -> int:
    if _int(value, path) not in (0, 1):
        raise _Invalid(path, _("a player is 0 or 1, not {value}").format(value=value))
    return value


def _strings(value: Any, path: str) -> list[str]:
    _expect(value, list, path, N_("a list of strings"))
    for i, item in enumerate(value):
        _expect(item, str, f"{path}/{i}", N_("a string"))
    return list(value)


def _extra(value: Any, path: str) -> dict[str, list[str]]:
    _expect(value, dict, path, N_("an object of string lists"))
    return {k: _strings(v, f"{path}/{k}") for k, v in value.items()}


def _keys(obj: dict, allowed: set[str], path: str, required: tuple[str, ...] = ()) -> None:
    unknown = set(obj) - allowed
    if unknown:
        raise _Invalid(path, _("unknown field(s) {fields}").format(fields=", ".join(sorted(unknown))))
    for key in required:
        if key not in obj:
            raise _Invalid(path, _("the field {key!r} is missing").format(key=key))


_TURN_KEYS = {"player", "kind", "dice", "moves", "status", "cube", "comment", "number", "extra"}


def _turn(obj: Any, path: str) -> Turn:
    _expect(obj, dict, path, N_("a turn object"))
    _keys(obj, _TURN_KEYS, path, ("player",))
    kind = obj.get("kind", "roll")
    if kind not in _KINDS:
        raise _Invalid(f"{path}/kind", _("expected one of {values}, not {value!r}").format(values=", ".join(_KINDS),
                                                                                                value=kind))
    status = obj.get("status", "play")
    if status not in _STATUSES:
        raise _Invalid(f"{path}/status", _("expected one of {values}, not {value!r}").format(
            values=", ".join(_STATUSES), value=status))
    dice = None
    if obj.get("dice") is not None:
        raw = _expect(obj["dice"], list, f"{path}/dice", N_("two dice"))
        if len(raw) != 2:
            raise _Invalid(f"{path}/dice", _("a roll has two dice, not {count}").format(count=len(raw)))
        dice = (_int(raw[0], f"{path}/dice/0"), _int(raw[1], f"{path}/dice/1"))
    moves: list[Move] = []
    for i, text in enumerate(_strings(obj.get("moves", []), f"{path}/moves")):
        try:
            parts = parse_part(text)
        except ValueError as exc:
            raise _Invalid(f"{path}/moves/{i}", str(exc)) from None
        if len(parts) != 1:
            raise _Invalid(f"{path}/moves/{i}", _("one move 'from/to' per entry, not {text!r}").format(text=text))
        moves.extend(parts)
    cube = obj.get("cube")
    comment = obj.get("comment")
    number = obj.get("number")
    return Turn(
        player=_player(obj["player"], f"{path}/player"),
        kind=kind,
        dice=dice,
        moves=tuple(moves),
        status=status,
        cube=None if cube is None else _int(cube, f"{path}/cube"),
        comment=None if comment is None else _expect(comment, str, f"{path}/comment", N_("a string")),
        number=None if number is None else _int(number, f"{path}/number"),
        extra=_extra(obj.get("extra", {}), f"{path}/extra"),
    )


_GAME_KEYS = {"number", "score", "crawford", "start", "cube", "cube_owner", "result", "comments", "extra", "turns"}


def _game(obj: Any, path: str) -> Game:
    _expect(obj, dict, path, N_("a game object"))
    _keys(obj, _GAME_KEYS, path, ("number", "turns"))
    score = _expect(obj.get("score", [0, 0]), list, f"{path}/score", N_("two scores"))
    if len(score) != 2:
        raise _Invalid(f"{path}/score", _("two scores expected"))
    crawford = obj.get("crawford")
    if crawford is not None:
        _expect(crawford, bool, f"{path}/crawford", N_("true, false or null"))
    start = obj.get("start")
    if start is not None:
        _expect(start, str, f"{path}/start", N_("a Position ID"))
        from ..position import Position

        try:
            Position.from_position_id(start)
        except ValueError as exc:
            raise _Invalid(f"{path}/start", str(exc)) from None
    result = None
    if obj.get("result") is not None:
        r = _expect(obj["result"], dict, f"{path}/result", N_("a result object"))
        _keys(r, {"winner", "points", "resigned"}, f"{path}/result", ("winner", "points"))
        result = Result(_player(r["winner"], f"{path}/result/winner"), _int(r["points"], f"{path}/result/points"),
                        _expect(r.get("resigned", False), bool, f"{path}/result/resigned", N_("true or false")))
    game = Game(number=_int(obj["number"], f"{path}/number"),
                score=(_int(score[0], f"{path}/score/0"), _int(score[1], f"{path}/score/1")),
                result=result, crawford=crawford, start=start, cube=_int(obj.get("cube", 1), f"{path}/cube"),
                cube_owner=None if obj.get("cube_owner") is None else _player(obj["cube_owner"], f"{path}/cube_owner"),
                comments=_strings(obj.get("comments", []), f"{path}/comments"),
                extra=_extra(obj.get("extra", {}), f"{path}/extra"))
    turns = _expect(obj["turns"], list, f"{path}/turns", N_("a list of turns"))
    for i, turn in enumerate(turns):
        try:
            game.turns.append(_turn(turn, f"{path}/turns/{i}"))
        except _Invalid as exc:
            game.problems.append(Problem("syntax", "error", _("{error}; turn left out").format(error=exc), game=game.number,
                                        move=i + 1))
    return game


_MATCH_KEYS = {"format", "version", "players", "length", "tags", "comments", "games"}


def match_from_dict(data: Any, source: str | None = None) -> Match:
    """A :class:`Match` from a decoded JSON object. A schema violation in a
    game or turn leaves it out with a ``syntax`` problem; one in the match
    header raises ``ValueError`` naming the JSON path."""
    _expect(data, dict, "", N_("a match object"))
    _keys(data, _MATCH_KEYS, "", ("games",))
    if data.get("format", FORMAT) != FORMAT:
        raise _Invalid("/format", _("expected {format!r}, not {value!r}").format(format=FORMAT, value=data["format"]))
    version = data.get("version", VERSION)
    if version != VERSION:
        raise _Invalid("/version", _("this tavlakit reads version {version}, not {value!r}").format(version=VERSION,
                                                                                                 value=version))
    players = _strings(data.get("players", ["Player 1", "Player 2"]), "/players")
    if len(players) != 2:
        raise _Invalid("/players", _("two players expected, not {count}").format(count=len(players)))
    tags = _expect(data.get("tags", {}), dict, "/tags", N_("an object of strings"))
    for key, value in tags.items():
        _expect(value, str, f"/tags/{key}", N_("a string"))
    match = Match(players=(players[0], players[1]), length=_int(data.get("length", 0), "/length"),
                  tags=dict(tags), comments=_strings(data.get("comments", []), "/comments"), source=source)
    games = _expect(data["games"], list, "/games", N_("a list of games"))
    for i, game in enumerate(games):
        try:
            match.games.append(_game(game, f"/games/{i}"))
        except _Invalid as exc:
            match.problems.append(Problem("syntax", "error", _("{error}; game left out").format(error=exc), file=source,
                                         game=i + 1))
    for game in match.games:
        game.problems = [p.replace(file=source) for p in game.problems]
    return match


def read_json(stream_or_text: str | bytes | Path | IO, source: str | None = None) -> Match:
    """Read a match written by :func:`write_json`. Bad JSON or a bad header
    gives an empty match whose ``problems`` say where; nothing is raised."""
    text, source, decoding = read_input(stream_or_text, source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        match = Match(source=source, problems=decoding)
        match.problems.append(Problem("syntax", "error", _("not valid JSON: {error}").format(error=exc.msg), file=source,
                                      line=exc.lineno, column=exc.colno))
        return match
    try:
        match = match_from_dict(data, source)
    except _Invalid as exc:
        match = Match(source=source, problems=decoding)
        match.problems.append(Problem("syntax", "error", _("not a tavlakit match: {error}").format(error=exc), file=source))
        return match
    match.problems[:0] = decoding
    return match
