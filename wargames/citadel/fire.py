"""Rule 9: the fire combat procedure, shared by opportunity fire and both fire phases.

Strength is modified per unit for range, then totalled; the total picks a CRT
column; the target's terrain shifts it; one die gives losses and/or a pin for
all target units. Losses are shared out by both players (C 9.1, 9.2); infantry
flip at the critical loss level (C 9.3) and are eliminated when their losses
reach their strength (C 9.4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from ..core import Dice, Hex, Resolution, implements
from ..core.errors import RuleViolation
from ..core.dice import roll_die
from .air_marks import air_attacked, destroyed_on_ground, revetment_hex
from .charts import FireResult
from .fire_types import SMALL_ARMS, range_key, weapon_type
from .state import CitadelState
from .entrench import silenced_in_trench, works_at
from .optional import mortar_problems, organic_mortars
from .supply import consume_ammunition, dump_check, firing_strengths, silenced_mortar
from .tanks import tank_fire_parts
from .terrain import effective_terrain
from .units import Side, UnitClass, UnitState


def unit_range_key(state: CitadelState, u: UnitState) -> str:
    """The range-table row a unit fires on now: a battalion's own 82mm mortars (C 34) or its weapon's."""
    return "mortar_82" if organic_mortars(state, u) is not None else range_key(u.counter)


def full_strength(state: CitadelState, u: UnitState) -> int:
    """What a unit can fire: its strength before this fire phase's losses (fire is simultaneous, C 9), or a
    battalion's own mortars (C 34)."""
    mortars = organic_mortars(state, u)
    return mortars if mortars is not None else state.strength_at_start.get(u.id, u.strength)


@implements("C 19.A")
def fire_parts(state: CitadelState, u: UnitState, target: Hex, strength: int) -> list[tuple[str, int]]:
    """(range-table row, strength points) of what one unit fires at a hex: a tank's small arms and recoilless
    rifle (C 19.A), or the unit's one weapon."""
    if u.counter.cls is UnitClass.TANK:
        return tank_fire_parts(state, u, target)
    return [(unit_range_key(state, u), strength)]


def reaches(state: CitadelState, u: UnitState, target: Hex) -> bool:
    """Whether any weapon of the unit reaches the hex."""
    _, ranges, _ = state.tables()
    rng = u.hex.distance(target)
    return any(ranges.band(key, rng) is not None for key, _ in fire_parts(state, u, target, 1))


def all_small_arms(state: CitadelState, firer_ids: Sequence[str], target: Hex) -> bool:
    """Whether a fire is small arms alone (tanks are immune to it, C 19.C); a tank firing its recoilless rifle
    or a battalion firing its mortars (C 34) is not."""
    return bool(firer_ids) and all(
        organic_mortars(state, state.unit(f)) is None
        and all(key == "small_arms" for key, _ in fire_parts(state, state.unit(f), target, 1)) for f in firer_ids)


@implements("C 9")
def fire_strength(state: CitadelState, firer_ids: Sequence[str], target: Hex, res: Resolution,
                  fired: Mapping[str, int] | None = None) -> int:
    """Each unit's strength times its range modifier, then summed (C 9); ``fired`` gives the strength points a
    unit fires when that is less than it has (C 22)."""
    _, ranges, _ = state.tables()
    total = 0
    for uid in firer_ids:
        u = state.unit(uid)
        rng = u.hex.distance(target)
        strength = fired[uid] if fired and uid in fired else full_strength(state, u)
        for key, sp in fire_parts(state, u, target, strength):
            band = ranges.band(key, rng)
            if band is None and u.counter.cls is UnitClass.TANK:
                res.add("C 19.A", f"{uid}: its {key.replace('_', ' ')} does not reach {rng} hexes")
                continue
            mult = ranges.multiplier(key, rng)
            part = sp * mult
            total += part
            what = f" ({key.replace('_', ' ')}, C 19.A)" if u.counter.cls is UnitClass.TANK else ""
            res.add("C 9", f"{uid}{what}: {sp} SP x{mult} at range {rng} = {part}",
                    arithmetic=f"{sp} x {mult} = {part}", result=part, unit=uid, range=rng,
                    multiplier=mult, provenance=band.provenance.kind)
    if len(firer_ids) > 1:
        res.add("C 9", f"total fire strength {total}", result=total)
    return total


@implements("C 9", "C 13", "C 19.F")
def terrain_shift(state: CitadelState, target: Hex, res: Resolution, targets: Sequence[UnitState] = ()) -> int:
    """Columns to shift for the target hex's terrain plus any strongpoint (C 9, C 13, C 14.B)."""
    _, _, tec = state.tables()
    m = state.map
    terr = effective_terrain(m, target, state.date)
    entry = tec.terrain[terr]
    shift = entry.fire_shift
    parts = [f"{terr.replace('_', ' ')} {entry.fire_shift:+d} ({entry.provenance.kind})"]
    feats = m.info(target).features
    if "strongpoint" in feats:
        tanks_only = targets and all(u.counter.cls is UnitClass.TANK for u in targets)
        if "armor_bunker" in feats and tanks_only:
            key = "armor_bunker_tanks"
        elif terr == "swamp" and m.terrain(target) == "monsoon_swamp":
            key = "strongpoint_monsoon_swamp"
        else:
            key = "strongpoint"
        e = tec.features[key]
        shift += e.fire_shift
        parts.append(f"{key.replace('_', ' ')} {e.fire_shift:+d} ({e.provenance.kind})")
    works = works_at(state, target)
    if works:
        e = tec.features["trench"]
        shift += e.fire_shift
        named = "trench" if works == "trench" else f"{works.replace('_', ' ')} (as a trench, C 18)"
        parts.append(f"{named} {e.fire_shift:+d} ({e.provenance.kind})")
    res.add("C 13", f"target hex {state.label(target)}: " + ", ".join(parts) + f" = {shift:+d} columns",
            result=shift, terrain=terr)
    return shift


def _capacity(state: CitadelState, u: UnitState, small_arms_only: bool) -> int:
    """How many more losses a unit can take from this fire (C 9.1; tanks are immune to small arms, C 19.C)."""
    if u.counter.cls is UnitClass.TANK and small_arms_only:
        return 0
    if u.counter.is_battalion and u.side is Side.VIETMINH:
        if u.inverted:
            return u.strength
        return (u.counter.critical_loss_level - u.losses) + u.counter.reduced_strength
    return 1 - min(state.phase_losses.get(u.id, 0), 1)


@implements("C 19.C")
def tank_loss(u: UnitState, dice: Dice, res: Resolution) -> None:
    """A loss given to a tank is a die roll: 1-3 disables it, or destroys it if already disabled (C 19.C)."""
    roll = roll_die(dice, 6, f"tank hit on {u.id}")
    if roll <= 3:
        if u.disabled:
            u.eliminated = True
            res.add("C 19.C", f"{u.id} hit again, roll {roll}: destroyed", result="destroyed", roll=roll)
        else:
            u.disabled = True
            res.add("C 19.C", f"{u.id} hit, roll {roll}: disabled", result="disabled", roll=roll)
    else:
        res.add("C 19.C", f"{u.id} hit, roll {roll}: no effect", result="no effect", roll=roll)


@implements("C 9.3", "C 9.4")
def lose_strength_point(state: CitadelState, u: UnitState, res: Resolution, rule: str = "C 9",
                        what: str = "loses a step") -> None:
    """One strength point lost, to fire or in melee: it goes on the Vietminh cumulative loss scale (SR 3); an
    infantry counter flips at its critical loss level (C 9.3); a unit is eliminated when its losses reach its
    strength (C 9.4)."""
    c = u.counter
    if u.side is Side.VIETMINH:
        state.vm_losses += 1          # the cumulative loss scale counts every strength point lost (SR 3)
    u.losses += 1
    level = c.critical_loss_level
    if level and not u.inverted and u.losses >= level:
        u.inverted = True
        u.losses = 0
        res.add("C 9.3", f"{u.id} reaches its critical loss level ({level} step{'s' if level > 1 else ''}): "
                f"flipped to {c.reduced_strength}-{c.reduced_morale}, step marker removed", result="inverted")
    else:
        res.add(rule, f"{u.id} {what} (step-reduction marker {u.losses})", result=u.losses)
    if u.strength <= 0:
        u.eliminated = True
        u.pinned, u.pinned_at = False, None
        res.add("C 9.4", f"{u.id}: losses reach its strength, eliminated", result="eliminated")


@implements("C 9.3", "C 9.4")
def take_loss(state: CitadelState, u: UnitState, dice: Dice, res: Resolution) -> None:
    """Apply one step loss from fire: counted against the one-loss cap (C 9.1) with the unit's strength before
    the fire phase's losses (fire is simultaneous, C 9); a tank rolls instead (C 19.C); a French 105mm point may
    hit a dump (C 24); then :func:`lose_strength_point`."""
    state.phase_losses[u.id] = state.phase_losses.get(u.id, 0) + 1
    state.strength_at_start.setdefault(u.id, u.strength)
    if u.counter.cls is UnitClass.TANK:
        tank_loss(u, dice, res)
        return
    dump_check(state, u, dice, res)
    lose_strength_point(state, u, res)


@dataclass
class PendingLosses:
    """Losses of one fire still to be shared out, one pick at a time (C 9.1, 9.2).

    The owner of the units hit picks first, so it takes any odd loss; then the players alternate.
    """

    hex: str
    targets: tuple[str, ...]
    remaining: int
    owner: Side
    small_arms_only: bool
    taken: int = 0

    @property
    def total(self) -> int:
        return self.taken + self.remaining

    @property
    def chooser(self) -> Side:
        return self.owner if self.taken % 2 == 0 else self.owner.enemy

    def options(self, state: CitadelState) -> list[str]:
        """The units that can still take a loss from this fire."""
        return [uid for uid in self.targets
                if not state.unit(uid).eliminated and _capacity(state, state.unit(uid), self.small_arms_only) > 0]


@implements("C 9.2")
def take_pick(state: CitadelState, pending: PendingLosses, uid: str, dice: Dice, res: Resolution,
              forced: bool = False) -> None:
    """The chooser gives the next loss of ``pending`` to ``uid``."""
    if uid not in pending.targets:
        raise RuleViolation("C 9.2", f"{uid} is not among the units fired on in {pending.hex}")
    if uid not in pending.options(state):
        raise RuleViolation("C 9.1", f"{uid} cannot take another loss this fire phase")
    how = "has only one choice:" if forced else "chooses"
    res.add("C 9.2", f"loss {pending.taken + 1} of {pending.total}: the {pending.chooser.value} player {how} {uid}",
            unit=uid)
    pending.taken += 1
    pending.remaining -= 1
    take_loss(state, state.unit(uid), dice, res)


def settle_forced(state: CitadelState, pending: PendingLosses | None, dice: Dice,
                  res: Resolution) -> PendingLosses | None:
    """Take every loss whose chooser has just one unit to give it to; return what still needs a choice."""
    while pending is not None and pending.remaining > 0:
        options = pending.options(state)
        if len(options) != 1:
            return pending
        take_pick(state, pending, options[0], dice, res, forced=True)
    return None


def check_allocation(state: CitadelState, targets: Sequence[UnitState], losses: int, small_arms_only: bool,
                     allocation: Sequence[str]) -> None:
    """Check a whole allocation (unit ids in pick order) before any loss is taken."""
    left = {u.id: _capacity(state, u, small_arms_only) for u in targets}
    usable = min(losses, sum(left.values()))
    if len(allocation) != usable:
        raise RuleViolation("C 9.2", f"the allocation names {len(allocation)} unit(s) but {usable} loss(es) must be taken")
    for uid in allocation:
        if uid not in left:
            raise RuleViolation("C 9.2", f"{uid} is not among the units fired on")
        if left[uid] <= 0:
            raise RuleViolation("C 9.1", f"{uid} cannot take another loss this phase")
        left[uid] -= 1


@implements("C 9.1", "C 9.2")
def allocate_losses(state: CitadelState, targets: Sequence[UnitState], losses: int, firing_side: Side,
                    dice: Dice, res: Resolution, small_arms_only: bool,
                    allocation: Sequence[str] | None = None) -> PendingLosses | None:
    """Share out ``losses`` among ``targets``.

    Picks alternate, the owner first, so the owner takes any odd loss and the firer chooses as many as the
    owner otherwise (C 9.2; reading: one loss at a time). Only Vietminh infantry battalions take more than one
    loss in a fire phase (C 9.1). Losses nobody can take have no effect. ``allocation`` lists the chosen unit
    ids in pick order; without it every forced pick is taken and the rest is returned as
    :class:`PendingLosses`, for the players to choose (the game prompts them).
    """
    cap = {u.id: _capacity(state, u, small_arms_only) for u in targets}
    usable = min(losses, sum(cap.values()))
    if usable < losses:
        res.add("C 9.2", f"{losses} losses called for, but the units in the hex can take only {usable}; "
                f"the other {losses - usable} have no effect", arithmetic=f"min({losses}, {sum(cap.values())})",
                result=usable)
    if allocation is not None:
        check_allocation(state, targets, losses, small_arms_only, allocation)
    hexes = {state.label(u.hex) for u in targets}
    pending = PendingLosses(", ".join(sorted(hexes)), tuple(u.id for u in targets), usable, firing_side.enemy,
                            small_arms_only)
    if allocation is not None:
        for uid in allocation:
            take_pick(state, pending, uid, dice, res)
        return None
    return settle_forced(state, pending, dice, res)


@implements("C 9")
def resolve_fire(state: CitadelState, firer_ids: Sequence[str], target: Hex, dice: Dice, *,
                 targets: Sequence[str] | None = None, allocation: Sequence[str] | None = None,
                 res: Resolution | None = None, strengths: Mapping[str, int] | None = None,
                 extra_factors: int = 0) -> Resolution:
    """Resolve one fire at a hex: strength, column, terrain shift, die, losses and pins. Mutates ``state``.

    ``strengths`` names units firing fewer strength points than they have (C 22); ``extra_factors`` are fire
    factors that come from no unit (Vietminh rockets, C 35)."""
    crt, _, _ = state.tables()
    res = res or Resolution()
    if not firer_ids and not extra_factors:
        raise RuleViolation("C 9", "at least one unit must fire")
    sides = {state.unit(f).side for f in firer_ids} or {Side.VIETMINH}
    if len(sides) != 1:
        raise RuleViolation("C 9", "units of both sides cannot combine their fire")
    side = sides.pop()
    fired = firing_strengths(state, firer_ids, strengths, {f: full_strength(state, state.unit(f)) for f in firer_ids})
    hit = [state.unit(t) for t in targets] if targets is not None else state.units_at(target, side.enemy)
    if not hit:
        raise RuleViolation("C 9", f"there are no enemy units in {state.label(target)} to fire at")
    small_arms_only = not extra_factors and all_small_arms(state, firer_ids, target)
    if small_arms_only and any(u.counter.cls is UnitClass.TANK for u in hit):
        res.add("C 19.C", "tanks are immune to small arms fire: neither losses nor pins reach them")
        hit = [u for u in hit if u.counter.cls is not UnitClass.TANK]
    total = fire_strength(state, firer_ids, target, res, fired)
    if extra_factors:
        total += extra_factors
        res.add("C 35", f"{extra_factors} rocket factors{' added' if firer_ids else ''}: total {total}", result=total)
    consume_ammunition(state, fired, res)
    col = crt.column_for(total)
    res.add("C 9", f"total {total} -> column {crt.columns[col].label}", result=crt.columns[col].label, total=total)
    shift = terrain_shift(state, target, res, hit)
    final, over = crt.shift(col, shift)
    if shift:
        res.add("C 9", f"column {crt.columns[col].label} shifted {shift:+d} -> {crt.columns[final].label}"
                + (f" (the table ends there: {abs(over)} shift(s) have nowhere to go)" if over else ""),
                result=crt.columns[final].label)
    roll = roll_die(dice, 6, f"fire at {state.label(target)}")
    cell = crt.lookup(final, roll)
    result: FireResult = cell.value
    res.add("C 9", f"roll {roll} on {crt.columns[final].label}: {result.code}"
            + ("" if cell.provenance.kind != "reconstructed" else " (reconstructed chart value)"),
            result=result.code, roll=roll, column=crt.columns[final].label, provenance=cell.provenance.kind)
    if result.losses and allocation is not None:
        check_allocation(state, hit, result.losses, small_arms_only, allocation)
    pinned = []
    if result.pinned:
        for u in hit:
            if not u.eliminated:
                u.pinned, u.pinned_at = True, state.phase_index
                pinned.append(u.id)
        if pinned:
            res.add("C 9", f"pinned: {', '.join(pinned)}", result=pinned)
    pending = None
    if result.losses and side is Side.VIETMINH and state.air is not None:
        if target == revetment_hex(state):
            destroyed_on_ground(state, result.losses, res)      # C 31: aircraft there take the losses too
    if result.losses:
        pending = allocate_losses(state, hit, result.losses, side, dice, res, small_arms_only, allocation)
    for f in firer_ids:
        state.fired.add(f)
        state.fired_in[f] = state.phase_index
    state.fired_at.update(u.id for u in hit)
    res.result = {"column": crt.columns[final].label, "roll": roll, "code": result.code,
                  "pinned": tuple(u for u in pinned if not state.unit(u).eliminated),
                  "eliminated": tuple(u.id for u in hit if u.eliminated), "pending_losses": pending}
    return res


def _parked_aircraft(state: CitadelState, target: Hex, side: Side) -> str:
    """Why aircraft alone in the revetment hex are no target: fire combat is against ground units (C 9), and
    the aircraft parked there lose counters only to fire at ground units in their hex (C 31; our reading)."""
    air = state.air
    if side is not Side.VIETMINH or air is None or not air.in_box("revetment"):
        return ""
    if target != revetment_hex(state):
        return ""
    return (": fire combat is against ground units, and the aircraft in the revetment are hit only by fire at "
            "French ground units in their hex (C 31)")


@implements("C 9.5", "C 10", "C 14.B")
class FirePhase:
    """A direct or indirect fire phase (C 9.5, C 10); ``side`` limits who fires in an indirect sub-phase."""

    def __init__(self, state: CitadelState, kind: str, side: Side | None = None,
                 movement_phase_index: int | None = None):
        if kind not in ("direct", "indirect"):
            raise ValueError("kind is 'direct' or 'indirect'")
        self.state, self.kind, self.side = state, kind, side
        self.movement_phase_index = movement_phase_index

    def problems(self, firer_ids: Sequence[str], target: Hex,
                 strengths: Mapping[str, int] | None = None) -> list[tuple[str, str]]:
        """Every (rule, reason) that forbids this fire; empty when it is legal. ``strengths``: partial fire (C 22)."""
        from .fire_types import fire_mode, line_of_sight, spotted
        st = self.state
        _, ranges, _ = st.tables()
        out: list[tuple[str, str]] = []
        firers = [st.unit(f) for f in firer_ids]
        if not firers:
            return [("C 9", "at least one unit must fire")]
        sides = {f.side for f in firers}
        if len(sides) > 1:
            return [("C 9", "units of both sides cannot combine their fire")]
        side = sides.pop()
        if self.side is not None and side is not self.side:
            out.append(("C 7", f"only {self.side.value} units fire in this part of the indirect fire phase"))
        for f in firers:
            if not (f.on_board or (f.eliminated and f.hex is not None and not f.off_board)):
                out.append(("C 9", f"{f.id} is not on the map"))
                continue
            if f.counter.type == "antiaircraft" and f.side is Side.VIETMINH:
                out.append(("C 9", f"{f.id}: Vietminh antiaircraft units fire only at aircraft (C 28)"))
                continue
            if f.id in st.fired:
                out.append(("C 9.5", f"{f.id} has already fired this fire phase"))
            if f.pinned and (f.pinned_at is None or f.pinned_at < st.fire_phase_start):
                out.append(("C 9", f"{f.id} was pinned earlier this player turn and may not fire"))
            before = st.fired_in_fire_phase.get(f.id)
            if before is not None and st.player_turn_start <= before < st.fire_phase_start:
                out.append(("C 10", f"{f.id} fired in this player turn's other fire phase; a howitzer fires in "
                                    f"the direct or the indirect fire phase, never both"))
            if silenced_in_trench(st, f):
                out.append(("C 18", f"{f.id} is a Vietminh weapons unit in a trench and may not fire there "
                                    f"(a weapons pit or a tunnel would let it)"))
            mortars = organic_mortars(st, f)
            if mortars is not None:
                out += mortar_problems(st, f, self.movement_phase_index)
            if silenced_mortar(st, f):
                out.append(("C 21", f"{f.id}: its side is out of general supply today, so its light mortars may not "
                                    f"fire"))
            if (SMALL_ARMS == weapon_type(f.counter) and mortars is None
                    and "strongpoint" in st.map.info(target).features):
                out.append(("C 14.B", f"{f.id} fires small arms, and small arms may not fire at units in the "
                                      f"strongpoint {st.label(target)}"))
            try:
                rng = f.hex.distance(target)
                mode = "indirect" if mortars is not None else fire_mode(f.counter, rng, ranges)
                if f.counter.cls is UnitClass.TANK:
                    if not reaches(st, f, target):
                        raise RuleViolation("C 19.A", f"none of its guns reaches {rng} hexes")
                else:
                    ranges.multiplier(unit_range_key(st, f), rng)
            except RuleViolation as e:
                out.append((e.rule, f"{f.id}: {e.reason}"))
                continue
            if mode != self.kind:
                out.append(("C 10", f"{f.id} ({weapon_type(f.counter)}) fires {mode} at {rng} hexes, "
                                    f"not in the {self.kind} fire phase"))
            if self.kind == "direct":
                if (f.counter.cls is UnitClass.HEAVY_WEAPONS and self.movement_phase_index is not None
                        and st.weapons_moved_in.get(f.id) == self.movement_phase_index):
                    out.append(("C 8", f"{f.id} is a heavy weapon that moved in the movement phase just before"))
                los = line_of_sight(st, f.hex, target)
                if not los.result:
                    out.append(("C 10", f"{f.id} has no line of sight to {st.label(target)}: "
                                        + "; ".join(s.text for s in los.steps if s.text.startswith("blocked"))))
        if self.kind == "indirect" and side is Side.FRENCH:
            if air_attacked(st, target):
                out.append(("C 26.A", f"aircraft attack {st.label(target)} this phase: no French indirect fire there"))
        if self.kind == "indirect":
            ok, why = spotted(st, target, side)
            if not ok:
                out.append(("C 10", why))
        try:
            firing_strengths(st, firer_ids, strengths, {f.id: full_strength(st, f) for f in firers})
        except RuleViolation as e:
            out.append((e.rule, e.reason))
        hit = st.units_at(target, side.enemy)
        if not hit:
            out.append(("C 9", f"there are no enemy units in {st.label(target)}" + _parked_aircraft(st, target, side)))
        twice = [u.id for u in hit if u.id in st.fired_at]
        if twice:
            out.append(("C 9.5", f"{', '.join(twice)} in {st.label(target)} has already been fired at this phase"))
        return out

    def fire(self, firer_ids: Sequence[str], target: str | Hex, dice: Dice,
             allocation: Sequence[str] | None = None, strengths: Mapping[str, int] | None = None) -> Resolution:
        st = self.state
        h = target if isinstance(target, Hex) else st.map.hex(target)
        problems = self.problems(firer_ids, h, strengths)
        if problems:
            rule, reason = problems[0]
            raise RuleViolation(rule, reason)
        res = resolve_fire(st, list(firer_ids), h, dice, allocation=allocation, strengths=strengths)
        for f in firer_ids:
            st.fired_in_fire_phase[f] = st.phase_index
        return res
