"""A player's station: Sectors, wings, living quarters and residents, and which abilities are on.

Placement rules ("General Placement Rules for Residents"): Aerobic Aliens (teal, pink, brown)
go to Sectors of their colour; gold Aliens and Humans anywhere; always the leftmost free living
quarter of the chosen Sector; no free quarters, no resident; and residents "do not activate their
Sector bonuses until after the turn in which they were placed".
"""

from __future__ import annotations

from typing import Any

from companion.i18n import N_, _
from companion.rules.catalogue import Ability, Catalogue
from companion.rules.message import Message, join, message
from companion.rules.move import Missing, Move
from companion.rules.state import Event, Sector, State, find_sector, in_supply, new_sector
from companion.rules.words import AEROBIC, color_message, resident_message, resident_name

# Sector 108: "Once the living quarters here are occupied, your teal Sectors can hold Aliens of any
# color (they can intermingle). If this Sector is later unoccupied, previously placed residents
# may stay in place" - so at the end any Alien may be found in a teal Sector of its owner.
INTERMINGLING = 108


# -- reading ------------------------------------------------------------------------------------


def sector_of(state: State, player: int, number: int) -> Sector | None:
    """The player's built Sector `number`, or None."""
    me = state["players"][player]
    index = find_sector(me, number)
    return None if index is None else me["sectors"][index]


def quarter_active(state: State, sector: Sector, quarter: int | None) -> bool:
    """Whether living quarter `quarter` holds a resident placed before this turn."""
    if quarter is None:
        return True
    placed = sector["placed_turn"]
    return quarter < len(placed) and placed[quarter] < state["turn"]["number"]


def active_abilities(
    state: State, catalogue: Catalogue, player: int, trigger: str, ship: str | None = None
) -> list[tuple[str, Ability]]:
    """(source, ability) of the player's Hub and of Sectors whose linked quarter is active.

    "Bonuses on the player's Station Hub are always active." "Bonuses from living quarters that
    are unoccupied are not applied."
    """
    me = state["players"][player]
    found: list[tuple[str, Ability]] = []
    if me["hub"]:
        found += [(me["hub"], a) for a in catalogue.hubs[me["hub"]].abilities]
    for sector in me["sectors"]:
        abilities = catalogue.sectors[sector["number"]].abilities
        for index, ability in enumerate(abilities):
            if ability.trigger == "built":
                continue
            if quarter_active(state, sector, sector["links"][index]):
                found.append((str(sector["number"]), ability))
    return [
        (source, a) for source, a in found
        if a.trigger == trigger and (ship is None or a.ship in (ship, "any"))
    ]


def intermingling(state: State, player: int) -> bool:
    """Sector 108 occupied (and active): teal Sectors take Aliens of any colour."""
    sector = sector_of(state, player, INTERMINGLING)
    return sector is not None and quarter_active(state, sector, sector["links"][0])


def places_for(state: State, player: int, species: str) -> list[Any]:
    """Where a new resident of `species` may go: Sector numbers (and "hub")."""
    me = state["players"][player]
    mixed = intermingling(state, player)
    places: list[Any] = []
    for sector in me["sectors"]:
        if len(sector["residents"]) >= sector["quarters"]:
            continue
        if species in AEROBIC and species != sector["color"] and not (
            mixed and sector["color"] == "teal"
        ):
            continue
        places.append(sector["number"])
    if any(slot is None and species in allowed
           for slot, allowed in zip(me["hub_slots"], me["hub_quarters"])):
        places.append("hub")
    return places



def why_not_gained(state: State, player: int, species: str) -> Message | None:
    """Why a resident of `species` cannot be had now, or None: none left in the supply (Humans:
    on Terra), or "Residents cannot be acquired if there are no available living quarters"."""
    label = resident_message(species)
    if in_supply(state, species) <= 0:
        return message(N_("no {resident} is left on Terra") if species == "human"
                       else N_("no {resident} is left in the supply"), resident=label)
    if not places_for(state, player, species):
        return message(N_("{player} has no living quarters free for a {resident} (\"Residents "
                          "cannot be acquired if there are no available living quarters for "
                          "them.\")"),
                       player=state["players"][player]["name"], resident=label)
    return None


# -- the layout of a Sector (asked once when unknown) --------------------------------------------


def sector_color(move: Move, number: int) -> str:
    """Sector `number`'s colour: as given from the tile (`"catalogue": {"sectors/N/color": ...}`
    on a line, or the overlay), else the catalogue's (all but 218 inferred from the number)."""
    return move.value("sectors", number, "color",
                      _("What colour is Sector {number}?").format(number=number))


def sector_label(move: Move, number: int) -> Message:
    """"Sector 214 (pink)", or "Sector 214 (assumed pink, from its number)" while the colour the
    placement rules use is only inferred, so the table can see it and correct it."""
    color = sector_color(move, number)
    if (f"sectors/{number}/color" not in move.state["learned"]
            and move.catalogue.sectors[number]["color"].source == "inferred"):
        return message(N_("Sector {number} (assumed {color}, from its number)"),
                       number=number, color=color_message(color))
    return message(N_("Sector {number} ({color})"), number=number, color=color_message(color))


def sector_layout(move: Move, number: int) -> dict:
    """Quarters, ability links and income icons of Sector `number`, asking for what's unknown."""
    info = move.catalogue.sectors[number]
    quarters = move.value("sectors", number, "quarters",
                          _("How many living quarters does Sector {number} have?").format(
                              number=number))
    links = []
    for index, ability in enumerate(info.abilities):
        if ability.trigger == "built":  # "No residents are required to activate immediate
            links.append(None)          # bonus actions!"
            continue
        links.append(move.value(
            "sectors", number, f"abilities.{index}.quarter",
            _("Which living quarter of Sector {number} (0 = leftmost) activates: {text}").format(
                number=number, text=ability.text),
        ))
    return {"quarters": quarters, "links": links, "income": income_icons(move, number)}


def income_icons(move: Move, number: int) -> list[list]:
    """[[quarter, {resource: amount}], ...] of Sector `number`'s orange income icons."""
    key = f"sectors/{number}/income_icons"
    question = _("Which income icons does Sector {number} show, and above which living quarter "
                 "(0 = leftmost)? (an empty list if none)").format(number=number)
    entered = move.catalogue.sectors[number]["income_icons"].source == "user"  # the whole list
    if key not in move.state["learned"] and not entered:
        shipped = move.catalogue.sectors[number]
        icons, complete = shipped["income_icons"], shipped["income_icons_complete"]
        if icons.known and complete.value is True and all(
            i["quarter"] is not None for i in icons.value
        ):
            return [[i["quarter"], {i["resource"]: i["amount"]}] for i in icons.value]
        if not (icons.known and icons.value == [] and complete.value is True):
            raise Missing(key, question)
        return []
    icons = move.value("sectors", number, "income_icons", question)
    return [[i["quarter"], {i["resource"]: i["amount"]}] for i in icons]


# -- changing -----------------------------------------------------------------------------------


def add_sector(move: Move, player: int, number: int, why: Message) -> Sector:
    """Attach Sector `number` to the player's station (taking it from the display if there)."""
    info = move.catalogue.sectors[number]
    layout = sector_layout(move, number)
    sector = new_sector(number, info.level, sector_color(move, number), **layout)
    ops: list[list] = [["append", ["players", player, "sectors"], sector]]
    if number in move.state["display"]:
        ops.append(["remove_at", ["display"], move.state["display"].index(number)])
    private = move.state["players"][player]["private_sectors"]
    if number in private:
        ops.append(["remove_at", ["players", player, "private_sectors"], private.index(number)])
    move.emit(Event.SECTOR_BUILT,
              message(N_("{player} adds {sector} to their station: {why}"),
                      player=move.name(player), sector=sector_label(move, number), why=why),
              *ops)
    return sector


def place_resident(move: Move, player: int, species: str, where: Any = None, *,
                   why: Message, from_supply: bool = True) -> bool:
    """Take a resident from the supply to the leftmost free quarter of `where`.

    Returns False (and places nothing) when the supply has none of that species: "If there are
    no Aliens of the appropriate color, do not gain one." With `from_supply=False` the resident
    is one being relocated, not taken from the supply. The "when gaining" abilities are not run
    here: a resident gained from the supply goes through `gains.gain_resident`.
    """
    if from_supply and in_supply(move.state, species) <= 0:
        move.emit(Event.NOTE, message(N_("No {species} left in the supply: {player} gains none"),
                                      species=color_message(species), player=move.name(player)))
        return False
    places = places_for(move.state, player, species)
    label = resident_name(species)  # (for the refusals worded now)
    if where is None:
        move.check(bool(places), message(N_("{player} has no living quarters free for a "
                                            "{resident}"), player=move.name(player),
                                         resident=resident_message(species)))
        if not places:
            return False
        if len(places) > 1:
            move.fail(_("Where does the {resident} go? Choose one of: {places}").format(
                resident=label, places=", ".join(map(str, places))))
        where = places[0]
    move.check(where in places,
               message(N_("a {resident} cannot go to {place}: free quarters for it are in "
                          "{places}"),
                       resident=resident_message(species), place=str(where),
                       places=join(", ", map(str, places)) if places
                       else message(N_("no Sector"))))
    turn = move.state["turn"]["number"]
    ops: list[list] = [["add", ["supply", species], -1]] if from_supply else []
    me = move.state["players"][player]
    if where == "hub":
        slot = next((i for i, (s, allowed) in enumerate(zip(me["hub_slots"], me["hub_quarters"]))
                     if s is None and species in allowed), None)
        if slot is None:  # overridden, but there is no quarter to put it in
            move.fail(_("{player}'s Hub has no free living quarter for a {resident}").format(
                player=move.name(player), resident=label))
        ops.append(["set", ["players", player, "hub_slots", slot], species])
    else:
        index = find_sector(me, where)
        sector = None if index is None else me["sectors"][index]
        if sector is None or len(sector["residents"]) >= sector["quarters"]:  # overridden
            move.fail(_("{player} has no free living quarter in Sector {number}").format(
                player=move.name(player), number=where))
        ops += [["append", ["players", player, "sectors", index, "residents"], species],
                ["append", ["players", player, "sectors", index, "placed_turn"], turn]]
    text = (N_("{player} places a {resident} in the Hub: {why}") if where == "hub"
            else N_("{player} places a {resident} in Sector {number}: {why}"))
    move.emit(Event.RESIDENT_PLACED, message(text, player=move.name(player),
                                             resident=resident_message(species), number=where,
                                             why=why), *ops)
    return True


def remove_resident(move: Move, player: int, where: Any, slot: int, *, to: str,
                    why: Message) -> str:
    """Take the resident in `slot` of `where` off the station (to the supply, or "hand" for a
    relocation); the residents to its right shift left ("shift the remaining residents to the
    left to close the gap"), except on Hub A-11 ("residents do not shift left")."""
    me = move.state["players"][player]
    if where == "hub":
        species = me["hub_slots"][slot] if slot < len(me["hub_slots"]) else None
        if species is None:
            move.fail(_("{player}'s Hub has no resident in quarter {slot}").format(
                player=move.name(player), slot=slot))
        ops: list[list]
        if me["hub"] == "A-11":
            ops = [["set", ["players", player, "hub_slots", slot], None]]
        else:
            ops = [["remove_at", ["players", player, "hub_slots"], slot],
                   ["append", ["players", player, "hub_slots"], None]]
    else:
        index = find_sector(me, where)
        if index is None:
            move.fail(_("{player} has no Sector {number}").format(player=move.name(player),
                                                                  number=where))
        residents = me["sectors"][index]["residents"]
        if not 0 <= slot < len(residents):
            move.fail(_("Sector {number} has no resident in quarter {slot}").format(
                number=where, slot=slot))
        species = residents[slot]
        base = ["players", player, "sectors", index]
        ops = [["remove_at", [*base, "residents"], slot],
               ["remove_at", [*base, "placed_turn"], slot]]
    if to == "supply":
        ops.append(["add", ["supply", species], 1])
    text = (N_("{player} takes a {species} resident off the Hub: {why}") if where == "hub"
            else N_("{player} takes a {species} resident off Sector {number}: {why}"))
    move.emit(Event.RESIDENT_REMOVED, message(text, player=move.name(player),
                                              species=color_message(species), number=where,
                                              why=why), *ops)
    return species
