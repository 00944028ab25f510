"""Indochina in the common vocabulary: the Dong Khe engagement's exact figures, the curve, the worths, history."""
from fractions import Fraction as F

import pytest

from wargames.compare import Verdict, measures, summarise
from wargames.compare import indochina as ic
from wargames.indochina.combat import Side, crt_chooser

#: one xdist worker runs every file of this group, so the curves and worths that wargames.compare memoises are
#: worked out once for all of them
pytestmark = pytest.mark.xdist_group("compare-figures")


def test_engagement_headline_figures():
    e = ic.engagement()
    assert e.game == "indochina" and e.force.startswith("steps") and len(e.mapping) >= 6
    assert all("IC " in m for m in e.mapping)
    assert any("Assault CRT (taken 1/6) rather than the Mobile CRT (taken 1/2)" in m for m in e.mapping)
    assert any("odds 5/1, final column 3/1" in m for m in e.mapping)
    assert measures(e.dist) == {
        "position taken": F(1, 6),
        "defender retreats or routs": F(0),
        "defender suppressed": F(2, 3),
        "attacker falls back or routs": F(0),
        "attacker wiped out": F(0),
        "no effect": F(1, 6),
        "attacker loss (mean share)": F(1, 12),
        "defender loss (mean share)": F(1, 2),
    }


def test_engagement_fates():
    s = summarise(ic.engagement().dist)
    assert s.attacker_fates == {"stands": F(1, 3), "suppressed": F(2, 3), "retreats": 0, "routed": 0, "eliminated": 0}
    assert s.defender_fates == {"stands": F(1, 6), "suppressed": F(2, 3), "retreats": 0, "routed": 0,
                                "eliminated": F(1, 6)}


def test_the_fef_chooses_and_picks_the_assault_crt():
    c = ic.combat(ic.position())
    assert crt_chooser(c) is Side.FEF and c.defence == (5, 1)      # the group and the town's militia (IC 17.23)
    assert ic.chosen_table() == "Assault"
    assert ic.outcome_on("Mobile").prob(lambda v: v.taken) == F(1, 2)
    assert ic.outcome_on("Assault").prob(lambda v: v.taken) == F(1, 6)


def test_dd_becomes_bb_for_the_fortified_fef():
    # Assault 3/1: NE BB BB DD DD DE; with DD turned into BB, 2/3 of the results are BB (IC 16.3(2))
    d = ic.outcome_on("Assault")
    bb = Verdict(False, F(1, 8), F(1, 2), "suppressed", "suppressed")
    assert d[bb] == F(2, 3)
    assert ic.fef_converts(ic.combat(ic.position()))
    assert not ic.fef_converts(ic.combat(ic.position(), fortified=False))


@pytest.mark.parametrize("code,table,expected", [
    ("DE", "Assault", Verdict(True, F(0), F(1), "stands", "eliminated")),
    # the retreat's only hexes lie in the Viet Minh zones of control: disrupted twice, eliminated (IC 14.4)
    ("DR", "Mobile", Verdict(True, F(0), F(1), "stands", "eliminated")),
    ("SK", "Mobile", Verdict(False, F(0), F(1, 2), "stands", "suppressed")),
    ("AD", "Assault", Verdict(False, F(1, 8), F(0), "suppressed", "stands")),
    ("AE", "Assault", Verdict(False, F(5, 8), F(0), "suppressed", "stands")),   # 2 + 3 of 8 steps
    ("NE", "Mobile", Verdict(False, F(0), F(0), "stands", "stands")),
])
def test_verdict_mapping(code, table, expected):
    st = ic.position()
    assert ic.verdict(st, ic.apply(st, code, table), code) == expected


def test_ar_and_a_lone_attackers_ae():
    st = ic.position()
    v = ic.verdict(st, ic.apply(st, "AR", "Mobile"), "AR")
    assert v.attacker_fate == "retreats" and not v.taken and v.attacker_loss >= F(1, 2)
    one = ic.position(1)
    v = ic.verdict(one, ic.apply(one, "AE", "Assault"), "AE")
    assert v == Verdict(False, F(1), F(0), "eliminated", "stands") and v.attacker_wiped


def test_curve_is_a_monotone_step_function_with_the_7_to_1_ceiling():
    c = ic.taking_curve()
    assert c.step and c.xs == tuple(F(8 * n, 6) for n in range(1, 11))
    assert c.ys == (0, 0, 0, F(1, 6), F(1, 3), F(1, 2), F(1, 2), F(1, 2), F(1, 2), F(1, 2))
    assert list(c.ys) == sorted(c.ys)
    assert all(ic.chosen_table(n) == "Assault" for n in ic.CURVE)


def test_worths():
    w = {x.label: x for x in ic.worths()}
    assert w["one column shift"].deltas == (0, 0) + (F(1, 6),) * 8
    assert w["one more unit"].deltas == (0, 0, F(1, 6), F(1, 6), F(1, 6), 0, 0, 0, 0, 0)


def test_each_condition_matters():
    base = ic.p_taken()
    assert ic.p_taken(fortified=False) > base              # the fortification's shift and the FEF's choice
    assert ic.p_taken(enhanced=False) < base               # Attack Enhancement (IC 13.23)
    assert ic.p_taken(general_offensive=True) > base       # one column right (IC 31.21)
    assert ic.chosen_table(fortified=False) == "Mobile"    # the Communist chooses when unfortified (IC 13.31(2))


def test_history():
    (h,) = ic.history()
    assert h.game == "indochina" and "IC 38" in h.setting and "Mobile CRT" in h.setting
    assert (h.p_historical, h.p_changed) == (F(2, 3), F(1, 6))


def test_example_is_the_printed_13_31_case():
    ex = ic.example()
    texts = [s.text for s in ex.resolution.steps]
    assert texts[0] == "the FEF player chooses the Assault CRT"
    assert "odds 9/3 = 3.00/1, fraction dropped: 3/1" in texts
    assert ex.resolution.result["column"] == "2/1" and ex.resolution.result["result"] == "BB"


def test_a_retreat_avoids_the_enemy_zone_of_control_when_it_can():
    one = ic.position(1)                    # one regiment in 3408: 3510 is free of its zone of control
    after = ic.apply(one, "DR", "Mobile")
    g = after.unit("FR reg inf gp 1")
    assert after.label(g.hex) == "3510" and g.disrupted and not g.eliminated
    assert ic.verdict(one, after, "DR") == Verdict(True, F(0), F(1, 2), "stands", "retreats")
