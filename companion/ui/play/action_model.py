"""What the action screen shows (plain Python, tested without Kivy): a ship's flow (flows/) as
one panel per decision, then its preview, a refusal with its rule, and the Diplomacy bonus
prompts. Every rule comes from the flow, that is from the engine's `options`; what each ship
action and each bonus action's entry asks, and what its buttons do, is the flow's and the
entry's own (flows/ships.py, flows/parts.py): nothing here is per ship type or per entry kind.

    model = ActionModel(partial(ship_flow, state, catalogue, ship_id))
    panel = model.panel()             # title, buttons (each with an `act`), lines
    model.press(panel.buttons[0].act) # "" or the reason in words
    model.back()                      # the last answer taken back
    model.give(key, value)            # a value the tile prints, asked before the preview
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.i18n import _, ability_text
from companion.rules.commands import Outcome
from companion.rules.words import design_name, ship_name, track_name
from companion.ui.kit.dice_camera_model import CameraDice
from companion.ui.kit.wording import source_name, word
from companion.ui.play.flows.abilities import Abilities, question_word
from companion.ui.play.flows.choices import (
    MOST_CHOICES,
    Button,
    Entry,
    FlowError,
    Panel,
)
from companion.ui.play.flows.dice import Dice
from companion.ui.play.flows.prompts import BonusPrompt
from companion.ui.play.flows.ships import ShipFlow


def ship_title(flow: ShipFlow) -> str:
    """'Ann uses Construction L1' / 'Ann uses the neutral Transport'."""
    ship = flow.ship
    name = ship_name(ship["type"])
    if ship["owner"] is None:
        return _("{player} uses the neutral {ship}").format(player=flow.player, ship=name)
    if ship["owner"] == flow.player:
        return _("{player} uses {ship}").format(player=flow.player,
                                                ship=design_name(ship["design"]))
    return _("{player} uses {owner}'s {ship}").format(
        player=flow.player, owner=ship["owner"], ship=design_name(ship["design"]))


def prompt_panel(prompt: BonusPrompt, color: str, group: str | None = None) -> Panel:
    """A player's Diplomacy bonus choice as big buttons. More than MOST_CHOICES (the top
    levels: two bonuses, or one) are grouped: the pairs first with "One bonus only…", which
    opens the single ones (`group` "one")."""
    question = _("{player} ({color}): {track} Diplomacy bonus - choose one").format(
        player=prompt.player, color=word(color), track=track_name(prompt.track))
    buttons = [(len(c.value), Button(f"bonus:{i}", c.label, ("bonus", c.value), c.allowed,
                                     c.reason or ""))
               for i, c in enumerate(prompt.choices)]
    if len(buttons) <= MOST_CHOICES:
        return Panel(question, [b for _n, b in buttons])
    if group == "one":
        return Panel(question, [b for n, b in buttons if n == 1],
                     [_("One bonus only:")])
    return Panel(question, [b for n, b in buttons if n > 1] + [
        Button("bonus:one", _("One bonus only…"), ("bonus-group", "one"))],
        [_("Two different bonuses, or one bonus only:")], cols=2)


def given_panel(given: Sequence[tuple[str, str]], colors: dict[str, str]) -> Panel:
    """The Diplomacy bonuses given by themselves, one line per player in their colour, and OK
    (any of them goes on)."""
    return Panel(_("Diplomacy bonuses given (only one choice each)"), [
        *(Button(f"given:{player}", f"{player}: {what}", ("ok",), color=colors[player])
          for player, what in given),
        Button("action:ok", _("OK"), ("ok",), forward=True)])


# A ship's flow built with the values the tiles print given so far (ships.ship_flow).
BuildFlow = Callable[[Mapping[str, Any]], ShipFlow]


class ActionModel:
    """A ship's flow, one decision at a time: a value the tiles print as soon as an answer needs
    it, the action's own questions, the abilities' (a bonus action's details on its entry's
    panels), the preview (Confirm), and a refusal to override. Back takes the last answer back
    (the flow is built again and the answers before it given again). "confirm", "override" and
    "value" are the screen's to do."""

    def __init__(self, build: BuildFlow) -> None:
        self.build = build
        self.values: dict[str, Any] = {}  # the tiles' values given, by catalogue key
        self.answers: list[tuple] = []  # the acts answered, in order (Back drops the last)
        self.start()

    def start(self) -> None:
        """The flow afresh with the values given, then the answers given again in order (one
        no longer on offer, and those after it, are dropped)."""
        self.flow = self.build(self.values)
        self.acted = False  # the action's own panels are answered
        self.decided: set[str] = set()  # optional abilities answered Yes or No
        self.outcome: Outcome | None = None  # the engine refused the command
        self.asking: BonusModel | None = None  # the bonus action whose panel is shown
        answers, self.answers = self.answers, []
        for act in answers:
            self.panel()
            if self.press(act):
                break

    @property
    def can_go_back(self) -> bool:
        """Whether Back has an answer (or a refusal) to take back."""
        return bool(self.answers) or self.outcome is not None

    def back(self) -> None:
        """Take back the refusal shown, else the last answer."""
        if self.outcome is not None:
            self.outcome = None
            return
        if self.answers:
            self.answers.pop()
            self.start()

    def give(self, key: str, value: Any) -> None:
        """A value the tile prints, given: the flow sees it (its preview shows it) and the
        command sends it."""
        self.values[key] = value
        self.start()

    # -- what to show ----------------------------------------------------------------------

    def panel(self) -> Panel:
        title = ship_title(self.flow)
        self.asking = None
        if self.outcome is not None:
            return Panel(_("{title}: refused").format(title=title), [
                Button("action:override", _("Override…"), ("override",), forward=True)],
                [f"“{self.outcome.refused}”"])
        unknown = self.flow.unknown()
        if unknown is not None:
            return value_panel(title, *unknown)
        if not self.acted:
            found = self.flow.action_panel(title)
            if found is not None:
                return found
            self.acted = True
        asked = self.ability_panel(title)
        if asked is not None:
            return asked
        return Panel(_("{title}: confirm?").format(title=title), [
            Button("action:confirm", _("Confirm"), ("confirm",), forward=True)],
            self.flow.preview(), cols=2)

    def ability_panel(self, title: str) -> Panel | None:
        """The next ability question: use an optional one?, its choice, where, what is paid,
        a bonus action's details (its entry's panels; a finished entry is given)."""
        abilities = self.flow.abilities
        for source, need in abilities.needs.items():
            if need["optional"] and source not in self.decided:
                return Panel(_("{title}: use {source}?").format(
                    title=title, source=source_name(source)), [
                    Button("ability:yes", _("Yes"), ("use", source, True)),
                    Button("ability:no", _("No"), ("use", source, False))],
                    [ability_text(need["text"])],
                    cols=2)
        for source, what in abilities.questions():
            need = abilities.needs[source]
            if what == "bonus":
                bonus = BonusModel(abilities, source)
                asked = bonus.panel(title)
                if asked is None:
                    continue
                self.asking = bonus
                return asked
            offered: dict[str, list[Any]] = {"choice": need.get("choice", []),
                                             "where": abilities.places(source),
                                             "pay": need.get("pay", [])}
            values = offered[what]
            return Panel(_("{title}: {source} - {question}?").format(
                title=title, source=source_name(source), question=question_word(what)), [
                Button(f"ability:{i}", word(value), (what, source, value))
                for i, value in enumerate(values)], [ability_text(need["text"])])
        return None

    # -- answers ---------------------------------------------------------------------------

    def press(self, act: Sequence[Any]) -> str:
        """Answer with a button's act; "" or why it cannot be taken (an answer taken is
        remembered, for Back)."""
        found = self.answer(act)
        if not found:
            self.answers.append(tuple(act))
        return found

    def answer(self, act: Sequence[Any]) -> str:
        kind, *args = act
        flow = self.flow
        abilities = flow.abilities
        if self.asking is not None:
            return self.asking.press(act)
        own: dict[str, Callable[..., None]] = {
            "done": lambda: setattr(self, "acted", True), "use": self.use,
            "choice": abilities.choose, "where": abilities.place, "pay": abilities.pay_with}
        try:
            if kind in own:
                own[kind](*args)
            else:  # the action's own buttons
                flow.press(kind, *args)
        except FlowError as error:
            return str(error)
        return ""

    def use(self, source: str, taken: bool) -> None:
        self.flow.abilities.use(source, taken)
        self.decided.add(source)


class BonusModel:
    """A bonus action's details entered on its entry's panels (the action screen asks them in
    turn, the income screen in a pop-up or on the power's card); once answered they are the
    ability's bonus."""

    def __init__(self, abilities: Abilities, source: str) -> None:
        self.abilities, self.source = abilities, source

    @property
    def entry(self) -> Entry | None:
        """The entry, built from the engine's offer where the bonus action fires (the answers
        so far); None when the engine will not ask for it."""
        return self.abilities.entry(self.source)

    def panel(self, title: str) -> Panel | None:
        """The entry's next panel, the rule first; None once answered (then given) or when
        the engine will not ask."""
        entry = self.entry
        if self.source in self.abilities.bonus or entry is None:
            return None
        text = ability_text(self.abilities.needs[self.source]["text"])
        asks = self.abilities.asks(self.source)
        if asks is not None:  # the screen asks it on the value-entry component
            return value_panel(title, asks["key"], asks["question"])
        asked = entry.panel(f"{title}: {source_name(self.source)}", ("finish",))
        if asked is None:
            self.abilities.finish_bonus(self.source)
            return None
        return Panel(asked.title, asked.buttons, [text, *asked.lines], asked.cols)

    def press(self, act: Sequence[Any]) -> str:
        """Answer with a button's act; "" or why it cannot be taken."""
        kind, *args = act
        try:
            entry = self.entry
            if kind == "finish":
                self.abilities.finish_bonus(self.source)
            elif entry is None:
                return _("{source}: nothing to enter now").format(source=self.source)
            else:
                entry.press(kind, *args)
        except FlowError as error:
            return str(error)
        return ""

    def answer(self, value: Any) -> str:
        """A one-tap entry's answer (a track, a pick), given at once (again: replaced)."""
        self.abilities.bonus.pop(self.source, None)
        try:
            entry = self.entry
            if entry is None:
                return _("{source}: nothing to enter now").format(source=self.source)
            entry.answer(value)
        except FlowError as error:
            return str(error)
        return self.press(("finish",))


def value_panel(title: str, key: str, question: str) -> Panel:
    """A value the tile prints that the answers need, asked before the preview (the screen
    opens the value card at once; "Enter it…" opens it again)."""
    return Panel(_("{title}: a value from the tile").format(title=title), [
        Button("action:value", _("Enter it…"), ("value", key, question))], [question],
        asks=(key, question))


def camera_button(dice: Dice, seen: CameraDice | None) -> Button:
    """'These N dice (camera)': the camera's reading goes to the flow once it shows as many
    dice as were rolled; while the camera watches, it is the way on (in the bar)."""
    count = len(seen.dice) if seen is not None else 0
    return Button("action:camera-dice", _("These {count} dice (camera)").format(count=count),
                  ("camera",), count == dice.dice,
                  _("the camera shows {count} of the {dice} dice rolled: tap a missed die on "
                    "the picture, or tap the faces in").format(count=count, dice=dice.dice),
                  forward=True)
