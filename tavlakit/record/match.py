"""The one record model every format reads into and writes from.

Players are numbered 0 and 1: 0 is the left column of a Jellyfish
transcript and White (``PW``) in gnubg's SGF; 1 the right column, Black.
Moves are in the mover's own numbering (24..1, 25 = bar, 0 = off), as
written: a merged move such as ``24/13`` stays one :class:`~tavlakit.engine.play.Move`.

Fields that say where something was written (line, column, raw text) are
left out of equality, so a match read from two formats compares equal when
the games are the same.

A match shows itself as one line, and in a notebook as a small table of
its games (score, result, problems):

>>> match = Match(("Alpha", "Bravo"), 3, [Game(1, result=Result(1, 2)), Game(2, (0, 2), result=Result(0, 1))])
>>> match
<Match 'Alpha' vs 'Bravo', 3-point match, 2 games, score 1-2>
>>> Game(1, result=Result(1, 2))
<Game 1: 0-0, 0 turns, 'Player 2' won 2 points>
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Literal, NamedTuple

from ..engine.numbering import Numbering
from ..engine.play import Move, Play
from ..engine.rules import DEFAULT_RULES, MARS_KINDS, OPENINGS, PRESETS, Rules
from ..i18n import _, ngettext
from .problem import Problem, Reporter, counts_text, html_table

TurnKind = Literal["roll", "double", "take", "drop", "beaver"]
#: For a roll: ``play`` (moves written, possibly none), ``cannot-move``
#: (written out as such), ``unknown`` (``???``, or moves the reader could
#: not read: then ``extra["unreadable"]`` holds them as written),
#: ``illegal`` (gnubg's ``Illegal play (...)`` row).
RollStatus = Literal["play", "cannot-move", "unknown", "illegal"]


def _loc() -> int | None:
    return field(default=None, compare=False)


#: A cube decision's options, as :attr:`Candidate.action` names them.
CubeOption = Literal["no double", "double/take", "double/pass"]


class Candidate(NamedTuple):
    """One option an analyser weighed: a play (its moves), or a cube option."""

    equity: float
    """The option's equity for the side to act, as the analyser wrote it
    (gnubg's cube options: cubeful, in match winning chances in match play,
    EMG in money play)."""
    moves: tuple[Move, ...] = ()
    action: CubeOption | None = None
    """For a cube decision: which option (``None``: a play)."""
    probabilities: tuple[float, float, float, float, float] | None = None
    """Win, win gammon, win backgammon, lose gammon, lose backgammon (gnubg's order)."""
    level: str | None = None
    """How deep it was analysed (``"4-ply"``, ``"XG Roller++"``)."""


#: The programs whose analysis a record may hold (:attr:`RecordedAnalysis.program`): GNU Backgammon (its SGF),
GNUBG = "gnubg"
#: and eXtreme Gammon (its ``.xg``).
XG = "XG"


class RecordedAnalysis(NamedTuple):
    """The analysis a record holds for a turn, by the program that wrote it
    (kept as written, not recomputed). Errors are the equity lost (>= 0),
    luck the equity a roll gained its roller, in the program's unit: XG's
    is EMG (equity normalised to the cube, a double/pass being +1 at any
    cube). ``None`` where the file holds no analysis. Immutable (a named
    tuple: a reader makes one for every turn, and a frozen dataclass takes
    four times as long to make)."""

    program: str
    """Whose analysis (:data:`XG`: eXtreme Gammon; :data:`GNUBG`: GNU Backgammon's, in its SGF)."""
    error: float | None = None
    """The equity this turn's action lost: the play of a roll, or the double,
    take, drop or beaver of a cube turn."""
    luck: float | None = None
    """A roll's luck for the roller."""
    cube_error: float | None = None
    """For a roll: the equity lost by not doubling before it (the roller's
    cube error; the doubler's and taker's errors of a double are the
    :attr:`error` of its cube turns)."""
    level: str | None = None
    candidates: Sequence[Candidate] = ()
    """The options weighed, best first: the plays of a roll, the cube options
    of a cube turn (a reader may decode them only when first used)."""
    played: int | None = None
    """The index in :attr:`candidates` of the play written (``None``: not among them)."""
    cube_options: Sequence[Candidate] = ()
    """For a roll: the cube options weighed before it when the roller did
    not double: ``no double`` and ``double/take`` (gnubg's SGF keeps them
    with the roll), then ``double/pass`` (XG's files hold all three)."""


@dataclass
class Turn:
    """One entry of a game: a roll and its play, or a cube action."""

    player: int
    kind: TurnKind = "roll"
    dice: tuple[int, int] | None = None
    moves: tuple[Move, ...] = ()
    status: RollStatus = "play"
    cube: int | None = None
    comment: str | None = None
    number: int | None = _loc()
    line: int | None = _loc()
    column: int | None = _loc()
    text: str = field(default="", compare=False)
    extra: dict[str, list[str]] = field(default_factory=dict, compare=False)
    analysis: RecordedAnalysis | None = None
    """What the file's own analyser said about this turn."""

    @property
    def play(self) -> Play:
        """The written moves as a :class:`~tavlakit.engine.play.Play`."""
        return Play(self.moves)


@dataclass
class Result:
    """How a game ended: who won, the points written, and whether by resignation."""

    winner: int
    points: int
    _: KW_ONLY
    resigned: bool = False
    line: int | None = _loc()
    column: int | None = _loc()


@dataclass
class Game:
    """One game: the score before it, its turns and its result."""

    number: int
    score: tuple[int, int] = (0, 0)
    turns: list[Turn] = field(default_factory=list)
    result: Result | None = None
    _: KW_ONLY
    crawford: bool | None = None
    start: str | None = None
    """Position ID of a set-up start, seen by the player who rolls first
    (``None``: the standard initial position)."""
    cube: int = 1
    """Cube value at the start (a set-up position may begin with it turned)."""
    cube_owner: int | None = None
    """Owner of the cube at the start (``None``: centred)."""
    comments: list[str] = field(default_factory=list)
    line: int | None = _loc()
    extra: dict[str, list[str]] = field(default_factory=dict, compare=False)
    problems: list[Problem] = field(default_factory=list, compare=False)
    """Problems found while reading this game."""
    players: tuple[str, str] = field(default=("Player 1", "Player 2"), compare=False)
    """The match's players as the file names them (set by the readers; for the repr)."""

    def score_after(self) -> tuple[int, int]:
        """The score after this game (the score before plus its result's points)."""
        score = list(self.score)
        if self.result is not None and self.result.winner in (0, 1):
            score[self.result.winner] += self.result.points
        return score[0], score[1]

    def __repr__(self) -> str:
        result = self.result
        if result is None:
            ending = "no result"
        else:
            who = repr(self.players[result.winner]) if result.winner in (0, 1) else f"player {result.winner}"
            ending = f"{who} won {result.points} point{'s' if result.points != 1 else ''}"
            if result.resigned:
                ending += " (resigned)"
        tail = f", {len(self.problems)} problems" if self.problems else ""
        return f"<Game {self.number}: {self.score[0]}-{self.score[1]}, {len(self.turns)} turns, {ending}{tail}>"

    def _repr_html_(self) -> str:
        return games_table([self], None, {self.number: self.problems})


@dataclass
class Match:
    """A match (``length`` points; 0 = money session) or a single game."""

    players: tuple[str, str] = ("Player 1", "Player 2")
    length: int = 0
    games: list[Game] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    source: str | None = field(default=None, compare=False)
    problems: list[Problem] = field(default_factory=list, compare=False)
    """Problems found while reading the match outside any game (header, junk)."""

    tag_lines: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)
    """Where each tag was written (line, column), for problems about it."""
    length_at: tuple[int, int] | None = field(default=None, compare=False)
    """Where the match length was written (line, column), when the format says."""
    numbering: Numbering = field(default=Numbering.RELATIVE, compare=False)
    """How the file numbered the points (:class:`~tavlakit.engine.numbering.Numbering`):
    ``RELATIVE`` (each side its own 24..1) or ``ABSOLUTE`` (a .mat's
    ``; [Numbering "absolute"]``: White 24->1, Black 1->24). The moves are always the mover's own; problems and
    the viewer write Black's points ``25 - p`` in an ``absolute`` file."""
    _resolved: tuple[dict[str, str], Rules | None, list[Problem]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def rules(self) -> Rules | None:
        """The rules the tags name, or ``None`` when they name none (then
        :data:`~tavlakit.engine.rules.DEFAULT_RULES`, backgammon, applies).

        Resolved once (:meth:`resolve_rules`, which a reader calls when the
        header is read); again only if the tags changed since.
        """
        if self._resolved is None or self._resolved[0] != self.tags:
            return self.resolve_rules()
        return self._resolved[1]

    def resolve_rules(self) -> Rules | None:
        """Read the rules from the tags (see :func:`read_rules`); a tag that
        cannot be read becomes a ``bad-tag`` problem in :attr:`problems`."""
        if self._resolved is not None:  # the tags changed: forget what the old ones gave
            old = self._resolved[2]
            self.problems[:] = [p for p in self.problems if not any(p is q for q in old)]
        found: list[Problem] = []
        rules = read_rules(self.tags, Reporter(found, file=self.source), self.tag_lines)
        self.problems.extend(found)
        self._resolved = (dict(self.tags), rules, found)
        return rules

    def ratings(self) -> tuple[float | None, float | None]:
        """Each player's rating, when a tag gives it: ``Player N Rating``
        (FIBS, gnubg's SGF ``WR``/``BR``, GMD) or ``Player N Elo`` (gnubg's
        and XG's .mat: ``"1600.00/0"``, rating/experience).

        >>> Match(tags={"Player 1 Rating": "1660", "Player 2 Elo": "1600.00/12"}).ratings()
        (1660.0, 1600.0)
        >>> Match(tags={"Player 1 Elo": "3,00/0"}).ratings()  # Backgammon Galaxy's final score, not a rating
        (None, None)
        """
        found: list[float | None] = []
        for number in (1, 2):
            text = self.tags.get(f"Player {number} Rating") or self.tags.get(f"Player {number} Elo") or ""
            value = _RATING.match(text.strip())
            found.append(float(value[0]) if value else None)
        return found[0], found[1]

    def final_score(self) -> tuple[int, int]:
        """The score after the last game ((0, 0) for a match without games)."""
        return self.games[-1].score_after() if self.games else (0, 0)

    def __repr__(self) -> str:
        a, b = self.final_score()
        problems = len(self.problems) + sum(len(g.problems) for g in self.games)
        tail = f", {problems} problems" if problems else ""
        length = f"{self.length}-point match" if self.length else "money"
        return (
            f"<Match {self.players[0]!r} vs {self.players[1]!r}, {length}, "
            f"{len(self.games)} games, score {a}-{b}{tail}>"
        )

    def _repr_html_(self) -> str:
        out = [match_heading(self), games_table(self.games, self.players, {g.number: g.problems for g in self.games})]
        if self.problems:
            out.append(f"<p>{html.escape(counts_text(self.problems))}</p>")
        return "".join(out)


# --- faces in a notebook (a validation report's table uses these too) ---------


#: A rating as tags write it (the number before gnubg's ``/experience``).
_RATING = re.compile(r"\d{1,7}(?:\.\d+)?(?=\s*(?:/|$))")


def match_heading(match: Match) -> str:
    """``Alpha vs Bravo: 3-point match, 2 games, score 1-2`` as an HTML paragraph."""
    a, b = match.final_score()
    length = _("{length}-point match").format(length=match.length) if match.length else _("money session")
    text = _("{first} vs {second}: {length}, {games} games, score {a}-{b}").format(
        first=match.players[0], second=match.players[1], length=length, games=len(match.games), a=a, b=b
    )
    return f"<p><b>{html.escape(text)}</b></p>"


def games_table(
    games: Iterable[Game], players: tuple[str, str] | None, problems_of: Mapping[int | None, list[Problem]]
) -> str:
    """The games as an HTML table: number, score, turns, result, the problems' counts."""
    head = [_("game"), _("score"), _("turns"), _("result"), _("problems")]
    rows = [
        (
            g.number,
            f"{g.score[0]}-{g.score[1]}",
            len(g.turns),
            _result_text(g, players),
            counts_text(problems_of.get(g.number, [])),
        )
        for g in games
    ]
    return html_table(head, rows)


def _result_text(game: Game, players: tuple[str, str] | None) -> str:
    result = game.result
    if result is None:
        return _("no result")
    who = (
        players[result.winner]
        if players and result.winner in (0, 1)
        else _("player {number}").format(number=result.winner)
    )
    text = ngettext("{name} wins {points} point", "{name} wins {points} points", result.points).format(
        name=who, points=result.points
    )
    return _("{result} (resigned)").format(result=text) if result.resigned else text


#: The tag of a match still being recorded (``tavlakit record``): its last game, without a result, is in
#: progress, not cut short (the reader reports no ``truncated`` error, the replay no missing result).
IN_PROGRESS_TAG = ("Recording", "in progress")

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}
_FLAG_TAGS = (("Crawford", "crawford"), ("Jacoby", "jacoby"), ("Beaver", "beaver"), ("Cube", "cube"))


def read_rules(
    tags: Mapping[str, str], report: Reporter, lines: Mapping[str, tuple[int, int]] | None = None
) -> Rules | None:
    """The rules a record's tags name, or ``None`` when they name none.

    ``Variation`` ``Tavla``/``Backgammon`` picks a preset; a ``Rules`` tag
    holds a preset name and/or ``option=value`` pairs; ``Crawford``,
    ``Jacoby`` and ``Beaver`` tags (``On``/``Off``) set those options of a
    named rule set; a ``Cube`` tag (gnubg's SGF ``RU[NoCube]`` reads as
    ``Cube`` ``Off``) sets the cube of the named rules, else of the default
    ones (backgammon). A value that cannot be read is reported through
    ``report`` as a ``bad-tag`` warning, located at ``lines[tag]`` when
    given, and left out (the default holds). Never raises.

    >>> found = []
    >>> read_rules({"Variation": "Tavla"}, Reporter(found)).name
    'tavla'
    >>> read_rules({"Rules": "tavla mars=outside-home"}, Reporter(found)).name
    'tavla-outside-home'
    >>> read_rules({"Rules": "bogus", "Jacoby": "6n"}, Reporter(found), {"Jacoby": (4, 1)}) is None
    True
    >>> [(p.code, p.line) for p in found]
    [('bad-tag', None), ('bad-tag', 4)]
    >>> read_rules({"Cube": "Off"}, Reporter(found)).cube
    False
    """
    lines = lines or {}

    def bad(tag: str, message: str) -> None:
        line, column = lines.get(tag, (None, None))
        report.warning("bad-tag", message, line=line, column=column)

    base: Rules | None = None
    variation = tags.get("Variation", "").strip().lower()
    if variation in PRESETS:
        base = PRESETS[variation]
    elif variation:
        bad(
            "Variation",
            _("the Variation tag says {value!r}; expected Backgammon or Tavla (ignored)").format(
                value=tags["Variation"]
            ),
        )
    options: dict[str, object] = {}
    for word in tags.get("Rules", "").replace(",", " ").split():
        if "=" not in word:
            if word.lower() in PRESETS:
                base = PRESETS[word.lower()]
            else:
                bad(
                    "Rules",
                    _("the Rules tag names {word!r}; expected one of {presets} or option=value (ignored)").format(
                        word=word, presets=", ".join(PRESETS)
                    ),
                )
            continue
        key, value = word.split("=", 1)
        key = key.strip().replace("-", "_")
        expected = _option_values(key)
        if expected is None:
            bad("Rules", _("the Rules tag sets {key!r}, which is not a rule option (ignored)").format(key=key))
        elif value.strip().lower() not in expected:
            bad(
                "Rules",
                _("the Rules tag sets {key}={value!r}; expected {expected} (ignored)").format(
                    key=key, value=value, expected=" or ".join(expected)
                ),
            )
        else:
            options[key] = expected[value.strip().lower()]
    for tag, key in _FLAG_TAGS:
        if tag not in tags:
            continue
        flag = _flag(tags[tag])
        if flag is None:
            bad(tag, _("the {tag} tag says {value!r}; expected On or Off (ignored)").format(tag=tag, value=tags[tag]))
        elif key not in options and (base is not None or key == "cube"):
            if base is None and not options:
                base = DEFAULT_RULES
            options[key] = flag
    limit = tags.get("CubeLimit")
    if limit is not None and not limit.strip().isdigit():
        bad("CubeLimit", _("the CubeLimit tag says {value!r}; expected a whole number (ignored)").format(value=limit))
    if base is None and not options:
        return None
    return (base or Rules()).replace(**options)


def jacoby_said(tags: Mapping[str, str]) -> bool | None:
    """Whether the tags say the Jacoby rule is played: a ``Jacoby`` tag
    (``On``/``Off``; gnubg's SGF ``RU[Jacoby]``) or the ``Rules`` tag's
    ``jacoby=`` option; ``None`` when they do not say (or cannot be read).

    >>> jacoby_said({"Jacoby": "On"}), jacoby_said({"Rules": "backgammon jacoby=off"}), jacoby_said({})
    (True, False, None)
    """
    for word in tags.get("Rules", "").replace(",", " ").split():
        key, _sep, value = word.partition("=")
        if key.strip().lower() == "jacoby" and _flag(value) is not None:
            return _flag(value)
    return _flag(tags["Jacoby"]) if "Jacoby" in tags else None


def _flag(text: str) -> bool | None:
    low = text.strip().lower()
    return True if low in _TRUE else False if low in _FALSE else None


def _option_values(key: str) -> dict[str, object] | None:
    """The values a ``Rules`` tag may give option ``key``, by their lower-case text."""
    if key not in Rules.__dataclass_fields__:
        return None
    if isinstance(getattr(Rules(), key), bool):
        return {text: text in _TRUE for text in (*sorted(_TRUE), *sorted(_FALSE))}
    choices = {"opening": OPENINGS, "mars": MARS_KINDS}[key]
    return {choice: choice for choice in choices}


def rules_to_tags(rules: Rules) -> dict[str, str]:
    """Tags that :func:`read_rules` reads back as ``rules``.

    >>> rules_to_tags(Rules.preset("tavla-outside-home"))
    {'Variation': 'Tavla', 'Rules': 'tavla-outside-home'}
    """
    base = PRESETS["backgammon"] if rules.cube else PRESETS["tavla"]
    tags = {"Variation": "Backgammon" if rules.cube else "Tavla"}
    if rules == base:
        return tags
    name = rules.name
    if name != "custom":
        tags["Rules"] = name
        return tags
    diffs = []
    for key in Rules.__dataclass_fields__:
        value = getattr(rules, key)
        if value != getattr(base, key):
            text = ("on" if value else "off") if isinstance(value, bool) else str(value)
            diffs.append(f"{key.replace('_', '-')}={text}")
    tags["Rules"] = " ".join(diffs)
    return tags
