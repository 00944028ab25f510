"""Indochina reorganization (8), allied units (4), fortifications (16) and the small rules around them."""
from fractions import Fraction

import pytest

from wargames.core import Resolution
from wargames.core.errors import DataError, RuleViolation
from wargames.indochina import Side
from wargames.indochina.fortifications import (check_dd_conversion, check_use, extra_militia, fortified, fortify,
                                               may_convert_dd, owner, place_marker, sweep)
from wargames.indochina.logistics import Logistics, land_airborne_supply
from wargames.indochina.movement import move
from wargames.indochina.political import PoliticalPoints
from wargames.indochina.reorganization import (CombatPhaseTracker, MovementPointsTrack, affected_by_zoc,
                                               air_transport_terminal, break_down, check_base_placement,
                                               check_initial_deployment, check_joint, check_nationality,
                                               employable, equivalent, friendly, is_combat_unit, nation_side,
                                               reform, units_free_not_to_attack)
from wargames.indochina.results import retreat
from wargames.indochina.state import IndochinaState, demo_map
from wargames.indochina.units import Counter

COM, FEF = Side.COMMUNIST, Side.FEF


def unit(uid, side, utype="regular infantry", size="group", s=6, m=6, ds=3, dm=3, **kw):
    return Counter(uid, side, utype, size, s, m, ds, dm, **kw)


def division(uid, side, utype="regular infantry", s=12, nat="", **kw):
    return unit(uid, side, utype, "division", s, 6, s // 2, 3, nationality=nat, **kw)


def position(*placed):
    return IndochinaState.build(demo_map(), placed)


def rule_of(excinfo):
    return excinfo.value.rule


# ----------------------------------------------------------------------------------------------- rule 4
@pytest.mark.rule("IC 4.0", "IC 4.1", "IC 4.2")
def test_each_nation_belongs_to_one_player():
    assert nation_side("French") is FEF and nation_side("US") is FEF and nation_side("Vietnamese National") is FEF
    assert nation_side("Pathet Lao") is COM and nation_side("Chinese") is COM and nation_side("Khmer Issarak") is COM
    with pytest.raises(DataError):
        nation_side("Martian")
    with pytest.raises(RuleViolation) as e:
        check_nationality(unit("x", FEF, nationality="Viet Minh"))
    assert rule_of(e) == "IC 4.2"
    check_nationality(unit("y", FEF, nationality="Laotian National Army"))


@pytest.mark.rule("IC 4.3", "IC 10.4")
def test_allies_stack_and_fight_together():
    st = position((unit("F", FEF, nationality="French"), "1314"), (unit("V", FEF, nationality="VNA"), "1314"),
                  (unit("VM", COM), "1316"))
    f, v, vm = st.unit("F"), st.unit("V"), st.unit("VM")
    assert friendly(f, v) and not friendly(f, vm)
    assert check_joint([f, v]) == {"French", "Vietnamese National Army"}
    check_initial_deployment(st)                  # two nations in one hex: fine
    with pytest.raises(RuleViolation) as e:
        check_joint([f, vm], "attack")
    assert rule_of(e) == "IC 4.3"


# ----------------------------------------------------------------------------------------------- rule 8
@pytest.mark.rule("IC 8.2", "IC 8.21", "IC 8.22", "IC 8.23")
def test_equivalents_by_nationality():
    assert equivalent("French", "regular infantry").part_types() == ["regular infantry"] * 2 + ["mechanized"]
    assert equivalent("French", "mechanized").part_types() == ["mechanized"] * 3
    assert equivalent("French", "airborne infantry").part_types() == ["airborne infantry"] * 3
    assert equivalent("Vietnamese National Army", "regular infantry").part_types() == \
        ["regular infantry"] * 2 + ["mechanized"]
    assert equivalent("Viet Minh", "artillery").part_types() == ["artillery"] * 3
    assert equivalent("Viet Minh", "regular infantry").part_size == "regiment"
    with pytest.raises(RuleViolation) as e:
        equivalent("Vietnamese National Army", "mechanized")
    assert rule_of(e) == "IC 8.2"


@pytest.mark.rule("IC 8.0", "IC 8.1", "IC 8.11", "IC 8.13")
def test_break_down_only_in_reorganization_and_free():
    st = position((division("304", COM), "1316"))
    for phase, rule in (("combat", "IC 8.11"), ("movement", "IC 8.11")):
        with pytest.raises(RuleViolation) as e:
            break_down(st, "304", phase=phase)
        assert rule_of(e) == rule
    with pytest.raises(RuleViolation):
        break_down(st, "304", phase_side=FEF)            # not the Communist's own phase
    res = break_down(st, "304", phase_side=COM)
    parts = [st.unit(x) for x in res.result]
    assert "304" not in st.units and len(parts) == 3
    assert {p.counter.size for p in parts} == {"regiment"} and {p.hex for p in parts} == {st.map.hex("1316")}
    assert [p.counter.strength for p in parts] == [4, 4, 4]          # reconstructed: a third each
    assert any(s.inputs.get("reconstructed") for s in res.steps)
    assert "no political cost" in res.text()
    with pytest.raises(RuleViolation):
        break_down(st, res.result[0])                    # a regiment does not break down


@pytest.mark.rule("IC 8.12", "IC 8.13", "IC 8.3")
def test_reform_in_one_hex_for_a_political_point():
    st = position((unit("g1", FEF), "1314"), (unit("g2", FEF), "1314"), (unit("m", FEF, "mechanized"), "1314"),
                  (unit("far", FEF), "1315"))
    st.unit("m").disrupted = True
    pp = PoliticalPoints(fef=10, communist=10)
    with pytest.raises(RuleViolation) as e:
        reform(st, ["g1", "g2", "far"], "regular infantry")
    assert rule_of(e) == "IC 8.12"
    with pytest.raises(RuleViolation) as e:
        reform(st, ["g1", "g2"], "regular infantry")     # one group short
    assert rule_of(e) == "IC 8.12"
    res = reform(st, ["g1", "g2", "m"], "regular infantry", pp=pp)
    d = st.unit(res.result)
    assert pp.fef == 9 and d.counter.size == "division" and d.counter.strength == 18
    assert d.disrupted and res.find("IC 8.3")                         # one disrupted part disrupts all
    assert not {"g1", "g2", "m"} & set(st.units)
    broke = break_down(st, res.result)
    assert all(st.unit(x).disrupted for x in broke.result) and pp.fef == 9   # 8.3; no refund (8.13)
    poor = PoliticalPoints(fef=1, communist=1)
    poor.fef = 0
    with pytest.raises(RuleViolation):
        reform(st, broke.result, "regular infantry", pp=poor)


@pytest.mark.rule("IC 8.4", "IC 8.5")
def test_one_nationality_and_no_chinese_or_us_breakdown():
    """8.4's example: a French division cannot break into Vietnamese National Army groups."""
    st = position((division("Fr", FEF, nat="French"), "1314"), (division("US", FEF, nat="US"), "1313"),
                  (division("PLA", COM, nat="Chinese"), "1116"),
                  (unit("f1", FEF, nationality="French"), "1315"), (unit("f2", FEF, nationality="French"), "1315"),
                  (unit("v", FEF, "mechanized", nationality="Vietnamese National Army"), "1315"))
    vna = [unit(f"V{i}", FEF, t, nationality="Vietnamese National Army")
           for i, t in enumerate(("regular infantry", "regular infantry", "mechanized"))]
    with pytest.raises(RuleViolation) as e:
        break_down(st, "Fr", parts=vna)
    assert rule_of(e) == "IC 8.4"
    with pytest.raises(RuleViolation) as e:
        reform(st, ["f1", "f2", "v"], "regular infantry")
    assert rule_of(e) == "IC 8.4"
    for uid in ("US", "PLA"):
        with pytest.raises(RuleViolation) as e:
            break_down(st, uid)
        assert rule_of(e) == "IC 8.5"
    french = [unit(f"F{i}", FEF, t, nationality="French")
              for i, t in enumerate(("regular infantry", "mechanized", "regular infantry"))]
    assert break_down(st, "Fr", parts=french).result == ["F0", "F1", "F2"]


# ------------------------------------------------------------------------------- 9.9, 10.5, 10.22
@pytest.mark.rule("IC 9.9")
def test_movement_points_remaining_track():
    t = MovementPointsTrack()
    t.start("force", 8)
    assert t.spend("force", 4, "an overrun") == 4 and t.spend("force", Fraction(1, 4)) == Fraction(15, 4)
    with pytest.raises(RuleViolation):
        t.spend("force", 4)
    with pytest.raises(RuleViolation) as e:
        t.spend("other", 1)
    assert rule_of(e) == "IC 9.9"
    t.end_phase()
    assert t.left("force") == 0


@pytest.mark.rule("IC 10.5")
def test_initial_deployment_within_limits():
    ok = position(*[(division(f"d{i}", FEF), "1314") for i in range(2)], (unit("cadre", FEF, "cadre", "cadre"), "1314"))
    assert check_initial_deployment(ok).find("IC 10.5")
    bad = position(*[(division(f"d{i}", FEF), "1711") for i in range(2)])      # mountain: one division
    with pytest.raises(RuleViolation) as e:
        check_initial_deployment(bad)
    assert rule_of(e) == "IC 10.5"


@pytest.mark.rule("IC 10.22")
def test_overstacked_hex_fights_with_the_legal_stack():
    st = position((division("a", FEF, s=10), "1314"), (division("b", FEF, s=8), "1314"),
                  (unit("g", FEF, s=3), "1314"), (unit("bn", FEF, size="battalion", s=1), "1314"))
    res = employable(st, st.map.hex("1314"), FEF)
    assert set(res.result) == {"a", "b", "bn"}          # strongest two divisions plus the uncounted battalion
    assert set(employable(st, st.map.hex("1314"), FEF, chosen=["a", "g"]).result) == {"a", "g", "bn"}
    with pytest.raises(RuleViolation) as e:
        employable(st, st.map.hex("1314"), FEF, chosen=["a", "b", "g"])
    assert rule_of(e) == "IC 10.22"
    calm = position((division("a", FEF), "1314"))
    assert employable(calm, calm.map.hex("1314"), FEF).result == ["a"]


# ------------------------------------------------------------------------------------ 11.3, 11.51
@pytest.mark.rule("IC 11.3")
def test_zoc_touches_only_enemy_land_units():
    assert affected_by_zoc(FEF, COM) and not affected_by_zoc(FEF, FEF)
    assert not affected_by_zoc(FEF, COM, kind="air")


@pytest.mark.rule("IC 11.5", "IC 11.51")
def test_no_forced_combat():
    st = position((unit("F", FEF), "1314"), (unit("VM", COM), "1315"))
    assert units_free_not_to_attack(st, COM) == ["VM"]
    t = CombatPhaseTracker()
    assert t.attacks == []                               # ending the phase with no attack is legal


# ------------------------------------------------------------------------------------- 13.13, 13.4
@pytest.mark.rule("IC 13.13", "IC 13.4")
def test_hex_attacked_twice_but_no_unit_twice():
    t = CombatPhaseTracker()
    t.declare(["a", "b"], "1315")
    with pytest.raises(RuleViolation) as e:
        t.declare(["c"], "1316")                         # one attack at a time
    assert rule_of(e) == "IC 13.4"
    t.resolved()
    t.declare(["c"], "1315")
    t.resolved()
    assert t.times_attacked("1315") == 2
    with pytest.raises(RuleViolation) as e:
        t.declare(["a"], "1316")
    assert rule_of(e) == "IC 13.13"
    with pytest.raises(RuleViolation):
        t.resolved()


# --------------------------------------------------------------------------------------------- 20.2
@pytest.mark.rule("IC 20.0", "IC 20.2")
def test_bases_are_combat_units_and_receive_reinforcements():
    st = position((unit("B", FEF, "base", "battalion"), "1314"), (unit("B2", FEF, "base", "battalion"), "1313"))
    assert is_combat_unit(st.unit("B")) and air_transport_terminal(st, st.map.hex("1314"))
    check_base_placement(st, FEF, "1314")
    st.unit("B2").disrupted = True
    for at in ("1313", "1315"):
        with pytest.raises(RuleViolation) as e:
            check_base_placement(st, FEF, at)
        assert rule_of(e) == "IC 20.2"


# ----------------------------------------------------------------------------------------------- rule 16
@pytest.mark.rule("IC 16.0", "IC 16.2")
def test_one_marker_a_hex_benefits_all_friendly_units_and_they_still_move():
    st = position((unit("A", FEF), "1314"), (unit("B", FEF), "1314"), (unit("VM", COM), "1317"))
    lg, owners = Logistics({FEF: 0}), {}
    land_airborne_supply(st, lg, "AS1", FEF, "1314", player_turn=1)
    fortify(st, lg, FEF, "1314", owners, airborne="AS1")
    h = st.map.hex("1314")
    assert fortified(st, lg, h) and fortified(st, lg, "1314", FEF, owners) and owner(st, lg, h, owners) is FEF
    assert not fortified(st, lg, "1314", COM, owners)
    with pytest.raises(RuleViolation) as e:
        place_marker(st, lg, "1314", FEF, owners)
    assert rule_of(e) == "IC 16.2"
    with pytest.raises(RuleViolation) as e:
        place_marker(st, lg, "2120", FEF, owners)        # all sea
    assert rule_of(e) == "IC 16.2"
    move(st, "A", ["1313"])                              # fortifying does not stop movement (16.2)
    assert sweep(st, lg, owners).result == [] and fortified(st, lg, h)


@pytest.mark.rule("IC 16.4", "IC 16.41")
def test_marker_goes_when_the_owner_leaves_and_is_never_captured():
    st = position((unit("A", FEF), "1314"), (unit("VM", COM), "1316"))
    lg, owners = Logistics(), {}
    place_marker(st, lg, "1314", FEF, owners)
    res = Resolution()
    retreat(st, "A", "1313", res)
    st.unit("VM").hex = st.map.hex("1314")               # the Viet Minh advance in
    with pytest.raises(RuleViolation) as e:
        check_use(st, lg, "1314", COM, owners)
    assert rule_of(e) == "IC 16.41"
    assert not fortified(st, lg, "1314", COM, owners)
    out = sweep(st, lg, owners)
    assert out.result == ["1314"] and out.find("IC 16.41") and not lg.fortifications
    st2 = position((unit("A", FEF), "1314"))
    lg2 = Logistics()
    place_marker(st2, lg2, "1314", FEF)
    st2.unit("A").eliminated = True
    assert sweep(st2, lg2).result == ["1314"]


@pytest.mark.rule("IC 17.235")
def test_lone_militia_in_a_fortification_cannot_turn_dd_into_bb():
    st = position((unit("A", FEF), "1619"))              # Qui Nhon, FEF militia 2
    lg, owners = Logistics(), {}
    place_marker(st, lg, "1619", FEF, owners)
    assert may_convert_dd(st, lg, "1619", owners)
    check_dd_conversion(st, lg, "1619", owners)
    move(st, "A", ["1618"])
    assert sweep(st, lg, owners).result == []          # the militia still holds the fortification
    assert fortified(st, lg, "1619", FEF, owners) and not may_convert_dd(st, lg, "1619", owners)
    with pytest.raises(RuleViolation) as e:
        check_dd_conversion(st, lg, "1619", owners)
    assert rule_of(e) == "IC 17.235"


@pytest.mark.rule("IC 17.36")
def test_militia_counters_are_unlimited():
    st = position()
    made = extra_militia(st, 40)
    assert len({c.id for c in made}) == 40 and all(c.type == "militia" for c in made)
