"""NT 21 random events applied to a position: the roll and the 21.2 checks read from the position's history,
political points and their dice, coups, the Allied choice of corps, and the record left for the next turn."""
from fractions import Fraction as F

import pytest

from wargames.core import Resolution, ScriptedDice, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.ntnd import events as ev
from wargames.ntnd.charts import default_charts
from wargames.ntnd import hearts_minds as hm
from wargames.ntnd import political as pol
from wargames.ntnd.politics import Policy, PoliticalTrack
from wargames.ntnd.state import NtndState


def position(**boxes) -> NtndState:
    s = NtndState(turn=20, phase="random_events", track=PoliticalTrack(100))
    s.hearts_minds = {a: boxes.get(a, "neutral") for a in ("I", "II", "III", "IV", "Laos", "Cambodia")}
    return s


def number(state):
    def roll(d):
        e = ev.roll_event(state, d)
        return None if e is None else e.number
    return roll


@pytest.mark.rule("NT 21.1")
def test_each_reading_11_to_36_is_an_event_and_the_rest_none():
    dist = enumerate_outcomes(number(position()))
    assert dist[None] == F(1, 2) and all(dist[n] == F(1, 36) for n in default_charts().random_events.events)
    with ScriptedDice([2, 4]) as d:
        assert ev.roll_event(position(), d).number == 24       # the Communist die is the tens
    with ScriptedDice([4, 2]) as d:
        assert ev.roll_event(position(), d) is None


@pytest.mark.rule("NT 21.2")
def test_once_a_game_and_superseded_events_do_not_happen():
    s = position()
    s.events_occurred = frozenset({36})
    assert enumerate_outcomes(number(s))[None] == F(19, 36)
    s = position()
    s.standing["Cambodia"] = "allied"                          # a coup there is superseded
    dist = enumerate_outcomes(number(s))
    assert dist[None] == F(19, 36) and 11 not in dist and 12 in dist
    s.standing["Laos"] = "allied"                              # Laotian coup and Laotian intervention too
    assert enumerate_outcomes(number(s))[None] == F(21, 36)


@pytest.mark.rule("NT 21.2")
def test_applying_a_ruled_out_event_is_refused():
    s = position()
    s.events_occurred = frozenset({13})
    with pytest.raises(RuleViolation, match="once a game"), ScriptedDice([]) as d:
        ev.apply_event(s, 13, d)
    s.standing["Laos"] = "allied"
    with pytest.raises(RuleViolation, match="superseded"), ScriptedDice([]) as d:
        ev.apply_event(s, 12, d)
    assert s.standing["Laos"] == "allied" and s.events_occurred == {13}


@pytest.mark.rule("NT 21.1")
def test_political_dice():
    s = position()
    with ScriptedDice([4]) as d:
        new, nxt = ev.apply_event(s, 24, d)
    assert (new.track.points, s.track.points, nxt.flags, dict(nxt.replacements)) == (96, 100, frozenset(), {})
    assert new.events_occurred == frozenset()                 # not a once-a-game event
    dist = enumerate_outcomes(lambda d: ev.apply_event(s, 36, d)[0].track.points)
    assert (dist[98], dist[93], dist[88], dist.expectation()) == (F(1, 36), F(1, 6), F(1, 36), 93)


@pytest.mark.rule("NT 21.2")
def test_a_once_event_is_recorded_and_cannot_recur():
    s = position()
    with ScriptedDice([6, 6]) as d:
        new, _ = ev.apply_event(s, 36, d)
    assert new.track.points == 88 and new.events_occurred == {36}
    with ScriptedDice([3, 6]) as d:                            # reading 36 again: no event
        assert ev.roll_event(new, d) is None


@pytest.mark.rule("NT 10.5.2", "NT 21.2")
def test_a_coup_ends_neutrality_at_no_cost():
    s = position()
    res = Resolution()
    with ScriptedDice([]) as d:
        new, _ = ev.apply_event(s, 11, d, res=res)
    assert new.standing == {"Laos": "neutral", "Cambodia": "allied"} and new.track == s.track
    assert s.standing["Cambodia"] == "neutral" and 11 in new.events_occurred
    assert "NT 10.5.2" in res.rules()


@pytest.mark.rule("NT 21.1", "NT 7.3.1")
def test_saigon_coup_withholds_the_svn_points_next_turn():
    s = position(I="allied_control")
    with ScriptedDice([2]) as d:
        new, nxt = ev.apply_event(s, 13, d)
    assert new.track.points == 98 and nxt.flags == {"no_svn_replacements"} and nxt.turn == 21
    assert hm.svn_replacement_points(new) == 1 and hm.svn_replacement_points(new, next_turn=nxt.flags) == 0


@pytest.mark.rule("NT 21.1")
def test_pacification_moves_the_corps_the_allied_player_names():
    s = position(I="allied_control", II="pro_allied")
    with ScriptedDice([]) as d:
        new, _ = ev.apply_event(s, 35, d, corps="II")
    assert new.hearts_minds["II"] == "allied_control" and s.hearts_minds["II"] == "pro_allied"
    for bad in (None, "I", "Laos"):
        with pytest.raises(RuleViolation), ScriptedDice([]) as d:
            ev.apply_event(s, 35, d, corps=bad)
    full = position(**{k: "allied_control" for k in ("I", "II", "III", "IV")})
    with ScriptedDice([]) as d:
        new, _ = ev.apply_event(full, 35, d)                   # nothing can move: no choice needed
    assert new.hearts_minds == full.hearts_minds


@pytest.mark.rule("NT 21.1", "NT 4.1.5", "NT 4.2.2")
def test_next_turn_record():
    s = position()
    cases = {25: ({"US": -1}, {}, ""), 33: ({"SEATO": 1}, {}, ""), 22: ({}, {"cadre": 2}, "South Vietnam"),
             16: ({}, {"sam": 1}, "China")}
    for n, (rp, units, place) in cases.items():
        with ScriptedDice([]) as d:
            new, nxt = ev.apply_event(s, n, d)
        assert (dict(nxt.replacements), dict(nxt.communist_units), nxt.place, nxt.event) == (rp, units, place, n)
        assert new.track == s.track and new.hearts_minds == s.hearts_minds


@pytest.mark.rule("NT 21.1", "NT 24.2.4")
def test_casualty_lists_make_us_replacements_cost_under_full_vietnamization():
    s = position()
    with ScriptedDice([]) as d:
        _, nxt = ev.apply_event(s, 31, d)
    us = s.counter("US 1/1")
    full = Policy(vietnamization="full")
    assert pol.immediate_points("replaced", us, policy=full).points == 0
    assert pol.immediate_points("replaced", us, policy=full, next_turn=nxt.flags).points == -2


@pytest.mark.rule("NT 24.2.10")
def test_event_points_respect_the_full_vietnamization_bounds():
    s = position()
    s.turn, s.policy, s.track = 10, Policy(vietnamization="full"), PoliticalTrack(3)
    with ScriptedDice([6, 6]) as d:
        assert ev.apply_event(s, 36, d)[0].track.points == 1


@pytest.mark.rule("NT 3.2.8")
def test_the_whole_phase():
    with ScriptedDice([2, 4, 5]) as d:
        new, nxt = ev.random_events_phase(position(), d)
    assert new.track.points == 95 and nxt.event == 24
    with ScriptedDice([5, 5]) as d:
        new, nxt = ev.random_events_phase(position(), d)
    assert nxt.event is None and new.track.points == 100
