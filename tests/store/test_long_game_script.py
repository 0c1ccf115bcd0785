"""The long game fixture is a legal game the engine accepts, and its state is plain JSON."""

from __future__ import annotations

import json

import pytest
from store_helpers import long_commands, reference, reference_game

from companion.rules.game import Missing, Refused


def test_the_long_game_is_legal_long_and_finished():
    try:
        game = reference_game(len(long_commands()))
    except (Refused, Missing) as error:
        pytest.fail(f"the engine no longer accepts tests/store/long_game.jsonl ({error}); "
                    "regenerate it: .venv/bin/python tests/store/make_long_game.py")
    assert len(long_commands()) >= 1000
    assert len(game.steps) >= 1000
    assert game.state["phase"] == "over"
    names = {c["cmd"] for c in long_commands()}
    assert {"undo", "redo", "use_ship", "income", "diplomacy_bonus", "end_turn"} <= names


def test_states_survive_a_json_round_trip():
    # The store keeps events and snapshots as JSON: the state must come back equal.
    game = reference_game(400)
    assert json.loads(json.dumps(game.state)) == game.state
    assert reference()[400][0] == json.dumps(game.state, sort_keys=True)
