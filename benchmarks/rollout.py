"""Rollouts against gnubg 1.07's own: agreement on 20 positions, trials per second, scaling.

The same 20 positions (four openings after the first play, eight contact
positions and four races of gnubg's self-play, money with the Jacoby rule
or the cube owned, and four cube decisions at match scores) are rolled out
by gnubg's ``rollout`` command (``tests/gnubg_rollout.py``: 0-ply cubeful
chequer play and cube decisions, variance reduction, quasi-random dice,
no cube decision before the first roll, as gnubg 1.07 does it, ``set threads 1``)
and by tavlakit (:mod:`tavlakit.analysis.rollouts`, gnubg's weights, one
process), with the same number of trials and truncation. Printed per
position: each side's cubeful equity and standard error, ``|d|/sigma``
(the difference over the combined standard error: the dice differ, so
about one position in twenty may pass 2 by chance, one in four hundred 3),
and trials per second (CPU of each side's process). Then the scaling of
tavlakit on the first ``--scaling`` positions: one process, ``-j 2``, and
a two-worker Dask ``LocalCluster`` (wall time), beside gnubg with two
threads.

    python benchmarks/rollout.py [--trials 1296] [--truncate 10] [--seed 1] [--positions 20] [--scaling 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
SELFPLAY = HERE.parent / "tests" / "data" / "gnubg"
GNUBG = Path("/usr/games/gnubg")


def positions() -> list[tuple[str, str, bool]]:
    """(name, gnubg ID, Jacoby) of the 20 positions."""
    from tavlakit import Position
    from tavlakit.engine.matchid import MatchState, gnubg_id
    from tavlakit.evaluation.equity import net_board
    from tavlakit.evaluation.net_inputs import CONTACT, CRASHED, RACE, classify

    games = []
    for path in sorted(SELFPLAY.glob("selfplay-*.json")):
        games += [
            [a["board"] for a in game["game"] if a["action"] == "move"]
            for game in json.loads(path.read_text())["games"]
        ]
    every = [board for game in games for board in game[2:]]
    kinds = classify(np.array([net_board(Position.from_position_id(i)) for i in every]))
    contact = [i for i, k in zip(every, kinds) if k in (CONTACT, CRASHED)]
    from tavlakit.evaluation.net import evaluate

    wins = evaluate(np.array([net_board(Position.from_position_id(i)) for i in every]))[:, 0]
    race = [i for i, k, w in zip(every, kinds, wins) if k == RACE and 0.15 < w < 0.85]  # races not yet decided
    money = MatchState(jacoby=True)
    owned = MatchState(cube=2, cube_owner=0)
    found = [
        (f"opening {n + 1}", gnubg_id(Position.from_position_id(g[1]), money), True) for n, g in enumerate(games[:4])
    ]
    found += [
        (f"contact {n + 1}", gnubg_id(Position.from_position_id(i), money), True)
        for n, i in enumerate(contact[7::53][:8])
    ]
    found += [
        (f"race {n + 1}", gnubg_id(Position.from_position_id(i), owned if n % 2 else money), True)
        for n, i in enumerate(race[:: max(1, len(race) // 4)][:4])
    ]
    scores = [(7, (2, 4), False), (5, (3, 3), False), (9, (0, 6), False), (5, (4, 2), True)]
    for n, (length, score, crawford) in enumerate(scores):
        state = MatchState(length=length, score=score, crawford=crawford)
        found.append(
            (
                f"cube {score[0]}-{score[1]} to {length}{' C' if crawford else ''}",
                gnubg_id(Position.from_position_id(contact[20 + 31 * n]), state),
                False,
            )
        )
    return found


def tavlakit_rollout(
    gnubg: str, trials: int, truncate: int, seed: int, net: str, **where: object
) -> tuple[np.ndarray, float, float]:
    """tavlakit's rollout of the position as gnubg's ``rollout`` does it: (means, standard errors) of
    the cubeful equity (EMG) and the cubeless one, CPU and wall seconds."""
    from tavlakit import Rules
    from tavlakit.analysis.rollouts import Job, cube_state, run
    from tavlakit.engine.matchid import parse_id
    from tavlakit.evaluation.cubeful import mwc2eq
    from tavlakit.evaluation.equity import net_board
    from tavlakit.evaluation.rollout import Alternative, Settings

    pos, state = parse_id(gnubg)
    cube = cube_state(state, Rules.preset("backgammon"))
    other, mover = net_board(pos)
    job = Job(
        (Alternative((tuple(other), tuple(mover)), cube, top=False),),
        Settings(trials, truncate, seed),
        backgammon=True,
        outside_home=False,
        net=net,
    )
    cpu, wall = time.process_time(), time.time()
    found = run(job, journal=False, **where)[:, 0, :]  # type: ignore[arg-type]
    cpu, wall = time.process_time() - cpu, time.time() - wall
    mean, se = found.mean(axis=0), found.std(axis=0, ddof=1) / np.sqrt(len(found))
    if cube.length:
        win, lose = cube.win_lose()
        mean[6], se[6] = mwc2eq(float(mean[6]), cube), se[6] * 2 / (win - lose)
    return np.array([[mean[6], se[6]], [mean[5], se[5]]]), cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=1296)
    parser.add_argument("--truncate", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--scaling", type=int, default=3, help="positions timed on 2 processes and a cluster (0: none)")
    args = parser.parse_args()
    from gnubg_rollout import ask_gnubg_rollout

    from tavlakit.evaluation.net import GNUBG_WD, use_net

    use_net(GNUBG_WD)
    net = str(GNUBG_WD.resolve())
    chosen = positions()[: args.positions]
    with tempfile.TemporaryDirectory() as tmp:
        theirs = ask_gnubg_rollout(
            GNUBG, [[g, j] for _n, g, j in chosen], Path(tmp), args.trials, args.truncate, args.seed
        )
    tavlakit_rollout(chosen[0][1], 36, 2, 0, net)  # compile
    print(f"{args.trials} trials, truncation {args.truncate or 'none'}, seed {args.seed}")
    heads = ("position", "tavlakit", "gnubg", "|d|/sigma", "cubeless", "tavlakit t/s", "gnubg t/s")
    print(f"{heads[0]:<18} {heads[1]:>16} {heads[2]:>16} {heads[3]:>9} {heads[4]:>8} {heads[5]:>12} {heads[6]:>9}")
    ratios, mine_cpu, gnubg_cpu = [], 0.0, 0.0
    for (name, gnubg, _jacoby), answer in zip(chosen, theirs):
        found, cpu, _wall = tavlakit_rollout(gnubg, args.trials, args.truncate, args.seed, net)
        g_eq, g_se, g_cl, g_cl_se = answer["mean"][7], answer["se"][7], answer["mean"][6], answer["se"][6]
        ratio = abs(found[0, 0] - g_eq) / max(np.hypot(found[0, 1], g_se), 1e-4)
        cubeless = abs(found[1, 0] - g_cl) / max(np.hypot(found[1, 1], g_cl_se), 1e-4)
        ratios.append(ratio)
        mine_cpu += cpu
        gnubg_cpu += answer["cpu"]
        print(f"{name:<18} {found[0, 0]:+.4f}±{found[0, 1]:.4f} {g_eq:+.4f}±{g_se:.4f} {ratio:9.2f} {cubeless:8.2f} "
              f"{args.trials / cpu:12.1f} {args.trials / answer['cpu']:9.1f}")  # fmt: skip
    within = sum(r <= 3 for r in ratios)
    print(f"within 3 sigma: {within} of {len(ratios)}; within 2: {sum(r <= 2 for r in ratios)}")
    total = args.trials * len(chosen)
    speed = f"tavlakit {total / mine_cpu:.1f} trials/s, gnubg {total / gnubg_cpu:.1f} trials/s"
    print(f"one core: {speed} ({gnubg_cpu / mine_cpu:.2f}x)")
    if args.scaling:
        scaling(chosen[: args.scaling], args, net)


def scaling(chosen: list[tuple[str, str, bool]], args: argparse.Namespace, net: str) -> None:
    """Wall seconds on one process, two processes and a two-worker LocalCluster, and gnubg on 1 and 2 threads."""
    from gnubg_rollout import ask_gnubg_rollout

    walls = {}
    for label, where in (("1 process", {"jobs": 1}), ("2 processes", {"jobs": 2})):
        walls[label] = sum(
            tavlakit_rollout(g, args.trials, args.truncate, args.seed, net, **where)[2] for _n, g, _j in chosen
        )
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        tavlakit_rollout(chosen[0][1], 72, 2, 0, net, scheduler=address)  # the workers compile
        walls["2-worker LocalCluster"] = sum(
            tavlakit_rollout(g, args.trials, args.truncate, args.seed, net, scheduler=address)[2]
            for _n, g, _j in chosen
        )
    with tempfile.TemporaryDirectory() as tmp:
        for threads in (1, 2):
            found = ask_gnubg_rollout(
                GNUBG, [[g, j] for _n, g, j in chosen], Path(tmp), args.trials, args.truncate, args.seed, threads
            )
            walls[f"gnubg, {threads} thread{'s' * (threads > 1)}"] = sum(a["seconds"] for a in found)
    total = args.trials * len(chosen)
    base = walls["1 process"]
    for label, wall in walls.items():
        print(f"{label:<22} {wall:7.1f} s  {total / wall:7.1f} trials/s  {base / wall:5.2f}x of one process")


if __name__ == "__main__":
    main()
