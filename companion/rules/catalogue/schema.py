"""The component catalogue: every Hub, Sector, ship, the Diplomacy board, the setup tables and the
Terran Expedition die, each value with its provenance, plus the user's overlay of values entered
from a physical copy.

Shipped data: companion/data/{hubs,sectors,ships,diplomacy,setup,die}.json (see
companion/data/README.md and docs/catalogue.md). A field there is `null` (unknown: printed only on
the physical component), `{"value": V, "source": "rulebook", "quote": "..."}` or
`{"value": V, "source": "inferred", "reason": "..."}`. Overlay values get source "user" and win.

The loader and the overlay functions read and write files; everything else is plain data.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.files import JsonFileError, read_json, write_text_atomically
from companion.rules import effects
from companion.rules.effects import (
    ALIEN_COLORS,
    DIPLOMACY_TRACKS,
    RESOURCES,
    SECTOR_COLORS,
    SHIP_TYPES,
    SPECIES,
    Check,
    boolean,
    one_of,
    whole,
)

KINDS = ("hubs", "sectors", "ships", "diplomacy", "setup", "die")
SOURCES = ("rulebook", "inferred", "user", "unknown")
DATA_FORMAT = "phoenix-companion-catalogue"
OVERLAY_FORMAT = "phoenix-companion-catalogue-overlay"
VERSION = 1
DEFAULT_DATA_DIR = Path(__file__).resolve().parents[2] / "data"
_REPO_ROOT = Path(__file__).resolve().parents[3]
ALL_SHIP_TYPES = (*SHIP_TYPES, "farm", "ice_collector")


class CatalogueError(ValueError):
    """A catalogue or overlay file that cannot be used; names the file, record and field."""


# --- values ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One catalogue value with its provenance."""

    value: Any  # None when unknown (or, with a known source, when it does not apply)
    source: str  # "rulebook" | "inferred" | "user" | "unknown"
    note: str | None = None  # the quote (rulebook), the reasoning (inferred), else None

    @property
    def known(self) -> bool:
        return self.source != "unknown"


UNKNOWN = Field(None, "unknown", None)


@dataclass(frozen=True)
class Ability:
    """One structured effect (see companion/rules/effects.py) with its rulebook text."""

    trigger: str
    kind: str
    params: Mapping[str, Any]
    text: str
    quarter: Field = UNKNOWN  # the living quarter (0-based) that activates it; unknown for Hubs

    @property
    def ship(self) -> str | None:
        """The ship type of a ship_action trigger (or "any"), else None."""
        return self.params.get("ship")


class _FieldAccess:
    fields: Mapping[str, Field]

    def __getitem__(self, name: str) -> Field:
        return self.fields[name]

    def value(self, name: str, default: Any = None) -> Any:
        """The field's value, or `default` when it is unknown."""
        field = self.fields[name]
        return field.value if field.known else default


@dataclass(frozen=True)
class Hub(_FieldAccess):
    id: str
    fields: Mapping[str, Field]
    abilities: tuple[Ability, ...]

    @property
    def game(self) -> str:
        return self.fields["game"].value

    @property
    def living_quarters(self) -> list[list[str]]:
        """One entry per living quarter on the Hub: the species allowed there ([] when none)."""
        field = self.fields["living_quarters"]
        return [list(q) for q in field.value] if field.known and field.value else []

    @property
    def income_gems_per_ship(self) -> Field:
        return self.fields["income_gems_per_ship"]

    @property
    def income_fixed_gems(self) -> Field:
        return self.fields["income_fixed_gems"]


@dataclass(frozen=True)
class Sector(_FieldAccess):
    number: int
    fields: Mapping[str, Field]
    abilities: tuple[Ability, ...]

    @property
    def level(self) -> int:
        return self.fields["level"].value

    @property
    def color(self) -> str | None:
        return self.value("color")

    @property
    def stack(self) -> tuple[int, str | None]:
        """The setup stack (level, colour) this Sector is shuffled in."""
        return (self.level, self.color)

    @property
    def cost(self) -> Field:
        return self.fields["cost"]

    @property
    def quarters(self) -> Field:
        return self.fields["quarters"]


@dataclass(frozen=True)
class Ship(_FieldAccess):
    """A ship design (level1, deck_design), a neutral ship, or a deck (group "deck")."""

    id: str
    group: str  # "level1" | "deck_design" | "neutral" | "deck"
    fields: Mapping[str, Field]

    @property
    def type(self) -> str | None:
        return self.value("type")

    @property
    def level(self) -> int | None:
        return self.value("level") if "level" in self.fields else None


@dataclass(frozen=True)
class Record(_FieldAccess):
    """A record of the Diplomacy board, the setup tables or the die."""

    id: str
    fields: Mapping[str, Field]


@dataclass(frozen=True)
class Catalogue:
    hubs: Mapping[str, Hub]
    sectors: Mapping[int, Sector]
    ships: Mapping[str, Ship]
    diplomacy: Mapping[str, Record]
    setup: Mapping[str, Record]
    die: Mapping[str, Record]
    overlay: Path | None = None

    def records(self, kind: str) -> Mapping[Any, Any]:
        """The records of one kind (hubs, sectors, ships, diplomacy, setup, die)."""
        if kind not in KINDS:
            raise KeyError(f"unknown catalogue kind {kind!r} (expected {', '.join(KINDS)})")
        return getattr(self, kind)

    def field(self, kind: str, record: str | int, name: str) -> Field:
        """One field, addressed as in the overlay (sector ability links: abilities.N.quarter)."""
        item = self.records(kind)[_record_key(kind, record)]
        index = _ability_index(name)
        if index is not None:
            return item.abilities[index].quarter
        return item.fields[name]

    def endgame_abilities(self, component: Hub | Sector | str | int) -> list[Ability]:
        """The component's abilities scored at game end (trigger "game_end")."""
        if isinstance(component, str):
            component = self.hubs[component]
        elif isinstance(component, int):
            component = self.sectors[component]
        return [a for a in component.abilities if a.trigger == "game_end"]

    def iter_fields(self) -> Iterator[tuple[str, str, str, Field]]:
        """Every field as (kind, record id, field name, Field), Sector ability links included."""
        for kind in KINDS:
            for key, item in self.records(kind).items():
                for name, field in item.fields.items():
                    yield kind, str(key), name, field
                if kind == "sectors":
                    for i, ability in enumerate(item.abilities):
                        yield kind, str(key), f"abilities.{i}.quarter", ability.quarter

    def unknown_fields(self) -> list[tuple[str, str, str]]:
        """(kind, record, field) of every value still unknown: what the app may ask for."""
        return [(k, r, n) for k, r, n, f in self.iter_fields() if not f.known]


# --- field types -------------------------------------------------------------------------------

def _list_of(item: Check, *, allow_empty: bool = True, length: int | None = None) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, list) or (not value and not allow_empty):
            return f"expected a list, got {value!r}"
        if length is not None and len(value) != length:
            return f"expected a list of {length}, got {len(value)} item(s)"
        for i, element in enumerate(value):
            problem = item(element)
            if problem:
                return f"item {i}: {problem}"
        return None

    return check


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
    _object({"choose_different": whole(1), "from_levels": _list_of(whole(0, 5))}),
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
    "setup_free_sectors": _list_of(
        _object({"level": whole(1, 3), "color": one_of(*SECTOR_COLORS)})),
    "setup_private_sectors": whole(0),
    "setup_ship_changes": _list_of(_ship_op),
    "setup_residents": _counts(SPECIES),
    "living_quarters": _list_of(_list_of(_species, allow_empty=False)),
    "quarter_income": _list_of(_bundle0),
}

SECTOR_FIELDS: dict[str, Check] = {
    "level": whole(1, 3),
    "color": one_of(*SECTOR_COLORS),
    "cost": whole(0),
    "quarters": whole(1),
    "income_icons": _list_of(_object(
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

_players = {f"players_{n}": whole(0) for n in (2, 3, 4)}
_order = _list_of(one_of("turn_order", "reverse_turn_order"), length=2)
_ship_list = _list_of(_ship_type)
SETUP_FIELDS: dict[str, dict[str, Check]] = {
    "humans_on_terra": _players,
    "aliens_drawn": _players,
    "ships_revealed_per_draft": _players,
    "turn_order_gems": {f"player_{n}": whole(0) for n in (1, 2, 3, 4)},
    "components": {
        "aliens_per_color": whole(0), "alien_colors": _list_of(one_of(*ALIEN_COLORS)),
        "humans": whole(0), "expedition_dice": whole(0), "level1_ships": whole(0),
        "level2_ships": whole(0), "level3_ships": whole(0), "sectors_per_level": whole(0),
        "basic_hubs": whole(0), "advanced_hubs": whole(0), "neutral_ships": whole(0),
    },
    "sector_display": {
        "stacks": whole(1), "sectors_per_stack": whole(1), "per_player_per_stack": whole(1),
        "friendly_variant_extra": whole(0),
        "first_game_number_endings": _list_of(whole(0, 9)),
    },
    "fleet": {"level1_ships": whole(0), "ships_at_start": whole(0)},
    "draft": {
        "hubs_dealt": whole(1), "hubs_kept": whole(1), "basic_game_hubs": _list_of(
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
        "faces": _list_of(one_of(*RESOURCES, "human"), length=6), "dice": whole(1),
    },
}
_DIPLOMACY_LEVELS = {
    f"level-{n}": {
        **{f"bonus_{t}": _diplomacy_bonus for t in DIPLOMACY_TRACKS},
        **({"lobbying_cost": whole(0)} if n else {}),
    }
    for n in range(6)
}
DIPLOMACY_FIELDS: dict[str, dict[str, Check]] = {
    "board": {"tracks": _list_of(one_of(*DIPLOMACY_TRACKS)), "top_level": whole(1)},
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
        ship_type = type_field.get("value") if isinstance(type_field, Mapping) else None
        extra = SHIP_TYPE_FIELDS.get(ship_type, {})
        common = dict(_SHIP_COMMON)
        if group == "neutral":  # neutral ships have no level printed for us and are never
            del common["level"], common["metal_value"]  # dismantled (only one's own fleet is)
        return {**common, **extra}
    table = {"diplomacy": DIPLOMACY_FIELDS, "setup": SETUP_FIELDS, "die": DIE_FIELDS}[kind]
    return table.get(record_id)


# --- reading -----------------------------------------------------------------------------------

def _show(path: Path) -> str:
    """A path as messages show it: relative to the project for shipped files."""
    try:
        return str(Path(path).resolve().relative_to(_REPO_ROOT))
    except ValueError:
        return str(path)


def _read_json(path: Path) -> Any:
    try:
        return read_json(path, show=_show(path))
    except JsonFileError as error:
        raise CatalogueError(str(error)) from None


def _parse_field(show: str, rid: str, name: str, raw: Any, check: Check,
                 *, allow_none: bool = False) -> Field:
    where = f"{show}: record {rid}: field '{name}'"
    if raw is None:
        return UNKNOWN
    if not isinstance(raw, Mapping):
        raise CatalogueError(f"{where}: expected null or an object with value and source, "
                             f"got {raw!r}")
    source = raw.get("source")
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


@dataclass
class _Raw:
    fields: dict[str, Field]
    abilities: list[tuple[dict[str, Any], Field]]
    group: str | None


def _parse_kind(kind: str, data: Any, path: Path) -> dict[str, _Raw]:
    show = _show(path)
    if not isinstance(data, Mapping):
        raise CatalogueError(f"{show}: expected a JSON object")
    if data.get("format") != DATA_FORMAT or data.get("kind") != kind:
        raise CatalogueError(f"{show}: expected \"format\": \"{DATA_FORMAT}\" and "
                             f"\"kind\": \"{kind}\"")
    if data.get("version") != VERSION:
        raise CatalogueError(f"{show}: unsupported version {data.get('version')!r}")
    records = data.get("records")
    if not isinstance(records, Mapping) or not records:
        raise CatalogueError(f"{show}: expected \"records\": an object of records")
    out: dict[str, _Raw] = {}
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
        out[rid] = _Raw(parsed, abilities, group)
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


_CACHE: dict[Path, tuple[tuple[int, int], dict[str, _Raw]]] = {}


def _load_kind(kind: str, data_dir: Path) -> dict[str, _Raw]:
    path = (data_dir / f"{kind}.json").resolve()
    try:
        stat = path.stat()
    except OSError:
        raise CatalogueError(f"{_show(path)}: no such file") from None
    stamp = (stat.st_mtime_ns, stat.st_size)
    cached = _CACHE.get(path)
    if cached and cached[0] == stamp:
        return cached[1]
    parsed = _parse_kind(kind, _read_json(path), path)
    _CACHE[path] = (stamp, parsed)
    return parsed


def _shipped(data_dir: Path | None) -> dict[str, dict[str, _Raw]]:
    directory = Path(data_dir) if data_dir is not None else DEFAULT_DATA_DIR
    return {kind: _load_kind(kind, directory) for kind in KINDS}


# --- overlay -----------------------------------------------------------------------------------

Overlay = dict[str, dict[str, dict[str, Any]]]


def _ability_index(name: str) -> int | None:
    parts = name.split(".")
    if len(parts) == 3 and parts[0] == "abilities" and parts[2] == "quarter" \
            and parts[1].isdigit():
        return int(parts[1])
    return None


def _record_key(kind: str, record: str | int) -> Any:
    if kind == "sectors":
        try:
            return int(record)
        except (TypeError, ValueError):
            return record
    return str(record)


def _check_user_value(shipped: Mapping[str, Mapping[str, _Raw]], show: str, kind: Any,
                      record: Any, name: Any, value: Any, *, address_only: bool = False) -> None:
    """CatalogueError unless (kind, record, field) exists and `value` has the field's type."""
    if kind not in KINDS:
        raise CatalogueError(f"{show}: kind {kind!r}: not a catalogue kind "
                             f"(expected {', '.join(KINDS)})")
    records = shipped[kind]
    if record not in records:
        raise CatalogueError(f"{show}: record {record}: no such record among the {kind}")
    raw = records[record]
    where = f"{show}: record {record}: field '{name}'"
    index = _ability_index(name) if isinstance(name, str) else None
    if index is not None and kind == "sectors":
        if index >= len(raw.abilities):
            raise CatalogueError(f"{where}: Sector {record} has {len(raw.abilities)} "
                                 "abilit(ies)")
        check = QUARTER_LINK
    else:
        schema = _schema(kind, record, {"group": raw.group, "fields": {
            "type": {"value": raw.fields["type"].value}} if "type" in raw.fields else {}})
        if not isinstance(name, str) or name not in (schema or {}):
            raise CatalogueError(f"{where}: no such field (expected one of "
                                 f"{', '.join(schema or {})})")
        if kind == "ships" and name == "type":
            raise CatalogueError(f"{where}: a ship's type cannot be changed")
        check = schema[name]
    if address_only:
        return
    problem = check(value) if value is not None else "expected a value, got null"
    if problem:
        raise CatalogueError(f"{where}: {problem}")


def _read_overlay(path: Path, shipped: Mapping[str, Mapping[str, _Raw]],
                  *, missing_ok: bool = True) -> Overlay:
    """The validated values of an overlay file ({} when it does not exist and missing_ok)."""
    path = Path(path)
    show = _show(path)
    if not path.exists():
        if missing_ok:
            return {}
        raise CatalogueError(f"{show}: no such file")
    data = _read_json(path)
    if not isinstance(data, Mapping) or data.get("format") != OVERLAY_FORMAT:
        raise CatalogueError(f"{show}: not a catalogue overlay (expected \"format\": "
                             f"\"{OVERLAY_FORMAT}\")")
    if data.get("version") != VERSION:
        raise CatalogueError(f"{show}: unsupported overlay version {data.get('version')!r}")
    values = data.get("values", {})
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
                _check_user_value(shipped, show, kind, record, name, value)
                out.setdefault(kind, {}).setdefault(record, {})[name] = value
    return out


def _count(overlay: Overlay) -> int:
    return sum(len(fields) for records in overlay.values() for fields in records.values())


def _write_overlay(path: Path, overlay: Overlay) -> None:
    """Write atomically: a temporary file beside it, flushed, then os.replace."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": OVERLAY_FORMAT, "version": VERSION, "values": {
        kind: {record: dict(sorted(fields.items()))
               for record, fields in sorted(records.items()) if fields}
        for kind, records in sorted(overlay.items()) if any(records.values())
    }}
    write_text_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _normal_record(kind: str, record: str | int) -> str:
    record = str(record).strip()
    return record.upper() if kind == "hubs" else record


def set_user_value(overlay: Path, kind: str, record: str, field: str, value: Any) -> None:
    """Store a value entered from a physical copy (None removes the entry again)."""
    shipped = _shipped(None)
    current = _read_overlay(overlay, shipped)
    record = _normal_record(kind, record)
    if value is None:
        _check_user_value(shipped, f"{_show(overlay)} (new value)", kind, record, field, None,
                          address_only=True)
        current.get(kind, {}).get(record, {}).pop(field, None)
    else:
        _check_user_value(shipped, f"{_show(overlay)} (new value)", kind, record, field, value)
        current.setdefault(kind, {}).setdefault(record, {})[field] = value
    _write_overlay(overlay, current)


def read_overlay(overlay: Path) -> Overlay:
    """The validated values of an overlay file (empty when it does not exist)."""
    return _read_overlay(overlay, _shipped(None))


def export_overlay(overlay: Path, destination: Path) -> int:
    """Write the overlay's values to `destination`; the number of values exported."""
    values = _read_overlay(overlay, _shipped(None))
    _write_overlay(destination, values)
    return _count(values)


def import_overlay(overlay: Path, source: Path) -> int:
    """Merge the values of `source` into the overlay (source wins); the number imported.

    `source` is validated completely first; a malformed one raises CatalogueError naming the
    file, record and field, and the overlay is left untouched.
    """
    shipped = _shipped(None)
    incoming = _read_overlay(source, shipped, missing_ok=False)
    current = _read_overlay(overlay, shipped)
    for kind, records in incoming.items():
        for record, fields in records.items():
            current.setdefault(kind, {}).setdefault(record, {}).update(fields)
    _write_overlay(overlay, current)
    return _count(incoming)


# --- building the catalogue --------------------------------------------------------------------

def _copy(value: Any) -> Any:
    """A private copy of a JSON value, so no caller can alter the per-process cache."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _fresh(field: Field) -> Field:
    if isinstance(field.value, dict | list):
        return Field(_copy(field.value), field.source, field.note)
    return field


def load_catalogue(data_dir: Path | None = None, overlay: Path | None = None) -> Catalogue:
    """The catalogue from `data_dir` (default: the shipped companion/data) with the user's
    overlay applied (None: no overlay; a missing overlay file is an empty overlay)."""
    shipped = _shipped(data_dir)
    values = _read_overlay(overlay, shipped) if overlay is not None else {}

    def fields_of(kind: str, rid: str, raw: _Raw) -> Mapping[str, Field]:
        user = values.get(kind, {}).get(rid, {})
        merged = {name: (Field(_copy(user[name]), "user", None) if name in user
                         else _fresh(field)) for name, field in raw.fields.items()}
        return MappingProxyType(merged)

    def abilities_of(kind: str, rid: str, raw: _Raw) -> tuple[Ability, ...]:
        user = values.get(kind, {}).get(rid, {})
        out = []
        for i, (entry, quarter) in enumerate(raw.abilities):
            link = f"abilities.{i}.quarter"
            if link in user:
                quarter = Field(user[link], "user", None)
            out.append(Ability(entry["trigger"], entry["kind"],
                               MappingProxyType(_copy(effects.ability_params(entry))),
                               entry["text"], quarter))
        return tuple(out)

    def build(kind: str, make: Callable[[str, _Raw], Any]) -> Mapping[Any, Any]:
        return MappingProxyType({_record_key(kind, rid): make(rid, raw)
                                 for rid, raw in shipped[kind].items()})

    return Catalogue(
        hubs=build("hubs", lambda rid, raw: Hub(
            rid, fields_of("hubs", rid, raw), abilities_of("hubs", rid, raw))),
        sectors=build("sectors", lambda rid, raw: Sector(
            int(rid), fields_of("sectors", rid, raw), abilities_of("sectors", rid, raw))),
        ships=build("ships", lambda rid, raw: Ship(
            rid, raw.group or "", fields_of("ships", rid, raw))),
        diplomacy=build("diplomacy", lambda rid, raw: Record(
            rid, fields_of("diplomacy", rid, raw))),
        setup=build("setup", lambda rid, raw: Record(rid, fields_of("setup", rid, raw))),
        die=build("die", lambda rid, raw: Record(rid, fields_of("die", rid, raw))),
        overlay=Path(overlay) if overlay is not None else None,
    )


# --- summary -----------------------------------------------------------------------------------

def summary(catalogue: Catalogue) -> dict[str, dict[str, int]]:
    """Per kind, how many fields come from each source (Sector ability links count as fields)."""
    counts = {kind: dict.fromkeys(SOURCES, 0) for kind in KINDS}
    for kind, _record, _name, field in catalogue.iter_fields():
        counts[kind][field.source] += 1
    return counts


def format_summary(counts: Mapping[str, Mapping[str, int]]) -> str:
    """A readable table of `summary()` for `phoenix-companion catalogue --summary`."""
    header = ("kind", *SOURCES, "total")
    rows = [[kind, *(counts[kind].get(s, 0) for s in SOURCES),
             sum(counts[kind].get(s, 0) for s in SOURCES)] for kind in counts]
    totals = ["total", *(sum(r[i] for r in rows) for i in range(1, len(header)))]
    table = [list(header), *rows, totals]
    widths = [max(len(str(row[i])) for row in table) for i in range(len(header))]

    def line(row: list[Any]) -> str:
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(row, widths, strict=True)))

    rule = "  ".join("-" * w for w in widths)
    out = [line(table[0]), rule, *(line(r) for r in table[1:-1]), rule, line(totals)]
    known = totals[1] + totals[2] + totals[3]
    out.append(f"{known} of {totals[-1]} fields known; {totals[4]} still unknown "
               "(printed only on the physical components: enter them from your copy).")
    return "\n".join(out)


def check_entry(key: Any, value: Any, data_dir: Path | None = None) -> str:
    """The key "kind/record/field" as the engine asks for it, if `value` is a valid entry for it
    (as in an overlay); else CatalogueError naming the key and what is expected.

    For values a player gives during play (a Sector's cost, a ship's fee) before they are kept.
    """
    show = f'"catalogue" key "{key}"'
    parts = key.split("/") if isinstance(key, str) else []
    if len(parts) != 3:
        raise CatalogueError(f'{show}: expected "kind/record/field" (e.g. "sectors/214/cost")')
    kind, record, field = parts
    record = _normal_record(kind, record)
    _check_user_value(_shipped(data_dir), show, kind, record, field, value)
    return f"{kind}/{record}/{field}"
