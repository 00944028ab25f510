"""Indochina Rule 12, air operations: the reconstructed Bombardment Table against the text's constraints, the
errata, the modifiers, the restrictions, air transport on the AT line, the air boxes and phases, bad YAML, and
exact odds against seeded sampling."""
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from wargames.core import RandomDice, ScriptedDice, enumerate_outcomes
from wargames.core.errors import DataError, RuleViolation
from wargames.core import rules as registry
from wargames.indochina import air
from wargames.indochina.air import (AIRSTRIKE, B29, NAVAL, TRANSPORT, AirMission, AirPhase, AirPool, Cargo,
                                    CONSTRAINTS, GroundUnit, Place, Strike, TargetHex, air_transport,
                                    air_transport_cost, airstrike, apply_result, check_constraints,
                                    check_carrier_basing, default_table, load_bombardment_table,
                                    overrun_airstrike, range_modifier, regroup, strike_modifiers, strike_odds,
                                    transport_odds)
from . import yamlc

TABLE = default_table()
U = GroundUnit
INF = U("VM 308", strength=4)
INF2 = U("VM 312", strength=4)
DIS = U("VM 316", disrupted=True, strength=2)
DIS2 = U("VM 320", disrupted=True, strength=1)
MIL = U("militia", kind="militia")
CADRE = U("cadre", kind="cadre")
ART = U("VM 351", kind="artillery", strength=3)


def hex_of(*units, **kw):
    return TargetHex(tuple(units), label=kw.pop("label", "1234"), **kw)


def strike(dice_value, target, s=Strike(1), **kw):
    with ScriptedDice([dice_value]) as d:
        return airstrike(d, target, s, **kw)


def first_roll_for(line_label, ground, table=TABLE):
    """The lowest natural roll giving this ground result on this line without modifiers."""
    line = next(l for l in table.lines if l.label == line_label)
    return next(r for r in range(1, 7) if line.cells[r].value.ground == ground)


# --------------------------------------------------------------------------- catalog B3.2 constraints

@pytest.mark.rule("IC Bombardment Table")
@pytest.mark.parametrize("constraint", CONSTRAINTS, ids=lambda c: c.id)
def test_constraint_holds(constraint):
    assert constraint.check(TABLE), f"{constraint.id} ({constraint.source}): {constraint.text}"


@pytest.mark.rule("IC Bombardment Table", "IC 12.33")
def test_one_die_with_modifiers():                      # B3.2 #1
    assert TABLE.low <= 1 and TABLE.high >= 6
    assert air.DIE == 6
    d = RandomDice(3)
    airstrike(d, hex_of(INF), Strike(2))
    assert [s for s, _, _ in d.rolls] == [6]            # exactly one d6 per bombardment


@pytest.mark.rule("IC Bombardment Table", "IC Errata")
def test_b_codes_present_with_their_errata_cases():     # B3.2 #2
    r = TABLE.results
    assert {"B1", "B2", "B3"} <= set(r)
    for code in ("B1", "B2"):
        first = r[code].cases[0]
        assert first.effect == "eliminate_disrupted" and first.struck and first.provenance.kind == "text"
        assert all(c.effect != "eliminate_disrupted" for c in r[code].active())
    b3 = r["B3"].active()
    assert (b3[0].effect, b3[0].count, b3[0].provenance.kind) == ("eliminate_disrupted", 1, "text")
    assert len(b3) == 2                                  # the AND joins a second case


@pytest.mark.rule("IC Bombardment Table", "IC 12.52", "IC 12.53")
def test_at_line_has_losses_and_aborts():               # B3.2 #3
    codes = {TABLE.at_line.cells[r].value for r in TABLE.rolls}
    kinds = {(TABLE.at_results[c].air_unit_kept, TABLE.at_results[c].mission_completed) for c in codes}
    assert (False, False) in kinds and (True, False) in kinds and (True, True) in kinds
    assert TABLE.at_line.provenance.kind == "text"


@pytest.mark.rule("IC Bombardment Table", "IC 12.51")
def test_antiaircraft_is_built_into_the_table():        # B3.2 #4
    assert any(c.value.air_losses for l in TABLE.lines for c in l.cells.values())
    res = strike(1, hex_of(INF, artillery_adjacent=True), Strike(2))   # 1 - 1 = 0: A1
    assert res.result.air_lost == 1 and res.find("IC 12.51")


@pytest.mark.rule("IC Bombardment Table", "IC 12.54", "IC 27.5", "IC Exp Aircraft Range")
def test_the_three_modifiers():                         # B3.2 #5
    d = TABLE.drms
    assert d["artillery"].value < 0 and d["artillery"].provenance.reconstructed
    assert d["overrun"].value < 0 and d["overrun"].provenance.reconstructed
    assert [d[k].value for k in ("range_near", "range_mid", "range_far")] == [1, 0, -1]
    assert all(d[k].provenance.kind == "text" for k in ("range_near", "range_mid", "range_far"))


@pytest.mark.rule("IC 12.32", "IC 12.37", "IC 17.34")
def test_whole_hex_target_and_militia_untouched():      # B3.2 #6
    res = strike(6, hex_of(INF, INF2, MIL, CADRE), Strike(8))   # 8+ line, roll 6: B3
    out = res.result
    assert out.ground == "B3"
    assert set(out.disrupted) == {"VM 308", "VM 312", "cadre"}      # every effective unit but the militia
    assert next(u for u in out.units if u.id == "militia") == MIL
    assert res.find("IC 17.34")


@pytest.mark.rule("IC 12.35", "IC Bombardment Table")
def test_one_roll_per_hex_and_groups_pick_the_line():   # B3.2 #7 and B5 #20, our reading
    labels = [TABLE.line_for(n).label for n in (1, 2, 3, 4, 5, 7, 8, 50)]
    assert labels == ["1", "2", "3-4", "3-4", "5-7", "5-7", "8+", "8+"]
    res = strike(4, hex_of(INF, coastal=True), Strike(airstrike=3, naval=1))
    assert res.result.line == "3-4"
    for n in range(1, 12):   # more groups never hurt
        lo, hi = strike_odds(hex_of(INF), Strike(n)), strike_odds(hex_of(INF), Strike(n + 1))
        rank = lambda dist: sum(p * TABLE.results[g].rank for g, p in dist.items())
        assert rank(hi) >= rank(lo)


units_st = st.lists(st.tuples(st.booleans(), st.sampled_from(["unit", "artillery", "cadre", "militia"]),
                               st.integers(0, 6)), min_size=1, max_size=6)


@pytest.mark.rule("IC Bombardment Table", "IC 17.34", "IC Errata")
@settings(max_examples=150, deadline=None)
@given(units_st, st.integers(1, 10), st.integers(1, 6), st.booleans(), st.booleans())
def test_strike_invariants(specs, groups, roll, artillery, overrun):
    units = tuple(U(f"u{i}", disrupted=d, kind=k, strength=s) for i, (d, k, s) in enumerate(specs))
    target = hex_of(*units, artillery_adjacent=artillery)
    if all(u.kind in ("militia", "cadre") for u in units):
        with pytest.raises(RuleViolation):
            airstrike(ScriptedDice([roll]), target, Strike(groups))
        return
    out = strike(roll, target, Strike(groups), overrun=overrun).result
    before = {u.id: u for u in units}
    after = {u.id: u for u in out.units}
    assert set(after) == set(before) - set(out.eliminated)
    assert len(out.eliminated) <= 1                                          # only B3 kills, and only one
    assert all(before[i].disrupted and before[i].combat_unit for i in out.eliminated)
    assert all(not before[i].disrupted and after[i].disrupted for i in out.disrupted)
    assert all(after[u.id] == u for u in units if u.kind == "militia")      # 17.34
    assert 0 <= out.air_lost <= 1


# --------------------------------------------------------------------------- errata

@pytest.mark.rule("IC Errata", "IC Bombardment Table")
@pytest.mark.parametrize("code", ["B1", "B2"])
def test_b1_b2_no_longer_eliminate_disrupted_units(code):
    units, eliminated, disrupted = apply_result(code, (DIS, DIS2, INF))
    assert eliminated == () and disrupted == ("VM 308",)
    assert {u.id for u in units} == {"VM 316", "VM 320", "VM 308"}


@pytest.mark.rule("IC Errata", "IC Bombardment Table")
@pytest.mark.parametrize("code", ["B1", "B2"])
def test_without_the_errata_b1_b2_eliminate_disrupted_units(code):
    units, eliminated, _ = apply_result(code, (DIS, DIS2, INF), errata=False)
    assert set(eliminated) == {"VM 316", "VM 320"}


@pytest.mark.rule("IC Errata", "IC Bombardment Table")
def test_b3_eliminates_one_disrupted_unit_and_disrupts_the_rest():
    units, eliminated, disrupted = apply_result("B3", (DIS, DIS2, INF, INF2))
    assert eliminated == ("VM 320",)                     # the owner gives up the weaker disrupted unit
    assert set(disrupted) == {"VM 308", "VM 312"}
    assert all(u.disrupted for u in units) and len(units) == 3


@pytest.mark.rule("IC Bombardment Table")
def test_b3_case_order_a_unit_it_disrupts_is_not_also_eliminated():
    units, eliminated, disrupted = apply_result("B3", (INF,))
    assert eliminated == () and disrupted == ("VM 308",) and units[0].disrupted


@pytest.mark.rule("IC Bombardment Table")
def test_b3_eliminates_only_combat_units():
    zero = U("HQ", disrupted=True, strength=0)
    _, eliminated, _ = apply_result("B3", (zero, INF))
    assert eliminated == ()


@pytest.mark.rule("IC Bombardment Table")
def test_owner_chooses_and_a_bad_choice_is_refused():
    pick = lambda action, cands, n: [cands[-1].id]
    _, _, disrupted = apply_result("B1", (INF, INF2), choose=pick)
    assert disrupted == ("VM 312",)
    with pytest.raises(RuleViolation) as e:
        apply_result("B1", (INF, INF2), choose=lambda a, c, n: ["nobody"])
    assert e.value.rule == "IC Bombardment Table"


# --------------------------------------------------------------------------- modifiers

@pytest.mark.rule("IC 12.54")
def test_artillery_in_or_next_to_the_hex():
    for target in (hex_of(INF, ART), hex_of(INF, artillery_adjacent=True)):
        mods = strike_modifiers(target, Strike(1))
        assert [m.name for m, _ in mods] == ["artillery"]
        assert strike(3, target).result.modified == 2
    assert strike_modifiers(hex_of(INF), Strike(1)) == []


@pytest.mark.rule("IC 12.54", "IC 12.6", "IC 12.7")
def test_artillery_flak_does_not_touch_naval_or_b29_strikes():
    target = hex_of(INF, artillery_adjacent=True, coastal=True)
    assert strike_modifiers(target, Strike(naval=1)) == []
    assert strike_modifiers(target, Strike(b29=1)) == []
    res = strike(3, target, Strike(naval=1))
    assert res.result.modified == 3 and res.find("IC 12.54")


@pytest.mark.rule("IC 27.5")
def test_overrun_modifier_is_negative():
    res = strike(4, hex_of(INF), overrun=True)
    assert res.result.modified == 4 + TABLE.drms["overrun"].value == 3
    assert res.find("IC 27.5")


@pytest.mark.rule("IC Exp Aircraft Range")
@pytest.mark.parametrize("ranges,value", [((1, 3), 1), ((4,), 0), ((2, 5), 0), ((6, 6), 0), ((1, 7), -1), ((9,), -1)])
def test_range_modifier(ranges, value):
    assert range_modifier(ranges)[0].value == value
    assert strike(3, hex_of(INF), Strike(len(ranges), ranges=ranges)).result.modified == 3 + value


@pytest.mark.rule("IC Exp Aircraft Range")
def test_range_rule_limits():
    with pytest.raises(RuleViolation):
        range_modifier((0,))
    with pytest.raises(RuleViolation):
        airstrike(ScriptedDice([3]), hex_of(INF), Strike(1, ranges=(2, 2)))   # two ranges for one group
    res = strike(3, hex_of(INF), Strike(b29=1, ranges=(9,)))                 # B-29s ignore range
    assert res.result.modified == 3 and res.find("IC Exp Aircraft Range")
    check_carrier_basing(2, 3, 5)
    with pytest.raises(RuleViolation):
        check_carrier_basing(3)
    with pytest.raises(RuleViolation):
        check_carrier_basing(0, 4, 5)                  # half of 5, rounded up, is 3


@pytest.mark.rule("IC 12.33", "IC Bombardment Table")
def test_modified_rolls_past_the_table_read_the_end_entry_and_say_so():
    target = hex_of(INF, ART)
    res = strike(1, target, Strike(1, ranges=(8,)), overrun=True)       # 1 - 1 - 1 - 1 = -2
    assert res.result.modified == -2 and res.result.cell == TABLE.lines[0].cells[TABLE.low].value.text
    assert "off the table" in res.text()
    res = strike(6, hex_of(INF), Strike(1, ranges=(2,)))                 # 7: the top entry itself
    assert res.result.modified == 7 and "off the table" not in res.text()


@pytest.mark.rule("IC Bombardment Table")
def test_higher_modified_roll_is_never_worse():
    for line in TABLE.lines:
        ranks = [TABLE.results[line.cells[r].value.ground].rank for r in TABLE.rolls]
        losses = [line.cells[r].value.air_losses for r in TABLE.rolls]
        assert ranks == sorted(ranks) and losses == sorted(losses, reverse=True)


# --------------------------------------------------------------------------- restrictions

@pytest.mark.rule("IC 12.32")
@pytest.mark.parametrize("target,why", [
    (hex_of(MIL), "militia"), (hex_of(CADRE), "militia"), (hex_of(MIL, CADRE), "militia"),
    (hex_of(), "enemy ground units"), (hex_of(INF, fef_units=True), "FEF units")])
def test_forbidden_targets(target, why):
    with pytest.raises(RuleViolation) as e:
        airstrike(ScriptedDice([3]), target, Strike(1))
    assert e.value.rule == "IC 12.32" and why in e.value.reason


@pytest.mark.rule("IC 12.31", "IC 12.32")
def test_cadres_with_other_units_may_be_struck():
    assert strike(6, hex_of(INF, CADRE), Strike(2)).result.ground == "B2"


@pytest.mark.rule("IC 12.33")
def test_a_strike_needs_units():
    for bad in (Strike(0), Strike(-1, 2)):
        with pytest.raises(RuleViolation) as e:
            airstrike(ScriptedDice([3]), hex_of(INF), bad)
        assert e.value.rule == "IC 12.33"


@pytest.mark.rule("IC 12.6")
def test_naval_strikes_only_on_the_coast_and_never_lose_ships():
    with pytest.raises(RuleViolation) as e:
        airstrike(ScriptedDice([3]), hex_of(INF), Strike(naval=1))
    assert e.value.rule == "IC 12.6"
    target = hex_of(INF, coastal=True)
    res = strike(1, target, Strike(naval=1), overrun=True)                   # 1 - 1 = 0: A1
    assert res.result.cell.startswith("A1") and res.result.air_lost == 0 and res.find("IC 12.6")


@pytest.mark.rule("IC 12.7")
def test_b29_restrictions():
    for bad, target in ((Strike(1, b29=1), hex_of(INF)), (Strike(naval=1, b29=1), hex_of(INF, coastal=True)),
                        (Strike(b29=2), hex_of(INF, next_to_fef_land_units=True))):
        with pytest.raises(RuleViolation) as e:
            airstrike(ScriptedDice([3]), target, bad)
        assert e.value.rule == "IC 12.7"
    res = strike(1, hex_of(INF), Strike(b29=1), overrun=True)
    assert res.result.cell.startswith("A1") and res.result.air_lost == 0


@pytest.mark.rule("IC 30.4")
def test_no_strike_after_an_atomic_bomb():
    with pytest.raises(RuleViolation) as e:
        airstrike(ScriptedDice([3]), hex_of(INF, atomic_bombed=True), Strike(3))
    assert e.value.rule == "IC 30.4"


def test_no_strike_into_china():
    with pytest.raises(RuleViolation) as e:
        airstrike(ScriptedDice([3]), hex_of(INF, in_china=True), Strike(3))
    assert e.value.rule == "IC 22.3"


@pytest.mark.rule("IC 12.0", "IC 12.3", "IC 12.5")
def test_a_full_strike_reads_as_a_chain_of_rules():
    res = strike(5, hex_of(INF, DIS, MIL, artillery_adjacent=True), Strike(3, ranges=(2, 3)))
    assert res.rules()[:4] == ["IC 12.32", "IC 12.35", "IC 12.54", "IC Exp Aircraft Range"]
    assert res.result.roll == 5 and res.result.modified == 5 and res.result.ground == "B2"
    assert res.to_dict()["result"]["ground"] == "B2"


# --------------------------------------------------------------------------- air transport

AIRFIELD = Place("Hanoi", airfield=True, fef_units=True)
DBP = Place("Dien Bien Phu", airfield=True, fef_units=True, next_to_communists=True, artillery_near=True)
FIELD = Place("paddy", terrain="clear")
HOT = Place("drop zone", next_to_communists=True)
PARA = Cargo("6 BPC", "battalion", airborne=True)
INF_GROUP = Cargo("GM 1", "group")
SUPPLY = Cargo("airborne supply", "supply")


@pytest.mark.rule("IC 12.4", "IC 12.41", "IC 12.52")
def test_quiet_air_transport_needs_no_roll():
    with ScriptedDice([]) as d:
        res = air_transport(d, AirMission(INF_GROUP, AIRFIELD, Place("Haiphong", airfield=True, fef_units=True)))
    assert res.result.code == "OK" and not res.result.rolled and res.result.landing == "airfield"


@pytest.mark.rule("IC 12.52", "IC 12.53", "IC 12.54")
def test_hot_landing_rolls_on_the_at_line_with_the_artillery_modifier():
    m = AirMission(INF_GROUP, AIRFIELD, DBP)
    out = air_transport(ScriptedDice([3]), m).result
    assert out.rolled and out.modified == 2 and out.code == TABLE.at_line.cells[2].value == "AB"
    assert not out.mission_completed and out.air_unit_kept
    out = air_transport(ScriptedDice([1]), m).result
    assert out.code == "X" and not out.air_unit_kept
    out = air_transport(ScriptedDice([4]), AirMission(INF_GROUP, DBP, AIRFIELD)).result   # leaving: no artillery DRM
    assert out.modified == 4 and out.mission_completed


@pytest.mark.rule("IC 12.4", "IC 15.72")
@pytest.mark.parametrize("cargo,rule", [(Cargo("DNA 1", "group", dna=True), "IC 12.4"),
                                        (Cargo("2 DIC", "division"), "IC 12.4"),
                                        (Cargo("base", "base"), "IC 12.4")])
def test_what_cannot_fly(cargo, rule):
    with pytest.raises(RuleViolation) as e:
        air_transport(ScriptedDice([]), AirMission(cargo, AIRFIELD, AIRFIELD))
    assert e.value.rule == rule


@pytest.mark.rule("IC 12.4", "IC 15.72")
@pytest.mark.parametrize("size", ["group", "regiment", "brigade", "battalion", "cadre", "supply"])
def test_what_one_transport_carries(size):
    assert air_transport(ScriptedDice([]), AirMission(Cargo("x", size), AIRFIELD, AIRFIELD)).result.mission_completed


@pytest.mark.rule("IC 12.41")
def test_ordinary_units_need_airfields_at_both_ends():
    for m in (AirMission(INF_GROUP, FIELD, AIRFIELD), AirMission(INF_GROUP, AIRFIELD, FIELD),
              AirMission(INF_GROUP, AIRFIELD, Place("empty town", airfield=True))):
        with pytest.raises(RuleViolation) as e:
            air_transport(ScriptedDice([]), m)
        assert e.value.rule == "IC 12.41"


@pytest.mark.rule("IC 12.44")
def test_no_mountain_or_prohibited_hexes():
    for m in (AirMission(INF_GROUP, Place("Lai Chau", terrain="mountain", airfield=True, fef_units=True), AIRFIELD),
              AirMission(PARA, AIRFIELD, Place("peak", terrain="mountain")),
              AirMission(PARA, AIRFIELD, Place("lake", prohibited=True))):
        with pytest.raises(RuleViolation) as e:
            air_transport(ScriptedDice([]), m)
        assert e.value.rule == "IC 12.44"


@pytest.mark.rule("IC 12.45", "IC 19.0", "IC 19.1")
def test_airborne_landings():
    with ScriptedDice([5]) as d:
        out = air_transport(d, AirMission(PARA, AIRFIELD, HOT)).result
    assert out.landing == "parachute" and out.rolled and out.code == "OK"
    with pytest.raises(RuleViolation) as e:
        air_transport(ScriptedDice([]), AirMission(PARA, AIRFIELD, Place("VM hex", enemy_units=True)))
    assert e.value.rule == "IC 12.45"


@pytest.mark.rule("IC 12.46", "IC 19.2")
def test_supply_drops():
    assert air_transport(ScriptedDice([]), AirMission(SUPPLY, AIRFIELD, FIELD)).result.landing == "supply drop"
    with pytest.raises(RuleViolation) as e:
        air_transport(ScriptedDice([]), AirMission(SUPPLY, AIRFIELD, Place("VM hex", enemy_units=True)))
    assert e.value.rule == "IC 12.46"


@pytest.mark.rule("IC 23.13", "IC 23.14")
def test_from_the_staging_area():
    fesa = Place("FESA", staging_area=True)
    res = air_transport(ScriptedDice([]), AirMission(INF_GROUP, fesa, AIRFIELD))
    assert res.find("IC 23.13")
    res = air_transport(ScriptedDice([]), AirMission(PARA, fesa, FIELD))
    assert res.find("IC 23.14")
    with pytest.raises(RuleViolation):
        air_transport(ScriptedDice([]), AirMission(INF_GROUP, fesa, FIELD))


@pytest.mark.rule("IC 27.5")
def test_no_air_transport_during_an_overrun():
    with pytest.raises(RuleViolation) as e:
        air_transport(ScriptedDice([]), AirMission(INF_GROUP, AIRFIELD, AIRFIELD), during_overrun=True)
    assert e.value.rule == "IC 27.5"


@pytest.mark.rule("IC 12.43")
def test_air_transport_movement_cost_readings():
    assert air_transport_cost() == 2 and air_transport_cost("12.43") == 0
    with pytest.raises(RuleViolation):
        air_transport_cost("free")


# --------------------------------------------------------------------------- boxes and phases

@pytest.mark.rule("IC 12.1")
def test_air_counters_trade_like_change():
    assert regroup([(AIRSTRIKE, 3)], [(AIRSTRIKE, 1)] * 3)
    assert regroup([(AIRSTRIKE, 3)], [(AIRSTRIKE, 2), (AIRSTRIKE, 1)])
    for bad in ([(AIRSTRIKE, 2), (TRANSPORT, 1)], [(AIRSTRIKE, 4)]):
        with pytest.raises(RuleViolation) as e:
            regroup([(AIRSTRIKE, 3)], bad)
        assert e.value.rule == "IC 12.1"


@pytest.mark.rule("IC 12.2", "IC 12.21", "IC 12.23", "IC 12.36", "IC 12.53")
def test_boxes_through_a_turn():
    pool = AirPool({AIRSTRIKE: 6, TRANSPORT: 3})
    phase = AirPhase(pool, "defensive")
    phase.commit(hex_of(INF, artillery_adjacent=True), Strike(2))
    phase.resolve(ScriptedDice([1]))                        # 1 - 1 = 0: A1, one group shot down
    assert pool.available[AIRSTRIKE] == 4 and pool.completed[AIRSTRIKE] == 1 and pool.eliminated[AIRSTRIKE] == 1
    phase.transport(ScriptedDice([1]), AirMission(INF_GROUP, AIRFIELD, DBP))       # X
    phase.transport(ScriptedDice([3]), AirMission(INF_GROUP, AIRFIELD, DBP))       # AB
    assert pool.eliminated[TRANSPORT] == 1 and pool.completed[TRANSPORT] == 1 and pool.available[TRANSPORT] == 1
    pool.end_of_turn()
    assert pool.available == {AIRSTRIKE: 5, TRANSPORT: 2} and pool.completed == {}
    with pytest.raises(RuleViolation) as e:
        AirPhase(pool).commit(hex_of(INF), Strike(6))
    assert e.value.rule == "IC 12.21"
    assert pool.available[AIRSTRIKE] == 5                  # a refused mission takes nothing


@pytest.mark.rule("IC 12.22", "IC 15.33")
def test_increased_sorties_cost_a_supply_point_per_group():
    pool = AirPool({AIRSTRIKE: 1}, completed={AIRSTRIKE: 4})
    with pytest.raises(RuleViolation) as e:
        AirPhase(pool, "defensive").increased_sorties(AIRSTRIKE, 1, 5)
    assert e.value.rule == "IC 12.22"
    phase = AirPhase(pool, "offensive")
    with pytest.raises(RuleViolation) as e:
        phase.increased_sorties(AIRSTRIKE, 3, 2)
    assert e.value.rule == "IC 15.33"
    with pytest.raises(RuleViolation):
        phase.increased_sorties(AIRSTRIKE, 5, 9)
    assert phase.increased_sorties(AIRSTRIKE, 3, 5) == 2
    assert pool.available[AIRSTRIKE] == 4 and pool.completed[AIRSTRIKE] == 1
    phase.commit(hex_of(INF), Strike(1))
    with pytest.raises(RuleViolation):
        phase.increased_sorties(AIRSTRIKE, 1, 2)             # only at the start of the phase


@pytest.mark.rule("IC 12.34", "IC 12.35", "IC 12.37")
def test_place_everything_then_resolve_one_hex_at_a_time():
    pool = AirPool({AIRSTRIKE: 6, NAVAL: 1})
    phase = AirPhase(pool)
    a, b = hex_of(INF, label="A", coastal=True), hex_of(INF2, label="B")
    phase.commit(a, Strike(2))
    phase.commit(b, Strike(1))
    phase.commit(a, Strike(1, naval=1))                     # joins the same attack
    assert phase.committed["A"][1] == Strike(3, naval=1)
    res = phase.resolve(ScriptedDice([6]), "A")
    assert res.result.line == "3-4"
    for late in (a, hex_of(U("x"), label="C")):
        with pytest.raises(RuleViolation) as e:
            phase.commit(late, Strike(1))
        assert e.value.rule == ("IC 12.37" if late is a else "IC 12.34")
    with pytest.raises(RuleViolation) as e:
        phase.resolve(ScriptedDice([6]), "A")
    assert e.value.rule == "IC 12.37"
    phase.resolve_all(ScriptedDice([2]))
    assert phase.bombarded == ["A", "B"] and pool.completed == {AIRSTRIKE: 4, NAVAL: 1}


@pytest.mark.rule("IC 12.7")
def test_b29s_never_join_another_attack_in_a_phase():
    phase = AirPhase(AirPool({AIRSTRIKE: 2, B29: 2}))
    phase.commit(hex_of(INF), Strike(1))
    with pytest.raises(RuleViolation) as e:
        phase.commit(hex_of(INF), Strike(b29=1))
    assert e.value.rule == "IC 12.7"


@pytest.mark.rule("IC 12.11", "IC 12.42")
def test_transport_after_the_strikes():
    phase = AirPhase(AirPool({AIRSTRIKE: 1, TRANSPORT: 1}))
    phase.commit(hex_of(INF), Strike(1))
    with pytest.raises(RuleViolation) as e:
        phase.transport(ScriptedDice([]), AirMission(INF_GROUP, AIRFIELD, AIRFIELD))
    assert e.value.rule == "IC 12.42"
    phase.resolve(ScriptedDice([3]))
    phase.transport(ScriptedDice([]), AirMission(INF_GROUP, AIRFIELD, AIRFIELD))
    with pytest.raises(RuleViolation) as e:
        phase.commit(hex_of(INF2, label="late"), Strike(1))
    assert e.value.rule == "IC 12.34"


@pytest.mark.rule("IC 27.5")
def test_overrun_strike_uses_available_units_and_the_penalty():
    pool = AirPool({AIRSTRIKE: 2})
    res = overrun_airstrike(pool, ScriptedDice([1]), hex_of(INF), Strike(2))    # 1 - 1 = 0: A1
    assert res.result.air_lost == 1 and pool.eliminated == {AIRSTRIKE: 1} and pool.completed == {AIRSTRIKE: 1}


# --------------------------------------------------------------------------- exact odds and the three dice modes

@pytest.mark.rule("IC 12.33", "IC Bombardment Table")
def test_exact_distribution_sums_to_one_and_matches_sampling():
    target, s = hex_of(INF, DIS, artillery_adjacent=True), Strike(3)
    dist = enumerate_outcomes(lambda d: airstrike(d, target, s).result)
    assert sum(dist.values()) == 1 and len(dist) == 6
    grounds = dist.map(lambda o: o.ground)
    line = TABLE.line_for(3)
    expected = Counter(line.cells[max(r - 1, TABLE.low)].value.ground for r in range(1, 7))
    assert dict(grounds) == {g: Fraction(n, 6) for g, n in expected.items()}
    rng, n = RandomDice(seed=12), 6000
    seen = Counter(airstrike(rng, target, s).result.ground for _ in range(n))
    for g, p in grounds.items():
        assert abs(seen[g] / n - float(p)) < 0.03
    replay = ScriptedDice(rng.script())
    again = Counter(airstrike(replay, target, s).result.ground for _ in range(n))
    replay.finish()
    assert again == seen


@pytest.mark.rule("IC 12.52")
def test_transport_odds():
    dist = transport_odds(AirMission(INF_GROUP, AIRFIELD, DBP))
    assert sum(dist.values()) == 1
    assert dist["X"] == Fraction(1, 3) and dist["AB"] == Fraction(1, 6) and dist["OK"] == Fraction(1, 2)
    quiet = transport_odds(AirMission(INF_GROUP, AIRFIELD, AIRFIELD))
    assert dict(quiet) == {"OK": 1}


@pytest.mark.rule("IC Bombardment Table")
def test_one_group_plain_strike_odds():
    dist = strike_odds(hex_of(INF), Strike(1))
    assert dict(dist) == {"NE": Fraction(1, 2), "B1": Fraction(1, 3), "B2": Fraction(1, 6)}


# --------------------------------------------------------------------------- bad YAML

SRC = (air.DATA / "bombardment.yaml").read_text()


def _broken(tmp_path, mutate):
    data = yamlc.safe_load(SRC)
    mutate(data)
    p = tmp_path / "printed.yaml"
    p.write_text(yamlc.safe_dump(data, sort_keys=False))
    with pytest.raises(DataError) as e:
        load_bombardment_table(p)
    assert e.value.file == str(p)
    return e.value.field


@pytest.mark.rule("IC Bombardment Table")
@pytest.mark.parametrize("mutate,field", [
    (lambda d: d["lines"]["2"].__setitem__(3, "B9"), "lines[2][3]"),
    (lambda d: d["lines"]["2"].pop(), "lines[2]"),
    (lambda d: d["lines"].pop("AT"), "lines.AT"),
    (lambda d: d["lines"]["AT"].__setitem__(0, "B1"), "lines.AT[0]"),
    (lambda d: d["lines"].__setitem__("8+", d["lines"].pop("8+")) or d["lines"].__setitem__("9-12", d["lines"].pop("8+")), "lines[9-12]"),
    (lambda d: d["drms"].pop("artillery"), "drms.artillery"),
    (lambda d: d["drms"]["overrun"].__setitem__("value", "minus one"), "drms.overrun.value"),
    (lambda d: d["drms"].__setitem__("weather", {"value": 1, "rule": "x"}), "drms.weather"),
    (lambda d: d["results"]["B3"]["cases"][1].__setitem__("count", 0), "results.B3.cases[1].count"),
    (lambda d: d["results"]["B1"]["cases"][1].__setitem__("effect", "vaporize"), "results.B1.cases[1].effect"),
    (lambda d: d["results"]["B1"].__setitem__("provenance", {"kind": "text"}), "results.B1.provenance.source"),
    (lambda d: d["at_results"]["X"].__setitem__("air_unit", "lost"), "at_results.X.air_unit"),
    (lambda d: d.__setitem__("rolls", {"low": 2, "high": 7}), "rolls.low"),
    (lambda d: d.__setitem__("cells", {"9/3": {"kind": "reconstructed"}}), "cells[9/3]"),
    (lambda d: d["lines"]["1"].__setitem__(0, "A1+A1"), "lines[1][0]"),
])
def test_bad_yaml_names_file_and_field(tmp_path, mutate, field):
    assert _broken(tmp_path, mutate) == field


@pytest.mark.rule("IC Bombardment Table")
def test_an_owner_table_loads_and_breaking_the_text_is_reported(tmp_path):
    data = yamlc.safe_load(SRC)
    data.pop("provenance")                                       # an owner's printed table
    data["drms"]["artillery"]["value"] = 1
    p = tmp_path / "printed.yaml"
    p.write_text(yamlc.safe_dump(data, sort_keys=False))
    t = load_bombardment_table(p)
    assert t.provenance_counts() == {"printed": 48}
    assert check_constraints(t) == ["bt-artillery-penalty"]
    assert strike(3, hex_of(INF, ART), table=t).result.modified == 4
    with pytest.raises(DataError) as e:
        load_bombardment_table(tmp_path / "missing.yaml")
    assert e.value.field == "(file)"


# --------------------------------------------------------------------------- registry

def test_every_registered_rule_has_a_test_here():
    here = Path(__file__).name
    marked = {rid for rid, tests in registry.tests_by_rule(Path(__file__).parent).items()
              if any(t.startswith(here + "::") for t in tests)}
    ids = {rid for rid, names in registry.implementations().items() if any(n.startswith("wargames.indochina.air.") for n in names)}
    assert ids and not ids - marked, sorted(ids - marked)
