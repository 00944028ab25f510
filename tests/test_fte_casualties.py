"""FTE casualties: carrying (F 7.5.2), evacuation, capture and removal (F 7.5.3), the casualty check (F 17.0) and
medics (F 17.1)."""
from fractions import Fraction

import pytest

from wargames.core import Resolution, RuleViolation, ScriptedDice, enumerate_outcomes
from wargames.fte import casualties as cas
from wargames.fte.fire import apply_effect
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Unit


def _state(*units: Unit, vp=(10, 10)) -> FteState:
    st = FteState(demo_map())
    st.vp = {"US": vp[0], "NVA/VC": vp[1]}
    place(st, units)
    return st


def _ft(uid, where, side="US", men=4, **kw):
    return Unit(uid, side, fire_rating=4, weapon="SA", tq=4, range=6 if side == "US" else None, men=men,
                hex=demo_map().hex(where), **kw)


def _medic(uid, where, side="US"):
    return Unit(uid, side, role="medic", tq=4, men=1, hex=demo_map().hex(where))


# --------------------------------------------------------------------------- F 7.5.1 and F 7.5.2

@pytest.mark.rule("F 7.5.1", "F 7.5.2")
def test_a_wia_from_fire_can_be_taken_up_at_once():
    st = _state(_ft("a", "22.19"), _ft("b", "22.19", men=3))
    res = Resolution()
    apply_effect(st, "a", "WIA", ScriptedDice([]), res, by="NVA/VC")
    (mid,) = st.casualties
    assert st.units["a"].reduced and st.vp["NVA/VC"] == 14
    cas.carry_new(st, mid, "b", res)
    assert st.casualties[mid].carried_by == "b" and st.units["b"].carrying == [mid]
    assert cas.marker_hex(st, st.casualties[mid]) == st.hex("22.19")


@pytest.mark.rule("F 7.5.2")
@pytest.mark.parametrize("men,limit", [(4, 2), (3, 1), (2, 0), (1, 0)])
def test_carrying_capacity_by_men(men, limit):
    st = _state(_ft("a", "22.19", men=men))
    res = Resolution()
    ids = [cas.place_marker(st, "WIA", "US", st.hex("22.19"), res, "F 7.5.1").id for _ in range(3)]
    for mid in ids[:limit]:
        cas.pick_up(st, "a", mid, res)
    with pytest.raises(RuleViolation) as e:
        cas.pick_up(st, "a", ids[limit], res)
    assert e.value.rule == "F 7.5.2"
    assert cas.load_count(st, st.units["a"]) == limit


@pytest.mark.rule("F 7.5.2", "F 10.0")
def test_transfer_to_a_unit_that_already_activated_and_drop():
    st = _state(_ft("a", "22.19"), _ft("b", "22.19", activated=True))
    res = Resolution()
    m = cas.place_marker(st, "KIA", "US", st.hex("22.19"), res, "F 7.5.1")
    cas.pick_up(st, "a", m.id, res)
    cas.transfer(st, "a", m.id, "b", res)
    assert m.carried_by == "b" and st.units["a"].carrying == [] and st.units["b"].carrying == [m.id]
    cas.drop(st, "b", m.id, res)
    assert m.carried_by is None and m.hex == st.hex("22.19") and st.units["b"].carrying == []
    with pytest.raises(RuleViolation):
        cas.drop(st, "b", m.id, res)


@pytest.mark.rule("F 7.5.2")
def test_enemy_casualties_and_other_hexes_cannot_be_carried():
    st = _state(_ft("a", "22.19"), _ft("n", "22.18", side="NVA"))
    res = Resolution()
    enemy = cas.place_marker(st, "WIA", "NVA", st.hex("22.19"), res, "F 7.5.1")
    with pytest.raises(RuleViolation):
        cas.pick_up(st, "a", enemy.id, res)
    far = cas.place_marker(st, "WIA", "US", st.hex("22.18"), res, "F 7.5.1")
    with pytest.raises(RuleViolation):
        cas.pick_up(st, "a", far.id, res)


@pytest.mark.rule("F 7.5.2", "F 19.1", "F Clarifications")
def test_an_injury_is_carried_by_its_unit_and_dropped_like_a_wia():
    st = _state(_ft("a", "22.19", injury=True), _ft("b", "22.19"))
    res = Resolution()
    assert cas.load_count(st, st.units["a"]) == 1
    m = cas.drop_injury(st, "a", res)
    assert m.kind == "Injury" and not st.units["a"].injury and m.hex == st.hex("22.19")
    cas.pick_up(st, "b", m.id, res)
    assert st.units["b"].carrying == [m.id]


# --------------------------------------------------------------------------- F 7.5.3 evacuation

@pytest.mark.rule("F 7.5.3")
def test_nva_infantry_carry_a_wia_off_the_edge_and_are_gone_for_good():
    st = _state(_ft("n", "17.23", side="NVA"))
    res = Resolution()
    m = cas.place_marker(st, "WIA", "NVA", st.hex("17.23"), res, "F 7.5.1")
    cas.pick_up(st, "n", m.id, res)
    assert cas.leave_map(st, "n", res) == [m.id]
    assert st.vp == {"US": 10, "NVA/VC": 11}          # NVA WIA evacuated: +1
    assert m.id not in st.casualties and st.units["n"].hex is None


@pytest.mark.rule("F 7.5.3")
def test_nva_carry_a_kia_down_a_tunnel():
    st = _state(_ft("n", "25.23", side="NVA"))
    res = Resolution()
    m = cas.place_marker(st, "KIA", "NVA", st.hex("25.23"), res, "F 7.5.1")
    cas.pick_up(st, "n", m.id, res)
    cas.leave_map(st, "n", res, tunnel=True)
    assert st.vp["NVA/VC"] == 11                        # NVA KIA evacuated: +1
    st2 = _state(_ft("n", "22.19", side="NVA"))
    m2 = cas.place_marker(st2, "KIA", "NVA", st2.hex("22.19"), res, "F 7.5.1")
    cas.pick_up(st2, "n", m2.id, res)
    with pytest.raises(RuleViolation) as e:
        cas.leave_map(st2, "n", res, tunnel=True)
    assert e.value.rule == "F 7.5.3"


@pytest.mark.rule("F 7.5.3")
def test_us_infantry_carry_off_only_when_the_scenario_allows():
    st = _state(_ft("a", "17.23"))
    res = Resolution()
    m = cas.place_marker(st, "WIA", "US", st.hex("17.23"), res, "F 7.5.1")
    cas.pick_up(st, "a", m.id, res)
    with pytest.raises(RuleViolation) as e:
        cas.leave_map(st, "a", res)
    assert e.value.rule == "F 7.5.3"
    st.us_may_carry_off = True
    cas.leave_map(st, "a", res)
    assert st.vp["US"] == 13                            # US WIA evacuated: +3


@pytest.mark.rule("F 7.5.3", "F 6.1")
def test_leaving_needs_a_map_edge_and_something_to_evacuate():
    st = _state(_ft("n", "22.19", side="NVA"), _ft("m", "17.23", side="NVA"))
    res = Resolution()
    m = cas.place_marker(st, "WIA", "NVA", st.hex("22.19"), res, "F 7.5.1")
    cas.pick_up(st, "n", m.id, res)
    with pytest.raises(RuleViolation) as e:
        cas.leave_map(st, "n", res)
    assert e.value.rule == "F 6.1"
    with pytest.raises(RuleViolation):
        cas.leave_map(st, "m", res)                     # carries nothing


# --------------------------------------------------------------------------- alone with the enemy

@pytest.mark.rule("F 7.5.3")
def test_a_wia_alone_with_the_enemy_is_captured_and_a_kia_removed():
    st = _state(_ft("n", "22.19", side="NVA"))
    res = Resolution()
    w = cas.place_marker(st, "WIA", "US", st.hex("22.19"), res, "F 7.5.1")
    k = cas.place_marker(st, "KIA", "US", st.hex("22.19"), res, "F 7.5.1")
    gone = cas.check_hex(st, st.hex("22.19"), res)
    assert set(gone) == {w.id, k.id} and not st.casualties
    assert st.vp == {"US": 10, "NVA/VC": 13}            # one capture: +3 for the NVA/VC, nothing for the KIA


@pytest.mark.rule("F 7.5.3", "F 19.1")
def test_us_capture_scores_two_and_an_injury_is_captured_too():
    st = _state(_ft("a", "22.19"))
    res = Resolution()
    cas.place_marker(st, "Injury", "NVA", st.hex("22.19"), res, "F 19.1")
    cas.check_hex(st, st.hex("22.19"), res)
    assert st.vp["US"] == 12 and not st.casualties


@pytest.mark.rule("F 7.5.3")
def test_a_friendly_unit_or_a_carrier_keeps_the_casualty():
    st = _state(_ft("n", "22.19", side="NVA"), _ft("a", "22.19"))
    res = Resolution()
    cas.place_marker(st, "WIA", "US", st.hex("22.19"), res, "F 7.5.1")
    assert cas.check_hex(st, st.hex("22.19"), res) == []
    st2 = _state(_ft("n", "22.19", side="NVA"), _ft("a", "22.19", side="US"))
    m = cas.place_marker(st2, "WIA", "US", st2.hex("22.19"), res, "F 7.5.1")
    cas.pick_up(st2, "a", m.id, res)
    assert cas.check_all(st2, res) == []


@pytest.mark.rule("F 17.1")
def test_a_medic_alone_with_the_enemy_is_eliminated_as_a_kia_then_its_wia_is_captured():
    st = _state(_medic("doc", "22.19"), _ft("n", "22.19", side="NVA"))
    res = Resolution()
    w = cas.place_marker(st, "WIA", "US", st.hex("22.19"), res, "F 7.5.1")
    gone = cas.check_hex(st, st.hex("22.19"), res)
    assert gone == ["doc", w.id]
    assert st.units["doc"].hex is None
    assert st.vp["NVA/VC"] == 10 + 4 + 3                # KIA points for the medic, then the capture
    # a medic with a fighting friend is not alone
    st2 = _state(_medic("doc", "22.19"), _ft("a", "22.19"), _ft("n", "22.19", side="NVA"))
    assert cas.check_hex(st2, st2.hex("22.19"), Resolution()) == []


# --------------------------------------------------------------------------- F 17.0 the casualty check

@pytest.mark.rule("F 17.0", "F 17.1")
@pytest.mark.parametrize("roll,medic,verdict", [
    (1, False, "RTD"), (2, False, "RTD"), (3, False, "remains"), (8, False, "remains"), (9, False, "DOW"),
    (10, False, "DOW"), (3, True, "RTD"), (4, True, "remains"), (9, True, "remains"), (10, True, "DOW")])
def test_casualty_check_bands(roll, medic, verdict):
    assert cas.casualty_result(roll, medic)[0] == verdict


@pytest.mark.rule("F 17.0")
def test_dow_turns_the_wia_into_a_kia_and_costs_its_owner():
    st = _state(_ft("a", "22.19"))
    res = Resolution()
    m = cas.place_marker(st, "WIA", "US", st.hex("22.19"), res, "F 7.5.1")
    with ScriptedDice([9]) as d:
        assert cas.check_wia(st, m.id, d, res) == "DOW"
    assert m.kind == "KIA" and st.vp["US"] == 8
    with pytest.raises(RuleViolation):
        cas.check_wia(st, m.id, ScriptedDice([5]), res)  # now a KIA


@pytest.mark.rule("F 17.0")
def test_rtd_removes_the_marker_and_scores_for_its_owner_nva_too():
    st = _state(_ft("n", "22.19", side="NVA"))
    res = Resolution()
    m = cas.place_marker(st, "WIA", "NVA", st.hex("22.19"), res, "F 7.5.1")
    cas.pick_up(st, "n", m.id, res)
    with ScriptedDice([1]) as d:
        assert cas.check_wia(st, m.id, d, res) == "RTD"
    assert m.id not in st.casualties and st.units["n"].carrying == [] and st.vp["NVA/VC"] == 12
    st2 = _state()
    m2 = cas.place_marker(st2, "WIA", "NVA", st2.hex("22.19"), res, "F 7.5.1")
    cas.check_wia(st2, m2.id, ScriptedDice([10]), res)
    assert st2.vp["NVA/VC"] == 9                         # NVA DOW: -1


@pytest.mark.rule("F 17.0", "F 17.1")
def test_phase_checks_us_first_and_skips_injuries_and_kias():
    st = _state(_medic("doc", "20.20"))
    res = Resolution()
    h = st.hex("20.20")
    nva = cas.place_marker(st, "WIA", "NVA", st.hex("22.19"), res, "F 7.5.1", mid="A-nva")
    us = cas.place_marker(st, "WIA", "US", h, res, "F 7.5.1", mid="Z-us")
    cas.place_marker(st, "KIA", "US", h, res, "F 7.5.1")
    cas.place_marker(st, "Injury", "US", h, res, "F 19.1")
    with ScriptedDice([3, 5]) as d:                      # US first (3 - 1 medic = 2: RTD), then the NVA (5)
        out = cas.check_casualties(st, d, res)
    assert list(out) == [us.id, nva.id] and out == {us.id: "RTD", nva.id: "remains"}


def _odds(medic: bool):
    def proc(dice):
        st = _state(*([_medic("doc", "20.20")] if medic else []))
        m = cas.place_marker(st, "WIA", "US", st.hex("20.20"), Resolution(), "F 7.5.1")
        return cas.check_wia(st, m.id, dice, Resolution())
    return enumerate_outcomes(proc)


@pytest.mark.rule("F 17.0", "F 17.1")
def test_exact_odds_with_and_without_a_medic():
    alone, tended = _odds(False), _odds(True)
    assert dict(alone) == {"RTD": Fraction(1, 5), "remains": Fraction(3, 5), "DOW": Fraction(1, 5)}
    assert dict(tended) == {"RTD": Fraction(3, 10), "remains": Fraction(3, 5), "DOW": Fraction(1, 10)}


@pytest.mark.rule("F 17.1")
def test_a_medic_helps_only_in_its_own_hex_and_only_its_own_side():
    st = _state(_medic("doc", "20.20"), _medic("nvadoc", "22.19", side="NVA"))
    res = Resolution()
    near = cas.place_marker(st, "WIA", "US", st.hex("20.20"), res, "F 7.5.1")
    far = cas.place_marker(st, "WIA", "US", st.hex("22.19"), res, "F 7.5.1")
    assert cas.medic_with(st, near).id == "doc"
    assert cas.medic_with(st, far) is None
