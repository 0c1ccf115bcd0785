"""What may be done now, and what each choice needs: the table app's questions to the engine.

    options(state, catalogue)              # phase, turn, ships, Income, end_turn, choices, values
    options(state, catalogue, ship=ID)     # ... and what that ship's action needs

Every verdict comes from the engine's own checks, run on a throw-away move that is rolled back
(the state is left exactly as it was). A value the catalogue lacks is reported, never guessed:
the option says `"missing": [key]` and its number is null.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from companion.i18n import N_, _
from companion.rules import (
    abilities,
    actions,
    commands,
    diplomacy,
    gains,
    income,
    ledger,
    setup,
    turns,
)
from companion.rules.catalogue import Ability, Catalogue
from companion.rules.effects import KINDS
from companion.rules.game import HANDLERS
from companion.rules.ledger import shortfall
from companion.rules.message import Message, message, say
from companion.rules.move import Missing, Move, Refused
from companion.rules.option_types import (
    AbilityNeed,
    Asked,
    BonusOffer,
    BonusPick,
    ConstructionAction,
    DiceBonus,
    DiplomacyAction,
    DiscardShips,
    DismantleAction,
    DismantleTarget,
    DrawShips,
    EndNow,
    ExpeditionAction,
    FarmAction,
    HubPowerOption,
    HumanOffer,
    HumanThenIncomeOption,
    IceCollectorAction,
    IncomeOptions,
    MissingValue,
    PendingChoice,
    Pick,
    PicksBonus,
    PickShown,
    Place,
    Relocation,
    ResidentItem,
    ResidentOffer,
    SectorOffer,
    SetupStep,
    ShipAction,
    ShipEntry,
    ShipOptions,
    TableOptions,
    TrackOffer,
    TracksBonus,
    TransactionsBonus,
    TransactionsOffer,
    TransportAction,
)
from companion.rules.state import Player, State, active_player, hub_of, in_supply
from companion.rules.station import (
    active_abilities,
    places_for,
    remove_resident,
    sector_color,
    sector_layout,
    why_not_gained,
)
from companion.rules.words import (
    AEROBIC,
    ALIEN_COLORS,
    DIE_FACES,
    PLAYER_COLORS,
    RESOURCES,
    TRACKS,
    design_name,
)

T = TypeVar("T")


def _said(reason: Message | None) -> str | None:
    """An engine reason (a message) in words, in the language spoken now; None stays None."""
    return None if reason is None else say(reason)


def probe(state: State, catalogue: Catalogue, check: Callable[..., T], *args: Any,
          command: dict | None = None, **kwargs: Any) -> tuple[T | None, str | None, list[str]]:
    """Run engine code `check(move, *args, **kwargs)` on a throw-away move (for `command`) and
    undo all it did: (its result, the refusal, the catalogue keys missing)."""
    move = Move(state, catalogue, command or {})
    try:
        return check(move, *args, **kwargs), None, []
    except Refused as refused:
        return None, refused.reason, []
    except Missing as missing:
        return None, None, [missing.key]
    finally:
        move.rollback()


def options(state: State, catalogue: Catalogue, *, ship: str | None = None) -> TableOptions:
    """Everything the table may do now, as plain data (see docs/engine.md; its shape:
    option_types.TableOptions)."""
    phase = state["phase"]
    active = state["turn"]["active"]
    found: TableOptions = {
        "phase": phase,
        "turn": {"number": state["turn"]["number"], "acted": state["turn"]["acted"],
                 "extra_turns": state["turn"]["extra_turns"],
                 "player": None if active is None else _name(state, active)},
        "pending": pending_choices(state, catalogue),
        "end": end_state(state),
        "missing": missing_values(state, catalogue),
    }
    if phase in ("new", "setup"):
        found["setup"] = setup_step(state, catalogue)
    if phase == "play":
        player = active_player(state)
        found["ships"] = [ship_entry(state, catalogue, player, sid) for sid in state["ships"]]
        found["income"] = income_options(state, catalogue, player)
        found["human_then_income"] = human_then_income(state, catalogue, player)
        found["hub_powers"] = hub_powers(state, catalogue)
        __, reason, __ = probe(state, catalogue, turns.end_turn, command={"cmd": "end_turn"})
        found["end_turn"] = {"allowed": reason is None, "reason": reason}
        if ship is not None:
            found["ship"] = ship_options(state, catalogue, ship)
    return found


# -- the turn ------------------------------------------------------------------------------------


def ship_entry(state: State, catalogue: Catalogue, player: int, ship_id: str) -> ShipEntry:
    """One ship on the table: may the player use it now, at what cost and owner's fee."""
    ship = state["ships"][ship_id]
    price, __, missing = probe(state, catalogue, actions.ship_price, player, ship_id)
    __, turn_reason, __ = probe(state, catalogue, turns.require_main_action, player)
    unusable, __, __ = probe(state, catalogue, actions.why_unusable, player, ship_id)
    reason = turn_reason or _said(unusable)
    owner = ship["owner"]
    return {"ship": ship_id, "owner": None if owner is None else _name(state, owner),
            "design": ship["design"], "type": ship["type"], "usable": reason is None,
            "cost": price[0] if price else None, "fee": price[1] if price else None,
            "reason": reason, "missing": missing}


def income_options(state: State, catalogue: Catalogue, player: int) -> IncomeOptions:
    """Income: eligibility and its reason, what it pays line by line (`income.income_lines`),
    the income powers and the relocations on offer."""
    def eligible(move: Move) -> None:
        turns.require_main_action(move, player)
        income.check_eligible(move, player)

    __, reason, missing = probe(state, catalogue, eligible)
    lines, __, lines_missing = probe(state, catalogue, income.income_lines, player)
    powers = [ability_needs(state, player, source, a)
              for trigger in ("income", "income_end")
              for source, a in active_abilities(state, catalogue, player, trigger)]
    return {"allowed": reason is None, "reason": reason,
            "missing": sorted({*missing, *lines_missing}), "lines": lines or [],
            "powers": powers, "relocations": relocations(state, catalogue, player),
            "relocation_gems": income.RELOCATION_GEMS}


def relocations(state: State, catalogue: Catalogue, player: int) -> list[Relocation]:
    """Each resident of the player's station and where it could be moved to ("respect the
    General Placement Rules for Residents")."""
    found: list[Relocation] = []
    for where, slot, species in _residents(state["players"][player]):
        places, __, __ = probe(state, catalogue, _lift, player, where, slot, species)
        found.append({"from": where, "slot": slot, "species": species, "to": places or []})
    return found


def _lift(move: Move, player: int, where: Place, slot: int, species: str) -> list[Place]:
    """In a probe: where a resident could go once taken off its quarter."""
    remove_resident(move, player, where, slot, to="hand", why=message(N_("relocation")))
    return places_for(move.state, player, species)


def human_then_income(state: State, catalogue: Catalogue,
                      player: int) -> HumanThenIncomeOption | None:
    """Hub A-8's turn option, when the player's Hub has it: allowed, and why not."""
    hub = hub_of(state["players"][player])
    power = next((a for a in catalogue.hubs[hub].abilities
                  if a.kind == "gain_human_then_income"), None)
    if power is None:
        return None

    def gain(move: Move) -> None:
        turns.require_main_action(move, player)
        places = places_for(move.state, player, "human")
        gains.buy_resident(move, player, "human", power.params["cost"],
                           where=places[0] if places else None, source=hub,
                           why=message(N_("Hub {hub}"), hub=hub),
                           when_gaining=abilities.after_gaining_resident)

    __, reason, missing = probe(state, catalogue, gain)
    return {"source": hub, "text": power.text, "allowed": reason is None, "reason": reason,
            "missing": missing, "where": places_for(state, player, "human")}


def hub_powers(state: State, catalogue: Catalogue) -> list[HubPowerOption]:
    """Hub powers used outside the main action (`hub_power`), for every player."""
    found: list[HubPowerOption] = []
    for player, me in enumerate(state["players"]):
        hub = hub_of(me)
        for ability in catalogue.hubs[hub].abilities:
            if ability.trigger not in ("turn", "any_time"):
                continue
            need = ability_needs(state, player, hub, ability)
            command = {"cmd": "hub_power", "player": me["name"], "source": hub,
                       **fill([need])}
            __, reason, missing = probe(state, catalogue, abilities.hub_power, command=command)
            found.append({**need, "player": me["name"], "allowed": reason is None,
                          "reason": reason, "missing": missing})
    return found


def pending_choices(state: State, catalogue: Catalogue) -> list[PendingChoice]:
    """Diplomacy bonuses waiting for a player's choice, each option with what it gives."""
    found: list[PendingChoice] = []
    for entry in state["pending"]:
        picks: list[BonusPick] = []
        for levels in entry["options"]:
            gives, __, missing = probe(state, catalogue, _bonuses, entry["track"], levels)
            picks.append({"levels": levels, "gives": gives, "missing": missing})
        found.append({"kind": entry["kind"], "player": _name(state, entry["player"]),
                      "track": entry["track"], "options": picks})
    return found


def _bonuses(move: Move, track: str, levels: list[int]) -> list[dict[str, int]]:
    return [diplomacy.bonus_of_level(move, track, level) for level in levels]


def end_state(state: State) -> EndNow:
    """Who triggered the end, who still has a last turn, and whether the game is over."""
    end = state["end"]
    triggered = end["triggered_by"]
    return {"triggered_by": None if triggered is None else _name(state, triggered),
            "final_turns": [_name(state, p) for p in end["final_turns"]],
            "over": state["phase"] == "over"}


# -- a chosen ship --------------------------------------------------------------------------------


def ship_options(state: State, catalogue: Catalogue, ship_id: str) -> ShipOptions:
    """What the active player's use of `ship_id` needs: its action's choices, the abilities it
    fires and the Diplomacy bonuses it pays out."""
    player = active_player(state)
    entry = ship_entry(state, catalogue, player, ship_id)
    ship = state["ships"][ship_id]
    kind, design, own = ship["type"], ship["design"], ship["owner"] == player
    # the fee is known whenever the cost is (ship_price gives both)
    gems_left = None if entry["cost"] is None or entry["fee"] is None else (
        state["players"][player]["gems"] - entry["cost"] - entry["fee"])
    found: ShipOptions = {
        **entry, "gems_after_use": gems_left,
        "action": ACTION_OPTIONS[kind](state, catalogue, player, ship_id, design, own,
                                       gems_left),
        "abilities": [
            ability_needs(state, player, source, a)
            for source, a in active_abilities(state, catalogue, player, "ship_action", kind)
            if gains.owner_matches(a, own) and not KINDS[a.kind].modifier]}
    if kind in TRACKS:
        found["diplomacy_bonuses"] = [
            {"player": p["name"], "options": picks, "automatic": len(picks) == 1,
             "gives": [probe(state, catalogue, _bonuses, kind, levels)[0] for levels in picks]}
            for index, p in enumerate(state["players"])
            if (picks := diplomacy.options(diplomacy.allowed_levels(state, index, kind)))]
    return found


def _dismantle(state: State, catalogue: Catalogue, player: int, ship_id: str, design: str,
               own: bool, gems_left: int | None) -> DismantleAction:
    targets: list[DismantleTarget] = []
    for target in actions.dismantle_candidates(state, player, ship_id):
        metal, __, missing = probe(state, catalogue, actions.dismantle_metal, design,
                                  state["ships"][target]["design"])
        targets.append({"ship": target, "design": state["ships"][target]["design"],
                        "metal": metal, "missing": missing})
    return {"dismantle": targets}


def _construction(state: State, catalogue: Catalogue, player: int, ship_id: str, design: str,
                  own: bool, gems_left: int | None) -> ConstructionAction:
    me = state["players"][player]
    sectors: list[SectorOffer] = []
    for number in [*state["display"], *me["private_sectors"]]:
        info = catalogue.sectors[number]
        color, __, missing = probe(state, catalogue, sector_color, number)
        __, reason, __ = probe(state, catalogue, gains.check_wing, player, info.level, color)
        cost, __, cost_missing = probe(state, catalogue, actions.sector_cost, number)
        price, __, price_missing = probe(state, catalogue, actions.sector_price, player, design,
                                        number)
        if reason is None and price is not None:
            reason = _said(shortfall(state, player, {"metal": price},
                                     message(N_("building Sector {number}"), number=number)))
        sectors.append({"number": number, "level": info.level, "wing": color, "cost": cost,
                        "price": price, "allowed": reason is None, "reason": reason,
                        "missing": sorted({*missing, *cost_missing, *price_missing}),
                        "abilities": [ability_needs(state, player, str(number), a)
                                      for a in info.abilities if a.trigger == "built"]})
    return {"sectors": sectors}


def _expedition(state: State, catalogue: Catalogue, player: int, ship_id: str, design: str,
                own: bool, gems_left: int | None) -> ExpeditionAction:
    dice, __, missing = probe(state, catalogue, actions.expedition_dice, player, design, own)
    rolled, kept, rerolls = dice or (None, None, None)
    return {"dice": rolled, "keep": kept, "rerolls": rerolls, "faces": list(DIE_FACES),
            "missing": missing, "humans": _humans(state, catalogue, player)}


def _humans(state: State, catalogue: Catalogue, player: int) -> HumanOffer:
    """What a Human die kept offers: observe (1 point) or recruit (its price, where it goes)."""
    price, __, __ = probe(state, catalogue, gains.human_price, player, gains.HUMAN_COST)
    return {"observe": {"points": 1}, "recruit": price,
            "recruit_reason": _said(why_not_gained(state, player, "human")),
            "where": places_for(state, player, "human")}


def _transport(state: State, catalogue: Catalogue, player: int, ship_id: str, design: str,
               own: bool, gems_left: int | None) -> TransportAction:
    limit, __, missing = probe(state, catalogue, actions.transaction_limit, player, design)
    return {"transactions": limit, "missing": missing,
            **_transactions(state, catalogue, player, _paid(player, ship_id, gems_left))}


def _transactions(state: State, catalogue: Catalogue, player: int,
                  first: Callable[[Move], Any]) -> TransactionsOffer:
    """The transactions on offer (Aliens by colour, gold, trades, buying), each with the
    engine's verdict once `first` is done (the ship's use paid, or income taken)."""
    def one(item: dict) -> str | None:
        """The engine's verdict on a single transaction."""
        __, reason, __ = probe(state, catalogue, _after, first,
                             gains.transactions, player, [item], limit=1,
                             why=message(N_("a preview")),
                             when_gaining=abilities.after_gaining_resident)
        return reason

    def resident(item: ResidentItem, species: str, cost: dict[str, int]) -> ResidentOffer:
        places = places_for(state, player, species)
        reason = one({**item, "where": places[0] if places else None})
        return {**item, "cost": cost, "in_supply": in_supply(state, species), "where": places,
                "allowed": reason is None, "reason": reason}

    pairs = [[a, b] for i, a in enumerate(RESOURCES) for b in RESOURCES[i:]]
    buy = one({"type": "buy", "gain": RESOURCES[0]})
    return {"aliens": [resident({"type": "alien", "color": color}, color, gains.ALIEN_COST)
                       for color in AEROBIC],
            "gold": resident({"type": "gold"}, "gold", gains.GOLD_COST),
            "trade": {"pay": [pair for pair in pairs
                              if one({"type": "trade", "pay": pair, "gain": pair[0]}) is None],
                      "gain": list(RESOURCES)},
            "buy": {"gems": gains.BUY_GEMS, "gain": list(RESOURCES),
                    "allowed": buy is None, "reason": buy}}


def _after(move: Move, first: Callable[[Move], Any], then: Callable[..., Any], *args: Any,
           **kwargs: Any) -> Any:
    """In a probe: `first(move)`, then `then(move, *args, **kwargs)`."""
    first(move)
    return then(move, *args, **kwargs)


def _paid(player: int, ship_id: str, gems_left: int | None) -> Callable[[Move], None]:
    """Paying the GEMs the ship's use takes (cost and owner's fee), before its action."""
    def pay(move: Move) -> None:
        if gems_left is not None:
            gems = move.state["players"][player]["gems"] - gems_left
            words = actions.ship_label(move.state, ship_id)
            ledger.pay(move, player, {"gems": gems}, message(N_("using {ship}"), ship=words))
    return pay


def _diplomacy(state: State, catalogue: Catalogue, player: int, ship_id: str, design: str,
               own: bool, gems_left: int | None) -> DiplomacyAction:
    most, __, missing = probe(state, catalogue, actions.ship_value, design, "tracks")
    return {"tracks_at_most": most, "missing": missing,
            "tracks": _tracks(state, catalogue, player, _paid(player, ship_id, gems_left),
                              pay=True)}


def _tracks(state: State, catalogue: Catalogue, player: int, first: Callable[[Move], Any], *,
            pay: bool) -> list[TrackOffer]:
    """Each Diplomacy track: its level, the lobbying cost (0 when free), the engine's verdict."""
    tracks: list[TrackOffer] = []
    for track in TRACKS:
        level = state["players"][player]["diplomacy"][track]
        cost: int | None = None
        cost_missing: list[str] = []
        if level < diplomacy.TOP:
            cost, __, cost_missing = probe(state, catalogue, diplomacy.lobbying_cost,
                                          level + 1) if pay else (0, None, [])
        __, reason, __ = probe(state, catalogue, _after, first, diplomacy.advance, player, track,
                             pay=pay, why=message(N_("a preview")))
        tracks.append({"track": track, "level": level, "cost": cost,
                       "allowed": reason is None, "reason": reason,
                       "missing": cost_missing})
    return tracks


def _farm(state: State, catalogue: Catalogue, player: int, ship_id: str, design: str,
          own: bool, gems_left: int | None) -> FarmAction:
    amount, __, missing = probe(state, catalogue, actions.ship_value, design, "food")
    return {"food": amount, "missing": missing}


def _ice_collector(state: State, catalogue: Catalogue, player: int, ship_id: str, design: str,
                   own: bool, gems_left: int | None) -> IceCollectorAction:
    amount, __, missing = probe(state, catalogue, actions.ship_value, design, "water")
    return {"water": amount, "missing": missing}


# What a ship's action needs, by its type: (state, catalogue, player, ship_id, design, own ship,
# GEMs left after using it) -> the action's choices.
ActionOptions = Callable[[State, Catalogue, int, str, str, bool, int | None], ShipAction]
ACTION_OPTIONS: dict[str, ActionOptions] = {
    "dismantle": _dismantle, "construction": _construction, "expedition": _expedition,
    "transport": _transport, "diplomacy": _diplomacy, "farm": _farm,
    "ice_collector": _ice_collector}


# -- abilities ---------------------------------------------------------------------------------


def ability_needs(state: State, player: int, source: str, ability: Ability) -> AbilityNeed:
    """An ability that fires now, with its rule text and what the command must say about it:
    `use` (optional), `choice` (options, `times` when asked more than once), `where` (the free
    quarters by species gained), `pay` (resources for an "any resource" cost) and `bonus` (the
    details of a bonus action)."""
    params = ability.params
    need: AbilityNeed = {"source": source, "text": ability.text, "trigger": ability.trigger,
                         "kind": ability.kind, "optional": bool(params.get("optional"))}
    if ability.kind == "gain_one_of":
        need["choice"] = [next(iter(option)) for option in params["options"]]
    elif ability.kind == "gain_any_resources":
        need["choice"], need["times"] = list(RESOURCES), params["count"]
    elif ability.kind == "gain_residents" and params["species"] == "any_alien":
        need["choice"] = [c for c in ALIEN_COLORS if why_not_gained(state, player, c) is None]
    if ability.kind == "gain_residents":
        species = need.get("choice") or [params["species"]]
        need["where"] = {s: places_for(state, player, s) for s in species
                         if s in state["supply"]}
    if (params.get("cost") or {}).get("any_resource"):
        need["pay"] = list(RESOURCES)
    detail = BONUS_DETAILS.get(ability.kind)
    if detail is not None and detail.asked(params):
        need["bonus"] = detail.name
    return need


def bonus_offer(state: State, catalogue: Catalogue, source: str, kind: str,
                command: Mapping[str, Any] | None = None) -> BonusOffer | None:
    """What the active player's bonus action (`source`'s ability of `kind`, see BONUS_DETAILS)
    offers, with the engine's verdicts; None when the engine will not ask for it (A-11 after
    five incomes, 326 with nothing to take). Transactions and dice are offered like a Transport's
    and an Expedition's; tracks with their lobbying cost (0: free); the free Sector, a Hub
    resident's move and what A-12 returns as `choices`, each a `detail` for the command.

    With `command` (the ship's use or the income as answered so far, this bonus action's details
    left out) the offer is judged where the engine asks for it: the command is run on a
    throw-away move up to that bonus action (`gains.BonusAsked`), and the offer is built from
    the position there - Sector 321 built before its dice, the Transport's transactions made
    before 306's track, the income paid before B-5's transaction. Without a command, or when the
    command stops before (an earlier answer or a catalogue value missing, a refusal), it is
    judged on the position now (an income's bonus once the income is paid); a value the
    catalogue lacks that the engine needs before it gets there is `asks`: {"key", "question"}
    (give it in the command's `catalogue` and ask again)."""
    player = active_player(state)
    info = catalogue.hubs[source] if "-" in source else catalogue.sectors[int(source)]
    ability = next(a for a in info.abilities if a.kind == kind)
    asks = None
    if command is not None:
        reached, offer, asks = _at_bonus(state, catalogue, command, source, lambda: _offer(
            state, catalogue, player, source, ability, _now))
        if reached != "stopped":
            return offer
    __, asked, missing = probe(state, catalogue, abilities.apply_effect, player, source,
                              ability, {}, command={"use": [source]})
    if asked is None and not missing:
        return None
    # An income's bonus comes once the income is paid: its GEMs can buy.
    first = ((lambda move: income.base_income(move, player))
             if ability.trigger.startswith("income") else _now)
    found = _offer(state, catalogue, player, source, ability, first)
    if asks:
        found["asks"] = asks
    return found


def _now(move: Move) -> None:
    """Nothing comes before: the bonus action is judged on the position as it is."""


def _at_bonus(state: State, catalogue: Catalogue, command: Mapping[str, Any], source: str,
              build: Callable[[], BonusOffer]) -> tuple[str, BonusOffer | None, Asked | None]:
    """Run `command` (with `source` taken) on a throw-away move: ("asked", `build()` run on
    the position where the engine asks for `source`'s details, None), ("not asked", None, None)
    when the command goes through without them, ("stopped", None, None) when it is refused
    before, or ("stopped", None, {"key", "question"}) when a value the catalogue lacks is
    needed before."""
    used = sorted({*(command.get("use") or []), source})
    bonus = {k: v for k, v in (command.get("bonus") or {}).items() if k != source}
    command = {**command, "use": used, "bonus": bonus}
    if commands.problem(command) or command.get("cmd") not in HANDLERS:
        return "stopped", None, None
    move = Move(state, catalogue, copy.deepcopy(command))
    try:
        move.learn()
        HANDLERS[command["cmd"]](move)
    except gains.BonusAsked as asked:
        if asked.source != source:
            return "stopped", None, None
        return "asked", build(), None  # the move's events are still applied: the position there
    except Missing as missing:
        return "stopped", None, {"key": missing.key, "question": missing.question}
    except Refused:
        return "stopped", None, None
    finally:
        move.rollback()
    return "not asked", None, None


def _offer(state: State, catalogue: Catalogue, player: int, source: str, ability: Ability,
           first: Callable[[Move], Any]) -> BonusOffer:
    """The bonus action's offer on `state` once `first` is done, each choice with the engine's
    verdict (the effect itself: its cost and use are the command's, already done): built by its
    kind's `BonusDetail`."""
    return BONUS_DETAILS[ability.kind].offer(
        BonusAt(state, catalogue, player, source, ability, first))


@dataclass(frozen=True)
class BonusAt:
    """Where a bonus action is offered: the position, the player, the ability (`source`'s), and
    what comes before it (`first`: the ship's use paid, the income taken, or nothing)."""

    state: State
    catalogue: Catalogue
    player: int
    source: str
    ability: Ability
    first: Callable[[Move], Any]

    @property
    def params(self) -> Mapping[str, Any]:
        return self.ability.params

    def verdict(self, detail: Any) -> str | None:
        """The engine's verdict on the bonus action with `detail` (None: it goes through)."""
        __, reason, __ = probe(self.state, self.catalogue, _after, self.first, _effect,
                               self.player, self.source, self.ability,
                               command={"use": [self.source], "bonus": {self.source: detail}})
        return reason

    def picks(self, found: Sequence[PickShown]) -> PicksBonus:
        """One of `found` to pick (each with its `detail`), each with the engine's verdict."""
        choices: list[Pick] = []
        for choice in found:
            reason = self.verdict(choice["detail"])
            choices.append({**choice, "allowed": reason is None, "reason": reason})
        return {"choices": choices}


def _transactions_offer(at: BonusAt) -> TransactionsBonus:
    """Transactions, offered like a Transport's (206, 218, 301, A-3, B-5)."""
    return {"transactions": at.params["count"],
            **_transactions(at.state, at.catalogue, at.player, at.first)}


def _dice_offer(at: BonusAt) -> DiceBonus:
    """Dice, offered like an Expedition's (225, 321, A-3)."""
    return {"dice": at.params["dice"], "keep": at.params["keep"], "rerolls": 0,
            "faces": list(DIE_FACES), "humans": _humans(at.state, at.catalogue, at.player)}


def _tracks_offer(at: BonusAt) -> TracksBonus:
    """A track, with its lobbying cost (0: free) (117, 306, A-7)."""
    return {"tracks_at_most": 1, "tracks": _tracks(at.state, at.catalogue, at.player, at.first,
                                                   pay=at.params["lobbying"] == "pay")}


def _sector_offer(at: BonusAt) -> PicksBonus:
    """326's free Sector: the display's of its level."""
    return at.picks([{"detail": n, "wing": probe(at.state, at.catalogue, sector_color, n)[0]}
                     for n in at.state["display"]
                     if at.catalogue.sectors[n].level == at.params["level"]])


def _resident_offer(at: BonusAt) -> PicksBonus:
    """A-11's Hub resident moving out: to a Sector, or back to the supply."""
    me = at.state["players"][at.player]
    return at.picks([{"detail": {"slot": slot, "to": to}, "species": species}
                     for slot, species in enumerate(me["hub_slots"]) if species is not None
                     for to in [*(p for p in places_for(at.state, at.player, species)
                                  if p != "hub"), None]])


def _returned_offer(at: BonusAt) -> PicksBonus:
    """A-12's return to the supply: a resident, a Sector with its residents, or nothing."""
    me = at.state["players"][at.player]
    found: list[PickShown] = [
        {"detail": {"resident": {"from": where, "slot": slot}}, "species": species}
        for where, slot, species in _residents(me)]
    found += [{"detail": {"sector": s["number"]}, "residents": list(s["residents"])}
              for s in me["sectors"]]
    found.append({"detail": {"none": True}, "points": -at.params["penalty_points"]})
    return at.picks(found)


def _always(params: Mapping[str, Any]) -> bool:
    return True


def _tracks_chosen(params: Mapping[str, Any]) -> bool:
    """A track is chosen, unless the ability advances on every track (328)."""
    return params.get("tracks") != "all"


@dataclass(frozen=True)
class BonusDetail:
    """A kind of bonus-action detail: `name`, what the command carries in "bonus" (the ability
    need's `bonus`; the table app enters it on the entry registered under that name,
    `ui.play.flows.parts.ENTRIES`), `offer`, what the engine offers for it (`bonus_offer`), and
    `asked`, whether an ability with these params asks for it at all."""

    name: str
    offer: Callable[[BonusAt], BonusOffer]
    asked: Callable[[Mapping[str, Any]], bool] = _always


# The bonus actions by ability kind (effects.KINDS; abilities.EFFECTS carries each out): what
# its command carries in "bonus" and what the engine offers for it. One entry per kind.
BONUS_DETAILS: dict[str, BonusDetail] = {
    "transport_transaction": BonusDetail("transactions", _transactions_offer),
    "expedition_roll": BonusDetail("dice", _dice_offer),
    "diplomacy_action": BonusDetail("tracks", _tracks_offer, _tracks_chosen),
    "free_sector": BonusDetail("sector", _sector_offer),
    "relocate_hub_resident": BonusDetail("resident", _resident_offer),
    "return_to_supply": BonusDetail("returned", _returned_offer),
}


def _effect(move: Move, player: int, source: str, ability: Ability) -> None:
    """In a probe: the bonus action's effect alone."""
    abilities.EFFECTS[ability.kind](move, player, source, ability.params, {},
                                    abilities.effect_why(source, ability))


def _residents(me: Player) -> list[tuple[Place, int, str]]:
    """Every resident of a station: (where, slot, species), the Sectors' then the Hub's."""
    found = [(s["number"], slot, r) for s in me["sectors"] for slot, r in enumerate(s["residents"])]
    return found + [("hub", slot, r) for slot, r in enumerate(me["hub_slots"]) if r is not None]


def fill(needs: Sequence[AbilityNeed]) -> dict[str, Any]:
    """The command fields (`use`, `choices`, `where`) that take each ability's first options,
    for a preview or a test; abilities that need a `bonus` are left to the player."""
    fields: dict[str, Any] = {"use": [], "choices": {}, "where": {}}
    for need in needs:
        source = need["source"]
        if need["optional"]:
            fields["use"].append(source)
        if need.get("choice"):
            first = need["choice"][0]
            fields["choices"][source] = [first] * need["times"] if "times" in need else first
        if need.get("pay"):
            fields["choices"][f"{source}:pay"] = need["pay"][0]
        species = need["choice"][0] if need.get("choice") else next(iter(need.get("where", {})),
                                                                     None)
        places = None if species is None else need.get("where", {}).get(species)
        if places:
            fields["where"][source] = places[0]
    return {key: value for key, value in fields.items() if value}


# -- setup ---------------------------------------------------------------------------------------


def setup_step(state: State, catalogue: Catalogue) -> SetupStep:
    """The setup command expected next and what it needs."""
    table = catalogue.setup
    if state["phase"] == "new":
        return {"command": "new_game", "players": [2, 3, 4], "colors": list(PLAYER_COLORS),
                "aliens_drawn": {n: table["aliens_drawn"].value(f"players_{n}")
                                 for n in (2, 3, 4)}}
    step, names = state["setup"]["step"], [p["name"] for p in state["players"]]
    if step == "display":
        per_stack = setup.lay_out(catalogue, len(names), state["options"]["friendly"])["per_stack"]
        endings = table["sector_display"].value("first_game_number_endings")
        return {"command": "sector_display", "per_stack": per_stack,
                "stacks": sorted({s.stack for s in catalogue.sectors.values()}),
                "number_endings": endings if state["options"]["first_game"] else None}
    if step == "sets":
        return {"command": "first_game_sets", "players": names, "sets": [1, 2, 3, 4]}
    if step == "hubs":
        hubs = [h for h in catalogue.hubs
                if state["options"]["advanced"] or h.startswith("B-")]
        return {"command": "deal_hubs", "players": names, "per_player": 2, "hubs": hubs}
    if step == "reveal":
        level = state["setup"]["draft_level"]
        count = table["ships_revealed_per_draft"].value(f"players_{len(names)}")
        return {"command": "reveal_ships", "level": level, "count": count,
                "designs": _designs(catalogue, level)}
    if step == "draft":
        order = state["setup"]["draft_order"]
        return {"command": "draft_ship", "player": names[order[0]],
                "order": [names[p] for p in order], "offered": state["setup"]["revealed"]}
    if step == "choose_hub":
        player = state["setup"]["hub_order"][0]
        return {"command": "choose_hub", "player": names[player],
                "hubs": state["players"][player]["hub_options"]}
    player = state["setup"]["bonus_order"][0]
    hub = hub_of(state["players"][player])
    info = catalogue.hubs[hub]
    plan, __, missing = probe(state, catalogue, setup.hub_value, hub, "starting_diplomacy")
    return {"command": "starting_bonus", "player": names[player], "hub": hub,
            "diplomacy_choice": (plan or {}).get("choice", 0) if plan is not None else None,
            "missing": missing,
            "free_sectors": info.value("setup_free_sectors", []),
            "private_sectors": info.value("setup_private_sectors", 0),
            "ship_changes": [_ship_change(state, catalogue, player, change)
                             for change in info.value("setup_ship_changes", [])
                             if setup.ship_change_applies(state, hub, change)]}


def _ship_change(state: State, catalogue: Catalogue, player: int,
                 change: Mapping[str, Any]) -> DrawShips | DiscardShips:
    """A Hub's setup ship change (the catalogue's record) with its `choices`: the designs to
    keep from, or the player's ships to discard."""
    if change["op"] == "discard":
        return {"op": "discard", "level": change["level"], "ship": change["ship"],
                "count": change["count"],
                "choices": setup.discard_choices(state, player, change)}
    return {"op": "draw", "level": change["level"], "draw": change["draw"],
            "keep": change["keep"], "choices": _designs(catalogue, change["level"])}


def _designs(catalogue: Catalogue, level: int) -> list[str]:
    """The ship designs of a Level's deck (drawn for the draft or a Hub's bonus)."""
    return [d for d, s in catalogue.ships.items()
            if s.group == "deck_design" and s.level in (level, None)]


# -- values the catalogue lacks -----------------------------------------------------------------


class _Asking(Move):
    """A throw-away move that notes each value the catalogue lacks (with the engine's
    question) and goes on with None."""

    def __init__(self, state: State, catalogue: Catalogue) -> None:
        super().__init__(state, catalogue, {})
        self.asked: dict[str, str] = {}

    def value(self, kind: str, record: str | int, field: str, question: str) -> Any:
        try:
            return super().value(kind, record, field, question)
        except Missing as missing:
            self.asked.setdefault(missing.key, missing.question)
            return None


def missing_values(state: State, catalogue: Catalogue) -> list[MissingValue]:
    """Every value the catalogue lacks that the components in play will need - the Sectors on
    display, the ships on the table or on offer, the Hubs, the Diplomacy board - as
    `{"key", "question", "component"}`, grouped by component, to ask once at setup."""
    if state["phase"] == "new":
        return []
    found: list[MissingValue] = []

    def ask(component: str, lookups: Callable[[Move], Any]) -> None:
        move = _Asking(state, catalogue)
        try:
            lookups(move)
        except Missing as missing:  # a lookup that asks without move.value (income icons)
            move.asked.setdefault(missing.key, missing.question)
        found.extend({"key": key, "question": question, "component": component}
                     for key, question in move.asked.items())

    for player in state["players"]:
        for hub in [player["hub"]] if player["hub"] else player["hub_options"]:
            ask(_("Hub {hub}").format(hub=hub),
                partial(_hub_values, hub=hub, ready=player["ready"]))
    for number in [*state["display"], *(n for p in state["players"]
                                        for n in p["private_sectors"])]:
        ask(_("Sector {number}").format(number=number), partial(_sector_values, number=number))
    designs = {s["design"]: s["owner"] is None for s in state["ships"].values()}
    designs.update(dict.fromkeys(state["setup"].get("revealed", []), False))
    for design, neutral in designs.items():
        fields = [f for f in actions.SHIP_VALUES if f in catalogue.ships[design].fields
                  and not (neutral and f == "fee")]
        ask(_("ship {ship}").format(ship=design_name(design)),
            partial(_ship_values, design=design, fields=fields))
    ask(_("Diplomacy board"), _board_values)
    seen: set[str] = set()
    unique = []
    for item in found:
        if item["key"] not in seen:
            seen.add(item["key"])
            unique.append(item)
    return unique


def _hub_values(move: Move, hub: str, ready: bool) -> None:
    """The Hub values still to come: its starting bonus (until taken) and its income."""
    if not ready:
        for field in setup.HUB_QUESTIONS:
            if field.startswith("starting_"):
                setup.hub_value(move, hub, field)
    if not setup.hub_value(move, hub, "income_gems_per_ship"):
        setup.hub_value(move, hub, "income_fixed_gems")
    if move.catalogue.hubs[hub].living_quarters:
        setup.hub_value(move, hub, "quarter_income")


def _sector_values(move: Move, number: int) -> None:
    """A Sector's cost and layout."""
    actions.sector_cost(move, number)
    sector_layout(move, number)


def _ship_values(move: Move, design: str, fields: list[str]) -> None:
    """The numbers printed on a ship card (`fields` of actions.SHIP_VALUES)."""
    for field in fields:
        actions.ship_value(move, design, field)


def _board_values(move: Move) -> None:
    """The Diplomacy board's lobbying costs and single-level bonuses."""
    for level in range(1, diplomacy.TOP + 1):
        diplomacy.lobbying_cost(move, level)
    for track in TRACKS:
        for level in diplomacy.SINGLE_LEVELS:
            diplomacy.bonus_of_level(move, track, level)


def _name(state: State, player: int) -> str:
    return state["players"][player]["name"]
