"""The words a player reads, in their language: English (the text in the code) or German (the
gettext catalogues beside this file, one .po per part of the app: `de/<part>.po`).

    from companion.i18n import _, ngettext
    _("Back to the table")                       # "Zurück zum Tisch" once German is chosen
    _("{player} pays {gems} GEMs").format(...)   # placeholders, never an f-string inside _()
    set_language("de")                            # at once; screens are refreshed by the app
    with speaking("de"): ...                      # this thread alone (a phone's page), a while

Every text marked with `_`, `ngettext` or `N_` (a constant marked, translated where it is
used) must have its German in a catalogue: tests/test_translations.py fails otherwise. A
language is read when it is chosen, from its catalogues as the build compiled them (setup.py:
the .mo beside each .po), with the standard library's gettext; English needs none.

A rulebook quote (the component catalogue's, companion/data/*.json) is data, never marked: it
stays the rulebook's English, and where the German summary of the rules says the same, its words
are kept in `de/quotes.po` (msgid the exact quote) and shown beside it:

    quote_rendering("Each player starts with a fixed set of five Level-1 ships.")
    # None in English; in German "Jeder Spieler legt seine fünf Start-Raumschiffe ..."

The app's own words in that data are worded in the language spoken: a Hub's or Sector's ability
text (`ability_text`, `de/abilities.po`) and an inferred value's reasoning (`reason_text`,
`de/reasons.po`, the rulebook sentences quoted in it kept in English).
"""

from __future__ import annotations

import gettext
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

LANGUAGES = {"en": "English", "de": "Deutsch"}  # code -> the language's own name
DEFAULT = "en"
CATALOGUES = Path(__file__).parent
QUOTES = "quotes.po"  # a language's renderings of rulebook quotes, beside its catalogues
ABILITIES = "abilities.po"  # a language's words for the Hubs' and Sectors' ability texts
REASONS = "reasons.po"  # a language's words for the catalogue's reasoning notes

_current = DEFAULT
_translation: gettext.NullTranslations = gettext.NullTranslations()
_quotes: dict[str, str] = {}  # rulebook quote -> its rendering in the language spoken now
_listeners: list[Callable[[], None]] = []
_thread = threading.local()  # a thread's own language while it is `speaking` one


def catalogue_files(code: str) -> list[Path]:
    """A language's catalogues of the texts the code marks (none for English, the language of
    the code), of the ability texts (ABILITIES) and of the reasoning notes (REASONS), read as one
    with them; its renderings of rulebook quotes (QUOTES) are not among them."""
    return sorted(p for p in (CATALOGUES / code).glob("*.po") if p.name != QUOTES)


def quotes_file(code: str) -> Path:
    """Where a language keeps its renderings of rulebook quotes (the file may not exist)."""
    return CATALOGUES / code / QUOTES


def _compiled(path: Path) -> gettext.GNUTranslations:
    """A catalogue as the build compiled it (the .mo beside the .po, fuzzy and empty entries
    left out); FileNotFoundError that says so where it was not built."""
    try:
        with path.with_suffix(".mo").open("rb") as mo:
            return gettext.GNUTranslations(mo)
    except FileNotFoundError as error:
        raise FileNotFoundError(f"{error.filename}: the catalogues are compiled as the app is "
                                "installed (make install, pip install); see "
                                "docs/translating.md") from None


def load(code: str) -> gettext.NullTranslations:
    """A language's translations from its compiled catalogues; ValueError for a language that
    is not one of LANGUAGES."""
    if code not in LANGUAGES:
        raise ValueError(f"language {code!r}: expected one of {', '.join(LANGUAGES)}")
    found: gettext.NullTranslations = gettext.NullTranslations()
    for path in reversed(catalogue_files(code)):
        part = _compiled(path)
        part.add_fallback(found)
        found = part
    return found


def load_quotes(code: str) -> dict[str, str]:
    """A language's renderings of rulebook quotes, by the English quote (from its compiled
    QUOTES file: fuzzy and empty ones left out); none when it has no QUOTES file (English)."""
    path = quotes_file(code)
    if code == DEFAULT or not path.is_file():
        return {}
    renderings = dict(_compiled(path)._catalog)  # type: ignore[attr-defined]
    del renderings[""]  # the file's header
    return renderings


@cache
def _spoken(code: str) -> tuple[gettext.NullTranslations, dict[str, str]]:
    """A language's translations and quote renderings, read once per process (`speaking`,
    `set_language`)."""
    return load(code), load_quotes(code)


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Speak `code` in this thread only, for the `with` block (ValueError for an unknown one):
    a phone's page is worded in its reader's language while the table, on another thread,
    speaks its own. No listener is told."""
    before = getattr(_thread, "spoken", None)
    _thread.spoken = (code, *_spoken(code))
    try:
        yield
    finally:
        _thread.spoken = before


def _now() -> tuple[str, gettext.NullTranslations, dict[str, str]]:
    """The language spoken in this thread now: its code, translations and quote renderings."""
    return getattr(_thread, "spoken", None) or (_current, _translation, _quotes)


def set_language(code: str) -> None:
    """Speak `code` from now on (ValueError for an unknown one); the listeners are told."""
    global _current, _translation, _quotes
    (_translation, _quotes), _current = _spoken(code), code
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
    """The language spoken now (in this thread: `speaking`)."""
    return _now()[0]


def on_change(listener: Callable[[], None]) -> None:
    """Call `listener` after every change of language (the app refreshes its screens)."""
    _listeners.append(listener)


def quote_rendering(english: str) -> str | None:
    """A rulebook quote's rendering in the language spoken now (from its QUOTES file), or None
    where there is none (always in English: the quote is the rulebook's own words)."""
    return _now()[2].get(english)


def ability_text(english: str) -> str:
    """A Hub's or Sector's ability text (the tile's English, as the catalogue has it) in the
    language spoken now: its ABILITIES entry, else the English."""
    return _now()[1].gettext(english)


def reason_text(english: str) -> str:
    """The reasoning behind an inferred catalogue value (its note, as the catalogue has it) in
    the language spoken now: its REASONS entry (the rulebook's sentences quoted in it stay
    English), else the English."""
    return _now()[1].gettext(english)


def _(text: str) -> str:
    """`text` in the language spoken now."""
    return _now()[1].gettext(text)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural of a text for `count`, in the language spoken now."""
    return _now()[1].ngettext(singular, plural, count)


def N_(text: str) -> str:
    """Mark a constant for translation where it is used (`_(CONSTANT)`); returns it as is."""
    return text
