"""What the station view shows (plain Python, tested without Kivy): a player's Hub and its
residents, the Sectors by wing and level with their living quarters and residents, and which
abilities are active now and which not yet (the engine's rules.station.quarter_active), plus the
counters a player may correct."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.i18n import _, ability_text
from companion.rules.catalogue import Catalogue
from companion.rules.state import Sector, State, count, in_supply
from companion.rules.station import quarter_active
from companion.rules.words import COUNTERS, SUPPLY_COUNTERS, amount
from companion.ui.kit.wording import LETTERS, word


@dataclass(frozen=True)
class Dot:
    """A living quarter: its resident's species and letter ("" when empty), and whether the
    resident counts this turn (placed before it)."""

    species: str
    letter: str
    active: bool


@dataclass(frozen=True)
class SectorCard:
    """A built Sector: number, level, wing (its colour), quarters, its abilities' states."""

    number: int
    level: int
    wing: str
    quarters: list[Dot]
    abilities: list[str]  # "active: ...", "not yet (placed this turn): ...", "inactive: ..."


@dataclass(frozen=True)
class StationView:
    """One player's station."""

    name: str
    color: str
    hub: str
    hub_quarters: list[Dot]
    wings: dict[str, list[SectorCard]]  # wing colour -> its Sectors, by level then number
    counters: list[tuple[str, int, str]]  # (counter, value, "12 GEMs")


def _dots(residents: Sequence[str | None], active: Sequence[bool], size: int) -> list[Dot]:
    slots = list(residents) + [None] * (size - len(residents))
    return [Dot(r or "", LETTERS.get(r, "") if r else "", r is not None and ok)
            for r, ok in zip(slots, list(active) + [False] * size)]


def sector_card(state: State, catalogue: Catalogue, sector: Sector) -> SectorCard:
    """A Sector's card: its quarters and the state of each ability linked to one."""
    size = max(sector["quarters"] or 0, len(sector["residents"]))
    active = [quarter_active(state, sector, q) for q in range(len(sector["residents"]))]
    abilities = []
    for index, ability in enumerate(catalogue.sectors[sector["number"]].abilities):
        if ability.trigger == "built":
            continue
        quarter = sector["links"][index] if index < len(sector["links"]) else None
        if quarter_active(state, sector, quarter):
            status = _("active")
        elif quarter is not None and quarter < len(sector["residents"]):
            status = _("not yet (quarter {quarter}: placed this turn)").format(
                quarter=quarter + 1)
        else:
            status = _("inactive (quarter {quarter} empty)").format(
                quarter=quarter + 1 if quarter is not None else "?")
        abilities.append(_('{status}: "{text}"').format(status=status,
                                                        text=ability_text(ability.text)))
    return SectorCard(sector["number"], sector["level"], sector["color"] or "unknown",
                      _dots(sector["residents"], active, size), abilities)


def station_view(state: State, catalogue: Catalogue, name: str) -> StationView:
    """The station of the player called `name`."""
    me = next(p for p in state["players"] if p["name"] == name)
    wings: dict[str, list[SectorCard]] = {}
    for sector in sorted(me["sectors"], key=lambda s: (s["level"], s["number"])):
        card = sector_card(state, catalogue, sector)
        wings.setdefault(card.wing, []).append(card)
    hub_slots = me["hub_slots"]
    return StationView(
        name, me["color"], _("Hub {hub}").format(hub=me["hub"]) if me["hub"] else _("no Hub yet"),
        _dots(hub_slots, [r is not None for r in hub_slots], len(hub_slots)), wings,
        [(counter, count(me, counter), amount(counter, count(me, counter)))
         for counter in COUNTERS])


def supply_counters(state: State) -> list[tuple[str, int, str]]:
    """The supply's counters, each a (counter, value, words) like a player's."""
    return [(c, in_supply(state, c), f"{_('Humans') if c == 'human' else word(c)} "
                                     f"{in_supply(state, c)}")
            for c in SUPPLY_COUNTERS]
