"""Bombs and bad files for the dice reader (issue 28, classes 4 and 5): one size check
(vision.limits) before anything is decoded or unpacked, used by every reader of photos and
profiles; bad labels and profiles refused with one message (exit 2), never a traceback. The
memory a refused bomb takes is measured in a subprocess (ru_maxrss), never a time."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import threading
import zipfile
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import limits
from vision.camera import CameraError, open_camera
from vision.cli import main as dice_main
from vision.dataset import DatasetError, load_dataset
from vision.frames import ImageError, load_image
from vision.live import DiceWatcher
from vision.profile import Profile, ProfileError

REPO = Path(__file__).resolve().parents[2]
MEMORY_LIMIT_MB = 400  # a refused bomb: the interpreter, numpy and OpenCV, nothing decoded


def png_claiming(width: int, height: int, payload: bytes = b"\0" * 100) -> bytes:
    """A small PNG whose header declares width x height pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(payload))
            + chunk(b"IEND", b""))


def png_bomb(path: Path) -> Path:
    """About 875 KB of PNG declaring 30000x30000 pixels (its data: zeros, deflated)."""
    rows = zlib.compressobj(9)
    data = b"".join(rows.compress(b"\0" * (1 + 30000 * 3)) for _ in range(2000)) + rows.flush()
    path.write_bytes(png_claiming(30000, 30000)[:33] + struct.pack(">I", len(data)) + b"IDAT"
                     + data + struct.pack(">I", zlib.crc32(b"IDAT" + data) & 0xFFFFFFFF)
                     + png_claiming(1, 1)[-12:])
    return path


def sparse_photo(path: Path, size: int = 2 * 1024 ** 3) -> Path:
    """A 'photo' of `size` bytes that takes no room on disk: a PNG header, then a hole."""
    with path.open("wb") as handle:
        handle.write(png_claiming(4000, 3000))
        handle.truncate(size)
    return path


def labelled_folder(folder: Path, dice: list, photo: bytes | None = None, width=640,
                    height=480) -> Path:
    folder.mkdir(exist_ok=True)
    if photo is None:
        cv2.imwrite(str(folder / "a.png"), np.full((480, 640, 3), 128, np.uint8))
    else:
        (folder / "a.png").write_bytes(photo)
    (folder / "labels.json").write_text(json.dumps(
        {"a.png": {"width": width, "height": height, "dice": dice}}))
    return folder


def zip_bomb_profile(path: Path, unpacked: int = 1024 ** 3) -> Path:
    """A .npz whose features array unpacks to `unpacked` bytes of zeros (a real bomb: the zip
    is about a thousandth of that)."""
    header = {"descr": "<f4", "fortran_order": False, "shape": (unpacked // 4,)}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, \
            archive.open("features.npy", "w", force_zip64=True) as member:
        np.lib.format.write_array_header_1_0(member, header)
        block = b"\0" * (1 << 20)
        for _ in range(unpacked // len(block)):
            member.write(block)
    return path


def npz_with(path: Path, **arrays: np.ndarray) -> Path:
    with path.open("wb") as handle:
        np.savez(handle, **arrays)
    return path


def good_arrays(**change) -> dict:
    meta = {"kind": "pips", "version": 2, "die_size": 0.1, "colour_reach": 0.0,
            "face_map": {"1": "food", "2": "food", "3": "water", "4": "water", "5": "metal",
                         "6": "human"}}
    arrays = {"features": np.ones((1, 7, 4), np.float32), "labels": np.array(["1"], "U8"),
              "colours": np.zeros((1, 3), np.float32),
              "network_reads": np.zeros((7, 7), np.int32), "meta": np.array(json.dumps(meta))}
    arrays.update(change)
    return arrays


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = dice_main(list(argv))
    except SystemExit as done:
        code = done.code
    out, err = capsys.readouterr()
    return code, out, err


def child_memory_mb(tmp_path: Path, *argv: str) -> tuple[int, str, float]:
    """Run `phoenix-dice ARGV` in a fresh process (its own user folders); its exit code,
    stderr and the most memory it held (ru_maxrss, MB). A wrapper process runs it, so that
    only that one child is measured."""
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PHOENIX_COMPANION_HOME":
           str(tmp_path / "data"), "PHOENIX_COMPANION_CONFIG": str(tmp_path / "config")}
    wrapper = ("import json, resource, subprocess, sys\n"
               "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
               "print(json.dumps([done.returncode, done.stderr, "
               "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))\n")
    done = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-m", "vision.cli",
                           *argv], capture_output=True, text=True, cwd=REPO, env=env,
                          check=True)
    code, err, maxrss_kb = json.loads(done.stdout)
    return code, err, maxrss_kb / 1024


# -- one check before decoding, used by every reader ------------------------------------------

READERS = ("load_image", "read", "calibrate", "watch folder", "camera folder", "profile")


def _read_with(reader: str, bad: Path, tmp_path: Path, capsys) -> str:
    """Read the too-large file `bad` the way `reader` does; the message it is refused with."""
    if reader == "load_image":
        with pytest.raises(ImageError) as refused:
            load_image(bad)
        return str(refused.value)
    if reader == "camera folder":
        folder = tmp_path / "frames"
        folder.mkdir()
        os.link(bad, folder / "frame.png")
        with open_camera(folder) as camera, pytest.raises(CameraError) as refused:
            camera.read()
        return str(refused.value)
    if reader == "profile":
        with pytest.raises(ProfileError) as refused:
            Profile.load(bad)
        return str(refused.value)
    if reader == "read":
        argv = ["read", str(bad)]
    elif reader == "calibrate":
        folder = labelled_folder(tmp_path / "set", [{"value": 1, "box": [0.1, 0.1, 0.2, 0.2]}])
        (folder / "a.png").unlink()
        os.link(bad, folder / "a.png")
        argv = ["calibrate", str(folder), "--out", str(tmp_path / "p.npz")]
    else:
        folder = tmp_path / "frames"
        folder.mkdir()
        os.link(bad, folder / "frame.png")
        argv = ["watch", "--camera", str(folder), "--frames", "1"]
    code, out, err = cli(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("reader", READERS)
def test_every_reader_checks_the_size_before_reading(reader, tmp_path, capsys, monkeypatch):
    bad = tmp_path / "bad.png"
    bad.write_bytes(png_claiming(640, 480))
    if reader == "profile":
        npz_with(bad, **good_arrays())
        monkeypatch.setattr("vision.profile.MAX_ARRAY_BYTES", 10)
    else:
        monkeypatch.setattr("vision.frames.MAX_IMAGE_BYTES", 20)  # the file is larger
    message = _read_with(reader, bad, tmp_path, capsys)
    assert ".png" in message or ".npz" in message, message  # the file is named
    assert "too large" in message or "more than" in message, message


@pytest.mark.parametrize("reader", READERS[:5])
def test_every_photo_reader_refuses_a_png_bomb_before_decoding(reader, tmp_path, capsys,
                                                                monkeypatch):
    def no_decoding(*args, **kwargs):
        raise AssertionError("a bomb was decoded")

    monkeypatch.setattr(cv2, "imdecode", no_decoding)
    bomb = png_bomb(tmp_path / "bomb.png")
    assert bomb.stat().st_size < 2_000_000
    message = _read_with(reader, bomb, tmp_path, capsys)
    assert "30000x30000" in message and "50 megapixels" in message


def test_image_headers_give_the_size_without_decoding(tmp_path):
    frame = np.zeros((30, 40, 3), np.uint8)
    for suffix in (".png", ".jpg", ".bmp", ".webp", ".tif"):
        ok, data = cv2.imencode(suffix, frame)
        assert ok and limits.image_size(data.tobytes()) == (40, 30), suffix
    assert limits.image_size(b"GIF89a" + b"\0" * 20) is None
    assert limits.image_size(b"\xff\xd8\xff") is None  # cut short
    (tmp_path / "odd.png").write_bytes(b"P6 40 30 255\n" + b"\0" * 3600)
    with pytest.raises(ImageError, match="a PNG, JPEG, BMP, WebP or TIFF"):
        load_image(tmp_path / "odd.png")


def test_a_48_megapixel_photo_passes_the_check():
    assert limits.check_image_bytes(png_claiming(8000, 6000), "phone.png") == (8000, 6000)
    with pytest.raises(limits.TooLarge):
        limits.check_image_bytes(png_claiming(10000, 5001), "big.png")


def test_a_png_bomb_is_refused_in_little_memory(tmp_path):
    bomb = png_bomb(tmp_path / "bomb.png")
    for argv in (["read", str(bomb)],
                 ["calibrate", str(labelled_folder(tmp_path / "set", [], bomb.read_bytes())),
                  "--out", str(tmp_path / "p.npz")]):
        code, err, memory = child_memory_mb(tmp_path, *argv)
        assert code == 2 and "30000x30000" in err and "Traceback" not in err, err
        assert memory < MEMORY_LIMIT_MB, (argv[0], memory)


def test_a_sparse_2_gib_photo_is_refused_unread(tmp_path):
    photo = sparse_photo(tmp_path / "huge.png")
    code, err, memory = child_memory_mb(tmp_path, "read", str(photo))
    assert code == 2 and "huge.png" in err and "too large for a photo" in err, err
    assert memory < MEMORY_LIMIT_MB, memory


# -- profiles ---------------------------------------------------------------------------------

def test_a_zip_bomb_profile_is_refused_unpacked(tmp_path):
    bomb = zip_bomb_profile(tmp_path / "bomb.npz")
    assert bomb.stat().st_size < 5_000_000
    with pytest.raises(ProfileError, match="unpacks to more than a calibration profile"):
        Profile.load(bomb)
    photo = tmp_path / "tray.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 128, np.uint8))
    code, err, memory = child_memory_mb(tmp_path, "read", "--profile", str(bomb), str(photo))
    assert code == 2 and "bomb.npz" in err and "Traceback" not in err, err
    assert memory < MEMORY_LIMIT_MB, memory


def _claiming_3_tib(path: Path) -> Path:
    """A profile whose features array's header claims 3 TiB of float32 (its data: 16 bytes)."""
    arrays = good_arrays()
    npz_with(path, **arrays)
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    header = {"descr": "<f4", "fortran_order": False, "shape": (3 * 1024 ** 4 // 4,)}
    import io
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, header)
    members["features.npy"] = buffer.getvalue() + b"\0" * 16
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


BAD_PROFILES = {
    "3 TiB header": (lambda p: _claiming_3_tib(p), "claims more numbers than it holds"),
    "metadata a list": (lambda p: npz_with(p, **good_arrays(meta=np.array("[1, 2]"))),
                        "not an object with a face map"),
    "NaN features": (lambda p: npz_with(p, **good_arrays(
        features=np.full((1, 7, 4), np.nan, np.float32))), "not finite"),
    "infinite colours": (lambda p: npz_with(p, **good_arrays(
        colours=np.full((1, 3), np.inf, np.float32))), "not finite"),
    "NaN die size": (lambda p: npz_with(p, **good_arrays(meta=np.array(json.dumps(
        {**json.loads(str(good_arrays()["meta"])), "die_size": float("nan")})))), "not finite"),
    "negative reads": (lambda p: npz_with(p, **good_arrays(
        network_reads=np.full((7, 7), -1, np.int32))), "negative"),
    "pickled object": (lambda p: npz_with(p, **good_arrays(
        labels=np.array([{"a": 1}], dtype=object))), "not a readable profile"),
}


@pytest.mark.parametrize("case", BAD_PROFILES)
def test_a_bad_profile_is_refused_with_one_message(case, tmp_path, capsys):
    make, words = BAD_PROFILES[case]
    profile = make(tmp_path / "bad.npz")
    with pytest.raises(ProfileError, match=words):
        Profile.load(profile)
    photo = tmp_path / "tray.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 128, np.uint8))
    code, out, err = cli(capsys, "read", "--profile", str(profile), str(photo))
    assert code == 2 and out == "" and "bad.npz: not a readable profile" in err, err
    assert "calibrate again" in err and err.count("\n") == 1


def test_a_good_profile_still_loads(tmp_path):
    profile = Profile.load(npz_with(tmp_path / "good.npz", **good_arrays()))
    assert profile.kind == "pips" and profile.features.shape == (1, 7, 4)


# -- labels -----------------------------------------------------------------------------------

BAD_LABELS = {
    "box of strings": ([{"value": 1, "box": ["0.1", "0.1", "0.2", "0.2"]}], {}),
    "box a string": ([{"value": 1, "box": "abcd"}], {}),
    "zero-size box": ([{"value": 1, "box": [0.2, 0.2, 0.2, 0.3]}], {}),
    "negative box": ([{"value": 1, "box": [0.3, 0.3, 0.2, 0.2]}], {}),
    "1e300 box": ([{"value": 1, "box": [0.1, 0.1, 1e300, 0.2]}], {}),
    "zero width": ([{"value": 1, "box": [0.1, 0.1, 0.2, 0.2]}], {"width": 0}),
    "negative height": ([{"value": 1, "box": [0.1, 0.1, 0.2, 0.2]}], {"height": -480}),
    "1e300 width": ([{"value": 1, "box": [0.1, 0.1, 0.2, 0.2]}], {"width": 1e300}),
    "1e300 value": ([{"value": 1e300, "box": [0.1, 0.1, 0.2, 0.2]}], {}),
    "a die a number": ([7], {}),
    "hard a string": ([{"value": 1, "box": [0.1, 0.1, 0.2, 0.2], "hard": "yes"}], {}),
    "sides a string": ([{"value": 1, "box": [0.1, 0.1, 0.2, 0.2], "sides": "left"}], {}),
    "a side of no size": ([{"value": 1, "box": [0.1, 0.1, 0.2, 0.2],
                            "sides": [[0.1, 0.2, 0.2, 0.2]]}], {}),
    "five sides": ([{"value": 1, "box": [0.1, 0.1, 0.2, 0.2],
                     "sides": [[0.1, 0.2, 0.2, 0.3]] * 5}], {}),
}


@pytest.mark.parametrize("case", BAD_LABELS)
def test_bad_labels_are_refused_with_one_message(case, tmp_path, capsys):
    dice, size = BAD_LABELS[case]
    folder = labelled_folder(tmp_path / "set", dice, **size)
    with pytest.raises(DatasetError, match=r"bad entry for 'a\.png'"):
        load_dataset(folder)
    for argv in (["calibrate", str(folder), "--out", str(tmp_path / "p.npz")],
                 ["bench", str(folder)]):
        code, out, err = cli(capsys, *argv)
        assert code == 2 and out == "" and "labels.json: bad entry for 'a.png'" in err, err
        assert err.count("\n") == 1


def test_calibrate_with_10000_dice_on_one_photo_is_refused_in_little_memory(tmp_path, capsys):
    dice = [{"value": 1 + k % 6, "box": [0.001 * (k % 900), 0.01 * (k // 900),
                                         0.001 * (k % 900) + 0.001, 0.01 * (k // 900) + 0.01]}
            for k in range(10_000)]
    folder = labelled_folder(tmp_path / "set", dice)
    code, out, err = cli(capsys, "calibrate", str(folder), "--out", str(tmp_path / "p.npz"))
    assert out == ""
    assert code == 2 and "10000 dice, more than the 100 one photo may have" in err, err
    code, err, memory = child_memory_mb(tmp_path, "calibrate", str(folder), "--out",
                                        str(tmp_path / "p.npz"))
    assert code == 2 and "Traceback" not in err and memory < MEMORY_LIMIT_MB, (err, memory)
    assert not (tmp_path / "p.npz").exists()


def test_too_many_photos_or_too_large_labels_are_refused(tmp_path, monkeypatch):
    folder = labelled_folder(tmp_path / "set", [])
    monkeypatch.setattr("vision.dataset.MAX_PHOTOS", 0)
    with pytest.raises(DatasetError, match="more than the 0 one folder may have"):
        load_dataset(folder)
    monkeypatch.setattr("vision.dataset.MAX_LABELS_BYTES", 10)
    with pytest.raises(DatasetError, match=r"too large for labels\.json"):
        load_dataset(folder)


# -- the camera source ------------------------------------------------------------------------

def test_a_superscript_digit_is_no_camera_number(tmp_path, capsys):
    with pytest.raises(CameraError, match="no such camera, folder or file"):
        open_camera("²")
    code, out, err = cli(capsys, "watch", "--camera", "²", "--frames", "1")
    assert code == 2 and out == ""
    assert code == 2 and "digits 0-9" in err and "Traceback" not in err, err


def test_an_unexpected_camera_failure_is_shown_and_the_watcher_goes_on():
    tries = []

    def broken_camera():
        tries.append(threading.current_thread().name)
        raise ZeroDivisionError("a driver's bug")

    watcher = DiceWatcher(broken_camera, lambda: None, retry_seconds=0.01)
    with watcher:
        for _ in range(500):
            if len(tries) >= 3:
                break
            threading.Event().wait(0.01)
        assert len(tries) >= 3  # still trying: the thread did not end
        assert "camera cannot be opened (ZeroDivisionError: a driver's bug)" in watcher.problem


def test_an_unexpected_read_failure_is_shown_and_the_watcher_goes_on():
    class Broken:
        name = "broken"
        reads = 0

        def open(self):
            pass

        def read(self):
            Broken.reads += 1
            raise KeyError("frame")

        def close(self):
            pass

    watcher = DiceWatcher(Broken, lambda: None, retry_seconds=0.01)
    with watcher:
        for _ in range(500):
            if Broken.reads >= 3:
                break
            threading.Event().wait(0.01)
        assert Broken.reads >= 3
        assert "camera failed (KeyError: 'frame')" in watcher.problem
