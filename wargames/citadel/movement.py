"""Rule 8: movement and opportunity fire.

Movement is unlimited, hex to adjacent hex, but a moving unit must pause at
each *vulnerability point* (VP) so the enemy may fire at it. A movement phase
runs in steps (C 8, Specific Movement Procedure): units move to their first VP
or the end of their move, then the enemy fires at the paused units, then the
unpinned ones continue to their next VP, and so on.

:class:`MovementPhase` enforces the procedure: every illegal action raises
:class:`~wargames.core.errors.RuleViolation` with the rule and a reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..core import Dice, Hex, Resolution, implements
from ..core.dice import RecordingDice
from ..core.errors import RuleViolation
from ..core.copies import record_deepcopy
from .fire import reaches, resolve_fire
from .fire_types import SMALL_ARMS, range_key, weapon_type
from .state import CitadelState
from .entrench import silenced_in_trench, works_at
from .strongpoints import note_passage
from .supply import silenced_mortar
from .tanks import tank_crossing_problem
from .terrain import effective_terrain
from .units import Side, UnitClass, UnitState
from .zoc import zoc_sources, zone_of_control



@dataclass
class VulnerabilityPoint:
    unit: str
    hex: Hex
    reasons: list[str]
    step: int
    number: int                   # the unit's 1st, 2nd, ... VP this phase
    fired_by: str | None = None

    __deepcopy__ = record_deepcopy

    def to_dict(self, label) -> dict:
        return {"unit": self.unit, "hex": label(self.hex), "reasons": list(self.reasons),
                "step": self.step, "number": self.number, "fired_by": self.fired_by}


@dataclass
class MoveRecord:
    """One unit's movement this phase."""

    unit: str
    start: Hex
    entered: list[Hex] = field(default_factory=list)
    clear_count: int = 0
    status: str = "moving"        # moving, paused, resumable, done
    end_reason: str = ""
    vps: list[VulnerabilityPoint] = field(default_factory=list)
    announced: tuple[Hex, Hex] | None = None
    zone_lock: str | None = None  # after strategic movement: stay in this zone's full jungle
    moved_in_step: int = 0

    __deepcopy__ = record_deepcopy

    @property
    def current_vp(self) -> VulnerabilityPoint | None:
        return self.vps[-1] if self.vps and self.status == "paused" else None


@implements("C 8")
class MovementPhase:
    """One player's movement phase with the enemy's opportunity fire (C 8)."""

    __deepcopy__ = record_deepcopy

    def __init__(self, state: CitadelState, side: Side):
        self.state = state
        self.side = side
        self.step = 1
        self.window_open = False
        self.records: dict[str, MoveRecord] = {}
        self.fired: set[str] = set()        # enemy units that have fired this phase
        self.log = Resolution()
        self.exited: set[str] = set()

    # ------------------------------------------------------------------ vulnerability points
    @implements("C 8")
    def entry_reasons(self, rec: MoveRecord, prev: Hex, h: Hex, notes: list[str]) -> list[str]:
        """Why entering ``h`` makes it a VP for this unit (C 8), after the exceptions. Updates the clear count."""
        st, m = self.state, self.state.map
        terr = effective_terrain(m, h, st.date)
        feats = m.info(h).features
        ditch = "drainage_ditch" in m.side(prev, h)
        reasons: list[str] = []
        if self.side is Side.VIETMINH:
            clear = terr == "clear" and "road" not in feats and works_at(st, h) is None
            if "road" in feats:
                reasons.append("road hex entered (C 8 VM item 2)")
            if terr == "swamp":
                reasons.append("swamp hex entered (C 8 VM item 2)")
        else:
            clear = terr == "clear" and "road" not in feats and works_at(st, h) is None
            if terr in ("swamp", "full_jungle", "partial_jungle"):
                reasons.append(f"{terr.replace('_', ' ')} hex entered (C 8 French item 2)")
            works = works_at(st, h)
            if works:
                reasons.append("trench hex entered (C 8 French item 2)" if works == "trench" else
                               f"{works.replace('_', ' ')} hex entered: it counts as a trench (C 8 French item 2, C 18)")
        if terr == "airfield":
            if ditch:
                notes.append(f"{st.label(h)}: airfield entered across the drainage ditch, not a VP (exception 2)")
            else:
                reasons.append("airfield hex entered (C 8 item 2)")
        if clear:
            rec.clear_count += 1
            if rec.clear_count % 3 == 0:
                reasons.insert(0, f"clear hex #{rec.clear_count}: every third clear hex (C 8 item 1)")
        if reasons:
            exempt = self.exemption(h)
            if exempt:
                notes.append(f"{st.label(h)} would be a VP ({'; '.join(reasons)}) but {exempt}")
                return []
        return reasons

    @implements("C 8")
    def exemption(self, h: Hex) -> str | None:
        """Why a unit of the moving side in ``h`` cannot be a target of opportunity fire, or None."""
        st, m = self.state, self.state.map
        feats = m.info(h).features
        enemy_zoc = zoc_sources(st, self.side.enemy, h)
        if enemy_zoc:
            return f"it is in the {self.side.enemy.value} zone of control of {', '.join(enemy_zoc)} (exception 3)"
        if self.side is Side.VIETMINH:
            if m.terrain(h) == "full_jungle":
                return "a Vietminh unit in full jungle is never subject to opportunity fire (exception 1)"
            works = works_at(st, h)
            if works:
                what = "trench hex" if works == "trench" else f"{works.replace('_', ' ')} hex (it counts as a trench, C 18)"
                return f"a Vietminh unit in a {what} is never subject to opportunity fire (exception 1)"
        elif "strongpoint" in feats:
            return "a French unit in a strongpoint is never subject to opportunity fire (exception 1)"
        return None

    def _note_moved(self, u: UnitState) -> None:
        """Strategic movement, exits and re-entries are movement too (C 8, C 10 spotting condition 3)."""
        self.state.moved_in[u.id] = self.state.phase_index
        if u.counter.cls is UnitClass.HEAVY_WEAPONS:
            self.state.weapons_moved_in[u.id] = self.state.phase_index

    def needs_announcement(self, a: Hex, b: Hex) -> str | None:
        side = self.state.map.side(a, b)
        if "river" in side:
            return "river"
        if "barbed_wire" in side and self.side is Side.VIETMINH:
            return "barbed wire"
        return None

    # ------------------------------------------------------------------ moving
    def _record(self, u: UnitState) -> MoveRecord:
        rec = self.records.get(u.id)
        if rec is None:
            rec = self.records[u.id] = MoveRecord(u.id, u.hex)
        return rec

    def _check_can_move(self, u: UnitState) -> MoveRecord:
        if u.side is not self.side:
            raise RuleViolation("C 8", f"{u.id} is a {u.side.value} unit; this is the {self.side.value} movement phase")
        if not u.on_board:
            raise RuleViolation("C 8", f"{u.id} is not on the map")
        if self.window_open:
            raise RuleViolation("C 8", "opportunity fire is being resolved; movement continues after end_fire()")
        if u.pinned:
            raise RuleViolation("C 8", f"{u.id} is pinned and may not move any further this phase (C 9)")
        if u.counter.cls is UnitClass.TANK and u.disabled:
            raise RuleViolation("C 19.C", f"{u.id} is disabled and may not move")
        rec = self.records.get(u.id)
        if rec is None:
            if self.step > 1:
                raise RuleViolation("C 8", f"{u.id} did not move in the first step; after opportunity fire only "
                                           f"paused units continue (Specific Movement Procedure, item 2)")
            return MoveRecord(u.id, u.hex)      # kept only once the move is carried out
        if rec.status == "done":
            raise RuleViolation("C 8", f"{u.id} has ended its movement ({rec.end_reason})")
        if rec.status == "paused":
            raise RuleViolation("C 8", f"{u.id} is paused at a vulnerability point in {self.state.label(u.hex)} "
                                       f"and must wait for opportunity fire")
        return rec

    def plan_move(self, units: str | Sequence[str], path: Iterable[str | Hex]):
        """Check a move without making it: the units, their records and the hexes, or RuleViolation.

        The path must stop where the rules stop it: at the first vulnerability point, or on entering an
        enemy zone of control. Going past either raises. Stacking holds wherever a move ends (C 6); a path
        may pass through a full hex, as the Movement Example's second battalion passes the first in 1112.
        """
        st = self.state
        ids = [units] if isinstance(units, str) else list(units)
        if not ids:
            raise RuleViolation("C 8", "name at least one unit to move")
        if len(set(ids)) != len(ids):
            raise RuleViolation("C 8", "a unit is named twice in one move")
        us = [st.unit(i) for i in ids]
        recs = [self._check_can_move(u) for u in us]
        if len({u.hex for u in us}) > 1:
            raise RuleViolation("C 8", "units moving as a stack must start in the same hex")
        hexes = [p if isinstance(p, Hex) else st.map.hex(p) for p in path]
        if not hexes:
            raise RuleViolation("C 8", "a move needs at least one hex")
        # Dry-run every unit of the stack; they must behave alike.
        outcomes = [self._walk(u, rec, hexes, dry=True) for u, rec in zip(us, recs)]
        stops = {o[0] for o in outcomes}
        if len(stops) > 1:
            raise RuleViolation("C 8", "these units would reach vulnerability points in different hexes; move them separately")
        stop_at = stops.pop()
        if stop_at < len(hexes) - 1:
            why = outcomes[0][1]
            raise RuleViolation("C 8", f"{', '.join(ids)} must stop in {st.label(hexes[stop_at])} ({why}); "
                                f"the path may not continue to {st.label(hexes[stop_at + 1])}")
        from .stacking import check_stacking
        check_stacking(st, hexes[-1], self.side, us, rule="C 6")
        return us, recs, hexes

    def move(self, units: str | Sequence[str], path: Iterable[str | Hex]) -> Resolution:
        """Move a unit (or a stack that moves together) along ``path``, hex by hex (see :meth:`plan_move`)."""
        us, recs, hexes = self.plan_move(units, path)
        res = Resolution()
        for u, rec in zip(us, recs):
            self.records[u.id] = rec
            self._walk(u, rec, hexes, dry=False, res=res)
        res.result = {"units": [u.id for u in us], "hex": self.state.label(hexes[-1]),
                      "status": {u.id: self.records[u.id].status for u in us}}
        self.log.extend(res)
        return res

    def _walk(self, u: UnitState, rec: MoveRecord, hexes: list[Hex], dry: bool,
              res: Resolution | None = None) -> tuple[int, str]:
        """Step through ``hexes``; returns (index where the unit must stop, why). Applies the move unless ``dry``."""
        st, m = self.state, self.state.map
        clear_before, status_before, announced_before = rec.clear_count, rec.status, rec.announced
        cur = u.hex
        enemy_zoc = zone_of_control(st, self.side.enemy)
        stop = (len(hexes) - 1, "end of path")
        notes: list[str] = []
        try:
            for i, nxt in enumerate(hexes):
                if not cur.is_adjacent(nxt):
                    raise RuleViolation("C 8", f"{st.label(nxt)} is not adjacent to {st.label(cur)}")
                if nxt not in m:
                    raise RuleViolation("C 8", f"{st.label(nxt)} is off the map")
                if st.units_at(nxt, self.side.enemy):
                    raise RuleViolation("C 8", f"{st.label(nxt)} holds enemy units; units attack them by melee (C 11), not by moving in")
                pinned_there = [x.id for x in st.units_at(nxt, self.side) if x.pinned]
                if pinned_there:
                    raise RuleViolation("C 8", f"{st.label(nxt)} holds the pinned unit {', '.join(pinned_there)}; "
                                               f"no unit may enter a hex containing a pinned unit")
                if rec.zone_lock is not None and (m.terrain(nxt) != "full_jungle" or m.info(nxt).attr("zone") != rec.zone_lock):
                    raise RuleViolation("C 8", f"{u.id} moved strategically into zone {rec.zone_lock} and may not leave "
                                               f"its full jungle hexes this phase")
                if u.counter.cls is UnitClass.TANK:
                    why = tank_crossing_problem(st, u, cur, nxt)
                    if why:
                        raise RuleViolation("C 19.G", why)
                crossing = self.needs_announcement(cur, nxt)
                if crossing and rec.announced != (cur, nxt):
                    exempt = self.exemption(cur)
                    if exempt:
                        notes.append(f"crossing the {crossing} hexside from {st.label(cur)}: no VP, {exempt}")
                    else:
                        raise RuleViolation("C 8", f"{u.id} must announce the {crossing} crossing in {st.label(cur)} "
                                                   f"(announce_crossing) and pause there for opportunity fire first")
                rec.announced = None
                count_before = rec.clear_count
                reasons = self.entry_reasons(rec, cur, nxt, notes)
                if not dry:
                    rec.entered.append(nxt)
                    note_passage(st, self.side, nxt)
                    counted = rec.clear_count > count_before
                    res.add("C 8", f"{u.id} enters {st.label(nxt)}"
                            + (f" (clear hex #{rec.clear_count})" if counted else ""),
                            hex=st.label(nxt), clear_count=rec.clear_count if counted else None)
                    for n in notes:
                        res.add("C 8", n)
                    notes.clear()
                cur = nxt
                if nxt in enemy_zoc:
                    stop = (i, f"it enters the {self.side.enemy.value} zone of control of "
                               f"{', '.join(zoc_sources(st, self.side.enemy, nxt))}, which ends its movement")
                    if not dry:
                        rec.status, rec.end_reason = "done", "entered an enemy zone of control"
                        res.add("C 8", f"{u.id} ends its movement in {st.label(nxt)}: {stop[1]}")
                    break
                if reasons:
                    stop = (i, "vulnerability point: " + "; ".join(reasons))
                    if not dry:
                        vp = VulnerabilityPoint(u.id, nxt, reasons, self.step, len(rec.vps) + 1)
                        rec.vps.append(vp)
                        rec.status = "paused"
                        res.add("C 8", f"{u.id} pauses in {st.label(nxt)}: vulnerability point #{vp.number} "
                                       f"({'; '.join(reasons)})", hex=st.label(nxt), reasons=reasons)
                    break
        finally:
            if dry:
                rec.clear_count = clear_before
                rec.status = status_before
                rec.announced = announced_before
        if not dry:
            u.hex = cur
            u.in_tunnel = False
            rec.moved_in_step = self.step
            if rec.status == "resumable":
                rec.status = "moving"
            self._note_moved(u)
        return stop

    def preview(self, uid: str, path: Iterable[str | Hex]) -> tuple[int, str]:
        """Where along ``path`` the rules would stop this unit, and why, without moving it."""
        st = self.state
        u = st.unit(uid)
        fresh = uid not in self.records
        try:
            rec = self._check_can_move(u)
            hexes = [p if isinstance(p, Hex) else st.map.hex(p) for p in path]
            return self._walk(u, rec, hexes, dry=True)
        finally:
            if fresh:
                self.records.pop(uid, None)

    def announce_crossing(self, uid: str, toward: str | Hex) -> Resolution:
        """Announce a river (or, for the Vietminh, barbed-wire) crossing: the unit's hex becomes a VP (C 8 item 3)."""
        st = self.state
        u = st.unit(uid)
        rec = self.records.get(uid)
        # A unit that has just paused at a VP may announce from that hex: one VP, not two (merged below).
        merging = (rec is not None and rec.status == "paused" and not self.window_open and bool(rec.vps)
                   and rec.vps[-1].hex == u.hex and rec.vps[-1].step == self.step)
        if not merging:
            rec = self._check_can_move(u)
        to = toward if isinstance(toward, Hex) else st.map.hex(toward)
        if to not in st.map:
            raise RuleViolation("C 8", f"{st.label(to)} is off the map")
        if not u.hex.is_adjacent(to):
            raise RuleViolation("C 8", f"{st.label(to)} is not adjacent to {uid}'s hex {st.label(u.hex)}")
        kind = self.needs_announcement(u.hex, to)
        if not kind:
            raise RuleViolation("C 8", f"the hexside {st.label(u.hex)}|{st.label(to)} needs no announcement")
        res = Resolution()
        exempt = self.exemption(u.hex)
        self.records[uid] = rec
        rec.announced = (u.hex, to)
        if exempt:
            res.add("C 8", f"{uid} announces the {kind} crossing; no VP because {exempt}")
        else:
            reason = f"announces a {kind} crossing into {st.label(to)} (C 8 item 3)"
            if rec.vps and rec.vps[-1].hex == u.hex and rec.vps[-1].step == self.step and rec.status == "paused":
                rec.vps[-1].reasons.append(reason)
            else:
                vp = VulnerabilityPoint(uid, u.hex, [reason], self.step, len(rec.vps) + 1)
                rec.vps.append(vp)
            rec.status = "paused"
            res.add("C 8", f"{uid} pauses in {st.label(u.hex)}: {reason}")
        self.log.extend(res)
        return res

    def stop(self, uid: str, dry: bool = False) -> None:
        """The owner ends a unit's movement (C 8, end of movement item 1)."""
        rec = self.records.get(uid)
        if rec is None or rec.status == "done" or not self.state.unit(uid).on_board:
            raise RuleViolation("C 8", f"{uid} is not moving")
        if rec.status == "paused":
            raise RuleViolation("C 8", f"{uid} is paused at a vulnerability point; it may stop after the "
                                       f"opportunity fire there, not escape it")
        from .stacking import check_stacking
        u = self.state.unit(uid)
        check_stacking(self.state, u.hex, self.side, [u], rule="C 6")
        if dry:
            return
        rec.status, rec.end_reason = "done", "the owner stopped it"

    # ------------------------------------------------------------------ opportunity fire
    def end_moves(self) -> list[VulnerabilityPoint]:
        """Close this step's moves and open opportunity fire on the units paused at new VPs."""
        if self.window_open:
            raise RuleViolation("C 8", "opportunity fire is already open")
        from .stacking import stacking_problem
        st = self.state
        for h in {st.unit(r.unit).hex for r in self.records.values() if st.unit(r.unit).on_board}:
            problem = stacking_problem(st.units_at(h, self.side))
            if problem:
                raise RuleViolation("C 6", f"units would stop in {st.label(h)} over the stacking limit: {problem}; "
                                           f"move them on first")
        for rec in self.records.values():
            if rec.status == "resumable":
                rec.status, rec.end_reason = "done", "not moved on after opportunity fire"
            elif rec.status == "moving":
                rec.status, rec.end_reason = "done", rec.end_reason or "reached the end of its move"
        self.window_open = True
        return self.targets()

    def targets(self) -> list[VulnerabilityPoint]:
        return [r.current_vp for r in self.records.values()
                if r.current_vp is not None and r.current_vp.step == self.step and r.current_vp.fired_by is None]

    def _firer_problem(self, f: UnitState, vp: VulnerabilityPoint) -> str | None:
        _, ranges, _ = self.state.tables()
        if f.side is self.side:
            return "it belongs to the moving player"
        if not f.on_board:
            return "it is not on the map"
        if f.id in self.fired:
            return "it has already fired this movement phase"
        if f.pinned:
            return "it is pinned"
        if silenced_mortar(self.state, f):
            return "its side is out of general supply today, so its light mortars may not fire (C 21)"
        if silenced_in_trench(self.state, f):
            return "it is a Vietminh weapons unit in a trench, and may fire only from a weapons pit or tunnel (C 18)"
        try:
            key = range_key(f.counter)
        except RuleViolation as e:
            return e.reason
        rng = f.hex.distance(vp.hex)
        if f.counter.cls is UnitClass.TANK:
            if not reaches(self.state, f, vp.hex):
                return f"the VP is {rng} hexes away, beyond the reach of its guns (C 19.A)"
        elif rng > ranges.max_range(key):
            return f"the VP is {rng} hexes away, beyond its range of {ranges.max_range(key)}"
        if weapon_type(f.counter) == SMALL_ARMS and "strongpoint" in self.state.map.info(vp.hex).features:
            return "small arms may not fire at units in a strongpoint (C 14.B)"
        return None

    def eligible_firers(self, uid: str) -> list[str]:
        """Enemy units that may fire at this unit's current VP (C 8: in range, not yet fired this phase)."""
        vp = self.records[uid].current_vp
        if vp is None:
            return []
        return [f.id for f in self.state.on_board(self.side.enemy) if self._firer_problem(f, vp) is None]

    @implements("C 8")
    def opportunity_fire(self, firer: str, target: str, dice: Dice, allocation: Sequence[str] | None = None) -> Resolution:
        """One enemy unit fires at one paused unit's VP (C 8; resolved as in C 9)."""
        st = self.state
        if not self.window_open:
            raise RuleViolation("C 8", "opportunity fire comes only after the moving player pauses units (end_moves)")
        rec = self.records.get(target)
        vp = rec.current_vp if rec else None
        if vp is None or vp.step != self.step:
            raise RuleViolation("C 8", f"{target} is not paused at a new vulnerability point")
        if vp.fired_by is not None:
            raise RuleViolation("C 8", f"{target} has already been fired at by {vp.fired_by} at this vulnerability "
                                       f"point; only one unit may fire at each VP")
        f = st.unit(firer)
        problem = self._firer_problem(f, vp)
        if problem:
            raise RuleViolation("C 8", f"{firer} may not fire at {target}: {problem}")
        # Fire affects all the moving units paused at a fresh VP in that hex (C 9: fire hits the hex).
        hit = [r.unit for r in self.records.values()
               if r.current_vp is not None and r.current_vp.hex == vp.hex and r.current_vp.step == self.step
               and r.current_vp.fired_by is None]
        res = Resolution()
        res.add("C 8", f"{firer} fires at {', '.join(hit)} paused in {st.label(vp.hex)} (VP #{vp.number} of {target})")
        resolve_fire(st, [firer], vp.hex, dice, targets=hit, allocation=allocation, res=res)
        self.fired.add(firer)
        for uid in hit:
            self.records[uid].current_vp.fired_by = firer
        self.settle(res)
        self.log.extend(res)
        return res

    def settle(self, res: Resolution) -> None:
        """A paused unit that opportunity fire pinned or eliminated ends its movement (C 8 end item 3)."""
        for r in self.records.values():
            u = self.state.unit(r.unit)
            if r.status == "paused" and (u.pinned or u.eliminated):
                r.status = "done"
                r.end_reason = "eliminated" if u.eliminated else "pinned by opportunity fire"
                res.add("C 8", f"{r.unit} is {'eliminated' if u.eliminated else 'pinned'}: its movement ends")

    def end_fire(self) -> Resolution:
        """Close opportunity fire; unpinned paused units may continue in the next step (C 8 item 2)."""
        if not self.window_open:
            raise RuleViolation("C 8", "no opportunity fire is open")
        res = Resolution()
        for rec in self.records.values():
            if rec.status == "paused":
                rec.status = "resumable"
                res.add("C 8", f"{rec.unit} (not pinned) may continue from {self.state.label(self.state.unit(rec.unit).hex)}")
        self.window_open = False
        self.step += 1
        self.log.extend(res)
        return res

    @property
    def finished(self) -> bool:
        return not self.window_open and all(r.status == "done" for r in self.records.values())

    def paused_or_resumable(self) -> list[str]:
        return [r.unit for r in self.records.values() if r.status in ("paused", "resumable")]

    def summary(self) -> dict:
        lab = self.state.label
        return {uid: {"start": lab(r.start), "path": [lab(h) for h in r.entered], "status": r.status, "end": r.end_reason,
                      "vps": [vp.to_dict(lab) for vp in r.vps]} for uid, r in self.records.items()}

    # ------------------------------------------------------------------ strategic movement
    @implements("C 8")
    def strategic_plan(self, regiment: str, placements: dict[str, str]):
        """Check a strategic move (C 8) without making it: (members, destinations, origin zone, target zone)."""
        st, m = self.state, self.state.map
        if self.side is not Side.VIETMINH:
            raise RuleViolation("C 8", "only the Vietminh conduct strategic movement")
        if self.step > 1 or self.window_open:
            raise RuleViolation("C 8", "strategic movement comes before the phase's ordinary moves")
        members = [u for u in st.on_board(Side.VIETMINH) if u.counter.regiment == regiment]
        if not members:
            raise RuleViolation("C 8", f"regiment {regiment} has no surviving units on the map")
        if set(placements) != {u.id for u in members}:
            missing = {u.id for u in members} - set(placements)
            extra = set(placements) - {u.id for u in members}
            raise RuleViolation("C 8", "all surviving units of a regiment move together"
                                + (f"; missing {sorted(missing)}" if missing else "")
                                + (f"; not of regiment {regiment}: {sorted(extra)}" if extra else ""))
        zones = set()
        for u in members:
            if u.id in self.records:
                raise RuleViolation("C 8", f"{u.id} has already moved this phase")
            if m.terrain(u.hex) != "full_jungle" or m.info(u.hex).attr("zone") is None:
                raise RuleViolation("C 8", f"{u.id} in {st.label(u.hex)} is not in a full jungle hex of a zone")
            zones.add(m.info(u.hex).attr("zone"))
        if len(zones) != 1:
            raise RuleViolation("C 8", f"the regiment is spread over zones {sorted(zones)}; it must start in one")
        origin = zones.pop()
        dests = {uid: m.hex(lab) for uid, lab in placements.items()}
        new_zones = {m.info(h).attr("zone") for h in dests.values()}
        for uid, h in dests.items():
            if m.terrain(h) != "full_jungle":
                raise RuleViolation("C 8", f"{st.label(h)} is not a full jungle hex")
        if len(new_zones) != 1 or None in new_zones:
            raise RuleViolation("C 8", "the regiment must be placed in full jungle hexes of one zone")
        target = new_zones.pop()
        if target == origin:
            raise RuleViolation("C 8", f"strategic movement goes to another zone, not back into {origin}")
        from .stacking import stacking_problem
        ids = {u.id for u in members}
        for h in set(dests.values()):
            arriving = [u for u in members if dests[u.id] == h]
            problem = stacking_problem([x for x in st.units_at(h, Side.VIETMINH) if x.id not in ids] + arriving)
            if problem:
                raise RuleViolation("C 6", f"hex {st.label(h)}: {problem}")
        return members, dests, origin, target

    @implements("C 8")
    def strategic_move(self, regiment: str, placements: dict[str, str]) -> Resolution:
        """Move every surviving unit of one Vietminh regiment from its jungle zone to another (C 8)."""
        st = self.state
        members, dests, origin, target = self.strategic_plan(regiment, placements)
        res = Resolution()
        from .stacking import check_stacking
        old = {u.id: u.hex for u in members}
        for u in members:
            u.hex = None
        try:
            for u in members:
                check_stacking(st, dests[u.id], Side.VIETMINH, [u])
                u.hex = dests[u.id]
        except RuleViolation:
            for u in members:
                u.hex = old[u.id]
            raise
        st.hq_zones[regiment] = target          # the headquarters marker goes with its regiment (C 8, C 12.B.3)
        for u in members:
            rec = self._record(u)
            rec.start = u.hex
            rec.zone_lock = target
            rec.status = "moving"
            self._note_moved(u)
            res.add("C 8", f"{u.id} moves strategically from zone {origin} to {st.label(u.hex)} in zone {target}")
        self.log.extend(res)
        return res

    @implements("C 8")
    def exit_board(self, uid: str, dry: bool = False) -> Resolution:
        """A Vietminh weapons battery not assigned to a regiment leaves the map (C 8)."""
        st = self.state
        u = st.unit(uid)
        if self.side is not Side.VIETMINH:
            raise RuleViolation("C 8", "weapons batteries exit the map only in a Vietminh movement phase")
        if u.side is not Side.VIETMINH or u.counter.cls is not UnitClass.HEAVY_WEAPONS or u.counter.regiment:
            raise RuleViolation("C 8", f"{uid}: only Vietminh weapons batteries not assigned to a regiment may exit the map")
        if not u.on_board:
            raise RuleViolation("C 8", f"{uid} is not on the map")
        if u.pinned:
            raise RuleViolation("C 8", f"{uid} is pinned and may not move any further this phase (C 9)")
        rec = self.records.get(uid)
        if rec is not None and (rec.status == "paused" or self.window_open):
            raise RuleViolation("C 8", f"{uid} is paused under opportunity fire and may not leave the map")
        if self.window_open:
            raise RuleViolation("C 8", "opportunity fire is being resolved; movement continues after it")
        if dry:
            return Resolution()
        u.off_board, u.exited_at = True, st.phase_index
        self._note_moved(u)
        self.exited.add(uid)
        res = Resolution()
        res.add("C 8", f"{uid} exits the map from {st.label(u.hex)}; it may re-enter in a later movement phase")
        u.hex = None
        return res

    @implements("C 8")
    def reenter(self, uid: str, at: str, dry: bool = False) -> Resolution:
        """Bring an exited battery back on any full jungle hex, in a later movement phase (C 8)."""
        st = self.state
        u = st.unit(uid)
        if self.side is not u.side:
            raise RuleViolation("C 8", f"{uid} re-enters only in a {u.side.value} movement phase")
        if not u.off_board:
            raise RuleViolation("C 8", f"{uid} has not exited the map")
        if uid in self.exited or u.exited_at == st.phase_index:
            raise RuleViolation("C 8", f"{uid} exited this phase; it re-enters in a later movement phase")
        if self.step > 1 or self.window_open:
            raise RuleViolation("C 8", f"{uid} re-enters before the first opportunity fire of the phase, so that "
                                       f"it can then move normally (after it, only paused units move on)")
        h = st.map.hex(at)
        if st.map.terrain(h) != "full_jungle":
            raise RuleViolation("C 8", f"{at} is not a full jungle hex")
        from .stacking import check_stacking
        check_stacking(st, h, Side.VIETMINH, [u])
        if dry:
            return Resolution()
        u.off_board, u.hex = False, h
        self._record(u).start = h
        self._note_moved(u)
        res = Resolution()
        res.add("C 8", f"{uid} re-enters the map at {at} and may move on normally")
        return res
