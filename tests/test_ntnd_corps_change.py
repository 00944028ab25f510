"""NT 5.7: the movement limits of a group changing corps (wargames.ntnd.corps_change)."""
import pytest

from wargames.core.errors import RuleViolation
from wargames.ntnd import corps_change as cc
from wargames.ntnd.reinforcement import reassign_corps
from wargames.ntnd.state import NtndState


def group_changing():
    """The US 25th Infantry Division in III Corps (1226, 1125, 1425), reassigned to IV Corps."""
    s = NtndState(turn=10, phase="reinforcement")
    for unit, at in (("US 2/25", "1226"), ("US 1/25", "1125"), ("US 3/25", "1425")):
        s.place(unit, at, corps="III")
    s.place("US 1/1", "1326", corps="III")
    s, _ = reassign_corps(s, "US 25th Inf", "IV")
    return s


def next_to(s, label):
    g = s.geography
    return [g.label(n) for n in g.map.neighbors(g.hex(label))]


@pytest.mark.rule("NT 5.7")
def test_a_move_may_not_start_next_to_an_enemy_unit_even_an_inverted_one():
    s = group_changing()
    cc.check_start(s, "US 2/25")                         # nobody near
    far = [x for x in next_to(s, "1226") if not s.at(x) and x not in next_to(s, "1326")][0]
    s.place("VC cadre 1", far, face_up=False)
    with pytest.raises(RuleViolation, match="NT 5.7") as e:
        cc.check_start(s, "US 2/25")
    assert "VC cadre 1" in str(e.value)
    cc.check_start(s, "US 1/1")                          # not changing corps: no limit


@pytest.mark.rule("NT 5.7")
def test_no_step_into_a_hex_next_to_the_enemy():
    s = group_changing()
    target = "1127"
    beyond = [x for x in next_to(s, target) if x not in next_to(s, "1226") and x != "1226" and not s.at(x)][0]
    cc.check_step(s, "US 2/25", target)
    s.place("VC reg 1", beyond, face_up=False)
    with pytest.raises(RuleViolation, match="may not enter 1127"):
        cc.check_step(s, "US 2/25", target)
    cc.check_step(s, "US 1/1", target)


@pytest.mark.rule("NT 5.7")
def test_friendly_units_do_not_count():
    s = group_changing()
    assert cc.enemies_next_to(s, "1226", "allied") == []
    assert "US 1/1" not in cc.enemies_next_to(s, "1226", "allied")
    assert cc.enemies_next_to(s, "1226", "communist") == ["US 1/1"]


@pytest.mark.rule("NT 5.7")
def test_every_unit_ends_the_turn_in_the_new_corps():
    s = group_changing()
    assert cc.stragglers(s) == ("US 1/25", "US 2/25", "US 3/25")
    s.update("US 2/25", location="1127")                 # Moc Hoa, IV Corps
    assert cc.stragglers(s) == ("US 1/25", "US 3/25")


@pytest.mark.rule("NT 5.7")
def test_zones_are_next_to_their_border_hexes_and_neighbour_zones():
    s = NtndState(turn=10, phase="allied_movement")
    assert "0701" in s.geography.neighbours("Hanoi") and "Haiphong" in s.geography.neighbours("Hanoi")
    assert "Hanoi" in s.geography.neighbours("0701")
    s.place("NVA 304", "Hanoi")
    assert cc.enemies_next_to(s, "0701", "allied") == ["NVA 304"]
