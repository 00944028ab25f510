"""NT 15.2.3: withdrawing a Green Beret and bringing it back (wargames.ntnd.special_forces)."""
import pytest

from wargames.core import Resolution
from wargames.core.errors import RuleViolation
from wargames.ntnd.reinforcement import arrivals, enter
from wargames.ntnd.special_forces import withdraw_green_beret
from wargames.ntnd.state import NtndState


def highlands(phase="reinforcement"):
    s = NtndState(turn=10, phase=phase)
    s.place("US GB 1", "1615")
    s.place("SVN militia 1", "1616")          # in its zone, open country
    s.place("SVN Montagnard 1", "1715")       # in its zone, mountain
    s.place("SVN militia 2", "1716")          # in its zone, in the town of Dak To
    s.place("SVN militia 3", "1720")          # outside its zone
    return s


@pytest.mark.rule("NT 15.2.3", "NT 15.2.3.2", "NT 16.5")
def test_a_withdrawn_green_beret_takes_its_militia_and_montagnards_outside_towns():
    s = highlands()
    res = Resolution()
    after = withdraw_green_beret(s, "US GB 1", res=res)
    assert "US GB 1" not in after.pieces and "US GB 1" not in after.dead
    assert sorted(u for u in after.pieces) == ["SVN militia 2", "SVN militia 3"]
    assert not after.dead and after.track.points == s.track.points            # back to the mix, no points
    assert "NT 15.2.3.2" in res.text() and "US GB 1" in s.pieces              # the old position is untouched


@pytest.mark.rule("NT 15.2.3")
def test_it_returns_in_a_later_reinforcement_phase():
    after = withdraw_green_beret(highlands(), "US GB 1")
    assert "US GB 1" not in arrivals(after)                                   # not in the same phase
    later = after.copy()
    later.turn += 1
    assert "US GB 1" in arrivals(later)
    back, _ = enter(later, "US GB 1", "1616")
    assert back.piece("US GB 1").location == "1616"


@pytest.mark.rule("NT 15.2.3")
def test_another_green_beret_keeps_its_militia_and_only_green_berets_in_reinforcement_are_withdrawn():
    s = highlands()
    s.place("US GB 2", "1617")                                                # covers 1616, not 1715
    after = withdraw_green_beret(s, "US GB 1")
    assert "SVN militia 1" in after.pieces and "SVN Montagnard 1" not in after.pieces
    with pytest.raises(RuleViolation, match="reinforcement phase"):
        withdraw_green_beret(highlands("allied_movement"), "US GB 1")
    with pytest.raises(RuleViolation, match="not a Green Beret"):
        withdraw_green_beret(highlands(), "SVN militia 1")
