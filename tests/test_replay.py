"""The replayer/validator against GNU Backgammon's own records, and one
injected fault of each kind (record level; line-level tests on .mat text
live in test_validate_mat.py)."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from gnubg_records import dump_names, gnubg_dump, match_from_gnubg

import tavlakit as tk
from tavlakit.engine.play import Move
from tavlakit.engine.position import Position
from tavlakit.record.match import Game, Match, Result, Turn
from tavlakit.record.problem import ProblemError
from tavlakit.replay.walker import replay, validate

BG = tk.Rules.preset("backgammon")
NAMES = dump_names()


@pytest.fixture(scope="module")
def matches() -> dict[str, tuple[dict, Match]]:
    out = {}
    for name in NAMES:
        dump = gnubg_dump(name)
        out[name] = (dump, match_from_gnubg(dump))
    return out


def test_there_are_reference_matches() -> None:
    assert len(NAMES) >= 3


@pytest.mark.parametrize("name", NAMES)
def test_boards_equal_gnubg(name: str, matches) -> None:
    """Before every play, our board is the one gnubg recorded (Position ID)."""
    dump, match = matches[name]
    compared = 0
    for replayed, entry in zip(replay(match, BG), dump["games"]):
        gnubg_moves = [a for a in entry["game"] if a["action"] == "move"]
        steps = [s for s in replayed.steps if s.turn.kind == "roll"]
        assert len(steps) == len(gnubg_moves)
        for step, action in zip(steps, gnubg_moves):
            assert step.before.position_id() == action["board"]
            compared += 1
    assert compared > 50


@pytest.mark.parametrize("name", NAMES)
def test_gnubg_matches_have_no_errors(name: str, matches) -> None:
    """gnubg's own games are legal, and their results and scores agree.

    gnubg's dump does not mark hits, so the only problems allowed are
    hit-mark warnings, and there must be one per hit gnubg made.
    """
    _, match = matches[name]
    report = validate(match, BG)
    assert report.errors == []
    assert {p.code for p in report.problems} <= {"hit-mark"}
    assert report.games == len(match.games)


# --- injected faults ---------------------------------------------------------


def _rolls(match: Match):
    """(game index, turn index, Step) for every roll, with boards from replay."""
    for gi, replayed in enumerate(replay(match, BG)):
        for step in replayed.steps:
            if step.turn.kind == "roll":
                yield gi, step.index, step


def _cut(match: Match, gi: int, ti: int, moves: tuple[Move, ...], dice=None) -> Match:
    """Replace turn ``ti`` of game ``gi`` and end the game there by the
    opponent resigning a single game; later games are dropped, so nothing
    but the injected fault can be wrong."""
    out = copy.deepcopy(match)
    game = out.games[gi]
    turn = game.turns[ti]
    cube_turns = [t for t in game.turns[:ti] if t.kind in ("double", "take", "drop")]
    assert not cube_turns, "pick a turn before any cube action"
    game.turns[ti] = dataclasses.replace(turn, moves=moves, dice=dice or turn.dice, number=ti + 1)
    del game.turns[ti + 1 :]
    game.result = Result(turn.player, 1, resigned=True)
    del out.games[gi + 1 :]
    return out


def _only(report, code: str, game: int, move: int) -> None:
    assert [(p.code, p.game, p.move) for p in report.errors] == [(code, game, move)], report.problems
    assert report.warnings == [] or {p.code for p in report.warnings} <= {"hit-mark"}


def _find(match: Match, predicate):
    for gi, ti, step in _rolls(match):
        game = match.games[gi]
        if any(t.kind != "roll" for t in game.turns[:ti]):
            continue
        found = predicate(step)
        if found:
            return gi, ti, step, found
    pytest.skip("no suitable turn in the reference games")  # pragma: no cover


def _all(matches) -> Match:
    return matches["selfplay-7p-5"][1]


def test_empty_point(matches) -> None:
    match = _all(matches)

    def pred(step):
        s = step.before.board
        d = step.turn.dice[0]
        for p in range(24, d, -1):
            if s[p] <= 0 and s[p - d] >= -1 and s[25] == 0:
                return (Move(p, p - d),)
        return None

    gi, ti, step, moves = _find(match, pred)
    report = validate(_cut(match, gi, ti, moves), BG)
    _only(report, "illegal-play", gi + 1, ti + 1)
    assert "no checker" in report.errors[0].message
    assert report.errors[0].position_id == step.before.position_id()


def test_blocked_point(matches) -> None:
    match = _all(matches)

    def pred(step):
        s = step.before.board
        d = step.turn.dice[0]
        for p in range(24, d, -1):
            if s[p] > 0 and s[p - d] <= -2 and s[25] == 0:
                return (Move(p, p - d),) + step.turn.moves[1:]
        return None

    gi, ti, _, moves = _find(match, pred)
    report = validate(_cut(match, gi, ti, moves), BG)
    _only(report, "illegal-play", gi + 1, ti + 1)
    assert "closed" in report.errors[0].message


def test_wrong_distance(matches) -> None:
    match = _all(matches)

    def pred(step):
        s = step.before.board
        a, b = step.turn.dice
        bad = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10} - {a, b, a + b, 2 * a, 3 * a, 4 * a}
        for p in range(24, 1, -1):
            for k in sorted(bad):
                if s[p] > 0 and p - k >= 1 and s[p - k] >= 0 and s[25] == 0:
                    return (Move(p, p - k),)
        return None

    gi, ti, _, moves = _find(match, pred)
    report = validate(_cut(match, gi, ti, moves), BG)
    _only(report, "illegal-play", gi + 1, ti + 1)


def test_backwards(matches) -> None:
    match = _all(matches)

    def pred(step):
        s = step.before.board
        for p in range(1, 24):
            if s[p] > 0 and s[p + 1] >= 0 and s[25] == 0:
                return (Move(p, p + 1),)
        return None

    gi, ti, _, moves = _find(match, pred)
    report = validate(_cut(match, gi, ti, moves), BG)
    _only(report, "illegal-play", gi + 1, ti + 1)
    assert "forward" in report.errors[0].message


def test_must_enter_first(matches) -> None:
    match = _all(matches)

    def pred(step):
        s = step.before.board
        a, b = step.turn.dice
        if s[25] == 0 or not step.turn.moves or a == b:
            return None
        for p in range(24, a, -1):
            if s[p] > 0 and s[p - a] >= 0:
                return (Move(p, p - a),)
        return None

    gi, ti, _, moves = _find(match, pred)
    report = validate(_cut(match, gi, ti, moves), BG)
    _only(report, "must-enter-first", gi + 1, ti + 1)


def test_bear_off_outside(matches) -> None:
    match = _all(matches)

    def pred(step):
        s = step.before.board
        a, _ = step.turn.dice
        if s[25] or all(s[p] <= 0 for p in range(7, 25)):
            return None
        if s[a] > 0 and any(s[p] > 0 for p in range(7, 25)):
            return (Move(a, 0),)
        return None

    gi, ti, _, moves = _find(match, pred)
    report = validate(_cut(match, gi, ti, moves), BG)
    _only(report, "bear-off-outside", gi + 1, ti + 1)


def test_not_all_dice_used(matches) -> None:
    match = _all(matches)

    def pred(step):
        a, b = step.turn.dice
        if a != b and len(step.turn.moves) == 2 and step.turn.moves[0].src - step.turn.moves[0].dst in (a, b):
            return step.turn.moves[:1]
        return None

    gi, ti, _, moves = _find(match, pred)
    report = validate(_cut(match, gi, ti, moves), BG)
    _only(report, "not-all-dice-used", gi + 1, ti + 1)


def test_missing_play(matches) -> None:
    match = _all(matches)
    gi, ti, _, _ = _find(match, lambda step: step.index > 2 and step.turn.moves)
    bad = _cut(match, gi, ti, ())
    # a roll with nothing written followed by more turns: not a resignation
    game = bad.games[gi]
    game.turns.append(Turn(1 - game.turns[ti].player, "roll", (6, 6), ()))
    game.result = Result(game.turns[ti].player, 1, resigned=True)
    report = validate(bad, BG)
    assert ("missing-play", gi + 1, ti + 1) in [(p.code, p.game, p.move) for p in report.errors]


def test_larger_die_hand_position() -> None:
    """Only one die can be played; both could be alone: the larger must."""
    # Roll 6-1. X: one checker on 8, fourteen on 2; O holds X's 1-point.
    # 8/2 leaves the 1 unplayable (2/1 and 8... closed); 8/7 leaves the 6
    # unplayable (7/1 closed, no bearing off with a checker on 7).
    start = Position.from_points({8: 1, 2: 14}, {24: 2, 6: 3, 7: 2, 8: 2, 9: 2, 10: 2, 11: 2})
    # sanity of the construction from the rules themselves
    plays = start.legal_plays((6, 1), BG)
    assert [str(p) for p in plays] == ["8/2"]
    game = Game(
        1,
        start=start.position_id(),
        turns=[Turn(0, "roll", (6, 1), (Move(8, 7),), number=1)],
        result=Result(0, 1, resigned=True),
    )
    report = validate(Match(("A", "B"), 0, [game]), BG)
    assert [p.code for p in report.errors] == ["larger-die"]
    relaxed = validate(Match(("A", "B"), 0, [game]), BG.replace(larger_die=False))
    assert relaxed.errors == []


def test_result_points_mismatch(matches) -> None:
    candidates = [
        (name, g.number)
        for name in NAMES
        for g in matches[name][1].games
        if g.result and not g.result.resigned and not any(t.kind == "drop" for t in g.turns)
    ]
    name, number = candidates[0]
    bad = copy.deepcopy(matches[name][1])
    game = bad.games[number - 1]
    game.result.points += 1
    idx = bad.games.index(game)
    del bad.games[idx + 1 :]
    report = validate(bad, BG)
    assert [(p.code, p.game) for p in report.errors] == [("result-mismatch", game.number)]


def test_result_wrong_winner(matches) -> None:
    _, match = matches["selfplay-7p-5"]
    bad = copy.deepcopy(match)
    game = next(
        g for g in bad.games if g.result and not g.result.resigned and not any(t.kind == "drop" for t in g.turns)
    )
    game.result.winner = 1 - game.result.winner
    del bad.games[bad.games.index(game) + 1 :]
    report = validate(bad, BG)
    assert [(p.code, p.game) for p in report.errors] == [("result-mismatch", game.number)]


def test_score_mismatch(matches) -> None:
    _, match = matches["selfplay-7p-5"]
    bad = copy.deepcopy(match)
    bad.games[1].score = (bad.games[1].score[0] + 1, bad.games[1].score[1])
    report = validate(bad, BG)
    assert [(p.code, p.game) for p in report.errors] == [("score-mismatch", 2)]


def test_absurd_points(matches) -> None:
    _, match = matches["selfplay-3p-1"]
    bad = copy.deepcopy(match)
    bad.games[-1].result.points = 4016
    report = validate(bad, BG)
    assert [(p.code, p.game) for p in report.errors] == [("absurd-points", len(bad.games))]


def test_match_over(matches) -> None:
    _, match = matches["selfplay-3p-1"]
    bad = copy.deepcopy(match)
    last = bad.games[-1]
    extra = copy.deepcopy(bad.games[0])
    extra.number = last.number + 1
    scores = list(last.score)
    scores[last.result.winner] += last.result.points
    extra.score = (scores[0], scores[1])
    bad.games.append(extra)
    report = validate(bad, BG)
    assert [(p.code, p.game) for p in report.errors] == [("match-over", extra.number)]


def test_crawford_double(matches) -> None:
    _, match = matches["selfplay-5p-2"]
    bad = copy.deepcopy(match)
    # game 1 (resigned at cube 2) becomes a resigned gammon: 0-4 in a 5-point
    # match, so game 2 is the Crawford game
    first = bad.games[0]
    assert first.result.resigned and first.result.winner == 1
    first.result.points = 4
    game = bad.games[1]
    game.score = (0, 4)
    second = game.turns[1]
    game.turns[1:] = [Turn(second.player, "double", cube=2, number=2), Turn(1 - second.player, "drop", number=2)]
    game.result = Result(second.player, 1)
    del bad.games[2:]
    report = validate(bad, BG)
    assert [(p.code, p.game, p.move) for p in report.errors] == [("crawford-double", 2, 2)]
    # the same double at 0-2 (nobody at match point - 1) is allowed
    late = copy.deepcopy(bad)
    late.games[0].result.points = 2
    late.games[1].score = (0, 2)
    assert validate(late, BG).errors == []


def test_take_without_double(matches) -> None:
    _, match = matches["selfplay-3p-7"]
    bad = copy.deepcopy(match)
    game = bad.games[0]
    game.turns.insert(3, Turn(game.turns[3].player, "take", number=99))
    del bad.games[1:]
    report = validate(bad, BG)
    assert ("cube-not-allowed", 1, 99) in [(p.code, p.game, p.move) for p in report.errors]


def test_bad_dice(matches) -> None:
    match = _all(matches)
    gi, ti, _, moves = _find(match, lambda step: step.index > 1 and step.turn.moves)
    report = validate(_cut(match, gi, ti, moves, dice=(7, 2)), BG)
    _only(report, "bad-dice", gi + 1, ti + 1)


def test_strict_stops_at_first_error(matches) -> None:
    _, match = matches["selfplay-3p-1"]
    bad = copy.deepcopy(match)
    bad.games[-1].result.points = 4016
    with pytest.raises(ProblemError) as info:
        validate(bad, BG, strict=True)
    assert info.value.problem.code == "absurd-points"


def test_no_legal_move_but_play_written() -> None:
    """A checker on the bar against a closed board: nothing can move."""
    start = Position.from_points({25: 1, 6: 14}, {p: 2 for p in range(1, 7)} | {12: 3})
    game = Game(
        1,
        start=start.position_id(),
        turns=[Turn(0, "roll", (6, 6), (Move(6, 0),), number=1)],
        result=Result(1, 1, resigned=True),
    )
    report = validate(Match(("A", "B"), 0, [game]), BG)
    assert [p.code for p in report.errors] == ["illegal-play"]
    assert "no move is possible" in report.errors[0].message


def test_wrong_player(matches) -> None:
    """A roll by the side that just rolled."""
    _, match = matches["selfplay-3p-7"]
    bad = copy.deepcopy(match)
    game = bad.games[0]
    second = game.turns[1]
    game.turns[1] = dataclasses.replace(second, player=1 - second.player, number=2)
    del bad.games[1:]
    report = validate(bad, BG)
    assert (report.errors[0].code, report.errors[0].move) == ("wrong-player", 2)


def _board_ended(matches) -> tuple[Match, int]:
    """A copy of a match cut after its first game that ended on the board
    with no cube action, and that game's index."""
    for name in NAMES:
        match = copy.deepcopy(matches[name][1])
        for index, game in enumerate(match.games):
            if game.result and not game.result.resigned and all(t.kind == "roll" for t in game.turns):
                del match.games[index + 1 :]
                return match, index
    pytest.fail("no game ended on the board without a cube action")


def test_turn_after_the_game_ended(matches) -> None:
    bad, index = _board_ended(matches)
    game = bad.games[index]
    last = game.turns[-1]
    game.turns.append(Turn(1 - last.player, "roll", (3, 1), (), number=999))
    report = validate(bad, BG)
    assert [(p.code, p.move) for p in report.errors] == [("after-end", 999)]


def test_beaver_needs_the_rule_and_doubles_twice(matches) -> None:
    """Doubles => 2, Beavers => 4 (no Takes, as gnubg and Jellyfish write
    it): the game goes on at 4 and is worth four times its value."""
    base, index = _board_ended(matches)
    game = base.games[index]
    roller = game.turns[2].player
    game.turns[2:2] = [Turn(roller, "double", cube=2, number=90), Turn(1 - roller, "beaver", cube=4, number=90)]
    game.result.points *= 4
    money = dataclasses.replace(base, length=0, games=[dataclasses.replace(game, score=(0, 0))])
    with_beaver = BG.replace(beaver=True)
    assert validate(money, with_beaver).errors == []
    assert [p.code for p in validate(money, BG).errors] == ["cube-not-allowed"]
    wrong_value = copy.deepcopy(money)
    wrong_value.games[0].turns[3].cube = 8
    assert [p.code for p in validate(wrong_value, with_beaver).problems if p.code != "hit-mark"] == ["cube-value"]


def test_starting_cube_of_a_set_up_game() -> None:
    """A set-up game that starts at cube 2 owned by player 0: a gammon is
    worth 4, player 0 may redouble to 4, player 1 may not double."""
    start = Position.from_points({1: 1}, {13: 15})  # the loser has borne off none, none in the winner's home
    win = Turn(0, "roll", (2, 1), (Move(1, 0),), number=2)

    def errors(owner: int, turns: list[Turn], points: int) -> list[str]:
        game = Game(1, start=start.position_id(), cube=2, cube_owner=owner, turns=turns, result=Result(0, points))
        return [p.code for p in validate(Match(("A", "B"), 0, [game]), BG).errors]

    assert errors(0, [win], 4) == []
    assert errors(0, [win], 2) == ["result-mismatch"]
    redouble = [Turn(0, "double", cube=4, number=1), Turn(1, "take", number=1), win]
    assert errors(0, redouble, 8) == []
    assert errors(1, redouble, 8) == ["cube-not-allowed"]


# --- staying in step (issue 11) --------------------------------------------------


def test_one_move_made_backwards_keeps_the_rest_of_the_game(matches) -> None:
    """One move of a play replaced by a backwards one (``17/13 15/11 11/7
    7/11`` for 4-4), the rest of the game kept: one error, on that turn; the
    other moves are applied, so the later plays (and the result) fit."""
    rng = __import__("random").Random("backwards")
    tried = 0
    for name in NAMES:
        match = matches[name][1]
        rolls = [(gi, ti, step) for gi, ti, step in _rolls(match) if len(step.turn.moves) >= 2]
        for gi, ti, step in rng.sample(rolls, 6):
            moves = list(step.turn.moves)
            last = moves[-1]
            back = Move(last.src, min(last.src + 2, 24)) if last.src < 23 else None
            if back is None or step.before.board[back.dst] < -1:
                continue
            bad = copy.deepcopy(match)
            game = bad.games[gi]
            game.turns[ti] = dataclasses.replace(game.turns[ti], moves=tuple(moves[:-1]) + (back,), number=ti + 1)
            report = validate(bad, BG)
            assert [(p.code, p.game, p.move) for p in report.errors] == [("illegal-play", gi + 1, ti + 1)], (
                name,
                gi,
                ti,
                [str(p) for p in report.errors],
            )
            tried += 1
    assert tried >= 15


def test_turns_after_the_end_are_one_error(matches) -> None:
    bad, index = _board_ended(matches)
    game = bad.games[index]
    last = game.turns[-1]
    game.turns += [
        Turn(1 - last.player, "roll", (3, 1), (), number=998),
        Turn(last.player, "roll", (6, 5), (), number=999),
    ]
    report = validate(bad, BG)
    assert [(p.code, p.move) for p in report.errors] == [("after-end", 998)]
    assert "1 later turn(s)" in report.errors[0].message


def test_rules_are_read_once_and_bad_tags_reported_once() -> None:
    match = Match(tags={"Variation": "Tavla", "Jacoby": "maybe"})
    assert match.rules == tk.Rules.preset("tavla")
    assert match.rules is match.rules
    assert [p.code for p in match.problems] == ["bad-tag"]
    match.tags["Jacoby"] = "Off"
    match.tags["Variation"] = "Backgammon"
    assert match.rules == BG and match.problems == []
    assert validate(Match(tags={"Rules": "bogus"})).problems[0].code == "bad-tag"


def test_a_turn_left_out_is_one_wrong_player_error(matches) -> None:
    """A whole turn deleted from gnubg's record (the rest kept): one
    wrong-player error, and the board is rebuilt from the legal play of the
    side whose turn is missing under which the later plays fit."""
    rng = __import__("random").Random("left-out")
    tried = 0
    for name in NAMES:
        match = matches[name][1]
        rolls = [
            (gi, ti)
            for gi, ti, step in _rolls(match)
            if ti >= 2
            and step.turn.moves
            and ti + 1 < len(match.games[gi].turns)
            and match.games[gi].turns[ti + 1].kind == "roll"
        ]
        for gi, ti in rng.sample(rolls, 5):
            bad = copy.deepcopy(match)
            del bad.games[gi].turns[ti]
            report = validate(bad, BG)
            assert [(p.code, p.game) for p in report.errors] == [("wrong-player", gi + 1)], (
                name,
                gi,
                ti,
                [str(p) for p in report.errors],
            )
            tried += 1
    assert tried == 5 * len(NAMES)


def test_judging_a_play_leaves_no_reference_cycle() -> None:
    """Replaying leaves nothing for the cyclic garbage collector: before,
    legality's recursive search closure was a cycle at every merged move it
    walked, and collecting them cost validate about 4% of its time."""
    import gc

    from tavlakit.engine.rules import DEFAULT_RULES
    from tavlakit.replay.legality import judge

    board = Position.initial().board
    gc.collect()
    gc.disable()
    try:
        for written in ([Move(24, 13)], [Move(13, 7), Move(8, 7)], [Move(6, 1)], [Move(24, 20), Move(20, 14)]):
            judge(board, (6, 5), written, DEFAULT_RULES)
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0
