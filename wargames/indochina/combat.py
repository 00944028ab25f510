"""Rule 13: land combat, with every column shift the rules name.

Procedure (13.2): total each side's strength (doubled by Attack or Defense Enhancement, 13.23), turn the
totals into odds (13.2(3)), take the starting column within the baseline limits (13.22), add up each
player's shifts (capped at five each, 13.21) and net them, pick the CRT (the chooser is fixed by 13.31),
roll one die and read the result.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from ..core import ColumnTable, Dice, Resolution, implements
from ..core.charts import odds_value
from ..core.errors import RuleViolation
from ..core.dice import roll_die
from ..core.copies import immutable
from .charts import RESULTS, shipped_charts
from .sides import Side

MAX_SHIFTS = 5          # per player per combat (13.21)
TOP_START = "7/1"       # 13.22: starting odds above 7/1 start at 7/1
TABLES = ("Mobile", "Assault")


class Readings(str, Enum):
    """How to read 13.22's lower baseline, which contradicts the printed 2/1 and 1/2 examples."""

    ONE_THIRD = "1/3"      # ours: "3/1" is a slip for "1/3"; odds below the lowest column start there
    LITERAL = "3/1"        # as printed: any starting odds below 3/1 start at 3/1


@immutable
@dataclass(frozen=True)
class Combat:
    """One land combat, described by what the rules ask about it."""

    attacker: Side
    attack: tuple[int, ...]                 # combat strength of each attacking unit
    defence: tuple[int, ...]                # combat strength of each defending unit
    attack_enhanced: bool = False           # 13.23 / 15.34: one supply point doubles the attackers
    defence_enhanced: bool = False          # 13.23 / 15.35
    terrain: str = "clear"                  # the defender's hex (13.21(1))
    fortified: bool = False                 # 13.21(2), 16.3
    monsoon: bool = False                   # 26.3(3)
    general_offensive: bool = False         # 31.21(2): the Communist General Offensive turn
    mode: str = "normal"                    # normal, overrun (27.3(3)) or ambush (28.2(1))
    death_commando: bool = False            # 25.1
    attackers_all_light: bool = False       # 20.1 / 13.31(1)
    french_defenders: bool = True           # 25.1: Death Commandos only against French units
    militia_alone: bool = False             # 17.231: FEF militia defending alone gets no enhancement

    @property
    def defender(self) -> Side:
        return self.attacker.enemy


@dataclass(frozen=True)
class Shift:
    player: str          # "attacker" (right) or "defender" (left)
    columns: int
    rule: str
    reason: str


@implements("IC 13.21")
def combat_terrain(st, h) -> str:
    """13.21(1): the terrain row of the TEC a defender in hex ``h`` uses. A city or town hex uses the TEC's
    city or town row (our reading: the town or city stands for the hex's terrain in combat, as the TEC lists
    them among the terrain types); any other hex, and an owner's TEC without those rows, its own terrain."""
    tec = st.tec()
    for urban in ("city", "town"):
        if st.has(h, urban) and urban in tec:
            return urban
    return st.terrain(h)


@implements("IC 13.1", "IC 13.12", "IC 13.23")
def combat_strengths(c: Combat, res: Resolution) -> tuple[int, int]:
    """Total each side (all defenders together, 13.12) and apply enhancement doubling (13.23)."""
    for name, values in (("attacking", c.attack), ("defending", c.defence)):
        if not values:
            raise RuleViolation("IC 13.1", f"a combat needs at least one {name} unit")
        bad = [v for v in values if not isinstance(v, int) or isinstance(v, bool) or v < 0]
        if bad:
            raise RuleViolation("IC 13.2", f"{name} strengths must be whole numbers of 0 or more, not {bad}")
    a, d = sum(c.attack), sum(c.defence)
    if a <= 0:
        raise RuleViolation("IC 13.2", "the attackers have no combat strength to attack with")
    res.add("IC 13.2", f"attack strength {' + '.join(map(str, c.attack))} = {a}; defence "
            f"{' + '.join(map(str, c.defence))} = {d}", arithmetic=f"{a} vs {d}")
    if c.attack_enhanced:
        a *= 2
        res.add("IC 13.23", f"Attack Enhancement doubles the attackers: {a}", arithmetic=f"{a // 2} x 2 = {a}")
    if c.defence_enhanced and c.militia_alone:
        raise RuleViolation("IC 17.231", "FEF militia defending alone may not be enhanced")
    if c.defence_enhanced:
        d *= 2
        res.add("IC 13.23", f"Defense Enhancement doubles the defenders: {d}", arithmetic=f"{d // 2} x 2 = {d}")
    return a, d


@implements("IC 13.2")
def raw_odds(attack: int, defence: int) -> tuple[str, str]:
    """13.2(3): drop the fraction when the attacker is stronger, round up when the defender is."""
    if attack <= 0 or defence < 0:
        raise RuleViolation("IC 13.2", f"odds need a positive attack and a defence of 0 or more, not {attack} against {defence}")
    if defence == 0:
        return "∞/1", f"{attack} against no defending strength: beyond any column"
    if attack >= defence:
        n = attack // defence
        ratio = Fraction(attack, defence)
        return f"{n}/1", f"{attack}/{defence} = {float(ratio):.2f}/1, fraction dropped: {n}/1"
    n = math.ceil(Fraction(defence, attack))
    return f"1/{n}", f"{defence}/{attack} = 1/{float(Fraction(defence, attack)):.2f}, rounded up: 1/{n}"


@implements("IC 13.21", "IC 13.9", "IC 16.3", "IC 20.1", "IC 25.0", "IC 25.1", "IC 25.2", "IC 26.3", "IC 27.3", "IC 28.2", "IC 31.21")
def shifts(c: Combat, charts: tuple | None = None) -> list[Shift]:
    """Every column shift that applies to this combat, each with its rule (``charts``: (Mobile, Assault, TEC))."""
    _, _, tec = charts or shipped_charts()
    out: list[Shift] = []
    if c.terrain not in tec:
        raise RuleViolation("IC 13.21", f"unknown terrain {c.terrain!r}; the TEC has {sorted(tec)}")
    t = tec[c.terrain]
    if t.heavy is None and t.light is None:
        raise RuleViolation("IC 13.9", f"no attack may go into {c.terrain.replace('_', ' ')} hexes")
    n = t.fef if c.defender is Side.FEF else t.communist
    if c.militia_alone:
        out.append(Shift("defender", 0, "IC 17.231", "FEF militia defending alone: no terrain shift"))
    elif c.attackers_all_light and c.attacker is Side.FEF and c.terrain in ("jungle", "mountain", "swamp"):
        out.append(Shift("defender", 0, "IC 20.1", f"FEF Light attackers: no {c.terrain} shift for Communist defenders"))
    elif n:
        out.append(Shift("defender", n, "IC 13.21", f"{c.defender.value} defender in {c.terrain} ({t.provenance.kind})"))
    if c.fortified:
        out.append(Shift("defender", 1, "IC 16.3", "fortification"))
    if c.monsoon:
        out.append(Shift("defender", 1, "IC 26.3", "monsoon"))
    if c.mode == "overrun":
        out.append(Shift("defender", 1, "IC 27.3", "overrun"))
    elif c.mode == "ambush":
        out.append(Shift("defender", 2, "IC 28.2", "ambush"))
    elif c.mode != "normal":
        raise RuleViolation("IC 13.21", f"a combat is normal, an overrun or an ambush, not {c.mode!r}")
    if c.general_offensive:
        if c.attacker is not Side.COMMUNIST:
            raise RuleViolation("IC 31.21", "the General Offensive shifts Communist attacks only")
        out.append(Shift("attacker", 1, "IC 31.21", "General Offensive/General Uprising"))
    if c.death_commando:
        if c.attacker is not Side.COMMUNIST:
            raise RuleViolation("IC 25.1", "Death Commandos are Communist units")
        if not c.french_defenders or not (c.fortified or c.terrain == "city"):
            raise RuleViolation("IC 25.1", "a Death Commando assault needs French defenders in a fortification or city")
        out.append(Shift("attacker", 1, "IC 25.1", "Death Commando assault (the commando is eliminated)"))
    return out


@implements("IC 13.22", "IC 13.21")
def final_column(raw: str, shift_list: list[Shift], table: ColumnTable, res: Resolution,
                 reading: Readings = Readings.ONE_THIRD) -> int:
    """Baseline (13.22), each player's shifts capped at five (13.21), netted, kept on the table."""
    labels = [col.label for col in table.columns]
    value = odds_value(raw) if not raw.startswith("∞") else odds_value(TOP_START) + 1
    if value > odds_value(TOP_START):
        start = labels.index(TOP_START)
        res.add("IC 13.22", f"starting odds {raw} are above 7/1: the baseline is 7/1")
    elif reading is Readings.LITERAL and value < 3:
        start = labels.index("3/1")
        res.add("IC 13.22", f"starting odds {raw} are below 3/1: read literally, the baseline is 3/1")
    elif value < odds_value(labels[0]):
        start = 0
        res.add("IC 13.22", f"starting odds {raw} are below the lowest column: the baseline is {labels[0]}")
    else:
        start = labels.index(raw)
        res.add("IC 13.2", f"starting column {raw}")
    right = sum(s.columns for s in shift_list if s.player == "attacker")
    left = sum(s.columns for s in shift_list if s.player == "defender")
    for s in shift_list:
        side = "right" if s.player == "attacker" else "left"
        res.add(s.rule, f"{s.reason}: {s.columns} {side}", result=s.columns)
    capped_r, capped_l = min(right, MAX_SHIFTS), min(left, MAX_SHIFTS)
    for n, capped, who in ((right, capped_r, "attacker"), (left, capped_l, "defender")):
        if n > capped:
            res.add("IC 13.21", f"the {who}'s {n} shifts are capped at {MAX_SHIFTS}", arithmetic=f"min({n}, 5)")
    net = capped_r - capped_l
    target = start + net
    final = min(max(target, 0), len(labels) - 1)
    text = f"net shift {net:+d}: {labels[start]} -> {labels[final]}"
    if final != target:
        text += f" (the table ends at {labels[final]}; {abs(target - final)} shift(s) have nowhere to go)"
    res.add("IC 13.21", text, arithmetic=f"{capped_r} right - {capped_l} left = {net:+d}", result=labels[final])
    return final


@implements("IC 13.3", "IC 13.31", "IC 16.3", "IC 20.1")
def crt_chooser(c: Combat) -> Side:
    """13.31: the FEF picks when defending a fortification or attacking with Light units only; else the Communist."""
    if c.defender is Side.FEF and c.fortified:
        return Side.FEF
    if c.attacker is Side.FEF and c.attackers_all_light:
        return Side.FEF
    return Side.COMMUNIST


@implements("IC 13.0", "IC 13.2", "IC 13.5")
def resolve_combat(c: Combat, table: str, chosen_by: Side, dice: Dice,
                   reading: Readings = Readings.ONE_THIRD, res: Resolution | None = None,
                   fef_converts_dd: bool = False, charts: tuple | None = None) -> Resolution:
    """Resolve one land combat on the chosen CRT. ``chosen_by`` must be the player 13.31 names; ``charts``
    (Mobile CRT, Assault CRT, TEC) default to the shipped ones."""
    charts = charts or shipped_charts()
    mobile, assault, _ = charts
    res = res or Resolution()
    if table not in TABLES:
        raise RuleViolation("IC 13.3", f"the CRT is Mobile or Assault, not {table!r}")
    chooser = crt_chooser(c)
    if chosen_by is not chooser:
        why = ("FEF forces defend a fortification" if chooser is Side.FEF and c.fortified else
               "all the FEF attackers are Light" if chooser is Side.FEF else
               "neither FEF exception applies (fortified FEF defence, all-Light FEF attack)")
        raise RuleViolation("IC 13.31", f"the {chooser.value} player chooses the CRT here ({why}), "
                                        f"not the {chosen_by.value} player")
    res.add("IC 13.31", f"the {chooser.value} player chooses the {table} CRT")
    crt = mobile if table == "Mobile" else assault
    a, d = combat_strengths(c, res)
    raw, how = raw_odds(a, d)
    res.add("IC 13.2", f"odds {how}", result=raw)
    col = final_column(raw, shifts(c, charts), crt, res, reading)
    roll, result = roll_on_crt(table, crt.columns[col].label, dice, res, charts)
    if result == "DD" and fef_converts_dd:
        if not (c.defender is Side.FEF and c.fortified):
            raise RuleViolation("IC 16.3", "only FEF units defending a fortification may turn a DD into a BB")
        result = "BB"
        res.add("IC 16.3", "the fortified FEF defender turns the DD into a BB")
    if c.death_commando:
        res.add("IC 25.1", "the Death Commando unit is eliminated, whatever the result")
    res.result = {"table": table, "raw": raw, "column": crt.columns[col].label, "roll": roll, "result": result}
    return res


@implements("IC 13.5")
def roll_on_crt(table: str, column: str, dice: Dice, res: Resolution | None = None,
                charts: tuple | None = None) -> tuple[int, str]:
    """Step 13.2(6): one die on the chosen table's column. Returns (roll, result code)."""
    mobile, assault, _ = charts or shipped_charts()
    crt = mobile if table == "Mobile" else assault
    roll = roll_die(dice, 6, "land combat")
    cell = crt.lookup(crt.index(column), roll)
    if res is not None:
        res.add("IC 13.5", f"roll {roll} on the {table} CRT at {column}: {cell.value} ({RESULTS[cell.value]})"
                + (" (reconstructed chart value)" if cell.provenance.reconstructed else ""), result=cell.value, roll=roll)
    return roll, cell.value


def final_odds(c: Combat, reading: Readings = Readings.ONE_THIRD,
               charts: tuple | None = None) -> tuple[str, str, Resolution]:
    """Raw and final columns without rolling (for the widgets and the printed odds examples)."""
    charts = charts or shipped_charts()
    mobile, _, _ = charts
    res = Resolution()
    a, d = combat_strengths(c, res)
    raw, how = raw_odds(a, d)
    res.add("IC 13.2", f"odds {how}", result=raw)
    col = final_column(raw, shifts(c, charts), mobile, res, reading)
    return raw, mobile.columns[col].label, res
