"""The score calculator's form: what the players entered, kept as plain data (no Kivy).

The screens only show this state and call its methods; the form turns it into the position dict
of `phoenix-companion score` and hands it to `companion.rules`, and turns every `PositionError`
back into a plain-words `Problem` pinned to the player, field and Sector it is about.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import i18n
from companion.files import write_text_atomically
from companion.i18n import N_, _
from companion.rules.words import SECTOR_COLORS, SPECIES, color_name

if TYPE_CHECKING:
    from companion.rules.position import PositionError

LEVELS = (1, 2, 3)
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_SHIPS_LEFT = 9  # ships left on a player board
NUMBER_FIELDS = ("points", "ships_left", "gems", "food", "water", "metal")
# The words of the fields and residents (marked with N_; in the player's language where shown:
# `field_label`, `species_label`).
FIELD_LABELS = {
    "name": N_("Name"),
    "hub": N_("Station Hub"),
    "points": N_("Score track"),
    "ships_left": N_("Ships left"),
    "gems": N_("GEMs"),
    "food": N_("Food"),
    "water": N_("Water"),
    "metal": N_("Metal"),
    "hub_residents": N_("Hub residents"),
    "sectors": N_("Station"),
}
SPECIES_LABELS = {
    "teal": N_("Teal Alien"),
    "pink": N_("Pink Alien"),
    "brown": N_("Brown Alien"),
    "gold": N_("Gold Alien"),
    "human": N_("Human"),
}
# a Sector's part a PositionError names ("sectors[2] (Sector 308).quarters") -> its words
SECTOR_PARTS = {"residents": N_("residents"), "quarters": N_("living quarters"),
                "level": N_("level"), "color": N_("colour"),
                "endgame_bonus_active": N_("endgame bonus"), "number": N_("number")}
NAME_MAX = 16
AUTOSAVE_NAME = "score-calculator.json"  # in the data folder: the entries, kept after each change


def field_label(key: str) -> str:
    """A field's name ("Score track") in the player's language; an unknown key as it is."""
    return i18n._(FIELD_LABELS[key]) if key in FIELD_LABELS else key


def species_label(species: str) -> str:
    """A resident's name ("Pink Alien") in the player's language."""
    return i18n._(SPECIES_LABELS[species]) if species in SPECIES_LABELS else species


class FormError(ValueError):
    """An entry the form refuses at once (with the reason in plain words), e.g. a Sector twice."""


@dataclass(frozen=True)
class Problem:
    """Something to fix before scoring, in plain words, pinned to where it is on screen."""

    message: str
    player: int | None = None  # index into ScoreForm.players; None: the whole position
    field: str | None = None  # "name", "hub", a NUMBER_FIELDS key, "hub_residents", "sectors"
    sectors: tuple[int, ...] = ()  # Sector numbers the problem is about


@dataclass
class SectorEntry:
    """One Sector of a player's station as entered; residents left to right."""

    number: int
    level: int
    color: str
    quarters: int | None
    quarters_known: bool  # True: the catalogue gave the number of living quarters
    needs_bonus_answer: bool  # Level-3 endgame bonus whose linked quarter the catalogue lacks
    bonus_text: str = ""
    residents: list[str] = field(default_factory=list)
    bonus_active: bool | None = None

    @property
    def full(self) -> bool:
        """No free living quarter left for another resident."""
        return self.quarters is not None and len(self.residents) >= self.quarters


@dataclass
class PlayerEntry:
    """One player's column of the form."""

    name: str
    hub: str | None = None
    numbers: dict[str, int | None] = field(
        default_factory=lambda: dict.fromkeys(NUMBER_FIELDS)
    )
    hub_residents: list[str] = field(default_factory=list)
    sectors: list[SectorEntry] = field(default_factory=list)

    def has_entries(self, index: int) -> bool:
        """Whether anything was entered for this player (`index`: its place, for the name)."""
        return (self.name != default_name(index) or self.hub is not None
                or any(v is not None for v in self.numbers.values())
                or bool(self.hub_residents or self.sectors))

    def sector(self, number: int) -> SectorEntry:
        """The Sector with this number (KeyError if the station has none)."""
        for s in self.sectors:
            if s.number == number:
                return s
        raise KeyError(number)

    def at(self, level: int, color: str) -> SectorEntry | None:
        """The Sector in this wing and level, if built."""
        for s in self.sectors:
            if s.level == level and s.color == color:
                return s
        return None


@dataclass(frozen=True)
class Outcome:
    """The result of pressing "Score": a score sheet, or the first problem to fix."""

    sheet: Any = None  # companion.rules.scoring.ScoreSheet
    problem: Problem | None = None


def default_name(index: int) -> str:
    """The name a player has until someone types one."""
    return _("Player {number}").format(number=index + 1)


class ScoreForm:
    """The whole form: 2-4 players with their Hubs, numbers and stations."""

    def __init__(self, catalogue: Any, players: int = 3, overlay: Path | None = None) -> None:
        self.catalogue = catalogue
        self.overlay = overlay  # living quarters typed here are remembered in this file
        self.players: list[PlayerEntry] = []
        self.set_player_count(players)

    def has_entries(self) -> bool:
        """Whether anything at all was entered (replacing the form would lose it)."""
        return any(p.has_entries(i) for i, p in enumerate(self.players))

    def dropped_by(self, count: int) -> list[str]:
        """The names of the players with entries that `set_player_count(count)` would drop."""
        return [p.name for i, p in enumerate(self.players) if i >= count and p.has_entries(i)]

    # players ---------------------------------------------------------------------------------
    def set_player_count(self, count: int) -> None:
        """Add or drop players at the end, keeping what was entered for the others."""
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise FormError(_("the game is for {least} to {most} players").format(
                least=MIN_PLAYERS, most=MAX_PLAYERS))
        while len(self.players) < count:
            self.players.append(PlayerEntry(name=default_name(len(self.players))))
        del self.players[count:]

    def set_name(self, player: int, text: str) -> None:
        """Rename a player (trimmed; empty is refused so every column has a heading)."""
        text = " ".join(text.split())[:NAME_MAX]
        if not text:
            raise FormError(_("a player needs a name"))
        for i, other in enumerate(self.players):
            if i != player and other.name.casefold() == text.casefold():
                raise FormError(_("another player is already called {name}").format(
                    name=other.name))
        self.players[player].name = text

    def set_hub(self, player: int, hub: str) -> None:
        """Choose the Station Hub; Hub residents that no longer fit are dropped."""
        hub = hub.strip().upper()
        if hub not in self.catalogue.hubs:
            raise FormError(_("there is no Station Hub {hub}").format(hub=hub))
        for i, other in enumerate(self.players):
            if i != player and other.hub == hub:
                raise FormError(_("{name} already has Hub {hub}; every player has their own "
                                  "Hub").format(name=other.name, hub=hub))
        entry = self.players[player]
        entry.hub = hub
        del entry.hub_residents[self.hub_quarters(player):]

    def set_number(self, player: int, key: str, value: int) -> None:
        """Set one of the counted values; only the score track may be negative (Hub A-12)."""
        if key not in NUMBER_FIELDS:
            raise KeyError(key)
        if value < 0 and key != "points":
            raise FormError(_("{field} cannot be negative").format(field=field_label(key)))
        if key == "ships_left" and value > MAX_SHIPS_LEFT:
            raise FormError(_("a player has at most {count} ships").format(
                count=MAX_SHIPS_LEFT))
        self.players[player].numbers[key] = value

    # hub residents ---------------------------------------------------------------------------
    def hub_quarters(self, player: int) -> int:
        """How many living quarters the player's Hub has (3 on B-11, 5 on A-11, else none)."""
        hub = self.players[player].hub
        if hub is None or hub not in self.catalogue.hubs:
            return 0
        return len(self.catalogue.hubs[hub].living_quarters)

    def hub_summary(self, hub: str, length: int = 40) -> str:
        """A Hub's theme from the catalogue, else the start of its first ability's text."""
        info = self.catalogue.hubs[hub]
        theme = info.fields["theme"].value
        text = theme.capitalize() if theme else (info.abilities[0].text if info.abilities else "")
        return text if len(text) <= length else text[:length - 1].rsplit(" ", 1)[0] + "…"

    def hub_quarter_species(self, player: int) -> list[list[str]]:
        """For each Hub living quarter, the species allowed there."""
        hub = self.players[player].hub
        if hub is None:
            return []
        return [list(q) for q in self.catalogue.hubs[hub].living_quarters]

    def add_hub_resident(self, player: int, species: str) -> None:
        """Put a resident on the Hub (B-11 / A-11), in a living quarter that takes its species."""
        _check_species(species)
        entry = self.players[player]
        if len(entry.hub_residents) >= self.hub_quarters(player):
            raise FormError(_("Hub {hub} has no free living quarter").format(hub=entry.hub))
        quarters = self.hub_quarter_species(player)
        if not _fits([*entry.hub_residents, species], quarters):
            kinds = ", ".join(sorted({species_label(s) for q in quarters for s in q}))
            raise FormError(_("Hub {hub} has no free living quarter for a {resident} (its "
                              "quarters take: {kinds})").format(
                                  hub=entry.hub, resident=species_label(species), kinds=kinds))
        entry.hub_residents.append(species)

    def remove_last_hub_resident(self, player: int) -> None:
        """Take the last-added resident off the Hub."""
        entry = self.players[player]
        if entry.hub_residents:
            entry.hub_residents.pop()

    # sectors ---------------------------------------------------------------------------------
    def sector_facts(self, number: int) -> tuple[int, str | None, int | None, bool, str]:
        """What the catalogue says: level, colour, quarters, bonus link unknown, bonus text."""
        info = self.catalogue.sectors.get(number)
        if info is None:
            raise FormError(_("there is no Sector {number} in the catalogue").format(
                number=number))
        quarters = info.quarters.value if info.quarters.known else None
        bonuses = list(self.catalogue.endgame_abilities(info)) if info.level == 3 else []
        unknown_link = bool(bonuses) and not all(_known(b.quarter) for b in bonuses)
        text = " ".join(getattr(b, "text", "") or "" for b in bonuses).strip()
        return info.level, info.color, quarters, unknown_link, text

    def add_sector(self, player: int, number: int, color: str | None = None) -> SectorEntry:
        """Build a Sector in a player's station; refuses duplicates and an occupied wing slot."""
        level, known_color, quarters, unknown_link, text = self.sector_facts(number)
        color = known_color or color
        if color is None:
            raise FormError(_("the catalogue does not know Sector {number}'s colour; choose "
                              "it").format(number=number))
        if color not in SECTOR_COLORS:
            raise FormError(_("a Sector is teal, pink or brown, not {colour}").format(
                colour=color))
        for i, other in enumerate(self.players):
            if any(s.number == number for s in other.sectors):
                if i == player:
                    raise FormError(_("Sector {number} is already in this station; there is "
                                      "only one tile").format(number=number))
                raise FormError(_("Sector {number} is already in {name}'s station; there is "
                                  "only one tile").format(number=number, name=other.name))
        entry = self.players[player]
        taken = entry.at(level, color)
        if taken is not None:
            raise FormError(_(
                "Sector {number} is Level-{level} {colour}, and this station already has "
                "Sector {taken} there; remove that one first").format(
                    number=number, level=level, colour=color_name(color), taken=taken.number))
        sector = SectorEntry(
            number=number, level=level, color=color, quarters=quarters,
            quarters_known=quarters is not None, needs_bonus_answer=unknown_link,
            bonus_text=text,
        )
        entry.sectors.append(sector)
        entry.sectors.sort(key=lambda s: (SECTOR_COLORS.index(s.color), s.level))
        return sector

    def remove_sector(self, player: int, number: int) -> None:
        """Take a Sector out of the station (with its residents)."""
        entry = self.players[player]
        entry.sectors.remove(entry.sector(number))

    def set_quarters(self, player: int, number: int, quarters: int) -> str | None:
        """Give the number of living quarters the catalogue does not know; it is remembered in
        the overlay (when the form has one) so it is known next time. Returns why it could not
        be remembered, or None."""
        sector = self.players[player].sector(number)
        if sector.quarters_known:
            raise FormError(_("the catalogue already says Sector {number} has {count} living "
                              "quarters").format(number=number, count=sector.quarters))
        if not 1 <= quarters <= 9:
            raise FormError(_("a Sector has between 1 and 9 living quarters"))
        if quarters < len(sector.residents):
            raise FormError(_("Sector {number} already has {count} residents; remove some "
                              "first").format(number=number, count=len(sector.residents)))
        sector.quarters = quarters
        if self.overlay is None:
            return None
        from companion.catalogue_files import set_user_value

        try:
            set_user_value(self.overlay, "sectors", str(number), "quarters", quarters)
        except (OSError, ValueError) as error:  # CatalogueError is a ValueError
            return _("Sector {number}'s living quarters could not be remembered: {error}").format(
                number=number, error=error)
        return None

    def add_resident(self, player: int, number: int, species: str) -> None:
        """Put a resident in the next free living quarter (left to right)."""
        _check_species(species)
        sector = self.players[player].sector(number)
        if sector.quarters is None:
            raise FormError(_("first say how many living quarters Sector {number} has").format(
                number=number))
        if sector.full:
            raise FormError(_("all {count} living quarters of Sector {number} are taken").format(
                count=sector.quarters, number=number))
        sector.residents.append(species)

    def remove_last_resident(self, player: int, number: int) -> None:
        """Take the rightmost resident out of a Sector."""
        sector = self.players[player].sector(number)
        if sector.residents:
            sector.residents.pop()

    def set_bonus_active(self, player: int, number: int, active: bool) -> None:
        """Answer whether a Level-3 Sector's endgame-bonus quarters are occupied."""
        self.players[player].sector(number).bonus_active = bool(active)

    # whole form ------------------------------------------------------------------------------
    def missing(self) -> Problem | None:
        """The first thing not entered yet, in reading order, or None."""
        for i, p in enumerate(self.players):
            if p.hub is None:
                return Problem(_("{name}: choose the Station Hub").format(name=p.name), i, "hub")
            for key in NUMBER_FIELDS:
                if p.numbers[key] is None:
                    return Problem(_("{name}: enter {field} (0 if none)").format(
                        name=p.name, field=field_label(key)), i, key)
            for s in p.sectors:
                if s.quarters is None:
                    return Problem(_(
                        "{name}: Sector {number}: how many living quarters does it have? Open "
                        "the Sector and enter them").format(name=p.name, number=s.number),
                        i, "sectors", (s.number,))
                if s.needs_bonus_answer and s.bonus_active is None:
                    return Problem(_(
                        "{name}: Sector {number}: are the living quarters of its endgame bonus "
                        "occupied? Open the Sector and answer Yes or No").format(
                            name=p.name, number=s.number), i, "sectors", (s.number,))
        return None

    def to_position(self) -> dict:
        """The position dict (the `score` JSON format) of what has been entered."""
        players = []
        for p in self.players:
            raw: dict[str, Any] = {"name": p.name, "hub": p.hub}
            raw.update({k: v for k, v in p.numbers.items() if v is not None})
            if p.hub_residents:
                raw["hub_residents"] = list(p.hub_residents)
            sectors = []
            for s in p.sectors:
                sector: dict[str, Any] = {"number": s.number, "level": s.level, "color": s.color}
                if s.quarters is not None:
                    sector["quarters"] = s.quarters
                sector["residents"] = list(s.residents)
                if s.bonus_active is not None:
                    sector["endgame_bonus_active"] = s.bonus_active
                sectors.append(sector)
            raw["sectors"] = sectors
            players.append(raw)
        return {"players": players}

    def evaluate(self) -> Outcome:
        """Check everything and score it; never raises for bad entries."""
        from companion.rules.position import PositionError
        from companion.rules.report import score_position

        problem = self.missing()
        if problem is not None:
            return Outcome(problem=problem)
        position = self.to_position()
        try:
            return Outcome(sheet=score_position(position, self.catalogue))
        except PositionError as error:
            return Outcome(problem=self.locate(error, position))

    def locate(self, error: PositionError, position: Mapping | None = None) -> Problem:
        """Turn a PositionError into a Problem: which player (its `index`, else the player of
        that name), which field, plain words (its `message`)."""
        position = position if position is not None else self.to_position()
        detail = error.message
        player = self._player_index(error.index, str(error.player))
        raw_field = str(error.field)
        key, numbers, label = _field_key(raw_field, player, position)
        if key == "sectors" and not numbers:
            numbers = tuple(error.sectors)
        if player is None:
            return Problem(f"{detail[:1].upper()}{detail[1:]}", None, None, ())
        name = self.players[player].name
        return Problem(f"{name}: {label}: {detail}", player, key, numbers)

    def _player_index(self, index: int | None, who: str) -> int | None:
        if index is not None:
            return index if 0 <= index < len(self.players) else None
        return next((i for i, p in enumerate(self.players) if p.name == who.strip()), None)

    def save(self, path: Path) -> None:
        """Write what has been entered to a file (the `score` JSON format), atomically."""
        write_text_atomically(path, json.dumps(self.to_position(), indent=1,
                                               ensure_ascii=False))

    def restore(self, path: Path) -> bool:
        """Fill the form from a file `save` wrote; False (the form unchanged) when there is
        none or it cannot be shown."""
        try:
            self.load_position(json.loads(Path(path).read_text(encoding="utf-8")))
        except (OSError, ValueError):  # FormError and a damaged file are ValueErrors
            return False
        return True

    def load_position(self, data: Any) -> None:
        """Fill the form from a position (e.g. a JSON file); FormError if it cannot be shown."""
        if not isinstance(data, Mapping) or not isinstance(data.get("players"), list):
            raise FormError(_('this is not a position file: expected {example}').format(
                example='{"players": [...]}'))
        raw_players = data["players"]
        if not MIN_PLAYERS <= len(raw_players) <= MAX_PLAYERS:
            raise FormError(_("the file has {count} players; the game is for {least} to "
                              "{most}").format(count=len(raw_players), least=MIN_PLAYERS,
                                               most=MAX_PLAYERS))
        form = ScoreForm(self.catalogue, len(raw_players))
        for i, raw in enumerate(raw_players):
            _load_player(form, i, raw)
        self.players = form.players


def _load_player(form: ScoreForm, i: int, raw: Any) -> None:
    if not isinstance(raw, Mapping):
        raise FormError(_("player {number} is not a player record").format(number=i + 1))
    entry = form.players[i]
    name = raw.get("name")
    label = name if isinstance(name, str) and name.strip() else _("player {number}").format(
        number=i + 1)
    if isinstance(name, str) and name.strip():
        entry.name = " ".join(name.split())
    hub = raw.get("hub")
    if isinstance(hub, str) and hub.strip().upper() in form.catalogue.hubs:
        entry.hub = hub.strip().upper()
    elif hub is not None:
        raise FormError(_("{player}: unknown Station Hub {hub} (B-1..B-12, A-1..A-12)").format(
            player=label, hub=repr(hub)))
    for key in NUMBER_FIELDS:
        value = raw.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise FormError(_("{player}: {field} is {value}, not a whole number").format(
                player=label, field=field_label(key), value=repr(value)))
        entry.numbers[key] = value
    entry.hub_residents = _load_species(label, field_label("hub_residents"),
                                        raw.get("hub_residents", []))
    sectors = raw.get("sectors", [])
    if not isinstance(sectors, list):
        raise FormError(_("{player}: the Sectors are not a list").format(player=label))
    for raw_sector in sectors:
        _load_sector(form, i, label, raw_sector)


def _load_sector(form: ScoreForm, i: int, label: str, raw: Any) -> None:
    if not isinstance(raw, Mapping):
        raise FormError(_("{player}: a Sector is not a Sector record").format(player=label))
    number = raw.get("number")
    if isinstance(number, bool) or not isinstance(number, int):
        raise FormError(_("{player}: a Sector number is {value}, not a whole number").format(
            player=label, value=repr(number)))
    level, known_color = _facts_or_error(form, label, number)[:2]
    if raw.get("level", level) != level:
        raise FormError(_("{player}: Sector {number} is a Level-{level} Sector, not {value}")
                        .format(player=label, number=number, level=level,
                                value=repr(raw.get("level"))))
    color = raw.get("color", known_color)
    if known_color is not None and color != known_color:
        raise FormError(_("{player}: the catalogue has Sector {number} as {colour}, not "
                          "{value}").format(player=label, number=number,
                                            colour=color_name(known_color), value=color))
    try:
        sector = form.add_sector(i, number, color)
    except FormError as error:
        raise FormError(_("{player}: {problem}").format(player=label, problem=error)) from None
    quarters = raw.get("quarters")
    if quarters is not None:
        if isinstance(quarters, bool) or not isinstance(quarters, int) or quarters < 0:
            raise FormError(_("{player}: Sector {number} living quarters is {value}").format(
                player=label, number=number, value=repr(quarters)))
        if sector.quarters_known and quarters != sector.quarters:
            raise FormError(_("{player}: the catalogue has {count} living quarters for Sector "
                              "{number}, not {value}").format(
                                  player=label, count=sector.quarters, number=number,
                                  value=quarters))
        sector.quarters = quarters
    sector.residents = _load_species(label, _("Sector {number}").format(number=number),
                                     raw.get("residents", []))
    if sector.quarters is not None and len(sector.residents) > sector.quarters:
        raise FormError(_("{player}: Sector {number} has {count} residents but only {quarters} "
                          "living quarters").format(player=label, number=number,
                                                    count=len(sector.residents),
                                                    quarters=sector.quarters))
    active = raw.get("endgame_bonus_active")
    if active is not None:
        if not isinstance(active, bool):
            raise FormError(_("{player}: Sector {number} endgame_bonus_active must be true or "
                              "false").format(player=label, number=number))
        sector.bonus_active = active
        sector.needs_bonus_answer = sector.needs_bonus_answer or sector.level == 3


def _facts_or_error(form: ScoreForm, label: str, number: int) -> tuple:
    try:
        return form.sector_facts(number)
    except FormError as error:
        raise FormError(_("{player}: {problem}").format(player=label, problem=error)) from None


def _load_species(label: str, where: str, raw: Any) -> list[str]:
    if not isinstance(raw, list):
        raise FormError(_("{player}: {where}: the residents are not a list").format(
            player=label, where=where))
    for species in raw:
        if species not in SPECIES:
            raise FormError(_("{player}: {where}: unknown resident {value} (teal, pink, brown, "
                              "gold, human)").format(player=label, where=where,
                                                     value=repr(species)))
    return list(raw)


def save_path(folder: Path, text: str) -> Path:
    """Where "Save" writes a position named `text` in `folder` (refuses an empty name, the
    autosave's and a file that is already there)."""
    stem = re.sub(r"[^\w]+", "-", text.strip().lower()).strip("-")
    if not stem:
        raise FormError(_("type a name for the file"))
    path = Path(folder) / f"{stem}.json"
    if path.name == AUTOSAVE_NAME:
        raise FormError(_("{file} keeps the entries of the form; choose another name").format(
            file=path.name))
    if path.exists():
        raise FormError(_("there is already a file {file}; choose another name").format(
            file=path.name))
    return path


def _fits(residents: list[str], quarters: list[list[str]]) -> bool:
    """Whether each resident can have its own living quarter that takes its species."""
    return any(all(r in quarters[q] for r, q in zip(residents, places, strict=True))
               for places in itertools.permutations(range(len(quarters)), len(residents)))


def _check_species(species: str) -> None:
    if species not in SPECIES:
        raise FormError(_("unknown resident {value}").format(value=repr(species)))


def _known(value: Any) -> bool:
    return bool(getattr(value, "known", value is not None))


def _field_key(
    raw_field: str, player: int | None, position: Mapping
) -> tuple[str | None, tuple[int, ...], str]:
    """Map a PositionError field ("sectors[2] (Sector 308).residents") to the form's field."""
    match = re.match(r"sectors\[(\d+)\]", raw_field)
    if match:
        index = int(match.group(1))
        number = None
        with contextlib.suppress(KeyError, IndexError, TypeError):
            number = position["players"][player]["sectors"][index]["number"]
        part = raw_field.rsplit(".", 1)[-1] if "." in raw_field else ""
        what = i18n._(SECTOR_PARTS[part]) if part in SECTOR_PARTS else ""
        label = (_("Sector {number} {part}").format(number=number, part=what).strip()
                 if number is not None else _("a Sector"))
        return "sectors", ((number,) if isinstance(number, int) else ()), label
    key = raw_field if raw_field in FIELD_LABELS else None
    return key, (), field_label(raw_field)
