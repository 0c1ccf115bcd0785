"""Catalogue values given by a game (a script line's or a record's "catalogue" values, a position
file's own values) never change what the rulebook prints, and a record's values stay in its game
(issue 28, classes 3 and 9)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tables import ALIENS_DRAWN

from companion import paths
from companion.catalogue_files import import_overlay, load_catalogue, read_overlay, set_user_value
from companion.rules.catalogue import CatalogueError
from companion.rules.game import Game
from companion.rules.move import Move, Refused
from companion.rules.position import PositionError, parse_position
from companion.rules.state import new_state
from companion.store import RecordError, Store
from companion.store.export import export_text, import_record, record_digest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "companion" / "data" / "examples" / "rulebook-3p.json"
END_AT_40 = "The active player has 40 or more points on the score track."
NEW_GAME = {"cmd": "new_game", "players": [{"name": "Ann", "color": "red"},
                                           {"name": "Bob", "color": "blue"}],
            "aliens": ALIENS_DRAWN[2]}


def learn(catalogue, values: dict) -> None:
    Move(new_state(), catalogue, {"cmd": "new_game", "catalogue": values}).learn()


def cli(*args: str) -> subprocess.CompletedProcess:
    """The command line in a fresh process (the test's own data folder: conftest.py)."""
    env = {**os.environ}
    env.pop("PHOENIX_OVERLAY", None)
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=60)


# -- script lines ---------------------------------------------------------------------------

def test_a_line_cannot_end_the_game_at_1_point():
    """"The active player has 40 or more points on the score track." (end of the game)"""
    game = Game(load_catalogue())
    with pytest.raises(Refused) as refused:
        game.execute({**NEW_GAME, "catalogue": {"setup/end_conditions/points": 1}})
    assert refused.value.reason == (
        '"catalogue" key "setup/end_conditions/points": the rulebook prints this value '
        f'(40: "{END_AT_40}"), so a game cannot change it to 1; take '
        "setup/end_conditions/points out of the line (if your copy really differs, correct it "
        "on the Catalogue screen or with phoenix-companion catalogue --set)")
    assert game.state["phase"] == "new" and not game.steps


def test_a_script_line_with_a_printed_value_stops_the_replay_and_stores_nothing(tmp_path):
    script = tmp_path / "game.jsonl"
    script.write_text(json.dumps({**NEW_GAME, "catalogue": {
        "sectors/214/cost": 8, "setup/end_conditions/points": 1}}) + "\n")
    overlay = tmp_path / "overlay.json"
    done = cli("--overlay", str(overlay), "replay", str(script))
    assert done.returncode == 2
    assert "line 1:" in done.stderr and "setup/end_conditions/points" in done.stderr
    assert END_AT_40 in done.stderr and "Traceback" not in done.stderr
    assert not overlay.exists()  # neither value reached the overlay
    assert not paths.overlay_path().exists()


def test_every_printed_value_is_refused_from_a_line_and_accepted_unchanged():
    """The general rule, for every field whose source is the rulebook."""
    catalogue = load_catalogue()
    printed = [(f"{kind}/{record}/{name}", field) for kind, record, name, field
               in catalogue.iter_fields() if field.source == "rulebook"]
    assert len(printed) > 50
    changed = 0
    for key, field in printed:
        if field.value is not None and not key.endswith("/type"):  # (null: "does not
            # apply", and a ship's type: not values a line gives)
            learn(catalogue, {key: field.value})  # the printed value itself: nothing changes
        if isinstance(field.value, int) and not isinstance(field.value, bool):
            try:
                learn(catalogue, {key: field.value + 1})
            except Refused as refused:
                if "cannot be" in refused.reason or "expected" in refused.reason:
                    continue  # out of the field's range: refused as such
                assert key in refused.reason and "the rulebook prints this value" in refused.reason
                assert field.note in refused.reason
                changed += 1
            else:
                pytest.fail(f"{key} = {field.value + 1} was accepted")
    assert changed > 20


def test_a_line_may_fill_in_what_the_rulebook_leaves_open():
    """"Sector 121 provides 1 food because there is a resident above the food icon." - the
    rulebook prints the icons, not their quarters: a line may give the quarters."""
    catalogue = load_catalogue()
    learn(catalogue, {"sectors/121/income_icons": [
        {"resource": "food", "amount": 1, "quarter": 0},
        {"resource": "water", "amount": 1, "quarter": 1}]})
    with pytest.raises(Refused, match="the rulebook prints this value"):
        learn(catalogue, {"sectors/121/income_icons": [
            {"resource": "food", "amount": 2, "quarter": 0},
            {"resource": "water", "amount": 1, "quarter": 1}]})


def test_an_inferred_value_may_still_be_corrected_from_a_line():
    """Sector colours are inferred from the number; the tile is the truth (docs/catalogue.md)."""
    learn(load_catalogue(), {"sectors/214/color": "teal"})


# -- game records ---------------------------------------------------------------------------

@pytest.fixture
def record(tmp_path) -> dict:
    """The record of a short game played here, whose first line gave Sector 214's cost."""
    with Store.open(tmp_path / "here.sqlite", overlay=tmp_path / "here.json") as store:
        played = store.new_game("short")
        played.execute({**NEW_GAME, "catalogue": {"sectors/214/cost": 8}})
        return json.loads(export_text(store, played.id, "record"))


def _signed(record: dict) -> dict:
    return {**record, "digest": record_digest(record)}


def test_a_records_values_stay_in_its_game(tmp_path, record):
    overlay = tmp_path / "mine.json"
    with Store.open(tmp_path / "there.sqlite", overlay=overlay) as store:
        game_id = import_record(store, record)
        opened = store.open_game(game_id)  # the app opens it: still nothing in the overlay
        assert opened.state["learned"] == {"sectors/214/cost": 8}
    with Store.open(tmp_path / "there.sqlite", overlay=overlay) as store:
        store.open_game(game_id)
    assert read_overlay(overlay) == {}


def test_the_player_agrees_to_keep_a_records_values_with_catalogue_import(tmp_path, record):
    source = tmp_path / "record.json"
    source.write_text(json.dumps(record))
    overlay = tmp_path / "mine.json"
    done = cli("--overlay", str(overlay), "catalogue", "--import", str(source))
    assert done.returncode == 0, done.stderr
    assert read_overlay(overlay) == {"sectors": {"214": {"cost": 8}}}


def test_an_example_records_values_are_never_kept(tmp_path):
    with Store.open(tmp_path / "here.sqlite", overlay=tmp_path / "here.json") as store:
        played = store.new_game("example")
        played.execute({**NEW_GAME, "example": True, "catalogue": {"sectors/214/cost": 8}})
        source = tmp_path / "record.json"
        source.write_text(export_text(store, played.id, "record"))
    assert import_overlay(tmp_path / "mine.json", source) == 0


def test_a_record_cannot_bring_a_printed_value(tmp_path, record):
    """Neither in its overlay nor on one of its lines."""
    poisoned = _signed({**record, "overlay": {**record["overlay"], "values": {
        "setup": {"end_conditions": {"points": 1}}}}})
    with Store.open(tmp_path / "there.sqlite", overlay=tmp_path / "mine.json") as store:
        with pytest.raises(RecordError) as error:
            import_record(store, poisoned)
        assert "setup/end_conditions/points" in str(error.value)
        assert END_AT_40 in str(error.value)
        assert store.games() == []
        line = json.loads(json.dumps(record))
        line["commands"][0]["command"]["catalogue"] = {"setup/end_conditions/points": 1}
        with pytest.raises(RecordError, match=r"command 1 .new_game. is refused: .*40 or more"):
            import_record(store, _signed(line))
    source = tmp_path / "record.json"
    source.write_text(json.dumps(poisoned))
    with pytest.raises(CatalogueError, match="setup/end_conditions/points"):
        import_overlay(tmp_path / "mine.json", source)
    assert not (tmp_path / "mine.json").exists()


# -- the example position -------------------------------------------------------------------

def test_the_example_position_scores_the_same_whatever_the_users_overlay_says():
    """The rulebook's Scoring Example: Anna 142, Beth 141, Connor 159 - with an overlay (in the
    test's own data folder) that says Sector 121 has 2 living quarters and moves a link."""
    overlay = paths.overlay_path()
    set_user_value(overlay, "sectors", "121", "quarters", 2)
    set_user_value(overlay, "sectors", "214", "color", "teal")
    done = cli("score", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    total = next(line for line in done.stdout.splitlines() if line.startswith("TOTAL"))
    assert total.split() == ["TOTAL", "142", "141", "159"]
    assert "Winner: Connor" in done.stdout
    assert read_overlay(overlay) == {"sectors": {"121": {"quarters": 2},
                                                 "214": {"color": "teal"}}}


def test_the_example_position_carries_its_values_marked_as_examples():
    data = json.loads(EXAMPLE.read_text())
    assert data["example"] is True
    assert data["catalogue"]["sectors/121/quarters"] == 3


def test_a_positions_own_values_go_on_top_of_the_users_and_never_change_printed_ones(tmp_path):
    overlay = tmp_path / "overlay.json"
    set_user_value(overlay, "sectors", "121", "quarters", 2)
    catalogue = load_catalogue(overlay=overlay)
    data = json.loads(EXAMPLE.read_text())
    del data["example"]
    assert parse_position(data, catalogue)[0].sectors[3].quarters == 3  # the file's own
    del data["catalogue"]["sectors/121/quarters"]
    with pytest.raises(PositionError, match="the catalogue has 2 living quarters"):
        parse_position(data, catalogue)
    data["catalogue"]["setup/final_scoring/resident_points"] = 5
    with pytest.raises(PositionError, match="the rulebook prints this value"):
        parse_position(data, catalogue)
