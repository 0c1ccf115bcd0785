"""What waits outside a ship's action: each player's Diplomacy bonus to choose, and the Hub
powers usable between actions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules import commands
from companion.rules.catalogue import Catalogue
from companion.rules.option_types import HubPowerOption, PendingChoice
from companion.rules.options import options
from companion.rules.state import State
from companion.ui.kit.wording import ability_line
from companion.ui.play.flows.abilities import Abilities, bonus_label
from companion.ui.play.flows.choices import Choice, choose_among


@dataclass(frozen=True)
class BonusPrompt:
    """One player's Diplomacy bonus choice (already given ones are automatic, not asked). A
    level whose bonus the catalogue lacks is offered too: choosing it, the engine asks what it
    gives (sent with `send`, answered like a ship's missing value)."""

    player: str
    track: str
    choices: list[Choice]

    def command(self, levels: list[int]) -> commands.DiplomacyBonus:
        return commands.diplomacy_bonus(self.player, choose_among(self.choices, levels).value)


def in_turn_order(state: State, pending: Sequence[PendingChoice]) -> list[PendingChoice]:
    """The Diplomacy bonuses waiting, in the order the table asks them: in turn order from the
    active player."""
    names = [p["name"] for p in state["players"]]
    active = state["turn"]["active"] or 0
    order = names[active:] + names[:active]
    return sorted(pending, key=lambda choice: order.index(choice["player"]))


def bonus_prompts(state: State, catalogue: Catalogue) -> list[BonusPrompt]:
    """The Diplomacy bonus choices waiting, in turn order from the active player."""
    return [BonusPrompt(p["player"], p["track"], [
        Choice(o["levels"], bonus_label(o["levels"], o["gives"])) for o in p["options"]])
        for p in in_turn_order(state, options(state, catalogue)["pending"])]


class HubPowerFlow:
    """A Hub power used outside the main action (A-1, B-6): allowed or why not, what it asks."""

    def __init__(self, entry: HubPowerOption) -> None:
        self.player: str = entry["player"]
        self.power = Choice(entry["source"], ability_line(entry["source"], entry["text"]),
                            entry["allowed"], entry["reason"])
        self.abilities = Abilities([entry])
        if entry["optional"]:
            self.abilities.use(entry["source"])

    def command(self) -> commands.HubPower:
        return commands.hub_power(self.player, self.power.value, **self.abilities.fields())


def hub_power_flows(state: State, catalogue: Catalogue) -> list[HubPowerFlow]:
    """Every player's Hub powers that can be used outside the main action."""
    return [HubPowerFlow(entry) for entry in options(state, catalogue)["hub_powers"]]
