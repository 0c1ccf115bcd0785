"""What the table screen shows (plain Python, tested without Kivy), built
only from the state and the engine's `options`: the UI never decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.i18n import _, ngettext
from companion.rules import words
from companion.rules.message import say
from companion.rules.option_types import EndNow, ShipEntry, TableOptions
from companion.rules.state import Event, State, count
from companion.rules.words import ALIEN_COLORS, TRACKS
from companion.ui.kit.wording import ALIEN_LETTERS, LETTERS, track_short
from companion.ui.play.flows.choices import turn_player


def ship_short(kind: str) -> str:
    """A ship type's short name on its tile ("Expedition"), in the language spoken now."""
    return _("Expedition") if kind == "expedition" else words.ship_name(kind)


NEUTRAL = "Neutral"  # ShipButton.level of a neutral ship
COUNTER_NAMES = (("gems", "GEMs"), ("food", "food"), ("water", "water"), ("metal", "metal"),
                 ("points", "points"))
# A ship tile's least width and height, the height it grows to where there is room, and the
# gap between tiles (in the table's fixed unit: at a bigger screen more tiles, not bigger ones)
TILE_WIDTH, TILE_HEIGHT, TILE_TALL, TILE_GAP = 92, 48, 56, 2


@dataclass(frozen=True)
class ShipButton:
    """One ship as a button: its name, whether it can be used now and why not."""

    ship_id: str
    kind: str  # "Construction"
    level: str  # "L1", or "Neutral"
    usable: bool
    reason: str
    marker: str  # whose Action marker is on it ("" when unused)
    token: str  # for a neutral ship: who holds its Neutral Ship token ("" when nobody)

    @property
    def label(self) -> str:
        """Its name in a sentence: "Farm L2", "Neutral Dismantle"."""
        return (_("Neutral {ship}").format(ship=self.kind) if self.level == NEUTRAL
                else f"{self.kind} {self.level}")


@dataclass(frozen=True)
class PlayerRow:
    """One player's counters, Diplomacy levels and ships."""

    name: str
    color: str
    active: bool
    counters: dict[str, int]
    diplomacy: str
    ships: list[ShipButton]


@dataclass
class TableView:
    """Everything the table screen shows."""

    heading: str  # "Turn 9 · choose a ship or Income"
    active: str
    active_color: str
    players: list[PlayerRow]
    neutral: list[ShipButton]
    supply: str
    end: str
    next_allowed: bool
    next_reason: str
    income_allowed: bool
    income_reason: str


def ship_button(entry: ShipEntry, state: State) -> ShipButton:
    """A ship of options()["ships"] as a button."""
    ship = state["ships"][entry["ship"]]
    used_by = ship["used_by"]
    marker = state["players"][used_by]["name"] if used_by is not None else ""
    token = next((p["name"] for p in state["players"] if p["neutral_token"] == entry["ship"]), "")
    level = NEUTRAL if entry["owner"] is None else entry["design"].split("-", 1)[0]
    return ShipButton(entry["ship"], ship_short(entry["type"]), level,
                      bool(entry["usable"]), entry["reason"] or "", marker, token)


@dataclass(frozen=True)
class ShipGrid:
    """How a player's ships are laid out in their place: columns, and each tile's size."""

    cols: int
    width: float
    height: float


def ship_grid(count: int, width: float, height: float, least_cols: int = 1) -> ShipGrid:
    """The ships' grid in a place `width` x `height`: as many columns of at least TILE_WIDTH as
    fit; more, narrower ones where the rows that fit (at least TILE_HEIGHT each) would not hold
    `count` ships; `least_cols` at least (the table gives every player's row as many). Tiles
    TILE_TALL high where there is room, never less than TILE_HEIGHT."""
    fit_cols = max(1, int((width + TILE_GAP) // (TILE_WIDTH + TILE_GAP)))
    fit_rows = max(1, int((height + TILE_GAP) // (TILE_HEIGHT + TILE_GAP)))
    cols = fit_cols if -(-count // fit_cols) <= fit_rows else -(-count // fit_rows)
    cols = max(cols, least_cols)
    rows = max(1, -(-count // cols))
    tall = (height - TILE_GAP * (rows - 1)) / rows
    return ShipGrid(cols, (width - TILE_GAP * (cols - 1)) / cols,
                    max(TILE_HEIGHT, min(TILE_TALL, tall)))


def end_text(end: EndNow, condition: str = "") -> str:
    """The end status in words, led by the condition that triggered it ("Cat has 41 points (40
    or more): final round, 2 more turns after this one")."""
    if end["over"]:
        return _("The game is over.")
    if end["triggered_by"] is None:
        return ""
    left = len(end["final_turns"])
    after = (ngettext("{count} more turn after this one", "{count} more turns after this one",
                      left).format(count=left) if left
             else _("this is the last turn"))
    condition = condition or _("End triggered by {player}").format(player=end["triggered_by"])
    return _("{condition}: final round, {after}").format(condition=condition, after=after)


def supply_text(supply: Mapping[str, object]) -> str:
    """The supply in two short lines for the table's side column, each species by the letter
    its residents' dots carry (H: Humans): "Supply · H 20\nT18 P15 B18 G17"."""
    aliens = " ".join(f"{ALIEN_LETTERS[colour]}{supply[colour]}" for colour in ALIEN_COLORS)
    humans = f"{LETTERS['human']} {supply['human']}"
    return _("Supply · {humans}").format(humans=humans) + "\n" + aliens


def amount_markup(number: int, counter: str, size: int) -> str:
    """A number of a counter for a label with markup: the number `size` px, its word in the
    label's (smaller) size, so that "12 Pflanzen" fits where "12 food" does:
    "[size=24]12[/size] food"."""
    return words.amount(counter, number, shown=f"[size={size}]{number}[/size]")


def changed_numbers(before: TableView | None, after: TableView) -> set[tuple[str, str]]:
    """The numbers that changed from one view to the next, as (player, counter) pairs, with
    "diplomacy" for a player's tracks and ("", "supply") for the supply; none the first time."""
    if before is None:
        return set()
    old = {row.name: row for row in before.players}
    changed = {("", "supply")} if before.supply != after.supply else set()
    for row in after.players:
        was = old.get(row.name)
        if was is None:
            continue
        changed |= {(row.name, key) for key, value in row.counters.items()
                    if was.counters.get(key) != value}
        if was.diplomacy != row.diplomacy:
            changed.add((row.name, "diplomacy"))
    return changed


def table_view(state: State, opts: TableOptions, condition: str = "") -> TableView:
    """The table screen from the state, options(state, catalogue) and the condition that
    triggered the end (trigger_condition)."""
    turn = opts["turn"]
    active = turn_player(opts)
    colors = {p["name"]: p["color"] for p in state["players"]}
    buttons = [ship_button(entry, state) for entry in opts["ships"]]
    owners = {entry["ship"]: entry["owner"] for entry in opts["ships"]}
    players = []
    for me in state["players"]:
        players.append(PlayerRow(
            me["name"], me["color"], me["name"] == active,
            {key: count(me, key) for key, _word in COUNTER_NAMES},
            "  ".join(f"{track_short(t)} {me['diplomacy'][t]}" for t in TRACKS),
            [b for b in buttons if owners[b.ship_id] == me["name"]]))
    heading = (_("Turn {number} · Next ends the turn") if turn["acted"]
               else _("Turn {number} · choose a ship or Income"))
    return TableView(
        heading=heading.format(number=turn["number"]),
        active=active, active_color=colors[active], players=players,
        neutral=[b for b in buttons if owners[b.ship_id] is None],
        supply=supply_text(state["supply"]), end=end_text(opts["end"], condition),
        next_allowed=bool(opts["end_turn"]["allowed"]),
        next_reason=opts["end_turn"]["reason"] or "",
        income_allowed=bool(opts["income"]["allowed"]),
        income_reason=opts["income"]["reason"] or "")


def trigger_condition(steps: Sequence[Any]) -> str:
    """The condition that triggered the end ("Ann has 41 points (40 or more)"), in the language
    spoken now: the conditions the engine's end_triggered event carries as data, looked for from
    the newest step back; "" when there is none (call it once the end is triggered:
    options()["end"]["triggered_by"]), or when the event was stored before events carried
    messages (its text is not taken apart: end_text names the player instead)."""
    for step in reversed(steps):
        for event in step.events:
            if event["type"] == Event.END_TRIGGERED:
                conditions = event.get("message", {}).get("params", {}).get("conditions")
                return "" if conditions is None else say(conditions)
    return ""
