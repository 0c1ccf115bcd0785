"""Every writer of the app's files goes through companion.files.write_atomically (issue 28,
class 2): whatever stands at the target that is not a regular file of its own (a symbolic link,
a hard-linked file, a FIFO, a device, a folder, a socket) is refused with a message naming it,
nothing hangs, and the target (and what a link points to) is left untouched."""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing
import os
import shutil
import socket
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import open_config_file, save_config_file
from companion.export import file_name, save_export
from companion.files import JsonFileError, write_atomically
from companion.rules.script import parse
from companion.store import Store
from companion.store.export import BGG_ID
from vision.cli import main as dice_main

REPO = Path(__file__).resolve().parent.parent
STORE_TESTS = REPO / "tests" / "store"
DICE_PHOTOS = REPO / "tests" / "vision" / "fixtures"


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    """A database holding one short game, and its overlay beside it."""
    folder = tmp_path_factory.mktemp("db")
    overlay = folder / "overlay.json"
    shutil.copyfile(STORE_TESTS / "long_game_overlay.json", overlay)
    lines = (STORE_TESTS / "long_game.jsonl").read_text(encoding="utf-8").splitlines()
    path = folder / "games.sqlite"
    with Store.open(path, overlay=overlay) as store:
        played = store.new_game("Friday")
        for line in list(parse(lines))[:10]:
            played.execute(line.command)
    return path


def _quiet(run: Callable[[], int]) -> tuple[int, str]:
    """Run a writer: its exit code (2 for a refusal raised as an exception) and what it said."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = run()
    except (JsonFileError, ValueError) as error:
        return 2, str(error)
    assert "Traceback" not in err.getvalue()
    return code, err.getvalue()


# Each writer: (the target path it writes in `folder`, or None when any path may be given;
# how to run it onto `target`).
def _export_o(db: Path, folder: Path, target: Path) -> int:
    return main(["--overlay", str(db.parent / "overlay.json"), "export", "--game", "1",
                 "--db", str(db), "-o", str(target)])


def _catalogue_export(db: Path, folder: Path, target: Path) -> int:
    return main(["--overlay", str(folder / "mine.json"), "catalogue", "--export", str(target)])


def _calibrate_out(db: Path, folder: Path, target: Path) -> int:
    return dice_main(["calibrate", str(DICE_PHOTOS), "--out", str(target)])


def _teach_out(db: Path, folder: Path, target: Path) -> int:
    return dice_main(["teach", "--from-folder", str(folder), "--out", str(target)])


def _settings_bad_copy(db: Path, folder: Path, target: Path) -> int:
    config = folder / "config.toml"
    config.write_text("this is not [[ toml\n")
    save_config_file(open_config_file(config))
    return 0


def _screen_export(db: Path, folder: Path, target: Path) -> int:
    with Store.open(db, overlay=db.parent / "overlay.json", write=False) as store:
        save_export(store, 1, "record", target.parent, BGG_ID)
    return 0


def _write_atomically(db: Path, folder: Path, target: Path) -> int:
    write_atomically(target, b"new content\n")
    return 0


def _screen_export_name(db: Path) -> str:
    with Store.open(db, overlay=db.parent / "overlay.json", write=False) as store:
        info = store.game_info(1)
    return file_name(info.name, info.updated, "record")


WRITERS: dict[str, tuple[str | None, Callable[[Path, Path, Path], int]]] = {
    "export -o": (None, _export_o),
    "catalogue --export": (None, _catalogue_export),
    "phoenix-dice calibrate --out": (None, _calibrate_out),
    "phoenix-dice teach --out": (None, _teach_out),
    "settings' config.toml.bad copy": ("config.toml.bad", _settings_bad_copy),
    "export from the screen": ("<screen export>", _screen_export),
    "write_atomically": (None, _write_atomically),
}
TARGETS = ["symbolic link", "hard link", "FIFO", "device", "folder", "socket"]


def _in_child(run: Callable[[], tuple[int, str]]) -> tuple[int, str]:
    """Run in a forked child with a time limit: a writer that opens a FIFO would block."""
    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe(duplex=False)

    def body() -> None:
        child.send(run())

    process = context.Process(target=body)
    process.start()
    got = parent.poll(60)
    if not got:
        process.kill()
    process.join(10)
    assert got, "the writer hung on a FIFO"
    return parent.recv()


@pytest.mark.parametrize("kind", TARGETS)
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_every_writer_refuses_what_is_not_a_file_of_its_own(db, tmp_path, writer, kind):
    name, run = WRITERS[writer]
    folder = tmp_path / "out"
    folder.mkdir()
    if name == "<screen export>":
        name = _screen_export_name(db)
    target = folder / (name or "target.out")
    victim = tmp_path / "elsewhere" / "precious.txt"
    victim.parent.mkdir()
    victim.write_bytes(b"keep me\n")
    if kind == "symbolic link":
        target.symlink_to(victim)
    elif kind == "hard link":
        os.link(victim, target)
    elif kind == "FIFO":
        os.mkfifo(target)
    elif kind == "device":
        if name is None:
            target = Path("/dev/null")
        elif os.geteuid() == 0:
            os.mknod(target, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # another /dev/null
        else:
            pytest.fail("a device node at a fixed name needs root (CI runs as root)",
                        pytrace=False)
    elif kind == "folder":
        target.mkdir()
    elif kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        here = os.getcwd()
        os.chdir(target.parent)  # a socket's path is at most 107 bytes: bind it by its name
        try:
            server.bind(target.name)
        finally:
            os.chdir(here)
    before = sorted(p.name for p in folder.iterdir())
    mode = os.lstat(target).st_mode

    def attempt() -> tuple[int, str]:
        return _quiet(lambda: run(db, folder, target))

    code, said = _in_child(attempt) if kind == "FIFO" else attempt()
    assert code == 2, said
    assert str(target) in said and said.count("\n") <= 1, said
    if kind == "hard link":
        assert "has another name (a hard link)" in said
    else:
        assert "not a regular file" in said
    assert "nothing was written" in said
    assert victim.read_bytes() == b"keep me\n"
    assert os.lstat(target).st_mode == mode
    if kind == "folder":
        assert not any(target.iterdir())
    if str(target.parent) == str(folder):
        left = sorted(p.name for p in folder.iterdir())
        assert [n for n in left if n not in before and n not in ("mine.json", "config.toml")] == []
    if writer == "settings' config.toml.bad copy":
        assert (folder / "config.toml").read_text() == "this is not [[ toml\n"


def test_a_regular_file_is_replaced_atomically_and_privately(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old\n")
    write_atomically(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_export_into_a_symlinked_folder_is_refused(db, tmp_path, capsys):
    real = tmp_path / "real"
    real.mkdir()
    linked = tmp_path / "linked"
    linked.symlink_to(real)
    target = linked / "game.json"
    code = main(["--overlay", str(db.parent / "overlay.json"), "export", "--game", "1",
                 "--db", str(db), "-o", str(target)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == (f"phoenix-companion: {target}: its folder {linked} is a symbolic link; "
                   "nothing was written (give the folder's own path)\n")
    assert not any(real.iterdir())


def test_settings_keep_the_bad_file_as_a_copy_of_its_own(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("this is not [[ toml\n")
    saved = save_config_file(open_config_file(config))
    assert not saved.bad
    bad = tmp_path / "config.toml.bad"
    assert bad.read_text() == "this is not [[ toml\n" and not bad.is_symlink()
    assert bad.stat().st_nlink == 1


def test_the_profile_written_by_calibrate_reads_back(tmp_path, capsys):
    out = tmp_path / "profiles" / "table.npz"
    assert dice_main(["calibrate", str(DICE_PHOTOS), "--out", str(out)]) == 0
    assert "saved" in capsys.readouterr().out
    assert out.is_file() and stat.S_IMODE(out.stat().st_mode) == 0o600
    assert json.loads((DICE_PHOTOS / "labels.json").read_text())  # the photos are untouched
