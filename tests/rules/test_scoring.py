"""Final scoring, category by category, each test quoting the rulebook sentence it checks."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.catalogue_files import load_catalogue
from companion.rules.position import PositionError, parse_position
from companion.rules.scoring import ScoringValues, score_game, sheet_as_json
from companion.rules.scoring import plurality_points as plurality_with

EXAMPLE = Path(__file__).parents[2] / "companion" / "data" / "examples" / "rulebook-3p.json"
CATALOGUE = load_catalogue()
VALUES = ScoringValues.of(CATALOGUE)


def plurality_points(counts: list[int]) -> list[int]:
    """Plurality points with the catalogue's numbers (10 first, 5 second)."""
    return plurality_with(counts, VALUES)


def sector(number: int, residents: list[str], quarters: int | None = None, **extra) -> dict:
    """A built Sector with the level and colour the sector number implies."""
    color = {0: "teal", 1: "brown", 2: "pink"}[number // 10 % 10]
    quarters = len(residents) if quarters is None else quarters
    return {"number": number, "level": number // 100, "color": color, "quarters": quarters,
            "residents": residents, **extra}


def player(name: str, hub: str = "B-3", sectors: list[dict] | None = None, **counts) -> dict:
    """A player with nothing but what is given (B-3 has no endgame bonus)."""
    base = {"name": name, "hub": hub, "points": 0, "ships_left": 0, "gems": 0, "food": 0,
            "water": 0, "metal": 0, "sectors": sectors or []}
    return {**base, **counts}


def score(*players: dict) -> dict:
    """Score a position and return the JSON sheet, keyed by player name."""
    sheet = sheet_as_json(score_game(parse_position({"players": list(players)}, CATALOGUE),
                                     CATALOGUE))
    return {"sheet": sheet, **{p["name"]: p for p in sheet["players"]}}


def test_rulebook_example_reproduces_exactly():
    """"Totals: Connor wins with 159, while Anna (142) and Beth (141) trailed behind." """
    result = score(*json.loads(EXAMPLE.read_text())["players"])
    rows = {name: result[name] for name in ("Anna", "Beth", "Connor")}
    assert {n: r["total"] for n, r in rows.items()} == {"Anna": 142, "Beth": 141, "Connor": 159}
    assert result["sheet"]["winners"] == ["Connor"]
    assert [rows[n]["rank"] for n in ("Connor", "Anna", "Beth")] == [1, 2, 3]
    # Every row of the rulebook's table.
    assert [rows[n]["track"] for n in rows] == [1, 24, 9]
    assert [rows[n]["sectors"] for n in rows] == [44, 44, 60]
    assert [rows[n]["residents"] for n in rows] == [50, 42, 50]
    assert rows["Anna"]["pluralities"] == {"human": 5, "gold": 10, "teal": 10, "pink": 7,
                                           "brown": 0}
    assert rows["Beth"]["pluralities"] == {"human": 10, "gold": 0, "teal": 5, "pink": 0,
                                           "brown": 5}
    assert rows["Connor"]["pluralities"] == {"human": 0, "gold": 5, "teal": 0, "pink": 7,
                                             "brown": 10}
    assert [rows[n]["station_bonuses"] for n in rows] == [14, 11, 15]
    assert [rows[n]["leftovers"] for n in rows] == [1, 0, 3]


# A. Sectors built


def test_sectors_score_by_level_occupied_or_not():
    """"Each Level-1 Sector scores 4 points. Each Level-2 Sector scores 6 points. Each Level-3
    Sector scores 10 points. (The Sectors' living quarters do not need to be occupied.)" """
    result = score(
        player("Ann", sectors=[sector(101, [], 2), sector(201, [], 3), sector(301, [], 4)]),
        player("Bob", sectors=[sector(111, [], 2)]),
    )
    assert result["Ann"]["sectors"] == 20
    assert result["Bob"]["sectors"] == 4


# B. Residents


def test_each_resident_scores_two_including_hub_residents():
    """"Each resident (Alien or Human) on the space station scores 2 points." The Hub is part
    of the station: B-11 "This Hub has living quarters for 3 pink Aliens"."""
    result = score(
        player("Ann", hub="B-11", hub_residents=["pink", "pink", "human"],
               sectors=[sector(121, ["pink", "gold"])]),
        player("Bob"),
    )
    assert result["Ann"]["residents"] == 10


# C. Pluralities


def test_plurality_first_ten_second_five():
    """"a player scores 10 points if they have a plurality (more than anyone else); 5 points for
    second place." """
    assert plurality_points([3, 1, 2]) == [10, 0, 5]


def test_tie_for_first_splits_fifteen_and_nobody_gets_second():
    """"If there is a tie for first, the tied players add the rewards for first and second and
    divide the 15 points among them (round down); nobody else gets any." """
    assert plurality_points([8, 8, 3]) == [7, 7, 0]
    assert plurality_points([4, 4, 4, 1]) == [5, 5, 5, 0]
    assert plurality_points([2, 2, 2, 2]) == [3, 3, 3, 3]


def test_tie_for_second_splits_five():
    """"If there is a tie for second, the tied players must divide the 5 points among them
    (round down)." """
    assert plurality_points([5, 2, 2]) == [10, 2, 2]
    assert plurality_points([5, 2, 2, 2]) == [10, 1, 1, 1]


def test_no_share_without_residents_of_the_species():
    """"Players cannot score for first or second place if they have no residents of a given
    species." """
    assert plurality_points([0, 0, 0]) == [0, 0, 0]
    assert plurality_points([3, 0, 0]) == [10, 0, 0]


def test_humans_count_as_a_plurality_species():
    """"For each of the five species of resident (teal Aliens, pink Aliens, brown Aliens, gold
    Aliens, Humans), a player scores 10 points if they have a plurality" """
    result = score(player("Ann", sectors=[sector(101, ["human", "human"])]),
                   player("Bob", sectors=[sector(102, ["human"])]))
    assert result["Ann"]["pluralities"]["human"] == 10
    assert result["Bob"]["pluralities"]["human"] == 5


# D. Station endgame bonuses


def hub_bonus(hub: str, sectors: list[dict] | None = None, **counts) -> int:
    """The station bonus points the hub gives a player with this station."""
    return score(player("Ann", hub=hub, sectors=sectors, **counts), player("Bob"))["Ann"][
        "station_bonuses"]


FULL_STATION = [
    sector(101, ["teal", "human"]),          # full
    sector(201, ["teal", "gold"], 3),        # not full
    sector(301, ["teal", "teal", "human"]),  # full
    sector(111, ["brown", "brown", "brown", "brown", "brown"]),
    sector(121, ["pink", "pink", "pink"]),
]


@pytest.mark.parametrize(
    ("hub", "counts", "expected", "rule"),
    [
        ("B-1", {}, 2, "score 2 points per Level-3 Sector built"),
        ("B-4", {}, 2, "score an extra 1 point per Human on your entire station"),
        ("B-5", {}, 8, "score 2 points per Sector you have that has residents filling all "
                       "available living quarters"),
        ("B-6", {}, 5, "score an extra 1 point per brown Alien on your entire station"),
        ("B-7", {}, 5, "score an extra 1 point per brown Alien on your entire station"),
        ("B-8", {}, 4, "score an extra 1 point for every teal Alien on your entire station"),
        ("B-9", {}, 4, "score an extra 1 point per teal Alien on your entire station"),
        ("B-10", {}, 3, "score 1 point per pink Alien on your entire station"),
        ("B-11", {}, 3, "score 1 point per pink Alien on your entire station"),
        ("B-12", {}, 2, "score 1 point per Human on your entire station"),
        ("A-4", {"ships_left": 3}, 6, "score 2 points per ship you have left"),
        ("A-6", {}, 5, "score 1 point extra for every Sector you have built"),
    ],
)
def test_hub_endgame_bonus(hub, counts, expected, rule):
    """Reference Guide: Station Hubs, each hub's "At the end of the game" sentence."""
    station = copy.deepcopy(FULL_STATION)
    assert rule in CATALOGUE.endgame_abilities(CATALOGUE.hubs[hub])[0].text
    assert hub_bonus(hub, station, **counts) == expected


@pytest.mark.parametrize(("ships", "points"), [(0, 20), (1, 15), (2, 10), (3, 5), (4, 0), (9, 0)])
def test_a1_scores_by_ships_left(ships, points):
    """A-1: "score 20 points if you have no remaining ships, 15 points if you have one left,
    10 points for two left, and 5 points if you have three remaining ships." """
    assert hub_bonus("A-1", ships_left=ships) == points


@pytest.mark.parametrize("hub", ["B-2", "B-3", "A-2", "A-3", "A-5", "A-7", "A-8", "A-9", "A-10",
                                 "A-11", "A-12"])
def test_hubs_without_endgame_bonus_score_nothing(hub):
    """Only Hubs whose reference-guide entry says "At the end of the game" score a bonus."""
    assert hub_bonus(hub, copy.deepcopy(FULL_STATION), ships_left=2, metal=9) == 0


def test_a6_counts_every_sector_of_any_level():
    """A-6: "score 1 point extra for every Sector you have built (regardless of the level)." """
    assert hub_bonus("A-6", [sector(101, [], 1), sector(111, [], 1), sector(211, [], 2)]) == 3


def test_b5_ignores_sectors_without_residents_and_partly_filled_ones():
    """B-5: "score 2 points per Sector you have that has residents filling all available
    living quarters." A Sector with no residents has none filling its quarters."""
    assert hub_bonus("B-5", [sector(101, [], 2), sector(111, ["brown"], 2)]) == 0
    assert hub_bonus("B-5", [sector(101, ["teal", "gold"], 2)]) == 2


SECTOR_BONUSES = [
    (305, {"metal": 12, "water": 3, "food": 1}, [], 4,
     "gain 1 point for every 3 metal you possess (rounded down)"),
    (306, {}, ["teal", "teal", "teal"], 3, "gain 1 point for every teal Alien"),
    (308, {}, ["human", "human"], 2, "gain 1 point per Human on your entire station"),
    (316, {}, ["brown", "brown"], 2, "gain 1 extra point per brown Alien"),
    (325, {}, ["pink", "pink", "pink"], 3, "score 1 point per pink Alien"),
    (327, {}, ["human"], 1, "gain 1 point per Human on your entire station"),
]


def wing_to(number: int, residents: list[str]) -> list[dict]:
    """A wing up to Level-3 Sector `number` (its Level-1 and -2 Sectors empty)."""
    base = number % 100
    return [sector(100 + base, [], 1), sector(200 + base, [], 1),
            sector(number, residents, max(len(residents), 1),
                   endgame_bonus_active=bool(residents))]


@pytest.mark.parametrize(("number", "counts", "residents", "expected", "rule"), SECTOR_BONUSES)
def test_level3_sector_endgame_bonus_when_occupied(number, counts, residents, expected, rule):
    """"Each player scores each endgame bonus on their Station Hub and each occupied endgame
    bonus in their Level-3 Sectors." """
    station = wing_to(number, residents or ["gold"])
    result = score(player("Ann", sectors=station, **counts), player("Bob"))
    assert rule in CATALOGUE.endgame_abilities(CATALOGUE.sectors[number])[0].text
    assert result["Ann"]["station_bonuses"] == expected


@pytest.mark.parametrize("number", [row[0] for row in SECTOR_BONUSES])
def test_level3_sector_endgame_bonus_needs_its_quarters_occupied(number):
    """"Bonuses from living quarters that are unoccupied are not applied." """
    station = wing_to(number, [])
    station[-1] = sector(number, ["human", "gold"], 3, endgame_bonus_active=False)
    result = score(player("Ann", sectors=station, metal=30), player("Bob"))
    assert result["Ann"]["station_bonuses"] == 0


def test_305_is_on_top_of_normal_leftover_scoring():
    """305: "if you have 12 metal, 3 water, and 1 food at the end of the game, you gain 4 points
    from this Sector plus 3 points for having 16 resources." """
    result = score(player("Ann", sectors=wing_to(305, ["gold"]), metal=12, water=3, food=1),
                   player("Bob"))
    assert result["Ann"]["station_bonuses"] == 4
    assert result["Ann"]["leftovers"] == 3


def test_unknown_quarter_link_asks_for_the_field():
    """Where the catalogue does not know which quarters a Level-3 endgame bonus is linked to,
    scoring stops and asks for `endgame_bonus_active` rather than guessing."""
    station = wing_to(308, ["human"])
    del station[-1]["endgame_bonus_active"]
    with pytest.raises(PositionError, match="endgame_bonus_active") as raised:
        parse_position({"players": [player("Ann", sectors=station), player("Bob")]}, CATALOGUE)
    assert raised.value.player == "Ann"


# E. Leftovers


@pytest.mark.parametrize(
    ("gems", "food", "water", "metal", "expected"),
    [(19, 1, 1, 2, 0), (20, 0, 0, 0, 1), (22, 4, 4, 3, 3), (40, 5, 0, 0, 3), (0, 2, 2, 2, 1)],
)
def test_leftover_gems_and_resources(gems, food, water, metal, expected):
    """"Each player scores 1 point for every 20 GEMs the player still has (round down). Each
    player also scores 1 point for every 5 resources (food, water, and metal) the player still
    has, regardless of their types (round down)." """
    result = score(player("Ann", gems=gems, food=food, water=water, metal=metal), player("Bob"))
    assert result["Ann"]["leftovers"] == expected


def test_score_track_points_are_counted_even_when_negative():
    """"tally the players' final scores by continuing to advance their markers from their
    current spaces on the score track" - A-12 can send the marker below zero."""
    result = score(player("Ann", points=-5, hub="A-12"), player("Bob", points=7))
    assert result["Ann"]["track"] == -5
    assert result["Ann"]["total"] == -5


# Ranking


def test_tie_broken_by_most_aliens():
    """"In the case of a tie ... The tied player with the most Aliens wins." """
    result = score(player("Ann", points=4, sectors=[sector(101, ["teal", "teal"])]),
                   player("Bob", points=4, sectors=[sector(102, ["human", "human"])]))
    # Both: 4 track + 4 sector + 4 residents + 10 plurality = 22.
    assert result["Ann"]["total"] == result["Bob"]["total"] == 22
    assert result["sheet"]["winners"] == ["Ann"]
    assert (result["Ann"]["rank"], result["Bob"]["rank"]) == (1, 2)
    assert "most Aliens" in result["sheet"]["tiebreak"]


def test_then_by_most_humans():
    """"If it is still a tie, the tied player with the most Humans wins." """
    # Ann: 10 track + 4 sector + 4 residents + 7 (teal tie) + 5 (second in Humans) = 30.
    # Bob:  3 track + 4 sector + 6 residents + 7 (teal tie) + 10 (first in Humans) = 30.
    result = score(player("Ann", points=10, sectors=[sector(101, ["teal", "human"])]),
                   player("Bob", points=3, sectors=[sector(102, ["teal", "human", "human"])]),
                   player("Cal", sectors=[sector(111, ["brown"])]))
    assert result["Ann"]["total"] == result["Bob"]["total"] == 30
    assert result["sheet"]["winners"] == ["Bob"]
    assert "most Humans" in result["sheet"]["tiebreak"]


def test_otherwise_the_victory_is_shared():
    """"If it is still a tie, the tied players share the victory." """
    result = score(player("Ann", sectors=[sector(101, ["teal"])]),
                   player("Bob", sectors=[sector(102, ["teal"])]))
    assert result["sheet"]["winners"] == ["Ann", "Bob"]
    assert result["Ann"]["rank"] == result["Bob"]["rank"] == 1
    assert "share the victory" in result["sheet"]["tiebreak"]


# Invariants (property-based)

counts = st.lists(st.integers(min_value=0, max_value=12), min_size=2, max_size=4)


@given(counts)
def test_plurality_awards_at_most_fifteen_and_only_to_players_with_residents(values):
    """At most 10 + 5 points are handed out per species, never to a player with none."""
    points = plurality_points(values)
    assert sum(points) <= 15
    assert all(p == 0 for p, c in zip(points, values) if c == 0)
    # More residents never earns fewer points than someone with fewer.
    for a, b in zip(values, points):
        for c, d in zip(values, points):
            if a > c:
                assert b >= d


@given(counts, st.randoms())
def test_plurality_does_not_depend_on_seating_order(values, random):
    """Player order changes who sits where, not what anyone scores."""
    order = list(range(len(values)))
    random.shuffle(order)
    points = plurality_points(values)
    assert plurality_points([values[i] for i in order]) == [points[i] for i in order]
