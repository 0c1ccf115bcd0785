"""A Picamera2 that cannot load is reported in words (vision.camera.import_picamera2): the numpy
clash of Bookworm's simplejpeg with a numpy 2 virtual environment, as the system package raises
it, and a Picamera2 that is not installed at all."""

from __future__ import annotations

import logging
import sys

import numpy as np
import pytest

from vision.camera import (
    CameraError,
    PiCamera,
    PicameraMissing,
    import_picamera2,
    pi_camera_count,
    picamera2_problem,
)

CLASH = ("numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C "
         "header, got 88 from PyObject")


@pytest.fixture
def broken_picamera2(tmp_path, monkeypatch):
    """A picamera2 package whose import fails as Bookworm's does under numpy 2."""
    package = tmp_path / "picamera2"
    package.mkdir()
    (package / "__init__.py").write_text(f"raise ValueError({CLASH!r})\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)


def test_the_numpy_clash_is_explained(broken_picamera2):
    with pytest.raises(CameraError) as raised:
        import_picamera2()
    message = str(raised.value)
    assert message.startswith("Pi camera: picamera2 cannot load: a system package it uses "
                              "(simplejpeg) was built for another numpy than this "
                              f"environment's numpy {np.__version__}")
    assert CLASH in message and "run deploy/install.sh again" in message
    assert picamera2_problem() == message  # what deploy/install.sh prints and stops on
    with pytest.raises(CameraError, match="simplejpeg"):
        PiCamera().open()


def test_the_camera_count_logs_it_and_goes_on(broken_picamera2, caplog):
    with caplog.at_level(logging.WARNING):
        assert pi_camera_count() == 0
    assert "picamera2 cannot load" in caplog.text


def test_a_missing_picamera2_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # what an absent package imports as
    with pytest.raises(PicameraMissing, match="sudo apt install python3-picamera2"):
        import_picamera2()
    assert pi_camera_count() == 0
    assert "sudo apt install python3-picamera2" in picamera2_problem()
