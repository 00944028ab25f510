"""NT 22-27: the political state (Vietnamization, elections, peace party, uprising, aid) and what it changes."""
import pytest

from wargames.core.errors import RuleViolation
from fractions import Fraction

from wargames.core.dice import ScriptedDice
from wargames.core.dist import enumerate_outcomes
from wargames.ntnd.charts import aid_result
from wargames.ntnd.politics import (ALLIED_WIN, IMPOSED, PEACE_PARTY, Policy, PoliticalTrack, Withdrawals,
                                    arvn_points_for_withdrawals, election_odds, election_result, election_total,
                                    election_totals)

BASE = Policy()
FULL = BASE.declare_full(3)
PARTIAL = BASE.declare_partial(20)
REV_FULL = FULL.reverse()
REV_PARTIAL = PARTIAL.reverse()
PEACE = BASE.hold_election(1968, 15, 100)          # 100 < 150: the peace party wins


@pytest.mark.rule("NT 24.2", "NT 24.1")
def test_full_vietnamization_only_before_jan_feb_1966_and_once():
    assert FULL.full_in_effect and FULL.vietnamized
    assert BASE.declare_full(5).full_in_effect
    with pytest.raises(RuleViolation, match="NT 24.2"):
        BASE.declare_full(6)
    with pytest.raises(RuleViolation, match="once"):
        FULL.declare_partial(10)
    with pytest.raises(RuleViolation, match="once"):
        REV_FULL.declare_full(4)


@pytest.mark.rule("NT 24.3")
def test_partial_vietnamization_refused_after_a_peace_party_win_and_its_benefits_cancelled():
    assert PARTIAL.partial_in_effect and not PARTIAL.full_in_effect
    with pytest.raises(RuleViolation, match="NT 24.3"):
        PEACE.declare_partial(30)
    lost = PARTIAL.hold_election(1968, 18, 150)
    assert lost.peace_party and not lost.partial_in_effect and lost.vietnamized


@pytest.mark.rule("NT 23.2", "NT 24.2.7", "NT 24.4.1", "NT 24.4.2")
def test_election_dice():
    assert BASE.election_dice(1968) == 3 and BASE.election_dice(1972) == 4
    assert FULL.election_dice(1968) == 2 and FULL.election_dice(1972) == 3
    assert PARTIAL.election_dice(1968) == 3
    assert REV_PARTIAL.election_dice(1968) == 4
    assert REV_FULL.election_dice(1968) == 5
    # the extra dice are for the next election only
    after = REV_FULL.hold_election(1968, 20, 240)
    assert after.election_dice(1972) == 4
    with pytest.raises(RuleViolation, match="NT 23.1"):
        BASE.election_dice(1970)


@pytest.mark.rule("NT 23.1", "NT 23.2", "NT 23.8")
def test_election_outcomes():
    # fewer points than ten times the dice: the peace party wins; equal is not fewer
    assert BASE.hold_election(1968, 15, 149).peace_party
    won = BASE.hold_election(1968, 15, 150)
    assert not won.peace_party and not won.vietnamized and won.elections == ((1968, False),)
    # a win under 100 points imposes Partial Vietnamization, never to be reversed
    forced = BASE.hold_election(1968, 8, 99)
    assert not forced.peace_party and forced.partial_in_effect and forced.forced
    with pytest.raises(RuleViolation, match="NT 23.8"):
        forced.reverse()
    assert not BASE.hold_election(1968, 8, 100).forced
    # ... and the next election is lost outright while US or SEATO units remain
    assert forced.hold_election(1972, 4, 240, us_or_seato_left=1).peace_party
    assert not forced.hold_election(1972, 4, 240, us_or_seato_left=0).peace_party
    with pytest.raises(RuleViolation, match="already"):
        won.hold_election(1968, 15, 200)
    with pytest.raises(RuleViolation, match="cannot total"):
        BASE.hold_election(1968, 19, 200)
    with pytest.raises(RuleViolation, match="cannot total"):
        FULL.hold_election(1968, 13, 200)       # two dice under Full Vietnamization


@pytest.mark.rule("NT 24.4", "NT 24.4.3", "NT 24.4.4")
def test_reversal():
    assert REV_FULL.win_threshold == REV_PARTIAL.win_threshold == 300 and BASE.win_threshold == 250
    assert REV_FULL.aid == {"China", "USSR"} and not REV_FULL.vietnamized
    assert REV_FULL.basic_cadres(10, 0) == 3
    with pytest.raises(RuleViolation, match="NT 24.4"):
        BASE.reverse()
    with pytest.raises(RuleViolation, match="NT 24.4.4"):
        PARTIAL.hold_election(1968, 18, 150).reverse()
    after_1972 = PARTIAL.hold_election(1968, 3, 200).hold_election(1972, 4, 200)
    with pytest.raises(RuleViolation, match="1972"):
        after_1972.reverse()
    assert PARTIAL.hold_election(1968, 3, 200).reverse().reversed_from == "partial"


@pytest.mark.rule("NT 4.1.1", "NT 24.2.9", "NT 24.3.4", "NT 26.2")
def test_basic_cadres():
    assert BASE.basic_cadres(5, 0) == 3
    assert FULL.basic_cadres(5, 6) == 2
    assert PARTIAL.basic_cadres(30, 1) == 3 and PARTIAL.basic_cadres(30, 0) == 2
    up = BASE.declare_uprising(12)
    assert [up.basic_cadres(t, 10) for t in range(11, 18)] == [3, 0, 0, 0, 0, 3, 3]


@pytest.mark.rule("NT 26.1", "NT 26.3", "NT 26.5", "NT 26.6", "NT 26.7", "NT 4.1.7")
def test_uprising():
    with pytest.raises(RuleViolation, match="NT 26.1"):
        BASE.declare_uprising(11)
    up = BASE.declare_uprising(14)
    with pytest.raises(RuleViolation, match="already"):
        up.declare_uprising(20)
    assert [up.uprising_turn(t) for t in (13, 14, 17, 18)] == [None, 1, 4, None]
    assert up.uprising_recruits(15) == ({"cadre": 3, "regiment": 1},)
    assert up.uprising_recruits(16) == ({"regiment": 1}, {"cadre": 2})
    assert up.uprising_recruits(18) == ()
    assert up.rally_turn() == 16 and BASE.rally_turn() is None
    # six turns of one VC basic cadre after the four uprising turns, then two for the rest of the game
    assert [up.viet_cong_basic_cadres(t) for t in (13, 17, 18, 23, 24, 60)] == [3, 3, 1, 1, 2, 2]
    assert BASE.nva_division_limit(40) == 10
    assert up.nva_division_limit(13) == 10 and up.nva_division_limit(14) is None


@pytest.mark.rule("NT 27.1", "NT 27.1.1", "NT 27.1.2", "NT 14.2.2")
def test_aid_modifiers_come_from_the_policy_and_their_values_from_the_chart():
    assert BASE.aid_modifiers() == ()
    assert FULL.aid_modifiers() == ("full_vietnamization",)
    assert PARTIAL.aid_modifiers() == ("partial_vietnamization",)
    assert PEACE.aid_modifiers() == ("election_withdrawal",)
    assert FULL.hold_election(1968, 12, 100).aid_modifiers() == ("full_vietnamization", "election_withdrawal")
    assert BASE.aid_modifiers(allied_ground_in_nv=True) == ("allied_ground_units_in_north_vietnam",)
    mined = BASE.mine_haiphong()
    assert mined.aid_modifiers() == ("haiphong_mined",)
    with pytest.raises(RuleViolation):
        mined.mine_haiphong()
    # the chart adds them: the largest of the withdrawal group, the Soviet-only mines
    assert aid_result("China", 4, FULL.hold_election(1968, 12, 100).aid_modifiers()).modified == 2
    assert aid_result("USSR", 4, mined.aid_modifiers()).modified == 5
    assert aid_result("China", 4, mined.aid_modifiers()).modified == 4
    assert aid_result("China", 4, PARTIAL.aid_modifiers(allied_ground_in_nv=True)).modified == 5
    assert BASE.grant_aid("China").aid == {"China"}
    with pytest.raises(RuleViolation, match="NT 27.1"):
        BASE.grant_aid("Cuba")


@pytest.mark.rule("NT 4.2.3", "NT 23.4", "NT 24.2.4", "NT 24.4.1", "NT 4.2.2", "NT 24.2.5")
def test_replacement_costs_and_points():
    assert BASE.replacement_pp("US") == 2 and BASE.replacement_pp("ROK") == 2 and BASE.replacement_pp("SVN") == 0
    assert FULL.replacement_pp("US") == 0 and FULL.replacement_pp("Thai") == 1
    assert BASE.replacement_pp("SEATO") == BASE.replacement_pp("ANZAC") == 2     # the SEATO firebase too
    assert REV_FULL.replacement_pp("US") == 3 and REV_PARTIAL.replacement_pp("US") == 3
    with pytest.raises(RuleViolation, match="NT 23.4"):
        PEACE.replacement_pp("US")
    assert BASE.us_replacement_points() == 2 and FULL.us_replacement_points() == 3
    assert PEACE.us_replacement_points() == 1
    assert FULL.hold_election(1968, 2, 240).us_replacement_points() == 3
    assert FULL.hold_election(1968, 12, 100).us_replacement_points() == 1


@pytest.mark.rule("NT 24.2.1", "NT 24.4.6", "NT 24.2.8", "NT 23.5")
def test_costs_of_operations():
    assert FULL.us_ground_limit() == 6 and BASE.us_ground_limit() is None
    assert FULL.build_cost_factor("militia", "SVN") == FULL.build_cost_factor("montagnard", "SVN") == Fraction(1, 2)
    assert FULL.build_cost_factor("militia", "Cambodian") == Fraction(1, 2)
    assert FULL.build_cost_factor("militia", "Laotian") == FULL.build_cost_factor("infantry", "SVN") == 1
    assert BASE.build_cost_factor("militia", "SVN") == PARTIAL.build_cost_factor("montagnard", "SVN") == 1
    assert BASE.attack_pp(True) == 0 and PARTIAL.attack_pp(True) == 1 and FULL.attack_pp(False) == 0
    assert FULL.air_operations_pp(2) == 2 and PARTIAL.air_operations_pp(2) == 0
    assert PEACE.bombing_pp(3) == 3 and BASE.bombing_pp(3) == 0
    assert PEACE.neutrality_factor(True) == 2 and PEACE.neutrality_factor(False) == 1
    assert BASE.neutrality_factor(True) == 1


@pytest.mark.rule("NT 23.3", "NT 23.3.1", "NT 23.3.2", "NT 23.3.3", "NT 23.6", "NT 24.3.1", "NT 24.3.2",
                  "NT 24.3.3")
def test_withdrawals():
    orders = PEACE.withdrawals(die=4, points=99)
    assert orders == Withdrawals(required=4, maximum=10, seato=1, credit_beyond=True)
    assert PEACE.withdrawals(die=4, points=100).seato == 0
    assert [orders.points(n) for n in (2, 3, 4, 5, 10)] == [-4, -2, 0, 1, 6]
    with pytest.raises(RuleViolation, match="NT 23.3.3"):
        orders.points(11)
    with pytest.raises(RuleViolation, match="NT 23.3"):
        PEACE.withdrawals()
    partial = PARTIAL.withdrawals()
    assert partial.required == 2 and partial.points(2) == 2 and partial.points(7) == 7
    with pytest.raises(RuleViolation, match="NT 24.3.1"):
        partial.points(1)
    assert BASE.withdrawals().maximum == 0
    assert [arvn_points_for_withdrawals(n) for n in (3, 4, 9)] == [0, 1, 2]


@pytest.mark.rule("NT 25.1", "NT 25.3", "NT 25.4")
def test_which_morale_rules():
    assert BASE.demoralized(49) and not BASE.demoralized(50)
    assert BASE.morale_rules(60, True) == frozenset()
    assert BASE.morale_rules(40, True) == {"NT 25.3"}
    assert BASE.morale_rules(40, False) == {"NT 25.4"}
    assert FULL.morale_rules(40, False) == {"NT 25.3", "NT 25.4"}
    assert PEACE.morale_rules(40, True) == {"NT 25.3", "NT 25.4"}
    assert PARTIAL.morale_rules(40, True) == {"NT 25.3", "NT 25.4"}


@pytest.mark.rule("NT 22.4", "NT 24.2.10")
def test_track_and_victory():
    track = PoliticalTrack(100)
    assert track.add(151, BASE, 5).winner(BASE) == "allied"
    assert track.add(150, BASE, 5).winner(BASE) is None          # 250 does not exceed 250
    assert track.add(-100, BASE, 5).winner(BASE) is None and track.add(-101, BASE, 5).winner(BASE) == "communist"
    assert PoliticalTrack(290).winner(REV_FULL) is None and PoliticalTrack(301).winner(REV_FULL) == "allied"
    # under Full Vietnamization the track stays in 1..249 until Nov/Dec 1968 (turn 23) is over
    assert track.add(500, FULL, 23).points == 249 and track.add(-500, FULL, 23).points == 1
    assert track.add(500, FULL, 24).points == 600 and track.add(-500, BASE, 5).points == -400


def test_edges_of_elections_and_withdrawals():
    # only an imposed Partial Vietnamization loses an election for US or SEATO units left in play
    assert not BASE.hold_election(1968, 3, 200, us_or_seato_left=5).peace_party
    # the peace party stays in power after a later won election, and a lost election imposes nothing more
    assert PEACE.hold_election(1972, 4, 300).peace_party
    lost_low = BASE.hold_election(1968, 15, 90)
    assert lost_low.peace_party and not lost_low.forced and not lost_low.vietnamized
    assert BASE.viet_cong_basic_cadres(40) == 3
    for die in (None, -1, 7):                 # 0 is the turn no American unit is left, so none is rolled (23.3)
        with pytest.raises(RuleViolation, match="NT 23.3"):
            PEACE.withdrawals(die=die)
    assert PEACE.withdrawals(die=0).required == 0
    assert PEACE.withdrawals(die=1).required == 1 and PEACE.withdrawals(die=6).required == 6
    assert PEACE.withdrawals(die=3).seato == 0
    assert PARTIAL.withdrawals() == Withdrawals(required=2, maximum=10, seato=0, credit_beyond=False)
    assert BASE.withdrawals() == Withdrawals(required=0, maximum=0, seato=0, credit_beyond=False)
    with pytest.raises(RuleViolation, match="negative"):
        PEACE.withdrawals(die=2).points(-1)
    assert PEACE.withdrawals(die=2).points(0) == -4


@pytest.mark.rule("NT 23.2", "NT 23.8", "NT 24.2.7", "NT 24.4.2")
def test_exact_election_odds():
    # 1968: three dice; the peace party wins when 10 x total exceeds the points
    assert election_odds(BASE, 1968, 100)[PEACE_PARTY] == Fraction(1, 2)          # total 11 or more
    assert election_odds(BASE, 1968, 150)[PEACE_PARTY] == Fraction(10, 216)       # total 16 or more
    assert election_odds(BASE, 1972, 150)[PEACE_PARTY] == Fraction(435, 1296)     # four dice, 16 or more
    # Full Vietnamization: one die fewer (2d6 > 15 is 3 chances in 36 ... 16 or more is impossible)
    assert election_odds(FULL, 1968, 150)[PEACE_PARTY] == 0
    assert election_odds(FULL, 1968, 100)[PEACE_PARTY] == Fraction(3, 36)         # 11 or 12 on two dice
    # a reversed Full Vietnamization: five dice
    assert election_odds(REV_FULL, 1968, 240)[PEACE_PARTY] == Fraction(252, 7776)   # five dice, 25 or more
    low = election_odds(BASE, 1968, 90)
    assert low == {PEACE_PARTY: Fraction(5, 8), IMPOSED: Fraction(3, 8)}            # total 10 or more loses
    assert election_result(BASE, 1968, 10, 90) == PEACE_PARTY and election_result(BASE, 1968, 9, 90) == IMPOSED
    assert election_result(BASE, 1968, 9, 100) == ALLIED_WIN


def test_the_election_roll_uses_the_dice_and_its_enumeration_is_exact():
    with ScriptedDice([6, 5, 4]) as dice:
        assert election_total(dice, 3) == 15
    assert election_totals(3) == enumerate_outcomes(election_total, 3)
    assert election_totals(6)[36] == Fraction(1, 6 ** 6) and election_totals(6)[21] == Fraction(4332, 6 ** 6)
