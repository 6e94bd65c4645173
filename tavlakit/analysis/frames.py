"""pandas frames of replayed records: one row per turn, per game, per player.

Every function takes one :class:`~tavlakit.record.match.Match` or any iterable of
them (a list, or ``tk.read_matches(paths)`` streaming file by file). The
rules come from ``rules=``, else each match's tags, else backgammon.
:func:`analyse_matches` replays once and gives all three frames.

Each row names its match twice: ``match`` is a short label (the file name,
with as many folders in front as it takes to tell two files of the same
name apart) and ``path`` the full source, the key the summaries group by.

>>> import tavlakit as tk
>>> from tavlakit._data import data_dir
>>> result = analyse_matches(tk.read_match(data_dir("samples") / "tavla-t000.mat"), luck=False)
>>> list(result.games.columns[:5])
['match', 'path', 'game', 'player0', 'player1']
>>> result.games["match"].iloc[0]
'tavla-t000.mat'
>>> players = players_frame(result.plays, result.games)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..collections.schema import GAME_COLUMNS, PLAY_COLUMNS
from ..engine.dicenames import dice_name
from ..engine.play import Play
from ..engine.position import Position
from ..engine.rules import Rules
from ..evaluation.equity import Evaluator
from ..evaluation.levels import DEFAULT_LEVEL, LevelLike
from ..i18n import _
from ..record.match import Match, Result
from ..record.matchscore import first_absurd
from ..record.problem import Problem
from ..replay.jacoby import jacoby_used
from ..replay.walker import ReplayedGame, Step, default_rules, replay
from .columns import Builder, Labels, column_values, rows_frame
from .luck import luck_mark, luck_rating, opening_luck, play_error, roll_luck
from .pips import board_facts, turn_facts

if TYPE_CHECKING:
    from .mistakes import Mistakes
    from .statistics import Judging

Matches = Match | Iterable[Match]


@dataclass
class Analysis:
    """The plays and games frames of a collection; :attr:`players` derives
    the per-player summary from them. ``problems`` holds the problems of
    whole files (unreadable, junk outside games); each game row counts its
    own errors."""

    plays: pd.DataFrame
    games: pd.DataFrame
    problems: list[Problem] = field(default_factory=list)
    source: Any = field(default=None, repr=False)
    """What was analysed, kept for :attr:`statistics` (paths, or matches
    given as a list); ``None`` for a stream of matches."""
    _statistics: pd.DataFrame | None = field(default=None, repr=False)
    _decisions: pd.DataFrame | None = field(default=None, repr=False)

    @property
    def players(self) -> pd.DataFrame:
        return players_frame(self)

    @property
    def statistics(self) -> pd.DataFrame:
        """gnubg's statistics per player per match and overall
        (:func:`~tavlakit.analysis.statistics.statistics_frame`).
        ``analyse(..., statistics=True)`` works them out in the replay that
        builds the frames; otherwise they are worked out on first use, which
        reads and replays the matches a second time (a stream of matches
        cannot be: it needs ``statistics=True``)."""
        if self._statistics is None:
            self._judge()
        assert self._statistics is not None
        return self._statistics

    @property
    def decisions(self) -> pd.DataFrame:
        """Every judged roll and cube decision, with the cube decisions'
        three equities, right action and error
        (:func:`~tavlakit.analysis.statistics.decisions_frame`); worked out
        with :attr:`statistics`, in the same way."""
        if self._decisions is None:
            self._judge()
        assert self._decisions is not None
        return self._decisions

    def set_judged(self, statistics: pd.DataFrame, decisions: pd.DataFrame) -> None:
        """Keep the statistics and decisions frames worked out in the replay
        that built the frames (:attr:`statistics`, :attr:`decisions`)."""
        self._statistics, self._decisions = statistics, decisions

    def mistakes(self, player: str | None = None, top: int | None = 20, min_error: float = 0.0) -> Mistakes:
        """The worst decisions of ``player`` (a name; None: both), chequer
        play and cube, largest error first: at most ``top`` (None: all),
        each losing at least ``min_error`` EMG; each with its position,
        dice, score, cube, the play made, the best, the candidates with
        their equities and the analysis level
        (:func:`~tavlakit.analysis.mistakes.mistakes`). In Jupyter they show
        as a table with a board in each row; ``.frame`` is the table."""
        from .mistakes import mistakes

        return mistakes(self, player, top, min_error)

    def find(self, position: str | Position, *, swapped: bool = False) -> pd.DataFrame:
        """Every turn where ``position`` stood before it (a Position, Position
        ID, ``PosID:MatchID`` or XGID; ``swapped``: also with the other player
        on roll): :func:`~tavlakit.analysis.positions.find_plays`."""
        from .positions import find_plays

        return find_plays(self.plays, position, swapped=swapped)

    def _judge(self) -> None:
        """Read and replay the source again to judge it (both frames at once)."""
        from .statistics import judge_matches

        source = self.source
        if source is None:
            raise ValueError("the matches were a stream: ask analyse(..., statistics=True)")
        if getattr(source, "paths", False):
            from ..formats import read_matches

            matches: Any = read_matches(list(source))
        else:
            matches = list(source)
        judging = judge_matches(matches, source.rules, source.met, source.level)
        self._statistics, self._decisions = judging.statistics(), judging.decisions_frame()


def _matches(matches: Matches) -> Iterator[Match]:
    if isinstance(matches, Match):
        yield matches
    else:
        yield from matches


class _Walker:
    """Replays matches and turns them into rows, one evaluator per rules;
    with ``judging``, each game is judged too as it is replayed (gnubg's
    statistics and the decision rows gather there)."""

    def __init__(
        self,
        rules: Rules | None,
        luck: bool,
        judging: Judging | None = None,
        seen: Callable[[ReplayedGame], None] | None = None,
        games: range | None = None,
    ) -> None:
        self.rules = rules
        self.luck = luck
        self.judging = judging
        self.seen = seen
        self.games = games
        self.evaluators: dict[Rules, Evaluator] = {}
        self.labels = Labels()

    def evaluator(self, rules: Rules) -> Evaluator:
        # (a judge made already, its look-ahead found on other processes by analysis/deep.py: its
        # evaluator, the 0-ply plays it searched for the plan reused for the luck)
        judge = self.judging.judges.get(rules) if self.judging else None
        rules = rules.replace(jacoby=False) if rules.jacoby else rules  # (no bearing on the plays or the nets)
        if rules not in self.evaluators:
            self.evaluators[rules] = judge.search.ev if judge else Evaluator(rules)
        return self.evaluators[rules]

    def run(self, matches: Matches) -> Iterator[tuple[list[dict[str, Any]], list[dict[str, Any]], list[Problem]]]:
        """Per match: (play rows, game rows, the match's own problems)."""
        for index, match in enumerate(_matches(matches)):
            rules = default_rules(match, self.rules)
            path = match.source or f"match-{index + 1}"
            absurd = first_absurd(match)
            if absurd is not None:  # no row can hold it: the file is that one error
                yield [], [], [*match.problems, not_analysed(absurd, path)]
                continue
            mid = (self.labels(path), path)
            jacoby = jacoby_used(match, rules)
            ev = self.evaluator(rules) if self.luck else None
            plays: list[dict[str, Any]] = []
            games: list[dict[str, Any]] = []
            judging = self.judging
            tally = judging.tally(match, path, mid[0], rules, ev) if judging else None
            for number, rg in enumerate(replay(match, rules)):
                if self.seen is not None:
                    self.seen(rg)
                if self.games is not None and number not in self.games:
                    continue  # (the whole match is replayed: a game's score and Crawford follow from those before)
                if tally is not None:  # first: it searches the game's positions in one batch, the rows reuse them
                    tally.add(rg)
                plays.extend(step_rows(match, mid, rules, rg, ev))
                games.append(game_row(match, mid, rules, rg, jacoby))
            if judging and tally:
                judging.keep(tally)
            own = match.problems if self.games is None or 0 in self.games else []
            yield plays, games, own


def not_analysed(problem: Problem, path: str) -> Problem:
    """The problem that keeps a match out of the analysis, said as such."""
    return problem.replace(file=path, message=_("{problem}; the file is not analysed").format(problem=problem.message))


def step_rows(
    match: Match, mid: tuple[str, str], rules: Rules, rg: ReplayedGame, ev: Evaluator | None = None
) -> Iterator[dict[str, Any]]:
    """The rows of :func:`plays_frame` of one replayed game, one per step:
    the turn, and where the step says the board is known its board facts
    (and with ``ev`` the luck and the play's error). ``mid`` is the match's
    (label, path)."""
    first = True  # the game's first roll is to come
    for step in rg.steps:
        turn = step.turn
        row: dict[str, Any] = {
            "match": mid[0],
            "path": mid[1],
            "game": rg.game.number,
            "turn": step.index,
            "number": turn.number,
            "player": step.player,
            "name": match.players[step.player],
            "kind": turn.kind,
            "cube": step.cube,
            "legal": step.legal,
            "cube_action": None if turn.kind == "roll" else turn.kind,
        }
        if step.known:
            row["position_id"] = step.before.position_id()
        if turn.kind == "roll":
            _add_roll(row, rules, rg, step, first, ev)
            first = False
        elif step.known:
            row.update(turn_facts(step.before, step.before))
        yield row


def _add_roll(
    row: dict[str, Any], rules: Rules, rg: ReplayedGame, step: Step, opening: bool, ev: Evaluator | None
) -> None:
    """Add a roll's columns to its row: its dice and play, and on a known
    board what the play did, the luck and the error."""
    turn = step.turn
    if turn.analysis is not None:
        row.update(recorded_error=turn.analysis.error, recorded_luck=turn.analysis.luck)
    dice = step.dice
    opening_dice = opening and rules.opening == "use-opening-dice" and rg.game.start is None
    row.update(opening=opening, opening_dice=opening_dice, play=_notation(turn.play))
    if dice is not None:
        row.update(dice=f"{dice[0]}{dice[1]}", die1=dice[0], die2=dice[1], roll_name=dice_name(dice))
    if step.known:
        # "Cannot Move" leaves the board as it was: still a known board
        if step.played or turn.status == "cannot-move":
            row.update(turn_facts(step.before, step.after))
        else:  # a play not known (a typo): the board before is, the rest of the game goes on from the walker's
            row.update(board_facts(step.before))
        if dice is not None:
            row.update(
                _roll_values(
                    ev,
                    rules,
                    step.before,
                    step.after,
                    dice,
                    opening_dice and dice[0] != dice[1],
                    step.played and step.legal,
                )
            )


def _roll_values(
    ev: Evaluator | None,
    rules: Rules,
    before: Position,
    after: Position,
    dice: tuple[int, int],
    opening: bool,
    judged: bool,
) -> dict[str, Any]:
    """Whether the roll danced and (with ``ev``) its luck, the choices it gave and the play's error."""
    dance = after == before and not any(p.moves for p in before.legal_plays(dice, rules))
    out: dict[str, Any] = {"dance": dance}
    if ev is None:
        return out
    luck = opening_luck(ev, before, dice) if opening else roll_luck(ev, before, dice)
    out.update(luck=luck, luck_mark=luck_mark(luck), choices=ev.choices(before, dice))
    if judged and (after != before or dance):
        out["error"] = play_error(ev, before, dice, after)
    return out


#: Play notation, remembered: a collection holds far fewer plays than turns.
_notation = lru_cache(maxsize=1 << 14)(Play.notation)


def game_row(
    match: Match,
    mid: tuple[str, str],
    rules: Rules,
    rg: ReplayedGame,
    jacoby: tuple[bool | None, str | None] = (None, None),
) -> dict[str, Any]:
    """One row of :func:`games_frame` (``jacoby``: the session's Jacoby rule
    and where it came from, :func:`~tavlakit.replay.jacoby.jacoby_used`)."""
    game = rg.game
    result = game.result
    rolls = [s for s in rg.steps if s.turn.kind == "roll"]
    first = rolls[0].turn.dice if rolls else None
    dropped = any(s.turn.kind == "drop" for s in rg.steps)
    finished = rg.result_kind is not None
    ratings = match.ratings()
    return {
        "match": mid[0],
        "path": mid[1],
        "game": game.number,
        "player0": match.players[0],
        "player1": match.players[1],
        "rating0": ratings[0],
        "rating1": ratings[1],
        "rules": rules.name,
        "jacoby": jacoby[0],
        "jacoby_from": jacoby[1],
        "length": match.length,
        "score0": game.score[0],
        "score1": game.score[1],
        "crawford": game.crawford,
        "starter": rg.starter,
        "opening_roll": f"{first[0]}{first[1]}" if first else None,
        **_result_columns(match, result),
        "dropped": dropped,
        "cube": rg.cube,
        "result_kind": _result_kind(rg, dropped),
        "kind_none_borne_off": rg.final.result_kind(rules.replace(mars="none-borne-off")) if finished else None,
        "kind_outside_home": rg.final.result_kind(rules.replace(mars="outside-home")) if finished else None,
        "turns": len(game.turns),
        "plies": len(rolls),
        "problems": sum(1 for p in [*game.problems, *rg.problems] if p.severity == "error"),
    }


def _result_columns(match: Match, result: Result | None) -> dict[str, Any]:
    """The games frame's columns of a game's recorded result."""
    if result is None:
        return {"winner": None, "winner_name": None, "points": None, "resigned": None}
    name = match.players[result.winner] if result.winner in (0, 1) else None
    return {"winner": result.winner, "winner_name": name, "points": result.points, "resigned": result.resigned}


def _result_kind(rg: ReplayedGame, dropped: bool) -> str | None:
    """How the game was won: the board's word, else the points by the cube, else (a pass) single."""
    kind: str | None = rg.result_kind
    result = rg.game.result
    if kind is None and result is not None and not dropped and rg.cube:
        kind = {1: "single", 2: "mars", 3: "backgammon"}.get(
            result.points // rg.cube if result.points % rg.cube == 0 else 0
        )
    if kind is None and dropped:
        kind = "single"
    return kind


def analyse_matches(
    matches: Matches,
    rules: Rules | None = None,
    *,
    luck: bool = True,
    statistics: bool = False,
    met: Any = None,
    level: LevelLike = DEFAULT_LEVEL,
) -> Analysis:
    """Replay every match once and build the plays and games frames.

    ``luck=False`` skips the neural-net columns (``luck``, ``luck_mark``,
    ``choices``, ``error``), which is much faster. (:func:`~tavlakit.analysis.collection.analyse`
    takes paths too.) ``statistics=True`` also judges every game in the same
    replay: :attr:`Analysis.statistics` and :attr:`Analysis.decisions` (with
    the match equity table ``met``, a table or its path, default gnubg's,
    at ``level``: :mod:`~tavlakit.evaluation.levels`, default world class);
    otherwise they are worked out on first use, by a second replay.
    """
    judging = None
    if statistics:
        from .statistics import Judging

        judging = Judging(met, level)
    kept = matches if isinstance(matches, (Match, list, tuple)) else None
    plays, games = Builder(PLAY_COLUMNS), Builder(GAME_COLUMNS)
    problems: list[Problem] = []
    for p, g, trouble in rows(matches, rules, luck=luck, judging=judging):
        plays.add(column_values(p, PLAY_COLUMNS))
        games.add(column_values(g, GAME_COLUMNS))
        problems.extend(trouble)
    source = Source(kept, rules, met, level) if kept is not None else None
    result = Analysis(plays.frame(), games.frame(), problems, source=source)
    if judging is not None:
        result.set_judged(judging.statistics(), judging.decisions_frame())
    return result


class Source(list[Any]):
    """The matches (or paths, ``paths=True``) of an analysis with the options to judge them by."""

    def __init__(
        self, items: Any, rules: Rules | None, met: Any, level: LevelLike = DEFAULT_LEVEL, paths: bool = False
    ) -> None:
        super().__init__([items] if isinstance(items, (str, Path, Match)) else items)
        self.rules, self.met, self.level, self.paths = rules, met, level, paths


def rows(
    matches: Matches,
    rules: Rules | None = None,
    *,
    luck: bool = True,
    judging: Judging | None = None,
    seen: Callable[[ReplayedGame], None] | None = None,
    games: range | None = None,
) -> Iterator[tuple[list[dict[str, Any]], list[dict[str, Any]], list[Problem]]]:
    """Per match: its play rows, its game rows (dicts of column name to value)
    and its own problems, the stuff :func:`analyse_matches` builds the frames of;
    with ``judging`` each game is also judged in the same replay
    (:class:`~tavlakit.analysis.statistics.Judging` gathers the rows); each
    replayed game is shown to ``seen`` (a fingerprint's ``add``);
    ``games``: only the rows of the games of these indexes (their match's
    own problems go with the part that has its first game)."""
    return _Walker(rules, luck, judging, seen, games).run(matches)


def plays_frame(matches: Matches, rules: Rules | None = None, *, luck: bool = True) -> pd.DataFrame:
    """One row per turn (rolls and cube actions); see :data:`~tavlakit.collections.schema.PLAY_COLUMNS`.

    Pips and board events are seen by the turn's player (``opp_*``: the
    opponent); ``luck`` is in equity units of the rules (:mod:`.luck`),
    ``error`` the equity the play lost against the best 0-ply play.
    ``recorded_error`` and ``recorded_luck`` are what the record's own
    analyser wrote (:attr:`Turn.analysis <tavlakit.record.match.Turn.analysis>`,
    e.g. XG's in an ``.xg`` file), NaN where it holds none.
    Positions after an unknown play (``???``) are not known: those rows
    keep the turn but leave the board columns empty.
    """
    return analyse_matches(matches, rules, luck=luck).plays


def games_frame(matches: Matches, rules: Rules | None = None) -> pd.DataFrame:
    """One row per game; see :data:`~tavlakit.collections.schema.GAME_COLUMNS`. ``result_kind`` follows
    the rules in force (from the board, else from points / cube for a
    resignation); ``kind_none_borne_off`` and ``kind_outside_home`` judge
    the final board under each mars definition (empty when the game did
    not end on the board)."""
    return analyse_matches(matches, rules, luck=False).games


def players_frame(
    data: Analysis | pd.DataFrame | Matches, games: pd.DataFrame | None = None, *, rules: Rules | None = None
) -> pd.DataFrame:
    """Per player per match (``scope="match"``) and per player name over
    everything (``scope="overall"``): games, wins, mars for and against,
    points, rolls, hits, dances, turns ending with a closed board, luck
    (total, per roll, gnubg's marks and rating, net of the opponent's,
    luck-adjusted result: the result minus the net luck, each roll's luck
    times the cube) and checker-play errors (total, per unforced move;
    ``recorded_error``: the total the record's own analysis holds, e.g. XG's).

    ``data`` is an :class:`Analysis`, a plays frame with its games frame as
    ``games``, or matches (replayed here: :func:`analyse_matches` once, then
    ``result.players``, replays only once for all three frames)."""
    if isinstance(data, pd.DataFrame):
        if games is None:
            raise TypeError("players_frame(plays, games) needs the games frame too")
        plays = data
    elif isinstance(data, Analysis):
        plays, games = data.plays, data.games
    else:
        result = analyse_matches(data, rules)
        plays, games = result.plays, result.games
    per_match = pd.DataFrame(_player_rows(plays, games))
    if per_match.empty:
        return per_match
    overall = (
        per_match.drop(columns=["match", "path", "side"])
        .groupby("player", sort=False)
        .sum(numeric_only=True, min_count=1)
    )
    overall = overall.reset_index().assign(scope="overall", match=None, path=None, side=None)
    out = pd.concat([per_match.assign(scope="match"), overall], ignore_index=True)
    return _rates(out)


def match_players(plays: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`players_frame` with ``scope="match"`` only (one
    per player per match), without summing up every player's matches."""
    per_match = pd.DataFrame(_player_rows(plays, games))
    return per_match if per_match.empty else _rates(per_match.assign(scope="match"))


#: Counted per player and match from the rolls: column -> the rows counted.
_COUNTS: dict[str, Callable[[pd.DataFrame], pd.Series]] = {
    "rolls": lambda r: r["die1"].notna(),
    "judged_rolls": lambda r: r["luck"].notna(),
    "hits": lambda r: r["hits"].fillna(0),
    "dances": lambda r: r["dance"].fillna(False),
    "closed_boards": lambda r: r["closed_board"].fillna(False),
    **{
        mark.replace(" ", "_"): (lambda m: lambda r: (r["luck_mark"] == m).fillna(False))(mark)
        for mark in ("very lucky", "lucky", "unlucky", "very unlucky")
    },
    "unforced": lambda r: (r["choices"] > 1).fillna(False),
}


def _player_rows(plays: pd.DataFrame, games: pd.DataFrame) -> list[dict[str, Any]]:
    """Each match's two players' counts (games in order of the games frame,
    side 0 then 1), counted for all matches at once: ``np.bincount`` over
    (match, side) codes; float totals summed group by group as a Series
    sum would, so the figures do not depend on how many matches there are."""
    codes, paths = pd.factorize(games["path"])
    n = len(paths)
    winner = games["winner"].to_numpy(dtype="float64", na_value=np.nan)
    marsy = games["result_kind"].isin(["mars", "backgammon"]).to_numpy(dtype=bool)
    points = games["points"].fillna(0).to_numpy(dtype="int64")
    found, at = np.unique(codes, return_index=True)
    at = at[found >= 0]  # each match's first game row (code -1: no path, no group)
    firsts = {c: list(games[c].take(at)) for c in ("match", "player0", "player1")}
    length = np.bincount(codes[codes >= 0], minlength=n)
    ok = codes >= 0

    def count(mask: Any, weights: Any = None) -> Any:
        return np.bincount(codes[ok & mask], None if weights is None else weights[ok & mask], n).astype("int64")

    per_side = {}
    for side in (0, 1):
        won, lost = winner == side, winner == 1 - side
        per_side[side] = {
            "wins": count(won),
            "losses": count(lost),
            "mars_for": count(won & marsy),
            "mars_against": count(lost & marsy),
            "points_for": count(won, points),
            "points_against": count(lost, points),
        }
    roll = (plays["kind"] == "roll").to_numpy(dtype=bool, na_value=False)  # no copy of the plays: masks

    def column(values: pd.Series) -> Any:
        return values.to_numpy(dtype="float64", na_value=np.nan)[roll]

    where = pd.Index(paths).get_indexer(plays["path"])[roll] if n else np.full(int(roll.sum()), -1)
    player = column(plays["player"])
    keep = (where >= 0) & np.isin(player, (0, 1))
    key = (where * 2 + np.nan_to_num(player).astype("int64"))[keep]
    counted = {
        name: np.bincount(key, weights=column(rule(plays))[keep], minlength=2 * n) for name, rule in _COUNTS.items()
    }
    order = np.argsort(key, kind="stable")
    bounds = np.searchsorted(key[order], np.arange(2 * n + 1))
    luck, cube, error, recorded = (column(plays[c])[keep][order] for c in ("luck", "cube", "error", "recorded_error"))
    rows = []
    for i in range(n):
        for side in (0, 1):
            g = 2 * i + side
            mine, theirs = slice(bounds[g], bounds[g + 1]), slice(bounds[g ^ 1], bounds[(g ^ 1) + 1])
            s = {k: int(v[i]) for k, v in per_side[side].items()}
            result = float(s["points_for"] - s["points_against"])
            luck_points = _total(luck[mine] * cube[mine])
            opp_luck_points = _total(luck[theirs] * cube[theirs])
            c = {name: int(values[g]) for name, values in counted.items()}
            rows.append(
                {
                    "match": firsts["match"][i],
                    "path": str(paths[i]),
                    "player": firsts[f"player{side}"][i],
                    "side": side,
                    "games": int(length[i]),
                    "wins": s["wins"],
                    "losses": s["losses"],
                    "mars_for": s["mars_for"],
                    "mars_against": s["mars_against"],
                    "points_for": s["points_for"],
                    "points_against": s["points_against"],
                    "result": result,
                    "rolls": c["rolls"],
                    "judged_rolls": c["judged_rolls"],
                    "hits": c["hits"],
                    "dances": c["dances"],
                    "closed_boards": c["closed_boards"],
                    "luck": _total(luck[mine]),
                    "opp_luck": _total(luck[theirs]),
                    "luck_adjusted": result - float(luck_points - opp_luck_points),
                    "very_lucky": c["very_lucky"],
                    "lucky": c["lucky"],
                    "unlucky": c["unlucky"],
                    "very_unlucky": c["very_unlucky"],
                    "unforced": c["unforced"],
                    "error": _total(error[mine]),
                    "recorded_error": _total(recorded[mine]),
                }
            )
    return rows


def _total(values: Any) -> float:
    """The sum, or NaN when there is no value (luck not computed)."""
    present = ~np.isnan(values)
    return float(np.where(present, values, 0.0).sum()) if present.any() else math.nan


def _rates(frame: pd.DataFrame) -> pd.DataFrame:
    frame["net_luck"] = frame["luck"] - frame["opp_luck"]
    rolls = frame["judged_rolls"].where(frame["judged_rolls"] > 0)
    frame["luck_per_roll"] = frame["luck"] / rolls
    frame["luck_rating"] = frame["luck_per_roll"].map(lambda r: None if pd.isna(r) else luck_rating(r))
    frame["error_rate"] = frame["error"] / frame["unforced"].where(frame["unforced"] > 0)
    first = ["scope", "match", "player", "side", "path"]
    return frame[first + [c for c in frame.columns if c not in first]]


def to_parquet(
    matches: Matches,
    folder: str | Path,
    rules: Rules | None = None,
    *,
    luck: bool = True,
    batch: int = 50,
    progress: Callable[[int], None] | None = None,
) -> tuple[Path, Path]:
    """Write ``plays.parquet`` and ``games.parquet`` into ``folder``, ``batch``
    matches at a time, so a large streamed collection never sits in memory
    whole. ``progress`` is called with the number of matches done. Returns
    the two paths."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = (out / "plays.parquet", out / "games.parquet")
    writers: list[Any] = [None, None]
    buffers: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    columns = (PLAY_COLUMNS, GAME_COLUMNS)

    def flush() -> None:
        for i in (0, 1):
            table = pa.Table.from_pandas(rows_frame(buffers[i], columns[i]), preserve_index=False)
            if writers[i] is None:
                writers[i] = pq.ParquetWriter(paths[i], table.schema)
            writers[i].write_table(table)
            buffers[i].clear()

    done = 0
    try:
        for plays, games, _ in _Walker(rules, luck).run(matches):
            buffers[0].extend(plays)
            buffers[1].extend(games)
            done += 1
            if done % batch == 0:
                flush()
            if progress:
                progress(done)
        if buffers[1] or writers[1] is None:
            flush()
    finally:
        for writer in writers:
            if writer is not None:
                writer.close()
    return paths


__all__ = [
    "Analysis",
    "GAME_COLUMNS",
    "Labels",
    "PLAY_COLUMNS",
    "analyse_matches",
    "game_row",
    "games_frame",
    "players_frame",
    "plays_frame",
    "rows",
    "step_rows",
    "to_parquet",
]
