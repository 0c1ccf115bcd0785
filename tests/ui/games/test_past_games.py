"""Past games in the real app under Xvfb (tests/ui/drive_past.py): home's list, a finished
game's chart (its data points read off the widget), log and players, the three exports to a
folder standing in for a USB stick, the BG Stats QR code (the matrix drawn is the link's),
rename, and deleting another game after asking."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

from ui_fixtures import SHOTS, replayed

from companion import export
from companion.store import Store
from companion.ui.kit.qr_model import qr_matrix


def test_past_games_chart_log_export_rename_delete(run_ui_driver, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    replayed(db, "two-players-first-game.jsonl")
    replayed(db, "three-players-draft.jsonl", leave_out=40)
    with Store.open(db, overlay=tmp_path / "overlay.json", write=False) as store:
        finished = next(g for g in store.games() if g.finished)
        link = export.create_play_link(store, finished.id, 356414)  # before the rename
    usb = tmp_path / "usb-stick"
    usb.mkdir()
    result = run_ui_driver("drive_past.py", "details", shots=SHOTS, args=("--db", str(db)),
                           extra_env={"PHOENIX_TEST_USB": str(usb)})
    assert len(result["home"]) == 2
    assert "Winner: Bob" in " ".join(result["home"])
    assert result["info"].endswith("min") and "26 turns" in result["info"]
    chart = result["chart"]
    assert chart["final"] is True
    assert chart["colors"] == {"Ann": "red", "Bob": "blue"}
    ann, bob = chart["series"]["Ann"], chart["series"]["Bob"]
    assert ann[0] == [0, 0] and ann[-2] == [26, 41] and ann[-1] == [27, 42]
    assert bob[-2] == [26, 8] and bob[-1] == [27, 62]  # the final tally as the last step
    assert sorted(chart["legend"]) == ["Ann: 42", "Bob: 62"]
    assert "Final" in chart["ticks"] and chart["lines"] > 2
    assert result["end_chart"]["series"] == chart["series"]  # the end screen's chart
    assert result["log"][0].startswith("New game for Ann, Bob")
    assert result["log_count"] > 200
    assert any("Bob (blue, Hub B-3): 1 ship dismantled, 3 Sectors built" in line
               for line in result["players"])
    saved = sorted(usb.iterdir())
    assert [p.suffix for p in saved] == [".bgsplay", ".csv", ".json"]
    for kind, message in result["exports"].items():
        assert message.startswith("Saved the ") and str(usb) in message, (kind, message)
    assert json.loads((usb / saved[2].name).read_text())["format"] == \
        "phoenix-companion-game-record"
    assert (usb / saved[1].name).read_text().startswith("Category,Ann,Bob")
    assert result["renamed"] == "Friday"
    assert result["unfinished_open"] == "Resume"
    assert "not over yet" in result["unfinished_bgstats"]
    assert "Delete" in result["question"] and "other games stay" in result["question"]
    assert len(result["after_delete"]) == 1 and "Friday" in result["after_delete"][0]
    with Store.open(db, write=False) as store:
        (left,) = store.games()
        assert left.name == "Friday" and left.finished and left.scores == {"Ann": 42, "Bob": 62}
    assert (SHOTS / "past-game-chart-800x480.png").stat().st_size > 10_000
    assert result["unfinished_phone"] is False  # BG Stats takes finished plays only
    for seen in result["qr"]:  # the past game's pop-up, then the end screen's
        assert seen["link"] == link and seen["matrix"] == qr_matrix(link)
        assert "Scan this with your phone's camera" in seen["help"]
        assert seen["pixels"] >= 3 and seen["drawn"] == [len(seen["matrix"]) * seen["pixels"]] * 2
    data = json.loads(unquote(link.partition("?data=")[2]))  # the link's data round-trips
    assert [(p["name"], p["score"], p["winner"]) for p in data["players"]] == [
        ("Ann", 42, False), ("Bob", 62, True)]
    assert data["game"]["bggId"] == 356414
