"""tools/d6_tray_corrected.py: the d6-tray label corrections, on a stand-in labels file (the
real set is not in a clone)."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "tools"))
from d6_tray_corrected import RELABELLED, UNLABELLED, corrected, main


def stand_in() -> dict:
    """A labels file with one die of value 1 at each relabelled point, and another die."""
    labels: dict = {}
    for name, (x, y), _ in RELABELLED + [(n, (0, 0), 0) for n, _, _ in UNLABELLED]:
        entry = labels.setdefault(name, {"width": 640, "height": 640, "dice": []})
        if (x, y) != (0, 0):
            box = [(x - 10) / 640, (y - 10) / 640, (x + 10) / 640, (y + 10) / 640]
            entry["dice"].append({"value": 1, "box": box})
        entry["dice"].append({"value": 2, "box": [0.9, 0.9, 0.95, 0.95]})
    return labels


def test_relabels_the_dice_named_and_adds_the_unlabelled_ones() -> None:
    labels = stand_in()
    fixed = corrected(labels)
    for name, _, value in RELABELLED:
        assert fixed[name]["dice"][0]["value"] == value
    for name, (x0, y0, x1, y1), value in UNLABELLED:
        assert {"value": value, "box": [x0 / 640, y0 / 640, x1 / 640, y1 / 640]} \
            in fixed[name]["dice"]
    assert sum(len(e["dice"]) for e in fixed.values()) == \
        sum(len(e["dice"]) for e in labels.values()) + len(UNLABELLED)
    assert all(d["value"] in (1, 2) for e in labels.values() for d in e["dice"])  # not changed


def test_another_folder_is_refused_and_nothing_written(tmp_path: Path, capsys) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "labels.json").write_text(json.dumps({"a.jpg": {"width": 1, "height": 1,
                                                             "dice": []}}))
    assert main([str(other), str(tmp_path / "out")]) == 2
    assert "not the d6-tray set" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_writes_a_linked_copy(tmp_path: Path) -> None:
    source = tmp_path / "d6"
    source.mkdir()
    labels = stand_in()
    (source / "labels.json").write_text(json.dumps(labels))
    for name in labels:
        (source / name).write_bytes(b"jpeg")
    assert main([str(source), str(tmp_path / "out")]) == 0
    assert json.loads((tmp_path / "out" / "labels.json").read_text()) == corrected(labels)
    assert (tmp_path / "out" / RELABELLED[0][0]).read_bytes() == b"jpeg"
    with pytest.raises(ValueError, match="expected 1"):
        corrected({RELABELLED[0][0]: {"width": 640, "height": 640, "dice": []}})
