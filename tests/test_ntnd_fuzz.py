"""Random play of every No Trumpets No Drums scenario through the protocol: legal actions are accepted, refused
variations change nothing, saves and undo round-trip, and the position's invariants hold after each action."""
import pytest

from wargames.core.fuzz import fuzz
from wargames.ntnd.game import Game


@pytest.mark.parametrize("scenario", list(Game.SCENARIOS))
def test_random_play_finds_no_failure(scenario):
    report = fuzz(Game, actions=120, seed=5, scenario=scenario, round_trip_rate=0.05)
    assert not report.failures, "\n".join(f"{f.kind}: {f.action}: {f.detail[-600:]}" for f in report.failures)
    assert report.actions >= 120 and report.illegal_tried > 0
