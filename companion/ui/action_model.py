"""What the action screen shows (plain Python, tested without Kivy): a ship's flow (flows.py) as
one panel per decision, then its preview, a refusal with its rule, and the Diplomacy bonus
prompts. Every rule comes from the flow, that is from the engine's `options`.

    model = ActionModel(ship_flow(state, catalogue, ship_id))
    panel = model.panel()             # title, buttons (each with an `act`), lines
    model.press(panel.buttons[0].act) # "" or the reason in words
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.rules.words import SHIP_NAMES, TRACK_NAMES
from companion.ui.flows import (
    BonusPrompt,
    ConstructionFlow,
    DiplomacyFlow,
    DismantleFlow,
    ExpeditionFlow,
    FlowError,
    Outcome,
    ShipFlow,
    TappedDice,
    TransportFlow,
)
from companion.ui.table_model import ALIEN_LETTERS


@dataclass(frozen=True)
class Button:
    """A big button: its text, what pressing it does, whether it can be pressed now (or why
    not), and whether it is on (a kept die, a chosen track)."""

    tag: str
    label: str
    act: tuple
    allowed: bool = True
    reason: str = ""
    on: bool = False


@dataclass(frozen=True)
class Panel:
    """One decision: the question, its buttons, and lines to read (a running list, the
    preview, the engine's reason)."""

    title: str
    buttons: list[Button]
    lines: list[str] = field(default_factory=list)
    cols: int = 1


def ship_title(flow: ShipFlow) -> str:
    """'Ann uses Construction L1' / 'Ann uses the neutral Transport'."""
    ship = flow.ship
    name = SHIP_NAMES[ship["type"]]
    if ship["owner"] is None:
        return f"{flow.player} uses the neutral {name}"
    whose = "" if ship["owner"] == flow.player else f"{ship['owner']}'s "
    return f"{flow.player} uses {whose}{name} {ship['design'][:2]}"


def prompt_panel(prompt: BonusPrompt, color: str) -> Panel:
    """A player's Diplomacy bonus choice as big buttons."""
    return Panel(f"{prompt.player} ({color}): {TRACK_NAMES[prompt.track]} Diplomacy bonus - "
                 "choose one",
                 [Button(f"bonus:{i}", c.label, ("bonus", c.value), c.allowed, c.reason or "")
                  for i, c in enumerate(prompt.choices)])


class ActionModel:
    """A ship's flow, one decision at a time: the action's own questions, the abilities', the
    preview (Confirm / Back), and a refusal to override. "confirm", "override" and "back" are
    the screen's to do (Back starts the ship's flow afresh)."""

    def __init__(self, flow: ShipFlow) -> None:
        self.flow = flow
        self.acted = False  # the action's own panels are answered
        self.dice = TappedDice()
        self.kept = False  # Expedition: the dice kept are chosen
        self.decided: set[str] = set()  # optional abilities answered Yes or No
        self.outcome: Outcome | None = None  # the engine refused the command

    # -- what to show ----------------------------------------------------------------------

    def panel(self) -> Panel:
        title = ship_title(self.flow)
        if self.outcome is not None:
            return Panel(f"{title}: refused", [
                Button("action:override", "Override…", ("override",)),
                Button("action:back", "Back", ("back",))],
                [f"“{self.outcome.refused}”"])
        if not self.acted:
            found = self.action_panel(title)
            if found is not None:
                return found
            self.acted = True
        asked = self.ability_panel(title)
        if asked is not None:
            return asked
        return Panel(f"{title}: confirm?", [
            Button("action:confirm", "Confirm", ("confirm",)),
            Button("action:back", "Back", ("back",))], self.flow.preview(), cols=2)

    def action_panel(self, title: str) -> Panel | None:
        """The action's own question now (None: nothing left to ask)."""
        flow = self.flow
        if isinstance(flow, ConstructionFlow) and flow.sector is None:
            return Panel(f"{title}: which Sector?", choice_buttons("sector", flow.sectors),
                         cols=2)
        if isinstance(flow, DismantleFlow) and flow.target is None:
            return Panel(f"{title}: which ship is dismantled?",
                         choice_buttons("target", flow.targets))
        if isinstance(flow, DiplomacyFlow):
            most = "" if flow.most is None else f" (up to {flow.most})"
            return Panel(f"{title}: lobby on which track{most}?", [
                *(Button(b.tag, b.label, b.act, b.allowed, b.reason, b.act[1] in flow.chosen)
                  for b in choice_buttons("track", flow.tracks)),
                self.done(not flow.chosen, "choose a track")])
        if isinstance(flow, TransportFlow):
            return transport_panel(title, flow, self.done(not flow.items, "add a transaction"))
        if isinstance(flow, ExpeditionFlow):
            return self.expedition_panel(title, flow)
        return None

    def done(self, blocked: bool, why: str) -> Button:
        return Button("action:done", "Done", ("done",), not blocked, why if blocked else "")

    def expedition_panel(self, title: str, flow: ExpeditionFlow) -> Panel:
        roll = f"Roll {flow.dice} · keep {flow.capacity}"
        if flow.reading is None:
            entered = len(self.dice.faces)
            buttons = [b for face in flow.faces for b in (
                Button(f"die:{face}", f"{face}: {self.dice.counts.get(face, 0)}",
                       ("die", face, 1)),
                Button(f"die-less:{face}", f"{face} −1", ("die", face, -1)))]
            return Panel(f"{title}: {roll}", [*buttons, Button(
                "action:dice", f"These {entered} dice", ("read",), entered == flow.dice,
                f"enter the {flow.dice} dice rolled ({entered} entered)")],
                ["Tap a face once per die showing it."], cols=2)
        if not self.kept:
            rolled = Counter(flow.reading.faces)
            buttons = [b for face in flow.faces if rolled[face] for b in (
                Button(f"keep:{face}", f"keep {face}: {flow.kept[face]} of {rolled[face]}",
                       ("keep", face, 1), on=bool(flow.kept[face])),
                Button(f"keep-less:{face}", f"{face} −1", ("keep", face, -1)))]
            if flow.rerolls < flow.rerolls_allowed:
                buttons.append(Button("action:reroll", "Reroll", ("reroll",)))
            buttons.append(Button("action:kept", "Keep these", ("kept",),
                                  bool(flow.kept.total()), "keep at least one die"))
            return Panel(f"{title}: {roll} · which dice are kept?", buttons,
                         [f"Rolled: {', '.join(flow.reading.faces)}"], cols=2)
        for index, plan in enumerate(flow.humans):
            if plan is None:
                return Panel(f"{title}: Human {index + 1}: observe or recruit?",
                             human_buttons(flow, index))
        return None

    def ability_panel(self, title: str) -> Panel | None:
        """The next ability question: use an optional one?, its choice, where, what is paid."""
        abilities = self.flow.abilities
        for source, need in abilities.needs.items():
            if need["optional"] and source not in self.decided:
                return Panel(f"{title}: use {source}?", [
                    Button("ability:yes", "Yes", ("use", source, True)),
                    Button("ability:no", "No", ("use", source, False))], [need["text"]], cols=2)
        for source, what in abilities.questions():
            need = abilities.needs[source]
            values = {"choice": need.get("choice", []), "where": abilities.places(source),
                      "pay": need.get("pay", [])}.get(what)
            if values is None:
                return Panel(f"{title}: {source}'s bonus action", [
                    Button("action:back", "Back", ("back",))],
                    [need["text"], "This bonus action cannot be entered on screen yet."])
            return Panel(f"{title}: {source} - {what}?", [
                Button(f"ability:{i}", str(value), (what, source, value))
                for i, value in enumerate(values)], [need["text"]])
        return None

    # -- answers ---------------------------------------------------------------------------

    def press(self, act: Sequence[Any]) -> str:
        """Answer with a button's act; "" or why it cannot be taken."""
        kind, *args = act
        flow: Any = self.flow
        abilities = flow.abilities
        try:
            {"sector": lambda v: flow.choose(v), "target": lambda v: flow.choose(v),
             "track": lambda v: flow.choose(v), "alien": lambda c, w: flow.add_resident(c, w),
             "trade": lambda p, g: flow.add_trade(p, g), "buy": lambda g: flow.add_buy(g),
             "remove": lambda i: flow.remove(i), "die": lambda f, s: self.dice.tap(f, s),
             "read": lambda: flow.read(TappedDice(dict(self.dice.counts))),
             "keep": lambda f, s: flow.keep(f, s), "reroll": self.reroll,
             "kept": lambda: setattr(self, "kept", True),
             "human": lambda i, p, w: flow.plan_human(i, p, w),
             "done": lambda: setattr(self, "acted", True),
             "use": self.use, "choice": abilities.choose, "where": abilities.place,
             "pay": abilities.pay_with}[kind](*args)
        except FlowError as error:
            return str(error)
        return ""

    def use(self, source: str, taken: bool) -> None:
        self.flow.abilities.use(source, taken)
        self.decided.add(source)

    def reroll(self) -> None:
        self.flow.reroll()  # type: ignore[attr-defined]
        self.dice = TappedDice()


def choice_buttons(kind: str, choices: Sequence[Any]) -> list[Button]:
    """A flow's Choices as buttons (a disallowed one says why when pressed)."""
    return [Button(f"{kind}:{c.value}", c.label, (kind, c.value), c.allowed, c.reason or "")
            for c in choices]


def transport_panel(title: str, flow: TransportFlow, done: Button) -> Panel:
    """Aliens by colour (one button per free quarter when there is a choice), gold, the trade
    pairs, buying; the transactions chosen so far, each with a remove button."""
    buttons = []
    for choice in flow.aliens:
        color = choice.value
        places = flow.residents[color]["where"] or [None]
        for where in places:
            to = f" to {where}" if len(places) > 1 else ""
            buttons.append(Button(f"alien:{color}:{where}",
                                  f"({ALIEN_LETTERS[color]}) {choice.label}{to}",
                                  ("alien", color, where), choice.allowed, choice.reason or ""))
    for pair in flow.trades:
        for gain in flow.action["trade"]["gain"]:
            buttons.append(Button(f"trade:{'+'.join(pair.value)}:{gain}",
                                  f"{pair.label} for 1 {gain}", ("trade", pair.value, gain)))
    for gain in flow.action["buy"]["gain"]:
        buttons.append(Button(f"buy:{gain}", f"buy 1 {gain} for {flow.action['buy']['gems']} GEMs",
                              ("buy", gain), flow.buy.allowed, flow.buy.reason or ""))
    chosen = flow.action_lines()
    buttons += [Button(f"remove:{i}", f"remove: {line}", ("remove", i))
                for i, line in enumerate(chosen)]
    limit = "" if flow.limit is None else f" ({len(flow.items)} of {flow.limit})"
    return Panel(f"{title}: transactions{limit}", [*buttons, done],
                 chosen or ["No transaction yet."], cols=2)


def human_buttons(flow: ExpeditionFlow, index: int) -> list[Button]:
    """Observe, or Recruit (to each free quarter when there is a choice)."""
    places = flow.action["humans"]["where"]
    found = []
    for choice in flow.human_choices:
        targets = places if choice.value == "recruit" and len(places) > 1 else [None]
        for where in targets:
            to = "" if where is None else f" to {where}"
            found.append(Button(f"human:{choice.value}:{where}", choice.label + to,
                                ("human", index, choice.value, where), choice.allowed,
                                choice.reason or ""))
    return found
