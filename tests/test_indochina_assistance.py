"""Indochina rules 5.2-5.3 and 7.1-7.7: military assistance, the Political Points Table and the full
Mobilization Chart (all reconstructed), with one test per constraint the text puts on them."""
from fractions import Fraction

import pytest

from wargames.core import RandomDice, ScriptedDice, enumerate_outcomes
from wargames.core.errors import DataError, RuleViolation
from wargames.indochina import Side
from wargames.indochina import assistance as A
from wargames.indochina import political_table as PT
from wargames.indochina.assistance import (AIR_AVAILABLE, FESA, AssistancePhase, Friendly, Place, Source,
                                           check_placement, costs_political_points, counters_available, eliminate,
                                           load_assistance, load_full_chart, mobilize_unit, place_reinforcement,
                                           roll_assistance)
from wargames.indochina.logistics import Logistics
from wargames.indochina.political import PoliticalPoints
from wargames.indochina.political_table import Holdings, Loss, load_political_table, score_cities, score_eliminations

COM, FEF = Side.COMMUNIST, Side.FEF
BASE = Friendly("base")
CADRE = Friendly("cadre")


def hex_(label="1010", country="Vietnam", terrain="clear", *friendly):
    return Place(label, country, terrain, tuple(friendly))


# --------------------------------------------------------------------------- constraints

@pytest.mark.rule("IC US Military Assistance Table", "IC Chinese Military Assistance Table", "IC Mobilization Chart")
@pytest.mark.parametrize("constraint", A.CONSTRAINTS, ids=lambda c: c.id)
def test_assistance_and_chart_constraint_holds(constraint):
    us, cn, chart = load_assistance(FEF), load_assistance(COM), load_full_chart()
    assert constraint.check(us, cn, chart), f"{constraint.id} ({constraint.source}): {constraint.text}"


@pytest.mark.rule("IC Political Points Table")
@pytest.mark.parametrize("constraint", PT.CONSTRAINTS, ids=lambda c: c.id)
def test_political_table_constraint_holds(constraint):
    assert constraint.check(load_political_table()), f"{constraint.id} ({constraint.source}): {constraint.text}"


@pytest.mark.rule("IC US Military Assistance Table", "IC Chinese Military Assistance Table", "IC Mobilization Chart",
                  "IC Political Points Table")
def test_every_reconstructed_value_is_marked():
    for side in Side:
        t = load_assistance(side)
        assert {e.provenance.kind for e in t.entries.values()} == {"reconstructed"}
    kinds = {r.name: r.provenance.kind for r in load_full_chart().values()}
    assert kinds["VNA infantry group"] == kinds["French mechanized group"] == "example"
    assert kinds["Communist militia"] == "text"
    assert sum(k == "reconstructed" for k in kinds.values()) == len(kinds) - 3
    assert {a.provenance.kind for a in load_political_table().eliminations.values()} == {"reconstructed"}


@pytest.mark.rule("IC US Military Assistance Table", "IC Mobilization Chart")
def test_a_chart_breaking_the_text_is_reported(tmp_path):
    src = (A.DATA / "us_assistance.yaml").read_text()
    p = tmp_path / "us.yaml"
    p.write_text(src.replace("  1: {supply: 1, units: []}", "  1: {supply: 0, units: []}"))
    assert "ma-supply" in A.check_constraints(us=load_assistance(FEF, p))
    p = tmp_path / "us_seven.yaml"
    p.write_text(src.replace("  6: {supply: 3", "  7: {supply: 3"))
    with pytest.raises(DataError) as e:
        load_assistance(FEF, p)
    assert e.value.file == str(p) and e.value.field == "results[7]"
    p = tmp_path / "us_pp.yaml"
    p.write_text(src.replace("units: [French airstrike]", "units: [French airstrike], political_points: 1"))
    with pytest.raises(DataError) as e:
        load_assistance(FEF, p)
    assert e.value.field == "results[6].political_points"
    p = tmp_path / "us_unit.yaml"
    p.write_text(src.replace("[VNA infantry group]", "[Flying tiger]"))
    with pytest.raises(DataError) as e:
        load_assistance(FEF, p)
    assert e.value.field == "results[5].units[0]"
    chart = (A.DATA / "mobilization_full.yaml").read_text()
    q = tmp_path / "chart.yaml"
    q.write_text(chart.replace("size: group, cost: 3,\n     location: {area: Far Eastern Staging Area}, provenance",
                               "size: group, cost: 2,\n     location: {area: Far Eastern Staging Area}, provenance"))
    assert "mc-text-rows" in A.check_constraints(chart=load_full_chart(q))
    q = tmp_path / "chart_on.yaml"
    q.write_text(chart.replace('cost: 1,\n     location: {"on": base, country: Vietnam}, provenance',
                               'cost: 1,\n     location: {"on": bunker, country: Vietnam}, provenance'))
    with pytest.raises(DataError) as e:
        load_full_chart(q)
    assert e.value.file == str(q) and e.value.field == "units[VNA infantry group].location.on"


@pytest.mark.rule("IC Political Points Table")
def test_bad_political_table_names_file_and_field(tmp_path):
    src = (PT.DATA / "political_points.yaml").read_text()
    p = tmp_path / "pp.yaml"
    p.write_text(src.replace("division: {owner_loses: 4,", "division: {owner_loses: -4,", 1))
    with pytest.raises(DataError) as e:
        load_political_table(p)
    assert e.value.file == str(p) and e.value.field == "eliminations.FEF.French.division.owner_loses"
    p = tmp_path / "pp_hold.yaml"
    p.write_text(src.replace("hold_city: 1", "hold_city: 0"))
    assert PT.check_constraints(load_political_table(p)) == ["pp-cities"]


# --------------------------------------------------------------------------- 7.3 assistance

@pytest.mark.rule("IC 7.3", "IC US Military Assistance Table")
def test_us_assistance_exact_distribution():
    supply = enumerate_outcomes(lambda d: roll_assistance(d, FEF).result.supply)
    assert dict(supply) == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    units = enumerate_outcomes(lambda d: roll_assistance(d, FEF).result.units)
    assert units[()] == Fraction(2, 3)
    assert units[("VNA infantry group",)] == units[("French airstrike",)] == Fraction(1, 6)
    assert supply.expectation() == 2


@pytest.mark.rule("IC 7.3", "IC Chinese Military Assistance Table")
def test_chinese_assistance_exact_distribution():
    supply = enumerate_outcomes(lambda d: roll_assistance(d, COM).result.supply)
    assert dict(supply) == {1: Fraction(1, 6), 2: Fraction(1, 3), 3: Fraction(1, 3), 4: Fraction(1, 6)}
    assert supply.expectation() == Fraction(5, 2)
    units = enumerate_outcomes(lambda d: len(roll_assistance(d, COM).result.units))
    assert dict(units) == {0: Fraction(2, 3), 1: Fraction(1, 3)}


@pytest.mark.rule("IC 7.3", "IC 7.31")
def test_assistance_is_free_and_gives_supply():
    pp, log = PoliticalPoints(fef=30, communist=30), Logistics({FEF: 4, COM: 0})
    phase = AssistancePhase(FEF)
    with ScriptedDice([5]) as dice:
        res = roll_assistance(dice, FEF, phase=phase, points=pp, logistics=log)
    assert res.result.supply == 3 and res.result.units == ("VNA infantry group",)
    assert log.points[FEF] == 7 and (pp.fef, pp.communist) == (30, 30)
    assert phase.pending == ["VNA infantry group"]
    assert "IC 7.31" in res.rules()
    out = place_reinforcement(FEF, "VNA infantry group", hex_("Hanoi", "Vietnam", "city", BASE), phase)
    assert out.result.cost == 0 and phase.pending == [] and pp.fef == 30


@pytest.mark.rule("IC 7.3")
def test_assistance_timing_and_table():
    pp = PoliticalPoints(fef=30, communist=30)
    phase = AssistancePhase(FEF)
    mobilize_unit(pp, FEF, "French mechanized group", Place.area(FESA), phase)
    with pytest.raises(RuleViolation) as e:                     # before any political point is spent
        roll_assistance(ScriptedDice([1]), FEF, phase=phase)
    assert e.value.rule == "IC 7.3"
    fresh = AssistancePhase(FEF)
    roll_assistance(ScriptedDice([2]), FEF, phase=fresh)
    with pytest.raises(RuleViolation) as e:                     # once per phase
        roll_assistance(ScriptedDice([2]), FEF, phase=fresh)
    assert e.value.rule == "IC 7.3"
    with pytest.raises(RuleViolation) as e:                     # the FEF rolls the US table only
        roll_assistance(ScriptedDice([2]), FEF, table=load_assistance(COM))
    assert e.value.rule == "IC 7.3"
    with pytest.raises(RuleViolation):                          # in one's own phase
        roll_assistance(ScriptedDice([2]), COM, phase=AssistancePhase(FEF))


@pytest.mark.rule("IC 7.24", "IC 7.3")
def test_assistance_units_missing_from_the_mix_are_not_received():
    mix, in_play = {"Viet Minh regular infantry regiment": 2}, {"Viet Minh regular infantry regiment": 2}
    res = roll_assistance(ScriptedDice([6]), COM, counter_mix=mix, in_play=in_play)
    assert res.result.units == () and res.result.not_received == ("Viet Minh regular infantry regiment",)
    assert res.result.supply == 4 and "IC 7.24" in res.rules()


# --------------------------------------------------------------------------- 7.1, 7.24, 7.6

@pytest.mark.rule("IC 7.1", "IC 7.22")
def test_three_sources_only_mobilization_costs():
    assert [costs_political_points(s) for s in Source] == [True, False, False]
    with pytest.raises(RuleViolation) as e:
        place_reinforcement(FEF, "French infantry group", Place.area(FESA), source=Source.MOBILIZATION)
    assert e.value.rule == "IC 7.22"
    res = place_reinforcement(FEF, "French infantry group", Place.area(FESA), source=Source.EVENT)
    assert res.result.cost == 0 and res.result.source is Source.EVENT


@pytest.mark.rule("IC 7.24", "IC 7.6")
def test_counter_mix_limit_and_replacements():
    mix = {"French airborne group": 2, "Communist militia": 0}
    in_play = {"French airborne group": 2}
    assert counters_available("French airborne group", mix, in_play) == 0
    assert counters_available("Communist militia", mix, {}) is None          # militia: no limit
    pp = PoliticalPoints(fef=30, communist=30)
    with pytest.raises(RuleViolation) as e:
        mobilize_unit(pp, FEF, "French airborne group", Place.area(FESA), counter_mix=mix, in_play=in_play)
    assert e.value.rule == "IC 7.24" and pp.fef == 30
    in_play = eliminate(in_play, "French airborne group")                    # 7.6: back as a reinforcement
    assert counters_available("French airborne group", mix, in_play) == 1
    mobilize_unit(pp, FEF, "French airborne group", Place.area(FESA), counter_mix=mix, in_play=in_play)
    assert in_play["French airborne group"] == 2 and pp.fef == 27
    with pytest.raises(RuleViolation) as e:
        eliminate({}, "French airborne group")
    assert e.value.rule == "IC 7.6"
    mobilize_unit(pp, COM, "Communist militia", hex_("0101", "Vietnam", "clear", CADRE), counter_mix=mix,
                  in_play={})


# --------------------------------------------------------------------------- 5.31, 7.2x, 7.4x placement

@pytest.mark.rule("IC 5.31", "IC 5.3", "IC 7.21", "IC Mobilization Chart")
def test_rulebook_example_on_the_full_chart():
    pp = PoliticalPoints(fef=40, communist=40)
    phase = AssistancePhase(FEF)
    a = mobilize_unit(pp, FEF, "VNA infantry group", hex_("Saigon", "Vietnam", "city", BASE), phase)
    b = mobilize_unit(pp, FEF, "French mechanized group", Place.area(FESA), phase)
    assert (a.result.cost, b.result.cost, pp.fef) == (1, 3, 36)
    assert phase.spent == 4 and "IC 5.31" in a.rules()


@pytest.mark.rule("IC 5.33", "IC 5.31")
def test_cannot_spend_points_one_does_not_have():
    pp = PoliticalPoints(fef=2, communist=40)
    with pytest.raises(RuleViolation) as e:
        mobilize_unit(pp, FEF, "French mechanized group", Place.area(FESA))
    assert e.value.rule == "IC 5.33" and pp.fef == 2


@pytest.mark.rule("IC 7.4", "IC 7.41")
def test_placement_follows_the_chart_row():
    row = load_full_chart()["Laotian infantry group"]
    check_placement(row, FEF, hex_("Vientiane", "Laos", "city", BASE))
    with pytest.raises(RuleViolation) as e:
        check_placement(row, FEF, hex_("Hue", "Vietnam", "city", BASE))
    assert e.value.rule == "IC 7.41"
    with pytest.raises(RuleViolation) as e:
        check_placement(row, FEF, Place.area(FESA))
    assert e.value.rule == "IC 7.41"
    with pytest.raises(RuleViolation) as e:
        check_placement(row, COM, hex_("Vientiane", "Laos", "city", BASE))
    assert e.value.rule == "IC 7.21"


@pytest.mark.rule("IC 7.42")
def test_staging_area_units():
    row = load_full_chart()["French airborne group"]
    check_placement(row, FEF, Place.area(FESA))
    with pytest.raises(RuleViolation) as e:
        check_placement(row, FEF, hex_("Haiphong", "Vietnam", "city", BASE))
    assert e.value.rule == "IC 7.42"
    pp, phase = PoliticalPoints(fef=40, communist=40), AssistancePhase(FEF)
    for _ in range(3):                                           # 7.23: the FESA takes any number
        mobilize_unit(pp, FEF, "French infantry group", Place.area(FESA), phase)
    assert pp.fef == 34


@pytest.mark.rule("IC 7.43")
def test_air_and_naval_strikes_ready_at_once():
    pp = PoliticalPoints(fef=40, communist=40)
    res = mobilize_unit(pp, FEF, "French airstrike", Place.area(AIR_AVAILABLE))
    assert res.result.ready and res.result.where == AIR_AVAILABLE
    with pytest.raises(RuleViolation) as e:
        mobilize_unit(pp, FEF, "French naval bombardment", Place.area(FESA))
    assert e.value.rule == "IC 7.43"


@pytest.mark.rule("IC 7.44", "IC 7.21")
def test_placing_on_a_unit_needs_it_there_and_combat_effective():
    pp = PoliticalPoints(fef=40, communist=40)
    with pytest.raises(RuleViolation) as e:
        mobilize_unit(pp, COM, "Communist militia", hex_("0101", "Vietnam"))
    assert e.value.rule == "IC 7.44"
    with pytest.raises(RuleViolation) as e:
        mobilize_unit(pp, COM, "Communist militia", hex_("0101", "Vietnam", "clear", Friendly("cadre", False)))
    assert e.value.rule == "IC 7.44"
    with pytest.raises(RuleViolation) as e:                     # 7.21(3): not on a unit mobilized this phase
        mobilize_unit(pp, COM, "Viet Minh guerrilla battalion",
                      hex_("0101", "Vietnam", "clear", Friendly("cadre", True, True)))
    assert e.value.rule == "IC 7.21"
    assert pp.communist == 40


@pytest.mark.rule("IC 7.45")
def test_communists_may_place_in_china_fef_may_not():
    pp = PoliticalPoints(fef=40, communist=40)
    mobilize_unit(pp, COM, "Viet Minh artillery regiment", hex_("Nanning", "China", "city", BASE))
    mobilize_unit(pp, COM, "Viet Minh mechanized regiment", hex_("Longzhou", "China", "town"))
    with pytest.raises(RuleViolation) as e:
        mobilize_unit(pp, COM, "Viet Minh mechanized regiment", hex_("Lang Son", "Vietnam", "town"))
    assert e.value.rule == "IC 7.45"
    with pytest.raises(RuleViolation) as e:
        check_placement(load_full_chart()["French light infantry group"], FEF,
                        hex_("Nanning", "China", "city", BASE))
    assert e.value.rule == "IC 7.45"


@pytest.mark.rule("IC 7.23", "IC 7.71", "IC 7.7")
def test_one_per_hex_and_costly_terrain():
    pp, phase = PoliticalPoints(fef=40, communist=40), AssistancePhase(COM)
    res = mobilize_unit(pp, COM, "Viet Minh guerrilla battalion", hex_("2147", "Vietnam", "swamp", CADRE), phase)
    assert res.result.cost == 2 and "IC 7.71" in res.rules()
    with pytest.raises(RuleViolation) as e:
        mobilize_unit(pp, COM, "Communist militia", hex_("2147", "Vietnam", "swamp", CADRE), phase)
    assert e.value.rule == "IC 7.23"
    fef = mobilize_unit(pp, FEF, "VNA light infantry battalion", hex_("0505", "Vietnam", "jungle", BASE))
    assert fef.result.cost == 1                                  # 7.71 is Communist only


@pytest.mark.rule("IC 7.5")
def test_reinforcements_arrive_with_full_movement():
    pp = PoliticalPoints(fef=40, communist=40)
    res = mobilize_unit(pp, FEF, "VNA airborne group", hex_("Hanoi", "Vietnam", "city", BASE))
    assert res.result.movement_spent == 0 and "IC 7.5" in res.rules()


@pytest.mark.rule("IC 7.72", "IC 5.32")
def test_us_and_chinese_units_only_replace_intervention_losses():
    pp = PoliticalPoints(fef=40, communist=40)
    with pytest.raises(RuleViolation) as e:
        mobilize_unit(pp, FEF, "US infantry division", Place.area(FESA), intervention_losses={})
    assert e.value.rule == "IC 7.72" and pp.fef == 40
    losses = {"Chinese infantry division": 1}
    res = mobilize_unit(pp, COM, "Chinese infantry division", hex_("Kunming", "China", "city"),
                        intervention_losses=losses)
    assert pp.communist == 34 and losses["Chinese infantry division"] == 0 and "IC 5.32" in res.rules()
    with pytest.raises(RuleViolation) as e:
        mobilize_unit(pp, COM, "Chinese infantry division", hex_("Kunming2", "China", "city"),
                      intervention_losses=losses)
    assert e.value.rule == "IC 7.72"


@pytest.mark.rule("IC 7.3", "IC 7.31")
def test_random_play_matches_the_table():
    dice = RandomDice(7)
    for _ in range(30):
        r = roll_assistance(dice, COM).result
        assert r.supply == load_assistance(COM).entries[r.roll].supply


# --------------------------------------------------------------------------- 5.2 scoring

@pytest.mark.rule("IC 5.2", "IC Political Points Table", "IC 5.23")
def test_eliminations_are_netted_per_side():
    pp = PoliticalPoints(fef=50, communist=50)
    res = score_eliminations(pp, [Loss(FEF, "French", "mechanized", "group"),
                                  Loss(COM, "Viet Minh", "regular infantry", "division"),
                                  Loss(COM, "Pathet Lao", "guerrilla", "battalion")])
    # FEF: -2 for its group, +3 +0 for the Communist losses; Communist: +2, -3 -1
    assert (pp.fef, pp.communist) == (51, 48)
    assert res.result == (51, 48)


@pytest.mark.rule("IC 5.2", "IC Political Points Table")
def test_unknown_nationality_is_a_data_error():
    with pytest.raises(DataError):
        score_eliminations(PoliticalPoints(50, 50), [Loss(FEF, "Martian", "mechanized", "group")])


@pytest.mark.rule("IC 5.2", "IC 5.21", "IC Political Points Table")
def test_cities_scored_in_the_political_points_phase():
    pp = PoliticalPoints(fef=50, communist=99)
    score_cities(pp, {FEF: Holdings(5, 12, 1, 0), COM: Holdings(1, 8, 0, 2)})
    # FEF: 1x3 + 5x1 + 12//5 = 10 gained, 2 lost (two towns taken); Communist: 2x1 + 1 + 1 = 4, 2 lost (a city)
    assert (pp.fef, pp.communist) == (58, 100)
    with pytest.raises(RuleViolation) as e:
        score_cities(pp, {FEF: Holdings(1, 0)}, phase="Combat")
    assert e.value.rule == "IC 5.2"
    with pytest.raises(DataError):
        Holdings(1, 0, 2, 0)
