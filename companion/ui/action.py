"""The action screen: what a tapped ship's action needs (for now Farm, Ice Collector, Dismantle
and Diplomacy, from options(..., ship=ID)), then each waiting player's Diplomacy bonus prompt as
big buttons. Every choice is committed before the screen moves on; what it shows comes from
table_model.py."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui.table_model import Choice, bonus_prompts, ship_choices
from companion.ui.widgets import BUTTON, PLAYER_RGBA, PLAYER_TEXT, TagButton


class ActionScreen(Screen):
    """One question at a time: the ship's choices, then the Diplomacy bonus prompts."""

    ship = StringProperty("")
    question = StringProperty("")
    message = StringProperty("")
    plate = ColorProperty(BUTTON)
    plate_text = ColorProperty((1, 1, 1, 1))
    prompting = BooleanProperty(False)  # a Diplomacy bonus is waiting: no way back

    def refresh(self) -> None:
        """Show the next question: the waiting Diplomacy bonus prompt, else the tapped ship's
        choices."""
        app = App.get_running_app()
        session = app.session
        if session.game is None or session.state["phase"] != "play":
            return
        opts = session.options()
        self.prompting = bool(opts["pending"])
        if opts["pending"]:
            prompt = bonus_prompts(opts["pending"], session.state)[0]
            self.ship = ""
            self.show_choices(prompt.question, prompt.choices, "bonus", prompt.color)
        elif self.ship:
            ship = session.options(ship=self.ship)["ship"]
            player = opts["turn"]["player"]
            color = next(p["color"] for p in session.state["players"] if p["name"] == player)
            question, choices = ship_choices(player, ship)
            self.show_choices(question, choices, "choice", color)

    def show_choices(self, question: str, choices: list[Choice], kind: str, color: str) -> None:
        """Put up the question in the player's colour and one big button per choice."""
        self.question = question
        self.plate, self.plate_text = PLAYER_RGBA[color], PLAYER_TEXT[color]
        listing = self.ids.choices
        listing.clear_widgets()
        for index, choice in enumerate(choices):
            button = TagButton(text=choice.label, tag=f"{kind}:{index}", size_hint_y=None,
                               opacity=1 if choice.allowed else 0.55)
            button.bind(on_release=lambda _b, c=choice: self.choose(c))
            listing.add_widget(button)

    def choose(self, choice: Choice) -> None:
        """Send the choice's command; a refusal is shown and the question stays."""
        if not choice.allowed:
            self.message = choice.reason
            return
        app = App.get_running_app()
        problem = app.session.execute(choice.command)
        self.message = problem
        if not problem:
            self.ship = ""
            app.show("table")

    def back(self) -> None:
        """Back to the table without doing anything (not while a bonus is to be chosen)."""
        self.ship = ""
        self.message = ""
        App.get_running_app().show("table")
