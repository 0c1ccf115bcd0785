"""The catalogue's data model: every Hub, Sector, ship, the Diplomacy board, the setup tables and
the Terran Expedition die, each value a `Field` with its provenance."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

KINDS = ("hubs", "sectors", "ships", "diplomacy", "setup", "die")
SOURCES = ("rulebook", "inferred", "user", "unknown")

Overlay = dict[str, dict[str, dict[str, Any]]]
"""User values as {kind: {record: {field: value}}} (as in an overlay file's "values")."""


class CatalogueError(ValueError):
    """Catalogue data or values that cannot be used; names the file (or source), record and
    field.

    A value refused for one field also says so apart from its words, for a screen to say it
    in its own (and the player's language): `problem`, the schema's words about the value alone
    (no file, record or field; None when the error is not about one field) and `number`, the
    whole numbers the field takes when it takes a plain number and refused this one, as
    (minimum, maximum or None for no upper end)."""

    def __init__(self, message: str, *, problem: str | None = None,
                 number: tuple[int, int | None] | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        self.number = number


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


@dataclass
class Entry:
    """A shipped record as validated: its fields, its ability entries with their quarter links,
    and (ships) its group."""

    fields: dict[str, Field]
    abilities: list[tuple[dict[str, Any], Field]]
    group: str | None


Shipped = Mapping[str, Mapping[str, Entry]]
"""The validated shipped data: {kind: {record id: Entry}}."""


@dataclass(frozen=True)
class Catalogue:
    hubs: Mapping[str, Hub]
    sectors: Mapping[int, Sector]
    ships: Mapping[str, Ship]
    diplomacy: Mapping[str, Record]
    setup: Mapping[str, Record]
    die: Mapping[str, Record]
    shipped: Shipped  # the shipped data it was built from (what user values are checked against)

    def records(self, kind: str) -> Mapping[Any, Any]:
        """The records of one kind (hubs, sectors, ships, diplomacy, setup, die)."""
        if kind not in KINDS:
            raise KeyError(f"unknown catalogue kind {kind!r} (expected {', '.join(KINDS)})")
        return getattr(self, kind)

    def field(self, kind: str, record: str | int, name: str) -> Field:
        """One field, addressed as in the overlay (sector ability links: abilities.N.quarter)."""
        item = self.records(kind)[record_key(kind, record)]
        index = ability_index(name)
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


def ability_index(name: str) -> int | None:
    """N of a Sector ability link "abilities.N.quarter", else None."""
    parts = name.split(".")
    if len(parts) == 3 and parts[0] == "abilities" and parts[2] == "quarter" \
            and parts[1].isdigit():
        return int(parts[1])
    return None


def record_key(kind: str, record: str | int) -> Any:
    """A record id as the catalogue's mappings key it (Sector numbers are ints)."""
    if kind == "sectors":
        try:
            return int(record)
        except (TypeError, ValueError):
            return record
    return str(record)
