"""tk.read_matches on a folder, a glob, one path or many; read_match on a
folder; files of other kinds in a folder are listed, never passed over."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import tavlakit as tk
from tavlakit.formats import find_records
from tavlakit.record.problem import ProblemError

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """Two records in a folder tree, with a .bgf (BGBlitz, not read), two .png and a README.md beside them."""
    (tmp_path / "sub").mkdir()
    shutil.copy(SAMPLES / "tavla-t000.mat", tmp_path / "a.mat")
    shutil.copy(SAMPLES / "charlot1-charlot2_7p_2025-11-08-2305.sgf", tmp_path / "sub" / "b.sgf")
    (tmp_path / "sub" / "c.bgf").write_bytes(b"BGF\x00")
    (tmp_path / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "sub" / "y.PNG").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "README.md").write_text("notes\n", encoding="utf-8")
    return tmp_path


def test_a_folder_is_read_record_by_record(folder: Path) -> None:
    matches = tk.read_matches(str(folder))
    read = list(matches)
    assert [Path(m.source or "").name for m in read] == ["a.mat", "b.sgf"]
    assert [len(m.games) for m in read] == [6, 4]
    assert all(not any(p.code == "unreadable" for p in m.problems) for m in read)


def test_other_kinds_are_one_info_line(folder: Path) -> None:
    [note] = tk.read_matches(folder).problems
    assert (note.code, note.severity, note.file) == ("not-a-record", "info", str(folder))
    assert "4 file(s)" in note.message
    assert "2 .png, 1 .bgf, 1 .md" in note.message


def test_a_glob_and_one_path_and_many(folder: Path) -> None:
    assert [Path(m.source or "").name for m in tk.read_matches(str(folder / "**" / "*.sgf"))] == ["b.sgf"]
    assert [len(m.games) for m in tk.read_matches(folder / "a.mat")] == [6]
    both = tk.read_matches([folder / "a.mat", str(folder / "sub" / "b.sgf")])
    assert [len(m.games) for m in both] == [6, 4]


def test_a_string_is_not_read_character_by_character(folder: Path) -> None:
    """Before: a string was iterated, one 'unreadable' match per character."""
    assert len(list(tk.read_matches(str(folder / "a.mat")))) == 1


def test_a_missing_path_or_empty_glob_is_one_unreadable_match(tmp_path: Path) -> None:
    for name in ("missing.mat", "none-*.mat"):
        [match] = tk.read_matches(str(tmp_path / name))
        assert [p.code for p in match.problems] == ["unreadable"]


def test_read_match_on_a_folder_is_a_clear_error(folder: Path) -> None:
    """Before: a bare IsADirectoryError."""
    with pytest.raises(ProblemError) as caught:
        tk.read_match(folder)
    assert caught.value.problem.file == str(folder) and str(folder) in str(caught.value)
    assert isinstance(caught.value, ValueError) and "read_matches" in str(caught.value)


def test_find_records_keeps_named_files_of_any_kind(folder: Path) -> None:
    files = find_records([folder / "x.png", folder / "sub"])
    assert [p.name for p in files] == ["x.png", "b.sgf"]
    [note] = files.problems
    assert note.file == str(folder / "sub") and "1 .bgf, 1 .png" in note.message.lower()


def test_whole_file_readers_close_the_files_they_open(tmp_path: Path) -> None:
    import gc
    import warnings

    from tavlakit.formats.jsonfmt import read_json
    from tavlakit.formats.mat import read_mat
    from tavlakit.formats.sgf import read_sgf

    json_file = tmp_path / "t.json"
    tk.write_match(tk.read_match(SAMPLES / "tavla-t000.mat"), json_file)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        games = [
            len(read_mat(SAMPLES / "tavla-t000.mat").games),
            len(read_json(json_file).games),
            len(read_sgf(SAMPLES / "charlot1-charlot2_7p_2025-11-08-2305.sgf").games),
        ]
        gc.collect()
    assert games == [6, 6, 4]
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]
