"""tavlakit's lossless JSON: one object per match (see ``docs/json-schema.md``).

>>> import io
>>> from tavlakit.record.match import Game, Match, Result, Turn
>>> from tavlakit.engine.play import Move
>>> match = Match(("Ann", "Bob"), 3, [Game(1, (0, 0), [Turn(0, dice=(3, 1), moves=(Move(8, 5), Move(6, 5)))],
...                                        Result(0, 1, resigned=True))])
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
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, get_args

from ..engine.play import Move, parse_part
from ..i18n import _
from ..record.match import Candidate, CubeOption, Game, Match, RecordedAnalysis, Result, RollStatus, Turn, TurnKind
from ..record.problem import Problem, Reporter
from .text import open_input, owned, put_first

__all__ = ["JsonReader", "read_json", "write_json", "match_to_dict", "match_from_dict", "FORMAT", "VERSION"]

FORMAT = "tavlakit-match"
VERSION = 1
_KINDS = get_args(TurnKind)
_STATUSES = get_args(RollStatus)
_OPTIONS = get_args(CubeOption)


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
    if turn.analysis is not None:
        out["analysis"] = _analysis_to_dict(turn.analysis)
    return out


def _analysis_to_dict(found: RecordedAnalysis) -> dict[str, Any]:
    out: dict[str, Any] = {"program": found.program}
    for key in ("error", "luck", "cube_error", "level", "played"):
        value = getattr(found, key)
        if value is not None:
            out[key] = value
    for key in ("candidates", "cube_options"):
        if getattr(found, key):
            out[key] = [_candidate_to_dict(c) for c in getattr(found, key)]
    return out


def _candidate_to_dict(candidate: Candidate) -> dict[str, Any]:
    out: dict[str, Any] = {"equity": candidate.equity}
    if candidate.moves:
        out["moves"] = [str(move) for move in candidate.moves]
    if candidate.action is not None:
        out["action"] = candidate.action
    if candidate.probabilities is not None:
        out["probabilities"] = list(candidate.probabilities)
    if candidate.level is not None:
        out["level"] = candidate.level
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
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "players": list(match.players),
        "length": match.length,
        "tags": dict(match.tags),
    }
    if match.comments:
        out["comments"] = list(match.comments)
    out["games"] = [_game_to_dict(g) for g in match.games]
    return out


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def write_json(match: Match, stream: IO[str]) -> list[Problem]:
    """Write ``match``, one turn per line. Returns ``lost-on-write`` problems
    only for moves that do not go forward (the reader refuses them)."""
    report = Reporter(file=match.source)
    for game in match.games:
        for turn in game.turns:
            for move in turn.moves:
                if not 0 <= move.dst < move.src <= 25:
                    report.warning(
                        "lost-on-write",
                        _("move {move} does not go forward; it will not read back").format(move=move),
                        line=turn.line,
                        game=game.number,
                        move=turn.number,
                    )
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
    return report.problems


# --- reading ---------------------------------------------------------------------


class _Invalid(ValueError):
    """A schema violation at a JSON path."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path or '/'}: {message}")


def _expect(value: Any, kind: type | tuple[type, ...], path: str, what: str) -> Any:
    if not isinstance(value, kind):
        raise _Invalid(path, f"expected {what}, found {json.dumps(value, ensure_ascii=False)[:40]}")
    return value


def _int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Invalid(path, f"expected a whole number, found {json.dumps(value)[:40]}")
    return value


def _player(value: Any, path: str) -> int:
    player = _int(value, path)
    if player not in (0, 1):
        raise _Invalid(path, f"a player is 0 or 1, not {value}")
    return player


def _strings(value: Any, path: str) -> list[str]:
    _expect(value, list, path, "a list of strings")
    for i, item in enumerate(value):
        _expect(item, str, f"{path}/{i}", "a string")
    return list(value)


def _extra(value: Any, path: str) -> dict[str, list[str]]:
    _expect(value, dict, path, "an object of string lists")
    return {k: _strings(v, f"{path}/{k}") for k, v in value.items()}


def _number(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Invalid(path, f"expected a number, found {json.dumps(value)[:40]}")
    return float(value)


def _optional(obj: dict[str, Any], key: str, path: str) -> float | None:
    return None if obj.get(key) is None else _number(obj[key], f"{path}/{key}")


def _keys(obj: dict[str, Any], allowed: set[str], path: str, required: tuple[str, ...] = ()) -> None:
    unknown = set(obj) - allowed
    if unknown:
        raise _Invalid(path, f"unknown field(s) {', '.join(sorted(unknown))}")
    for key in required:
        if key not in obj:
            raise _Invalid(path, f"the field {key!r} is missing")


_TURN_KEYS = {"player", "kind", "dice", "moves", "status", "cube", "comment", "number", "extra", "analysis"}
_ANALYSIS_KEYS = {"program", "error", "luck", "cube_error", "level", "played", "candidates", "cube_options"}
_CANDIDATE_KEYS = {"equity", "moves", "action", "probabilities", "level"}


def _moves(value: Any, path: str) -> tuple[Move, ...]:
    moves: list[Move] = []
    for i, text in enumerate(_strings(value, path)):
        try:
            parts = parse_part(text)
        except ValueError as exc:
            raise _Invalid(f"{path}/{i}", str(exc)) from None
        if len(parts) != 1:
            raise _Invalid(f"{path}/{i}", f"one move 'from/to' per entry, not {text!r}")
        moves.extend(parts)
    return tuple(moves)


def _level(obj: dict[str, Any], path: str) -> str | None:
    level = obj.get("level")
    return None if level is None else _expect(level, str, f"{path}/level", "a string")


def _candidate(obj: Any, path: str) -> Candidate:
    _expect(obj, dict, path, "a candidate object")
    _keys(obj, _CANDIDATE_KEYS, path, ("equity",))
    action = obj.get("action")
    if action is not None and action not in _OPTIONS:
        raise _Invalid(f"{path}/action", f"expected one of {', '.join(_OPTIONS)}, not {action!r}")
    chances = None
    if obj.get("probabilities") is not None:
        raw = _expect(obj["probabilities"], list, f"{path}/probabilities", "five probabilities")
        if len(raw) != 5:
            raise _Invalid(f"{path}/probabilities", f"five probabilities, not {len(raw)}")
        values = [_number(v, f"{path}/probabilities/{i}") for i, v in enumerate(raw)]
        chances = (values[0], values[1], values[2], values[3], values[4])
    return Candidate(
        _number(obj["equity"], f"{path}/equity"),
        _moves(obj.get("moves", []), f"{path}/moves"),
        action,
        chances,
        _level(obj, path),
    )


def _analysis(obj: Any, path: str) -> RecordedAnalysis:
    _expect(obj, dict, path, "an analysis object")
    _keys(obj, _ANALYSIS_KEYS, path, ("program",))
    candidates, cube = (
        tuple(
            _candidate(c, f"{path}/{key}/{i}")
            for i, c in enumerate(_expect(obj.get(key, []), list, f"{path}/{key}", "a list of candidates"))
        )
        for key in ("candidates", "cube_options")
    )
    played = obj.get("played")
    return RecordedAnalysis(
        _expect(obj["program"], str, f"{path}/program", "a string"),
        _optional(obj, "error", path),
        _optional(obj, "luck", path),
        _optional(obj, "cube_error", path),
        _level(obj, path),
        candidates,
        None if played is None else _int(played, f"{path}/played"),
        cube,
    )


def _turn(obj: Any, path: str) -> Turn:
    _expect(obj, dict, path, "a turn object")
    _keys(obj, _TURN_KEYS, path, ("player",))
    kind = obj.get("kind", "roll")
    if kind not in _KINDS:
        raise _Invalid(f"{path}/kind", f"expected one of {', '.join(_KINDS)}, not {kind!r}")
    status = obj.get("status", "play")
    if status not in _STATUSES:
        raise _Invalid(f"{path}/status", f"expected one of {', '.join(_STATUSES)}, not {status!r}")
    dice = None
    if obj.get("dice") is not None:
        raw = _expect(obj["dice"], list, f"{path}/dice", "two dice")
        if len(raw) != 2:
            raise _Invalid(f"{path}/dice", f"a roll has two dice, not {len(raw)}")
        dice = (_int(raw[0], f"{path}/dice/0"), _int(raw[1], f"{path}/dice/1"))
    moves = _moves(obj.get("moves", []), f"{path}/moves")
    cube = obj.get("cube")
    comment = obj.get("comment")
    number = obj.get("number")
    return Turn(
        player=_player(obj["player"], f"{path}/player"),
        kind=kind,
        dice=dice,
        moves=moves,
        status=status,
        cube=None if cube is None else _int(cube, f"{path}/cube"),
        comment=None if comment is None else _expect(comment, str, f"{path}/comment", "a string"),
        number=None if number is None else _int(number, f"{path}/number"),
        extra=_extra(obj.get("extra", {}), f"{path}/extra"),
        analysis=None if obj.get("analysis") is None else _analysis(obj["analysis"], f"{path}/analysis"),
    )


_GAME_KEYS = {"number", "score", "crawford", "start", "cube", "cube_owner", "result", "comments", "extra", "turns"}


def _game(obj: Any, path: str, source: str | None) -> Game:
    _expect(obj, dict, path, "a game object")
    _keys(obj, _GAME_KEYS, path, ("number", "turns"))
    score = _expect(obj.get("score", [0, 0]), list, f"{path}/score", "two scores")
    if len(score) != 2:
        raise _Invalid(f"{path}/score", "two scores expected")
    crawford = obj.get("crawford")
    if crawford is not None:
        _expect(crawford, bool, f"{path}/crawford", "true, false or null")
    start = obj.get("start")
    if start is not None:
        _expect(start, str, f"{path}/start", "a Position ID")
        from ..engine.position import Position

        try:
            Position.from_position_id(start)
        except ValueError as exc:
            raise _Invalid(f"{path}/start", str(exc)) from None
    result = None
    if obj.get("result") is not None:
        r = _expect(obj["result"], dict, f"{path}/result", "a result object")
        _keys(r, {"winner", "points", "resigned"}, f"{path}/result", ("winner", "points"))
        result = Result(
            _player(r["winner"], f"{path}/result/winner"),
            _int(r["points"], f"{path}/result/points"),
            resigned=_expect(r.get("resigned", False), bool, f"{path}/result/resigned", "true or false"),
        )
    game = Game(
        number=_int(obj["number"], f"{path}/number"),
        score=(_int(score[0], f"{path}/score/0"), _int(score[1], f"{path}/score/1")),
        result=result,
        crawford=crawford,
        start=start,
        cube=_int(obj.get("cube", 1), f"{path}/cube"),
        cube_owner=None if obj.get("cube_owner") is None else _player(obj["cube_owner"], f"{path}/cube_owner"),
        comments=_strings(obj.get("comments", []), f"{path}/comments"),
        extra=_extra(obj.get("extra", {}), f"{path}/extra"),
    )
    turns = _expect(obj["turns"], list, f"{path}/turns", "a list of turns")
    report = Reporter(game.problems, file=source, game=game.number)
    for i, turn in enumerate(turns):
        try:
            game.turns.append(_turn(turn, f"{path}/turns/{i}"))
        except _Invalid as exc:
            report.error("syntax", _("{reason}; turn left out").format(reason=exc), move=i + 1)
    return game


_MATCH_KEYS = {"format", "version", "players", "length", "tags", "comments", "games"}


def _header(data: Any, source: str | None) -> tuple[Match, list[Any]]:
    """The match header of a decoded JSON object and its raw games; a
    schema violation raises :class:`_Invalid`."""
    _expect(data, dict, "", "a match object")
    _keys(data, _MATCH_KEYS, "", ("games",))
    if data.get("format", FORMAT) != FORMAT:
        raise _Invalid("/format", f"expected {FORMAT!r}, not {data['format']!r}")
    version = data.get("version", VERSION)
    if version != VERSION:
        raise _Invalid("/version", f"this tavlakit reads version {VERSION}, not {version!r}")
    players = _strings(data.get("players", ["Player 1", "Player 2"]), "/players")
    if len(players) != 2:
        raise _Invalid("/players", f"two players expected, not {len(players)}")
    tags = _expect(data.get("tags", {}), dict, "/tags", "an object of strings")
    for key, value in tags.items():
        _expect(value, str, f"/tags/{key}", "a string")
    match = Match(
        players=(players[0], players[1]),
        length=_int(data.get("length", 0), "/length"),
        tags=dict(tags),
        comments=_strings(data.get("comments", []), "/comments"),
        source=source,
    )
    games = _expect(data["games"], list, "/games", "a list of games")
    match.resolve_rules()  # a tag that cannot be read: a bad-tag problem naming it
    return match, games


class JsonReader:
    """A JSON match opened for reading: :attr:`~JsonReader.match` holds the header (no
    games); :meth:`games` converts the games one at a time (the JSON text
    itself is parsed whole). Bad JSON or a bad header gives a header whose
    ``problems`` say where and no games; nothing is raised."""

    def __init__(self, given: str | bytes | Path | IO[str], source: str | None = None) -> None:
        stream, source, decoding = open_input(given, source)
        #: The match read so far: its header at first, its games as they are read.
        self.match = Match(source=source)
        self._games: list[Any] = []
        try:
            self._read(stream, given, source)
        finally:
            put_first(decoding, self.match.problems)

    def _read(self, stream: IO[str], given: object, source: str | None) -> None:
        report = Reporter(self.match.problems, file=source)
        try:
            with owned(given, stream):
                data = json.loads(stream.read())
        except json.JSONDecodeError as exc:
            report.error(
                "syntax", _("not valid JSON: {reason}").format(reason=exc.msg), line=exc.lineno, column=exc.colno
            )
            return
        try:
            self.match, self._games = _header(data, source)
        except _Invalid as exc:
            report.error("syntax", _("not a tavlakit match: {reason}").format(reason=exc))

    def games(self) -> Iterator[Game]:
        """The games, converted one by one."""
        return _games(self.match, self._games)


def _games(match: Match, games: list[Any]) -> Iterator[Game]:
    """``games`` converted one by one; a game that breaks the schema is left
    out with a ``syntax`` problem in ``match.problems``."""
    report = Reporter(match.problems, file=match.source)
    for i, raw in enumerate(games):
        try:
            game = _game(raw, f"/games/{i}", match.source)
        except _Invalid as exc:
            report.error("syntax", _("{reason}; game left out").format(reason=exc), game=i + 1)
            continue
        game.players = match.players
        yield game


def match_from_dict(data: Any, source: str | None = None) -> Match:
    """A :class:`Match` from a decoded JSON object. A schema violation in a
    game or turn leaves it out with a ``syntax`` problem; one in the match
    header raises ``ValueError`` naming the JSON path."""
    match, games = _header(data, source)
    match.games = list(_games(match, games))
    return match


def read_json(given: str | bytes | Path | IO[str], source: str | None = None) -> Match:
    """Read a whole match written by :func:`write_json` (see :class:`JsonReader`)."""
    reader = JsonReader(given, source)
    reader.match.games = list(reader.games())
    return reader.match
