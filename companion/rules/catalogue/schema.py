"""The catalogue's schema: the fields each record has and the type of each, checked on the
shipped data (each field `null`, `{"value", "source": "rulebook", "quote"}` or `{"value",
"source": "inferred", "reason"}`) and on user values (plain values, as in an overlay).

Plain data in: the files are read outside the rules (companion/catalogue_files.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from companion.rules import effects
from companion.rules.catalogue.model import (
    KINDS,
    UNKNOWN,
    CatalogueError,
    Entry,
    Field,
    Overlay,
    Shipped,
    ability_index,
)
from companion.rules.effects import Check, boolean, list_of, one_of
from companion.rules.words import (
    ALIEN_COLORS,
    RESOURCES,
    SECTOR_COLORS,
    SHIP_TYPES,
    SPECIES,
)
from companion.rules.words import TRACKS as DIPLOMACY_TRACKS

ALL_SHIP_TYPES = (*SHIP_TYPES, "farm", "ice_collector")


# --- field types -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Whole:
    """The check of a whole number in [minimum, maximum] (effects.whole, its words), which also
    says its range: a refused value's CatalogueError carries it (`number`)."""

    minimum: int = 0
    maximum: int | None = None

    def __call__(self, value: Any) -> str | None:
        return effects.whole(self.minimum, self.maximum)(value)


def whole(minimum: int = 0, maximum: int | None = None) -> Whole:
    """A whole number in [minimum, maximum] (booleans are not numbers here)."""
    return Whole(minimum, maximum)


def _object(spec: Mapping[str, Check], *, optional: tuple[str, ...] = ()) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, Mapping):
            return f"expected an object with {', '.join(spec)}, got {value!r}"
        for key in value:
            if key not in spec:
                return f"unexpected key {key!r} (expected {', '.join(spec)})"
        for key, sub in spec.items():
            if key not in value:
                if key in optional:
                    continue
                return f"missing key {key!r}"
            problem = sub(value[key])
            if problem:
                return f"{key}: {problem}"
        return None

    return check


def _counts(keys: tuple[str, ...], *, minimum: int = 1) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, Mapping):
            return f"expected an object of counts ({', '.join(keys)}), got {value!r}"
        for key, amount in value.items():
            if key not in keys:
                return f"unknown key {key!r} (expected {', '.join(keys)})"
            problem = whole(minimum)(amount)
            if problem:
                return f"{key}: {problem}"
        return None

    return check


def _either(*checks: Check) -> Check:
    def check(value: Any) -> str | None:
        problems = [c(value) for c in checks]
        return None if None in problems else " / ".join(p for p in problems if p)

    return check


_species = one_of(*SPECIES)
_ship_type = one_of(*ALL_SHIP_TYPES)
_ship_op = _either(
    _object({"op": one_of("draw"), "level": whole(1, 3), "draw": whole(1), "keep": whole(0)}),
    _object({"op": one_of("discard"), "level": whole(1, 3),
             "ship": one_of(*ALL_SHIP_TYPES, "any"), "count": whole(1)}),
)
_bundle0 = _counts(("gems", "points", *RESOURCES))
_diplomacy_bonus = _either(
    effects.gain_bundle,
    _object({"choose_different": whole(1), "from_levels": list_of(whole(0, 5))}),
)

HUB_FIELDS: dict[str, Check] = {
    "game": one_of("basic", "advanced"),
    "theme": one_of(*SHIP_TYPES),
    "income_gems_per_ship": whole(0),
    "income_fixed_gems": whole(0),
    "starting_gems": whole(0),
    "starting_food": whole(0),
    "starting_water": whole(0),
    "starting_metal": whole(0),
    "starting_diplomacy": _object({"fixed": _counts(DIPLOMACY_TRACKS), "choice": whole(0)}),
    "setup_free_sectors": list_of(
        _object({"level": whole(1, 3), "color": one_of(*SECTOR_COLORS)})),
    "setup_private_sectors": whole(0),
    "setup_ship_changes": list_of(_ship_op),
    "setup_residents": _counts(SPECIES),
    "living_quarters": list_of(list_of(_species, minimum=1)),
    "quarter_income": list_of(_bundle0),
}

SECTOR_FIELDS: dict[str, Check] = {
    "level": whole(1, 3),
    "color": one_of(*SECTOR_COLORS),
    "cost": whole(0),
    "quarters": whole(1),
    "income_icons": list_of(_object(
        {"resource": one_of("gems", *RESOURCES), "amount": whole(1),
         "quarter": _either(whole(0), one_of(None))})),
    "income_icons_complete": boolean,
    "first_game": boolean,
}
QUARTER_LINK: Check = whole(0)

_SHIP_COMMON: dict[str, Check] = {
    "type": _ship_type, "level": whole(1, 3), "cost": whole(0), "fee": whole(0),
    "metal_value": whole(0), "count": whole(0),
}
SHIP_TYPE_FIELDS: dict[str, dict[str, Check]] = {
    "dismantle": {"extra_metal": whole(0)},
    "construction": {"metal_discount": whole(0)},
    "expedition": {"duration": whole(1), "capacity": whole(1)},
    "transport": {"transactions": whole(1)},
    "diplomacy": {"tracks": whole(1, 4)},
    "farm": {"food": whole(1)},
    "ice_collector": {"water": whole(1)},
}
SHIP_GROUPS = ("level1", "deck_design", "neutral", "deck")
DECK_FIELDS: dict[str, Check] = {"level": whole(1, 3), "size": whole(0)}

_players: dict[str, Check] = {f"players_{n}": whole(0) for n in (2, 3, 4)}
_order = list_of(one_of("turn_order", "reverse_turn_order"), length=2)
_ship_list = list_of(_ship_type)
SETUP_FIELDS: dict[str, dict[str, Check]] = {
    "humans_on_terra": _players,
    "aliens_drawn": _players,
    "ships_revealed_per_draft": _players,
    "turn_order_gems": {f"player_{n}": whole(0) for n in (1, 2, 3, 4)},
    "components": {
        "aliens_per_color": whole(0), "alien_colors": list_of(one_of(*ALIEN_COLORS)),
        "humans": whole(0), "expedition_dice": whole(0), "level1_ships": whole(0),
        "level2_ships": whole(0), "level3_ships": whole(0), "sectors_per_level": whole(0),
        "basic_hubs": whole(0), "advanced_hubs": whole(0), "neutral_ships": whole(0),
    },
    "sector_display": {
        "stacks": whole(1), "sectors_per_stack": whole(1), "per_player_per_stack": whole(1),
        "friendly_variant_extra": whole(0),
        "first_game_number_endings": list_of(whole(0, 9)),
    },
    "fleet": {"level1_ships": whole(0), "ships_at_start": whole(0)},
    "draft": {
        "hubs_dealt": whole(1), "hubs_kept": whole(1), "basic_game_hubs": list_of(
            one_of(*(f"B-{i}" for i in range(1, 13)))),
        "ships_per_level": whole(1), "level3_order": _order, "level2_order": _order,
    },
    **{f"first_game_set_{n}": {"hub": one_of(*(f"B-{i}" for i in range(1, 13))),
                               "level3_ships": _ship_list, "level2_ships": _ship_list}
       for n in (1, 2, 3, 4)},
    "first_game_b2": {"level2_ships_instead": _ship_list},
    "end_conditions": {"points": whole(1), "sectors": whole(1),
                       "aliens_in_supply_at_most": whole(0)},
    "final_scoring": {
        "level1_sector_points": whole(0), "level2_sector_points": whole(0),
        "level3_sector_points": whole(0), "resident_points": whole(0),
        "plurality_first": whole(0), "plurality_second": whole(0),
        "gems_per_point": whole(1), "resources_per_point": whole(1),
    },
}
DIE_FIELDS: dict[str, dict[str, Check]] = {
    "expedition_die": {
        "faces": list_of(one_of(*RESOURCES, "human"), length=6), "dice": whole(1),
    },
}
_DIPLOMACY_LEVELS: dict[str, dict[str, Check]] = {
    f"level-{n}": {
        **{f"bonus_{t}": _diplomacy_bonus for t in DIPLOMACY_TRACKS},
        **({"lobbying_cost": whole(0)} if n else {}),
    }
    for n in range(6)
}
DIPLOMACY_FIELDS: dict[str, dict[str, Check]] = {
    "board": {"tracks": list_of(one_of(*DIPLOMACY_TRACKS)), "top_level": whole(1)},
    **_DIPLOMACY_LEVELS,
}


def _schema(kind: str, record_id: str, raw: Mapping[str, Any]) -> dict[str, Check] | None:
    """The fields a record must have (None: the record id is not part of the catalogue)."""
    if kind == "hubs":
        return HUB_FIELDS
    if kind == "sectors":
        return SECTOR_FIELDS
    if kind == "ships":
        group = raw.get("group")
        if group == "deck":
            return DECK_FIELDS
        type_field = (raw.get("fields") or {}).get("type")
        ship_type: Any = type_field.get("value") if isinstance(type_field, Mapping) else None
        extra = SHIP_TYPE_FIELDS.get(ship_type, {})
        common = dict(_SHIP_COMMON)
        if group == "neutral":  # neutral ships have no level printed for us and are never
            del common["level"], common["metal_value"]  # dismantled (only one's own fleet is)
        return {**common, **extra}
    table = {"diplomacy": DIPLOMACY_FIELDS, "setup": SETUP_FIELDS, "die": DIE_FIELDS}[kind]
    return table.get(record_id)


# --- shipped data ------------------------------------------------------------------------

def _parse_field(show: str, rid: str, name: str, raw: Any, check: Check,
                 *, allow_none: bool = False) -> Field:
    where = f"{show}: record {rid}: field '{name}'"
    if raw is None:
        return UNKNOWN
    if not isinstance(raw, Mapping):
        raise CatalogueError(f"{where}: expected null or an object with value and source, "
                             f"got {raw!r}")
    source: Any = raw.get("source")  # checked: rulebook or inferred
    note_key = {"rulebook": "quote", "inferred": "reason"}.get(source)
    if note_key is None:
        raise CatalogueError(f"{where}: source must be rulebook or inferred, got {source!r}")
    expected = {"value", "source", note_key}
    if set(raw) != expected:
        raise CatalogueError(f"{where}: expected exactly the keys {sorted(expected)}, "
                             f"got {sorted(raw)}")
    note = raw[note_key]
    if not isinstance(note, str) or not note.strip():
        raise CatalogueError(f"{where}: '{note_key}' must be a non-empty text")
    value = raw["value"]
    if value is None:
        if not allow_none:
            raise CatalogueError(f"{where}: a known value cannot be null (write null for the "
                                 "whole field when it is unknown)")
    else:
        problem = check(value)
        if problem:
            raise CatalogueError(f"{where}: {problem}")
    return Field(value, source, note)


def parse_records(kind: str, records: Any, show: str) -> dict[str, Entry]:
    """The records of one kind of shipped data, validated (`show` names their file in
    messages); CatalogueError naming the record and field of the first problem."""
    if not isinstance(records, Mapping) or not records:
        raise CatalogueError(f"{show}: expected \"records\": an object of records")
    out: dict[str, Entry] = {}
    for rid, raw in records.items():
        if not isinstance(raw, Mapping):
            raise CatalogueError(f"{show}: record {rid}: expected an object")
        allowed = {"fields", "abilities"} | ({"group"} if kind == "ships" else set())
        extra = set(raw) - allowed
        if extra:
            raise CatalogueError(f"{show}: record {rid}: unexpected key(s) {sorted(extra)}")
        group = raw.get("group")
        if kind == "ships" and group not in SHIP_GROUPS:
            raise CatalogueError(f"{show}: record {rid}: field 'group': expected one of "
                                 f"{', '.join(SHIP_GROUPS)}; got {group!r}")
        if kind == "sectors" and not (rid.isdigit() and len(rid) == 3):
            raise CatalogueError(f"{show}: record {rid}: a Sector number has three digits")
        schema = _schema(kind, rid, raw)
        if schema is None:
            raise CatalogueError(f"{show}: record {rid}: not a record of the {kind} catalogue")
        fields = raw.get("fields")
        if not isinstance(fields, Mapping):
            raise CatalogueError(f"{show}: record {rid}: expected \"fields\": an object")
        for name in fields:
            if name not in schema:
                raise CatalogueError(f"{show}: record {rid}: field '{name}': not a field of "
                                     f"this record (expected {', '.join(schema)})")
        parsed: dict[str, Field] = {}
        for name, check in schema.items():
            if name not in fields:
                raise CatalogueError(f"{show}: record {rid}: field '{name}': missing "
                                     "(write null when unknown)")
            parsed[name] = _parse_field(show, rid, name, fields[name], check)
        if kind == "ships" and group != "deck" and not parsed["type"].known:
            raise CatalogueError(f"{show}: record {rid}: field 'type': must be known")
        abilities = _parse_abilities(kind, show, rid, raw.get("abilities", []))
        out[rid] = Entry(parsed, abilities, group)
    return out


def _parse_abilities(kind: str, show: str, rid: str, raw: Any) -> list[tuple[dict, Field]]:
    if kind not in ("hubs", "sectors"):
        if raw:
            raise CatalogueError(f"{show}: record {rid}: field 'abilities': only Hubs and "
                                 "Sectors have abilities")
        return []
    if not isinstance(raw, list):
        raise CatalogueError(f"{show}: record {rid}: field 'abilities': expected a list")
    out = []
    for i, entry in enumerate(raw):
        problems = effects.validate_ability(entry, sector=kind == "sectors")
        if problems:
            raise CatalogueError(f"{show}: record {rid}: field 'abilities[{i}]': "
                                 + "; ".join(problems))
        quarter = UNKNOWN
        if kind == "sectors":
            quarter = _parse_field(show, rid, f"abilities.{i}.quarter", entry["quarter"],
                                   QUARTER_LINK, allow_none=True)
        out.append((dict(entry), quarter))
    return out


# --- user values -------------------------------------------------------------------------

def normal_record(kind: str, record: str | int) -> str:
    """A record id as the user may type it, as the data spells it (Hub ids upper case)."""
    record = str(record).strip()
    return record.upper() if kind == "hubs" else record


def check_value(shipped: Shipped, show: str, kind: Any, record: Any, name: Any, value: Any,
                *, address_only: bool = False) -> None:
    """CatalogueError unless (kind, record, field) exists and `value` has the field's type."""
    if kind not in KINDS:
        raise CatalogueError(f"{show}: kind {kind!r}: not a catalogue kind "
                             f"(expected {', '.join(KINDS)})")
    records = shipped[kind]
    if record not in records:
        raise CatalogueError(f"{show}: record {record}: no such record among the {kind}")
    raw = records[record]
    where = f"{show}: record {record}: field '{name}'"
    index = ability_index(name) if isinstance(name, str) else None
    if index is not None and kind == "sectors":
        if index >= len(raw.abilities):
            _refuse(where, f"Sector {record} has {len(raw.abilities)} abilit(ies)")
        check = QUARTER_LINK
    else:
        schema = _schema(kind, record, {"group": raw.group, "fields": {
            "type": {"value": raw.fields["type"].value}} if "type" in raw.fields else {}})
        if schema is None or not isinstance(name, str) or name not in schema:
            _refuse(where, f"no such field (expected one of {', '.join(schema or {})})")
        if kind == "ships" and name == "type":
            _refuse(where, "a ship's type cannot be changed")
        check = schema[name]
    if address_only:
        return
    if value is None:
        _refuse(where, "expected a value, got null")
    problem = check(value)
    if problem:
        number = (check.minimum, check.maximum) if isinstance(check, Whole) else None
        _refuse(where, problem, number)


def _refuse(where: str, problem: str, number: tuple[int, int | None] | None = None) -> NoReturn:
    """A field's value (or the field itself) refused: CatalogueError with the words apart."""
    raise CatalogueError(f"{where}: {problem}", problem=problem, number=number)


def check_values(shipped: Shipped, values: Any, show: str) -> Overlay:
    """User values ({kind: {record: {field: value}}}, as in an overlay) checked against the
    shipped data; a copy of them, or CatalogueError naming `show`, the record and the field."""
    if not isinstance(values, Mapping):
        raise CatalogueError(f"{show}: \"values\" must be an object")
    out: Overlay = {}
    for kind, records in values.items():
        if kind not in KINDS:
            raise CatalogueError(f"{show}: kind {kind!r}: not a catalogue kind "
                                 f"(expected {', '.join(KINDS)})")
        if not isinstance(records, Mapping):
            raise CatalogueError(f"{show}: {kind}: expected an object of records")
        for record, fields in records.items():
            if not isinstance(fields, Mapping):
                raise CatalogueError(f"{show}: record {record}: expected an object of fields")
            for name, value in fields.items():
                check_value(shipped, show, kind, record, name, value)
                out.setdefault(kind, {}).setdefault(record, {})[name] = value
    return out


def check_entry(key: Any, value: Any, shipped: Shipped) -> str:
    """The key "kind/record/field" as the engine asks for it, if `value` is a valid entry for it
    (as in an overlay); else CatalogueError naming the key and what is expected.

    For values a player gives during play (a Sector's cost, a ship's fee) before they are kept.
    """
    show = f'"catalogue" key "{key}"'
    parts = key.split("/") if isinstance(key, str) else []
    if len(parts) != 3:
        raise CatalogueError(f'{show}: expected "kind/record/field" (e.g. "sectors/214/cost")')
    kind, record, field = parts
    record = normal_record(kind, record)
    check_value(shipped, show, kind, record, field, value)
    return f"{kind}/{record}/{field}"


def printed_field(key: str, shipped: Shipped) -> Field | None:
    """The shipped field at `key` ("kind/record/field", as check_entry returns it) when the
    rulebook prints its value (source "rulebook", with its sentence), else None: a value a game
    line or a game record cannot change (only the player, in their own overlay)."""
    kind, record, name = key.split("/", 2)
    entry = shipped.get(kind, {}).get(record)
    if entry is None:
        return None
    index = ability_index(name)
    if index is not None and kind == "sectors":
        found = entry.abilities[index][1] if index < len(entry.abilities) else None
    else:
        found = entry.fields.get(name)
    return found if found is not None and found.source == "rulebook" else None
