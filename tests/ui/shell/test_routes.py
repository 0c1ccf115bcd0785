"""The routes between screens (companion/ui/shell/routes.py, plain Python): what a route needs,
where the game leads one, and which screen a kept game opens on."""

from __future__ import annotations

import pytest

from companion.ui.shell.routes import ROUTES, destination, game_screen, route


def test_a_route_takes_only_what_its_screen_needs():
    assert route("station", {"player": "Ann"}) is ROUTES["station"]
    assert route("table", {}).of_the_game and not route("home", {}).of_the_game
    with pytest.raises(ValueError, match="needs \\['player'\\], not \\['ship'\\]"):
        route("station", {"ship": "Ann:L1-dismantle"})
    with pytest.raises(ValueError, match="no route 'scores'"):
        route("scores", {})


def test_the_table_leads_to_the_end_of_a_finished_game_and_to_a_waiting_bonus():
    assert destination("table", "over", waiting=False) == "end"
    assert destination("table", "play", waiting=True) == "action"
    assert destination("table", "play", waiting=False) == "table"
    assert destination("station", "play", waiting=True) == "station"  # only the table leads on
    assert destination("home", None, waiting=False) == "home"


def test_a_kept_game_opens_where_it_was_left():
    assert game_screen("over", "table") == "end"
    assert game_screen("setup", "table") == game_screen("new", None) == "setup"
    assert game_screen("play", "action") == "action"
    assert game_screen("play", "station") == game_screen("play", None) == "table"
