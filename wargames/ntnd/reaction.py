"""No Trumpets No Drums, reaction movement: the Allied reaction phase of the Communist turn (3.1.5, 8.8.1) and
the Communist reaction phase of the Allied turn (3.2.4, 8.8.2), with the stacking limits they obey (8.10.1).

Each choice is a parameter, and a function lists the legal ones for the Game to prompt with:

* Allied reaction, after the Communist player has announced his attacks (3.1.4): :func:`reaction_candidates`
  lists the airmobile units that may react, :func:`reaction_destinations` where one may go, :func:`react` moves
  it. :func:`allied_reaction` plays a whole phase from a list of moves and takes the defensive ground support of
  8.8.1.2 as a hook (the air rules own it).
* Communist reaction, after the Allied movement phase: :func:`communist_reaction_candidates`,
  :func:`communist_reaction_moves`, :func:`communist_react`, then :func:`end_communist_reaction`, which flips
  every inverted unit still next to an Allied unit (8.8.2.1) and returns the vacated hexes the Allies may take
  after combat (8.8.2.2, :func:`occupy_vacated`).

Readings:

* "Airmobile" (8.8.1, 11.1.4): a counter with the airmobile symbol, or a ground unit a helicopter carries
  (:meth:`.state.NtndState.helicopter_of`; from the next player turn, 11.1.4).
* A reaction move is a flight (12.3 keeps even AA fire off airmobile moves): it ignores zones of control and the
  units it flies over. In clear weather it ends in the area the unit is in or an area bordering it (inventory 6.15:
  "its corps" is the area it occupies); in the monsoon within 9 hexes, counted straight. It still obeys the
  national limits (8.9.2: Laotian and Cambodian units stay home), corps attachment (5.3, 5.3.1) and 28.2.1 (the
  5SFM reacts only into a Green Beret's zone of influence). It never enters an off-board zone, a neutral state
  (our reading: no reaction move charges political points) or a hex the unit is already in.
* The Communist one-hex move (8.8.2) goes to an adjacent map hex free of Allied units, never across an all-sea or
  all-lake hexside nor into an all-sea hex or an off-board zone (a zone step takes a whole turn, 9.1). 8.9.1 lets
  guerrillas leave their country this way. Stacking is checked when the unit arrives: the reaction phase is not a
  movement phase, so 8.10.2's tolerance does not reach it. Immobile units (VC Bases) do not move; a unit moves once.
* "Adjacent to an Allied unit" (3.2.4, 8.8.2, 8.8.2.1): next to any Allied piece on the map except air units.
  A dummy flipped face up is removed (4.1.2).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

from ..core import Resolution, implements
from ..core.errors import DataError, RuleViolation
from ..core.hexgrid import Hex
from .geography import CORPS
from .movement import is_monsoon
from .scenarios import ALLIED_SLOTS, COMMUNIST_SLOTS
from .state import NtndState
from .units import airmobile_symbol
from .zones import in_green_beret_zoi, neutral_to

#: 11.1.4: the mark the Game puts on a ground unit carried by an attached helicopter
#: 3.1.5: the mark on an airmobile unit that made a reaction move this turn (12.3 reads it in combat)
REACTED_MARK = "reacted"
#: 8.8.2: the mark on a Communist unit that has made its reaction move; the hex it left follows the prefix
COMMUNIST_REACTED_MARK = "reaction_moved"
LEFT_PREFIX = "reaction_left:"
#: 8.2 (monsoon row) and 8.8.1.1: the airmobile reach in the monsoon
MONSOON_REACH = 9
AIR_TYPES = ("gunship", "fighter", "carrier", "sac", "soa")
SAIGON = "Saigon"


def _note(res: Resolution | None):
    return res.add if res is not None else (lambda *a, **k: None)


# --------------------------------------------------------------------------------------------- stacking
@implements("NT 8.10.1", "NT 8.10.1.1", "NT 8.10.1.2", "NT 8.10.1.3", "NT 2.2")
def stacking_breach(state: NtndState, location: str, side: str, adding: Iterable[str] = ()) -> str | None:
    """What would break 8.10.1 if ``adding`` joined ``side``'s units at ``location`` (None: nothing). Two ground
    combat units a hex (a dummy counts as one, catalog A5.19), three Allied ones in Saigon (8.10.1.2); besides them
    one artillery, one SAM, one VC Base and any supply units (Communist) or one firebase, one Green Beret, one
    militia and one patrol boat (Allied); air units and the fleet do not count; zones hold any number (8.10.1.3).
    A ground unit and the helicopter attached to it are one unit (8.10.1.1)."""
    g = state.geography
    if location in g.zones:
        return None
    units = [u for u in state.at(location) if state.side_of(u) == side] + [u for u in adding]
    slots_of = ALLIED_SLOTS if side == "allied" else COMMUNIST_SLOTS
    ground, slots = 0, {}
    for u in dict.fromkeys(units):
        if u in state.pieces and state.carries(u) is not None:
            continue                                 # 8.10.1.1: counted once, with the unit it carries
        c = state.counter(u)
        if c.type in slots_of:
            slots[slots_of[c.type]] = slots.get(slots_of[c.type], 0) + 1
        elif c.ground_combat or c.type == "dummy":
            ground += 1
    saigon = _saigon(state)
    limit = 3 if side == "allied" and saigon is not None and g.hex(location) == saigon else 2
    if ground > limit:
        return f"{ground} ground combat units in {location}, where the limit is {limit}"
    for slot, n in slots.items():
        if n > 1:
            return f"{n} {slot.replace('_', ' ')} units in {location}, where one is allowed"
    return None


def _saigon(state: NtndState) -> Hex | None:
    try:
        return state.geography.place(SAIGON)
    except KeyError:
        return None


# --------------------------------------------------------------------------------------------- Allied reaction
@implements("NT 11.1.4", "NT 11.1.4 Note", "NT 2.2 Note", "NT 28.2")
def is_airmobile(state: NtndState, unit: str) -> bool:
    """An airmobile unit: the counter's symbol (2.2, 1st Cav, 5SFM, Lao Para-Commando), or a ground unit an
    attached helicopter carries (11.1.4; helicopters are attached in the Allied air operations phase, so from
    the next player turn on, as the rule says)."""
    c = state.counter(unit)
    return c.side == "allied" and (airmobile_symbol(c) or state.helicopter_of(unit) is not None)


def _attacked(announced_attacks: Iterable[str]) -> frozenset[str]:
    return frozenset(announced_attacks)


@implements("NT 3.1.5", "NT 8.8.1", "NT 8.8.1.1")
def reaction_candidates(state: NtndState, announced_attacks: Iterable[str],
                        moved_last_turn: Iterable[str]) -> tuple[str, ...]:
    """The airmobile units that may react (8.8.1.1): on a map hex, not moved in the previous Allied movement
    phase (``moved_last_turn``: the units the Allied player did not turn 90 degrees), not in a hex the Communist
    player has announced he attacks (``announced_attacks``: hex labels), and not already reacted this turn."""
    attacked, moved = _attacked(announced_attacks), set(moved_last_turn)
    out = []
    for unit in state.units("allied"):
        piece = state.piece(unit)
        if not is_airmobile(state, unit) or unit in moved or state.in_zone(unit):
            continue
        if piece.location in attacked or piece.marked(REACTED_MARK):
            continue
        out.append(unit)
    return tuple(out)


def _check_candidate(state: NtndState, unit: str, announced_attacks, moved_last_turn) -> None:
    piece = state.piece(unit)
    if state.side_of(unit) != "allied" or not is_airmobile(state, unit):
        raise RuleViolation("NT 8.8.1", f"{unit} is not an Allied airmobile unit: only those make reaction moves")
    if unit in set(moved_last_turn):
        raise RuleViolation("NT 8.8.1.1", f"{unit} moved in the last Allied movement phase")
    if piece.location in _attacked(announced_attacks):
        raise RuleViolation("NT 8.8.1.1", f"{unit} is itself under announced attack at {piece.location}")
    if piece.marked(REACTED_MARK):
        raise RuleViolation("NT 8.8.1.1", f"{unit} has already made its reaction move")
    if state.in_zone(unit):
        raise RuleViolation("NT 9.1", f"{unit} is in the {piece.location} zone: leaving it takes a whole turn")


def _reaction_hex(state: NtndState, to: str, rule: str) -> Hex | tuple[str, str]:
    """The map hex a reaction move ends in, or (rule, reason) why ``to`` is none: a reaction move is made
    within the map, never into an off-board zone (9.1)."""
    g = state.geography
    if to in g.zones:
        return "NT 9.1", f"{to} is an off-board zone: a reaction move ends in a hex of the map"
    try:
        return g.hex(to)
    except (KeyError, ValueError, DataError):
        return rule, f"{to!r} is not a hex of the map"


def _destination_problem(state: NtndState, unit: str, to: str, attacked: frozenset[str]) -> tuple[str, str] | None:
    """(rule, reason) why ``unit`` may not react to ``to``, or None."""
    g = state.geography
    c, piece = state.counter(unit), state.piece(unit)
    b = _reaction_hex(state, to, "NT 8.8.1.1")
    if not isinstance(b, Hex):
        return b
    if to not in attacked:
        return "NT 8.8.1", f"the Communist player has announced no attack on {to}"
    friends = [u for u in state.at(to) if state.side_of(u) == "allied" and u != unit]
    if not friends:
        return "NT 8.8.1.1", f"no Allied unit is in {to}: a reaction move ends stacked with one under attack"
    if to == piece.location:
        return "NT 8.8.1.1", f"{unit} is already in {to}"
    here = state.hex_of(unit)
    area = g.area(b)
    if is_monsoon(state.turn):
        if here.distance(b) > MONSOON_REACH:
            return "NT 8.8.1.1", f"in the monsoon a reaction move reaches {MONSOON_REACH} hexes; {to} is " \
                                 f"{here.distance(b)} away"
    else:
        start = g.area(here)
        if area != start and area not in g.areas_bordering(start):
            return "NT 8.8.1.1", f"in clear weather a reaction move stays in {start} and the areas bordering it; " \
                                 f"{to} is in {area}"
    home = {"Laotian": "Laos", "Cambodian": "Cambodia"}.get(c.nationality)
    country = g.country(b)
    if home is not None and country != home:
        return "NT 8.9.2", f"{unit} may not leave {home}"
    if home is None and neutral_to(state, country, "allied"):
        return "NT 10.2", f"{country} is neutral: a reaction move does not enter it (our reading)"
    corps = piece.corps
    if c.attachment == "attached" and corps is not None:
        ok = g.may_operate_in(corps, area) if corps in CORPS else area == corps
        if not ok:
            return "NT 5.3", f"{unit} is attached to {corps} and may not operate in {area}"
    if "5sfm" in c.tags and not in_green_beret_zoi(state, b):
        return "NT 28.2.1", f"{unit} reacts only into a Green Beret's zone of influence"
    breach = stacking_breach(state, to, "allied", [unit])
    if breach:
        return "NT 8.8.1.1", f"airmobile units may not over-stack: {breach}"
    return None


@implements("NT 8.8.1.1", "NT 28.2.1", "NT 8.9.2", "NT 5.3")
def reaction_destinations(state: NtndState, unit: str, announced_attacks: Iterable[str]) -> tuple[str, ...]:
    """The hexes ``unit`` may react to (8.8.1.1): each holds an Allied unit under announced attack, lies within
    reach (clear weather: the unit's area or one bordering it; monsoon: 9 hexes) and has room for it (8.10.1).
    Does not check that the unit may react at all (see :func:`reaction_candidates`)."""
    attacked = _attacked(announced_attacks)
    return tuple(to for to in sorted(attacked) if _destination_problem(state, unit, to, attacked) is None)


def react(state: NtndState, unit: str, to: str, announced_attacks: Iterable[str], moved_last_turn: Iterable[str],
          *, res: Resolution | None = None) -> NtndState:
    """Make one Allied reaction move (8.8.1.1): a new state with ``unit`` at ``to``, marked :data:`REACTED_MARK`
    (12.3 gives the Communist +1 if it then fights next to face-up artillery or a SAM). Raises RuleViolation and
    leaves ``state`` alone if the unit may not react or not to that hex."""
    announced_attacks, moved_last_turn = tuple(announced_attacks), tuple(moved_last_turn)
    _check_candidate(state, unit, announced_attacks, moved_last_turn)
    problem = _destination_problem(state, unit, to, _attacked(announced_attacks))
    if problem:
        raise RuleViolation(*problem)
    new = state.copy()
    piece = new.piece(unit)
    new.update(unit, location=to, marks=piece.marks | {REACTED_MARK})
    _note(res)("NT 8.8.1.1", f"{unit} reacts from {piece.location} to {to}, under announced attack", result=to)
    return new


GroundSupportHook = Callable[[NtndState, Sequence[str], Resolution], NtndState]


@implements("NT 3.1.5", "NT 8.8.1")
def allied_reaction(state: NtndState, moves: Sequence[tuple[str, str]], announced_attacks: Iterable[str],
                    moved_last_turn: Iterable[str], *, ground_support: GroundSupportHook | None = None,
                    res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """The whole Allied reaction phase (3.1.5): the reaction ``moves`` ((unit, hex) pairs, in order), then the
    defensive ground support of 8.8.1.2 through ``ground_support(state, announced_attacks, res)``, which the air
    rules supply (None: no air missions). All or nothing: an illegal move raises and changes nothing."""
    res = res if res is not None else Resolution()
    announced_attacks, moved_last_turn = tuple(announced_attacks), tuple(moved_last_turn)
    new = state
    for unit, to in moves:
        new = react(new, unit, to, announced_attacks, moved_last_turn, res=res)
    if ground_support is not None:
        new = ground_support(new, announced_attacks, res)
    res.result = tuple(moves)
    return new, res


# --------------------------------------------------------------------------------------------- Communist reaction
def _adjacent_allied(state: NtndState, h: Hex) -> list[str]:
    g = state.geography
    out = []
    for n in g.map.neighbors(h):
        for u in state.at(g.label(n)):
            if state.side_of(u) == "allied" and state.counter(u).type not in AIR_TYPES:
                out.append(u)
    return out


@implements("NT 3.2.4", "NT 8.8.2")
def communist_reaction_candidates(state: NtndState) -> tuple[str, ...]:
    """The inverted Communist units on the map next to an Allied unit that may still make their one-hex
    reaction move (8.8.2): mobile (not a VC Base) and not moved yet this phase."""
    out = []
    for unit in state.units("communist", face_up=False):
        if state.in_zone(unit) or state.counter(unit).type == "vc_base":
            continue
        if state.piece(unit).marked(COMMUNIST_REACTED_MARK):
            continue
        if _adjacent_allied(state, state.hex_of(unit)):
            out.append(unit)
    return tuple(out)


def _move_problem(state: NtndState, unit: str, to: str) -> tuple[str, str] | None:
    g = state.geography
    b = _reaction_hex(state, to, "NT 8.8.2")
    if not isinstance(b, Hex):
        return b
    a = state.hex_of(unit)
    if not a.is_adjacent(b):
        return "NT 8.8.2", f"{to} is not next to {g.label(a)}: a reaction move is one hex"
    if g.is_all_sea(b):
        return "NT 8.2.3", f"ground units never enter the all-sea hex {to}"
    if g.all_sea_side(a, b) or g.all_lake_side(a, b):
        return "NT 8.8.2", f"{g.label(a)} and {to} are parted by water"
    if any(state.side_of(u) == "allied" for u in state.at(to)):
        return "NT 8.8.2", f"{to} holds Allied units"
    breach = stacking_breach(state, to, "communist", [unit])
    if breach:
        return "NT 8.10.1", breach
    return None


@implements("NT 8.8.2", "NT 8.9.1", "NT 8.10.1")
def communist_reaction_moves(state: NtndState, unit: str) -> tuple[str, ...]:
    """The hexes ``unit`` may react into: the adjacent map hexes it may enter by the movement and stacking rules,
    zones of control and influence ignored (8.8.2). Empty if the unit may not react at all."""
    if unit not in communist_reaction_candidates(state):
        return ()
    g = state.geography
    here = state.hex_of(unit)
    return tuple(g.label(n) for n in g.map.neighbors(here)
                 if n in g.map and _move_problem(state, unit, g.label(n)) is None)


def communist_react(state: NtndState, unit: str, to: str, *, res: Resolution | None = None) -> NtndState:
    """Move an inverted unit one hex in the Communist reaction phase (8.8.2); it stays inverted for now. Raises
    RuleViolation and leaves ``state`` alone if the move is illegal."""
    if state.side_of(unit) != "communist":
        raise RuleViolation("NT 8.8.2", f"{unit} is not a Communist unit")
    piece = state.piece(unit)
    if piece.face_up:
        raise RuleViolation("NT 8.8.2", f"{unit} is face up: only inverted units react")
    if unit not in communist_reaction_candidates(state):
        why = ("it has already moved" if piece.marked(COMMUNIST_REACTED_MARK) else
               "it is immobile" if state.counter(unit).type == "vc_base" else
               "it is in an off-board zone" if state.in_zone(unit) else "it is next to no Allied unit")
        raise RuleViolation("NT 8.8.2", f"{unit} may not react: {why}")
    problem = _move_problem(state, unit, to)
    if problem:
        raise RuleViolation(*problem)
    new = state.copy()
    new.update(unit, location=to, marks=piece.marks | {COMMUNIST_REACTED_MARK, LEFT_PREFIX + piece.location})
    _note(res)("NT 8.8.2", f"{unit} slips from {piece.location} to {to}", result=to)
    return new


@dataclass(frozen=True)
class ReactionEnd:
    """What the end of the Communist reaction phase did: the units turned face up (8.8.2.1), the dummies among
    them removed (4.1.2), and each vacated hex with the Allied units next to it that may occupy it once all
    combat is over (8.8.2.2)."""

    flipped: tuple[str, ...]
    dummies_removed: tuple[str, ...]
    vacated: Mapping[str, tuple[str, ...]]


@implements("NT 8.8.2.1", "NT 8.8.2.2", "NT 4.1.2")
def end_communist_reaction(state: NtndState, *, res: Resolution | None = None) -> tuple[NtndState, ReactionEnd]:
    """Close the Communist reaction phase: every inverted Communist unit next to an Allied unit turns face up
    (a dummy so revealed is removed, 4.1.2); the reaction marks are cleared; the hexes left by reacting units
    that were next to Allied units are returned with those Allied units (8.8.2.2)."""
    note = _note(res)
    new = state.copy()
    g = state.geography
    flipped, dummies, vacated = [], [], {}
    for unit in state.units("communist"):
        piece = state.piece(unit)
        left = [m[len(LEFT_PREFIX):] for m in piece.marks if m.startswith(LEFT_PREFIX)]
        for where in left:
            allies = _adjacent_allied(state, g.hex(where))
            if allies:
                vacated.setdefault(where, [])
                vacated[where] += [a for a in allies if a not in vacated[where]]
        marks = frozenset(m for m in piece.marks if m != COMMUNIST_REACTED_MARK and not m.startswith(LEFT_PREFIX))
        if marks != piece.marks:
            new.update(unit, marks=marks)
        if not piece.face_up and not state.in_zone(unit) and _adjacent_allied(state, state.hex_of(unit)):
            flipped.append(unit)
            if state.counter(unit).type == "dummy":
                dummies.append(unit)
                new.remove(unit)
            else:
                new.update(unit, face_up=True)
    if flipped:
        note("NT 8.8.2.1", f"Still next to Allied units, turned face up: {', '.join(flipped)}", result=flipped)
    if dummies:
        note("NT 4.1.2", f"Dummies revealed and removed: {', '.join(dummies)}", result=dummies)
    out = ReactionEnd(tuple(flipped), tuple(dummies), {k: tuple(v) for k, v in vacated.items()})
    if vacated:
        note("NT 8.8.2.2", "After combat the Allies may occupy: " +
             "; ".join(f"{h} ({', '.join(v)})" for h, v in out.vacated.items()), result=out.vacated)
    return new, out


@implements("NT 8.8.2.2")
def occupy_vacated(state: NtndState, vacated: Mapping[str, Iterable[str]], unit: str, to: str, *,
                   res: Resolution | None = None) -> NtndState:
    """After all combat: an Allied unit that was next to a unit that reacted away moves into the hex it left
    (``vacated`` from :func:`end_communist_reaction`), if it is still next to that hex (our reading) and the hex is
    still free of Communist units and has room."""
    if unit not in tuple(vacated.get(to, ())):
        raise RuleViolation("NT 8.8.2.2", f"{unit} was not next to a unit that reacted away from {to}")
    if unit not in state.pieces:
        raise RuleViolation("NT 8.8.2.2", f"{unit} is no longer in play")
    here = state.hex_of(unit)
    if here is None or not here.is_adjacent(state.geography.hex(to)):
        raise RuleViolation("NT 8.8.2.2", f"{unit} is no longer next to {to}")
    if any(state.side_of(u) == "communist" for u in state.at(to)):
        raise RuleViolation("NT 8.8.2.2", f"{to} holds Communist units again")
    breach = stacking_breach(state, to, "allied", [unit])
    if breach:
        raise RuleViolation("NT 8.10.1", breach)
    new = state.copy()
    new.update(unit, location=to)
    _note(res)("NT 8.8.2.2", f"{unit} occupies {to}", result=to)
    return new


__all__ = ["COMMUNIST_REACTED_MARK", "MONSOON_REACH", "REACTED_MARK", "ReactionEnd",
           "allied_reaction", "communist_react", "communist_reaction_candidates", "communist_reaction_moves",
           "end_communist_reaction", "is_airmobile", "occupy_vacated", "react", "reaction_candidates",
           "reaction_destinations", "stacking_breach"]
