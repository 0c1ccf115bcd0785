"""Face map and result shapes."""

import pytest

from vision.faces import DEFAULT_FACE_MAP, Die, FaceMapError, Reading, parse_face_map


def test_default_face_map_is_the_expedition_die() -> None:
    assert parse_face_map(None) == {1: "food", 2: "food", 3: "water", 4: "water", 5: "metal",
                                    6: "human"}
    assert parse_face_map("1-2=food,3-4=water,5=metal,6=human") == DEFAULT_FACE_MAP


def test_face_map_is_configurable() -> None:
    assert parse_face_map("1=human, 2-3=metal, 4-6=Water")[5] == "water"
    assert parse_face_map({1: "food", 2: "food", 3: "food", 4: "food", 5: "food", 6: "metal"})[6] \
        == "metal"


@pytest.mark.parametrize("spec", ["1-5=food", "1-6=gold", "1-6food", "a-b=food", "0-6=food"])
def test_bad_face_maps_are_refused(spec: str) -> None:
    with pytest.raises(FaceMapError):
        parse_face_map(spec)


def test_die_json_shape_and_face_counts() -> None:
    die = Die(5, "metal", (1, 2, 30, 40), 0.98765)
    assert die.to_json() == {"value": 5, "face": "metal", "box": [1, 2, 30, 40],
                             "confidence": 0.988, "uncertain": False}
    unsure = Die(None, "food", (0, 0, 5, 5), 0.5)
    assert unsure.uncertain and unsure.to_json()["uncertain"] is True
    reading = Reading((die, unsure))
    assert reading.faces == {"food": 1, "water": 0, "metal": 1, "human": 0}
