"""What a player's phone page shows (companion/web/page.py), from the demo game at turn 9 (Cat
has used her Transport ship; Bob's Transport Diplomacy bonus waits): the player's own station,
counters, ships and score from the engine, the question on the page of the player it waits on
and the waiting line on the others', the log in words, each page in its own language while the
table speaks another."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion import i18n
from companion.rules.report import final_score
from companion.rules.state import count
from companion.rules.words import amount
from companion.ui.kit.undo_redo_model import step_name
from companion.ui.shell.session import GameSession
from companion.web.page import offered, player_page
from companion.web.snapshot import Snapshot

ANN, BOB, CAT = 0, 1, 2


@pytest.fixture
def demo(tmp_path: Path):
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open_demo()
    assert session.problem == ""
    yield session
    session.close()


def snapshot(session: GameSession) -> Snapshot:
    return Snapshot.of(1, session.game, session.options())


def test_the_page_shows_the_players_own_books_as_the_engine_has_them(demo):
    page = player_page(snapshot(demo), BOB)
    bob = demo.state["players"][BOB]
    me = page["me"]
    assert (me["name"], me["color"]) == ("Bob", bob["color"])
    assert me["counters"] == [amount(c, count(bob, c)) for c in ("gems", "food", "water", "metal")]
    assert me["points"] == amount("points", count(bob, "points"))
    total = final_score(demo.state, demo.game.game.catalogue).players[BOB].total
    assert me["projected"] == f"{total} points if the game ended now"
    levels = bob["diplomacy"]
    assert [(d["track"], d["level"]) for d in me["diplomacy"]] == [
        ("Dismantle", levels["dismantle"]), ("Construct", levels["construction"]),
        ("Transport", levels["transport"]), ("Expedition", levels["expedition"])]
    top = demo.game.game.catalogue.field("diplomacy", "board", "top_level").value
    assert {d["top"] for d in me["diplomacy"]} == {top}
    assert {"name": "Farm L2", "used": True, "note": "your marker"} in me["ships"]
    assert me["hub"] == f"Hub {bob['hub']}"
    assert page["turn"] == "Turn 9 · Cat's turn" and page["my_turn"] is False
    assert [o["name"] for o in page["others"]] == ["Ann", "Cat"]


def test_the_station_lists_every_sector_built_with_its_quarters(demo):
    shown = snapshot(demo)
    for seat, player in enumerate(demo.state["players"]):
        station = player_page(shown, seat)["me"]["station"]
        titles = [s["title"] for wing in station["wings"] for s in wing["sectors"]]
        assert sorted(titles) == sorted(f"Sector {s['number']} · Level {s['level']}"
                                        for s in player["sectors"])
        assert len(station["hub"]["quarters"]) == len(player["hub_slots"])


def test_the_bonus_waiting_on_a_player_is_their_question_and_the_others_wait(demo):
    shown = snapshot(demo)
    question = player_page(shown, BOB)["question"]
    assert question["title"] == "Your Transport Diplomacy bonus - choose one"
    assert question["track"] == "transport"
    assert [(c["levels"], c["label"], c["allowed"]) for c in question["choices"]] == [
        ([0], "1 GEM", True), ([1], "2 GEMs", True)]
    for seat in (ANN, CAT):
        page = player_page(shown, seat)
        assert page["question"] is None
        assert page["waiting"] == "Bob chooses a Transport Diplomacy bonus"


def test_the_log_names_the_last_steps_newest_first(demo):
    page = player_page(snapshot(demo), ANN)
    steps = demo.game.game.steps
    assert page["log"][0] == step_name(steps[-1].events)
    assert page["log"][1] == step_name(steps[-2].events)
    assert len(page["log"]) <= 8


def test_a_page_speaks_its_readers_language_while_the_table_speaks_its_own(demo):
    shown = snapshot(demo)
    pages = {}

    def phone() -> None:
        with i18n.speaking("de"):
            pages["de"] = player_page(shown, BOB)

    reader = threading.Thread(target=phone)
    reader.start()
    reader.join()
    assert i18n.language() == "en"
    english = player_page(shown, BOB)
    assert pages["de"]["lang"] == "de" and english["lang"] == "en"
    assert pages["de"]["question"]["title"] == \
        "Dein Diplomatie-Bonus (Transportieren) - wähle einen"
    assert pages["de"]["turn"] == "Zug 9 · Cat ist dran"
    assert english["question"]["title"] == "Your Transport Diplomacy bonus - choose one"


def test_only_a_choice_on_offer_to_that_player_now_is_taken(demo):
    opts = demo.options()
    pick, why = offered(opts, "Bob", "transport", [1])
    assert pick is not None and pick["levels"] == [1] and why == ""
    for player, track, levels, words in (
            ("Ann", "transport", [1], "not waiting on you"),
            ("Bob", "construction", [1], "not waiting on you"),
            ("Bob", "transport", [3], "not on offer")):
        pick, why = offered(opts, player, track, levels)
        assert pick is None and words in why


def test_a_game_still_being_set_up_says_so(tmp_path):
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open()
    assert session.new_game() == ""
    page = player_page(Snapshot.of(1, session.game, None), 0)
    assert page["turn"] == "The game is being set up on the table."
    assert page["me"] == {} and page["question"] is None
    session.close()


def test_at_the_end_the_page_gives_the_final_score(tmp_path):
    from ui_fixtures import replayed

    db = tmp_path / "games.sqlite"
    replayed(db, "three-players-draft.jsonl")
    session = GameSession(db, tmp_path / "overlay.json")
    session.open()
    session.open_game(1)
    assert session.state["phase"] == "over"
    sheet = final_score(session.state, session.game.game.catalogue)
    shown = Snapshot.of(1, session.game, session.options())
    for seat, column in enumerate(sheet.players):
        page = player_page(shown, seat)
        assert page["over"] is True and page["turn"] == "The game is over."
        assert page["me"]["projected"] == f"Final score: {column.total} points"
        assert page["question"] is None and page["my_turn"] is False
    session.close()
