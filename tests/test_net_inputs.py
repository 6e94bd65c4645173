"""gnubg 1.07's contact and crashed inputs (analysis/net_inputs.py) against gnubg 1.07 and gnubg-nn."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import gnubg_nn
import numpy as np
import pytest
from gnubg_cube import ask_gnubg_cube
from gnubg_eval import ask_gnubg_eval
from test_net import own_net_after  # noqa: F401  (a fixture)

from tavlakit.evaluation.equity import net_board
from tavlakit.evaluation.net import OWN, _nets_of_text, evaluate, use_net
from tavlakit.evaluation.net_inputs import (
    BEAROFF1,
    BEAROFF2,
    CONTACT,
    CRASHED,
    OVER,
    RACE,
    Evaluator,
    classify,
    evaluator,
    inputs,
    nets_of,
    nets_of_wd,
    probabilities,
    race_backgammon,
)
from tavlakit.formats.mat import read_mat
from tavlakit.replay.walker import replay

START = "4HPwATDgc/ABMA"
#: The boards compared with gnubg and gnubg-nn, drawn once (``tests/data/make_boards.py``).
BOARDS = Path(__file__).parent / "data" / "boards"


def fixed(name: str) -> dict[str, list[list[int]]]:
    """The boards of ``tests/data/boards/<name>.txt`` (gnubg-nn's boards, on roll: board[1]), by position id."""
    ids = (BOARDS / f"{name}.txt").read_text(encoding="ascii").split()
    return {i: gnubg_nn.board_from_position_id(i) for i in ids}


def rule_differs(boards: np.ndarray) -> np.ndarray:
    """The contact and crashed boards whose inputs the two home board rules
    (gnubg 1.07's points held, gnubg-nn's points made) tell apart."""
    boards = np.asarray(boards, dtype=np.int64)
    crashed = classify(boards) == CRASHED
    return (inputs(boards, crashed, made=True) != inputs(boards, crashed)).any(axis=1)


#: Pairs found by hand: gnubg 1.07 counts the blot on the ace (deuce) point as
#: a target (three home points occupied), gnubg-nn does not (one made); the
#: controls take the condition away (two occupied, or three made).
FLAGGED = {"4HPwBSCoc/ABMA": False, "4HPwBRCoc/ABMA": False, "f48DACDUcfABBg": True}  # id: crashed
CONTROLS = {"4HPwBSDIdfABMA": False, "4HPwBSDYzsEBMA": False, "f48DACBsx8EBBg": True}


def random_play(seed: int, wanted: int) -> dict[str, list[list[int]]]:
    """Contact and crashed positions (gnubg-nn's boards, on roll: board[1])
    met in random play from the opening, by position id."""
    rng = np.random.default_rng(seed)
    found: dict[str, list[list[int]]] = {}
    while len(found) < wanted:
        board = gnubg_nn.board_from_position_id(START)
        while gnubg_nn.classify(board) in (gnubg_nn.c_contact, gnubg_nn.c_crashed):
            found.setdefault(gnubg_nn.position_id(board), board)
            keys = gnubg_nn.moves(board, *(int(d) for d in rng.integers(1, 7, 2)))
            after = gnubg_nn.board_from_position_key(keys[rng.integers(len(keys))]) if keys else board
            board = [list(after[1]), list(after[0])]  # the other side on roll
    return found


def test_random_play_positions_are_boards() -> None:
    """The generator's boards are positions (15 a side at most, no point
    held by both), so gnubg's verdicts below are on what we meant."""
    boards = np.array(list(random_play(3, 500).values()))
    assert (boards.sum(axis=2) <= 15).all()
    assert not ((boards[:, 0, :24] > 0) & (boards[:, 1, 23::-1] > 0)).any()


@pytest.fixture(scope="module")
def nets(gnubg_wd: Path) -> Evaluator:
    """gnubg 1.07's nets, from its binary weights, ready for the kernels."""
    return evaluator(nets_of(nets_of_wd(gnubg_wd.read_bytes())))


Judged = dict[str, tuple[list[list[int]], dict]]


@pytest.fixture(scope="module")
def judged(gnubg_exact: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Judged, dict[str, list[str]]]:
    """gnubg's 0-ply answers (the same on every machine: ``gnubg_exact``), by
    position id, and the ids by group: every flagged contact or crashed
    position of random play (about 220), 80 unflagged ones, 30 more with men
    off (gnubg's sanity checks), the pairs."""
    played = fixed("contact")
    ids = list(played)
    flags = rule_differs(np.array([played[i] for i in ids]))
    off = [i for i, f in zip(ids, flags) if not f and min(map(sum, played[i])) < 15]
    groups = {
        "flagged": [i for i, f in zip(ids, flags) if f],
        "plain": [i for i, f in zip(ids, flags) if not f and i not in off][:80],
        "off": off[:30],
        "pairs": [*FLAGGED, *CONTROLS],
    }
    chosen = [i for group in groups.values() for i in group]
    answers = ask_gnubg_cube(gnubg_exact, [[i, [1, -1, 0, 0, [0, 0], 0]] for i in chosen], tmp_path_factory.mktemp("g"))
    return {i: (gnubg_nn.board_from_position_id(i), a) for i, a in zip(chosen, answers)}, groups


def evaluated(judged: Judged, ids: list[str], nets: Evaluator) -> tuple[np.ndarray, np.ndarray]:
    """Our five probabilities of the positions, and gnubg's."""
    boards = np.array([judged[i][0] for i in ids])
    return probabilities(boards, classify(boards), nets), np.array([judged[i][1]["probs"] for i in ids])


def errors(judged: Judged, ids: list[str], nets: Evaluator) -> np.ndarray:
    """Largest difference of our five probabilities from gnubg's, by position;
    where gnubg gives exactly 0 (its sanity checks), so do we."""
    ours, gnubg = evaluated(judged, ids, nets)
    assert np.array_equal(ours == 0, gnubg == 0)
    return np.abs(ours - gnubg).max(axis=1)


def nn_errors(judged: Judged, ids: list[str], gnubg_wd: Path) -> np.ndarray:
    """The same for gnubg-nn's own evaluation with gnubg's weights."""
    use_net(gnubg_wd)
    own = np.array([gnubg_nn.probabilities(judged[i][0], 0) for i in ids])
    return np.abs(own - np.array([judged[i][1]["probs"] for i in ids])).max(axis=1)


@pytest.mark.usefixtures("own_net_after")
def test_flagged_positions_evaluate_as_gnubg(
    judged: tuple[Judged, dict[str, list[str]]], nets: Evaluator, gnubg_wd: Path
) -> None:
    answers, groups = judged
    flagged = groups["flagged"]
    assert len(flagged) > 180 and sum(gnubg_nn.classify(answers[i][0]) == gnubg_nn.c_crashed for i in flagged) > 5
    ours, theirs = errors(answers, flagged, nets), nn_errors(answers, flagged, gnubg_wd)
    assert ours.max() < 1e-6  # gnubg's arithmetic, float32 rounding apart
    assert np.mean(theirs < 1e-4) < 0.5 and np.median(theirs) > 1e-3  # what the module is for


@pytest.mark.usefixtures("own_net_after")
@pytest.mark.parametrize("group", ["plain", "off"])
def test_unflagged_positions_evaluate_as_gnubg(
    judged: tuple[Judged, dict[str, list[str]]], nets: Evaluator, gnubg_wd: Path, group: str
) -> None:
    """Where the rule does not bite every input is still gnubg's (and, with
    men off, the sanity checks): we agree with gnubg, and so does gnubg-nn,
    position by position."""
    answers, groups = judged
    ids = groups[group]
    assert not rule_differs(np.array([answers[i][0] for i in ids])).any()
    ours, theirs = errors(answers, ids, nets), nn_errors(answers, ids, gnubg_wd)
    assert ours.max() < 1e-6 and theirs.max() < 1e-6


def test_the_sample_covers_the_cases(judged: tuple[Judged, dict[str, list[str]]]) -> None:
    """Crashed positions, men off on either side, one and more chequers on
    the bar, and backgammons gnubg gives as 0 with nobody off (below 1e-4)."""
    answers, groups = judged
    boards = np.array([b for b, _ in answers.values()])
    assert {gnubg_nn.classify(b) for b, _ in answers.values()} == {gnubg_nn.c_contact, gnubg_nn.c_crashed}
    assert len(groups["off"]) == 30 and ((boards.sum(axis=2) < 15).sum(axis=0) > 5).all()
    assert (boards[:, :, 24] == 1).any() and (boards[:, :, 24] > 1).any()
    probs = np.array([a["probs"] for _, a in answers.values()])
    nobody_off = boards.sum(axis=2).min(axis=1) == 15
    assert ((probs[:, [2, 4]] == 0) & nobody_off[:, None]).sum(axis=0).min() > 0


@pytest.mark.usefixtures("own_net_after")
def test_minimal_pairs(judged: tuple[Judged, dict[str, list[str]]], nets: Evaluator, gnubg_wd: Path) -> None:
    answers = judged[0]
    for ids, flagged in ((FLAGGED, True), (CONTROLS, False)):
        boards = np.array([answers[i][0] for i in ids])
        assert list(rule_differs(boards)) == [flagged] * 3
        crashed = [gnubg_nn.classify(b) == gnubg_nn.c_crashed for b in boards.tolist()]
        assert crashed == list(ids.values())
        assert (errors(answers, list(ids), nets) < 1e-6).all()
        theirs = nn_errors(answers, list(ids), gnubg_wd)
        assert (theirs > 1e-3).all() if flagged else (theirs < 1e-4).all()


def test_weights_read_as_gnubg_lists_them(gnubg_wd: Path) -> None:
    data = gnubg_wd.read_bytes()
    nets = nets_of_wd(data)
    assert [n.hidden.shape + n.output.shape for n in nets.values()] == [
        (250, 128, 128, 5),
        (214, 128, 128, 5),
        (250, 128, 128, 5),
        (200, 16, 16, 5),
        (200, 16, 16, 5),
        (200, 8, 8, 5),
    ]
    first = np.frombuffer(data, "<f4", 128 * 5 + 2, 8 + 24 + 4 * 250 * 128)  # the contact net's output weights
    assert nets["contact contact250"].output[1, 0] == first[1] and nets["contact contact250"].output[0, 1] == first[128]
    for bad, words in ((data[:10_000], "cut short"), (data + b"\0" * 4, "more after"), (b"x" + data, "not neural")):
        with pytest.raises(ValueError, match=words):
            nets_of_wd(bad)


def test_other_text_weights_evaluate_by_gnubg_nns_rule(tmp_path: Path, own_net_after: None) -> None:  # noqa: F811
    """Text weights other than gnubg-nn's own were trained on gnubg-nn's
    inputs: evaluated with its rule, as gnubg-nn evaluates them, even where
    the two rules differ (here gnubg-nn's own weights under another name)."""
    other = tmp_path / "trained.weights"
    other.write_bytes(OWN.read_bytes())
    use_net(other)
    boards = [gnubg_nn.board_from_position_id(pid) for pid in ("4HPwBRCoc/ABMA", *FLAGGED, *CONTROLS)]
    ours = evaluate(np.array(boards, dtype=np.int64))
    theirs = np.array([gnubg_nn.probabilities(board, 0) for board in boards])
    assert np.abs(ours - theirs).max() < 1e-6


def test_gnubg_nns_own_weights_evaluate_by_gnubgs_rule(own_net_after: None) -> None:  # noqa: F811
    """gnubg-nn's own weights were trained on gnubg's rule (its source has
    it): evaluated from gnubg 1.07's inputs, a position the two rules tell
    apart comes out away from gnubg-nn's own evaluation, the others as
    gnubg-nn evaluates them (float32 apart); by its path, the same."""
    boards = [gnubg_nn.board_from_position_id(pid) for pid in ("4HPwBRCoc/ABMA", *CONTROLS)]
    for weights in (None, OWN):
        use_net(weights)
        ours = evaluate(np.array(boards, dtype=np.int64))
        theirs = np.array([gnubg_nn.probabilities(board, 0) for board in boards])
        assert np.abs(ours[0] - theirs[0]).max() > 1e-3
        assert np.abs(ours[1:] - theirs[1:]).max() < 1e-6


def played_boards(seed: int, games: int) -> list[list[list[int]]]:
    """Every board of ``games`` games of random play, to the end (gnubg-nn's
    boards, on roll: board[1])."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(games):
        board = gnubg_nn.board_from_position_id(START)
        while True:
            found.append(board)
            if gnubg_nn.classify(board) == gnubg_nn.c_over:
                break
            keys = gnubg_nn.moves(board, *(int(d) for d in rng.integers(1, 7, 2)))
            after = gnubg_nn.board_from_position_key(keys[rng.integers(len(keys))]) if keys else board
            board = [list(after[1]), list(after[0])]
    return found


def scattered_boards(seed: int, wanted: int) -> list[list[list[int]]]:
    """Boards of 1 to 15 chequers a side scattered at random over the first
    6, 7, 12 or all 25 points (the edges of the bearoff, race and crashed
    classes), not always positions of a game."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(wanted):
        board = [[0] * 25, [0] * 25]
        for side in board:
            far = int(rng.choice([6, 7, 12, 25]))
            for _ in range(int(rng.integers(1, 16))):
                side[int(rng.integers(0, far))] += 1
        found.append(board)
    return found


def corpus_boards(corpus_dir: Path) -> list[list[list[int]]]:
    """The boards before every turn of the corpus's 7-point match (gnubg's own record)."""
    match = read_mat((corpus_dir / "gnu_gibbon" / "7point.mat").read_bytes())
    return [net_board(step.before) for game in replay(match) for step in game.steps]


def test_classes_are_gnubg_nns(corpus_dir: Path) -> None:
    boards = played_boards(5, 60) + scattered_boards(6, 20_000) + corpus_boards(corpus_dir)
    theirs = np.array([gnubg_nn.classify(b) for b in boards])
    ours = classify(np.array(boards))
    assert (ours == theirs).all()
    codes = (gnubg_nn.c_over, gnubg_nn.c_bearoff, gnubg_nn.c_race, gnubg_nn.c_crashed, gnubg_nn.c_contact)
    assert codes == (OVER, BEAROFF1, RACE, CRASHED, CONTACT)
    assert (
        np.bincount(ours, minlength=6) > 50
    ).all() and BEAROFF2 == 1  # each class met often, the two-sided bearoff too


def test_gnubg_nns_rule_gives_gnubg_nns_evaluation(corpus_dir: Path, own_net_after: None) -> None:  # noqa: F811
    """With gnubg-nn's rule for the shots (``made``) and its own weights,
    every one of the 250 inputs is checked against gnubg-nn's own C code:
    the probabilities come out as gnubg-nn's, up to float32 rounding."""
    use_net(None)
    own = _nets_of_text(OWN.read_text(encoding="ascii"))
    boards = np.array(list(fixed("contact-more").values()) + corpus_boards(corpus_dir))
    classes = classify(boards)
    boards = boards[(classes == CONTACT) | (classes == CRASHED)]
    classes = classify(boards)
    crashed = classes == CRASHED
    theirs = np.array([gnubg_nn.probabilities(b, 0) for b in boards.tolist()])
    ours = probabilities(boards, classes, evaluator(nets_of(own), made=True))
    assert len(boards) > 3000 and crashed.sum() > 100 and rule_differs(boards).sum() > 200
    assert np.abs(ours - theirs).max() < 1e-6
    flagged = rule_differs(boards)
    gnubgs = probabilities(boards[flagged], classes[flagged], evaluator(nets_of(own)))
    assert np.median(np.abs(gnubgs - theirs[flagged]).max(axis=1)) > 1e-3  # the rule is what differs


def most_rolls() -> dict[tuple[int, ...], int]:
    """The most rolls each home board can need to bear off, from gnubg-nn's
    one-sided database (the length of its distribution), by board."""
    return {gnubg_nn.bearoff_id_2_pos(i): len(gnubg_nn.bearoff_probabilities(i)) for i in range(1, 54264)} | {
        (0,) * 6: 0
    }


def race_counts(boards: np.ndarray) -> dict[str, np.ndarray]:
    """Per race or bear-off board, which of gnubg 1.07's sanity checks of a
    race apply (worked out here from gnubg's rules: each side's crossings
    to come, 1 a chequer from its home board up to 4 from the opponent's;
    those before a gammon is saved, 0 from home, plus 1; those before a
    backgammon is saved; the most rolls a side may need, from the one-sided
    database once home, else twice its crossings)."""
    quarter = np.arange(24) // 6
    men = boards[:, :, :24].sum(axis=2)
    cross = boards[:, :, :24] @ (quarter + 1)
    gammon = 1 + boards[:, :, :24] @ quarter
    in_home = boards[:, :, 18:24].sum(axis=2)
    home = boards[:, :, 6:24].sum(axis=2) == 0
    table = most_rolls()
    turns = np.where(home, [[table.get(tuple(side[:6]), 0) for side in b] for b in boards.tolist()], 2 * cross)
    turns[:, 1] = np.maximum(turns[:, 1], 1)
    full = men == 15
    return {
        "win certain": cross[:, 0] > 4 * (turns[:, 1] - 1),
        "loss certain": cross[:, 1] > 4 * turns[:, 0],
        "opponent off: no gammon won": ~full[:, 0],
        "gammon won impossible": full[:, 0] & (cross[:, 1] > 8 * gammon[:, 0]),
        "gammon won certain": full[:, 0] & (cross[:, 1] <= 8 * gammon[:, 0]) & (gammon[:, 0] > 4 * (turns[:, 1] - 1)),
        "backgammon won impossible": full[:, 0] & (cross[:, 1] > 8 * in_home[:, 0]),
        "none off: no gammon lost": ~full[:, 1],
        "gammon lost impossible": full[:, 1] & (cross[:, 0] > 8 * gammon[:, 1] - 4),
        "gammon lost certain": full[:, 1] & (cross[:, 0] <= 8 * gammon[:, 1] - 4) & (gammon[:, 1] > 4 * turns[:, 0]),
        "backgammon lost impossible": full[:, 1] & (cross[:, 0] > 8 * in_home[:, 1] - 4),
        "backgammon: gnubg's table": race_backgammon(boards),
    }


@pytest.fixture(scope="module")
def race_boards(corpus_dir: Path) -> np.ndarray:
    """The race and bear-off boards of random play, of boards scattered at
    random (drawn once: ``tests/data/boards/race.txt``) and of the corpus's
    7-point match, each once."""
    boards = np.array(list(fixed("race").values()) + corpus_boards(corpus_dir))
    boards = boards[np.isin(classify(boards), (RACE, BEAROFF1, BEAROFF2))]
    ids = list(dict.fromkeys(gnubg_nn.position_id(b) for b in boards.tolist()))
    return np.array([gnubg_nn.board_from_position_id(i) for i in ids])


def test_race_and_bearoff_boards_evaluate_as_gnubg(
    race_boards: np.ndarray,
    gnubg_exact: Path,
    gnubg_wd: Path,
    tmp_path: Path,
    own_net_after: None,  # noqa: F811
) -> None:
    """Race and bear-off boards come out of :func:`evaluate` as gnubg 1.07
    evaluates them with its weights (its race net and checks, its bear-off
    databases; gnubg-nn's checks of a race are not gnubg's: it is far off
    on some), and each of gnubg's race checks is met often. Measured
    2026-12-07: 8 of the 2,787 boards differ by more than 1e-6 (the largest
    8.6e-5), none by 1e-4 (docs/statistics.md)."""
    jobs = [[gnubg_nn.position_id(b), [1, -1, 0, 0, [0, 0], 0], 0, 0, 0] for b in race_boards.tolist()]
    theirs = np.array([a["probs"] for a in ask_gnubg_eval(gnubg_exact, jobs, tmp_path)])
    use_net(gnubg_wd)
    ours = evaluate(race_boards)
    nn = np.array([gnubg_nn.probabilities(b, 0) for b in race_boards.tolist()])
    error, nn_error = np.abs(ours - theirs).max(axis=1), np.abs(nn - theirs).max(axis=1)
    classes = classify(race_boards)
    assert np.bincount(classes, minlength=6)[[BEAROFF2, BEAROFF1, RACE]].min() > 50
    assert error.max() < 1e-4 and (error < 1e-6).mean() > 0.995 and np.abs(ours - theirs)[:, 0].max() < 1e-6
    assert error[classes != RACE].max() < 1e-4  # the databases
    assert (nn_error > 1e-3).sum() > 5 and nn_error.max() > 0.1
    counts = {name: int(hit.sum()) for name, hit in race_counts(race_boards).items()}
    assert min(counts.values()) >= 10, counts
    assert (ours[:, 0] == 1).sum() > 20 and (ours[:, 0] == 0).sum() > 20  # wins and losses made certain


def not_positions(boards: np.ndarray) -> np.ndarray:
    """Boards where the two rearmost chequers share a point (scattered
    boards only): gnubg classes them as contact but checks them as a race."""
    back = np.where(boards.any(axis=2), 24 - np.argmax(boards[:, :, ::-1] > 0, axis=2), -1)
    return back.sum(axis=1) == 23


def test_every_class_evaluates_as_gnubg_nn(corpus_dir: Path, own_net_after: None) -> None:  # noqa: F811
    """A batch of every class, mixed (the boards of random games to the end,
    scattered boards, the corpus's match): :func:`evaluate` gives each
    board what gnubg-nn gives it, but for the contact and crashed boards
    whose shots the two home board rules count apart, and for the checks of
    a race (gnubg's, not gnubg-nn's: above)."""
    use_net(None)
    boards = np.array(list(fixed("mixed").values()) + corpus_boards(corpus_dir))
    boards = boards[~rule_differs(boards) & ~not_positions(boards)]
    boards = boards[~np.isin(classify(boards), (RACE, BEAROFF1))]
    classes = classify(boards)
    assert (np.bincount(classes, minlength=6)[[OVER, BEAROFF2, CRASHED, CONTACT]] > 20).all()
    theirs = np.array([gnubg_nn.probabilities(b, 0) for b in boards.tolist()])
    assert np.abs(evaluate(boards) - theirs).max() < 1e-6


def test_the_kernels_give_the_same_values_on_every_x86_64(tmp_path: Path) -> None:
    """The compiled evaluation, built for this machine's CPU (AVX-512 and FMA
    where it has them) and for the plainest x86-64 (numba's ``generic``
    target, in a fresh process and cache), gives bit for bit the same
    probabilities of every fixed board: no fused or reordered arithmetic
    changes a value from one machine to another."""
    script = (
        "import sys, gnubg_nn, numpy as np\n"
        "from tavlakit.evaluation.net import evaluate\n"
        "ids = [i for name in sys.argv[2:] for i in open(name).read().split()]\n"
        "np.save(sys.argv[1], evaluate(np.array([gnubg_nn.board_from_position_id(i) for i in ids])))\n"
    )
    names = [str(BOARDS / f"{name}.txt") for name in ("race", "contact", "mixed")]
    found = {}
    for cpu in ("generic", None):
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
        if cpu is not None:
            env |= {"NUMBA_CPU_NAME": cpu, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
        out = tmp_path / f"{cpu}.npy"
        subprocess.run([sys.executable, "-c", script, str(out), *names], env=env, check=True)
        found[cpu] = np.load(out)
    assert len(found[None]) > 10_000 and np.array_equal(found["generic"], found[None])
