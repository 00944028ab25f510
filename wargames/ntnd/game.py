"""NT 3: the turn sequence as data, and :class:`Game`, No Trumpets No Drums on the shared game protocol.

``Game.new("campaign")`` (or ``"tet"``, ``"year_of_the_rat"``, ``"1975"``) opens one of the reconstructed
scenarios (:mod:`.scenarios`). A turn is the Communist player turn (3.1: recruitment, Hearts and Minds,
operations, movement, the Allied reaction, combat, politics) and then the Allied player turn (3.2:
reinforcements and replacements, Hearts and Minds, movement, the Communist reaction, air operations, combat,
politics, random events). Every phase runs the procedures of its rule module; what a rule leaves to a player is
an action of that player, recorded in the history with its dice.

Movement is hex by hex (:class:`Step`): a move is made of steps, each checked and paid for on its own, so that
an infiltration roll happens in the hex it is made for (8.5.2) and a Communist ambush can stop an Allied unit in
the middle of its path (20). Inverted Communist units and dummies are hidden from the Allied player's
:meth:`Game.view` (6.2, 17).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction

from ..core.actions import Action, field_problem
from ..core.dice import Preceded, RecordingDice, roll_die
from ..core.errors import DataError, RuleViolation
from ..core.game import Game as CoreGame, Outcome, Prompt, canonical, handles
from ..core.log import Resolution
from ..core.paths import nearest
from ..core.rules import implements
from ..core.sequence import Phase, Sequence
from .air_play import AIR_ACTIONS, AIR_PHASES, AirBook, AirPlay
from .combat_play import COMBAT_ACTIONS, COMBAT_PHASES, ChooseLosses, CombatBook, CombatPlay
from .engagement import overstack_choices
from .ambush import AmbushOutcome, ambush_opportunities, ambush_retreat_hexes, resolve_ambush, settle_ambush
from .calendar import Turn
from .charts import NtndCharts, roll_aid
from .hearts_minds import (check_allocation, corruption_loss, expend_phoenix, occupation_shift,
                           spend_replacement_points, terror_and_bribes)
from .movement import Move, begin_move, check_step, step as move_step
from .naval import HAIPHONG, fleet_in_haiphong, interdict, interdiction_problem, mine_haiphong
from .operations import MARK_BASE_DIVISION, OPERATIONS, break_down, build_division, build_vc_base, promote, set_face
from . import corps_change
from . import neutrality as nt10
from .political import end_political_phase
from .reaction import (REACTED_MARK, communist_react, communist_reaction_moves, end_communist_reaction,
                       occupy_vacated, react, reaction_candidates, reaction_destinations)
from .recruitment import AID_KINDS, H_M_AREAS, SOURCES, Entitlement, entitlements, place_recruit
from .reinforcement import (BOUGHT_BRIGADES, MARK_CHANGING_CORPS, rally, MARK_FIREBASE_MOVED, MARK_RANGER_REASSIGNED, arrivals,
                            close_replacements, draft, enter, entry_points, move_firebase, purchase,
                            reassign_corps, reassign_ranger, receive_replacements, withdraw_units,
                            air_to_withdraw, american_units_in_play, leaving_now, transfer_to_arvn, transferable,
                            withdrawal_pool, withdrawals_owed)
from .desertion import city_desertion
from .events import apply_event, roll_event
from .scenarios import SCENARIOS, Scenario, scenario as load_named_scenario
from .special_forces import withdraw_green_beret
from .state import NtndState
from .supply import in_supply

COMMUNIST, ALLIED = "communist", "allied"

#: NT 3.1 and 3.2: the fifteen phases of a turn, in order
SEQUENCE = Sequence((
    Phase("recruitment", COMMUNIST, "recruitment", "NT 3.1.1"),
    Phase("communist_hearts_minds", COMMUNIST, "hearts_minds", "NT 3.1.2"),
    Phase(OPERATIONS, COMMUNIST, "operations", "NT 3.1.3"),
    Phase("communist_movement", COMMUNIST, "movement", "NT 3.1.4"),
    Phase("allied_reaction", ALLIED, "reaction", "NT 3.1.5"),
    Phase("communist_combat", COMMUNIST, "combat", "NT 3.1.6"),
    Phase("communist_politics", COMMUNIST, "politics", "NT 3.1.7"),
    Phase("reinforcement", ALLIED, "reinforcement", "NT 3.2.1"),
    Phase("allied_hearts_minds", ALLIED, "hearts_minds", "NT 3.2.2"),
    Phase("allied_movement", ALLIED, "movement", "NT 3.2.3"),
    Phase("communist_reaction", COMMUNIST, "reaction", "NT 3.2.4"),
    Phase("air_operations", ALLIED, "air", "NT 3.2.5"),
    Phase("allied_combat", ALLIED, "combat", "NT 3.2.6"),
    Phase("allied_politics", ALLIED, "politics", "NT 3.2.7"),
    Phase("random_events", None, "events", "NT 3.2.8"),
))

RETURN_RATE = 6                                         # NT 24.4.5: US units back a turn after a reversal
LANDINGS_A_TURN = 2                                     # NT 8.6.4: marines or rangers landed from the sea
#: scenario name -> one line for the game's list
DESCRIPTIONS = {"campaign": "the Campaign Game, Mar/Apr 1965 to Jul/Aug 1975 (reconstructed set-up)",
                "tet": "Tet, from Jan/Feb 1968 (reconstructed set-up)",
                "year_of_the_rat": "the Year of the Rat, 1972 (reconstructed set-up)",
                "1975": "the last campaign, 1975 (reconstructed set-up)"}
STANDING = {"neutral": "neutral", "allied": "allied", "conquered": "communist"}
#: marks that last one turn (a reaction, a lifted firebase, a group or Ranger changing corps, a division built
#: at a base); cleared when the next turn begins
TURN_MARKS = frozenset({REACTED_MARK, MARK_FIREBASE_MOVED, MARK_CHANGING_CORPS, MARK_RANGER_REASSIGNED,
                        MARK_BASE_DIVISION})


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class EndPhase(Action):
    """Finish the current phase (what the phase still owes is given up, as its rule says)."""


@dataclass(frozen=True)
class Muster(Action):
    """NT 4.1, 4.5.1: open the recruitment phase: work out what is owed this turn, rolling for held towns."""


@dataclass(frozen=True)
class Recruit(Action):
    """NT 4.1: place one unit owed by ``source`` (basic, dummy, nva, supply, control, extra, uprising, aid,
    held_over, event) at ``at``."""

    source: str
    kind: str
    at: str
    face_up: bool = False
    nationality: str | None = None
    unit: str | None = None
    country: str | None = None


@dataclass(frozen=True)
class Terror(Action):
    """NT 7.4: expend cadres (terror squads) and supply units (bribes) in one area."""

    area: str
    units: tuple[str, ...]


@dataclass(frozen=True)
class Promote(Action):
    """NT 6.1.1-6.1.2: a cadre becomes a regiment (or a VC sapper) with a supply unit."""

    cadre: str
    supply: str
    to: str = "regiment"


@dataclass(frozen=True)
class BreakDown(Action):
    """NT 6.1.3: an NVA division becomes a cadre and a regiment of its country."""

    division: str


@dataclass(frozen=True)
class BuildBase(Action):
    """NT 28.9.3: two supply units become a VC Base."""

    at: str
    supplies: tuple[str, str]


@dataclass(frozen=True)
class BuildDivision(Action):
    """NT 28.9.7: a regiment, a cadre and a supply unit at a VC Base become an NVA division."""

    base: str
    regiment: str
    cadre: str
    supply: str


@dataclass(frozen=True)
class Flip(Action):
    """NT 6.2: turn a Communist unit face up or invert it."""

    unit: str
    face_up: bool


@dataclass(frozen=True)
class Step(Action):
    """NT 8: move ``unit`` one hex (or into or out of a zone). Moving another unit ends this one's move.
    ``by_sea``: a Communist supply unit's sea move (8.6.1); ``amphibious``: an Allied landing from the sea
    (8.6.4)."""

    unit: str
    to: str
    by_sea: bool = False
    amphibious: bool = False


@dataclass(frozen=True)
class Announce(Action):
    """NT 3.1.4, 19.1: the Communist player announces an attack by ``attackers`` on the units at ``target``."""

    attackers: tuple[str, ...]
    target: str


@dataclass(frozen=True)
class Enter(Action):
    """NT 4.2.1, 5: bring a scheduled or bought unit into play."""

    unit: str
    at: str | None = None
    corps: str | None = None


@dataclass(frozen=True)
class Purchase(Action):
    """NT 4.2.3: buy a unit with replacement points (``pay``: pool -> points, as pairs)."""

    unit: str
    at: str | None = None
    pay: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Withdraw(Action):
    """NT 4.3, 23.3, 24.3: the phase's withdrawals, all at once."""

    units: tuple[str, ...]


@dataclass(frozen=True)
class TransferToArvn(Action):
    """NT 24.3.5: hand a US helicopter gunship or firebase to the ARVN (Partial Vietnamization)."""

    unit: str


@dataclass(frozen=True)
class Draft(Action):
    """NT 4.5.2-4.5.3: a South Vietnamese draft."""


@dataclass(frozen=True)
class SpendPoints(Action):
    """NT 7.2: replacement points spent on Hearts and Minds: ``allocation`` as (pool, area, points) triples,
    ``lose`` the areas that give up points to corruption, as (area, points) pairs."""

    allocation: tuple[tuple[str, str, int], ...]
    lose: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class ChooseCorruption(Action):
    """NT 7.2.1: after a corruption roll of 1 or 2, the areas that give up the lost points, as (area, points)
    pairs."""

    lose: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class TallyPoints(Action):
    """NT 3.1.7, 3.2.7, 22: total the phase's political points and move the track."""


@dataclass(frozen=True)
class RollEvent(Action):
    """NT 3.2.8, 21: both players roll for the random event, which is applied at once unless it asks the Allied
    player for a corps."""


@dataclass(frozen=True)
class ChooseCorps(Action):
    """NT 21.1: the corps whose Hearts and Minds marker an event moves, chosen by the Allied player."""

    corps: str


@dataclass(frozen=True)
class RollAid(Action):
    """NT 27.1: in a Jan/Feb turn, roll for Chinese and Soviet aid not yet granted."""


@dataclass(frozen=True)
class DeclareUprising(Action):
    """NT 26.1: declare the National Uprising (once a campaign, from Jan/Feb 1967)."""


@dataclass(frozen=True)
class DeclareVietnamization(Action):
    """NT 24.1-24.3: declare Full or Partial Vietnamization."""

    kind: str


@dataclass(frozen=True)
class Recommit(Action):
    """NT 24.4: recommit US forces after Vietnamization."""


@dataclass(frozen=True)
class RollElection(Action):
    """NT 23.1-23.2: the American election, at the end of the Allied political phase of Nov/Dec 1968 and 1972."""


@dataclass(frozen=True)
class Ambush(Action):
    """NT 20.2-20.3: the Communist player springs an ambush on the Allied unit that has just moved, with inverted
    units next to it."""

    ambushers: tuple[str, ...]


@dataclass(frozen=True)
class LetPass(Action):
    """NT 20.2: the Communist player lets the Allied unit's step go unambushed."""


@dataclass(frozen=True)
class AmbushAftermath(Action):
    """NT 20.5: each surviving ambusher's retreat hex (as (unit, hex) pairs; hex "" when it has none), or the
    ambushers that enter the emptied hex, and the units the owner removes from a hex the retreat over-stacked."""

    retreats: tuple[tuple[str, str], ...] = ()
    enter: tuple[str, ...] = ()
    overstack: tuple[str, ...] = ()


@dataclass(frozen=True)
class React(Action):
    """NT 8.8.1.1 (Allied) or 8.8.2 (Communist): a reaction move of one unit."""

    unit: str
    to: str


@dataclass(frozen=True)
class Occupy(Action):
    """NT 8.8.2.2: after all combat, an Allied unit moves into a hex an inverted unit reacted away from."""

    unit: str
    to: str


@dataclass(frozen=True)
class DeclareZoc(Action):
    """NT 10.2: the phasing player announces that his zones of control reach across the border of ``country``
    (a violation, charged at once and in every turn the announcement stands)."""

    country: str


@dataclass(frozen=True)
class RevokeZoc(Action):
    """NT 10.2 note: the phasing player takes back his announcement into ``country``."""

    country: str


@dataclass(frozen=True)
class Coup(Action):
    """NT 10.5.2: at the start of his reinforcement phase the Allied player launches a coup in a neutral state."""

    country: str


@dataclass(frozen=True)
class MoveFleet(Action):
    """NT 14.2.1: the Allied player moves the fleet out to sea when enemy ground units enter its hex."""

    to: str


@dataclass(frozen=True)
class MoveFirebase(Action):
    """NT 5.8: lift a firebase to a hex with a ground combat unit of its nationality."""

    unit: str
    to: str


@dataclass(frozen=True)
class ReassignCorps(Action):
    """NT 5.7: attach a whole group (the Marines, the ROK units, one division's brigades) to another corps."""

    group: str
    corps: str


@dataclass(frozen=True)
class ReassignRanger(Action):
    """NT 28.5: attach an ARVN Ranger to another corps."""

    unit: str
    corps: str


@dataclass(frozen=True)
class Phoenix(Action):
    """NT 28.4.2: expend a Phoenix unit on its corps' Hearts and Minds marker."""

    unit: str


@dataclass(frozen=True)
class MineHaiphong(Action):
    """NT 14.2.2: the fleet, a whole turn in the Haiphong zone, lays the mines."""


@dataclass(frozen=True)
class Interdict(Action):
    """NT 8.6.3: a patrol boat or the fleet tries to destroy a Communist supply unit on the water."""

    boat: str
    target: str


@dataclass(frozen=True)
class WithdrawGreenBeret(Action):
    """NT 15.2.3: take a Green Beret off the map for a while."""

    unit: str


ACTIONS = AIR_ACTIONS + COMBAT_ACTIONS + (
    MineHaiphong, Interdict, DeclareZoc, RevokeZoc, WithdrawGreenBeret, MoveFleet, MoveFirebase, ReassignCorps, ReassignRanger, Phoenix, EndPhase, Coup, Ambush, LetPass, ChooseLosses,
    AmbushAftermath, React, Occupy, RollAid, DeclareUprising, DeclareVietnamization, Recommit, RollElection,
    Muster, Recruit, Terror, Promote, BreakDown, BuildBase, BuildDivision, Flip, Step, Announce, Enter, Purchase,
    Withdraw, TransferToArvn, Draft, SpendPoints, ChooseCorruption, TallyPoints, RollEvent, ChooseCorps)


# --------------------------------------------------------------------------- the turn's bookkeeping

@dataclass
class TurnBook:
    """What the current turn has done so far, beyond the position of the counters."""

    phase_index: int = 0
    entitlement: Entitlement | None = None        # NT 4.1: what recruitment still owes this turn
    held_over: tuple[str, ...] = ()               # NT 14.2.2: units due in China next turn
    moving: Move | None = None                    # the move in progress (8)
    moved: frozenset[str] = frozenset()           # units that moved this phase (a move once ended is over)
    moved_last_allied: frozenset[str] = frozenset()   # NT 8.8.1.1: Allied units that moved last Allied movement
    announced: tuple[tuple[tuple[str, ...], str], ...] = ()   # NT 3.1.4: (attackers, target)
    hearts_minds_done: frozenset[str] = frozenset()   # NT 7.4: areas already worked this phase
    spent_points: bool = False                    # NT 7.2: the Allied spending is made once a phase
    tallied: bool = False                         # NT 22: this political phase's points are counted
    event_rolled: bool = False
    event_waiting: int | None = None              # NT 21.1: an event waiting for the Allied player's corps
    points_at_turn_start: int | None = None       # NT 25.1: the track as the player turn began (ARVN demoralized)
    fleet_out: tuple[str, tuple[str, ...]] | None = None   # NT 14.2.1: the fleet pushed out, and where it may go
    haiphong_entry: int | None = None             # NT 14.2.2: the turn the fleet entered the Haiphong zone
    invasion_aid_rolled: bool = False             # NT 27.1.2: the roll an invasion of North Vietnam brings, this turn
    landings: tuple[str, ...] = ()                # NT 8.6.4: the units landed from the sea this turn (two at most)
    hunted: frozenset[tuple[str, str]] = frozenset()   # NT 8.6.3: (boat, supply unit) tries made this turn
    us_entered: int = 0                           # NT 24.4.5: US units entered this turn
    corruption: tuple | None = None               # NT 7.2.1: (allocation, the roll, points lost) awaiting names
    aid_rolled: bool = False                      # NT 27.1: this Jan/Feb turn's aid roll is made
    received: bool = False                        # NT 4.2.2: this turn's replacement points are in the pools
    election_held: bool = False                   # NT 23.1
    withdrawn_this_turn: bool = False
    withdrawal_die: int | None = None             # NT 23.3: the peace party's die for this phase's withdrawals
    drafted: bool = False                         # NT 4.5.2: a draft "for that turn" (our reading: one a turn)
    ended: Outcome | None = None
    ambush_chance: tuple[str, tuple[str, ...]] | None = None   # NT 20.2: (mover, inverted units that may ambush)
    ambush: AmbushOutcome | None = None           # NT 20.5: an ambush whose losses and retreats are still owed
    ambush_losses: dict | None = None             # side -> the units that side has chosen to lose
    vacated: dict | None = None                   # NT 8.8.2.2: hex -> Allied units that may occupy it
    combat_over: bool = False                     # NT 8.8.2.2: the Allied player has begun to occupy

    def __deepcopy__(self, memo) -> "TurnBook":
        """Every field is an immutable value but the two small dicts: a shallow copy with those copied."""
        new = dataclasses.replace(self)
        new.ambush_losses = None if self.ambush_losses is None else dict(self.ambush_losses)
        new.vacated = None if self.vacated is None else dict(self.vacated)
        return new


def build_state(sc: Scenario, charts: NtndCharts | None = None) -> NtndState:
    """The position at the start of a scenario: every placement, the air box, the dead pile, the withdrawals made
    before the start, the track, the political state, Hearts and Minds and the standing of Laos and Cambodia."""
    st = NtndState(turn=sc.start_turn, phase=SEQUENCE[0].id)
    st.track = dataclasses.replace(st.track, points=sc.points)
    st.policy = sc.policy
    st.hearts_minds = {a: r.value for a, r in sc.hearts_and_minds.items()}
    st.standing = {c: STANDING[r.value] for c, r in sc.neutrality.items()}
    for p in sc.placements:
        st.place(p.unit, p.label, face_up=p.face_up, corps=p.corps)
    for u in sc.air_box:
        st.air[u] = "available"
    st.dead.update(sc.dead_pile)
    st.withdrawn.update(sc.withdrawn)
    if charts is not None and charts.readings.get("bought_brigades"):
        st.bought_anytime = frozenset(BOUGHT_BRIGADES)        # 28.3.2: from the start on, bought not scheduled
    return st


class Game(CombatPlay, AirPlay, CoreGame):
    """No Trumpets No Drums on the shared protocol (see the module docstring)."""

    NAME = "ntnd"
    PLAY_RULE = "NT 3"
    ACTIONS = ACTIONS
    SCENARIOS = DESCRIPTIONS
    DEFAULT_SCENARIO = "tet"
    RULESET = NtndCharts
    VARIANTS = {"the optional rules of 28 switched": {"armour_shock": False, "bought_brigades": True}}
    POSITION = ("state", "book", "violations", "airbook", "cbook")
    PASS_ACTIONS = (EndPhase,)
    PASS_RATE = 0.2
    NOT_IN_PLAY = {
        "NT 3.1.5": "reached through Game.apply in the tests (tests/test_ntnd_game.py); random play seldom "
                    "announces an attack on a hex an airmobile unit that sat out the last Allied movement can reach",
        "NT 8.8.1": "reached through Game.apply in the tests (tests/test_ntnd_game.py); random play seldom "
                    "announces an attack on a hex an airmobile unit that sat out the last Allied movement can reach",
        "NT 23": "reached through Game.apply in the tests (tests/test_ntnd_game.py): no short scenario holds an "
                 "election turn, and random play of the campaign ends long before Nov/Dec 1968",
        "NT 24.2.7": "the election dice under Full Vietnamization: reached through Game.apply in the tests; no "
                     "short scenario holds an election turn",
        "NT 8.6.4": "a landing needs the fleet moved to a coastal hex first, which random play seldom does; "
                    "tests/test_ntnd_game.py lands marines through Game.apply",
        "NT 8.6.3": "a patrol boat must meet a face-up Communist supply unit by its river or coast, which random "
                    "play seldom brings about; tests/test_ntnd_game.py plays the hunt through Game.apply",
        "NT 26.1": "the uprising may be declared from Jan/Feb 1967 (turn 12) of the campaign, which random play of "
                   "the campaign seldom reaches before the political track collapses, and the short scenarios "
                   "start after it; tests/test_ntnd_game.py declares it through Game.apply",
        "NT 14.2.2": "the fleet must sail to Haiphong and wait a whole turn there, which random play seldom does; "
                     "tests/test_ntnd_game.py mines it through Game.apply",
        "NT 24": "Vietnamization is declared in the campaign's early turns or never; random play seldom declares "
                 "it, and tests/test_ntnd_game.py and the rule 24 chapter play it through Game.apply",
        "NT 26.7": "the rally comes two turns after an uprising declared in play; tests/test_ntnd_game.py plays it",
        "NT 27.1.2": "an invasion of North Vietnam needs an unattached Allied ground unit on its border; "
                     "tests/test_ntnd_game.py plays it",
        "NT 28.8": "in the Campaign Game the shock is declared when the Communist player chooses; "
                   "tests/test_ntnd_game.py plays both ways it comes",
        "NT 28.4.2": "no Phoenix unit is in play in the shipped set-ups and random play seldom buys one; "
                     "tests/test_ntnd_hearts_minds.py tests the procedure",
        "NT 28.6.2": "the conquest of Laos takes every town, city and zone of it; random play never gets there, "
                     "tests/test_ntnd_neutrality.py tests the procedure",
        "NT 28.9.7": "a division built at a VC Base needs a base with a regiment, a cadre and a supply unit on it; "
                     "random play seldom gathers them, tests/test_ntnd_operations.py tests the procedure",
    }

    def setup(self, scenario: str) -> None:
        self.scenario_data = load_named_scenario(scenario)
        self.state = build_state(self.scenario_data, self.ruleset)
        self.book = TurnBook()
        self.airbook = AirBook()
        self.cbook = CombatBook()
        self.violations = nt10.Violations(self.state.turn)     # NT 10.2: this turn's neutrality record
        self.start_points = self.scenario_data.points
        self.book.points_at_turn_start = self.state.track.points
        self._enter_phase(Resolution(), None)

    def shared(self):
        return (self.state.geography, self.state.mix, self.scenario_data)

    # ------------------------------------------------------------------ reading the position
    @property
    def phase(self) -> Phase:
        return SEQUENCE[self.book.phase_index]

    @property
    def turn(self) -> int:
        return self.state.turn

    def result(self) -> Outcome | None:
        return self.book.ended

    def position(self) -> dict:
        st = self.state
        return {"turn": st.turn, "date": Turn(st.turn).label,
                "phase": self.phase.id, "points": st.track.points,
                "pieces": {u: {"at": p.location, "face_up": p.face_up, "corps": p.corps, "marks": sorted(p.marks)}
                           for u, p in sorted(st.pieces.items())},
                "air": dict(sorted(st.air.items())), "dead": sorted(st.dead), "withdrawn": sorted(st.withdrawn),
                "purchased": dict(sorted(st.purchased.items())), "hearts_minds": dict(st.hearts_minds),
                "standing": dict(st.standing),
                "replacement_points": {k: str(v) for k, v in st.replacement_points.items()},
                "policy": canonical(st.policy),
                "transferred": sorted(st.transferred), "events_occurred": sorted(st.events_occurred),
                "zones_of_control_announced": sorted(self.violations.declared),
                "announced": [[list(a), t] for a, t in self.book.announced],
                "moving": None if self.book.moving is None else
                {"unit": self.book.moving.unit, "path": list(self.book.moving.path),
                 "spent": str(self.book.moving.spent)},
                "entitlement": None if self.book.entitlement is None else
                {f"{s}@{w}": [dict(a) for a in alts] for (s, w), alts in sorted(
                    self.book.entitlement.left.items(), key=lambda kv: (kv[0][0], str(kv[0][1])))}}

    @implements("NT 6.2", "NT 17.1")
    def visible(self, side: str) -> dict:
        """What ``side`` sees: the enemy's inverted units (dummies among them) show only where they are, and the
        Communist recruitment owed is the Communist player's own business."""
        pos = self.position()
        if side not in (COMMUNIST, ALLIED):
            raise RuleViolation(self.PLAY_RULE, f"a side is {COMMUNIST!r} or {ALLIED!r}, not {side!r}")
        hidden, k = {}, 0
        for u, p in pos["pieces"].items():
            if self.state.side_of(u) != side and not p["face_up"]:
                k += 1
                hidden[f"inverted {k}"] = {"at": p["at"], "face_up": False}
            else:
                hidden[u] = p
        pos["pieces"] = dict(sorted(hidden.items()))
        if side == ALLIED:
            pos["entitlement"] = None
            if self.book.moving is not None and self.state.side_of(self.book.moving.unit) != side \
                    and not self.state.piece(self.book.moving.unit).face_up:
                pos["moving"] = None
        return pos

    def names(self) -> dict[str, list[str]]:
        g = self.state.geography
        return {"units": sorted(self.state.pieces), "hexes": sorted(g.label(h) for h in g.map.hexes)
                + sorted(g.zones)}

    def _precheck(self, action: Action) -> None:
        super()._precheck(action)
        problem = field_problem(action)
        if problem:
            raise RuleViolation(self.PLAY_RULE, f"{type(action).__name__}: {problem}")

    def decision(self) -> tuple[str, str, str] | None:
        """A decision that interrupts the phase: (side, rule, question)."""
        b = self.book
        if self.airbook.step is not None:
            return self.air_decision()
        if (self.cbook.battle is not None and self.cbook.battle["owed"] is not None) or (
                self.phase.id in COMBAT_PHASES and self.cbook.battle is None and self.overstacked()):
            return self.combat_decision()
        if b.event_waiting is not None:
            return ALLIED, "NT 21.1", "choose the corps whose marker the event moves"
        if b.fleet_out is not None:
            return ALLIED, "NT 14.2.1", "move the fleet out to sea"
        if b.corruption is not None:
            return ALLIED, "NT 7.2.1", f"name the {b.corruption[2]} point(s) corruption takes, by area"
        if b.ambush_chance is not None:
            mover, may = b.ambush_chance
            return COMMUNIST, "NT 20.2", f"ambush {mover} with {', '.join(may)}, or let it pass"
        if b.ambush is not None:
            o = b.ambush
            for side, n in ((ALLIED, o.allied_losses), (COMMUNIST, o.communist_losses)):
                if n and side not in b.ambush_losses:
                    return side, "NT 19.2.6", f"choose {n} unit(s) to lose in the ambush at {o.hex}"
            return COMMUNIST, "NT 20.5", ("enter the emptied hex or not" if o.allied_wiped_out
                                          else "retreat every surviving ambusher one hex")
        return None

    def invariants(self) -> list[str]:
        """No hex holds both sides' units (an ambush or a reaction may not leave them so), no counter is in two
        places (map, air box, dead pile, withdrawn), air units are on the map only as attached helicopters,
        and each area's Hearts and Minds marker is in a box of the track."""
        from .air import ALLIED_AIR
        from .state import TRANSPORT_MARK
        st, out = self.state, []
        leaving = self.book.fleet_out[0] if self.book.fleet_out else None   # 14.2.1: its way out is being chosen
        for loc in {p.location for p in st.pieces.values()}:
            here = [u for u in st.at(loc) if u != leaving]
            if loc not in st.geography.zones and len({st.side_of(u) for u in here}) > 1:
                out.append(f"{loc} holds units of both sides: {', '.join(sorted(here))}")
        for u, p in st.pieces.items():
            if u in st.air or u in st.dead or u in st.withdrawn:
                out.append(f"{u} is on the map and also in the air box, the dead pile or out of the game")
            if st.counter(u).type in ALLIED_AIR and not any(m.startswith(TRANSPORT_MARK) for m in p.marks):
                out.append(f"{u}, an air unit, is on the map without a ground unit to carry (11.1.4)")
        if st.air.keys() & (st.dead | st.withdrawn):
            out.append(f"{sorted(st.air.keys() & (st.dead | st.withdrawn))} in the air box and out of play")
        track = self._charts().hearts_minds
        for area, box in st.hearts_minds.items():
            if box not in track.ids:
                out.append(f"{area}'s Hearts and Minds marker is in {box!r}, not a box of the track")
        return out

    def current_prompt(self) -> Prompt:
        d = self.decision()
        if d is not None:
            return Prompt(d[0], d[1], d[2], kind="decision")
        ph = self.phase
        side = ph.side or ALLIED
        return Prompt(side, ph.rule, f"{ph.id.replace('_', ' ')}, turn {self.state.turn}")

    # ------------------------------------------------------------------ phases
    def _no_decision(self) -> None:
        d = self.decision()
        if d is not None:
            raise RuleViolation(d[1], f"the {d[0]} player must first {d[2]}")

    def _require(self, *phase_ids: str, rule: str | None = None) -> None:
        self._no_decision()
        if self.phase.id not in phase_ids:
            where = " or ".join(p.replace("_", " ") for p in phase_ids)
            raise RuleViolation(rule or self.PLAY_RULE,
                                f"not in the {self.phase.id.replace('_', ' ')} phase: this belongs to {where}")

    def _finish_move(self) -> None:
        mv = self.book.moving
        if mv is not None:
            self.book.moved = self.book.moved | {mv.unit}
            self.book.moving = None

    @handles(EndPhase)
    @implements("NT 3", "NT 3.1", "NT 3.2")
    def _end_phase(self, a: EndPhase, dice, res: Resolution) -> None:
        """NT 3, 3.1-3.2: a phase ends, once what it owes is done, and the next begins; after the random events,
        the next turn."""
        self._no_decision()
        ph = self.phase
        if ph.kind == "politics" and not self.book.tallied:
            raise RuleViolation(ph.rule, "the political points are counted first (tally_points)")
        if ph.id == "recruitment" and self.book.entitlement is None:
            raise RuleViolation("NT 4.1", "the recruits owed this turn are worked out first (muster)")
        if ph.id in COMBAT_PHASES:
            self._end_combat_check()
        if ph.id == "allied_politics" and self._election_year() and not self.book.election_held:
            raise RuleViolation("NT 23.1", "the American election is rolled at the end of this phase (roll_election)")
        if ph.id == "allied_movement":
            self._corps_change_done(res)
        if ph.id == "reinforcement" and not self.book.withdrawn_this_turn and \
                withdrawals_owed(self.state, self.book.withdrawal_die):
            raise RuleViolation("NT 4.3.1", "this phase's withdrawals are made first (withdraw): units are due to "
                                            "leave, or the policy orders withdrawals")
        if ph.id == "random_events" and not self.book.event_rolled:
            raise RuleViolation("NT 3.2.8", "each player rolls for the random event first (roll_event)")
        self._leave_phase(res, dice)
        nxt, new_turn = SEQUENCE.after(self.book.phase_index)
        if new_turn:
            self._new_turn(res, dice)
            if self.book.ended is not None:
                return
        self.book.phase_index = nxt
        self.state.phase = self.phase.id
        self._enter_phase(res, dice)

    @implements("NT 5.7")
    def _corps_change_done(self, res: Resolution) -> None:
        """5.7: a group changing corps ends the turn in its new corps, and the Allied movement phase is its last
        chance to get there. The phase does not end while one of its units away from the new corps has not moved
        and could; one that has moved, or cannot take a step, stays where it is (our reading: the rule names no
        penalty, and the engine does not force an impossible move)."""
        g = self.state.geography
        for u in corps_change.stragglers(self.state):
            if u not in self.book.moved and (self.book.moving is None or self.book.moving.unit != u) \
                    and any(self._may_step(u, to) for to in g.neighbours(self.state.piece(u).location)):
                raise RuleViolation("NT 5.7", f"{u} is changing corps to {self.state.piece(u).corps} and may still "
                                              f"move there")
            res.add("NT 5.7", f"{u} ends the turn outside its new corps, {self.state.piece(u).corps}", unit=u)

    def _may_step(self, unit: str, to: str) -> bool:
        """Whether ``unit`` could begin a move with a step to ``to`` (no dice rolled, nothing changed)."""
        try:
            corps_change.check_start(self.state, unit)
            corps_change.check_step(self.state, unit, to)
            against = self._declared_against(self.state.side_of(unit))
            mv = begin_move(self.state, unit, in_supply=in_supply(self.state, unit, enemy_declared=against,
                                                                   charts=self._charts()), charts=self._charts())
            check_step(self.state, mv, to, enemy_declared=against, charts=self._charts())
        except RuleViolation:
            return False
        return True

    @implements("NT 4.1.6", "NT 4.2.6")
    def _leave_phase(self, res: Resolution, dice) -> None:
        ph = self.phase
        self._finish_move()
        if ph.id in AIR_PHASES:
            self._air_phase_done(res)
        if ph.id == "recruitment" and self.book.entitlement is not None:
            left = self.book.entitlement.total()
            if left:
                res.add("NT 4.1.6", f"{left} unit(s) owed and not placed are lost")
            self.book.held_over = self.book.entitlement.deferred
            self.book.entitlement = None
        if ph.id == "reinforcement":
            self._receive(res, dice)
        if ph.id == "allied_hearts_minds":
            self.state, _ = close_replacements(self.state, res)       # after the Hearts and Minds spending (4.2.4)
        if ph.kind == "movement":
            broken = nt10.violations_at_end_of_movement(self.state, ph.side, self.violations)
            self._neutrality(broken, None, dice, res)
        if ph.id in ("communist_movement", "communist_combat", "allied_combat"):
            self._conquests(res)
        if ph.kind == "movement":
            self.book.moved_last_allied = self.book.moved if ph.side == ALLIED else self.book.moved_last_allied
        self.book.moved = frozenset()
        self.book.hearts_minds_done = frozenset()
        self.book.tallied = False
        if ph.id == "communist_reaction":
            self.state, ended = end_communist_reaction(self.state, res=res)
            self.book.vacated = dict(ended.vacated)
        if ph.id == "communist_combat":
            self.book.announced = ()
        if ph.id == "allied_combat":
            self.book.vacated = None
            self.book.combat_over = False

    def _enter_phase(self, res: Resolution, dice) -> None:
        ph = self.phase
        res.add(ph.rule, f"turn {self.state.turn}: {ph.id.replace('_', ' ')} phase")
        if ph.id == "reinforcement":
            self.book.points_at_turn_start = self.state.track.points     # 25.1: the Allied player turn begins
            self.book.received = False
            self.book.spent_points = False
            self.book.withdrawn_this_turn = False
            self.book.drafted = False
            self._withdrawal_die(res, dice)
        elif ph.id == "recruitment":
            self.book.aid_rolled = False
        elif ph.kind == "movement":
            self.violations = self.violations.begin_movement(self.state, ph.side)
        elif ph.id in COMBAT_PHASES:
            self._begin_combat(res)
        elif ph.id == "allied_politics":
            self.book.election_held = False
        elif ph.id == "random_events":
            self.book.event_rolled = False

    def _new_turn(self, res: Resolution, dice) -> None:
        """After the random events: the next turn, or the end of the scenario (its victory reading)."""
        sc = self.scenario_data
        if self.state.turn >= sc.end_turn:
            winner = sc.victory.winner(self.state.track.points, self.start_points)
            self.book.ended = Outcome(winner, "scenario end", "NT 22.4",
                                      f"turn {sc.end_turn} is over with the track at {self.state.track.points} "
                                      f"(started at {self.start_points}); {sc.victory.at_end} reading")
            res.add("NT 22.4", self.book.ended.reason, result=winner)
            return
        for u, p in list(self.state.pieces.items()):
            if p.marks & TURN_MARKS:
                self.state.update(u, marks=p.marks - TURN_MARKS)
        old = Turn(self.state.turn)
        self.state.turn += 1
        if Turn(self.state.turn).year != old.year:
            self.state.drafts_this_year = 0
        self.violations = self.violations.next_turn(self.state.turn)
        res.add("NT 3", f"turn {self.state.turn} begins")
        self.violations = nt10.renew_declarations(self.state, self.violations)      # 10.2.3: charged again
        if self.violations.uncharged():
            self.state, self.violations = nt10.charge_violations(self.state, self.violations, dice,
                                                                 charts=self._charts(), res=res)
        self.book.points_at_turn_start = self.state.track.points
        self.book.invasion_aid_rolled = False
        self.book.landings = ()
        self.book.hunted = frozenset()
        self.book.us_entered = 0
        self.airbook = AirBook(politics=frozenset())          # 11.4, 11.1.2-11.1.3, 24.2.8: a turn's records

    # ------------------------------------------------------------------ NT 4.1 recruitment
    @handles(Muster)
    @implements("NT 3.1.1")
    def _muster(self, a: Muster, dice, res: Resolution) -> None:
        self._require("recruitment", rule="NT 4.1")
        if self.book.entitlement is not None:
            raise RuleViolation("NT 4.1", "this turn's recruits are worked out already")
        nxt = self._last_event()
        events = ((dict(nxt.communist_units), nxt.place),) if nxt and nxt.communist_units else ()
        self.book.entitlement = entitlements(self.state, dice, held_over=self.book.held_over, events=events,
                                             res=res)
        self.book.held_over = ()

    @handles(Recruit)
    def _recruit(self, a: Recruit, dice, res: Resolution) -> None:
        self._require("recruitment", rule="NT 4.1")
        if self.book.entitlement is None:
            raise RuleViolation("NT 4.1", "work out this turn's recruits first (muster)")
        if a.source not in SOURCES:
            raise RuleViolation("NT 4.1", f"{a.source!r} is not a source of recruits ({', '.join(SOURCES)})")
        self.state, self.book.entitlement, _ = place_recruit(
            self.state, self.book.entitlement, a.source, a.kind, a.at, face_up=a.face_up,
            nationality=a.nationality, unit=a.unit, country=a.country, dice=dice, res=res)

    # ------------------------------------------------------------------ NT 7 hearts and minds
    @handles(Terror)
    @implements("NT 3.1.2")
    def _terror(self, a: Terror, dice, res: Resolution) -> None:
        self._require("communist_hearts_minds", rule="NT 7.4")
        if a.area in self.book.hearts_minds_done:
            raise RuleViolation("NT 7.4", f"{a.area}'s units were expended already this phase")
        if not a.units:
            raise RuleViolation("NT 7.4", "name the cadres and supply units to expend")
        self.state = terror_and_bribes(self.state, a.area, a.units, dice, charts=self._charts(), res=res)
        self.book.hearts_minds_done = self.book.hearts_minds_done | {a.area}

    @handles(SpendPoints)
    @implements("NT 3.2.2")
    def _spend(self, a: SpendPoints, dice, res: Resolution) -> None:
        """7.2: the allocation is made, the corruption die rolled, and if it takes points from more than one area
        the Allied player then says which (:class:`ChooseCorruption`)."""
        self._require("allied_hearts_minds", rule="NT 7.2")
        if self.book.spent_points:
            raise RuleViolation("NT 7.2", "the points were allocated already this phase")
        if not a.allocation:
            raise RuleViolation("NT 7.2", "allocate at least one point")
        if a.lose:
            raise RuleViolation("NT 7.2.1", "the corruption losses are named after the roll")
        allocation = {}
        for pool, area, points in a.allocation:
            allocation[(pool, area)] = allocation.get((pool, area), 0) + points
        per_area = check_allocation(self.state, allocation, self._charts())
        rec = RecordingDice(dice)
        lost = corruption_loss(sum(per_area.values()), rec)
        areas = [k for k, n in per_area.items() if n]
        if lost and len(areas) > 1:
            self.book.corruption = (tuple((p, ar, n) for (p, ar), n in allocation.items()), tuple(rec.values), lost)
            res.add("NT 7.2.1", f"corruption roll {rec.values[0]}: {lost} point(s) lost; the Allied player names them")
            return
        self._spend_now(allocation, tuple(rec.values), {areas[0]: lost} if lost else None, dice, res)

    def _spend_now(self, allocation, rolls, lose, dice, res: Resolution) -> None:
        """Spend with the corruption die already rolled (``rolls``) and the points it takes named (``lose``)."""
        self.state = spend_replacement_points(self.state, allocation, Preceded(rolls, dice), lose=lose,
                                              charts=self._charts(), res=res)
        self.book.spent_points = True
        self.book.corruption = None

    @handles(ChooseCorruption)
    def _choose_corruption(self, a: ChooseCorruption, dice, res: Resolution) -> None:
        if self.book.corruption is None:
            raise RuleViolation("NT 7.2.1", "no corruption loss is waiting to be named")
        triples, rolls, lost = self.book.corruption
        allocation = {(p, ar): n for p, ar, n in triples}
        self._spend_now(allocation, rolls, dict(a.lose), dice, res)

    # ------------------------------------------------------------------ NT 6 operations
    @handles(Promote)
    @implements("NT 3.1.3")
    def _promote(self, a: Promote, dice, res: Resolution) -> None:
        self._require(OPERATIONS, rule="NT 6.1")
        self.state, _ = promote(self.state, a.cadre, a.supply, a.to, res=res)

    @handles(BreakDown)
    def _break_down(self, a: BreakDown, dice, res: Resolution) -> None:
        self._require(OPERATIONS, rule="NT 6.1.3")
        self.state, _ = break_down(self.state, a.division, res=res)

    @handles(BuildBase)
    def _build_base(self, a: BuildBase, dice, res: Resolution) -> None:
        self._require(OPERATIONS, rule="NT 28.9.3")
        self.state, _ = build_vc_base(self.state, a.at, a.supplies, res=res)

    @handles(BuildDivision)
    def _build_division(self, a: BuildDivision, dice, res: Resolution) -> None:
        self._require(OPERATIONS, rule="NT 28.9.7")
        self.state, _ = build_division(self.state, a.base, a.regiment, a.cadre, a.supply, res=res)

    @handles(Flip)
    def _flip(self, a: Flip, dice, res: Resolution) -> None:
        self._require(OPERATIONS, rule="NT 6.2")
        self.state, _ = set_face(self.state, a.unit, a.face_up, res=res)

    # ------------------------------------------------------------------ NT 8 movement, hex by hex
    @handles(Step)
    @implements("NT 3.1.4", "NT 3.2.3")
    def _step(self, a: Step, dice, res: Resolution) -> None:
        self._require("communist_movement", "allied_movement", rule="NT 8")
        side = self.phase.side
        if self.state.side_of(a.unit) != side:
            raise RuleViolation("NT 8", f"{a.unit} is not a {side} unit")
        mv = self.book.moving
        if mv is None or mv.unit != a.unit:
            if a.unit in self.book.moved:
                raise RuleViolation("NT 8", f"{a.unit} has finished its move this phase")
            corps_change.check_start(self.state, a.unit)
            self._finish_move()
            supplied = in_supply(self.state, a.unit, enemy_declared=self._declared_against(side),
                                 charts=self._charts())
            mv = begin_move(self.state, a.unit, in_supply=supplied, by_sea=a.by_sea, charts=self._charts(), res=res)
        elif a.by_sea != mv.by_sea:
            raise RuleViolation("NT 8.6.1", f"{a.unit}'s move is {'by sea' if mv.by_sea else 'by land'} throughout")
        if mv.stopped:
            raise RuleViolation(mv.stopped, f"{a.unit} has had to stop ({mv.stopped})")
        if a.amphibious and len(self.book.landings) >= LANDINGS_A_TURN:
            raise RuleViolation("NT 8.6.4", f"two units a turn land from the sea: {', '.join(self.book.landings)}")
        corps_change.check_step(self.state, a.unit, a.to)
        before, known = self.state, len(mv.consequences)
        self.state, mv, _ = move_step(self.state, mv, a.to, dice=dice, amphibious=a.amphibious,
                                      enemy_declared=self._declared_against(side), charts=self._charts(), res=res)
        self.book.moving = mv
        arrived = mv.consequences[known:]             # what this step set off (none if it did not arrive)
        broken = tuple(q.detail for q in arrived if q.kind in ("neutrality_violation", "nv_invasion"))
        ends = next((q.detail for q in arrived if q.kind == "joins_allies"), None)
        fleet = [q.unit for q in arrived if q.kind == "fleet_displaced"]
        if a.amphibious:                               # 8.6.4.2: the fleet stays where the landing is
            self.book.landings = self.book.landings + (a.unit,)
            self.book.moved = self.book.moved | {u for u in self.state.at(a.to)
                                                 if self.state.counter(u).type == "fleet"}
        if a.unit in self.state.pieces and self.state.counter(a.unit).type == "fleet":
            self.book.haiphong_entry = self.state.turn if self.state.piece(a.unit).location == HAIPHONG else None
        if a.unit in self.state.pieces and self.state.piece(a.unit).location == a.to:
            self._neutrality(broken, ends, dice, res)
            if fleet:
                self._push_fleet(fleet[0], a.to, res)
        elif a.unit in self.state.pieces and self.state.piece(a.unit).face_up != before.piece(a.unit).face_up:
            self.violations = self.violations.excuse(a.unit, "revealed")       # a failed infiltration (10.2.2)
        if mv.stopped or a.unit not in self.state.pieces:
            self._finish_move()
        elif side == ALLIED:
            chance = ambush_opportunities(self.state, a.unit)
            if chance:
                self.book.ambush_chance = (a.unit, chance)
                res.add("NT 20.2", f"{a.unit} at {a.to} may be ambushed by {len(chance)} inverted unit(s)")

    # ------------------------------------------------------------------ NT 14.2.1 the fleet
    @implements("NT 14.2.1")
    def _push_fleet(self, fleet: str, where: str, res: Resolution) -> None:
        """14.2.1: enemy ground units entered the fleet's hex: it goes one hex out to sea, to the nearest all-sea
        hex free of enemy units (our reading where no sea hex is next to it); the Allied player picks among
        equally near ones."""
        g, st = self.state.geography, self.state
        open_sea = lambda h: g.is_all_sea(h) and not any(st.side_of(u) == COMMUNIST for u in st.at(g.label(h)))
        found = [g.label(h) for h in nearest(g.hex(where), open_sea, g.map.neighbors)[0]]
        if not found:
            raise RuleViolation("NT 14.2.1", f"the fleet at {where} has no sea to go to")
        if len(found) == 1:
            self.state.update(fleet, location=found[0])
            res.add("NT 14.2.1", f"{fleet} moves out to sea, to {found[0]}", result=found[0])
        else:
            self.book.fleet_out = (fleet, tuple(sorted(found)))
            res.add("NT 14.2.1", f"{fleet} must move out to sea: the Allied player chooses where")

    @handles(MineHaiphong)
    def _mine_haiphong(self, a: MineHaiphong, dice, res: Resolution) -> None:
        """14.2.2: laid in the Allied movement phase after the one in which the fleet entered the zone (our reading
        of "at the end of" it: the Allied player lays them when he says, and the fleet moves no more that
        phase)."""
        self._require("allied_movement", rule="NT 14.2.2")
        fleet = fleet_in_haiphong(self.state)
        self.state = mine_haiphong(self.state, dice, entered_turn=self.book.haiphong_entry, res=res)
        self.book.moved = self.book.moved | {fleet}

    @handles(Interdict)
    def _interdict(self, a: Interdict, dice, res: Resolution) -> None:
        """8.6.3: in the Allied movement phase, before, during or after the boat's move; once a turn for each boat
        and supply unit. The boat's move, if it is moving, goes on."""
        self._require("allied_movement", rule="NT 8.6.3")
        if (a.boat, a.target) in self.book.hunted:
            raise RuleViolation("NT 8.6.3", f"{a.boat} has tried for {a.target} this turn")
        self.state = interdict(self.state, a.boat, a.target, dice, res=res)
        self.book.hunted = self.book.hunted | {(a.boat, a.target)}

    @handles(WithdrawGreenBeret)
    def _withdraw_green_beret(self, a: WithdrawGreenBeret, dice, res: Resolution) -> None:
        self._require("reinforcement", rule="NT 15.2.3")
        self._receive(res, dice)
        self.state = withdraw_green_beret(self.state, a.unit, res=res)

    @handles(MoveFleet)
    def _move_fleet(self, a: MoveFleet, dice, res: Resolution) -> None:
        if self.book.fleet_out is None:
            raise RuleViolation("NT 14.2.1", "the fleet is not being pushed out to sea")
        fleet, options = self.book.fleet_out
        if a.to not in options:
            raise RuleViolation("NT 14.2.1", f"the fleet goes to one of {', '.join(options)}")
        self.state.update(fleet, location=a.to)
        self.book.fleet_out = None
        res.add("NT 14.2.1", f"{fleet} moves out to sea, to {a.to}", result=a.to)

    # ------------------------------------------------------------------ NT 10 neutral states
    def _neutrality(self, broken, ends, dice, res: Resolution) -> None:
        """Charge what a step or an attack did to a neutral state, at once (10.2.1), and end a neutrality that a
        Communist entry broke (10.5.1)."""
        if broken:
            self.violations = self.violations.add(*broken)
            for v in broken:
                res.add(v.rule, v.reason, side=v.side, country=v.country)
            self.state, self.violations = nt10.charge_violations(self.state, self.violations, dice,
                                                                 charts=self._charts(), res=res)
        if ends is not None and self.state.standing.get(ends[0]) == "neutral":
            self.state = nt10.communist_entry(self.state, ends[0], ends[1], charts=self._charts(), res=res)
        if any(v.rule == "NT 10.8" for v in broken or ()) and not self.book.invasion_aid_rolled:
            self._aid_roll(dice, res, rule="NT 27.1.2")
            self.book.invasion_aid_rolled = True

    def _conquests(self, res: Resolution) -> None:
        """NT 10.6: a former neutral whose every town, city and zone Communist units hold falls for good."""
        for country in nt10.NEUTRAL_STATES:
            if nt10.conquered(self.state, country):
                self.state = nt10.conquer(self.state, country, res=res)

    @handles(DeclareZoc)
    @implements("NT 10.2", "NT 10.2 Note", "NT 10.2.1")
    def _declare_zoc(self, a: DeclareZoc, dice, res: Resolution) -> None:
        """10.2: at any time of his own player turn (our reading of "any time in the turn": the player with the
        move announces), the phasing player extends his zones of control across a neutral border; it is charged
        at once (10.2.1) and stands until he takes it back."""
        self._no_decision()
        side = self.phase.side
        self.violations = nt10.declare_zoc(self.state, self.violations, side, a.country)
        res.add("NT 10.2", f"the {side} player announces that his zones of control reach into {a.country}",
                side=side, country=a.country)
        self.state, self.violations = nt10.charge_violations(self.state, self.violations, dice,
                                                             charts=self._charts(), res=res)
        if a.country == "NV" and not self.book.invasion_aid_rolled:
            self._aid_roll(dice, res, rule="NT 27.1.2")
            self.book.invasion_aid_rolled = True

    @handles(RevokeZoc)
    def _revoke_zoc(self, a: RevokeZoc, dice, res: Resolution) -> None:
        self._no_decision()
        self.violations = nt10.revoke_zoc(self.violations, self.phase.side, a.country)
        res.add("NT 10.2", f"the {self.phase.side} player's zones of control stop at the border of {a.country} again")

    def _declared_against(self, side: str) -> tuple[str, ...]:
        """The neutral countries into which ``side``'s enemy has announced its zones of control (10.2 note)."""
        return self.violations.declared_by(ALLIED if side == COMMUNIST else COMMUNIST)

    @handles(Coup)
    def _coup(self, a: Coup, dice, res: Resolution) -> None:
        self._declaration_time("NT 10.5.2")
        self.state = nt10.coup(self.state, a.country, dice, charts=self._charts(), res=res)

    # ------------------------------------------------------------------ NT 20 ambushes
    @handles(LetPass)
    def _let_pass(self, a: LetPass, dice, res: Resolution) -> None:
        if self.book.ambush_chance is None:
            raise RuleViolation("NT 20.2", "no Allied unit has just stepped next to an inverted unit")
        self.book.ambush_chance = None

    @handles(Ambush)
    @implements("NT 20.6")
    def _ambush(self, a: Ambush, dice, res: Resolution) -> None:
        """20.6 read as the supply rules' test: an ambushing NVA or artillery unit in supply (18) has its supplies;
        one out of supply fights at one morale less and gives no fire support."""
        chance = self.book.ambush_chance
        if chance is None:
            raise RuleViolation("NT 20.2", "an ambush is sprung when an Allied unit steps next to inverted units")
        mover, may = chance
        if not a.ambushers or len(set(a.ambushers)) != len(a.ambushers) or not set(a.ambushers) <= set(may):
            raise RuleViolation("NT 20.3", f"the ambushers are some of {', '.join(may)}, each named once")
        st = self.state
        supplied = tuple(u for u in a.ambushers if (st.counter(u).nationality == "NVA" or st.counter(u).type ==
                                                    "artillery") and in_supply(
            st, u, enemy_declared=self._declared_against(COMMUNIST), charts=self._charts()))
        self.state, fought = resolve_ambush(self.state, mover, a.ambushers, dice, supplied=supplied,
                                            armour_shock=self.armour_shock(a.ambushers, res), charts=self._charts())
        res.extend(fought)
        self.book.ambush_chance = None
        self.book.ambush = fought.result
        self.book.ambush_losses = {}
        for side, n, eligible in ((ALLIED, fought.result.allied_losses, fought.result.allied_eligible),
                                  (COMMUNIST, fought.result.communist_losses, fought.result.communist_eligible)):
            if n and len(eligible) <= n:                    # no choice to make: all of them
                self.book.ambush_losses[side] = tuple(eligible)
        self._settle_if_done(res)

    @handles(ChooseLosses)
    def _choose_losses(self, a: ChooseLosses, dice, res: Resolution) -> None:
        if self.cbook.battle is not None and self.cbook.battle["owed"] == "losses":
            self._choose_battle_losses(a.units, res)
            return
        o = self.book.ambush
        d = self.decision()
        if o is None or d is None or d[1] != "NT 19.2.6":
            raise RuleViolation("NT 19.2.6", "no losses are owed now")
        side = d[0]
        n, eligible = (o.allied_losses, o.allied_eligible) if side == ALLIED else (o.communist_losses,
                                                                                   o.communist_eligible)
        if len(a.units) != n or len(set(a.units)) != n or not set(a.units) <= set(eligible):
            raise RuleViolation("NT 19.2.6", f"the {side} player loses {n} of {', '.join(eligible)}")
        self.book.ambush_losses = {**self.book.ambush_losses, side: tuple(a.units)}
        res.add("NT 19.2.6", f"the {side} player gives up {', '.join(a.units)}", result=tuple(a.units))
        self._settle_if_done(res)

    @handles(AmbushAftermath)
    def _aftermath(self, a: AmbushAftermath, dice, res: Resolution) -> None:
        d = self.decision()
        if self.book.ambush is None or d is None or d[1] != "NT 20.5":
            raise RuleViolation("NT 20.5", "no ambush is waiting for its retreats")
        self._settle(res, retreats={u: (h or None) for u, h in a.retreats}, enter=a.enter, overstack_losses=a.overstack)

    def _settle_if_done(self, res: Resolution) -> None:
        """Settle at once when nothing is left to choose: no survivor to retreat or to enter."""
        o, chosen = self.book.ambush, self.book.ambush_losses
        if (o.allied_losses and ALLIED not in chosen) or (o.communist_losses and COMMUNIST not in chosen):
            return
        survivors = [u for u in o.ambushers if u not in chosen.get(COMMUNIST, ())]
        if not survivors:
            self._settle(res)

    def _settle(self, res: Resolution, **choices) -> None:
        o, chosen = self.book.ambush, self.book.ambush_losses
        self.state = settle_ambush(self.state, o, allied_losses=chosen.get(ALLIED, ()),
                                   communist_losses=chosen.get(COMMUNIST, ()), res=res, **choices)
        self.book.ambush = self.book.ambush_losses = None
        if o.mover not in self.state.pieces:
            self.book.moving = None
            self.book.moved = self.book.moved | {o.mover}

    # ------------------------------------------------------------------ NT 8.8 reactions
    @handles(React)
    @implements("NT 3.1.5", "NT 3.2.4")
    def _react(self, a: React, dice, res: Resolution) -> None:
        self._require("allied_reaction", "communist_reaction", rule="NT 8.8")
        if self.phase.id == "allied_reaction":
            broken = nt10.violations_by_move(self.state, a.unit, a.to)
            self.state = react(self.state, a.unit, a.to, self._attacked(), self.book.moved_last_allied, res=res)
            self._neutrality(broken, None, dice, res)
        else:
            if self.state.side_of(a.unit) != COMMUNIST:
                raise RuleViolation("NT 8.8.2", f"{a.unit} is not a Communist unit")
            broken = nt10.violations_by_move(self.state, a.unit, a.to)
            self.state = communist_react(self.state, a.unit, a.to, res=res)
            self._neutrality(broken, None, dice, res)

    def _attacked(self) -> tuple[str, ...]:
        return tuple(t for _, t in self.book.announced)

    @handles(Occupy)
    def _occupy(self, a: Occupy, dice, res: Resolution) -> None:
        self._require("allied_combat", rule="NT 8.8.2.2")
        if not self.book.vacated:
            raise RuleViolation("NT 8.8.2.2", "no inverted unit reacted away from an Allied unit this turn")
        self.state = occupy_vacated(self.state, self.book.vacated, a.unit, a.to, res=res)
        self.book.vacated = {h: tuple(v for v in us if v != a.unit) for h, us in self.book.vacated.items()
                             if h != a.to}
        self.book.combat_over = True

    @handles(Announce)
    @implements("NT 3.1.4", "NT 19.1", "NT 19.1.3")
    def _announce(self, a: Announce, dice, res: Resolution) -> None:
        """The Communist player names each attack at the end of his movement; a unit attacks once (19.1.3)."""
        self._require("communist_movement", rule="NT 3.1.4")
        st = self.state
        if not a.attackers:
            raise RuleViolation("NT 19.1", "an attack needs at least one attacking unit")
        defenders = [u for u in st.at(a.target) if st.side_of(u) == ALLIED]
        if not defenders:
            raise RuleViolation("NT 19.1", f"no Allied unit at {a.target} to attack")
        used = {u for att, _ in self.book.announced for u in att}
        if a.target in {t for _, t in self.book.announced}:
            raise RuleViolation("NT 19.1.3", f"an attack on {a.target} is announced already")
        for u in a.attackers:
            if st.side_of(u) != COMMUNIST:
                raise RuleViolation("NT 19.1", f"{u} is not a Communist unit")
            if u in used or a.attackers.count(u) > 1:
                raise RuleViolation("NT 19.1.3", f"{u} attacks once a combat phase")
            if not st.piece(u).face_up:
                raise RuleViolation("NT 6.2.1", f"{u} is inverted: only face-up units attack")
            if not st.counter(u).ground_combat:
                raise RuleViolation("NT 19.1", f"{u} is not a ground combat unit")
            if not self.state.geography.next_to(st.piece(u).location, a.target):
                raise RuleViolation("NT 19.1", f"{u} at {st.piece(u).location} is not next to {a.target}")
            nt10.check_move_or_attack(st, u, "attack", to_location=a.target, defenders=defenders,
                                      record=self.violations)
        self._finish_move()
        self.book.announced = self.book.announced + ((tuple(a.attackers), a.target),)
        res.add("NT 3.1.4", f"attack announced on {a.target} by {', '.join(a.attackers)}",
                result=(tuple(a.attackers), a.target))

    # ------------------------------------------------------------------ NT 4.2-4.5 reinforcement
    @handles(Enter)
    @implements("NT 3.2.1", "NT 24.4.5")
    def _enter(self, a: Enter, dice, res: Resolution) -> None:
        self._require("reinforcement", rule="NT 4.2.1")
        self._receive(res, dice)
        if a.unit not in arrivals(self.state):
            raise RuleViolation("NT 4.2.1", f"{a.unit} is not due to arrive this turn")
        us = self.state.counter(a.unit).nationality == "US"
        if us and self.state.policy.reversed_from is not None and self.book.us_entered >= RETURN_RATE:
            raise RuleViolation("NT 24.4.5", f"after a reversal of Vietnamization US units come back "
                                             f"{RETURN_RATE} a turn")
        self.state, _ = enter(self.state, a.unit, a.at, corps=a.corps, res=res)
        self.state.purchased.pop(a.unit, None)
        self.book.us_entered += us

    @handles(Purchase)
    def _purchase(self, a: Purchase, dice, res: Resolution) -> None:
        self._require("reinforcement", rule="NT 4.2.3")
        self._receive(res, dice)
        try:
            pay = {pool: Fraction(v) for pool, v in a.pay} or None
        except (ValueError, ZeroDivisionError):
            raise RuleViolation("NT 4.2.3", f"{a.pay!r}: each payment is a pool and a number of points") from None
        nxt = self._last_event()
        self.state, _ = purchase(self.state, a.unit, pay=pay, location=a.at, next_turn=nxt.flags if nxt else (),
                                 res=res)

    @handles(TransferToArvn)
    def _transfer(self, a: TransferToArvn, dice, res: Resolution) -> None:
        """24.3.5, our reading of when: in the Allied reinforcement phase, after its first act."""
        self._require("reinforcement", rule="NT 24.3.5")
        self._receive(res, dice)
        self.state, _ = transfer_to_arvn(self.state, a.unit, res=res)

    @implements("NT 23.3")
    def _withdrawal_die(self, res: Resolution, dice) -> None:
        """23.3: once the peace party has won, the Allied reinforcement phase opens with one die, the number of
        American units to withdraw in it, on every turn that any American unit is left in play (our reading:
        rolled as the phase opens, so the Allied player knows it before he chooses)."""
        self.book.withdrawal_die = None
        if self.state.policy.peace_party and american_units_in_play(self.state):
            die = roll_die(dice, 6, "NT 23.3 withdrawal die")
            self.book.withdrawal_die = die
            res.add("NT 23.3", f"the peace party's die: {die} American unit(s) to withdraw this phase", die=die)

    @handles(Withdraw)
    def _withdraw(self, a: Withdraw, dice, res: Resolution) -> None:
        self._require("reinforcement", rule="NT 4.3.1")
        self._receive(res, dice)
        if self.book.withdrawn_this_turn:
            raise RuleViolation("NT 4.3.1", "the withdrawals of this phase are made at once, and they are made")
        die = (self.book.withdrawal_die or 0) if self.state.policy.peace_party else None
        self.state, _ = withdraw_units(self.state, a.units, die=die, res=res)
        self.book.withdrawn_this_turn = True

    def _withdrawal_choices(self):
        """A few ways to make the phase's withdrawals: the scheduled units that can leave, with none, the
        fewest and a few more of the units the policy may take (the owed US air units first, 24.3.6)."""
        st = self.state
        due = list(leaving_now(st))
        pool = list(withdrawal_pool(st))
        owed = air_to_withdraw(st)
        pool.sort(key=lambda u: not (owed and u in st.air and st.counter(u).type != "gunship"))
        seato = [u for u in pool if st.counter(u).seato]
        us = [u for u in pool if u not in seato]
        policy = st.policy
        if policy.peace_party:
            need = policy.withdrawals(self.book.withdrawal_die or 0, st.track.points)
            extra = seato[:need.seato]
            for n in sorted({0, need.required, need.required + 1}):
                yield Withdraw(tuple(due + extra + self._sample(us, n)))
        elif policy.partial_in_effect:
            for n in (2, 3, 4):
                yield Withdraw(tuple(due + pool[:1] + self._sample(pool[1:], n - 1)))
        else:
            yield Withdraw(tuple(due))

    @handles(Draft)
    def _draft(self, a: Draft, dice, res: Resolution) -> None:
        self._require("reinforcement", rule="NT 4.5.2")
        if self.book.drafted:
            raise RuleViolation("NT 4.5.2", "one draft a turn: the next may come next turn, at a higher price (4.5.3)")
        self._receive(res, dice)
        self.state, _ = draft(self.state, dice, res)
        self.book.drafted = True

    @implements("NT 4.2.2")
    @implements("NT 25.3.1")
    def _receive(self, res: Resolution, dice) -> None:
        """The phase's first act: the turn's replacement points reach the pools, after any declaration of
        Vietnamization or recommitment made at its start (24, our reading: such a declaration comes first), with
        the South Vietnamese rally on its turn (26.7); and ARVN desertion is rolled, once a turn (25.3.1)."""
        if not self.book.received:
            nxt = self._last_event()
            self.state, _ = receive_replacements(self.state, dict(nxt.replacements) if nxt else None, res=res,
                                                 next_turn=nxt.flags if nxt else ())
            self.book.received = True
            self.state = rally(self.state, dice, res)
            self.state, _ = city_desertion(self.state, dice, points=self.book.points_at_turn_start, res=res)

    def _last_event(self):
        """What last turn's random event left for this turn (21.1), if anything."""
        nxt = self.state.next_turn
        return nxt if nxt is not None and nxt.turn == self.state.turn else None

    # ------------------------------------------------------------------ NT 23-27 the political decisions
    @handles(RollAid)
    @implements("NT 27.1", "NT 27.1.1", "NT 27.1.2")
    def _roll_aid(self, a: RollAid, dice, res: Resolution) -> None:
        """27.1: each Jan/Feb turn, before the recruits are worked out, one die for each country not yet giving aid;
        aid once granted goes on every turn."""
        self._require("recruitment", rule="NT 27.1")
        if Turn(self.state.turn).months != "Jan/Feb":
            raise RuleViolation("NT 27.1", f"aid is rolled for in Jan/Feb turns, not in {Turn(self.state.turn).label}")
        if self.book.aid_rolled or self.book.entitlement is not None:
            raise RuleViolation("NT 27.1", "aid is rolled for once, before the recruits are worked out")
        if not self._aid_roll(dice, res):
            raise RuleViolation("NT 27.1", "both countries already give aid every turn")
        self.book.aid_rolled = True

    def _aid_roll(self, dice, res: Resolution, rule: str = "NT 27.1") -> bool:
        """One die for each country not yet giving aid, with the modifiers in force (27.1.1, 27.1.2); False when
        both give aid already (nothing to roll)."""
        policy = self.state.policy
        countries = [c for c in AID_KINDS if c not in policy.aid]
        if not countries:
            return False
        if rule == "NT 27.1.2":
            res.add(rule, "Allied ground units entered North Vietnam: aid is rolled for at once")
        modifiers = policy.aid_modifiers(allied_ground_in_nv=self._allied_ground_in("NV"))
        for country in countries:
            got = roll_aid(dice, country, modifiers, charts=self._charts(), res=res)
            if got.granted:
                policy = policy.grant_aid(country)
        self.state.policy = policy
        return True

    def _allied_ground_in(self, country: str) -> bool:
        st, g = self.state, self.state.geography
        for u in st.units(ALLIED):
            loc = st.piece(u).location
            where = g.zone(loc).country if loc in g.zones else g.country(g.hex(loc))
            if where == country and st.counter(u).ground_combat:
                return True
        return False

    @handles(DeclareUprising)
    def _declare_uprising(self, a: DeclareUprising, dice, res: Resolution) -> None:
        self._require("recruitment", rule="NT 26.1")
        if self.book.entitlement is not None:
            raise RuleViolation("NT 26.1", "the uprising is declared before the turn's recruits are worked out")
        self.state.policy = self.state.policy.declare_uprising(self.state.turn)
        res.add("NT 26.1", f"the National Uprising is declared on turn {self.state.turn}")

    @handles(DeclareVietnamization)
    def _declare_vietnamization(self, a: DeclareVietnamization, dice, res: Resolution) -> None:
        self._declaration_time("NT 24.1")
        policy = self.state.policy
        if a.kind == "full":
            policy = policy.declare_full(self.state.turn)
        elif a.kind == "partial":
            policy = policy.declare_partial(self.state.turn)
        else:
            raise RuleViolation("NT 24.1", f"Vietnamization is 'full' or 'partial', not {a.kind!r}")
        self.state.policy = policy
        res.add("NT 24.1", f"{a.kind.capitalize()} Vietnamization declared on turn {self.state.turn}")

    @handles(Recommit)
    def _recommit(self, a: Recommit, dice, res: Resolution) -> None:
        self._declaration_time("NT 24.4")
        self.state.policy = self.state.policy.reverse()
        res.add("NT 24.4", f"US forces recommitted on turn {self.state.turn}")

    def _declaration_time(self, rule: str) -> None:
        """Our reading of 24.1 and 24.4: a declaration opens the Allied reinforcement phase, before its points."""
        self._require("reinforcement", rule=rule)
        if self.book.received:
            raise RuleViolation(rule, "a declaration opens the reinforcement phase, before anything else in it")

    def _election_year(self) -> int | None:
        from .politics import ELECTIONS
        return next((y for y, t in ELECTIONS.items() if t == self.state.turn), None)

    @handles(RollElection)
    @implements("NT 23.1", "NT 23.2", "NT 23.8")
    def _roll_election(self, a: RollElection, dice, res: Resolution) -> None:
        from .politics import SEATO_NATIONS, election_total
        self._require("allied_politics", rule="NT 23.1")
        year = self._election_year()
        if year is None:
            raise RuleViolation("NT 23.1", f"there is no election on turn {self.state.turn}")
        if not self.book.tallied or self.book.election_held:
            raise RuleViolation("NT 23.2", "the election is rolled once, after the phase's points are counted")
        st = self.state
        n = st.policy.election_dice(year)
        total = election_total(dice, n)
        left = sum(1 for u in [*st.pieces, *st.air, *st.purchased]
                   if st.counter(u).nationality == "US" or st.counter(u).nationality in SEATO_NATIONS)
        before = st.policy
        st.policy = before.hold_election(year, total, st.track.points, left)
        lost = st.policy.elections[-1][1]
        res.add("NT 23.2", f"{year} election: {n} dice total {total}, x10 = {10 * total} against "
                           f"{st.track.points} points: " + ("the peace party wins" if lost else "the Allies win")
                + (" and Partial Vietnamization is imposed (23.8)" if st.policy.forced and not before.forced else ""),
                arithmetic=f"{total} x 10 = {10 * total}", result=lost)
        self.book.election_held = True

    @handles(MoveFirebase)
    def _move_firebase(self, a: MoveFirebase, dice, res: Resolution) -> None:
        self._require("reinforcement", rule="NT 5.8")
        self._receive(res, dice)
        self.state, _ = move_firebase(self.state, a.unit, a.to, res)

    @handles(ReassignCorps)
    def _reassign_corps(self, a: ReassignCorps, dice, res: Resolution) -> None:
        self._require("reinforcement", rule="NT 5.7")
        self._receive(res, dice)
        self.state, _ = reassign_corps(self.state, a.group, a.corps, res)

    @handles(ReassignRanger)
    def _reassign_ranger(self, a: ReassignRanger, dice, res: Resolution) -> None:
        self._require("reinforcement", rule="NT 28.5")
        self._receive(res, dice)
        self.state, _ = reassign_ranger(self.state, a.unit, a.corps, res)

    @handles(Phoenix)
    def _phoenix(self, a: Phoenix, dice, res: Resolution) -> None:
        self._require("allied_hearts_minds", rule="NT 28.4.2")
        self.state = expend_phoenix(self.state, a.unit, dice, charts=self._charts(), res=res)

    # ------------------------------------------------------------------ NT 22 politics
    @handles(TallyPoints)
    def _tally(self, a: TallyPoints, dice, res: Resolution) -> None:
        self._require("communist_politics", "allied_politics", rule="NT 22.3")
        if self.book.tallied:
            raise RuleViolation("NT 22.3", "this phase's points are counted already")
        side = self.phase.side
        self.state, winner = end_political_phase(self.state, side, charts=self._charts(), res=res)
        if side == ALLIED:
            self.state = occupation_shift(self.state, dice, charts=self._charts(), res=res)
        self.book.tallied = True
        if winner:
            self.book.ended = Outcome(winner, "sudden death", "NT 22.4",
                                      f"the political track stands at {self.state.track.points}")

    # ------------------------------------------------------------------ NT 21 random events
    @handles(RollEvent)
    def _roll_event(self, a: RollEvent, dice, res: Resolution) -> None:
        self._require("random_events", rule="NT 21.1")
        if self.book.event_rolled:
            raise RuleViolation("NT 21.1", "the event of this turn is rolled already")
        event = roll_event(self.state, dice, charts=self._charts(), res=res)
        self.book.event_rolled = True
        try:
            self.state, nxt = apply_event(self.state, event, dice, charts=self._charts(), res=res)
        except RuleViolation as e:
            if "names a corps" not in e.reason:
                raise
            self.book.event_waiting = event.number
            res.add("NT 21.1", f"{event.name}: the Allied player chooses the corps")
            return
        self.state.next_turn = nxt

    @handles(ChooseCorps)
    def _choose_corps(self, a: ChooseCorps, dice, res: Resolution) -> None:
        if self.book.event_waiting is None:
            raise RuleViolation("NT 21.1", "no event is waiting for a corps")
        self.state, nxt = apply_event(self.state, self.book.event_waiting, dice, corps=a.corps,
                                      charts=self._charts(), res=res)
        self.state.next_turn = nxt
        self.book.event_waiting = None

    # ------------------------------------------------------------------ helpers
    def _charts(self) -> NtndCharts:
        return self.ruleset

    # ------------------------------------------------------------------ what may be done now
    def _sample(self, items: list, n: int) -> list:
        """A deterministic sample of ``n`` items that changes with the history (LegalActions lists a sample where
        one decision has too many forms)."""
        if len(items) <= n:
            return list(items)
        k = (len(self.history) * 7919) % len(items)
        return [items[(k + i * (len(items) // n)) % len(items)] for i in range(n)]

    def candidates(self) -> list[Action]:
        """Every decision of the prompt; where one has too many forms (recruit hexes, steps of every unit) a
        sample is listed, and every legal form outside it is still accepted. Listed whole before any is tried:
        trying one replaces the position's objects."""
        return list(self._candidates())

    def _candidates(self):
        ph, st, book = self.phase, self.state, self.book
        if book.ambush_chance is not None:
            mover, may = book.ambush_chance
            yield LetPass()
            yield Ambush(may)
            for u in may:
                yield Ambush((u,))
            return
        if book.ambush is not None:
            yield from self._ambush_answers()
            return
        if book.event_waiting is not None:
            for corps in ("I", "II", "III", "IV"):
                yield ChooseCorps(corps)
            return
        if book.fleet_out is not None:
            for to in book.fleet_out[1]:
                yield MoveFleet(to)
            return
        if book.corruption is not None:
            triples, _, lost = book.corruption
            areas = sorted({ar for _, ar, n in triples if n})
            first = [(ar, 0) for ar in areas]
            left = lost
            for i, (ar, _) in enumerate(first):
                cap = sum(n for _, x, n in triples if x == ar)
                first[i] = (ar, min(cap, left))
                left -= first[i][1]
            yield ChooseCorruption(tuple(p for p in first if p[1]))
            return
        if ph.id in AIR_PHASES and (self.airbook.step is not None or self.airbook.flights):
            yield from self._air_candidates()
            return
        if ph.id in COMBAT_PHASES and (self.cbook.battle is not None or self.overstacked()):
            yield from self._combat_candidates()
            return
        yield EndPhase()
        if ph.id in COMBAT_PHASES:
            yield from self._combat_candidates()
        if ph.id in AIR_PHASES:
            yield from self._air_candidates()
        if ph.id == "allied_reaction":
            for u in reaction_candidates(st, self._attacked(), book.moved_last_allied):
                for to in reaction_destinations(st, u, self._attacked())[:4]:
                    yield React(u, to)
        elif ph.id == "communist_reaction":
            from .reaction import communist_reaction_candidates
            for u in communist_reaction_candidates(st)[:10]:
                for to in communist_reaction_moves(st, u):
                    yield React(u, to)
        elif ph.id == "allied_combat" and book.vacated:
            for h, us in book.vacated.items():
                for u in us:
                    yield Occupy(u, h)
        if ph.id == "recruitment":
            yield from self._recruit_candidates()
        elif ph.id == "communist_hearts_minds":
            for area in H_M_AREAS:
                if area in book.hearts_minds_done:
                    continue
                units = [u for u in st.units(COMMUNIST, area=area) if st.counter(u).type in ("cadre", "supply")]
                for u in units[:3]:
                    yield Terror(area, (u,))
                if len(units) > 1:
                    yield Terror(area, tuple(units[:2]))
        elif ph.id == OPERATIONS:
            comm = st.units(COMMUNIST)
            supplies = [u for u in comm if st.counter(u).type == "supply"]
            for u in comm:
                c = st.counter(u)
                if c.type == "cadre":
                    for sp in supplies:
                        if self._near(u, sp):
                            yield Promote(u, sp)
                            if c.nationality == "VC":
                                yield Promote(u, sp, "sapper")
                elif c.type == "division":
                    yield BreakDown(u)
                elif c.type == "vc_base":
                    here = st.at(st.piece(u).location)
                    kinds = {k: [v for v in here if st.counter(v).type == k] for k in ("regiment", "cadre", "supply")}
                    if all(kinds.values()):
                        yield BuildDivision(st.piece(u).location, kinds["regiment"][0], kinds["cadre"][0],
                                            kinds["supply"][0])
            for loc in sorted({st.piece(u).location for u in supplies}):
                here = [v for v in st.at(loc) if st.counter(v).type == "supply"]
                if len(here) >= 2:
                    yield BuildBase(loc, (here[0], here[1]))
            for u in self._sample(comm, 12):
                yield Flip(u, not st.piece(u).face_up)
        elif ph.kind == "movement":
            mv = book.moving
            if mv is not None:
                for to in self.state.geography.neighbours(mv.location):
                    yield Step(mv.unit, to)
            movers = [u for u in st.units(ph.side) if u not in book.moved and (mv is None or u != mv.unit)]
            # 5.7: a unit still owed its move to its new corps is always listed, so the phase can end
            owing = [u for u in corps_change.stragglers(st) if u in movers] if ph.side == ALLIED else []
            for u in owing + [u for u in self._sample(movers, 8) if u not in owing]:
                for to in self.state.geography.neighbours(st.piece(u).location):
                    yield Step(u, to)
            for country in nt10.declare_zoc_choices(st, self.violations, ph.side):
                yield DeclareZoc(country)
            for country in self.violations.declared_by(ph.side):
                yield RevokeZoc(country)
            if ph.side == COMMUNIST:
                yield from self._announce_candidates()
            else:
                yield from self._landing_candidates(movers)
                yield from self._interdiction_candidates()
                if fleet_in_haiphong(st) is not None:
                    yield MineHaiphong()
        elif ph.id == "reinforcement":
            if not book.received:
                yield DeclareVietnamization("full")
                yield DeclareVietnamization("partial")
                yield Recommit()
                for country in nt10.coup_choices(st):
                    yield Coup(country)
            for u in arrivals(st)[:8]:
                yield Enter(u)
                for corps in ("I", "II", "III", "IV"):
                    for at in entry_points(st, corps)[:1]:
                        yield Enter(u, at, corps)
                        yield Enter(u, at)
            for u in sorted(st.dead)[:6]:
                yield Purchase(u)
            for u in sorted(st.bought_anytime | {"USMC III"}):       # 28.3.1-28.3.2: bought on any turn
                yield Purchase(u)
            if not book.withdrawn_this_turn and withdrawals_owed(st, book.withdrawal_die):
                yield from self._withdrawal_choices()
            for u in self._sample(list(transferable(st)), 2):
                yield TransferToArvn(u)
            if not book.drafted:
                yield Draft()
            for u in self._sample([u for u in st.units(ALLIED) if st.counter(u).type == "green_beret"], 2):
                yield WithdrawGreenBeret(u)
            for u in st.units(ALLIED):
                c = st.counter(u)
                if c.type == "firebase":
                    for v in self._sample([v for v in st.units(ALLIED) if st.counter(v).nationality ==
                                           c.nationality and st.counter(v).ground_combat], 2):
                        yield MoveFirebase(u, st.piece(v).location)
                elif c.type == "ranger" and c.nationality == "SVN":
                    for corps in ("I", "II", "III", "IV"):
                        yield ReassignRanger(u, corps)
            for group in sorted({st.counter(u).corps_group for u in st.pieces if st.counter(u).corps_group})[:3]:
                for corps in ("I", "II", "III", "IV"):
                    yield ReassignCorps(group, corps)
        elif ph.id == "allied_hearts_minds":
            for u in st.units(ALLIED):
                if st.counter(u).type == "phoenix":
                    yield Phoenix(u)
            for pool, points in (st.replacement_points.items() if not book.spent_points else ()):
                if points >= 1:
                    for area in H_M_AREAS:
                        yield SpendPoints(((pool, area, 1),))
        elif ph.kind == "politics":
            if not book.tallied:
                yield TallyPoints()
            elif ph.id == "allied_politics" and self._election_year() and not book.election_held:
                yield RollElection()
        elif ph.id == "random_events" and not book.event_rolled:
            yield RollEvent()

    def _ambush_answers(self):
        o, chosen, d = self.book.ambush, self.book.ambush_losses, self.decision()
        if d[1] == "NT 19.2.6":
            import itertools
            n, eligible = (o.allied_losses, o.allied_eligible) if d[0] == ALLIED else (o.communist_losses,
                                                                                       o.communist_eligible)
            for pick in itertools.islice(itertools.combinations(eligible, n), 6):
                yield ChooseLosses(pick)
            return
        survivors = [u for u in o.ambushers if u not in chosen.get(COMMUNIST, ())]
        if o.allied_wiped_out:
            yield AmbushAftermath()
            yield AmbushAftermath(enter=tuple(survivors))
            yield AmbushAftermath(enter=tuple(survivors[:1]))
            return
        options = {u: ambush_retreat_hexes(self.state, u, avoid=o.hex) or ("",) for u in survivors}
        for k in range(3):
            retreats = tuple((u, hs[k % len(hs)]) for u, hs in options.items())
            yield AmbushAftermath(retreats=retreats)
            # 19.3.2: where the retreats over-stack a hex, the owner names the units he removes
            probe = self.state.copy()
            for u in (x for units in chosen.values() for x in units):
                if u in probe.pieces:
                    probe.remove(u)
            for u, to in retreats:
                if to:
                    probe.update(u, location=to)
            extra = tuple(u for to in sorted({to for _, to in retreats if to})
                          for u in overstack_choices(probe, to, COMMUNIST)[0])
            if extra:
                yield AmbushAftermath(retreats=retreats, overstack=extra)

    def _near(self, a: str, b: str) -> bool:
        la, lb = self.state.piece(a).location, self.state.piece(b).location
        return la == lb or self.state.geography.next_to(la, lb)

    def _interdiction_candidates(self):
        st = self.state
        supplies = [u for u in st.units(COMMUNIST) if st.counter(u).type == "supply" and not st.in_zone(u)]
        for boat in st.units(ALLIED):
            if st.counter(boat).type in ("patrol_boat", "fleet") and not st.in_zone(boat):
                for target in supplies:
                    if (boat, target) not in self.book.hunted and interdiction_problem(st, boat, target) is None:
                        yield Interdict(boat, target)

    def _landing_candidates(self, movers):
        """8.6.4: marines and rangers in a coastal town or city may land where the fleet is, on another coast."""
        st, g = self.state, self.state.geography
        fleets = [st.piece(u).location for u in st.units(ALLIED) if st.counter(u).type == "fleet"
                  and not st.in_zone(u) and g.is_coastal(g.hex(st.piece(u).location))]
        for u in movers:
            if st.counter(u).type in ("marine", "ranger") and not st.in_zone(u):
                here = g.hex(st.piece(u).location)
                if g.is_coastal(here) and g.is_settlement(here):
                    for at in fleets:
                        yield Step(u, at, amphibious=True)

    def _recruit_candidates(self):
        st, ent = self.state, self.book.entitlement
        if ent is None:
            yield Muster()
            yield DeclareUprising()
            if not self.book.aid_rolled:
                yield RollAid()
            return
        g = st.geography
        svn = [g.label(h) for area in ("I", "II", "III", "IV") for h in g.hexes_of(area)]
        for (source, where), alternatives in sorted(ent.left.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            kinds = sorted({k for alt in alternatives for k, n in alt.items() if n > 0})
            if source in ("control", "extra", "uprising"):
                places = [g.label(h) for h in g.hexes_of(where)]
            elif source in ("nva", "held_over", "supply"):
                places = [where]
            elif source == "aid":
                places = ["China" if where == "China" else "Haiphong"]
            elif source == "event":
                places = [where] if where in g.zones else svn
            else:
                places = svn
            for kind in kinds:
                real = {"nva": ("division", "artillery", "sam"),
                        "aid": ("supply", "sam", "cadre", "artillery", "interceptor", "tank")}.get(kind, (kind,))
                for k in real:
                    for at in self._sample(places, 6):
                        yield Recruit(source, k, at, face_up=source in ("nva", "supply", "aid", "held_over"),
                                      country=where if source == "aid" else None)

    def _announce_candidates(self):
        st, used = self.state, {u for att, _ in self.book.announced for u in att}
        targets = {st.piece(u).location for u in st.units(ALLIED) if st.piece(u).location not in
                   {t for _, t in self.book.announced}}
        for target in sorted(targets):
            near = set(self.state.geography.neighbours(target))
            attackers = tuple(u for u in st.units(COMMUNIST, face_up=True) if u not in used
                              and st.counter(u).ground_combat and st.piece(u).location in near)
            if attackers:
                yield Announce(attackers, target)
                yield Announce(attackers[:1], target)
