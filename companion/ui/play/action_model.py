"""What the action screen shows (plain Python, tested without Kivy): a ship's flow (flows.py) as
one panel per decision, then its preview, a refusal with its rule, and the Diplomacy bonus
prompts. Every rule comes from the flow, that is from the engine's `options`.

    model = ActionModel(ship_flow(state, catalogue, ship_id))
    panel = model.panel()             # title, buttons (each with an `act`), lines
    model.press(panel.buttons[0].act) # "" or the reason in words
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.i18n import _
from companion.rules.commands import Outcome
from companion.rules.words import design_name, ship_name, track_name
from companion.ui.kit.dice_camera_model import CameraDice
from companion.ui.kit.wording import ALIEN_LETTERS, word, words
from companion.ui.play.flows.abilities import Abilities, question_word
from companion.ui.play.flows.choices import FlowError
from companion.ui.play.flows.dice import Dice
from companion.ui.play.flows.parts import Bonus, Picks, Tracks, Transactions
from companion.ui.play.flows.prompts import BonusPrompt
from companion.ui.play.flows.ships import (
    ConstructionFlow,
    DiplomacyFlow,
    DismantleFlow,
    ExpeditionFlow,
    ShipFlow,
    TransportFlow,
)


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
    color: str = ""  # a player's colour: the button is theirs


@dataclass(frozen=True)
class Panel:
    """One decision: the question, its buttons, and lines to read (a running list, the
    preview, the engine's reason)."""

    title: str
    buttons: list[Button]
    lines: list[str] = field(default_factory=list)
    cols: int = 1
    reads: Dice | None = None  # dice being entered: a camera may read them


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


def prompt_panel(prompt: BonusPrompt, color: str) -> Panel:
    """A player's Diplomacy bonus choice as big buttons."""
    return Panel(_("{player} ({color}): {track} Diplomacy bonus - choose one").format(
                     player=prompt.player, color=word(color), track=track_name(prompt.track)),
                 [Button(f"bonus:{i}", c.label, ("bonus", c.value), c.allowed, c.reason or "")
                  for i, c in enumerate(prompt.choices)])


def given_panel(given: Sequence[tuple[str, str]], colors: dict[str, str]) -> Panel:
    """The Diplomacy bonuses given by themselves, one line per player in their colour, and OK
    (any of them goes on)."""
    return Panel(_("Diplomacy bonuses given (only one choice each)"), [
        *(Button(f"given:{player}", f"{player}: {what}", ("ok",), color=colors[player])
          for player, what in given),
        Button("action:ok", _("OK"), ("ok",))])


class ActionModel:
    """A ship's flow, one decision at a time: the action's own questions, the abilities' (a
    bonus action's details on its entry's panels), the preview (Confirm / Back), and a refusal
    to override. "confirm", "override" and "back" are the screen's to do (Back starts the ship's
    flow afresh)."""

    def __init__(self, flow: ShipFlow) -> None:
        self.flow = flow
        self.acted = False  # the action's own panels are answered
        self.decided: set[str] = set()  # optional abilities answered Yes or No
        self.outcome: Outcome | None = None  # the engine refused the command
        self.asking: BonusModel | None = None  # the bonus action whose panel is shown

    # -- what to show ----------------------------------------------------------------------

    def panel(self) -> Panel:
        title = ship_title(self.flow)
        self.asking = None
        if self.outcome is not None:
            return Panel(_("{title}: refused").format(title=title), [
                Button("action:override", _("Override…"), ("override",)),
                Button("action:back", _("Back"), ("back",))],
                [f"“{self.outcome.refused}”"])
        if not self.acted:
            found = self.action_panel(title)
            if found is not None:
                return found
            self.acted = True
        asked = self.ability_panel(title)
        if asked is not None:
            return asked
        return Panel(_("{title}: confirm?").format(title=title), [
            Button("action:confirm", _("Confirm"), ("confirm",)),
            Button("action:back", _("Back"), ("back",))], self.flow.preview(), cols=2)

    def action_panel(self, title: str) -> Panel | None:
        """The action's own question now (None: nothing left to ask)."""
        flow = self.flow
        if isinstance(flow, ConstructionFlow) and flow.sector is None:
            return Panel(_("{title}: which Sector?").format(title=title),
                         choice_buttons("sector", flow.sectors), cols=2)
        if isinstance(flow, DismantleFlow) and flow.target is None:
            return Panel(_("{title}: which ship is dismantled?").format(title=title),
                         choice_buttons("target", flow.targets))
        if isinstance(flow, DiplomacyFlow | TransportFlow | ExpeditionFlow):
            return entry_panel(title, flow, ("done",))
        return None

    def ability_panel(self, title: str) -> Panel | None:
        """The next ability question: use an optional one?, its choice, where, what is paid,
        a bonus action's details (its entry's panels; a finished entry is given)."""
        abilities = self.flow.abilities
        for source, need in abilities.needs.items():
            if need["optional"] and source not in self.decided:
                return Panel(_("{title}: use {source}?").format(title=title, source=source), [
                    Button("ability:yes", _("Yes"), ("use", source, True)),
                    Button("ability:no", _("No"), ("use", source, False))], [need["text"]],
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
            values = {"choice": need.get("choice", []), "where": abilities.places(source),
                      "pay": need.get("pay", [])}[what]
            return Panel(_("{title}: {source} - {question}?").format(
                title=title, source=source, question=question_word(what)), [
                Button(f"ability:{i}", word(value), (what, source, value))
                for i, value in enumerate(values)], [need["text"]])
        return None

    # -- answers ---------------------------------------------------------------------------

    def press(self, act: Sequence[Any]) -> str:
        """Answer with a button's act; "" or why it cannot be taken."""
        kind, *args = act
        flow: Any = self.flow
        abilities = flow.abilities
        if self.asking is not None:
            return self.asking.press(act)
        try:
            if kind in ENTRY_ACTS:
                ENTRY_ACTS[kind](flow, *args)
            else:
                {"sector": lambda v: flow.choose(v), "target": lambda v: flow.choose(v),
                 "done": lambda: setattr(self, "acted", True), "use": self.use,
                 "choice": abilities.choose, "where": abilities.place,
                 "pay": abilities.pay_with}[kind](*args)
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
    def entry(self) -> Bonus | None:
        """The entry, built from the engine's offer where the bonus action fires (the answers
        so far); None when the engine will not ask for it."""
        return self.abilities.entry(self.source)

    def panel(self, title: str) -> Panel | None:
        """The entry's next panel, the rule first; None once answered (then given) or when
        the engine will not ask."""
        entry = self.entry
        if self.source in self.abilities.bonus or entry is None:
            return None
        text = self.abilities.needs[self.source]["text"]
        asks = self.abilities.asks(self.source)
        if asks is not None:  # the screen asks it on the value-entry component
            return Panel(_("{title}: {source}: a value first").format(
                title=title, source=self.source), [
                Button("action:value", _("Enter it…"),
                       ("value", asks["key"], asks["question"]))],
                [text, _("Needed before: {question}").format(question=asks["question"])])
        asked = entry_panel(f"{title}: {self.source}", entry, ("finish",))
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
                ENTRY_ACTS[kind](entry, *args)
        except FlowError as error:
            return str(error)
        return ""

    def answer(self, value: Any) -> str:
        """A one-tap entry's answer (a track, a pick), given at once (again: replaced)."""
        self.abilities.bonus.pop(self.source, None)
        entry = self.entry
        if isinstance(entry, Tracks):
            entry.chosen.clear()
            return self.press(("track", value)) or self.press(("finish",))
        return self.press(("pick", value)) or self.press(("finish",))


# What an entry's buttons do, whichever asks: the ship's action or a bonus action.
ENTRY_ACTS: dict[str, Callable[..., None]] = {
    "alien": Transactions.add_resident, "trade": Transactions.add_trade,
    "buy": Transactions.add_buy, "remove": Transactions.remove,
    "die": lambda dice, face, step: dice.tapped.tap(face, step), "read": Dice.read_taps,
    "camera": Dice.read,
    "keep": Dice.keep, "reroll": Dice.reroll, "kept": Dice.choose_kept,
    "human": Dice.plan_human, "track": Tracks.choose, "pick": Picks.pick}


def entry_panel(title: str, entry: Bonus, finish: tuple) -> Panel | None:
    """The panel an entry asks now (None: it is answered): transactions or tracks (their Done
    button's act is `finish`), dice, or one of a bonus action's picks."""
    if isinstance(entry, Transactions | Tracks):
        why = _("add a transaction") if isinstance(entry, Transactions) else _("choose a track")
        done = Button("action:done", _("Done"), finish, bool(entry.detail()), why)
    if isinstance(entry, Transactions):
        return transactions_panel(title, entry, done)
    if isinstance(entry, Dice):
        return dice_panel(title, entry)
    if isinstance(entry, Tracks):
        question = (_("{title}: lobby on which track?") if entry.most is None
                    else _("{title}: lobby on which track (up to {most})?"))
        return Panel(question.format(title=title, most=entry.most), [
            *(Button(b.tag, b.label, b.act, b.allowed, b.reason, b.act[1] in entry.chosen)
              for b in choice_buttons("track", entry.tracks)), done])
    if entry.picked is not None:
        return None
    question = {"sector": _("{title}: which free Sector?"),
                "resident": _("{title}: which Hub resident moves out?")}.get(
        entry.what, _("{title}: what is returned to the supply?"))
    return Panel(question.format(title=title), choice_buttons("pick", entry.choices))


def choice_buttons(kind: str, choices: Sequence[Any]) -> list[Button]:
    """A flow's Choices as buttons (a disallowed one says why when pressed)."""
    return [Button(f"{kind}:{value_tag(c.value)}", c.label, (kind, c.value), c.allowed,
                   c.reason or "") for c in choices]


def value_tag(value: Any) -> str:
    """A value in a tag: '101', 'construction', 'slot2-101', 'none' (A-12's nothing)."""
    if not isinstance(value, dict):
        return str(value)
    if "slot" in value:
        return f"slot{value['slot'] + 1}-{value['to'] or 'supply'}"
    if "resident" in value:
        return f"{value['resident']['from']}-{value['resident']['slot'] + 1}"
    return f"sector{value['sector']}" if "sector" in value else "none"


def transactions_panel(title: str, flow: Transactions, done: Button) -> Panel:
    """Aliens by colour (one button per free quarter when there is a choice), gold, the trade
    pairs, buying; the transactions chosen so far, each with a remove button."""
    buttons = []
    for choice in flow.aliens:
        color = choice.value
        places = flow.residents[color]["where"] or [None]
        for where in places:
            to = _(" to {place}").format(place=where) if len(places) > 1 else ""
            buttons.append(Button(f"alien:{color}:{where}",
                                  f"({ALIEN_LETTERS[color]}) {choice.label}{to}",
                                  ("alien", color, where), choice.allowed, choice.reason or ""))
    for pair in flow.trades:
        for gain in flow.offer["trade"]["gain"]:
            buttons.append(Button(f"trade:{'+'.join(pair.value)}:{gain}",
                                  _("{pay} for 1 {gain}").format(pay=pair.label,
                                                                 gain=word(gain)),
                                  ("trade", pair.value, gain)))
    for gain in flow.offer["buy"]["gain"]:
        buttons.append(Button(f"buy:{gain}", _("buy 1 {gain} for {gems} GEMs").format(
                                  gain=word(gain), gems=flow.offer["buy"]["gems"]),
                              ("buy", gain), flow.buy.allowed, flow.buy.reason or ""))
    chosen = flow.entry_lines()
    buttons += [Button(f"remove:{i}", _("remove: {transaction}").format(transaction=line),
                       ("remove", i))
                for i, line in enumerate(chosen)]
    question = (_("{title}: transactions") if flow.limit is None
                else _("{title}: transactions ({made} of {limit})"))
    return Panel(question.format(title=title, made=len(flow.items), limit=flow.limit),
                 [*buttons, done], chosen or [_("No transaction yet.")], cols=2)


def dice_panel(title: str, dice: Dice) -> Panel | None:
    """Tap the faces rolled, then the dice kept (and a reroll where allowed), then observe or
    recruit each Human kept; None once all is answered."""
    roll = _("Roll {dice} · keep {keep}").format(dice=dice.dice, keep=dice.capacity)
    if dice.reading is None:
        entered = len(dice.tapped.faces)
        buttons = [b for face in dice.faces for b in (
            Button(f"die:{face}", f"{word(face)}: {dice.tapped.counts.get(face, 0)}",
                   ("die", face, 1)),
            Button(f"die-less:{face}", f"{word(face)} −1", ("die", face, -1)))]
        return Panel(f"{title}: {roll}", [*buttons, Button(
            "action:dice", _("These {count} dice").format(count=entered), ("read",),
            entered == dice.dice,
            _("enter the {dice} dice rolled ({entered} entered)").format(dice=dice.dice,
                                                                         entered=entered))],
            [_("Tap a face once per die showing it.")], cols=2, reads=dice)
    if not dice.kept_chosen:
        rolled = Counter(dice.reading.faces)
        buttons = [b for face in dice.faces if rolled[face] for b in (
            Button(f"keep:{face}", _("keep {face}: {kept} of {rolled}").format(
                face=word(face), kept=dice.kept[face], rolled=rolled[face]),
                   ("keep", face, 1), on=bool(dice.kept[face])),
            Button(f"keep-less:{face}", f"{word(face)} −1", ("keep", face, -1)))]
        if dice.rerolls < dice.rerolls_allowed:
            buttons.append(Button("action:reroll", _("Reroll"), ("reroll",)))
        buttons.append(Button("action:kept", _("Keep these"), ("kept",),
                              bool(dice.kept.total()), _("keep at least one die")))
        return Panel(_("{title}: {roll} · which dice are kept?").format(title=title, roll=roll),
                     buttons, [_("Rolled: {faces}").format(faces=words(dice.reading.faces))],
                     cols=2)
    for index, plan in enumerate(dice.humans):
        if plan is None:
            return Panel(_("{title}: Human {number}: observe or recruit?").format(
                title=title, number=index + 1), human_buttons(dice, index))
    return None


def human_buttons(dice: Dice, index: int) -> list[Button]:
    """Observe, or Recruit (to each free quarter when there is a choice)."""
    places = dice.human_offer["where"]
    found = []
    for choice in dice.human_choices:
        targets = places if choice.value == "recruit" and len(places) > 1 else [None]
        for where in targets:
            to = "" if where is None else _(" to {place}").format(place=where)
            found.append(Button(f"human:{choice.value}:{where}", choice.label + to,
                                ("human", index, choice.value, where), choice.allowed,
                                choice.reason or ""))
    return found


def camera_button(dice: Dice, seen: CameraDice | None) -> Button:
    """'These N dice (camera)': the camera's reading goes to the flow once it shows as many
    dice as were rolled."""
    count = len(seen.dice) if seen is not None else 0
    return Button("action:camera-dice", _("These {count} dice (camera)").format(count=count),
                  ("camera",), count == dice.dice,
                  _("the camera shows {count} of the {dice} dice rolled: tap a missed die on "
                    "the picture, or tap the faces in").format(count=count, dice=dice.dice))
