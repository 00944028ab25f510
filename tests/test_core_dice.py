"""Tests for wargames.core.dice and wargames.core.dist: injectable dice and exact distributions."""
from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargames.core.dice import Dice, RandomDice, ScriptedDice
from wargames.core.dist import Distribution, enumerate_outcomes
from wargames.core.errors import DataError

F = Fraction


# --------------------------------------------------------------------------- procedures used below

def two_d6(dice):
    return dice.roll(6, "first die") + dice.roll(6, "second die")


def d6_then_d4_on_six(dice):
    """Roll a d6; on a 6 add a d4 (a conditional extra roll with a different die size)."""
    v = dice.roll(6, "base")
    if v == 6:
        v += dice.roll(4, "bonus")
    return v


def hit_then_kill(dice, to_hit=4, kill_sides=10):
    """A two-stage combat: hit on to_hit+ on a d6, then a d10 (or other) decides kill / damage."""
    if dice.roll(6, "to hit") < to_hit:
        return "miss"
    return "kill" if dice.roll(kill_sides, "effect") >= kill_sides - 2 else "damaged"


def reroll_ones(dice):
    """Re-roll a 1 once; the die size of the re-roll depends on nothing but the first roll."""
    v = dice.roll(8, "first")
    if v == 1:
        v = dice.roll(8, "re-roll")
    return v


# =========================================================================== ScriptedDice

def test_scripted_dice_returns_the_script():
    d = ScriptedDice([4, 1, 6, 2])
    assert [d.roll(6), d.roll(6, "x"), d.roll(6), d.roll(10)] == [4, 1, 6, 2]
    assert d.used == 4
    assert d.remaining == []
    assert d.log == [(6, 4, ""), (6, 1, "x"), (6, 6, ""), (10, 2, "")]
    d.finish()


def test_scripted_dice_satisfies_the_protocol():
    assert isinstance(ScriptedDice([]), Dice)
    assert isinstance(RandomDice(1), Dice)


def test_scripted_dice_exhausted_names_roll_and_why():
    d = ScriptedDice([3, 5], source="Anne-Marie example")
    d.roll(6)
    d.roll(6)
    with pytest.raises(DataError) as ei:
        d.roll(6, "melee")
    err = ei.value
    assert err.file == "Anne-Marie example"
    assert "roll 3" in err.field
    assert "melee" in err.field
    assert "run out" in err.reason
    assert "roll 3" in str(err) and "melee" in str(err)


@pytest.mark.parametrize("value, sides", [(7, 6), (0, 6), (-1, 6), (11, 10), (True, 6), (False, 6),
                                          ("3", 6), (3.0, 6), (None, 6)])
def test_scripted_dice_rejects_values_that_do_not_fit_the_die(value, sides):
    d = ScriptedDice([value])
    with pytest.raises(DataError) as ei:
        d.roll(sides, "fire")
    err = ei.value
    assert "roll 1" in err.field and "fire" in err.field
    assert f"d{sides}" in err.reason
    assert d.used == 0  # a rejected value is not consumed


def test_scripted_dice_accepts_full_range():
    d = ScriptedDice([1, 6, 1, 20])
    assert d.roll(6) == 1 and d.roll(6) == 6 and d.roll(20) == 1 and d.roll(20) == 20


def test_finish_raises_when_rolls_are_unused():
    d = ScriptedDice([2, 3, 4], source="script")
    d.roll(6)
    with pytest.raises(DataError) as ei:
        d.finish()
    assert ei.value.field == "roll 2"
    assert "2 scripted roll(s)" in ei.value.reason
    assert "[3, 4]" in ei.value.reason


def test_context_manager_raises_on_unused_rolls():
    with pytest.raises(DataError):
        with ScriptedDice([1, 2]) as d:
            d.roll(6)


def test_context_manager_is_quiet_when_all_used():
    with ScriptedDice([1, 2]) as d:
        assert two_d6(d) == 3


def test_context_manager_does_not_mask_the_original_error():
    with pytest.raises(KeyError):
        with ScriptedDice([1, 2]) as d:
            d.roll(6)
            raise KeyError("boom")


# =========================================================================== RandomDice

def test_random_dice_same_seed_repeats():
    a, b = RandomDice(42), RandomDice(42)
    xs = [a.roll(6) for _ in range(200)]
    ys = [b.roll(6) for _ in range(200)]
    assert xs == ys
    assert all(1 <= x <= 6 for x in xs)
    assert set(xs) == set(range(1, 7))


def test_random_dice_different_seeds_differ():
    a, b = RandomDice(1), RandomDice(2)
    assert [a.roll(20) for _ in range(50)] != [b.roll(20) for _ in range(50)]


def test_random_dice_records_rolls():
    d = RandomDice(7)
    v = d.roll(10, "morale")
    assert d.rolls == [(10, v, "morale")]
    assert d.script() == [v]


@pytest.mark.parametrize("procedure", [two_d6, d6_then_d4_on_six, hit_then_kill, reroll_ones])
def test_random_dice_script_replays_through_scripted_dice(procedure):
    for seed in range(30):
        rd = RandomDice(seed)
        result = procedure(rd)
        with ScriptedDice(rd.script()) as sd:
            assert procedure(sd) == result
        assert sd.log == rd.rolls


@settings(max_examples=50)
@given(st.integers(min_value=0, max_value=2**32), st.lists(st.integers(2, 20), min_size=1, max_size=10))
def test_random_dice_values_fit_the_die(seed, sides_list):
    d = RandomDice(seed)
    for s in sides_list:
        assert 1 <= d.roll(s) <= s
    assert len(d.script()) == len(sides_list)


# =========================================================================== Distribution

def test_two_d6_exact():
    dist = enumerate_outcomes(two_d6)
    assert dist[7] == F(1, 6)
    assert dist[2] == dist[12] == F(1, 36)
    assert dist[13] == 0 and 13 not in dist
    assert set(dist) == set(range(2, 13))
    assert sum(dist.values()) == 1
    assert all(isinstance(p, Fraction) for p in dist.values())
    assert dist.expectation() == 7
    assert dist.prob(lambda x: x >= 10) == F(6, 36)


def test_two_d6_matches_brute_force():
    brute = Counter(a + b for a, b in product(range(1, 7), repeat=2))
    dist = enumerate_outcomes(two_d6)
    assert dict(dist) == {k: F(v, 36) for k, v in brute.items()}


def test_conditional_extra_roll_with_different_die():
    dist = enumerate_outcomes(d6_then_d4_on_six)
    assert set(dist) == {1, 2, 3, 4, 5, 7, 8, 9, 10}
    for v in range(1, 6):
        assert dist[v] == F(1, 6)
    for v in range(7, 11):
        assert dist[v] == F(1, 24)
    assert dist[6] == 0
    assert sum(dist.values()) == 1
    assert dist.expectation() == F(5, 6) * 3 + F(1, 6) * F(17, 2)


def test_hit_then_kill_with_arguments():
    dist = enumerate_outcomes(hit_then_kill, 5, kill_sides=10)
    assert dist["miss"] == F(4, 6)
    assert dist["kill"] == F(2, 6) * F(3, 10)
    assert dist["damaged"] == F(2, 6) * F(7, 10)


def test_map_prob_expectation():
    dist = enumerate_outcomes(two_d6)
    parity = dist.map(lambda x: x % 2)
    assert parity == {0: F(1, 2), 1: F(1, 2)}
    assert isinstance(parity, Distribution)
    assert dist.prob(lambda x: x == 7) == F(1, 6)
    assert dist.prob(lambda x: False) == 0
    assert dist.prob(lambda x: True) == 1
    assert dist.expectation(lambda x: x * x) == F(329, 6)
    assert len(dist) == 11


def test_uniform():
    d = Distribution.uniform(range(1, 7))
    assert d == {v: F(1, 6) for v in range(1, 7)}
    # Repeated outcomes add up.
    d = Distribution.uniform(["a", "a", "b"])
    assert d["a"] == F(2, 3) and d["b"] == F(1, 3)


@pytest.mark.parametrize("probs", [{1: F(1, 2)}, {1: F(1, 2), 2: F(1, 3)}, {1: F(2, 3), 2: F(2, 3)}, {}])
def test_distribution_rejects_probabilities_not_summing_to_one(probs):
    with pytest.raises(ValueError):
        Distribution(probs)


def test_distribution_rejects_negative_probabilities():
    with pytest.raises(ValueError):
        Distribution({1: F(3, 2), 2: F(-1, 2)})


def test_distribution_drops_zero_outcomes():
    d = Distribution({1: F(1), 2: F(0)})
    assert list(d) == [1]
    assert d[2] == 0


def test_distribution_repr_is_readable():
    assert "1/2" in repr(Distribution({"a": F(1, 2), "b": F(1, 2)}))


def test_memo_returns_the_same_object():
    calls = []

    def counted(dice, sides):
        calls.append(1)
        return dice.roll(sides)

    first = enumerate_outcomes(counted, 4, memo=True)
    n = len(calls)
    assert n == 4  # one run per branch
    second = enumerate_outcomes(counted, 4, memo=True)
    assert second is first
    assert len(calls) == n  # not re-run
    # A different argument is a different key; no memo builds afresh.
    other = enumerate_outcomes(counted, 5, memo=True)
    assert other is not first and len(other) == 5
    assert enumerate_outcomes(counted, 4) is not first


def test_enumeration_runs_the_procedure_once_per_leaf():
    calls = []

    def proc(dice):
        calls.append(1)
        return d6_then_d4_on_six(dice)

    enumerate_outcomes(proc)
    assert len(calls) == 5 + 4  # five leaves without the bonus, four with it


def test_deterministic_procedure_is_certain():
    dist = enumerate_outcomes(lambda dice: "same")
    assert dist == {"same": 1}


# --------------------------------------------------------------------------- random procedures (Hypothesis)

# A step: roll a d{sides}; if the roll is >= threshold, roll a d{bonus} and add it (bonus 0: no extra roll).
steps_strategy = st.lists(
    st.tuples(st.sampled_from([2, 3, 4, 6, 8]), st.integers(1, 9), st.sampled_from([0, 2, 3, 6])),
    min_size=1, max_size=3,
)


def make_procedure(steps):
    def proc(dice):
        total = 0
        for sides, threshold, bonus in steps:
            v = dice.roll(sides, "step")
            total += v
            if bonus and v >= threshold:
                total += dice.roll(bonus, "bonus")
        return total
    return proc


def exact_by_hand(steps) -> dict:
    """Convolution written independently of enumerate_outcomes."""
    dist = {0: F(1)}
    for sides, threshold, bonus in steps:
        step: dict = defaultdict(Fraction)
        for v in range(1, sides + 1):
            if bonus and v >= threshold:
                for w in range(1, bonus + 1):
                    step[v + w] += F(1, sides * bonus)
            else:
                step[v] += F(1, sides)
        new: dict = defaultdict(Fraction)
        for a, p in dist.items():
            for b, q in step.items():
                new[a + b] += p * q
        dist = new
    return {k: v for k, v in dist.items() if v}


@settings(max_examples=60, deadline=None)
@given(steps_strategy)
def test_random_procedures_sum_to_one_and_match_convolution(steps):
    dist = enumerate_outcomes(make_procedure(steps))
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())
    assert dict(dist) == exact_by_hand(steps)


@settings(max_examples=40, deadline=None)
@given(steps_strategy, st.integers(0, 1000))
def test_every_scripted_replay_lands_on_a_possible_outcome(steps, seed):
    proc = make_procedure(steps)
    dist = enumerate_outcomes(proc)
    rd = RandomDice(seed)
    result = proc(rd)
    assert dist[result] > 0
    with ScriptedDice(rd.script()) as sd:
        assert proc(sd) == result


# --------------------------------------------------------------------------- exact vs seeded sampling

N_SAMPLES = 20_000


@pytest.mark.parametrize("procedure", [two_d6, d6_then_d4_on_six, hit_then_kill, reroll_ones])
def test_exact_agrees_with_seeded_sampling(procedure):
    dist = enumerate_outcomes(procedure)
    dice = RandomDice(20240601)
    counts = Counter(procedure(dice) for _ in range(N_SAMPLES))
    assert set(counts) <= set(dist)
    for outcome, p in dist.items():
        freq = counts[outcome] / N_SAMPLES
        se = math.sqrt(float(p) * (1 - float(p)) / N_SAMPLES)
        assert abs(freq - float(p)) <= 4 * se + 1e-12, (outcome, freq, float(p))


def test_distribution_sample_agrees_with_probabilities():
    dist = enumerate_outcomes(d6_then_d4_on_six)
    rng = random.Random(99)
    counts = Counter(dist.sample(rng) for _ in range(N_SAMPLES))
    for outcome, p in dist.items():
        se = math.sqrt(float(p) * (1 - float(p)) / N_SAMPLES)
        assert abs(counts[outcome] / N_SAMPLES - float(p)) <= 4 * se


def test_faces_of_custom_dice_are_checked_where_procedures_roll():
    from wargames.core.dice import DiceError, roll_die as roll

    class Loaded:
        def __init__(self, value):
            self.value = value

        def roll(self, sides=6, why="", classes=None):
            return self.value

    assert roll(Loaded(6), 6, "fire") == 6
    for bad in (7, 0, True, 2.0, "3", None):
        with pytest.raises(DiceError) as ei:
            roll(Loaded(bad), 6, "fire at 1112")
        assert ei.value.file == "Loaded" and ei.value.field == "fire at 1112" and "d6" in ei.value.reason


def test_preceded_dice_give_back_the_earlier_rolls_then_roll_on():
    from wargames.core import ScriptedDice
    from wargames.core.dice import Preceded
    d = Preceded([2], ScriptedDice([5, 6]))
    assert [d.roll(6), d.roll(6), d.roll(6)] == [2, 5, 6]
