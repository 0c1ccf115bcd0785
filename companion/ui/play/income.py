"""The income screen: eligibility (or the reason and an override), the receipt line by line, the
optional income powers as cards (a one-tap bonus action's buttons on its card, one of several
steps - transactions, dice - in a pop-up of the action screen's panels), relocations at 1 GEM each
with the left shift shown, Hub A-8's Human first; Confirm commits through the session (a value the
catalogue lacks asked as the action screen asks it) and goes back to the table. What it shows
comes from flows.income_flow and income_model.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.i18n import _
from companion.rules.commands import CommandDict, CommandError, Outcome
from companion.ui.kit.widgets import ACCENT, BUTTON, NotePopup, TagButton, TagToggle
from companion.ui.play.action_model import BonusModel
from companion.ui.play.answers import ask_first, ask_missing, show_answers
from companion.ui.play.flows.abilities import question_word
from companion.ui.play.flows.choices import Button, Choice, FlowError, value_tag
from companion.ui.play.flows.income import IncomeFlow, income_flow
from companion.ui.play.income_model import PowerCard, dry_run, power_cards, relocations


class IncomeLine(Label):
    """A line of the receipt or the preview, wrapped to its column (a TagLabel's text fills its
    size instead)."""

    tag = StringProperty("")


class IncomeScreen(Screen):
    """Income for the active player, one screen: receipt, powers, relocations, preview."""

    heading = StringProperty("")
    reason = StringProperty("")
    message = StringProperty("")
    allowed = BooleanProperty(True)
    human_first = StringProperty("")  # Hub A-8's offer ("" when none)
    flow: IncomeFlow | None = None
    refused: Outcome | None = None

    def refresh(self) -> None:
        """A fresh income flow for the active player."""
        session = App.get_running_app().session
        if session.game is None or session.state["phase"] != "play":
            return
        self.flow = income_flow(session.state, session.game.catalogue)
        self.refused = None
        self.message = ""
        self.allowed = self.flow.allowed
        self.reason = "" if self.flow.allowed else _("Not allowed now: {reason}").format(
            reason=self.flow.reason)
        self.heading = _("Income: {player}").format(player=self.flow.player)
        offer = self.flow.human_offer
        self.human_first = (_("{source}: gain a Human first").format(source=offer["source"])
                            if offer else "")
        self.show()

    def show(self) -> None:
        """Fill the receipt, the power cards, the relocations and the preview."""
        flow = self.flow
        assert flow is not None
        left, right = self.ids.left, self.ids.right
        left.clear_widgets()
        right.clear_widgets()
        receipt = flow.receipt()
        for index, line in enumerate(receipt):  # the total last, in bold
            left.add_widget(IncomeLine(text=line, tag=f"income:line:{index}",
                                       bold=index == len(receipt) - 1))
        for card in power_cards(flow):
            self.add_card(card)
        unit = App.get_running_app().unit
        for index, move in enumerate(relocations(flow) if not flow.human_first else []):
            button = TagButton(text=_("Move {move}").format(move=move.label),
                               tag=f"relocate:{index}", size_hint_y=None)
            # wrapped on up to three lines (the kit's button shortens to one)
            button.shorten, button.height, button.font_size = False, unit * 72, unit * 16
            button.bind(on_release=lambda _b, m=move: self.relocate(m.source, m.slot, m.to))
            right.add_widget(button)
        right.add_widget(IncomeLine(text=_("What happens:"), bold=True))
        session = App.get_running_app().session
        asked = flow.abilities.questions()  # the engine would refuse the command: no preview
        lines = [_("Choose first: {source} ({question})").format(
            source=source, question=question_word(what)) for source, what in asked] \
            or dry_run(session.state, session.game.catalogue, flow.command())
        for index, line in enumerate(lines):
            right.add_widget(IncomeLine(text=line, tag=f"preview:{index}"))

    def add_card(self, card: PowerCard) -> None:
        """A power as a card: take or leave it (an optional one), then its choices."""
        flow = self.flow
        assert flow is not None
        unit = App.get_running_app().unit
        taken = not card.optional or card.source in flow.abilities.used
        text = f"{card.source}: {card.text}"
        if card.optional:
            toggle = TagToggle(text=(_("Taken - {power}") if taken
                                     else _("Take? {power}")).format(power=text),
                               tag=f"power:{card.source}", state="down" if taken else "normal",
                               size_hint_y=None, height=unit * 84, font_size=unit * 14,
                               shorten=False)
            toggle.bind(on_release=lambda t, c=card: self.take(c.source, t.state == "down"))
            self.ids.left.add_widget(toggle)
        else:
            self.ids.left.add_widget(IncomeLine(text=text, tag=f"power:{card.source}"))
        if not taken:
            return
        if card.kind == "entry":
            entry = flow.abilities.entry(card.source)
            lines = (entry.entry_lines() if entry is not None
                     and card.source in flow.abilities.bonus else [])
            button = TagButton(text="; ".join(lines) or _("Enter it…"),
                               tag=f"power:{card.source}:enter", size_hint_y=None,
                               height=unit * 56, font_size=unit * 16, shorten=False,
                               bg=ACCENT if lines else BUTTON)
            button.bind(on_release=lambda _b: self.enter(card.source))
            self.ids.left.add_widget(button)
            return
        picked = (flow.abilities.bonus.get(card.source) if card.kind == "pick"
                  else flow.abilities.choices.get(card.source, []))
        grid = GridLayout(cols=1 if card.kind == "pick" else 2, size_hint_y=None,
                          spacing=unit * 4, row_force_default=True,
                          row_default_height=unit * 52)
        grid.bind(minimum_height=grid.setter("height"))
        for choice in card.choices:
            on = picked == choice.value or (isinstance(picked, list) and choice.value in picked)
            button = TagButton(text=choice.label, tag=f"power:{card.source}:"
                                                      f"{value_tag(choice.value)}",
                               font_size=unit * 15, shorten=False,
                               bg=ACCENT if on else BUTTON,
                               opacity=1 if choice.allowed else 0.55)
            button.bind(on_release=lambda _b, c=card, v=choice: self.pick(c, v))
            grid.add_widget(button)
        if card.choices:
            self.ids.left.add_widget(grid)

    def take(self, source: str, taken: bool) -> None:
        """Take or leave an optional power."""
        assert self.flow is not None
        self.flow.abilities.use(source, taken)
        self.show()

    def pick(self, card: PowerCard, choice: Choice) -> None:
        """A power's choice, or a one-tap bonus action's answer (a track, A-11's move,
        A-12's return); a disallowed one says why."""
        assert self.flow is not None
        if not choice.allowed:
            self.message = choice.reason or ""
        elif card.kind == "pick":
            self.message = BonusModel(self.flow.abilities, card.source).answer(choice.value)
        else:
            self.flow.abilities.choose(card.source, choice.value)
        self.show()

    def enter(self, source: str) -> None:
        """A bonus action of several steps in the pop-up (again: entered afresh)."""
        assert self.flow is not None
        abilities = self.flow.abilities
        abilities.enter_again(source)
        BonusPopup(BonusModel(abilities, source), _("Income: {player}").format(
            player=self.flow.player),
                   self.show).open()

    def relocate(self, source: object, slot: int, to: object) -> None:
        """Add a relocation (1 GEM)."""
        assert self.flow is not None
        try:
            self.flow.relocate(source, slot, to)
        except FlowError as error:
            self.message = str(error)
        self.show()

    def gain_human_first(self) -> None:
        """Hub A-8: gain a Human, then take income."""
        assert self.flow is not None
        try:
            self.flow.gain_human_first()
        except FlowError as error:
            self.message = str(error)
        self.show()

    def confirm(self) -> None:
        """Commit the income; a refusal shows the rule and offers an override."""
        assert self.flow is not None
        open_ = [f"{source}: {what}" for source, what in self.flow.abilities.questions()]
        if open_:
            self.message = _("Still to choose: {questions}").format(questions=", ".join(open_))
            return
        self.commit(self.flow.command())

    def commit(self, command: CommandDict) -> str:
        """Send a command through the session: back to the table when done; a rule's refusal
        shows the rule (Override…); a value the catalogue lacks is asked on the value-entry
        component, then sent again; why it was not done (not saved) is said."""
        app = App.get_running_app()
        outcome = app.session.send(command)
        if outcome.applied:
            app.open("table")
        elif outcome.missing:
            ask_missing(outcome, app.session.game.catalogue, self.commit)
        elif outcome.overridable:
            self.refused = outcome
            self.reason = _("Refused: {reason}").format(reason=outcome.refused)
            self.allowed = False
        else:
            self.message = outcome.problem
            return self.message
        return ""

    def override(self) -> None:
        """Ask for a reason, then take income in spite of the rule."""
        assert self.flow is not None
        command = self.refused.command if self.refused else self.flow.command()
        outcome = self.refused or Outcome(command, refused=self.flow.reason or "")

        def done(reason: str) -> str | None:
            try:
                return self.commit(outcome.override(reason)) or None
            except CommandError as error:
                return str(error)

        NotePopup(_("Why override?"), "", done).open()

    def back(self) -> None:
        """Back to the table, nothing taken."""
        App.get_running_app().open("table")


class BonusPopup(ModalView):
    """A bonus action of several steps (transactions, dice) entered on the action screen's
    panels over the income screen; answered, it closes and the screen shows it."""

    question = StringProperty("")
    lines = StringProperty("")
    message = StringProperty("")

    def __init__(self, bonus: BonusModel, title: str, done: Callable[[], None],
                 **kwargs: Any) -> None:
        self.bonus, self.heading, self.done = bonus, title, done
        super().__init__(**kwargs)
        self.refresh()

    def refresh(self) -> None:
        panel = self.bonus.panel(self.heading)
        if panel is None:
            self.close()
            return
        self.question, self.lines = panel.title, "\n".join(panel.lines)
        show_answers(self.ids.choices, panel, self.press)

    def press(self, button: Button) -> None:
        if button.allowed and button.act[0] == "value":  # a value the engine needs first
            ask_first(self.bonus.abilities, button.act[1], button.act[2],
                      App.get_running_app().session.game.catalogue, self.refresh)
            return
        self.message = button.reason if not button.allowed else self.bonus.press(button.act)
        self.refresh()

    def close(self) -> None:
        """Back to the income screen (Cancel leaves the bonus action still to enter)."""
        self.dismiss()
        self.done()
