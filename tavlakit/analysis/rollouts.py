"""Rollouts of a position: candidate plays or cube actions played out many times, as a frame.

:func:`rollout` settles a play or a cube decision as gnubg's rollout does
(:mod:`tavlakit.evaluation.rollout` plays the trials): with dice, the
best ``plays`` plays of the roll by 0-ply equity, each played and rolled
out with the opponent on roll (free to double before its first roll);
without, the cube actions: no double and double/take rolled out with the
same dice, double/pass exact (the cash); a position whose cube cannot be
turned (or Tavla, which has none) is rolled out as it is.

A seed and the settings give the same numbers however the trials are
split: over ``jobs`` processes on this machine or a Dask cluster
(``scheduler``), in batches of up to :data:`BATCH` trials. Each batch done is
kept in a journal (a folder per rollout, named by a digest of everything
that decides its numbers, the code that plays the trials included, under ``journal``: by default
``$XDG_CACHE_HOME/tavlakit/rollouts``), so a rollout stopped half-way (a
crash, Ctrl-C, a killed process) continues from what was done when it is
asked again, and one asked again whole is read back.

>>> frame = rollout("4HPwATDgc/ABMA:cAkAAAAAAAAA", trials=36, truncate=2, journal=False)
>>> list(frame["alternative"])
['no double', 'double, take', 'double, pass']
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._version import __version__
from ..collections.parallel import Progress, job_count, pmap
from ..engine.matchid import MatchState, parse_id
from ..engine.position import Position
from ..engine.rules import Rules
from ..evaluation.cubeful import CubeState, best_cube_action, double_pass, mwc2eq
from ..evaluation.equity import net_board
from ..evaluation.levels import EXPERT, LevelLike, level as as_level
from ..evaluation.net import net_in_use, use_net
from ..evaluation.rollout import OUTPUTS, Alternative, Settings, Trials, turned
from ..evaluation.search import Search, passed
from ..i18n import _
from .mistakes import Mistake, Mistakes, RolledOut

#: The most and the fewest trials of a batch: the unit of work sent to a process or a Dask worker, and
#: of the journal (a batch's trials are played in lockstep: 144 at once take 9% less time than 36 four times).
BATCH, SMALLEST_BATCH = 144, 36
#: The most trials a rollout may ask for.
MOST_TRIALS = 10**8
#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 10
#: ``progress(trials done, trials, standard error of the first alternative's equity)``.
RolloutProgress = Callable[[int, int, float], None]


@dataclass(frozen=True)
class Job:
    """Everything that decides a rollout's trials (what a worker is sent)."""

    alternatives: tuple[Alternative, ...]
    settings: Settings
    _: KW_ONLY
    backgammon: bool
    outside_home: bool
    net: str | None

    def key(self) -> str:
        """A digest of the job: the name of its journal."""
        # a trial's numbers do not depend on how many there are: a rollout asked for more goes on
        same = replace(self, settings=replace(self.settings, trials=0))
        return hashlib.sha256(f"{__version__} {_code()} {same!r}".encode()).hexdigest()[:24]


@lru_cache(maxsize=1)
def _code() -> str:
    """A digest of the code that plays the trials (a journal of other code is not read back)."""
    from ..evaluation import cubeful, moves, net_inputs, rollout as trials

    digest = hashlib.sha256()
    for module in (trials, cubeful, moves, net_inputs):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


_trials: dict[Job, Trials] = {}


def play_trials(job: Job, first: int, count: int) -> np.ndarray:
    """Trials ``first`` to ``first + count - 1`` of ``job`` (in a worker: its
    weights loaded once): ``(count, alternatives, 7)``."""
    if job.net != net_in_use():
        use_net(job.net)
    found = _trials.get(job)
    if found is None:
        _trials.clear()
        found = _trials[job] = Trials(
            list(job.alternatives), job.settings, backgammon=job.backgammon, outside_home=job.outside_home
        )
    return found.run(first, count)


def rollout(
    position: Position | str,
    state: MatchState | None = None,
    *,
    dice: tuple[int, int] | None = None,
    plays: int = 5,
    keys: Sequence[str] | None = None,
    trials: int = 1296,
    truncate: int = 0,
    seed: int = 1,
    level: LevelLike = EXPERT,
    rules: Rules | None = None,
    variance_reduction: bool = True,
    jobs: int | None = 1,
    scheduler: str | None = None,
    journal: Path | Literal[False] | None = None,
    progress: RolloutProgress | None = None,
) -> pd.DataFrame:
    """Roll out ``position`` (a :class:`~tavlakit.engine.position.Position` seen by the side on roll,
    with its match ``state``; or a Position ID, ``PositionID:MatchID`` or
    XGID): the best ``plays`` plays of ``dice`` (else the state's dice;
    ``keys``: these plays instead, by the position key each leads to, seen
    by the mover), or the cube actions. One row per alternative, best first
    for plays (in the order of ``keys`` when given):
    ``equity`` (cubeful, EMG of the side on roll; money: per cube value),
    ``cubeless``, the chances ``win`` ... ``lose_backgammon`` of the side on
    roll, each with its standard error (``_se``), and ``trials``. The
    frame's ``attrs`` hold the settings and, for a cube decision, gnubg's
    name of the right action. ``level``: how trials are played (expert, 0
    ply; or 1-ply or world-class, 2 plies, backgammon only); ``rules``: backgammon unless given
    (Tavla: no cube, mars scored in each trial by the rules). Raises
    ``ValueError`` for a bad position, setting or level."""
    if isinstance(position, str):
        position, state = parse_id(position)
    chosen = as_level(level)
    rules = rules or Rules.preset("backgammon")
    if chosen.chequer_plies != chosen.cube_plies or chosen.chequer_plies > 2 or (chosen.looks_ahead and not rules.cube):
        wrong = _("rollouts play at expert (0 ply), 1 ply or world class (2 plies; backgammon), not {level}")
        raise ValueError(wrong.format(level=chosen.title()))
    if not 1 <= trials <= MOST_TRIALS:
        raise ValueError(_("trials must be 1 to {most}, not {trials}").format(most=MOST_TRIALS, trials=trials))
    if truncate < 0:
        raise ValueError(_("truncation must be 0 (none) or more plies, not {plies}").format(plies=truncate))
    if position.winner() is not None:
        raise ValueError(_("the game is over in this position: nothing to roll out"))
    cube = cube_state(state, rules)
    if dice is None and state is not None and all(state.dice):
        dice = state.dice
    settings = Settings(trials, truncate, seed, cubeful=rules.cube, variance_reduction=variance_reduction,
                        plies=chosen.chequer_plies, kept=chosen.first_filter)  # fmt: skip
    labels, alternatives = _alternatives(position, cube, dice, plays, rules, keys)
    job = Job(
        tuple(alternatives),
        settings,
        backgammon=rules.backgammon,
        outside_home=rules.mars == "outside-home",
        net=net_in_use(),
    )
    results = run(job, jobs, scheduler, journal, progress)
    return _frame(labels, results, cube, dice is not None, settings, rules, chosen.key, given=keys is not None)


def record_turn(path: str | Path, number: int, rules: Rules | None = None) -> tuple[Position, MatchState, Rules]:
    """Roll number ``number`` (1: the first) of a record file, counting
    every game's rolls in order: the board before it (seen by the player
    on roll), its match state (score, cube, dice) and the rules the record
    is played under. Raises ``ValueError`` when the file has fewer rolls
    with a known board, ``OSError`` when it cannot be read."""
    from ..formats import read_match
    from ..replay.walker import default_rules, replay

    match = read_match(path)
    chosen = default_rules(match, rules)
    count = 0
    for replayed in replay(match, chosen):
        game = replayed.game
        for step in replayed.steps:
            if step.dice is None or not step.known:
                continue
            count += 1
            if count == number:
                state = MatchState(
                    cube=step.cube, cube_owner=step.owner, on_roll=step.player, turn=step.player,
                    crawford=replayed.crawford, dice=step.dice, length=match.length, score=game.score,
                    jacoby=chosen.jacoby and not match.length,
                )  # fmt: skip
                return step.before, state, chosen
    raise ValueError(_("{path}: {count} roll(s), no roll {number}").format(path=path, count=count, number=number))


def cube_state(state: MatchState | None, rules: Rules) -> CubeState:
    """The cube state of the side on roll (money with gnubg's Jacoby rule
    when no state is given; Tavla: money, no cube, a mars worth 2)."""
    if not rules.cube:
        return CubeState(jacoby=False)
    if state is None:
        return CubeState()
    return CubeState(
        value=state.cube, owner=state.cube_owner, mover=state.on_roll, length=state.length, score=state.score,
        crawford=state.crawford, jacoby=state.jacoby if not state.length else False,
    )  # fmt: skip


def _alternatives(
    position: Position,
    cube: CubeState,
    dice: tuple[int, int] | None,
    plays: int,
    rules: Rules,
    keys: Sequence[str] | None = None,
) -> tuple[list[str], list[Alternative]]:
    """The labels and alternatives rolled out (see :func:`rollout`)."""

    def board(pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
        other, mover = net_board(pos)
        return tuple(other), tuple(mover)

    if dice is not None:
        names = {
            after.flip().position_key(): str(play) or _("(no move)")
            for play, after in zip(position.legal_plays(dice, rules), position.legal_positions(dice, rules))
        }
        if keys is None:
            keys = [key for _value, key, _plies in Search(rules).candidates(position, dice, cube)[: max(1, plays)]]
        unknown = [key for key in keys if key not in names]
        if unknown:
            raise ValueError(_("no play of {dice} leads to {key}").format(dice=f"{dice[0]}{dice[1]}", key=unknown[0]))
        return [names[key] for key in keys], [Alternative(board(passed(key)), cube.flipped(), top=True) for key in keys]
    if rules.cube and cube.available():
        still = Alternative(board(position), cube, top=False)
        return [_("no double"), _("double, take")], [still, replace(still, state=cube.doubled())]
    return [_("position")], [Alternative(board(position), cube, top=True)]


def verify(mistake: Mistake, **options: Any) -> pd.DataFrame:
    """A mistake's decision rolled out (:func:`rollout`'s ``options``):
    for a play, the best play and the one made; for a cube decision, no
    double, double/take and double/pass. One row per alternative: its
    ``candidate`` (its index in the mistake's candidates), its text as the
    mistake lists it, ``played``, ``judged`` (the equity it was judged at,
    at the mistake's level), and the rollout's ``equity`` and
    ``equity_se`` (EMG; a cube decision: the doubler's)."""
    state = mistake.state.replace(doubled=False, turn=mistake.on_roll)
    if mistake.kind == "roll":
        index = [n for n, c in enumerate(mistake.candidates) if (n == 0 or c.played) and c.play is not None]
        chosen = [mistake.candidates[n] for n in index]
        keys = [mistake.position.play(c.play).flip().position_key() for c in chosen if c.play is not None]
        found = rollout(mistake.position, state, dice=mistake.dice, keys=keys, rules=mistake.rules, **options)
    else:
        index, chosen = list(range(len(mistake.candidates))), mistake.candidates
        found = rollout(mistake.position, state.replace(dice=(0, 0)), rules=mistake.rules, **options)
    frame = pd.DataFrame(
        {
            "candidate": index,
            "alternative": [c.text for c in chosen],
            "played": [c.played for c in chosen],
            "judged": [c.equity for c in chosen],
            "equity": found["equity"].reindex(range(len(chosen))).to_numpy(),
            "equity_se": found["equity_se"].reindex(range(len(chosen))).to_numpy(),
        }
    )
    frame.attrs.update(found.attrs)
    return frame


def verified(
    mistakes: Sequence[Mistake], top: int | None = None, *, progress: Progress | None = None, **options: Any
) -> Mistakes:
    """The mistakes, the first ``top`` of them (None: all) rolled out by
    :func:`verify` (``options``: :func:`rollout`'s), each with its
    :class:`~tavlakit.analysis.mistakes.RolledOut` in ``rollout``: the
    rolled-out equities, how much the best rolled out better than the one
    made, and whether that reverses the verdict. ``progress(done, total)``
    after each."""
    chosen = list(mistakes)[:top]
    out = []
    for done, mistake in enumerate(chosen, 1):
        frame = verify(mistake, **options)
        equities = {
            int(n): (float(e), float(se))
            for n, e, se in zip(frame["candidate"].tolist(), frame["equity"].tolist(), frame["equity_se"].tolist())
        }
        margin, sigma = _margin(mistake, equities)
        a = frame.attrs
        rolled = RolledOut(equities, margin, sigma, trials=int(a["trials"]), truncate=int(a["truncate"]),
                           seed=int(a["seed"]), level=str(a["level"]), cubeful=bool(a["cubeful"]))  # fmt: skip
        out.append(replace(mistake, rollout=rolled))
        if progress is not None:
            progress(done, len(chosen))
    return Mistakes([*out, *list(mistakes)[len(chosen) :]])


def _margin(mistake: Mistake, equities: dict[int, tuple[float, float]]) -> tuple[float, float]:
    """How much more the level's best choice rolled out than the one made,
    for the decider, and its standard error: a play, the best play less the
    one made; a cube decision, the doubler's no double against double (the
    taker answering as the rollout says), or the taker's take against pass."""
    if mistake.kind == "roll":
        played = next(n for n, c in enumerate(mistake.candidates) if c.played)
        (best, best_se), (made, made_se) = equities[0], equities[played]
        return best - made, float(np.hypot(best_se, made_se))
    (nd, nd_se), (dt, dt_se), (dp, dp_se) = equities[0], equities[1], equities[2]
    if mistake.kind in ("take", "pass"):  # the taker's: the doubler's equity after the answer, the less the better
        margin = dt - dp if mistake.kind == "take" else dp - dt
        return margin, float(np.hypot(dt_se, dp_se))
    doubled, doubled_se = (dt, dt_se) if dt <= dp else (dp, dp_se)
    margin = doubled - nd if mistake.kind == "no double" else nd - doubled
    return margin, float(np.hypot(nd_se, doubled_se))


def run(
    job: Job,
    jobs: int | None = 1,
    scheduler: str | None = None,
    journal: Path | Literal[False] | None = None,
    progress: RolloutProgress | None = None,
) -> np.ndarray:
    """Every trial of ``job`` ``(trials, alternatives, 7)``: those in its
    journal read back, the others played in batches on ``jobs`` processes
    or on the Dask cluster at ``scheduler``, each batch journaled when done."""
    total = job.settings.trials
    results = np.full((total, len(job.alternatives), 7), np.nan)
    folder = None if journal is False else (journal or default_journal()) / job.key()
    done = np.zeros(total, dtype=np.bool_)
    if folder is not None:
        for first, found in _journaled(folder):
            end = min(first + len(found), total)
            results[first:end], done[first:end] = found[: end - first], True
    if progress is not None:
        progress(int(done.sum()), total, _se(results, done))
    batches = _on_cluster(job, done, scheduler) if scheduler else _here(job, done, jobs)
    for (first, count), found in batches:
        results[first : first + count], done[first : first + count] = found, True
        if folder is not None:
            _keep(folder, first, found)
        if progress is not None:
            progress(int(done.sum()), total, _se(results, done))
    return results


def batches(done: np.ndarray, workers: int) -> list[tuple[int, int]]:
    """The trials not ``done`` as batches (first trial, count), in order, for
    ``workers`` at once: each of at most the trials left over twice the
    workers (whole :data:`SMALLEST_BATCH`), :data:`SMALLEST_BATCH` to :data:`BATCH`, so the
    first are large and the last small, and the workers finish together."""
    todo: list[tuple[int, int]] = []
    left = int((~done).sum())
    edges = np.flatnonzero(np.diff(np.concatenate([[1], done.astype(np.int8), [1]])))
    for start, end in zip(edges[::2].tolist(), edges[1::2].tolist()):  # the runs of trials not done
        while start < end:
            share = left // (2 * workers) // SMALLEST_BATCH * SMALLEST_BATCH
            count = min(BATCH, max(SMALLEST_BATCH, share), end - start)
            todo.append((start, count))
            start, left = start + count, left - count
    return todo


def _here(job: Job, done: np.ndarray, jobs: int | None) -> Iterator[tuple[tuple[int, int], np.ndarray]]:
    todo = batches(done, job_count(jobs, len(done)))
    return zip(todo, pmap(_batch, todo, job_count(jobs, len(todo)), job=job))


def _batch(item: tuple[int, int], job: Job) -> np.ndarray:
    return play_trials(job, *item)


def _on_cluster(job: Job, done: np.ndarray, address: str) -> Iterator[tuple[tuple[int, int], np.ndarray]]:
    """The batches played on the Dask cluster at ``address``, as they finish."""
    from distributed import Client, as_completed

    with Client(address, timeout=CONNECT_TIMEOUT) as client:  # type: ignore[no-untyped-call]
        todo = batches(done, max(1, sum(client.nthreads().values())))
        shared = client.scatter(job, broadcast=True)
        futures = {
            client.submit(play_trials, shared, first, count, pure=False): (first, count) for first, count in todo
        }
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            yield futures[future], future.result()
            future.release()


def default_journal() -> Path:
    """Where rollouts keep their trials unless told: the user's cache folder."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tavlakit" / "rollouts"


def _journaled(folder: Path) -> Iterator[tuple[int, np.ndarray]]:
    """The batches a journal holds: (first trial, results)."""
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.npy")):
        try:
            yield int(path.stem), np.load(path)
        except (ValueError, OSError):  # a batch cut short while written: played again
            continue


def _keep(folder: Path, first: int, found: np.ndarray) -> None:
    """Journal one batch (written aside, then renamed: never half a batch)."""
    folder.mkdir(parents=True, exist_ok=True)
    part = folder / f"{first:012d}.part"
    with part.open("wb") as out:
        np.save(out, found)
    part.replace(folder / f"{first:012d}.npy")


def _se(results: np.ndarray, done: np.ndarray) -> float:
    """The standard error of the first alternative's cubeful result so far."""
    found = results[done, 0, 6]
    return float(found.std(ddof=1) / np.sqrt(len(found))) if len(found) > 1 else float("nan")


def _frame(
    labels: list[str],
    results: np.ndarray,
    cube: CubeState,
    plays: bool,
    settings: Settings,
    rules: Rules,
    level: str,
    *,
    given: bool = False,
) -> pd.DataFrame:
    """The rollout's frame (see :func:`rollout`; ``given``: plays asked for by key, kept in their order)."""
    if plays:  # each rolled out with the opponent on roll: turned round
        results = turned(results, money=not cube.length)
    n = len(results)
    mean = results.mean(axis=0)
    se = results.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.zeros_like(mean)
    mean[:, :5] = mean[:, :5].clip(0.0, 1.0)
    if cube.length:  # match winning chances of the side on roll in EMG
        win, lose = cube.win_lose()
        mean[:, 6] = [mwc2eq(float(v), cube) for v in mean[:, 6]]
        se[:, 6] *= 2.0 / (win - lose)
    rows = []
    for label, m, s in zip(labels, mean.tolist(), se.tolist()):
        row: dict[str, object] = {"alternative": label, "equity": m[6], "equity_se": s[6]}
        row.update({"cubeless": m[5], "cubeless_se": s[5]})
        for k, name in enumerate(OUTPUTS[:5]):
            row.update({name: m[k], f"{name}_se": s[k]})
        rows.append(row | {"trials": n})
    frame = pd.DataFrame(rows)
    attrs: dict[str, object] = {
        "trials": settings.trials, "truncate": settings.truncate, "seed": settings.seed, "cubeful": settings.cubeful,
        "rules": rules.name, "level": level,
    }  # fmt: skip
    if plays:
        if not given:
            frame = frame.sort_values("equity", ascending=False, kind="stable").reset_index(drop=True)
    elif len(labels) == 2:  # no double and double/take: the cash beside them
        dp = double_pass(cube)
        frame = pd.concat(
            [frame, pd.DataFrame([{"alternative": _("double, pass"), "equity": dp, "equity_se": 0.0, "trials": n}])],
            ignore_index=True,
        )
        nd, dt = float(mean[0, 6]), float(mean[1, 6])
        attrs["decision"] = best_cube_action(nd, dt, dp, gammons=bool(mean[0, 1] > 0.0), state=cube)[1]
    frame.attrs.update(attrs)
    return frame


__all__ = [
    "BATCH",
    "CONNECT_TIMEOUT",
    "SMALLEST_BATCH",
    "MOST_TRIALS",
    "Job",
    "RolloutProgress",
    "cube_state",
    "batches",
    "default_journal",
    "play_trials",
    "record_turn",
    "rollout",
    "run",
    "verified",
    "verify",
]
