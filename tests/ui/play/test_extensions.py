"""One table per extension: a ship action is its flow in `ships.FLOWS` (beside `ACTION_OPTIONS`
and `actions.ACTIONS` in the rules), a bonus action's details are a `BonusDetail` in
`options.BONUS_DETAILS` and an entry in `parts.ENTRIES`. Every registered kind has every
behaviour, and a kind registered in those tables alone (a toy, monkeypatched in) is offered,
entered, asked on its panel, shown on its income card and sent, with no other module edited."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "rules"))

from tables import Table

from companion.rules import abilities, actions, commands, effects, gains, ledger, options
from companion.rules.catalogue import Ability
from companion.rules.catalogue.schema import ALL_SHIP_TYPES
from companion.rules.commands import attempt
from companion.rules.words import RESOURCES
from companion.ui.play import flows
from companion.ui.play.action_model import ActionModel, BonusModel
from companion.ui.play.flows.choices import Button, Entry, Panel
from companion.ui.play.flows.income import income_flow
from companion.ui.play.flows.parts import ENTRIES, Picks
from companion.ui.play.flows.ships import FLOWS, GainFlow, ship_flow
from companion.ui.play.income_model import power_cards

RICH = {"gems": 30, "food": 6, "water": 6, "metal": 20, "points": 0}


def overridden(cls: type, name: str, base: type = Entry) -> bool:
    """Whether `cls` has its own `name`, not the base's (which asks a subclass for it)."""
    return next(k for k in cls.__mro__ if name in vars(k)) is not base


# -- every kind registered has every behaviour ----------------------------------------------------


def test_every_bonus_kind_has_its_effect_offer_and_entry():
    names = set()
    for kind, detail in options.BONUS_DETAILS.items():
        assert kind in effects.KINDS and not effects.KINDS[kind].modifier, kind
        assert kind in abilities.EFFECTS, f"{kind}: no effect carries it out"
        assert callable(detail.offer) and callable(detail.asked), kind
        assert detail.name in ENTRIES, f"{kind}: no entry for its detail {detail.name!r}"
        names.add(detail.name)
    assert set(ENTRIES) == names, "an entry no bonus action asks for"


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_every_entry_has_its_panel_acts_card_and_details(name):
    entry = ENTRIES[name]
    for method in ("offered", "panel", "detail", "entry_lines"):
        assert overridden(entry, method), f"{name}: {entry.__name__} lacks {method}"
    assert entry.ACTS, f"{name}: its buttons do nothing"
    for act, method in entry.ACTS.items():
        assert callable(getattr(entry, method, None)), f"{name}: act {act!r} -> {method}"
    assert entry.CARD in ("pick", "entry"), f"{name}: income shows cards 'pick' or 'entry'"
    if entry.CARD == "pick":  # one tap on the card: its choices, and the tap's answer
        assert overridden(entry, "card_choices") and overridden(entry, "answer"), name
    if issubclass(entry, Picks):
        assert overridden(entry, "question", Picks) and overridden(entry, "label", Picks), name


def test_every_ship_type_has_its_action_offer_and_flow():
    assert set(FLOWS) == set(options.ACTION_OPTIONS) == set(actions.ACTIONS) == set(
        ALL_SHIP_TYPES)
    for kind, flow in FLOWS.items():
        for act, method in flow.ACTS.items():
            assert callable(getattr(flow, method, None)), f"{kind}: act {act!r} -> {method}"
        if issubclass(flow, Entry):  # it asks what the entry asks
            assert overridden(flow, "action_panel", flows.ships.ShipFlow), kind


# -- a toy bonus kind, registered in the tables alone -------------------------------------------

# The toy's detail: a list of one resource, a shape the command's `bonus` already takes
# (commands.BONUS; a detail of a new shape is one more entry there).
TOY_DETAIL = commands.ListOf(commands.Text("a resource", RESOURCES))


def toy_effect(move, player: int, source: str, params: Any, context: Any, why: str) -> None:
    """The toy's behaviour: gain the resource the bonus names."""
    [resource] = gains.bonus_detail(move, source, "resource", TOY_DETAIL)
    ledger.gain(move, player, {resource: params["amount"]}, why)


def toy_offer(at: options.BonusAt) -> dict:
    """The toy's offer: each resource, with the engine's verdict."""
    return at.picks([{"detail": [r], "amount": at.params["amount"]} for r in RESOURCES])


class ToyPick(Picks):
    """The toy's entry: one tap on a resource."""

    def question(self) -> str:
        return "{title}: which resource?"

    def label(self, choice: dict) -> str:
        return f"{choice['amount']} {choice['detail'][0]}"


@pytest.fixture
def toy(monkeypatch, table_catalogue) -> Table:
    """The toy bonus kind in the tables (its vocabulary, effect, offer and entry), on Ann's Hub
    B-5 at income; Ann to play, rich."""
    monkeypatch.setitem(effects.KINDS, "toy_gain", effects.EffectKind(
        {"amount": (effects.whole(1), True)}, "gain `amount` of a resource chosen (a toy)"))
    monkeypatch.setitem(abilities.EFFECTS, "toy_gain", toy_effect)
    monkeypatch.setitem(options.BONUS_DETAILS, "toy_gain",
                        options.BonusDetail("toy", toy_offer))
    monkeypatch.setitem(ENTRIES, "toy", ToyPick)
    power = Ability("income", "toy_gain", {"amount": 2}, "Gain 2 of one resource (a toy).")
    hubs = {**table_catalogue.hubs,
            "B-5": dataclasses.replace(table_catalogue.hubs["B-5"], abilities=(power,))}
    table = Table(dataclasses.replace(table_catalogue, hubs=hubs), hubs=("B-5", "B-3"))
    table.setup_bonuses()
    table.set("Ann", **RICH)
    return table


def test_a_toy_bonus_kind_is_offered_entered_and_sent_through_the_tables(toy):
    [need] = options.options(toy.state, toy.catalogue)["income"]["powers"]
    assert (need["source"], need["bonus"]) == ("B-5", "toy")
    offer = options.bonus_offer(toy.state, toy.catalogue, "B-5", "toy_gain")
    assert [(c["detail"], c["allowed"]) for c in offer["choices"]] == [
        (["food"], True), (["water"], True), (["metal"], True)]

    flow = income_flow(toy.state, toy.catalogue)
    assert isinstance(flow.abilities.entry("B-5"), ToyPick)
    [card] = power_cards(flow)
    assert (card.kind, [c.label for c in card.choices]) == ("pick", [
        "2 food", "2 water", "2 metal"])
    bonus = BonusModel(flow.abilities, "B-5")
    panel = bonus.panel("Income")
    assert panel.title == "Income: Hub B-5: which resource?"
    assert [b.tag for b in panel.buttons] == ["pick:['food']", "pick:['water']",
                                              "pick:['metal']"]
    assert bonus.press(panel.buttons[1].act) == "" and bonus.press(("finish",)) == ""
    assert bonus.panel("Income") is None and flow.abilities.questions() == []
    assert flow.command()["bonus"] == {"B-5": ["water"]}
    assert "Hub B-5: 2 water" in flow.preview()

    assert bonus.answer(["metal"]) == ""  # the card's one tap: again, it replaces
    outcome = attempt(toy.game, {**flow.command(), "override": "test: no used ship"})
    assert outcome.step is not None, outcome.refused or outcome.question
    ann = toy.player("Ann")
    assert (ann["water"], ann["metal"]) == (RICH["water"], RICH["metal"] + 2)


# -- a toy ship flow, registered in FLOWS alone --------------------------------------------------


class ToyFarmFlow(GainFlow):
    """A Farm that asks first whether the player is sure (a toy question)."""

    ACTS: ClassVar[Mapping[str, str]] = {"sure": "be_sure"}

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.sure = False

    def be_sure(self, sure: bool) -> None:
        self.sure = sure

    def action_panel(self, title: str) -> Panel | None:
        return None if self.sure else Panel(f"{title}: sure?", [
            Button("toy:yes", "Yes", ("sure", True))])


def test_a_toy_ship_flow_asks_its_own_panel_through_the_action_model(table, monkeypatch):
    monkeypatch.setitem(FLOWS, "farm", ToyFarmFlow)
    table.set("Ann", gems=30)
    model = ActionModel(partial(ship_flow, table.state, table.catalogue, "Ann:L2-farm"))
    panel = model.panel()
    assert panel.title == "Ann uses Farm L2: sure?"
    assert model.press(panel.buttons[0].act) == ""
    assert model.panel().title == "Ann uses Farm L2: confirm?"
    outcome = attempt(table.game, model.flow.command())
    assert outcome.step is not None, outcome.refused or outcome.question
