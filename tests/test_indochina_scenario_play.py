"""The three rulebook scenarios (38) played from their set-up to the end through Game.apply by a seeded random
player: no crash, no dead end, no broken invariant, and an outcome with its rule. ``make fuzz`` plays many
more; these are the small versions the unit tests run."""
import random

import pytest

from wargames.core.fuzz import fuzz
from wargames.indochina import EndPhase, Game

#: phases whose every kind of action the random player should meet somewhere in these games
KINDS = ("events", "mobilization", "reorganization", "movement", "air", "combat", "recovery", "political", "end")


def play(scenario: str, seed: int, limit: int = 6000):
    """A whole game by a random player that ends a phase a third of the time it may."""
    g, rng = Game.new(scenario, seed=seed), random.Random(seed)
    acted: dict[str, set[str]] = {}
    for _ in range(limit):
        if g.outcome() is not None:
            break
        a = g.random_legal_action(rng, prefer=(EndPhase,), rate=0.35)     # uniform, checked lazily
        assert a is not None, f"dead end at {g.prompt}"
        kind = g.phase.kind if g.deploy is None else "setup"
        g.apply(a)
        acted.setdefault(kind, set()).add(type(a).__name__)
        assert not g.invariants(), g.invariants()
    return g, acted


GAMES: dict = {}
#: The games above are shared by the tests of this module: keep them on one worker (``--dist loadgroup``).
pytestmark = pytest.mark.xdist_group("indochina-scenario-games")


def played(scenario: str, seed: int):
    """Each scenario's game is played once for the whole module (a game costs tens of seconds)."""
    if scenario not in GAMES:
        GAMES[scenario] = play(scenario, seed)
    return GAMES[scenario]


@pytest.mark.rule("IC 38.0", "IC 38 Scenario 1", "IC 38 Scenario 2", "IC 38 Introductory", "IC 3.2", "IC 24.1")
@pytest.mark.parametrize("scenario,seed", [("scenario1", 3), ("scenario2", 4), ("introductory", 5)])
def test_a_scenario_plays_from_its_set_up_to_an_outcome(scenario, seed):
    g, acted = played(scenario, seed)
    out = g.outcome()
    assert out is not None, f"{scenario}: no outcome after {len(g.history)} actions"
    assert out.rule.startswith("IC") and out.level
    assert "Deploy" in acted["setup"]
    if scenario != "introductory":                 # the introductory switches most phases off (38 a)
        for kind in ("mobilization", "movement", "combat", "political", "end"):
            assert acted.get(kind, set()) - {"EndPhase"}, f"{scenario}: the {kind} phases only ended"


def test_every_phase_offers_a_real_action_in_the_scenarios():
    seen: dict[str, set[str]] = {}
    for scenario, seed in (("scenario1", 3), ("scenario2", 4)):
        _, acted = played(scenario, seed)
        for kind, names in acted.items():
            seen.setdefault(kind, set()).update(names)
    missing = [kind for kind in KINDS if not seen.get(kind, set()) - {"EndPhase"}]
    assert not missing, f"these phases offered only EndPhase: {missing} (seen: {seen})"


def test_random_legal_and_illegal_play_of_a_scenario_breaks_nothing():
    report = fuzz(Game, actions=300, seed=13, scenario="introductory")
    assert not report.failures, report.failures[0].detail[-1500:]
