"""Replay a record through the engine and collect what is wrong with it.

The replayer never parses text and the formats never judge legality: this
module walks a :class:`~tavlakit.record.match.Match` turn by turn and composes
the judges: :mod:`~tavlakit.replay.legality` (is a play legal, and why not),
:mod:`~tavlakit.replay.cube` (the cube's state), :mod:`~tavlakit.replay.scoring` (results
and score lines) and :mod:`~tavlakit.replay.resync` (which board to go on from
after a fault). Problems go through one :class:`~tavlakit.record.problem.Reporter`.

After an illegal, missing or unreadable play the game goes on (lenient
mode) from the board the writer's program most likely had: the written
moves carried out as far as the board allows, or the legal play under
which the following plays fit; the problem says which. So one fault gives
one error, not one on every later play.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass, field, replace

from ..engine.dicenames import as_roll
from ..engine.movegen import Board, legal_results
from ..engine.numbering import Numbering, NumberingLike
from ..engine.play import Move, point_name
from ..engine.position import Position
from ..engine.rules import DEFAULT_RULES, ResultKind, Rules
from ..i18n import _
from ..record.match import IN_PROGRESS_TAG, Game, Match, Turn, games_table, match_heading
from ..record.matchscore import ScoreKeeper, absurd_length, absurd_row
from ..record.problem import Finding, Problem, ProblemError, Reporter, counts_text, problems_table
from .cube import Cube
from .jacoby import jacoby_of, jacoby_shown, money_rules
from .legality import (
    Verdict,
    any_roll,
    by_marks,
    closest,
    direct,
    explain,
    hit_points,
    judge,
    notation,
    physical,
    single_hops,
)
from .resync import BUDGET, GAME_BUDGET, Choice, Guess, choose
from .scoring import Ending, judge_result

#: Legal plays offered as candidates after a fault, closest to the written first.
CANDIDATES = 1000


@dataclass(slots=True)
class Step:
    """One turn as replayed: what every reader of a replay (the validator,
    the frames, the viewer) takes from it. Positions are seen by the turn's
    player; ``cube`` and ``owner`` are the cube before the turn.

    Read it, never change it: the walker alone makes steps. (It is not a
    frozen dataclass for speed only: one is made per turn, and a frozen
    one costs eight times as much to make.)"""

    turn: Turn
    index: int
    """The turn's index in :attr:`Game.turns <tavlakit.record.match.Game.turns>`."""
    player: int
    before: Position
    after: Position
    cube: int
    owner: int | None
    _: KW_ONLY
    legal: bool = True
    """False when a judge found the turn at fault (or its play is not known)."""
    dice: tuple[int, int] | None = None
    """A roll's dice when they are dice (:func:`~tavlakit.engine.dicenames.as_roll`), else ``None``."""
    made: tuple[Move, ...] = ()
    """The moves as carried out (hits as the board has them); empty when
    the board was not moved or is not known."""
    known: bool = True
    """Whether the board before is known: the walker goes on from it, as the
    validator does. After a fault it is the board the walker chose (the
    legal play under which the following rows fit, :attr:`resync`); only an
    earlier play the record says is not known ('???', gnubg's 'Illegal
    play') leaves the rest of the game without a board."""
    resync: str | None = None
    """After a fault, how the board after was chosen (a
    :attr:`Guess.how <tavlakit.replay.resync.Guess.how>`); ``None`` when it was not."""
    cube_after: int = 1
    owner_after: int | None = None
    on_roll: int = 0
    """The player who rolls next: the opponent after a roll, the doubler after a cube action."""
    problems: tuple[Problem, ...] = ()
    """The problems found at this turn (the reader's at its line included)."""

    @property
    def played(self) -> bool:
        """Whether the roll's written play (maybe no move) was carried out: the board after shows it."""
        turn = self.turn
        return turn.kind == "roll" and turn.status == "play" and (self.legal or self.after != self.before)

    @property
    def known_after(self) -> bool:
        """Whether the board after is the one the turn's own play left
        (see :attr:`known`; after a fault the walker goes on from a board it
        chose, which the next step's :attr:`known` says)."""
        if self.turn.kind != "roll":
            return self.known
        return self.known and self.dice is not None and self.turn.status not in ("unknown", "illegal")

    @property
    def next_view(self) -> Position:
        """The board after this turn seen by :attr:`on_roll`."""
        return self.after if self.on_roll == self.player else self.after.flip()


@dataclass
class ReplayedGame:
    """A game walked through the engine: its steps, and its problems, each
    placed once: at the start, at one step, or at the end."""

    game: Game
    steps: list[Step] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    """The replayer's problems of the game (the reader's are in ``game.problems``)."""
    final: Position = field(default_factory=Position.initial)
    """The last known position, seen by player 0."""
    starter: int | None = None
    cube: int = 1
    result_kind: ResultKind | None = None
    """How the board says the game was won (``None``: not borne off)."""
    unmarked_hits: int = 0
    """Hits in a game that writes no '*' at all (reported once per match)."""
    _: KW_ONLY
    crawford: bool = False
    """The game is the Crawford game."""
    start_problems: list[Problem] = field(default_factory=list)
    """Problems of the whole game shown at its start (score, match; all of
    them when the game has no step)."""
    end_problems: list[Problem] = field(default_factory=list)
    """Problems shown at its end (the result, turns after the end)."""

    @property
    def plays(self) -> int:
        """Checker plays (rolls) replayed."""
        return sum(1 for s in self.steps if s.turn.kind == "roll")

    @property
    def start(self) -> Position:
        """The board before the first turn, seen by :attr:`starter` (0 when none)."""
        if self.steps:
            return self.steps[0].before
        return Position.from_position_id(self.game.start) if self.game.start else Position.initial()


@dataclass
class Report:
    """What :func:`validate` found in one match."""

    match: Match
    problems: list[Problem] = field(default_factory=list)
    games: int = 0
    plays: int = 0

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def infos(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "info"]

    @property
    def ok(self) -> bool:
        """True when no error was found (warnings allowed)."""
        return not self.errors

    def __repr__(self) -> str:
        match = self.match
        return (
            f"<Report {match.players[0]!r} vs {match.players[1]!r}: {self.games} games, {self.plays} plays, "
            f"{len(self.errors)} errors, {len(self.warnings)} warnings>"
        )

    def _repr_html_(self) -> str:
        by_game: dict[int | None, list[Problem]] = {}
        for p in self.problems:
            by_game.setdefault(p.game, []).append(p)
        counts = counts_text(self.problems) or _("no problems")
        out = [
            match_heading(self.match),
            games_table(self.match.games, self.match.players, by_game),
            f"<p>{html.escape(counts)}</p>",
        ]
        if self.problems:
            listed = self.problems[:SHOWN_PROBLEMS]
            out.append(problems_table(listed))
            if len(self.problems) > len(listed):
                more = _("and {n} more").format(n=len(self.problems) - len(listed))
                out.append(f"<p>{html.escape(more)}</p>")
        return "".join(out)


#: At most this many problems are listed under a report's table.
SHOWN_PROBLEMS = 20


def default_rules(match: Match, rules: Rules | None = None) -> Rules:
    """The rules to replay ``match`` by: ``rules`` when given, else those
    its tags name, else backgammon (:data:`~tavlakit.engine.rules.DEFAULT_RULES`);
    a money session with the cube is played by its own Jacoby rule: what
    its record says, else its results show, else gnubg's default, on
    (:func:`~tavlakit.replay.jacoby.money_rules`)."""
    return money_rules(match, rules or match.rules or DEFAULT_RULES)


@dataclass
class _Lost:
    """A run of rolls of one player with no play written (one error for all)."""

    index: int  # of the problem in the game's list
    count: int = 0
    last_line: int | None = None


class _GameWalker:
    """Walks one game: keeps the boards, asks the judges, reports, and
    records each turn as a :class:`Step`."""

    def __init__(
        self,
        match: Match,
        game: Game,
        rules: Rules,
        crawford: bool,
        report: Reporter,
        numbering: Numbering,
        marks: bool | None = None,
        jacoby_open: bool = False,
    ) -> None:
        self.match = match
        self.jacoby_open = jacoby_open
        self.numbering = numbering
        self.game = game
        self.rules = rules
        self.crawford = crawford
        self.out = ReplayedGame(game, problems=report.problems, cube=game.cube, crawford=crawford)
        self.report = report
        self.views: list[Position] = []  # [player 0 view, player 1 view]
        self.on_roll: int | None = None
        self.synced = True  # False once the board is unknown (after ???)
        self.known = True  # see Step.known
        self.cube = Cube(game.cube, game.cube_owner)
        self.ended_at: Turn | None = None
        self.after_end: _Lost | None = None
        self.lost: dict[int, _Lost] = {}
        self.budget = GAME_BUDGET  # later plays the resynchronisations of this game may judge
        self.marks_hits = marks_hits(game) if marks is None else marks  # the file marks hits with '*'
        #: the file ends inside this game (the reader said so)
        self.cut = any(p.code == "truncated" for p in game.problems)
        #: the turn (line, column) the file may have cut mid-play: where the reader's truncated error points
        self.cut_at = next(
            ((p.line, p.column) for p in game.problems if p.code == "truncated" and p.column is not None), None
        )
        # the turn being replayed, and what is found of it so far
        self.now: Turn | None = None
        self.legal = True
        self.after: Position | None = None
        self.made: tuple[Move, ...] = ()
        self.how: str | None = None
        self.at_step: dict[int, int] = {}  # index of a problem in out.problems -> its step's index

    # problems
    def flip(self, player: int) -> bool:
        """Whether messages write ``player``'s points ``25 - p`` (Black's, in the absolute numbering)."""
        return self.numbering.flips(player)

    def tell(
        self,
        finding: Finding,
        turn: Turn | None = None,
        position: Position | None = None,
        expected: tuple[str, ...] = (),
        player: int | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> Problem:
        """Report ``finding`` at ``turn`` (else at ``line``, else at the game's line)."""
        names = self.match.players
        who = player if player is not None else (turn.player if turn is not None else None)
        if turn is not None:
            line, column = turn.line, turn.column
        problem = self.report.emit(
            finding,
            line=line if line is not None or column is not None else self.game.line,
            column=column,
            move=turn.number if turn is not None else None,
            player=names[who] if who is not None and 0 <= who < len(names) else None,
            position_id=position.position_id() if position is not None else None,
            expected=expected,
        )
        if turn is not None and turn is self.now:
            self.at_step[len(self.out.problems) - 1] = len(self.out.steps)
        return problem

    def set_view(self, player: int, pos: Position) -> None:
        self.views[player] = pos
        self.views[1 - player] = pos.flip()

    def start(self, first: int) -> None:
        pos = Position.initial()
        if self.game.start:
            try:
                pos = Position.from_position_id(self.game.start)
            except ValueError as exc:
                self.tell(Finding("syntax", "error", _("set-up position: {reason}").format(reason=exc)), player=first)
        self.views = [pos, pos.flip()] if first == 0 else [pos.flip(), pos]
        self.out.starter = first

    def run(self) -> ReplayedGame:
        try:
            self.walk()
        except ProblemError as exc:  # strict, at the first error: say how far it got
            exc.games += 1
            exc.plays += self.out.plays + (self.now is not None and self.now.kind == "roll")
            raise
        return self.out

    def walk(self) -> None:
        for index, turn in enumerate(self.game.turns):
            if turn.player not in (0, 1):
                self.tell(
                    Finding("syntax", "error", _("turn by unknown player {player}").format(player=turn.player)), turn
                )
                continue
            if not self.views:
                self.start(turn.player)
            if self.ended_at is not None:
                self.past_the_end(turn)
                continue
            self.now, self.legal, self.after, self.made, self.how = turn, True, None, (), None
            if turn.kind == "roll":
                self.roll(index, turn)
            else:
                self.cube_action(index, turn)
            self.now = None
        self.finish()

    def record(
        self,
        index: int,
        turn: Turn,
        before: Position,
        cube: tuple[int, int | None],
        dice: tuple[int, int] | None,
        on_roll: int,
    ) -> None:
        """The turn's :class:`Step`, from what was found of it."""
        self.out.steps.append(
            Step(
                turn,
                index,
                turn.player,
                before,
                self.after or before,
                cube[0],
                cube[1],
                legal=self.legal,
                dice=dice,
                made=self.made,
                known=self.known,
                resync=self.how,
                cube_after=self.cube.value,
                owner_after=self.cube.owner,
                on_roll=on_roll,
            )
        )

    def past_the_end(self, turn: Turn) -> None:
        """Turns after the game ended: one error for all of them."""
        assert self.ended_at is not None
        if self.after_end is None:
            self.after_end = _Lost(len(self.out.problems))
            self.tell(
                Finding(
                    "after-end",
                    "error",
                    _("the game was already over (line {line}); this turn cannot be played").format(
                        line=self.ended_at.line
                    ),
                ),
                turn,
            )
        else:
            self.after_end.count += 1
            self.after_end.last_line = turn.line

    # rolls
    def roll(self, index: int, turn: Turn) -> None:
        """A roll: whose turn it is, then its play; recorded as a step."""
        player = turn.player
        if self.cube.offered is not None:
            for finding in self.cube.roll():
                self.tell(finding, turn)
        if self.on_roll is not None and player != self.on_roll:
            self.turn_not_written(index, turn, self.on_roll)
        first_roll = self.on_roll is None
        self.on_roll = 1 - player
        before = self.views[player]
        cube = (self.cube.value, self.cube.owner)
        dice = as_roll(turn.dice)
        if dice is None:
            self.bad_dice(index, turn, before)
        else:
            if first_roll and dice[0] == dice[1] and self.rules.opening == "use-opening-dice" and not self.game.start:
                self.tell(
                    Finding(
                        "opening-double",
                        "error",
                        _(
                            "the first roll {roll} is a double, but the opening dice are played "
                            "(rules: use-opening-dice)"
                        ).format(roll=f"{dice[0]}{dice[1]}"),
                    ),
                    turn,
                    position=before,
                )
            self.play(index, turn, before, dice)
        self.record(index, turn, before, cube, dice, 1 - player)
        self.known = self.synced  # the board the walker goes on from, chosen after a fault as the validator does

    def bad_dice(self, index: int, turn: Turn, before: Position) -> None:
        """Dice that are not two numbers 1-6: the written moves are carried
        out as far as they fit (or the board under which the rest fits)."""
        self.legal = False
        message = _("dice {dice} are not two numbers 1-6").format(dice=repr(turn.dice))
        if turn.moves and self.synced:
            message = self.resync(index, turn, before, self.unknown_dice(before.board, turn.moves), message)
        self.tell(Finding("bad-dice", "error", message), turn, position=before)

    def play(self, index: int, turn: Turn, before: Position, dice: tuple[int, int]) -> None:
        """The play of a roll: not known, not followed (the board is not
        known), or judged and carried out."""
        if turn.status == "unknown" and "unreadable" in turn.extra:
            self.not_read(index, turn, before, dice)
        elif turn.status in ("unknown", "illegal"):
            self.unknown_play(index, turn, before)
        elif not self.synced:
            return
        elif not turn.moves and turn.status == "play" and index == len(self.game.turns) - 1:
            return  # rolled, then resigned (gnubg writes it so), or the record stops here
        else:
            self.judged(index, turn, before, dice)

    def unknown_play(self, index: int, turn: Turn, before: Position) -> None:
        """A play the record says is not known ('???', gnubg's 'Illegal play'):
        the board is lost for the rest of the game."""
        later = any(t.kind == "roll" for t in self.game.turns[index + 1 :])
        if turn.status == "unknown":
            message = (
                _("the play is not known ('???'); later plays of this game are not checked")
                if later
                else _("the play is not known ('???')")
            )
        else:
            message = (
                _("the play is not known (gnubg's 'Illegal play' row); later plays of this game are not checked")
                if later
                else _("the play is not known (gnubg's 'Illegal play' row)")
            )
        self.tell(Finding("unknown-play", "warning", message), turn, position=before)
        self.legal = False
        self.synced = False

    def judged(self, index: int, turn: Turn, before: Position, dice: tuple[int, int]) -> None:
        """A written play judged (hit-and-run: the quick ways first) and carried out."""
        fast = None
        if self.rules.hit_and_run:
            fast = direct(before.board, dice, turn.moves) or single_hops(before.board, dice, turn.moves)
        if fast is None:
            verdict = judge(before.board, dice, turn.moves, self.rules, flip=self.flip(turn.player))
            if verdict.after is None and self.cut_at == (turn.line, turn.column):
                self.legal = self.synced = False  # a cell the file may have cut short (reported)
                return
            if verdict.after is None:
                self.illegal(index, turn, before, verdict)
                return
            if not turn.moves:
                return  # no move was possible: the board stays
            fast = self.reading(index, turn, verdict.readings)
        self.check_hits(turn, fast[1], before)
        self.moved(turn, Position.trusted(fast[0]), fast[1])

    def not_read(self, index: int, turn: Turn, before: Position, dice: tuple[int, int]) -> None:
        """A play the reader could not read: not known, so the game goes on
        from the legal play under which the following rows fit. The reader
        reported it (a syntax error on its line, or the file ends there);
        else (a record converted from such a file) it is an unknown-play
        warning."""
        self.legal = False
        if not self.synced:
            return
        legal = list(legal_results(before.board, dice, self.rules).items())
        done = self.resync(index, turn, before, self.legal_candidates(legal, before.board), "")
        if not any(p.code in ("syntax", "truncated") and p.line == turn.line for p in self.game.problems):
            self.tell(
                Finding(
                    "unknown-play",
                    "warning",
                    _("the play {text!r} could not be read; {done}").format(
                        text=turn.extra["unreadable"][0], done=done
                    ),
                ),
                turn,
                position=before,
            )

    def turn_not_written(self, index: int, turn: Turn, missing: int) -> None:
        """A roll by the side not on roll: a turn of the other side is not
        written. Go on from the board after the legal play (of any roll) of
        the other side under which this and the later plays fit."""
        names = self.match.players
        message = _("{player} rolls, but it is {other}'s turn").format(player=names[turn.player], other=names[missing])
        if self.synced and self.views and not self.report.strict:  # (strict: it stops at this error)
            board = self.views[missing].board
            legal = any_roll(board, self.rules)
            candidates = [Guess(board, (), "unchanged"), *(Guess(b, m, "legal") for b, m in legal.items())]
            choice = self.choose(candidates, index - 1, missing)
            self.set_view(missing, Position.trusted(choice.guess.board))
            if choice.guess.moves:
                message = _(
                    "{problem}; a turn of {other} is not written: the game goes on after {play}, the "
                    "legal play under which the next {count} roll(s) fit"
                ).format(
                    problem=message,
                    other=names[missing],
                    play=notation(choice.guess.moves, flip=self.flip(missing)),
                    count=choice.fits,
                )
            else:
                message = _("{problem}; a turn of {other} is not written (or {other} could not move)").format(
                    problem=message, other=names[missing]
                )
        self.tell(Finding("wrong-player", "error", message), turn)

    def reading(
        self, index: int, turn: Turn, readings: list[tuple[Board, tuple[Move, ...]]]
    ) -> tuple[Board, tuple[Move, ...]]:
        """Of a legal play's readings (paths that hit differently), the one
        the record means: the one under which the following plays fit, and
        of those, in a game that marks hits, the one hitting where '*' is
        written (else the first)."""
        if len(readings) == 1:
            return readings[0]
        if self.marks_hits:
            readings = by_marks(readings, turn.moves)
        picked = self.choose([Guess(b, m, "written") for b, m in readings], index, turn.player, True).guess
        return picked.board, picked.moves

    def moved(self, turn: Turn, after: Position, made: tuple[Move, ...]) -> None:
        self.after, self.made = after, made
        self.set_view(turn.player, after)
        if max(after.board) <= 0:  # the mover has no checker left: all borne off
            self.ended_at = turn

    def illegal(self, index: int, turn: Turn, before: Position, verdict: Verdict) -> None:
        self.legal = False
        written = turn.moves
        legal = verdict.legal_plays()
        ranked = closest(legal, written)
        expected = tuple(notation(moves, flip=verdict.flip) for _board, moves in ranked[:3])
        finding = explain(verdict, written)
        lost = self.lost.get(turn.player) if not written else None
        if lost is not None:  # one more roll of a player whose plays are not written
            lost.count += 1
            lost.last_line = turn.line
            self.resync(index, turn, before, self.legal_candidates(ranked, before.board), "")
            return
        if self.report.strict and finding.severity == "error":  # it stops here: nothing goes on from it
            self.tell(finding, turn, position=before, expected=expected)
        candidates = [Guess(board, moves, "written") for board, moves in (verdict.reached or {}).items()]
        if written:
            done = physical(before.board, written)
            candidates.append(Guess(done.board, done.applied, "physical"))
        candidates.extend(self.legal_candidates(ranked, before.board))
        if written:
            candidates.extend(self.extra_turn(before.board, (verdict.dice[0], verdict.dice[1]), written))
        message = self.resync(index, turn, before, candidates, finding.message)
        problem = self.tell(finding._replace(message=message), turn, position=before, expected=expected)
        if not written:
            self.lost[turn.player] = _Lost(self.out.problems.index(problem))

    def legal_candidates(self, ranked: list[tuple[Board, tuple[Move, ...]]], board: Board) -> list[Guess]:
        return [Guess(b, moves, "legal") for b, moves in ranked[:CANDIDATES]] + [Guess(board, (), "unchanged")]

    def unknown_dice(self, board: Board, written: tuple[Move, ...]) -> list[Guess]:
        """Candidates for moves written with dice that are not dice."""
        done = physical(board, written)
        return [
            Guess(done.board, done.applied, "physical"),
            *self.legal_candidates(closest(any_roll(board, self.rules), written), board),
        ]

    def extra_turn(self, board: Board, dice: tuple[int, int], written: tuple[Move, ...]) -> list[Guess]:
        """Boards where the written play is legal after one more, unwritten
        turn of the mover (a lost row: the two turns before it not written)."""
        out = []
        for between, moves in any_roll(board, self.rules).items():
            verdict = judge(between, dice, written, self.rules)
            if verdict.after is not None:
                out.append(Guess(verdict.after, moves, "extra-turn"))
        return out

    def choose(self, candidates: list[Guess], index: int, player: int, decide: bool = False) -> Choice:
        """:func:`~tavlakit.replay.resync.choose` within what is left of the game's budget."""
        choice = choose(candidates, self.game, index, player, self.rules, min(BUDGET, self.budget), decide=decide)
        self.budget -= choice.spent
        return choice

    def resync(self, index: int, turn: Turn, before: Position, candidates: list[Guess], message: str) -> str:
        """Go on from the best candidate board; ``message`` plus what was done."""
        choice = self.choose(candidates, index, turn.player)
        picked = choice.guess
        self.moved(turn, Position.trusted(picked.board), picked.moves)
        self.how = picked.how
        done = self.done(choice, turn, before)
        return _("{problem}; {done}").format(problem=message, done=done) if message else done

    def done(self, choice: Choice, turn: Turn, before: Position) -> str:
        """What a resynchronisation did, in words."""
        picked = choice.guess
        flip = self.flip(turn.player)
        if picked.how == "written":
            return _("applied as written")
        if picked.how == "physical":
            left = physical(before.board, turn.moves).skipped
            if not left:
                return _("applied as written")
            if picked.moves:
                return _("applied as far as the board allows: {applied} ({skipped} cannot be carried out)").format(
                    applied=notation(picked.moves, flip=flip), skipped=notation(left, flip=flip)
                )
            return _("none of it can be carried out; board unchanged")
        if picked.how == "extra-turn":
            return _(
                "it fits after a turn of {player} that is not written ({play}, under which the next {count} "
                "roll(s) fit): the game goes on from there"
            ).format(player=self.match.players[turn.player], play=notation(picked.moves, flip=flip), count=choice.fits)
        if picked.how == "legal" and not picked.moves:
            return _("the turn passes (no move is possible)")
        if picked.how == "legal":
            return _("the game goes on after {play}, the legal play under which the next {count} roll(s) fit").format(
                play=notation(picked.moves, flip=flip), count=choice.fits
            )
        return _("skipped, board unchanged")

    def check_hits(self, turn: Turn, made: tuple[Move, ...], before: Position) -> None:
        if not self.marks_hits:
            self.out.unmarked_hits += sum(m.hit for m in made)
            return
        wrote = hit_points(turn.moves)
        hits = hit_points(made)
        if wrote != hits:
            flip = self.flip(turn.player)
            missing = ", ".join(point_name(p, flip=flip) for p in sorted(hits - wrote, reverse=not flip))
            extra = ", ".join(point_name(p, flip=flip) for p in sorted(wrote - hits, reverse=not flip))
            if missing and extra:
                message = _("hit mark '*' missing on {missing} and extra on {extra}").format(
                    missing=missing, extra=extra
                )
            elif missing:
                message = _("hit mark '*' missing on {missing}").format(missing=missing)
            else:
                message = _("hit mark '*' extra on {extra}").format(extra=extra)
            self.tell(Finding("hit-mark", "warning", message), turn, position=before)

    # cube
    def cube_action(self, index: int, turn: Turn) -> None:
        player = turn.player
        pos = self.views[player]
        cube = self.cube
        before = (cube.value, cube.owner)
        if turn.kind == "double":
            found = cube.double(
                player, self.on_roll, self.rules, crawford=self.crawford, names=self.match.players, written=turn.cube
            )
        else:
            doubler = cube.offered
            found = cube.answer(turn.kind, player, self.rules, turn.cube)
            if turn.kind == "drop":
                self.ended_at = turn
            elif doubler is not None and doubler != player:
                self.on_roll = doubler
        for finding in found:
            self.tell(finding, turn, position=pos)
            if finding.severity == "error":
                self.legal = False
        self.out.cube = cube.value
        self.record(index, turn, pos, before, None, player if turn.kind == "double" else 1 - player)

    # end of game
    def finish(self) -> None:
        game = self.game
        out = self.out
        self.close_runs()
        if self.views:
            out.final = self.views[0]
        known = bool(self.views) and self.synced
        winner = out.final.winner() if known else None
        if winner is not None:
            out.result_kind = out.final.result_kind(self.rules)
        end = Ending(self.cube.value, self.cube.most(), self.cube.dropped_by, winner, out.result_kind, known=known)
        result = game.result
        # a match still being recorded (tavlakit record) ends in a game that goes on
        recording = result is None and winner is None and self.match.tags.get(IN_PROGRESS_TAG[0]) == IN_PROGRESS_TAG[1]
        if (result is not None or not self.cut) and not recording:  # (else the reader's truncated error says it)
            for finding in judge_result(
                game, self.rules, self.match.length, end, self.match.players, jacoby_open=self.jacoby_open
            ):
                if result is None:
                    self.report.emit(finding, line=game.turns[-1].line)
                else:
                    self.tell(finding, player=result.winner, line=result.line, column=result.column)
        self.place_problems()

    def place_problems(self) -> None:
        """Give each problem of the game (the reader's first) its place: the
        step it was found at, else the one its line (or move number) and
        player name, else the game's start or end (:func:`place`)."""
        out = self.out
        names = self.match.players
        reader = self.game.problems
        first_line = next((s.turn.line for s in out.steps if s.turn.line), None)
        found: dict[int, list[Problem]] = {}
        for i, problem in enumerate([*reader, *out.problems]):
            at = self.at_step.get(i - len(reader)) if i >= len(reader) else None
            if at is None:
                at = place(problem, out.steps, first_line, names)
            if at == START or (at == END and not out.steps):
                out.start_problems.append(problem)
            elif at == END:
                out.end_problems.append(problem)
            else:
                found.setdefault(at, []).append(problem)
        for at, problems in found.items():
            out.steps[at] = replace(out.steps[at], problems=tuple(problems))

    def close_runs(self) -> None:
        """Say in each run's one error how many later turns it covers."""
        problems = self.out.problems
        names = self.match.players
        for player, lost in self.lost.items():
            if lost.count:
                problem = problems[lost.index]
                more = _(
                    "{count} later roll(s) of {player} in this game have no play written either (to line {line})"
                ).format(count=lost.count, player=names[player], line=lost.last_line)
                problems[lost.index] = problem.replace(
                    message=_("{problem}; {done}").format(problem=problem.message, done=more)
                )
        if self.after_end is not None and self.after_end.count:
            problem = problems[self.after_end.index]
            more = _("nor can the {count} later turn(s) (to line {line})").format(
                count=self.after_end.count, line=self.after_end.last_line
            )
            problems[self.after_end.index] = problem.replace(
                message=_("{problem}; {done}").format(problem=problem.message, done=more)
            )


#: Problems about a whole game, placed at its start or at its end.
START_CODES = frozenset({"score-mismatch", "match-over"})
END_CODES = frozenset({"missing-result", "result-mismatch", "absurd-points", "points-capped"})
#: :func:`place`'s answers for a game's start and its end.
START, END = -1, -2


def place(problem: Problem, steps: Sequence[Step], first_line: int | None, names: Sequence[str]) -> int:
    """Where a problem not found at a step belongs: the index of the step of
    its line (else move number) and player, else :data:`START` (score and
    match problems, and those above the first turn) or :data:`END`."""
    if problem.code not in START_CODES | END_CODES:
        for by_line in (True, False):
            for at, step in enumerate(steps):
                turn = step.turn
                here = (
                    (problem.line is not None and turn.line == problem.line)
                    if by_line
                    else (problem.move is not None and turn.number == problem.move)
                )
                if here and (problem.player is None or problem.player == names[step.player]):
                    return at
    early = problem.line is not None and first_line is not None and problem.line < first_line
    return START if problem.code in START_CODES or (early and problem.code not in END_CODES) else END


def marks_hits(game: Game) -> bool:
    """Whether the game's plays mark hits with '*' anywhere."""
    return any(m.hit for t in game.turns for m in t.moves)


def replay_game(
    game: Game,
    rules: Rules,
    match: Match | None = None,
    *,
    crawford: bool = False,
    strict: bool = False,
    report: Reporter | None = None,
    numbering: NumberingLike | None = None,
    marks: bool | None = None,
    found: Sequence[Problem] = (),
    jacoby_open: bool = False,
) -> ReplayedGame:
    """Replay one game; ``crawford`` says whether it is the Crawford game,
    ``marks`` whether the file marks hits with '*' (``None``: whether the game does),
    ``jacoby_open`` whether a gammon at cube 1 may count single or not (a money
    session whose Jacoby rule is not known yet: :mod:`tavlakit.replay.jacoby`).

    Problems go to the returned game's ``problems``, after those ``found``
    before (its score's), through ``report``'s location and strictness when
    given, and each is placed at its step, the start or the end. They write
    points in ``numbering`` (default: the file's, :attr:`~tavlakit.record.match.Match.numbering`).
    """
    match = match or Match()
    base = report or Reporter(strict=strict, file=match.source)
    own = Reporter(list(found), strict=base.strict, **base.where).at(game=game.number)
    return _GameWalker(
        match,
        game,
        rules,
        bool(game.crawford) or crawford,
        own,
        Numbering.parse(match.numbering if numbering is None else numbering),
        marks,
        jacoby_open,
    ).run()


def replay(
    match: Match,
    rules: Rules | None = None,
    *,
    strict: bool = False,
    games: Iterable[Game] | None = None,
    numbering: NumberingLike | None = None,
) -> Iterator[ReplayedGame]:
    """Replay the games of ``match`` (or ``games``, e.g. a streaming reader's)
    one at a time; score and match checks go into each game's problems
    (see :class:`~tavlakit.record.matchscore.ScoreKeeper`). Problems write points in
    ``numbering`` (default: the file's).

    A money session whose record does not say whether the Jacoby rule is
    played, nor its results show it before, takes its first undoubled
    gammon's points as its word (1: the rule, 2: not); until then either is
    right (:mod:`tavlakit.replay.jacoby`).
    """
    rules = default_rules(match, rules)
    jacoby_open = not match.length and rules.cube and rules.jacoby and jacoby_of(match)[1] == "gnubg"
    scores = ScoreKeeper(match.length)
    base = Reporter(strict=strict, file=match.source)
    marked = False
    long = absurd_length(match.length)
    for game in match.games if games is None else games:
        if strict:
            base.take([p for p in game.problems if p.severity == "error"][:1])
        here = Reporter([], strict=strict, file=match.source, game=game.number, line=game.line)
        if long is not None:  # a match-wide error, with the first game's
            line, column = match.length_at or (None, None)
            here.emit(long, line=line, column=column, game=None)
            long = None
        score, found = scores.score(game)
        for finding in found:
            here.emit(finding)
        said = None
        for turn in game.turns:
            row = absurd_row(turn.number)
            if row is not None and (turn.number, turn.line) != said:  # (once a row: both its cells carry it)
                here.emit(row, line=turn.line, column=None, move=None)
                said = (turn.number, turn.line)
        marked = marked or marks_hits(game)  # this game or an earlier one
        replayed = replay_game(
            game,
            rules,
            match,
            crawford=scores.crawford(game, score, rules),
            strict=strict,
            report=base,
            numbering=numbering,
            marks=marked,
            found=here.problems,
            jacoby_open=jacoby_open,
        )
        yield replayed
        shown = jacoby_shown(game, replayed.cube, replayed.result_kind) if jacoby_open else None
        if shown is not None:  # the results' word: the rest of the session is judged by it
            jacoby_open = False
            rules = rules if shown else rules.replace(jacoby=False)


def validate(
    match: Match,
    rules: Rules | None = None,
    *,
    strict: bool = False,
    games: Iterable[Game] | None = None,
    seen: Callable[[ReplayedGame], None] | None = None,
) -> Report:
    """Replay ``match`` and collect every problem, reading problems included.

    Games are replayed and dropped one by one, so a streaming ``games``
    keeps memory flat; ``seen`` is shown each replayed game (a
    :class:`~tavlakit.replay.fingerprint.Fingerprinter`'s ``add``). With ``strict`` a
    :class:`~tavlakit.record.problem.ProblemError` is raised at the first error.
    """
    report = Report(match)
    rules = default_rules(match, rules)  # resolves the tags first: their problems are the match's
    collect = Reporter(report.problems, strict=strict, file=match.source)
    collect.take(match.problems)
    unmarked = []
    try:
        for replayed in replay(match, rules, strict=strict, games=games):
            report.games += 1
            report.plays += replayed.plays
            report.problems.extend(replayed.game.problems)
            report.problems.extend(replayed.problems)
            unmarked.append(replayed.unmarked_hits)
            if seen is not None:
                seen(replayed)
    except ProblemError as exc:  # strict: the games and plays checked when it stopped
        exc.games += report.games
        exc.plays += report.plays
        raise
    report_unmarked_hits(collect, unmarked)
    return report


def report_unmarked_hits(report: Reporter, hits: Sequence[int]) -> None:
    """The one warning of a match whose games' hits were written without
    '*' (``hits``: each game's count of them), if any was."""
    games = [count for count in hits if count]
    if games:
        report.warning(
            "hit-mark",
            _("{hits} hit(s) in {games} game(s) written without '*' (the writer marks no hits)").format(
                hits=sum(games), games=len(games)
            ),
        )
