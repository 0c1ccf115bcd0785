"""Every text the code marks for translation has its German (companion/i18n/de/*.po), with the
same placeholders; no text is marked in a way that cannot be translated (an f-string inside
`_()`); switching the language changes the words at once (companion.i18n). The German renderings
of rulebook quotes (de/quotes.po) are no marked texts: each must render a quote the catalogue
has now, and no quote must have one. Nor are the German words of the Hubs' and Sectors'
ability texts (de/abilities.po): one for each ability text the catalogue has, and no other; nor
those of the catalogue's reasoning notes (de/reasons.po): one for each note, and no other."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from companion import i18n

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "vision", "hardware")
MARKERS = {"_", "N_", "ngettext"}
KV_MARK = re.compile(r"""tr\._\(\s*(?P<q>['"])(?P<text>.*?)(?P=q)\s*\)""")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def python_files() -> Iterator[Path]:
    for package in PACKAGES:
        yield from (p for p in (REPO / package).rglob("*.py") if "training" not in p.parts)


def marker(call: ast.Call) -> str | None:
    """The name a call is made by: `_` for `_("...")` and `i18n._("...")` alike."""
    return getattr(call.func, "id", None) or getattr(call.func, "attr", None)


def marked() -> dict[str, str]:
    """Every marked text -> where it is marked first (file:line); for ngettext both forms."""
    found: dict[str, str] = {}
    for path in python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and marker(node) in MARKERS:
                where = f"{path.relative_to(REPO)}:{node.lineno}"
                forms = node.args[:2] if marker(node) == "ngettext" else node.args[:1]
                for arg in forms:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        found.setdefault(arg.value, where)
    for path in (REPO / "companion").rglob("*.kv"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in KV_MARK.finditer(line):
                found.setdefault(match["text"].replace("\\'", "'"),
                                 f"{path.relative_to(REPO)}:{number}")
    return found


def german() -> dict[str, str]:
    """msgid -> msgstr of the German catalogues of marked texts (fuzzy ones as untranslated;
    not the renderings of quotes, nor the ability texts or reasoning notes); plural forms give
    each of their ids
    the first form."""
    found: dict[str, str] = {}
    for path in i18n.catalogue_files("de"):
        if path.name in (i18n.ABILITIES, i18n.REASONS):
            continue
        with path.open("rb") as po:
            for message in read_po(po, locale="de"):
                if not message.id:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (
                    message.string,)
                for msgid in ids:
                    found[msgid] = "" if message.fuzzy else strings[0] or ""
    return found


def test_every_marked_text_has_its_german_with_the_same_placeholders() -> None:
    texts, translated = marked(), german()
    assert texts, "no marked text found: the search is broken"
    missing = [f"{where}: {text!r}" for text, where in sorted(texts.items(), key=lambda t: t[1])
               if not translated.get(text)]
    assert not missing, f"{len(missing)} of {len(texts)} texts have no German:\n" + \
        "\n".join(missing)
    mismatched = [f"{text!r} -> {translated[text]!r}" for text in texts
                  if sorted(PLACEHOLDER.findall(text))
                  != sorted(PLACEHOLDER.findall(translated[text]))]
    assert not mismatched, "placeholders differ:\n" + "\n".join(mismatched)


def test_marked_texts_are_literals_that_gettext_can_find() -> None:
    """`_("text")`, or `_(CONSTANT)` of a text marked `N_("text")` where it is defined; never a
    text made before it is translated (an f-string, a sum, a .format())."""
    wrong = []
    for path in python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and marker(node) in {"_", "N_"} and (
                    len(node.args) != 1
                    or isinstance(node.args[0], ast.JoinedStr | ast.BinOp | ast.Call)
                    or (marker(node) == "N_" and not isinstance(node.args[0], ast.Constant))):
                wrong.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not wrong, "a text marked for translation must be written out as it is " \
        "(placeholders filled with .format after _()):\n" + "\n".join(wrong)


def test_the_german_catalogues_hold_nothing_the_code_no_longer_marks() -> None:
    texts = marked()
    stale = sorted(set(german()) - set(texts))
    assert not stale, "German for texts the code no longer has (remove them):\n" + \
        "\n".join(map(repr, stale))


def rulebook_quotes() -> dict[str, str]:
    """Every rulebook quote of the shipped catalogue -> what it is (a field's note, or the text
    of a Hub's or Sector's ability)."""
    from companion.catalogue_files import load_catalogue

    catalogue = load_catalogue()
    found = {field.note: "field" for *_where, field in catalogue.iter_fields()
             if field.source == "rulebook" and field.note}
    for component in (*catalogue.hubs.values(), *catalogue.sectors.values()):
        for ability in component.abilities:
            found.setdefault(ability.text, "ability")
    return found


def quote_renderings() -> list[Any]:
    """The entries of the German renderings of rulebook quotes (de/quotes.po)."""
    with i18n.quotes_file("de").open("rb") as po:
        return [message for message in read_po(po, locale="de") if message.id]


def test_every_german_rendering_renders_a_quote_the_catalogue_has() -> None:
    """A rendering whose quote the catalogue no longer has (or never had: the msgid must be the
    quote exactly) is stale; a quote without one is fine (the summary covers few)."""
    quotes, renderings = rulebook_quotes(), quote_renderings()
    assert renderings, "no rendering found: the search is broken"
    stale = [message.id for message in renderings if message.id not in quotes]
    assert not stale, "German renderings of quotes the catalogue does not have " \
        "(remove them, or give the quote exactly):\n" + "\n".join(map(repr, stale))
    empty = [message.id for message in renderings if message.fuzzy or not message.string]
    assert not empty, "renderings that are empty or fuzzy:\n" + "\n".join(map(repr, empty))
    unsourced = [message.id for message in renderings
                 if not any(c.startswith("summary") for c in message.auto_comments)]
    assert not unsourced, "renderings that do not name the German summary's passage " \
        "(#. summary, ...):\n" + "\n".join(map(repr, unsourced))
    assert len({message.id for message in renderings}) == len(renderings)


def test_no_ability_text_has_a_rendering_its_screens_would_leave_out() -> None:
    """Wherever a quote is shown, its rendering is shown beside it: the catalogue screen does
    so for a field's note; an ability's text is shown on the action, income, station, setup and
    score screens, which show none yet (the German summary covers no single ability), so a
    rendering of one would be missing there. (Quotes of setup and die fields are on no screen.)"""
    quotes = rulebook_quotes()
    abilities = [m.id for m in quote_renderings() if quotes.get(m.id) == "ability"]
    assert not abilities, "renderings of ability texts, which the screens that show them " \
        "leave out (show them there first):\n" + \
        "\n".join(map(repr, abilities))


def german_of_each(part: str, texts: set[str], what: str) -> dict[str, str]:
    """de/<part>: German for each of `texts` (msgid the text exactly as the catalogue has it)
    and for nothing else (a text the catalogue no longer has is stale); its entries."""
    with (i18n.CATALOGUES / "de" / part).open("rb") as po:
        german = {m.id: m.string for m in read_po(po, locale="de") if m.id and not m.fuzzy}
    assert texts, f"no {what} found: the search is broken"
    missing = sorted(texts - {text for text, words in german.items() if words})
    assert not missing, f"{what} without German:\n" + "\n".join(map(repr, missing))
    stale = sorted(set(german) - texts)
    assert not stale, f"German for {what} the catalogue no longer has:\n" + \
        "\n".join(map(repr, stale))
    return german


def test_every_ability_text_has_its_german_and_no_other_text_is_there() -> None:
    """de/abilities.po: the German of each Hub's and Sector's ability text, msgid the text
    exactly as the catalogue has it; a text the catalogue no longer has is stale."""
    quotes = rulebook_quotes()
    german_of_each(i18n.ABILITIES, {text for text, what in quotes.items() if what == "ability"},
                   "ability texts")


def test_an_ability_text_is_worded_in_the_language_spoken() -> None:
    text = "When using an Expedition ship, gain 1 food and 1 water."
    assert i18n.ability_text(text) == text
    i18n.set_language("de")
    assert i18n.ability_text(text) == "Wenn du ein Erkunden-Schiff nutzt, erhältst du 1 " \
        "Pflanze und 1 Wasser."


def reasoning_notes() -> set[str]:
    """Every reasoning note of the shipped catalogue (the "reason" of an inferred value)."""
    from companion.catalogue_files import load_catalogue

    return {field.note for *_where, field in load_catalogue().iter_fields()
            if field.source == "inferred" and field.note}


def test_every_reasoning_note_has_its_german_and_no_other_text_is_there() -> None:
    """de/reasons.po: the German of each inferred value's reasoning, msgid the note exactly as
    the catalogue has it, with the rulebook sentences it quotes kept in English, in the same
    quotation marks; a note the catalogue no longer has is stale."""
    german = german_of_each(i18n.REASONS, reasoning_notes(), "reasoning notes")
    quoted = re.compile(r'"[^"]*"')
    changed = sorted(text for text, words in german.items()
                     if quoted.findall(text) != quoted.findall(words))
    assert not changed, "German that does not keep the rulebook's quoted English as it is:\n" + \
        "\n".join(map(repr, changed))


def test_a_reasoning_note_is_worded_in_the_language_spoken() -> None:
    note = ("The owner's fee is paid only \"If they use a ship belonging to another player\"; a "
            "neutral ship belongs to no player, so there is no fee.")
    assert i18n.reason_text(note) == note
    i18n.set_language("de")
    try:
        assert i18n.reason_text(note) == (
            "Die Besitzergebühr wird nur gezahlt, \"If they use a ship belonging to another "
            "player\"; ein neutrales Schiff gehört keinem Spieler, also fällt keine Gebühr an.")
    finally:
        i18n.set_language("en")


def test_a_rendering_is_given_only_in_german_and_only_for_a_quote() -> None:
    quote = "Each player starts with a fixed set of five Level-1 ships."
    assert i18n.QUOTES not in [p.name for p in i18n.catalogue_files("de")]
    assert i18n.quote_rendering(quote) is None  # English: the quote is the rulebook's words
    try:
        i18n.set_language("de")
        assert i18n.quote_rendering(quote) == (
            "Jeder Spieler legt seine fünf Start-Raumschiffe (in Form von Karten) vor sich aus.")
        assert i18n.quote_rendering("Sector 218 costs 9 metal to build.") is None
        assert i18n._(quote) == quote  # not a marked text: gettext leaves it alone
    finally:
        i18n.set_language("en")
    assert i18n.quote_rendering(quote) is None


def test_switching_the_language_changes_the_words_at_once() -> None:
    heard: list[str] = []
    i18n.on_change(lambda: heard.append(i18n.language()))
    try:
        i18n.set_language("de")
        assert i18n._("Back") == "Zurück"
        assert i18n._("a text no catalogue has") == "a text no catalogue has"  # as written
        assert i18n.language() == "de"
        i18n.set_language("en")
        assert i18n._("Back") == "Back"
    finally:
        i18n.set_language("en")
    assert heard[:2] == ["de", "en"]
    with pytest.raises(ValueError, match="language 'fr': expected one of en, de"):
        i18n.set_language("fr")
    assert i18n.language() == "en"


LOCALE_VARIABLES = ("PHOENIX_LANGUAGE", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
SCORE_EXAMPLE = REPO / "companion" / "data" / "examples" / "rulebook-3p.json"


def _score(tmp_path: Path, **language: str) -> str:
    """`phoenix-companion score` of the rulebook's example, run as a user runs it, with these
    locale variables only."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    env.update(language, PHOENIX_COMPANION_HOME=str(tmp_path))
    env.pop("PHOENIX_OVERLAY", None)
    result = subprocess.run([sys.executable, "-m", "companion.cli", "score", str(SCORE_EXAMPLE)],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_command_line_speaks_the_language_of_the_environment(tmp_path: Path) -> None:
    german = _score(tmp_path, LANG="de_DE.UTF-8")
    assert german.splitlines()[0].split() == ["Kategorie", "Anna", "Beth", "Connor"]
    assert "Gewinner: Connor" in german and "GESAMT" in german
    english = _score(tmp_path, LANG="C")
    assert english.splitlines()[0].split() == ["Category", "Anna", "Beth", "Connor"]
    assert "Winner: Connor" in english and "TOTAL" in english
    assert _score(tmp_path, PHOENIX_LANGUAGE="en", LANG="de_DE.UTF-8") == english
    assert _score(tmp_path, LC_ALL="fr_FR.UTF-8", LANG="de_DE.UTF-8") == german
