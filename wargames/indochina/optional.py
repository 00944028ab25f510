"""Optional rules 27-31: overruns, ambushes, intervention, atomic bombs and the General Offensive.

What is executable here and what is not:

- Overruns (27) and ambushes (28) run on an :class:`IndochinaState` with the existing combat engine
  (``Combat(mode="overrun" | "ambush")``, :func:`resolve_combat`, :func:`apply_result`).
- Intervention (29): the once-per-game bookkeeping, the scenario years, the dice for what arrives, the
  political-point effects with both readings of the over-100 rule, the Chinese air force roll and the US
  port conditions. The units themselves come from a counter mix the text does not give.
- Atomic bombs (30): the supply of bombs, one bomb per hex per turn, markers staying as fallout, and the
  fallout roll. The Atomic Bomb Table (30.1) is not printed in the text, so a bomb's own result is not
  computed.
- General Offensive / General Uprising (31): declaration limits, the political-point roll, the combat shift
  flag for :class:`Combat` and the mobilization ban on the following turn.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Sequence

from ..core import Dice, Hex, Resolution, implements
from ..core.errors import RuleViolation
from ..core.dice import roll_die
from .combat import Combat, Readings, Side, combat_terrain, crt_chooser, resolve_combat
from .movement import move
from .political import CAP, PoliticalPoints
from .results import apply_result
from .stacking import stack_total, stacking_limit
from .state import IndochinaState
from .units import stacking_value
from .zoc import enemy_zoc, zoc_hexes

OVERRUN_COST = 4                          # 27.1
OVERRUN_FORCE_LIMIT = Fraction(2)         # 27.21: two divisions, or four regiments/groups
AMBUSH_TERRAIN = ("jungle", "swamp", "mountain")       # 28.4(1)-(2)
STOPPING_RESULTS = ("AE", "AR", "AD", "BB", "NE")      # 27.42 / 28.52: attacker hurt, retreated, or no effect


# ---------------------------------------------------------------------------------------------- 27: overruns

@dataclass
class Force:
    """A group of units of one side moving together in its Movement Phase (27.2).

    ``spent`` holds each member's movement points used so far; the force can go on while every member has
    points left. Units that leave the force (``dropped``) may not move again this phase.
    """

    side: Side
    units: list[str]
    spent: dict[str, Fraction] = field(default_factory=dict)
    dropped: list[str] = field(default_factory=list)
    stopped: bool = False
    stop_reason: str = ""
    overruns: int = 0

    def remaining(self, st: IndochinaState) -> Fraction:
        return min(Fraction(st.unit(u).movement) - self.spent.get(u, Fraction(0)) for u in self.units)

    def hex(self, st: IndochinaState) -> Hex:
        return st.unit(self.units[0]).hex


@implements("IC 27.2")
def form_force(st: IndochinaState, uids: Sequence[str]) -> Force:
    """Gather a moving force: every member on the map, of one side, starting in the same hex (27.2)."""
    if not uids:
        raise RuleViolation("IC 27.2", "a force needs at least one unit")
    if len(set(uids)) != len(uids):
        raise RuleViolation("IC 27.2", "a unit is listed twice in the force")
    us = [st.unit(u) for u in uids]
    if any(not u.on_map for u in us):
        raise RuleViolation("IC 27.2", "every unit of the force must be on the map")
    if len({u.side for u in us}) != 1:
        raise RuleViolation("IC 27.2", "a force belongs to one side")
    if len({u.hex for u in us}) != 1:
        raise RuleViolation("IC 27.2", "the units of an overrunning force must start in the same hex")
    return Force(us[0].side, list(uids), {u: Fraction(0) for u in uids})


@implements("IC 27.2")
def force_step(st: IndochinaState, force: Force, to: str) -> Resolution:
    """Move the whole force one hex, each unit paying its own cost (terrain, routes, ZOC to ZOC).

    ``result["zoc_to_zoc"]`` says whether the step went straight from one enemy ZOC into another, which is
    when the other player may declare an ambush (28.1).
    """
    if force.stopped:
        raise RuleViolation("IC 27.42", f"this force has stopped for the phase ({force.stop_reason})")
    start = force.hex(st)
    zoc = enemy_zoc(st, force.side)
    target = st.map.hex(to)
    res = Resolution()
    trial = st.copy()
    costs = {}
    for uid in force.units:
        step = move(trial, uid, [to])                       # legality and cost of this one hex
        costs[uid] = Fraction(step.result["spent"])
        allowance = Fraction(st.unit(uid).movement)
        if force.spent[uid] > 0 and force.spent[uid] + costs[uid] > allowance:
            raise RuleViolation("IC 9.0", f"{uid} has {allowance - force.spent[uid]} MP left and {to} "
                                          f"costs it {costs[uid]}")
    for uid in force.units:
        st.unit(uid).hex = target
        force.spent[uid] += costs[uid]
    z2z = start in zoc and target in zoc
    res.add("IC 27.2", f"the force ({', '.join(force.units)}) moves together into {to}; MP used: "
            + ", ".join(f"{u} {force.spent[u]}" for u in force.units)
            + ("; it went from one enemy ZOC straight into another" if z2z else ""))
    res.result = {"hex": to, "zoc_to_zoc": z2z, "remaining": force.remaining(st)}
    return res


@implements("IC 27.2")
def drop_off(force: Force, uid: str) -> None:
    """A unit may leave the force at any time (27.2); it moves no further this phase. None may join."""
    if uid not in force.units:
        raise RuleViolation("IC 27.2", f"{uid} is not part of this force")
    if len(force.units) == 1:
        raise RuleViolation("IC 27.2", "the last unit of a force cannot be dropped off")
    force.units.remove(uid)
    force.dropped.append(uid)


@implements("IC 27.21")
def check_overrun_size(st: IndochinaState, force: Force) -> Fraction:
    """27.21: at most two divisions' worth (a regiment or group is half a division, 10.1), and the hex the
    overrun is made from may not be over its stacking limit, counting every friendly unit there."""
    size = sum((stacking_value(st.unit(u).counter) for u in force.units), Fraction(0))
    if size > OVERRUN_FORCE_LIMIT:
        raise RuleViolation("IC 27.21", f"an overrun force may be at most two divisions or four regiments/"
                                        f"groups; this one counts {size} divisions")
    h = force.hex(st)
    total, limit = stack_total(st, h, force.side), stacking_limit(st, h)
    if total > limit:
        raise RuleViolation("IC 27.21", f"{st.label(h)} holds {total} divisions against a limit of {limit}: "
                                        f"no overrun may be made out of an overstacked hex")
    return size


def _stop(force: Force, code: str, survivors: list[str], rule: str, res: Resolution) -> None:
    force.units = survivors
    if code in STOPPING_RESULTS or not survivors:
        force.stopped = True
        force.stop_reason = f"{code} result"
        res.add(rule, f"the {code} result ends the force's movement for this phase")
    else:
        res.add(rule, f"after {code} the force may keep moving with its remaining movement points")


@implements("IC 27.0", "IC 27.1", "IC 27.22", "IC 27.3", "IC 27.31", "IC 27.33")
def declare_overrun(st: IndochinaState, force: Force, target: str, *, fortified: bool | None = None,
                    attack_enhanced: bool = False, defence_enhanced: bool = False) -> tuple[Combat, list[str], Resolution]:
    """27.3(1): check the overrun, pay its four extra movement points and describe the combat (one column
    further left, 27.3(3); the target's terrain and fortification count, 27.31). Returns the combat, the
    attacking unit ids and the steps so far; the choice of CRT (13.31) and the roll come next."""
    if force.stopped:
        raise RuleViolation("IC 27.42", f"this force has stopped for the phase ({force.stop_reason})")
    if not isinstance(target, str):
        raise RuleViolation("IC 27.22", "an overrun attacks one single hex")
    h = st.map.hex(target)
    here = force.hex(st)
    if any(st.unit(u).hex != here or not st.unit(u).on_map for u in force.units):
        raise RuleViolation("IC 27.2", "the overrunning units must be together in one hex")
    if not here.is_adjacent(h):
        raise RuleViolation("IC 27.33", f"overruns are made from the next hex; {target} is not adjacent to "
                                        f"{st.label(here)}")
    defenders = st.units_at(h, force.side.enemy)
    if not defenders:
        raise RuleViolation("IC 27.22", f"{target} holds no enemy units to overrun")
    check_overrun_size(st, force)
    left = force.remaining(st)
    if left < OVERRUN_COST:
        raise RuleViolation("IC 27.1", f"an overrun costs {OVERRUN_COST} extra movement points; the force has "
                                       f"{left} left")
    attackers = [st.unit(u) for u in force.units if not st.unit(u).parenthesized and st.unit(u).strength > 0]
    if not attackers:
        raise RuleViolation("IC 27.3", "no unit of the force has an attack strength")
    res = Resolution()
    for u in force.units:
        force.spent[u] += OVERRUN_COST
    res.add("IC 27.1", f"overrun declared from {st.label(here)} into {target}: {OVERRUN_COST} MP paid, "
            f"{force.remaining(st)} left", arithmetic=f"{left} - {OVERRUN_COST}")
    fort = st.has(h, "fortification") if fortified is None else fortified
    c = Combat(force.side, tuple(u.strength for u in attackers), tuple(u.strength for u in defenders),
               attack_enhanced=attack_enhanced, defence_enhanced=defence_enhanced, terrain=combat_terrain(st, h),
               fortified=fort, monsoon=st.monsoon, mode="overrun",
               attackers_all_light=all(u.counter.unit_class == "Light" for u in attackers))
    res.add("IC 27.31", f"the defenders' terrain ({combat_terrain(st, h)}) and fortification ({'yes' if fort else 'no'}) "
            f"count as in any combat")
    return c, [u.id for u in attackers], res


@implements("IC 27.4", "IC 27.41", "IC 27.42")
def end_overrun(st: IndochinaState, force: Force, code: str, advance: int, res: Resolution) -> None:
    """After the result: nobody advances (27.41); an attacker loss, retreat or No Effect stops the force
    (27.42), otherwise it may move on."""
    if advance:
        res.add("IC 27.41", "no advance after an overrun, whatever the result")
    force.overruns += 1
    survivors = [u for u in force.units if st.unit(u).on_map]
    _stop(force, code, survivors, "IC 27.42", res)


def overrun(st: IndochinaState, force: Force, target: str, table: str, dice: Dice, *,
            chosen_by: Side | None = None, fortified: bool | None = None, attack_enhanced: bool = False,
            defence_enhanced: bool = False, choices: dict | None = None,
            reading: Readings = Readings.ONE_THIRD) -> Resolution:
    """Attack one adjacent enemy hex in the middle of movement, in one call (the chapters' form; in play,
    :class:`~wargames.indochina.game.Game` asks for the CRT, the picks and the retreats).

    The force pays four extra movement points (27.1; it may overrun again while points last, 27.33),
    fights with the normal combat rules, terrain and fortification of the target (27.31) and the normal
    choice of CRT, one column further left (27.3). Nobody advances (27.41). An attacker loss, retreat or a
    No Effect ends the force's movement (27.42). ``fortified`` defaults to the map's fortification feature.
    """
    c, attackers, res = declare_overrun(st, force, target, fortified=fortified, attack_enhanced=attack_enhanced,
                                        defence_enhanced=defence_enhanced)
    resolve_combat(c, table, chosen_by or crt_chooser(c), dice, reading, res, charts=st.tables())
    code = res.result["result"]
    out = apply_result(st, code, attackers, target, table, choices)
    res.extend(out)
    end_overrun(st, force, code, out.result["advance"], res)
    survivors = [u for u in force.units if st.unit(u).on_map]
    res.result = {**res.result, "code": code, "advance": 0, "stopped": force.stopped,
                  "remaining": force.remaining(st) if survivors else Fraction(0)}
    return res


# ---------------------------------------------------------------------------------------------- 28: ambush

@dataclass
class AmbushLog:
    """The units that have declared an ambush in the current enemy Movement Phase (28.3)."""

    phasing: Side
    used: set[str] = field(default_factory=set)


@implements("IC 28.4")
def ambush_qualified(st: IndochinaState, label: str, side: Side) -> tuple[bool, str]:
    """28.4: may the ``side`` units in this hex ambush? All of them must be Light and the hex jungle, swamp
    or mountain (a hex mixing qualified and unqualified units may not), and one must have a ZOC."""
    h = st.map.hex(label)
    units = st.units_at(h, side)
    if not units:
        return False, f"{label} holds no {side.value} units"
    if st.terrain(h) not in AMBUSH_TERRAIN:
        return False, f"{label} is {st.terrain(h)}; ambushers must be in jungle, swamp or mountain"
    heavy = [u.id for u in units if u.counter.unit_class != "Light"]
    if heavy:
        return False, f"{', '.join(heavy)} {'is' if len(heavy) == 1 else 'are'} not Light; a hex mixing " \
                      f"qualified and unqualified units may not ambush"
    if not any(zoc_hexes(st, u) for u in units):
        return False, "none of the units has a zone of control"
    return True, "Light units in " + st.terrain(h)


@implements("IC 28.0", "IC 28.1", "IC 28.3", "IC 28.4")
def check_ambush(st: IndochinaState, moving: Sequence[str], came_from: str, ambush_hex: str, log: AmbushLog,
                 phase_kind: str = "movement") -> list[str]:
    """Raise unless the non-phasing player may ambush ``moving`` (already in its new hex) from ``ambush_hex``.

    Returns the ambushing units: every non-phasing unit in that one hex (28.1 names one hex; they all defend
    together, 13.12). The step must have gone straight from one non-phasing ZOC into another (28.1), in
    the phasing player's Movement Phase and not during retreats or advances (28.3), and no ambusher may have
    ambushed already this phase (28.3).
    """
    if phase_kind != "movement":
        raise RuleViolation("IC 28.3", f"ambushes happen only in the enemy Movement Phase, not during {phase_kind}")
    if not moving:
        raise RuleViolation("IC 28.1", "an ambush needs a moving force")
    us = [st.unit(u) for u in moving]
    if any(u.side is not log.phasing or not u.on_map for u in us) or len({u.hex for u in us}) != 1:
        raise RuleViolation("IC 28.1", "the ambushed force is phasing units together in the hex they entered")
    now, before = us[0].hex, st.map.hex(came_from)
    if not before.is_adjacent(now):
        raise RuleViolation("IC 28.1", f"{came_from} is not the hex next to {st.label(now)} the force came from")
    zoc = enemy_zoc(st, log.phasing)
    if not (before in zoc and now in zoc):
        raise RuleViolation("IC 28.1", f"the move {came_from} -> {st.label(now)} did not go from one "
                                       f"{log.phasing.enemy.value} ZOC into another")
    h = st.map.hex(ambush_hex)
    if not h.is_adjacent(now):
        raise RuleViolation("IC 28.1", f"the ambush is fought in {st.label(now)}; {ambush_hex} is not next to it")
    ok, why = ambush_qualified(st, ambush_hex, log.phasing.enemy)
    if not ok:
        raise RuleViolation("IC 28.4", why)
    ambushers = [u.id for u in st.units_at(h, log.phasing.enemy)]
    again = sorted(set(ambushers) & log.used)
    if again:
        raise RuleViolation("IC 28.3", f"{', '.join(again)} already ambushed this phase; each unit once a phase")
    return ambushers


@implements("IC 28.1", "IC 28.2")
def declare_ambush(st: IndochinaState, moving: Sequence[str], came_from: str, ambush_hex: str, log: AmbushLog, *,
                   phase_kind: str = "movement", attack_enhanced: bool = False,
                   defence_enhanced: bool = False,
                   fortified: bool | None = None) -> tuple[Combat, list[str], list[str], Resolution]:
    """The non-phasing player declares an ambush: the moving units must attack the ambushing hex, like an
    overrun but two columns left (28.2(1)) and at no movement cost (28.2(2)). Returns the combat, the
    attacking ids, the ambushers and the steps so far; the choice of CRT (13.31) and the roll come next."""
    uids = list(moving)
    ambushers = check_ambush(st, uids, came_from, ambush_hex, log, phase_kind)
    attackers = [st.unit(u) for u in uids if not st.unit(u).parenthesized and st.unit(u).strength > 0]
    if not attackers:
        raise RuleViolation("IC 28.1", "the moving units have no attack strength to fight the ambush with")
    log.used.update(ambushers)
    h = st.map.hex(ambush_hex)
    defenders = [st.unit(u) for u in ambushers]
    res = Resolution()
    res.add("IC 28.1", f"{log.phasing.enemy.value} ambush from {ambush_hex} ({', '.join(ambushers)}): "
            f"{', '.join(u.id for u in attackers)} must attack it; no movement points are spent (IC 28.2)")
    c = Combat(log.phasing, tuple(u.strength for u in attackers), tuple(u.strength for u in defenders),
               attack_enhanced=attack_enhanced, defence_enhanced=defence_enhanced, terrain=combat_terrain(st, h),
               fortified=st.has(h, "fortification") if fortified is None else fortified, monsoon=st.monsoon,
               mode="ambush",
               attackers_all_light=all(u.counter.unit_class == "Light" for u in attackers))
    return c, [u.id for u in attackers], ambushers, res


@implements("IC 28.5", "IC 28.51", "IC 28.52")
def end_ambush(st: IndochinaState, force: Force | None, code: str, advance: int, res: Resolution) -> bool:
    """After the result: nobody advances (28.51); an attacker loss, retreat or No Effect stops the moving
    force for the phase (28.52). Returns whether it stopped."""
    if advance:
        res.add("IC 28.51", "no advance after an ambush, whatever the result")
    stopped = code in STOPPING_RESULTS
    res.add("IC 28.52", f"the {code} result " + ("stops the moving force for this phase" if stopped
                                                  else "lets the moving force go on"))
    if force is not None:
        force.units = [u for u in force.units if st.unit(u).on_map]
        if stopped or not force.units:
            force.stopped, force.stop_reason = True, f"ambushed: {code}"
    return stopped


def ambush(st: IndochinaState, moving: Sequence[str] | Force, came_from: str, ambush_hex: str, log: AmbushLog,
           table: str, dice: Dice, *, chosen_by: Side | None = None, phase_kind: str = "movement",
           attack_enhanced: bool = False, defence_enhanced: bool = False, choices: dict | None = None,
           reading: Readings = Readings.ONE_THIRD) -> Resolution:
    """An ambush in one call (the chapters' form; in play the game asks for each decision). No advance
    (28.51); an attacker loss, retreat or No Effect stops the moving force for the phase (28.52). Pass a
    :class:`Force` to have it marked stopped."""
    force = moving if isinstance(moving, Force) else None
    uids = list(force.units if force else moving)
    c, attackers, ambushers, res = declare_ambush(st, uids, came_from, ambush_hex, log, phase_kind=phase_kind,
                                                  attack_enhanced=attack_enhanced,
                                                  defence_enhanced=defence_enhanced)
    resolve_combat(c, table, chosen_by or crt_chooser(c), dice, reading, res, charts=st.tables())
    code = res.result["result"]
    out = apply_result(st, code, attackers, ambush_hex, table, choices)
    res.extend(out)
    stopped = end_ambush(st, force, code, out.result["advance"], res)
    res.result = {**res.result, "code": code, "advance": 0, "stopped": stopped, "ambushers": ambushers}
    return res


# ---------------------------------------------------------------------------------------------- 29: intervention

INCREMENTS = {
    # name: (side declaring, earliest scenario start year, index raised, by how much, rule)
    "French Emergency Reinforcements": (Side.FEF, None, Side.FEF, -10, "IC 29.1"),
    "US Air-Naval Support": (Side.FEF, 1953, Side.COMMUNIST, 20, "IC 29.21a"),
    "US Ground Intervention": (Side.FEF, 1953, Side.COMMUNIST, 40, "IC 29.21a"),
    "US Atomic Bombs": (Side.FEF, 1953, Side.COMMUNIST, 50, "IC 29.21a"),
    "Chinese Limited Intervention": (Side.COMMUNIST, 1951, Side.FEF, 20, "IC 29.41"),
    "Chinese Full Intervention": (Side.COMMUNIST, 1953, Side.FEF, 40, "IC 29.41"),
}
US_PORT_HEXES = ("Tourane", "Da Nang", "Nha Trang", "Qui Nhon")     # 29.32
PORT_DELAY = 4                                                      # 29.21a(2), 29.32


@implements("IC 29.21a")
def atomic_bomb_supply(roll: int) -> int:
    """29.21a(3): one die gives the number of bombs: 1-2 one, 3-4 two, 5-6 three."""
    if not 1 <= roll <= 6:
        raise RuleViolation("IC 29.21a", f"{roll} is not a roll of one die")
    return (roll + 1) // 2


@dataclass
class Intervention:
    """Which intervention increments have been declared, and when (29.3: each at most once a game)."""

    declared: dict[str, int] = field(default_factory=dict)     # increment -> turn declared
    bombs: int = 0                                              # atomic bomb markers not yet used (30.5)

    @property
    def us_or_chinese(self) -> bool:
        """US or Chinese intervention is in effect (the World War Three event needs one, 29.5)."""
        return any(k.startswith(("US", "Chinese")) for k in self.declared)

    @property
    def chinese(self) -> bool:
        return any(k.startswith("Chinese") for k in self.declared)


@implements("IC 29.0", "IC 29.1", "IC 29.2", "IC 29.21a", "IC 29.21b", "IC 29.3", "IC 29.4", "IC 29.41",
            "IC 29.411", "IC 29.42")
def declare_intervention(record: Intervention, increment: str, points: PoliticalPoints, dice: Dice, *,
                         turn: int, scenario_year: int, phase_id: str, no_overflow_loss: bool = False) -> Resolution:
    """Declare one increment at the start of the declaring player's turn (its Mobilization Phase).

    Rolls for what arrives and changes the political indexes: the French emergency costs the FEF 10
    points it must have (29.1); US increments raise the Communist index by 20, 40 or 50 (29.21a); Chinese
    increments raise the FEF index by 20 or 40 (29.41). If that pushes the other index past 100, the index
    stops at 100 and the declaring player loses the excess (29.21b, 29.411); with ``no_overflow_loss`` (the
    optional variant) nobody loses it. ``result["receives"]`` lists what arrives.
    """
    if increment not in INCREMENTS:
        raise RuleViolation("IC 29.0", f"{increment!r} is not an intervention increment; one of {sorted(INCREMENTS)}")
    side, year, raised, amount, rule = INCREMENTS[increment]
    if phase_id != f"{side.value} Mobilization":
        raise RuleViolation(rule, f"{increment} is declared at the start of the {side.value} player turn "
                                  f"({side.value} Mobilization Phase), not in the {phase_id} Phase")
    if year is not None and scenario_year < year:
        raise RuleViolation(rule, f"{increment} needs a scenario starting in {year} or later, not {scenario_year}")
    if increment in record.declared:
        raise RuleViolation("IC 29.3", f"{increment} was already declared (turn {record.declared[increment]}); "
                                       f"each increment once a game")
    if side is Side.COMMUNIST and record.chinese:
        raise RuleViolation("IC 29.42", "only one of the two Chinese increments may be used in a game")
    res = Resolution()
    if increment == "French Emergency Reinforcements":
        if points.fef < 10:
            raise RuleViolation("IC 29.1", f"the French emergency costs 10 FEF political points; the FEF has {points.fef}")
        n = roll_die(dice, 6, "French emergency reinforcements")
        receives = {"French land/air units": n}
        points.spend(Side.FEF, 10, why="French Emergency Reinforcements (IC 29.1)")
        res.add("IC 29.1", f"roll {n}: {n} French land or air units to the staging area; FEF index -10 = {points.fef}",
                roll=n, result=n)
    else:
        if increment == "US Air-Naval Support":
            rolls = [roll_die(dice, 6, f"US air-naval support die {i + 1}") for i in range(4)]
            receives = {"airstrike/air transport groups": sum(rolls), "US naval strikes": 2, "airborne supply": 1}
            res.add(rule, f"four dice {rolls} = {sum(rolls)} air groups, plus 2 naval strikes and 1 airborne supply",
                    arithmetic=" + ".join(map(str, rolls)), result=sum(rolls))
        elif increment == "US Ground Intervention":
            n = roll_die(dice, 6, "US divisions")
            receives = {"US divisions": n, "US base": 1, "US cadre": 1, "US port marker from turn": turn + PORT_DELAY}
            res.add(rule, f"roll {n}: {n} US divisions, a US base and a US cadre; a port marker from turn "
                    f"{turn + PORT_DELAY}", roll=n, result=n)
        elif increment == "US Atomic Bombs":
            r = roll_die(dice, 6, "atomic bombs")
            n = atomic_bomb_supply(r)
            record.bombs += n
            receives = {"atomic bombs": n}
            res.add(rule, f"roll {r}: {n} atomic bomb marker{'s' if n > 1 else ''}", roll=r, result=n)
        elif increment == "Chinese Limited Intervention":
            receives = {"Chinese infantry divisions": 3}
            res.add(rule, "three Chinese infantry divisions, placed anywhere in China (IC 29.43)")
        else:
            receives = {"Chinese infantry divisions": 6, "Chinese base": 1}
            res.add(rule, "six Chinese infantry divisions and the Chinese base, placed in China (IC 29.43)")
        overflow_rule = "IC 29.21b" if side is Side.FEF else "IC 29.411"
        old = points.of(raised)
        excess = max(old + amount - CAP, 0)
        points.change(raised, gains=amount, why=increment)
        res.add(rule, f"{raised.value} index {old} + {amount} = {points.of(raised)}"
                + (f" (held at {CAP})" if excess else ""), result=points.of(raised))
        if excess and not no_overflow_loss:
            points.change(side, losses=excess, why=f"{increment}: the excess over {CAP}")
            res.add(overflow_rule, f"{excess} points over {CAP}: the {side.value} index loses them, "
                    f"now {points.of(side)}", arithmetic=f"{old} + {amount} - {CAP} = {excess}", result=excess)
        elif excess:
            res.add(overflow_rule, f"optional reading: the {excess} points over {CAP} are simply lost")
    record.declared[increment] = turn
    res.result = {"increment": increment, "receives": receives, "fef": points.fef, "communist": points.communist}
    return res


@implements("IC 29.32")
def check_us_port(record: Intervention, turn: int, town: str, effective_us_unit_there: bool) -> None:
    """29.32: the US port goes on Tourane (Da Nang), Nha Trang or Qui Nhon from the fourth FEF Mobilization
    Phase after Ground Intervention (turn declared + 4, our reading of the two timings), with a combat
    effective US unit in the hex."""
    if "US Ground Intervention" not in record.declared:
        raise RuleViolation("IC 29.32", "the US port marker comes only with US Ground Intervention")
    first = record.declared["US Ground Intervention"] + PORT_DELAY
    if turn < first:
        raise RuleViolation("IC 29.32", f"the US port may be placed from turn {first}, not turn {turn}")
    if town not in US_PORT_HEXES:
        raise RuleViolation("IC 29.32", f"the US port goes on Tourane (Da Nang), Nha Trang or Qui Nhon, not {town}")
    if not effective_us_unit_there:
        raise RuleViolation("IC 29.32", "a combat effective US unit must be in the hex when the port is placed")


@implements("IC 29.43")
def check_chinese_placement(st: IndochinaState, label: str) -> None:
    """29.43: Chinese intervention units are placed in any hex of China (the map's country attribute)."""
    country = st.map.info(st.map.hex(label)).attr("country")
    if country != "China":
        raise RuleViolation("IC 29.43", f"Chinese reinforcements are placed in China; {label} is in {country}")


@implements("IC 29.44")
def chinese_air_force(record: Intervention, dice: Dice, res: Resolution | None = None) -> int:
    """29.44: while Chinese intervention is in effect, one die at the start of each turn is the number of
    FEF air units grounded this turn (they return later). No roll otherwise."""
    if not record.chinese:
        return 0
    n = roll_die(dice, 6, "Chinese air force")
    if res is not None:
        res.add("IC 29.44", f"Chinese air force: {n} FEF air unit{'s' if n > 1 else ''} unavailable this turn", roll=n)
    return n


# ---------------------------------------------------------------------------------------------- 30: atomic bombs

@dataclass
class AtomicBombs:
    """Bombs dropped: the hexes hit each turn (30.3) and the fallout markers that stay for the game (30.5)."""

    fallout: set[str] = field(default_factory=set)
    hit: dict[int, set[str]] = field(default_factory=dict)


@implements("IC 30.0", "IC 30.3", "IC 30.5")
def drop_atomic_bomb(record: Intervention, bombs: AtomicBombs, label: str, turn: int) -> Resolution:
    """Use one bomb marker on a hex (30.1(1)). One bomb per hex per turn (30.3); the marker is used up and
    stays as fallout (30.5). The bomb's own result needs the Atomic Bomb Table, which the text does not
    print, so it is not rolled here."""
    if record.bombs <= 0:
        raise RuleViolation("IC 30.5", "no atomic bomb marker is left (bombs are not reused)")
    if label in bombs.hit.get(turn, set()):
        raise RuleViolation("IC 30.3", f"{label} was already bombed this turn; one atomic bomb per hex per turn")
    record.bombs -= 1
    bombs.hit.setdefault(turn, set()).add(label)
    bombs.fallout.add(label)
    res = Resolution()
    res.add("IC 30.3", f"atomic bomb on {label} (turn {turn}); {record.bombs} left")
    res.add("IC 30.5", f"the marker stays on {label} as fallout for the rest of the game")
    return res


@implements("IC 30.6")
def fallout(st: IndochinaState, bombs: AtomicBombs, dice: Dice, res: Resolution | None = None) -> dict[str, str]:
    """30.6, at the end of a turn: one die for each land unit in a fallout hex (our reading: per unit).
    1-3 disrupts it, or eliminates it if already disrupted (Death Commandos have no disrupted side, 25.3);
    4-6 leaves it alone. Returns unit id -> outcome."""
    res = res if res is not None else Resolution()
    out = {}
    for label in sorted(bombs.fallout):
        for u in sorted(st.units_at(st.map.hex(label)), key=lambda u: u.id):
            r = roll_die(dice, 6, f"fallout on {u.id}")
            if r >= 4:
                out[u.id] = "no effect"
            elif u.disrupted or u.counter.type == "death commando":
                u.eliminated = True
                out[u.id] = "eliminated"
            else:
                u.disrupted = True
                out[u.id] = "disrupted"
            res.add("IC 30.6", f"fallout roll {r} for {u.id} in {label}: {out[u.id]}", roll=r, result=out[u.id])
    return out


# ---------------------------------------------------------------------------------------------- 31: General Offensive

NO_MOBILIZATION = ("Viet Minh", "Pathet Lao", "Khmer Issarak", "VM", "PL", "KI")     # 31.22


@implements("IC 31.0", "IC 31.1", "IC 31.2", "IC 31.21", "IC 31.22", "IC 31.23")
@dataclass
class GeneralOffensive:
    """The Communist General Offensive / General Uprising: once a game (31.1), never in a scenario's last two
    turns (31.23). Its turn adds two dice to the Communist index and shifts Communist attacks one column
    right (31.21, use :meth:`active` for ``Combat.general_offensive``); the next turn the Communist player
    may not mobilize Viet Minh, Pathet Lao or Khmer Issarak units (31.22)."""

    turn_declared: int | None = None

    def declare(self, points: PoliticalPoints, dice: Dice, *, turn: int, total_turns: int,
                phase_id: str = "Communist Mobilization") -> Resolution:
        if self.turn_declared is not None:
            raise RuleViolation("IC 31.1", f"the General Offensive was already declared (turn {self.turn_declared}); "
                                           f"once a game")
        if phase_id != "Communist Mobilization":
            raise RuleViolation("IC 31.1", f"it is declared at the start of a Communist player turn, not in the "
                                           f"{phase_id} Phase")
        if not 1 <= turn <= total_turns:
            raise RuleViolation("IC 31.23", f"turn {turn} is not a turn of a {total_turns}-turn scenario")
        if turn > total_turns - 2:
            raise RuleViolation("IC 31.23", f"not in the last two turns of the scenario (turns {total_turns - 1} "
                                            f"and {total_turns}); this is turn {turn}")
        res = Resolution()
        a, b = roll_die(dice, 6, "General Offensive, die 1"), roll_die(dice, 6, "General Offensive, die 2")
        old = points.communist
        points.change(Side.COMMUNIST, gains=a + b, why="General Offensive/General Uprising (IC 31.21)")
        self.turn_declared = turn
        res.add("IC 31.21", f"dice {a} + {b} = {a + b} political points: Communist index {old} -> {points.communist}",
                arithmetic=f"{a} + {b} = {a + b}", result=a + b)
        res.add("IC 31.21", f"turn {turn}: Communist land attacks are shifted one column right")
        res.add("IC 31.22", f"turn {turn + 1}: no Viet Minh, Pathet Lao or Khmer Issarak mobilization")
        res.result = a + b
        return res

    def active(self, turn: int) -> bool:
        """Is this the General Offensive turn (31.21)?"""
        return self.turn_declared == turn

    def check_mobilization(self, turn: int, nationality: str) -> None:
        """31.22: raise if this Communist nationality may not mobilize on this turn."""
        if self.turn_declared is not None and turn == self.turn_declared + 1 and nationality in NO_MOBILIZATION:
            raise RuleViolation("IC 31.22", f"the turn after the General Offensive no {nationality} units mobilize")


@implements("IC 27.32")
def overrun_with_supply(st: IndochinaState, logistics, force: Force, target: str, table: str, dice: Dice, *,
                        attack_supply: bool = False, defence_supply: bool = False, **kw) -> Resolution:
    """27.32: either side may spend supply (within its line of supply) to double its units in an overrun."""
    from .logistics import attack_enhancement, defense_enhancement
    res = Resolution()
    if attack_supply:
        res.extend(attack_enhancement(st, logistics, force.side, force.hex(st)))
    if defence_supply:
        res.extend(defense_enhancement(st, logistics, force.side.enemy, target))
    out = overrun(st, force, target, table, dice, attack_enhanced=attack_supply,
                  defence_enhanced=defence_supply, **kw)
    res.extend(out)
    res.result = out.result
    return res
