"""The NTND comparison module: exact figures of the engagement, curve, worths and Hue cases, the Verdict mapping,
and that each modelled condition moves P(taken)."""
from dataclasses import replace
from fractions import Fraction as F

import pytest

from wargames.compare import Verdict, measures, ntnd
from wargames.core import ScriptedDice
from wargames.ntnd.combat import Engaged, Hex, Support, resolve

#: one xdist worker runs every file of this group, so the curves and worths that wargames.compare memoises are
#: worked out once for all of them
pytestmark = pytest.mark.xdist_group("compare-figures")


def fight(b, *rolls):
    with ScriptedDice(list(rolls)) as d:
        return resolve(b, d).result


def test_example_is_the_printed_one():
    res = ntnd.example().resolution
    r = res.result
    assert (r.winner, r.double) == ("allied", False)
    assert res.find("NT 19.2")[-1].result == {"allied": F(27, 4), "communist": F(15, 2)}
    assert [s.arithmetic for s in res.find("NT 19.2.6") if "rolls" in s.text] == ["6.75 + 3 = 9.75",
                                                                                  "7.5 + 2 = 9.5"]


def test_engagement_headline_figures():
    e = ntnd.engagement()
    assert ntnd.totals(ntnd.battle()) == {"communist": 5, "allied": 4}
    m = measures(e.dist)
    assert m["position taken"] == F(7, 12)
    assert m["attacker wiped out"] == F(5, 12)
    assert m["attacker loss (mean share)"] == F(5, 12)
    assert m["defender loss (mean share)"] == F(47, 72)
    assert m["no effect"] == 0 and m["defender retreats or routs"] == 0
    assert dict(e.dist) == {Verdict(True, F(0), F(1), "stands", "eliminated"): F(7, 12),
                            Verdict(False, F(1), F(0), "eliminated", "stands"): F(5, 18),
                            Verdict(False, F(1), F(1, 2), "eliminated", "stands"): F(5, 36)}
    assert all("NT " in line for line in e.mapping)


def test_verdict_mapping_by_hand():
    b = ntnd.battle()
    # attacker wins (5+3 > 4+1): ARVN division lost, the firebase is destroyed retreating (19.3.7)
    assert ntnd.verdict_of(b, fight(b, 3, 1)) == Verdict(True, F(0), F(1), "stands", "eliminated")
    # tie (5+1 = 4+2): both lose their one ground unit, the firebase holds
    assert ntnd.verdict_of(b, fight(b, 1, 2)) == Verdict(False, F(1), F(1, 2), "eliminated", "stands")
    # the defender wins (5 + 1 against 4 + 6 = 10: not twice): the lone division is lost
    assert ntnd.verdict_of(b, fight(b, 1, 6)) == Verdict(False, F(1), F(0), "eliminated", "stands")
    # three divisions, no artillery: 4 + 2 (three to one, 19.2.4) + 1 = 7 against 4 + 6 = 10: one of three is
    # lost and the others retreat
    three = ntnd.battle(ntnd.nva_divisions(3), 0)
    assert ntnd.totals(three)["communist"] == 6
    r = fight(three, 1, 6)
    assert (r.winner, r.double) == ("allied", False)
    assert ntnd.verdict_of(three, r) == Verdict(False, F(1, 3), F(0), "retreats", "stands")
    # a loser with units left retreats: the attacker wins against a defence of two ground units
    wide = replace(b, defenders=b.defenders + (Engaged("SVN militia 1", "militia", "SVN", 1),))
    r = fight(wide, 3, 3)            # 5 + 3 = 8 against 3/2 + 1 + 1 + 1 (two to one) + 3 = 15/2
    assert r.winner == "communist" and not r.double
    assert ntnd.verdict_of(wide, r) == Verdict(True, F(0), F(2, 3), "stands", "retreats")


def test_each_condition_matters():
    base = ntnd.p_taken(ntnd.battle())
    assert base == F(7, 12)
    assert ntnd.p_taken(ntnd.battle(firebase=False)) == F(13, 18)       # no firebase: 5 against 3
    assert ntnd.p_taken(ntnd.battle(terrain="clear")) == F(13, 18)      # no jungle: 5 against 3
    assert ntnd.p_taken(ntnd.battle(artillery=0)) == F(5, 12)          # no NVA artillery: 4 against 4
    assert ntnd.p_taken(ntnd.battle(terrain="mountain")) == F(5, 12)   # +2 instead of +1: 5 against 5


def test_curve_points_and_monotone():
    c = ntnd.taking_curve()
    assert c.step is False
    assert c.xs == (F(1, 2), F(3, 4), F(1), F(5, 4), F(3, 2), F(7, 4), F(2), F(9, 4))
    assert c.ys == (F(1, 6), F(5, 18), F(5, 12), F(7, 12), F(13, 18), F(5, 6), F(11, 12), F(35, 36))
    assert list(c.ys) == sorted(c.ys) and list(c.xs) == sorted(c.xs)
    assert c.ys[3] == measures(ntnd.engagement().dist)["position taken"]


def test_worths():
    w = {x.label: x for x in ntnd.worths()}
    assert set(w) == {"one DRM", "one morale point", "one more unit"}
    drm = (F(1, 9), F(5, 36), F(1, 6), F(5, 36), F(1, 9), F(1, 12), F(1, 18), F(1, 36))
    assert w["one DRM"].deltas == drm
    # a fraction of a point breaks every tie the attacker's way: for P(taken) it is worth a whole point
    assert w["one morale point"].deltas == drm
    # one more division: an average that rises from a weaker unit, and the 19.2.4 bonus; nothing past three
    assert w["one more unit"].deltas == (F(1, 4), F(11, 36), F(1, 6), F(5, 36), F(1, 9), 0, 0, 0)


def test_morale_point_is_diluted_for_the_double():
    b = ntnd.battle(ntnd.nva_divisions(2), 1)
    more = ntnd.with_one_morale_point(b)
    assert ntnd.totals(more)["communist"] == ntnd.totals(b)["communist"] + F(1, 2)


def test_history():
    attack, counter = ntnd.history()
    assert (attack.p_historical, attack.p_changed) == (F(5, 18), F(1, 12))
    assert (counter.p_historical, counter.p_changed) == (F(5, 12), F(1, 6))
    assert ntnd.totals(ntnd.hue_attack()) == {"communist": 3, "allied": F(9, 2)}
    assert ntnd.totals(ntnd.hue_counterattack()) == {"allied": F(11, 2), "communist": 6}
    # Hue's terrain from the map: city +2 and jungle +1; the fleet's +1 and the outnumbering +1 each matter
    assert ntnd.p_taken(replace(ntnd.hue_attack(), defender_hex=Hex("jungle"))) > attack.p_historical
    assert ntnd.p_taken(ntnd.hue_counterattack(support=())) < counter.p_historical
    assert ntnd.p_taken(ntnd.hue_counterattack(attackers=(ntnd.USMC_1, ntnd.USMC_5, ntnd.TET_ARVN))) \
        < counter.p_historical
    assert all(c.sources for c in (attack, counter))
    assert isinstance(ntnd.FLEET, Support)
