"""Hub and Sector abilities applied at their triggers (the structured effects of the catalogue).

Two rules of the rulebook shape this module: "Only ship actions trigger Sector bonuses marked with
a ship outline! Bonus actions do not." and "Bonus actions that a player receives from their Station
Sectors will not trigger Diplomacy bonuses." So a bonus action here never calls back into the
ship-action triggers, and never produces Diplomacy bonuses.

The bonus actions and the player's decisions (`use`, `choices`, `bonus`, `where`) are built
from `gains`; this module applies each ability at its trigger, the "when gaining" ones included.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.i18n import N_, _
from companion.rules import commands, gains, ledger
from companion.rules.catalogue import Ability
from companion.rules.diplomacy import TOP, advance
from companion.rules.effects import KINDS
from companion.rules.gains import bonus_detail, choice, choice_of_place, resolve_cost, uses
from companion.rules.message import Message, join, message
from companion.rules.move import Move
from companion.rules.position import player_position, station_count
from companion.rules.state import Event, find_sector, hub_of
from companion.rules.station import (
    active_abilities,
    place_resident,
    places_for,
    remove_resident,
    why_not_gained,
)
from companion.rules.words import ALIEN_COLORS, RESOURCES, TRACKS, color_message

# -- applying ----------------------------------------------------------------------------------


def run(move: Move, player: int, trigger: str, ship: str | None = None, *, own_ship: bool = True,
        context: Mapping[str, Any] | None = None, kinds: tuple[str, ...] | None = None) -> None:
    """Apply the player's active abilities for `trigger` (and ship type) in station order."""
    for source, ability in active_abilities(move.state, move.catalogue, player, trigger, ship):
        if kinds is not None and ability.kind not in kinds:
            continue
        if trigger == "ship_action" and not gains.owner_matches(ability, own_ship):
            continue
        apply_effect(move, player, source, ability, context or {})


def after_gaining_resident(move: Move, player: int, species: str) -> None:
    """"When gaining an Alien" / "When gaining a Human" abilities (106, 115, 126, 217)."""
    trigger = "gain_human" if species == "human" else "gain_alien"
    run(move, player, trigger)


# Triggers the abilities never run: final scoring reads game_end, a turn option is a command.
ELSEWHERE = ("game_end", "turn_option")


def apply_effect(move: Move, player: int, source: str, ability: Ability,
                 context: Mapping[str, Any]) -> None:
    """Carry out one triggered ability (modifiers are read by the actions, not run here)."""
    kind, params = ability.kind, ability.params
    if KINDS[kind].modifier or ability.trigger in ELSEWHERE:
        return
    if params.get("optional") and not uses(move, source):
        return
    if "condition" in params:
        color = _condition_color(params["condition"], context)
        if color is None:
            return
        context = {**context, "condition_color": color}
    why = effect_why(source, ability)
    if "cost" in params and "cost" not in KINDS[kind].params:  # else the price of each resident
        ledger.pay(move, player, resolve_cost(move, source, params["cost"]), why)
    EFFECTS[kind](move, player, source, params, context, why)


# -- the effects, by kind (effects.KINDS describes each) ---------------------------------------

# (move, player, source, params, context, why): an ability of that kind carried out.
Effect = Callable[[Move, int, str, Mapping[str, Any], Mapping[str, Any], Message], None]


def _gain(move: Move, player: int, source: str, params: Mapping[str, Any],
          context: Mapping[str, Any], why: Message) -> None:
    ledger.gain(move, player, params["amounts"], why)


def _gain_one_of(move: Move, player: int, source: str, params: Mapping[str, Any],
                 context: Mapping[str, Any], why: Message) -> None:
    options = [_one(option) for option in params["options"]]
    picked = choice(move, source, _("which one?"), options)
    ledger.gain(move, player, {picked: 1}, why)


def _gain_any_resources(move: Move, player: int, source: str, params: Mapping[str, Any],
                        context: Mapping[str, Any], why: Message) -> None:
    for _time in range(params["count"]):
        picked = choice(move, source, _("which resource?"), list(RESOURCES))
        ledger.gain(move, player, {picked: 1}, why)


def _gain_per(move: Move, player: int, source: str, params: Mapping[str, Any],
              context: Mapping[str, Any], why: Message) -> None:
    amount = _count(move, player, params["count"]) // params.get("every", 1)
    times = max(0, amount + params.get("offset", 0))
    ledger.gain(move, player, {k: n * times for k, n in params["amounts"].items()}, why)


def _gain_residents(move: Move, player: int, source: str, params: Mapping[str, Any],
                    context: Mapping[str, Any], why: Message) -> None:
    """Residents with a cost are bought (222, 307, 322: refused when they cannot be had); free
    ones (B-1, 311, ...) are gained "to the greatest extent possible" - the rest is skipped with
    a note ("If there are no brown Aliens left, do not gain any")."""
    species = _species(move, player, source, params["species"], context)
    if species is None:
        return
    for gained in range(params["count"]):
        if "cost" in params:
            gains.buy_resident(move, player, species, params["cost"],
                               where=choice_of_place(move, source), source=source, why=why,
                               when_gaining=after_gaining_resident)
            continue
        obstacle = why_not_gained(move.state, player, species)
        if obstacle:
            move.emit(Event.NOTE, message(N_("{source}: {obstacle}, so {left} of {count} not "
                                             "gained"),
                                          source=_label(source), obstacle=obstacle,
                                          left=params["count"] - gained, count=params["count"]))
            return
        gains.gain_resident(move, player, species, choice_of_place(move, source), why=why,
                            when_gaining=after_gaining_resident)


def _transport_transaction(move: Move, player: int, source: str, params: Mapping[str, Any],
                           context: Mapping[str, Any], why: Message) -> None:
    detail = bonus_detail(move, source, _("transport transaction(s)"), commands.TRANSACTIONS)
    gains.transactions(move, player, detail, limit=params["count"], why=why,
                       when_gaining=after_gaining_resident)


def _expedition_roll(move: Move, player: int, source: str, params: Mapping[str, Any],
                     context: Mapping[str, Any], why: Message) -> None:
    detail = bonus_detail(move, source, _("dice rolled and kept"), commands.DICE)
    gains.expedition_result(move, player, detail, dice=params["dice"], keep=params["keep"],
                            why=why, when_gaining=after_gaining_resident)


def _diplomacy_action(move: Move, player: int, source: str, params: Mapping[str, Any],
                      context: Mapping[str, Any], why: Message) -> None:
    tracks = (bonus_detail(move, source, _("track(s)"), commands.TRACK_LIST)
              if params["tracks"] == "choose" else
              [t for t in TRACKS if move.state["players"][player]["diplomacy"][t] < TOP])
    if params["tracks"] == "all" and len(tracks) < len(TRACKS):
        # 328, "to the greatest extent possible": a token at the top stays there.
        move.emit(Event.NOTE, message(N_("{source}: {count} Diplomacy token(s) already at the "
                                         "top space stay there"),
                                      source=_label(source), count=len(TRACKS) - len(tracks)))
    for track in tracks:
        advance(move, player, track, pay=params["lobbying"] == "pay", why=why)


def _extra_turn(move: Move, player: int, source: str, params: Mapping[str, Any],
                context: Mapping[str, Any], why: Message) -> None:
    move.emit(Event.EXTRA_TURN, message(N_("{player} will take an additional turn: {why}"),
                                        player=move.name(player), why=why),
              ["add", ["turn", "extra_turns"], 1])


def _free_sector(move: Move, player: int, source: str, params: Mapping[str, Any],
                 context: Mapping[str, Any], why: Message) -> None:
    gains.take_free_sector(move, player, source, params["level"], why=why)


def _relocate_hub_resident(move: Move, player: int, source: str, params: Mapping[str, Any],
                           context: Mapping[str, Any], why: Message) -> None:
    """A-11's Hub residents moving out at the end of the first `times` Income actions."""
    me = move.state["players"][player]
    if me["incomes"] >= params["times"] or not any(me["hub_slots"]):
        return
    detail: Any = bonus_detail(move, source, _("Hub resident moved: "
                                               "{\"slot\": n, \"to\": Sector or null}"),
                               commands.HUB_RESIDENT_MOVED)
    target = detail.get("to")
    movable = sorted({species for species in me["hub_slots"] if species is not None
                      and set(places_for(move.state, player, species)) - {"hub"}})
    move.check(target is not None or not movable,
               message(N_("Hub {hub}: a {species} resident can move onto a legal Sector, so "
                          "none is returned (\"If there is no legal place to move one of them, "
                          "then one must be returned to the supply\")"),
                       hub=source, species=join(message(N_(" or ")),
                                                map(color_message, movable))))
    move.check(target != "hub", message(N_("Hub {hub}: the resident moves \"from your Hub onto "
                                           "a legal Sector\", not back to the Hub"), hub=source))
    species = remove_resident(move, player, "hub", detail.get("slot", 0), to="hand",
                              why=_label(source))
    if target is None:
        move.emit(Event.RESIDENT_RETURNED, message(N_("No legal place: the {species} goes back "
                                                      "to the supply"),
                                                   species=color_message(species)),
                  ["add", ["supply", species], 1])
    else:
        place_resident(move, player, species, target, why=_label(source),
                       from_supply=False)


def _return_to_supply(move: Move, player: int, source: str, params: Mapping[str, Any],
                      context: Mapping[str, Any], why: Message) -> None:
    """A-12 (end of income): "return one Alien, one Human, or one Sector to the supply. If you
    are unable to do so, lose 5 points immediately, going negative if necessary.\""""
    me = move.state["players"][player]
    detail = bonus_detail(move, source, _("what is returned: {\"resident\": "
                                          "{\"from\", \"slot\"}} or {\"sector\": n} or "
                                          "{\"none\": true}"),
                          commands.RETURNED)
    if detail.get("sector") is not None:
        number = detail["sector"]
        index = find_sector(me, number)
        if index is None:
            move.fail(_("{player} has no Sector {number}").format(player=me["name"],
                                                                  number=number))
        residents = me["sectors"][index]["residents"]
        ops = [["remove_at", ["players", player, "sectors"], index]]
        ops += [["add", ["supply", r], 1] for r in residents]
        move.emit(Event.SECTOR_RETURNED, message(N_("{player} returns Sector {number} to the "
                                                    "supply (Hub {hub})"),
                                                 player=me["name"], number=number, hub=source),
                  *ops)
    elif detail.get("resident"):
        where = detail["resident"]
        remove_resident(move, player, where.get("from"), where.get("slot", 0), to="supply",
                        why=_label(source))
    else:
        has_any = bool(me["sectors"]) or any(me["hub_slots"])
        move.check(not has_any, message(N_("{player} has something to return, so loses no "
                                           "points"), player=me["name"]))
        ledger.gain(move, player, {"points": -params["penalty_points"]},
                    message(N_("Hub {hub}: nothing to return"), hub=source))


# The kinds that are run at their trigger (not modifiers, final scoring or a turn option).
EFFECTS: dict[str, Effect] = {
    "gain": _gain, "gain_one_of": _gain_one_of, "gain_any_resources": _gain_any_resources,
    "gain_per": _gain_per, "gain_residents": _gain_residents,
    "transport_transaction": _transport_transaction, "expedition_roll": _expedition_roll,
    "diplomacy_action": _diplomacy_action, "extra_turn": _extra_turn,
    "free_sector": _free_sector, "return_to_supply": _return_to_supply,
    "relocate_hub_resident": _relocate_hub_resident,
}


# -- Hub powers outside the main action --------------------------------------------------------


def hub_power(move: Move) -> None:
    """`hub_power`: {"player", "source"} - a Hub power used outside the main action: A-1's
    "On each turn ... you may convert 1 metal into 1 food or 1 water", B-6's "At any time, you
    may spend 1 point to gain 4 GEMs"."""
    player = move.player()
    if move.state["phase"] != "play":
        move.fail(_("Hub powers are used once the game is in play"))
    source: Any = move.command.get("source")  # the command's (checked against the Hub)
    me = move.state["players"][player]
    move.check(source == me["hub"], message(N_("{player}'s Hub is {hub}, not {source}"),
                                            player=me["name"], hub=me["hub"], source=str(source)))
    found = [a for a in move.catalogue.hubs[hub_of(me)].abilities
             if a.trigger in ("turn", "any_time")]
    if not found:
        move.fail(_("Hub {hub} has no power to use outside an action").format(hub=me["hub"]))
    ability = found[0]
    if ability.trigger == "turn":
        move.check(move.state["turn"]["active"] == player,
                   message(N_("Hub {hub}'s power is used on {player}'s own turn"),
                           hub=source, player=me["name"]))
        move.check(source not in move.state["turn"]["used"],
                   message(N_("Hub {hub}'s power is used once per turn"), hub=source))
        move.emit(Event.POWER_USED, message(N_("{player} uses Hub {hub}"), player=me["name"],
                                            hub=source),
                  ["append", ["turn", "used"], source])
    apply_effect(move, player, source, ability.__class__(
        ability.trigger, ability.kind, {**ability.params, "optional": False}, ability.text,
        ability.quarter), {})


# -- reading an ability and the state ----------------------------------------------------------


def _condition_color(condition: Mapping[str, int], context: Mapping[str, Any]) -> str | None:
    """The Alien colour that meets 207's condition ("When using a Transport ship to gain at
    least 3 Aliens of a single color"), or None when it is not met."""
    least = condition["aliens_of_one_color_gained_at_least"]
    gained = context.get("aliens_gained") or {}
    return next((color for color, n in gained.items() if n >= least), None)


def effect_why(source: str, ability: Ability) -> Message:
    """What an ability's effect is noted with in the log: its source and its text, the tile's
    English in quotation marks, or its words in the language spoken when shown (the text as a
    message of its own: i18n.ability_text's catalogue)."""
    return message(N_('{source}: "{text}"'), source=_label(source), text=message(ability.text))


def _label(source: str) -> Message:
    """A source in words: "Hub B-3", "Sector 214"."""
    if "-" in source:
        return message(N_("Hub {hub}"), hub=source)
    return message(N_("Sector {number}"), number=source)



def _one(option: Mapping[str, int]) -> str:
    (key,) = option
    return key


def _count(move: Move, player: int, what: str) -> int:
    """What a gain_per ability counts: the owner's Diplomacy tokens on level 3 or higher, or
    what final scoring counts on their station (`position.station_count`)."""
    if what == "diplomacy_level3_tokens":
        diplomacy = move.state["players"][player]["diplomacy"]
        return sum(1 for level in diplomacy.values() if level >= 3)
    return station_count(what, player_position(move.state, player))


def _species(move: Move, player: int, source: str, species: str,
             context: Mapping[str, Any]) -> str | None:
    if species == "any_alien":
        # Only colours that can be gained and placed: "to the greatest extent possible".
        possible = [c for c in ALIEN_COLORS if why_not_gained(move.state, player, c) is None]
        if not possible:
            move.emit(Event.NOTE, message(N_("{source}: no Alien can be placed, none is gained"),
                                          source=_label(source)))
            return None
        return choice(move, source, _("which Alien colour?"), possible)
    if species == "same_as_built_sector":
        return context.get("built_color")
    if species == "same_as_condition":
        return context.get("condition_color")
    return species
