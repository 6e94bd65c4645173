"""The match score from game to game: the score before each game as the
earlier results give it, and which game is the Crawford game. Readers and
writers of records use it (a .mat writer asks which game a reader would
take for the Crawford game), and so does the replayer.

>>> from tavlakit.record.match import Game, Result
>>> keeper = ScoreKeeper(3)
>>> keeper.score(Game(1, result=Result(0, 2)))[0], keeper.score(Game(2, (2, 0)))[0]
((0, 0), (2, 0))
"""

from __future__ import annotations

from collections.abc import Iterator

from ..engine.rules import Rules
from ..i18n import _
from .match import Game, Match
from .problem import Finding, Problem

#: The longest match, the highest score and the most points a game can be
#: worth that a record may hold: what gnubg's Match ID holds (15 bits each).
#: A larger number is an ``absurd-number`` error, and the analysis leaves
#: the file out (:func:`first_absurd`).
MOST_POINTS = (1 << 15) - 1
#: The highest game number (a label; a money session of many games fits below it).
MOST_GAMES = (1 << 31) - 1


def absurd_length(length: int) -> Finding | None:
    """The error of a match length no match can have, if it is one.

    >>> absurd_length(7) is None, absurd_length(10**20).code
    (True, 'absurd-number')
    """
    if length <= MOST_POINTS:
        return None
    return Finding(
        "absurd-number",
        "error",
        _("a match to {length} points: no match is longer than {most}").format(length=length, most=MOST_POINTS),
    )


def absurd_row(number: int | None) -> Finding | None:
    """The error of a row (turn) number no game can have, if it is one."""
    if number is None or number <= MOST_GAMES:
        return None
    return Finding(
        "absurd-number",
        "error",
        _("row number {number}: no game has more than {most} rows").format(number=number, most=MOST_GAMES),
    )


def absurd_game(game: Game) -> Finding | None:
    """The error of a game number, a cube to start with or a score line no match can have, if any."""
    if game.cube > MOST_POINTS:
        return Finding(
            "absurd-number",
            "error",
            _("the game starts with the cube at {cube}: no cube goes above {most}").format(
                cube=game.cube, most=MOST_POINTS
            ),
        )
    if game.number > MOST_GAMES:
        return Finding(
            "absurd-number",
            "error",
            _("game number {number}: no record holds more than {most} games").format(
                number=game.number, most=MOST_GAMES
            ),
        )
    if max(game.score) > MOST_POINTS:
        return Finding(
            "absurd-number",
            "error",
            _("the score line says {s0}-{s1}: no score is higher than {most}").format(
                s0=game.score[0], s1=game.score[1], most=MOST_POINTS
            ),
        )
    return None


def absurd_points(points: int) -> Finding | None:
    """The error of a point total no game can be worth in any match, if it is one."""
    if points <= MOST_POINTS:
        return None
    return Finding(
        "absurd-number",
        "error",
        _("Wins {points} point(s): no game is worth more than {most}").format(points=points, most=MOST_POINTS),
    )


def first_absurd(match: Match) -> Problem | None:
    """The first number of ``match`` no match can have, located as the
    replay reports it (the length where it was written, a game's number
    and score at its first line, a result where it was written); ``None``
    when every number is one a match can have."""
    for finding, (line, column, game) in _absurd(match):
        return Problem(
            finding.code, finding.severity, finding.message, file=match.source, line=line, column=column, game=game
        )
    return None


def _absurd(match: Match) -> Iterator[tuple[Finding, tuple[int | None, int | None, int | None]]]:
    """Each absurd number of ``match`` with its (line, column, game)."""
    found = absurd_length(match.length)
    if found:
        line, column = match.length_at or (None, None)
        yield found, (line, column, None)
    for game in match.games:
        found = absurd_game(game)
        if found:
            yield found, (game.line, None, game.number)
        for turn in game.turns:
            found = absurd_row(turn.number)
            if found:
                yield found, (turn.line, None, game.number)
        result = game.result
        found = absurd_points(result.points) if result is not None else None
        if found and result is not None:
            yield found, (result.line, result.column, game.number)


class ScoreKeeper:
    """Follows the match score from game to game.

    A score line is right when it follows from the previous game's score (as
    computed, or as written) and result; a wrong one is reported once and the
    computed score is used from there on, so one typo does not spoil the
    rest of the match.
    """

    def __init__(self, length: int) -> None:
        self.length = length
        self.candidates: list[tuple[int, int]] = []
        self.first = True
        self.crawford_done = False

    def score(self, game: Game) -> tuple[tuple[int, int], list[Finding]]:
        """The score before ``game``, and what is wrong with its score line."""
        found = []
        score = written = game.score
        if self.first and written != (0, 0):
            # the record starts in mid-match: an earlier game may have been the Crawford game
            self.crawford_done = True
        self.first = False
        absurd = absurd_game(game)
        if absurd is not None:
            found.append(absurd)
        if max(written) > MOST_POINTS:  # not a score: the earlier results say it (or the match starts here)
            score = self.candidates[0] if self.candidates else (0, 0)
        elif self.candidates and written not in self.candidates:
            score = self.candidates[0]
            found.append(
                Finding(
                    "score-mismatch",
                    "error",
                    _("the score line says {w0}-{w1}, but earlier results give {s0}-{s1}").format(
                        w0=written[0], w1=written[1], s0=score[0], s1=score[1]
                    ),
                )
            )
        if self.length and max(score) >= self.length:
            found.append(
                Finding(
                    "match-over",
                    "error",
                    _("the match to {length} was already won at {s0}-{s1}").format(
                        length=self.length, s0=score[0], s1=score[1]
                    ),
                )
            )
        result = game.result
        self.candidates = []
        if result is not None and result.winner in (0, 1) and result.points <= MOST_POINTS:
            for base in (score, written) if max(written) <= MOST_POINTS else (score,):
                after = list(base)
                after[result.winner] += result.points
                if tuple(after) not in self.candidates:
                    self.candidates.append((after[0], after[1]))
        return score, found

    def crawford(self, game: Game, score: tuple[int, int], rules: Rules) -> bool:
        """Whether ``game`` (at ``score``) is the Crawford game: its own mark, else :meth:`by_score`."""
        crawford = self.by_score(score, rules)
        return crawford if game.crawford is None else game.crawford

    def by_score(self, score: tuple[int, int], rules: Rules) -> bool:
        """Whether the game at ``score`` is the Crawford game by the score
        alone (what a record that marks no Crawford game says)."""
        length = self.length
        if length and rules.cube and rules.crawford and not self.crawford_done and max(score) == length - 1:
            self.crawford_done = True
            return True
        return False


__all__ = [
    "MOST_GAMES",
    "MOST_POINTS",
    "ScoreKeeper",
    "absurd_game",
    "absurd_length",
    "absurd_points",
    "absurd_row",
    "first_absurd",
]
