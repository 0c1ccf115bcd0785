"""Every screen of the app walked by touch in the real app under Xvfb (tests/ui/drive_walk.py),
in English and in German, each audited before every tap (tests/ui/screen_audit.py): no internal
id, no English on a German screen, no text cut off - the walk fails with the findings. Its
stops are saved as screenshots (walk-*.png, "-de-" in German) in build/screenshots/ (or
$PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_fixtures import SHOTS, replayed

# What the walk must have audited: every screen, and the pop-ups a game opens.
SCREENS = {"home", "settings", "catalogue", "stats", "calculator", "past_game", "setup",
           "table", "action", "income", "station", "end"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_screen_reads_clean(run_ui_driver, tmp_path: Path, language: str) -> None:
    from companion import i18n

    db = tmp_path / "games.sqlite"
    i18n.set_language(language)  # the stored game named in the language walked
    replayed(db, "two-players-first-game.jsonl")
    config = tmp_path / "config.toml"
    config.write_text(f'[display]\nlanguage = "{language}"\n', encoding="utf-8")
    result = run_ui_driver("drive_walk.py", "walk", shots=SHOTS,
                           args=("--db", str(db), "--config", str(config)))
    assert result["ok"], result.get("error")
    assert result["language"] == language
    assert set(result["audited"]) >= SCREENS, SCREENS - set(result["audited"])
