"""Replay a record through the engine and collect what is wrong with it.

The replayer never parses text and the formats never judge legality: this
module walks a :class:`~tavlakit.record.Match` turn by turn, keeps the board
and the cube, and reports :class:`~tavlakit.problem.Problem` objects.

A written play is legal when some way of playing the thrown dice with the
written moves (merged moves split, in any die order) reaches a position
that a legal play reaches. When it does not, the game goes on (lenient
mode): the moves are applied as written if the board allows, else the
play is skipped; the problem says which.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

from .i18n import N_, _
from .movegen import Board, apply_move, can_move, highest, legal_results, undo_move
from .play import BAR, Move, Play
from .position import Position
from .problem import Problem, ProblemError, Severity
from .record import Game, Match, Turn
from .rules import PRESETS, ResultKind, Rules

@dataclass
class Step:
    """One turn as replayed. Positions are seen by the turn's player."""

    turn: Turn
    index: int
    player: int
    before: Position
    after: Position
    cube: int
    owner: int | None
    legal: bool = True


@dataclass
class ReplayedGame:
    """A game walked through the engine."""

    game: Game
    steps: list[Step] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    final: Position = field(default_factory=Position.initial)
    """The last known position, seen by player 0."""
    starter: int | None = None
    cube: int = 1
    result_kind: ResultKind | None = None
    """How the board says the game was won (``None``: not borne off)."""
    unmarked_hits: int = 0
    """Hits in a game that writes no '*' at all (reported once per match)."""

    @property
    def plays(self) -> int:
        """Checker plays (rolls) replayed."""
        return sum(1 for s in self.steps if s.turn.kind == "roll")


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
    def ok(self) -> bool:
        """True when no error was found (warnings allowed)."""
        return not self.errors


def default_rules(match: Match) -> Rules:
    """The rules a match names in its tags, else backgammon."""
    return match.rules or PRESETS["backgammon"]


# --- realising a written play -----------------------------------------------


@dataclass
class _Realised:
    """Outcome of trying to play written moves with the thrown dice."""

    boards: dict[Board, tuple[Move, ...]]
    failure: tuple[str, str] | None  # (code, message) of the deepest failure


def _realise(board: Board, dice: tuple[int, int], written: Sequence[Move], rules: Rules) -> _Realised:
    """Every board reachable by playing ``written`` with the dice.

    Each written move is a checker's path from its start to its end; a path
    may take several dice through open intermediate points, and the hops of
    different paths may interleave (``9/off 5/off`` with 6-6 is 9/3, 5/off,
    3/off). Bearing off may overshoot only on a path's last hop.
    """
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    paths = [[m.src, m.dst] for m in written]
    s = list(board)
    boards: dict[Board, tuple[Move, ...]] = {}
    failure: list[tuple[int, str, str]] = []
    frozen = None if rules.hit_and_run else [0] * 26
    made: list[Move] = []

    def fail(depth: int, code: str, message: str) -> None:
        if not failure or depth > failure[0][0]:
            failure[:] = [(depth, code, message)]

    def step_ok(src: int, die: int, depth: int, move: Move) -> bool:
        hi = highest(s)
        if s[src] > 0 and (hi != BAR or src == BAR) and (frozen is None or s[src] > frozen[src]) \
                and can_move(s, src, die, hi):
            return True
        dst = src - die
        if s[src] <= 0:
            fail(depth, "illegal-play", _("{move}: no checker of the mover on {point}").format(move=move, point=_name(src)))
        elif hi == BAR and src != BAR:
            fail(depth, "must-enter-first", _("{move}: a checker on the bar must enter before {point} moves").format(
                move=move, point=_name(src)))
        elif frozen is not None and s[src] <= frozen[src]:
            fail(depth, "illegal-play", _("{move}: the checker that hit on {point} may not move on (hit-and-run is off)")
                 .format(move=move, point=src))
        elif dst > 0:
            fail(depth, "illegal-play", _("{move}: point {point} is closed ({checkers} opposing checkers)").format(
                move=move, point=dst, checkers=-s[dst]))
        elif hi > 6:
            fail(depth, "bear-off-outside", _("{move}: bearing off while a checker is still on {point}").format(
                move=move, point=_name(hi)))
        else:
            fail(depth, "illegal-play", _("{move}: a {die} bears off from {point} only when no checker is above it ({highest})")
                 .format(move=move, die=die, point=src, highest=hi))
        return False

    def search(remaining: list[int]) -> None:
        depth = len(made)
        pending = [i for i, (cur, dst) in enumerate(paths) if cur != dst]
        if not pending:
            key = tuple(s)
            if key not in boards:
                boards[key] = tuple(made)
            return
        if not remaining:
            left = " ".join(str(Move(paths[i][0], paths[i][1])) for i in pending)
            fail(depth, "illegal-play", _("the dice {dice} do not reach: {moves} is left over").format(
                dice=_dice_text(pool), moves=left))
            return
        seen: set[tuple[int, int, int]] = set()
        for i in pending:
            cur, dst = paths[i]
            move = written[i]
            for j, die in enumerate(remaining):
                nxt = cur - die
                if (cur, dst, die) in seen or (dst and nxt < dst):
                    continue
                seen.add((cur, dst, die))
                if not step_ok(cur, die, depth, move):
                    continue
                step = apply_move(s, cur, die)
                if frozen is not None and step.hit and step.dst <= 6:
                    frozen[step.dst] += 1
                made.append(step)
                paths[i][0] = step.dst
                search(remaining[:j] + remaining[j + 1:])
                paths[i][0] = cur
                made.pop()
                if frozen is not None and step.hit and step.dst <= 6:
                    frozen[step.dst] -= 1
                undo_move(s, step)

    for move in written:
        if move.dst >= move.src:
            fail(0, "illegal-play", _("{move} does not move forward").format(move=move))
            return _Realised(boards, (failure[0][1], failure[0][2]))
    search(pool)
    return _Realised(boards, (failure[0][1], failure[0][2]) if failure else None)


def _direct(board: Board, dice: tuple[int, int], written: Sequence[Move]) -> tuple[Board, tuple[Move, ...]] | None:
    """The common case fast: one written move per die, each exactly a die,
    all dice used. Returns the board and moves made, or None to search."""
    a, b = dice
    if a == b:
        if len(written) != 4 or any(m.src - m.dst != a for m in written):
            return None
    elif len(written) != 2 or sorted(m.src - m.dst for m in written) != sorted(dice):
        return None
    s = list(board)
    made = []
    for move in sorted(written, key=lambda m: -m.src):
        src = move.src
        hi = highest(s)
        if s[src] <= 0 or (hi == BAR and src != BAR) or not can_move(s, src, src - move.dst, hi):
            return None
        made.append(apply_move(s, src, src - move.dst))
    return tuple(s), tuple(made)


#: The kinds of win, as the messages say them.
KIND_NAMES = {"single": N_("single"), "mars": N_("mars"), "backgammon": N_("backgammon")}

def _name(point: int) -> str:
    return _("the bar") if point == BAR else str(point)


def _dice_text(dice: Iterable[int]) -> str:
    return "-".join(str(d) for d in dice) or _("(none)")


def _closest(legal: dict[Board, tuple[Move, ...]], written: Sequence[Move], limit: int = 3) -> tuple[str, ...]:
    want = {(m.src, m.dst) for m in written}

    def score(moves: tuple[Move, ...]) -> int:
        return -len(want & {(m.src, m.dst) for m in Play(moves).moves})

    ranked = sorted(legal.values(), key=score)
    return tuple(Play(m).notation() or "(no move)" for m in ranked[:limit])


# --- the replayer -------------------------------------------------------------


class _GameWalker:
    """Walks one game; collects steps and problems."""

    def __init__(self, match: Match, game: Game, rules: Rules, crawford: bool, strict: bool) -> None:
        self.match = match
        self.game = game
        self.rules = rules
        self.crawford = crawford
        self.strict = strict
        self.out = ReplayedGame(game)
        self.views: list[Position] = []  # [player 0 view, player 1 view]
        self.on_roll: int | None = None
        self.synced = True  # False once the board is unknown (after ???)
        self.owner: int | None = game.cube_owner
        self.out.cube = game.cube
        self.offered: int | None = None  # the doubler while a double is pending
        self.dropped_by: int | None = None
        self.ended_at: Turn | None = None
        self.marks_hits = any(m.hit for t in game.turns for m in t.moves)

    # problems
    def report(self, code: str, severity: Severity, message: str, turn: Turn | None = None,
               player: int | None = None, position: Position | None = None,
               expected: tuple[str, ...] = (), line: int | None = None, column: int | None = None) -> None:
        names = self.match.players
        who = player if player is not None else (turn.player if turn is not None else None)
        problem = Problem(
            code=code,
            severity=severity,
            message=message,
            file=self.match.source,
            line=line if line is not None else (turn.line if turn is not None else self.game.line),
            column=column if column is not None else (turn.column if turn is not None else None),
            game=self.game.number,
            move=turn.number if turn is not None else None,
            player=names[who] if who is not None and 0 <= who < len(names) else None,
            position_id=position.position_id() if position is not None else None,
            expected=expected,
        )
        self.out.problems.append(problem)
        if self.strict and severity == "error":
            raise ProblemError(problem)

    def view(self, player: int) -> Position:
        return self.views[player]

    def set_view(self, player: int, pos: Position) -> None:
        self.views[player] = pos
        self.views[1 - player] = pos.flip()

    def start(self, first: int) -> None:
        if self.game.start:
            try:
                pos = Position.from_position_id(self.game.start)
            except ValueError as exc:
                self.report("syntax", "error", _("set-up position: {error}").format(error=exc), player=first)
                pos = Position.initial()
        else:
            pos = Position.initial()
        self.views = [pos, pos.flip()] if first == 0 else [pos.flip(), pos]
        self.out.starter = first

    def run(self) -> ReplayedGame:
        for index, turn in enumerate(self.game.turns):
            if turn.player not in (0, 1):
                self.report("syntax", "error", _("turn by unknown player {player}").format(player=turn.player), turn,
                            player=None)
                continue
            if not self.views:
                self.start(turn.player)
            if self.ended_at is not None:
                self.report("after-end", "error",
                            _("the game was already over (line {line}); this turn cannot be played").format(
                                line=self.ended_at.line),
                            turn)
                continue
            if turn.kind == "roll":
                self.roll(index, turn)
            else:
                self.cube_action(index, turn)
        self.finish()
        return self.out

    # rolls
    def roll(self, index: int, turn: Turn) -> None:
        player = turn.player
        if self.offered is not None:
            self.report("cube-not-allowed", "error", _("a roll while a double waits for an answer"), turn)
            self.offered = None
        if self.on_roll is not None and player != self.on_roll:
            self.report("wrong-player", "error",
                        _("{player} rolls, but it is {other}'s turn").format(player=self.match.players[player],
                                                                      other=self.match.players[self.on_roll]),
                        turn)
        first_roll = self.on_roll is None
        self.on_roll = 1 - player
        before = self.view(player)
        step = Step(turn, index, player, before, before, self.out.cube, self.owner)
        self.out.steps.append(step)
        dice = turn.dice
        if dice is None or len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
            self.report("bad-dice", "error", _("dice {dice!r} are not two numbers 1-6").format(dice=dice), turn, position=before)
            step.legal = False
            if turn.moves:  # moves with unknown dice: the board is unknown from here
                self.synced = False
            return
        if first_roll and dice[0] == dice[1] and self.rules.opening == "use-opening-dice" and not self.game.start:
            self.report("opening-double", "error",
                        _("the first roll {roll} is a double, but the opening dice are played "
                          "(rules: use-opening-dice)").format(roll=f"{dice[0]}{dice[1]}"), turn, position=before)
        if turn.status in ("unknown", "illegal"):
            what = "'???'" if turn.status == "unknown" else _("gnubg's 'Illegal play' row")
            later = any(t.kind == "roll" for t in self.game.turns[index + 1:])
            self.report("unknown-play", "warning",
                        (_("the play is not known ({what}); later plays of this game are not checked") if later
                         else _("the play is not known ({what})")).format(what=what), turn, position=before)
            step.legal = False
            self.synced = False
            return
        if not self.synced:
            return
        if not turn.moves and turn.status == "play" and index == len(self.game.turns) - 1:
            return  # rolled, then resigned (gnubg writes it so), or the record stops here
        self.check_play(step, turn, before, (dice[0], dice[1]))

    def check_play(self, step: Step, turn: Turn, before: Position, dice: tuple[int, int]) -> None:
        board = before.board
        written = turn.moves
        rules = self.rules
        if not written:
            legal = legal_results(board, dice, rules)
            moves = next(iter(legal.values()))
            if moves:
                self.report("missing-play", "error",
                            _("no play written for {roll}, but {count} legal play(s) exist").format(
                                roll=f"{dice[0]}{dice[1]}", count=len(legal)),
                            turn, position=before, expected=_closest(legal, ()))
            return
        direct = _direct(board, dice, written) if rules.hit_and_run else None
        if direct is not None:  # every die used, so no maximal-dice question
            self.check_hits(turn, written, direct[1], before)
            self.moved(step, turn, Position._trusted(direct[0]))
            return
        realised = _realise(board, dice, written, rules)
        all_dice = 4 if dice[0] == dice[1] else 2
        chosen: Board | None = None
        if realised.boards and rules.hit_and_run and len(next(iter(realised.boards.values()))) == all_dice:
            chosen = next(iter(realised.boards))
        else:
            legal = legal_results(board, dice, rules)
            for key in realised.boards:
                if key in legal:
                    chosen = key
                    break
            if chosen is None:
                self.illegal(step, turn, before, dice, realised, legal)
                return
        self.check_hits(turn, written, realised.boards[chosen], before)
        self.moved(step, turn, Position._trusted(chosen))

    def moved(self, step: Step, turn: Turn, after: Position) -> None:
        step.after = after
        self.set_view(turn.player, after)
        if max(after.board) <= 0:  # the mover has no checker left: all borne off
            self.ended_at = turn

    def illegal(self, step: Step, turn: Turn, before: Position, dice: tuple[int, int],
                realised: _Realised, legal: dict[Board, tuple[Move, ...]]) -> None:
        step.legal = False
        written = turn.moves
        expected = _closest(legal, written)
        roll = f"{dice[0]}{dice[1]}"
        text = Play(written).notation()
        most = max(len(m) for m in legal.values())
        if most == 0:
            code, message = "illegal-play", _("{play} is written, but no move is possible with {roll}: the turn passes")\
                .format(play=text, roll=roll)
        elif realised.boards:
            used = len(next(iter(realised.boards.values())))
            if used < most:
                code, message = "not-all-dice-used", (
                    _("{play} plays {used} of the dice of {roll}, but {most} can be played").format(
                        play=text, used=used, roll=roll, most=most))
            else:
                code, message = "larger-die", (
                    _("{play} plays the smaller die of {roll}; only the larger may be played here").format(play=text, roll=roll))
        elif realised.failure:
            code, message = realised.failure
            message = _("{message} (roll {roll})").format(message=message, roll=roll)
        else:
            code, message = "illegal-play", _("{play} cannot be played with {roll}").format(play=text, roll=roll)
        # lenient: apply as written when the board allows it
        try:
            after = before.apply(written)
        except ValueError:
            message = _("{message}; skipped, board unchanged").format(message=message)
            after = before
        else:
            message = _("{message}; applied as written").format(message=message)
        self.report(code, "error", message, turn, position=before, expected=expected)
        self.moved(step, turn, after)

    def check_hits(self, turn: Turn, written: Sequence[Move], made: tuple[Move, ...], before: Position) -> None:
        wrote = {m.dst for m in written if m.hit}
        hits = {m.dst for m in made if m.hit}
        if not self.marks_hits:
            self.out.unmarked_hits += len(hits)
        elif wrote != hits:
            missing = ", ".join(str(p) for p in sorted(hits - wrote, reverse=True))
            extra = ", ".join(str(p) for p in sorted(wrote - hits, reverse=True))
            message = _("hit mark '*' missing on {missing} and extra on {extra}") if missing and extra else \
                _("hit mark '*' missing on {missing}") if missing else _("hit mark '*' extra on {extra}")
            self.report("hit-mark", "warning", message.format(missing=missing, extra=extra), turn, position=before)

    # cube
    def cube_action(self, index: int, turn: Turn) -> None:
        player = turn.player
        pos = self.view(player)
        step = Step(turn, index, player, pos, pos, self.out.cube, self.owner)
        self.out.steps.append(step)
        kind = turn.kind
        if kind == "double":
            problem = None
            if not self.rules.cube:
                problem = ("cube-not-allowed", _("a double, but the rules have no cube"))
            elif self.crawford:
                problem = ("crawford-double", _("a double in the Crawford game"))
            elif self.owner is not None and self.owner != player:
                problem = ("cube-not-allowed", _("{player} doubles without owning the cube").format(
                    player=self.match.players[player]))
            elif self.offered is not None:
                problem = ("cube-not-allowed", _("a double while another double is pending"))
            elif self.on_roll is not None and player != self.on_roll:
                problem = ("cube-not-allowed", _("{player} doubles when not about to roll").format(
                    player=self.match.players[player]))
            if problem:
                self.report(problem[0], "error", problem[1], turn, position=pos)
                step.legal = False
            new = self.out.cube * 2
            if turn.cube is not None and turn.cube != new:
                self.report("cube-value", "warning", _("Doubles => {value}, but the cube was {cube}; expected {new}")
                            .format(value=turn.cube, cube=self.out.cube, new=new), turn, position=pos)
            self.offered = player
            return
        if self.offered is None or self.offered == player:
            self.report("cube-not-allowed", "error", _("'{kind}' without a double to answer").format(kind=kind), turn, position=pos)
            step.legal = False
            if kind == "drop":
                self.dropped_by = player
                self.ended_at = turn
            return
        doubler = self.offered
        self.offered = None
        if kind == "take":
            self.out.cube *= 2
            self.owner = player
        elif kind == "beaver":
            if not self.rules.beaver:
                self.report("cube-not-allowed", "error", _("a beaver, but the rules do not allow beavers"), turn,
                            position=pos)
            self.out.cube *= 4
            self.owner = player
            expected = self.out.cube
            if turn.cube is not None and turn.cube != expected:
                self.report("cube-value", "warning", _("Beavers => {value}; expected {expected}").format(value=turn.cube, expected=expected), turn,
                            position=pos)
        else:  # drop
            self.dropped_by = player
            self.ended_at = turn
        self.on_roll = doubler if kind != "drop" else self.on_roll

    # end of game
    def finish(self) -> None:
        game = self.game
        out = self.out
        if self.views:
            out.final = self.views[0]
        result = game.result
        final = out.final
        winner_on_board = final.winner() if self.views and self.synced else None
        if winner_on_board is not None:
            kind = final.result_kind(self.rules)
            out.result_kind = kind
        if result is None:
            if game.turns:
                self.report("missing-result", "warning" if winner_on_board is None else "error",
                            _("the game has no result (it stops before it is over)") if winner_on_board is None
                            else _("the game has no result"),
                            line=game.turns[-1].line)
            return
        names = self.match.players
        rline, rcol = result.line, result.column
        money = self.match.length == 0
        cube = out.cube
        if result.points > 3 * max(cube, 1) * (2 if self.offered is not None else 1) or result.points < 1:
            self.report("absurd-points", "error",
                        _("Wins {points} point(s): a game at cube {cube} is worth at most {most}").format(
                            points=result.points, cube=cube, most=3 * cube),
                        player=result.winner, line=rline, column=rcol)
            return
        if self.dropped_by is not None:
            winner = 1 - self.dropped_by
            if result.winner != winner:
                self.report("result-mismatch", "error",
                            _("{winner} wins, but {loser} dropped the double").format(winner=names[result.winner],
                                                                             loser=names[self.dropped_by]),
                            player=result.winner, line=rline, column=rcol)
            else:
                self.judge_points({cube}, _("a dropped double at cube {cube} wins {cube}").format(cube=cube))
            return
        if winner_on_board is not None:
            kind = out.result_kind or "single"
            points = self.rules.points(kind, cube, money)
            if result.winner != winner_on_board:
                self.report("result-mismatch", "error",
                            _("{winner} is written as the winner, but {other} bore off all checkers").format(
                                winner=names[result.winner], other=names[winner_on_board]),
                            player=result.winner, line=rline, column=rcol)
            else:
                self.judge_points({points}, _("a {kind} win at cube {cube} is worth {points} under {rules} rules")
                                  .format(kind=_(KIND_NAMES.get(kind, kind)), cube=cube, points=points,
                                          rules=self.rules.name))
            return
        if self.synced and self.views:  # the game did not end on the board: a resignation
            allowed = {self.rules.points(k, cube, money) for k in ("single", "mars", "backgammon")}
            values = _(" or ").join(str(p) for p in sorted(allowed))
            self.judge_points(allowed, _("a resigned game at cube {cube} is worth {values}").format(cube=cube,
                                                                                                  values=values))

    def judge_points(self, allowed: set[int], why: str) -> None:
        """Check the written points against the values the game can have.

        Some programs write only the points the winner needed to win the
        match; that is a warning, not an error.
        """
        result = self.game.result
        assert result is not None
        if result.points in allowed:
            return
        length = self.match.length
        capped = length and self.game.score[result.winner] + result.points >= length \
            and result.points < max(allowed)
        if capped:
            self.report("points-capped", "warning",
                        _("Wins {points} point(s): {why}; the writer capped the points of the match-winning game")
                        .format(points=result.points, why=why), player=result.winner, line=result.line,
                        column=result.column)
        else:
            self.report("result-mismatch", "error", _("Wins {points} point(s), but {why}").format(points=result.points, why=why),
                        player=result.winner, line=result.line, column=result.column)


def replay_game(game: Game, rules: Rules, match: Match | None = None, crawford: bool = False,
                strict: bool = False) -> ReplayedGame:
    """Replay one game; ``crawford`` says whether it is the Crawford game."""
    walker = _GameWalker(match or Match(), game, rules, bool(game.crawford) or crawford, strict)
    return walker.run()


def replay(match: Match, rules: Rules | None = None, strict: bool = False,
           games: Iterable[Game] | None = None) -> Iterator[ReplayedGame]:
    """Replay the games of ``match`` (or ``games``, e.g. a streaming reader's)
    one at a time; score and match checks go into each game's problems.

    A score line is right when it follows from the previous game's score
    (as computed, or as written) and result; a wrong one is reported once
    and the computed score is used from there on, so one typo does not
    spoil the rest of the match.
    """
    rules = rules or default_rules(match)
    candidates: list[tuple[int, int]] = []
    crawford_done = False
    length = match.length
    first = True
    for game in match.games if games is None else games:
        if first and game.score != (0, 0):
            # the record starts in mid-match: an earlier game may have been the Crawford game
            crawford_done = True
        first = False
        if strict:
            for problem in game.problems:
                if problem.severity == "error":
                    raise ProblemError(problem)
        extra: list[Problem] = []
        score = written = game.score
        if candidates and written not in candidates:
            score = candidates[0]
            extra.append(_match_problem(match, game, "score-mismatch",
                                        _("the score line says {written}, but earlier results give {score}").format(
                                            written=f"{written[0]}-{written[1]}", score=f"{score[0]}-{score[1]}")))
        if length and max(score) >= length:
            extra.append(_match_problem(match, game, "match-over",
                                        _("the match to {length} was already won at {score}").format(
                                            length=length, score=f"{score[0]}-{score[1]}")))
        if strict and extra:
            raise ProblemError(extra[0])
        crawford = False
        if length and rules.cube and rules.crawford and not crawford_done and max(score) == length - 1:
            crawford = crawford_done = True
        if game.crawford is not None:
            crawford = game.crawford
        replayed = replay_game(game, rules, match, crawford, strict)
        replayed.problems[:0] = extra
        result = game.result
        candidates = []
        if result is not None and result.winner in (0, 1):
            for base in (score, written):
                after = list(base)
                after[result.winner] += result.points
                if tuple(after) not in candidates:
                    candidates.append((after[0], after[1]))
        yield replayed


def _match_problem(match: Match, game: Game, code: str, message: str) -> Problem:
    return Problem(code, "error", message, file=match.source, line=game.line, game=game.number)


def validate(match: Match, rules: Rules | None = None, strict: bool = False,
             games: Iterable[Game] | None = None) -> Report:
    """Replay ``match`` and collect every problem, reading problems included.

    Games are replayed and dropped one by one, so a streaming ``games``
    keeps memory flat. With ``strict`` a
    :class:`~tavlakit.problem.ProblemError` is raised at the first error.
    """
    report = Report(match)
    report.problems.extend(match.problems)
    if strict:
        for problem in match.problems:
            if problem.severity == "error":
                raise ProblemError(problem)
    unmarked = unmarked_games = 0
    for replayed in replay(match, rules, strict, games):
        report.games += 1
        report.plays += replayed.plays
        report.problems.extend(replayed.game.problems)
        report.problems.extend(replayed.problems)
        if replayed.unmarked_hits:
            unmarked += replayed.unmarked_hits
            unmarked_games += 1
    if unmarked:
        report.problems.append(Problem(
            "hit-mark", "warning",
            _("{hits} hit(s) in {games} game(s) written without '*' (the writer marks no hits)").format(
                hits=unmarked, games=unmarked_games),
            file=match.source))
    return report
