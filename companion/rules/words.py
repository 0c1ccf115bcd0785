"""The game's words, defined once: colours, species, resources, counters, dice, ships, tracks.

Every other module (the rules, the store, the UI) takes these from here. The names are in
English (the keys and dicts stay as they are); the functions below give them in the language
spoken now: `ship_name`, `design_name`, `track_name`, `species_name`, `color_name`,
`resource_name`, `word`, `resident_name`, `amount`, `joined`, `field_name`; and as messages
(data, worded when shown: companion.rules.message) for the engine's events: `ship_message`,
`design_message`, `track_message`, `color_message`, `resource_message`, `word_message`,
`resident_message`, `amount_message`, `joined_message`, and a catalogue value's
`component_message`, `field_message`, `value_message`. Imports only companion.i18n and
companion.rules.message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion import i18n
from companion.i18n import N_
from companion.rules.message import Joined, Message, join, message, plural, say

# -- players ------------------------------------------------------------------------------------

PLAYER_COLORS = ("red", "blue", "yellow", "green")

# -- residents and Sectors ----------------------------------------------------------------------

# The aerobic Aliens and the Sectors of their colour ("Aerobic Aliens ... go to Sectors of their
# colour"); gold Aliens and Humans may live anywhere.
SECTOR_COLORS = ("teal", "pink", "brown")
AEROBIC = SECTOR_COLORS
ALIEN_COLORS = (*AEROBIC, "gold")
SPECIES = (*ALIEN_COLORS, "human")
SPECIES_NAMES = {
    "human": N_("Humans"),
    "gold": N_("Whijinga (gold)"),
    "teal": N_("Turkanshee (teal)"),
    "pink": N_("Ensaroo (pink)"),
    "brown": N_("Zonri (brown)"),
}
# What the supply counts: Humans on Terra and the Aliens drawn from the bag.
SUPPLY_COUNTERS = ("human", *ALIEN_COLORS)

# -- counters -----------------------------------------------------------------------------------

RESOURCES = ("food", "water", "metal")
COUNTERS = ("gems", "points", *RESOURCES)  # a player's counters
UNITS = {"gems": ("GEM", "GEMs"), "points": ("point", "points"), "food": ("food", "food"),
         "water": ("water", "water"), "metal": ("metal", "metal")}  # (one, many)
DIE_FACES = (*RESOURCES, "human")

# -- ships and the Diplomacy board --------------------------------------------------------------

# The five ship types of every player's Level-1 fleet and of the neutral ships (the ones a ship
# ability may name); Farms and Ice Collectors come only from the draft.
SHIP_TYPES = ("dismantle", "construction", "expedition", "transport", "diplomacy")
SHIP_NAMES = {"dismantle": N_("Dismantle"), "construction": N_("Construction"),
              "expedition": N_("Terran Expedition"), "transport": N_("Transport"),
              "diplomacy": N_("Diplomacy"), "farm": N_("Farm"),
              "ice_collector": N_("Ice Collector")}


def ship_name(kind: str) -> str:
    """A ship type's name in the language spoken now ("Terran Expedition"); an unknown type as
    it is."""
    return say(ship_message(kind))


def ship_message(kind: str) -> Message | str:
    """`ship_name` as a message (an unknown type as it is)."""
    return message(SHIP_NAMES[kind]) if kind in SHIP_NAMES else kind


# What a Farm or an Ice Collector provides (its draft designs are named by it: "farm-5").
PROVIDES = {"farm": "food", "ice_collector": "water"}


def design_name(design: str) -> str:
    """A ship design as the players say it, in the language spoken now: "L3-ice_collector" ->
    "Ice Collector L3", "neutral-dismantle" -> "neutral Dismantle", "farm-5" -> "Farm (5
    food)", "deck-L1" -> "Level-1 deck"."""
    return say(design_message(design))


def design_message(design: str) -> Message:
    """`design_name` as a message."""
    level, _dash, kind = design.partition("-")
    if level == "neutral":
        return message(N_("neutral {ship}"), ship=ship_message(kind))
    if level == "deck":
        return message(N_("Level-{level} deck"), level=kind.removeprefix("L"))
    if level in PROVIDES and kind.isdigit():
        return message(N_("{ship} ({amount})"), ship=ship_message(level),
                       amount=amount_message(PROVIDES[level], int(kind)))
    return message(N_("{ship} {level}"), ship=ship_message(kind), level=level)


TRACKS = ("dismantle", "construction", "transport", "expedition")  # the Diplomacy tracks
TRACK_NAMES = {"dismantle": N_("Dismantle"), "construction": N_("Construct"),
               "transport": N_("Transport"), "expedition": N_("Expedition")}


def track_name(track: str) -> str:
    """A Diplomacy track's name in the language spoken now ("Construct")."""
    return say(track_message(track))


def track_message(track: str) -> Message | str:
    """`track_name` as a message (an unknown track as it is)."""
    return message(TRACK_NAMES[track]) if track in TRACK_NAMES else track


# -- words in the language spoken now -----------------------------------------------------------

COLOR_NAMES = {"red": N_("red"), "blue": N_("blue"), "yellow": N_("yellow"),
               "green": N_("green"), "teal": N_("teal"), "pink": N_("pink"),
               "brown": N_("brown"), "gold": N_("gold")}
RESOURCE_NAMES = {"food": N_("food"), "water": N_("water"), "metal": N_("metal"),
                  "human": N_("human"), "gems": N_("gems"), "points": N_("points")}
# The other words the JSON reports use as keys or values (English: the key itself).
OTHER_WORDS = {"dismantle": N_("dismantle"), "construction": N_("construction"),
               "transport": N_("transport"), "expedition": N_("expedition"),
               "new": N_("new"), "setup": N_("setup"), "play": N_("play"), "over": N_("over"),
               "fixed": N_("fixed"), "choice": N_("choice")}


def species_name(species: str) -> str:
    """A species as the score sheet names it ("Ensaroo (pink)"), in the language spoken now."""
    return i18n._(SPECIES_NAMES[species]) if species in SPECIES_NAMES else species


def color_name(color: str) -> str:
    """A player's or an Alien's colour ("pink"), in the language spoken now ("human" and the
    counters as `resource_name` says them)."""
    return say(color_message(color))


def color_message(color: str) -> Message | str:
    """`color_name` as a message."""
    return message(COLOR_NAMES[color]) if color in COLOR_NAMES else resource_message(color)


def resource_name(key: str) -> str:
    """A resource, a die face or a counter ("food", "human", "gems"), in the language spoken
    now."""
    return say(resource_message(key))


def resource_message(key: str) -> Message | str:
    """`resource_name` as a message (anything else as it is)."""
    return message(RESOURCE_NAMES[key]) if key in RESOURCE_NAMES else str(key)


def word(key: str) -> str:
    """A game word as the JSON reports write it (a counter, colour, species, Diplomacy track or
    phase: "gems", "pink", "construction", "play") in the language spoken now; in English the
    word itself, and anything else as it is."""
    return say(word_message(key))


def word_message(key: str) -> Message | str:
    """`word` as a message."""
    return message(OTHER_WORDS[key]) if key in OTHER_WORDS else color_message(key)


def resident_name(species: str) -> str:
    """A resident: "Human", or an Alien by colour ("pink Alien"), in the language spoken now."""
    return say(resident_message(species))


def resident_message(species: str) -> Message:
    """`resident_name` as a message."""
    if species == "human":
        return message(N_("Human"))
    return message(N_("{color} Alien"), color=color_message(species))


def joined(items: Iterable[str]) -> str:
    """"a, b and c" in the language spoken now."""
    return say(joined_message(items))


def joined_message(items: Iterable[Any]) -> Message | Joined | Any:
    """`joined` as a message: "a, b and c" of values, messages among them (one value: itself;
    none: "")."""
    items = list(items)
    if len(items) < 2:
        return items[0] if items else ""
    return message(N_("{first} and {last}"), first=join(", ", items[:-1]), last=items[-1])


# The forms of a number of each counter (one, many), as ngettext takes them.
AMOUNT_FORMS = {"gems": (N_("{count} GEM"), N_("{count} GEMs")),
                "points": (N_("{count} point"), N_("{count} points")),
                "food": (N_("{count} food"), N_("{count} food")),
                "water": (N_("{count} water"), N_("{count} water")),
                "metal": (N_("{count} metal"), N_("{count} metal"))}


def amount(key: str, count: int, *, shown: str | None = None) -> str:
    """A number of one counter ("3 GEMs", "1 point", "2 food"), in the language spoken now;
    `shown`: the number as it is written there (e.g. marked up bigger), else as it is."""
    number = str(count) if shown is None else shown
    if key in AMOUNT_FORMS:
        return i18n.ngettext(*AMOUNT_FORMS[key], count).format(count=number)
    return f"{number} {key}"


def amount_message(key: str, count: int) -> Message | str:
    """`amount` as a message."""
    if key in AMOUNT_FORMS:
        return plural(*AMOUNT_FORMS[key], count, count=count)
    return f"{count} {key}"


# -- catalogue values ---------------------------------------------------------------------------

# The numbers printed on a ship card, as a player names them.
SHIP_VALUES = {"cost": N_("cost to use (GEMs)"), "fee": N_("owner's fee (GEMs)"),
               "metal_value": N_("metal value"),
               "extra_metal": N_("extra metal when dismantling"),
               "metal_discount": N_("metal discount"), "duration": N_("duration (dice rolled)"),
               "capacity": N_("capacity (dice kept)"),
               "transactions": N_("number of transactions"),
               "tracks": N_("number of Diplomacy tracks"), "food": N_("food it provides"),
               "water": N_("water it provides")}
# Every other field of the catalogue, by "kind/field", as a player names it.
FIELD_NAMES = {
    "hubs/game": N_("game (basic or advanced)"),
    "hubs/theme": N_("theme"),
    "hubs/income_gems_per_ship": N_("income: GEMs per ship"),
    "hubs/income_fixed_gems": N_("income: fixed GEMs"),
    "hubs/starting_gems": N_("starting GEMs"),
    "hubs/starting_food": N_("starting food"),
    "hubs/starting_water": N_("starting water"),
    "hubs/starting_metal": N_("starting metal"),
    "hubs/starting_diplomacy": N_("starting Diplomacy"),
    "hubs/setup_free_sectors": N_("free Sectors at setup"),
    "hubs/setup_private_sectors": N_("private Sectors at setup"),
    "hubs/setup_ship_changes": N_("ship changes at setup"),
    "hubs/setup_residents": N_("residents at setup"),
    "hubs/living_quarters": N_("living quarters"),
    "hubs/quarter_income": N_("income of each living quarter"),
    "sectors/level": N_("level"),
    "sectors/color": N_("colour"),
    "sectors/cost": N_("cost (metal)"),
    "sectors/quarters": N_("living quarters"),
    "sectors/income_icons": N_("income icons"),
    "sectors/income_icons_complete": N_("all income icons known"),
    "sectors/first_game": N_("in the first game"),
    "ships/type": N_("type"),
    "ships/level": N_("level"),
    "ships/count": N_("cards in the game"),
    "ships/size": N_("cards in the deck"),
    **{f"ships/{field}": words for field, words in SHIP_VALUES.items()},
    "diplomacy/lobbying_cost": N_("lobbying cost (GEMs)"),
    "diplomacy/tracks": N_("tracks"),
    "diplomacy/top_level": N_("top level"),
}


def field_name(kind: str, field: str) -> str:
    """A catalogue field in words, in the language spoken now: "metal value", "Transport
    bonus", "living quarter of ability 1"."""
    return say(field_message(kind, field))


def field_message(kind: str, field: str) -> Message | str:
    """`field_name` as a message (a field no list names: as it is)."""
    if field.startswith("bonus_"):
        return message(N_("{track} bonus"), track=track_message(field.removeprefix("bonus_")))
    if field.startswith("abilities."):
        return message(N_("living quarter of ability {number}"),
                       number=int(field.split(".")[1]) + 1)
    name = FIELD_NAMES.get(f"{kind}/{field}")
    return message(name) if name is not None else field


def component_message(kind: str, record: str) -> Message | str:
    """A component of the catalogue as the players name it: "Hub B-1", "Sector 214", "Farm L2",
    "Diplomacy level 1"."""
    if kind == "hubs":
        return message(N_("Hub {hub}"), hub=record)
    if kind == "sectors":
        return message(N_("Sector {number}"), number=record)
    if kind == "ships":
        return design_message(record)
    if kind == "diplomacy":
        return message(N_("Diplomacy level {level}"), level=record.removeprefix("level-"))
    return record


def value_message(value: Any) -> Message | Joined | str:
    """A catalogue value in words: a number as it is, yes or no, a colour or resource as its
    word, a list joined ("none" when empty), an object's entries ("fixed nothing, choice 1")."""
    if isinstance(value, bool):
        return message(N_("yes")) if value else message(N_("no"))
    if isinstance(value, str):
        return word_message(value)
    if isinstance(value, list):
        if not value:
            return message(N_("none"))
        return joined_message([value_message(item) for item in value])
    if isinstance(value, dict):
        if not value:
            return message(N_("nothing"))
        return join(", ", [message(N_("{key} {value}"), key=word_message(key),
                                   value=value_message(item)) for key, item in value.items()])
    return str(value)
