"""FTE actions: Search (F 9.0), Recover (F 10.0), Destroy Cache (F 11.0), Request Medevac (F 12.0), Request Fire
Mission (F 13.0), Load (F 14.0) and Unload (F 15.0)."""
from fractions import Fraction

import pytest

from wargames.core import Resolution, RuleViolation, ScriptedDice, enumerate_outcomes
from wargames.fte import actions as act
from wargames.fte import casualties as cas
from wargames.fte.errata import ORIGINAL, reading
from wargames.fte.state import FireMission, FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Site, Unit

M = demo_map()


def _state(*units: Unit, vp=(10, 10), **kw) -> FteState:
    st = FteState(M, **kw)
    st.vp = {"US": vp[0], "NVA/VC": vp[1]}
    place(st, units)
    return st


def _ft(uid, where, side="US", men=4, **kw):
    return Unit(uid, side, fire_rating=4, weapon="SA", tq=4, range=6 if side == "US" else None, men=men,
                hex=M.hex(where), **kw)


def _leader(uid, where, side="US", role="leader", **kw):
    return Unit(uid, side, role=role, tq=5, men=1, hex=M.hex(where), **kw)


def _slick(uid, where, altitude="ground", **kw):
    return Unit(uid, "US", kind="helicopter", role="slick", tq=5, defense=1, men=4, altitude=altitude,
                hex=M.hex(where), **kw)


def _apc(uid, where, **kw):
    return Unit(uid, "US", kind="vehicle", role="apc", fire_rating=5, weapon="DP", tq=5, range=8, defense=1,
                hex=M.hex(where), **kw)


def _site(st, sid, kind, where, side="NVA", revealed=False):
    st.sites[sid] = Site(sid, kind, side, st.hex(where), revealed=revealed)
    return st.sites[sid]


# --------------------------------------------------------------------------- F 9.0 Search

@pytest.mark.rule("F 9.0", "F 23.0")
def test_a_successful_search_reveals_every_hidden_enemy_site_in_the_hex():
    st = _state(_ft("a", "22.19"))
    for sid, kind in (("c1", "rice"), ("d1", "dummy"), ("f1", "foxholes"), ("b1", "bunker")):
        _site(st, sid, kind, "22.19")
    _site(st, "own", "ammo", "22.19", side="US")
    res = Resolution()
    with ScriptedDice([4]) as d:
        assert act.search(st, "a", d, res)
    assert "d1" not in st.sites and st.sites["c1"].revealed and st.sites["f1"].revealed and st.sites["b1"].revealed
    assert not st.sites["own"].revealed
    assert st.vp["US"] == 10 + 1 + 1                    # cache and bunker score; dummy and foxholes do not


@pytest.mark.rule("F 9.0")
def test_failed_searches_pile_up_searching_markers_that_help_only_searches():
    st = _state(_ft("a", "22.19"))
    _site(st, "c1", "ammo", "22.19")
    res = Resolution()
    for n in (1, 2):
        assert not act.search(st, "a", ScriptedDice([9]), res)
        assert st.units["a"].searching == n
    with ScriptedDice([6]) as d:                         # 6 - 2 = 4 <= TQ 4
        assert act.search(st, "a", d, res)
    assert st.units["a"].searching == 0 and st.sites["c1"].revealed


@pytest.mark.rule("F 9.0")
def test_searching_markers_go_with_any_other_action():
    st = _state(_ft("a", "22.19", searching=3))
    act.recover(st, "a", Resolution())
    assert st.units["a"].searching == 0


@pytest.mark.rule("F 9.0")
@pytest.mark.parametrize("markers,p", [(0, Fraction(2, 5)), (1, Fraction(1, 2)), (3, Fraction(7, 10)),
                                       (9, Fraction(9, 10))])
def test_exact_search_odds(markers, p):
    def proc(dice):
        st = _state(_ft("a", "22.19", searching=markers))
        _site(st, "c1", "rice", "22.19")
        return act.search(st, "a", dice, Resolution())
    assert enumerate_outcomes(proc)[True] == p           # a 10 always fails, whatever the markers


@pytest.mark.rule("F 9.0", "F 18.1", "F 21.0")
def test_search_costs_concealment_in_sight_and_draws_opportunity_fire_after_the_check():
    st = _state(_ft("a", "19.19", concealed=True), _ft("n", "20.20", side="NVA"))
    _site(st, "c1", "rice", "19.19")
    calls = []

    def opfire(state, ids, h, dice, res):
        calls.append((ids, state.label(h), len(res.find("F 9.0"))))
        return False
    act.search(st, "a", ScriptedDice([9]), Resolution(), opfire=opfire)
    assert not st.units["a"].concealed
    assert calls and calls[0][:2] == (["a"], "19.19") and calls[0][2] >= 1


@pytest.mark.rule("F 9.0")
def test_search_needs_a_hidden_enemy_site_and_a_fit_unit():
    st = _state(_ft("a", "22.19"), _ft("b", "22.19", broken=True), Unit("dm", "VC", role="dummy", men=1,
                                                                         hex=M.hex("22.18")))
    with pytest.raises(RuleViolation) as e:
        act.search(st, "a", ScriptedDice([1]), Resolution())
    assert e.value.rule == "F 9.0"
    _site(st, "c1", "rice", "22.19")
    with pytest.raises(RuleViolation) as e:
        act.search(st, "b", ScriptedDice([1]), Resolution())
    assert e.value.rule == "F 7.4"
    with pytest.raises(RuleViolation) as e:
        act.search(st, "dm", ScriptedDice([1]), Resolution())
    assert e.value.rule == "F 22.0"


# --------------------------------------------------------------------------- F 10.0 Recover

@pytest.mark.rule("F 10.0")
def test_recover_clears_exhausted_and_steps_broken_down_to_suppressed():
    st = _state(_ft("a", "22.19", exhausted=True, broken=True))
    done = act.recover(st, "a", Resolution())
    u = st.units["a"]
    assert done == ["exhausted", "broken->suppressed"] and not u.exhausted and not u.broken and u.suppressed
    act.recover(st, "a", Resolution())
    assert not u.suppressed


@pytest.mark.rule("F 10.0")
def test_a_broken_vehicle_stays_broken():
    st = _state(_apc("v", "22.19", broken=True, suppressed=False))
    act.recover(st, "v", Resolution())
    assert st.units["v"].broken


@pytest.mark.rule("F 10.0", "F 19.2")
def test_low_ammo_needs_a_partner_without_low_ammo_or_an_nva_ammo_cache():
    st = _state(_ft("a", "22.19", low_ammo=True), _leader("l", "22.19"))
    act.recover(st, "a", Resolution())
    assert st.units["a"].low_ammo                        # a leader does not share ammunition
    place(st, [_ft("b", "22.19", low_ammo=True)])
    act.recover(st, "a", Resolution())
    assert st.units["a"].low_ammo                        # nor does a unit short itself
    st.units["b"].low_ammo = False
    act.recover(st, "a", Resolution())
    assert not st.units["a"].low_ammo
    nva = _state(_ft("n", "25.23", side="NVA", low_ammo=True))
    _site(nva, "am", "ammo", "25.23")
    act.recover(nva, "n", Resolution())
    assert not nva.units["n"].low_ammo and not nva.sites["am"].revealed


@pytest.mark.rule("F 10.0", "F 7.5.2")
def test_recover_picks_up_or_hands_over_one_marker():
    st = _state(_ft("a", "22.19"), _ft("b", "22.19", activated=True))
    res = Resolution()
    m1 = cas.place_marker(st, "WIA", "US", st.hex("22.19"), res, "F 7.5.1")
    act.recover(st, "a", res, pick_up=m1.id)
    act.recover(st, "a", res, transfer=(m1.id, "b"))
    assert m1.carried_by == "b"
    with pytest.raises(RuleViolation):
        act.recover(st, "a", res, pick_up=m1.id, transfer=(m1.id, "b"))


# --------------------------------------------------------------------------- F 11.0 Destroy Cache

@pytest.mark.rule("F 11.0", "F 24.0")
def test_us_infantry_destroy_a_revealed_cache_or_bunker_for_points():
    st = _state(_ft("a", "22.19"))
    _site(st, "c1", "medical", "22.19", revealed=True)
    _site(st, "b1", "bunker", "22.19", revealed=True)
    assert act.destroy_cache(st, "a", Resolution()) == "b1"   # first by id
    assert act.destroy_cache(st, "a", Resolution(), site="c1") == "c1"
    assert not st.sites and st.vp["US"] == 14


@pytest.mark.rule("F 11.0", "F 25.0")
def test_destroy_cache_refusals():
    st = _state(_ft("a", "22.19"), _ft("s", "22.19", suppressed=True), _ft("n", "22.19", side="NVA"))
    _site(st, "h1", "rice", "22.19")
    with pytest.raises(RuleViolation) as e:
        act.destroy_cache(st, "a", Resolution())            # still hidden
    assert e.value.rule == "F 11.0"
    _site(st, "f1", "foxholes", "22.19", revealed=True)
    with pytest.raises(RuleViolation) as e:
        act.destroy_cache(st, "a", Resolution(), site="f1")
    assert e.value.rule == "F 25.0"
    st.sites["h1"].revealed = True
    with pytest.raises(RuleViolation) as e:
        act.destroy_cache(st, "s", Resolution())
    assert e.value.rule == "F 11.0"
    with pytest.raises(RuleViolation) as e:
        act.destroy_cache(st, "n", Resolution())
    assert e.value.rule == "F 11.0"


# --------------------------------------------------------------------------- F 12.0 Request Medevac

@pytest.mark.rule("F 12.0", "F Medevac Table")
@pytest.mark.parametrize("roll,arrives", [(1, 4), (2, 5), (3, 5), (4, 6), (5, 6), (6, 7), (7, 7), (8, 8), (9, 8),
                                          (10, None)])
def test_medevac_request_table(roll, arrives):
    st = _state(_leader("l", "22.19"), turn=3)
    with ScriptedDice([roll]) as d:
        assert act.request_medevac(st, "l", d, Resolution()) == arrives
    assert st.medevac_turn == arrives


@pytest.mark.rule("F 12.0")
def test_exact_medevac_delay_distribution():
    def proc(dice):
        st = _state(_leader("l", "22.19"))
        t = act.request_medevac(st, "l", dice, Resolution())
        return None if t is None else t - st.turn
    dist = enumerate_outcomes(proc)
    assert dict(dist) == {1: Fraction(1, 10), 2: Fraction(1, 5), 3: Fraction(1, 5), 4: Fraction(1, 5),
                          5: Fraction(1, 5), None: Fraction(1, 10)}
    assert dist.expectation(lambda o: o or 0) == Fraction(29, 10)


@pytest.mark.rule("F 12.0")
def test_one_medevac_pending_at_a_time_and_who_may_ask():
    st = _state(_leader("l", "22.19"), _leader("s", "22.19", suppressed=True), _ft("a", "22.19"),
                _leader("n", "22.18", side="NVA"))
    act.request_medevac(st, "l", ScriptedDice([4]), Resolution())
    with pytest.raises(RuleViolation) as e:
        act.request_medevac(st, "l", ScriptedDice([1]), Resolution())
    assert e.value.rule == "F 12.0"
    st.medevac_turn = None
    for uid in ("s", "a", "n"):
        with pytest.raises(RuleViolation) as e:
            act.request_medevac(st, uid, ScriptedDice([1]), Resolution())
        assert e.value.rule == "F 12.0"


@pytest.mark.rule("F 12.0", "F 14.0", "F 7.5.3")
def test_medevac_round_trip_loads_casualties_only_leaves_next_turn_and_scores():
    st = _state(_leader("l", "17.23"), _ft("a", "17.23"))
    res = Resolution()
    act.request_medevac(st, "l", ScriptedDice([1]), res)
    with pytest.raises(RuleViolation):
        act.medevac_arrives(st, res)                       # not yet
    st.turn = 2
    heli = act.medevac_arrives(st, res, where="17.23")
    assert st.medevac_unit == heli.id and st.medevac_turn is None and heli.altitude == "treetop"
    with pytest.raises(RuleViolation) as e:
        act.request_medevac(st, "l", ScriptedDice([1]), res)   # one is on the map
    assert e.value.rule == "F 12.0"
    w = cas.place_marker(st, "WIA", "US", st.hex("17.23"), res, "F 7.5.1")
    k = cas.place_marker(st, "KIA", "US", st.hex("17.23"), res, "F 7.5.1")
    with pytest.raises(RuleViolation) as e:
        act.load(st, heli.id, res, markers=[w.id])          # still at treetop
    assert e.value.rule == "F 14.0"
    heli.altitude = "ground"
    with pytest.raises(RuleViolation) as e:
        act.load(st, heli.id, res, units=["a"])
    assert e.value.rule == "F 12.0"
    act.load(st, heli.id, res, markers=[w.id, k.id])
    assert act.troops_aboard(st, heli) == 2 and heli.leaves_turn == 3
    st.turn = 3
    assert act.departures_due(st) == [heli.id]
    act.enforce_departures(st, res)
    assert st.vp["US"] == 10 + 3 + 2 and st.medevac_unit is None and not st.casualties
    act.request_medevac(st, "l", ScriptedDice([10]), res)  # a new request is allowed again


@pytest.mark.rule("F 12.0")
def test_a_medevac_loads_from_a_single_hex():
    heli = _slick("m", "17.23")
    st = _state(heli, _ft("a", "17.23"), _ft("b", "17.22"))
    st.medevac_unit = "m"
    res = Resolution()
    m1 = cas.place_marker(st, "WIA", "US", st.hex("17.23"), res, "F 7.5.1")
    m2 = cas.place_marker(st, "WIA", "US", st.hex("17.22"), res, "F 7.5.1")
    act.load(st, "m", res, markers=[m1.id])
    heli.hex = st.hex("17.22")
    with pytest.raises(RuleViolation) as e:
        act.load(st, "m", res, markers=[m2.id])
    assert e.value.rule == "F 12.0"


# --------------------------------------------------------------------------- F 13.0 Request Fire Mission

@pytest.mark.rule("F 13.0", "F Fire Request Table")
def test_a_leader_calls_fire_on_a_hex_he_sees():
    st = _state(_leader("l", "20.20"), turn=2)
    with ScriptedDice([4]) as d:
        m = act.request_fire_mission(st, "l", "19.19", d, Resolution())
    assert (m.mission, m.turn, m.side, st.label(m.target)) == ("ARTY", 3, "US", "19.19")
    assert st.fire_missions == [m]


@pytest.mark.rule("F 13.0")
def test_target_must_be_seen_or_hold_or_touch_a_visible_enemy():
    st = _state(_leader("l", "20.20"))
    with pytest.raises(RuleViolation) as e:
        act.request_fire_mission(st, "l", "22.18", ScriptedDice([2]), Resolution())   # 21.19 blocks
    assert e.value.rule == "F 13.0"
    place(st, [_ft("n", "22.17", side="NVA", concealed=True)])
    with pytest.raises(RuleViolation):
        act.request_fire_mission(st, "l", "22.18", ScriptedDice([2]), Resolution())   # concealed: no help
    st.units["n"].concealed = False
    m = act.request_fire_mission(st, "l", "22.18", ScriptedDice([2]), Resolution())  # next to a Visible enemy
    assert m.mission == "BN Mortar" and m.turn == 2


@pytest.mark.rule("F 13.0")
def test_forward_observer_and_pending_missions_modify_the_roll():
    st = _state(_leader("fo", "20.20", role="fo"))
    m = act.request_fire_mission(st, "fo", "19.19", ScriptedDice([5]), Resolution())     # 5 - 1 = row 4
    assert (m.mission, m.turn - st.turn) == ("ARTY", 1)
    st2 = _state(_leader("l", "20.20"))
    st2.fire_missions = [FireMission("US", "ARTY", st2.hex("19.19"), 5), FireMission("US", "ARTY", st2.hex("19.19"), 5),
                         FireMission("NVA/VC", "ARTY", st2.hex("19.19"), 5)]
    res = Resolution()
    m2 = act.request_fire_mission(st2, "l", "19.19", ScriptedDice([5]), res)            # 5 + 2 = row 7
    assert (m2.mission, m2.turn - st2.turn) == ("ARTY", 3)


@pytest.mark.rule("F 13.0")
def test_natural_rolls_and_overflow():
    st = _state(_leader("l", "20.20"))
    st.fire_missions = [FireMission("US", "ARTY", st.hex("19.19"), 9)] * 3
    m = act.request_fire_mission(st, "l", "19.19", ScriptedDice([1]), Resolution())     # 1 beats +3
    assert (m.mission, m.turn) == ("BN Mortar", 1)
    assert act.request_fire_mission(st, "l", "19.19", ScriptedDice([8]), Resolution()) is None   # 8 + 4 > 10
    fo = _state(_leader("fo", "20.20", role="fo"))
    assert act.request_fire_mission(fo, "fo", "19.19", ScriptedDice([10]), Resolution()) is None  # natural 10


@pytest.mark.rule("F 13.0", "F Errata")
def test_vc_leaders_may_not_call_fire_under_the_errata_but_nva_may():
    vc = _leader("v", "20.20", side="VC")
    st = _state(vc, _leader("n", "20.20", side="NVA"))
    with pytest.raises(RuleViolation) as e:
        act.request_fire_mission(st, "v", "19.19", ScriptedDice([2]), Resolution())
    assert e.value.rule == "F 13.0"
    m = act.request_fire_mission(st, "n", "19.19", ScriptedDice([3]), Resolution())
    assert (m.mission, m.turn - st.turn, m.side) == ("BN Mortar", 2, "NVA/VC")          # NVA column row 3
    orig = _state(_leader("v", "20.20", side="VC"), readings=ORIGINAL)
    assert act.request_fire_mission(orig, "v", "19.19", ScriptedDice([2]), Resolution()).mission == "BN Mortar"


@pytest.mark.rule("F 13.0")
def test_who_may_request():
    st = _state(_ft("a", "20.20"), _leader("b", "20.20", broken=True), _leader("s", "20.20", suppressed=True))
    for uid, rule in (("a", "F 13.0"), ("b", "F 7.4"), ("s", "F 13.0")):
        with pytest.raises(RuleViolation) as e:
            act.request_fire_mission(st, uid, "19.19", ScriptedDice([2]), Resolution())
        assert e.value.rule == rule


@pytest.mark.rule("F 13.0", "F 19.8")
def test_the_aerial_observer_cuts_new_us_delays_by_one_turn():
    st = _state(_leader("l", "20.20"), _leader("n", "20.20", side="NVA"))
    st.aerial_observer = True
    assert act.request_fire_mission(st, "l", "19.19", ScriptedDice([7]), Resolution()).turn == st.turn + 2
    assert act.request_fire_mission(st, "l", "19.19", ScriptedDice([1]), Resolution()).turn == st.turn   # 0 stays 0
    assert act.request_fire_mission(st, "n", "19.19", ScriptedDice([2]), Resolution()).turn == st.turn + 1  # NVA: no


@pytest.mark.rule("F 13.0", "F Fire Request Table")
def test_exact_us_fire_request_odds_for_a_leader_with_nothing_pending():
    def proc(dice):
        st = _state(_leader("l", "20.20"))
        m = act.request_fire_mission(st, "l", "19.19", dice, Resolution())
        return "Denied" if m is None else f"{m.mission} {m.turn - st.turn}"
    dist = enumerate_outcomes(proc)
    assert dist["Denied"] == Fraction(3, 10)
    assert dist["BN Mortar 1"] == Fraction(1, 5) and dist["ARTY 3"] == Fraction(1, 10)


# --------------------------------------------------------------------------- F 14.0 Load, F 15.0 Unload

@pytest.mark.rule("F 14.0", "F 6.9")
def test_slick_capacity_is_seven_troops_markers_count_one():
    st = _state(_slick("h", "20.20"), _ft("a", "20.20"), _ft("b", "20.20", men=3), _ft("c", "20.20", men=2))
    res = Resolution()
    w = cas.place_marker(st, "WIA", "US", st.hex("20.20"), res, "F 7.5.1")
    act.load(st, "h", res, units=["a", "b"])
    assert act.troops_aboard(st, st.units["h"]) == 7
    with pytest.raises(RuleViolation) as e:
        act.load(st, "h", res, markers=[w.id])
    assert e.value.rule == "F 6.9"
    with pytest.raises(RuleViolation) as e:
        act.search(st, "a", ScriptedDice([1]), res)      # a loaded unit cannot be activated
    assert e.value.rule == "F 14.0"


@pytest.mark.rule("F 14.0", "F 6.9")
def test_vehicle_capacity_is_eight_and_carried_markers_travel_with_their_carrier():
    st = _state(_apc("v", "20.20"), _ft("a", "20.20"), _ft("b", "20.20", men=3))
    res = Resolution()
    w = cas.place_marker(st, "WIA", "US", st.hex("20.20"), res, "F 7.5.1")
    cas.pick_up(st, "b", w.id, res)
    act.load(st, "v", res, units=["a", "b"])
    assert act.troops_aboard(st, st.units["v"]) == 8
    assert cas.marker_hex(st, w) == st.hex("20.20")


@pytest.mark.rule("F 14.0")
def test_markers_need_an_infantry_unit_in_the_hex_and_helicopters_the_ground():
    st = _state(_apc("v", "20.20"), _slick("h", "17.23", altitude="treetop"), _ft("a", "17.23"))
    res = Resolution()
    w = cas.place_marker(st, "KIA", "US", st.hex("20.20"), res, "F 7.5.1")
    with pytest.raises(RuleViolation) as e:
        act.load(st, "v", res, markers=[w.id])
    assert e.value.rule == "F 14.0"
    with pytest.raises(RuleViolation) as e:
        act.load(st, "h", res, units=["a"])
    assert e.value.rule == "F 14.0"


@pytest.mark.rule("F 15.0", "F Clarifications")
def test_unload_marks_units_activated_and_hands_markers_to_them():
    st = _state(_apc("v", "20.20"), _ft("a", "20.20"))
    res = Resolution()
    w = cas.place_marker(st, "WIA", "US", st.hex("20.20"), res, "F 7.5.1")
    act.load(st, "v", res, units=["a"], markers=[w.id])
    assert w.carried_by == "v"
    act.unload(st, "v", res)
    a = st.units["a"]
    assert a.on_map and a.activated and w.carried_by == "a"
    assert act.troops_aboard(st, st.units["v"]) == 0


@pytest.mark.rule("F 15.0", "F 4.0", "F Revisions")
def test_the_reinforcement_slick_may_only_move_afterwards_and_leaves_next_turn():
    st = _state(turn=4)
    res = Resolution()
    h = _slick("h", "17.23", altitude="treetop")
    h.hex = None
    del_units = [_ft("a", "17.23"), _ft("b", "17.23", men=3)]
    for u in del_units:
        u.hex = None
    act.helicopter_enters(st, h, st.hex("17.23"), "treetop", res, passengers=del_units)
    assert not st.units["a"].on_map and not st.units["a"].concealed
    h.altitude = "ground"
    act.unload(st, "h", res)
    assert h.move_only and h.leaves_turn == 5
    place(st, [_ft("c", "17.23")])
    w = cas.place_marker(st, "WIA", "US", st.hex("17.23"), res, "F 7.5.1")
    with pytest.raises(RuleViolation) as e:
        act.load(st, "h", res, units=["c"])
    assert e.value.rule == "F 15.0"
    act.load(st, "h", res, markers=[w.id])              # the errata's exception: casualties only
    orig = _state(_slick("h", "17.23"), _ft("c", "17.23"), readings=reading(unload_slick_may_load_casualties=False))
    orig.units["h"].move_only = True
    w2 = cas.place_marker(orig, "WIA", "US", orig.hex("17.23"), res, "F 7.5.1")
    with pytest.raises(RuleViolation) as e:
        act.load(orig, "h", res, markers=[w2.id])
    assert e.value.rule == "F 15.0"


@pytest.mark.rule("F 15.0")
def test_hogs_leave_three_turns_after_entering():
    st = _state(turn=2)
    hog = Unit("hog", "US", kind="helicopter", role="hog", fire_rating=5, weapon="DP", tq=5, range=6, men=2,
               altitude="high")
    act.helicopter_enters(st, hog, st.hex("17.15"), "high", Resolution())
    st.turn = 4
    assert act.departures_due(st) == []
    st.turn = 5
    assert act.departures_due(st) == ["hog"]
    act.enforce_departures(st, Resolution())
    assert st.units["hog"].hex is None


@pytest.mark.rule("F 14.0", "F 15.0", "F 21.0")
def test_opportunity_fire_hooks_before_or_after():
    calls = []

    def opfire(state, ids, h, dice, res):
        calls.append(list(ids))
        return False
    st = _state(_apc("v", "20.20"), _ft("a", "20.20"))
    act.load(st, "v", Resolution(), units=["a"], opfire=opfire, opfire_when="before")
    act.unload(st, "v", Resolution(), opfire=opfire, opfire_when="after")
    act.load(st, "v", Resolution(), units=["a"], opfire=opfire)
    act.unload(st, "v", Resolution(), opfire=opfire, opfire_when="before")
    assert calls == [["v", "a"], ["v", "a"], ["v"], ["v"]]


@pytest.mark.rule("F 14.0", "F 21.0")
def test_a_unit_driven_off_by_opportunity_fire_is_not_loaded():
    st = _state(_apc("v", "20.20"), _ft("a", "20.20"), _ft("b", "20.20"))

    def opfire(state, ids, h, dice, res):
        state.units["b"].hex = state.hex("20.21")         # broke and retreated
        return True
    out = act.load(st, "v", Resolution(), units=["a", "b"], opfire=opfire, opfire_when="before")
    assert out["units"] == ["a"] and st.units["b"].loaded_in is None


@pytest.mark.rule("F 7.4", "F 15.0")
def test_a_downed_helicopter_may_only_unload_and_is_left_as_a_wreck():
    h = _slick("h", "20.20", downed=True)
    st = _state(h, _ft("a", "20.20"))
    st.units["a"].loaded_in = "h"
    with pytest.raises(RuleViolation) as e:
        act.load(st, "h", Resolution(), units=[])
    assert e.value.rule == "F 7.4"
    act.unload(st, "h", Resolution())
    assert h.destroyed and st.units["a"].on_map
