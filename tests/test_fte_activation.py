"""FTE activation (F 5.0, F 5.1): the chit cup, who one activation may activate, and the actions per unit.

The golden test replays the Activation Example (catalog F-E1) on the demonstration map: a leader in 23.23,
fire teams in 22.22 and 22.23, a broken leader in 23.22, an MG team already under Activation Complete in
21.23, two units in 20.24 and a vehicle in 23.24.
"""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st_

from wargames.core import Resolution, RandomDice, ScriptedDice, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.fte.activation import (Activation, activatable, check_action, check_activation,
                                     draw_chit, end_activation, legal_actions, start_phase)
from wargames.fte.errata import reading
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Unit


def ft(uid, hexlabel, st, side="US", **kw):
    kw.setdefault("fire_rating", 4)
    kw.setdefault("weapon", "SA")
    return Unit(uid, side, hex=st.hex(hexlabel), **kw)


def leader(uid, hexlabel, st, side="US", **kw):
    return Unit(uid, side, role="leader", tq=5, men=1, hex=st.hex(hexlabel), **kw)


@pytest.fixture
def example():
    """The Activation Example's position (unit values are ours; the example gives none)."""
    st = FteState(demo_map())
    st.cup.chits = {"US": 3, "NVA/VC": 2}
    place(st, [
        leader("Lt", "23.23", st),
        ft("FT1", "22.22", st), ft("FT2", "22.23", st),
        leader("Sgt", "23.22", st, broken=True),
        ft("MG", "21.23", st, role="mg", activated=True),
        ft("FT3", "20.24", st), ft("WT", "20.24", st, role="weapons_team", men=2),
        Unit("APC", "US", kind="vehicle", role="apc", fire_rating=5, weapon="DP", defense=1, hex=st.hex("23.24")),
    ])
    return st


# --------------------------------------------------------------------------- the Activation Example

@pytest.mark.rule("F 5.1")
def test_example_distances_on_the_demo_map(example):
    st = example
    d = lambda a, b: st.hex(a).distance(st.hex(b))  # noqa: E731
    assert [d("23.23", h) for h in ("22.22", "22.23", "23.22", "23.24")] == [1, 1, 1, 1]
    assert d("23.23", "21.23") == 2      # in command range: only its marker keeps the MG team out
    assert d("23.23", "20.24") == 3      # out of range


@pytest.mark.rule("F 5.1")
def test_example_leader_activates_the_two_fire_teams_and_the_broken_leader(example):
    act = check_activation(example, "US", "leader", ["FT1", "FT2", "Sgt"], leader="Lt")
    assert act.units == ("Lt", "FT1", "FT2", "Sgt") and act.allowed is None
    offer = next(a for a in activatable(example, "US") if a.how == "leader" and a.leader == "Lt")
    assert set(offer.units) == {"Lt", "FT1", "FT2", "Sgt"}


@pytest.mark.rule("F 5.0", "F 5.1")
def test_example_mg_team_under_activation_complete_is_left_out(example):
    with pytest.raises(RuleViolation) as e:
        check_activation(example, "US", "leader", ["FT1", "MG"], leader="Lt")
    assert e.value.rule == "F 5.0" and "Activation Complete" in e.value.reason


@pytest.mark.rule("F 5.1")
def test_example_units_in_20_24_are_beyond_two_hexes(example):
    with pytest.raises(RuleViolation) as e:
        check_activation(example, "US", "leader", ["FT3"], leader="Lt")
    assert e.value.rule == "F 5.1" and "3 hexes" in e.value.reason


@pytest.mark.rule("F 5.1")
def test_example_vehicle_is_not_activated_by_the_leader(example):
    with pytest.raises(RuleViolation) as e:
        check_activation(example, "US", "leader", ["APC"], leader="Lt")
    assert "vehicle" in e.value.reason
    assert check_activation(example, "US", "unit", ["APC"]).units == ("APC",)


@pytest.mark.rule("F 5.1")
def test_example_broken_leader_activates_only_himself(example):
    act = check_activation(example, "US", "leader", [], leader="Sgt")
    assert act.units == ("Sgt",) and set(act.allowed) == {"move", "recover"}
    with pytest.raises(RuleViolation):
        check_activation(example, "US", "leader", ["FT1"], leader="Sgt")
    with pytest.raises(RuleViolation) as e:
        check_action(example, "Sgt", "fire", [], act)
    assert e.value.rule == "F 5.1"
    check_action(example, "Sgt", "recover", [], act)
    offer = next(a for a in activatable(example, "US") if a.how == "leader" and a.leader == "Sgt")
    assert offer.units == ("Sgt",)


@pytest.mark.rule("F 5.1")
def test_example_hex_20_24_activates_its_two_units_only(example):
    act = check_activation(example, "US", "hex", ["FT3", "WT"])
    assert act.units == ("FT3", "WT")
    offers = [a for a in activatable(example, "US") if a.how == "hex"]
    assert [set(a.units) for a in offers] == [{"FT3", "WT"}]


@pytest.mark.rule("F 5.1")
def test_example_every_option_listed(example):
    offers = activatable(example, "US")
    hows = [(a.how, a.leader, a.units) for a in offers]
    assert ("pass", None, ()) in hows
    singles = {a.units[0] for a in offers if a.how == "unit"}
    assert singles == {"Lt", "FT1", "FT2", "Sgt", "FT3", "WT", "APC"}   # not the MG team


# --------------------------------------------------------------------------- more of F 5.1

@pytest.mark.rule("F 5.1")
def test_nva_and_vc_leaders_activate_their_own_nationality_and_civilians():
    st = FteState(demo_map())
    place(st, [leader("NL", "20.22", st, side="NVA"), ft("N1", "20.22", st, side="NVA"),
               ft("V1", "19.22", st, side="VC"), Unit("Civ", "VC", role="civilians", hex=st.hex("21.23")),
               leader("VL", "22.23", st, side="VC")])
    assert check_activation(st, "NVA/VC", "leader", ["N1", "Civ"], leader="NL").units == ("NL", "N1", "Civ")
    with pytest.raises(RuleViolation) as e:
        check_activation(st, "NVA/VC", "leader", ["V1"], leader="NL")
    assert "NVA" in e.value.reason
    assert check_activation(st, "NVA/VC", "leader", ["Civ"], leader="VL").units == ("VL", "Civ")
    offer = next(a for a in activatable(st, "NVA/VC") if a.leader == "NL")
    assert set(offer.units) == {"NL", "N1", "Civ"}


@pytest.mark.rule("F 5.1")
def test_suppressed_leader_activates_only_his_own_hex():
    st = FteState(demo_map())
    place(st, [leader("L", "20.22", st, suppressed=True), ft("A", "20.22", st), ft("B", "20.21", st)])
    assert check_activation(st, "US", "leader", ["A"], leader="L").units == ("L", "A")
    with pytest.raises(RuleViolation) as e:
        check_activation(st, "US", "leader", ["B"], leader="L")
    assert "suppressed" in e.value.reason
    offer = next(a for a in activatable(st, "US") if a.leader == "L")
    assert offer.units == ("L", "A")


@pytest.mark.rule("F 5.1", "F 19.5")
def test_higher_hq_forbids_leader_activations(example):
    example.higher_hq.add("US")
    with pytest.raises(RuleViolation) as e:
        check_activation(example, "US", "leader", ["FT1"], leader="Lt")
    assert e.value.rule == "F 19.5"
    assert not [a for a in activatable(example, "US") if a.how == "leader"]
    assert check_activation(example, "US", "unit", ["Lt"]).units == ("Lt",)


@pytest.mark.rule("F 5.1", "F 14.0")
def test_loaded_units_cannot_be_activated(example):
    example.units["FT1"].loaded_in = "APC"
    with pytest.raises(RuleViolation) as e:
        check_activation(example, "US", "unit", ["FT1"])
    assert e.value.rule == "F 14.0"


@pytest.mark.rule("F 5.1")
def test_not_your_unit_and_bad_kinds(example):
    place(example, [ft("N", "25.25", example, side="NVA")])
    with pytest.raises(RuleViolation):
        check_activation(example, "US", "unit", ["N"])
    with pytest.raises(RuleViolation):
        check_activation(example, "US", "hex", ["FT1", "FT2"])      # two hexes
    with pytest.raises(RuleViolation):
        check_activation(example, "US", "unit", ["FT1", "FT2"])     # a unit activation is one unit
    with pytest.raises(RuleViolation):
        check_activation(example, "US", "sideways", ["FT1"])
    with pytest.raises(RuleViolation):
        check_activation(example, "US", "leader", ["FT1"], leader="FT2")   # not a leader


def helis(st, *where):
    return [Unit(f"H{i}", "US", kind="helicopter", role="slick", altitude="treetop", defense=1,
                 hex=st.hex(h)) for i, h in enumerate(where, 1)]


@pytest.mark.rule("F 5.1")
def test_adjacent_helicopters_activate_together_for_move_load_unload():
    st = FteState(demo_map())
    place(st, helis(st, "20.22", "21.23", "22.22", "25.26"))
    act = check_activation(st, "US", "helicopters", ["H1", "H2", "H3"])    # a chain of adjacent helicopters
    assert act.allowed == ("move", "load", "unload")
    with pytest.raises(RuleViolation) as e:
        check_action(st, "H1", "fire", [], act)
    assert e.value.rule == "F 5.1"
    with pytest.raises(RuleViolation) as e:
        check_activation(st, "US", "helicopters", ["H1", "H4"])
    assert "not adjacent" in e.value.reason
    with pytest.raises(RuleViolation):
        check_activation(st, "US", "hex", ["H4"])       # helicopters go alone, not by hex
    groups = [set(a.units) for a in activatable(st, "US") if a.how == "helicopters"]
    assert groups == [{"H1", "H2", "H3"}]


@pytest.mark.rule("F 5.1")
def test_vehicle_carrying_a_leader_activates_vehicles_within_four_hexes():
    st = FteState(demo_map())
    mk = lambda uid, h: Unit(uid, "US", kind="vehicle", role="apc", fire_rating=5, weapon="DP", hex=st.hex(h))  # noqa: E731
    place(st, [mk("V1", "23.23"), mk("V2", "23.26"), mk("V3", "17.24"),
               Unit("L", "US", role="leader", men=1, hex=st.hex("23.23"), loaded_in="V1")])
    assert st.hex("23.23").distance(st.hex("23.26")) == 3 and st.hex("23.23").distance(st.hex("17.24")) == 6
    act = check_activation(st, "US", "vehicles", ["V2"], leader="V1")
    assert act.units == ("V1", "V2")
    with pytest.raises(RuleViolation) as e:
        check_activation(st, "US", "vehicles", ["V3"], leader="V1")
    assert "6 hexes" in e.value.reason
    with pytest.raises(RuleViolation):
        check_activation(st, "US", "vehicles", [], leader="V2")      # no leader aboard
    offer = next(a for a in activatable(st, "US") if a.how == "vehicles")
    assert offer.units == ("V1", "V2")


# --------------------------------------------------------------------------- actions (F 5.0, F 5.1)

@pytest.mark.rule("F 5.0")
def test_actions_per_unit_class():
    st = FteState(demo_map())
    place(st, [ft("A", "20.22", st), Unit("V", "US", kind="vehicle", role="apc", fire_rating=5, weapon="DP",
                                              hex=st.hex("23.24")), *helis(st, "22.19")])
    check_action(st, "A", "move")
    with pytest.raises(RuleViolation) as e:
        check_action(st, "A", "fire", ["move"])
    assert e.value.rule == "F 5.0"
    check_action(st, "V", "fire", ["move"])
    with pytest.raises(RuleViolation) as e:
        check_action(st, "V", "move", ["move"])
    assert "differ" in e.value.reason
    with pytest.raises(RuleViolation):
        check_action(st, "V", "recover", ["move", "fire"])
    with pytest.raises(RuleViolation):
        check_action(st, "V", "search")                 # not a vehicle action
    check_action(st, "H1", "move", ["move"])            # two Moves are fine
    check_action(st, "H1", "fire", ["move"])
    with pytest.raises(RuleViolation) as e:
        check_action(st, "H1", "unload", ["fire"])      # one of the two must be a Move
    assert "Move" in e.value.reason
    with pytest.raises(RuleViolation):
        check_action(st, "H1", "assault")               # assault: vehicles and infantry only
    assert legal_actions(st, "H1", ["fire"]) == ["move"]
    assert legal_actions(st, "A", ["move"]) == []


@pytest.mark.rule("F 5.1", "F 13.0")
def test_who_may_take_the_special_actions():
    st = FteState(demo_map())
    place(st, [ft("A", "20.22", st), leader("L", "20.22", st), leader("NL", "25.25", st, side="NVA"),
               leader("VL", "24.26", st, side="VC"), ft("N", "17.25", st, side="NVA"),
               Unit("FO", "US", role="fo", men=1, hex=st.hex("20.21"))])
    check_action(st, "A", "destroy_cache")
    with pytest.raises(RuleViolation):
        check_action(st, "N", "destroy_cache")
    check_action(st, "L", "request_medevac")
    for who in ("A", "NL"):
        with pytest.raises(RuleViolation):
            check_action(st, who, "request_medevac")
    for who in ("L", "NL", "FO"):
        check_action(st, who, "request_fire_mission")
    with pytest.raises(RuleViolation) as e:
        check_action(st, "VL", "request_fire_mission")
    assert e.value.rule == "F 13.0"
    with pytest.raises(RuleViolation):
        check_action(st, "A", "request_fire_mission")
    st.readings = reading(nva_only_fire_requests=False)      # the printed "NVA/VC" header
    check_action(st, "VL", "request_fire_mission")


@pytest.mark.rule("F 5.1")
def test_broken_dummy_and_civilians_actions():
    st = FteState(demo_map())
    place(st, [ft("B", "20.22", st, broken=True), Unit("D", "NVA", role="dummy", concealed=True, hex=st.hex("25.25")),
               Unit("C", "VC", role="civilians", hex=st.hex("24.23"))])
    assert legal_actions(st, "B") == ["move", "recover"]
    assert legal_actions(st, "D") == ["move"]
    assert legal_actions(st, "C") == ["move"]


# --------------------------------------------------------------------------- the chit cup and the phase

@pytest.mark.rule("F 5.0")
def test_draw_chit_by_die():
    st = FteState(demo_map())
    st.cup.chits = {"US": 2, "NVA/VC": 1}
    st.cup.refill()
    assert st.cup.cup == ["US", "US", "NVA/VC", "event"]
    res = Resolution()
    assert draw_chit(st, ScriptedDice([3]), res) == "NVA/VC"
    assert st.cup.cup == ["US", "US", "event"]
    assert draw_chit(st, ScriptedDice([3]), res) == "event"
    assert draw_chit(st, ScriptedDice([1]), res) == "US"
    assert draw_chit(st, ScriptedDice([]), res) == "US"      # the last chit needs no roll
    with pytest.raises(RuleViolation):
        draw_chit(st, ScriptedDice([]), res)


@pytest.mark.rule("F 5.0")
def test_draw_chit_odds_are_exact():
    def draw(dice):
        st = FteState(demo_map())
        st.cup.chits = {"US": 3, "NVA/VC": 2}
        st.cup.refill()
        return draw_chit(st, dice, Resolution())
    dist = enumerate_outcomes(draw)
    assert dist["US"] == Fraction(1, 2) and dist["NVA/VC"] == Fraction(1, 3) and dist["event"] == Fraction(1, 6)


@pytest.mark.rule("F 5.0", "F 5.1")
def test_phase_first_activation_needs_no_chit_and_a_unit_acts_once(example):
    res = Resolution()
    phase = start_phase(example, res)
    assert example.cup.cup == ["US"] * 3 + ["NVA/VC"] * 2 + ["event"]
    example.units["FT1"].op_fired = True
    assert phase.next(ScriptedDice([]), res) == "US"        # the scenario's first player, no draw
    assert len(example.cup.cup) == 6
    phase.activate("US", "leader", ["FT1", "FT2", "Sgt"], res, leader="Lt")
    phase.end(res)
    assert all(example.units[u].activated for u in ("Lt", "FT1", "FT2", "Sgt"))
    assert not example.units["FT1"].op_fired
    assert phase.next(ScriptedDice([1]), res) == "US"
    with pytest.raises(RuleViolation) as e:                # activating a unit twice in a turn
        phase.activate("US", "unit", ["FT1"], res)
    assert e.value.rule == "F 5.0"
    with pytest.raises(RuleViolation):                     # the chit is the US player's
        phase.activate("NVA/VC", "pass", (), res)
    phase.pass_("US", res)
    assert len(example.cup.cup) == 5 and phase.history[-1].how == "pass"


@pytest.mark.rule("F 5.1")
def test_helicopter_chit_goes_back_unless_first_activation():
    st = FteState(demo_map())
    st.cup.chits = {"US": 1, "NVA/VC": 0}
    st.cup.random_event = False
    place(st, helis(st, "20.22", "24.26"))
    res = Resolution()
    phase = start_phase(st, res)
    assert phase.next(ScriptedDice([]), res) == "US"
    phase.activate("US", "unit", ["H1"], res)
    phase.end(res)
    assert st.cup.cup == ["US"]                            # the first activation had no chit to return
    assert phase.next(ScriptedDice([]), res) == "US"
    assert st.cup.cup == []
    phase.activate("US", "unit", ["H2"], res)
    phase.end(res)
    assert st.cup.cup == ["US"]                            # the helicopter's chit is back
    assert phase.next(ScriptedDice([]), res) == "US"
    phase.pass_("US", res)
    assert phase.next(ScriptedDice([]), res) is None and phase.over


@pytest.mark.rule("F 5.0", "F 5.1")
@settings(max_examples=30, deadline=None)
@given(st_.integers(0, 10_000))
def test_random_phases_always_end(seed):
    """Random legal play (helicopters included) empties the cup: a chit comes back only for a helicopter not
    activated before, so the number of draws is bounded (catalog F-5 item 25)."""
    rng = random.Random(seed)
    st = FteState(demo_map())
    st.cup.chits = {"US": 3, "NVA/VC": 2}
    place(st, helis(st, "20.22", "21.23", "24.26") + [leader("L", "23.23", st), ft("A", "22.23", st),
                                                       ft("N", "17.25", st, side="NVA")])
    res = Resolution()
    phase = start_phase(st, res)
    dice = RandomDice(seed)
    draws = 0
    while True:
        who = phase.next(dice, res)
        if who is None:
            break
        draws += 1
        assert draws <= 6 + 3 + 1
        if who == "event":
            continue
        act = rng.choice(activatable(st, who))
        phase.activate(who, act.how, act.units if act.how != "leader" else act.units[1:], res, leader=act.leader)
        phase.end(res)
    assert phase.over and not st.cup.cup


@pytest.mark.rule("F 5.0")
def test_end_activation_clears_op_fired_everywhere(example):
    example.units["FT3"].op_fired = True
    place(example, [ft("N", "25.25", example, side="NVA", op_fired=True)])
    res = Resolution()
    end_activation(example, Activation("US", "unit", ("FT1",)), res)
    assert not example.units["FT3"].op_fired and not example.units["N"].op_fired
    assert example.units["FT1"].activated
    assert "Op Fired" in res.text()
