"""Players' names: normalised, then refused where a table could not tell two apart or read one
(issue 28, class 6). The engine's `new_game` checks them, so the screen, a script and an
imported record get the same answer; a position file's names are checked the same way."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tables import ALIENS_DRAWN

from companion.rules.game import Game
from companion.rules.move import Refused
from companion.rules.names import BIDI_CONTROLS, name_key, normal_name
from companion.rules.position import PositionError, parse_position

COLORS = ["red", "blue", "yellow", "green"]


def start(catalogue, *names):
    game = Game(catalogue)
    game.execute({"cmd": "new_game", "aliens": ALIENS_DRAWN[len(names)],
                  "players": [{"name": n, "color": c} for n, c in zip(names, COLORS)]})
    return game


def refusal(catalogue, *names) -> str:
    with pytest.raises(Refused) as refused:
        start(catalogue, *names)
    return refused.value.reason


def test_ann_beside_ann_with_a_space_is_one_name(table_catalogue):
    """Checked after normalising: "Ann" and "Ann " were both stored as "Ann", the game stuck."""
    reason = refusal(table_catalogue, "Ann", "Ann ")
    assert reason == ("two players are called 'Ann'; names must differ: give each player a "
                      "name of their own")


def test_a_name_of_invisible_characters_only_is_refused(table_catalogue):
    reason = refusal(table_catalogue, "Ann", "\u200b\u200b")
    assert reason.startswith("player 2's name ")
    reason = refusal(table_catalogue, "Ann", "\u2063\u00a0\u3000")  # invisible separator, spaces
    assert "no letter or digit a table could read" in reason and "type a name" in reason


@pytest.mark.parametrize("control", ["\u202e", "\u202d", "\u2066", "\u2067", "\u200f", "\u200e"])
def test_a_name_that_turns_the_writing_direction_is_refused(table_catalogue, control):
    reason = refusal(table_catalogue, "Ann", f"{control}boB")
    assert reason == (f"player 2's name contains a character that turns the writing direction "
                      f"(U+{ord(control):04X}); type the name without it")


@pytest.mark.parametrize("twin", [
    "\u0410nn",  # Cyrillic capital A
    "\u0391nn",  # Greek capital Alpha
    "ann",  # case
    "\uff21nn",  # fullwidth A (NFKC)
    "A\u200bnn",  # a zero-width space inside
    "A\u200dnn",  # a zero-width joiner inside
])
def test_look_alike_names_are_refused(table_catalogue, twin):
    reason = refusal(table_catalogue, "Ann", twin)
    assert reason in (
        f"'Ann' and {normal_name(twin)!r} look the same at the table; names must differ so that "
        "they can be told apart (add an initial, say)",
        "two players are called 'Ann'; names must differ: give each player a name of their own")


def test_nfc_and_nfd_twins_are_one_name(table_catalogue):
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"
    assert refusal(table_catalogue, composed, decomposed).startswith("two players are called")
    game = start(table_catalogue, decomposed, "Bob")
    assert game.state["players"][0]["name"] == composed  # kept NFC


def test_names_are_kept_trimmed_with_single_spaces(table_catalogue):
    game = start(table_catalogue, "  Ann \u2003 Lee ", "Bob\u00a0 Smith", "\ufeffCat")
    assert [p["name"] for p in game.state["players"]] == ["Ann Lee", "Bob Smith", "Cat"]
    assert "Ann Lee:L1-transport" in game.state["ships"]


def test_a_command_may_name_a_player_as_typed(table_catalogue):
    """A later line naming "Ann " or a decomposed "Zoë" finds the player kept as "Ann"/"Zoë"."""
    game = start(table_catalogue, "Zo\u00eb", "Bob")
    from companion.rules.move import Move

    move = Move(game.state, table_catalogue, {"player": "Zoe\u0308 "})
    assert move.player() == 0


def test_different_names_are_still_accepted(table_catalogue):
    game = start(table_catalogue, "Ann", "Anna", "Jos\u00e9", "Jose")
    assert len(game.state["players"]) == 4
    start(table_catalogue, "\u0410\u043d\u044f", "\u041f\u0451\u0442\u0440")  # Аня, Пётр


def test_a_position_file_names_are_checked_the_same_way(table_catalogue):
    def player(name):
        return {"name": name, "hub": "B-1", "points": 0, "ships_left": 0, "gems": 0,
                "food": 0, "water": 0, "metal": 0}

    with pytest.raises(PositionError, match="look the same at the table"):
        parse_position({"players": [player("Ann"), player("\u0410NN")]}, table_catalogue)
    with pytest.raises(PositionError, match="writing direction"):
        parse_position({"players": [player("Ann"), player("\u202eBob")]}, table_catalogue)
    players = parse_position({"players": [player(" Ann  Lee "), player("Bob")]},
                             table_catalogue)
    assert players[0].name == "Ann Lee"


# -- the property: any two accepted names can be told apart ------------------------------------

NAME = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)


def twins_of(name: str) -> list[str]:
    """Names a table could not tell from `name`."""
    return [name + " ", " " + name, unicodedata.normalize("NFD", name), name.upper(),
            name.lower(), name.swapcase(), name[:1] + "\u200b" + name[1:],
            name.replace("a", "\u0430").replace("o", "\u03bf")]


@given(st.lists(NAME, min_size=2, max_size=4))
def test_any_accepted_names_can_be_told_apart(table_catalogue, names):
    try:
        game = start(table_catalogue, *names)
    except Refused:
        return
    kept = [p["name"] for p in game.state["players"]]
    assert len({name_key(n) for n in kept}) == len(kept)
    for name in kept:
        assert name == normal_name(name) == unicodedata.normalize("NFC", name) == name.strip()
        assert not BIDI_CONTROLS & set(name)
        assert any(unicodedata.category(c)[0] in "LNPS" for c in name)


@given(NAME, st.data())
def test_a_twin_of_an_accepted_name_is_refused(table_catalogue, name, data):
    try:
        start(table_catalogue, name, "Zz9")
    except Refused:
        return
    index = data.draw(st.integers(0, len(twins_of(name)) - 1))
    twin = twins_of(name)[index]
    if index >= 3 and name_key(twin) != name_key(name):
        return  # a change of case or script can make another name ("ß".upper() is "SS")
    with pytest.raises(Refused, match="names must differ"):
        start(table_catalogue, name, twin)
