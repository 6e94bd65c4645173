"""Binary data is one error, whatever the reader and however it is read."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavlakit.cli import app
from tavlakit.formats import read_match, read_matches
from tavlakit.formats.jsonfmt import read_json
from tavlakit.formats.mat import read_mat
from tavlakit.formats.sgf import read_sgf

JUNK = b"\x00\x01\x02 not a record \x00" * 50


@pytest.mark.parametrize("suffix", [".mat", ".txt", ".sgf", ".json", ".bin"])
def test_a_binary_file_is_one_error(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"junk{suffix}"
    path.write_bytes(JUNK)
    for match in (read_match(path), next(read_matches([path]))):
        assert [(p.severity, p.code) for p in match.problems] == [("error", "encoding")], match.problems
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.output.count(" error ") == 1 and "1 error(s)" in result.output, result.output


@pytest.mark.parametrize("read", [read_mat, read_sgf, read_json])
def test_each_reader_given_binary_bytes_gives_one_error(read) -> None:
    assert [p.code for p in read(JUNK).problems] == ["encoding"]


def test_an_empty_file_is_still_empty(tmp_path: Path) -> None:
    path = tmp_path / "empty.mat"
    path.write_text("", encoding="utf-8")
    assert [p.code for p in read_match(path).problems] == ["empty"]
