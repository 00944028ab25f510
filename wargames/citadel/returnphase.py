"""Rule 12: the return phase, with the French towing of disabled tanks (C 19.D).

At the end of his player turn each side may pull infantry back along paths clear of the enemy: the French to
any strongpoint, the Vietminh to a strongpoint they control or to full jungle of their regiment's zone. The
player gives the path, because passing through a strongpoint changes its control (C 12.B.4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..core import Hex, Resolution, implements
from ..core.actions import Action
from ..core.errors import RuleViolation
from ..core.game import Prompt, handles
from ..core.paths import nearest, path_to, shortest_tree
from .play import EndPhase, PhasePlay
from .stacking import stacking_problem
from .strongpoints import controller, note_passage, strongpoint_at
from .tanks import armor_bunker, tank_crossing_problem
from .units import Side, UnitClass, UnitState
from .zoc import zone_of_control


def hq_zone(state, regiment: str | None) -> str | None:
    """The jungle zone of a regiment's headquarters marker (C 12.B.3): the one recorded, where the Vietminh
    player set it up (SR 2.3) or strategic movement took it (C 8); in a position made without a set-up (the
    demonstration files), the zone where most of its units stand in full jungle."""
    if regiment is None:
        return None
    if regiment in state.hq_zones:
        return state.hq_zones[regiment]
    counts: dict[str, int] = {}
    for u in state.on_board(Side.VIETMINH):
        z = state.map.info(u.hex).attr("zone") if u.counter.regiment == regiment else None
        if z is not None:
            counts[z] = counts.get(z, 0) + 1
    return max(sorted(counts), key=lambda z: counts[z]) if counts else None


def _blocked(state, side: Side) -> frozenset[Hex]:
    """Hexes a returning unit of ``side`` may not enter: enemy units and their zones of control (C 12.A.2, B.2)."""
    return frozenset(x.hex for x in state.on_board(side.enemy)) | zone_of_control(state, side.enemy)


def _passable(state, u: UnitState, h: Hex, zone: str | None, blocked: frozenset) -> bool:
    """A hex a returning unit may enter: not ``blocked``, and (Vietminh) no full jungle outside its headquarters'
    zone (C 12.B.3)."""
    if h in blocked:
        return False
    if u.side is Side.VIETMINH and state.map.terrain(h) == "full_jungle":
        return state.map.info(h).attr("zone") == zone
    return True


@implements("C 12")
def destination_problem(state, u: UnitState, h: Hex) -> str | None:
    """Why a returning unit may not end in ``h`` (C 12.A, C 12.B.4), or None."""
    name = strongpoint_at(state, h)
    if u.side is Side.FRENCH:
        if name is None:
            return f"{state.label(h)} is not a strongpoint hex; French units return only to strongpoints"
    else:
        if name is None and state.map.terrain(h) != "full_jungle":
            return f"{state.label(h)} is neither a strongpoint nor full jungle"
        if name is not None:
            if controller(state, name) is not Side.VIETMINH:
                return f"{name} is not controlled by the Vietminh"
            if h in zone_of_control(state, Side.FRENCH):
                return f"{name} is in a French zone of control"
    problem = stacking_problem([*state.units_at(h, u.side), u])
    if problem:
        return f"{state.label(h)}: {problem}"
    return None


@implements("C 12")
def return_path_problem(state, u: UnitState, path: Sequence[Hex]) -> str | None:
    """Why ``u`` may not return along ``path`` (its hexes after the start), or None."""
    if u.counter.cls is not UnitClass.INFANTRY:
        return f"{u.id} is not infantry; only combat infantry return (tanks are towed, C 19.D)"
    if not u.on_board:
        return f"{u.id} is not on the map"
    if not path:
        return "give the path of hexes to the destination"
    zone = hq_zone(state, u.counter.regiment)
    blocked = _blocked(state, u.side)
    cur = u.hex
    for h in path:
        if h not in state.map or not cur.is_adjacent(h):
            return f"{state.label(h)} does not follow on from {state.label(cur)}"
        if not _passable(state, u, h, zone, blocked):
            return (f"{state.label(h)} is not free of {u.side.enemy.value} units and zones of control"
                    + (f", or is full jungle outside zone {zone} of its regiment's headquarters"
                       if u.side is Side.VIETMINH else ""))
        cur = h
    return destination_problem(state, u, path[-1])


def return_paths(state, u: UnitState, most: int | None = None,
                 blocked: frozenset | None = None) -> dict[Hex, list[Hex]]:
    """A shortest legal path to every hex ``u`` may return to (to ``most`` of them, strongpoints first, when
    given: the offered sample). ``blocked``: the side's blocked hexes, when the caller has them already."""
    zone = hq_zone(state, u.counter.regiment)
    blocked = _blocked(state, u.side) if blocked is None else blocked
    m = state.map
    open_hexes = {h for h in m.hexes if h not in blocked} if u.side is Side.FRENCH else {
        h for h in m.hexes if _passable(state, u, h, zone, blocked)}
    prev = shortest_tree(u.hex, m.neighbors, lambda h, n: n in open_hexes)
    ends = [h for h in prev if h != u.hex and (strongpoint_at(state, h) is not None
                                                or (u.side is Side.VIETMINH and state.map.terrain(h) == "full_jungle"))]
    if most is not None:
        sps = [h for h in ends if strongpoint_at(state, h) is not None]
        rest = [h for h in ends if strongpoint_at(state, h) is None]
        room = max(0, most - len(sps))
        ends = sps[:most] + (rest[::max(1, -(-len(rest) // room))][:room] if room else [])
    out = {}
    for h in ends:
        if destination_problem(state, u, h) is None:
            out[h] = path_to(prev, h)[1:]
    return out


@implements("C 19.D")
def tow_problem(state, tower: UnitState, towed: UnitState) -> str | None:
    """Why ``tower`` may not tow ``towed`` back to the Armor bunker this return phase (C 19.D), or None."""
    if tower.side is not Side.FRENCH or tower.counter.cls is not UnitClass.TANK or tower.disabled:
        return f"{tower.id} is not an operational French tank"
    if towed.counter.cls is not UnitClass.TANK or not towed.disabled or not towed.on_board:
        return f"{towed.id} is not a disabled tank on the map"
    bunker = set(armor_bunker(state))
    if not bunker:
        return "the map has no Armor bunker"
    zoc = zone_of_control(state, Side.VIETMINH)

    def reach(start: Hex, goals: set[Hex], allowed_extra: Hex | None) -> bool:
        def passable(h: Hex, n: Hex) -> bool:
            return not tank_crossing_problem(state, tower, h, n) and (
                n == allowed_extra or not (state.units_at(n, Side.VIETMINH) or n in zoc))
        return start in goals or bool(nearest(start, goals.__contains__, state.map.neighbors, passable)[0])

    if not reach(tower.hex, {towed.hex}, towed.hex):
        return f"{tower.id} has no path to {towed.id} free of Vietminh units and zones of control"
    if not reach(towed.hex, bunker, None):
        return f"there is no path from {towed.id} back to the Armor bunker free of Vietminh units and zones of control"
    return None


# --------------------------------------------------------------------------- the phase through Game

@dataclass(frozen=True)
class ReturnMove(Action):
    """Move an infantry unit back along this path (C 12)."""
    unit: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class Tow(Action):
    """An operational tank tows a disabled tank to the Armor bunker (C 19.D)."""
    tank: str
    towed: str


class ReturnPlay(PhasePlay):
    """The return phase (C 12): the phasing player moves infantry back one unit at a time, then ends it."""

    ACTIONS = (ReturnMove, Tow)

    def play_open(self, res: Resolution) -> bool:
        self.state.returned = []
        if not ReturnPlay.play_candidates(self)[:-1]:
            res.add("C 12", f"{self.phase.name}: no unit can return")
            return False
        res.add("C 12", f"{self.phase.name}: infantry may fall back")
        return True

    def play_prompt(self) -> Prompt:
        side = self.phase_side()
        what = "strongpoints" if side is Side.FRENCH else "strongpoints you control or your regiments' jungle"
        return Prompt(side.value, "C 12", f"move infantry back to {what}"
                      + (", tow disabled tanks" if side is Side.FRENCH else "") + ", or end the return phase",
                      "return")

    def play_candidates(self) -> list:
        st, side, out = self.state, self.phase_side(), []
        blocked = _blocked(st, side)
        for u in st.on_board(side):
            if u.counter.cls is UnitClass.INFANTRY and u.id not in st.returned:
                for h, path in sorted(return_paths(st, u, most=6, blocked=blocked).items()):
                    out.append(ReturnMove(u.id, tuple(st.label(x) for x in path)))
        if side is Side.FRENCH:
            tanks = [u for u in st.on_board(side) if u.counter.cls is UnitClass.TANK and u.id not in st.returned]
            out += [Tow(a.id, b.id) for a in tanks for b in tanks if a is not b and not tow_problem(st, a, b)]
        return out + [EndPhase()]

    def play_check(self, action) -> bool:
        if not isinstance(action, ReturnMove):
            return False
        st = self.state
        u = st.unit(action.unit)
        if u.side is not self.phase_side():
            raise RuleViolation("C 12", f"{u.id} is not a {self.phase_side().value} unit")
        if u.id in st.returned:
            raise RuleViolation("C 12", f"{u.id} has already returned this phase")
        why = return_path_problem(st, u, [st.map.hex(x) for x in action.path])
        if why:
            raise RuleViolation("C 12", why)
        return True

    def play_end(self, res: Resolution) -> None:
        res.add("C 12", f"the {self.phase_side().value} return phase ends")
        self.play_done(res)

    @handles(ReturnMove)
    def _return_move(self, a: ReturnMove, dice, res: Resolution) -> None:
        st = self.state
        u = st.unit(a.unit)
        if u.side is not self.phase_side():
            raise RuleViolation("C 12", f"{u.id} is not a {self.phase_side().value} unit")
        if u.id in st.returned:
            raise RuleViolation("C 12", f"{u.id} has already returned this phase")
        path = [st.map.hex(x) for x in a.path]
        why = return_path_problem(st, u, path)
        if why:
            raise RuleViolation("C 12", why)
        for h in path:
            note_passage(st, u.side, h)
        u.hex = path[-1]
        st.returned.append(u.id)
        res.add("C 12", f"{u.id} falls back to {st.label(u.hex)} by {'-'.join(a.path)}")

    @handles(Tow)
    def _tow(self, a: Tow, dice, res: Resolution) -> None:
        st = self.state
        if self.phase_side() is not Side.FRENCH:
            raise RuleViolation("C 19.D", "tanks are towed in the French return phase")
        tower, towed = st.unit(a.tank), st.unit(a.towed)
        if tower.id in st.returned or towed.id in st.returned:
            raise RuleViolation("C 19.D", "each tank tows or is towed once a phase")
        why = tow_problem(st, tower, towed)
        if why:
            raise RuleViolation("C 19.D", why)
        bunker = sorted(armor_bunker(st))[0]
        tower.hex = towed.hex = bunker
        st.returned += [tower.id, towed.id]
        res.add("C 19.D", f"{tower.id} tows {towed.id} back to the Armor bunker in {st.label(bunker)}")
