"""The catalogue screen in German in the real app under Xvfb (tests/ui/drive_catalogue.py): a
rulebook quote stays English, with the German summary's words below it where they exist.
Screenshots (named "-de") go to build/screenshots/ (or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")


def test_a_rulebook_quote_reads_in_english_with_the_german_summarys_words_below(
        run_ui_driver, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[display]\nlanguage = "de"\n', encoding="utf-8")
    result = run_ui_driver("drive_catalogue.py", "quotes-de", shots=SHOTS,
                           args=("--config", str(config)))
    assert result["ok"], result.get("traceback")
    assert result["title"] == "Schiff Verschrotten L1"
    level = result["level"]
    assert level["note"] == "\u201cEach player starts with a fixed set of five Level-1 ships.\u201d"
    assert level["rendering"] == ("Deutsch: Jeder Spieler legt seine fünf Start-Raumschiffe "
                                  "(in Form von Karten) vor sich aus.")
    assert level["whole"]
    # an inferred value's reasoning: no quotation marks, nothing beside it
    assert not result["type"]["note"].startswith("\u201c") and result["type"]["rendering"] == ""
    # a quote the German summary does not cover: the English alone
    cost = result["cost"]
    assert cost["note"] == "\u201cSector 218 costs 9 metal to build.\u201d"
    assert cost["rendering"] == "" and cost["whole"]
    bonus = result["bonus"]
    assert bonus["note"].startswith("\u201cTokens on the starting level never receive a bonus.")
    assert bonus["rendering"].startswith("Deutsch: Einen Bonus erhält jeder Spieler, ")
    assert bonus["whole"]  # two quotes, wrapped, inside their line
    assert result["scroll_y"] == 1  # the first line at the top, not sprung off it
    for name in ("catalogue-quote", "catalogue-quote-diplomacy"):
        assert (SHOTS / f"{name}-de-800x480.png").stat().st_size > 10_000
