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

from ..engine.rules import Rules
from ..i18n import _
from .match import Game
from .problem import Finding


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
        if self.candidates and written not in self.candidates:
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
        if result is not None and result.winner in (0, 1):
            for base in (score, written):
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


__all__ = ["ScoreKeeper"]
