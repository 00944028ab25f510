"""NT 14.2.2: mining Haiphong harbour (wargames.ntnd.naval)."""
import pytest

from wargames.core import Resolution, enumerate_outcomes
from wargames.core.dice import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.ntnd import movement as mv
from wargames.ntnd.naval import may_mine, mine_haiphong
from wargames.ntnd.politics import PoliticalTrack
from wargames.ntnd.state import NtndState


def fleet_in_haiphong(turn=12, phase="allied_movement"):
    s = NtndState(turn=turn, phase=phase, track=PoliticalTrack(100))
    s.place("US Fleet", "Haiphong")
    return s


@pytest.mark.rule("NT 14.2.2")
def test_the_mines_cost_a_die_of_points_and_close_the_harbour():
    s = fleet_in_haiphong()
    res = Resolution()
    new = mine_haiphong(s, ScriptedDice([4]), entered_turn=11, res=res)
    assert new.track.points == 96 and new.policy.haiphong_mined
    assert s.track.points == 100 and not s.policy.haiphong_mined          # the old position is untouched
    assert res.steps[-1].rule == "NT 14.2.2" and "100 - 4 = 96" in res.text()
    assert "haiphong_mined" in new.policy.aid_modifiers()
    new.place("supply 1", "Haiphong")
    with pytest.raises(RuleViolation, match="NT 14.2.2"):
        mv.begin_move(new, "supply 1", in_supply=True, by_sea=True)


@pytest.mark.rule("NT 14.2.2")
def test_the_fleet_spends_a_whole_turn_in_the_zone_first():
    s = fleet_in_haiphong()
    assert "whole turn" in may_mine(s, 12)
    assert may_mine(s, 11) is None
    with pytest.raises(RuleViolation, match="whole turn"):
        mine_haiphong(s, ScriptedDice([1]), entered_turn=12)


@pytest.mark.rule("NT 14.2.2")
def test_only_the_fleet_in_haiphong_at_the_end_of_allied_movement_and_only_once():
    assert "not in the Haiphong zone" in may_mine(NtndState(turn=12, phase="allied_movement"), 11)
    assert "not in the Haiphong zone" in may_mine(fleet_in_haiphong(), None)
    assert "Allied movement" in may_mine(fleet_in_haiphong(phase="air_operations"), 11)
    done = mine_haiphong(fleet_in_haiphong(), ScriptedDice([2]), entered_turn=11)
    assert may_mine(done, 11) == "Haiphong is mined already"


@pytest.mark.rule("NT 14.2.2")
def test_the_cost_is_one_die_on_average_three_and_a_half():
    s = fleet_in_haiphong()
    cost = enumerate_outcomes(lambda d: 100 - mine_haiphong(s, d, entered_turn=11).track.points)
    assert sorted(cost) == [1, 2, 3, 4, 5, 6] and len(set(cost.values())) == 1
