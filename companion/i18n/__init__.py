"""The words a player reads, in their language: English (the text in the code) or German (the
gettext catalogues beside this file, one .po per part of the app: `de/<part>.po`).

    from companion.i18n import _, ngettext
    _("Back to the table")                       # "Zurück zum Tisch" once German is chosen
    _("{player} pays {gems} GEMs").format(...)   # placeholders, never an f-string inside _()
    set_language("de")                            # at once; screens are refreshed by the app

Every text marked with `_`, `ngettext` or `N_` (a constant marked, translated where it is
used) must have its German in a catalogue: tests/test_translations.py fails otherwise. The
catalogues are read with Babel when a language is chosen; English needs none.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Callable
from pathlib import Path

LANGUAGES = {"en": "English", "de": "Deutsch"}  # code -> the language's own name
DEFAULT = "en"
CATALOGUES = Path(__file__).parent

_current = DEFAULT
_translation: gettext.NullTranslations = gettext.NullTranslations()
_listeners: list[Callable[[], None]] = []


def catalogue_files(code: str) -> list[Path]:
    """A language's catalogues (none for English, the language of the code)."""
    return sorted((CATALOGUES / code).glob("*.po"))


def load(code: str) -> gettext.NullTranslations:
    """A language's translations from its catalogues (fuzzy entries left out); ValueError for
    a language that is not one of LANGUAGES."""
    if code not in LANGUAGES:
        raise ValueError(f"language {code!r}: expected one of {', '.join(LANGUAGES)}")
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    found: gettext.NullTranslations = gettext.NullTranslations()
    for path in reversed(catalogue_files(code)):
        with path.open("rb") as po:
            catalogue = read_po(po, locale=code)
        compiled = io.BytesIO()
        write_mo(compiled, catalogue)
        compiled.seek(0)
        part = gettext.GNUTranslations(compiled)
        part.add_fallback(found)
        found = part
    return found


def set_language(code: str) -> None:
    """Speak `code` from now on (ValueError for an unknown one); the listeners are told."""
    global _current, _translation
    _translation, _current = load(code), code
    for listener in list(_listeners):
        listener()


def from_environment() -> None:
    """The command lines' language (the app reads its config file instead): $PHOENIX_LANGUAGE,
    else the first of $LANGUAGE, $LC_ALL, $LC_MESSAGES and $LANG whose value starts with a known
    code ("de_DE.UTF-8" -> German); English when none does. Nothing happens when that is the
    language spoken already."""
    code = DEFAULT
    for name in ("PHOENIX_LANGUAGE", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        values = [v.strip() for v in os.environ.get(name, "").split(":")]  # $LANGUAGE: a list
        known = [v[:2].lower() for v in values
                 if v[:2].lower() in LANGUAGES and v[2:3] in ("", "_", "-", ".", "@")]
        if known:
            code = known[0]
            break
    if code != _current:
        set_language(code)


def language() -> str:
    """The language spoken now."""
    return _current


def on_change(listener: Callable[[], None]) -> None:
    """Call `listener` after every change of language (the app refreshes its screens)."""
    _listeners.append(listener)


def _(text: str) -> str:
    """`text` in the language spoken now."""
    return _translation.gettext(text)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural of a text for `count`, in the language spoken now."""
    return _translation.ngettext(singular, plural, count)


def N_(text: str) -> str:
    """Mark a constant for translation where it is used (`_(CONSTANT)`); returns it as is."""
    return text
