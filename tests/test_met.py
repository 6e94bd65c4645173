"""Match equity tables against Debian gnubg 1.07's own printed tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gnubg_jobs import run_gnubg

from tavlakit.evaluation.met import MAXSCORE, default_met, load_met

GNUBG_METS = Path("/usr/share/gnubg/met")


def gnubg_tables(
    gnubg_bin: Path, tmp_path: Path, met: Path | None = None
) -> tuple[str, list[list[float]], list[list[float]]]:
    """gnubg's ``show matchequitytable 64``: the table's name, the
    pre-Crawford rows and the two post-Crawford rows (in MWC, not %)."""
    script = tmp_path / "met.py"
    load = f"gnubg.command('set matchequitytable \"{met}\"')\n" if met else ""
    script.write_text(f"import gnubg\n{load}gnubg.command('show matchequitytable {MAXSCORE}')\n")
    out = run_gnubg(gnubg_bin, script, tmp_path, timeout=120, check=True).stdout
    name = re.search(r"^Match equity table: (.*)$", out, re.M)
    assert name, out[-2000:]
    pre: list[list[float]] = []
    post: list[list[float]] = []
    section = pre
    for line in out.splitlines():
        if line.startswith("Post-Crawford table"):
            section = post
        found = re.match(r"\s+\d+-away((?:\s+[\d.]+)+)\s*$", line)
        if found:
            section.append([float(v) / 100 for v in found.group(1).split()])
    return name.group(1), pre, post


def test_default_is_gnubgs_default(gnubg_bin: Path, tmp_path: Path) -> None:
    name, pre, post = gnubg_tables(gnubg_bin, tmp_path)
    met = default_met()
    assert met.name == name == "Kazaross XG2 25 point MET"
    assert len(pre) == MAXSCORE and len(post) == 2
    worst = max(abs(met.away(i + 1, j + 1) - pre[i][j]) for i in range(MAXSCORE) for j in range(MAXSCORE))
    assert worst < 1e-6  # gnubg prints 4 decimals of a percentage; the extension beyond 25 included
    for player in (0, 1):
        # gnubg prints the post-Crawford MWC of that player trailing i+1 away
        assert max(abs(met.post[player][i] - post[player][i]) for i in range(MAXSCORE)) < 1e-6


@pytest.mark.parametrize("name", ["woolsey.xml", "jacobs.xml"])
def test_other_tables_read_as_gnubg_reads_them(gnubg_bin: Path, tmp_path: Path, name: str) -> None:
    if not (GNUBG_METS / name).exists():
        pytest.skip(f"gnubg's {name} is not installed")
    title, pre, post = gnubg_tables(gnubg_bin, tmp_path, GNUBG_METS / name)
    met = load_met(GNUBG_METS / name)
    assert met.name == title
    assert max(abs(met.away(i + 1, j + 1) - pre[i][j]) for i in range(MAXSCORE) for j in range(MAXSCORE)) < 1e-6
    assert max(abs(met.post[0][i] - post[0][i]) for i in range(MAXSCORE)) < 1e-6


def test_lookups_at_a_score() -> None:
    met = default_met()
    # 7-point match at 4-5: player 0 is 3-away, player 1 2-away
    assert met.at_score((4, 5), 7, crawford=False) == pytest.approx(0.40053)
    # player 1 wins a gammon at 4-5 (cube 1): match over
    assert met.after((4, 5), 7, crawford=False, winner=1, points=2) == 0.0
    # player 0 wins 2 at 4-5: 6-5, player 0 1-away in the Crawford game (pre-Crawford table, 1-away row)
    assert met.after((4, 5), 7, crawford=False, winner=0, points=2) == pytest.approx(0.67736)
    # in the Crawford game at 6-5 player 1 wins 1: 6-6, post-Crawford 1-away/1-away
    assert met.after((6, 5), 7, crawford=True, winner=1, points=1) == pytest.approx(0.5)
    # after the Crawford game, at 6-3: the trailer (player 1) 4-away
    assert met.at_score((6, 3), 7, crawford=False) == pytest.approx(1 - 0.31002)
    assert met.at_score((6, 3), 7, crawford=True) == pytest.approx(met.away(1, 4))
    with pytest.raises(ValueError, match="beyond"):
        met.away(65, 1)


def test_bad_tables_are_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text("<met><info><name>x</name></info><pre-crawford-table><row><me>0.5</me>")
    with pytest.raises(ValueError, match=r"bad\.xml: not a match equity table"):
        load_met(bad)
    bad.write_text("<met><pre-crawford-table type='zadeh'><parameters/></pre-crawford-table></met>")
    with pytest.raises(ValueError, match="only explicit tables"):
        load_met(bad)
    with pytest.raises(ValueError, match=r"missing\.xml"):
        load_met(tmp_path / "missing.xml")


def test_default_table_is_package_data() -> None:
    """Shipped inside the package (wheels include tavlakit/evaluation/met/)."""
    import tavlakit

    assert (Path(tavlakit.__file__).parent / "evaluation" / "met" / "Kazaross-XG2.xml").is_file()
