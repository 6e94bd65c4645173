"""Player names that are the same person: ``BlueNote``, ``bluenote ``,
``BlueNote,1660`` (a FIBS rating suffix) and names a mapping file joins.

A mapping file has one ``alias = name`` per line; ``#`` starts a comment.

>>> names = PlayerNames.parse("# club names\\nBN = BlueNote\\n")
>>> names.merge(["BlueNote,1660", " bluenote", "BlueNote", "bn", "nori"])
{'BlueNote,1660': 'BlueNote', ' bluenote': 'BlueNote', 'BlueNote': 'BlueNote', 'bn': 'BlueNote', 'nori': 'nori'}
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from ..i18n import _

#: A rating after the name: ``Name,1660``, ``Name (1660.5)``.
_RATING = re.compile(r"\s*(?:,\s*\d+(?:\.\d+)?|\(\s*\d+(?:\.\d+)?\s*\))\s*$")


def plain(name: str) -> str:
    """The name without surrounding spaces, doubled inner spaces or a rating.

    >>> plain("  Blue  Note,1660 ")
    'Blue Note'
    """
    return " ".join(_RATING.sub("", name).split()) or name.strip()


def key(name: str) -> str:
    """What two spellings of one person share: the plain name, any case."""
    return plain(name).casefold()


class PlayerNames:
    """Merges spellings of one person; a mapping joins other names too."""

    def __init__(self, aliases: dict[str, str] | None = None) -> None:
        self.aliases = {key(alias): plain(name) for alias, name in (aliases or {}).items()}

    @classmethod
    def parse(cls, text: str, source: str = "<names>") -> PlayerNames:
        """From a mapping file's text; a bad line is a ``ValueError`` naming it."""
        aliases: dict[str, str] = {}
        for number, line in enumerate(text.splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            alias, sep, name = line.partition("=")
            if not sep or not alias.strip() or not name.strip():
                raise ValueError(
                    _("{source}:{line}: expected 'alias = name', not {text!r}").format(
                        source=source, line=number, text=line
                    )
                )
            aliases[alias.strip()] = name.strip()
        return cls(aliases)

    @classmethod
    def load(cls, path: str | Path) -> PlayerNames:
        """From a mapping file (UTF-8)."""
        return cls.parse(Path(path).read_text(encoding="utf-8"), str(path))

    def merge(self, names: Iterable[str]) -> dict[str, str]:
        """Each name mapped to the one shown for its person: the mapping's
        name, else the commonest plain spelling (ties: the first in sort
        order)."""
        names = list(names)
        spellings: dict[str, Counter[str]] = {}
        for name in names:
            spellings.setdefault(key(name), Counter())[plain(name)] += 1
        shown = {k: min(c, key=lambda s: (-c[s], s)) for k, c in spellings.items()}
        shown.update({key(target): target for target in self.aliases.values()})
        shown.update(self.aliases)
        return {name: shown[key(name)] for name in names}


__all__ = ["PlayerNames", "key", "plain"]
