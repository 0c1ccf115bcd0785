"""Income, the station view, an adjustment and the end screen in the real app under Xvfb,
driven by simulated touches (tests/ui/drive_play.py, one process per scenario). Screenshots go
to build/screenshots/ (or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

from pathlib import Path

from ui_fixtures import SHOTS, replayed

SCRIPT = "drive_play.py"


def test_income_with_an_income_power_and_a_relocation(run_ui_driver) -> None:
    """Bob takes Hub A-7's Diplomacy action during income; Cat moves a resident for 1 GEM."""
    result = run_ui_driver(SCRIPT, "income", shots=SHOTS, args=("--demo",))
    bob = result["bob"]
    assert bob["receipt"] == ["Hub A-7: 1 GEM x 9 ships = 9 GEMs", "Total: 9 GEMs"]
    assert "Bob pays 1 GEM: lobbying for Construct level 1" in bob["preview"]
    after = result["after_bob"]["players"]["Bob"]
    assert after["diplomacy"] == "Dis 0  Con 1  Tra 1  Exp 3"
    assert after["counters"].startswith("16 GEMs")
    assert result["moves"][0] == "Move pink (P) in Sector 121 quarter 1 -> Sector 121: 1 GEM"
    cat = result["cat"]
    assert cat["receipt"] == ["Hub A-4: 2 GEM x 7 ships = 14 GEMs",
                              "Sector 121 quarter 1 = 1 food", "Sector 121 quarter 2 = 1 water",
                              "Total: 14 GEMs, 1 food and 1 water"]
    assert "Cat pays 1 GEM: relocating a resident" in cat["preview"]
    assert cat["preview"][-1] == "Sector 121: P P -> P P"
    assert result["table"]["players"]["Cat"]["counters"] == "14 GEMs  1 food  1 water  8 metal"
    assert (SHOTS / "income-800x480.png").stat().st_size > 10_000



def test_the_end_announced_then_the_score_sheet_with_the_winner_large(
        run_ui_driver, tmp_path: Path) -> None:
    """The 2-player example: Ann's 41 points trigger the end; Next after Bob's last turn shows
    the sheet (Ann 42, Bob 62, Bob wins), also from home's list of games."""
    db = tmp_path / "games.sqlite"
    replayed(db, "two-players-first-game.jsonl", leave_out=1)
    result = run_ui_driver(SCRIPT, "end", shots=SHOTS, args=("--db", str(db)))
    assert result["table"]["end"] == ("Ann has 41 points (40 or more): final round, this is the "
                                      "last turn")
    assert result["table"]["active"] == "Bob"
    for sheet in (result["sheet"], result["again"]):
        assert sheet["totals"] == {"Ann": "42", "Bob": "62"}
        assert sheet["track"] == {"Ann": "41", "Bob": "8"}
        assert sheet["winner"] == "Bob wins with 62 points"
        assert sheet["tiebreak"] == ""
        assert sheet["winner_px"] >= 28 and sheet["total_px"] >= 28
        assert all(ratio >= 4.5 for ratio in sheet["header_contrast"].values()), sheet
    assert (SHOTS / "end-800x480.png").stat().st_size > 10_000


def test_the_station_view_and_a_counter_corrected_with_a_note(run_ui_driver) -> None:
    """Cat's station: Sector 121's pink residents read off the screen (placed this turn: not
    counting yet); her GEMs corrected from 1 to 5 - refused without a note, done with one."""
    result = run_ui_driver(SCRIPT, "station-adjust", shots=SHOTS, args=("--demo",))
    station = result["station"]
    assert station["title"] == "Cat's station (yellow) · Hub A-4"
    assert station["wings"] == ["wing:pink"]
    assert station["residents"] == [["resident:121:0", "P", False],
                                    ["resident:121:1", "P", False]]
    assert station["ink"] == [0.0, 0.0, 0.0, 1] and station["fill"] == [0.9, 0.4, 0.62, 1]
    assert result["note_title"] == "Why Cat's gems: 1 -> 5?"
    assert result["no_note"] == "a correction needs a note saying why"
    assert result["gems"] == "5 GEMs"
    assert result["table"]["players"]["Cat"]["counters"].startswith("5 GEMs")
    assert result["table"]["undo"] == "Undo: Adjusted Cat's gems by +4: Gem under board"
    for name in ("station", "adjust"):
        assert (SHOTS / f"{name}-800x480.png").stat().st_size > 10_000
