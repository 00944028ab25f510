"""NT 14.2.2: the US fleet mines Haiphong harbour; NT 8.6.3: boats and the fleet hunt supply on the water.

The fleet sails into the Haiphong zone (9.1.1.1) and spends a whole turn there; at the end of the Allied movement
phase after the one in which it arrived, it lays the mines. The Allied player at once loses one die of political
points for the world's reaction, and from then on the harbour is closed: :meth:`Policy.mine_haiphong` sets the
flag that the movement, recruitment and aid rules read (no sea movement through Haiphong, its arrivals a turn
late in China, +1 on the Soviet aid roll).

Reading (the inventory notes the rule is ambiguous about which movement phase): the mines are laid at the end of
an Allied movement phase of a later turn than the one in which the fleet entered the zone, so the fleet has spent
at least one whole turn there. The caller, which keeps the record of moves, gives that entry turn.
"""
from __future__ import annotations

from ..core import Dice, Resolution, implements
from ..core.dice import roll_die
from ..core.errors import RuleViolation
from .state import NtndState

RULE = "NT 14.2.2"
#: NT 14 preamble: the two kinds of Allied naval unit, the patrol boats (14.1) and the US fleet (14.2)
NAVAL_TYPES = ("patrol_boat", "fleet")
HAIPHONG = "Haiphong"
MINING_PHASE = "allied_movement"


@implements("NT 14 Preamble")
def is_naval(state: NtndState, unit: str) -> bool:
    """NT 14 preamble: whether a unit is an Allied naval unit, a patrol boat or the US fleet."""
    c = state.counter(unit)
    return c.side == "allied" and c.type in NAVAL_TYPES


def fleet_in_haiphong(state: NtndState) -> str | None:
    """The Allied fleet counter in the Haiphong zone, or None."""
    for unit in state.at(HAIPHONG):
        if state.counter(unit).type == "fleet" and state.side_of(unit) == "allied":
            return unit
    return None


@implements("NT 14.2.2")
def may_mine(state: NtndState, entered_turn: int | None) -> str | None:
    """Why the fleet may not mine Haiphong now (a reason), or None if it may. ``entered_turn``: the turn in which
    the fleet entered the zone (None if it has not)."""
    if state.policy.haiphong_mined:
        return "Haiphong is mined already"
    if state.phase != MINING_PHASE:
        return f"the mines are laid at the end of the Allied movement phase, not in {state.phase.replace('_', ' ')}"
    if fleet_in_haiphong(state) is None or entered_turn is None:
        return "the fleet is not in the Haiphong zone"
    if entered_turn >= state.turn:
        return f"the fleet entered Haiphong this turn ({entered_turn}); it spends a whole turn there first"
    return None


@implements("NT 14.2.2")
def mine_haiphong(state: NtndState, dice: Dice, *, entered_turn: int | None,
                  res: Resolution | None = None) -> NtndState:
    """Lay the mines: one die of political points off the Allied total, and Haiphong closed for the rest of the
    game. Returns the new position; RuleViolation (and the position unchanged) when :func:`may_mine` refuses."""
    why = may_mine(state, entered_turn)
    if why:
        raise RuleViolation(RULE, why)
    die = roll_die(dice, 6, "NT 14.2.2 world reaction")
    new = state.copy()
    new.track = state.track.add(-die, state.policy, state.turn)
    new.policy = state.policy.mine_haiphong()
    if res is not None:
        res.add(RULE, f"the fleet mines Haiphong: world reaction, die {die}",
                arithmetic=f"{state.track.points} - {die} = {new.track.points}", die=die, result=-die)
    return new


#: 8.6.3: the die rolls with which a boat or the fleet finds and destroys a supply unit on the water
INTERDICTION_HITS = (4, 5, 6)


@implements("NT 8.6.3", "NT 14 Preamble")
def interdiction_problem(state: NtndState, boat: str, target: str) -> str | None:
    """Why ``boat`` may not try to destroy the supply unit ``target`` now, or None: it must be an Allied patrol
    boat or the fleet next to (or with) a face-up Communist supply unit (our reading: an inverted counter is not
    known for one) in a coastal or major river hex that no Communist ground combat unit accompanies."""
    g = state.geography
    if boat not in state.pieces or not is_naval(state, boat):
        return f"{boat} is not an Allied naval unit (a patrol boat or the fleet) on the map"
    if target not in state.pieces or state.side_of(target) != "communist":
        return f"{target} is not a Communist unit on the map"
    if not state.piece(target).face_up:
        return f"{target} is inverted: the Allied player cannot know it for a supply unit"
    if state.counter(target).type != "supply":
        return f"{target} is not a supply unit"
    where = state.piece(target).location
    if where in g.zones or state.in_zone(boat):
        return "interdiction happens on the map, not in an off-board zone"
    h = g.hex(where)
    if not (g.is_coastal(h) or g.has(h, "major_river")):
        return f"{target} is not on the water (a coastal or major river hex)"
    if any(state.side_of(u) == "communist" and state.counter(u).ground_combat for u in state.at(where)):
        return f"Communist ground combat units accompany {target}"
    if state.hex_of(boat) != h and not state.hex_of(boat).is_adjacent(h):
        return f"{boat} is not next to {where}"
    return None


@implements("NT 8.6.3")
def interdict(state: NtndState, boat: str, target: str, dice: Dice, *,
              res: Resolution | None = None) -> NtndState:
    """A boat's (or the fleet's) attempt on a supply unit on the water: 4-6 finds and destroys it. Returns the new
    position; RuleViolation (the position unchanged) when :func:`interdiction_problem` refuses."""
    why = interdiction_problem(state, boat, target)
    if why:
        raise RuleViolation("NT 8.6.3", why)
    die = roll_die(dice, 6, f"NT 8.6.3 {boat} hunts {target}", classes=lambda r: r in INTERDICTION_HITS)
    hit = die in INTERDICTION_HITS
    new = state.copy()
    if hit:
        new.remove(target)
    if res is not None:
        res.add("NT 8.6.3", f"{boat} hunts {target}: die {die}, " + ("destroyed" if hit else "not found"),
                roll=die, result=hit)
    return new


__all__ = ["HAIPHONG", "INTERDICTION_HITS", "MINING_PHASE", "NAVAL_TYPES", "RULE", "fleet_in_haiphong", "interdict",
           "interdiction_problem", "is_naval", "may_mine", "mine_haiphong"]
