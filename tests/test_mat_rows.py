"""The `.mat` reader reads nearly every line without the parser
(``formats/mat.py``: ``_read_line``, ``_parse_chunk``): the lines and tokens
must be the parser's own, on every game of the corpus and on rows the
grammar refuses. The reference is the LALR parser given the whole chunk, as
the reader gave it before."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from lark import UnexpectedInput

from tavlakit.formats.mat import _parse_chunk, _parse_lines, _read_line
from tavlakit.formats.text import decode

REPO = Path(__file__).resolve().parents[1]
GAME = re.compile(r"\s*Game\s+\d+\b")


def seen(lines: list[tuple[str, list]]) -> list[tuple[str, list[tuple[str, str, int | None, int | None]]]]:
    """What the reader reads of parsed lines: each token's kind, text, end line and end column."""
    return [(kind, [(t.type, t.lstrip(), t.end_line, t.end_column) for t in tokens]) for kind, tokens in lines]


def by_parser(lines: list[str]) -> list[tuple[str, list[tuple[str, str, int | None, int | None]]]] | None:
    try:
        return seen(_parse_lines(("\n" + "\n".join(lines)).rstrip("\n")))
    except UnexpectedInput:
        return None


def chunks(text: str) -> list[list[str]]:
    """The file's lines cut before each ``Game N`` line, as the reader cuts them."""
    out: list[list[str]] = [[]]
    for line in text.splitlines():
        line = line.rstrip().lstrip("\ufeff")
        if GAME.match(line):
            out.append([])
        out[-1].append(line)
    return out


def same_or_both_refused(lines: list[str]) -> None:
    expected = by_parser(lines)
    try:
        got = seen(_parse_chunk(lines))
    except UnexpectedInput:
        got = None
    assert got == expected, lines


def test_every_game_of_the_corpus_reads_as_the_parser_reads_it(corpus_dir: Path) -> None:
    with open(corpus_dir / "SOURCES.tsv", encoding="utf-8") as handle:
        files = [
            corpus_dir / row["file"] for row in csv.DictReader(handle, delimiter="\t") if row["format"] == "jf-mat"
        ]
    rows = 0
    for path in files:
        for lines in chunks(decode(path.read_bytes())[0]):
            same_or_both_refused(lines)
            rows += sum(_read_line(line, 2) is not None for line in lines if line)
    assert len(files) > 500 and rows > 40_000


@pytest.mark.parametrize(
    "line",
    [
        "  1) 31: 8/5 6/5                     42: 24/20 13/11",
        "  1)                                 31: 8/5 6/5",
        " 12) 66: 24/18(2) 13/7*(2)           Doubles => 2",
        " 24) 43: 21/18  24)  Losses 2 point  Wins 2 point",  # four cells: the most a row holds
        " 24) 43: 21/18  24)  Losses 2 point  Wins 2 point  Takes",  # five
        "  7) 52: 13/8 13/11x",  # a cell with something after it
        "  7) 52: Cannot Move                 64: bar/21 13/9",
        "  3)  Drops                          Wins 1 point",
        "  9) 21: ???                         33: ???",
        "  5)",
        "  5) 61",
        "  5)52: 13/8 13/11",
        "Game 2",
        " Ann : 0                        Bob : 1",
        " Game 1 : 0                     Bob : 1",  # a score line a game line's terminal also starts
        " 7 point match",
        '; [Site "FIBS"]',
        "                                  Wins 1 point",
        "  Wins 1 point                   Losses 1 point",
        "  Wins 1 point                   Losses 1 point   Takes",
        "  Wins 1 point x",
        "; a comment: 1 x: 2",
        '; [Event "x"] and more',
        ";",
    ],
)
def test_a_line_alone_and_among_others(line: str) -> None:
    same_or_both_refused([line])
    same_or_both_refused(["Game 1", " Ann : 0    Bob : 0", "", line, "", "  2) 64: 24/18 13/9"])


def test_the_parser_reads_only_the_rare_lines() -> None:
    lines = ["Game 1", " Ann : 0    Bob : 0", "  1) 31: 8/5 6/5    42: 24/20 13/11", "  2) 6x"]
    assert [_read_line(line, 2 + i) is not None for i, line in enumerate(lines)] == [True, True, True, False]
    assert _read_line(" Game 1 : 0    Bob : 1", 2) is None  # a game line, then what no game line holds
    read = [_read_line(line, 2) for line in ('; [Site "FIBS"]', "; a comment: 1 x: 2", "  Wins 1 point")]
    # (a comment's terminal starts a tag line too, but the tag's priority is higher)
    assert [line[0] if line else None for line in read] == ["tag", "comment", "result"]
    assert [kind for kind, _tokens in _parse_chunk(lines[:3])] == ["game", "score", "row"]
    with pytest.raises(UnexpectedInput):
        _parse_chunk(lines)
