"""Translations of the user-facing text (gettext catalogs; English is the source).

Code marks text with :func:`_` (translate now) or :func:`N_` (mark only, for
text translated later, such as module-level tables). Problem codes and JSON
keys are identifiers and are never translated.

>>> set_language("en")
>>> _("illegal play")
'illegal play'

This module imports nothing of tavlakit's, so any module may use it.
"""

from __future__ import annotations

import gettext as _gettext
from pathlib import Path

DOMAIN = "tavlakit"
#: The folder of the compiled catalogs (``<lang>/LC_MESSAGES/tavlakit.mo``).
LOCALE_DIR = Path(__file__).parent / "locale"

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_language = "en"


def set_language(language: str) -> None:
    """Use ``language`` ("en", "tr", ...) for all text from now on."""
    global _translation, _language
    if language == "en":
        _translation = _gettext.NullTranslations()
    else:
        _translation = _gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])
    _language = language


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


__all__ = ["DOMAIN", "LOCALE_DIR", "N_", "_", "language", "ngettext", "set_language"]
