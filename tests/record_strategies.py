"""Hypothesis strategies for whole records with legal plays (for format round trips).

Plays come from :meth:`Position.legal_plays`, so every roll has real moves
(with the engine's hit flags) that SGF can carry and a reader can replay.
"""

from __future__ import annotations

from hypothesis import strategies as st

from tavlakit.position import Position
from tavlakit.record import Game, Match, Result, Turn
from tavlakit.rules import Rules

BACKGAMMON = Rules.preset("backgammon")
# Text without "\r" (SGF readers fold CR LF) but with the characters SGF escapes.
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"), max_size=12)
NAMES = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)


@st.composite
def games(draw: st.DrawFn, number: int, crawford_rule: bool, sgf: bool) -> Game:
    first = draw(st.integers(0, 1))
    pos = Position.initial()
    start = None
    if draw(st.integers(0, 4)) == 0:  # a set-up start: the position after a few random plays
        for _ in range(draw(st.integers(1, 6))):
            plays = pos.legal_plays((draw(st.integers(1, 6)), draw(st.integers(1, 6))), BACKGAMMON)
            pos = pos.play(draw(st.sampled_from(plays)))
        start = pos.position_id()
    game = Game(number=number, score=(draw(st.integers(0, 20)), draw(st.integers(0, 20))), start=start,
                crawford=draw(st.booleans()) if crawford_rule else None)
    player, cube, owner = first, 1, None
    ended = False
    for _ in range(draw(st.integers(0, 40))):
        if (owner is None or owner == player) and draw(st.integers(0, 9)) == 0:
            cube *= 2
            game.turns.append(Turn(player, "double", cube=cube))
            if draw(st.integers(0, 3)) == 0:
                game.turns.append(Turn(1 - player, "drop"))
                game.result = Result(player, cube // 2)
                ended = True
                break
            game.turns.append(Turn(1 - player, "take"))
            owner = 1 - player
        dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
        play = draw(st.sampled_from(pos.legal_plays(dice, BACKGAMMON)))
        comment = draw(st.none() | TEXT) if draw(st.integers(0, 5)) == 0 else None
        game.turns.append(Turn(player, "roll", dice, play.moves, comment=comment))
        pos = pos.play(play)
        if pos.winner() is not None:
            game.result = Result(player, cube * draw(st.integers(1, 3)))
            ended = True
            break
        player = 1 - player
    if not ended and draw(st.booleans()):
        if game.turns and draw(st.booleans()):  # rolled, then resigned without playing
            dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
            game.turns.append(Turn(player, "roll", dice))
        game.result = Result(1 - player, cube * draw(st.integers(1, 3)), resigned=True)
    if draw(st.integers(0, 3)) == 0:
        game.comments.append(draw(TEXT))
    if not sgf and draw(st.booleans()):
        game.extra["other:note"] = [draw(TEXT)]
    return game


@st.composite
def matches(draw: st.DrawFn, sgf: bool = False) -> Match:
    """A match; ``sgf=True`` keeps to what SGF can hold (its tags, no
    foreign extras)."""
    crawford = draw(st.booleans())
    tags: dict[str, str] = {"Crawford": "On"} if crawford else {}
    if sgf:
        for tag in draw(st.lists(st.sampled_from(["Event", "Round", "Site", "Transcriber"]), max_size=2)):
            tags[tag] = draw(TEXT.filter(bool))
        if draw(st.booleans()):
            tags["EventDate"] = draw(st.sampled_from(["2025.11.08", "1999.01.31"]))
    else:
        tags.update(draw(st.dictionaries(NAMES, TEXT, max_size=3)))
    match = Match(players=(draw(NAMES), draw(NAMES)), length=draw(st.sampled_from([0, 1, 3, 5, 7, 25])),
                  tags=tags, comments=draw(st.lists(TEXT.filter(bool), max_size=1)))
    for number in range(1, draw(st.integers(1, 3)) + 1):
        match.games.append(draw(games(number, crawford, sgf)))
    return match
