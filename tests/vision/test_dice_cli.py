"""`phoenix-dice` command line: JSON schema, overlay, bad input, teach/read icons, bench."""

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from synth_dice import render_tray

from vision.cli import main
from vision.faces import FACES

FIXTURES = Path(__file__).parent / "fixtures"


def first_fixture() -> Path:
    return sorted(FIXTURES.glob("*.jpg"))[0]


def test_read_json_schema(capsys, fixture_labels) -> None:
    image = first_fixture()
    assert main(["read", str(image), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip())
    assert out["image"] == str(image)
    assert len(out["dice"]) == len(fixture_labels[image.name]["dice"])
    for die in out["dice"]:
        assert set(die) == {"value", "face", "box", "confidence", "uncertain"}
        assert die["value"] in range(1, 7)
        assert die["face"] in FACES
        x0, y0, x1, y1 = die["box"]
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 640
        assert 0 <= die["confidence"] <= 1


def test_read_several_images_one_line_each(capsys) -> None:
    images = [str(p) for p in sorted(FIXTURES.glob("*.jpg"))[:2]]
    assert main(["read", *images, "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [json.loads(line)["image"] for line in lines] == images


def test_face_map_option(capsys) -> None:
    image = str(first_fixture())
    assert main(["read", image, "--json", "--face-map", "1-6=metal"]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert dice and {d["face"] for d in dice} == {"metal"}
    assert main(["read", image, "--face-map", "1-6=gold"]) == 2
    assert "gold" in capsys.readouterr().err


def test_overlay_is_written(tmp_path: Path, capsys) -> None:
    out = tmp_path / "overlay.png"
    image = first_fixture()
    assert main(["read", "--overlay", str(out), str(image)]) == 0
    assert "dice" in capsys.readouterr().out
    overlay, original = cv2.imread(str(out)), cv2.imread(str(image))
    assert overlay.shape == original.shape
    assert np.count_nonzero(np.abs(overlay.astype(int) - original).sum(axis=2) > 60) > 500


def test_bad_files_exit_2_naming_them(tmp_path: Path, capsys) -> None:
    text = tmp_path / "notes.jpg"
    text.write_text("this is not a picture")
    assert main(["read", str(text), "--json"]) == 2
    err = capsys.readouterr().err
    assert "notes.jpg" in err and "not a readable image" in err
    assert main(["read", str(tmp_path / "missing.png")]) == 2
    assert "missing.png" in capsys.readouterr().err
    assert main(["read", str(first_fixture()), "--overlay", str(tmp_path / "x.nope")]) == 2
    assert "x.nope" in capsys.readouterr().err


def test_black_frame_reads_no_dice_with_a_hint(tmp_path: Path, capsys) -> None:
    black = tmp_path / "black.png"
    cv2.imwrite(str(black), np.zeros((480, 640, 3), np.uint8))
    assert main(["read", str(black), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dice"] == [] and "too dark" in out["hint"]


def test_teach_from_folder_then_read_icons(tmp_path: Path, capsys) -> None:
    shots = tmp_path / "shots"
    for face in FACES:
        (shots / face).mkdir(parents=True)
        for k in range(2):
            frame, _ = render_tray([face] * 3, seed=300 + 10 * k + FACES.index(face))
            cv2.imwrite(str(shots / face / f"{k}.png"), frame)
    model = tmp_path / "icons.npz"
    assert main(["teach", "--from-folder", str(shots), "--out", str(model)]) == 0
    assert "6 food" in capsys.readouterr().out and model.is_file()
    frame, _ = render_tray(["human", "water", "metal"], seed=999)
    image = tmp_path / "roll.png"
    cv2.imwrite(str(image), frame)
    assert main(["read", str(image), "--json", "--profile", str(model)]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert sorted(d["face"] for d in dice) == ["human", "metal", "water"]
    assert all(d["value"] is None for d in dice)


def test_read_icons_without_a_model_exits_2(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("PHOENIX_COMPANION_HOME", str(tmp_path))
    assert main(["read", str(first_fixture()), "--icons"]) == 2
    assert "teach" in capsys.readouterr().err


def test_teach_folder_missing_a_face_exits_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "food").mkdir()
    assert main(["teach", "--from-folder", str(tmp_path), "--out", str(tmp_path / "m.npz")]) == 2
    assert "water" in capsys.readouterr().err


def test_watch_replays_a_folder_and_reports_the_settled_reading(tmp_path: Path, capsys) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    image = first_fixture()
    for k in range(8):
        shutil.copy(image, frames / f"{k:02d}.jpg")
    assert main(["watch", "--camera", str(frames), "--fps", "10", "--settle", "0.5",
                 "--frames", "8"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["count_ok"] is None


def test_watch_reports_a_lost_camera(tmp_path: Path, capsys) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(first_fixture(), frames / "a.jpg")
    assert main(["watch", "--camera", str(frames), "--fps", "10"]) == 1
    assert "no more images" in capsys.readouterr().err


def test_bench_on_the_fixture_folder(capsys) -> None:
    assert main(["bench", str(FIXTURES), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["images"] == len(list(FIXTURES.glob("*.jpg")))
    assert result["die_accuracy"] == 1.0 and result["exact_rate"] == 1.0
    assert result["median_ms"] > 0


def test_bench_other_models(tmp_path: Path, capsys) -> None:
    """`--models FOLDER` benches trained networks instead of the shipped ones; a folder without
    them is a clear error."""
    shipped = Path(__file__).parents[2] / "vision" / "models"
    for name in ("dice_detector.onnx", "dice_pips.onnx", "dice_sides.onnx"):
        (tmp_path / name).write_bytes((shipped / name).read_bytes())
    assert main(["bench", str(FIXTURES), "--json", "--models", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["die_accuracy"] == 1.0
    (tmp_path / "dice_pips.onnx").unlink()
    assert main(["bench", str(FIXTURES), "--models", str(tmp_path)]) == 2
    assert "dice_pips.onnx: model file missing" in capsys.readouterr().err


def test_bench_calibrates_with_the_networks_it_reads_with(tmp_path: Path, capsys,
                                                          monkeypatch) -> None:
    """`--calibrate K --models FOLDER`: the profile's looks come from FOLDER's classifier too (a
    profile learned with other networks would be compared in another feature space)."""
    import vision.cli

    shipped = Path(__file__).parents[2] / "vision" / "models"
    for name in ("dice_detector.onnx", "dice_pips.onnx", "dice_sides.onnx"):
        (tmp_path / name).write_bytes((shipped / name).read_bytes())
    folders = []

    class Recording(vision.cli.PipReader):
        def __init__(self, *args, **kwargs) -> None:
            folders.append(kwargs.get("model_dir"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(vision.cli, "PipReader", Recording)
    assert main(["bench", str(FIXTURES), "--calibrate", "2", "--json",
                 "--models", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["images"] == 1
    assert folders == [tmp_path, tmp_path]  # the calibration's reader, then the bench's


def test_bench_bad_folder_exits_2(tmp_path: Path, capsys) -> None:
    assert main(["bench", str(tmp_path)]) == 2
    assert "labels.json" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [[], ["read"], ["frobnicate"]])
def test_usage_errors_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
