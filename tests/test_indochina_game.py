"""The Indochina game loop: sequence of play, phases, replay and the optional rules in play."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.indochina import SEQUENCE, Attack, DeclareGeneralOffensive, EndPhase, Game, Move, Overrun, RollEvent, Ruleset

from .test_indochina_defects import pass_phase


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
    g = Game.new(seed=1)
    with pytest.raises(RuleViolation) as e:
        g.apply(Move("803 VM", ("1414",)))
    assert e.value.rule == "IC 3.1"
    with pytest.raises(RuleViolation):
        g.apply(EndPhase())                                   # the event must be rolled first
    g.apply(RollEvent(), ScriptedDice([1, 2]))
    while g.phase.kind != "movement":
        pass_phase(g)
    with pytest.raises(RuleViolation) as e:
        g.apply(Move("GM 100", ("1514",)))                    # not the phasing player's unit
    assert e.value.rule == "IC 9.1"
    g.apply(Move("803 VM", ("1414",)))
    with pytest.raises(RuleViolation) as e:
        g.apply(Move("803 VM", ("1415",)))                    # a unit moves once a phase
    assert e.value.rule == "IC 9.1"
    while g.prompt.kind != "play":                             # an ambush offered to the FEF, say
        g.apply(list(g.legal_actions)[-1])
    g.apply(EndPhase())
    g.apply(EndPhase())                                       # FEF Defensive Air
    attacks = [a for a in g.legal_actions if isinstance(a, Attack)]
    assert attacks
    a = attacks[0]
    g.apply(a)
    with pytest.raises(RuleViolation) as e:
        g.apply(a)                                            # first the defender's choices, never twice
    assert e.value.rule == g.prompt.rule and g.prompt.rule in ("IC 15.35", "IC 13.31")


def _play(seed: int, steps: int) -> Game:
    g, rng = Game.new(seed=seed), random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        g.apply(rng.choice(list(g.legal_actions)))
    return g


@pytest.mark.rule("IC 3.2")
@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000))
def test_a_seeded_game_replays_identically(seed):
    g = _play(seed, 120)
    again = g.replay()
    assert again.state_dict() == g.state_dict()
    assert [r.text() for r in again.resolutions] == [r.text() for r in g.resolutions]


@pytest.mark.rule("IC 27.0", "IC 28.0", "IC 31.0")
def test_optional_rules_in_the_game_loop():
    seen = set()
    for seed in range(8):
        g = _play(seed, 400)
        seen |= {type(h.action) for h in g.history}
    assert {Overrun, DeclareGeneralOffensive} <= seen
    g = Game.new(ruleset=Ruleset.default(general_offensive=False))
    g.apply(RollEvent(), ScriptedDice([1, 1]))
    g.apply(EndPhase())
    assert g.phase.id == "Communist Mobilization" and DeclareGeneralOffensive() not in g.legal_actions
    with pytest.raises(RuleViolation) as e:
        g.apply(DeclareGeneralOffensive(), ScriptedDice([3, 4]))
    assert e.value.rule == "IC 31.0"


@pytest.mark.rule("IC 2.37")
def test_a_turn_is_a_month():
    g = Game.new()
    assert (g.year, g.month) == (1950, 10)
    g.apply(RollEvent(), ScriptedDice([3, 3]))
    while g.turns_left == 6:
        pass_phase(g)
    assert (g.year, g.month) == (1950, 11)
