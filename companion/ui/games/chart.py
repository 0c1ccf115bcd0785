"""The score over time: every player's score-track points by turn in their colour, named in a
legend, drawn on Kivy's canvas; the geometry comes from chart_model.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.ui.games.chart_model import layout
from companion.ui.kit.widgets import PLAYER_RGBA, PLAYER_TEXT, TagLabel

AXIS = (0.40, 0.43, 0.50, 1)
TEXT = (0.85, 0.87, 0.92, 1)
LAYOUT = str(Path(__file__).with_suffix(".kv"))


class ScoreChart(BoxLayout):
    """A legend of names in their colours above the plot; `series` holds the data points
    (past_game_model.Series), `final` says the last x is the final tally."""

    tag = StringProperty("chart")
    series = ListProperty()
    final = BooleanProperty(False)

    def on_series(self, *_args: Any) -> None:
        legend = self.ids.legend
        legend.clear_widgets()
        for s in self.series:
            legend.add_widget(TagLabel(text=f"{s.name}: {s.points[-1][1] if s.points else 0}",
                                       tag=f"chart:legend:{s.name}", bold=True,
                                       bg=PLAYER_RGBA[s.color], color=PLAYER_TEXT[s.color]))
        self.ids.plot.redraw()


class ChartPopup(ModalView):
    """The chart over the whole screen, with Close."""

    title = StringProperty("")

    def __init__(self, title: str, series: list, final: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = title
        self.ids.chart.final = final
        self.ids.chart.series = series


class Plot(Widget):
    """The grid, the ticks' labels and the players' lines."""

    def redraw(self, *_args: Any) -> None:
        """Draw the chart's series into this widget's box."""
        self.canvas.clear()
        self.clear_widgets()
        chart = self.parent
        if chart is None or not chart.series:
            return
        unit = App.get_running_app().unit
        margin = unit * 36
        x, y = self.x + margin, self.y + unit * 24
        width, height = self.width - margin - unit * 24, self.height - unit * 32
        drawn = layout(chart.series, (x, y, width, height), chart.final)
        with self.canvas:
            Color(*AXIS)
            for _label, level in drawn.y_ticks:
                Line(points=[x, level, x + width, level], width=1)
            for s, points in zip(chart.series, drawn.lines):
                Color(*PLAYER_RGBA[s.color])
                Line(points=points, width=unit * 2)
        for label, level in drawn.y_ticks:
            self.tick(label, (self.x, level - unit * 10), margin - unit * 4)
        for label, across in drawn.x_ticks:
            self.tick(label, (across - unit * 24, self.y), unit * 48)

    def tick(self, text: str, pos: tuple[float, float], width: float) -> None:
        """A tick's label at `pos`."""
        unit = App.get_running_app().unit
        label = TagLabel(text=text, color=TEXT, size_hint=(None, None), pos=pos,
                         size=(width, unit * 20))
        label.font_size = unit * 15  # after the TagLabel rule's own size
        self.add_widget(label)


if LAYOUT not in Builder.files:
    Builder.load_file(LAYOUT)
