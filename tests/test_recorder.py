"""``tavlakit record``: a live match played on the page, written as it goes.

The games are played through the real server (a subprocess) in Debian's
chromium driven by Playwright, tapping (a phone's touch screen), clicking
and typing as a person would: the test throws the dice itself (typed,
tapped, or the page's seeded roller) and chooses each play with the engine; the transcript written must hold
exactly those dice and plays, validate with 0 problems (the replay is the
independent judge of every play) and import into gnubg as the same match.
"""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tavlakit.engine.play import Play
from tavlakit.engine.position import Position
from tavlakit.engine.rules import Rules
from tavlakit.formats.mat import read_mat
from tavlakit.recorder.session import Refused, Session
from tavlakit.replay.walker import validate


class Server:
    """``tavlakit record`` in a subprocess, and its page's address."""

    def __init__(self, out: Path, *args: str, lang: str = "en") -> None:
        command = [sys.executable, "-m", "tavlakit", "--lang", lang, "record", str(out), "--no-browser", *args]
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _line in range(4):
            line = self.proc.stdout.readline() if self.proc.stdout else ""
            found = re.search(r"http://\S+", line)
            if found:
                self.url = found[0]
                break
        else:
            self.proc.kill()
            raise AssertionError(
                f"no address from tavlakit record: {self.proc.stderr.read() if self.proc.stderr else ''}"
            )
        self.base, self.token = self.url.split("/?token=")

    def call(self, action: str, token: str | None = None, **body: Any) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.base}/api/{action}",
            data=None if action == "state" else json.dumps(body).encode(),
            headers={"X-Token": self.token if token is None else token, "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return dict(json.load(answer))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


class Player:
    """A person at the page: clicks and types; keeps the log of what was played."""

    def __init__(self, browser: Any, server: Server, size: tuple[int, int] = (1280, 800), touch: bool = False) -> None:
        """``touch``: a phone's screen, tapped with a finger (touch events), not clicked."""
        viewport = {"width": size[0], "height": size[1]}
        self.page = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch).new_page()
        self.press = self.page.tap if touch else self.page.click
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.goto(server.url)
        self.page.wait_for_selector("body[data-ready='1']")
        #: (player, dice, board after) of every roll played, as the engine makes it
        self.log: list[tuple[int, tuple[int, int], Position]] = []

    def wait(self) -> None:
        """Until the last request is answered (the page marks each answer)."""
        self.page.wait_for_function("() => document.body.dataset.pending === '0'")

    def type(self, text: str) -> None:
        self.page.fill("[data-role=text]", text)
        self.page.press("[data-role=text]", "Enter")
        self.wait()

    def tap_dice(self, dice: tuple[int, int]) -> None:
        for die in dice:
            self.press(f".face[data-face='{die}']")
        self.wait()

    def button(self, action: str) -> None:
        self.press(f"button[data-act='{action}']")
        self.wait()

    def spot(self, point: int) -> None:
        self.press(f".spot[data-point='{point}']")
        self.wait()

    def refused(self) -> str:
        return str(self.page.text_content("[data-role=refused]") or "")

    def text(self, role: str) -> str:
        return str(self.page.text_content(f"[data-role={role}]") or "")

    def board_id(self) -> str:
        return str(self.page.get_attribute(".board svg", "data-position-id"))

    def play(self, position: Position, play: Play, *, typed: bool = False) -> None:
        """Make ``play`` (single-die steps) on the page: click each checker and
        its destination (or type the moves), stop when the page has completed
        it, and press Done."""
        if typed and play.moves:
            self.type(" ".join(f"{m.src}/{m.dst}".replace("25/", "bar/").replace("/0", "/off") for m in play))
        else:
            for move in play:
                if self.page.is_enabled("button[data-act='done']"):
                    break
                self.spot(move.src)
                self.spot(move.dst)
                assert self.refused() == "", (self.refused(), str(play), move)
        assert self.page.is_enabled("button[data-act='done']"), (self.text("status"), str(play))
        assert self.board_id() == position.apply(play).position_id()
        self.page.keyboard.press("Enter") if not typed else self.button("done")
        self.wait()


def drive_game(
    player: Player,
    rules: Rules,
    dice_for: Any,
    choose: Any,
    first: int,
    *,
    stop: Any = None,
) -> tuple[int, Position]:
    """Play turns on the page until the game ends (or ``stop(turn, on_roll)`` says so):
    ``dice_for(turn, on_roll)`` gives the dice and how they are entered, ``choose`` the play."""
    position, on_roll = Position.initial(), first
    for turn in range(200):
        if stop is not None and stop(turn, on_roll, player):
            return on_roll, position
        dice, how = dice_for(turn, on_roll)
        if how == "typed":
            player.type(f"{dice[0]}{dice[1]}")
        elif how == "tapped":
            player.tap_dice(dice)
        elif how == "name":
            from tavlakit.engine.dicenames import dice_name

            player.type(dice_name(dice))
        elif how == "roll":
            player.button("roll")
            shown = player.page.get_attribute(".board .dice", "data-dice")
            dice = (int(shown[0]), int(shown[1]))
        plays = position.legal_plays(dice, rules)
        play = choose(position, plays, on_roll, rules)
        player.play(position, play, typed=turn % 5 == 3)
        after = position.apply(play)
        player.log.append((on_roll, dice, after))
        if after.winner() == 0:
            return on_roll, after
        position, on_roll = after.flip(), 1 - on_roll
    raise AssertionError("the game did not end")


def pips_after(position: Position, play: Play) -> int:
    return position.apply(play).pips()[0]


def check_file(path: Path, log: list[tuple[int, tuple[int, int], Position]]) -> Any:
    """The transcript: 0 problems, and its rolls are the log's (player, dice, board after)."""
    match = read_mat(path)
    report = validate(match, match.rules)
    assert [str(p) for p in report.problems] == []
    rolls = []
    for game in match.games:
        position = Position.initial()
        for turn in (t for t in game.turns if t.kind == "roll"):
            assert turn.dice is not None
            after = position.apply(turn.moves)
            rolls.append((turn.player, tuple(sorted(turn.dice)), after))
            position = after.flip()
    assert rolls == [(p, tuple(sorted(d)), b) for p, d, b in log]
    return match


def gnubg_same(gnubg_bin: Path, path: Path, tmp_path: Path) -> None:
    from gnubg_load import gnubg_view, load_in_gnubg, record_view

    [dump] = load_in_gnubg(gnubg_bin, [path], tmp_path)
    ours, theirs = record_view(read_mat(path)), gnubg_view(dump)
    for view in (ours, theirs):  # gnubg lists a roll's steps in its own order
        for game in view:
            game["actions"] = [(p, kind, dice, tuple(sorted(moves))) for p, kind, dice, moves in game["actions"]]
    assert [g["actions"] for g in theirs] == [g["actions"] for g in ours]
    assert [(g["score"], g["result"]) for g in theirs] == [(g["score"], g["result"]) for g in ours]


# --- a Tavla match to 3: a mars, then a resignation ------------------------------------------------

FAST = [(6, 6), (5, 5), (6, 5), (4, 4), (6, 4)]
SLOW = [(2, 1), (1, 1), (3, 1), (2, 2)]
HOW = ["typed", "tapped", "name"]


def racing(position: Position, plays: list[Play], on_roll: int, rules: Rules) -> Play:
    """Player 0 runs home as fast as it can, player 1 leaves player 0's home (gnubg, with no Tavla rules,
    would count a backgammon there) and keeps back; neither hits."""

    def hits(play: Play) -> int:
        return sum(m.hit for m in position.mark_hits(play))

    if on_roll == 0:
        return min(plays, key=lambda p: (hits(p), pips_after(position, p), str(p)))

    def back(play: Play) -> int:
        return sum(position.apply(play).points()[0][18:])

    return min(plays, key=lambda p: (back(p), hits(p), -pips_after(position, p), str(p)))


@pytest.fixture(scope="module")
def tavla_played(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Player]]:
    out = tmp_path_factory.mktemp("tavla") / "tavla.mat"
    server = Server(out, "--rules", "tavla", "--length", "3", "--players", "Ali", "Veli")
    try:
        player = Player(browser, server, (390, 844), touch=True)  # a phone upright
        player.type("65")  # the opening throw: Ali 6, Veli 5; Ali throws again (Tavla)
        assert "Ali" in player.text("status")
        rules = Rules.preset("tavla")
        dice_for = lambda turn, who: ((FAST if who == 0 else SLOW)[turn // 2 % 4], HOW[turn % 3])  # noqa: E731
        winner, final = drive_game(player, rules, dice_for, racing, 0)
        assert winner == 0 and final.result_kind(rules) == "mars"
        assert "mars" in player.text("status") and "2" in player.text("status")
        player.button("next")
        player.tap_dice((2, 4))  # game 2's opening throw: Veli starts
        player.type("31")
        for point in (8, 5, 6, 5):
            player.spot(point)
        assert player.text("play") == "8/5 6/5"
        player.page.keyboard.press("Enter")
        player.wait()
        player.log.append((1, (3, 1), Position.initial().apply(Play.parse("8/5 6/5"))))
        player.press(".resign summary")
        player.page.select_option("[data-role=resigner]", "1")
        player.page.select_option("[data-role=resign-kind]", "single")
        player.button("resign")
        assert "Ali wins the match 3-0" in player.text("status")
        assert player.errors == []
        yield out, player
    finally:
        server.stop()


def test_tavla_match_played_on_the_page(tavla_played: tuple[Path, Player]) -> None:
    """The file holds the dice and plays made, the mars (2 points) and the resignation; 0 problems."""
    out, player = tavla_played
    match = check_file(out, player.log)
    assert match.rules == Rules.preset("tavla") and match.length == 3
    assert [(g.result.winner, g.result.points, g.result.resigned) for g in match.games if g.result] == [
        (0, 2, False),
        (0, 1, True),
    ]
    assert "Recording" not in match.tags  # the match is over


def test_tavla_match_imports_into_gnubg(tavla_played: tuple[Path, Player], gnubg_bin: Path, tmp_path: Path) -> None:
    gnubg_same(gnubg_bin, tavla_played[0], tmp_path)


# --- a backgammon game with the cube -------------------------------------------------------------


def test_backgammon_game_with_the_cube(browser: Any, servers: list[Server], tmp_path: Path, request: Any) -> None:
    """Dice from the page's seeded roller; a double taken, a redouble dropped: the taker wins 2 points."""
    out = tmp_path / "bg.mat"
    servers.append(Server(out, "--rules", "backgammon", "--length", "5", "--players", "Ann", "Bob", "--seed", "3"))
    player = Player(browser, servers[-1])
    rules = Rules.preset("backgammon")
    rnd = random.Random(5)
    player.type("31")  # Ann 3, Bob 1: Ann plays the opening 3-1 (international rules)
    assert player.page.get_attribute(".board .dice", "data-dice") == "31"
    player.play(Position.initial(), Play.parse("8/5 6/5"))
    player.log.append((0, (3, 1), Position.initial().apply(Play.parse("8/5 6/5"))))
    position, on_roll = player.log[-1][2].flip(), 1
    for turn in range(1, 40):
        if turn == 7:  # Bob doubles, Ann takes
            assert on_roll == 1
            player.button("double")
            assert "take or drop" in player.text("status")
            player.button("take")
        if turn == 12:  # Ann, the owner, redoubles; Bob drops
            assert on_roll == 0
            player.button("double")
            player.button("drop")
            break
        player.button("roll")
        shown = player.page.get_attribute(".board .dice", "data-dice")
        dice = (int(shown[0]), int(shown[1]))
        play = rnd.choice(sorted(position.legal_plays(dice, rules), key=str))
        player.play(position, play, typed=turn % 4 == 2)
        player.log.append((on_roll, dice, position.apply(play)))
        position, on_roll = position.apply(play).flip(), 1 - on_roll
    assert "Ann wins 2 points" in player.text("status")
    assert player.errors == []
    match = check_file(out, player.log)
    assert match.rules == rules
    kinds = [(t.player, t.kind, t.cube) for t in match.games[0].turns if t.kind != "roll"]
    assert kinds == [(1, "double", 2), (0, "take", None), (0, "double", 4), (1, "drop", None)]
    assert match.games[0].result is not None and (match.games[0].result.winner, match.games[0].result.points) == (0, 2)
    assert match.tags.get("Recording") == "in progress"  # 2-0 in a match to 5
    if Path("/usr/games/gnubg").exists():
        gnubg_same(request.getfixturevalue("gnubg_bin"), out, tmp_path)


# --- nothing lost ------------------------------------------------------------------------------------


def test_killed_server_loses_no_completed_turn(servers: list[Server], tmp_path: Path) -> None:
    """kill -9 in the middle of a turn; started again on the file, the match goes on from the last completed turn."""
    out = tmp_path / "live.mat"
    server = Server(out, "--rules", "tavla", "--length", "3", "--players", "Ali", "Veli")
    servers.append(server)
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.call("dice", token="wrong", dice=[6, 5])
    assert refused.value.code == 403
    rules, rnd = Rules.preset("tavla"), random.Random(11)
    server.call("dice", dice=[5, 2])  # Ali starts
    position, on_roll = Position.initial(), 0
    for _turn in range(6):
        dice = (rnd.randint(1, 6), rnd.randint(1, 6))
        play = rnd.choice(sorted(position.legal_plays(dice, rules), key=str))
        server.call("dice", dice=list(dice))
        for move in play:
            if server.call("state")["can"]["done"]:
                break
            assert server.call("move", src=move.src, dst=move.dst)["refused"] is None
        assert server.call("done")["refused"] is None
        position, on_roll = position.apply(play).flip(), 1 - on_roll
    server.call("dice", dice=[3, 1])
    server.call("text", text="8/5")  # the turn in progress
    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(10)
    again = Server(out)
    servers.append(again)
    shown = again.call("state")
    assert shown["phase"] == "roll" and len(shown["turns"]) == 6
    assert Position.from_position_id(re.search(r'data-position-id="([^"]+)"', shown["board"])[1]) == position
    match = read_mat(out)
    assert [str(p) for p in validate(match, match.rules).problems] == []
    assert [t.player for t in match.games[0].turns] == [0, 1] * 3
    assert again.call("dice", dice=[6, 6])["phase"] == "move"


# --- illegal attempts, refused with the reason --------------------------------------------------------

#: The reasons, as a reader of each language expects them (written here, not taken from the catalog).
REASONS = {
    "en": ("point 19 is closed", "bearing off only when all 15 checkers are home", "on the bar must enter first"),
    "tr": ("19 numaralı hane kapalı", "pul toplamaya ancak 15 pulun hepsi evdeyken", "kırılan pul önce girmeli"),
}


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_illegal_attempts_refused_with_the_reason(
    browser: Any, servers: list[Server], tmp_path: Path, lang: str
) -> None:
    servers.append(Server(tmp_path / "x.mat", "--players", "Ali", "Veli", lang=lang))
    player = Player(browser, servers[-1], (844, 390))
    closed, home, bar = REASONS[lang]
    player.type("65")  # Ali starts
    player.type("şeş beş")
    player.spot(24)
    lit = player.page.eval_on_selector_all(".spot.lit", "els => els.map(e => e.dataset.point)")
    assert sorted(lit, key=int) == ["13", "18"]
    player.spot(19)  # 24/19: the opponent's 6-point, five checkers
    assert closed in player.refused()
    player.spot(8)  # another checker picked
    player.spot(0)  # the tray: bear off from 8 (with the 6, 8/2 is open) while not all are home
    assert home in player.refused()
    player.spot(24)
    player.spot(18)
    player.spot(13)
    player.spot(8)  # 13/8: a blot left on 18
    player.page.keyboard.press("Enter")
    player.wait()
    player.type("21")  # Veli: 8/7* hits it (Ali's 18 is Veli's 7), 13/11
    for point in (8, 7, 13, 11):
        player.spot(point)
    player.button("done")
    player.type("31")  # Ali, on the bar, tries a checker on 13
    player.spot(13)
    assert bar in player.refused()
    assert player.page.eval_on_selector_all(".spot.lit", "els => els.length") == 0
    assert player.errors == []


# --- the session without the page ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["tavla", "tavla-outside-home", "backgammon"])
def test_random_matches_validate_and_continue(preset: str, tmp_path: Path) -> None:
    """Whole matches of random legal choices (each checker moved, undone now and then, the cube used at
    random): every file written validates with 0 problems (the replay judges each play), and a session
    opened again on the file at any turn is where the first one was."""
    rnd = random.Random(preset)
    path = tmp_path / "m.mat"
    s = Session.open(path, rules=Rules.preset(preset), length=3, players=("A", "B"), seed=2)
    reopened = 0
    for _step in range(5000):
        if s.phase == "match-over":
            break
        if s.phase == "opening":
            try:
                s.roll_for_me()
            except Refused as equal:
                assert "throw again" in str(equal)
        elif s.phase == "roll" and s.game is not None and s.game.turns and rnd.random() < 0.05:
            before = (s.on_roll, s.position, s.cube, s.owner, s.score(), s.crawford)
            s = Session.open(path, seed=2)
            assert (s.phase, s.on_roll, s.position, s.cube, s.owner, s.score(), s.crawford) == ("roll", *before)
            reopened += 1
        elif s.phase == "roll":
            s.double() if s.may_double() and rnd.random() < 0.05 else s.roll_for_me()
        elif s.phase == "cube":
            (s.take if rnd.random() < 0.6 else s.drop)()
        elif s.phase == "move" and s.to_play() > 0:
            src = rnd.choice(s.movable())
            s.move(src, rnd.choice(s.targets(src)))
            if rnd.random() < 0.05:
                s.undo()
        elif s.phase == "move":
            s.finish()
            match = read_mat(path)
            assert [str(p) for p in validate(match, match.rules).problems] == []
        else:
            s.next_game()
    assert s.phase == "match-over" and reopened
    match = read_mat(path)
    assert max(match.final_score()) >= 3 and "Recording" not in match.tags
    assert [str(p) for p in validate(match, match.rules).problems] == []
    with pytest.raises(ValueError, match="over"):
        Session.open(path)


def test_a_file_cut_short_is_still_reported(tmp_path: Path) -> None:
    """Only a whole last line of a file that says it is being recorded is an unfinished game; a cut one is not."""
    s = Session.open(tmp_path / "m.mat", rules=Rules.preset("tavla"), players=("A", "B"))
    s.opening((6, 1))
    s.enter_text("31")
    s.move(8, 5)
    s.move(6, 5)
    s.finish()
    text = (tmp_path / "m.mat").read_text(encoding="utf-8")
    assert '; [Recording "in progress"]' in text
    for name, cut, codes in (
        ("whole", text, []),
        ("no tag", text.replace('; [Recording "in progress"]\n', ""), ["truncated"]),
        ("cut", text.rstrip("\n")[:-2], ["truncated"]),
    ):
        match = read_mat(cut)
        assert [p.code for p in validate(match, match.rules).problems] == codes, name
    # the unfinished match converts with nothing lost, reads back whole, and shows in the viewer
    import io

    from tavlakit.formats import read_match, write_match
    from tavlakit.pictures import viewer

    sgf = io.StringIO()
    assert write_match(read_mat(text), sgf, "sgf") == []
    (tmp_path / "m.sgf").write_text(sgf.getvalue(), encoding="utf-8")
    again = read_match(tmp_path / "m.sgf")
    assert again == read_mat(text) and validate(again, again.rules).problems == []
    assert "8/5" in viewer.html(read_mat(text))


def test_refusals_say_why(tmp_path: Path) -> None:
    s = Session.open(tmp_path / "m.mat", rules=Rules.preset("tavla"), players=("A", "B"))
    with pytest.raises(Refused, match="no checker moves now"):
        s.move(24, 18)
    with pytest.raises(Refused, match="no doubling cube"):
        s.double()
    s.opening((4, 2))
    with pytest.raises(Refused, match="cannot read 'seven' as dice"):
        s.enter_text("seven")
    s.enter_text("dubara")  # 2-2
    assert s.remaining() == [2, 2, 2, 2]
    with pytest.raises(Refused, match="no die of 2 2 2 2 takes the checker on 13 to 10"):
        s.move(13, 10)
    s.move(13, 9)
    s.undo()
    s.undo()  # with nothing moved: the dice entered
    assert s.phase == "roll" and s.turn.dice is None


def test_command_errors(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tavlakit.cli import app
    from tavlakit.cli.record import _loopback

    assert _loopback("127.0.0.1") and _loopback("::1") and _loopback("localhost")
    assert not _loopback("0.0.0.0") and not _loopback("192.168.1.5")  # these get the warning
    runner = CliRunner()
    bad = tmp_path / "bad.mat"
    bad.write_text(" 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 65: 24/10\n", encoding="utf-8")
    for args, said in (
        ([str(tmp_path / "m.txt")], "writes a .mat transcript"),
        ([str(bad)], "cannot be continued"),
        ([str(tmp_path / "n.mat"), "--length", "0"], "1 point or more"),
    ):
        result = runner.invoke(app, ["record", *args, "--no-browser"])
        assert result.exit_code == 2 and said in result.output and "Traceback" not in result.output


def test_the_crawford_game(tmp_path: Path) -> None:
    """Backgammon to 3: after 2-0 the next game has no cube (also when its opening is undone and thrown
    again), the game after it has; the validator agrees with the file."""
    path = tmp_path / "c.mat"
    s = Session.open(path, rules=Rules.preset("backgammon"), length=3, players=("A", "B"))
    s.opening((5, 3))
    s.resign(1, "mars")  # A wins a mars at once (the opening play not made)
    s.next_game()
    s.opening((4, 1))
    s.undo()  # the opening dice were the play's: back to the opening throw
    assert s.phase == "opening"
    s.opening((1, 4))
    s.move(24, 23)
    s.move(13, 9)
    s.finish()
    assert s.crawford and not s.may_double()
    with pytest.raises(Refused, match="Crawford"):
        s.double()
    s.resign(0, "single")
    s.next_game()
    s.opening((6, 2))
    s.move(24, 18)
    s.move(13, 11)
    s.finish()
    assert not s.crawford and s.may_double()
    s.double()
    s.take()
    match = read_mat(path)
    assert [str(p) for p in validate(match, match.rules).problems] == []
    assert [g.score for g in match.games] == [(0, 0), (2, 0), (2, 1)]
