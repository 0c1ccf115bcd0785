"""What a tile prints, entered from a physical copy (plain Python, no Kivy; `values.py` renders
it). A component's values go on one card that looks like the tile (`Card`: numbers as rows of
buttons, a Sector's income icons as toggles per living quarter, the ability's quarter tapped, a
Hub's starting Diplomacy as its tracks tapped); a value a card cannot tap is built from simple
answers (`ValueEntry`): whole numbers on the keypad, words as big buttons, lists one item at a
time ("Add an income icon" / "Done"), objects one part at a time. No JSON for the player.

What a value looks like comes from the catalogue's schema: plain numbers, yes/no and words are
found by asking the field's check (`check_entry`) which answers it takes; the few fields that are
lists or objects (income icons, living quarters, starting Diplomacy, ...) are built by part.
Every finished value is checked by `check_entry` before it is accepted.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.i18n import _, quote_rendering
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
    design_name,
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


# -- a component's printed values on one card that looks like the tile --------------------------

ICONS = ("gems", *RESOURCES)  # the income icons a Sector prints, as the schema names them
MOST_TAPPED = 3  # an icon's amount, a track's steps go round 0 .. 3 as they are tapped
NUMBERS_SHOWN = 10  # a number row's buttons (one tap each); any other number on the keypad
CARD_KINDS = {"sectors": "sector", "ships": "ship", "hubs": "hub", "diplomacy": "board"}


def slot_label(kind: str, record: str, field: str) -> str | None:
    """What a card calls one printed value, in the language spoken now (None: the card asks it
    with the engine's question)."""
    if kind == "sectors":
        names = {"cost": _("Metal to build"), "quarters": _("Living quarters"),
                 "income_icons": _("Income icons")}
    elif kind == "ships":
        names = {"cost": _("GEMs to use"), "fee": _("Owner's fee"),
                 "metal_value": _("Metal value"), "extra_metal": _("Extra metal"),
                 "metal_discount": _("Metal discount"), "duration": _("Dice rolled"),
                 "capacity": _("Dice kept"), "transactions": _("Transactions"),
                 "tracks": _("Diplomacy tracks"), "food": resource_name("food")}
    elif kind == "hubs":
        names = {"starting_gems": _("GEMs at the start"),
                 "starting_food": _("Food at the start"),
                 "starting_water": _("Water at the start"),
                 "starting_metal": _("Metal at the start"),
                 "starting_diplomacy": _("Diplomacy"),
                 "income_gems_per_ship": _("Income: GEMs per ship"),
                 "income_fixed_gems": _("Income: fixed GEMs"),
                 "quarter_income": _("Income of the living quarters")}
    else:
        level = record.rpartition("-")[2]
        names = {"lobbying_cost": _("Level {level}: lobbying cost").format(level=level),
                 **{f"bonus_{track}": _("Level {level}: {track} bonus").format(
                     level=level, track=track_name(track)) for track in TRACKS}}
    return names.get(field)


@dataclass(frozen=True)
class Slot:
    """One printed value on a card: its catalogue key, what the tile calls it and how it is
    tapped - "number" (a row of number buttons, the keypad for others), "icons" (toggles per
    living quarter), "ability" (its living quarter tapped), "diplomacy" (the tracks tapped, then
    the free steps), or "other" (the value pop-up, with the engine's question)."""

    key: str
    label: str
    how: str
    question: str  # the engine's question as it asked it (the card says it in its own words)
    numbers: tuple[int, ...] = ()
    text: str = ""  # an ability's words (in the language spoken now, where rendered);
    # the engine's question for "other"


def icon_name(resource: str) -> str:
    """An income icon's resource as the game names it ("GEMs", "food")."""
    return _("GEMs") if resource == "gems" else resource_name(resource)


def card_title(key: str) -> str:
    """The component a key belongs to as the table names it ("Sector 214", "Hub B-1")."""
    kind, record, _field = key.split("/")
    if kind == "sectors":
        return _("Sector {number}").format(number=record)
    if kind == "hubs":
        return _("Hub {hub}").format(hub=record)
    if kind == "ships":
        return design_name(record)
    return _("Diplomacy board")


class Card:
    """The values one component prints that the catalogue lacks, on one card that looks like
    the tile: each answered by a tap or two, checked by the catalogue's schema when taken.
    `needed` (optional) says which keys the engine still asks, given the values on the card
    (a Hub's fixed income is not asked once it pays per ship)."""

    def __init__(self, asked: Sequence[tuple[str, str]], catalogue: Catalogue,
                 entered: Mapping[str, Any] | None = None,
                 needed: Callable[[Mapping[str, Any]], Sequence[str]] | None = None) -> None:
        self.catalogue, self.needed = catalogue, needed
        self.entered = dict(entered or {})
        self.slots = [self._slot(key, question) for key, question in asked]
        kind, self.record, _field = asked[0][0].split("/")
        self.kind = CARD_KINDS[kind]
        self.title = card_title(asked[0][0])
        self.values: dict[str, Any] = {s.key: self.entered[s.key] for s in self.slots
                                       if s.key in self.entered}
        self.fixed: dict[str, int] = {}  # Diplomacy steps printed on a track
        self.tracked: set[str] = set()  # starting Diplomacy tapped track by track ("Other…")
        self.message = ""

    def _slot(self, key: str, question: str) -> Slot:
        kind, record, field = key.split("/")
        index = ability_index(field)
        if index is not None:
            ability = self.catalogue.sectors[int(record)].abilities[index]
            return Slot(key, _("Ability"), "ability", question,
                        text=quote_rendering(ability.text) or ability.text)
        label = slot_label(kind, record, field)
        number = refusal(key, 0, self.catalogue) is None or refusal(key, 1, self.catalogue) is None
        if label is None or not (number or field in ("income_icons", "starting_diplomacy")):
            return Slot(key, label or question, "other", question, text=question)
        if field == "income_icons":
            return Slot(key, label, "icons", question)
        if field == "starting_diplomacy":
            return Slot(key, label, "diplomacy", question, numbers=tuple(range(3)))
        below = refusal(key, -1, self.catalogue)
        low, high = below.number if below is not None and below.number else (0, None)
        shown = NUMBERS_SHOWN * (2 if (kind, field) == ("sectors", "cost") else 1)
        top = low + shown if high is None else min(low + shown, high + 1)
        return Slot(key, label, "number", question, numbers=tuple(range(low, top)))

    # -- what the card shows ------------------------------------------------------------------

    @property
    def shown(self) -> list[Slot]:
        """The slots the engine still asks for, given the values on the card."""
        if self.needed is None:
            return self.slots
        asked = set(self.needed({**self.entered, **self.values}))
        return [s for s in self.slots if s.key in asked or s.key in self.values]

    @property
    def noted(self) -> str:
        """The component's values given before, off this card, in words ("Metal to build: 3 ·
        Living quarters: 2"), so that the card shows the tile as known so far."""
        kind = {v: k for k, v in CARD_KINDS.items()}[self.kind]
        asked = {s.key for s in self.slots}
        shown = []
        for key, value in self.entered.items():
            part, record, field = key.split("/")
            if (part, record) != (kind, self.record) or key in asked:
                continue
            if ability_index(field) is not None:
                shown.append(_("Ability: quarter {number}").format(number=value + 1))
            elif slot_label(part, record, field) is not None and field != "income_icons":
                shown.append(f"{slot_label(part, record, field)}: {words(value)}")
        return " · ".join(shown)

    @property
    def heading(self) -> str:
        """The card's title: the component, and for a Sector its level and colour as the tile
        shows them ("Sector 101 · level 1 · teal")."""
        if self.kind != "sector":
            return self.title
        return _("Sector {number} · level {level} · {color}").format(
            number=self.record, level=self.level,
            color=color_name(self.color) if self.color else "?")

    @property
    def chip(self) -> str:
        """What the card's corner shows, as the tile prints it: a Sector's number, a Hub's
        letter and number, a ship's level ("" for a neutral ship and the board)."""
        if self.kind == "ship":
            level = self.catalogue.ships[self.record].level
            return f"L{level}" if level is not None else ""
        return self.record if self.kind in ("sector", "hub") else ""

    @property
    def color(self) -> str | None:
        """A Sector's colour, as the tile shows it (None for any other card)."""
        return self.catalogue.sectors[int(self.record)].color if self.kind == "sector" else None

    @property
    def level(self) -> int | None:
        return self.catalogue.sectors[int(self.record)].level if self.kind == "sector" else None

    @property
    def quarters(self) -> int | None:
        """The Sector's living quarters: tapped on the card, entered before, or known."""
        if self.kind != "sector":
            return None
        key = f"sectors/{self.record}/quarters"
        known = self.values.get(key, self.entered.get(key))
        return known if known is not None else self.catalogue.sectors[
            int(self.record)].value("quarters")

    @property
    def boxes(self) -> int | None:
        """The living quarters drawn for icons and abilities: the Sector's, else - when the
        card does not ask them (a single value corrected) - QUARTERS_SHOWN; None while the
        card asks them."""
        quarters = self.quarters
        if quarters is not None or any(s.key.endswith("/quarters") for s in self.shown):
            return quarters
        return QUARTERS_SHOWN

    def icon_amount(self, quarter: int, resource: str) -> int:
        """How many of `resource` the icon above `quarter` shows (0: none)."""
        slot = next((s for s in self.slots if s.how == "icons"), None)
        icons = self.values.get(slot.key, []) if slot else []
        return sum(i["amount"] for i in icons if i["quarter"] == quarter
                   and i["resource"] == resource)

    def answered(self, slot: Slot) -> bool:
        """Whether the card holds a value for `slot` (a Sector's icons: once its quarters are
        known - none tapped means it shows none)."""
        if slot.how == "icons":
            return self.boxes is not None
        return slot.key in self.values

    def shows(self, slot: Slot) -> str:
        """A slot's value in words ("" while open)."""
        return words(self.values[slot.key]) if slot.key in self.values else ""

    @property
    def complete(self) -> bool:
        """Every value the card shows is answered."""
        return all(self.answered(s) for s in self.shown)

    @property
    def waits(self) -> bool:
        """Whether the card waits for Done once complete (icons are tapped in any number);
        any other card is taken as soon as its last value is tapped."""
        return any(s.how == "icons" for s in self.shown)

    @property
    def open(self) -> int:
        """How many values on the card are still open."""
        return sum(not self.answered(s) for s in self.shown)

    @property
    def alike(self) -> tuple[str, dict[str, int]] | None:
        """Another Hub's starting GEMs and resources, all known (entered or in the catalogue),
        the most common such set: one tap takes them for a Hub whose back shows the same
        (None: not a Hub's card asking two or more of them, or no such Hub yet)."""
        keys = {f"hubs/{self.record}/starting_{r}": r for r in ICONS}
        if self.kind != "hub" or sum(s.key in keys for s in self.shown) < 2:
            return None
        known: dict[str, tuple[int, ...]] = {}
        for hub, info in sorted(self.catalogue.hubs.items()):
            found = tuple(self.entered.get(f"hubs/{hub}/starting_{r}",
                                           info.value(f"starting_{r}")) for r in ICONS)
            if hub != self.record and None not in found:
                known[hub] = found
        if not known:
            return None
        common = Counter(known.values()).most_common(1)[0][0]
        return next(h for h, v in known.items() if v == common), dict(zip(keys, common))

    @property
    def alike_words(self) -> str:
        """The offer in words: "As on Hub B-1: 8 GEMs, 2 food, 2 water, 3 metal" ("": none)."""
        alike = self.alike
        if alike is None:
            return ""
        hub, values = alike
        return _("As on Hub {hub}: {values}").format(hub=hub, values=", ".join(
            f"{n} {icon_name(key.rsplit('_', 1)[1])}" for key, n in values.items()))

    # -- taps ---------------------------------------------------------------------------------

    def take_alike(self) -> bool:
        """The starting GEMs and resources of `alike` taken for this Hub."""
        alike = self.alike
        assert alike is not None
        shown = {s.key for s in self.shown}
        return all(self.number(key, value) for key, value in alike[1].items() if key in shown)

    def number(self, key: str, value: int) -> bool:
        """A number tapped or typed for `key`; False (with `message`) when the schema refuses
        it."""
        self.message = problem(key, value, self.catalogue) or ""
        if not self.message:
            self.values[key] = value
            if key.endswith("/quarters"):  # fewer quarters: drop what sat above the others
                self._keep_quarters(value)
        return not self.message

    def _keep_quarters(self, quarters: int) -> None:
        for slot in self.slots:
            if slot.how == "icons" and slot.key in self.values:
                self.values[slot.key] = [i for i in self.values[slot.key]
                                         if i["quarter"] is None or i["quarter"] < quarters]
            elif slot.how == "ability" and self.values.get(slot.key, -1) >= quarters:
                del self.values[slot.key]

    def icon(self, quarter: int, resource: str) -> None:
        """One more of `resource` on the icon above `quarter` (after MOST_TAPPED: none)."""
        slot = next(s for s in self.slots if s.how == "icons")
        amount = (self.icon_amount(quarter, resource) + 1) % (MOST_TAPPED + 1)
        icons = [i for i in self.values.get(slot.key, [])
                 if (i["quarter"], i["resource"]) != (quarter, resource)]
        if amount:
            icons.append({"resource": resource, "amount": amount, "quarter": quarter})
        self.values[slot.key] = sorted(icons, key=lambda i: (i["quarter"],
                                                             ICONS.index(i["resource"])))

    def ability(self, key: str, quarter: int) -> None:
        """The living quarter that activates the ability of `key`."""
        self.values[key] = quarter

    def track(self, key: str, track: str) -> None:
        """One more Diplomacy step printed on `track` (after MOST_TAPPED: none); the free
        steps follow."""
        steps = (self.fixed.get(track, 0) + 1) % (MOST_TAPPED + 1)
        if steps:
            self.fixed[track] = steps
        else:
            self.fixed.pop(track, None)
        if key in self.values:
            self.values[key] = {"fixed": dict(self.fixed), "choice": self.values[key]["choice"]}

    def free(self, key: str, steps: int) -> bool:
        """The Diplomacy steps the player chooses freely: the starting Diplomacy is complete."""
        return self._take(key, {"fixed": dict(self.fixed), "choice": steps})

    @staticmethod
    def presets(slot: Slot) -> list[tuple[str, str, dict[str, Any]]]:
        """A Hub's starting Diplomacy as a back prints it most simply, one tap each (name,
        words, value): none, one step on one track, free steps; any other by its tracks."""
        return [("none", _("None"), {"fixed": {}, "choice": 0}),
                *((track, _("{track} +1").format(track=track_name(track)),
                   {"fixed": {track: 1}, "choice": 0}) for track in TRACKS),
                *((f"free-{n}", _("{count} free").format(count=n), {"fixed": {}, "choice": n})
                  for n in slot.numbers if n)]

    def preset(self, key: str, name: str) -> bool:
        """One of `presets` tapped: the starting Diplomacy is complete."""
        slot = next(s for s in self.slots if s.key == key)
        value = next(v for n, _words, v in self.presets(slot) if n == name)
        self.fixed = dict(value["fixed"])
        return self._take(key, value)

    def by_tracks(self, slot: Slot) -> bool:
        """Whether the starting Diplomacy is tapped track by track ("Other…" tapped, or a value
        no preset gives), not by its presets."""
        value = self.values.get(slot.key)
        return slot.key in self.tracked or (value is not None and value not in [
            v for _n, _words, v in self.presets(slot)])

    def track_by_track(self, key: str) -> None:
        """"Other…": the tracks tapped one step at a time, then the free steps."""
        self.tracked.add(key)

    def other(self, key: str, value: Any) -> bool:
        """A value entered in the value pop-up."""
        return self._take(key, value)

    def _take(self, key: str, value: Any) -> bool:
        self.message = problem(key, value, self.catalogue) or ""
        if not self.message:
            self.values[key] = value
        return not self.message

    def result(self) -> dict[str, Any]:
        """The values answered, by key (a Sector's icons as a list, none: []); the first the
        schema refuses leaves `message` set and nothing taken."""
        found = {s.key: (self.values.get(s.key, []) if s.how == "icons" else self.values[s.key])
                 for s in self.shown if self.answered(s)}
        for key, value in found.items():
            self.message = problem(key, value, self.catalogue) or ""
            if self.message:
                return {}
        return found

    def entry(self, slot: Slot) -> ValueEntry:
        """The value pop-up's entry for a slot the card asks with the engine's question."""
        return ValueEntry(slot.key, self.catalogue, slot.text, {**self.entered, **self.values})
