"""Building a catalogue from values: the validated shipped data with user values on top (source
"user", they win). Every catalogue gets private copies, so nothing a caller does to a value can
alter the shipped data or another catalogue."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from companion.rules import effects
from companion.rules.catalogue.model import (
    Ability,
    Catalogue,
    Entry,
    Field,
    Hub,
    Record,
    Sector,
    Ship,
    Shipped,
    record_key,
)
from companion.rules.catalogue.schema import check_values


def _copy(value: Any) -> Any:
    """A private copy of a JSON value, so no caller can alter the shipped data."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _fresh(field: Field) -> Field:
    if isinstance(field.value, dict | list):
        return Field(_copy(field.value), field.source, field.note)
    return field


def build_catalogue(shipped: Shipped, values: Any = None, *,
                    show: str = "catalogue values") -> Catalogue:
    """The catalogue of the shipped data with the user's `values` ({kind: {record: {field:
    value}}}, as in an overlay; None: none) applied; CatalogueError (naming `show`) when a
    value does not fit the catalogue."""
    user_values = check_values(shipped, {} if values is None else values, show)

    def fields_of(kind: str, rid: str, raw: Entry) -> Mapping[str, Field]:
        user = user_values.get(kind, {}).get(rid, {})
        merged = {name: (Field(_copy(user[name]), "user", None) if name in user
                         else _fresh(field)) for name, field in raw.fields.items()}
        return MappingProxyType(merged)

    def abilities_of(kind: str, rid: str, raw: Entry) -> tuple[Ability, ...]:
        user = user_values.get(kind, {}).get(rid, {})
        out = []
        for i, (entry, quarter) in enumerate(raw.abilities):
            link = f"abilities.{i}.quarter"
            if link in user:
                quarter = Field(user[link], "user", None)
            out.append(Ability(entry["trigger"], entry["kind"],
                               MappingProxyType(_copy(effects.ability_params(entry))),
                               entry["text"], quarter))
        return tuple(out)

    def build(kind: str, make: Callable[[str, Entry], Any]) -> Mapping[Any, Any]:
        return MappingProxyType({record_key(kind, rid): make(rid, raw)
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
        shipped=shipped,
    )
