"""The screens and the ways between them (plain Python, no Kivy). Only the shell switches screens
(`App.open`): a screen asks for another by its route's name, with what that screen needs
(`app.open("action", ship="Ann:L1-dismantle")`, `app.open("station", player="Ann")`).

| route      | screen                          | needs   | of the open game |
|------------|---------------------------------|---------|------------------|
| home       | games/home: the games kept      |         |                  |
| calculator | calculator: a score by hand     |         |                  |
| setup      | setup: the wizard               |         | yes              |
| table      | play/table: whose turn, ships   |         | yes              |
| action     | play/action: a ship's action    | ship    | yes              |
| income     | play/income: the receipt        |         | yes              |
| station    | play/station: one station       | player  | yes              |
| end        | games/end: the score sheet      |         |                  |
| past_game  | games/past_game: a kept game    | game    |                  |
| stats      | games/stats: all games' figures |         |                  |
| catalogue  | settings/catalogue: the values  |         |                  |
| settings   | settings/settings: the config   |         |                  |

Two routes lead elsewhere while the game says so (`destination`): the table of a finished game
is its end screen, and while a Diplomacy bonus waits the table is the action screen, whose
prompt asks for it. A game opened from home or the past games opens on `game_screen`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    """A screen: its module (with a .kv file of the same name beside it), its Screen class, the
    properties it needs set before it is shown, and whether it shows the open game (the
    button panel's lights follow the game only there)."""

    module: str
    screen: str
    needs: tuple[str, ...] = ()
    of_the_game: bool = False


ROUTES: dict[str, Route] = {
    "home": Route("companion.ui.games.home", "HomeScreen"),
    "calculator": Route("companion.ui.calculator.calculator", "CalculatorScreen"),
    "setup": Route("companion.ui.setup.setup", "SetupScreen", of_the_game=True),
    "table": Route("companion.ui.play.table", "TableScreen", of_the_game=True),
    "action": Route("companion.ui.play.action", "ActionScreen", ("ship",), of_the_game=True),
    "income": Route("companion.ui.play.income", "IncomeScreen", of_the_game=True),
    "station": Route("companion.ui.play.station", "StationScreen", ("player",), of_the_game=True),
    "end": Route("companion.ui.games.end", "EndScreen"),
    "past_game": Route("companion.ui.games.past_game", "PastGameScreen", ("game_id",)),
    "stats": Route("companion.ui.games.stats", "StatsScreen"),
    "catalogue": Route("companion.ui.settings.catalogue", "CatalogueScreen"),
    "settings": Route("companion.ui.settings.settings", "SettingsScreen"),
}
OUTSIDE_GAMES = ("home", "calculator")  # screens that come back as they were, game or not


def route(name: str, needs: dict[str, object]) -> Route:
    """The route `name`, checked against what a screen asked to give it (ValueError: no such
    route, or a need it does not have)."""
    if name not in ROUTES:
        raise ValueError(f"no route {name!r}: the routes are {', '.join(ROUTES)}")
    found = ROUTES[name]
    unknown = sorted(set(needs) - set(found.needs))
    if unknown:
        raise ValueError(f"route {name!r} needs {list(found.needs)}, not {unknown}")
    return found


def destination(name: str, phase: str | None, waiting: bool) -> str:
    """Where route `name` leads for the open game (`phase` None: no game; `waiting`: a Diplomacy
    bonus waits): the table of a finished game is its end screen; while a bonus waits, the
    table is the action screen (its prompt)."""
    if name == "table" and phase == "over":
        return "end"
    if name == "table" and waiting:
        return "action"
    return name


def game_screen(phase: str, saved: str | None) -> str:
    """The screen a game opened from home opens on: a finished game's end screen, an unfinished
    one's setup, or the table (the action screen when the app was on it)."""
    if phase == "over":
        return "end"
    if phase != "play":
        return "setup"
    return saved if saved in ("table", "action") else "table"


def relaunch_screen(saved: str | None, phase: str | None) -> str:
    """The screen a relaunch opens, from the screen saved and the open game's phase (None: no
    game): home and the calculator as they were (the calculator keeps its entries); else the
    game's screen for its phase: setup (the wizard resumes from the steps), the table (the
    action, income and station screens keep nothing unconfirmed) or the end screen."""
    if saved in OUTSIDE_GAMES:
        return saved
    return "home" if phase is None else game_screen(phase, None)
