"""A page to study one's mistakes: one self-contained, offline HTML page.

Each mistake (:mod:`tavlakit.analysis.mistakes`) is a card: the board
before the roll with the dice, the score and the cube, the best play and
the play made drawn as arrows of two colours with a legend
(:func:`tavlakit.pictures.svg.board`), the candidates as gnubg's hint lists
them (rank, play, equity, difference to the best), the equity lost and
the position's IDs. The cards come worst first; the page needs no script
and reads on a phone's width. :func:`table` is the same, smaller, as a
table for Jupyter (registered with :func:`tavlakit.analysis.mistakes.drawn_by`
when this module is imported).
"""

from __future__ import annotations

import html as _html
from collections.abc import Sequence
from functools import cache
from importlib import resources

from ..analysis.mistakes import Choice, Mistake, drawn_by, score_text
from ..engine.numbering import Numbering, NumberingLike
from ..evaluation.levels import level as as_level
from ..i18n import N_, _, language, ngettext
from . import svg

#: How many candidates a card lists before the one played (gnubg's hint shows 5 by default).
SHOWN = 5
#: gnubg's words for a mark, translated.
MARKS = {"doubtful": N_("doubtful"), "bad": N_("bad"), "very bad": N_("very bad")}
#: The decision a mistake was, as a card heads it.
KINDS = {
    "roll": N_("chequer play"),
    "no double": N_("no double"),
    "double": N_("double"),
    "take": N_("take"),
    "pass": N_("pass"),
}


def _esc(text: object) -> str:
    return _html.escape(str(text), quote=True)


@cache
def _asset(name: str) -> str:
    return (resources.files("tavlakit.pictures") / "static" / name).read_text(encoding="utf-8")


def play_text(choice: Choice, mistake: Mistake, numbering: Numbering) -> str:
    """A candidate as the page writes it: a play in ``numbering``, a cube choice translated."""
    if choice.play is None:
        return _(choice.text) if mistake.kind != "roll" else choice.text
    return choice.play.notation(flip=numbering.flips(mistake.player)) or _("(no move)")


def lost_text(m: Mistake) -> str:
    """The equity lost: EMG and MWC (money play: points)."""
    if m.length:
        return _("{emg:.3f} EMG ({mwc:.2%} MWC)").format(emg=m.error_emg, mwc=m.error_mwc)
    return _("{emg:.3f} EMG ({points:.3f} points)").format(emg=m.error_emg, points=m.error_mwc)


def board(m: Mistake, numbering: Numbering, *, arrows: bool = True, size: int | None = None) -> str:
    """The board of a mistake before the decision: dice, score, cube and
    (``arrows``) the best play and the one made, with a legend."""
    plays = []
    if arrows and m.kind == "roll":
        best, made = m.best_play(), m.played_play()
        flip = numbering.flips(m.player)
        if best is not None:
            plays.append((best, _("Best: {play}").format(play=best.notation(flip=flip) or _("(no move)"))))
        if made is not None:
            plays.append((made, _("Played: {play}").format(play=made.notation(flip=flip) or _("(no move)"))))
    taker = m.kind in ("take", "pass")
    return svg.board(
        m.position,
        dice=m.dice if m.kind == "roll" else None,
        plays=plays,
        cube=(m.cube, m.cube_owner) if m.rules.cube else None,
        score=m.score if m.length else None,
        length=m.length,
        names=m.names,
        player=m.on_roll,
        numbering=numbering,
        flipped=taker,  # the taker, who decides, at the bottom, the points numbered from their side
        labels_by=1 if taker else 0,
        size=size,
        caption=_("{name} doubles to {value}").format(name=m.names[m.on_roll], value=2 * m.cube)
        if taker or m.kind == "double"
        else None,
    )


def _shown(m: Mistake) -> list[tuple[int, Choice]]:
    """The candidates a card lists, with their rank: the first :data:`SHOWN`
    and the one played (a cube decision: all three)."""
    ranked = list(enumerate(m.candidates, 1))
    if m.kind != "roll":
        return ranked
    return [(rank, c) for rank, c in ranked if rank <= SHOWN or c.played]


def candidates_table(m: Mistake, numbering: Numbering) -> str:
    """The candidates as gnubg's hint lists them: rank, play, the plies it
    was judged at (the plays the move filter keeps are judged deepest and
    come first, as in gnubg's hint), equity, difference."""
    head = _("Cube decision") if m.kind != "roll" else _("Play")
    equity, difference_head, depth = _("Equity"), _("Diff."), _("Depth")
    rolled = _("Rollout")
    rollout_head = f"<th class='num rollout'>{_esc(rolled)}</th>" if m.rollout else ""
    columns = 5 if m.rollout else 4
    rows = [
        f"<table class='candidates{' with-rollout' if m.rollout else ''}'><thead><tr>"
        f"<th>#</th><th>{_esc(head)}</th><th class='ply'>{_esc(depth)}</th><th class='num'>{_esc(equity)}</th>"
        f"<th class='num'>{_esc(difference_head)}</th>{rollout_head}</tr></thead><tbody>"
    ]
    last = 0
    # the proper action: the cube choice worth the doubler's best (a difference of 0)
    best_index = 0 if m.kind == "roll" else min(range(len(m.candidates)), key=lambda i: abs(m.candidates[i].difference))
    for rank, choice in _shown(m):
        if rank > last + 1:
            rows.append(f"<tr class='gap'><td></td><td colspan='{columns}'>\u2026</td></tr>")
        last = rank
        classes = []
        if rank - 1 == best_index:
            classes.append("best")
        if choice.played:
            classes.append("played")
        yours = _("yours")
        tag = f" <span class='tag'>{_esc(yours)}</span>" if choice.played else ""
        difference = "" if rank - 1 == best_index else f"{choice.difference:+.3f}"
        plies = _("{plies} ply").format(plies=choice.plies)
        rows.append(
            f"<tr class='{' '.join(classes)}'><td>{rank}</td><td class='play'>"
            f"{_esc(play_text(choice, m, numbering))}{tag}</td>"
            f"<td class='ply'>{_esc(plies)}</td>"
            f"<td class='num'>{choice.equity:+.3f}</td><td class='num'>{difference}</td>"
            f"{_rollout_cell(m, rank - 1)}</tr>"
        )
    rows.append("</tbody></table>")
    return "".join(rows)


def _rollout_cell(m: Mistake, index: int) -> str:
    """A candidate's rolled-out equity and its standard error (blank: not rolled out; no cell: no rollout)."""
    if m.rollout is None:
        return ""
    found = m.rollout.equities.get(index)
    if found is None:
        return "<td class='num rollout'></td>"
    equity, se = found
    spread = f"<span class='se'> \u00b1{se:.3f}</span>" if se else ""  # (a cash is exact)
    return f"<td class='num rollout'>{equity:+.3f}{spread}</td>"


def rollout_note(m: Mistake) -> str:
    """What the rollout of a verified mistake says: confirmed or reversed,
    by how much, and its trials and settings (nothing when not rolled out)."""
    r = m.rollout
    if r is None:
        return ""
    if r.reversed:
        verdict = _(
            "Reversed by the rollout: yours rolled out as good as the best within two standard errors, "
            "or better ({margin:+.3f} \u00b1 {sigma:.3f} EMG)."
        )
    else:
        verdict = _("Confirmed by the rollout: the best rolled out {margin:.3f} \u00b1 {sigma:.3f} EMG better.")
    truncated = _("truncated at {plies} plies").format(plies=r.truncate) if r.truncate else _("played to the end")
    settings = _("Rollout: {trials} trials, seed {seed}, {truncated}, play at {level}, {cube}.").format(
        trials=r.trials,
        seed=r.seed,
        truncated=truncated,
        level=as_level(r.level).describe(),
        cube=_("cubeful") if r.cubeful else _("cubeless"),
    )
    return (
        f"<p class='verdict{' reversed' if r.reversed else ''}'>{_esc(verdict.format(margin=r.margin, sigma=r.sigma))}"
        f"<br><span class='settings'>{_esc(settings)}</span></p>"
    )


def cube_actions(m: Mistake) -> str:
    """A cube decision's proper action (gnubg's words) and the one taken."""
    return (
        "<p class='proper'>"
        + _esc(_("Proper cube action: {action}").format(action=_(m.best)))
        + "<br>"
        + _esc(_("Yours: {action}").format(action=_(m.played)))
        + "</p>"
    )


def _where(m: Mistake) -> str:
    """Where the decision was: the player, the file, the game and the move."""
    move = _("move {number}").format(number=m.number) if m.number else _("turn {number}").format(number=m.turn + 1)
    return _("{name} · {match} · game {game}, {move}").format(name=m.name, match=m.match, game=m.game, move=move)


def _ids(m: Mistake) -> str:
    label = _("gnubg ID")
    return (
        "<p class='ids'>"
        f"<span>{_esc(label)} <code>{_esc(m.gnubg_id)}</code></span> "
        f"<span><code>{_esc(m.xgid)}</code></span></p>"
    )


def card(m: Mistake, rank: int, numbering: Numbering) -> str:
    """One mistake's card."""
    mark = f" <span class='mark'>{_esc(_(MARKS[m.mark]))}</span>" if m.mark in MARKS else ""
    if m.rollout is not None:
        badge = _("reversed by the rollout") if m.rollout.reversed else _("rolled out")
        mark += f" <span class='rolled{' reversed' if m.rollout.reversed else ''}'>{_esc(badge)}</span>"
    kind = _(KINDS.get(m.kind, m.kind))
    dice = f" {m.dice[0]}{m.dice[1]}" if m.dice and m.kind == "roll" else ""
    lost = _("Equity lost: {lost}").format(lost=lost_text(m))
    score = _("score {score}").format(score=score_text(m))
    return (
        f"<section class='mistake' id='m{rank}'>"
        f"<h2><span class='rank'>{rank}.</span> <span class='lost'>\u2212{m.error_emg:.3f}</span>{mark}"
        f" <span class='kind'>{_esc(kind)}{_esc(dice)}</span></h2>"
        f"<p class='where'>{_esc(_where(m))}</p>"
        f"<div class='board'>{board(m, numbering)}</div>"
        f"<p class='lost-line'><span>{_esc(lost)}</span> <span>{_esc(score)}</span></p>"
        f"{candidates_table(m, numbering)}{cube_actions(m) if m.kind != 'roll' else ''}{rollout_note(m)}"
        f"{_ids(m)}</section>"
    )


def page(
    mistakes: Sequence[Mistake],
    *,
    title: str | None = None,
    numbering: NumberingLike = Numbering.RELATIVE,
    files: int | None = None,
) -> str:
    """The whole page: a header (whose mistakes, how many, what they lost,
    the analysis level), then one :func:`card` per mistake, in their order.
    ``files``: how many files were analysed, for the header."""
    chosen = Numbering.parse(numbering)
    names = sorted({m.name for m in mistakes})
    title = title or (_("Mistakes of {name}").format(name=names[0]) if len(names) == 1 else _("Mistakes"))
    level = mistakes[0].level.describe() if mistakes else ""
    facts = [ngettext("{count} mistake", "{count} mistakes", len(mistakes)).format(count=len(mistakes))]
    if mistakes:
        facts.append(_("{total:.3f} EMG lost").format(total=sum(m.error_emg for m in mistakes)))
        facts.append(_("analysis: {level}, cubeful, at the match score").format(level=level))
    verified = [m.rollout for m in mistakes if m.rollout is not None]
    if verified:
        rolled = ngettext("{count} rolled out", "{count} rolled out", len(verified)).format(count=len(verified))
        reversed_ = sum(r.reversed for r in verified)
        facts.append(rolled + (" " + _("({count} reversed)").format(count=reversed_) if reversed_ else ""))
    if files is not None:
        facts.append(ngettext("{count} file", "{count} files", files).format(count=files))
    intro = _(
        "Worst first. On each board the best play is drawn in orange, the play made in blue; "
        "the table lists the candidates as GNU Backgammon's hint does, with each one's equity "
        "and its difference to the best."
    )
    body = "".join(card(m, rank, chosen) for rank, m in enumerate(mistakes, 1))
    if not mistakes:
        none = _("No mistake: no decision lost as much equity as asked.")
        body = f"<p class='none'>{_esc(none)}</p>"
    return (
        f"<!DOCTYPE html><html lang='{_esc(language())}'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{_esc(title)}</title><style>{_asset('study.css')}</style></head><body>"
        f"<header><h1>{_esc(title)}</h1><p class='facts'>{_esc(' · '.join(facts))}</p>"
        f"<p class='intro'>{_esc(intro)}</p></header><main>{body}</main></body></html>"
    )


def table(mistakes: Sequence[Mistake], numbering: NumberingLike = Numbering.RELATIVE) -> str:
    """The mistakes as an HTML table with a board in each row (Jupyter's view of them)."""
    chosen = Numbering.parse(numbering)
    head = [_("#"), _("board"), _("player"), _("decision"), _("played"), _("best"), _("lost")]
    rows = []
    for rank, m in enumerate(mistakes, 1):
        best = m.candidates[0] if m.kind == "roll" and m.candidates else None
        made = next((c for c in m.candidates if c.played), None) if m.kind == "roll" else None
        score = _("score {score}").format(score=score_text(m))
        kind = _(KINDS.get(m.kind, m.kind)) + (f" {m.dice[0]}{m.dice[1]}" if m.dice and m.kind == "roll" else "")
        rows.append(
            "<tr>"
            f"<td>{rank}</td><td style='width:280px'>{board(m, chosen, size=280)}</td>"
            f"<td>{_esc(_where(m))}<br>{_esc(score)}</td><td>{_esc(kind)}</td>"
            f"<td>{_esc(play_text(made, m, chosen) if made else _(m.played))}</td>"
            f"<td>{_esc(play_text(best, m, chosen) if best else _(m.best))}</td>"
            f"<td>{_esc(lost_text(m))}<br>{_esc(m.level.describe())}</td></tr>"
        )
    header = "".join(f"<th>{_esc(h)}</th>" for h in head)
    return f"<table class='tavlakit-mistakes'><thead><tr>{header}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


drawn_by(table)  # a notebook shows a Mistakes as this table


__all__ = [
    "KINDS",
    "MARKS",
    "SHOWN",
    "board",
    "candidates_table",
    "card",
    "cube_actions",
    "lost_text",
    "page",
    "play_text",
    "rollout_note",
    "table",
]
