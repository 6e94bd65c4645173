"""Money sessions and the Jacoby rule.

GNU Backgammon 1.07 plays and analyses money sessions with the Jacoby rule
unless told otherwise, and its ``.mat`` export does not say which rule a
session was played by. tavlakit reads the rule from the record, follows the
results where they show it (an undoubled gammon written as worth 2: no
Jacoby), else assumes gnubg's default (on, money only): gnubg's money
sessions played with and without the rule, analysed by gnubg at 0 ply, are
judged alike by tavlakit with no option given (``show statistics match``,
as gnubg prints it, is the reference).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.analysis.statistics import statistics_frame
from tavlakit.cli import app
from tavlakit.formats.mat import read_mat
from tavlakit.replay.jacoby import gammon_counted, jacoby_of
from tavlakit.replay.walker import validate

#: (name, seed, games, played with the Jacoby rule); the seeds of the sessions without it were
#: chosen where an undoubled gammon was won (its 2 points show the rule to a reader of the file)
SESSIONS = [
    ["jacoby-101", 101, 10, True],
    ["jacoby-909", 909, 10, True],
    ["plain-404", 404, 10, False],
    ["plain-505", 505, 10, False],
]
FIGURE = re.compile(r"^(Error total EMG|Luck total EMG) \(Points\)\s+(-?[\d.+]+)\s*\([^)]*\)\s+(-?[\d.+]+)")


def gnubg_figures(printed: str) -> dict[str, dict[str, float]]:
    """Per player name: the checker error, luck and cube error totals (EMG,
    errors as equity lost) of gnubg's printed ``show statistics match``."""
    names = printed.split("Player", 1)[1].splitlines()[0].split()
    found: dict[str, list[tuple[float, float]]] = {}
    section = ""
    for line in printed.splitlines():
        if line.endswith("statistics") and not line.startswith(" "):
            section = line.split()[0]
        match = FIGURE.match(line)
        if match and section in ("Chequerplay", "Luck", "Cube"):
            found[section] = [float(match[2].replace("+", "")), float(match[3].replace("+", ""))]
    return {
        name: {"checker": -found["Chequerplay"][i], "luck": found["Luck"][i], "cube": -found["Cube"][i]}
        for i, name in enumerate(names[:2])
    }


@pytest.fixture(scope="module")
def sessions(gnubg_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    from gnubg_money import gnubg_money

    return gnubg_money(gnubg_bin, SESSIONS, tmp_path_factory.mktemp("money"))


def test_gnubgs_sessions_with_and_without_jacoby_as_gnubg_judges_them(sessions) -> None:
    """Luck, checker and cube error within max(0.05, 5%) of gnubg's for at
    least 95% of the figures, each session read with no option given."""
    close, figures, said = 0, 0, []
    for name, _seed, _games, jacoby in SESSIONS:
        path, printed = sessions[name]
        match = tk.read_match(path)
        assert "Jacoby" not in match.tags  # gnubg's export does not say it
        assert jacoby_of(match) == (True, "gnubg") if jacoby else (False, "results")
        frame = statistics_frame([match], level="expert")
        rows = frame[frame["scope"] == "match"]
        assert set(rows["jacoby"]) == {jacoby}
        for player, theirs in gnubg_figures(printed).items():
            row = rows[rows["player"] == player].iloc[0]
            ours = {"checker": row["checker_error_emg"], "luck": row["luck_emg"], "cube": row["cube_error_emg"]}
            for key, value in theirs.items():
                figures += 1
                ok = abs(ours[key] - value) <= max(0.05, 0.05 * abs(value))
                close += ok
                said.append(f"{name} {player} {key}: ours {ours[key]:.3f}, gnubg {value:.3f}{'' if ok else '  <--'}")
    assert close >= 0.95 * figures, "\n".join(said)


def test_the_footer_and_the_frames_say_which_rule(sessions) -> None:
    paths = {name: sessions[name][0] for name, *_rest in SESSIONS}
    result = CliRunner().invoke(
        app, ["stats", "--by", "match", "--level", "expert", str(paths["jacoby-101"]), str(paths["plain-404"])]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "Money sessions: with the Jacoby rule, gnubg's default: the record does not say (1 file(s))" in lines
    assert any(line.startswith("Money sessions: without the Jacoby rule, as its results show") for line in lines)
    games = tk.analysis.analyse([paths["jacoby-101"], paths["plain-404"]], luck=False).games
    by_file = games.groupby("path")[["jacoby", "jacoby_from"]].first()
    assert by_file.loc[str(paths["jacoby-101"])].tolist() == [True, "gnubg"]
    assert by_file.loc[str(paths["plain-404"])].tolist() == [False, "results"]
    matches = tk.analysis.analyse(Path(__file__).parent / "data" / "stats" / "match-3p-31.mat", luck=False).games
    assert matches["jacoby"].isna().all()  # a match never plays it


def _rewritten(path: Path, points: int, tmp_path: Path) -> tuple[Path, int]:
    """The session with its undoubled gammon (gnubg's 2 points) written as
    worth ``points``, the later score lines following; and that result's line."""
    match = tk.read_match(path)
    [index] = [i for i, game in enumerate(match.games) if gammon_counted(game)]
    game = match.games[index]
    assert game.result is not None
    change = points - game.result.points
    game.result = replace(game.result, points=points)
    for later in match.games[index + 1 :]:
        score = list(later.score)
        score[game.result.winner] += change
        later.score = (score[0], score[1])
    out = tmp_path / f"{path.stem}-{points}.mat"
    tk.write_match(match, out, "mat")
    line = tk.read_match(out).games[index].result.line  # type: ignore[union-attr]
    return out, line or 0


def test_the_validator_follows_the_sessions_rule(sessions, tmp_path: Path) -> None:
    """gnubg's sessions with and without the rule are valid as they are,
    read whole or game by game (``tavlakit validate`` streams them). An
    undoubled gammon written as worth 1 in an untagged session is the Jacoby
    rule, not an error; one written as worth 3 (no backgammon) fits neither."""
    for name, *_rest in SESSIONS:
        path = sessions[name][0]
        assert validate(tk.read_match(path)).errors == [], name
        result = CliRunner().invoke(app, ["validate", str(path)])
        assert result.exit_code == 0 and " 0 error(s)" in result.output, result.output
    plain = sessions["plain-404"][0]
    jacoby, _line = _rewritten(plain, 1, tmp_path)
    assert jacoby_of(tk.read_match(jacoby)) == (True, "gnubg")  # nothing counted a gammon at cube 1 now
    assert validate(tk.read_match(jacoby)).errors == []
    result = CliRunner().invoke(app, ["validate", str(jacoby)])
    assert result.exit_code == 0, result.output
    wrong, line = _rewritten(plain, 3, tmp_path)
    for found in (validate(tk.read_match(wrong)).errors, _streamed_errors(wrong)):
        assert [(p.code, p.line) for p in found] == [("result-mismatch", line)], [str(p) for p in found]
    # and gnubg's own rule, told: the gammon counted single is wrong where the record says no Jacoby
    told = tmp_path / "told.mat"
    told.write_text('; [Jacoby "Off"]\n' + jacoby.read_text(encoding="utf-8"), encoding="utf-8")
    assert [p.code for p in validate(tk.read_match(told)).errors] == ["result-mismatch"]


def _streamed_errors(path: Path) -> list:
    """The errors of ``tavlakit validate --json`` (which reads the file game by game)."""
    import json

    result = CliRunner().invoke(app, ["validate", "--json", str(path)])
    rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    return [
        tk.Problem(**{k: v for k, v in row.items() if k != "expected"})
        for row in rows
        if row.get("severity") == "error"
    ]


def test_the_records_word_comes_first(tmp_path: Path) -> None:
    """A Jacoby tag says it (gnubg's SGF: RU[Jacoby], or none in a money game it wrote)."""
    text = (Path(__file__).parent / "data" / "stats" / "money-cube-15.mat").read_text(encoding="utf-8")
    assert jacoby_of(read_mat(text)) == (False, "record")
    untagged = "\n".join(line for line in text.split("\n") if "Jacoby" not in line)
    assert jacoby_of(read_mat(untagged))[1] in ("gnubg", "results")
    assert jacoby_of(read_mat('; [Jacoby "On"]\n' + untagged)) == (True, "record")
    sgf = "(;FF[4]GM[6]AP[GNU Backgammon:1.07.001]MI[length:0][game:0][ws:0][bs:0]PW[a]PB[b]RE[W+1];W[31gfec])"
    assert jacoby_of(_sgf(sgf)) == (False, "record")
    assert jacoby_of(_sgf(sgf.replace("RE[W+1]", "RU[Jacoby]RE[W+1]"))) == (True, "record")
    assert jacoby_of(_sgf(sgf.replace("GNU Backgammon:1.07.001", "someone else"))) == (True, "gnubg")


def _sgf(text: str) -> tk.Match:
    from tavlakit.formats.sgf import read_sgf

    return read_sgf(text)
