"""Mistakes as Anki flashcards: one note per mistake, in a ``.apkg`` file
(made with genanki) that Anki imports.

The front shows the board before the decision (the dice, the score, the
cube), who is to play and the question; the back the same board with the
best play and the play made as arrows, the best play, the play made, the
equity lost and the candidates with their equities (:mod:`.study`). The
boards are SVG pictures in the deck's media. A note's id comes from where
the decision was made, so a deck made again updates the notes already in
Anki instead of adding them twice.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Sequence
from pathlib import Path

import genanki

from ..analysis.mistakes import Mistake, score_text
from ..engine.numbering import Numbering, NumberingLike
from ..i18n import _
from .study import KINDS, board, candidates_table, cube_actions, lost_text, play_text, rollout_note

#: The note type's id: fixed, so that every deck tavlakit makes shares one note type in Anki.
MODEL_ID = 1_726_040_291
FIELDS = ("Decision", "Board", "Question", "Answer board", "Answer")
CSS = """
.card { font: 17px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222; background: #faf7f0;
        text-align: left; margin: 0 auto; max-width: 680px; padding: 6px; }
.board img { display: block; width: 100%; height: auto; }
.question { font-size: 19px; font-weight: 600; margin: 8px 0; }
.best { font-weight: 600; }
.lost { color: #b3261e; font-weight: 600; }
table.candidates { border-collapse: collapse; width: 100%; font-size: 15px; margin-top: 6px; }
table.candidates th { text-align: left; color: #666; border-bottom: 1px solid #d8d2c4; padding: 3px 5px; }
table.candidates td { padding: 3px 5px; border-bottom: 1px solid #eee8dc; }
table.candidates .num { text-align: right; white-space: nowrap; }
table.candidates td.play { font-family: ui-monospace, monospace; }
table.candidates tr.best { background: #fff6e0; }
table.candidates tr.played { background: #e8f5ff; }
.tag { font-size: 11px; color: #fff; background: #1f6fa8; border-radius: 8px; padding: 0 6px; }
.ids { font-size: 12px; color: #666; overflow-wrap: anywhere; }
table.candidates .se { color: #666; font-size: 12px; }
.verdict { font-size: 14px; margin: 6px 0 0; }
.verdict.reversed { font-weight: 600; color: #8a5a00; }
.verdict .settings { font-size: 12px; font-weight: 400; color: #666; }
.nightMode .card, .night_mode .card { background: #faf7f0; color: #222; }
"""


def _model() -> genanki.Model:
    return genanki.Model(
        MODEL_ID,
        "tavlakit mistake",
        fields=[{"name": name} for name in FIELDS],
        templates=[
            {
                "name": "your play?",
                "qfmt": "<div class='board'>{{Board}}</div><div class='question'>{{Question}}</div>",
                "afmt": "<div class='board'>{{Answer board}}</div><div class='question'>{{Question}}</div>"
                "<hr id='answer'>{{Answer}}",
            }
        ],
        css=CSS,
    )


def question(m: Mistake) -> str:
    """The front's question: the score, who is to decide, what, and "your play?"."""
    score = _("score {score}").format(score=score_text(m))
    if m.kind == "roll":
        assert m.dice is not None
        ask = _("{name} to play {a}{b}: your play?").format(name=m.name, a=m.dice[0], b=m.dice[1])
    elif m.kind in ("take", "pass"):
        ask = _("{name} is doubled: take or pass?").format(name=m.name)
    else:
        ask = _("{name} is on roll: double or not?").format(name=m.name)
    return f"{_esc(score)} · {_esc(ask)}"


def answer(m: Mistake, numbering: Numbering) -> str:
    """The back: the best play (or cube action), the one made, the equity lost, the candidates."""
    if m.kind == "roll":
        best = m.candidates[0]
        made = next(c for c in m.candidates if c.played)
        best_text = _("Best: {play}").format(play=play_text(best, m, numbering))
        made_text = _("Played: {play}").format(play=play_text(made, m, numbering))
        lines = [f"<div class='best'>{_esc(best_text)}</div>", f"<div>{_esc(made_text)}</div>"]
    else:
        lines = [cube_actions(m)]
    lost = _("Equity lost: {lost}").format(lost=lost_text(m))
    lines.append(f"<div class='lost'>{_esc(lost)}</div>")
    lines.append(candidates_table(m, numbering))
    lines.append(rollout_note(m))
    source = _("{match}, game {game} · {kind} · {level}").format(
        match=m.match, game=m.game, kind=_(KINDS.get(m.kind, m.kind)), level=m.level.describe()
    )
    lines.append(f"<p class='ids'>{_esc(source)}<br>{_esc(m.gnubg_id)}<br>{_esc(m.xgid)}</p>")
    return "".join(lines)


def _esc(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def _picture(folder: Path, svg: str) -> tuple[str, Path]:
    """An ``<img>`` of an SVG picture saved in ``folder`` under a name its
    content gives (Anki keeps one media folder for every deck)."""
    name = f"tavlakit-{hashlib.sha256(svg.encode()).hexdigest()[:20]}.svg"
    path = folder / name
    path.write_text(svg, encoding="utf-8")
    return f"<img src='{name}'>", path


def deck(
    mistakes: Sequence[Mistake],
    out: str | Path,
    *,
    title: str = "tavlakit",
    numbering: NumberingLike = Numbering.RELATIVE,
) -> int:
    """Write the mistakes as an Anki deck named ``title`` to ``out`` (a
    ``.apkg`` file); returns the number of notes (one per mistake)."""
    chosen = Numbering.parse(numbering)
    model = _model()
    made = genanki.Deck(int(hashlib.sha256(title.encode()).hexdigest()[:12], 16), title)
    media: dict[str, Path] = {}
    with tempfile.TemporaryDirectory() as folder:
        for m in mistakes:
            front, front_file = _picture(Path(folder), board(m, chosen, arrows=False))
            back, back_file = _picture(Path(folder), board(m, chosen))
            media.update({front_file.name: front_file, back_file.name: back_file})
            note = genanki.Note(
                model=model,
                fields=[f"{m.gnubg_id} {m.kind}", front, question(m), back, answer(m, chosen)],
                guid=genanki.guid_for("tavlakit", m.path, m.game, m.turn, m.kind),
                tags=["tavlakit", m.rules.name, m.kind.replace(" ", "_")],
            )
            made.add_note(note)
        genanki.Package(made, media_files=[str(path) for path in media.values()]).write_to_file(str(out))
    return len(mistakes)


__all__ = ["FIELDS", "MODEL_ID", "answer", "deck", "question"]
