"""The replayer's one annotated record of a game (:class:`~tavlakit.replay.walker.Step`),
on a game worked by hand, and its readers: the viewer draws the steps and
shows each problem once, the frames' rows follow them, and the viewer with
analysis replays the match once."""

from __future__ import annotations

from collections import Counter

import pytest

from tavlakit.analysis import plays_frame
from tavlakit.engine.play import Move
from tavlakit.engine.position import Position
from tavlakit.engine.rules import Rules
from tavlakit.formats import read_match
from tavlakit.pictures import viewer
from tavlakit.record.match import Game, Match, Turn
from tavlakit.replay import walker as replay_module
from tavlakit.replay.walker import END, START, ReplayedGame, replay, validate

BG = Rules.preset("backgammon")


def hand_match() -> Match:
    """Alpha (0) leaves blots, Bravo (1) hits one, Alpha doubles, Bravo
    takes; Alpha's play is not known ('???'), then Bravo's dice are not dice."""
    turns = [
        Turn(0, dice=(6, 4), moves=(Move(24, 18), Move(13, 9)), number=1, line=10),
        Turn(1, dice=(6, 1), moves=(Move(8, 7), Move(13, 7, True)), number=1, line=10),  # 7 is Alpha's 18
        Turn(0, kind="double", cube=2, number=2, line=11),
        Turn(1, kind="take", number=2, line=11),
        Turn(0, dice=(3, 1), status="unknown", number=3, line=12),
        Turn(1, dice=(0, 3), moves=(Move(6, 3),), number=3, line=12),
    ]
    return Match(players=("Alpha", "Bravo"), length=3, games=[Game(1, turns=turns, line=9)])


@pytest.fixture(scope="module")
def hand() -> ReplayedGame:
    (game,) = replay(hand_match(), BG)
    return game


def test_steps_say_what_each_turn_did(hand: ReplayedGame) -> None:
    steps = hand.steps
    assert [s.index for s in steps] == [0, 1, 2, 3, 4, 5]
    # the opening 64 and the 61 that hits: the moves as made, the hit found on the board
    assert steps[0].made == (Move(24, 18), Move(13, 9)) and steps[0].on_roll == 1
    assert steps[1].made == (Move(13, 7, True), Move(8, 7))  # (the checker from 13 moved first: it hits)
    assert steps[1].after.flip().board[25] == 1  # Alpha's checker on the bar
    # the double: Alpha rolls next (after the answer), the cube is still 1; the take: Bravo owns 2
    assert (steps[2].cube_after, steps[2].owner_after, steps[2].on_roll) == (1, None, 0)
    take = steps[3]
    assert (take.cube, take.owner, take.cube_after, take.owner_after, take.on_roll) == (1, None, 2, 1, 0)
    # the unknown play: its board before is known, the board after is not
    assert steps[4].known and not steps[4].known_after and not steps[4].legal and steps[4].dice == (3, 1)
    # dice that are not dice: no roll, and the board is no longer known
    assert steps[5].dice is None and not steps[5].known and not steps[5].legal
    assert [s.played for s in steps] == [True, True, False, False, False, False]


def test_each_problem_is_placed_once_at_its_step(hand: ReplayedGame) -> None:
    assert [[p.code for p in s.problems] for s in hand.steps] == [[], [], [], [], ["unknown-play"], ["bad-dice"]]
    assert [p.code for p in hand.end_problems] == ["missing-result"]
    assert hand.start_problems == []
    report = validate(hand_match(), BG)
    placed = [*hand.start_problems, *(p for s in hand.steps for p in s.problems), *hand.end_problems]
    assert Counter(placed) == Counter(report.problems)


def test_an_illegal_play_is_resynced_and_says_how() -> None:
    turns = [Turn(0, dice=(2, 1), moves=(Move(6, 2),), number=1, line=5)]  # 4 pips with a 21
    (game,) = replay(Match(players=("A", "B"), games=[Game(1, turns=turns, line=4)]), BG)
    (step,) = game.steps
    assert not step.legal and step.resync == "physical" and step.made == (Move(6, 2),)
    board = list(Position.initial().board)
    board[6] -= 1
    board[2] += 1
    assert step.after.board == tuple(board)
    assert [p.code for p in step.problems] == ["illegal-play"]


def test_the_score_problem_goes_to_the_start() -> None:
    match = hand_match()
    match.games[0].score = (5, 0)  # more than the 3 points of the match
    (game,) = replay(match, BG)
    assert [p.code for p in game.start_problems] == ["match-over"]
    assert [p.code for p in game.end_problems] == ["missing-result"]
    assert replay_module.place(game.start_problems[0], game.steps, 10, match.players) == START
    assert replay_module.place(game.end_problems[0], game.steps, 10, match.players) == END


def test_the_viewer_draws_the_steps(hand: ReplayedGame) -> None:
    data = viewer.page_data(viewer.html(hand_match(), rules=BG))
    frames = data["games"][0]["frames"]
    assert len(frames) == 1 + len(hand.steps)
    assert frames[0]["id"] == hand.start.position_id()
    assert [f["id"] for f in frames[1:]] == [s.next_view.position_id() for s in hand.steps]
    shown = [[p[1] for p in f.get("p", [])] for f in frames]
    assert shown == [[], [], [], [], [], ["unknown-play"], ["bad-dice", "missing-result"]]


def test_the_frames_rows_follow_the_steps(corpus_dir) -> None:
    match = read_match(corpus_dir / "bglib" / "Nori-Kenji081229.txt")  # has a play not known
    games = list(replay(match))
    plays = plays_frame(match, luck=False)
    steps = [s for g in games for s in g.steps]
    assert len(plays) == len(steps)
    assert plays["position_id"].notna().tolist() == [s.known for s in steps]
    assert plays["die1"].notna().tolist() == [s.dice is not None for s in steps]
    assert plays["legal"].tolist() == [s.legal for s in steps]
    assert not all(s.known for s in steps)  # the file has an unknown play


def test_the_viewer_with_analysis_replays_once(monkeypatch) -> None:
    walked = []
    run = replay_module._GameWalker.run

    def counted(self):  # type: ignore[no-untyped-def]
        walked.append(self.game.number)
        return run(self)

    monkeypatch.setattr(replay_module._GameWalker, "run", counted)
    match = hand_match()
    viewer.html(match, rules=BG, analyse=True)
    assert walked == [1]


def test_a_real_file_every_problem_shown_once_where_its_step_is(corpus_dir) -> None:
    """A DailyGammon match with a play not known and problems at several
    turns: the page shows each problem validate finds exactly once, at the
    frame of the step that holds it."""
    match = read_match(corpus_dir / "bglib" / "Nori-Kenji081229.txt")
    games = list(replay(match))
    data = viewer.page_data(viewer.html(match))
    report = validate(match)
    shown = Counter(tuple(p[:3]) for f in (f for g in data["games"] for f in g["frames"]) for p in f.get("p", []))
    own = Counter((p.severity, p.code, p.message) for p in match.problems)
    assert shown + own == Counter((p.severity, p.code, p.message) for p in report.problems)
    for game, page_game in zip(games, data["games"]):
        frames = page_game["frames"]
        assert [f["id"] for f in frames[1:]] == [s.next_view.position_id() for s in game.steps]
        for step, frame in zip(game.steps, frames[1:]):
            if step is not game.steps[-1]:
                assert [p[1] for p in frame.get("p", [])] == [p.code for p in step.problems]
