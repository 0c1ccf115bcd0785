"""Gaining by a ship action or a bonus action alike: residents bought, transactions, Expedition
dice kept, a free Sector, and the station's modifiers these read.

The ship actions (`actions`) and the abilities' bonus actions (`abilities`) both build on this
module; it knows neither. A resident taken from the supply fires the owner's "when gaining"
abilities, which belong to the abilities layer: whoever gains one passes them in as
`when_gaining` (`abilities.after_gaining_resident`), run right after each placement.

What a player decides comes with the command:
- `"use": [source, ...]` - the optional abilities the player takes ("you may ...");
- `"choices": {source: value}` - which option / resource / Alien colour / where (a list when the
  same ability fires several times in one move);
- `"bonus": {source: {...}}` - the details of a bonus action (transactions, dice, tracks, Sector).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from companion.i18n import N_, _
from companion.rules import commands, ledger
from companion.rules.catalogue import Ability
from companion.rules.message import Message, message
from companion.rules.move import Move, Refused
from companion.rules.state import Event, hub_of
from companion.rules.station import (
    active_abilities,
    add_sector,
    place_resident,
    sector_color,
    why_not_gained,
)
from companion.rules.words import (
    DIE_FACES,
    RESOURCES,
    SECTOR_COLORS,
    color_message,
    resource_message,
)

HUMAN_COST = {"metal": 1, "food": 1, "water": 1}
ALIEN_COST = {"food": 1, "water": 1}
GOLD_COST = {"food": 1, "water": 1, "metal": 1}
BUY_GEMS = 3

WhenGaining = Callable[[Move, int, str], None]  # (move, player, species) after a placement

# -- reading modifiers -------------------------------------------------------------------------


def owner_matches(ability: Ability, own_ship: bool) -> bool:
    """An ability's `owner` filter: own ship, another player's or neutral ("other"), or any."""
    owner = ability.params.get("owner", "any")
    return owner == "any" or (owner == "own") == own_ship


def modifiers(move: Move, player: int, kind: str, ship: str, own_ship: bool = True
              ) -> list[tuple[str, Ability]]:
    """The player's active abilities of `kind` that change a `ship` action."""
    return [
        (source, a) for source, a in active_abilities(move.state, move.catalogue, player,
                                                      "ship_action", ship)
        if a.kind == kind and owner_matches(a, own_ship)
    ]


def total(move: Move, player: int, kind: str, ship: str, param: str) -> int:
    """Sum of `param` over the player's active modifiers of `kind` for a `ship` action."""
    return sum(a.params[param] for _source, a in modifiers(move, player, kind, ship))


def human_discount(move: Move, player: int) -> int:
    """Resources fewer to pay when gaining a Human (Sector 215, Hub A-10)."""
    return sum(a.params["resources"] for _source, a in active_abilities(
        move.state, move.catalogue, player, "gain_human") if a.kind == "human_cost_discount")


def human_price(move: Move, player: int, cost: Mapping[str, int]) -> dict[str, int]:
    """215: "pay 1 fewer resource (if there is a resource cost—GEMs are not a resource) ... This
    does apply when gaining a Human using Sector 307"; A-10 the same: every way with a cost.
    `human_cost_skip` says which resource is saved first (default metal, water, food)."""
    price = dict(cost)
    fewer = human_discount(move, player)
    for resource in ("any_resource", *(move.command.get("human_cost_skip") or []),
                     "metal", "water", "food"):
        while fewer and price.get(resource):
            price[resource] -= 1
            fewer -= 1
    return price


# -- decisions that come with the command ------------------------------------------------------


def uses(move: Move, source: str) -> bool:
    """Whether the command takes the optional ability of `source`."""
    return source in (move.command.get("use") or [])


def choice(move: Move, source: str, question: str, options: list[Any] | None = None) -> Any:
    """The player's choice for `source`: a single option is taken without asking."""
    if options is not None and len(options) == 1:
        return options[0]
    given = (move.command.get("choices") or {}).get(source)
    if isinstance(given, list):  # the same ability fires several times: one entry each
        index = move.cursors.get(source, 0)
        move.cursors[source] = index + 1
        given = given[index] if index < len(given) else None
    if given is None:
        listed = f" ({', '.join(map(str, options))})" if options else ""
        move.fail(_("{source}: {question}{listed} - give it in choices[{key}]").format(
            source=source, question=question, listed=listed, key=repr(source)))
    if options is not None and given not in options:
        move.fail(_("{source}: {given} is not one of {options}").format(
            source=source, given=repr(given), options=", ".join(map(str, options))))
    return given


class BonusAsked(Refused):
    """A bonus action whose details the command does not give: the command is refused, saying
    what to give. It is raised where the bonus action fires, mid-move, so whoever runs the
    command can see the position at that moment before the move is rolled back
    (`options.bonus_offer` offers the bonus action from there)."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(reason)
        self.source = source


def bonus_detail(move: Move, source: str, what: str, shape: commands.Shape) -> Any:
    """The details of a bonus action of `source` (e.g. its transactions), of `shape`; without
    them the command is refused (BonusAsked)."""
    detail = (move.command.get("bonus") or {}).get(source)
    if detail is None:
        raise BonusAsked(source, _("{source}: give the {what} in bonus[{key}]").format(
            source=source, what=what, key=repr(source)))
    wrong = shape.problem(detail, f"bonus[\"{source}\"]")
    if wrong:
        move.fail(f"{source}: {wrong.path} {wrong.text}")
    return detail


def choice_of_place(move: Move, key: str) -> Any:
    """Where a resident gained by `key` (an ability's source, or "human") goes, when the
    command says (`"where": {key: place or [places]}`); None lets the only free place be taken."""
    given = (move.command.get("where") or {}).get(key)
    if isinstance(given, list):
        cursor = f"where:{key}"
        index = move.cursors.get(cursor, 0)
        move.cursors[cursor] = index + 1
        return given[index] if index < len(given) else None
    return given


def resolve_cost(move: Move, source: str, cost: Mapping[str, int]) -> dict[str, int]:
    """A cost with `any_resource` resolved by the player's choice of resources."""
    resolved = {k: n for k, n in cost.items() if k != "any_resource"}
    for _time in range(cost.get("any_resource", 0)):
        picked = choice(move, f"{source}:pay", _("which resource to pay?"), None)
        resolved[picked] = resolved.get(picked, 0) + 1
    return resolved


# -- residents ---------------------------------------------------------------------------------


def gain_resident(move: Move, player: int, species: str, where: Any, *, why: Message,
                  when_gaining: WhenGaining) -> bool:
    """Place a resident from the supply (`station.place_resident`), then the owner's "when
    gaining" abilities; False when none was placed."""
    placed = place_resident(move, player, species, where, why=why)
    if placed:
        when_gaining(move, player, species)
    return placed


def buy_resident(move: Move, player: int, species: str, cost: Mapping[str, int], *,
                 where: Any, source: str, why: Message, when_gaining: WhenGaining) -> bool:
    """Pay `cost` for a resident and place it. "Residents cannot be acquired if there are no
    available living quarters for them": refused before anything is paid when none is left in
    the supply or no quarter is free (an override pays and places what it can)."""
    obstacle = why_not_gained(move.state, player, species)
    if obstacle is not None:
        move.check(False, message(N_("{why}: {obstacle}"), why=why, obstacle=obstacle))
    price = human_price(move, player, cost) if species == "human" else cost
    ledger.pay(move, player, resolve_cost(move, source, price), why)
    return gain_resident(move, player, species, where, why=why, when_gaining=when_gaining)


# -- Sectors -----------------------------------------------------------------------------------


def check_wing(move: Move, player: int, level: int, color: str) -> None:
    """Refuse a Sector the player's wings cannot take (`wing_problem`)."""
    problem = wing_problem(move, player, level, color)
    if problem is not None:
        move.check(False, problem)


def wing_problem(move: Move, player: int, level: int, color: str) -> Message | None:
    """"Each wing can have only one Sector of each level"; "A wing must have a Level-1 Sector
    before it can have a Level-2 Sector" - except with Hub A-9 ("any order"). None when fine."""
    built = {(s["level"], s["color"]) for s in move.state["players"][player]["sectors"]}
    if (level, color) in built:
        return message(N_("{player}'s {color} wing already has a Level-{level} Sector"),
                       player=move.name(player), color=color_message(color), level=level)
    any_order = any(a.kind == "build_rule" for a in move.catalogue.hubs[
        hub_of(move.state["players"][player])].abilities)
    if level > 1 and not any_order and (level - 1, color) not in built:
        return message(N_("the {color} wing needs its Level-{below} Sector before a "
                          "Level-{level} one: \"each wing must be built from smallest to "
                          "largest\""),
                       color=color_message(color), below=level - 1, level=level)
    return None


def take_free_sector(move: Move, player: int, source: str, level: int, *,
                     why: Message) -> None:
    """Sector 326: "immediately gain a free Level-1 Sector of any color. If the station already
    has one of each color, ignore this immediate effect." "to the greatest extent possible": with
    no Level-1 Sector of a missing colour on display, none is taken (noted)."""
    have = {s["color"] for s in move.state["players"][player]["sectors"] if s["level"] == level}
    if len(have) == 3:
        return
    offered = [n for n in move.state["display"] if move.catalogue.sectors[n].level == level
               and sector_color(move, n) not in have]
    if not offered:
        move.emit(Event.NOTE, message(N_("Sector {source}: no Level-{level} Sector of a colour "
                                         "{player}'s station lacks is on display, so none is "
                                         "taken"),
                                      source=source, level=level, player=move.name(player)))
        return
    number = bonus_detail(move, source, _("free Sector's number"), commands.SECTOR)
    sector = move.catalogue.sectors.get(number)
    not_level = message(N_("{source}: the free Sector must be Level-{level}"), source=source,
                        level=level)
    if sector is None:  # no Sector by that number: no override builds it
        move.fail(not_level)
    move.check(sector.level == level, not_level)
    move.check(number in move.state["display"],
               message(N_("Sector {number} is not on display"), number=number))
    check_wing(move, player, sector.level, sector_color(move, number))
    add_sector(move, player, number, why)


# -- Expedition dice and transactions ----------------------------------------------------------


def expedition_result(move: Move, player: int, detail: Mapping[str, Any], *, dice: int,
                      keep: int, why: Message, when_gaining: WhenGaining) -> None:
    """Collect the kept dice: {"rolled": [faces], "keep": [faces], "humans": ["observe" |
    "recruit", ...]}. Each kept die takes 1 capacity, Humans included."""
    rolled, kept = detail.get("rolled"), detail.get("keep")
    if not isinstance(rolled, list) or not isinstance(kept, list):
        move.fail(_("give the dice: \"rolled\": [{dice} faces], \"keep\": [up to {keep}]").format(
            dice=dice, keep=keep))
    bad = [f for f in rolled + kept if f not in DIE_FACES]
    if bad:
        move.fail(_("a die shows food, water, metal or human, not {face}").format(
            face=repr(bad[0])))
    move.check(len(rolled) == dice, message(N_("roll {dice} dice, not {rolled}"),
                                            dice=dice, rolled=len(rolled)))
    move.check(not Counter(kept) - Counter(rolled),
               message(N_("kept dice {kept} were not all rolled"), kept=str(kept)))
    move.check(0 < len(kept) <= keep, message(N_("keep 1 to {keep} dice (the capacity), not "
                                                 "{kept}"), keep=keep, kept=len(kept)))
    resources = Counter(f for f in kept if f != "human")
    ledger.gain(move, player, dict(resources), why)
    humans = kept.count("human")
    plans = detail.get("humans") or []
    # "For each die depicting a Human selected, there are two options": one choice per Human
    # die kept, and none for a Human die not kept.
    move.check(len(plans) == humans,
               message(N_("{humans} Human dice kept, so {humans} choice(s) of \"observe\" (1 "
                          "point) or \"recruit\" (pay 1 metal, 1 food, 1 water), not {plans}: "
                          "\"humans\": [{humans} choice(s)]"), humans=humans, plans=len(plans)))
    for plan in plans:
        if plan == "observe":
            ledger.gain(move, player, {"points": 1}, message(N_("observing humanity")))
        elif plan == "recruit":
            buy_resident(move, player, "human", HUMAN_COST,
                         where=choice_of_place(move, "human"), source="human",
                         why=message(N_("a Human ally")), when_gaining=when_gaining)
        else:
            move.fail(_("{plan}: a Human is observed or recruited").format(plan=repr(plan)))


def transactions(move: Move, player: int, items: Any, *, limit: int, why: Message,
                 when_gaining: WhenGaining) -> Counter:
    """Carry out transactions A-D in order; returns the Aliens gained by colour."""
    if not isinstance(items, list):
        move.fail(_("give the transactions: [{\"type\": \"alien\", \"color\": \"pink\"}, "
                    "{\"type\": \"gold\"}, {\"type\": \"trade\", \"pay\": [r, r], \"gain\": r}, "
                    "{\"type\": \"buy\", \"gain\": r}]"))
    move.check(0 < len(items) <= limit, message(N_("make 1 to {limit} transactions, not "
                                                   "{count}"), limit=limit, count=len(items)))
    gained: Counter = Counter()
    for item in items:
        kind = item.get("type") if isinstance(item, Mapping) else None
        if kind == "alien":
            color = item.get("color")
            if color not in SECTOR_COLORS:
                move.fail(_("an aerobic Alien is teal, pink or brown"))
            if buy_resident(move, player, color, ALIEN_COST, where=item.get("where"),
                            source="alien",
                            why=message(N_("a {color} Alien"), color=color_message(color)),
                            when_gaining=when_gaining):
                gained[color] += 1
        elif kind == "gold":
            if buy_resident(move, player, "gold", GOLD_COST, where=item.get("where"),
                            source="gold", why=message(N_("a gold Alien")),
                            when_gaining=when_gaining):
                gained["gold"] += 1
        elif kind == "trade":
            paid, got = item.get("pay"), item.get("gain")
            if (not isinstance(paid, list) or len(paid) != 2
                    or any(r not in RESOURCES for r in [*paid, got])):
                move.fail(_("a trade pays any 2 resources for any 1: {\"pay\": [r, r], "
                            "\"gain\": r}"))
            ledger.pay(move, player, dict(Counter(paid)), message(N_("a trade")))
            ledger.gain(move, player, {got: 1}, message(N_("a trade")))
        elif kind == "buy":
            got = item.get("gain")
            if got not in RESOURCES:
                move.fail(_("buy one resource: {\"type\": \"buy\", \"gain\": "
                            "food|water|metal}"))
            ledger.pay(move, player, {"gems": BUY_GEMS},
                       message(N_("buying 1 {resource}"), resource=resource_message(got)))
            ledger.gain(move, player, {got: 1}, message(N_("bought")))
        else:
            move.fail(_("unknown transaction {item} (alien, gold, trade, buy)").format(
                item=repr(item)))
    return gained
