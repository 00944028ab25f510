"""Citadel in the common vocabulary: the B-2 engagement's exact figures, the curve, the worths and history."""
from fractions import Fraction as F

import pytest

from wargames.citadel.melee import MeleeOutcome
from wargames.compare import FATES, Verdict, measures, summarise
from wargames.compare import citadel as ci

#: one xdist worker runs every file of this group, so the curves and worths that wargames.compare memoises are
#: worked out once for all of them
pytestmark = pytest.mark.xdist_group("compare-figures")


ALL_FREE = (("1/141", "N3312", 14, False, 0, False), ("2/141", "N3314", 14, False, 0, False),
            ("3/141", "N3412", 14, False, 0, False))


def test_engagement_headline_figures():
    e = ci.engagement()
    assert e.game == "citadel" and e.force == "strength points" and len(e.mapping) >= 6
    assert all("C " in m for m in e.mapping)
    assert sum(e.dist.values()) == 1
    assert measures(e.dist) == {
        "position taken": F(791, 1296),
        "defender retreats or routs": F(791, 1296),
        "defender suppressed": F(0),
        "attacker falls back or routs": F(8, 81),
        "attacker wiped out": F(0),
        "no effect": F(0),
        "attacker loss (mean share)": F(1133, 54432),
        "defender loss (mean share)": F(4609, 23328),
    }


def test_engagement_fates():
    s = summarise(ci.engagement().dist)
    assert s.attacker_fates == {"stands": F(25, 36), "suppressed": F(67, 324), "retreats": F(127, 1296),
                                "routed": F(1, 1296), "eliminated": F(0)}
    assert s.defender_fates == {"stands": F(505, 1296), "suppressed": F(0), "retreats": F(305, 648),
                                "routed": F(181, 1296), "eliminated": F(0)}


def test_approach_fire_pins_one_battalion_in_six_and_a_pinned_battalion_stays_out():
    d = ci.approach_dist((14, 14, 14), 0, 0, ci.GARRISON)
    pinned = d.prob(lambda after: any(a[5] for a in after))
    assert pinned == 1 - F(5, 6) ** 2             # one 1P on the 3-4 column, for each of the two shots (C 9)
    one_pinned = next(a for a in d if a[0][5] and not a[1][5])
    assert ci.attackers(one_pinned) == ["2/141", "3/141"]      # the pinned 1st never reaches the wire (C 8)
    assert one_pinned[0][1] == "N3311" and one_pinned[0][2] == 13


def test_verdict_mapping_on_hand_picked_results():
    s = (14, 14, 14)
    v = ci.verdict(s, ALL_FREE, MeleeOutcome("defender routed", 0, 0, True))
    assert v == Verdict(True, F(0), F(0), "stands", "routed")
    v = ci.verdict(s, ALL_FREE, MeleeOutcome("attacker retreats", 2, 0, False))
    assert v == Verdict(False, F(2, 42), F(0), "retreats", "stands")
    v = ci.verdict(s, ALL_FREE, MeleeOutcome("defender retreats", 1, 6, True))
    assert v == Verdict(True, F(1, 42), F(1), "stands", "eliminated")
    v = ci.verdict(s, ALL_FREE, MeleeOutcome("both routed", 0, 0, False))
    assert (v.attacker_fate, v.defender_fate) == ("routed", "routed")
    one_pinned = (("1/141", "N3311", 13, False, 1, True),) + ALL_FREE[1:]
    v = ci.verdict(s, one_pinned, MeleeOutcome("neither", 1, 1, False))
    assert v == Verdict(False, F(2, 42), F(1, 6), "suppressed", "stands")
    pinned = tuple((u, vp, 13, False, 1, True) for u, vp in (("1/141", "N3311"), ("2/141", "N3315")))
    v = ci.verdict((14, 14), pinned, None)               # no battalion reached the wire: no melee
    assert v == Verdict(False, F(2, 28), F(0), "suppressed", "stands")
    assert v.attacker_fate in FATES


def test_curve_is_a_monotone_step_function():
    c = ci.taking_curve()
    assert c.step and c.game == "citadel"
    assert c.xs == (F(1), F(3, 2), F(7, 3), F(23, 6), F(14, 3), F(7), F(28, 3))
    assert c.ys == (F(0), F(0), F(5, 216), F(245, 1944), F(5, 18), F(791, 1296), F(77, 108))
    assert list(c.ys) == sorted(c.ys)


def test_worths():
    w = {x.label: x for x in ci.worths()}
    assert set(w) == {"one column shift", "one more unit", "one morale point"}
    assert w["one column shift"].deltas == (F(0), F(0), F(85, 648), F(85, 648), F(1165, 7776), F(557, 3888),
                                            F(361, 2592))
    assert w["one more unit"].deltas == (F(245, 1944), F(245, 1944), F(55, 216), F(221, 486), F(431, 1296),
                                         F(133, 1296), F(1, 108))
    assert w["one morale point"].deltas == (F(5, 216), F(5, 216), F(5, 108), F(415, 7776), F(35, 648),
                                            F(83, 1944), F(73, 1944))
    assert all(d >= 0 for x in w.values() for d in x.deltas)


def test_each_condition_matters():
    base = ci.p_taken()
    assert ci.p_taken(shift=1) > base                     # the strongpoint's melee shift (C 14)
    assert ci.p_taken(morale=1) > base                    # the attackers' morale (C 11.C.2-3)
    assert ci.p_taken(garrison=ci.RTA) > base             # weaker defenders (morale 3 against 4)
    assert ci.p_taken((14, 14)) < base < ci.p_taken((14, 14, 14, 14))


def test_history():
    b, g = ci.history()
    assert (b.p_historical, b.p_changed) == (F(791, 1296), F(5, 216))
    assert (g.p_historical, g.p_changed) == (F(2753, 3888), F(5, 36))
    for h in (b, g):
        assert h.game == "citadel" and len(h.sources) == 2 and "C Sc 1" in h.setting


def test_example_is_the_engines_resolution():
    ex = ci.example()
    texts = [s.text for s in ex.resolution.steps]
    rules = ex.resolution.rules()
    assert {"C 8", "C 9", "C 11", "C 13"} <= set(rules)
    assert "roll 1 on 3-4: 1P (reconstructed chart value)" in texts
    assert "1/141, 3/141 attack N3313 in melee" in texts
    assert "morale checks: defender 2 + 4 = 6; attacker 5 + 4 +1 for the raw odds = 10" in texts
    assert "odds recomputed without routed units: 28:6 -> 4:1, shifted -2 -> 2:1" in texts
    assert any(t.startswith("roll 3 on 2:1") for t in texts)


@pytest.mark.parametrize("strength,inverted,losses", [(14, False, 0), (10, False, 4), (9, True, 0), (6, True, 3)])
def test_battalion_strengths_follow_the_critical_loss_level(strength, inverted, losses):
    st = ci.position((strength,))
    u = st.unit("1/141")
    assert (u.strength, u.inverted, u.losses) == (strength, inverted, losses)


# last: it changes the set-up and clears the caches
@pytest.fixture
def fresh():
    yield
    ci.clear_caches()


def test_the_approach_fire_matters(monkeypatch, fresh):
    base = ci.p_taken()
    monkeypatch.setattr(ci, "LANES", tuple((u, None, at) for u, _vp, at in ci.LANES))
    ci.clear_caches()
    assert ci.p_taken() > base
