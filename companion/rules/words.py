"""The game's words, defined once: colours, species, resources, counters, dice, ships, tracks.

Every other module (the rules, the store, the UI) takes these from here. Imports nothing.
"""

from __future__ import annotations

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
    "human": "Humans",
    "gold": "Whijinga (gold)",
    "teal": "Turkanshee (teal)",
    "pink": "Ensaroo (pink)",
    "brown": "Zonri (brown)",
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
SHIP_NAMES = {"dismantle": "Dismantle", "construction": "Construction",
              "expedition": "Terran Expedition", "transport": "Transport",
              "diplomacy": "Diplomacy", "farm": "Farm", "ice_collector": "Ice Collector"}


def design_name(design: str) -> str:
    """A ship design as the players say it: "L3-ice_collector" -> "Ice Collector L3",
    "neutral-dismantle" -> "neutral Dismantle"."""
    level, _, kind = design.partition("-")
    name = SHIP_NAMES.get(kind, kind)
    return f"neutral {name}" if level == "neutral" else f"{name} {level}"


TRACKS = ("dismantle", "construction", "transport", "expedition")  # the Diplomacy tracks
TRACK_NAMES = {"dismantle": "Dismantle", "construction": "Construct",
               "transport": "Transport", "expedition": "Expedition"}
