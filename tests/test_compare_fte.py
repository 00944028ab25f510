"""The FTE comparison module: exact figures of the bunker assault, curve, worths and the representative
history case, the Verdict mapping (by hand and against played assaults), and that each modelled condition
moves P(taken). The exact assaults are cached in the module, so each is enumerated once per run."""
from dataclasses import replace
from fractions import Fraction as F

import pytest

from wargames.compare import Verdict, fte, measures
from wargames.core import RandomDice
from wargames.fte.assault import AssaultOutcome, assault, assault_distribution, outcome_of

#: one xdist worker runs every file of this group, so the curves and worths that wargames.compare memoises are
#: worked out once for all of them
pytestmark = pytest.mark.xdist_group("compare-figures")


TWO = (True, True)


def test_example_is_the_printed_assault():
    res = fte.example().resolution
    assert res.result == "unresolved"
    tq = [s for s in res.steps if s.rule == "F 8.0" and "TQ check for the assault" in s.text]
    assert [s.inputs["roll"] for s in tq] == [1, 3]


def test_engagement_headline_figures():
    e = fte.engagement()
    m = measures(e.dist)
    assert m["position taken"] == F(133289707106199, 1220703125000000)              # 10.9%
    assert m["defender retreats or routs"] == F(30532710367731, 305175781250000)
    assert m["defender suppressed"] == 0
    assert m["attacker falls back or routs"] == F(425722327762966291, 610351562500000000)
    assert m["attacker wiped out"] == F(360277713, 15625000000000)
    assert m["no effect"] == F(90465528920179833, 1220703125000000000)
    assert m["attacker loss (mean share)"] == F(48582746547243, 781250000000000)
    assert m["defender loss (mean share)"] == F(14921164574613, 244140625000000)
    assert sum(e.dist.values()) == 1
    assert e.dist.prob(lambda v: v.defender_fate == "eliminated") == F(446354625411, 48828125000000)
    assert all("F " in line for line in e.mapping) and e.force.startswith("steps")


def test_verdict_mapping_by_hand():
    two = TWO
    assert fte.verdict_of(AssaultOutcome("cleared", 0, 1, 1, 1), two) == \
        Verdict(True, F(1, 4), F(1), "stands", "eliminated")
    assert fte.verdict_of(AssaultOutcome("cleared", 0, 0, 0, 0), two) == \
        Verdict(True, F(0), F(0), "stands", "retreats")
    assert fte.verdict_of(AssaultOutcome("repulsed", 2, 0, 0, 1), two) == \
        Verdict(False, F(1, 2), F(1, 2), "retreats", "stands")
    assert fte.verdict_of(AssaultOutcome("repulsed", 1, 0, 0, 0), (False,)) == \
        Verdict(False, F(1), F(0), "eliminated", "stands")
    v = fte.verdict_of(AssaultOutcome("unresolved", 0, 0, 0, 0), two)
    assert v == Verdict(False, F(0), F(0), "stands", "stands") and v.no_effect


def test_mapping_agrees_with_played_assaults():
    """Play the engagement with random dice: the defender's fate the mapping reads from the markers is the one
    on the map (eliminated: off the map; retreats: broken, two hexes off), and a repulse leaves no attacker in
    the fight."""
    start = fte.position(TWO, "foxholes")
    dice = RandomDice(seed=5)
    seen = set()
    for _ in range(150):
        s = start.copy()
        run = assault(s, fte.plan(TWO), dice)
        v = fte.verdict_of(outcome_of(run, start), TWO)
        us = s.units[fte.US_TEAM]
        if v.taken:
            assert (us.hex is None) == (v.defender_fate == "eliminated")
            if us.hex is not None:
                assert us.broken and us.hex != s.hex(fte.BUNKER_HEX)
        else:
            assert us.hex == s.hex(fte.BUNKER_HEX)
        nva = [s.units[a] for a in fte.plan(TWO).attackers]
        if v.attacker_fate == "eliminated":
            assert all(u.hex is None for u in nva)
        if run.result == "repulsed":
            assert not run.fighting_attackers()
        seen.add((v.taken, v.defender_fate))
    assert {(True, "retreats"), (True, "eliminated"), (False, "stands")} <= seen


def test_each_condition_matters():
    one = (True,)
    bunker = fte.p_taken(one)
    assert bunker == F(6272014683297, 122070312500000)
    assert fte.p_taken(one, None) == F(4732682625711, 48828125000000) > bunker        # no cover at all
    assert fte.p_taken(one, "foxholes") == F(71735845166607, 976562500000000) > bunker  # +1 instead of +2
    assert fte.p_taken(one, tq=5) == F(1634172943473, 25000000000000) > bunker         # better NVA TQ
    no_opfire = replace(fte.plan(one), defender_opfire=())
    d, _ = assault_distribution(fte.position(one), no_opfire)
    assert d.prob(lambda o: o.result == "cleared") == F(59071844721, 976562500000) > bunker


def test_curve_points_and_monotone():
    c = fte.taking_curve()
    assert c.step is False
    assert c.xs == (F(3, 4), F(1), F(7, 4), F(2), F(3))
    assert c.ys == (F(838734173967, 30517578125000), F(6272014683297, 122070312500000),
                    F(215500015108213, 2441406250000000), F(133289707106199, 1220703125000000),
                    F(249371961285317, 1525878906250000))
    assert list(c.ys) == sorted(c.ys)
    assert c.ys[3] == measures(fte.engagement().dist)["position taken"]


def test_worths():
    w = {x.label: x for x in fte.worths()}
    assert set(w) == {"one DRM", "one morale point", "one more unit"}
    assert all(x.xs == (F(3, 4), F(1), F(2)) for x in w.values())
    assert w["one DRM"].deltas == (F(3921072090123, 244140625000000), F(21559727700231, 976562500000000),
                                   F(211572537828721, 4882812500000000))
    assert w["one morale point"].deltas == (F(14627825767987, 1953125000000000),
                                            F(218540210208609, 15625000000000000),
                                            F(2185320034987639, 78125000000000000))
    assert w["one more unit"].deltas == (F(148401281190853, 2441406250000000), F(70569560273229, 1220703125000000),
                                         F(331039309610273, 6103515625000000))
    assert all(d > 0 for x in w.values() for d in x.deltas)
    c = fte.taking_curve()
    assert w["one more unit"].deltas[2] == c.ys[4] - c.ys[3]          # two teams to three


def test_history():
    (case,) = fte.history()
    assert case.p_historical == F(4138081133746483, 4882812500000000)     # held, in foxholes: 84.7%
    assert case.p_changed == F(1957288603859997, 2441406250000000)        # held, in the open: 80.2%
    assert case.p_historical == 1 - fte.p_taken(TWO, "foxholes")
    assert "representative" in case.setting and case.sources
