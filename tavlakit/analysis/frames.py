"""pandas frames of replayed records: one row per turn, per game, per player.

Every function takes one :class:`~tavlakit.record.Match` or any iterable of
them (a list, or ``tk.read_matches(paths)`` streaming file by file). The
rules come from ``rules=``, else each match's tags, else backgammon.
:func:`analyse` replays once and gives all three frames.

Each row names its match twice: ``match`` is a short label (the file name,
with as many folders in front as it takes to tell two files of the same
name apart) and ``path`` the full source, the key the summaries group by.

>>> import tavlakit as tk
>>> from tavlakit._data import data_dir
>>> result = analyse(tk.read_match(data_dir("samples") / "tavla-t000.mat"), luck=False)
>>> list(result.games.columns[:5])
['match', 'path', 'game', 'player0', 'player1']
>>> result.games["match"].iloc[0]
'tavla-t000.mat'
>>> players = players_frame(result.plays, result.games)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import pandas as pd

from ..dicenames import dice_name
from ..position import Position
from ..problem import Problem
from ..record import Match
from ..replay import ReplayedGame, default_rules, replay
from ..rules import Rules
from .equity import Evaluator
from .luck import luck_mark, luck_rating, opening_luck, play_error, roll_luck
from .pips import turn_facts

Matches = Match | Iterable[Match]

#: Column types of :func:`plays_frame` (fixed, so batches concatenate and
#: Parquet files written in parts share one schema).
PLAY_COLUMNS: dict[str, str] = {
    "match": "string", "path": "string", "game": "Int64", "turn": "Int64", "number": "Int64",
    "player": "Int64", "name": "string", "kind": "string", "opening": "boolean",
    "opening_dice": "boolean", "dice": "string", "die1": "Int64", "die2": "Int64",
    "roll_name": "string",  # the Tavla name of the roll, "şeş beş" (tavlakit.dicenames)
    "play": "string", "dance": "boolean", "cube": "Int64", "cube_action": "string",
    "pips_before": "Int64", "opp_pips_before": "Int64", "pips_after": "Int64", "opp_pips_after": "Int64",
    "hits": "Int64", "entered": "Int64", "borne_off": "Int64", "home_points": "Int64",
    "closed_board": "boolean", "position_id": "string", "legal": "boolean", "choices": "Int64",
    "luck": "float64", "luck_mark": "string", "error": "float64",
}
GAME_COLUMNS: dict[str, str] = {
    "match": "string", "path": "string", "game": "Int64", "player0": "string", "player1": "string", "rules": "string",
    "length": "Int64", "score0": "Int64", "score1": "Int64", "crawford": "boolean",
    "starter": "Int64", "opening_roll": "string", "winner": "Int64", "winner_name": "string",
    "points": "Int64", "resigned": "boolean", "dropped": "boolean", "cube": "Int64",
    "result_kind": "string", "kind_none_borne_off": "string", "kind_outside_home": "string",
    "turns": "Int64", "plies": "Int64", "problems": "Int64",
}


@dataclass
class Analysis:
    """The plays and games frames of a collection; :attr:`players` derives
    the per-player summary from them. ``problems`` holds the problems of
    whole files (unreadable, junk outside games); each game row counts its
    own errors."""

    plays: pd.DataFrame
    games: pd.DataFrame
    problems: list[Problem] = field(default_factory=list)

    @property
    def players(self) -> pd.DataFrame:
        return players_frame(self)


def _matches(matches: Matches) -> Iterator[Match]:
    if isinstance(matches, Match):
        yield matches
    else:
        yield from matches


class _Labels:
    """Short unique labels for the matches of one run: the file name, with
    parent folders in front while another file already has that label."""

    def __init__(self) -> None:
        self.given: dict[str, str] = {}
        self.taken: set[str] = set()

    def __call__(self, path: str) -> str:
        if path in self.given:
            return self.given[path]
        parts = Path(path).parts or (path,)
        label = path
        for depth in range(1, len(parts) + 1):
            label = "/".join(parts[-depth:])
            if label not in self.taken:
                break
        self.given[path] = label
        self.taken.add(label)
        return label


class _Walker:
    """Replays matches and turns them into rows, one evaluator per rules."""

    def __init__(self, rules: Rules | None, luck: bool) -> None:
        self.rules = rules
        self.luck = luck
        self.evaluators: dict[Rules, Evaluator] = {}
        self.labels = _Labels()

    def evaluator(self, rules: Rules) -> Evaluator:
        if rules not in self.evaluators:
            self.evaluators[rules] = Evaluator(rules)
        return self.evaluators[rules]

    def run(self, matches: Matches) -> Iterator[tuple[list[dict[str, Any]], list[dict[str, Any]], list[Problem]]]:
        """Per match: (play rows, game rows, the match's own problems)."""
        for index, match in enumerate(_matches(matches)):
            rules = self.rules or default_rules(match)
            path = match.source or f"match-{index + 1}"
            mid = (self.labels(path), path)
            plays: list[dict[str, Any]] = []
            games: list[dict[str, Any]] = []
            for rg in replay(match, rules):
                plays.extend(self.play_rows(match, mid, rules, rg))
                games.append(game_row(match, mid, rules, rg))
            yield plays, games, match.problems

    def play_rows(self, match: Match, mid: tuple[str, str], rules: Rules, rg: ReplayedGame) -> Iterator[dict[str, Any]]:
        ev = self.evaluator(rules) if self.luck else None
        known = True  # the board is known (no unknown play or bad dice earlier in the game)
        first = True
        for step in rg.steps:
            turn = step.turn
            row: dict[str, Any] = {
                "match": mid[0], "path": mid[1], "game": rg.game.number, "turn": step.index, "number": turn.number,
                "player": step.player, "name": match.players[step.player], "kind": turn.kind,
                "cube": step.cube, "legal": step.legal,
                "cube_action": None if turn.kind == "roll" else turn.kind,
            }
            if known:
                row["position_id"] = step.before.position_id()
            if turn.kind != "roll":
                if known:
                    row.update(turn_facts(step.before, step.before))
                yield row
                continue
            opening, first = first, False
            dice = turn.dice
            valid = dice is not None and len(dice) == 2 and all(1 <= d <= 6 for d in dice)
            opening_dice = opening and rules.opening == "use-opening-dice" and rg.game.start is None
            row.update(opening=opening, opening_dice=opening_dice, play=turn.play.notation())
            if valid:
                assert dice is not None
                row.update(dice=f"{dice[0]}{dice[1]}", die1=dice[0], die2=dice[1], roll_name=dice_name(dice))
            played = turn.status == "play" and (step.legal or step.after != step.before)
            if known:
                before = step.before
                # "Cannot Move" leaves the board as it was: still a known board
                if played or turn.status == "cannot-move":
                    row.update(turn_facts(before, step.after))
                if valid:
                    assert dice is not None
                    row.update(self.roll_values(ev, rules, before, step.after, (dice[0], dice[1]),
                                                opening_dice and dice[0] != dice[1],
                                                played and step.legal))
            if turn.status in ("unknown", "illegal") or not valid:
                known = False
            yield row

    def roll_values(self, ev: Evaluator | None, rules: Rules, before: Position, after: Position,
                    dice: tuple[int, int], opening: bool, judged: bool) -> dict[str, Any]:
        dance = after == before and not any(p.moves for p in before.legal_plays(dice, rules))
        out: dict[str, Any] = {"dance": dance}
        if ev is None:
            return out
        luck = opening_luck(ev, before, dice) if opening else roll_luck(ev, before, dice)
        out.update(luck=luck, luck_mark=luck_mark(luck), choices=ev.choices(before, dice))
        if judged and (after != before or dance):
            out["error"] = play_error(ev, before, dice, after)
        return out


def game_row(match: Match, mid: tuple[str, str], rules: Rules, rg: ReplayedGame) -> dict[str, Any]:
    """One row of :func:`games_frame`."""
    game = rg.game
    result = game.result
    rolls = [s for s in rg.steps if s.turn.kind == "roll"]
    first = rolls[0].turn.dice if rolls else None
    dropped = any(s.turn.kind == "drop" for s in rg.steps)
    finished = rg.result_kind is not None
    kind: str | None = rg.result_kind
    if kind is None and result is not None and not dropped and rg.cube:
        kind = {1: "single", 2: "mars", 3: "backgammon"}.get(result.points // rg.cube
                                                            if result.points % rg.cube == 0 else 0)
    if kind is None and dropped:
        kind = "single"
    return {
        "match": mid[0], "path": mid[1], "game": game.number, "player0": match.players[0], "player1": match.players[1],
        "rules": rules.name, "length": match.length, "score0": game.score[0], "score1": game.score[1],
        "crawford": game.crawford, "starter": rg.starter,
        "opening_roll": f"{first[0]}{first[1]}" if first else None,
        "winner": result.winner if result else None,
        "winner_name": match.players[result.winner] if result and result.winner in (0, 1) else None,
        "points": result.points if result else None, "resigned": result.resigned if result else None,
        "dropped": dropped, "cube": rg.cube, "result_kind": kind,
        "kind_none_borne_off": rg.final.result_kind(rules.replace(mars="none-borne-off")) if finished else None,
        "kind_outside_home": rg.final.result_kind(rules.replace(mars="outside-home")) if finished else None,
        "turns": len(game.turns), "plies": len(rolls),
        "problems": sum(1 for p in [*game.problems, *rg.problems] if p.severity == "error"),
    }


def _frame(rows: list[dict[str, Any]], columns: dict[str, str]) -> pd.DataFrame:
    # column by column: 2-3x faster than from_records + astype on small frames
    return pd.DataFrame({name: pd.array([row.get(name) for row in rows], dtype=kind)  # type: ignore[call-overload]
                         for name, kind in columns.items()})


def analyse(matches: Matches | str | Path | Sequence[str | Path], rules: Rules | None = None, luck: bool = True,
            jobs: int | None = 1) -> Analysis:
    """Replay every match once and build the plays and games frames.

    ``luck=False`` skips the neural-net columns (``luck``, ``luck_mark``,
    ``choices``, ``error``), which is much faster. Given paths (files or
    folders: a path, or a list of them) the files are analysed on ``jobs``
    processes (``None``: every core), with the same frames in the same
    order; matches are always analysed in this process.
    """
    from .collection import analyse_paths, is_paths

    if is_paths(matches):
        return analyse_paths(matches, rules, luck, jobs)
    plays: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    problems: list[Problem] = []
    for p, g, trouble in _Walker(rules, luck).run(matches):
        plays.extend(p)
        games.extend(g)
        problems.extend(trouble)
    return Analysis(_frame(plays, PLAY_COLUMNS), _frame(games, GAME_COLUMNS), problems)


def plays_frame(matches: Matches, rules: Rules | None = None, luck: bool = True) -> pd.DataFrame:
    """One row per turn (rolls and cube actions); see :data:`PLAY_COLUMNS`.

    Pips and board events are seen by the turn's player (``opp_*``: the
    opponent); ``luck`` is in equity units of the rules (:mod:`.luck`),
    ``error`` the equity the play lost against the best 0-ply play.
    Positions after an unknown play (``???``) are not known: those rows
    keep the turn but leave the board columns empty.
    """
    return analyse(matches, rules, luck).plays


def games_frame(matches: Matches, rules: Rules | None = None) -> pd.DataFrame:
    """One row per game; see :data:`GAME_COLUMNS`. ``result_kind`` follows
    the rules in force (from the board, else from points / cube for a
    resignation); ``kind_none_borne_off`` and ``kind_outside_home`` judge
    the final board under each mars definition (empty when the game did
    not end on the board)."""
    return analyse(matches, rules, luck=False).games


def players_frame(data: Analysis | pd.DataFrame | Matches, games: pd.DataFrame | None = None, *,
                  rules: Rules | None = None) -> pd.DataFrame:
    """Per player per match (``scope="match"``) and per player name over
    everything (``scope="overall"``): games, wins, mars for and against,
    points, rolls, hits, dances, turns ending with a closed board, luck
    (total, per roll, gnubg's marks and rating, net of the opponent's,
    luck-adjusted result: the result minus the net luck, each roll's luck
    times the cube) and checker-play errors (total, per unforced move).

    ``data`` is an :class:`Analysis`, a plays frame with its games frame as
    ``games``, or matches (replayed here: :func:`analyse` once, then
    ``result.players``, replays only once for all three frames)."""
    if isinstance(data, pd.DataFrame):
        if games is None:
            raise TypeError("players_frame(plays, games) needs the games frame too")
        plays = data
    elif isinstance(data, Analysis):
        plays, games = data.plays, data.games
    else:
        result = analyse(data, rules)
        plays, games = result.plays, result.games
    rows = []
    rolls = plays[plays["kind"] == "roll"]
    by_path = dict(iter(rolls.groupby("path", sort=False)))
    for path, match_games in games.groupby("path", sort=False):
        match_plays = by_path.get(path, rolls.iloc[:0])
        for side in (0, 1):
            rows.append(_player_counts(str(path), side, match_games, match_plays))
    per_match = pd.DataFrame(rows)
    if per_match.empty:
        return per_match
    overall = per_match.drop(columns=["match", "path", "side"]).groupby("player", sort=False).sum(
        numeric_only=True, min_count=1)
    overall = overall.reset_index().assign(scope="overall", match=None, path=None, side=None)
    out = pd.concat([per_match.assign(scope="match"), overall], ignore_index=True)
    return _rates(out)


def _player_counts(path: str, side: int, games: pd.DataFrame, rolls: pd.DataFrame) -> dict[str, Any]:
    name = games[f"player{side}"].iloc[0]
    won = games["winner"] == side
    lost = games["winner"] == 1 - side
    marsy = games["result_kind"].isin(["mars", "backgammon"])
    mine = rolls[rolls["player"] == side]
    theirs = rolls[rolls["player"] == 1 - side]
    points = games["points"].fillna(0)
    luck_points = _total(mine["luck"] * mine["cube"].astype("float64"))
    opp_luck_points = _total(theirs["luck"] * theirs["cube"].astype("float64"))
    result = float(points[won].sum() - points[lost].sum())
    return {
        "match": games["match"].iloc[0], "path": path, "player": name, "side": side, "games": len(games),
        "wins": int(won.sum()), "losses": int(lost.sum()),
        "mars_for": int((won & marsy).sum()), "mars_against": int((lost & marsy).sum()),
        "points_for": int(points[won].sum()), "points_against": int(points[lost].sum()), "result": result,
        "rolls": int(mine["die1"].notna().sum()), "judged_rolls": int(mine["luck"].notna().sum()),
        "hits": int(mine["hits"].sum()), "dances": int(mine["dance"].fillna(False).sum()),
        "closed_boards": int(mine["closed_board"].fillna(False).sum()),
        "luck": _total(mine["luck"]), "opp_luck": _total(theirs["luck"]),
        "luck_adjusted": result - float(luck_points - opp_luck_points),
        "very_lucky": int((mine["luck_mark"] == "very lucky").sum()),
        "lucky": int((mine["luck_mark"] == "lucky").sum()),
        "unlucky": int((mine["luck_mark"] == "unlucky").sum()),
        "very_unlucky": int((mine["luck_mark"] == "very unlucky").sum()),
        "unforced": int((mine["choices"] > 1).sum()), "error": _total(mine["error"]),
    }


def _total(values: pd.Series) -> float:
    """The sum, or NaN when there is no value (luck not computed)."""
    return float(values.sum()) if values.notna().any() else math.nan


def _rates(frame: pd.DataFrame) -> pd.DataFrame:
    frame["net_luck"] = frame["luck"] - frame["opp_luck"]
    rolls = frame["judged_rolls"].where(frame["judged_rolls"] > 0)
    frame["luck_per_roll"] = frame["luck"] / rolls
    frame["luck_rating"] = frame["luck_per_roll"].map(lambda r: None if pd.isna(r) else luck_rating(r))
    frame["error_rate"] = frame["error"] / frame["unforced"].where(frame["unforced"] > 0)
    first = ["scope", "match", "player", "side", "path"]
    return frame[first + [c for c in frame.columns if c not in first]]


def to_parquet(matches: Matches, folder: str | Path, rules: Rules | None = None, luck: bool = True,
               batch: int = 50, progress: Callable[[int], None] | None = None) -> tuple[Path, Path]:
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
            table = pa.Table.from_pandas(_frame(buffers[i], columns[i]), preserve_index=False)
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
    "Analysis", "GAME_COLUMNS", "PLAY_COLUMNS", "analyse", "game_row", "games_frame", "players_frame",
    "plays_frame", "to_parquet",
]
