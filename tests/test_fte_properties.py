"""Property tests for FTE fire: naturals, monotone DRMs, exact odds equal to seeded sampling."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from wargames.core import RandomDice, Resolution, ScriptedDice, enumerate_outcomes
from wargames.fte.checks import Drm, roll_against
from wargames.fte.fire import FireOutcome, roll_to_hit
from wargames.fte.examples import fire_example

drm_lists = st.lists(st.integers(-6, 6), max_size=5).map(lambda vs: [Drm(v, "F 7.1", "test") for v in vs])


@pytest.mark.rule("F 7.1", "F 1.2")
@given(st.integers(1, 9), drm_lists)
def test_a_natural_one_always_hits_and_a_natural_ten_always_misses(rating, drms):
    assert roll_against(rating, 1, drms) is True
    assert roll_against(rating, 10, drms) is False


def p_hit(rating, drms):
    s = fire_example()

    def shot(dice):
        out = FireOutcome("NVA FT", ("US FT",), tuple(drms), rating, column="small_arms")
        return roll_to_hit(s, out, dice, Resolution(), effect=False)
    return enumerate_outcomes(shot)[True]


@pytest.mark.rule("F 7.1")
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), drm_lists, st.integers(1, 4))
def test_adding_a_penalty_never_raises_the_chance_to_hit(rating, drms, penalty):
    before = p_hit(rating, drms)
    after = p_hit(rating, drms + [Drm(penalty, "F 7.1", "penalty")])
    assert after <= before
    assert Fraction(1, 10) <= after <= Fraction(9, 10)


@pytest.mark.rule("F 7.1", "F 7.4")
def test_exact_shot_distribution_matches_seeded_sampling():
    s = fire_example()

    def shot(dice):
        st = s.copy()
        out = FireOutcome("NVA FT", ("US FT",), (Drm(1, "F 7.1", "net"),), 4, column="small_arms")
        roll_to_hit(st, out, dice, Resolution())
        return out.effect if out.hit else "miss"
    exact = enumerate_outcomes(shot)
    assert sum(exact.values()) == 1 and exact["miss"] == Fraction(7, 10)
    dice = RandomDice(68)
    n = 4000
    counts = {}
    for _ in range(n):
        r = shot(dice)
        counts[r] = counts.get(r, 0) + 1
    for k, p in exact.items():
        assert abs(counts.get(k, 0) / n - float(p)) < 0.03
