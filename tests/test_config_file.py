"""The config file's [display] table, editing it with its comments and unknown tables kept, the
atomic save and the copy of an unusable file, and where the file is: the config folder, where
settings left in the data folder are moved once (companion.config, companion.paths)."""

from __future__ import annotations

import errno
import logging
import os
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import paths
from companion.config import (
    BgStatsConfig,
    CameraConfig,
    DisplayConfig,
    LoggingConfig,
    PhonesConfig,
    default_config_path,
    load_config,
    open_config_file,
    parse_window_size,
    save_config_file,
)
from hardware.config import PanelConfig

KEPT = """# written by hand
[camera]
source = "2"   # the overhead camera

[panel]
kind = "serial"
keyboard = false

[panel.serial]
usb = "2e8a:000a"
"""


def write(tmp_path, text, name="config.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_display_defaults_and_values(tmp_path):
    assert load_config(write(tmp_path, "")).display == DisplayConfig(False, (800, 480))
    config = load_config(write(tmp_path, '[display]\nfullscreen = true\nsize = "1024x600"\n'))
    assert config.display == DisplayConfig(True, (1024, 600)) and config.problems == ()


@pytest.mark.parametrize(("text", "key"), [
    ("[display]\nfullscreen = 1", "display.fullscreen"),
    ('[display]\nsize = "big"', "display.size"),
    ('[display]\nsize = "100x100"', "display.size"),
    ("[display]\nsize = 800", "display.size"),
    ("[display]\nfulscreen = true", "display.fulscreen"),
    ("display = 1", "display"),
    ('[display]\ntouch = "finger"', "display.touch"),
    ("[display]\nrotation = 45", "display.rotation"),
    ("[display]\nrotation = 90.0", "display.rotation"),
    ('[display]\nrotation = "90"', "display.rotation"),
    ("[display]\nbrightness = 5", "display.brightness"),
    ("[display]\nbrightness = 50.5", "display.brightness"),
    ('[display]\nbrightness = "max"', "display.brightness"),
])
def test_a_bad_display_value_is_reported_and_the_panel_still_read(tmp_path, text, key):
    path = write(tmp_path, f'{text}\n[panel]\nkind = "serial"\n')
    config = load_config(path)
    assert config.display == DisplayConfig() and config.panel.kind == "serial"
    [problem] = config.problems
    assert f"{path}: {key}:" in problem and "default display settings" in problem


def test_the_camera_defaults_to_none_and_takes_a_source_and_a_profile(tmp_path):
    assert load_config(write(tmp_path, "")).camera == CameraConfig(
        "none", "pips", "1-2=food,3-4=water,5=metal,6=human", "", "", 0.5)
    assert not CameraConfig().on
    config = load_config(write(tmp_path, '[camera]\nsource = 1\nprofile = "t.npz"\n'
                                         'settle = 1\n'))
    assert config.camera == CameraConfig("1", profile="t.npz", settle=1.0) and config.camera.on
    assert config.camera.reads_dice and not config.problems


def test_the_camera_reads_pip_dice_through_a_face_map_or_taught_icon_dice(tmp_path, monkeypatch):
    """DESIGN.md: "Pip dice (any ordinary d6) with a face map, default 1-2 food, 3-4 water,
    5 metal, 6 Human, configurable"; "Teaching icon dice is a calibration"."""
    monkeypatch.setenv("PHOENIX_COMPANION_HOME", str(tmp_path / "home"))
    config = load_config(write(tmp_path, '[camera]\nsource = "auto"\n'
                                         'faces = "1-3=food,4=water,5=metal,6=human"\n'))
    assert config.camera.face_map == {1: "food", 2: "food", 3: "food", 4: "water", 5: "metal",
                                      6: "human"}
    icons = load_config(write(tmp_path, '[camera]\nsource = "auto"\ndice = "icons"\n')).camera
    assert icons.icon_profile == tmp_path / "home" / "icon-dice.npz"
    assert not icons.reads_dice  # not taught yet: the faces are tapped in
    icons.icon_profile.parent.mkdir()
    icons.icon_profile.write_bytes(b"taught")
    assert icons.reads_dice


@pytest.mark.parametrize("text, key", [
    ('[camera]\nsource = ""\n', "camera.source"),
    ("[camera]\nsource = -1\n", "camera.source"),
    ("[camera]\nprofile = 3\n", "camera.profile"),
    ('[camera]\nsettle = "soon"\n', "camera.settle"),
    ("[camera]\nsettle = 11\n", "camera.settle"),
    ("[camera]\nindex = 2\n", "camera.index"),
    ('[camera]\ndice = "d8"\n', "camera.dice"),
    ('[camera]\nfaces = "1-4=food,6=human"\n', "camera.faces"),
    ('[camera]\nfaces = "1-2=food,3-4=water,5=metal,6=gold"\n', "camera.faces"),
    ("[camera]\nfaces = 6\n", "camera.faces"),
    ("[camera]\nicons = false\n", "camera.icons"),
])
def test_a_bad_camera_value_is_reported_and_no_camera_used(tmp_path, text, key):
    config = load_config(write(tmp_path, text))
    assert config.camera == CameraConfig()
    [problem] = config.problems
    assert f": {key}: " in problem and problem.endswith("using no camera (dice are tapped in)")


def test_touch_and_rotation(tmp_path):
    assert (DisplayConfig().touch, DisplayConfig().rotation) == ("auto", 0)
    config = load_config(write(tmp_path, '[display]\ntouch = "mtdev"\nrotation = 270\n'))
    assert (config.display.touch, config.display.rotation) == ("mtdev", 270)
    config = load_config(write(tmp_path, '[display]\ntouch = "finger"\n'))
    assert config.problems[0].endswith('display.touch: must be one of "auto", "mouse", '
                                       '"hidinput", "mtdev", got \'finger\'; using the default '
                                       "display settings")


def test_the_logging_level(tmp_path):
    assert load_config(write(tmp_path, "")).logging == LoggingConfig("info")
    assert load_config(write(tmp_path, '[logging]\nlevel = "debug"\n')).logging.level == "debug"
    for text, key in (('level = "loud"', "logging.level"), ("level = 10", "logging.level"),
                      ('format = "%(message)s"', "logging.format")):
        config = load_config(write(tmp_path, f'[logging]\n{text}\n[display]\nrotation = 90\n'))
        assert config.logging == LoggingConfig() and config.display.rotation == 90
        [problem] = config.problems
        assert f"{key}:" in problem and "default logging settings (level info)" in problem


def test_the_boardgamegeek_id(tmp_path):
    """[bgstats] bgg_id overrides the id every BG Stats export and link carries."""
    assert load_config(write(tmp_path, "")).bgstats == BgStatsConfig(356414)
    assert load_config(write(tmp_path, "[bgstats]\nbgg_id = 12345\n")).bgstats.bgg_id == 12345
    for text, key in (("bgg_id = 0", "bgstats.bgg_id"), ('bgg_id = "356414"', "bgstats.bgg_id"),
                      ("bgg_id = 1.5", "bgstats.bgg_id"), ("bgg_id = true", "bgstats.bgg_id"),
                      ("bgg = 1", "bgstats.bgg"), ("", "bgstats")):
        table = f"[bgstats]\n{text}" if text else "bgstats = 7"
        config = load_config(write(tmp_path, f"{table}\n[logging]\nlevel = \"debug\"\n"))
        assert config.bgstats.bgg_id == 356414 and config.logging.level == "debug"
        [problem] = config.problems
        assert f"{key}:" in problem and "the default BoardGameGeek id 356414" in problem


def test_the_phones_are_on_by_default_and_take_a_port_and_an_address(tmp_path):
    """[phones] on, port and address: the players' pages served, where, and what links name."""
    assert load_config(write(tmp_path, "")).phones == PhonesConfig(True, 8080, "auto")
    text = '[phones]\non = false\nport = 8123\naddress = "phoenix.local"\n'
    assert load_config(write(tmp_path, text)).phones == PhonesConfig(False, 8123, "phoenix.local")
    for text, key in (("port = 80", "phones.port"), ("port = 70000", "phones.port"),
                      ('port = "8080"', "phones.port"), ('on = "yes"', "phones.on"),
                      ('address = "http://x/"', "phones.address"),
                      ("address = 5", "phones.address"), ('address = "<b>"', "phones.address"),
                      ("web = 1", "phones.web")):
        config = load_config(write(tmp_path, f'[phones]\n{text}\n[logging]\nlevel = "debug"\n'))
        assert config.phones == PhonesConfig() and config.logging.level == "debug"
        [problem] = config.problems
        assert f"{key}:" in problem and "the default phone settings (on, port 8080)" in problem


def test_the_pi_config_template_is_read_without_problems():
    config = load_config(Path(__file__).parents[1] / "deploy" / "config.toml")
    assert config.problems == ()
    assert config.display.touch == "auto" and config.logging.level == "info"


def test_the_command_line_wins_over_the_file():
    saved = DisplayConfig(fullscreen=True, size=(1280, 800))
    assert saved.window(False, None) == (True, (1280, 800))
    assert saved.window(True, (1024, 600)) == (True, (1024, 600))
    assert DisplayConfig().window(True, None) == (True, (800, 480))


def test_window_size_text():
    assert parse_window_size("1024X600") == (1024, 600)
    with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
        parse_window_size("1024x")


def test_saving_keeps_comments_and_what_is_not_edited(tmp_path):
    path = write(tmp_path, KEPT)
    file = open_config_file(path)
    assert not file.bad
    file.document["panel"]["kind"] = "gpio"
    save_config_file(file)
    text = path.read_text(encoding="utf-8")
    assert "# written by hand" in text and "# the overhead camera" in text
    assert tomllib.loads(text) == {"camera": {"source": "2"},
                                   "panel": {"kind": "gpio", "keyboard": False,
                                             "serial": {"usb": "2e8a:000a"}}}
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]  # no temporary file left


def test_a_missing_file_is_created_with_its_folder(tmp_path):
    path = tmp_path / "new" / "config.toml"
    file = open_config_file(path)
    assert not file.bad and file.check()["panel"] == PanelConfig()
    file.document["display"] = {"fullscreen": True}
    save_config_file(file)
    assert load_config(path).display.fullscreen


@pytest.mark.parametrize("original", [b'[panel]\nkind = "gpio\n', b"\xff",
                                      b"[panel.gpio]\nundo = 99\n"])
def test_an_unusable_file_is_kept_as_bad_when_replaced(tmp_path, original):
    path = tmp_path / "config.toml"
    path.write_bytes(original)
    file = open_config_file(path)
    assert file.bad and file.check()["panel"] == PanelConfig()
    file.document["display"] = {"size": "1280x800"}
    saved = save_config_file(file)
    assert not saved.bad
    assert (tmp_path / "config.toml.bad").read_bytes() == original
    config = load_config(path)
    assert config.problems == () and config.display.size == (1280, 800)


def test_a_bad_table_is_left_out_but_the_other_tables_kept(tmp_path):
    path = write(tmp_path, '[camera]\nsource = "1"\n[panel]\nkind = "usb"\n')
    file = open_config_file(path)
    assert file.bad and dict(file.document.unwrap()) == {"camera": {"source": "1"}}


def test_a_file_that_cannot_be_written_changes_nothing(tmp_path):
    folder = tmp_path / "config.toml"
    folder.mkdir()  # a folder where the file should be
    file = open_config_file(tmp_path / "other.toml")
    file = type(file)(folder, file.document)
    with pytest.raises((OSError, ValueError)):
        save_config_file(file)
    assert folder.is_dir()


# -- where the file is: the config folder, and the one-time move from the data folder ----------

OLD_TEXT = '[display]\nrotation = 90\n'


@pytest.fixture
def folders(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """The data folder's old config.toml (its text OLD_TEXT) and the config folder's, not
    there yet."""
    data, config = tmp_path / "data", tmp_path / "config"
    monkeypatch.setenv("PHOENIX_COMPANION_HOME", str(data))
    monkeypatch.setenv("PHOENIX_COMPANION_CONFIG", str(config))
    data.mkdir()
    (data / "config.toml").write_text(OLD_TEXT, encoding="utf-8")
    return data / "config.toml", config / "config.toml"


@pytest.mark.parametrize(("env", "folder"), [
    ({"PHOENIX_COMPANION_CONFIG": "/etc/phoenix", "XDG_CONFIG_HOME": "/x"}, "/etc/phoenix"),
    ({"PHOENIX_COMPANION_CONFIG": "", "XDG_CONFIG_HOME": "/x"}, "/x/phoenix-companion"),
    ({"XDG_CONFIG_HOME": "/x"}, "/x/phoenix-companion"),
    ({"XDG_CONFIG_HOME": "relative"}, "HOME/.config/phoenix-companion"),  # the spec: ignored
    ({"XDG_CONFIG_HOME": ""}, "HOME/.config/phoenix-companion"),
    ({}, "HOME/.config/phoenix-companion"),
])
def test_the_config_folder(monkeypatch, tmp_path, env, folder):
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("PHOENIX_COMPANION_CONFIG", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("XDG_DATA_HOME", "/data")  # the data folder's variable is not used
    expected = Path(folder.replace("HOME", str(tmp_path)))
    assert paths.config_folder() == expected
    assert paths.config_file() == expected / "config.toml" == default_config_path()


def test_the_data_folder_ignores_a_relative_xdg_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("PHOENIX_COMPANION_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", "share")
    assert paths.data_folder() == tmp_path / ".local" / "share" / "phoenix-companion"
    monkeypatch.setenv("XDG_DATA_HOME", "/share")
    assert paths.data_folder() == Path("/share/phoenix-companion")


def test_settings_in_the_data_folder_are_moved_once_and_read(folders, caplog):
    old, new = folders
    (old.parent / "config.toml.bad").write_text("kept", encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="companion.config"):
        config = load_config()
    assert config.display.rotation == 90 and config.path == new
    assert new.read_text(encoding="utf-8") == OLD_TEXT and not old.exists()
    assert (old.parent / "config.toml.bad").read_text(encoding="utf-8") == "kept"  # left
    assert [record.getMessage() for record in caplog.records] == [
        f"settings moved from {old} to {new}"]
    caplog.clear()
    assert default_config_path() == new and not caplog.records  # once


def test_settings_already_in_the_config_folder_win_and_the_old_are_left(folders):
    old, new = folders
    new.parent.mkdir()
    new.write_text("[display]\nrotation = 180\n", encoding="utf-8")
    assert load_config().display.rotation == 180
    assert old.read_text(encoding="utf-8") == OLD_TEXT


def test_the_command_line_file_moves_nothing(folders, tmp_path):
    old, new = folders
    assert load_config(write(tmp_path, "[display]\nrotation = 270\n")).display.rotation == 270
    assert old.exists() and not new.exists()


@pytest.mark.parametrize("place", ["same", "link"])
def test_the_same_file_is_not_moved(folders, monkeypatch, place):
    """The config folder is the data folder, or a link to it: nothing to move."""
    old, _new = folders
    config = old.parent
    if place == "link":
        config = old.parent.with_name("linked")
        config.symlink_to(old.parent)
    monkeypatch.setenv("PHOENIX_COMPANION_CONFIG", str(config))
    assert default_config_path() == config / "config.toml"
    assert load_config().display.rotation == 90
    assert old.read_text(encoding="utf-8") == OLD_TEXT and old.is_file() and not old.is_symlink()


def test_a_folder_in_the_old_place_is_not_moved(folders):
    old, new = folders
    old.unlink()
    old.mkdir()
    assert default_config_path() == new and old.is_dir() and not new.exists()


def refuse(monkeypatch, source: Path, error: OSError) -> None:
    """os.replace fails with `error` for `source` (and works for any other file)."""
    replace = os.replace

    def failing(src, dst, *args, **kwargs):
        if Path(src) == source:
            raise error
        return replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", failing)


@pytest.mark.parametrize("why", ["read-only", "no folder"])
def test_settings_that_cannot_be_moved_are_read_where_they_are(folders, monkeypatch, caplog,
                                                               why):
    old, new = folders
    if why == "read-only":  # the data folder is read-only (as root, chmod would not stop it)
        refuse(monkeypatch, old, PermissionError(errno.EACCES, "Permission denied"))
    else:  # the config folder cannot be made: a file is in the way
        old.parent.with_name("blocked").write_text("", encoding="utf-8")
        monkeypatch.setenv("PHOENIX_COMPANION_CONFIG", str(old.parent.with_name("blocked")))
        new = old.parent.with_name("blocked") / "config.toml"
    config = load_config()
    assert config.display.rotation == 90 and config.path == old
    assert old.read_text(encoding="utf-8") == OLD_TEXT and not os.path.lexists(new)
    [record] = caplog.records
    assert record.levelno == logging.WARNING
    assert record.getMessage().startswith(f"settings not moved from {old} to {new} (")
    assert record.getMessage().endswith("); read where they are")


def test_settings_moved_to_another_filesystem_are_copied_then_removed(folders, monkeypatch,
                                                                      caplog):
    old, new = folders
    refuse(monkeypatch, old, OSError(errno.EXDEV, "Invalid cross-device link"))
    with caplog.at_level(logging.INFO, logger="companion.config"):
        assert default_config_path() == new
    assert new.read_text(encoding="utf-8") == OLD_TEXT and not old.exists()
    assert [p.name for p in new.parent.iterdir()] == ["config.toml"]  # no temporary file left
    assert [record.getMessage() for record in caplog.records] == [
        f"settings moved from {old} to {new}"]


def test_a_copy_whose_old_file_cannot_be_removed_is_used(folders, monkeypatch, caplog):
    old, new = folders
    refuse(monkeypatch, old, OSError(errno.EXDEV, "Invalid cross-device link"))
    unlink = Path.unlink

    def stuck(path, *args, **kwargs):
        if path == old:
            raise PermissionError(errno.EACCES, "Permission denied")
        return unlink(path, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", stuck)
    assert default_config_path() == new
    assert new.read_text(encoding="utf-8") == old.read_text(encoding="utf-8") == OLD_TEXT
    assert "the old file could not be removed" in caplog.records[0].getMessage()


@given(old=st.one_of(st.none(), st.binary(max_size=200)),
       new=st.one_of(st.none(), st.binary(max_size=200)),
       across=st.booleans())
def test_no_settings_are_ever_lost(old, new, across):
    """Whatever is in the two places: the file used has the config folder's bytes when it had
    a file, else the data folder's; the data folder keeps its file only when the config folder
    had one; no temporary file is left."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        data, config = Path(folder) / "data", Path(folder) / "config"
        patch.setenv("PHOENIX_COMPANION_HOME", str(data))
        patch.setenv("PHOENIX_COMPANION_CONFIG", str(config))
        for place, content in ((data, old), (config, new)):
            place.mkdir()
            if content is not None:
                (place / "config.toml").write_bytes(content)
        if across:
            refuse(patch, data / "config.toml", OSError(errno.EXDEV, "cross-device"))
        used = default_config_path()
        assert used == config / "config.toml"
        assert (used.read_bytes() if used.exists() else None) == (new if new is not None
                                                                  else old)
        assert (data / "config.toml").exists() == (old is not None and new is not None)
        assert [p.name for p in config.iterdir()] == ([] if old is None and new is None
                                                      else ["config.toml"])
