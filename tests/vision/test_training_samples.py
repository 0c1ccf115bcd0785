"""What the pip reader's networks learn from (vision.training.samples): a hard die is neither
asked of the detector nor punished there, and a steep camera's large side faces are shown to
the classifier as "not a die"."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dataset import LabelledDie, LabelledImage
from vision.training import samples
from vision.training.samples import SIZE_REF, STRIDE, TOO_BIG, cls_sample, det_sample

SIDE = (300.0, 344.0, 340.0, 370.0)  # the near side face of the die at 300-340 x 300-340


def tray(hard: bool) -> tuple[LabelledImage, np.ndarray]:
    """A 640x640 grey photo with three dice near its middle, the middle one `hard`."""
    dice = (LabelledDie(3, (250.0, 300.0, 290.0, 340.0)),
            LabelledDie(5, (300.0, 300.0, 340.0, 340.0), hard=hard, sides=(SIDE,)),
            LabelledDie(2, (350.0, 300.0, 390.0, 340.0)))
    img = np.full((640, 640, 3), 120, np.uint8)
    for die in dice:
        x0, y0, x1, y1 = map(int, die.box)
        img[y0:y1, x0:x1] = 230
    return LabelledImage(Path("tray.png"), 640, 640, dice), img


def centre_cells(heat: np.ndarray) -> int:
    return int(np.count_nonzero(heat == 1.0))


@pytest.mark.parametrize("seed", range(12))
def test_a_hard_die_marks_no_centre_and_its_cells_are_ignored(seed: int) -> None:
    """Issue 29: the bench "neither demands [a hard die] nor counts a reading of it extra", so
    the detector's loss must neither ask for a mark on it nor punish one there."""
    item, img = tray(hard=True)
    plain, plain_img = tray(hard=False)
    half, heat, _reg, mask, ignore = det_sample(item, img, np.random.default_rng(seed), True)
    _, plain_heat, _, _, plain_ignore = det_sample(
        plain, plain_img, np.random.default_rng(seed), True)
    assert half.shape == (256, 256, 3) and heat.shape == ignore.shape == (64, 64)
    assert not plain_ignore.any()  # nothing ignored without a hard die
    assert not (ignore.astype(bool) & (heat == 1.0)).any()  # a real die's centre is asked for
    assert centre_cells(heat) == mask.sum() <= 2
    if centre_cells(plain_heat) == 3:  # all three in the crop: the hard one is the missing one
        assert centre_cells(heat) == 2 and ignore.any()
        spread = np.argwhere(ignore > 0)
        assert len(spread) <= (40 * 1.35 / STRIDE + 2) ** 2  # about half a die round its centre


def test_some_crops_show_the_whole_tray() -> None:
    """The test above is not empty: crops that hold all three dice come up."""
    plain, img = tray(hard=False)
    whole = [centre_cells(det_sample(plain, img, np.random.default_rng(s), True)[1]) == 3
             for s in range(12)]
    assert sum(whole) >= 3


def test_a_steep_dies_side_face_is_a_not_a_die_crop(monkeypatch) -> None:
    """Issue 29: at steep angles "side faces [are] read as dice"; a labelled side face is
    cropped as the classifier's "not a die" (label 0), centred on that face."""
    seen = []

    def crop(img, cx, cy, size, angle, flip):
        seen.append((cx, cy, size))
        return np.zeros((samples.CLS_SIZE, samples.CLS_SIZE, 3), np.uint8)

    monkeypatch.setattr(samples, "crop", crop)
    monkeypatch.setattr(samples, "WRONG_SCALE_SHARE", 0.0)
    monkeypatch.setattr(samples, "SIDE_SHARE", 1.0)
    item, img = tray(hard=False)
    edges = (np.array([10]), np.array([10]))
    rng = np.random.default_rng(0)
    labels = [cls_sample(item, img, edges, rng, positive=False)[1] for _ in range(20)]
    assert labels == [0] * 20
    x0, y0, x1, y1 = SIDE
    for cx, cy, size in seen:
        assert x0 <= cx <= x1 and y0 <= cy <= y1
        assert 0.85 * 40 <= size <= 1.2 * 40  # its die's size: the reader crops it so


def test_without_side_faces_no_crop_is_taken_for_one(monkeypatch) -> None:
    """A photo whose labels give no side faces (a real one) is cropped as before."""
    seen = []
    monkeypatch.setattr(samples, "crop", lambda img, cx, cy, size, angle, flip: seen.append(
        (cx, cy)) or np.zeros((40, 40, 3), np.uint8))
    monkeypatch.setattr(samples, "WRONG_SCALE_SHARE", 0.0)
    monkeypatch.setattr(samples, "SIDE_SHARE", 1.0)
    item, img = tray(hard=False)
    bare = LabelledImage(item.path, 640, 640, tuple(
        LabelledDie(d.value, d.box) for d in item.dice))
    edges = (np.array([600]), np.array([600]))
    for seed in range(10):
        cls_sample(bare, img, edges, np.random.default_rng(seed), positive=False)
    x0, y0, x1, y1 = SIDE
    assert not any(x0 <= cx <= x1 and y0 <= cy <= y1 for cx, cy in seen)


def test_a_die_brought_too_big_marks_no_centre_and_a_smaller_one_beside_it_does() -> None:
    """The detector must not offer a die it sees 100 px or more across (the frame is read
    smaller for it), but a steep camera's far dice in the same crop are still asked for."""
    dice = (LabelledDie(4, (100.0, 100.0, 300.0, 300.0)),  # near: 200 px
            LabelledDie(1, (330.0, 150.0, 370.0, 190.0)),  # far: 40 px
            LabelledDie(6, (380.0, 150.0, 420.0, 190.0)))
    item = LabelledImage(Path("steep.png"), 640, 640, dice)
    img = np.full((640, 640, 3), 120, np.uint8)
    sizes = []
    for seed in range(40):
        _, _, reg, mask, _ = det_sample(item, img, np.random.default_rng(seed), True)
        sizes += [SIZE_REF * float(size) for size in np.exp(reg[2][mask > 0])]
    assert sizes, "dice are marked"
    assert max(sizes) < TOO_BIG[0]
    assert any(size > 1.5 * min(sizes) for size in sizes)  # near and far ones, not one size


def test_the_side_face_network_learns_from_the_readers_own_candidates(tmp_path: Path) -> None:
    """SYNTHETIC: a steep camera's photo (the renderer labels the side faces it shows large,
    `sides`): the side-face network's views are what the reader's search marks, each labelled
    by the label whose box holds it - side faces among them - and as the reader sees them."""
    from vision.dataset import load_dataset
    from vision.pips import MODEL_DIR, NO_FACE, SIDE_FACE, TOP_FACE, PipParams
    from vision.training.synth import SynthParams, write_folder

    steep = SynthParams(icon_dice=0.0, emblem=0.0, tilt=(40.0, 60.0), tilted=1.0, fov=50.0,
                        abut=0.3, stack=0.1, lean=0.1)  # make bench's steep set
    write_folder(tmp_path, 4, seed=4000, params=steep)
    items = load_dataset(tmp_path)
    images = [cv2.imread(str(item.path)) for item in items]
    views, labels, photos = samples.side_samples(items, images, MODEL_DIR)
    side = PipParams().side_px
    assert views.shape == (len(labels), side, side, 3) and views.dtype == np.uint8
    assert set(photos.tolist()) <= set(range(len(items)))
    assert {TOP_FACE, SIDE_FACE} <= set(labels.tolist()) <= {TOP_FACE, SIDE_FACE, NO_FACE}
    assert np.count_nonzero(labels == SIDE_FACE) >= 3
