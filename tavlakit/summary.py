"""Short faces of the record model: one-line reprs and Jupyter HTML tables.

A match of 25 games is 70,000 characters as a dataclass dump; here it is
one line, and in a notebook a small table of its games (score, result,
problems). :class:`~tavlakit.record.Match`, ``Game``,
:class:`~tavlakit.replay.Report` and :class:`~tavlakit.problem.Problem`
call these from their ``__repr__`` and ``_repr_html_``.

>>> from tavlakit.record import Game, Match, Result
>>> match = Match(("Alpha", "Bravo"), 3, [Game(1, result=Result(1, 2)), Game(2, (0, 2), result=Result(0, 1))])
>>> match
<Match 'Alpha' vs 'Bravo', 3-point match, 2 games, score 1-2>
>>> Game(1, result=Result(1, 2))
<Game 1: 0-0, 0 turns, 'Player 2' won 2 points>
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .i18n import _, ngettext

if TYPE_CHECKING:
    from .problem import Problem
    from .record import Game, Match
    from .replay import Report

_STYLE = ("border-collapse:collapse;font-size:13px", "padding:2px 8px;border:1px solid #ccc;text-align:left")


def score_after(game: Game) -> tuple[int, int]:
    """The score after ``game``: its score before plus the points its result gives."""
    score = list(game.score)
    if game.result is not None and game.result.winner in (0, 1):
        score[game.result.winner] += game.result.points
    return score[0], score[1]


def final_score(match: Match) -> tuple[int, int]:
    """The score after the last game ((0, 0) for a match without games)."""
    return score_after(match.games[-1]) if match.games else (0, 0)


def _length(length: int) -> str:
    return f"{length}-point match" if length else "money"


def match_repr(match: Match) -> str:
    a, b = final_score(match)
    problems = len(match.problems) + sum(len(g.problems) for g in match.games)
    tail = f", {problems} problems" if problems else ""
    return (f"<Match {match.players[0]!r} vs {match.players[1]!r}, {_length(match.length)}, "
            f"{len(match.games)} games, score {a}-{b}{tail}>")


def game_repr(game: Game) -> str:
    result = game.result
    if result is None:
        ending = "no result"
    else:
        who = repr(game.players[result.winner]) if result.winner in (0, 1) else f"player {result.winner}"
        ending = f"{who} won {result.points} point{'s' if result.points != 1 else ''}"
        if result.resigned:
            ending += " (resigned)"
    tail = f", {len(game.problems)} problems" if game.problems else ""
    return f"<Game {game.number}: {game.score[0]}-{game.score[1]}, {len(game.turns)} turns, {ending}{tail}>"


def report_repr(report: Report) -> str:
    match = report.match
    return (f"<Report {match.players[0]!r} vs {match.players[1]!r}: {report.games} games, {report.plays} plays, "
            f"{len(report.errors)} errors, {len(report.warnings)} warnings>")


def problem_repr(problem: Problem) -> str:
    return f"<Problem {problem.location()} {problem.severity} {problem.code}: {problem.message!r}>"


# --- HTML ----------------------------------------------------------------------


def _table(head: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A small HTML table; every cell is escaped here."""
    cell = _STYLE[1]
    out = [f'<table style="{_STYLE[0]}"><thead><tr>']
    out.extend(f'<th style="{cell}">{html.escape(h)}</th>' for h in head)
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f'<td style="{cell}">{html.escape(str(v))}</td>' for v in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _result_text(game: Game, players: tuple[str, str] | None) -> str:
    result = game.result
    if result is None:
        return _("no result")
    who = players[result.winner] if players and result.winner in (0, 1) else _("player {number}").format(
        number=result.winner)
    text = ngettext("{name} wins {points} point", "{name} wins {points} points", result.points).format(
        name=who, points=result.points)
    return _("{result} (resigned)").format(result=text) if result.resigned else text


def counts(problems: Iterable[Problem]) -> str:
    """``2 errors, 1 warning`` (and notes; empty when none)."""
    found = Counter(p.severity for p in problems)
    parts = []
    if found["error"]:
        parts.append(ngettext("{n} error", "{n} errors", found["error"]).format(n=found["error"]))
    if found["warning"]:
        parts.append(ngettext("{n} warning", "{n} warnings", found["warning"]).format(n=found["warning"]))
    if found["info"]:
        parts.append(ngettext("{n} note", "{n} notes", found["info"]).format(n=found["info"]))
    return ", ".join(parts)


def worst(problems: Iterable[Problem]) -> str | None:
    """The gravest severity among ``problems`` (``error``, ``warning``, ``info``), ``None`` when none."""
    found = {p.severity for p in problems}
    return next((s for s in ("error", "warning", "info") if s in found), None)


def _heading(match: Match) -> str:
    a, b = final_score(match)
    length = (_("{length}-point match").format(length=match.length) if match.length else _("money session"))
    text = _("{first} vs {second}: {length}, {games} games, score {a}-{b}").format(
        first=match.players[0], second=match.players[1], length=length, games=len(match.games), a=a, b=b)
    return f"<p><b>{html.escape(text)}</b></p>"


def _games_table(match: Match, problems_of: dict[int | None, list[Problem]]) -> str:
    head = [_("game"), _("score"), _("turns"), _("result"), _("problems")]
    rows = [(g.number, f"{g.score[0]}-{g.score[1]}", len(g.turns), _result_text(g, match.players),
             counts(problems_of.get(g.number, []))) for g in match.games]
    return _table(head, rows)


def _by_game(problems: Iterable[Problem]) -> dict[int | None, list[Problem]]:
    out: dict[int | None, list[Problem]] = {}
    for p in problems:
        out.setdefault(p.game, []).append(p)
    return out


def match_html(match: Match) -> str:
    problems_of: dict[int | None, list[Problem]] = {g.number: list(g.problems) for g in match.games}
    out = [_heading(match), _games_table(match, problems_of)]
    if match.problems:
        out.append(f"<p>{html.escape(counts(match.problems))}</p>")
    return "".join(out)


def game_html(game: Game) -> str:
    head = [_("game"), _("score"), _("turns"), _("result"), _("problems")]
    return _table(head, [(game.number, f"{game.score[0]}-{game.score[1]}", len(game.turns),
                          _result_text(game, None), counts(game.problems))])


#: At most this many problems are listed under a report's table.
SHOWN_PROBLEMS = 20


def report_html(report: Report) -> str:
    out = [_heading(report.match), _games_table(report.match, _by_game(report.problems))]
    summary = counts(report.problems) or _("no problems")
    out.append(f"<p>{html.escape(summary)}</p>")
    if report.problems:
        listed = report.problems[:SHOWN_PROBLEMS]
        out.append(_problems_table(listed))
        if len(report.problems) > len(listed):
            more = _("and {n} more").format(n=len(report.problems) - len(listed))
            out.append(f"<p>{html.escape(more)}</p>")
    return "".join(out)


def _problems_table(problems: Sequence[Problem]) -> str:
    head = [_("where"), _("game"), _("move"), _("severity"), _("code"), _("message")]
    return _table(head, [(p.location(), p.game or "", p.move or "", p.severity, p.code, p.message)
                         for p in problems])


def problem_html(problem: Problem) -> str:
    return _problems_table([problem])
