"""The message catalogs, the language choice and the Turkish command line.

The Turkish output is compared with the Turkish catalog's own entries
(read with Babel from the .po source), never with the English text.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

import tavlakit as tk
from tavlakit import i18n, i18n_tools
from tavlakit.cli import app
from tavlakit.formats.mat import read_mat
from tavlakit.replay.walker import replay

REPO = Path(__file__).resolve().parents[1]
PO = REPO / "tavlakit" / "locale" / "tr" / "LC_MESSAGES" / "tavlakit.po"
GNUBG = REPO / "tests" / "data" / "gnubg"
BG = tk.Rules.preset("backgammon")
runner = CliRunner()


@lru_cache(maxsize=1)
def turkish() -> dict[str, str]:
    """English message id -> Turkish, from the .po source."""
    with PO.open("rb") as f:
        return {m.id: m.string for m in read_po(f) if m.id and isinstance(m.id, str)}


# -- the catalog -----------------------------------------------------------------


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The message ids of the code as it is now, extracted by Babel."""
    path = tmp_path_factory.mktemp("pot") / "tavlakit.pot"
    i18n_tools.extract(path)
    return path


def test_extraction_finds_code_messages_and_cli_help(template: Path) -> None:
    """The template holds every command's docstring (Typer's help), every
    problem code's description, and the replayer's and the readers' messages."""
    import typer.main

    from tavlakit.record.problem import CODES

    with template.open("rb") as f:
        messages = [m for m in read_po(f) if m.id]
    ids = {m.id for m in messages}
    group = typer.main.get_command(app)
    assert all(command.help in ids for command in group.commands.values())
    assert set(CODES.values()) <= ids
    places = {path for m in messages for path, _line in m.locations}
    assert {
        "tavlakit/replay/walker.py",
        "tavlakit/formats/mat.py",
        "tavlakit/formats/sgf.py",
        "tavlakit/cli/lang.py",
    } <= places
    assert len(ids) > 150


def test_every_catalog_is_complete_and_compiled(template: Path) -> None:
    """No message untranslated or fuzzy, none of the code's missing, the
    placeholders kept, and the shipped .mo in step with the .po."""
    assert i18n_tools.catalogs(), "no catalog found"
    for lang, po in i18n_tools.catalogs().items():
        assert i18n_tools.gaps(po, template) == [], lang


def test_gaps_are_found(tmp_path: Path) -> None:
    """The completeness check can fail: a catalog with every kind of gap."""
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "kept"\nmsgstr "tutuldu"\n\n'
        'msgid "empty"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "near"\nmsgstr "yakın"\n\n'
        'msgid "point {point}"\nmsgstr "hane {hane}"\n',
        encoding="utf-8",
    )
    pot = tmp_path / "x.pot"
    pot.write_text('msgid ""\nmsgstr ""\n\nmsgid "kept"\nmsgstr ""\n\nmsgid "new one"\nmsgstr ""\n', encoding="utf-8")
    found = i18n_tools.gaps(po, pot)
    assert "untranslated: 'empty'" in found
    assert "fuzzy: 'near'" in found
    assert "placeholders differ: 'point {point}'" in found
    assert "missing: 'new one'" in found
    assert any(gap.startswith("not compiled") for gap in found)


def test_no_function_shadows_gettext(tmp_path: Path) -> None:
    assert i18n_tools.shadowed_gettext() == []
    (tmp_path / "bad.py").write_text("def f(rows):\n    for _, x in rows:\n        print(_('x'))\n", encoding="utf-8")
    (tmp_path / "good.py").write_text("def g(rows):\n    return [_('x') for _y in rows]\n", encoding="utf-8")
    assert i18n_tools.shadowed_gettext(tmp_path) == ["bad.py:1: f() binds _ and calls _()"]


def test_every_message_can_be_extracted(tmp_path: Path) -> None:
    assert i18n_tools.unextractable() == []
    (tmp_path / "built.py").write_text(
        "x = 1\nprint(_(f'a {x}'), _('a %d' % x), N_('a' + 'b'), _('fine {x}'), _(x))\n", encoding="utf-8"
    )
    found = [line.split(": ", 1)[1] for line in i18n_tools.unextractable(tmp_path)]
    assert [line.split("()")[0] for line in found] == ["_", "_", "N_"]
    assert all("of a built string" in line for line in found)
    (tmp_path / "built.py").write_text("print(f'<b>{_(\"on roll\")}</b>', _('fine'))\n", encoding="utf-8")
    assert [line.split(": ", 1)[1] for line in i18n_tools.unextractable(tmp_path)] == [
        "_() inside an f-string; take it out of the braces"
    ]


# -- choosing the language ----------------------------------------------------------


@pytest.mark.parametrize(
    "environ,expected",
    [
        ({}, "en"),
        ({"LANG": "tr_TR.UTF-8"}, "tr"),
        ({"LC_MESSAGES": "tr_TR"}, "tr"),
        ({"LC_ALL": "tr"}, "tr"),
        ({"LANGUAGE": "tr:en", "LANG": "en_US.UTF-8"}, "tr"),
        ({"LANGUAGE": "de:tr"}, "tr"),
        ({"LC_ALL": "C", "LANG": "tr_TR.UTF-8"}, "en"),  # the first one set decides, as for gettext
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "trk"}, "en"),
    ],
)
def test_language_from_environment(environ: dict[str, str], expected: str) -> None:
    assert i18n.language_from_environment(environ) == expected


def test_set_language_and_unknown_language() -> None:
    assert i18n.available_languages() == ["en", "tr"]
    try:
        i18n.set_language("tr_TR.UTF-8")
        assert i18n.language() == "tr"
        assert i18n._("illegal-play") == "illegal-play"  # codes are not messages
        assert (
            i18n._("a written play that no legal play matches")
            == turkish()["a written play that no legal play matches"]
        )
        with pytest.raises(ValueError, match="en, tr"):
            i18n.set_language("xx")
    finally:
        i18n.set_language("en")
    assert i18n._("a written play that no legal play matches") == "a written play that no legal play matches"


def test_dice_name_error_in_turkish() -> None:
    try:
        i18n.set_language("tr")
        with pytest.raises(ValueError) as info:
            tk.parse_dice("yedi")
    finally:
        i18n.set_language("en")
    assert str(info.value).startswith("bilinmeyen zar adı 'yedi'")


# -- Turkish messages, judged against the catalog -----------------------------------------


def _pattern(template: str) -> tuple[re.Pattern[str], list[str]]:
    names: list[str] = []
    regex = ""
    for part in re.split(r"(\{[^{}]*\})", template):
        if part.startswith("{") and part.endswith("}"):
            regex += f"(?P<g{len(names)}>.+?)"
            names.append(re.split(r"[!:.\[]", part[1:-1])[0])
        else:
            regex += re.escape(part)
    return re.compile(regex + r"\Z", re.DOTALL), names


def _has_words(template: str) -> bool:
    """Whether a message has text of its own besides placeholders and punctuation."""
    return any(c.isalpha() for c in re.sub(r"\{[^{}]*\}", "", template))


def _nests(template: str) -> bool:
    """Whether a wordless message ("{problem}; {done}", "{prop}: {why}") holds a message of ours
    (is_turkish then judges that nested message)."""
    names = [re.split(r"[!:.\[]", p[1:-1])[0] for p in re.findall(r"\{[^{}]*\}", template)]
    return any(name in NESTED for name in names)


@lru_cache(maxsize=1)
def patterns() -> tuple[list[tuple[re.Pattern[str], list[str]]], list[re.Pattern[str]]]:
    """Regexes of the Turkish messages, and of the English ones that differ."""
    tr = [_pattern(t) for t in turkish().values() if _has_words(t) or _nests(t)]
    en = [_pattern(e)[0] for e, t in turkish().items() if e != t and _has_words(e)]
    return tr, en


NESTED = ("message", "why", "note", "problem", "done", "what")  # placeholders that hold another message of ours


def is_turkish(text: str) -> bool:
    """``text`` is a Turkish message of the catalog, with the messages nested
    in it (``{message}``, ``{why}``, ``{note}``) Turkish too."""
    tr, _ = patterns()
    for regex, names in tr:
        found = regex.match(text)
        if found and all(is_turkish(found[f"g{i}"]) for i, name in enumerate(names) if name in NESTED):
            return True
    return False


TURKISH_LETTERS = set("çğıöşüÇĞİÖŞÜ")


def is_english(text: str) -> bool:
    """``text`` matches an English message id, the placeholders holding no
    Turkish text (a file's words such as ``Doubles => 4`` start some Turkish
    messages too)."""
    for regex in patterns()[1]:
        found = regex.match(text)
        if found and not any(TURKISH_LETTERS & set(value) for value in found.groups()):
            return True
    return False


def test_the_judge_tells_turkish_from_english() -> None:
    assert is_turkish("10/7: oynayanın şurada pulu yok: 10 (atış 32); atlandı, tahta değişmedi")
    assert not is_turkish("10/7: no checker of the mover on 10 (roll 32); skipped, board unchanged")
    assert is_english("10/7: no checker of the mover on 10 (roll 32); skipped, board unchanged")
    assert not is_turkish("10/7: no checker of the mover on 10 (atış 32); atlandı, tahta değişmedi")


# -- faults in a transcript ------------------------------------------------------------


def _cell(lines: list[str], step, text: str, cut: bool = True) -> str:
    """The transcript with the step's cell replaced by ``text``; with ``cut``
    the game ends there (the other side resigns) and later games are dropped."""
    turn = step.turn
    row = lines[turn.line - 1]
    start = turn.column - 1
    if cut:
        winner = " " * (6 if turn.player == 0 else 34) + "Wins 1 point"
        return "\n".join(lines[: turn.line - 1] + [row[:start] + text, winner]) + "\n"
    end = 33 if turn.player == 0 else len(row)
    out = lines[: turn.line - 1] + [row[:start] + text.ljust(end - start) + row[end:]] + lines[turn.line :]
    return "\n".join(out) + "\n"


def _first(steps, predicate):
    for step in steps:
        found = predicate(step)
        if found is not None:
            return step, found
    raise AssertionError("no turn suits the fault")


def _faults(folder: Path) -> set[str]:
    """One file per fault in ``folder``; returns the codes they must raise."""
    text = (GNUBG / "selfplay-5p-2.mat").read_text(encoding="utf-8")
    lines = text.split("\n")
    match = read_mat(text)
    steps = [
        s
        for game in replay(match, BG)
        for s in game.steps
        if s.turn.kind == "roll" and s.turn.dice and s.turn.moves and s.index >= 2
    ]

    def dice(s) -> str:
        return f"{s.turn.dice[0]}{s.turn.dice[1]}: "

    def empty(s):
        b, a = s.before.board, s.turn.dice[0]
        return None if b[25] else next((f"{p}/{p - a}" for p in range(24, a, -1) if b[p] <= 0 <= b[p - a]), None)

    def blocked(s):
        b, a = s.before.board, s.turn.dice[0]
        return None if b[25] else next((f"{p}/{p - a}" for p in range(24, a, -1) if b[p] > 0 and b[p - a] <= -2), None)

    def backwards(s):
        b = s.before.board
        return None if b[25] else next((f"{p}/{p + 2}" for p in range(1, 20) if b[p] > 0 and b[p + 2] >= 0), None)

    def enter_first(s):
        b, (a, c) = s.before.board, s.turn.dice
        if not b[25] or a == c:
            return None
        return next((f"{p}/{p - a}" for p in range(24, a, -1) if b[p] > 0 and b[p - a] >= 0), None)

    def outside(s):
        b, a = s.before.board, s.turn.dice[0]
        return f"{a}/0" if not b[25] and b[a] > 0 and any(b[p] > 0 for p in range(7, 25)) else None

    def one_die(s):
        a, c = s.turn.dice
        if a == c:
            return None
        for play in s.before.legal_plays(s.turn.dice, BG):
            move = play.moves[0]
            if len(play) == 2 and move.src - move.dst == a and not move.hit:
                return f"{move.src}/{move.dst}"
        return None

    files: dict[str, tuple[str, str]] = {}
    for name, predicate, code in [
        ("empty", empty, "illegal-play"),
        ("blocked", blocked, "illegal-play"),
        ("backwards", backwards, "illegal-play"),
        ("enter", enter_first, "must-enter-first"),
        ("outside", outside, "bear-off-outside"),
        ("one-die", one_die, "not-all-dice-used"),
    ]:
        step, play = _first(steps, predicate)
        files[name] = (_cell(lines, step, dice(step) + play), code)
    left = [s for s in steps if s.turn.player == 0]
    files["missing"] = (_cell(lines, left[3], dice(left[3]).strip(), cut=False), "missing-play")
    files["bad-dice"] = (_cell(lines, left[4], "72: 24/17"), "bad-dice")
    files["syntax"] = (_cell(lines, left[5], "@@ 13/x"), "syntax")
    files["take"] = (_cell(lines, left[6], "Takes"), "cube-not-allowed")
    files["point"] = (_cell(lines, left[7], "52: 13/99"), "syntax")  # through the reader's cached move parser
    hit = next(s for s in steps if "*" in s.turn.text)
    files["hit-mark"] = (_cell(lines, hit, hit.turn.text.replace("*", ""), cut=False), "hit-mark")
    files["cube"] = (text.replace("Doubles => 2", "Doubles => 4", 1), "cube-value")
    wins = [i for i, line in enumerate(lines) if "Wins" in line]
    absurd = list(lines)
    absurd[wins[-1]] = re.sub(r"Wins \d+ points?", "Wins 4016 points", absurd[wins[-1]])
    files["absurd"] = ("\n".join(absurd), "absurd-points")
    more = [re.sub(r"Wins (\d+) point", lambda m: f"Wins {int(m[1]) + 1} point", line) for line in lines]
    files["result"] = ("\n".join(more), "result-mismatch")
    games = [i for i, line in enumerate(lines) if re.fullmatch(r"\s*Game \d+\s*", line)]
    score = list(lines)
    score[games[1] + 1] = re.sub(r": (\d+)\s*$", lambda m: f": {int(m[1]) + 1}", score[games[1] + 1])
    files["score"] = ("\n".join(score), "score-mismatch")
    final = list(match.games[-1].score)
    final[match.games[-1].result.winner] += match.games[-1].result.points
    extra = [f" Game {len(match.games) + 1}", f" Alpha : {final[0]:<24}Bravo : {final[1]}"]
    files["over"] = ("\n".join(lines + [""] + extra + lines[games[0] + 2 : games[1]]), "match-over")
    for name, (body, _code) in files.items():
        (folder / f"{name}.mat").write_text(body, encoding="utf-8")
    (folder / "empty-file.mat").write_text("", encoding="utf-8")
    (folder / "legacy.mat").write_bytes(text.replace("Alpha", "Ayşe").encode("cp1254"))
    (folder / "binary.mat").write_bytes(b"\0\0\0garbage")
    (folder / "broken.json").write_text("{", encoding="utf-8")
    (folder / "field.json").write_text(json.dumps({"format": "tavlakit-match", "bogus": 1}), encoding="utf-8")
    (folder / "moves.sgf").write_text("(;GM[6]FF[4]PW[a]PB[b]RE[W+1]\n;W[52xyz]\n;B[DI77])", encoding="utf-8")
    (folder / "chess.sgf").write_text("(;GM[1])", encoding="utf-8")
    (folder / "cut.sgf").write_text("(;GM[6]FF[4];W[52", encoding="utf-8")
    return {code for _body, code in files.values()} | {"empty", "encoding", "syntax", "unsupported"}


def _problem_lines(output: str) -> list[tuple[str, str, str]]:
    """(severity, code, message) of every problem line of ``validate``."""
    found = re.findall(r"^\S+: (\S+) ([a-z-]+): (.+)$", output, re.MULTILINE)
    return [(severity, code, message) for severity, code, message in found]


def _assert_turkish(output: str, codes: set[str]) -> None:
    problems = _problem_lines(output)
    assert codes <= {code for _, code, _ in problems}, sorted(codes - {code for _, code, _ in problems})
    for severity, code, message in problems:
        # (faults that leave the game as it was, a hit mark or a cube value, are the same match as each other)
        assert severity in (turkish()["error"], turkish()["warning"]) or code == "duplicate-match", (severity, code)
        assert is_turkish(message), (code, message)
        assert not is_english(message), (code, message)
    summary = output.strip().splitlines()[-1]
    assert is_turkish(summary.split(" [")[0]), summary


@pytest.fixture(scope="module")
def faults(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[str]]:
    folder = tmp_path_factory.mktemp("faults")
    return folder, _faults(folder)


def test_faults_are_reported_in_english_by_default(faults) -> None:
    folder, codes = faults
    result = runner.invoke(app, ["validate", str(folder)], env={v: "" for v in i18n.ENVIRONMENT})
    assert result.exit_code == 2, result.output  # binary.mat, chess.sgf...: nothing could be read from them
    problems = _problem_lines(result.output)
    assert codes <= {code for _, code, _ in problems}
    assert all(
        (severity in ("error", "warning") or code == "duplicate-match") and not is_turkish(message)
        for severity, code, message in problems
    )


def test_validate_lang_tr_prints_every_problem_in_turkish(faults) -> None:
    folder, codes = faults
    result = runner.invoke(app, ["--lang", "tr", "validate", str(folder)])
    assert result.exit_code == 2, result.output
    _assert_turkish(result.output, codes)
    assert i18n.language() == "en"  # the command line leaves the library's language as it was


def test_json_keeps_codes_and_keys_english(faults) -> None:
    folder, _codes = faults
    result = runner.invoke(app, ["--lang", "tr", "validate", "--json", str(folder / "empty.mat")])
    rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    problem = rows[0]
    assert set(problem) >= {"code", "severity", "message", "file", "line"}
    assert problem["code"] == "illegal-play" and problem["severity"] == "error"
    assert is_turkish(problem["message"])
    assert set(rows[-1]["summary"]) >= {"files", "games", "errors", "warnings", "codes"}


# -- the real console script ---------------------------------------------------------


def _console(*args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    script = shutil.which("tavlakit", path=str(Path(sys.executable).parent)) or shutil.which("tavlakit")
    assert script, "the tavlakit console script is not installed"
    env = {k: v for k, v in os.environ.items() if k not in i18n.ENVIRONMENT}
    env.update(PYTHONPATH=str(REPO), COLUMNS="250", TERMINAL_WIDTH="250", **environ)
    return subprocess.run([script, *args], capture_output=True, text=True, timeout=120, env=env, cwd=REPO, check=False)


def _plain(help_text: str) -> str:
    """Help text without Rich's boxes, on one line."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", help_text).split())


def test_console_help_in_turkish_from_lang_and_from_environment() -> None:
    """``validate --help`` through the console script: every help text of
    the command (as Click holds it in English) is shown in Turkish, the
    catalog's translation where the text is a message id, and never in
    English -- help built with ``_()`` at import too."""
    import typer.main

    tr = turkish()
    group = typer.main.get_command(app)
    command = group.commands["validate"]
    ctx = group.make_context("tavlakit", ["validate"], resilient_parsing=True)
    english = [command.help.split("\n\n")[0]] + [p.help for p in command.get_params(ctx) if getattr(p, "help", None)]
    whole = [e for e in english if e in tr]
    assert len(whole) >= 3
    for run in (_console("--lang", "tr", "validate", "--help"), _console("validate", "--help", LANG="tr_TR.UTF-8")):
        assert run.returncode == 0, run.stderr
        text = _plain(run.stdout)
        for message in whole:
            assert _plain(tr[message]) in text, message
        for message in english:
            assert _plain(message) not in text, message
        assert tr["Options"] in text and tr["Arguments"] in text
    top = _console("--lang", "tr", "--help")
    assert _plain(tr[group.help]) in _plain(top.stdout)
    assert tr["Commands"] in top.stdout


def test_console_english_by_default() -> None:
    run = _console("validate", "--help")
    assert run.returncode == 0
    assert "Stop at the first error." in _plain(run.stdout)


def test_typer_words_left_alone_in_english_are_typers_own() -> None:
    """In English the CLI does not import Typer's help formatter to set its
    words (a tenth of a second of start-up): they must be English already."""
    code = (
        "from typer import rich_utils\nfrom tavlakit.cli.lang import TYPER_TEXT\n"
        "print([k for k, v in TYPER_TEXT.items() if getattr(rich_utils, k) != v])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_console_validate_turkish_from_environment(faults) -> None:
    folder, codes = faults
    run = _console("validate", str(folder), LANG="tr_TR.UTF-8")
    assert run.returncode == 2, run.stderr
    _assert_turkish(run.stdout, codes)


@pytest.mark.parametrize("args", [["--lang", "xx", "validate", "samples"], ["--lang=de", "--help"]])
def test_unknown_lang_is_exit_2_naming_the_languages(args: list[str]) -> None:
    run = _console(*args)
    assert run.returncode == 2
    assert re.search(r"unknown language '(xx|de)'; the languages are: en, tr", _plain(run.stderr)), run.stderr
    result = runner.invoke(app, args)
    assert result.exit_code == 2


def test_moves_takes_a_named_roll() -> None:
    opening = tk.Position.initial().position_id()
    digits = runner.invoke(app, ["moves", opening, "6", "5"])
    named = runner.invoke(app, ["moves", opening, "şeş beş"])
    plain = runner.invoke(app, ["moves", opening, "ses", "bes"])
    assert digits.exit_code == named.exit_code == plain.exit_code == 0
    assert named.output == digits.output == plain.output
    assert "24/13" in named.output.split()  # the lover's leap, by hand
    bad = runner.invoke(app, ["moves", opening, "yedi"])
    assert bad.exit_code == 2


def test_turkish_board_numbered_absolutely_with_colours() -> None:
    """Seeds 000 and 002: White moves 24 -> 1, Black 1 -> 24; each starts
    with two checkers on the opponent's home's far point (White's 24,
    Black's 1) and five on its own home's six (White 6, Black 19)."""
    from tavlakit.engine.position import render

    tr = turkish()
    start = tk.Position.initial()
    try:
        i18n.set_language("tr")
        black = render(start, "black").splitlines()
        white = render(start, "white").splitlines()
    finally:
        i18n.set_language("en")
    assert black[0].split()[0] == "+12-11-10--9--8--7-------6--5--4--3--2--1-+"
    assert black[-2].split()[0] == "+13-14-15-16-17-18------19-20-21-22-23-24-+"
    assert black[1].rstrip().endswith("X |")  # Black's two checkers on 1, top right
    assert black[-3][2:5] == " O " and black[-3][25:28] == " X "  # White's 5 on 13 (bottom left), Black's 5 on 19
    assert black[-2].endswith(
        tr["{side}: {pips} pips, {off} off (to move)"].format(side=f"{tr['Black']} (X)", pips=167, off=0)
    )
    assert black[0].endswith(tr["{side}: {pips} pips, {off} off"].format(side=f"{tr['White']} (O)", pips=167, off=0))
    assert white[0].split()[0] == "+13-14-15-16-17-18------19-20-21-22-23-24-+"
    assert white[-1] == " " + tr["Position ID: {id}"].format(id=start.position_id())
    with pytest.raises(ValueError):
        render(start, "red")


def test_board_command_in_turkish_numbers_absolutely() -> None:
    """``tavlakit --lang tr board`` draws the seeds' numbering with the
    colours named: White on roll (a bare Position ID) counts 24 -> 1 as
    gnubg does for the side on roll; Black on roll (the Match ID
    'cAkgAVAAAAAE' says player 1) has 1-12 along the top, its own points
    being 1 -> 24. ``--numbering gnubg`` and English keep gnubg's board."""
    tr = turkish()
    white = runner.invoke(app, ["--lang", "tr", "board", "4HPwATDgc/ABMA"])
    black = runner.invoke(app, ["--lang", "tr", "board", "4HPwATDgc/ABMA:cAkgAVAAAAAE"])
    plain = runner.invoke(app, ["--lang", "tr", "board", "4HPwATDgc/ABMA:cAkgAVAAAAAE", "--numbering", "gnubg"])
    english = runner.invoke(app, ["board", "4HPwATDgc/ABMA:cAkgAVAAAAAE"])
    assert white.exit_code == black.exit_code == plain.exit_code == english.exit_code == 0
    assert white.output.split()[0] == "+13-14-15-16-17-18------19-20-21-22-23-24-+"
    assert f"{tr['White']} (X)" in white.output and f"{tr['Black']} (O)" in white.output
    assert black.output.split()[0] == "+12-11-10--9--8--7-------6--5--4--3--2--1-+"
    assert f"{tr['Black']} (X)" in black.output and f"{tr['White']} (O)" in black.output
    for gnubg in (plain, english):
        assert gnubg.output.split()[0] == "+13-14-15-16-17-18------19-20-21-22-23-24-+"
        assert tr["White"] not in gnubg.output and tr["Black"] not in gnubg.output


def test_plot_titles_and_labels_in_turkish() -> None:
    """Every title, axis label and legend entry of the charts is a Turkish
    message of the catalog (the pip race's legend names the players)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tavlakit.analysis import analyse, plots

    result = analyse(tk.read_match(GNUBG / "selfplay-3p-1.mat"), luck=False)
    try:
        i18n.set_language("tr")
        charts = [
            (plots.plot_dice(result.plays), True),
            (plots.plot_pip_race(result.plays, game=1), False),
            (plots.plot_mars_rates(result.games), True),
        ]
    finally:
        i18n.set_language("en")
    for ax, legend in charts:
        texts = [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        if legend and ax.get_legend() is not None:
            texts += [t.get_text() for t in ax.get_legend().get_texts()]
        texts = [t for t in texts if t]
        assert len(texts) >= 2
        for text in texts:
            assert is_turkish(text) and not is_english(text), text
    plt.close("all")


def test_only_the_program_takes_the_language_early() -> None:
    """``python -m tavlakit`` reads --lang before building its help; a program
    that merely imports the CLI keeps English under LANG=tr."""
    env = {k: v for k, v in os.environ.items() if k not in i18n.ENVIRONMENT}
    env.update(PYTHONPATH=str(REPO), COLUMNS="250", TERMINAL_WIDTH="250")
    module = subprocess.run(
        [sys.executable, "-m", "tavlakit", "--lang", "tr", "validate", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=REPO,
        check=False,
    )
    assert turkish()["Default: from the file's tags, else backgammon."] in _plain(module.stdout)
    importer = subprocess.run(
        [sys.executable, "-c", "import tavlakit.cli, tavlakit.i18n as i; print(i.language())"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, "LANG": "tr_TR.UTF-8"},
        check=False,
    )
    assert importer.stdout.strip() == "en", importer.stderr


def test_convert_lang_tr_reports_what_is_lost_in_turkish(tmp_path: Path) -> None:
    sgf = tmp_path / "commented.sgf"  # a comment on a turn: a .mat has no place for it
    text = (REPO / "samples" / "charlot1-charlot2_7p_2025-11-08-2305.sgf").read_text(encoding="utf-8")
    sgf.write_text(text.replace("\n;W[31fehe]", "\n;W[31fehe]C[iyi hamle]", 1), encoding="utf-8")
    result = runner.invoke(app, ["--lang", "tr", "convert", str(sgf), "-o", str(tmp_path / "out.mat")])
    assert result.exit_code == 0, result.output
    problems = _problem_lines(result.output)
    assert problems and {code for _, code, _ in problems} == {"lost-on-write"}
    assert all(severity == turkish()["warning"] and is_turkish(message) for severity, _, message in problems)
    assert is_turkish(result.output.strip().splitlines()[-1])


def test_stats_headers_in_turkish_json_keys_english() -> None:
    tr = turkish()
    samples = str(REPO / "samples")
    table = runner.invoke(app, ["--lang", "tr", "stats", "--no-luck", samples], env={"COLUMNS": "250"})
    assert table.exit_code == 0, table.output
    header = next(line for line in table.output.splitlines() if tr["player"] in line)
    assert tr["wins"] in header and tr["mars_for"] in header and "mars_for" not in header
    rows = runner.invoke(app, ["--lang", "tr", "stats", "--no-luck", "--json", samples])
    first = json.loads(next(line for line in rows.output.splitlines() if line.startswith("{")))
    assert {"player", "wins", "mars_for"} <= set(first)


def test_typer_errors_in_turkish() -> None:
    tr = turkish()
    run = _console("--lang", "tr", "nosuch")
    assert run.returncode == 2
    assert (
        run.stderr
        == tr["error: {message}"].format(message=tr["No such command {name!r}."].format(name="nosuch")) + "\n"
    )


def test_compendium_fills_only_exact_untranslated_or_fuzzy(tmp_path: Path) -> None:
    po = tmp_path / "tavlakit.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "kept"\nmsgstr "tutuldu"\n\nmsgid "new"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "near"\nmsgstr "yakın?"\n\nmsgid "other"\nmsgstr ""\n',
        encoding="utf-8",
    )
    compendium = tmp_path / "compendium.po"
    compendium.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "kept"\nmsgstr "BAŞKA"\n\nmsgid "new"\nmsgstr "yeni"\n\n'
        'msgid "near"\nmsgstr "yakın"\n\nmsgid "others"\nmsgstr "diğerleri"\n',
        encoding="utf-8",
    )
    assert i18n_tools.fill_from(po, compendium) == 2
    with po.open("rb") as f:
        got = {m.id: (m.string, m.fuzzy) for m in read_po(f) if m.id}
    assert got == {"kept": ("tutuldu", False), "new": ("yeni", False), "near": ("yakın", False), "other": ("", False)}


def test_compendium_translations_keep_their_placeholders() -> None:
    path = PO.parent.parent / i18n_tools.COMPENDIUM
    with path.open("rb") as f:
        catalog = read_po(f)
    assert len(catalog) > 100
    assert list(catalog.check()) == []
    for message in (m for m in catalog if m.id):
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(strings), message.id
        for string in strings:
            assert i18n_tools.placeholders(string) == i18n_tools.placeholders(ids[0]), message.id


def test_every_help_text_of_the_cli_is_a_catalog_message() -> None:
    """Each command's help and each option's, as Click holds them in
    English, is a message of the catalog (filled in where it has
    placeholders), or two of them side by side: so every help the CLI shows
    can be shown in Turkish."""
    import typer.main

    english = [_pattern(e)[0] for e in turkish() if _has_words(e)]

    def catalogued(text: str) -> bool:
        if any(regex.match(text) for regex in english):
            return True
        cuts = [i + 1 for i, c in enumerate(text) if c == " " and text[i - 1] == "."]
        return any(catalogued(text[:i].strip()) and catalogued(text[i:].strip()) for i in cuts)

    group = typer.main.get_command(app)
    ctx = group.make_context("tavlakit", ["validate"], resilient_parsing=True)
    helps = [group.help] + [p.help for p in group.get_params(ctx) if getattr(p, "help", None)]
    for name in group.list_commands(ctx):
        command = group.commands[name]
        helps.append(command.help)
        helps.extend(p.help for p in command.get_params(ctx) if getattr(p, "help", None))
    assert len(helps) > 20
    for text in helps:
        assert text and catalogued(text), text
