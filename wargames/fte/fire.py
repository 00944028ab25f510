"""Fire combat (F 7.0-7.2, 7.4) and sappers (F 27.0).

A fire attack names one target unit and one or more firers; the first firer is the Primary Firing Unit.
The d10 hits when roll + DRMs is at most the primary's Fire Rating (a natural 1 always hits, a natural 10
always misses); a hit rolls again on the Target Effects Table in the primary's weapon-class column, and the
result is applied to the target by :func:`apply_effect`. The same code serves the Fire action, opportunity
fire (F 21.0), the assault rounds (F 8.0), fire missions (F 16.0) and claymores (F 26.0).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..core import Hex, Resolution, implements, spiral
from ..core.hexgrid import connected_groups
from ..core.errors import RuleViolation
from ..core.dice import roll_die
from ..core.dist import enumeration_memo
from .charts import WEAPON_COLUMNS
from .checks import Drm, marker_drms, roll_against, total, tq_check
from .casualties import detach, drop_all, place_marker
from .concealment import concealment_drm, lose_concealment_if_seen, uncover
from .sites import fort_drm, leave_hex, reveal_on_use, sapper_hit
from .los import unit_sight
from .placement import entry_problem, place_unit
from .state import FteState
from .units import CasualtyMarker, Unit, player

#: A hook for opportunity fire at a unit entering a hex (a retreat step): returns True if it stopped the unit.
RetreatFire = Callable[[FteState, str, Hex, object, Resolution], bool]


@dataclass
class FireOutcome:
    """What one fire attack did: the DRMs, the number needed, the rolls and the effect."""

    target: str
    firers: tuple[str, ...]
    drms: tuple[Drm, ...] = ()
    rating: int = 0
    roll: int | None = None
    hit: bool = False
    column: str | None = None
    effect_roll: int | None = None
    effect: str | None = None
    applied: str | None = None

    @property
    def need(self) -> int:
        """The highest natural roll that hits (a 1 always hits and a 10 always misses)."""
        return max(1, min(9, self.rating - total(list(self.drms))))


# --------------------------------------------------------------------------- range and DRMs

def high(u: Unit) -> bool:
    """A helicopter flying at High altitude (F 6.8)."""
    return u.kind == "helicopter" and u.altitude == "high" and not u.destroyed


def fire_distance(state: FteState, firer: Unit, target: Unit) -> int:
    """The range from firer to target in hexes, doubled when either of them is a helicopter at High altitude
    (F 6.8: the range between a hex and such a helicopter is doubled, whichever end fires)."""
    d = firer.hex.distance(target.hex)
    return 2 * d if high(firer) or high(target) else d


@implements("F 7.1", "F 7.2", "F 6.2", "F 27.0", "F QRC")
def to_hit_drms(state: FteState, target: Unit, primary: Unit | None, *, support: list[Unit] = (),
                he: bool | None = None, opportunity: bool = False, stealthy: bool = False,
                terrain: bool = True, observed: bool = False, fire_mission: bool = False,
                firer_concealed: bool | None = None, way: str | None = None) -> list[Drm]:
    """Every die roll modifier of one fire attack (F 7.1 and the quick reference), each with its rule.

    ``terrain`` is False for assaulting units in the first assault round (F 8.0); ``fire_mission`` marks a
    firer-less HE attack (fire missions, claymores) that has no range, adjacency or firer markers; ``way`` is
    the trail or road the target used to enter its hex, for opportunity fire at it (TEC note a: only a unit
    *using* the trail or road, so not one merely standing on it).
    """
    he = (primary is not None and primary.weapon == "HE") if he is None else he
    drms: list[Drm] = []
    hex_ = target.hex
    terr = state.map.terrain(hex_)
    air = target.kind == "helicopter" and target.altitude != "ground"
    if terrain and not air:
        mod = state.charts.tec.value(terr, "fire")
        if he and terr == "jungle":
            pass  # TEC note b: the jungle modifier does not apply to HE
        elif mod:
            drms.append(Drm(mod, "F 7.1", f"target in {terr.replace('_', ' ')}"))
        if opportunity and way is not None:
            drms.append(Drm(state.charts.tec.feature(way, "opportunity_fire"), "F TEC",
                            f"opportunity fire at a unit using a {way} (note a)"))
    conc = concealment_drm(state, target, he)
    if conc:
        drms.append(conc)
    if target.defense:
        drms.append(Drm(target.defense, "F 7.1", f"target's defensive modifier"))
    fort = fort_drm(state, target)
    if fort:
        drms.append(fort)
    if target.role == "sapper":
        drms.append(Drm(-1, "F 27.0", "target is a sapper"))
    crowd = len([u for u in state.units_at(hex_) if not (u.kind == "helicopter" and u.destroyed)]) - 4
    if crowd > 0:
        if state.readings.stacking_drm_negative:
            drms.append(Drm(-crowd, "F 7.1", f"{crowd + 4} units in the target hex, {crowd} beyond four"))
        else:
            drms.append(Drm(crowd, "F 6.2", f"{crowd + 4} units in the hex, {crowd} beyond four (original +1 each)"))
    if stealthy and opportunity:
        drms.append(Drm(1, "F 6.7", "opportunity fire at a stealthy mover"))
    if fire_mission or primary is None:
        return drms
    drms += marker_drms(state, primary, "fire")
    if observed:
        value = 1 if state.readings.observer_drm_plus_one else -1
        drms.append(Drm(value, "F 7.2", "observed mortar fire" + ("" if value == 1 else " (as the Fire Example misprinted it)")))
    dist = fire_distance(state, primary, target)
    if primary.range is not None and dist > primary.range:
        drms.append(Drm(1, "F 7.1", f"beyond range ({dist} > {primary.range}), up to double"))
    if primary.hex.is_adjacent(target.hex) and not he:     # the hexes, whatever the doubled range (F 6.8)
        drms.append(Drm(-1, "F 7.1", "firing into an adjacent hex"))
    concealed = primary.concealed if firer_concealed is None else firer_concealed
    if opportunity and concealed:
        drms.append(Drm(-1, "F 21.0", "a concealed unit's opportunity fire"))
    for s in support:
        drms.append(Drm(-1, "F 7.1", f"{s.id} supports the attack"))
    return drms


# --------------------------------------------------------------------------- legality

@implements("F 7.0")
def check_fire(state: FteState, firers: list[Unit], target: Unit, *, observed: bool = False,
               assault: bool = False, opportunity: bool = False) -> None:
    """Raise RuleViolation unless these units may fire at this target (F 7.0, 7.1, 7.2, 27.0)."""
    if not firers:
        raise RuleViolation("F 7.1", "a fire attack needs at least one firing unit")
    if len({u.id for u in firers}) != len(firers):
        raise RuleViolation("F 7.1", "a unit is listed twice among the firers")
    if not target.on_map or target.destroyed:
        raise RuleViolation("F 6.9", f"{target.id} is not on the map (loaded units cannot be targeted)")
    for u in firers:
        if u.player == target.player:
            raise RuleViolation("F 7.1", f"{u.id} cannot fire at a friendly unit ({target.id})")
        if not u.on_map:
            raise RuleViolation("F 6.9", f"{u.id} is not on the map (loaded units cannot fire)")
        if not u.is_combat:
            raise RuleViolation("F 2.0", f"{u.id} has no fire rating, so it is not a combat unit")
        if u.broken:
            raise RuleViolation("F 7.0", f"{u.id} is broken and cannot fire")
        if u.move_only:
            raise RuleViolation("F 15.0", f"{u.id} unloaded reinforcements and may only move until it leaves")
        if u.role == "sapper" and not assault:
            raise RuleViolation("F 27.0", f"{u.id} is a sapper and attacks only in assaults")
        mortar = u.role == "mortar"
        if u.weapon == "HE" and mortar and target.kind == "helicopter" and target.altitude == "high":
            raise RuleViolation("F 7.0", f"mortars cannot attack a helicopter at High altitude ({target.id})")
        sight = unit_sight(state, u, target, fire=True, mortar=mortar)
        if not sight:
            if mortar and observed:
                if not observer_for(state, u, target):
                    raise RuleViolation("F 7.2", f"{u.id} has no LoS to {target.id} and no friendly leader who is "
                                                 "neither broken nor suppressed sees the target")
            else:
                raise RuleViolation("F 7.3", f"{u.id} has no LoS to {target.id}: {sight.reason}")
        if u.range is not None and fire_distance(state, u, target) > 2 * u.range:
            raise RuleViolation("F 7.1", f"{target.id} is {fire_distance(state, u, target)} hexes from {u.id}, "
                                         f"beyond double its range of {u.range}")
    if opportunity and len(firers) > 1:
        _check_combined_opfire(state, firers)


def _check_combined_opfire(state: FteState, firers: list[Unit]) -> None:
    """Units combining opportunity fire must be in the same hex as, or adjacent to, a unit they combine with."""
    groups = combine_groups(state, [u.id for u in firers])
    if len(groups) > 1:
        apart = [uid for g in groups[1:] for uid in g]
        raise RuleViolation("F 21.0", f"{', '.join(apart)} is neither in the hex of nor adjacent to a unit it "
                                      "combines opportunity fire with")


def combine_groups(state: FteState, ids: list[str]) -> list[list[str]]:
    """Split units into groups that may combine opportunity fire: each unit in the hex of, or next to, another
    unit of its group (F 21.0). The first unit's group comes first."""
    return connected_groups(ids, lambda uid: state.unit(uid).hex)


def observer_for(state: FteState, mortar: Unit, target: Unit) -> Unit | None:
    """A friendly leader, neither broken nor suppressed, with LoS to the target (F 7.2); he need not be active."""
    for u in state.on_map(mortar.player):
        if u.is_leader and not u.broken and not u.suppressed and unit_sight(state, u, target):
            return u
    return None


# --------------------------------------------------------------------------- the attack

@implements("F 7.1")
def roll_to_hit(state: FteState, outcome: FireOutcome, dice, res: Resolution, rule: str = "F 7.1",
                effect: bool = True) -> bool:
    """Roll the d10 against the rating with the DRMs; then, on a hit and if ``effect``, the effect roll."""
    drms = list(outcome.drms)
    net, rating = total(drms), outcome.rating
    # what the roll does, face by face (for exact enumeration): roll_against, with the DRMs added up once
    roll = roll_die(dice, 10, f"to hit {outcome.target}",
                    classes=lambda v: v == 1 or (v != 10 and v + net <= rating))
    outcome.roll = roll
    outcome.hit = roll_against(outcome.rating, roll, drms)
    mods = " ".join(d.text() for d in outcome.drms) or "no DRM"
    natural = " (a natural 1 always hits)" if roll == 1 else " (a natural 10 always misses)" if roll == 10 else ""
    need = outcome.need
    res.add(rule, f"{' + '.join(outcome.firers) or 'the fire'} at {outcome.target}: needs {need} or less, "
                  f"rolls {roll}{natural}: {'hit' if outcome.hit else 'miss'}",
            arithmetic=f"rating {outcome.rating}; {mods}; net {net:+d} -> {need}",
            result=outcome.hit, roll=roll, need=need, target=outcome.target)
    if outcome.hit and effect:
        roll_effect(state, outcome, dice, res)
    return outcome.hit


@implements("F 7.4", "F TET")
def roll_effect(state: FteState, outcome: FireOutcome, dice, res: Resolution) -> str:
    """Roll on the Target Effects Table in the primary firer's weapon-class column."""
    tet = state.charts.tet
    col = tet.index(outcome.column)
    er = roll_die(dice, 10, f"effect on {outcome.target}", classes=lambda v: tet.lookup(col, v).value)
    cell = tet.lookup(col, er)
    outcome.effect_roll, outcome.effect = er, cell.value
    mark = " [reconstructed]" if cell.provenance.reconstructed else ""
    res.add("F 7.4", f"effect roll {er} in the {outcome.column.replace('_', ' ')} column: {outcome.effect}{mark}",
            result=outcome.effect, roll=er, column=outcome.column)
    return outcome.effect


@implements("F 7.0", "F 7.1")
def fire(state: FteState, firer_ids: list[str], target_id: str, dice, res: Resolution, *,
         observed: bool = False, opportunity: bool = False, stealthy: bool = False, terrain: bool = True,
         assault: bool = False, apply: bool = True, effect: bool = True, retreat_fire: RetreatFire | None = None,
         retreat_path: list[Hex] | None = None, way: str | None = None, prepared: dict | None = None) -> FireOutcome:
    """One fire attack by ``firer_ids`` (primary first) at one target unit (F 7.1).

    ``observed`` allows mortars without LoS to fire, as observed mortar fire; its DRM applies when such a
    mortar is the primary firing unit (F 7.2). With ``apply=False`` the effect is not applied, and with ``effect=False`` not even rolled (the simultaneous
    assault rounds roll and apply it later).

    ``prepared`` (exact enumeration): a dict the caller keeps while every position it fires from is the same;
    the legality checks and DRMs of each attack, which read nothing but the position, are remembered there.
    """
    firers = [state.unit(i) for i in firer_ids]
    target = state.unit(target_id)
    primary, support = firers[0], firers[1:]
    ask = (tuple(firer_ids), target_id, observed, opportunity, stealthy, terrain, assault, way)
    known = prepared.get(ask) if prepared is not None else None
    if known is None:
        check_fire(state, firers, target, observed=observed, assault=assault, opportunity=opportunity)
        blind = [u for u in firers if u.role == "mortar" and not unit_sight(state, u, target, fire=True, mortar=True)]
        drms = to_hit_drms(state, target, primary, support=support, opportunity=opportunity, stealthy=stealthy,
                           terrain=terrain, observed=primary in blind, way=way)
        known = ([u.id for u in blind], drms)
        if prepared is not None:
            prepared[ask] = known
    blind = [state.unit(i) for i in known[0]]
    drms = list(known[1])
    for u in blind:
        res.add("F 7.2", f"{u.id} fires without LoS, observed by {observer_for(state, u, target).id}", unit=u.id)
    out = FireOutcome(target_id, tuple(firer_ids), tuple(drms), primary.fire_rating,
                      column=WEAPON_COLUMNS[primary.weapon])
    if not assault:
        _firers_lose_concealment(state, firers, res, opportunity)
    if any(d.rule in ("F 24.0", "F 25.0") for d in drms):
        reveal_on_use(state, target, res)
    roll_to_hit(state, out, dice, res, effect=effect)
    if out.hit:
        if primary.role == "sapper":
            sapper_hit(state, target, res)
        if apply and effect:
            out.applied = apply_effect(state, target_id, out.effect, dice, res, away_from=primary.hex,
                                       opportunity=opportunity, by=primary.player, retreat_fire=retreat_fire,
                                       retreat_path=retreat_path)
    return out


def _firers_lose_concealment(state: FteState, firers: list[Unit], res: Resolution, opportunity: bool) -> None:
    for u in firers:
        lose_concealment_if_seen(state, u, res, "F 21.0" if opportunity else "F 7.0",
                                 "opportunity_fire" if opportunity else "fire")


@implements("F 16.0", "F 26.0")
def he_attack(state: FteState, target_id: str, rating: int, dice, res: Resolution, *, rule: str,
              fire_mission: bool = False, by: str | None = None) -> FireOutcome:
    """A firer-less HE attack (fire missions, claymores): the target's DRMs except jungle and concealment,
    then the HE column; a Broken result from a fire mission does not retreat (F 7.4)."""
    target = state.unit(target_id)
    drms = to_hit_drms(state, target, None, he=True, fire_mission=True)
    out = FireOutcome(target_id, (), tuple(drms), rating, column="he")
    if any(d.rule in ("F 24.0", "F 25.0") for d in drms):
        reveal_on_use(state, target, res)
    roll_to_hit(state, out, dice, res, rule)
    if out.hit:
        out.applied = apply_effect(state, target_id, out.effect, dice, res, rule=rule, fire_mission=fire_mission,
                                   by=by or ("NVA/VC" if target.player == "US" else "US"))
    return out


# --------------------------------------------------------------------------- effects (F 7.4)

def _casualty(state: FteState, unit: Unit, kind: str, res: Resolution, at: Hex) -> CasualtyMarker:
    return place_marker(state, kind, unit.side, at, res, "F 7.5.1")


def _remove(state: FteState, unit: Unit, res: Resolution, rule: str, why: str) -> None:
    """Take a unit off the map; casualty markers it carried stay in its hex."""
    drop_all(state, unit, unit.hex)
    res.add(rule, f"{unit.id} is removed from play: {why}", unit=unit.id)
    leave_hex(state, unit)
    unit.hex = None


def _lose_leader(state: FteState, unit: Unit, res: Resolution, kind: str) -> None:
    if unit.is_leader:
        state.remove_chit(unit.player, res, "F 7.4", f"leader {unit.id} suffered a {kind}")


@implements("F 7.4", "F 7.5.1", "F 27.0")
def apply_effect(state: FteState, target_id: str, effect: str, dice, res: Resolution, *, rule: str = "F 7.4",
                 away_from: Hex | None = None, fire_mission: bool = False, opportunity: bool = False,
                 by: str | None = None, retreat_fire: RetreatFire | None = None,
                 retreat_path: list[Hex] | None = None) -> str:
    """Apply a Target Effects result to a unit; returns what actually happened ("none" for a passed S?)."""
    u = state.unit(target_id)
    by = by or ("NVA/VC" if u.player == "US" else "US")
    if u.role == "sapper":
        if effect in ("KIA", "WIA", "B"):
            _remove(state, u, res, "F 27.0", f"a sapper is eliminated by a {effect} (no marker, no VP)")
            return "eliminated"
        res.add("F 27.0", f"an {effect} has no effect on a sapper", result="none")
        return "none"
    if effect == "S?":
        ok = tq_check(state, u, dice, res, rule, "possible suppression")
        if ok:
            res.add(rule, f"{u.id} passes: no effect", result="none")
            return "none"
        effect = "S"
    if u.kind == "vehicle":
        return _vehicle_effect(state, u, effect, dice, res, rule, by, away_from=away_from, fire_mission=fire_mission)
    if u.kind == "helicopter":
        return _helicopter_effect(state, u, effect, dice, res, rule, by)
    civilians = u.role == "civilians"
    uncover(state, u, res, rule, f"a {effect} result")
    if not u.on_map:
        return "removed"
    if civilians:
        _remove(state, u, res, "F 28.0", f"a civilians marker hit by {effect} is removed")
        if effect in ("KIA", "WIA"):
            state.award(by, "civilian_casualty", res, "F 28.0")
        return effect
    if effect in ("KIA", "WIA"):
        return _infantry_loss(state, u, effect, res, rule, by)
    if effect == "S" and not u.suppressed and not u.broken:
        u.suppressed = True
        u.activated = True
        res.add(rule, f"{u.id} is Suppressed and marked Activation Complete", result="S", unit=u.id)
        return "S"
    # B, or S on a unit already suppressed or broken: break (if not yet) and retreat two hexes
    if not u.broken:
        u.broken, u.suppressed = True, False
        res.add(rule, f"{u.id} is Broken" + (" (a second suppression)" if effect == "S" else ""), unit=u.id)
    else:
        res.add(rule, f"{u.id} is already Broken: it retreats again", unit=u.id)
    u.activated = True
    if fire_mission:
        res.add(rule, f"{u.id} stays in place: a fire mission's Broken result has no retreat")
        return "B"
    if state.defer_retreats and retreat_path is None:
        state.retreats_due.append((u.id, state.label(away_from) if away_from is not None else None, by))
        res.add(rule, f"{u.id} must retreat two hexes" + (f" away from {state.label(away_from)}" if away_from else "")
                + f"; its owner, {u.player}, chooses the path", unit=u.id)
        return "B"
    retreat(state, u.id, away_from, dice, res, by=by, path=retreat_path, fire=retreat_fire)
    return "B"


def _infantry_loss(state: FteState, u: Unit, kind: str, res: Resolution, rule: str, by: str) -> str:
    at = u.hex
    if u.men >= 3 and not u.reduced:
        men = u.men
        values = u.flip()
        res.add("F 7.5.1", f"{u.id} ({men} men) is flipped to its reduced side: {values}", unit=u.id)
        if len(u.carrying) > u.carry_limit:          # fewer figures carry fewer casualties (F 7.5.2)
            extra = u.carrying[u.carry_limit:]
            for mid in extra:
                detach(state, state.casualties[mid])
                state.casualties[mid].hex = at
            res.add("F 7.5.2", f"{u.id} can no longer carry {', '.join(extra)}: left in {state.label(at)}", unit=u.id)
    else:
        _remove(state, u, res, "F 7.5.1", f"a {'reduced' if u.reduced else f'{u.men}-man'} unit suffers a {kind}")
    _casualty(state, u, kind, res, at)
    _lose_leader(state, u, res, kind)
    state.award(by, "enemy_kia" if kind == "KIA" else "enemy_wia", res, "F 29.0")
    return kind


def _vehicle_effect(state, u: Unit, effect: str, dice, res, rule, by, *, away_from: Hex | None = None,
                    fire_mission: bool = False) -> str:
    if effect == "WIA" and not u.immobilized:
        u.immobilized = True
        res.add(rule, f"vehicle {u.id} is Immobilized; anything aboard stays aboard", unit=u.id)
        return "WIA"
    if effect in ("KIA", "WIA"):
        at = u.hex
        res.add(rule, f"vehicle {u.id} is destroyed" + (" (a second immobilization)" if effect == "WIA" else ""))
        passengers = [p for p in state.units.values() if p.loaded_in == u.id]
        for c in state.casualties.values():
            if c.carried_by == u.id:
                c.carried_by, c.hex = None, at
        _remove(state, u, res, rule, "destroyed")
        _casualty(state, u, "KIA", res, at)
        state.award(by, "vehicle_destroyed", res, "F 29.0")
        for p in passengers:
            p.loaded_in, p.hex = None, at
            res.add(rule, f"passenger {p.id} is placed in {state.label(at)} and rolls on the Dual Purpose column")
            er = roll_die(dice, 10, f"effect on passenger {p.id}")
            eff = state.charts.tet.get("dual_purpose", er).value
            res.add("F 7.4", f"{p.id}: effect roll {er} -> {eff}", roll=er, result=eff)
            # a Broken passenger retreats away from the firer, unless a fire mission destroyed the vehicle (F 7.4)
            apply_effect(state, p.id, eff, dice, res, rule=rule, away_from=away_from, fire_mission=fire_mission,
                         by=by)
        return "KIA"
    if effect == "B":
        if u.broken:
            res.add(rule, f"vehicle {u.id} is already Broken: no further effect", result="none")
            return "none"
        u.broken, u.activated = True, True
        res.add(rule, f"vehicle {u.id} is Broken and marked Activation Complete", unit=u.id)
        return "B"
    return _suppress_machine(u, res, rule)


def _helicopter_effect(state, u: Unit, effect: str, dice, res, rule, by) -> str:
    if effect == "B" and u.broken:
        res.add(rule, f"helicopter {u.id} is already Broken: a second B counts as a WIA")
        effect = "WIA"
    if effect == "WIA" and not u.downed:
        reach = {"high": 3, "treetop": 1, "ground": 0}[u.altitude]
        spot = _landing_hex(state, u, reach)
        if spot is not None and state.defer_retreats and len(landing_options(state, u)) > 1:
            u.downed = True
            state.landings_due.append(u.id)
            res.add(rule, f"helicopter {u.id} is Downed: its owner places it at ground level within {reach} "
                          f"hex{'es' if reach != 1 else ''}", unit=u.id)
            state.award(by, "helicopter_downed", res, "F 29.0")
            return "WIA"
        if spot is not None:
            u.hex, u.altitude, u.downed = spot, "ground", True
            res.add(rule, f"helicopter {u.id} is Downed: placed at ground level in {state.label(spot)} "
                          f"(within {reach} hex{'es' if reach != 1 else ''})", unit=u.id)
            state.award(by, "helicopter_downed", res, "F 29.0")
            return "WIA"
        res.add(rule, f"helicopter {u.id} finds no hex within {reach} where it may land: destroyed")
        effect = "KIA"
    if effect in ("KIA", "WIA"):
        passengers = [p for p in state.units.values() if p.loaded_in == u.id]
        aboard = {u.id} | {p.id for p in passengers}
        for c in [c for c in state.casualties.values() if c.carried_by in aboard]:
            del state.casualties[c.id]                 # the markers aboard are lost with it (F 7.4)
        for v in (u, *passengers):
            v.carrying.clear()
        for p in passengers:
            res.add(rule, f"passenger {p.id} is lost with the helicopter: a KIA marker and its points")
            _casualty(state, p, "KIA", res, u.hex)
            p.loaded_in, p.hex = None, None
            _lose_leader(state, p, res, "KIA")
            state.award(by, "enemy_kia", res, "F 29.0")
        u.destroyed = True
        res.add(rule, f"helicopter {u.id} is destroyed (a Destroyed Helicopter marker stays)", unit=u.id)
        state.award(by, "helicopter_destroyed", res, "F 29.0")
        return "KIA"
    if effect == "B":
        u.broken, u.activated = True, True
        res.add(rule, f"helicopter {u.id} is Broken: it may only move to leave the map", unit=u.id)
        return "B"
    return _suppress_machine(u, res, rule)


def _suppress_machine(u: Unit, res: Resolution, rule: str) -> str:
    """S on a vehicle or helicopter: Suppressed, or nothing more if already Suppressed or Broken (F 7.4)."""
    if u.suppressed or u.broken:
        res.add(rule, f"{u.kind} {u.id} is already {'Broken' if u.broken else 'Suppressed'}: no further effect")
        return "none"
    u.suppressed = True
    res.add(rule, f"{u.kind} {u.id} is Suppressed", unit=u.id)
    return "S"


@implements("F 7.4")
def landing_options(state: FteState, u: Unit) -> list[Hex]:
    """Where a downed helicopter may be set down: a hex within 3 of it at High, 1 at Treetop, its own at Ground,
    where a helicopter may be at ground level and may stand (F 7.4, F 6.2, F 6.8); sorted by label."""
    reach = {"high": 3, "treetop": 1, "ground": 0}[u.altitude]
    out = []
    for h in spiral(u.hex, reach):
        if h not in state.map or state.charts.tec.value(state.map.terrain(h), "helicopter_ground") is None:
            continue
        if h != u.hex and entry_problem(state, [u], h)[0]:
            continue
        out.append(h)
    return sorted(out, key=state.label)


def land_downed(state: FteState, u: Unit, h: Hex, res: Resolution) -> None:
    """Set a downed helicopter down in hex h at ground level, as its owner chose (F 7.4)."""
    if h not in landing_options(state, u):
        raise RuleViolation("F 7.4", f"{u.id} cannot be set down in {state.label(h)}: it must be a hex within reach "
                                     "where a helicopter may be at ground level")
    place_unit(state, u, h)
    u.altitude = "ground"
    res.add("F 7.4", f"helicopter {u.id} is placed at ground level in {state.label(h)}", unit=u.id)


def _landing_hex(state: FteState, u: Unit, reach: int) -> Hex | None:
    """The nearest hex within reach where a helicopter may be at ground level (not jungle or hamlet; stacking
    and enemy hexes as for any entry, F 6.2); ties go to the lowest label. The owner's choice is read as the
    nearest such hex."""
    options = []
    for h in spiral(u.hex, reach):
        if h not in state.map or state.charts.tec.value(state.map.terrain(h), "helicopter_ground") is None:
            continue
        if h != u.hex and entry_problem(state, [u], h)[0]:
            continue
        options.append((u.hex.distance(h), state.label(h), h))
    return min(options)[2] if options else None


# --------------------------------------------------------------------------- retreat of broken units

def retreat_options(state: FteState, u: Unit, away_from: Hex | None, farthest_too: bool = False):
    """Every two-hex retreat path: each step into a hex of the map the unit may enter (no enemy units, within
    stacking) that lies farther from the unit that broke it (F 7.4).

    The answer depends only on the map, the charts, the unit's side and kind, where it and every other unit
    on the map stand, and ``away_from``, so it is remembered on those (exact enumeration asks it for the same
    position many times). With ``farthest_too``, returns (the paths, the farthest path, ties to the lowest
    labels, or None): don't change them."""
    others = tuple((v.hex, v.player, v.role, v.kind) for v in state.units.values()
                   if v.id != u.id and v.on_map and not v.destroyed)
    key = (id(state.map), id(state.charts), u.player, u.kind, u.role, u.hex, away_from, others)
    memo = enumeration_memo("fte retreat options")
    hit = memo.get(key)
    if hit is None or hit[0] is not state.map or hit[1] is not state.charts:
        paths = _retreat_paths(state, u, away_from)
        farthest = min(paths, key=lambda p: (-p[-1].distance(away_from) if away_from else 0,
                                             [state.label(h) for h in p])) if paths else None
        hit = memo[key] = (state.map, state.charts, paths, farthest)     # the map and charts: their ids stay in use
    return hit[2:] if farthest_too else [list(p) for p in hit[2]]


def _retreat_paths(state: FteState, u: Unit, away_from: Hex | None) -> list[list[Hex]]:
    start = u.hex
    paths = []
    for a in state.map.neighbors(start):
        if not _retreat_step_ok(state, u, start, a, away_from):
            continue
        for b in state.map.neighbors(a):
            if b != start and _retreat_step_ok(state, u, a, b, away_from):
                paths.append([a, b])
    return paths


def _retreat_step_ok(state: FteState, u: Unit, frm: Hex, to: Hex, away_from: Hex | None) -> bool:
    """A retreat step: a hex the unit may enter (movement's stacking and enemy-hex test, F 6.2) and whose terrain
    its class may enter, farther from the unit that broke it."""
    if entry_problem(state, [u], to)[0]:
        return False
    move_class = {"infantry": "infantry", "vehicle": "vehicle"}.get(u.kind, "helicopter_ground")
    if state.charts.tec.value(state.map.terrain(to), move_class) is None:
        return False
    if away_from is not None and to.distance(away_from) <= frm.distance(away_from):
        return False
    return True


@implements("F 7.4")
def eliminate_cornered(state: FteState, u: Unit, res: Resolution, by: str) -> None:
    """A broken unit that cannot retreat two hexes is eliminated and scored as a KIA; the KIA marker and any
    markers it carried stay in the hex (F 7.4)."""
    at = u.hex
    _remove(state, u, res, "F 7.4", "it cannot retreat two hexes, so it is eliminated (scored as a KIA)")
    _casualty(state, u, "KIA", res, at)
    _lose_leader(state, u, res, "KIA")
    if u.role != "civilians":
        state.award(by, "enemy_kia", res, "F 7.4")


def check_retreat_path(state: FteState, u: Unit, away_from: Hex | None, path) -> list[Hex]:
    """The two hexes of a retreat path, checked against :func:`retreat_options` (raises RuleViolation)."""
    hexes = [state.hex(h) for h in path]
    if hexes not in retreat_options(state, u, away_from):
        raise RuleViolation("F 7.4", f"{u.id} cannot retreat by {[state.label(h) for h in hexes]}: each of the two "
                                     "hexes must be enterable and farther from the unit that broke it")
    return hexes


@implements("F 7.4")
def retreat_into(state: FteState, u: Unit, h: Hex, res: Resolution) -> None:
    """One hex of a retreat: the broken unit enters it, with whatever it carries."""
    place_unit(state, u, h)
    res.add("F 7.4", f"{u.id} retreats into {state.label(h)}", unit=u.id, hex=state.label(h))


@implements("F 7.4", "F 21.0")
def retreat(state: FteState, unit_id: str, away_from: Hex | None, dice, res: Resolution, *, by: str,
            path: list[Hex] | None = None, fire: RetreatFire | None = None) -> bool:
    """Retreat a broken unit two hexes away from the unit that broke it, open to opportunity fire at each
    hex entered; a unit that cannot retreat is eliminated and scored as a KIA (F 7.4). Returns True if it
    survived the retreat on the map. Called directly (the book, exact enumeration), a missing ``path`` is the
    farthest one; in a game the owner chooses it (:class:`wargames.fte.Game`)."""
    u = state.unit(unit_id)
    options, farthest = retreat_options(state, u, away_from, farthest_too=True)
    if path is not None:
        path = check_retreat_path(state, u, away_from, path)
    elif options:
        path = list(farthest)
    if not path:
        eliminate_cornered(state, u, res, by)
        return False
    start = u.hex
    for h in path:
        retreat_into(state, u, h, res)
        if fire is not None and fire(state, u.id, h, dice, res):
            if not u.on_map:
                return False
    res.add("F 7.4", f"{u.id} ends its retreat {state.label(start)} -> {state.label(path[-1])}")
    return u.on_map
