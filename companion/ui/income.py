"""The income screen: eligibility (or the reason and an override), the receipt line by line, the
optional income powers as cards, relocations at 1 GEM each with the left shift shown, Hub A-8's
Human first; Confirm commits through the session and goes back to the table. What it shows comes
from flows.income_flow and income_model.py."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.rules.words import TRACK_NAMES
from companion.ui.flows import FlowError, IncomeFlow, Outcome, income_flow, send
from companion.ui.income_model import PowerCard, dry_run, power_cards, relocations
from companion.ui.widgets import ACCENT, BUTTON, NamePopup, TagButton, TagToggle


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
        self.reason = "" if self.flow.allowed else f"Not allowed now: {self.flow.reason}"
        self.heading = f"Income: {self.flow.player}"
        offer = self.flow.human_offer
        self.human_first = f"{offer['source']}: gain a Human first" if offer else ""
        self.show()

    def show(self) -> None:
        """Fill the receipt, the power cards, the relocations and the preview."""
        flow = self.flow
        assert flow is not None
        left, right = self.ids.left, self.ids.right
        left.clear_widgets()
        right.clear_widgets()
        for index, line in enumerate(flow.receipt()):
            left.add_widget(IncomeLine(text=line, tag=f"income:line:{index}",
                                       bold=line.startswith("Total")))
        for card in power_cards(flow):
            self.add_card(card)
        unit = App.get_running_app().unit
        for index, move in enumerate(relocations(flow) if not flow.human_first else []):
            button = TagButton(text=f"Move {move.label}", tag=f"relocate:{index}",
                               size_hint_y=None, font_size=unit * 16)
            button.bind(on_release=lambda _b, m=move: self.relocate(m.source, m.slot, m.to))
            right.add_widget(button)
        right.add_widget(IncomeLine(text="What happens:", bold=True))
        session = App.get_running_app().session
        for index, line in enumerate(dry_run(session.state, session.game.catalogue,
                                             flow.command())):
            right.add_widget(IncomeLine(text=line, tag=f"preview:{index}"))

    def add_card(self, card: PowerCard) -> None:
        """A power as a card: take or leave it (an optional one), then its choices."""
        flow = self.flow
        assert flow is not None
        unit = App.get_running_app().unit
        taken = not card.optional or card.source in flow.abilities.used
        text = f"{card.source}: {card.text}"
        if card.optional:
            toggle = TagToggle(text=("Taken - " if taken else "Take? ") + text,
                               tag=f"power:{card.source}", state="down" if taken else "normal",
                               size_hint_y=None, height=unit * 84, font_size=unit * 14,
                               shorten=False)
            toggle.bind(on_release=lambda t, c=card: self.take(c.source, t.state == "down"))
            self.ids.left.add_widget(toggle)
        else:
            self.ids.left.add_widget(IncomeLine(text=text, tag=f"power:{card.source}"))
        if not taken:
            return
        picked = (flow.abilities.bonus.get(card.source) or []) if card.kind == "bonus" \
            else flow.abilities.choices.get(card.source, [])
        row = BoxLayout(size_hint_y=None, height=unit * 56, spacing=unit * 4)
        for value in card.choices:
            button = TagButton(text=TRACK_NAMES.get(value, value),
                               tag=f"power:{card.source}:{value}", font_size=unit * 16,
                               bg=ACCENT if value in picked else BUTTON)
            button.bind(on_release=lambda _b, c=card, v=value: self.pick(c, v))
            row.add_widget(button)
        if card.choices:
            self.ids.left.add_widget(row)

    def take(self, source: str, taken: bool) -> None:
        """Take or leave an optional power."""
        assert self.flow is not None
        self.flow.abilities.use(source, taken)
        self.show()

    def pick(self, card: PowerCard, value: str) -> None:
        """A power's choice (a track for a Diplomacy action)."""
        assert self.flow is not None
        if card.kind == "bonus":
            self.flow.abilities.give_bonus(card.source, [value])
        else:
            self.flow.abilities.choose(card.source, value)
        self.show()

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
            self.message = "Still to choose: " + ", ".join(open_)
            return
        self.commit(self.flow.command())

    def commit(self, command: dict) -> None:
        """Send a command; back to the table when done."""
        app = App.get_running_app()
        outcome = send(app.session.game.execute, command)
        if outcome.refused:
            self.refused = outcome
            self.reason = f"Refused: {outcome.refused}"
            self.allowed = False
        elif outcome.question:
            self.message = outcome.question
        else:
            app.show("table")

    def override(self) -> None:
        """Ask for a reason, then take income in spite of the rule."""
        assert self.flow is not None
        command = self.refused.command if self.refused else self.flow.command()
        outcome = self.refused or Outcome(command, refused=self.flow.reason)

        def done(reason: str) -> str | None:
            try:
                self.commit(outcome.override(reason))
            except FlowError as error:
                return str(error)
            return None

        NamePopup("Why override?", "", done).open()

    def back(self) -> None:
        """Back to the table, nothing taken."""
        App.get_running_app().show("table")
