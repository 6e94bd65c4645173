"""Translations of the user-facing text (gettext catalogs; English is the source).

Code marks text with ``_()`` (translate now) or :func:`N_` (mark only, for
text translated later, such as module-level tables). Problem codes and JSON
keys are identifiers and are never translated. The catalogs are
``locale/<lang>/LC_MESSAGES/tavlakit.po`` (compiled to ``.mo`` beside them);
``python -m tavlakit.i18n_tools`` extracts, updates and compiles them.

>>> set_language("en")
>>> _("illegal play")
'illegal play'
>>> language_from_environment({"LANG": "tr_TR.UTF-8"})
'tr'
>>> language_from_environment({"LC_ALL": "C", "LANG": "tr_TR.UTF-8"})
'en'

This module imports nothing of tavlakit's, so any module may use it.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "tavlakit"
#: The folder of the compiled catalogs (``<lang>/LC_MESSAGES/tavlakit.mo``).
LOCALE_DIR = Path(__file__).parent / "locale"
#: The language of the source text.
SOURCE_LANGUAGE = "en"
#: The environment variables that choose the language, in gettext's order.
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_language = SOURCE_LANGUAGE


def available_languages() -> list[str]:
    """English and every language with a compiled catalog, e.g. ``["en", "tr"]``."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return [SOURCE_LANGUAGE, *found]


def match_language(code: str) -> str | None:
    """The available language a locale code names ("tr", "tr_TR.UTF-8",
    "TR-tr" -> "tr"; "C", "POSIX" -> "en"), or None."""
    plain = code.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if plain in ("c", "posix"):
        return SOURCE_LANGUAGE
    languages = available_languages()
    for candidate in (plain, plain.split("_")[0]):
        if candidate in languages:
            return candidate
    return None


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The language the environment asks for, as Python's gettext reads it:
    the first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that is set decides (a
    colon-separated list of codes); English when it names no language there
    is a catalog for."""
    value = next((environ[v] for v in ENVIRONMENT if environ.get(v)), "")
    found = (match_language(code) for code in value.split(":"))
    return next((code for code in found if code is not None), SOURCE_LANGUAGE)


def set_language(language: str) -> None:
    """Use ``language`` ("en", "tr", "tr_TR", ...) for all text from now on.

    An unknown language is a ValueError naming the languages there are."""
    global _translation, _language
    found = match_language(language)
    if found is None:
        raise ValueError(
            _("unknown language {language!r}; the languages are: {languages}").format(
                language=language, languages=", ".join(available_languages())
            )
        )
    if found == SOURCE_LANGUAGE:
        _translation = _gettext.NullTranslations()
    else:
        _translation = _gettext.translation(DOMAIN, LOCALE_DIR, languages=[found])
    _language = found


def language() -> str:
    """The language in use."""
    return _language


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message for ``n``, translated."""
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it yet."""
    return message


__all__ = [
    "DOMAIN",
    "ENVIRONMENT",
    "LOCALE_DIR",
    "N_",
    "SOURCE_LANGUAGE",
    "_",
    "available_languages",
    "language",
    "language_from_environment",
    "match_language",
    "ngettext",
    "set_language",
]
