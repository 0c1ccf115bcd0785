"""The structured-effect vocabulary of Hub and Sector abilities, and its validation.

An ability is one entry of a catalogue record's `abilities` list:

    {"trigger": "ship_action", "ship": "dismantle", "kind": "gain", "amounts": {"metal": 3},
     "text": "When using a Dismantle ship, gain 3 metal.", "quarter": null}

`trigger` says when it applies, `kind` what it does, the remaining keys are its parameters, `text`
is the rulebook sentence it encodes (verbatim) and `quarter` (Sectors only) links it to the living
quarter (0-based) whose resident activates it. The vocabulary is closed: `validate_ability` reports
every key, value or combination outside it. docs/catalogue.md explains each term with examples.

Pure data and functions: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules.words import COUNTERS, SECTOR_COLORS, SHIP_TYPES, SPECIES

# --- the words ---------------------------------------------------------------------------------

TRIGGERS: dict[str, str] = {
    "income": "during the owner's Income action (step 2, with the income)",
    "income_end": "after the owner's Income action is complete",
    "game_end": "at final scoring",
    "built": "once, immediately when this Level-3 Sector is built (needs no resident)",
    "ship_action": "when the owner uses a ship of type `ship` (own, another player's or neutral; "
    "`owner` narrows it); bonus actions never trigger it",
    "gain_human": "whenever the owner gains a Human, by any means",
    "gain_alien": "whenever the owner gains an Alien, by any means",
    "turn": "once on each of the owner's turns, before or after the main action",
    "turn_option": "instead of a normal turn (an extra turn option)",
    "any_time": "at any time, as often as the limit allows",
    "continuous": "a standing change to a rule, in force while the ability is active",
}

SHIP_FILTERS = (*SHIP_TYPES, "any")
OWNERS = ("own", "other", "any")  # other = another player's ship or a neutral ship

# What an endgame ability may count (shared with final scoring; keep exactly these).
POINT_COUNTS = (*SPECIES, "level3_sectors", "sectors", "full_sectors", "ships_left", "metal")
# What an income-per-count ability may count: the above plus the owner's Diplomacy tokens on
# level 3 or higher (Sector 226).
GAIN_COUNTS = (*POINT_COUNTS, "diplomacy_level3_tokens")

# Keys of an amounts bundle ({"metal": 1, "food": 1}); `any_resource` is the owner's choice of
# food/water/metal, in any mix. Gains use GAIN_KEYS, costs COST_KEYS.
GAIN_KEYS = COUNTERS
COST_KEYS = (*COUNTERS, "any_resource")

# Species a gain_residents ability may name.
RESIDENT_CHOICES = (
    *SPECIES,
    "any_alien",  # the owner picks any of the four Alien colours, gold included
    "same_as_built_sector",  # an Alien of the colour of the Sector just built
    "same_as_condition",  # an Alien of the colour the `condition` was met with
)

# Conditions (`condition` param, a one-key object).
CONDITIONS = {
    "aliens_of_one_color_gained_at_least": "this action gained at least N Aliens of one colour",
}

RETURNABLE = ("alien", "human", "sector")


# --- parameter types ---------------------------------------------------------------------------

Check = Callable[[Any], str | None]  # a problem description, or None when fine


def whole(minimum: int = 0, maximum: int | None = None) -> Check:
    """A whole number in [minimum, maximum] (booleans are not numbers here)."""
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"expected a whole number, got {value!r}"
        if value < minimum or (maximum is not None and value > maximum):
            top = f" to {maximum}" if maximum is not None else " or more"
            return f"expected a whole number {minimum}{top}, got {value!r}"
        return None

    return check


def _integer(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"expected a whole number, got {value!r}"
    return None


def boolean(value: Any) -> str | None:
    """true or false."""
    return None if isinstance(value, bool) else f"expected true or false, got {value!r}"


def one_of(*choices: Any) -> Check:
    """One of `choices`."""
    def check(value: Any) -> str | None:
        if value not in choices:
            return f"expected one of {', '.join(map(str, choices))}; got {value!r}"
        return None

    return check


def _bundle(keys: tuple[str, ...]) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, Mapping) or not value:
            return f"expected a non-empty object of amounts ({', '.join(keys)}), got {value!r}"
        for key, amount in value.items():
            if key not in keys:
                return f"unknown amount {key!r} (expected {', '.join(keys)})"
            problem = whole(1)(amount)
            if problem:
                return f"amount {key!r}: {problem}"
        return None

    return check


gain_bundle = _bundle(GAIN_KEYS)
cost_bundle = _bundle(COST_KEYS)


def list_of(item: Check, *, minimum: int = 0, length: int | None = None) -> Check:
    """A check for a list of at least `minimum` (or exactly `length`) items passing `item`."""
    def check(value: Any) -> str | None:
        if not isinstance(value, list) or len(value) < minimum:
            at_least = f" of at least {minimum}" if minimum else ""
            return f"expected a list{at_least}, got {value!r}"
        if length is not None and len(value) != length:
            return f"expected a list of {length}, got {len(value)} item(s)"
        for i, element in enumerate(value):
            problem = item(element)
            if problem:
                return f"item {i}: {problem}"
        return None

    return check


_bundle_list = list_of(gain_bundle, minimum=2)  # alternative amounts to choose from


def _table(value: Any) -> str | None:
    if not isinstance(value, Mapping) or not value:
        return f"expected an object mapping counts to points, got {value!r}"
    for key, points in value.items():
        if not (isinstance(key, str) and key.isdigit()):
            return f"table key {key!r}: expected a count written as a string, e.g. \"0\""
        problem = _integer(points)
        if problem:
            return f"table entry {key!r}: {problem}"
    return None


def _condition(value: Any) -> str | None:
    if not isinstance(value, Mapping) or len(value) != 1:
        return f"expected an object with one condition, got {value!r}"
    (name, amount), = value.items()
    if name not in CONDITIONS:
        return f"unknown condition {name!r} (expected {', '.join(CONDITIONS)})"
    return whole(1)(amount)


def _limit(value: Any) -> str | None:
    return None if value is None else whole(1)(value)


def _returnable(value: Any) -> str | None:
    if not isinstance(value, list) or not value or any(v not in RETURNABLE for v in value):
        return f"expected a list drawn from {', '.join(RETURNABLE)}, got {value!r}"
    return None


def _true(value: Any) -> str | None:
    return None if value is True else f"expected true, got {value!r}"


# --- the kinds ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class EffectKind:
    """One kind of effect: its parameters ({name: (check, required)}), what it does (for docs
    and error messages), the triggers it may have (None: any but game_end and continuous), the
    ship type a ship_action ability of it needs, and whether it is a modifier (read by an
    action, never run at a trigger). `abilities.EFFECTS` carries out the kinds that are run."""

    params: Mapping[str, tuple[Check, bool]]
    description: str
    triggers: tuple[str, ...] | None = None
    ship: str | None = None
    modifier: bool = False


KINDS: dict[str, EffectKind] = {
    # gains
    "gain": EffectKind({"amounts": (gain_bundle, True)},
                       "gain the `amounts` (gems, points, food, water, metal)"),
    "gain_one_of": EffectKind({"options": (_bundle_list, True)},
                              "gain exactly one of the `options` (each an amounts object)"),
    "gain_any_resources": EffectKind({"count": (whole(1), True)},
                                     "gain `count` resources of the owner's choice, any mix"),
    "gain_per": EffectKind({"count": (one_of(*GAIN_COUNTS), True), "every": (whole(1), False),
                            "amounts": (gain_bundle, True), "offset": (_integer, False)},
                           "gain `amounts` x max(0, count // every + offset)"),
    "gain_residents": EffectKind({"species": (one_of(*RESIDENT_CHOICES), True),
                                  "count": (whole(1), True), "cost": (cost_bundle, False)},
                                 "gain `count` residents of `species`, free or each for its "
                                 "`cost` (supply and quarters permitting)"),
    # changes to an action
    "ship_cost_discount": EffectKind({"gems": (whole(1), True), "minimum": (whole(0), True)},
                                     "pay `gems` fewer for the ship's cost (not the owner's "
                                     "fee), to at least `minimum`",
                                     ("ship_action",), modifier=True),
    "build_discount": EffectKind({"metal": (whole(1), True)},
                                 "the Sector being built costs `metal` less",
                                 ("ship_action",), "construction", modifier=True),
    "human_cost_discount": EffectKind({"resources": (whole(1), True)},
                                      "gaining a Human costs `resources` fewer resources (not "
                                      "GEMs)", ("gain_human",), modifier=True),
    "extra_transactions": EffectKind({"count": (whole(1), True)},
                                     "the Transport ship allows `count` more transactions",
                                     ("ship_action",), "transport", modifier=True),
    "expedition_bonus": EffectKind({"extra_dice": (whole(0), True),
                                    "extra_capacity": (whole(0), True)},
                                   "roll `extra_dice` more dice and keep `extra_capacity` more",
                                   ("ship_action",), "expedition", modifier=True),
    "reroll": EffectKind({"times": (whole(1), True)},
                         "after rolling, reroll any number of dice `times` times",
                         ("ship_action",), "expedition", modifier=True),
    # bonus actions (never ship actions: they trigger no Sector, Hub or Diplomacy bonuses)
    "transport_transaction": EffectKind({"count": (whole(1), True)},
                                        "perform `count` transport transactions (a bonus "
                                        "action)"),
    "expedition_roll": EffectKind({"dice": (whole(1), True), "keep": (whole(1), True)},
                                  "roll `dice` Expedition dice and keep `keep` (a bonus action)"),
    "diplomacy_action": EffectKind({"tracks": (one_of("choose", "all"), True),
                                    "spaces": (whole(1), True),
                                    "lobbying": (one_of("pay", "free"), True)},
                                   "advance `spaces` on one chosen track or on all tracks, "
                                   "paying the lobbying cost or free"),
    "extra_turn": EffectKind({}, "take an additional turn before the next player"),
    "free_sector": EffectKind({"level": (whole(1), True),
                               "color": (one_of("any", *SECTOR_COLORS), True)},
                              "take a free Sector of `level` (`color` any the station can take)",
                              ("built",)),
    "gain_human_then_income": EffectKind({}, "pay the `cost`, gain and place a Human, then take "
                                         "income", ("turn_option",)),
    # income obligations
    "return_to_supply": EffectKind({"choices": (_returnable, True), "count": (whole(1), True),
                                    "penalty_points": (whole(1), True)},
                                   "return `count` of `choices` to the supply, or lose "
                                   "`penalty_points`", ("income_end",)),
    "relocate_hub_resident": EffectKind({"times": (whole(1), True)},
                                        "the first `times` Income actions: move a Hub resident "
                                        "to a legal Sector for free (return it if there is none)",
                                        ("income_end",)),
    # standing rule changes
    "placement_rule": EffectKind({"sector_color": (one_of(*SECTOR_COLORS), True),
                                  "allows": (one_of("any_alien"), True)},
                                 "Sectors of `sector_color` may hold Aliens of any colour",
                                 ("continuous",), modifier=True),
    "build_rule": EffectKind({"any_order": (_true, True)},
                             "Sectors may be built in any order (wings still single-coloured)",
                             ("continuous",), modifier=True),
    # final scoring
    "points_per": EffectKind({"count": (one_of(*POINT_COUNTS), True),
                              "points": (whole(1), True), "every": (whole(1), False)},
                             "score `points` x (count // every)", ("game_end",)),
    "points_table": EffectKind({"count": (one_of("ships_left"), True),
                                "table": (_table, True)},
                               "score table[str(count)] points (0 when absent)", ("game_end",)),
}

# Parameters any kind may carry.
COMMON_PARAMS: dict[str, Check] = {
    "optional": boolean,  # "you may ..." (default false: mandatory)
    "limit_per_action": _limit,  # how often per triggering action/turn; null or absent: no limit
    "cost": cost_bundle,  # paid to use it (a kind with a `cost` of its own: the price of each)
    "condition": _condition,  # a condition the triggering action must meet
}

RESERVED = ("trigger", "kind", "text", "quarter")
TRIGGER_PARAMS = ("ship", "owner")


def validate_ability(entry: Any, *, sector: bool = False) -> list[str]:
    """The problems of one ability entry (a JSON object or an `Ability`); empty when it is fine.

    With `sector=True` the entry must carry a `quarter` key (null, or a provenance object);
    otherwise (Hubs) it must not.
    """
    if hasattr(entry, "trigger") and hasattr(entry, "params"):
        entry = {"trigger": entry.trigger, "kind": entry.kind, "text": entry.text,
                 **dict(entry.params)}
        sector = False  # an Ability's quarter is already a checked Field
    if not isinstance(entry, Mapping):
        return [f"expected an object, got {entry!r}"]
    problems: list[str] = []
    trigger: Any = entry.get("trigger")  # checked next: one of TRIGGERS and KINDS
    kind: Any = entry.get("kind")
    if trigger not in TRIGGERS:
        problems.append(f"trigger: expected one of {', '.join(TRIGGERS)}; got {trigger!r}")
    if kind not in KINDS:
        problems.append(f"kind: expected one of {', '.join(KINDS)}; got {kind!r}")
    text = entry.get("text")
    if not isinstance(text, str) or not text.strip():
        problems.append("text: expected the rulebook sentence(s), got " + repr(text))
    if sector and "quarter" not in entry:
        problems.append("quarter: missing (null when unknown)")
    if not sector and "quarter" in entry:
        problems.append("quarter: only Sector abilities link to a living quarter")
    if problems:
        return problems

    # trigger parameters
    ship = entry.get("ship")
    if trigger == "ship_action":
        if ship not in SHIP_FILTERS:
            problems.append(f"ship: expected one of {', '.join(SHIP_FILTERS)}; got {ship!r}")
        owner = entry.get("owner", "any")
        if owner not in OWNERS:
            problems.append(f"owner: expected one of {', '.join(OWNERS)}; got {owner!r}")
    else:
        problems += [f"{p}: only for trigger ship_action" for p in TRIGGER_PARAMS if p in entry]

    # kind parameters
    spec = KINDS[kind].params
    for name, (check, required) in spec.items():
        if name not in entry:
            if required:
                problems.append(f"{name}: missing (kind {kind} needs it)")
            continue
        problem = check(entry[name])
        if problem:
            problems.append(f"{name}: {problem}")
    for name, check in COMMON_PARAMS.items():
        if name in entry and name not in spec:
            problem = check(entry[name])
            if problem:
                problems.append(f"{name}: {problem}")
    allowed = set(spec) | set(COMMON_PARAMS) | set(RESERVED) | set(TRIGGER_PARAMS)
    problems += [f"{name}: not a parameter of kind {kind}" for name in entry
                 if name not in allowed]

    # combinations
    triggers = KINDS[kind].triggers
    if triggers is not None and trigger not in triggers:
        problems.append(f"kind {kind} needs trigger {' or '.join(triggers)}, not {trigger}")
    if triggers is None and trigger in ("game_end", "continuous"):
        problems.append(f"trigger {trigger} cannot have kind {kind}")
    needed = KINDS[kind].ship
    if needed and trigger == "ship_action" and ship != needed:
        problems.append(f"kind {kind} needs ship {needed}, not {ship!r}")
    species = entry.get("species")
    if kind == "gain_residents" and species == "same_as_condition" and "condition" not in entry:
        problems.append("species same_as_condition needs a condition")
    if (kind == "gain_residents" and species == "same_as_built_sector"
            and not (trigger == "ship_action" and ship == "construction")):
        problems.append("species same_as_built_sector needs trigger ship_action, ship construction")
    if trigger in ("game_end", "continuous", "built") and entry.get("optional"):
        problems.append(f"trigger {trigger} cannot be optional")
    return problems


def ability_params(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of an ability entry: everything but trigger, kind, text and quarter."""
    return {k: v for k, v in entry.items() if k not in RESERVED}
