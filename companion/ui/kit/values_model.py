"""One catalogue value entered from a physical copy, built from simple answers (plain Python, no
Kivy; `values.py` renders it): whole numbers on the keypad, words as big buttons, lists one item
at a time ("Add an income icon" / "Done"), objects one part at a time. No JSON for the player.

What a value looks like comes from the catalogue's schema: plain numbers, yes/no and words are
found by asking the field's check (`check_entry`) which answers it takes; the few fields that are
lists or objects (income icons, living quarters, starting Diplomacy, ...) are built by part.
Every finished value is checked by `check_entry` before it is accepted.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.i18n import _
from companion.rules.catalogue import Catalogue, CatalogueError, check_entry
from companion.rules.catalogue.model import ability_index
from companion.rules.catalogue.schema import ALL_SHIP_TYPES
from companion.rules.effects import GAIN_KEYS
from companion.rules.words import (
    PLAYER_COLORS,
    RESOURCES,
    SECTOR_COLORS,
    SPECIES,
    TRACKS,
    color_name,
    resource_name,
    track_name,
)

DONE = "done"
ADD = "add"
QUARTERS_SHOWN = 3  # quarter buttons offered while the Sector's quarters are unknown
WORDS = (*SECTOR_COLORS, "basic", "advanced", *ALL_SHIP_TYPES)  # every ship type the catalogue has
# The keys a player reads as words (a counter, resource, species or colour, a Diplomacy track,
# a part of a value); `word` says one in the language spoken now.
NAMES = ("gems", "points", *RESOURCES, *SPECIES, *PLAYER_COLORS, *TRACKS,
         "fixed", "choice", "resource", "amount", "quarter")


def word(key: Any) -> str:
    """A key of NAMES as a player reads it now ("teal", "GEMs", "Construct"; the game's words
    from rules.words); anything else as it is."""
    if not isinstance(key, str):
        return str(key)
    if key in TRACKS:
        return track_name(key)
    parts = {"fixed": _("fixed"), "choice": _("choice"), "resource": _("resource"),
             "amount": _("amount"), "quarter": _("quarter")}
    return parts[key] if key in parts else color_name(key)


def value_word(value: str) -> str:
    """A value that is a word (one of WORDS, a resource or "gems", a species or a colour) as a
    player reads it now; any other text as it is."""
    if value in (*SPECIES, *PLAYER_COLORS):
        return color_name(value)
    if value in RESOURCES:
        return resource_name(value)
    return {"gems": _("gems"), "basic": _("basic"), "advanced": _("advanced"),
            "dismantle": _("dismantle"), "construction": _("construction"),
            "expedition": _("expedition"), "transport": _("transport"),
            "diplomacy": _("diplomacy"), "farm": _("farm"),
            "ice_collector": _("ice_collector")}.get(value, value)


@dataclass(frozen=True)
class Prompt:
    """One simple question: words to tap (label, value), or a number on the keypad."""

    title: str
    choices: tuple[tuple[str, Any], ...] = ()
    hint: str = ""  # a number's range, as the schema says it

    @property
    def number(self) -> bool:
        return not self.choices


def choice_id(value: Any) -> str:
    """A choice's id in its button's tag (`values:choice:<id>`), the same in every language:
    a word as it is ("food", "done", "add"), anything else as JSON ("0" for quarter 1,
    "true", "null")."""
    return value if isinstance(value, str) else json.dumps(value)


class Part(Protocol):
    """A value being built: the next question (None: complete), an answer, the value so far."""

    def prompt(self) -> Prompt | None: ...

    def answer(self, value: Any) -> None: ...

    def value(self) -> Any: ...


class Number:
    """A whole number on the keypad."""

    def __init__(self, title: str, hint: str = "") -> None:
        self.title, self.hint, self._value = title, hint, None

    def prompt(self) -> Prompt | None:
        return Prompt(self.title, hint=self.hint) if self._value is None else None

    def answer(self, value: Any) -> None:
        self._value = value

    def value(self) -> Any:
        return self._value


class Word:
    """One of a few answers, as big buttons."""

    def __init__(self, title: str, choices: Sequence[tuple[str, Any]]) -> None:
        self.title, self.choices, self._done, self._value = title, tuple(choices), False, None

    def prompt(self) -> Prompt | None:
        return None if self._done else Prompt(self.title, self.choices)

    def answer(self, value: Any) -> None:
        self._value, self._done = value, True

    def value(self) -> Any:
        return self._value


class Counts:
    """Amounts by name ({"food": 2, "gems": 1}): tap a name, type its amount, then Done."""

    def __init__(self, title: str, keys: Sequence[str]) -> None:
        self.title, self.keys = title, tuple(keys)
        self.amounts: dict[str, int] = {}
        self.asking: str | None = None
        self.done = False

    def prompt(self) -> Prompt | None:
        if self.done:
            return None
        if self.asking is not None:
            return Prompt(_("How many {what}?").format(what=word(self.asking)))
        choices = [(f"{word(k)} ({self.amounts[k]})" if k in self.amounts else word(k), k)
                   for k in self.keys]
        return Prompt(self.title, (*choices, (_("Done"), DONE)))

    def answer(self, value: Any) -> None:
        if self.asking is not None:
            if value:
                self.amounts[self.asking] = value
            else:
                self.amounts.pop(self.asking, None)
            self.asking = None
        elif value == DONE:
            self.done = True
        else:
            self.asking = value

    def value(self) -> Any:
        return dict(self.amounts)


def item_words(noun: str, count: int) -> tuple[str, str, str]:
    """A list's words for its items (`noun`: one of those below), in the language spoken now:
    adding the first, adding another, and how many so far."""
    if noun == "income icon":
        return (_("Add an income icon"), _("Add another income icon"),
                _("{count} income icon(s) so far").format(count=count))
    if noun == "living quarter":
        return (_("Add a living quarter"), _("Add another living quarter"),
                _("{count} living quarter(s) so far").format(count=count))
    if noun == "quarter's income":
        return (_("Add a quarter's income"), _("Add another quarter's income"),
                _("{count} quarter's income(s) so far").format(count=count))
    if noun == "species":
        return (_("Add a species"), _("Add another species"),
                _("{count} species(s) so far").format(count=count))
    raise ValueError(f"no words for a list of {noun!r}")


class Items:
    """A list, one item at a time: "Add a ..." or "Done" (`quarter`: the living quarter it is
    for, said first)."""

    def __init__(self, noun: str, item: Callable[[int], Part], *,
                 quarter: int | None = None) -> None:
        self.noun, self.item, self.quarter = noun, item, quarter
        self.items: list[Any] = []
        self.current: Part | None = None
        self.done = False

    def prompt(self) -> Prompt | None:
        if self.done:
            return None
        if self.current is not None:
            return self.current.prompt()
        first, another, count = item_words(self.noun, len(self.items))
        title = count if self.quarter is None else _("Quarter {number}: {count}").format(
            number=self.quarter, count=count)
        return Prompt(title, ((another if self.items else first, ADD), (_("Done"), DONE)))

    def answer(self, value: Any) -> None:
        if self.current is None:
            if value == DONE:
                self.done = True
            else:
                self.current = self.item(len(self.items))
            return
        self.current.answer(value)
        if self.current.prompt() is None:
            self.items.append(self.current.value())
            self.current = None

    def value(self) -> Any:
        return [*self.items, *([self.current.value()] if self.current is not None else [])]


class Fields:
    """An object, one part after the other."""

    def __init__(self, parts: Sequence[tuple[str, Part]]) -> None:
        self.parts = list(parts)

    def _open(self) -> Part | None:
        return next((p for _n, p in self.parts if p.prompt() is not None), None)

    def prompt(self) -> Prompt | None:
        part = self._open()
        return part.prompt() if part is not None else None

    def answer(self, value: Any) -> None:
        part = self._open()
        if part is not None:
            part.answer(value)

    def value(self) -> Any:
        """The parts answered so far (all of them, once complete)."""
        return {name: part.value() for name, part in self.parts
                if part.prompt() is None or part.value() is not None}


def quarter_choices(quarters: int | None, *, none: str | None = None) -> list[tuple[str, Any]]:
    """Living quarters as buttons, 1-based for the player (the catalogue counts from 0)."""
    choices = [(_("Quarter {number}").format(number=n + 1), n)
               for n in range(quarters or QUARTERS_SHOWN)]
    return [*choices, (none, None)] if none else choices


# -- which entry a catalogue key needs ----------------------------------------------------------


def refusal(key: str, value: Any, catalogue: Catalogue) -> CatalogueError | None:
    """The catalogue's refusal of `value` for `key` (None: it takes it)."""
    try:
        check_entry(key, value, catalogue.shipped)
    except CatalogueError as error:
        return error
    return None


def number_words(number: tuple[int, int | None]) -> str:
    """The whole numbers a field takes, in the language spoken now ("a whole number 0 or
    more")."""
    minimum, maximum = number
    if maximum is None:
        return _("a whole number {minimum} or more").format(minimum=minimum)
    return _("a whole number {minimum} to {maximum}").format(minimum=minimum, maximum=maximum)


def problem(key: str, value: Any, catalogue: Catalogue) -> str | None:
    """Why `value` cannot be the catalogue's `key`, None when it can: a number out of the
    field's range in the language spoken now, anything else in the schema's words."""
    error = refusal(key, value, catalogue)
    if error is None:
        return None
    if error.number is None:
        return error.problem or str(error)
    if isinstance(value, bool) or not isinstance(value, int):
        return _("expected a whole number, got {value}").format(value=repr(value))
    minimum, maximum = error.number
    if maximum is None:
        return _("expected a whole number {minimum} or more, got {value}").format(
            minimum=minimum, value=repr(value))
    return _("expected a whole number {minimum} to {maximum}, got {value}").format(
        minimum=minimum, maximum=maximum, value=repr(value))


def _sector_quarters(key: str, catalogue: Catalogue, entered: Mapping[str, Any]) -> int | None:
    kind, record, _field = key.split("/")
    if kind != "sectors":
        return None
    known = entered.get(f"sectors/{record}/quarters")
    return known if known is not None else catalogue.sectors[int(record)].value("quarters")


def part_for(key: str, catalogue: Catalogue, entered: Mapping[str, Any] | None = None) -> Part:
    """How the value of `key` ("sectors/214/cost") is built; ValueError when it is not asked
    on screen (the setup tables, a Hub's ship changes: all in the rulebook)."""
    entered = entered or {}
    field = key.split("/")[-1]
    quarters = _sector_quarters(key, catalogue, entered)
    if ability_index(field) is not None:
        return Word(_("Which living quarter activates this ability?"),
                    quarter_choices(quarters))
    built = _STRUCTURED.get(field)
    if built is not None:
        return built(quarters)
    if problem(key, True, catalogue) is None:
        return Word(_("Yes or no?"), ((_("Yes"), True), (_("No"), False)))
    if problem(key, 0, catalogue) is None or problem(key, 1, catalogue) is None:
        below = refusal(key, -1, catalogue)
        number = below.number if below is not None else None
        return Number(_("Type the number"), number_words(number) if number else "")
    words = [w for w in WORDS if problem(key, w, catalogue) is None]
    if words:
        return Word(_("Which one?"), [(value_word(w), w) for w in words])
    raise ValueError(f"{key}: not entered on screen")


def _icon(quarters: int | None) -> Part:
    return Fields([
        ("resource", Word(_("Which icon?"), [(word(r), r) for r in ("gems", *RESOURCES)])),
        ("amount", Number(_("How many on the icon?"), _("1 or more"))),
        ("quarter", Word(_("Above which living quarter?"),
                         quarter_choices(quarters, none=_("Not above a quarter")))),
    ])


_STRUCTURED: dict[str, Callable[[int | None], Part]] = {
    "income_icons": lambda q: Items("income icon", lambda _i: _icon(q)),
    "starting_diplomacy": lambda _q: Fields([
        ("fixed", Counts(_("Diplomacy steps printed on a track (then Done)"), TRACKS)),
        ("choice", Number(_("Steps the player chooses freely"), _("0 or more"))),
    ]),
    "living_quarters": lambda _q: Items("living quarter", lambda i: Items(
        "species", lambda _j: Word(_("Which species may live there?"),
                                   [(word(s), s) for s in SPECIES]),
        quarter=i + 1)),
    "quarter_income": lambda _q: Items("quarter's income", lambda i: Counts(
        _("Quarter {number}'s income (then Done)").format(number=i + 1),
        ("gems", "points", *RESOURCES))),
    "setup_residents": lambda _q: Counts(_("Residents at the start (then Done)"), SPECIES),
    **{f"bonus_{t}": (lambda _q: Counts(_("The bonus (then Done)"), GAIN_KEYS)) for t in TRACKS},
}


def can_enter(key: str, catalogue: Catalogue) -> bool:
    """Whether the value of `key` can be entered on screen."""
    try:
        part_for(key, catalogue)
    except ValueError:
        return False
    return True


def words(value: Any) -> str:
    """A value as a player reads it: "food 1, quarter 1; water 2"."""
    if value is None:
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, Mapping):
        shown = [f"{word(k)} {_quarter(v) if k == 'quarter' else words(v)}"
                 for k, v in value.items()]
        return ", ".join(shown) or _("nothing")
    if isinstance(value, list):
        return "; ".join(words(v) for v in value) or _("none")
    if isinstance(value, str):
        return value_word(value)
    return str(value)


def _quarter(index: int | None) -> str:
    return _("none") if index is None else str(index + 1)


class ValueEntry:
    """A value for one catalogue key, built answer by answer; Back takes the last answer.
    Complete, it is checked by the catalogue's schema (`message` says why it is refused)."""

    def __init__(self, key: str, catalogue: Catalogue, question: str = "",
                 entered: Mapping[str, Any] | None = None) -> None:
        self.key, self.catalogue, self.question = key, catalogue, question
        self.entered = dict(entered or {})
        self.answers: list[Any] = []
        self.message = ""
        self.part = part_for(key, catalogue, self.entered)

    @property
    def prompt(self) -> Prompt | None:
        """The next question (None: the value is complete)."""
        return self.part.prompt()

    @property
    def complete(self) -> bool:
        return self.prompt is None

    @property
    def value(self) -> Any:
        return self.part.value()

    @property
    def so_far(self) -> str:
        """What has been entered, in words."""
        return words(self.value) if self.answers else ""

    @property
    def accepted(self) -> bool:
        """Complete and valid for the catalogue."""
        return self.complete and not self.message

    def answer(self, value: Any) -> bool:
        """One answer; when it completes the value, the schema's verdict (False: `message`)."""
        self.message = ""
        self.part.answer(value)
        self.answers.append(value)
        if self.complete:
            self.message = problem(self.key, self.value, self.catalogue) or ""
        return not self.message

    def back(self) -> None:
        """Take back the last answer (the others are given again)."""
        answers = self.answers[:-1]
        self.part, self.answers, self.message = part_for(self.key, self.catalogue,
                                                         self.entered), [], ""
        for value in answers:
            self.answer(value)
