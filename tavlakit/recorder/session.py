"""A match being recorded: the dice and plays of a live game, checked by the engine, written as they are made.

A :class:`Session` holds the :class:`~tavlakit.record.match.Match` so far and
the turn in progress. Each call is one thing a player does at the table
(the opening throw, the dice, one checker moved, undo, done, a cube action,
a resignation); a call the rules forbid raises :class:`Refused` with the
reason in the language in use. Every completed turn is written to the
transcript at once, atomically (a temporary file, ``fsync``, rename): a
crash loses at most the turn in progress. A file whose match is not over
is read back and continued (:meth:`Session.open`).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "m.mat"
>>> s = Session.open(path, rules=Rules.preset("tavla"), length=3, players=("Ali", "Veli"), seed=1)
>>> s.opening((6, 5)); s.on_roll, s.phase
(0, 'roll')
>>> s.enter_dice((6, 5)); s.targets(24)
[13, 18]
>>> s.move(24, 13); s.finish(); s.on_roll
1
>>> [t.text for t in Session.open(path).match.games[0].turns]
['65: 24/18 18/13']
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from ..engine.dicenames import parse_dice
from ..engine.numbering import Numbering
from ..engine.play import BAR, OFF, Move, point_name
from ..engine.position import Position
from ..engine.rules import ResultKind, Rules
from ..formats.mat import read_mat, write_mat
from ..i18n import _
from ..record.match import IN_PROGRESS_TAG, Game, Match, Result, Turn, rules_to_tags
from ..replay.walker import validate

Phase = Literal["opening", "roll", "move", "cube", "game-over", "match-over"]


class Refused(ValueError):
    """What a player tried is against the rules (or not the time for it); the message says why."""


@dataclass
class _Group:
    """The steps of one action of the mover (a checker moved one or more dice), or of an automatic completion."""

    moves: list[Move]
    auto: bool = False


@dataclass
class _Turn:
    """The turn in progress: the dice and the steps made."""

    dice: tuple[int, int] | None = None
    groups: list[_Group] = field(default_factory=list)

    def steps(self) -> list[Move]:
        return [move for group in self.groups for move in group.moves]


class Session:
    """A match recorded turn by turn into ``path`` (see the module's docstring)."""

    def __init__(self, path: Path, match: Match, rules: Rules, seed: int | None = None) -> None:
        self.path = path
        self.match = match
        self.rules = rules
        self.seed = random.randrange(10**6) if seed is None else seed
        self.rng = random.Random(self.seed)
        self.numbering = Numbering.RELATIVE
        self.phase: Phase = "opening"
        self.on_roll = 0
        self.position = Position.initial()  # seen by the player to act
        self.cube = 1
        self.owner: int | None = None
        self.crawford = False
        self.turn = _Turn()
        self.opening_throw: tuple[int, int] | None = None
        self.result_kind: ResultKind | None = None
        """How the last game ended on the board (``None``: by the cube or a resignation)."""
        self._legal: tuple[set[Position], int] | None = None
        self._memo: dict[tuple[Position, tuple[int, ...], int], set[Position]] = {}

    # --- starting, continuing ------------------------------------------------

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        rules: Rules | None = None,
        length: int | None = None,
        players: tuple[str, str] | None = None,
        seed: int | None = None,
    ) -> Session:
        """A new match into ``path``, or the unfinished one already there (its
        rules, length and players must agree with those given, if any)."""
        if path.exists():
            return cls._continue(path, rules, length, players, seed)
        if length is not None and length < 1:
            raise ValueError(_("the match length is 1 point or more, not {length}").format(length=length))
        chosen = rules or Rules.preset("tavla")
        match = Match(players or ("Player 1", "Player 2"), length or 5, tags=rules_to_tags(chosen))
        session = cls(path, match, chosen, seed)
        session.save()
        return session

    @classmethod
    def _continue(
        cls, path: Path, rules: Rules | None, length: int | None, players: tuple[str, str] | None, seed: int | None
    ) -> Session:
        match = read_mat(path)
        found = match.rules or Rules.preset("backgammon")
        problems = validate(match, found).problems
        if problems:
            raise ValueError(_("{path} cannot be continued: {problem}").format(path=path, problem=problems[0].message))
        for given, there, what in ((rules, found, "--rules"), (length, match.length, "--length")):
            if given is not None and given != there:
                raise ValueError(
                    _("{path} is a match with other {what} than given").format(path=path, what=what.lstrip("-"))
                )
        if players is not None and players != match.players:
            raise ValueError(_("{path} is a match with other players than given").format(path=path))
        if match.length < 1:
            raise ValueError(_("{path} is not a match to a number of points").format(path=path))
        session = cls(path, match, found, seed)
        games = list(match.games)
        match.games.clear()
        for game in games:
            session._replay_game(game)
        if session.phase == "game-over":
            session.next_game()
        if session.phase == "match-over":
            raise ValueError(_("the match in {path} is over").format(path=path))
        return session

    def _replay_game(self, game: Game) -> None:
        """Take a game read from the file: its turns as if made now, then its result."""
        self._start_game()
        self.match.games[-1].turns.clear()
        for turn in game.turns:
            if turn.kind == "roll" and not self.match.games[-1].turns:
                self.on_roll = turn.player
                self.phase = "roll"
            self._take(replace(turn))
        if game.result is not None and self.phase not in ("game-over", "match-over"):
            self._end(game.result.winner, game.result.points, resigned=game.result.resigned)

    # --- the state --------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The game being played (or the last one)."""
        return self.match.games[-1] if self.match.games else None

    def score(self) -> tuple[int, int]:
        """The match score now."""
        return self.match.final_score()

    def remaining(self) -> list[int]:
        """The dice still to play this turn."""
        dice = self.turn.dice
        if dice is None:
            return []
        left = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
        for move in self.turn.steps():
            left.remove(_die(move, left))
        return left

    def to_play(self) -> int:
        """How many more dice the turn must play (the rules: as many as can be)."""
        return self._legal_finals()[1] - len(self.turn.steps())

    def may_double(self) -> bool:
        """Whether the player on roll may double now."""
        return (
            self.phase == "roll"
            and self.rules.cube
            and not self.crawford
            and self.owner in (None, self.on_roll)
            and max(self.score()) < self.match.length
        )

    def point_text(self, point: int, player: int | None = None) -> str:
        """``point`` of ``player`` (default: the one on roll) as the page writes it: the chosen numbering."""
        who = self.on_roll if player is None else player
        return point_name(point, _("bar"), _("off"), flip=self.numbering.flips(who))

    # --- the opening and the dice --------------------------------------------------

    def opening(self, dice: tuple[int, int]) -> None:
        """The opening throw: player 0's die, player 1's die. Equal dice are
        thrown again; the higher starts, and rolls again (Tavla: ``reroll``) or
        plays the two dice (``use-opening-dice``)."""
        if self.phase != "opening":
            raise Refused(_("the opening throw was made"))
        first, second = _checked(dice)
        self.opening_throw = (first, second)
        if first == second:
            raise Refused(_("equal dice: throw again"))
        self._start_game()
        self.on_roll = 0 if first > second else 1
        self.phase = "roll"
        if self.rules.opening == "use-opening-dice":
            self.enter_dice((max(first, second), min(first, second)))

    def roll_for_me(self) -> tuple[int, int]:
        """Dice from the session's seeded generator (its ``seed``), entered as thrown."""
        dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        if self.phase == "opening":
            self.opening(dice)
        else:
            self.enter_dice(dice)
        return dice

    def enter_text(self, text: str) -> None:
        """Dice typed: two digits (``65``, ``6-5``) or a Tavla name (``şeş beş``)."""
        digits = [c for c in text if c.isdigit()]
        if len(digits) == 2 and len(text.strip()) <= 5:
            dice = (int(digits[0]), int(digits[1]))
        else:
            try:
                dice = parse_dice(text)
            except ValueError:
                raise Refused(
                    _("cannot read {text!r} as dice: type two numbers 1-6 (65) or a name (şeş beş)").format(text=text)
                ) from None
        if self.phase == "opening":
            self.opening(dice)
        else:
            self.enter_dice(dice)

    def enter_dice(self, dice: tuple[int, int]) -> None:
        """The dice thrown by the player on roll; a forced play is made at once (see :meth:`finish`)."""
        if self.phase == "cube":
            raise Refused(_("answer the double first: take or drop"))
        if self.phase != "roll" or self.turn.dice is not None:
            raise Refused(_("no dice are wanted now"))
        self.turn = _Turn(_checked(dice))
        self._legal = None
        self.phase = "move"
        self._complete()

    # --- moving ---------------------------------------------------------------------

    def movable(self) -> list[int]:
        """The points (own numbering, 25 the bar) whose checker can move now."""
        if self.phase != "move":
            return []
        return [src for src in range(1, 26) if self._paths(src)]

    def targets(self, src: int) -> list[int]:
        """Where the checker on ``src`` may go now (0: off), one or more dice
        at a time; a :class:`Refused` saying why when it may not move."""
        self._can_pick(src)
        found = sorted(self._paths(src))
        if not found:
            raise Refused(self._why_stuck(src))
        return found

    def move(self, src: int, dst: int) -> None:
        """Move the checker on ``src`` to ``dst`` (one die or several, each stop
        open); the rest is made at once when only one completion remains."""
        self._can_pick(src)
        path = self._paths(src).get(dst)
        if path is None:
            raise Refused(self._why_not(src, dst))
        self.turn.groups.append(_Group(path))
        self._complete()

    def undo(self) -> None:
        """Take back the last checker moved this turn; with none moved, the dice entered."""
        if self.phase != "move":
            raise Refused(_("nothing to undo in this turn"))
        groups = self.turn.groups
        popped = groups.pop() if groups else None
        if not groups and (popped is None or popped.auto):
            self.turn = _Turn()
            self.phase = "roll"
            if self.rules.opening == "use-opening-dice" and self.game and not self.game.turns:
                self.phase = "opening"  # the opening dice were the play's: throw again
                self.match.games.pop()

    def finish(self) -> None:
        """The turn's play is complete: write it down and pass the dice."""
        if self.phase != "move":
            raise Refused(_("no play to finish"))
        if self.to_play() > 0:
            raise Refused(_("the play is not complete: play {dice}").format(dice=" ".join(map(str, self.remaining()))))
        moves = tuple(self.turn.steps())
        assert self.turn.dice is not None
        self._commit(Turn(self.on_roll, "roll", self.turn.dice, moves, "play" if moves else "cannot-move"))

    # --- the cube, resigning, games -----------------------------------------------------

    def double(self) -> None:
        """The player on roll offers to double (before the dice)."""
        if not self.may_double():
            raise Refused(self._why_no_double())
        self._commit(Turn(self.on_roll, "double", cube=2 * self.cube))

    def take(self) -> None:
        """The doubled player takes: the cube is theirs at twice the value."""
        if self.phase != "cube":
            raise Refused(_("no double to answer"))
        self._commit(Turn(1 - self.on_roll, "take"))

    def drop(self) -> None:
        """The doubled player drops: the game is lost at the value before the double."""
        if self.phase != "cube":
            raise Refused(_("no double to answer"))
        self._commit(Turn(1 - self.on_roll, "drop"))

    def resign(self, player: int, kind: ResultKind = "single") -> None:
        """``player`` gives up the game, as a single game, a mars or a backgammon (at the cube's value)."""
        if self.phase not in ("roll", "move", "cube") or player not in (0, 1):
            raise Refused(_("no game to resign"))
        if kind == "backgammon" and not self.rules.backgammon:
            raise Refused(_("these rules have no backgammon"))
        self.turn = _Turn()
        self.result_kind = kind
        self._end(1 - player, self.rules.points(kind, self.cube), resigned=True)
        self.save()

    def next_game(self) -> None:
        """After a game: the next one begins with its opening throw."""
        if self.phase != "game-over":
            raise Refused(_("the game is not over"))
        self.phase = "opening"
        self.opening_throw = None

    # --- the file -----------------------------------------------------------------------

    def save(self) -> None:
        """Write the match so far: a temporary file beside the transcript, ``fsync``, rename.

        A game without a turn yet is left out; while the match is not over the
        header says it is being recorded (an unfinished last game is no error)."""
        games = [g for g in self.match.games if g.turns or g.result is not None]
        tags = dict(self.match.tags)
        tags.pop(IN_PROGRESS_TAG[0], None)
        if self.phase != "match-over":
            tags[IN_PROGRESS_TAG[0]] = IN_PROGRESS_TAG[1]
        written = Match(self.match.players, self.match.length, games, tags)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8", newline="\n") as out:
                write_mat(written, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        _sync_folder(self.path.parent)

    # --- inside ---------------------------------------------------------------------------

    def _start_game(self) -> None:
        score = self.score()
        self.match.games.append(Game(len(self.match.games) + 1, score, players=self.match.players))
        self.crawford = self._crawford(score)
        self.position = Position.initial()
        self.cube, self.owner = 1, None
        self.result_kind = None
        self.turn = _Turn()
        self._legal = None

    def _crawford(self, score: tuple[int, int]) -> bool:
        """Whether the game begun at ``score`` is the Crawford game: the first
        at which a side is one point from winning, under rules with it."""
        point = self.match.length - 1
        if not (self.rules.cube and self.rules.crawford) or max(score) != point:
            return False
        return not any(max(game.score) == point for game in self.match.games[:-1])

    def _commit(self, turn: Turn) -> None:
        self._take(turn)
        self.save()

    def _take(self, turn: Turn) -> None:
        """Apply a completed turn (made now, or read from the file) to the state."""
        game = self.game
        assert game is not None
        game.turns.append(turn)
        if turn.kind == "roll":
            after, made = self.position.played(turn.moves)
            turn.moves = made.moves
            self.turn, self._legal = _Turn(), None
            self.position, self.on_roll, self.phase = after.flip(), 1 - turn.player, "roll"
            if after.winner() == 0:  # the mover's checkers are all off
                self.result_kind = after.result_kind(self.rules) or "single"
                self._end(turn.player, self.rules.points(self.result_kind, self.cube))
        elif turn.kind == "double":
            self.phase = "cube"
        elif turn.kind == "take":
            self.cube, self.owner, self.phase = 2 * self.cube, turn.player, "roll"
        else:
            self._end(1 - turn.player, self.cube)

    def _end(self, winner: int, points: int, *, resigned: bool = False) -> None:
        game = self.game
        assert game is not None
        game.result = Result(winner, points, resigned=resigned)
        self.phase = "match-over" if max(self.score()) >= self.match.length else "game-over"

    def _can_pick(self, src: int) -> None:
        if self.phase != "move":
            raise Refused(_("enter the dice first") if self.phase == "roll" else _("no checker moves now"))
        board = self._now()
        if not 0 < src <= BAR or board.board[src] <= 0:
            raise Refused(_("no checker of yours on {point}").format(point=self.point_text(src)))
        if src != BAR and board.board[BAR] > 0:
            raise Refused(_("a checker on the bar must enter first"))

    def _now(self) -> Position:
        """The board after the steps made this turn (the mover still to finish)."""
        return self.position.apply(self.turn.steps())

    def _legal_finals(self) -> tuple[set[Position], int]:
        """The boards the legal plays of the turn's dice reach (mover's view), and how many dice they play."""
        if self._legal is None:
            assert self.turn.dice is not None
            plays = self.position.legal_plays(self.turn.dice, self.rules)
            self._legal = {self.position.apply(p) for p in plays}, max(len(p) for p in plays)
            self._memo = {}
        return self._legal

    def _completions(self, board: Position, left: Sequence[int], need: int) -> set[Position]:
        """The legal plays' boards that ``need`` more single-die steps from
        ``board`` reach, dice from ``left`` (remembered for the turn)."""
        key = (board, tuple(sorted(left)), need)
        found = self._memo.get(key)
        if found is None:
            frontier = {(board, key[1])}
            for _step in range(need):
                frontier = set(_steps(frontier))
            found = {end for end, _left in frontier} & self._legal_finals()[0]
            self._memo[key] = found
        return found

    def _paths(self, src: int) -> dict[int, list[Move]]:
        """Where the checker on ``src`` may go, each with its steps (one die
        each, every stop leaving a legal completion; of two ways the one
        with fewer hits on the way: hitting there is a step of its own)."""
        found: dict[int, list[Move]] = {}
        board, left, need = self._now(), self.remaining(), self.to_play()

        def walk(at: int, board: Position, left: list[int], need: int, path: list[Move]) -> None:
            if need == 0:
                return
            for die in sorted(set(left), reverse=True):
                if not board.can_move(at, die):
                    continue
                after, made = board.played([Move(at, max(at - die, OFF))])
                rest = list(left)
                rest.remove(die)
                if not self._completions(after, rest, need - 1):
                    continue
                steps = [*path, *made.moves]
                dst = steps[-1].dst
                old = found.get(dst)
                if old is None or sum(m.hit for m in old[:-1]) > sum(m.hit for m in steps[:-1]):
                    found[dst] = steps
                if dst != OFF:
                    walk(dst, after, rest, need - 1, steps)

        if self.phase == "move" and board.board[src] > 0:
            walk(src, board, left, need, [])
        return found

    def _complete(self) -> None:
        """Make the rest of the play when only one completion remains."""
        need = self.to_play()
        if need <= 0:
            return
        board = self._now()
        ends = self._completions(board, self.remaining(), need)
        if len(ends) != 1:
            return
        (end,) = ends
        steps = self._path_to(board, self.remaining(), need, end)
        if steps is not None:
            self.turn.groups.append(_Group(steps, auto=True))

    def _path_to(self, board: Position, left: list[int], need: int, end: Position) -> list[Move] | None:
        if need == 0:
            return [] if board == end else None
        for die in sorted(set(left), reverse=True):
            rest = list(left)
            rest.remove(die)
            for src in range(BAR, 0, -1):
                if board.can_move(src, die):
                    after, made = board.played([Move(src, max(src - die, OFF))])
                    tail = self._path_to(after, rest, need - 1, end)
                    if tail is not None:
                        return [*made.moves, *tail]
        return None

    def _why_stuck(self, src: int) -> str:
        board = self._now()
        if not any(board.can_move(src, die) for die in set(self.remaining())):
            return _("the checker on {point} cannot move with {dice}").format(
                point=self.point_text(src), dice=" ".join(map(str, self.remaining()))
            )
        return _max_dice_reason(self.rules)

    def _why_not(self, src: int, dst: int) -> str:
        """Why the checker on ``src`` may not go to ``dst`` now."""
        board = self._now()
        if dst == OFF and not _all_home(board):
            return _("bearing off only when all 15 checkers are home")
        if dst not in (OFF, src) and 0 < dst < src and board.board[dst] < -1:
            return _("point {point} is closed: two or more of the opponent's checkers are there").format(
                point=self.point_text(dst)
            )
        left = self.remaining()
        if dst >= src or (dst != OFF and not _reachable(src - dst, left)):
            return _("no die of {dice} takes the checker on {src} to {dst}").format(
                dice=" ".join(map(str, left)), src=self.point_text(src), dst=self.point_text(dst)
            )
        if dst != OFF:
            for stop in _stops(src, dst, left):
                if board.board[stop] < -1:
                    return _("point {point} on the way is closed").format(point=self.point_text(stop))
        return _max_dice_reason(self.rules)

    def _why_no_double(self) -> str:
        if not self.rules.cube:
            return _("these rules have no doubling cube")
        if self.phase != "roll":
            return _("a double is offered before the dice are thrown")
        if self.crawford:
            return _("no doubling in the Crawford game")
        return _("the cube is the opponent's")


def _checked(dice: Sequence[int]) -> tuple[int, int]:
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise Refused(_("a roll is two dice 1-6, not {dice}").format(dice=list(dice)))
    return dice[0], dice[1]


def _steps(frontier: set[tuple[Position, tuple[int, ...]]]) -> Iterator[tuple[Position, tuple[int, ...]]]:
    """Every board one more single-die step makes from each (board, dice left)."""
    for board, left in frontier:
        for die in set(left):
            at = left.index(die)
            rest = left[:at] + left[at + 1 :]
            for src in range(BAR, 0, -1):
                if board.can_move(src, die):
                    yield board.apply([Move(src, max(src - die, OFF))]), rest


def _die(move: Move, left: Sequence[int]) -> int:
    """The die a single step used (a bear-off may use a larger one: the smallest that does)."""
    distance = move.src - move.dst
    if move.dst != OFF or distance in left:
        return distance
    return min(d for d in left if d >= distance)


def _all_home(board: Position) -> bool:
    return not any(board.board[p] > 0 for p in range(7, 26))


def _reachable(distance: int, left: Sequence[int]) -> bool:
    """Whether some of the dice ``left`` add up to ``distance``."""
    if distance == 0:
        return True
    return any(_reachable(distance - d, [*left[:i], *left[i + 1 :]]) for i, d in enumerate(left) if d <= distance)


def _stops(src: int, dst: int, left: Sequence[int]) -> list[int]:
    """The points a checker stops on between ``src`` and ``dst`` (dice of
    one value, or two different dice either way round)."""
    distance = src - dst
    if len(set(left)) == 1:
        return list(range(src - left[0], dst, -left[0]))
    return [src - d for d in left if d < distance and src - d > dst]


def _max_dice_reason(rules: Rules) -> str:
    if rules.larger_die:
        return _("the rules want as much of the roll played as can be (the larger die when only one can be)")
    return _("the rules want as much of the roll played as can be")


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system lets a folder be opened)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


__all__ = ["Phase", "Refused", "Session"]
