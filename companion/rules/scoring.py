"""Final scoring ("Game End Scoring" of the rulebook), category by category, with the ranking.

Plain data in (`PlayerPosition`s and the catalogue), plain data out (a `ScoreSheet`). The sheet's
words are data and stay English (its labels, sources and tie-breaker are compared when a game
record is imported); `category_name`, `source_name` and `tiebreak_text` say them in the
language spoken now, and `format_sheet` prints the sheet in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion import i18n
from companion.i18n import N_, _
from companion.rules.catalogue import Ability, Catalogue
from companion.rules.position import PlayerPosition, station_count
from companion.rules.words import SPECIES, SPECIES_NAMES, species_name


@dataclass(frozen=True)
class ScoringValues:
    """The numbers of "Game End Scoring", from the catalogue (setup record `final_scoring`):
    4/6/10 per Sector, 2 per resident, 10 and 5 for pluralities, 1 per 20 GEMs and per 5
    resources."""

    sector_points: Mapping[int, int]
    resident_points: int
    first: int
    second: int
    gems_per_point: int
    resources_per_point: int

    @classmethod
    def of(cls, catalogue: Catalogue) -> ScoringValues:
        def value(name: str) -> int:
            return catalogue.field("setup", "final_scoring", name).value

        return cls(
            sector_points={level: value(f"level{level}_sector_points") for level in (1, 2, 3)},
            resident_points=value("resident_points"),
            first=value("plurality_first"),
            second=value("plurality_second"),
            gems_per_point=value("gems_per_point"),
            resources_per_point=value("resources_per_point"),
        )

# The rulebook's score sheet lists the pluralities in this order.
PLURALITY_ORDER = ("human", "gold", "teal", "pink", "brown")
PLURALITIES = "Pluralities: {species}"  # a row label of the sheet (English: the data)
CATEGORIES = (N_("Total In-Game Points"), N_("Total for Sectors Built"), N_("Residents (2 each)"),
              N_("Station Endgame Bonuses"), N_("Leftover GEMs & Resources"), N_("TOTAL"))
TIE_ALIENS = N_("{names} tie on {best}; {winner} wins with the most Aliens ({aliens})")
TIE_HUMANS = N_("{names} tie on {best}; most Aliens is also tied, so {winner} wins with the "
                "most Humans ({humans})")
TIE_SHARED = N_("{names} tie on {best} with equal Aliens and Humans; {sharing} share the "
                "victory")


def category_name(label: str) -> str:
    """A row label of `ScoreSheet.rows()` (English, as the sheet keeps it) in the language
    spoken now: "Pluralities: Ensaroo (pink)" -> "Mehrheiten: Ensaroo (rosa)"."""
    for species in PLURALITY_ORDER:
        if label == PLURALITIES.format(species=SPECIES_NAMES[species]):
            return _("Pluralities: {species}").format(species=species_name(species))
    return i18n._(label) if label in CATEGORIES else label


def source_name(source: str) -> str:
    """Where an endgame bonus comes from ("Hub B-3", "Sector 301", as the sheet keeps it) in
    the language spoken now."""
    kind, _space, what = source.partition(" ")
    if kind == "Hub":
        return _("Hub {hub}").format(hub=what)
    if kind == "Sector":
        return _("Sector {number}").format(number=what)
    return source


@dataclass(frozen=True)
class BonusLine:
    """One endgame bonus scored: where it comes from, its rule text, its points."""

    source: str
    text: str
    points: int


@dataclass(frozen=True)
class PlayerScore:
    """One player's column of the score sheet."""

    name: str
    track: int
    sectors: int
    residents: int
    pluralities: Mapping[str, int]
    station_bonuses: int
    bonus_lines: tuple[BonusLine, ...]
    leftovers: int
    aliens: int
    humans: int
    total: int
    rank: int = 0


@dataclass(frozen=True)
class ScoreSheet:
    """The whole tally: one column per player, the winners, and how ties were broken."""

    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    tiebreak: str | None

    def rows(self) -> list[tuple[str, list[int]]]:
        """The rulebook's table: (category, one value per player)."""
        rows = [
            ("Total In-Game Points", [p.track for p in self.players]),
            ("Total for Sectors Built", [p.sectors for p in self.players]),
            ("Residents (2 each)", [p.residents for p in self.players]),
        ]
        rows += [
            (PLURALITIES.format(species=SPECIES_NAMES[s]),
             [p.pluralities[s] for p in self.players])
            for s in PLURALITY_ORDER
        ]
        rows += [
            ("Station Endgame Bonuses", [p.station_bonuses for p in self.players]),
            ("Leftover GEMs & Resources", [p.leftovers for p in self.players]),
            ("TOTAL", [p.total for p in self.players]),
        ]
        return rows


def score_game(players: Sequence[PlayerPosition], catalogue: Catalogue) -> ScoreSheet:
    """Score every category for every player, then rank them."""
    values = ScoringValues.of(catalogue)
    pluralities = {s: plurality_points([p.count(s) for p in players], values) for s in SPECIES}
    scores = []
    for index, player in enumerate(players):
        lines = station_bonus_lines(player, catalogue)
        plurality = {s: pluralities[s][index] for s in SPECIES}
        parts = (
            player.points,
            sector_points(player, values),
            values.resident_points * len(player.residents()),
            sum(plurality.values()),
            sum(line.points for line in lines),
            leftover_points(player, values),
        )
        scores.append(PlayerScore(
            name=player.name,
            track=parts[0],
            sectors=parts[1],
            residents=parts[2],
            pluralities=plurality,
            station_bonuses=parts[4],
            bonus_lines=lines,
            leftovers=parts[5],
            aliens=player.aliens,
            humans=player.humans,
            total=sum(parts),
        ))
    return rank(scores)


def sector_points(player: PlayerPosition, values: ScoringValues) -> int:
    """Sectors built: 4 / 6 / 10 by level, occupied or not."""
    return sum(values.sector_points[s.level] for s in player.sectors)


def plurality_points(counts: Sequence[int], values: ScoringValues) -> list[int]:
    """Points for first and second place in one species, per player, by the rulebook's rules.

    "If there is a tie for first, the tied players add the rewards for first and second and
    divide the 15 points among them (round down); nobody else gets any. If there is a tie for
    second, the tied players must divide the 5 points among them (round down). Players cannot
    score for first or second place if they have no residents of a given species."
    """
    points = [0] * len(counts)
    top = max(counts, default=0)
    if top == 0:
        return points
    first = [i for i, c in enumerate(counts) if c == top]
    if len(first) > 1:
        for i in first:
            points[i] = (values.first + values.second) // len(first)
        return points
    points[first[0]] = values.first
    runner_up = max((c for c in counts if c < top), default=0)
    if runner_up == 0:
        return points
    second = [i for i, c in enumerate(counts) if c == runner_up]
    for i in second:
        points[i] = values.second // len(second)
    return points


def leftover_points(player: PlayerPosition, values: ScoringValues) -> int:
    """1 point per 20 GEMs plus 1 point per 5 resources of any kind, each rounded down."""
    return (player.gems // values.gems_per_point
            + player.resources // values.resources_per_point)


def station_bonus_lines(player: PlayerPosition, catalogue: Catalogue) -> tuple[BonusLine, ...]:
    """The Hub's endgame bonuses, and those of Level-3 Sectors whose linked quarters are occupied.

    "Each player scores each endgame bonus on their Station Hub and each occupied endgame bonus
    in their Level-3 Sectors."
    """
    lines = [
        BonusLine(f"Hub {player.hub}", bonus.text, endgame_points(bonus, player))
        for bonus in catalogue.endgame_abilities(catalogue.hubs[player.hub])
    ]
    for sector in player.sectors:
        if sector.endgame_bonus_active:
            lines += [
                BonusLine(f"Sector {sector.number}", bonus.text, endgame_points(bonus, player))
                for bonus in catalogue.endgame_abilities(catalogue.sectors[sector.number])
            ]
    return tuple(lines)


def endgame_points(bonus: Ability, player: PlayerPosition) -> int:
    """The points one endgame ability is worth to this player."""
    count = station_count(bonus.params["count"], player)
    if bonus.kind == "points_table":
        return int(bonus.params["table"].get(str(count), 0))
    if bonus.kind == "points_per":
        return bonus.params["points"] * (count // bonus.params.get("every", 1))
    raise ValueError(f"not an endgame scoring effect: {bonus.kind}")


def rank(scores: Sequence[PlayerScore]) -> ScoreSheet:
    """Order by total; ties broken by most Aliens, then most Humans, else a shared place.

    "The tied player with the most Aliens wins. If it is still a tie, the tied player with the
    most Humans wins. If it is still a tie, the tied players share the victory."
    """
    def key(s: PlayerScore) -> tuple[int, int, int]:
        return (s.total, s.aliens, s.humans)

    ordered = sorted(scores, key=key, reverse=True)
    ranks: dict[str, int] = {}
    for position, score in enumerate(ordered):
        same_as_before = position > 0 and key(score) == key(ordered[position - 1])
        ranks[score.name] = ranks[ordered[position - 1].name] if same_as_before else position + 1
    ranked = tuple(
        PlayerScore(**{**s.__dict__, "rank": ranks[s.name]}) for s in scores
    )
    winners = tuple(s.name for s in ranked if s.rank == 1)
    return ScoreSheet(players=ranked, winners=winners, tiebreak=_tiebreak(ordered))


def _tiebreak(ordered: Sequence[PlayerScore], *, translated: bool = False) -> str | None:
    """Say which tie-breaker decided the winner, if the best total was shared (in English, the
    sheet's data; `translated`: in the language spoken now)."""
    def say(text: str) -> str:
        return i18n._(text) if translated else text

    best = ordered[0].total
    tied = [s for s in ordered if s.total == best]
    if len(tied) == 1:
        return None
    both = say(N_(" and "))
    names = both.join(s.name for s in tied)
    most_aliens = max(s.aliens for s in tied)
    by_aliens = [s for s in tied if s.aliens == most_aliens]
    if len(by_aliens) == 1:
        return say(TIE_ALIENS).format(names=names, best=best, winner=by_aliens[0].name,
                                      aliens=most_aliens)
    most_humans = max(s.humans for s in by_aliens)
    by_humans = [s for s in by_aliens if s.humans == most_humans]
    if len(by_humans) == 1:
        return say(TIE_HUMANS).format(names=names, best=best, winner=by_humans[0].name,
                                      humans=most_humans)
    sharing = both.join(s.name for s in by_humans)
    return say(TIE_SHARED).format(names=names, best=best, sharing=sharing)


def tiebreak_text(sheet: ScoreSheet) -> str | None:
    """`sheet.tiebreak` in the language spoken now (None when the best total was not shared)."""
    ordered = sorted(sheet.players, key=lambda s: (s.total, s.aliens, s.humans), reverse=True)
    return _tiebreak(ordered, translated=True) if ordered else None


def sheet_as_json(sheet: ScoreSheet) -> dict:
    """The `score --json` document."""
    return {
        "players": [
            {
                "name": p.name,
                "track": p.track,
                "sectors": p.sectors,
                "residents": p.residents,
                "pluralities": dict(p.pluralities),
                "station_bonuses": p.station_bonuses,
                "station_bonus_lines": [
                    {"source": b.source, "text": b.text, "points": b.points} for b in p.bonus_lines
                ],
                "leftovers": p.leftovers,
                "total": p.total,
                "rank": p.rank,
            }
            for p in sheet.players
        ],
        "winners": list(sheet.winners),
        "tiebreak": sheet.tiebreak,
    }


def format_sheet(sheet: ScoreSheet) -> str:
    """A readable score sheet: one column per player, one row per category, as in the rulebook."""
    names = [p.name for p in sheet.players]
    rows = [(category_name(label), label, values) for label, values in sheet.rows()]
    label_width = max(len(shown) for shown, _label, _values in rows)
    widths = [max(len(n), 5) for n in names]

    def line(label: str, cells: Sequence[str]) -> str:
        return "  ".join([label.ljust(label_width), *(c.rjust(w) for c, w in zip(cells, widths))])

    out = [line(_("Category"), names), line("-" * label_width, ["-" * w for w in widths])]
    for shown, label, values in rows:
        if label == "TOTAL":
            out.append(line("-" * label_width, ["-" * w for w in widths]))
        blank_zero = label.startswith("Pluralities")
        out.append(line(shown, ["" if blank_zero and v == 0 else str(v) for v in values]))
    out.append("")
    by_rank = sorted(sheet.players, key=lambda p: p.rank)
    out.append(_("Rank: {ranking}").format(
        ranking=", ".join(f"{p.rank}. {p.name}" for p in by_rank)))
    if len(sheet.winners) == 1:
        out.append(_("Winner: {player}").format(player=sheet.winners[0]))
    else:
        out.append(_("Shared victory: {players}").format(players=", ".join(sheet.winners)))
    if sheet.tiebreak:
        out.append(_("Tie-breaker: {tiebreak}").format(tiebreak=tiebreak_text(sheet)))
    bonus_notes = [
        f"  {p.name}: {source_name(b.source)} +{b.points}: {b.text}"
        for p in sheet.players
        for b in p.bonus_lines
    ]
    if bonus_notes:
        out.append(_("Station endgame bonuses:"))
        out.extend(bonus_notes)
    return "\n".join(out)
