"""gnubg's own analysis in its SGF files (``A``, ``LU``, ``DA``) as the turns' recorded analysis."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import pytest
from gnubg_sgf import gnubg_sgf

import tavlakit as tk
from tavlakit import Rules
from tavlakit.analysis.statistics import statistics_frame
from tavlakit.formats.jsonfmt import read_json, write_json
from tavlakit.formats.mat import write_mat
from tavlakit.formats.sgf import read_sgf, write_sgf
from tavlakit.pictures.viewer import html, page_data

STATS = Path(__file__).parent / "data" / "stats"
#: gnubg's reference records (tests/data/stats/README.md) and whether the cube was in use.
RECORDS = {
    name: "nocube" not in name
    for name in ("match-3p-31", "match-5p-52", "match-7p-73", "match-9p-94", "money-cube-15", "money-nocube-16")
}


@pytest.fixture(scope="module")
def analysed_by_gnubg(gnubg_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The reference records, analysed again by gnubg 1.07 and saved as its SGF."""
    work = tmp_path_factory.mktemp("gnubg-sgf")
    jobs = [[str(STATS / f"{name}.mat"), str(work / f"{name}.sgf"), cube] for name, cube in RECORDS.items()]
    return dict(zip(RECORDS, map(Path, gnubg_sgf(gnubg_bin, jobs, work))))


@pytest.fixture(scope="module")
def xg_dir(corpus_dir: Path) -> Path:
    return corpus_dir / "xg"


def test_each_analysed_play_has_gnubgs_error_and_luck(xg_dir: Path) -> None:
    match = read_sgf(xg_dir / "test.sgf")
    rolls = [t for g in match.games for t in g.turns if t.kind == "roll"]
    assert rolls and all(t.analysis is not None and t.analysis.program == "gnubg" for t in rolls)
    # by hand from test.sgf: Maxence Job's 41 played lppq, the third of gnubg's plays:
    # A[2][aeqr ... -0.229428 ...][aers ... -0.263944 ...][lppq ... -0.409815 ...] LU[-0.00222]
    found = [t for t in rolls if t.analysis and t.analysis.luck == -0.00222 and t.dice == (4, 1)]
    assert len(found) == 1 and found[0].player == 1
    assert found[0].analysis.error == pytest.approx(-0.229428 + 0.409815, abs=1e-9)
    assert all(t.analysis.error >= 0 for t in rolls if t.analysis and t.analysis.error is not None)
    # by hand: the first double, Kévin Unger's, and Maxence Job's drop:
    # ;W[double]DA[E ver 3 2C 1 0.000000 1 0.883969 0.128146 0.002942 0 0 0.901881 0.562528 ... 0.609616]
    cube = [t for g in match.games for t in g.turns if t.kind != "roll"]
    double, drop = cube[:2]
    assert (double.kind, double.player, drop.kind) == ("double", 0, "drop")
    for turn in (double, drop):
        nd, dt = turn.analysis.candidates
        assert (nd.action, nd.equity, dt.action, dt.equity) == ("no double", 0.562528, "double/take", 0.609616)
        assert nd.probabilities == (0.883969, 0.128146, 0.002942, 0.0, 0.0) and nd.level == "2-ply"
    before = [t for t in rolls if t.analysis and t.analysis.cube_options]
    assert len(before) > 100 and all(len(t.analysis.cube_options) == 2 for t in before)


def test_gnubgs_totals_beside_xgs_and_ours(xg_dir: Path) -> None:
    """The same match analysed by gnubg (the SGF), XG (the .xg) and tavlakit
    (0 ply): the checker errors are one story (XG's own file against gnubg's:
    within 10%)."""
    sgf = statistics_frame([tk.read_match(xg_dir / "test.sgf")], level="expert")
    xg = statistics_frame([tk.read_match(xg_dir / "test.xg")], level="expert")
    for side in (0, 1):
        g, x = (f[(f["scope"] == "match") & (f["side"] == side)].iloc[0] for f in (sgf, xg))
        assert g["recorded_by"] == "gnubg" and x["recorded_by"] == "XG"
        assert g["recorded_checker_error"] == pytest.approx(x["recorded_checker_error"], rel=0.1)
        assert g["checker_error_emg"] == pytest.approx(g["recorded_checker_error"], rel=0.15)
        assert g["luck_emg"] == pytest.approx(g["recorded_luck"], rel=0.05)  # both gnubg's luck at 0 ply


def test_gnubgs_recorded_totals_are_its_own_statistics(analysed_by_gnubg: dict[str, Path]) -> None:
    """gnubg analyses the six reference records and saves them: what its SGF
    keeps (the plays' scores, the luck, and the cube options, turned into
    errors at each game's score and cube) adds up, per player, to gnubg's own
    statistics of the same analysis (``gnubg.match(statistics=1)`` in the
    same run; the statistics saved when the records were made are not the
    same analysis: on some machines gnubg's analysis of the imported .mat
    gives match-3p-31's X 2.4555 EMG of checker error, where the saved
    self-play analysis says 2.4538)."""
    for name, cube in RECORDS.items():
        rules = Rules.preset("backgammon").replace(cube=cube)
        sgf = analysed_by_gnubg[name]
        frame = statistics_frame([tk.read_match(sgf)], rules, level="expert")
        theirs = json.loads(Path(f"{sgf}.stats.json").read_text(encoding="utf-8"))
        for side, column in ((0, "X"), (1, "O")):
            row = frame[(frame["scope"] == "match") & (frame["side"] == side)].iloc[0]
            stats = theirs[column]
            assert row["recorded_by"] == "gnubg"
            assert row["recorded_checker_error"] == pytest.approx(stats["moves"]["error-skill"], abs=1e-3), name
            assert row["recorded_luck"] == pytest.approx(stats["dice"]["luck"], abs=1e-3), name
            errors = sum(v for k, v in stats["cube"].items() if k.startswith("err-") and k.endswith("-skill"))
            if cube:
                assert errors > 0.05 and row["recorded_cube_error"] == pytest.approx(errors, abs=1e-3), name
            else:
                assert math.isnan(row["recorded_cube_error"])  # no cube: gnubg wrote no cube analysis


def test_gnubgs_cube_options_survive_json(analysed_by_gnubg: dict[str, Path]) -> None:
    match = read_sgf(analysed_by_gnubg["match-5p-52"])
    out = io.StringIO()
    write_json(match, out)
    again = read_json(out.getvalue())
    first = [t.analysis for g in match.games for t in g.turns]
    assert any(a and a.cube_options for a in first) and any(a and a.candidates for a in first)
    assert first == [t.analysis for g in again.games for t in g.turns]


def test_gnubgs_analysis_is_written_back_not_lost(xg_dir: Path) -> None:
    match = read_sgf(xg_dir / "test.sgf")
    out = io.StringIO()
    notes = write_sgf(match, out)
    assert not any("analysis" in n.message for n in notes)
    again = read_sgf(out.getvalue())
    first = [t.analysis for g in match.games for t in g.turns]
    assert first == [t.analysis for g in again.games for t in g.turns]
    notes = write_mat(match, io.StringIO())
    assert any("analysis" in n.message for n in notes)  # a .mat has no room for it: said


def test_the_viewer_shows_gnubgs_cube_options(analysed_by_gnubg: dict[str, Path]) -> None:
    """At gnubg's first double of a match, the page shows the cubeful no
    double and double/take equities of the file's ``DA`` (MWC)."""
    path = analysed_by_gnubg["match-5p-52"]
    written = re.search(r";[BW]\[double\]DA\[([^\]]*)\]", path.read_text(encoding="utf-8"))
    assert written is not None
    numbers = written.group(1).split()[-14:]
    expected = f"gnubg: no double {float(numbers[6]):.3f}, double/take {float(numbers[13]):.3f} MWC"
    data = page_data(html(read_sgf(path)))
    shown = [f.get("a", "") for g in data["games"] for f in g["frames"] if "Doubles" in f["t"]]
    assert shown and shown[0].startswith(expected)
