"""The screen audit: what a player must never read on a screen of the app.

`Robot.audit()` (tests/ui/harness.py) hands it every visible label and button; it finds
- an internal id: "Ann:L1-dismantle", "neutral:dismantle", "L3-construction#2", "ice_collector",
  brackets or braces from data ("[103, 113]", "bonus['A-7']", "{player}"),
- English on a German screen: the app's own English texts (the msgids of its catalogues whose
  German differs), a few common English words, and "Edelsteine" beside "GEMs",
- text cut off: a label whose words were not all laid out (Kivy's `shorten`, a line dropped) or
  whose texture is larger than its box.
Findings the other parts of the app still owe are tolerated by KNOWN, one entry each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

I18N = Path(__file__).resolve().parents[2] / "companion" / "i18n"
LETTER = r"[^\W\d_]"
# id patterns: each with the reason named in a finding
ID_PATTERNS = {
    "an id with ':'": re.compile(rf"(?<![\w/]){LETTER}+:{LETTER}"),
    "an id with '#'": re.compile(r"\w#\w|(?<!\w)#\d"),
    "a ship id": re.compile(r"(?<![\w-])L\d-[a-z]"),
    "a snake_case word": re.compile(r"(?<![\w./\\-])[a-z]+(?:_[a-z0-9]+)+(?![\w./\\-])"),
    "brackets from data": re.compile(r"[\[\]{}]"),
}
# Common English words never written in German; checked only on a German screen.
ENGLISH_WORDS = frozenset((
    "the", "and", "of", "with", "your", "you", "from", "which", "this", "that", "what",
    "choose", "ship", "ships", "turn", "points", "pays", "gains", "takes", "track", "food",
    "water", "metal", "players", "player", "none"))
PATH = re.compile(r"\S*/\S*")  # a file path or a catalogue key, never read as English
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|„[^“”]*[“”]")  # a rulebook quote stays English
PLACEHOLDER = re.compile(r"\{[^}]*\}|%\(\w+\)[sd]|%[sd]")
TOLERANCE = 2  # pixels a texture may exceed its box by (rounding)


@dataclass(frozen=True)
class Known:
    """A finding tolerated for now: on `screen`, a label showing `text`; `why` says whose it is."""

    screen: str
    text: str
    why: str


PROGRESS = "the setup wizard's progress bar: the step's name wraps taller than its box at 800x480"
STEP_OWNED = ("the action preview names the used ship by its id ('Cat:L1-expedition', "
              "'neutral:diplomacy'; rules.actions.ship_label words it) and a Sector's ability "
              "as the tile's English, unquoted, also on a German screen ('321: When using ...'; "
              "i18n.ability_text gives its German)")
UNDO = "the table's Undo button cuts its step's words off ('Undo: Bob uses Bob's ... and puts')"
# Findings still owed, one entry each: the screens other parts of issue 27 rebuild (setup,
# table, action), tolerated until their work is merged, then emptied.
KNOWN: tuple[Known, ...] = ()


def _messages() -> Iterable[tuple[str, str]]:
    """(English, German) of every text of the app's catalogues, the rulebook quotes left out:
    the renderings of quotes (quotes.po), and the rulebook's English quoted in the German of a
    reasoning note (reasons.po), which is no German word."""
    from babel.messages.pofile import read_po

    for po in sorted((I18N / "de").glob("*.po")):
        if po.stem == "quotes":
            continue
        with po.open("rb") as handle:
            for message in read_po(handle, locale="de"):
                if not message.id or not message.string:
                    continue
                english = message.id if isinstance(message.id, tuple) else (message.id,)
                german = (message.string if isinstance(message.string, tuple)
                          else (message.string,))
                if po.stem == "reasons":
                    german = tuple(QUOTED.sub(" ", text) for text in german)
                for index, text in enumerate(english):
                    yield text, german[min(index, len(german) - 1)]


@cache
def english_texts() -> re.Pattern[str] | None:
    """One pattern for every piece of the app's English that never reads the same in German:
    each msgid's words between its placeholders, left out where any German text has them too
    (the German "Hub", "Alien" or "Start" are the English words)."""
    messages = list(_messages())
    german = "\n".join(de for _en, de in messages)
    pieces = set()
    for english, de in messages:
        if english == de:
            continue
        for piece in PLACEHOLDER.split(english):
            piece = piece.strip(" .,:;!?()-·>\n")
            if (re.search(rf"{LETTER}{{3}}", piece)
                    and not re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", german)):
                pieces.add(piece)
    if not pieces:
        return None
    alternatives = "|".join(re.escape(p) for p in sorted(pieces, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


def id_findings(text: str) -> list[str]:
    """The internal ids in a text, each as "reason 'match'"."""
    return [f"{reason} {match.group(0)!r}" for reason, pattern in ID_PATTERNS.items()
            if (match := pattern.search(text))]


def english_findings(text: str) -> list[str]:
    """The English in a text shown on a German screen (quotes in quotation marks left out)."""
    text = PATH.sub(" ", QUOTED.sub(" ", text))
    found = []
    pattern = english_texts()
    if pattern is not None and (match := pattern.search(text)):
        found.append(f"English {match.group(0)!r}")
    words = {word.lower() for word in re.findall(rf"{LETTER}+", text)}
    if common := sorted(words & ENGLISH_WORDS):
        found.append(f"English words {common}")
    if "Edelstein" in text and "GEM" in text:
        found.append("'Edelsteine' and 'GEMs' in one text")
    return found


def laid_out(label: Any) -> str:
    """The text Kivy laid out for a label (what its texture shows), line by line; a markup
    label's pieces joined as they are drawn."""
    core = getattr(label, "_label", None)
    lines = getattr(core, "_cached_lines", None) or []
    return "\n".join("".join(word.text for word in line.words) for line in lines)


def cut_findings(label: Any, shown: str) -> list[str]:
    """Why a label's text is cut off: characters not laid out (Kivy's `shorten`, a line
    dropped), or a texture larger than its box. A text changed since the last frame is laid
    out first (never a finding from an old layout)."""
    def differs() -> bool:
        drawn = laid_out(label)
        return bool(drawn) and "".join(drawn.split()) != "".join(shown.split())

    if differs():
        label.texture_update()
    if differs():
        return [f"cut off: shows {' '.join(laid_out(label).split())!r}"]
    width, height = label.texture_size
    if width > label.width + TOLERANCE or height > label.height + TOLERANCE:
        return [f"cut off: {width}x{height} text in a {label.width:.0f}x{label.height:.0f} box"]
    return []


def audit_label(label: Any, shown: str, german: bool) -> list[str]:
    """Every finding for one label showing `shown` (its text without markup)."""
    if not shown.strip():
        return []
    found = id_findings(shown)
    if german:
        found += english_findings(shown)
    return found + cut_findings(label, shown)


def tolerated(screen: str, shown: str) -> bool:
    """True when KNOWN lists this text on this screen."""
    return any(k.screen == screen and k.text in shown for k in KNOWN)
