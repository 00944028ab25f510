"""Indochina 30.1-30.2 (the atomic attack on a reconstructed table) and 27.32 (supply in an overrun)."""
from fractions import Fraction

import pytest

from wargames.core import ScriptedDice, enumerate_outcomes
from wargames.core.errors import DataError, RuleViolation
from wargames.indochina import Side
from wargames.indochina.atomic import atomic_attack, load_atomic_table
from wargames.indochina.logistics import Logistics
from wargames.indochina.optional import AtomicBombs, Intervention, form_force, overrun_with_supply
from wargames.indochina.state import IndochinaState, demo_map
from wargames.indochina.units import Counter

from .test_indochina_logistics import road_position, unit

FEF, COM = Side.FEF, Side.COMMUNIST


def bombed(roll):
    st = IndochinaState.build(demo_map(), [(Counter("a", COM, "regular infantry", "regiment", 5, 6, 2, 4), "1717"),
                                           (Counter("b", COM, "regular infantry", "regiment", 5, 6, 2, 4), "1717")])
    st.unit("b").disrupted = True
    record = Intervention()
    record.bombs = 2
    res = atomic_attack(st, record, AtomicBombs(), "1717", 3, ScriptedDice([roll]))
    return st, res, record


@pytest.mark.rule("IC 30.1", "IC 30.2", "IC Atomic Bomb Table")
def test_atomic_attack_rolls_the_table_without_flak():
    st, res, record = bombed(1)
    assert st.unit("a").eliminated and st.unit("b").eliminated and record.bombs == 1
    assert any(s.rule == "IC 30.2" for s in res.steps)
    st, _, _ = bombed(3)
    assert st.unit("a").disrupted and not st.unit("a").eliminated and st.unit("b").eliminated
    st, _, _ = bombed(6)
    assert st.unit("a").disrupted and not st.unit("b").eliminated
    table = load_atomic_table()
    assert all(p.reconstructed for _, _, p in table.values())
    dist = enumerate_outcomes(lambda d: bombed_effect(d))
    assert dist["eliminate"] == Fraction(1, 3) and sum(dist.values()) == 1


def bombed_effect(dice):
    st = IndochinaState.build(demo_map(), [(Counter("a", COM, "regular infantry", "regiment", 5, 6, 2, 4), "1717")])
    record = Intervention()
    record.bombs = 1
    return atomic_attack(st, record, AtomicBombs(), "1717", 1, dice).result["effect"]


@pytest.mark.rule("IC 30.1")
def test_no_bomb_on_china_and_bad_table(tmp_path):
    st = IndochinaState.build(demo_map(), [(Counter("c", COM, "regular infantry", "regiment", 5, 6, 2, 4), "1610")])
    record = Intervention()
    record.bombs = 1
    with pytest.raises(RuleViolation) as e:
        atomic_attack(st, record, AtomicBombs(), "1610", 1, ScriptedDice([1]))
    assert e.value.rule == "IC 22.3"
    p = tmp_path / "bomb.yaml"
    p.write_text("name: t\nrule: IC 30.1\nresults:\n  1: {effect: vaporize, text: x}\n")
    with pytest.raises(DataError) as e:
        load_atomic_table(p)
    assert e.value.field == "results[1].effect"


@pytest.mark.rule("IC 27.32")
def test_overrun_with_supply_doubles_and_pays():
    st = road_position((unit("A", FEF, s=6, m=8), "0505"), (unit("VM", COM, s=6), "0605"))
    lg = Logistics({FEF: 1, COM: 0})
    force = form_force(st, ["A"])
    res = overrun_with_supply(st, lg, force, "0605", "Mobile", ScriptedDice([3]), attack_supply=True)
    assert lg.points[FEF] == 0 and res.result["raw"] == "2/1"          # 12 against 6
    with pytest.raises(RuleViolation) as e:                             # no points left
        overrun_with_supply(st, lg, form_force(road_position((unit("A", FEF, s=6, m=8), "0505"),
                                                            (unit("VM", COM), "0605")), ["A"]),
                            "0605", "Mobile", ScriptedDice([3]), attack_supply=True)
    assert e.value.rule.startswith("IC 15")
