"""The game state as plain JSON-shaped data, and the one way it changes: applying an event's ops.

An event is `{"type": ..., "message": {"key": ..., "params": {...}}, "ops": [[op, path, value],
...]}`, its words as data (companion.rules.message). Its ops are the only mutation the state ever
sees, so the state is exactly the fold of the events, and every op has an inverse (recorded as it
is applied) that undoes it exactly.

Ops: `add` a number, `set` a value, `delete` a key, `append` to a list, `pop` the last item of
a list, `remove_at` an index of a list, `insert_at` an index of a list. A path is a list of keys and
indexes from the root, e.g. `["players", 0, "gems"]`.

The state stays a plain dict (the store writes it as JSON, and the ops address it by path); its
shape is declared here as TypedDicts (`State` and its parts), each with its constructor.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any, NotRequired, TypedDict, cast

from companion.rules.message import Message
from companion.rules.words import TRACKS

# -- the shape of the state ---------------------------------------------------------------------


class Options(TypedDict, total=False):
    """The game's options, set by `new_game` (empty before)."""

    first_game: bool
    advanced: bool
    friendly: bool
    example: bool  # example values: not stored in the user's overlay


class Sector(TypedDict):
    """A Sector on a player's station; residents left to right."""

    number: int
    level: int
    color: str
    residents: list[str]  # species
    placed_turn: list[int]  # the turn each resident was placed (it is active after that turn)
    quarters: int
    links: list[int | None]  # the living quarter each ability needs (None: none, "built")
    income: list[list]  # [[quarter, {resource: amount}], ...]: the orange income icons


class Player(TypedDict):
    """A player: counters, Hub, station and Diplomacy tokens."""

    name: str
    color: str  # words.PLAYER_COLORS
    hub: str | None
    hub_options: list[str]  # the two Hubs dealt (the draft)
    points: int
    gems: int
    food: int
    water: int
    metal: int
    diplomacy: dict[str, int]  # track: level (0 = the starting space)
    sectors: list[Sector]
    hub_quarters: list[list[str]]  # the species each Hub living quarter takes
    hub_slots: list[str | None]  # the Hub's residents, by quarter
    private_sectors: list[int]  # set aside by a Hub's starting bonus
    neutral_token: str | None  # the neutral ship it is on
    incomes: int  # Income actions taken
    ready: bool  # has taken the starting bonuses


class Ship(TypedDict):
    """A ship on the table (`ships` is keyed by id: "Ann:L1-transport", "neutral:farm")."""

    design: str
    type: str  # words.SHIP_NAMES
    owner: int | None  # a player, or None for a neutral ship
    gems: int  # on the ship: used while there are any
    used_by: int | None


class Supply(TypedDict):
    """Humans on Terra and the Aliens drawn (GEMs and resources are unlimited, not counted)."""

    human: int
    teal: int
    pink: int
    brown: int
    gold: int


class Setup(TypedDict, total=False):
    """Where setup is (`step`), and the orders and offers of its current step."""

    step: str  # display, sets, hubs, reveal, draft, choose_hub, bonuses, done
    draft_level: int
    revealed: list[str]
    draft_order: list[int]
    hub_order: list[int]
    bonus_order: list[int]


class Turn(TypedDict):
    """Whose turn it is. `action` and `used` are set when a turn starts (absent before the first
    turn: setting them from the start would change the fold, so the stored snapshots, of stored
    games)."""

    number: int
    active: int | None
    acted: bool
    extra_turns: int
    action: NotRequired[dict | None]  # {"ship": id, "type": kind} or {"income": True}
    used: NotRequired[list[str]]  # Hub powers used once per turn, by Hub


class Pending(TypedDict):
    """A Diplomacy bonus a player has still to choose."""

    kind: str  # "diplomacy_bonus"
    player: int
    track: str
    options: list[list[int]]  # each a list of levels


class End(TypedDict):
    """The end of the game: who triggered it, and who still has a last turn."""

    triggered_by: int | None
    final_turns: list[int]


class Note(TypedDict):
    """A command applied in spite of the rules it broke (as messages; a game stored before
    messages has their words as broken)."""

    override: str
    rules: list[Message | str]


class State(TypedDict):
    """A game's state: everything the rules read, as plain JSON-shaped data."""

    phase: str  # new, setup, play, over
    options: Options
    players: list[Player]
    ships: dict[str, Ship]
    supply: Supply
    display: list[int]  # the Sector display
    setup: Setup
    turn: Turn
    pending: list[Pending]
    end: End
    learned: dict[str, Any]  # catalogue values given in this game ("kind/record/field": value)
    notes: list[Note]


class Event(StrEnum):
    """Every type of event (the strings stored in the log)."""

    # setup
    GAME_STARTED = "game_started"
    DISPLAY_SET = "display_set"
    SETUP_STEP = "setup_step"
    HUBS_DEALT = "hubs_dealt"
    SHIPS_REVEALED = "ships_revealed"
    SHIP_DRAFTED = "ship_drafted"
    HUB_CHOSEN = "hub_chosen"
    HUB_TAKEN = "hub_taken"
    PRIVATE_SECTORS = "private_sectors"
    SHIP_DISCARDED = "ship_discarded"
    BONUSES_TAKEN = "bonuses_taken"
    PLAY_STARTED = "play_started"
    # turns and the end
    TURN_STARTED = "turn_started"
    EXTRA_TURN = "extra_turn"
    EXTRA_TURN_TAKEN = "extra_turn_taken"
    PENDING_DROPPED = "pending_dropped"
    END_TRIGGERED = "end_triggered"
    FINAL_TURN = "final_turn"
    GAME_OVER = "game_over"
    # ships and actions
    SHIP_TAKEN = "ship_taken"
    SHIP_USED = "ship_used"
    SHIP_DISMANTLED = "ship_dismantled"
    SHIPS_RESET = "ships_reset"
    INCOME_TAKEN = "income_taken"
    POWER_USED = "power_used"
    # the station
    SECTOR_BUILT = "sector_built"
    SECTOR_RETURNED = "sector_returned"
    RESIDENT_PLACED = "resident_placed"
    RESIDENT_REMOVED = "resident_removed"
    RESIDENT_RETURNED = "resident_returned"
    # counters and Diplomacy
    GAIN = "gain"
    PAY = "pay"
    FEE = "fee"
    DIPLOMACY_ADVANCED = "diplomacy_advanced"
    BONUS_OFFERED = "bonus_offered"
    BONUS_CHOSEN = "bonus_chosen"
    # the log
    LEARNED = "learned"
    ADJUSTED = "adjusted"
    OVERRIDDEN = "overridden"
    NOTE = "note"


class EventRecord(TypedDict):
    """An event: its type (`Event`), its words for the players as a message (a key and its
    parameters, worded in the reader's language when shown: `message.event_text`), the ops that
    apply it. An event stored before events carried messages has its words as played, `text`,
    instead."""

    type: str
    message: NotRequired[Message]
    text: NotRequired[str]  # only in a game stored before messages (read, never written)
    ops: list[list]  # [op, path, value]


def learned_entry(event: EventRecord) -> tuple[str, Any]:
    """The catalogue key and value a `learned` event teaches: its one op sets `learned[key]`."""
    ((_, (_, key), value),) = event["ops"]
    return key, value


# -- constructors -------------------------------------------------------------------------------


def new_state() -> State:
    """The state before anything has happened: no players, no game."""
    return {
        "phase": "new",
        "options": {},
        "players": [],
        "ships": {},
        "supply": {"human": 0, "teal": 0, "pink": 0, "brown": 0, "gold": 0},  # SUPPLY_COUNTERS
        "display": [],
        "setup": {},
        "turn": {"number": 0, "active": None, "acted": False, "extra_turns": 0},
        "pending": [],
        "end": {"triggered_by": None, "final_turns": []},
        "learned": {},
        "notes": [],
    }


def new_player(name: str, color: str) -> Player:
    """A player as the game starts: nothing yet."""
    return {"name": name, "color": color, "hub": None, "hub_options": [], "points": 0,
            "gems": 0, "food": 0, "water": 0, "metal": 0,
            "diplomacy": dict.fromkeys(TRACKS, 0), "sectors": [], "hub_quarters": [],
            "hub_slots": [], "private_sectors": [], "neutral_token": None, "incomes": 0,
            "ready": False}


def new_ship(design: str, kind: str, owner: int | None) -> Ship:
    """An unused ship of `owner` (None: neutral)."""
    return {"design": design, "type": kind, "owner": owner, "gems": 0, "used_by": None}


def new_sector(number: int, level: int, color: str, *, quarters: int, links: list[int | None],
               income: list[list]) -> Sector:
    """A Sector just added to a station, no residents yet."""
    return {"number": number, "level": level, "color": color, "residents": [],
            "placed_turn": [], "quarters": quarters, "links": links, "income": income}


# -- paths --------------------------------------------------------------------------------------


def find_sector(player: Player, number: Any) -> int | None:
    """The index of Sector `number` in the player's station, or None."""
    return next((i for i, s in enumerate(player["sectors"]) if s["number"] == number), None)


def active_player(state: State) -> int:
    """The player whose turn it is. A game in play always has one (`turn.active` is None only
    before play and once the game is over): asked for it then, a ValueError says so."""
    active = state["turn"]["active"]
    if active is None:
        raise ValueError(f"no player's turn in phase {state['phase']!r}")
    return active


def hub_of(player: Player) -> str:
    """The player's Hub. Every player has one from the Hub's choice on (setup's `choose_hub`):
    asked for it before, a ValueError says so."""
    hub = player["hub"]
    if hub is None:
        raise ValueError(f"{player['name']} has no Hub yet")
    return hub


def in_supply(state: State, species: str) -> int:
    """How many residents of `species` the supply holds (Humans: on Terra), by its name
    (words.SUPPLY_COUNTERS; a KeyError for another)."""
    return cast(Mapping[str, int], state["supply"])[species]


def count(player: Player, counter: str) -> int:
    """One of the player's counters by its name (words.COUNTERS; a KeyError for another)."""
    return cast(Mapping[str, int], player)[counter]


def fleet(state: State, player: int) -> list[str]:
    """The ids of the player's ships on the table, in the table's order."""
    return [sid for sid, ship in state["ships"].items() if ship["owner"] == player]


def _own(value: Any) -> Any:
    """A private copy of a value going into the state (scalars are immutable already)."""
    return copy.deepcopy(value) if isinstance(value, (dict, list)) else value


def _parent(state: Any, path: Sequence[Any]) -> tuple[Any, Any]:
    node = state
    for key in path[:-1]:
        node = node[key]
    return node, path[-1]


def apply_op(state: State, op: Sequence[Any]) -> list:
    """Apply one op in place; return the op that undoes it."""
    name, path, value = op
    node, key = _parent(state, path)
    if name == "add":
        node[key] += value
        return ["add", path, -value]
    if name == "set":
        new_key = isinstance(node, dict) and key not in node
        old = None if new_key else node[key]
        node[key] = _own(value)
        return ["delete", path, None] if new_key else ["set", path, old]
    if name == "delete":
        return ["set", path, node.pop(key)]
    target = node[key]
    if name == "append":
        target.append(_own(value))
        return ["pop", path, None]
    if name == "pop":
        old = target.pop()
        return ["append", path, old]
    if name == "remove_at":
        old = target.pop(value)
        return ["insert_at", path, [value, old]]
    if name == "insert_at":
        index, item = value
        target.insert(index, _own(item))
        return ["remove_at", path, index]
    raise ValueError(f"unknown op {name!r}")


def apply_ops(state: State, ops: Iterable[Sequence[Any]]) -> list:
    """Apply ops in order; return the inverse ops in the order that undoes them."""
    inverse = [apply_op(state, op) for op in ops]
    inverse.reverse()
    return inverse


def fold(events: Iterable[EventRecord], state: State | None = None) -> State:
    """The state after `events`, from `state` (default: a new game); `state` is not changed."""
    result = new_state() if state is None else copy.deepcopy(state)
    for event in events:
        apply_ops(result, event["ops"])
    return result
