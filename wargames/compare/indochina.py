"""Indochina's version of the common engagement: Viet Minh regiments attack a fortified FEF group (IC 13, IC 16).

Everything is exact: :func:`wargames.core.enumerate_outcomes` runs :func:`wargames.indochina.combat.resolve_combat`
on every face of the die, and each result is applied to the position by the engine's own
:func:`wargames.indochina.results.apply_result` (disruption, elimination, retreat into zones of control).

Losses count steps: a unit has two, its combat effective side and its disrupted side (IC 14.0); a disrupted unit
disrupted again is eliminated (IC 14.4). How each CRT result becomes a :class:`~wargames.compare.Verdict`, for
the force as it stands at the start (every unit combat effective):

- ``AE``: one attacking unit eliminated, the others disrupted: attacker ``suppressed`` (``eliminated`` if it was
  the only one), not taken.
- ``AD``: one attacking unit disrupted: attacker ``suppressed``. ``AR``: every attacker disrupted and back one
  hex: attacker ``retreats``.
- ``NE``: nothing. ``SK``: one defending unit disrupted: defender ``suppressed``. ``BB``: one unit on each side
  disrupted: both ``suppressed``. ``DD``: every defender disrupted: defender ``suppressed``.
- ``DR``: every defender disrupted and back one hex (eliminated if it can only retreat into a Viet Minh zone of
  control, IC 13.62, 14.4): defender ``retreats`` (or ``eliminated``); the attacker may advance: ``taken``.
- ``DE``: every defender eliminated, the attacker may advance: ``taken``, defender ``eliminated``.

``taken`` is exactly "the hex is cleared and the result lets the attackers advance" (IC 13.61). The FEF militia of
a town adds its strength to the defence (IC 17.23) but is no unit, so it counts in no loss share.
"""
from __future__ import annotations

import copy
from fractions import Fraction
from functools import lru_cache

from ..core import Distribution, Resolution, ScriptedDice, enumerate_outcomes
from ..indochina.combat import (TABLES, Combat, Side, combat_strengths, combat_terrain, crt_chooser, final_odds,
                                resolve_combat)
from ..indochina.counters import make_counter
from ..indochina.militia import defending_strengths
from ..indochina.results import apply_result, retreat_options
from ..indochina.scenarios import rulebook_scenario
from ..indochina.units import UnitState
from ..indochina.zoc import enemy_zoc
from . import Curve, Engagement, Example, HistoryCase, Verdict, Worth

GAME = "indochina"
#: Dong Khe on RC 4 (map hex 3509: a town in the mountains, with one point of FEF militia), Scenario 1.
DONG_KHE = "3509"
#: The engagement: four Viet Minh regiments (4+6 each), with one supply point's Attack Enhancement (IC 13.23).
REGIMENTS = 4
#: The curve: one to ten regiments, every other choice as in the engagement.
CURVE = tuple(range(1, 11))


@lru_cache(maxsize=None)
def _scenario():
    st, _points, _calendar, _sc = rulebook_scenario("scenario1")
    return st


def position(regiments: int = REGIMENTS):
    """Scenario 1's map and control (IC 38) with one French regular infantry group (5-6) in Dong Khe and
    ``regiments`` Viet Minh regular infantry regiments (4+6) in the hexes around it, one or more to a hex."""
    st = _fresh(_scenario())
    h = st.map.hex(DONG_KHE)
    group = make_counter(Side.FEF, "French", "regular infantry", "group", "FR reg inf gp 1")
    st.units[group.id] = UnitState(group, h)
    around = sorted(st.map.neighbors(h))
    for i in range(regiments):
        c = make_counter(Side.COMMUNIST, "Viet Minh", "regular infantry", "regiment", f"VM reg inf rgt {i + 1}")
        st.units[c.id] = UnitState(c, around[i % len(around)])
    return st


def _fresh(st):
    """A copy of the scenario's empty position with its own unit dictionary."""
    new = copy.copy(st)
    new.units = {}
    new.communist_cities = set(st.communist_cities)
    new.neutral_cities = set(st.neutral_cities)
    return new


def attackers(st) -> list[str]:
    return [u.id for u in st.units.values() if u.counter.side is Side.COMMUNIST]


def combat(st, *, fortified: bool = True, enhanced: bool = True, general_offensive: bool = False) -> Combat:
    """The land combat at Dong Khe from the position: the attackers' strengths, the defence with the town's
    militia (IC 17.23, via :func:`defending_strengths`), the town's terrain row (IC 13.21)."""
    h = st.map.hex(DONG_KHE)
    defence, militia_alone = defending_strengths(st, h)
    return Combat(Side.COMMUNIST, tuple(st.unit(a).strength for a in attackers(st)), defence,
                  attack_enhanced=enhanced, terrain=combat_terrain(st, h), fortified=fortified,
                  general_offensive=general_offensive, militia_alone=militia_alone)


def verdict(before, after, code: str) -> Verdict:
    """The :class:`Verdict` of one applied result: steps lost from each side's units, and the fates of the
    module docstring. ``before`` and ``after`` are the positions around :func:`apply_result`."""
    def steps(st, side):
        return sum(0 if u.eliminated else (1 if u.disrupted else 2)
                   for u in st.units.values() if u.counter.side is side)

    def units(st, side):
        return [u for u in st.units.values() if u.counter.side is side]

    out = {}
    for side in (Side.COMMUNIST, Side.FEF):
        start = steps(before, side)
        lost = Fraction(start - steps(after, side), start)
        us = units(after, side)
        if all(u.eliminated for u in us):
            fate = "eliminated"
        elif (side is Side.COMMUNIST and code == "AR") or (side is Side.FEF and code == "DR"):
            fate = "retreats"
        elif any(u.disrupted for u in us):
            fate = "suppressed"
        else:
            fate = "stands"
        out[side] = (lost, fate)
    taken = code in ("DE", "DR") and not after.units_at(after.map.hex(DONG_KHE), Side.FEF)
    return Verdict(taken, out[Side.COMMUNIST][0], out[Side.FEF][0], out[Side.COMMUNIST][1], out[Side.FEF][1])


def apply(st, code: str, table: str):
    """Apply a CRT result to a copy of ``st`` with the engine's own procedure. Each retreating unit takes the
    first hex it may enter outside the enemy's zones of control, or the first it may enter if none is (IC 13.62,
    14.4); each single-unit result hits the strongest unit (the chapters' default)."""
    after = st.copy()
    retreats = {}
    for uid, u in after.units.items():
        opts = retreat_options(after, uid)
        if opts:
            zoc = enemy_zoc(after, u.counter.side)
            retreats[uid] = next((o for o in opts if after.map.hex(o) not in zoc), opts[0])
    apply_result(after, code, attackers(after), DONG_KHE, table, {"retreats": retreats})
    return after


def fef_converts(c: Combat) -> bool:
    """IC 16.3(2): a fortified FEF defender may turn a DD into a BB; it always does, as BB costs the attacker a
    step and the defender no more than DD."""
    return c.defender is Side.FEF and c.fortified and not c.militia_alone


def outcome_on(table: str, regiments: int = REGIMENTS, **kw) -> Distribution:
    """The exact distribution of :class:`Verdict` for the combat on one CRT (whoever the chooser is)."""
    return _outcome_on(table, regiments, tuple(sorted(kw.items())))


@lru_cache(maxsize=None)
def _outcome_on(table: str, regiments: int, kw: tuple) -> Distribution:
    st = position(regiments)
    c = combat(st, **dict(kw))
    chooser = crt_chooser(c)
    convert = fef_converts(c)

    def one(dice):
        code = resolve_combat(c, table, chooser, dice, fef_converts_dd=convert).result["result"]
        return code

    codes = enumerate_outcomes(one)
    acc: dict = {}
    for code, p in codes.items():
        v = verdict(st, apply(st, code, table), code)
        acc[v] = acc.get(v, Fraction(0)) + p
    return Distribution(acc)


def chosen_table(regiments: int = REGIMENTS, **kw) -> str:
    """The CRT the player named by IC 13.31 picks: the FEF (defending a fortification) the one that leaves it
    the lower chance of losing the hex, then the one costing the attacker more; the Communist the one with
    the higher chance of taking it, then the one costing the defender more. Ties go to the Assault CRT."""
    c = combat(position(regiments), **kw)
    chooser = crt_chooser(c)

    def score(table):
        d = outcome_on(table, regiments, **kw)
        taken = d.prob(lambda v: v.taken)
        a = d.expectation(lambda v: v.attacker_loss)
        dl = d.expectation(lambda v: v.defender_loss)
        return (-taken, a) if chooser is Side.FEF else (taken, dl)

    return max(reversed(TABLES), key=score)          # Assault first: max keeps the first of equals


def outcome(regiments: int = REGIMENTS, **kw) -> Distribution:
    return outcome_on(chosen_table(regiments, **kw), regiments, **kw)


def p_taken(regiments: int = REGIMENTS, **kw) -> Fraction:
    return outcome(regiments, **kw).prob(lambda v: v.taken)


# --------------------------------------------------------------------------- the five public functions

def example() -> Example:
    """The rulebook's example of IC 13.31: 9 Communist factors against 3 FEF in a fortification; the FEF picks
    the Assault CRT (3/1 before shifts, 2/1 after the fortification's). The die (4) is ours."""
    c = Combat(Side.COMMUNIST, (9,), (3,), fortified=True)
    res = resolve_combat(c, "Assault", Side.FEF, ScriptedDice([4], source="chosen die"), res=Resolution())
    return Example(GAME, "The IC 13.31 example: a fortified FEF force chooses the Assault CRT", res)


def _mapping() -> tuple[str, ...]:
    mob = outcome_on("Mobile").prob(lambda v: v.taken)
    ass = outcome_on("Assault").prob(lambda v: v.taken)
    raw, final, _ = final_odds(combat(position()))
    return (
        "The position is Dong Khe on RC 4 (hex 3509 of the Scenario 1 map: a town in the mountains, read on the "
        "TEC's town row, one column left, IC 13.21), held by one French regular infantry group (5-6) with a "
        "fortification marker (one more column left, IC 16.3(1)).",
        "The town's FEF militia (1 point) adds its strength to the group's defence (IC 17.23): 6 in all.",
        f"The Viet Minh attack with {REGIMENTS} regular infantry regiments (4+6 each) from the hexes around it "
        "(IC 13.1, 13.12); a game regiment is the Viet Minh's combat unit, so the force is regiment-sized.",
        "The Viet Minh spend one supply point for Attack Enhancement, doubling their strength (IC 13.23), for "
        f"the artillery and supplies massed for the assault: odds {raw}, final column {final} (IC 13.2, 13.22).",
        "The FEF, defending a fortification, chooses the CRT (IC 13.31(1), 16.3(2)) and takes the one that leaves "
        f"it the lower chance of losing the hex: the Assault CRT (taken {ass}) rather than the Mobile CRT "
        f"(taken {mob}).",
        "A DD result is turned into BB by the fortified FEF defender, who always prefers it (IC 16.3(2)).",
        "The regiments stand in the hexes around Dong Khe in map order. Retreating units take a hex outside the "
        "enemy's zones of control if there is one; a defender that can only retreat into a Viet Minh zone of "
        "control is disrupted again there and eliminated (IC 13.62, 14.4).",
        "Losses count steps: two for each unit, one lost to disruption, both to elimination (IC 14.0, 14.4).",
    )


@lru_cache(maxsize=None)
def engagement() -> Engagement:
    """Four enhanced Viet Minh regiments against a fortified French group at Dong Khe, on the FEF's table."""
    return Engagement(GAME, "Four Viet Minh regiments assault a fortified French group at Dong Khe",
                      _mapping(), outcome(), force="steps (two per unit: combat effective, disrupted)")


def _x(regiments: int, **kw) -> Fraction:
    """The force ratio: the strengths the odds are figured from, enhancement included (IC 13.2, 13.23)."""
    a, d = combat_strengths(combat(position(regiments), **kw), Resolution())
    return Fraction(a, d)


@lru_cache(maxsize=None)
def taking_curve() -> Curve:
    """P(Dong Khe taken) against the enhanced attack strength over the defence (6), one to ten regiments; a
    step function of the odds columns (IC 13.2), on the table the FEF picks at each point."""
    return Curve(GAME, "Viet Minh attack strength (enhanced) to the FEF defence of 6",
                 tuple(_x(n) for n in CURVE), tuple(p_taken(n) for n in CURVE), step=True)


@lru_cache(maxsize=None)
def worths() -> list[Worth]:
    """At each point of the curve: one column shift to the right (the General Offensive's, IC 31.21, the only
    one a Communist attack on a fortified group can have) and one more regiment (4+6). The FEF picks its table
    again in each case."""
    xs = tuple(_x(n) for n in CURVE)
    base = [p_taken(n) for n in CURVE]
    shift = tuple(p_taken(n, general_offensive=True) - b for n, b in zip(CURVE, base))
    unit = tuple(p_taken(n + 1) - b for n, b in zip(CURVE, base))
    return [Worth(GAME, "one column shift", xs, shift), Worth(GAME, "one more unit", xs, unit)]


@lru_cache(maxsize=None)
def history() -> list[HistoryCase]:
    """Dong Khe, September 1950, in Scenario 1: the post as the scenario has it (no fortification marker: the
    scenario's five go to other border towns), attacked as in the engagement."""
    p = p_taken(REGIMENTS, fortified=False)
    table = chosen_table(REGIMENTS, fortified=False)
    return [HistoryCase(
        GAME, "Dong Khe, 16-18 September 1950",
        "The Viet Minh stormed the French post of Dong Khe on RC 4, between Cao Bang and That Khe, in mid-September "
        "1950, after a first capture and loss of the post in May. Its fall cut the road; in October the Cao Bang "
        "garrison's evacuation and the relief column sent to meet it were destroyed in the hills near Dong Khe "
        "(Coc Xa), the disaster of RC 4.",
        ("Bernard B. Fall, Street Without Joy (1961)",
         "Philippe Devillers, Histoire du Viêt-Nam de 1940 à 1952 (1952)"),
        "Scenario 1 (IC 38), first turn (September 1950): a French regular infantry group in Dong Khe with the "
        "town's militia, no fortification marker there (the scenario's five are at Mon Cai, Lang Son, Cao Bang, "
        f"Hai Giang and Lao Cay); {REGIMENTS} Viet Minh regiments with Attack Enhancement (IC 13.23); not "
        f"fortified, the Communist chooses the CRT (IC 13.31(2)) and takes the {table} CRT.",
        "Dong Khe taken in one combat (a DR or DE result, IC 13.61)", p,
        "a fortification marker at Dong Khe (IC 16.1, 16.3), letting the FEF choose the CRT",
        p_taken(REGIMENTS, fortified=True))]
