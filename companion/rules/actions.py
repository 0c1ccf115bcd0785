"""Turn option A: use a ship - own, another player's or neutral - and its action.

"A player can use any unused ship on the table: their own, another player's, or a neutral ship."
The cost in GEMs goes on the ship, the owner's fee to its owner; then the action, then the
station's ship bonuses, then everyone's Diplomacy bonuses.
"""

from __future__ import annotations

from typing import Any

from companion import i18n
from companion.i18n import N_, _
from companion.rules import abilities, gains, ledger
from companion.rules.diplomacy import TOP, advance, lobbying_cost, pay_out
from companion.rules.gains import BUY_GEMS, check_wing, modifiers, total, wing_problem
from companion.rules.message import Message, message, say
from companion.rules.move import Missing, Move
from companion.rules.state import Event, State, count
from companion.rules.station import add_sector, sector_color
from companion.rules.turns import require_main_action
from companion.rules.words import (
    RESOURCES,
    SHIP_VALUES,
    TRACKS,
    design_message,
    ship_message,
)


def ship_label(state: State, ship_id: str) -> Message:
    """A ship as the players name it: "Ann's Diplomacy L1 ship", "the neutral Dismantle ship"."""
    ship = state["ships"].get(ship_id)
    if ship is None:
        return message(N_("ship {ship}"), ship=ship_id)
    if ship["owner"] is None:
        return message(N_("the neutral {ship} ship"), ship=ship_message(ship["type"]))
    return message(N_("{owner}'s {design} ship"),
                   owner=state["players"][ship["owner"]]["name"],
                   design=design_message(ship["design"]))


def ship_value(move: Move, design: str, field: str) -> Any:
    """A number printed on a ship card (asked once when the catalogue lacks it)."""
    return move.value("ships", design, field,
                      _("What is the {value} of the {design} ship?").format(
                          value=i18n._(SHIP_VALUES[field]), design=say(design_message(design))))


def use_ship(move: Move) -> None:
    """`use_ship`: {"player", "ship": id, ...the action's details}."""
    player = move.player()
    require_main_action(move, player)
    ship_id: Any = move.command.get("ship")  # the command's (a ship on the table, or refused)
    ship = move.state["ships"].get(ship_id)
    if ship is None:
        move.fail(_("no ship {ship} on the table").format(ship=repr(ship_id)))
    for reason in ship_refusals(move.state, player, ship_id):
        move.check(False, reason)
    own, neutral = ship["owner"] == player, ship["owner"] is None
    kind, design = ship["type"], ship["design"]
    cost, fee = ship_price(move, player, ship_id)
    words = ship_label(move.state, ship_id)
    ledger.pay(move, player, {"gems": cost}, message(N_("using {ship}"), ship=words))
    ops: list[list] = [["set", ["ships", ship_id, "gems"], cost],
                       ["set", ["ships", ship_id, "used_by"], player],
                       ["set", ["turn", "acted"], True],
                       ["set", ["turn", "action"], {"ship": ship_id, "type": kind}]]
    if neutral:
        ops.append(["set", ["players", player, "neutral_token"], ship_id])
    move.emit(Event.SHIP_USED, message(N_("{player} uses {ship} and puts {cost} GEMs on it"),
                                       player=move.name(player), ship=words, cost=cost), *ops)
    owner = ship["owner"]
    if fee and owner is not None:  # a neutral ship has no fee (ship_price)
        ledger.give(move, player, owner, fee,
                    message(N_("owner's fee for {ship}"), ship=words))
    context = ACTIONS[kind](move, player, ship_id, design, own) or {}
    abilities.run(move, player, "ship_action", kind, own_ship=own, context=context)
    if kind in TRACKS:
        pay_out(move, kind)


def ship_refusals(state: State, player: int, ship_id: str) -> list[Message]:
    """Why the player may not use the ship now (already used; a second neutral ship before
    their token comes back); [] when they may."""
    ship, me = state["ships"][ship_id], state["players"][player]
    reasons = []
    if ship["used_by"] is not None:
        reasons.append(message(N_("{ship} is already used: \"An unused ship has no GEMs on "
                                  "it.\""), ship=ship_label(state, ship_id)))
    if ship["owner"] is None and me["neutral_token"] is not None:
        token_on = ship_label(state, me["neutral_token"])
        reasons.append(message(N_("{player}'s Neutral Ship token is on {ship}: they \"cannot "
                                  "use another neutral ship until they retrieve their Neutral "
                                  "Ship token in an Income action\""),
                               player=me["name"], ship=token_on))
    return reasons


def ship_price(move: Move, player: int, ship_id: str) -> tuple[int, int]:
    """The GEMs the player puts on the ship (after discounts) and the owner's fee they pay."""
    ship = move.state["ships"][ship_id]
    own, neutral = ship["owner"] == player, ship["owner"] is None
    cost = ship_cost(move, player, ship["design"], ship["type"], own)
    return cost, 0 if own or neutral else ship_value(move, ship["design"], "fee")


def ship_cost(move: Move, player: int, design: str, kind: str, own: bool) -> int:
    """The GEMs placed on the ship after the player's Hub discounts ("to a minimum of 1")."""
    cost = ship_value(move, design, "cost")
    for _source, ability in modifiers(move, player, "ship_cost_discount", kind, own):
        floor = ability.params["minimum"]
        cost = max(min(cost, floor), cost - ability.params["gems"])
    return cost


# -- Dismantle ----------------------------------------------------------------------------------


def dismantle(move: Move, player: int, ship_id: str, design: str, own: bool) -> dict:
    """"select an unused ship ... from their own fleet to dismantle ... receive metal from the
    supply equal to the number shown on the ship (plus any bonuses that may apply)"."""
    target = move.command.get("dismantle")
    ships = move.state["ships"]
    candidates = dismantle_candidates(move.state, player, ship_id)
    impossible = no_possible_action(move, player, ship_id, move.state["players"][player]["gems"])
    if impossible:
        move.check(False, impossible)
    if target is None and len(candidates) == 1:
        target = candidates[0]
    if target not in ships or ships[target]["owner"] is None:  # a neutral ship shows no metal
        move.fail(_("which ship does {player} dismantle? ({ships})").format(
            player=move.name(player), ships=", ".join(candidates)))
    label = ship_label(move.state, target)  # (the ship is gone once dismantled)
    move.check(target in candidates, message(N_("{ship} cannot be dismantled: only an unused "
                                                "ship of {player}'s own fleet can"),
                                             ship=label, player=move.name(player)))
    metal = dismantle_metal(move, design, ships[target]["design"])
    move.emit(Event.SHIP_DISMANTLED, message(N_("{player} dismantles {ship}"),
                                             player=move.name(player), ship=label),
              ["delete", ["ships", target], None])
    ledger.gain(move, player, {"metal": metal}, message(N_("dismantling {ship}"), ship=label))
    return {}


def dismantle_candidates(state: State, player: int, ship_id: str) -> list[str]:
    """The unused ships of the player's own fleet other than `ship_id`: what a Dismantle may
    take."""
    return [sid for sid, s in state["ships"].items()
            if s["owner"] == player and s["used_by"] is None and sid != ship_id]


def dismantle_metal(move: Move, design: str, target_design: str) -> int:
    """Metal for dismantling a `target_design` ship with a `design` Dismantle ship: "the number
    shown on the ship (plus any bonuses that may apply)"."""
    return ship_value(move, target_design, "metal_value") + ship_value(move, design,
                                                                       "extra_metal")


def no_possible_action(move: Move, player: int, ship_id: str, gems_left: int, *,
                       ask: bool = False) -> Message | None:
    """Why no part of the ship's action can be done ("A player can only use a ship action if
    they can complete at least one part of its action") with `gems_left` after paying for the
    ship, or None. An Expedition, Farm or Ice Collector always can; a value the catalogue lacks
    counts as affordable, or with `ask` is asked for (Missing)."""
    state, me = move.state, move.state["players"][player]
    kind, design = state["ships"][ship_id]["type"], state["ships"][ship_id]["design"]
    if kind == "dismantle" and not dismantle_candidates(state, player, ship_id):
        return message(N_("{player} has no unused ship of their own to dismantle"),
                       player=me["name"])
    if (kind == "transport" and gems_left < BUY_GEMS
            and sum(count(me, r) for r in RESOURCES) < 2):
        return message(N_("{player} can make no transaction: buying a resource costs {price} "
                          "GEMs ({left} left), a trade any 2 resources"),
                       player=me["name"], price=BUY_GEMS, left=gems_left)
    if kind == "diplomacy" and not any(
            me["diplomacy"][t] < TOP and _affordable(
                lambda t=t: lobbying_cost(move, me["diplomacy"][t] + 1), gems_left, ask)
            for t in TRACKS):
        return message(N_("{player} can advance on no Diplomacy track: each is at the top or "
                          "costs more than the {left} GEMs left"),
                       player=me["name"], left=gems_left)
    if kind == "construction" and not any(
            _buildable(move, player, design, n, ask)
            for n in [*state["display"], *me["private_sectors"]]):
        return message(N_("{player} can build no Sector: none their wings can take is within "
                          "their {metal} metal"), player=me["name"], metal=me["metal"])
    return None


def _affordable(price: Any, limit: int, ask: bool = False) -> bool:
    """Whether `price()` is at most `limit`; a value the catalogue lacks counts as affordable,
    or with `ask` is asked for (Missing)."""
    try:
        return price() <= limit
    except Missing:
        if ask:
            raise
        return True


def _buildable(move: Move, player: int, design: str, number: int, ask: bool = False) -> bool:
    """Whether the player's wings can take Sector `number` and they have its metal (a value the
    catalogue lacks counts as yes, or with `ask` is asked for)."""
    try:
        problem = wing_problem(move, player, move.catalogue.sectors[number].level,
                               sector_color(move, number))
        return problem is None and _affordable(
            lambda: sector_price(move, player, design, number),
            move.state["players"][player]["metal"], ask)
    except Missing:
        if ask:
            raise
        return True


def why_unusable(move: Move, player: int, ship_id: str, *, ask: bool = False) -> Message | None:
    """Why the player cannot use the ship now (used, Neutral Ship token out, cannot pay, no
    possible part of its action), or None. A value the catalogue lacks counts as affordable (the
    ship is offered, and its action asks for the value), or with `ask` is asked for (Missing):
    where a "no" would be claimed from it."""
    refusals = ship_refusals(move.state, player, ship_id)
    if refusals:
        return refusals[0]
    try:
        cost, fee = ship_price(move, player, ship_id)
    except Missing:
        if ask:
            raise
        cost = fee = 0
    why = message(N_("using {ship} with the owner's fee") if fee else N_("using {ship}"),
                  ship=ship_label(move.state, ship_id))
    return (ledger.shortfall(move.state, player, {"gems": cost + fee}, why)
            or no_possible_action(move, player, ship_id, move.state["players"][player]["gems"]
                                  - cost - fee, ask=ask))


# -- Construction -------------------------------------------------------------------------------


def construction(move: Move, player: int, ship_id: str, design: str, own: bool) -> dict:
    """Build a Sector from the display by paying its metal, by the wing rules."""
    number: Any = move.command.get("sector")  # the command's (a Sector's, or refused)
    me = move.state["players"][player]
    sector = move.catalogue.sectors.get(number)
    if sector is None:
        move.fail(_("which Sector is built? (on display: {display})").format(
            display=move.state["display"]))
    move.check(number in move.state["display"] or number in me["private_sectors"],
               message(N_("Sector {number} is not on display"), number=number))
    check_wing(move, player, sector.level, sector_color(move, number))
    price = sector_price(move, player, design, number)
    ledger.pay(move, player, {"metal": price}, message(N_("building Sector {number}"),
                                                       number=number))
    add_sector(move, player, number, message(N_("built for {price} metal"), price=price))
    built_abilities(move, player, number)
    return {"built_color": sector_color(move, number)}


def sector_cost(move: Move, number: int) -> int:
    """The metal printed on Sector `number`."""
    return move.value("sectors", number, "cost",
                      _("How much metal does Sector {number} cost?").format(number=number))


def sector_price(move: Move, player: int, design: str, number: int) -> int:
    """The metal paid for Sector `number` with a `design` Construction ship, after the ship's
    and the station's discounts."""
    cost = sector_cost(move, number)
    discount = ship_value(move, design, "metal_discount") + total(
        move, player, "build_discount", "construction", "metal")
    return max(0, cost - discount)


def built_abilities(move: Move, player: int, number: int) -> None:
    """"Some Level-3 Sectors have immediate bonus actions ... they must take the immediate bonus
    action right away, to the greatest extent possible.\""""
    for ability in move.catalogue.sectors[number].abilities:
        if ability.trigger == "built":
            abilities.apply_effect(move, player, str(number), ability, {})


# -- Terran Expedition --------------------------------------------------------------------------


def expedition(move: Move, player: int, ship_id: str, design: str, own: bool) -> dict:
    """Roll the duration, keep up to the capacity (with every station modifier)."""
    dice, keep, rerolls = expedition_dice(move, player, design, own)
    used = move.command.get("rerolls", 0)
    move.check(used <= rerolls, message(N_("{player} may reroll {rerolls} time(s), not {used}"),
                                        player=move.name(player), rerolls=rerolls, used=used))
    gains.expedition_result(move, player, move.command, dice=dice, keep=keep,
                            why=ship_label(move.state, ship_id),
                            when_gaining=abilities.after_gaining_resident)
    return {}


def expedition_dice(move: Move, player: int, design: str, own: bool) -> tuple[int, int, int]:
    """Dice rolled, dice kept and rerolls allowed, with every station modifier."""
    dice = ship_value(move, design, "duration")
    keep = ship_value(move, design, "capacity")
    for _source, ability in modifiers(move, player, "expedition_bonus", "expedition", own):
        dice += ability.params["extra_dice"]
        keep += ability.params["extra_capacity"]
    # B-4 and 315: "you may reroll any number of dice once ... If you have both, you can reroll
    # twice." The command's `rolled` is the final result; `rerolls` says how often they rerolled.
    rerolls = sum(a.params["times"] for _source, a in modifiers(
        move, player, "reroll", "expedition", own))
    return dice, keep, rerolls


# -- Transport ----------------------------------------------------------------------------------


def transport(move: Move, player: int, ship_id: str, design: str, own: bool) -> dict:
    """"make any number of transactions less than or equal to the number shown on that Transport
    ship. However, they must make at least one in order to use the ship at all.\""""
    gained = gains.transactions(move, player, move.command.get("transactions"),
                                limit=transaction_limit(move, player, design),
                                why=ship_label(move.state, ship_id),
                                when_gaining=abilities.after_gaining_resident)
    return {"aliens_gained": dict(gained)}


def transaction_limit(move: Move, player: int, design: str) -> int:
    """The transactions a `design` Transport ship allows the player (with the station's
    extra ones)."""
    return ship_value(move, design, "transactions") + total(
        move, player, "extra_transactions", "transport", "count")


# -- Diplomacy, Farm, Ice Collector ---------------------------------------------------------------


def diplomacy(move: Move, player: int, ship_id: str, design: str, own: bool) -> dict:
    """Advance on one track (Level-3 ships: up to two different tracks), paying the lobbying."""
    tracks = move.command.get("tracks")
    most = ship_value(move, design, "tracks")
    if not isinstance(tracks, list) or not tracks:
        move.fail(_("give the Diplomacy track(s): \"tracks\": [up to {most} of {tracks}]").format(
            most=most, tracks=", ".join(TRACKS)))
    move.check(len(tracks) <= most, message(N_("{ship} advances on at most {most} track(s)"),
                                            ship=ship_label(move.state, ship_id), most=most))
    move.check(len(set(tracks)) == len(tracks),
               message(N_("a Level-3 Diplomacy ship advances on 2 different Diplomacy tracks")))
    for track in tracks:
        advance(move, player, track, pay=True, why=ship_label(move.state, ship_id))
    return {}


def farm(move: Move, player: int, ship_id: str, design: str, own: bool) -> dict:
    """"Farm ships provide 4 food or 5 food.\""""
    food = ship_value(move, design, "food")
    ledger.gain(move, player, {"food": food}, ship_label(move.state, ship_id))
    return {}


def ice_collector(move: Move, player: int, ship_id: str, design: str, own: bool) -> dict:
    """"Ice Collector ships provide 4 water or 5 water.\""""
    water = ship_value(move, design, "water")
    ledger.gain(move, player, {"water": water}, ship_label(move.state, ship_id))
    return {}


ACTIONS = {"dismantle": dismantle, "construction": construction, "expedition": expedition,
           "transport": transport, "diplomacy": diplomacy, "farm": farm,
           "ice_collector": ice_collector}
