"""The shape of what `options` answers (see companion/rules/options.py and docs/engine.md).

`options(state, catalogue)` and its parts return plain JSON-shaped dicts; their shapes are
declared here as TypedDicts, so a reader (the table app's flows and models) that asks for a key
the engine does not give is a type error (`make typecheck`), not a screen failing at the table.
A number the catalogue lacks is None, and the entry names its key in `missing`.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, final

from companion.rules.message import Message

Place = int | str  # where a resident goes: a Sector number, or "hub"
Amounts = dict[str, int]  # counters and amounts: {"gems": 2, "food": 1}

# -- verdicts and values the catalogue lacks ------------------------------------------------------


class Verdict(TypedDict):
    """The engine's verdict on one choice: allowed, or the reason it is not."""

    allowed: bool
    reason: str | None


class Asked(TypedDict):
    """A value the catalogue lacks, with the engine's question (give it in `catalogue`)."""

    key: str  # "sectors/214/cost"
    question: str


class MissingValue(Asked):
    """A value the components in play will need, asked once at setup (`options()["missing"]`)."""

    component: str  # "Sector 214", "Hub A-3", "ship L1-farm", "Diplomacy board"


# -- the turn, the end, Diplomacy bonuses waiting -------------------------------------------------


class TurnNow(TypedDict):
    """Whose turn it is (`options()["turn"]`)."""

    number: int
    acted: bool
    extra_turns: int
    player: str | None  # the active player's name; None before the first turn


class EndNow(TypedDict):
    """The end of the game (`end_state`): who triggered it, who still has a last turn."""

    triggered_by: str | None
    final_turns: list[str]
    over: bool


class BonusPick(TypedDict):
    """One option of a Diplomacy bonus: its levels and what each gives (None: unknown)."""

    levels: list[int]
    gives: list[Amounts] | None
    missing: list[str]


class PendingChoice(TypedDict):
    """A Diplomacy bonus waiting for a player's choice (`pending_choices`)."""

    kind: str  # "diplomacy_bonus"
    player: str
    track: str
    options: list[BonusPick]


# -- abilities ------------------------------------------------------------------------------------


class AbilityNeed(TypedDict):
    """An ability that fires, with its rule text and what the command must say about it
    (`ability_needs`)."""

    source: str  # "A-3", "218"
    text: str
    trigger: str
    kind: str
    optional: bool  # the command names it in `use` to take it
    choice: NotRequired[list[str]]  # the options of its `choices` entry
    times: NotRequired[int]  # how many times it is chosen (a list in `choices`)
    where: NotRequired[dict[str, list[Place]]]  # the free quarters, by species gained
    pay: NotRequired[list[str]]  # the resources an "any resource" cost may take
    bonus: NotRequired[str]  # the bonus action's details (options.BONUS_DETAILS)


class HubPowerOption(AbilityNeed, Verdict):
    """A Hub power used outside the main action, for one player (`hub_powers`)."""

    player: str
    missing: list[str]


# -- income ---------------------------------------------------------------------------------------


class IncomeLine(TypedDict):
    """One line of income (`income.income_lines`): the Hub's, a quarter's."""

    source: str  # "Hub B-3", "Sector 101" (in words)
    quarter: int | None  # the living quarter (0-based); None for the Hub's per-ship income
    gains: Amounts
    why: Message  # the ledger's note
    ships: NotRequired[int]  # the Hub's line: ships counted
    per_ship: NotRequired[int]  # the Hub's line: GEMs per ship


# A resident that may move (income's relocations): from where, and the places it may go to.
Relocation = TypedDict("Relocation", {"from": Place, "slot": int, "species": str,
                                      "to": list[Place]})


class IncomeOptions(Verdict):
    """Income (`income_options`): eligibility, its lines, the powers and relocations."""

    missing: list[str]
    lines: list[IncomeLine]
    powers: list[AbilityNeed]
    relocations: list[Relocation]
    relocation_gems: int  # GEMs per resident moved


class HumanThenIncomeOption(Verdict):
    """Hub A-8's turn option (`human_then_income`): gain a Human, then take income."""

    source: str
    text: str
    missing: list[str]
    where: list[Place]


# -- ships and their actions ----------------------------------------------------------------------


class ShipEntry(TypedDict):
    """A ship on the table for the active player (`ship_entry`; `options()["ships"]`)."""

    ship: str  # "Ann:L1-transport", "neutral:farm"
    owner: str | None  # the owner's name; None for a neutral ship
    design: str
    type: str  # words.SHIP_NAMES
    usable: bool
    cost: int | None  # GEMs put on the ship
    fee: int | None  # the owner's fee
    reason: str | None  # why it cannot be used now
    missing: list[str]


class DismantleTarget(TypedDict):
    """A ship a Dismantle may take, and its metal."""

    ship: str
    design: str
    metal: int | None
    missing: list[str]


@final
class DismantleAction(TypedDict):
    """A Dismantle's action: the player's own unused ships it may take."""

    dismantle: list[DismantleTarget]


class SectorOffer(Verdict):
    """A Sector a Construction may build: its wing, cost, price after discounts, the abilities
    it fires when built."""

    number: int
    level: int
    wing: str | None
    cost: int | None  # the metal printed on it
    price: int | None  # after the ship's and the station's discounts
    missing: list[str]
    abilities: list[AbilityNeed]


@final
class ConstructionAction(TypedDict):
    """A Construction's action: the display's and the player's private Sectors."""

    sectors: list[SectorOffer]


class HumanOffer(TypedDict):
    """What a Human die kept offers: observe (its gain) or recruit (its price, where it goes)."""

    observe: Amounts
    recruit: Amounts | None
    recruit_reason: str | None
    where: list[Place]


class DiceOffer(TypedDict):
    """Dice rolled, kept and rerolled (an Expedition's, a bonus roll's)."""

    dice: int | None
    keep: int | None
    rerolls: int | None
    faces: list[str]  # words.DIE_FACES
    humans: HumanOffer


@final
class ExpeditionAction(DiceOffer):
    """A Terran Expedition's action: its dice (None: a value the catalogue lacks)."""

    missing: list[str]


class ResidentItem(TypedDict):
    """A transaction that buys an Alien: by colour (`color`), or a gold one (no `color`)."""

    type: str  # "alien" or "gold"
    color: NotRequired[str]


class ResidentOffer(ResidentItem, Verdict):
    """An Alien a transaction may buy, its cost, how many are left and where it may go."""

    cost: Amounts
    in_supply: int
    where: list[Place]


class TradeOffer(TypedDict):
    """Trades: the pairs of resources the player can pay, and what one gains."""

    pay: list[list[str]]  # the pairs of resources the player can pay
    gain: list[str]


class BuyOffer(Verdict):
    """Buying one resource for GEMs."""

    gems: int
    gain: list[str]


class TransactionsOffer(TypedDict):
    """The transactions on offer (Aliens by colour, gold, trades, buying)."""

    aliens: list[ResidentOffer]
    gold: ResidentOffer
    trade: TradeOffer
    buy: BuyOffer


@final
class TransportAction(TransactionsOffer):
    """A Transport's action: its transactions, up to `transactions` of them."""

    transactions: int | None  # the most a Transport makes
    missing: list[str]


class TrackOffer(Verdict):
    """A Diplomacy track to advance on: its level and the lobbying cost (0: free)."""

    track: str
    level: int
    cost: int | None
    missing: list[str]


class TracksOffer(TypedDict):
    """Diplomacy tracks to advance on, at most `tracks_at_most` of them."""

    tracks_at_most: int | None
    tracks: list[TrackOffer]


@final
class DiplomacyAction(TracksOffer):
    """A Diplomacy ship's action: its tracks and their lobbying costs."""

    missing: list[str]


@final
class FarmAction(TypedDict):
    """A Farm's action: the food it gives."""

    food: int | None
    missing: list[str]


@final
class IceCollectorAction(TypedDict):
    """An Ice Collector's action: the water it gives."""

    water: int | None
    missing: list[str]


# A ship's action, by its type (the ship's `type` says which; each is @final, so that a key
# narrows the union: `if "sectors" in action`).
ShipAction = (DismantleAction | ConstructionAction | ExpeditionAction | TransportAction
              | DiplomacyAction | FarmAction | IceCollectorAction)


class DiplomacyBonusOption(TypedDict):
    """The Diplomacy bonus a ship action pays one player: the picks and what each gives."""

    player: str
    options: list[list[int]]
    automatic: bool  # one pick only: the engine gives it
    gives: list[list[Amounts] | None]


class ShipOptions(ShipEntry):
    """What the active player's use of a ship needs (`ship_options`; `options(ship=ID)`)."""

    gems_after_use: int | None
    action: ShipAction
    abilities: list[AbilityNeed]  # the ship action's abilities that fire
    diplomacy_bonuses: NotRequired[list[DiplomacyBonusOption]]  # a ship whose type is a track


# -- bonus actions (`bonus_offer`) ----------------------------------------------------------------


class OfferAsks(TypedDict):
    """What every bonus offer may carry: a value needed before it (`bonus_offer`'s `asks`)."""

    asks: NotRequired[Asked]  # a value the engine needs before it gets to the bonus action


@final
class TransactionsBonus(TransactionsOffer, OfferAsks):
    """A bonus action's transactions (B-5, 206, 218, 301, A-3), `transactions` of them."""

    transactions: int


@final
class DiceBonus(DiceOffer, OfferAsks):
    """A bonus action's dice (225, 321, A-3)."""


@final
class TracksBonus(TracksOffer, OfferAsks):
    """A bonus action's Diplomacy track (117, 306, A-7)."""


class PickShown(TypedDict):
    """One choice of a bonus action (a free Sector, a Hub resident's move, what A-12 returns)
    as shown: `detail` goes into the command as it is."""

    detail: Any
    wing: NotRequired[str | None]  # a free Sector's
    species: NotRequired[str]  # a resident's
    residents: NotRequired[list[str]]  # a Sector returned with its residents
    points: NotRequired[int]  # returning nothing: the points lost (negative)


class Pick(PickShown, Verdict):
    """One choice of a bonus action, with the engine's verdict on it."""


@final
class PicksBonus(OfferAsks):
    """A bonus action's choices (326's free Sector, A-11's resident, what A-12 returns)."""

    choices: list[Pick]


# A bonus action's offer, by what it asks (AbilityNeed.bonus; @final: a key narrows it).
BonusOffer = TransactionsBonus | DiceBonus | TracksBonus | PicksBonus


# -- setup ----------------------------------------------------------------------------------------


class NewGameStep(TypedDict):
    """Before the game: `new_game`, for 2 to 4 players."""

    command: Literal["new_game"]
    players: list[int]  # the player counts
    colors: list[str]
    aliens_drawn: dict[int, int]  # by player count


class SectorDisplayStep(TypedDict):
    """`sector_display`: the Sectors laid out, stack by stack."""

    command: Literal["sector_display"]
    per_stack: int
    stacks: list[tuple[int, str | None]]  # (level, colour)
    number_endings: list[int] | None  # the first game's


class FirstGameSetsStep(TypedDict):
    """`first_game_sets`: each player's fixed set (a first game)."""

    command: Literal["first_game_sets"]
    players: list[str]
    sets: list[int]


class DealHubsStep(TypedDict):
    """`deal_hubs`: the Hubs dealt, `per_player` to each."""

    command: Literal["deal_hubs"]
    players: list[str]
    per_player: int
    hubs: list[str]


class RevealShipsStep(TypedDict):
    """`reveal_ships`: the ships revealed for a round of the draft."""

    command: Literal["reveal_ships"]
    level: int
    count: int
    designs: list[str]


class DraftShipStep(TypedDict):
    """`draft_ship`: the next pick of the draft, in snake order."""

    command: Literal["draft_ship"]
    player: str
    order: list[str]  # the snake order, from this player
    offered: list[str]


class ChooseHubStep(TypedDict):
    """`choose_hub`: the player keeps one of their Hubs."""

    command: Literal["choose_hub"]
    player: str
    hubs: list[str]


class FreeSector(TypedDict):
    """A free Sector a Hub's starting bonus gives (its level and colour)."""

    level: int
    color: str


class DrawShips(TypedDict):
    """A Hub's starting bonus: draw `draw` ships of a level, keep `keep` (`choices`)."""

    op: Literal["draw"]
    level: int
    draw: int
    keep: int
    choices: list[str]  # the designs


class DiscardShips(TypedDict):
    """A Hub's starting bonus: discard `count` ships of a level (`choices`: the player's)."""

    op: Literal["discard"]
    level: int
    ship: str  # the ship type, or "any"
    count: int
    choices: list[str]  # the ship ids


class StartingBonusStep(TypedDict):
    """`starting_bonus`: what the player's Hub gives and asks at the start."""

    command: Literal["starting_bonus"]
    player: str
    hub: str
    diplomacy_choice: int | None  # tracks the player chooses
    missing: list[str]
    free_sectors: list[FreeSector]
    private_sectors: int
    ship_changes: list[DrawShips | DiscardShips]


# The setup command expected next (`setup_step`), by its `command`.
SetupStep = (NewGameStep | SectorDisplayStep | FirstGameSetsStep | DealHubsStep
             | RevealShipsStep | DraftShipStep | ChooseHubStep | StartingBonusStep)


# -- all of it ------------------------------------------------------------------------------------


class TableOptions(TypedDict):
    """Everything the table may do now (`options`); the play keys during play, `setup` before."""

    phase: str  # new, setup, play, over
    turn: TurnNow
    pending: list[PendingChoice]
    end: EndNow
    missing: list[MissingValue]
    setup: NotRequired[SetupStep]  # phases new and setup
    ships: NotRequired[list[ShipEntry]]  # play
    income: NotRequired[IncomeOptions]  # play
    human_then_income: NotRequired[HumanThenIncomeOption | None]  # play
    hub_powers: NotRequired[list[HubPowerOption]]  # play
    end_turn: NotRequired[Verdict]  # play
    ship: NotRequired[ShipOptions]  # play, with ship=ID
