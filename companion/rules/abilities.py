"""Hub and Sector abilities applied at their triggers (the structured effects of the catalogue).

Two rules of the rulebook shape this module: "Only ship actions trigger Sector bonuses marked with
a ship outline! Bonus actions do not." and "Bonus actions that a player receives from their Station
Sectors will not trigger Diplomacy bonuses." So a bonus action here never calls back into the
ship-action triggers, and never produces Diplomacy bonuses.

What a player decides about an ability comes with the command:
- `"use": [source, ...]` - the optional abilities the player takes ("you may ...");
- `"choices": {source: value}` - which option / resource / Alien colour / where (a list when the
  same ability fires several times in one move);
- `"bonus": {source: {...}}` - the details of a bonus action (transactions, dice, tracks, Sector).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules import commands, ledger
from companion.rules.catalogue import Ability
from companion.rules.effects import ALIEN_COLORS
from companion.rules.move import Move
from companion.rules.station import (
    active_abilities,
    count_species,
    place_resident,
    why_not_gained,
)

# -- reading modifiers --------------------------------------------------------------------------


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
    return sum(a.params[param] for _, a in modifiers(move, player, kind, ship))


def human_discount(move: Move, player: int) -> int:
    """Resources fewer to pay when gaining a Human (Sector 215, Hub A-10)."""
    return sum(a.params["resources"] for _, a in active_abilities(
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


def buy_resident(move: Move, player: int, species: str, cost: Mapping[str, int], *,
                 where: Any, source: str, why: str) -> bool:
    """Pay `cost` for a resident and place it. "Residents cannot be acquired if there are no
    available living quarters for them": refused before anything is paid when none is left in
    the supply or no quarter is free (an override pays and places what it can)."""
    obstacle = why_not_gained(move.state, player, species)
    move.check(obstacle is None, f"{why}: {obstacle}")
    price = human_price(move, player, cost) if species == "human" else cost
    ledger.pay(move, player, _cost(move, player, source, price), why)
    return place_resident(move, player, species, where, why=why)


# -- decisions that come with the command -------------------------------------------------------


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
        move.fail(f"{source}: {question}{listed} - give it in choices[{source!r}]")
    if options is not None and given not in options:
        move.fail(f"{source}: {given!r} is not one of {', '.join(map(str, options))}")
    return given


def bonus_detail(move: Move, source: str, what: str, shape: commands.Shape) -> Any:
    """The details of a bonus action of `source` (e.g. its transactions), of `shape`."""
    detail = (move.command.get("bonus") or {}).get(source)
    if detail is None:
        move.fail(f"{source}: give the {what} in bonus[{source!r}]")
    wrong = shape.problem(detail, f"bonus[\"{source}\"]")
    if wrong:
        move.fail(f"{source}: {wrong.path} {wrong.text}")
    return detail


# -- applying ----------------------------------------------------------------------------------


def run(move: Move, player: int, trigger: str, ship: str | None = None, *, own_ship: bool = True,
        context: Mapping[str, Any] | None = None, kinds: tuple[str, ...] | None = None) -> None:
    """Apply the player's active abilities for `trigger` (and ship type) in station order."""
    for source, ability in active_abilities(move.state, move.catalogue, player, trigger, ship):
        if kinds is not None and ability.kind not in kinds:
            continue
        if trigger == "ship_action" and not owner_matches(ability, own_ship):
            continue
        apply_effect(move, player, source, ability, context or {})


MODIFIER_KINDS = ("ship_cost_discount", "build_discount", "extra_transactions",
                  "expedition_bonus", "human_cost_discount", "reroll", "placement_rule",
                  "build_rule")


def apply_effect(move: Move, player: int, source: str, ability: Ability,
                 context: Mapping[str, Any]) -> None:
    """Carry out one triggered ability (modifiers are read by the actions, not run here)."""
    kind, params = ability.kind, ability.params
    if kind in MODIFIER_KINDS or ability.trigger in ("game_end", "turn_option"):
        return
    if params.get("optional") and not uses(move, source):
        return
    if "condition" in params:
        color = _condition_color(params["condition"], context)
        if color is None:
            return
        context = {**context, "condition_color": color}
    why = f"{_label(source)}: {ability.text}"
    if kind == "gain_residents":
        _gain_residents(move, player, source, params, context, why)
        return
    if "cost" in params:
        ledger.pay(move, player, _cost(move, player, source, params["cost"]), why)
    if kind == "gain":
        ledger.gain(move, player, params["amounts"], why)
    elif kind == "gain_one_of":
        options = [_one(option) for option in params["options"]]
        picked = choice(move, source, "which one?", options)
        ledger.gain(move, player, {picked: 1}, why)
    elif kind == "gain_any_resources":
        for _ in range(params["count"]):
            picked = choice(move, source, "which resource?", list(ledger.RESOURCES))
            ledger.gain(move, player, {picked: 1}, why)
    elif kind == "gain_per":
        amount = _count(move, player, params["count"]) // params.get("every", 1)
        times = max(0, amount + params.get("offset", 0))
        ledger.gain(move, player, {k: n * times for k, n in params["amounts"].items()}, why)
    elif kind == "transport_transaction":
        from companion.rules.actions import transactions

        detail = bonus_detail(move, source, "transport transaction(s)",
                              commands.TRANSACTIONS)
        transactions(move, player, detail, limit=params["count"], why=why)
    elif kind == "expedition_roll":
        from companion.rules.actions import expedition_result

        detail = bonus_detail(move, source, "dice rolled and kept", commands.DICE)
        expedition_result(move, player, detail, dice=params["dice"], keep=params["keep"],
                          why=why)
    elif kind == "diplomacy_action":
        from companion.rules.diplomacy import TOP, TRACKS, advance

        tracks = (bonus_detail(move, source, "track(s)", commands.TRACKS)
                  if params["tracks"] == "choose" else
                  [t for t in TRACKS if move.state["players"][player]["diplomacy"][t] < TOP])
        if params["tracks"] == "all" and len(tracks) < len(TRACKS):
            # 328, "to the greatest extent possible": a token at the top stays there.
            move.emit("note", f"{_label(source)}: {len(TRACKS) - len(tracks)} Diplomacy "
                      "token(s) already at the top space stay there")
        for track in tracks:
            advance(move, player, track, pay=params["lobbying"] == "pay", why=why)
    elif kind == "extra_turn":
        move.emit("extra_turn", f"{move.name(player)} will take an additional turn: {why}",
                  ["add", ["turn", "extra_turns"], 1])
    elif kind == "free_sector":
        from companion.rules.actions import take_free_sector

        take_free_sector(move, player, source, params["level"], why=why)
    elif kind in ("return_to_supply", "relocate_hub_resident"):
        from companion.rules.income import income_obligation

        income_obligation(move, player, source, ability)
    else:  # gain_human_then_income is a turn option of its own
        raise AssertionError(f"ability kind {kind} has no handler")


def _gain_residents(move: Move, player: int, source: str, params: Mapping[str, Any],
                    context: Mapping[str, Any], why: str) -> None:
    """Residents with a cost are bought (222, 307, 322: refused when they cannot be had); free
    ones (B-1, 311, ...) are gained "to the greatest extent possible" - the rest is skipped with
    a note ("If there are no brown Aliens left, do not gain any")."""
    species = _species(move, player, source, params["species"], context)
    if species is None:
        return
    for gained in range(params["count"]):
        if "cost" in params:
            buy_resident(move, player, species, params["cost"],
                         where=choice_of_place(move, source), source=source, why=why)
            continue
        obstacle = why_not_gained(move.state, player, species)
        if obstacle:
            move.emit("note", f"{_label(source)}: {obstacle}, so {params['count'] - gained} of "
                      f"{params['count']} not gained")
            return
        place_resident(move, player, species, choice_of_place(move, source), why=why)


def after_gaining_resident(move: Move, player: int, species: str) -> None:
    """"When gaining an Alien" / "When gaining a Human" abilities (106, 115, 126, 217)."""
    trigger = "gain_human" if species == "human" else "gain_alien"
    run(move, player, trigger)


def _condition_color(condition: Mapping[str, int], context: Mapping[str, Any]) -> str | None:
    """The Alien colour that meets 207's condition ("When using a Transport ship to gain at
    least 3 Aliens of a single color"), or None when it is not met."""
    least = condition["aliens_of_one_color_gained_at_least"]
    gained = context.get("aliens_gained") or {}
    return next((color for color, n in gained.items() if n >= least), None)


def _label(source: str) -> str:
    return f"Hub {source}" if "-" in source else f"Sector {source}"


def _one(option: Mapping[str, int]) -> str:
    (key,) = option
    return key


def _cost(move: Move, player: int, source: str, cost: Mapping[str, int]) -> dict[str, int]:
    """A cost with `any_resource` resolved by the player's choice of resources."""
    resolved = {k: n for k, n in cost.items() if k != "any_resource"}
    for _ in range(cost.get("any_resource", 0)):
        picked = choice(move, f"{source}:pay", "which resource to pay?", None)
        resolved[picked] = resolved.get(picked, 0) + 1
    return resolved


def _count(move: Move, player: int, what: str) -> int:
    me = move.state["players"][player]
    if what in ("teal", "pink", "brown", "gold", "human"):
        return count_species(move.state, player, what)
    if what == "diplomacy_level3_tokens":
        return sum(1 for level in me["diplomacy"].values() if level >= 3)
    counts = {"sectors": len(me["sectors"]), "metal": me["metal"],
              "level3_sectors": sum(1 for s in me["sectors"] if s["level"] == 3),
              "ships_left": sum(1 for s in move.state["ships"].values() if s["owner"] == player)}
    return counts[what]


def _species(move: Move, player: int, source: str, species: str,
             context: Mapping[str, Any]) -> str | None:
    if species == "any_alien":
        # Only colours that can be gained and placed: "to the greatest extent possible".
        possible = [c for c in ALIEN_COLORS if why_not_gained(move.state, player, c) is None]
        if not possible:
            move.emit("note", f"{_label(source)}: no Alien can be placed, none is gained")
            return None
        return choice(move, source, "which Alien colour?", possible)
    if species == "same_as_built_sector":
        return context.get("built_color")
    if species == "same_as_condition":
        return context.get("condition_color")
    return species


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
