"""No Trumpets No Drums, reaction movement (3.1.5, 3.2.4, 8.8). Shipped-map hexes: 1816 (II Corps, jungle); 1915
(I Corps, 2 away); 1423 (III Corps, 9 away); 1324 (III Corps, 10 away); 1227 (IV Corps, 14 away); 1310 (I Corps, 9
away); 1515 and 1414 (Laos). II Corps borders I, III, Laos and Cambodia, not IV."""
import pytest

from wargames.core import Resolution
from wargames.core.errors import RuleViolation
from wargames.ntnd import reaction as rx
from wargames.ntnd.state import TRANSPORT_MARK, NtndState

ATTACKS = ("1915", "1423", "1324", "1227", "1310", "1515")


def allied_position(turn=1):
    s = NtndState(turn=turn, phase="allied_reaction")
    s.place("US 1/1 Cav", "1816")
    s.place("US 2/1 Cav", "1817")
    s.place("US 3/1 Cav", "1915")
    s.place("US 1/1", "1716", corps="II")
    s.place("ARVN 1", "1423", corps="III")
    s.place("ARVN 2", "1324", corps="III")
    s.place("ARVN 3", "1227", corps="IV")
    s.place("ARVN 7", "1310", corps="I")
    s.place("Lao inf 1", "1515")
    return s


@pytest.mark.rule("NT 8.8.1", "NT 8.8.1.1", "NT 3.1.5")
def test_who_may_react():
    s = allied_position()
    assert rx.reaction_candidates(s, ATTACKS, moved_last_turn=["US 2/1 Cav"]) == ("US 1/1 Cav",)
    assert rx.reaction_candidates(s, ATTACKS, moved_last_turn=[]) == ("US 1/1 Cav", "US 2/1 Cav")
    # US 3/1 Cav is itself under attack in 1915; US 1/1 is no airmobile unit until a helicopter carries it
    s.place("US heli 1", s.piece("US 1/1").location)
    s.update("US heli 1", marks=frozenset({TRANSPORT_MARK + "US 1/1"}))
    assert "US 1/1" in rx.reaction_candidates(s, ATTACKS, moved_last_turn=[])
    assert "US 3/1 Cav" in rx.reaction_candidates(s, ("1423",), moved_last_turn=[])


@pytest.mark.rule("NT 8.8.1.1", "NT 8.2")
def test_reach_in_clear_weather_and_monsoon():
    s = allied_position(turn=1)
    # clear: II Corps and the areas bordering it (I, III, Laos, Cambodia); not IV; never neutral Laos
    assert rx.reaction_destinations(s, "US 1/1 Cav", ATTACKS) == ("1310", "1324", "1423", "1915")
    m = allied_position(turn=2)                      # May/Jun: monsoon, 9 hexes
    assert rx.reaction_destinations(m, "US 1/1 Cav", ATTACKS) == ("1310", "1423", "1915")
    # a hex under attack with no Allied unit in it is no destination
    assert rx.reaction_destinations(s, "US 1/1 Cav", ("1916",)) == ()


@pytest.mark.rule("NT 8.8.1.1", "NT 8.10.1")
def test_no_over_stacking():
    s = allied_position()
    s.place("ARVN 5", "1915", corps="I")          # 1915: US 3/1 Cav and ARVN 5: full
    assert "1915" not in rx.reaction_destinations(s, "US 1/1 Cav", ATTACKS)
    with pytest.raises(RuleViolation) as e:
        rx.react(s, "US 1/1 Cav", "1915", ATTACKS, [])
    assert e.value.rule == "NT 8.8.1.1" and "over-stack" in e.value.reason
    s2 = allied_position()
    s2.place("SVN militia 1", "1915")                # a militia has its own place in the stack
    assert "1915" in rx.reaction_destinations(s2, "US 1/1 Cav", ATTACKS)


@pytest.mark.rule("NT 8.9.2", "NT 28.2.1")
def test_national_and_special_limits():
    s = allied_position()
    s.place("Lao ParaCdo", "1414")
    assert rx.reaction_destinations(s, "Lao ParaCdo", ATTACKS) == ("1515",)
    s.place("US 5SFM", "1816")
    s.place("US GB 1", "1917")                       # its zone of influence reaches 1915, not the others
    assert rx.reaction_destinations(s, "US 5SFM", ATTACKS) == ("1915",)


@pytest.mark.rule("NT 8.8.1.1", "NT 12.3")
def test_react_moves_marks_and_refuses():
    s = allied_position()
    before = dict(s.pieces)
    new = rx.react(s, "US 1/1 Cav", "1423", ATTACKS, moved_last_turn=[])
    assert s.pieces == before
    assert new.piece("US 1/1 Cav").location == "1423" and new.piece("US 1/1 Cav").marked(rx.REACTED_MARK)
    cases = [("US 2/1 Cav", "1423", ["US 2/1 Cav"], "NT 8.8.1.1"),    # moved last turn
             ("US 3/1 Cav", "1423", [], "NT 8.8.1.1"),                # under attack itself
             ("US 1/1", "1423", [], "NT 8.8.1"),                      # not airmobile
             ("US 1/1 Cav", "1227", [], "NT 8.8.1.1"),                # IV Corps: out of reach
             ("US 1/1 Cav", "1515", [], "NT 10.2"),                   # neutral Laos
             ("US 1/1 Cav", "1916", [], "NT 8.8.1")]                  # no attack announced there
    for unit, to, moved, rule in cases:
        with pytest.raises(RuleViolation) as e:
            rx.react(s, unit, to, ATTACKS, moved)
        assert e.value.rule == rule, (unit, to)
        assert s.pieces == before


@pytest.mark.rule("NT 3.1.5", "NT 8.8.1.2")
def test_phase_with_the_air_hook():
    s = allied_position()
    seen = []

    def air(state, attacks, res):
        seen.append((state.piece("US 1/1 Cav").location, tuple(attacks)))
        return state

    new, res = rx.allied_reaction(s, [("US 1/1 Cav", "1915"), ("US 2/1 Cav", "1423")], ATTACKS, [],
                                  ground_support=air)
    assert seen == [("1915", ATTACKS)]
    assert new.piece("US 2/1 Cav").location == "1423"
    with pytest.raises(RuleViolation):
        rx.allied_reaction(s, [("US 1/1 Cav", "1915"), ("US 1/1 Cav", "1423")], ATTACKS, [])


# --------------------------------------------------------------------------------------------- Communist
def communist_position():
    """US 1/1 in 1716 (neighbours 1816, 1815, 1715, 1615, 1616, 1717)."""
    s = NtndState(turn=1, phase="communist_reaction")
    s.place("US 1/1", "1716", corps="II")
    s.place("VC reg 1", "1815", face_up=False)
    s.place("VC cadre 1", "1816", face_up=True)
    s.place("NVA 304", "1917", face_up=False)          # not next to any Allied unit
    s.place("VC base 1", "1615", face_up=False)        # immobile
    s.place("dummy 1", "1717", face_up=False)
    s.place("NVA 308", "1814")
    s.place("NVA 312", "1814")                         # 1814 is full
    return s


@pytest.mark.rule("NT 3.2.4", "NT 8.8.2")
def test_communist_candidates_and_moves():
    s = communist_position()
    assert rx.communist_reaction_candidates(s) == ("VC reg 1", "dummy 1")
    # one hex, into US 1/1's zone of control too (1715), never into the Allied hex or the full 1814
    assert set(rx.communist_reaction_moves(s, "VC reg 1")) == {"1916", "1915", "1715", "1816"}
    assert rx.communist_reaction_moves(s, "NVA 304") == ()


@pytest.mark.rule("NT 8.8.2", "NT 8.10.1")
def test_communist_refusals_leave_state_alone():
    s = communist_position()
    before = dict(s.pieces)
    for unit, to, rule in [("VC reg 1", "1716", "NT 8.8.2"), ("VC reg 1", "1814", "NT 8.10.1"),
                           ("VC reg 1", "1917", "NT 8.8.2"), ("VC cadre 1", "1916", "NT 8.8.2"),
                           ("VC base 1", "1614", "NT 8.8.2"), ("US 1/1", "1715", "NT 8.8.2")]:
        with pytest.raises(RuleViolation) as e:
            rx.communist_react(s, unit, to)
        assert e.value.rule == rule, (unit, to)
        assert s.pieces == before
    once = rx.communist_react(s, "VC reg 1", "1715")
    with pytest.raises(RuleViolation):
        rx.communist_react(once, "VC reg 1", "1815")        # a unit reacts once


@pytest.mark.rule("NT 8.8.2.1", "NT 8.8.2.2", "NT 4.1.2")
def test_end_of_communist_reaction():
    s = communist_position()
    s = rx.communist_react(s, "VC reg 1", "1916", res=Resolution())   # away from US 1/1
    assert not s.piece("VC reg 1").face_up
    new, end = rx.end_communist_reaction(s)
    assert end.flipped == ("VC base 1", "dummy 1")
    assert end.dummies_removed == ("dummy 1",) and "dummy 1" not in new.pieces
    assert new.piece("VC base 1").face_up
    assert not new.piece("VC reg 1").face_up and not new.piece("NVA 304").face_up
    assert dict(end.vacated) == {"1815": ("US 1/1",)}
    assert not new.piece("VC reg 1").marks                   # the phase's marks are cleared
    # after all combat, US 1/1 may take 1815; another unit may not
    took = rx.occupy_vacated(new, end.vacated, "US 1/1", "1815")
    assert took.piece("US 1/1").location == "1815"
    new.place("US 2/1", "1716", corps="II")
    with pytest.raises(RuleViolation) as e:
        rx.occupy_vacated(new, end.vacated, "US 2/1", "1815")
    assert e.value.rule == "NT 8.8.2.2"


@pytest.mark.rule("NT 8.8.2.1")
def test_a_unit_reacting_into_contact_is_flipped():
    s = communist_position()
    s = rx.communist_react(s, "VC reg 1", "1715")            # still next to 1716
    new, end = rx.end_communist_reaction(s)
    assert "VC reg 1" in end.flipped and new.piece("VC reg 1").face_up
    assert end.vacated == {"1815": ("US 1/1",)}


@pytest.mark.rule("NT 8.9.1")
def test_guerrillas_may_react_across_the_border():
    s = NtndState(turn=1, phase="communist_reaction")
    s.place("US 1/1", "1511", corps="I")
    s.place("VC reg 1", "1410", face_up=False)
    assert "1311" in rx.communist_reaction_moves(s, "VC reg 1")          # Laos


@pytest.mark.rule("NT 8.10.1", "NT 8.10.1.2", "NT 8.10.1.3")
def test_stacking_limits():
    s = NtndState(turn=1, phase="allied_reaction")
    s.place("ARVN 1", "1327", corps="III")                  # Saigon: three Allied ground combat units
    s.place("ARVN 2", "1327", corps="III")
    assert rx.stacking_breach(s, "1327", "allied", ["US 1/1 Cav"]) is None
    s.place("ARVN 3", "1327", corps="III")
    assert rx.stacking_breach(s, "1327", "allied", ["US 1/1 Cav"])
    s.place("ARVN 5", "1326", corps="III")                  # Bien Hoa: two
    s.place("ARVN 7", "1326", corps="III")
    assert rx.stacking_breach(s, "1326", "allied", ["US 1/1 Cav"])
    assert rx.stacking_breach(s, "1326", "allied", ["US FB 1"]) is None
    assert rx.stacking_breach(s, "1326", "allied", ["US FB 1", "ARVN FB 1"])
    assert rx.stacking_breach(s, "1326", "communist", ["NVA 304", "dummy 1"]) is None
    assert rx.stacking_breach(s, "1326", "communist", ["NVA 304", "dummy 1", "VC cadre 1"])
    assert rx.stacking_breach(s, "1326", "communist", ["supply 1", "supply 2", "NVA art 45"]) is None
    assert rx.stacking_breach(s, "Hanoi", "communist", ["NVA 304", "NVA 308", "NVA 312"]) is None
