"""SGF round trips: read(write(read(f))) == read(f) over the corpus, the
extra (analysis) data kept, and a property test on generated records."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from record_strategies import matches

from tavlakit.engine.play import Move
from tavlakit.engine.rules import Rules
from tavlakit.formats.mat import read_mat
from tavlakit.formats.sgf import read_sgf, write_sgf
from tavlakit.record.match import Game, Match, Turn

DATA = Path(__file__).parent / "data" / "sgf"


def rewrite(match: Match) -> tuple[Match, str, list]:
    out = io.StringIO()
    problems = write_sgf(match, out)
    return read_sgf(out.getvalue()), out.getvalue(), problems


def extras(match: Match) -> list:
    return [(g.extra, g.start, [t.extra for t in g.turns]) for g in match.games]


def test_corpus_round_trip(corpus_dir: Path) -> None:
    files = sorted(corpus_dir.glob("*/*.sgf")) + sorted(DATA.glob("*.sgf"))
    assert len(files) == 17
    for path in files:
        first = read_sgf(path)
        again, _, problems = rewrite(first)
        assert again == first, path.name
        assert extras(again) == extras(first), path.name
        assert problems == [], path.name
        assert [p.code for g in again.games for p in g.problems] == [p.code for g in first.games for p in g.problems], (
            path.name
        )


def test_gnubg_files_are_rewritten_byte_for_byte(corpus_dir: Path) -> None:
    """Our writer follows gnubg's layout: only the application name differs."""
    for path in sorted((corpus_dir / "gnubgparser").glob("*.sgf")) + sorted(DATA.glob("*.sgf")):
        text = path.read_text(encoding="utf-8")
        _, written, _ = rewrite(read_sgf(text))
        for app in ("GNU Backgammon:1.08.003", "GNU Backgammon:1.07.001"):
            text = text.replace(f"AP[{app}]", "AP[tavlakit]")
        assert written == text, path.name


def test_lost_on_write() -> None:
    match = Match(
        ("A", "B"),
        5,
        [
            Game(
                1,
                (0, 0),
                [
                    Turn(0, "roll", (3, 1), (Move(8, 5), Move(6, 5)), extra={"mat:row": ["x"]}),
                    Turn(1, "roll", None),
                    Turn(1, "roll", (6, 6), status="unknown"),
                    Turn(0, "roll", (6, 6), status="cannot-move"),
                ],
                crawford=False,
                extra={"sgf:bad key": ["1"]},
            )
        ],
        tags={"Variation": "Tavla", "Site": "home", "CubeLimit": "64"},
    )
    again, text, problems = rewrite(match)
    messages = [p.message for p in problems]
    assert all(p.code == "lost-on-write" and p.severity == "warning" for p in problems)
    # tags without an SGF property travel in tavlakit's own TK property
    assert not any("Variation" in m or "CubeLimit" in m for m in messages)
    assert "TK[Variation=Tavla][CubeLimit=64]" in text
    assert any("mat:row" in m for m in messages) and any("sgf:bad key" in m for m in messages)
    assert any("dice None" in m for m in messages) and any("'unknown'" in m for m in messages)
    assert any("crawford=False" in m for m in messages) and any("Cannot Move" in m for m in messages)
    assert "PC[home]" in text and again.tags == {"Site": "home", "Variation": "Tavla", "CubeLimit": "64"}
    assert len(again.games[0].turns) == 3


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(matches(sgf=True))
def test_generated_round_trip(match: Match) -> None:
    again, text, problems = rewrite(match)
    assert problems == []
    assert again == match, text
    assert again.problems == [] and all(g.problems == [] for g in again.games)
    # hits were not written, yet the reader finds each one the engine made
    assert [m.hit for g in again.games for t in g.turns for m in t.moves] == [
        m.hit for g in match.games for t in g.turns for m in t.moves
    ]


def test_unmarked_hits_are_no_loss(corpus_dir: Path) -> None:
    """Gibbon's .mat marks no hits; SGF stores none (its reader finds the
    board's hits): nothing is lost, so nothing is reported (before: a
    ``lost-on-write`` warning)."""
    match = read_mat((corpus_dir / "gnu_gibbon" / "7point.mat").read_bytes())
    assert not any(m.hit for g in match.games for t in g.turns for m in t.moves)
    again, _, problems = rewrite(match)
    assert problems == []
    assert sum(m.hit for g in again.games for t in g.turns for m in t.moves) > 20


def test_tavla_rules_survive_sgf(corpus_dir) -> None:
    """A Tavla match written as SGF reads back under the same rules."""
    for name in ("t000.mat", "t002.mat"):
        match = read_mat((corpus_dir / "tavla" / name).read_bytes())
        again, _text, _problems = rewrite(match)
        assert again.rules == match.rules == Rules.preset("tavla")
        assert again.tags == match.tags


def test_the_writer_judges_plays_under_the_matchs_rules(monkeypatch) -> None:
    """Before: the writer asked for legal plays under backgammon's rules
    whatever the match's (here: a roll left unplayed when the game was
    resigned, written gnubg's way as ;PL[B]DI[64])."""
    from tavlakit.engine.position import Position
    from tavlakit.record.match import Result

    asked: list[Rules] = []
    legal_plays = Position.legal_plays

    def spy(self: Position, dice: tuple[int, int], rules: Rules | None = None) -> list:
        asked.append(rules)
        return legal_plays(self, dice, rules)

    monkeypatch.setattr(Position, "legal_plays", spy)
    match = Match(
        ("A", "B"),
        5,
        [
            Game(
                1,
                (0, 0),
                [Turn(0, "roll", (3, 1), (Move(8, 5), Move(6, 5))), Turn(1, "roll", (6, 4))],
                Result(0, 1, resigned=True),
            )
        ],
        tags={"Variation": "Tavla"},
    )
    again, text, problems = rewrite(match)
    assert "\n;PL[B]DI[64])" in text and problems == []
    assert asked == [Rules.preset("tavla")]
    assert again.games == match.games
