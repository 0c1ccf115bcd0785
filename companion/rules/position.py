"""An end-of-game position: each player's station, ships, GEMs and resources, checked against
the rules of placement before it is scored.

The input is plain data (the JSON of `phoenix-companion score`, or what the score calculator
collects by touch); every problem is reported as a `PositionError` naming the player and field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.i18n import _
from companion.rules.catalogue import Catalogue, CatalogueError, build_catalogue, check_entry
from companion.rules.move import printed_refusal
from companion.rules.names import name_refusal, normal_name, twins, twins_refusal
from companion.rules.state import State, fleet, hub_of
from companion.rules.station import INTERMINGLING
from companion.rules.words import (
    AEROBIC,
    ALIEN_COLORS,
    RESOURCES,
    SECTOR_COLORS,
    SPECIES,
    color_name,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 4

# Hub A-9: "You can build Sectors in any order."
ANY_ORDER_HUB = "A-9"
_MISSING = object()


class PositionError(ValueError):
    """A position that cannot be scored; says which player and field (as the JSON names them:
    "player 2", "sectors[0] (Sector 301).residents"), and what to do (`message`, in the
    language spoken now).

    Apart from the words, for a screen to find what to show: `index`, the player's place in
    "players" (0-based; None when the problem is not one player's) and `sectors`, the numbers
    of the Sectors a problem with a station's Sectors is about."""

    def __init__(self, player: str, field: str, message: str, *, index: int | None = None,
                 sectors: tuple[int, ...] = ()) -> None:
        self.player = player
        self.field = field
        self.message = message
        self.index = index
        self.sectors = sectors
        super().__init__(f"{player}: {field}: {message}")


@dataclass(frozen=True)
class BuiltSector:
    """One Sector of a player's station, with its residents left to right."""

    number: int
    level: int
    color: str
    quarters: int
    residents: tuple[str, ...]
    endgame_bonus_active: bool | None = None

    @property
    def full(self) -> bool:
        """Every living quarter occupied (a Sector without quarters is never "full")."""
        return self.quarters > 0 and len(self.residents) == self.quarters


@dataclass(frozen=True)
class PlayerPosition:
    """What one player has at the end of the game."""

    name: str
    hub: str
    points: int
    ships_left: int
    gems: int
    food: int
    water: int
    metal: int
    hub_residents: tuple[str, ...] = ()
    sectors: tuple[BuiltSector, ...] = ()

    def residents(self) -> tuple[str, ...]:
        """Every resident of the entire station, the Hub's included."""
        return self.hub_residents + tuple(r for s in self.sectors for r in s.residents)

    def count(self, species: str) -> int:
        return self.residents().count(species)

    @property
    def aliens(self) -> int:
        return sum(self.count(s) for s in ALIEN_COLORS)

    @property
    def humans(self) -> int:
        return self.count("human")

    @property
    def resources(self) -> int:
        return self.food + self.water + self.metal


def station_count(what: str, player: PlayerPosition) -> int:
    """What an ability counts on the player's entire station (`effects.POINT_COUNTS`), for final
    scoring and for gains in play alike."""
    if what in SPECIES:
        return player.count(what)
    counts = {
        "sectors": len(player.sectors),
        "level3_sectors": sum(1 for s in player.sectors if s.level == 3),
        "full_sectors": sum(1 for s in player.sectors if s.full),
        "ships_left": player.ships_left,
        "metal": player.metal,
    }
    return counts[what]


def player_position(state: State, index: int) -> PlayerPosition:
    """Player `index`'s station, ships and counters as they stand in a game's state (unchecked)."""
    me = state["players"][index]
    sectors = tuple(BuiltSector(number=s["number"], level=s["level"], color=s["color"],
                                quarters=s["quarters"], residents=tuple(s["residents"]))
                    for s in me["sectors"])
    return PlayerPosition(
        name=me["name"], hub=hub_of(me), points=me["points"],
        ships_left=len(fleet(state, index)),
        gems=me["gems"], food=me["food"], water=me["water"], metal=me["metal"],
        hub_residents=tuple(s for s in me["hub_slots"] if s is not None), sectors=sectors)


def position_catalogue(data: Mapping[str, Any], catalogue: Catalogue) -> Catalogue:
    """The catalogue a position is read with: `catalogue` with the position's own values
    (`"catalogue": {"kind/record/field": value}`, as on a script line) on top; an example
    position (`"example": true`) is read with the shipped data and its own values alone, so it
    scores the same whatever the user's overlay says. The values stay with the position (they
    are never stored); one that changes a value the rulebook prints is refused."""
    given = data.get("catalogue", {})
    example = data.get("example", False)
    if not isinstance(example, bool):
        raise PositionError("position", "example", _("expected true or false"))
    if not isinstance(given, Mapping):
        raise PositionError("position", "catalogue",
                            _('expected an object of "kind/record/field": value (e.g. '
                              '{"sectors/214/quarters": 3})'))
    if not given and not example:
        return catalogue
    values: dict[str, dict[str, dict[str, Any]]] = {}
    if not example:  # the user's values, then the position's
        for kind, record, name, field in catalogue.iter_fields():
            if field.source == "user":
                values.setdefault(kind, {}).setdefault(record, {})[name] = field.value
    for key, value in given.items():
        try:
            key = check_entry(key, value, catalogue.shipped)
        except CatalogueError as error:
            raise PositionError("position", "catalogue", str(error)) from None
        refusal = printed_refusal(key, value, catalogue)
        if refusal:
            raise PositionError("position", "catalogue", refusal)
        kind, record, name = key.split("/", 2)
        values.setdefault(kind, {}).setdefault(record, {})[name] = value
    return build_catalogue(catalogue.shipped, values)


def parse_position(data: Any, catalogue: Catalogue) -> tuple[PlayerPosition, ...]:
    """Check and convert a position (plain JSON data) into players; raise PositionError. The
    position's own catalogue values, if any, are used (`position_catalogue`)."""
    return read_position(data, catalogue)[0]


def read_position(data: Any,
                  catalogue: Catalogue) -> tuple[tuple[PlayerPosition, ...], Catalogue]:
    """`parse_position`, with the catalogue the players were read with: the one to score them
    with (`position_catalogue`: the position's own values, an example's shipped data)."""
    if not isinstance(data, Mapping) or "players" not in data:
        raise PositionError("position", "players", _('expected an object {"players": [...]}'))
    catalogue = position_catalogue(data, catalogue)
    raw_players = data["players"]
    if not isinstance(raw_players, list):
        raise PositionError("position", "players", _("expected a list of players"))
    if not MIN_PLAYERS <= len(raw_players) <= MAX_PLAYERS:
        raise PositionError(
            "position", "players",
            _("the game is for {least} to {most} players, got {count}").format(
                least=MIN_PLAYERS, most=MAX_PLAYERS, count=len(raw_players)),
        )
    players = tuple(_player_at(raw, i, catalogue) for i, raw in enumerate(raw_players))
    _check_unique_names(players)
    _check_sectors_unique_across_players(players)
    return players, catalogue


def _player_at(raw: Any, index: int, catalogue: Catalogue) -> PlayerPosition:
    """Player `index`; a problem with them says which (PositionError.index)."""
    try:
        return _player(raw, index, catalogue)
    except PositionError as error:
        if error.index is None:
            error.index = index
        raise


def _player(raw: Any, index: int, catalogue: Catalogue) -> PlayerPosition:
    label = _("player {number}").format(number=index + 1)
    if not isinstance(raw, Mapping):
        raise PositionError(label, "player",
                            _("expected an object with name, hub, points, ..."))
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise PositionError(label, "name", _("expected a non-empty text"))
    name = normal_name(name)
    refusal = name_refusal(name, _("the name"))
    if refusal:
        raise PositionError(label, "name", refusal)
    _reject_unknown_keys(name, "player", raw, {
        "name", "hub", "points", "ships_left", "gems", *RESOURCES, "hub_residents", "sectors",
    })
    hub = raw.get("hub")
    if not isinstance(hub, str) or hub.strip().upper() not in catalogue.hubs:
        raise PositionError(name, "hub", _("unknown Station Hub {hub} (B-1..B-12, "
                                           "A-1..A-12)").format(hub=repr(hub)))
    hub = hub.strip().upper()
    # The score track can go negative (Hub A-12: "lose 5 points immediately, going negative").
    points = _whole(name, "points", raw.get("points", _MISSING), minimum=None)
    counts = {
        key: _whole(name, key, raw.get(key, _MISSING))
        for key in ("ships_left", "gems", *RESOURCES)
    }
    hub_residents = _species_list(name, "hub_residents", raw.get("hub_residents", []))
    _check_hub_residents(name, hub, hub_residents, catalogue)
    raw_sectors = raw.get("sectors", [])
    if not isinstance(raw_sectors, list):
        raise PositionError(name, "sectors", _("expected a list of Sectors"))
    owns_108 = any(
        isinstance(s, Mapping) and s.get("number") == INTERMINGLING for s in raw_sectors
    )
    sectors = tuple(
        _sector(name, f"sectors[{i}]", s, catalogue, owns_108) for i, s in enumerate(raw_sectors)
    )
    _check_station(name, hub, sectors)
    return PlayerPosition(name=name, hub=hub, points=points, hub_residents=hub_residents,
                          sectors=sectors, **counts)


def _sector(
    player: str, field: str, raw: Any, catalogue: Catalogue, owns_108: bool
) -> BuiltSector:
    if not isinstance(raw, Mapping):
        raise PositionError(player, field,
                            _("expected an object with number, level, color, ..."))
    _reject_unknown_keys(player, field, raw, {
        "number", "level", "color", "quarters", "residents", "endgame_bonus_active",
    })
    number = raw.get("number")
    if isinstance(number, bool) or not isinstance(number, int) or number not in catalogue.sectors:
        raise PositionError(player, f"{field}.number",
                            _("no Sector numbered {number}").format(number=repr(number)))
    info = catalogue.sectors[number]
    field = f"{field} (Sector {number})"
    level = raw.get("level", info.level)
    if level != info.level:
        raise PositionError(player, f"{field}.level",
                            _("Sector {number} is a Level-{level} Sector, not {given}").format(
                                number=number, level=info.level, given=repr(level)))
    color = raw.get("color", info.color)
    if color not in SECTOR_COLORS:
        raise PositionError(player, f"{field}.color",
                            _("expected teal, pink or brown, not {color}").format(
                                color=repr(color)))
    if info.color is not None and color != info.color:
        raise PositionError(
            player, f"{field}.color",
            _("the catalogue has Sector {number} as {known}, not {color}; if your tile says "
              "otherwise, correct the catalogue first").format(
                  number=number, known=color_name(info.color), color=color_name(color)),
        )
    if "quarters" not in raw and not info.quarters.known:
        raise PositionError(player, f"{field}.quarters",
                            _("how many living quarters Sector {number} has is not in the "
                              "catalogue; give it").format(number=number))
    quarters = _whole(player, f"{field}.quarters", raw.get("quarters", info.quarters.value))
    if info.quarters.known and quarters != info.quarters.value:
        raise PositionError(player, f"{field}.quarters",
                            _("the catalogue has {known} living quarters for Sector {number}, "
                              "not {quarters}").format(known=info.quarters.value,
                                                       number=number, quarters=quarters))
    residents = _species_list(player, f"{field}.residents", raw.get("residents", []))
    if len(residents) > quarters:
        raise PositionError(player, f"{field}.residents",
                            _("{count} residents but only {quarters} living quarters").format(
                                count=len(residents), quarters=quarters))
    for species in residents:
        if species in AEROBIC and species != color and not (color == "teal" and owns_108):
            raise PositionError(
                player, f"{field}.residents",
                _("a {species} Alien cannot live in a {color} Sector (only {color} Aliens, "
                  "gold Aliens and Humans can)").format(species=color_name(species),
                                                        color=color_name(color)),
            )
    active = _endgame_bonus_active(player, field, raw, info, catalogue, residents)
    return BuiltSector(number=number, level=level, color=color, quarters=quarters,
                       residents=residents, endgame_bonus_active=active)


def _endgame_bonus_active(
    player: str, field: str, raw: Mapping, info: Any, catalogue: Catalogue,
    residents: tuple[str, ...],
) -> bool | None:
    """Whether the living quarters linked to this Sector's endgame bonus are occupied."""
    bonuses = catalogue.endgame_abilities(info)
    given = raw.get("endgame_bonus_active")
    if given is not None and not isinstance(given, bool):
        raise PositionError(player, f"{field}.endgame_bonus_active",
                            _("expected true or false"))
    if not bonuses:
        if given:
            raise PositionError(player, f"{field}.endgame_bonus_active",
                                _("Sector {number} has no endgame bonus").format(
                                    number=info.number))
        return None
    if given is not None:
        if given and not residents:
            raise PositionError(player, f"{field}.endgame_bonus_active",
                                _("true, but the Sector has no residents"))
        return given
    links = [b.quarter for b in bonuses]
    if all(link.known for link in links):
        # Residents fill living quarters left to right: quarter i is occupied iff i < count.
        return all(link.value < len(residents) for link in links)
    raise PositionError(
        player, f"{field}.endgame_bonus_active",
        _("Sector {number}'s endgame bonus counts only if its linked living quarters are "
          "occupied, and the catalogue does not know which quarters those are: add "
          '"endgame_bonus_active": true or false to this Sector').format(number=info.number),
    )


def _check_hub_residents(
    player: str, hub: str, residents: tuple[str, ...], catalogue: Catalogue
) -> None:
    quarters = catalogue.hubs[hub].living_quarters
    if not residents:
        return
    if not quarters:
        raise PositionError(player, "hub_residents",
                            _("Hub {hub} has no living quarters (only B-11 and A-11 do)").format(
                                hub=hub))
    if not _fits(list(residents), [set(q) for q in quarters]):
        allowed = "; ".join("/".join(map(color_name, q)) for q in quarters)
        raise PositionError(player, "hub_residents",
                            _("{residents} do not fit Hub {hub}'s living quarters "
                              "({allowed})").format(
                                  residents=", ".join(map(color_name, residents)), hub=hub,
                                  allowed=allowed))


def _fits(residents: list[str], quarters: list[set[str]]) -> bool:
    """Whether each resident can have a quarter of its own that allows its species."""
    if not residents:
        return True
    first, rest = residents[0], residents[1:]
    return any(
        first in allowed and _fits(rest, quarters[:i] + quarters[i + 1:])
        for i, allowed in enumerate(quarters)
    )


def _check_station(player: str, hub: str, sectors: tuple[BuiltSector, ...]) -> None:
    """Wing rules: one Sector per level and colour, each wing built from smallest to largest."""
    seen: dict[tuple[int, str], int] = {}
    for sector in sectors:
        key = (sector.level, sector.color)
        if key in seen:
            raise PositionError(
                player, "sectors",
                _("Sectors {first} and {second} are both Level-{level} {color}; each wing can "
                  "have only one Sector of each level").format(
                      first=seen[key], second=sector.number, level=sector.level,
                      color=color_name(sector.color)),
                sectors=(seen[key], sector.number),
            )
        seen[key] = sector.number
    if hub == ANY_ORDER_HUB:
        return
    for (level, color), number in seen.items():
        if level > 1 and (level - 1, color) not in seen:
            raise PositionError(
                player, "sectors",
                _("Sector {number} is Level-{level} {color} but the {color} wing has no "
                  "Level-{below} Sector; a wing is built from smallest to largest").format(
                      number=number, level=level, color=color_name(color), below=level - 1),
                sectors=(number,),
            )


def _check_unique_names(players: Sequence[PlayerPosition]) -> None:
    names = [p.name for p in players]
    pair = twins(names)
    if pair:
        first, second = pair
        raise PositionError(names[second], "name", twins_refusal(names[first], names[second]),
                            index=second)


def _check_sectors_unique_across_players(players: Sequence[PlayerPosition]) -> None:
    owner: dict[int, str] = {}
    for index, player in enumerate(players):
        for sector in player.sectors:
            if sector.number in owner:
                other = owner[sector.number]
                text = (_("Sector {number} is built twice; there is one tile")
                        if other == player.name else
                        _("Sector {number} is built and also by {other}; there is one tile"))
                raise PositionError(player.name, "sectors",
                                    text.format(number=sector.number, other=other),
                                    index=index, sectors=(sector.number,))
            owner[sector.number] = player.name


def _whole(player: str, field: str, value: Any, minimum: int | None = 0) -> int:
    if value is _MISSING:
        raise PositionError(player, field, _("missing (expected a whole number)"))
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(player, field, _("expected a whole number, got {value}").format(
            value=repr(value)))
    if minimum is not None and value < minimum:
        raise PositionError(player, field, _("cannot be negative (got {value})").format(
            value=value))
    return value


def _species_list(player: str, field: str, raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise PositionError(player, field, _("expected a list of residents"))
    for species in raw:
        if species not in SPECIES:
            raise PositionError(player, field,
                                _("unknown resident {value} (teal, pink, brown, gold, "
                                  "human)").format(value=repr(species)))
    return tuple(raw)


def _reject_unknown_keys(player: str, field: str, raw: Mapping, known: set[str]) -> None:
    extra = sorted(set(raw) - known)
    if extra:
        raise PositionError(player, field, _("unknown field(s): {fields}").format(
            fields=", ".join(map(str, extra))))
