"""Rule 11: melee combat, with tanks in melee (C 19.B), the hill bonus (C 13) and Gabrielle-5 (C 14.C).

The text gives three of the five steps it announces. Our readings of the rest (recorded in the book's
ambiguities appendix):

- **Step 4, odds recomputation:** routed units drop out; the odds are figured again from the units left, and
  shifted for terrain as in step 1.
- **Step 5, outcome:** one die on the Melee Combat Table (``melee_crt.yaml``): strength-point losses for each
  side, and a retreat of one hex for a side whose cell says so.
- **Retreat and rout movement:** a retreating or routing unit moves one hex, chosen by its owner, into a hex
  with no enemy unit, out of enemy zones of control if it can (C 5), and within stacking (C 6: if not, it is
  eliminated). A routing unit is also marked Routed: it may not attack in melee or dig (C 18), and it
  recovers at the end of its side's next movement phase (as C 19.B says of tanks).
- **Melee losses** are shared out by their owner, one strength point at a time, among his units in the melee;
  the one-loss cap of C 9.1 is a fire rule and does not apply.

A melee runs as :class:`MeleeRun`: each decision it needs (a rout hex, a loss, a retreat hex, the advance)
waits for the player whose decision it is.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

from ..core import Hex, Resolution, implements
from ..core.dice import roll_die
from ..core.errors import RuleViolation
from .charts import MeleeResult
from .fire import lose_strength_point
from .stacking import stacking_problem
from .strongpoints import note_passage, strongpoint_at
from .tanks import tank_melee_problem
from .terrain import effective_terrain
from .units import Side, UnitClass, UnitState
from .zoc import zone_of_control

#: +3 to the averaged morale for every operational tank (C 19.B).
TANK_MORALE = 3


# --------------------------------------------------------------------------- steps 1-3

@implements("C 11")
def raw_odds(attack: int, defence: int, mct) -> int:
    """Step 1: the MCT column of attack:defence, rounded in the defender's favour (4:2 and 5:2 are 2:1).

    At 1:1 or better the odds are floor(attack/defence):1, below it 1:ceil(defence/attack); past the table's
    ends they are read on its first or last column."""
    if defence <= 0:
        raise RuleViolation("C 11", "no defending strength: the hex falls without a melee")
    ratios = [_ratio(c.label) for c in mct.columns]
    if attack >= defence:
        value = Fraction(attack // defence)
    else:
        value = Fraction(1, -(-defence // attack))
    best = 0
    for i, r in enumerate(ratios):
        if r <= value:
            best = i
    return best


def _ratio(label: str) -> Fraction:
    a, d = label.split("/")
    return Fraction(int(a), int(d))


@implements("C 11")
def averaged_morale(units: Sequence[UnitState]) -> int:
    """Step 2: the mean printed morale of the infantry, halves rounded up, +3 per operational tank (C 19.B).

    The C 19.B example (morale 4 and 2 with a tank: 6) shows tanks are not counted in the mean."""
    inf = [u for u in units if u.counter.cls is UnitClass.INFANTRY]
    if not inf:
        return 0
    mean = Fraction(sum(u.morale for u in inf), len(inf))
    rounded = int(mean + Fraction(1, 2))           # round half up (C 11.C.2: 3 2/3 -> 4)
    tanks = sum(1 for u in units if u.counter.cls is UnitClass.TANK and not u.disabled)
    return rounded + TANK_MORALE * tanks


@implements("C 11")
def odds_modifier(column: int, mct) -> int:
    """Step 3: +1 to the attacker's check per two columns above 2:1, -1 per two below 1:1 (raw odds)."""
    two, one = mct.index("2/1"), mct.index("1/1")
    if column > two:
        return (column - two) // 2
    if column < one:
        return -((one - column) // 2)
    return 0


@implements("C 11", "C 13", "C 14")
def melee_shift(state, target: Hex, attackers: Sequence[UnitState], res: Resolution) -> int:
    """Columns the defender's terrain shifts the melee: the hex's terrain, a strongpoint, Vietminh works, and
    the hill bonus when every attacker comes across a non-hill hexside (C 13)."""
    _, _, tec = state.tables()
    m = state.map
    terr = effective_terrain(m, target, state.date)
    parts, shift = [], 0

    def add(name: str, entry) -> None:
        nonlocal shift
        if entry.melee_shift:
            shift += entry.melee_shift
            parts.append(f"{name} {entry.melee_shift:+d} ({entry.provenance.kind})")

    add(terr.replace("_", " "), tec.terrain[terr])
    if "strongpoint" in m.info(target).features:
        add("strongpoint", tec.features["strongpoint"])
    works = state.works.get(target)
    if works:
        add(works.replace("_", " "), tec.features["trench"])
    if terr == "hill" and "hill_bonus" in tec.features:
        uphill = [u.id for u in attackers if "hill" in m.side(u.hex, target)]
        if uphill:
            parts.append(f"no hill bonus: {', '.join(uphill)} attack{'s' if len(uphill) == 1 else ''} across a "
                         f"hill hexside")
        else:
            add("hill bonus (every attacker crosses a non-hill hexside)", tec.features["hill_bonus"])
    res.add("C 13", f"defender in {state.label(target)}: " + (", ".join(parts) or "no melee modifier")
            + f" = {shift:+d} columns", result=shift)
    return shift


# --------------------------------------------------------------------------- who may attack what

def participants(state, target: Hex, side: Side) -> list[UnitState]:
    """The units of ``side`` in the target hex that fight: infantry and tanks with infantry (C 11.B, C 19.B)."""
    here = state.units_at(target, side)
    if not any(u.counter.cls is UnitClass.INFANTRY for u in here):
        return []
    return [u for u in here if u.counter.cls in (UnitClass.INFANTRY, UnitClass.TANK)]


@implements("C 11", "C 14.C", "C 19.B", "C 19.G")
def melee_problem(state, attacker_ids: Sequence[str], target: Hex) -> str | None:
    """Why these units may not attack this hex in melee now, or None (C 11.A)."""
    if not attacker_ids:
        return "name at least one attacking unit"
    if len(set(attacker_ids)) != len(attacker_ids):
        return "a unit is named twice"
    attackers = [state.unit(a) for a in attacker_ids]
    side = attackers[0].side
    if any(u.side is not side for u in attackers):
        return "units of both sides are named"
    book = state.melee
    if state.label(target) in book.get("attacked", ()):
        return f"{state.label(target)} has already been attacked this melee phase"
    if not state.units_at(target, side.enemy):
        return f"{state.label(target)} holds no enemy unit"
    g5 = strongpoint_at(state, target) == "G-5"
    for u in attackers:
        if not u.on_board:
            return f"{u.id} is not on the map"
        if u.counter.cls is UnitClass.HEAVY_WEAPONS:
            return f"{u.id} is a weapons unit; only infantry (and tanks with it) attack in melee"
        if u.pinned:
            return f"{u.id} is pinned and may not attack in melee this player turn (C 9)"
        if u.routed:
            return f"{u.id} is routed and may not attack"
        if u.id in book.get("attackers", ()):
            return f"{u.id} has already attacked this melee phase"
        if not u.hex.is_adjacent(target):
            return f"{u.id} in {state.label(u.hex)} is not adjacent to {state.label(target)}"
        if g5 and strongpoint_at(state, u.hex) is None:
            return f"G-5 may be attacked only from strongpoint hexes, and {u.id} stands in {state.label(u.hex)} (C 14.C)"
        if u.counter.cls is UnitClass.TANK:
            why = tank_melee_problem(state, u, target)
            if why:
                return why
            if not any(o.counter.cls is UnitClass.INFANTRY and o.hex == u.hex for o in attackers):
                return f"{u.id} is a tank; tanks attack only with infantry from their own hex (C 19.B)"
    return None


# --------------------------------------------------------------------------- movement after melee

@implements("C 11", "C 5", "C 6")
def retreat_hexes(state, u: UnitState) -> list[Hex]:
    """Where a retreating or routing unit may go: next to it, no enemy unit, within the rules of tank movement,
    out of enemy zones of control if any such hex exists (our reading of C 5 and C 11)."""
    from .tanks import tank_crossing_problem
    options = [n for n in state.map.neighbors(u.hex) if not state.units_at(n, u.side.enemy)
               and not (u.counter.cls is UnitClass.TANK and tank_crossing_problem(state, u, u.hex, n))]
    zoc = zone_of_control(state, u.side.enemy)
    free = [n for n in options if n not in zoc]
    return sorted(free or options)


@implements("C 6", "C 11")
def move_after_melee(state, u: UnitState, to: Hex, res: Resolution, rule: str, verb: str) -> None:
    """Move a retreating or routing unit one hex; a unit forced to retreat in violation of stacking is
    eliminated instead (C 6). The one implementation of that rule: melee is the only forced retreat."""
    if stacking_problem([*state.units_at(to, u.side), u]):
        eliminate(state, u, res, f"{verb} into {state.label(to)} would break stacking (C 6)")
        return
    u.hex = to
    u.in_tunnel = False
    note_passage(state, u.side, to)
    res.add(rule, f"{u.id} {verb}s to {state.label(to)}")


@implements("C 11", "C 19.B")
def recover_routed(state, side: Side, res: Resolution) -> None:
    """Routed units of ``side`` recover at the end of its movement phase (C 19.B for tanks; our reading for all)."""
    back = [u.id for u in state.on_board(side) if u.routed]
    for uid in back:
        state.unit(uid).routed = False
    if back:
        res.add("C 11", f"routed units recover: {', '.join(back)}")


def eliminate(state, u: UnitState, res: Resolution, why: str) -> None:
    """Remove a unit; a Vietminh unit's remaining strength goes on the cumulative loss scale (SR 3)."""
    if u.side is Side.VIETMINH:
        state.vm_losses += u.strength
    u.eliminated = True
    u.pinned, u.pinned_at = False, None
    res.add("C 11", f"{u.id} is eliminated: {why}")


@implements("C 11")
def melee_loss(state, u: UnitState, res: Resolution) -> None:
    """One strength point lost in melee: as to fire (C 9.3, C 9.4), without the fire phase's bookkeeping."""
    lose_strength_point(state, u, res, "C 11", "loses a strength point in melee")


# --------------------------------------------------------------------------- one melee, decision by decision

@dataclass
class MeleeRun:
    """One melee attack on one hex, from declaration to the advance, waiting at each player decision."""

    target: Hex
    attackers: list[str]
    defenders: list[str]
    side: Side                                   # the attacker
    stage: str = "rout"                          # rout, losses, retreat, advance, over
    routs: list[str] = field(default_factory=list)           # units still to make their rout move
    losses: dict[str, int] = field(default_factory=dict)     # side value -> strength points still to take
    retreats: list[str] = field(default_factory=list)
    result: str = ""

    def waiting(self, state) -> tuple[Side, str, str] | None:
        """(who decides, rule, what) for the decision this melee waits for, or None when it is over."""
        if self.stage == "rout" and self.routs:
            u = state.unit(self.routs[0])
            return u.side, "C 11", f"{u.id} routs: choose the hex it flees to"
        if self.stage == "losses":
            for s in (self.side, self.side.enemy):
                if self.losses.get(s.value):
                    return s, "C 11", f"choose the unit to lose a strength point ({self.losses[s.value]} to take)"
        if self.stage == "retreat" and self.retreats:
            u = state.unit(self.retreats[0])
            return u.side, "C 11", f"{u.id} retreats: choose its hex"
        if self.stage == "advance":
            return self.side, "C 11.D", f"advance into {state.label(self.target)} with any of the attackers, or not"
        return None

    # -- options for the current decision
    def loss_options(self, state, side: Side) -> list[str]:
        """The infantry of ``side`` still in this melee (routed units have left it)."""
        if side is self.side:
            units = [state.unit(i) for i in self.attackers]
            units = [u for u in units if u.on_board and not u.routed]
        else:
            units = [state.unit(i) for i in self.defenders]
            units = [u for u in units if u.on_board and u.hex == self.target]
        return [u.id for u in units if u.counter.cls is UnitClass.INFANTRY]

    def advancers(self, state) -> list[str]:
        return [i for i in self.attackers if state.unit(i).on_board and not state.unit(i).routed
                and state.unit(i).hex.is_adjacent(self.target)]


@implements("C 11")
def declare(state, attacker_ids: Sequence[str], target: Hex, dice, res: Resolution) -> MeleeRun:
    """Steps 1 to 3 of a melee (or the pre-melee rout of a hex without infantry), then what comes next."""
    why = melee_problem(state, attacker_ids, target)
    if why:
        raise RuleViolation("C 11", why)
    attackers = [state.unit(a) for a in attacker_ids]
    side = attackers[0].side
    book = state.melee
    book.setdefault("attacked", []).append(state.label(target))
    book.setdefault("attackers", []).extend(attacker_ids)
    defenders = participants(state, target, side.enemy)
    run = MeleeRun(target, list(attacker_ids), [u.id for u in defenders], side)
    res.add("C 11", f"{', '.join(attacker_ids)} attack {state.label(target)} in melee")
    if not defenders:
        for u in state.units_at(target, side.enemy):
            eliminate(state, u, res, "a hex without infantry falls to a melee attack: pre-melee rout (C 11.B"
                      + (", C 19.B" if u.counter.cls is UnitClass.TANK else "") + ")")
        run.stage, run.result = "advance", "pre-melee rout"
        return run
    mct = state.mct()
    att_sp = sum(u.strength for u in attackers)
    def_sp = sum(u.strength for u in defenders)
    col = raw_odds(att_sp, def_sp, mct)
    res.add("C 11", f"raw odds {att_sp}:{def_sp} -> {mct.columns[col].label.replace('/', ':')} (rounded for the "
                    f"defender)", result=mct.columns[col].label, attack=att_sp, defence=def_sp)
    a_m, d_m = averaged_morale(attackers), averaged_morale(defenders)
    for who, units, avg in (("attacker", attackers, a_m), ("defender", defenders, d_m)):
        tanks = sum(1 for u in units if u.counter.cls is UnitClass.TANK and not u.disabled)
        res.add("C 11", f"{who}'s averaged morale {avg}"
                + (f" (infantry {avg - TANK_MORALE * tanks} + {TANK_MORALE} x {tanks} operational tank"
                   f"{'s' if tanks > 1 else ''}, C 19.B)" if tanks else ""), result=avg)
    mod = odds_modifier(col, mct)
    d_roll = roll_die(dice, 6, "defender's pre-melee morale check")
    a_roll = roll_die(dice, 6, "attacker's pre-melee morale check")
    d_num, a_num = d_roll + d_m, a_roll + a_m + mod
    res.add("C 11", f"morale checks: defender {d_roll} + {d_m} = {d_num}; attacker {a_roll} + {a_m}"
                    + (f" {mod:+d} for the raw odds" if mod else "") + f" = {a_num}",
            defender=d_num, attacker=a_num, rolls=(d_roll, a_roll))
    routed = []
    for u in attackers:
        if u.counter.cls is UnitClass.INFANTRY and d_num - a_num > u.morale:
            routed.append(u)
    for u in defenders:
        if u.counter.cls is UnitClass.INFANTRY and a_num - d_num > u.morale:
            routed.append(u)
    for group in (attackers, defenders):         # tanks rout when every company with them routs (C 19.B)
        for t in [u for u in group if u.counter.cls is UnitClass.TANK]:
            mates = [u for u in group if u.counter.cls is UnitClass.INFANTRY and u.hex == t.hex]
            if mates and all(m in routed for m in mates):
                routed.append(t)
    for u in routed:
        u.routed = True
        res.add("C 11", f"{u.id} routs" + ("" if u.counter.cls is UnitClass.TANK else
                f": the margin exceeds its morale of {u.morale}"))
    run.routs = [u.id for u in routed]
    _after_routs(state, run, dice, res)
    return run


def _after_routs(state, run: MeleeRun, dice, res: Resolution) -> None:
    """Once every routed unit has moved: step 4 (odds again) and step 5 (the table), or the melee's end."""
    if run.routs:
        run.stage = "rout"
        return
    attackers = [state.unit(i) for i in run.attackers if state.unit(i).on_board and not state.unit(i).routed]
    defenders = [state.unit(i) for i in run.defenders if state.unit(i).on_board and not state.unit(i).routed
                 and state.unit(i).hex == run.target]
    if not any(u.counter.cls is UnitClass.INFANTRY for u in defenders):
        _vacated(state, run, res)
        return
    if not any(u.counter.cls is UnitClass.INFANTRY for u in attackers):
        run.stage, run.result = "over", "attack broken"
        res.add("C 11", "every attacking infantry unit has routed: the attack fails")
        return
    mct = state.mct()
    att_sp, def_sp = sum(u.strength for u in attackers), sum(u.strength for u in defenders)
    col = raw_odds(att_sp, def_sp, mct)
    shift = melee_shift(state, run.target, attackers, res)
    final, over = mct.shift(col, shift)
    res.add("C 11", f"odds recomputed without routed units: {att_sp}:{def_sp} -> "
                    f"{mct.columns[col].label.replace('/', ':')}, shifted {shift:+d} -> "
                    f"{mct.columns[final].label.replace('/', ':')}"
            + (f" (the table ends there: {abs(over)} shift(s) have nowhere to go)" if over else ""),
            result=mct.columns[final].label)
    roll = roll_die(dice, 6, f"melee at {state.label(run.target)}")
    cell = mct.lookup(final, roll)
    r: MeleeResult = cell.value
    res.add("C 11", f"roll {roll} on {mct.columns[final].label.replace('/', ':')}: {r.code}"
            + (" (reconstructed chart value)" if cell.provenance.kind == "reconstructed" else ""),
            result=r.code, roll=roll)
    run.result = r.code
    run.losses = {run.side.value: r.attacker_losses, run.side.enemy.value: r.defender_losses}
    run.retreats = ([u.id for u in attackers] if r.attacker_retreats else []) + \
                   ([u.id for u in defenders] if r.defender_retreats else [])
    run.stage = "losses"
    _settle(state, run, res)


def _settle(state, run: MeleeRun, res: Resolution) -> None:
    """Apply forced decisions and move on: losses with one possible taker, retreats, the vacated hex."""
    while run.stage == "losses":
        pending = [s for s in (run.side, run.side.enemy) if run.losses.get(s.value)]
        if not pending:
            run.stage = "retreat"
            break
        s = pending[0]
        opts = run.loss_options(state, s)
        if not opts:
            res.add("C 11", f"no {s.value} unit is left to take the remaining {run.losses[s.value]} loss(es)")
            run.losses[s.value] = 0
        elif len(opts) == 1:
            run.losses[s.value] -= 1
            melee_loss(state, state.unit(opts[0]), res)
        else:
            return
    if run.stage == "retreat":
        run.retreats = [i for i in run.retreats if state.unit(i).on_board]
        while run.retreats:
            u = state.unit(run.retreats[0])
            opts = retreat_hexes(state, u)
            if opts:
                return
            run.retreats.pop(0)
            eliminate(state, u, res, "it must retreat and has no hex to go to (C 11)")
        if not any(state.unit(i).on_board and state.unit(i).hex == run.target
                   and state.unit(i).counter.cls is UnitClass.INFANTRY for i in run.defenders):
            _vacated(state, run, res)
        else:
            run.stage = "over"


def _vacated(state, run: MeleeRun, res: Resolution) -> None:
    """C 11.D: the hex has lost its infantry; its weapons (and tanks left alone, C 19.B) are eliminated."""
    for u in state.units_at(run.target, run.side.enemy):
        eliminate(state, u, res, f"{state.label(run.target)} has no infantry left (C 11.D"
                  + (", C 19.B)" if u.counter.cls is UnitClass.TANK else ")"))
    run.stage = "advance" if run.advancers(state) else "over"


def rout_move(state, run: MeleeRun, uid: str, to: Hex, res: Resolution, dice) -> None:
    if run.stage != "rout" or not run.routs or run.routs[0] != uid:
        raise RuleViolation("C 11", f"{uid} is not the unit that routs next")
    u = state.unit(uid)
    opts = retreat_hexes(state, u)
    if to not in opts:
        raise RuleViolation("C 11", f"{uid} may not flee to {state.label(to)}: it must go next door, to a hex free "
                                    f"of enemy units (and of their zones of control if it can)")
    run.routs.pop(0)
    move_after_melee(state, u, to, res, "C 11", "rout")
    _drop_unmovable_routs(state, run, res)
    _after_routs(state, run, dice, res)


def _drop_unmovable_routs(state, run: MeleeRun, res: Resolution) -> None:
    while run.routs:
        u = state.unit(run.routs[0])
        if not u.on_board:
            run.routs.pop(0)
        elif not retreat_hexes(state, u):
            run.routs.pop(0)
            eliminate(state, u, res, "it routs and has no hex to flee to (C 11)")
        else:
            return


def take_melee_loss(state, run: MeleeRun, uid: str, res: Resolution) -> None:
    waiting = run.waiting(state)
    if run.stage != "losses" or waiting is None:
        raise RuleViolation("C 11", "no melee loss is waiting to be taken")
    side = waiting[0]
    if uid not in run.loss_options(state, side):
        raise RuleViolation("C 11", f"{uid} is not a {side.value} unit that fought in this melee and can take the loss")
    run.losses[side.value] -= 1
    melee_loss(state, state.unit(uid), res)
    _settle(state, run, res)


def retreat_move(state, run: MeleeRun, uid: str, to: Hex, res: Resolution) -> None:
    if run.stage != "retreat" or not run.retreats or run.retreats[0] != uid:
        raise RuleViolation("C 11", f"{uid} is not the unit that retreats next")
    u = state.unit(uid)
    if to not in retreat_hexes(state, u):
        raise RuleViolation("C 11", f"{uid} may not retreat to {state.label(to)}: it must go next door, to a hex "
                                    f"free of enemy units (and of their zones of control if it can)")
    run.retreats.pop(0)
    move_after_melee(state, u, to, res, "C 11", "retreat")
    _settle(state, run, res)


@implements("C 11")
def advance(state, run: MeleeRun, unit_ids: Sequence[str], res: Resolution) -> None:
    """The attacker may move attackers into the emptied hex, within stacking (C 11.D); none is a choice too."""
    if run.stage != "advance":
        raise RuleViolation("C 11.D", "no hex is waiting for an advance")
    able = run.advancers(state)
    bad = [i for i in unit_ids if i not in able]
    if bad:
        raise RuleViolation("C 11.D", f"{', '.join(bad)} did not attack {state.label(run.target)} or cannot advance")
    if len(set(unit_ids)) != len(unit_ids):
        raise RuleViolation("C 11.D", "a unit is named twice")
    movers = [state.unit(i) for i in unit_ids]
    if state.units_at(run.target, run.side.enemy):
        raise RuleViolation("C 11.D", f"{state.label(run.target)} still holds enemy units")
    problem = stacking_problem([*state.units_at(run.target, run.side), *movers])
    if problem:
        raise RuleViolation("C 6", f"advancing into {state.label(run.target)}: {problem}")
    for u in movers:
        u.hex = run.target
        u.in_tunnel = False
    if movers:
        note_passage(state, run.side, run.target)
        res.add("C 11.D", f"{', '.join(unit_ids)} advance into {state.label(run.target)}")
    else:
        res.add("C 11.D", f"the attacker does not advance into {state.label(run.target)}")
    run.stage = "over"


# --------------------------------------------------------------------------- the melee phase through Game

from ..core.actions import Action                      # noqa: E402  (the play section of this module)
from ..core.game import Prompt, handles               # noqa: E402
from .play import EndPhase, PhasePlay                  # noqa: E402


@dataclass(frozen=True)
class Melee(Action):
    """Attack one adjacent enemy hex in melee with these units (C 11.A)."""
    attackers: tuple[str, ...]
    target: str


@dataclass(frozen=True)
class Rout(Action):
    """Move a routed unit to the hex its owner chooses (C 11, our reading of rout movement)."""
    unit: str
    hex: str


@dataclass(frozen=True)
class TakeMeleeLoss(Action):
    """The owner gives the next melee loss to one of his units in the melee (C 11)."""
    unit: str


@dataclass(frozen=True)
class Retreat(Action):
    """Move a unit the Melee Combat Table makes retreat to the hex its owner chooses (C 11)."""
    unit: str
    hex: str


@dataclass(frozen=True)
class Advance(Action):
    """Move attackers into the hex the defenders left; an empty list declines the advance (C 11.D)."""
    units: tuple[str, ...]


class MeleePlay(PhasePlay):
    """The melee phase (C 11): the phasing player attacks hex by hex, each decision at its owner's prompt."""

    ACTIONS = (Melee, Rout, TakeMeleeLoss, Retreat, Advance)

    def play_open(self, res: Resolution) -> bool:
        self.state.melee = {}
        if not MeleePlay._possible(self):
            res.add("C 11", f"{self.phase.name}: no {self.phase_side().value} unit can attack in melee")
            MeleePlay._finish(self, res)
            return False
        res.add("C 11", f"{self.phase.name}: the {self.phase_side().value} player may attack in melee")
        return True

    def _run(self) -> MeleeRun | None:
        run = self.state.melee.get("run")
        return run if run is not None and run.stage != "over" else None

    def _possible(self) -> bool:
        st, side = self.state, self.phase_side()
        attacked = set(st.melee.get("attacked", ()))
        for u in st.on_board(side):
            if u.counter.cls is UnitClass.INFANTRY and not u.pinned and not u.routed:
                for n in st.map.neighbors(u.hex):
                    if st.units_at(n, side.enemy) and st.label(n) not in attacked \
                            and not melee_problem(st, [u.id], n):
                        return True
        return False

    def play_prompt(self) -> Prompt:
        run = MeleePlay._run(self)
        if run is not None:
            who, rule, what = run.waiting(self.state)
            return Prompt(who.value, rule, what, "melee")
        return Prompt(self.phase_side().value, "C 11", "attack an adjacent enemy hex in melee, or end the melee "
                                                       "phase", "melee")

    def play_candidates(self) -> list:
        st = self.state
        run = MeleePlay._run(self)
        if run is None:
            side, out = self.phase_side(), []
            attacked = set(st.melee.get("attacked", ()))
            targets = sorted({n for u in st.on_board(side) for n in st.map.neighbors(u.hex)
                              if st.units_at(n, side.enemy) and st.label(n) not in attacked})
            for h in targets:
                able = [u.id for u in st.on_board(side) if u.hex.is_adjacent(h)
                        and u.counter.cls is not UnitClass.HEAVY_WEAPONS]
                inf = [i for i in able if st.unit(i).counter.cls is UnitClass.INFANTRY]
                out += [Melee((i,), st.label(h)) for i in inf]
                if len(able) > 1:
                    out.append(Melee(tuple(able), st.label(h)))
            return out + [EndPhase()]
        if run.stage == "rout":
            u = st.unit(run.routs[0])
            return [Rout(u.id, st.label(h)) for h in retreat_hexes(st, u)]
        if run.stage == "losses":
            who = run.waiting(st)[0]
            return [TakeMeleeLoss(i) for i in run.loss_options(st, who)]
        if run.stage == "retreat":
            u = st.unit(run.retreats[0])
            return [Retreat(u.id, st.label(h)) for h in retreat_hexes(st, u)]
        able = run.advancers(st)
        return [Advance(()), *(Advance((i,)) for i in able), Advance(tuple(able))]

    def play_check(self, action) -> bool:
        if not isinstance(action, Melee) or MeleePlay._run(self) is not None:
            return False
        if any(self.state.unit(i).side is not self.phase_side() for i in action.attackers):
            raise RuleViolation("C 11", f"only {self.phase_side().value} units attack in this melee phase")
        why = melee_problem(self.state, action.attackers, self.state.map.hex(action.target))
        if why:
            raise RuleViolation("C 11", why)
        return True

    def play_end(self, res: Resolution) -> None:
        if MeleePlay._run(self) is not None:
            raise RuleViolation("C 11", "a melee is still being resolved: answer its prompt first")
        MeleePlay._finish(self, res)
        self.play_done(res)

    def _finish(self, res: Resolution) -> None:
        from .entrench import fill_in
        fill_in(self.state, res)
        res.add("C 11", f"the {self.phase_side().value} melee phase ends")

    def _need(self, stage: str) -> MeleeRun:
        run = MeleePlay._run(self)
        if run is None or run.stage != stage:
            raise RuleViolation("C 11", f"no melee is waiting for a {stage} decision")
        return run

    @handles(Melee)
    def _melee(self, a: Melee, dice, res: Resolution) -> None:
        if MeleePlay._run(self) is not None:
            raise RuleViolation("C 11", "finish the melee under way first")
        if any(self.state.unit(i).side is not self.phase_side() for i in a.attackers):
            raise RuleViolation("C 11", f"only {self.phase_side().value} units attack in this melee phase")
        target = self.state.map.hex(a.target)
        why = melee_problem(self.state, a.attackers, target)
        if why:
            raise RuleViolation("C 11", why)
        run = declare(self.state, a.attackers, target, dice, res)
        _drop_unmovable_routs(self.state, run, res)
        if run.stage == "rout" and not run.routs:
            _after_routs(self.state, run, dice, res)
        self.state.melee["run"] = run

    @handles(Rout)
    def _rout(self, a: Rout, dice, res: Resolution) -> None:
        rout_move(self.state, MeleePlay._need(self, "rout"), a.unit, self.state.map.hex(a.hex), res, dice)

    @handles(TakeMeleeLoss)
    def _loss(self, a: TakeMeleeLoss, dice, res: Resolution) -> None:
        run = MeleePlay._need(self, "losses")
        take_melee_loss(self.state, run, a.unit, res)

    @handles(Retreat)
    def _retreat(self, a: Retreat, dice, res: Resolution) -> None:
        retreat_move(self.state, MeleePlay._need(self, "retreat"), a.unit, self.state.map.hex(a.hex), res)

    @handles(Advance)
    def _advance(self, a: Advance, dice, res: Resolution) -> None:
        advance(self.state, MeleePlay._need(self, "advance"), a.units, res)


# --------------------------------------------------------------------------- a whole melee, for odds and widgets

@dataclass(frozen=True)
class MeleeOutcome:
    """What one melee came to, in the terms the odds tables use."""

    result: str                  # "defender routed", "attacker routed", "both routed", "defender retreats",
                                 # "attacker retreats", "hex taken", "held" ...
    attacker_losses: int         # strength points lost by the attacker (routs and eliminations included)
    defender_losses: int
    taken: bool                  # the attacker stands in the hex at the end


def _first(options: list) -> object:
    return options[0]


@implements("C 11")
def play_melee(state, attacker_ids: Sequence[str], target: Hex, dice, res: Resolution | None = None,
               choose=_first) -> MeleeOutcome:
    """Fight one melee to its end, answering each decision with ``choose(options)`` (default: the first).

    The procedure is the game's own (``declare`` and the prompt steps). ``choose`` gets the list of legal
    answers: hexes for routs and retreats, unit ids for losses, tuples of unit ids for the advance (the last
    option advances every attacker that can)."""
    res = res if res is not None else Resolution()
    before = {u.id: u.strength for u in state.units.values() if u.on_board}
    side = state.unit(attacker_ids[0]).side
    run = declare(state, attacker_ids, target, dice, res)
    _drop_unmovable_routs(state, run, res)
    if run.stage == "rout" and not run.routs:
        _after_routs(state, run, dice, res)
    while run.stage != "over":
        if run.stage == "rout":
            u = state.unit(run.routs[0])
            rout_move(state, run, u.id, choose(retreat_hexes(state, u)), res, dice)
        elif run.stage == "losses":
            take_melee_loss(state, run, choose(run.loss_options(state, run.waiting(state)[0])), res)
        elif run.stage == "retreat":
            u = state.unit(run.retreats[0])
            retreat_move(state, run, u.id, choose(retreat_hexes(state, u)), res)
        else:
            fit: list[UnitState] = []
            for i in run.advancers(state):               # as many attackers as stacking lets in, in order
                if not stacking_problem([*state.units_at(target, side), *fit, state.unit(i)]):
                    fit.append(state.unit(i))
            advance(state, run, choose([(), tuple(u.id for u in fit)]), res)

    def lost(s: Side) -> int:
        return sum(v - (state.unit(i).strength if state.unit(i).on_board else 0)
                   for i, v in before.items() if state.unit(i).side is s)

    routed_a = any(state.unit(i).routed for i in run.attackers)
    routed_d = any(state.unit(i).routed for i in run.defenders)
    taken = bool(state.units_at(target, side)) and not state.units_at(target, side.enemy)
    if routed_a and routed_d:
        what = "both routed"
    elif routed_d:
        what = "defender routed"
    elif routed_a:
        what = "attacker routed"
    elif run.result.endswith("r") or run.result == "pre-melee rout":
        what = "defender retreats" if not run.result.startswith("pre") else "pre-melee rout"
    elif "r/" in run.result:
        what = "attacker retreats"
    else:
        what = "neither"
    return MeleeOutcome(what, lost(side), lost(side.enemy), taken)


def advance_all(options: list) -> object:
    """A ``choose`` for :func:`play_melee`: the first hex or unit offered, and the advance with every attacker
    that fits (the last advance option)."""
    advance = options and isinstance(options[0], tuple) and not isinstance(options[0], Hex)
    return options[-1] if advance else options[0]


def melee_odds(state, attacker_ids: Sequence[str], target: Hex, choose=None):
    """The exact distribution of :class:`MeleeOutcome` over every die, by the same procedure (advancing with
    every attacker when the hex empties, unless ``choose`` says otherwise)."""
    from ..core import enumerate_outcomes

    return enumerate_outcomes(lambda d: play_melee(state.copy(), attacker_ids, target, d,
                                                   choose=choose or advance_all))
