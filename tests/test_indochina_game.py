"""The Indochina game loop: sequence of play, legal actions, replay, and a fuzz test with invariants."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from wargames.core import RandomDice, ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.indochina.game import SEQUENCE, Attack, EndPhase, Move, RollEvent, replay
from wargames.indochina.scenarios import highlands_demo
from wargames.indochina.stacking import stack_total, stacking_limit


@pytest.mark.rule("IC 3.0", "IC 3.1")
def test_sequence_of_play_order():
    ids = [p.id for p in SEQUENCE]
    assert ids[0] == "Events" and ids[-2:] == ["Political Points", "End of Turn"]
    assert ids[1:7] == ["Communist Mobilization", "Communist Reorganization", "Communist Movement",
                        "FEF Defensive Air", "Communist Combat", "Communist Recovery"]
    assert ids[7:13] == ["FEF Mobilization", "FEF Reorganization", "FEF Movement", "FEF Offensive Air",
                         "FEF Combat", "FEF Recovery"]


@pytest.mark.rule("IC 3.1", "IC 9.1", "IC 13.11")
def test_actions_outside_their_phase_are_refused():
    g = highlands_demo()
    with pytest.raises(RuleViolation) as e:
        g.apply(Move("803 VM", ("1414",)), ScriptedDice([]))
    assert e.value.rule == "IC 3.1"
    with pytest.raises(RuleViolation):
        g.apply(EndPhase(), ScriptedDice([]))             # the event must be rolled first
    g.apply(RollEvent(), ScriptedDice([1, 2]))
    while g.phase.kind != "movement":
        g.apply(EndPhase(), ScriptedDice([]))
    with pytest.raises(RuleViolation) as e:
        g.apply(Move("GM 100", ("1514",)), ScriptedDice([]))          # not the phasing player's unit
    assert e.value.rule == "IC 9.1"
    g.apply(Move("803 VM", ("1414",)), ScriptedDice([]))
    with pytest.raises(RuleViolation) as e:
        g.apply(Move("803 VM", ("1415",)), ScriptedDice([]))          # a unit moves once a phase
    assert e.value.rule == "IC 9.1"
    g.apply(EndPhase(), ScriptedDice([]))
    g.apply(EndPhase(), ScriptedDice([]))                             # FEF Defensive Air
    attacks = [a for a in g.legal_actions() if isinstance(a, Attack)]
    assert attacks
    a = attacks[0]
    g.apply(a, RandomDice(3))
    with pytest.raises(RuleViolation) as e:
        g.apply(a, RandomDice(3))
    assert e.value.rule in ("IC 13.11", "IC 13.1")


def _play(seed: int, steps: int):
    g = highlands_demo()
    dice, rng = RandomDice(seed), random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        g.apply(rng.choice(g.legal_actions()), dice)
    return g


@pytest.mark.rule("IC 3.2")
@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000))
def test_a_seeded_game_replays_identically(seed):
    g = _play(seed, 120)
    again = replay(highlands_demo, g.history)
    assert again.log.text() == g.log.text()
    assert {u.id: (u.hex, u.disrupted, u.eliminated) for u in again.state.units.values()} == \
           {u.id: (u.hex, u.disrupted, u.eliminated) for u in g.state.units.values()}


@pytest.mark.rule("IC 10.21", "IC 10.3")
def test_fuzz_random_legal_and_illegal_actions_keep_the_invariants():
    """Thousands of random actions: legal ones keep the invariants, illegal ones raise only RuleViolation."""
    rng = random.Random(1954)
    for game_no in range(6):
        g = highlands_demo()
        dice = RandomDice(game_no)
        ids = list(g.state.units)
        labels = [g.state.label(h) for h in g.state.map.hexes]
        steps = 0
        while not g.over and steps < 400:
            steps += 1
            if rng.random() < 0.25:       # an arbitrary, probably illegal action
                junk = rng.choice([Move(rng.choice(ids), (rng.choice(labels),)),
                                   Attack((rng.choice(ids),), rng.choice(labels), rng.choice(["Mobile", "Assault"]))])
                snapshot = g.state.copy()
                try:
                    g.apply(junk, dice)
                except RuleViolation:
                    assert {u.id: u.hex for u in g.state.units.values()} == {u.id: u.hex for u in snapshot.units.values()}
                continue
            phase = g.phase.kind
            action = rng.choice(g.legal_actions())
            g.apply(action, dice)
            st_ = g.state
            hexes = {}
            for u in st_.on_map():
                hexes.setdefault(u.hex, set()).add(u.side)
            assert all(len(s) == 1 for s in hexes.values()), "two sides share a hex"
            if isinstance(action, EndPhase) and phase in ("movement", "combat"):
                for h in hexes:
                    for side in hexes[h]:
                        if stack_total(st_, h, side) > stacking_limit(st_, h):
                            assert all(u.disrupted for u in st_.units_at(h, side))


@pytest.mark.rule("IC 27.0", "IC 28.0", "IC 31.0")
def test_optional_rules_in_the_game_loop():
    from wargames.indochina.game import DeclareAmbush, DeclareGeneralOffensive, DeclineAmbush, Overrun
    seen = set()
    for seed in range(12):
        g = highlands_demo()
        dice, rng = RandomDice(seed), random.Random(seed)
        for _ in range(500):
            if g.over:
                break
            action = rng.choice(g.legal_actions())
            seen.add(type(action))
            g.apply(action, dice)
        again = replay(highlands_demo, g.history)
        assert again.log.text() == g.log.text()
    assert {Overrun, DeclareGeneralOffensive} <= seen
    g = highlands_demo()
    g.optional_rules = False
    g.apply(RollEvent(), ScriptedDice([1, 1]))
    assert DeclareGeneralOffensive() not in g.legal_actions()
    with pytest.raises(RuleViolation) as e:
        g.apply(DeclareGeneralOffensive(), ScriptedDice([3, 4]))
    assert e.value.rule == "IC 31.0"


@pytest.mark.rule("IC 2.37")
def test_a_turn_is_a_month():
    g = highlands_demo()
    assert (g.year, g.month) == (1950, 10)
    g.apply(RollEvent(), ScriptedDice([3, 3]))
    while g.turns_left == 6:
        g.apply(EndPhase(), ScriptedDice([]))
    assert (g.year, g.month) == (1950, 11)
