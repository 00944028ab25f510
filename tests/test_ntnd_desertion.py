"""NT 25.3: ARVN desertion when cities fall (wargames/ntnd/desertion.py), on the shipped map.

Cities used: Hue 1610 and Da Nang 1811 (I Corps), Qui Nhon 2118 (II Corps), Saigon 1327 (III Corps)."""
from fractions import Fraction

import pytest

from wargames.core import ScriptedDice
from wargames.core.dist import enumerate_outcomes
from wargames.ntnd.desertion import city_desertion, desertion_areas, fallen_cities
from wargames.ntnd.politics import Policy, PoliticalTrack
from wargames.ntnd.state import NtndState


def position(points=40, policy=Policy(), us=True):
    """Two I Corps cities held by the Communists; ARVN 1 (division, morale 2) and two regiments in 1611, a
    ranger (morale 3) in II Corps at Qui Nhon; a US brigade in III Corps unless ``us`` is False."""
    s = NtndState(turn=10, phase="reinforcement", track=PoliticalTrack(points), policy=policy)
    for u, at in (("VC reg 1", "1610"), ("NVA 304", "1811"), ("ARVN 1", "1712"), ("ARVN reg 42", "1611"),
                  ("ARVN reg 51", "1611"), ("ARVN ranger 1", "2118")):
        s.place(u, at)
    if us:
        s.place("US 1/1", "1326")
    return s


def run(s, rolls):
    with ScriptedDice(list(rolls)) as d:
        return city_desertion(s, d)


@pytest.mark.rule("NT 25.3")
def test_two_cities_lost_make_the_corps_roll():
    s = position()
    assert fallen_cities(s, "I") == ("Hue", "Da Nang") and desertion_areas(s) == ("I",)
    new, res = run(s, [3, 2, 6])            # ARVN 1 deserts (3 > 2), reg 42 stays (2), reg 51 deserts (6)
    assert res.result == ("ARVN 1", "ARVN reg 51")
    assert {"ARVN 1", "ARVN reg 51"} <= new.dead and "ARVN reg 42" in new.pieces
    assert "ARVN ranger 1" in new.pieces                       # II Corps has not lost its cities: no roll
    assert new.track.points == s.track.points                  # deserters give no points
    supply = [u for u in new.at("1712") if new.counter(u).type == "supply"]
    assert len(supply) == 1 and new.side_of(supply[0]) == "communist"      # a division deserted there
    assert not [u for u in new.at("1611") if new.side_of(u) == "communist"]  # only one regiment of 1611 left


@pytest.mark.rule("NT 25.3")
def test_two_regiments_of_one_hex_leave_a_supply_unit():
    new, res = run(position(), [1, 3, 4])
    assert res.result == ("ARVN reg 42", "ARVN reg 51")
    assert [new.counter(u).type for u in new.at("1611")] == ["supply"]


@pytest.mark.rule("NT 25.3")
def test_roll_equal_to_morale_stays_and_one_city_is_not_enough():
    new, res = run(position(), [2, 2, 2])
    assert res.result == () and new.dead == set()
    s = position()
    s.remove("NVA 304")
    assert desertion_areas(s) == ()
    assert run(s, [])[1].result == ()
    s.place("NVA 304", "1811", face_up=False)           # an inverted unit does not occupy the city (our reading)
    assert desertion_areas(s) == ()


@pytest.mark.rule("NT 25.3")
def test_saigon_makes_the_whole_country_roll():
    s = position()
    s.place("VC reg 2", "1327")
    assert desertion_areas(s) == ("I", "II", "III", "IV")
    new, res = run(s, [1, 1, 1, 4])                     # the ranger in II Corps rolls too: 4 > 3
    assert res.result == ("ARVN ranger 1",)


@pytest.mark.rule("NT 25.3", "NT 25.1")
def test_only_when_demoralized_under_the_25_3_regime():
    assert run(position(points=50), [])[1].result == ()                      # 25.1: 50 is not demoralized
    assert run(position(us=False), [])[1].result == ()                       # no US ground unit: 25.4 instead
    full = Policy().declare_full(1)
    new, res = run(position(us=False, policy=full), [3, 1, 1])               # Full Vietnamization: 25.3 applies
    assert res.result == ("ARVN 1",)
    assert run(position(points=60), [])[1].result == ()
    with ScriptedDice([6, 6, 6]) as d:
        assert city_desertion(position(points=60), d, points=40)[1].result == ("ARVN 1", "ARVN reg 42",
                                                                                "ARVN reg 51")


@pytest.mark.rule("NT 25.3")
def test_exact_odds():
    s = position()
    dist = enumerate_outcomes(lambda d: len(city_desertion(s, d)[1].result))
    assert dist[0] == Fraction(1, 27) and dist[3] == Fraction(8, 27)          # each stays on 1-2: 1/3
