"""The past game's model (points by turn, log, summaries), the chart's geometry and the export
folder, the QR code's matrix, without a window."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_fixtures import replayed

from companion import export
from companion.store import Store, StoreError
from companion.ui.games.chart_model import layout, tick_step
from companion.ui.games.past_game_model import Series, history, minutes
from companion.ui.kit.qr_model import QUIET, module_pixels, qr_matrix


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("past") / "games.sqlite"
    replayed(db, "two-players-first-game.jsonl")
    with Store.open(db, overlay=db.parent / "overlay.json") as store:
        played = store.open_game(store.games()[0].id)
        yield store, history(played.game.steps, played.state, played.catalogue)


def test_points_by_turn_end_with_the_final_tally(finished) -> None:
    _store, seen = finished
    ann, bob = seen.series
    assert (ann.name, ann.color, bob.name, bob.color) == ("Ann", "red", "Bob", "blue")
    assert ann.points[:4] == [(0, 0), (1, 5), (2, 5), (3, 9)]
    assert ann.points[-2:] == [(26, 41), (27, 42)] and bob.points[-2:] == [(26, 8), (27, 62)]
    assert seen.final and seen.turns == 26


def test_the_log_and_what_each_player_did(finished) -> None:
    _store, seen = finished
    assert seen.log[0].startswith("New game for Ann, Bob") and len(seen.log) > 200
    bob = seen.summaries[1]
    assert (bob.dismantled, bob.sectors, bob.residents) == (1, 3, {"teal": 3, "gold": 1,
                                                                   "human": 1})
    assert bob.text().startswith("Bob (blue, Hub B-3): 1 ship dismantled, 3 Sectors built")


def test_the_chart_scales_turns_and_points_into_its_box() -> None:
    series = [Series("Ann", "red", [(0, 0), (1, 10), (2, 45)])]
    drawn = layout(series, (10, 20, 200, 100), final=True)
    assert drawn.lines == [[10, 20, 110, 20 + 100 * 10 / 50, 210, 20 + 100 * 45 / 50]]
    assert [label for label, _ in drawn.y_ticks] == ["0", "10", "20", "30", "40", "50"]
    assert [label for label, _ in drawn.x_ticks] == ["0", "1", "Final"]
    assert tick_step(26, 10) == 5 and tick_step(62, 6) == 20


def test_minutes() -> None:
    assert minutes("2026-11-27T19:00:00+00:00", "2026-11-27T21:30:12+00:00") == 150


def test_usb_sticks_are_writable_mount_points(tmp_path: Path) -> None:
    (tmp_path / "user" / "STICK").mkdir(parents=True)
    assert export.usb_mounts([tmp_path / "user", tmp_path / "missing"]) == []  # not mounted
    assert export.target_folder(tmp_path, []) == tmp_path / "exports"
    assert export.target_folder(tmp_path, [Path("/media/STICK")]) == Path("/media/STICK")
    assert export.file_name("Friday: Ann/Bob", "2026-11-27T21:30", "bgstats") == \
        "phoenix-2026-11-27-Friday-Ann-Bob.bgsplay"


def test_a_failed_export_says_why_and_changes_nothing(finished, tmp_path: Path) -> None:
    store, _seen = finished
    before = store.games()
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder should be")
    with pytest.raises(StoreError, match=r"could not be written to .*the game is unchanged"):
        export.save_export(store, before[0].id, "csv", blocked, 356414)
    assert store.games() == before
    saved = export.save_export(store, before[0].id, "csv", tmp_path / "stick", 356414)
    assert saved.read_text().startswith("Category,Ann,Bob")


def test_the_qr_matrix_has_its_quiet_zone_and_whole_pixel_modules() -> None:
    matrix = qr_matrix("https://app.bgstatsapp.com/createPlay.html?data=%7B%7D")
    side = len(matrix) - 2 * QUIET  # a QR code is 17 + 4 * version modules across
    assert side % 4 == 1 and all(len(row) == len(matrix) for row in matrix)
    for edge in (matrix[0], matrix[-1], [row[0] for row in matrix], [row[-1] for row in matrix]):
        assert not any(edge)
    assert matrix[QUIET][QUIET:QUIET + 7] == [True] * 7  # a finder pattern's top edge
    assert module_pixels(468, 137) == 3 and module_pixels(100, 137) == 0
