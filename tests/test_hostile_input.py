"""Careless and crafted input to every command line: one message naming the file and what to
do, exit code 2, never a traceback (the game database's cases are in tests/store)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.config import load_config
from vision.cli import main as dice_main

REPO = Path(__file__).resolve().parent.parent

BAD_JSON = {
    "nested 100,000 deep": ("[" * 100_000 + "]" * 100_000).encode(),
    "a 5,000-digit number": b'{"players": [{"points": ' + b"9" * 5000 + b"}]}",
    "not UTF-8": b'{"players": [{"name": "Ann\xff"}]}',
    "a lone surrogate": b'{"players": [{"name": "Ann\\ud800"}]}',
}
MESSAGES = {
    "nested 100,000 deep": "not usable JSON: nested more than 64 levels deep",
    "a 5,000-digit number": "not usable JSON: a number of 5000 digits (at most 30)",
    "not UTF-8": "not UTF-8 text (line 1, byte 26); save it as UTF-8",
    "a lone surrogate": "holds a lone surrogate",
}


def _cli(capsys, *argv: str, run=main) -> tuple[int, str, str]:
    try:
        code = run(list(argv))
    except SystemExit as done:  # argparse's own errors
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


@pytest.mark.parametrize("case", sorted(BAD_JSON))
@pytest.mark.parametrize("command", ["score", "import", "catalogue --import", "--overlay"])
def test_every_json_reader_refuses_bad_json_with_one_message(tmp_path, capsys, case, command):
    bad = tmp_path / "bad.json"
    bad.write_bytes(BAD_JSON[case])
    argv = {"score": ["score", str(bad)],
            "import": ["import", str(bad), "--db", str(tmp_path / "games.sqlite")],
            "catalogue --import": ["--overlay", str(tmp_path / "mine.json"), "catalogue",
                                   "--import", str(bad)],
            "--overlay": ["--overlay", str(bad), "catalogue", "--summary"]}[command]
    code, out, err = _cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("phoenix-companion: ") and err.count("\n") == 1
    assert "bad.json: " in err and MESSAGES[case] in err
    assert not (tmp_path / "games.sqlite").exists()


def test_a_fifo_is_not_read_as_a_file(tmp_path):
    fifo = tmp_path / "position.json"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "companion.cli", "score", str(fifo)], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == (f"phoenix-companion: {fifo}: not a regular file (a FIFO); give the "
                           "path of a file\n")


@pytest.mark.parametrize("target", ["/dev/null", "/dev/full"])
def test_catalogue_export_never_writes_onto_a_device(tmp_path, capsys, target):
    code, _, err = _cli(capsys, "--overlay", str(tmp_path / "mine.json"), "catalogue",
                        "--export", target)
    assert code == 2
    assert err == (f"phoenix-companion: {target}: is a device, not a regular file; nothing was "
                   "written (choose a file name)\n")


def test_score_output_to_a_full_device():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "companion.cli", "score",
                               "companion/data/examples/rulebook-3p.json"], cwd=REPO,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "phoenix-companion: cannot write the output (No space left on device)\n"


# -- config.toml ------------------------------------------------------------------------------

@pytest.mark.parametrize("content, problem", [
    (b'[panel]\nkind = "gpio\xff"\n', "not UTF-8 text (line 2, byte 20); save it as UTF-8; "
                                      "using the default settings"),
    (b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n",
     "is nested too deeply to be a config file; using the default settings"),
])
def test_a_config_that_cannot_be_read_gives_the_defaults_and_says_why(tmp_path, capsys,
                                                                      content, problem):
    path = tmp_path / "config.toml"
    path.write_bytes(content)
    loaded = load_config(path)  # what the app does at start: it starts, with the problem shown
    assert loaded.panel.kind == "none"
    assert len(loaded.problems) == 1 and problem in loaded.problems[0]
    code, out, _ = _cli(capsys, "panel-test", "--config", str(path), "--seconds", "0")
    assert code == 2 and "no panel configured" in out


# -- phoenix-dice -----------------------------------------------------------------------------

def _png_claiming(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))


@pytest.fixture
def photos(tmp_path) -> Path:
    cv2.imwrite(str(tmp_path / "thin.png"), np.full((5000, 2, 3), 128, np.uint8))
    cv2.imwrite(str(tmp_path / "tray.png"), np.full((480, 640, 3), 128, np.uint8))
    (tmp_path / "huge.png").write_bytes(_png_claiming(100_000, 100_000))
    (tmp_path / "empty.npz").write_bytes(b"")
    return tmp_path


@pytest.mark.parametrize("argv, message", [
    (["read", "{d}/thin.png"], "thin.png: 2x5000 pixels cannot be a photo of the dice tray "
                               "(each side at least 16 pixels"),
    (["read", "{d}/huge.png"], "huge.png: not a readable image (too large or damaged)"),
    (["read", "--profile", "{d}/empty.npz", "{d}/tray.png"],
     "empty.npz: not a readable profile"),
    (["watch", "--camera", "99999999999999999999"],
     "argument --camera: camera index 99999999999999999999: there is no such camera (0 to 63"),
    (["watch", "--camera", "{d}/tray.png", "--settle", "-1"],
     "argument --settle: '-1': give a number from 0 to 60"),
    (["watch", "--camera", "{d}/tray.png", "--expect", "-3"],
     "argument --expect: '-3': give a number from 1 to 100"),
    (["read", "--overlay", "{d}/tray.png", "{d}/tray.png"],
     "tray.png: that is the photo being read; choose another file name"),
    (["read", "--overlay", "{d}/../{n}/tray.png", "{d}/tray.png"],
     "that is the photo being read"),
    (["read", "--overlay", "/dev/null", "{d}/tray.png"],
     "/dev/null: is a device, not a regular file; nothing was written"),
])
def test_phoenix_dice_refuses_bad_input_with_one_message(photos, capsys, argv, message):
    before = (photos / "tray.png").read_bytes()
    argv = [a.format(d=photos, n=photos.name) for a in argv]
    code, out, err = _cli(capsys, *argv, run=dice_main)
    assert code == 2 and out == "" and message in err, err
    assert (photos / "tray.png").read_bytes() == before


@pytest.mark.parametrize("version", [True, 1.0, "1"])
def test_an_overlay_version_must_be_the_whole_number(tmp_path, capsys, version):
    overlay = tmp_path / "mine.json"
    overlay.write_text(json.dumps({"format": "phoenix-companion-catalogue-overlay",
                                   "version": version, "values": {}}))
    code, _, err = _cli(capsys, "--overlay", str(overlay), "catalogue", "--summary")
    assert code == 2 and f"unsupported overlay version {version!r}" in err
