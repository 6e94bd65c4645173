"""The command line as a user types it (Typer's runner, and one real process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import tavlakit as tk
from tavlakit.cli import app

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
GNUBG_MAT = REPO / "tests" / "data" / "gnubg" / "selfplay-5p-2.mat"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_validate_samples_clean() -> None:
    result = run("validate", SAMPLES)
    assert result.exit_code == 0, result.output
    assert "0 error(s)" in result.output.splitlines()[-1]


def _illegal_row_3(tmp_path: Path) -> tuple[Path, int, str]:
    """gnubg's export with row 3's left cell playing from points it does not
    hold, the game ended there by resignation. Returns the file, the 0-based
    line and the row's text."""
    lines = GNUBG_MAT.read_text(encoding="utf-8").split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("  3) "))
    lines[row] = lines[row][:5] + "32: 10/7 10/8"
    del lines[row + 1 :]
    lines.append("      Wins 1 point")
    bad = tmp_path / "bad.mat"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return bad, row, lines[row]


def test_validate_reports_location_row_and_caret(tmp_path: Path) -> None:
    bad, row, text = _illegal_row_3(tmp_path)
    result = run("validate", bad)
    assert result.exit_code == 1
    out = result.output.splitlines()
    first = next(i for i, line in enumerate(out) if ": error " in line)
    assert out[first].startswith(f"{bad}:{row + 1}:6: error illegal-play:")
    assert out[first + 1].strip() == text.strip()
    assert out[first + 2] == "    " + " " * 5 + "^"
    assert out[-1].endswith("[illegal-play 1]") or "illegal-play 1" in out[-1]


def test_validate_json_lines(tmp_path: Path) -> None:
    text = GNUBG_MAT.read_text(encoding="utf-8").replace("Wins 2 points", "Wins 7 points", 1)
    assert text != GNUBG_MAT.read_text(encoding="utf-8")
    bad = tmp_path / "bad.mat"
    bad.write_text(text, encoding="utf-8")
    result = run("validate", "--json", bad)
    assert result.exit_code == 1
    records = [json.loads(line) for line in result.output.splitlines()]
    problems, summary = records[:-1], records[-1]["summary"]
    assert problems and all(
        set(p) == {"file", "line", "column", "game", "move", "player", "code", "severity", "message", "position_id"}
        for p in problems
    )
    assert any(p["code"] in ("result-mismatch", "absurd-points") for p in problems)
    assert summary["files"] == 1 and summary["errors"] >= 1


def test_validate_strict_stops_early(tmp_path: Path) -> None:
    text = GNUBG_MAT.read_text(encoding="utf-8")
    bad = tmp_path / "bad.mat"
    bad.write_text(text.replace("Wins", "Wins 9", 1).replace("Wins 9 1", "Wins 9", 1), encoding="utf-8")
    result = run("validate", "--strict", "--json", bad)
    assert result.exit_code == 1
    assert len(result.output.splitlines()) == 2  # the first error, then the summary


def test_validate_strict_says_how_far_it_checked(tmp_path: Path) -> None:
    """--strict stops at the first error: the summary counts the games and
    plays checked up to it, and the error does not say how the game goes on."""
    bad, row, _text = _illegal_row_3(tmp_path)
    match = tk.read_match(GNUBG_MAT)
    # the rolls up to the one at fault (row 3's left cell, column 6), that one included
    first = [t for t in match.games[0].turns if t.kind == "roll" and (t.line or 0, t.column or 0) <= (row + 1, 6)]
    for args in (("--json",), ()):
        result = run("validate", "--strict", *args, bad)
        assert result.exit_code == 1, result.output
        if args:
            problem, summary = (json.loads(line) for line in result.output.splitlines())
            assert problem["code"] == "illegal-play" and problem["line"] == row + 1
            assert "goes on" not in problem["message"] and "applied" not in problem["message"]
            assert (summary["summary"]["games"], summary["summary"]["plays"]) == (1, len(first))
        else:
            assert result.output.splitlines()[-1].startswith(f"1 file(s), 1 game(s), {len(first)} play(s): 1 error(s)")
            assert "--strict" in result.output.splitlines()[-1]


def test_validate_unreadable_file_exit_2(tmp_path: Path) -> None:
    result = run("validate", tmp_path / "missing.mat")
    assert result.exit_code == 2
    assert "unreadable" in result.output
    assert "Traceback" not in result.output


def test_validate_bad_rules_exit_2() -> None:
    result = run("validate", "--rules", "chess", SAMPLES)
    assert result.exit_code == 2
    assert "unknown rules 'chess'" in result.output


def test_validate_binary_junk_no_traceback(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mat"
    junk.write_bytes(bytes(range(256)) * 40)
    result = run("validate", junk)
    assert result.exit_code in (1, 2)
    assert "Traceback" not in result.output
    assert str(junk) in result.output


def test_show_board(tmp_path: Path) -> None:
    bad, _, _ = _illegal_row_3(tmp_path)
    result = run("validate", "--show-board", bad)
    assert "+13-14-15-16-17-18" in result.output
    assert "Position ID:" in result.output


def test_moves_command_lists_gnubg_opening_plays() -> None:
    result = run("moves", "4HPwATDgc/ABMA", "3", "1")
    assert result.exit_code == 0
    plays = result.output.split("\n")
    assert "8/5 6/5" in plays
    assert len([p for p in plays if p]) == 16


def test_bad_position_id_is_a_clear_error() -> None:
    result = run("board", "not-an-id!")
    assert result.exit_code == 2
    assert "Position ID" in result.output


def test_convert_needs_force_for_invalid(tmp_path: Path) -> None:
    text = GNUBG_MAT.read_text(encoding="utf-8").replace("Wins 2 points", "Wins 7 points", 1)
    bad = tmp_path / "bad.mat"
    bad.write_text(text, encoding="utf-8")
    out = tmp_path / "out.mat"
    result = run("convert", bad, "-o", out)
    assert result.exit_code == 1 and not out.exists()
    result = run("convert", bad, "-o", out, "--force")
    assert result.exit_code == 0 and out.exists()


def test_console_script_runs() -> None:
    """The installed entry point, in a real process."""
    proc = subprocess.run(
        [sys.executable, "-m", "tavlakit", "validate", "--quiet", str(SAMPLES)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "0 error(s)" in proc.stdout


def test_convert_many_inputs_with_one_name(tmp_path: Path) -> None:
    """Two inputs called alike must not overwrite each other's output."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "m.mat").write_text(GNUBG_MAT.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    result = run("convert", tmp_path / "a" / "m.mat", tmp_path / "b" / "m.mat", "-o", out, "--to", "json")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["b-m.json", "m.json"]


def test_convert_output_name_that_cannot_hold_it_is_a_usage_error(tmp_path: Path) -> None:
    """Before: two inputs with -o two.sgf made a folder named two.sgf of
    .mat files; --to sgf -o x.mat wrote SGF into a file named .mat."""
    two = tmp_path / "two.sgf"
    result = run("convert", GNUBG_MAT, SAMPLES / "tavla-t000.mat", "-o", two)
    assert result.exit_code == 2 and not two.exists(), result.output
    assert "folder" in result.output and "Traceback" not in result.output
    named = tmp_path / "x.mat"
    result = run("convert", GNUBG_MAT, "--to", "sgf", "-o", named)
    assert result.exit_code == 2 and not named.exists(), result.output
    assert "--to sgf" in result.output and ".mat" in result.output
    existing = tmp_path / "afile"
    existing.write_text("keep me", encoding="utf-8")
    result = run("convert", GNUBG_MAT, SAMPLES / "tavla-t000.mat", "-o", existing, "--to", "json")
    assert result.exit_code == 2 and existing.read_text(encoding="utf-8") == "keep me", result.output
    assert ("Traceback" not in result.output and result.exception is None) or isinstance(result.exception, SystemExit)


def test_convert_takes_the_format_from_the_output_name(tmp_path: Path) -> None:
    for name, fmt in (("x.sgf", "sgf"), ("x.json", "json"), ("x.txt", "mat")):
        result = run("convert", GNUBG_MAT, "-o", tmp_path / name)
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[-1] == f"1 of 1 file(s) converted to {fmt}"
        assert tk.read_match(tmp_path / name).games == tk.read_match(GNUBG_MAT).games
    result = run("convert", GNUBG_MAT, "--to", "mat", "-o", tmp_path / "y.txt")  # .txt holds a .mat transcript
    assert result.exit_code == 0, result.output
    result = run("convert", GNUBG_MAT, "--to", "json", "-o", tmp_path / "plain")  # no extension: no contradiction
    assert result.exit_code == 0 and tk.read_match(tmp_path / "plain").games, result.output


def test_convert_never_writes_what_it_could_not_read(tmp_path: Path, corpus_dir: Path) -> None:
    """Before: --force wrote 0-byte .sgf files for binary, empty and notes
    files and said every file was converted; other kinds went unmentioned."""
    src = tmp_path / "in"
    src.mkdir()
    (src / "good.mat").write_text(GNUBG_MAT.read_text(encoding="utf-8"), encoding="utf-8")
    (src / "binary.mat").write_bytes(bytes(range(256)) * 4)
    (src / "empty.mat").write_bytes(b"")
    for odd in (
        "xgparser/01_checkerPosition_EN.txt",
        "bglab/BoardLord - Llabba 7pt Backgammon Studio 2023_08_09 18_11_07.txt",
        "tavla/t000.json",
        "bgammon/REPLAY.md",
        "gnu_gibbon/7point.gmd",
        "gnu_gibbon/7point.match",
    ):
        (src / Path(odd).name).write_bytes((corpus_dir / odd).read_bytes())
    out = tmp_path / "out"
    result = run("convert", src, "-o", out, "--to", "sgf", "--force")
    assert result.exit_code == 2, result.output  # inputs nothing could be read from: as validate
    assert sorted(p.name for p in out.iterdir()) == ["7point.sgf", "good.sgf"]  # Gibbon's .gmd is a record
    assert result.output.splitlines()[-1] == "2 of 5 file(s) converted to sgf"
    assert sum("not converted (nothing could be read from it)" in line for line in result.output.splitlines()) == 3
    [note] = [line for line in result.output.splitlines() if "not-a-record" in line]
    assert note.startswith(f"{src}: info not-a-record: 2 file(s)") and "1 .match, 1 .md" in note
    positions = [line for line in result.output.splitlines() if "info position" in line]
    assert [line.split(":")[0] for line in positions] == [
        str(src / "01_checkerPosition_EN.txt"),
        str(src / "BoardLord - Llabba 7pt Backgammon Studio 2023_08_09 18_11_07.txt"),
    ]


def test_convert_refuses_an_option_the_format_does_not_take(tmp_path: Path) -> None:
    """Before: --numbering was ignored for SGF output."""
    out = tmp_path / "x.sgf"
    result = run("convert", GNUBG_MAT, "-o", out, "--numbering", "absolute")
    assert result.exit_code == 2 and not out.exists()
    assert result.output.strip() == "error: the sgf format takes no option 'numbering' (it takes none)"
    result = run("convert", GNUBG_MAT, "-o", tmp_path / "x.mat", "--numbering", "absolute")
    assert result.exit_code == 0, result.output
    assert '; [Numbering "absolute"]' in (tmp_path / "x.mat").read_text(encoding="utf-8")
