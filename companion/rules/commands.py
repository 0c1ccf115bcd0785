"""The shape of every command: one declarative description per command, its fields with their
JSON shapes, whether they are required, and what they mean; the builders that make each command,
and what became of one sent to a game (`Outcome`).

`problem(command)` says what is malformed in a command (a wrong type, a missing or unknown
field) before any rule runs; `update_doc(text)` writes the command tables of
docs/game-scripts.md from the same description (`tools/command_docs.py`). The builders
(`undo()`, `end_turn()`, `use_ship(player, ship, ...)`, `new_game(players, aliens, ...)`, ...)
make a command with the fields its description has, and no other; `attempt(game, command)`
runs one on a game and says what became of it (`Outcome`): applied, refused, or a value
missing. Pure: no I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, Required, TypedDict, Unpack, final

from companion.i18n import _
from companion.rules.move import Missing, Refused
from companion.rules.words import ALIEN_COLORS, COUNTERS, SUPPLY_COUNTERS

LARGEST = 9999  # no count, index or number of the game comes near it
DEEPEST = 8  # the deepest nesting a catalogue value needs (income icons: 3)


class Problem(NamedTuple):
    """What is wrong, and where: `path` is the field (`players[0].color`, "" for the command)."""

    path: str
    text: str


def _got(value: Any) -> str:
    """A value in a message, short and never deep."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if abs(value) < 10**12 else _("a number of {count} digits").format(
            count=len(str(abs(value))))
    if isinstance(value, float):
        return _("the number {value}").format(value=repr(value))
    if isinstance(value, str):
        return _("the string {text}").format(
            text=json.dumps(value if len(value) <= 40 else value[:40] + "..."))
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, Mapping):
        return _("an object")
    return _("a {type}").format(type=type(value).__name__)


class Shape:
    """What a JSON value must be; `text` says it in words (messages and docs)."""

    text: str

    def of_kind(self, value: Any) -> bool:
        """Whether `value` is of the JSON kind this shape takes (a string, a list, ...)."""
        raise NotImplementedError

    def problem(self, value: Any, path: str) -> Problem | None:
        """What is wrong with `value` found at `path`, or None."""
        return None if self.of_kind(value) else self.expected(value, path)

    def expected(self, value: Any, path: str) -> Problem:
        return Problem(path, _("must be {shape}, not {value}").format(shape=self.text,
                                                                      value=_got(value)))


@dataclass(frozen=True)
class Text(Shape):
    """A string."""

    text: str = "a string"
    words: tuple[str, ...] = ()  # the only strings allowed, if any

    def of_kind(self, value: Any) -> bool:
        return isinstance(value, str)

    def problem(self, value: Any, path: str) -> Problem | None:
        ok = self.of_kind(value) and (not self.words or value in self.words)
        return None if ok else self.expected(value, path)


@dataclass(frozen=True)
class Whole(Shape):
    """A whole number (never true/false) from `low` to `high`."""

    low: int = 0
    high: int = LARGEST

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"a whole number from {self.low} to {self.high}"

    def of_kind(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def problem(self, value: Any, path: str) -> Problem | None:
        ok = self.of_kind(value) and self.low <= value <= self.high
        return None if ok else self.expected(value, path)


@dataclass(frozen=True)
class Flag(Shape):
    """true or false."""

    text: str = "true or false"

    def of_kind(self, value: Any) -> bool:
        return isinstance(value, bool)


@dataclass(frozen=True)
class Null(Shape):
    """null."""

    text: str = "null"

    def of_kind(self, value: Any) -> bool:
        return value is None


@dataclass(frozen=True)
class ListOf(Shape):
    """A list whose every item has the shape `item`."""

    item: Shape
    text: str = ""

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", f"a list of {_plural(self.item.text)}")

    def of_kind(self, value: Any) -> bool:
        return isinstance(value, list)

    def problem(self, value: Any, path: str) -> Problem | None:
        if not self.of_kind(value):
            return self.expected(value, path)
        return next((p for i, item in enumerate(value)
                     if (p := self.item.problem(item, f"{path}[{i}]"))), None)


@dataclass(frozen=True)
class MapOf(Shape):
    """An object of free string keys (`key` says what they are), each value of shape `value`."""

    key: str
    value: Shape
    text: str = ""

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", f"an object {{{self.key}: {self.value.text}}}")

    def of_kind(self, value: Any) -> bool:
        return isinstance(value, Mapping)

    def problem(self, value: Any, path: str) -> Problem | None:
        if not self.of_kind(value):
            return self.expected(value, path)
        for key, item in value.items():
            if not isinstance(key, str):
                return Problem(path, _("must have string keys ({key}), not {value}").format(
                    key=self.key, value=_got(key)))
            if found := self.value.problem(item, f"{path}[{json.dumps(key)}]"):
                return found
        return None


@dataclass(frozen=True)
class Field:
    """A named field of a command or object: its shape, whether it is required, what it is;
    `ship` names the ship type whose action reads it (use_ship's action details)."""

    name: str
    shape: Shape
    doc: str
    required: bool = False
    ship: str = ""


@dataclass(frozen=True)
class Record(Shape):
    """An object with named fields, no others."""

    text: str
    fields: tuple[Field, ...]
    doc: str = ""

    def of_kind(self, value: Any) -> bool:
        return isinstance(value, Mapping)

    def problem(self, value: Any, path: str) -> Problem | None:
        if not self.of_kind(value):
            return self.expected(value, path)
        known = {f.name: f for f in self.fields}
        for key in value:
            if key not in known:
                name = json.dumps(key) if isinstance(key, str) else repr(key)
                return Problem(path, _("has no field {name} (its fields: {fields})").format(
                    name=name, fields=", ".join(known)))
        for name, spec in known.items():
            if name not in value:
                if spec.required:
                    return Problem(path, _("needs \"{name}\": {doc}").format(name=name,
                                                                             doc=spec.doc))
            elif found := spec.shape.problem(value[name], f"{path}.{name}" if path else name):
                return found
        return None


@dataclass(frozen=True)
class OneOf(Shape):
    """Any one of `shapes`."""

    shapes: tuple[Shape, ...]
    text: str = ""

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", " or ".join(s.text for s in self.shapes))

    def of_kind(self, value: Any) -> bool:
        return any(s.of_kind(value) for s in self.shapes)

    def problem(self, value: Any, path: str) -> Problem | None:
        found = [s.problem(value, path) for s in self.shapes]
        if None in found:
            return None
        # The alternative of the value's own kind that got furthest into it says best what is
        # wrong (a transaction with a bad field rather than "not a list of tracks").
        near = sorted((p for s, p in zip(self.shapes, found) if p and s.of_kind(value)),
                      key=lambda p: -len(p.path))
        if near and (len(near) == 1 or len(near[0].path) > len(near[1].path)):
            return near[0]
        return self.expected(value, path)


@dataclass(frozen=True)
class AnyJSON(Shape):
    """Any JSON value nested at most `deepest` levels (a catalogue value: the catalogue checks
    the rest)."""

    deepest: int = DEEPEST
    text: str = "any JSON value"

    def of_kind(self, value: Any) -> bool:
        return value is None or isinstance(value, (str, int, float, list, Mapping))

    def problem(self, value: Any, path: str) -> Problem | None:
        stack = [(value, 1)]
        while stack:
            item, depth = stack.pop()
            if not self.of_kind(item):
                return self.expected(item, path)
            if isinstance(item, (list, Mapping)):
                if depth > self.deepest:
                    return Problem(path, _("is nested deeper than {levels} levels").format(
                        levels=self.deepest))
                if isinstance(item, Mapping) and not all(isinstance(k, str) for k in item):
                    return Problem(path, _("must have string keys"))
                stack += [(child, depth + 1)
                          for child in (item.values() if isinstance(item, Mapping) else item)]
        return None


def _plural(text: str) -> str:
    """"a whole number from 0 to 5" -> "whole numbers from 0 to 5", "a player" -> "players"."""
    noun = text.removeprefix("a ").removeprefix("an ")
    if noun.startswith("whole number"):
        return noun.replace("number", "numbers", 1)
    return noun + "s"


# -- the pieces commands are made of -----------------------------------------------------------

SECTOR = Whole(100, 999)
PLACE = OneOf((SECTOR, Text("\"hub\"", ("hub",))), "a Sector number or \"hub\"")
PLAYER = Field("player", Text(), "the player's name", required=True)

NEW_PLAYER = Record("a player", (
    Field("name", Text(), "their name", required=True),
    Field("color", Text(), "red, blue, yellow or green", required=True),
))
ALIENS = Record("an object {\"teal\", \"pink\", \"brown\", \"gold\"} of whole numbers", tuple(
    Field(color, Whole(), f"{color} Aliens drawn", required=True)
    for color in ALIEN_COLORS
))
TRANSACTION = Record("a transaction", (
    Field("type", Text(), "\"alien\" (pay 1 food, 1 water), \"gold\" (1 food, 1 water, 1 metal), "
          "\"trade\" (2 resources for 1) or \"buy\" (3 GEMs for 1 resource)", required=True),
    Field("color", Text(), "alien: teal, pink or brown"),
    Field("where", PLACE, "alien, gold: where the Alien goes, when there is a choice"),
    Field("pay", ListOf(Text()), "trade: the 2 resources paid"),
    Field("gain", Text(), "trade, buy: the resource gained"),
), "one of the four kinds of Transport transaction")
TRANSACTIONS = ListOf(TRANSACTION)
TRACK_LIST = ListOf(Text(), "a list of Diplomacy tracks")
DICE = Record("dice", (
    Field("rolled", ListOf(Text()), "the faces rolled (food, water, metal, human)",
          required=True),
    Field("keep", ListOf(Text()), "the faces kept", required=True),
    Field("humans", ListOf(Text()), "\"observe\" or \"recruit\" for each Human kept"),
), "the dice of a bonus roll (225, 321, A-3)")
HUB_RESIDENT_MOVED = Record("a Hub resident moved", (
    Field("slot", Whole(), "the Hub quarter it leaves (default 0)"),
    Field("to", OneOf((PLACE, Null())), "the Sector it goes to, or null: back to the supply"),
), "A-11's resident moving out of the Hub after income")
RETURNED = Record("what is returned", (
    Field("resident", Record("a resident", (
        Field("from", PLACE, "where it is", required=True),
        Field("slot", Whole(), "its quarter (default 0)"),
    )), "a resident returned"),
    Field("sector", SECTOR, "a Sector returned, with its residents"),
    Field("none", Flag(), "nothing to return: lose the points"),
), "A-12's return to the supply after income")
RELOCATION = Record("a relocation", (
    Field("from", PLACE, "where the resident is", required=True),
    Field("slot", Whole(), "its quarter (0 = leftmost; default 0)"),
    Field("to", PLACE, "where it goes", required=True),
), "one resident moved at income, for 1 GEM")
BONUS = OneOf((TRANSACTIONS, TRACK_LIST, DICE, HUB_RESIDENT_MOVED, RETURNED, SECTOR))
OBJECTS = (NEW_PLAYER, TRANSACTION, DICE, RELOCATION, HUB_RESIDENT_MOVED, RETURNED)
HUMAN_COST_SKIP = Field("human_cost_skip", ListOf(Text()),
                        "the resources a Human discount (215, A-10) saves first")

COMMON = (
    Field("cmd", Text(), "the command", required=True),
    Field("override", Text(), "why the line is applied in spite of the rules it breaks "
          "(recorded in the state's notes)"),
    Field("catalogue", MapOf("\"kind/record/field\"", AnyJSON()),
          "values the catalogue lacks, e.g. `{\"sectors/214/cost\": 8}`"),
    Field("use", ListOf(Text()), "the optional abilities taken, by Sector number or Hub "
          "(`[\"118\", \"B-5\"]`)"),
    Field("choices", MapOf("source", OneOf((Text(), Whole(), ListOf(OneOf((Text(), Whole())),
                                                                     "a list of them")))),
          "an ability's choice (`{\"125\": \"water\", \"B-3\": \"pink\"}`; a list when it fires "
          "more than once; `\"307:pay\"` for resources paid)"),
    Field("bonus", MapOf("source", BONUS),
          "a bonus action's details: transactions (206, 218, 301, A-3, B-5), dice (225, 321, "
          "A-3), tracks (117, 306, A-7), a Sector number (326), A-11's and A-12's objects"),
    Field("where", MapOf("source or \"human\"", OneOf((PLACE, ListOf(PLACE, "a list of them")))),
          "where a gained resident goes when there is a choice (a list when it fires more "
          "than once)"),
    Field("note", Text(), "a remark kept with the line"),
)


@dataclass(frozen=True)
class Command:
    """One command: its name, what it does, where the docs list it, and its own fields."""

    name: str
    doc: str
    group: str
    fields: tuple[Field, ...] = ()
    record: Record = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        own = {f.name for f in self.fields}
        fields = (*self.fields, *(f for f in COMMON if f.name not in own))
        object.__setattr__(self, "record", Record(f"a {self.name} command", fields))


def _listed(name: str, doc: str, **shape: Any) -> Field:
    return Field(name, ListOf(shape.pop("item", Text())), doc, **shape)


SPECS = (
    Command("new_game", "start a game", "setup", (
        Field("players", ListOf(NEW_PLAYER), "2 to 4, in turn order (the first is the start "
              "player), each of a different colour", required=True),
        Field("first_game", Flag(), "the first-game setup (Sectors ending in 1-4, fixed sets)"),
        Field("advanced", Flag(), "the advanced Hubs (A-1 to A-12) too"),
        Field("friendly", Flag(), "the friendly variant (one more Sector of each colour)"),
        Field("example", Flag(), "an example game: the values given with \"catalogue\" are "
              "example values, kept in this game only, never in the catalogue overlay"),
        Field("aliens", ALIENS, "the Aliens drawn from the bag (50/70/90 in all)",
              required=True),
    )),
    Command("sector_display", "the Sectors drawn for the display", "setup", (
        _listed("sectors", "one per player (plus one in the friendly variant) from each of the "
                "nine stacks", item=SECTOR, required=True),
    )),
    Command("first_game_sets", "first game only: the predefined Hub and ship sets", "setup", (
        Field("sets", MapOf("player", Whole(1, 4)), "each player's set", required=True),
    )),
    Command("deal_hubs", "the two Hubs dealt to each player", "setup", (
        Field("hubs", MapOf("player", ListOf(Text())), "`{name: [hub, hub]}`", required=True),
    )),
    Command("reveal_ships", "the ships revealed for the current draft (Level 3, then Level 2)",
            "setup", (
                _listed("ships", "the designs revealed, 5/7/9", required=True),
            )),
    Command("draft_ship", "the next pick of the draft", "setup", (
        PLAYER, Field("ship", Text(), "a design on offer", required=True),
    )),
    Command("choose_hub", "the Hub a player keeps, in turn order", "setup", (
        PLAYER, Field("hub", Text(), "one of the two dealt", required=True),
    )),
    Command("starting_bonus", "a player takes their Hub's starting bonuses, in turn order",
            "setup", (
                PLAYER,
                Field("diplomacy", MapOf("track", Whole()), "`{track: n}` for a \"?\" choice"),
                _listed("sectors", "the free Sectors' numbers", item=SECTOR),
                _listed("private_sectors", "A-6's nine Sectors", item=SECTOR),
                _listed("keep", "the designs kept of the ships drawn"),
                _listed("discard", "the ship ids discarded"),
            )),
    Command("use_ship", "turn option A: use a ship, with its action's details", "turn", (
        PLAYER,
        Field("ship", Text(), "the ship id (`Ann:L1-transport`, `neutral:dismantle`)",
              required=True),
        Field("dismantle", Text(), "the ship id dismantled", ship="Dismantle"),
        Field("sector", SECTOR, "the Sector built", ship="Construction"),
        _listed("rolled", "the faces rolled, after any rerolls", ship="Terran Expedition"),
        _listed("keep", "the faces kept", ship="Terran Expedition"),
        _listed("humans", "\"observe\" or \"recruit\" for each Human kept",
                ship="Terran Expedition"),
        Field("rerolls", Whole(), "how many rerolls were used (B-4, 315)",
              ship="Terran Expedition"),
        Field("human_cost_skip", HUMAN_COST_SKIP.shape, HUMAN_COST_SKIP.doc,
              ship="Terran Expedition"),
        Field("transactions", TRANSACTIONS, "the transactions, in order", ship="Transport"),
        Field("tracks", TRACK_LIST, "the track (Level-3 ships: up to two different)",
              ship="Diplomacy"),
    )),
    Command("income", "turn option B: take income (\"no possible action\" is worked out from "
            "the ships still usable and affordable)", "turn", (
                PLAYER,
                Field("relocate", ListOf(RELOCATION), "residents moved, 1 GEM each"),
                HUMAN_COST_SKIP,
            )),
    Command("human_then_income", "Hub A-8's turn option: gain a Human, then take income",
            "turn", (PLAYER, HUMAN_COST_SKIP)),
    Command("diplomacy_bonus", "a player's choice of a Diplomacy bonus on offer", "turn", (
        PLAYER,
        _listed("levels", "`[n]` (one level's bonus) or `[a, b]` (two different, from a top "
                "level)", item=Whole(0, 5), required=True),
    )),
    Command("hub_power", "a Hub power used outside the main action (A-1's conversion, B-6's "
            "point for 4 GEMs)", "turn", (
                PLAYER, Field("source", Text(), "the player's Hub", required=True),
            )),
    Command("end_turn", "the active player's turn is over", "turn"),
    Command("adjust", "a correction of any counter", "corrections", (
        Field("who", Text(), "a player's name or \"supply\"", required=True),
        Field("counter", Text(), "gems, points, food, water, metal (supply: human, teal, pink, "
              "brown, gold)", required=True),
        Field("delta", Whole(-LARGEST, LARGEST), "the change"),
        Field("value", Whole(-LARGEST, LARGEST), "the new value (instead of a delta)"),
        Field("note", Text(), "why", required=True),
    )),
    Command("undo", "takes back the last command", "corrections"),
    Command("redo", "applies again the last undone command", "corrections"),
)
COMMANDS = {spec.name: spec for spec in SPECS}


def problem(command: Any) -> str | None:
    """What is malformed in `command` (its shape, not its rules), in words; None if nothing."""
    if not isinstance(command, Mapping):
        return _("a command is an object with a \"cmd\", not {value}").format(
            value=_got(command))
    name = command.get("cmd")
    spec = COMMANDS.get(name) if isinstance(name, str) else None
    if spec is None:
        shown = json.dumps(name) if isinstance(name, str) else _got(name)
        return _("unknown command {name} (commands: {commands})").format(
            name=shown, commands=", ".join(COMMANDS))
    found = spec.record.problem(command, "")
    if found is None:
        return None
    return f"{name}: {found.path} {found.text}" if found.path else f"{name} {found.text}"


# -- making commands: one builder per command ---------------------------------------------------


class CommandError(ValueError):
    """A command that cannot be made as asked (the message says why, in words)."""


class CommonButNote(TypedDict, total=False):
    """The fields any command may carry (COMMON) but the note (`adjust` takes its own)."""

    override: str
    catalogue: dict[str, Any]
    use: list[str]
    choices: dict[str, Any]
    bonus: dict[str, Any]
    where: dict[str, Any]


class CommonFields(CommonButNote, total=False):
    """The fields any command may carry (COMMON)."""

    note: str


class CommandDict(CommonFields, total=False):
    """A command as a game takes it: its name and its fields (`problem` checks them)."""

    cmd: Required[str]


class NewPlayer(TypedDict):
    name: str
    color: str


class NewGame(CommandDict, total=False):
    players: Required[list[NewPlayer]]
    aliens: Required[dict[str, int]]
    first_game: bool
    advanced: bool
    friendly: bool
    example: bool


class SectorDisplay(CommandDict):
    sectors: list[int]


class FirstGameSets(CommandDict):
    sets: dict[str, int]


class DealHubs(CommandDict):
    hubs: dict[str, list[str]]


class RevealShips(CommandDict):
    ships: list[str]


class DraftShip(CommandDict):
    player: str
    ship: str


class ChooseHub(CommandDict):
    player: str
    hub: str


class StartingBonus(CommandDict, total=False):
    player: Required[str]
    diplomacy: dict[str, int]
    sectors: list[int]
    private_sectors: list[int]
    keep: list[str]
    discard: list[str]


class ShipDetails(CommonFields, total=False):
    """use_ship's action details (each read by one ship type) and the common fields."""

    dismantle: str
    sector: int
    rolled: list[str]
    keep: list[str]
    humans: list[str]
    rerolls: int
    human_cost_skip: list[str]
    transactions: list[dict[str, Any]]
    tracks: list[str]


class UseShip(CommandDict, ShipDetails, total=False):
    player: Required[str]
    ship: Required[str]


@final  # a key tells an income from A-8's (`"relocate" in command`)
class Income(CommandDict, total=False):
    player: Required[str]
    relocate: list[dict[str, Any]]
    human_cost_skip: list[str]


@final
class HumanThenIncome(CommandDict, total=False):
    player: Required[str]
    human_cost_skip: list[str]


class DiplomacyBonus(CommandDict):
    player: str
    levels: list[int]


class HubPower(CommandDict):
    player: str
    source: str


class Adjust(CommandDict, total=False):
    who: Required[str]
    counter: Required[str]
    delta: int
    value: int


def _command(name: str, **fields: Any) -> Any:
    """`name`'s command with the fields given (a None one is not given); a field the command
    does not have is a mistake in the code (TypeError)."""
    unknown = sorted(set(fields) - {f.name for f in COMMANDS[name].record.fields})
    if unknown:
        raise TypeError(f"{name} has no field {', '.join(unknown)}")
    return {"cmd": name, **{key: value for key, value in fields.items() if value is not None}}


def new_game(players: list[NewPlayer], aliens: dict[str, int], *,
             first_game: bool | None = None, advanced: bool | None = None,
             friendly: bool | None = None, example: bool | None = None,
             **common: Unpack[CommonFields]) -> NewGame:
    """Start a game: the players in turn order, the Aliens drawn, the options."""
    return _command("new_game", first_game=first_game, advanced=advanced, friendly=friendly,
                    example=example, players=players, aliens=aliens, **common)


def sector_display(sectors: list[int], **common: Unpack[CommonFields]) -> SectorDisplay:
    """The Sectors drawn for the display, stack by stack."""
    return _command("sector_display", sectors=sectors, **common)


def first_game_sets(sets: dict[str, int], **common: Unpack[CommonFields]) -> FirstGameSets:
    """First game: each player's predefined set (by player)."""
    return _command("first_game_sets", sets=sets, **common)


def deal_hubs(hubs: dict[str, list[str]], **common: Unpack[CommonFields]) -> DealHubs:
    """The two Hubs dealt to each player (by player)."""
    return _command("deal_hubs", hubs=hubs, **common)


def reveal_ships(ships: list[str], **common: Unpack[CommonFields]) -> RevealShips:
    """The ship designs revealed for the current draft."""
    return _command("reveal_ships", ships=ships, **common)


def draft_ship(player: str, ship: str, **common: Unpack[CommonFields]) -> DraftShip:
    """The draft's next pick: `player` takes the design `ship`."""
    return _command("draft_ship", player=player, ship=ship, **common)


def choose_hub(player: str, hub: str, **common: Unpack[CommonFields]) -> ChooseHub:
    """`player` keeps `hub`, one of the two dealt."""
    return _command("choose_hub", player=player, hub=hub, **common)


def starting_bonus(player: str, *, diplomacy: dict[str, int] | None = None,
                   sectors: list[int] | None = None, private_sectors: list[int] | None = None,
                   keep: list[str] | None = None, discard: list[str] | None = None,
                   **common: Unpack[CommonFields]) -> StartingBonus:
    """`player` takes their Hub's starting bonuses, with what the Hub asks."""
    return _command("starting_bonus", player=player, diplomacy=diplomacy, sectors=sectors,
                    private_sectors=private_sectors, keep=keep, discard=discard, **common)


def use_ship(player: str, ship: str, **details: Unpack[ShipDetails]) -> UseShip:
    """Turn option A: `player` uses `ship` (its id), with its action's details."""
    return _command("use_ship", player=player, ship=ship, **details)


def income(player: str, *, relocate: list[dict[str, Any]] | None = None,
           human_cost_skip: list[str] | None = None,
           **common: Unpack[CommonFields]) -> Income:
    """Turn option B: `player` takes income (residents relocated for 1 GEM each)."""
    return _command("income", player=player, **common, relocate=relocate,
                    human_cost_skip=human_cost_skip)


def human_then_income(player: str, *, human_cost_skip: list[str] | None = None,
                      **common: Unpack[CommonFields]) -> HumanThenIncome:
    """Hub A-8's turn option: `player` gains a Human, then takes income."""
    return _command("human_then_income", player=player, **common,
                    human_cost_skip=human_cost_skip)


def diplomacy_bonus(player: str, levels: list[int],
                    **common: Unpack[CommonFields]) -> DiplomacyBonus:
    """`player`'s choice of the Diplomacy bonus on offer: one level, or two from a top one."""
    return _command("diplomacy_bonus", player=player, levels=levels, **common)


def hub_power(player: str, source: str, **common: Unpack[CommonFields]) -> HubPower:
    """A Hub power used outside the main action (`source`: the player's Hub)."""
    return _command("hub_power", player=player, source=source, **common)


def end_turn(**common: Unpack[CommonFields]) -> CommandDict:
    """The active player's turn is over."""
    return _command("end_turn", **common)


def undo(**common: Unpack[CommonFields]) -> CommandDict:
    """Take back the last step."""
    return _command("undo", **common)


def redo(**common: Unpack[CommonFields]) -> CommandDict:
    """Apply again the last step undone."""
    return _command("redo", **common)


def adjust(who: str, counter: str, note: str, *, delta: int | None = None,
           value: int | None = None, **common: Unpack[CommonButNote]) -> Adjust:
    """A correction of any counter (a player's, or the supply's: `who` "supply"), by `delta`
    or to `value`, with a note saying why; CommandError (in words) for a counter `who` does
    not have, a blank note, or neither or both of the change and the new value."""
    counters = SUPPLY_COUNTERS if who == "supply" else COUNTERS
    if counter not in counters:
        raise CommandError(_("{who} counts {counters}").format(who=who,
                                                             counters=", ".join(counters)))
    if not note.strip():
        raise CommandError(_("a correction needs a note saying why"))
    if (delta is None) == (value is None):
        raise CommandError(_("give the change or the new value"))
    return _command("adjust", who=who, counter=counter, delta=delta, value=value, note=note,
                    **common)


# -- what became of a command -------------------------------------------------------------------


class Executes(Protocol):
    """What a command is run on: the engine's Game, the store's StoredGame."""

    def execute(self, command: Mapping[str, Any]) -> Any: ...


@dataclass(frozen=True)
class Outcome:
    """What became of a command sent to a game: one of three cases.

    - applied: `step` is the step the game took (stored, when sent through the app's session);
    - refused: `refused` says why, in words: a rule's (`override(reason)` gives the command
      again, to be applied in spite of it), or, `overridable` False, why it could not be done
      at all (no game open; not saved, the game as it was);
    - missing: the catalogue lacks a value the rules need: `key` names it ("sectors/214/cost"),
      `question` asks it; `answer(value)` gives the command again with the value.

    `problem` is the words to show: "" when applied.
    """

    command: CommandDict
    step: Any = None
    refused: str | None = None
    key: str | None = None
    question: str | None = None
    overridable: bool = True

    def __post_init__(self) -> None:
        cases = (self.step is not None, self.refused is not None, self.key is not None)
        if cases.count(True) != 1 or (self.key is None) != (self.question is None):
            raise TypeError("an Outcome is applied (a step), refused (why) or missing (a key "
                            "and its question), exactly one")

    @property
    def applied(self) -> bool:
        return self.step is not None

    @property
    def missing(self) -> bool:
        return self.key is not None

    @property
    def problem(self) -> str:
        """The words to show: why it was refused, the question asked, "" when applied."""
        if self.refused is not None:
            return self.refused
        return self.question or ""

    def override(self, reason: str) -> CommandDict:
        """The refused command again, to be applied in spite of the rule (the reason is
        recorded)."""
        if self.refused is None or not self.overridable:
            raise CommandError(_("only a rule's refusal can be overridden"))
        if not reason.strip():
            raise CommandError(_("an override needs a reason"))
        return {**self.command, "override": reason}

    def answer(self, value: Any) -> CommandDict:
        """The command again with the value the rules asked for."""
        if self.key is None:
            raise CommandError(_("the engine asked for no value"))
        return {**self.command, "catalogue": {**self.command.get("catalogue", {}),
                                              self.key: value}}


def attempt(game: Executes, command: CommandDict) -> Outcome:
    """Run `command` on `game`: applied, refused by a rule, or a value missing. Only the rules'
    verdicts are caught: a store's error goes up (GameSession.send, the app's one door for
    commands, words it). The app sends through its session; a preview on a scratch copy of a
    game, or a test, attempts a command on a Game directly."""
    try:
        return Outcome(command, step=game.execute(command))
    except Refused as refused:
        return Outcome(command, refused=refused.reason)
    except Missing as missing:
        return Outcome(command, key=missing.key, question=missing.question)

# -- the docs -----------------------------------------------------------------------------------

_REGION = re.compile(r"(<!-- commands:(\w+) -->\n).*?(<!-- /commands -->)", re.S)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _rows(label: str, doc: str, fields: tuple[Field, ...]) -> list[str]:
    """A labelled row, then a row per field: name, type, what it is."""
    return [f"| {label} | | | {_cell(doc)} |", *(
        f"| | `{f.name}`{' (required)' if f.required else ''} | {_cell(f.shape.text)} | "
        f"{_cell(f.doc)} |" for f in fields)]


def markdown(section: str) -> str:
    """The table of one section of docs/game-scripts.md: a command group ("setup", "turn",
    "corrections"), "details" (use_ship's action details), "common" (on any line) or
    "objects"."""
    head = "| {} | field | type | what it is |\n|---|---|---|---|"
    if section == "common":
        return "\n".join(["| field | type | what it is |\n|---|---|---|", *(
            f"| `{f.name}` | {_cell(f.shape.text)} | {_cell(f.doc)} |" for f in COMMON[1:])])
    if section == "details":
        details = [f for f in COMMANDS["use_ship"].fields if f.ship]
        rows = [row for ship in dict.fromkeys(f.ship for f in details)
                for row in _rows(ship, "", tuple(f for f in details if f.ship == ship))]
        return "\n".join([head.format("ship"), *rows, "| Farm, Ice Collector | | | (none) |"])
    if section == "objects":
        rows = [row for shape in OBJECTS for row in _rows(shape.text, shape.doc, shape.fields)]
        return "\n".join([head.format("object"), *rows])
    rows = []
    for spec in SPECS:
        if spec.group == section:
            rows += _rows(f"`{spec.name}`", spec.doc, tuple(f for f in spec.fields if not f.ship))
            if any(f.ship for f in spec.fields):
                rows.append("| | (the action's details) | | see the next table |")
    return "\n".join([head.format("command"), *rows])


def update_doc(text: str) -> str:
    """`text` with each `<!-- commands:SECTION -->` ... `<!-- /commands -->` region rewritten."""
    return _REGION.sub(lambda m: f"{m[1]}{markdown(m[2])}\n{m[3]}", text)
