"""Indochina phases played through Game.apply: recovery (14.5), political points (5.2), supply lost with a base
(15.6), airborne supply expiry (15.74, 15.75) and the end of the turn (3.1)."""
import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.indochina import (Advance, Attack, ChooseTable, DeclineAdvance, EndPhase, EndTurn, Recover, ScoreCities,
                                Side)
from wargames.indochina.game import EnhanceDefence
from wargames.indochina.logistics import AirborneSupply
from wargames.indochina.units import Counter

from .test_indochina_defects import game_at, gm, pass_phase, vm

FEF, COM = Side.FEF, Side.COMMUNIST


def base(uid, hex_, side=FEF):
    nat = "French" if side is FEF else "Viet Minh"
    return Counter(uid, side, "base", "group", 1, 0, 1, 0, nationality=nat), hex_


# ---------------------------------------------------------------- 14.5 recovery

@pytest.mark.rule("IC 14.5", "IC 14.51", "IC 15.36")
def test_a_disrupted_unit_recovers_for_one_supply_point_through_a_line_of_supply():
    g = game_at("FEF Recovery", gm("GM", "1517"), base("FB", "1515"))
    g.logistics.points[FEF] = 3
    g.state.unit("GM").disrupted = True
    assert Recover("GM") in list(g.legal_actions)
    res = g.apply(Recover("GM"))
    assert not g.state.unit("GM").disrupted
    assert g.logistics.points[FEF] == 2 and g.position()["supply"]["FEF"] == 2
    assert "IC 15.2" in [s.rule for s in res.steps]


@pytest.mark.rule("IC 14.51")
def test_recovery_in_an_enemy_zoc_costs_two():
    g = game_at("FEF Recovery", gm("GM", "1517"), base("FB", "1515"), vm("803", "1417"))   # 1417 touches 1517
    g.logistics.points[FEF] = 3
    g.state.unit("GM").disrupted = True
    res = g.apply(Recover("GM"))
    assert g.logistics.points[FEF] == 1 and "is in an enemy ZOC" in res.text()


@pytest.mark.rule("IC 14.51", "IC 15.33")
def test_recovery_is_refused_without_supply_and_changes_nothing():
    g = game_at("FEF Recovery", gm("GM", "1517"), base("FB", "1515"))
    g.logistics.points[FEF] = 0
    g.state.unit("GM").disrupted = True
    before = g.position()
    with pytest.raises(RuleViolation):
        g.apply(Recover("GM"))
    assert g.position() == before


@pytest.mark.rule("IC 14.5")
def test_only_the_phasing_player_recovers_and_only_in_his_recovery_phase():
    g = game_at("FEF Recovery", gm("GM", "1517"), base("FB", "1515"), vm("803", "1313"))
    g.logistics.points[COM] = 3
    g.state.unit("803").disrupted = True
    with pytest.raises(RuleViolation) as e:
        g.apply(Recover("803"))
    assert e.value.rule == "IC 14.5"
    g = game_at("FEF Combat", gm("GM", "1517"), base("FB", "1515"))
    g.state.unit("GM").disrupted = True
    with pytest.raises(RuleViolation) as e:
        g.apply(Recover("GM"))
    assert e.value.rule == "IC 14.5"


@pytest.mark.rule("IC 15.74")
def test_airborne_supply_pays_for_a_recovery_in_its_hex():
    g = game_at("FEF Recovery", gm("GM", "1517"))
    g.logistics.airborne.append(AirborneSupply("AS1", FEF, g.state.map.hex("1517"), g.player_turn))
    g.state.unit("GM").disrupted = True
    assert Recover("GM", "AS1") in list(g.legal_actions)
    g.apply(Recover("GM", "AS1"))
    assert not g.state.unit("GM").disrupted and g.logistics.airborne == [] and g.logistics.points[FEF] == 0


# ---------------------------------------------------------------- 15.74-15.75 airborne supply on the map

@pytest.mark.rule("IC 15.74")
def test_airborne_supply_goes_at_the_end_of_the_player_turn_after_its_drop():
    g = game_at("Communist Recovery", gm("GM", "1517"))
    g.logistics.airborne.append(AirborneSupply("AS1", FEF, g.state.map.hex("1517"), g.player_turn))
    g.apply(EndPhase())                              # the end of the drop's own player turn: it stays
    assert [m.id for m in g.logistics.airborne] == ["AS1"]
    while g.phase.id != "FEF Recovery":
        pass_phase(g)
    res = g.apply(EndPhase())                        # the end of the next player turn: it goes
    assert g.logistics.airborne == [] and "IC 15.74" in [s.rule for s in res.steps]


@pytest.mark.rule("IC 15.75")
def test_airborne_supply_goes_when_no_friendly_unit_is_left_in_its_hex():
    g = game_at("FEF Movement", gm("GM", "1517"))
    g.logistics.airborne.append(AirborneSupply("AS1", FEF, g.state.map.hex("1517"), g.player_turn))
    res = g.apply(__import__("wargames.indochina", fromlist=["Move"]).Move("GM", ("1516",)))
    assert g.logistics.airborne == [] and "IC 15.75" in [s.rule for s in res.steps]


# ---------------------------------------------------------------- 5.2(2) eliminations, 15.6 bases

def _destroy_the_stack(g):
    g.apply(Attack(("803",), "1617"))
    if g.prompt.kind == "enhance":
        g.apply(EnhanceDefence("FEF", False))
    return g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([6]))     # 12 vs 2 at 6/1: a six is DE


@pytest.mark.rule("IC 5.2", "IC 5.23", "IC Political Points Table")
def test_eliminated_units_score_on_the_political_points_table():
    g = game_at("Communist Combat", vm("803", "1616", s=12), gm("GM", "1617", s=1), base("FB", "1617"))
    res = _destroy_the_stack(g)
    # a French group and a French base: each -2 for the FEF and +2 for the Communist player (reconstructed table)
    assert (g.points.fef, g.points.communist) == (46, 54)
    assert [s.rule for s in res.steps].count("IC 5.2") == 4        # two units and one net change per side
    g.apply(DeclineAdvance("Communist"), ScriptedDice([1]))
    assert (g.points.fef, g.points.communist) == (46, 54)          # each loss is scored once


@pytest.mark.rule("IC 15.6")
def test_a_base_lost_in_land_combat_costs_its_owner_a_die_of_supply_and_the_advancing_enemy_takes_half():
    g = game_at("Communist Combat", vm("803", "1616", s=12), gm("GM", "1617", s=1), base("FB", "1617"))
    g.logistics.points[FEF], g.logistics.points[COM] = 5, 3
    _destroy_the_stack(g)
    assert g.logistics.points[FEF] == 5                             # rolled when the combat is over
    g.apply(Advance("Communist", ("803",), ("1617",)), ScriptedDice([3]))
    assert g.logistics.points[FEF] == 2 and g.logistics.points[COM] == 5    # half of 3, rounded up


@pytest.mark.rule("IC 15.6")
def test_no_capture_without_an_advance_and_the_index_stops_at_zero():
    g = game_at("Communist Combat", vm("803", "1616", s=12), gm("GM", "1617", s=1), base("FB", "1617"))
    g.logistics.points[FEF], g.logistics.points[COM] = 2, 3
    _destroy_the_stack(g)
    res = g.apply(DeclineAdvance("Communist"), ScriptedDice([5]))
    assert g.logistics.points[FEF] == 0 and g.logistics.points[COM] == 3
    assert "only 2 left" in res.text()


# ---------------------------------------------------------------- 5.2(3) cities and towns

@pytest.mark.rule("IC 5.2", "IC 3.1")
def test_the_political_points_phase_scores_cities_and_towns_held():
    g = game_at("Political Points", gm("GM", "1517"))
    with pytest.raises(RuleViolation) as e:
        g.apply(EndPhase())
    assert e.value.rule == "IC 5.2"
    assert list(g.legal_actions) == [ScoreCities()]
    g.apply(ScoreCities())
    # the FEF holds Qui Nhon (a city, 1 point) and Pleiku (a town: one point per five, none); the Chinese town
    # in China is not scored
    assert (g.points.fef, g.points.communist) == (51, 50)
    assert g.phase.kind == "end"


@pytest.mark.rule("IC 5.2", "IC 17.1")
def test_a_city_captured_since_the_last_phase_scores_for_the_taker_and_costs_the_loser():
    g = game_at("Political Points", vm("803", "1619"))
    g.state.communist_cities.add("1619")
    g.apply(ScoreCities())
    # Communist: captured Qui Nhon 3 + holds it 1 = +4; FEF loses 2 for it and holds Pleiku only (0)
    assert (g.points.fef, g.points.communist) == (48, 54)
    g.phase_index = [p.kind for p in __import__("wargames.indochina", fromlist=["SEQUENCE"]).SEQUENCE].index("political")
    g.apply(ScoreCities())                            # held, no longer captured: +1 only
    assert (g.points.fef, g.points.communist) == (48, 55)


# ---------------------------------------------------------------- 3.1 end of turn

@pytest.mark.rule("IC 3.1", "IC 2.37")
def test_end_turn_closes_the_turn():
    g = game_at("End of Turn", gm("GM", "1517"))
    with pytest.raises(RuleViolation) as e:
        g.apply(EndPhase())
    assert e.value.rule == "IC 3.1"
    assert list(g.legal_actions) == [EndTurn()]
    with pytest.raises(RuleViolation):
        game_at("FEF Movement", gm("GM", "1517")).apply(EndTurn())
    g.apply(EndTurn())
    assert (g.phase.kind, g.month, g.turns_left) == ("events", 11, 5)


# ---------------------------------------------------------------- 6.0 events applied

from wargames.indochina import Game, RollEvent  # noqa: E402
from wargames.indochina.events import load_events  # noqa: E402
from wargames.indochina.game import AnswerCeasefire, ExamineStack, PlaceMilitia, ProposeCeasefire  # noqa: E402


def rolled(tens, ones, **kw):
    g = Game.new(seed=1, **kw)
    res = g.apply(RollEvent(), ScriptedDice([tens, ones]))
    return g, res


@pytest.mark.rule("IC 6.0", "IC 5.2")
def test_event_11_costs_the_fef_three_points():
    g, res = rolled(1, 1)
    assert (g.points.fef, g.points.communist) == (47, 50)
    assert "47" in res.text()


@pytest.mark.rule("IC 6.0", "IC 15.1")
def test_supply_events_add_and_take_supply_points_never_below_zero():
    g, _ = rolled(2, 2)
    assert g.logistics.points[FEF] == 6                           # 4 + 2
    g, res = rolled(4, 3)
    assert g.logistics.points[COM] == 1                           # 3 - 2
    g = Game.new(seed=1)
    g.logistics.points[COM] = 1
    g.apply(RollEvent(), ScriptedDice([4, 3]))
    assert g.logistics.points[COM] == 0


@pytest.mark.rule("IC 6.0", "IC 12.0")
def test_a_typhoon_grounds_the_air_units_for_the_turn():
    g, _ = rolled(2, 4)
    while g.phase.kind != "air":
        pass_phase(g)
    assert list(g.legal_actions) == [EndPhase()]
    while g.phase.kind != "events":
        pass_phase(g)
    assert g.event["this_turn"] == []                              # the next turn is clear of it


@pytest.mark.rule("IC 6.0", "IC 13.0")
def test_a_truce_forbids_declaring_combat_this_turn():
    g, _ = rolled(6, 4)
    while g.phase.kind != "combat":
        pass_phase(g)
    assert not any(isinstance(a, Attack) for a in g.legal_actions)
    with pytest.raises(RuleViolation) as e:
        g.apply(Attack(("803 VM",), "1515"))
    assert e.value.rule == "IC 6.0"


@pytest.mark.rule("IC 6.0", "IC 26.0")
def test_weather_events_change_this_turns_weather():
    g, _ = rolled(2, 5)
    assert g.state.monsoon != (g.weather() == "Monsoon")
    g, _ = rolled(5, 5)
    assert g.state.monsoon


@pytest.mark.rule("IC 21.2", "IC 6.0")
def test_an_intelligence_event_lets_the_fef_examine_one_stack_for_the_turn():
    g, _ = rolled(1, 6)
    looks = [a for a in g.legal_actions if isinstance(a, ExamineStack)]
    assert looks and all(a.side == "FEF" for a in looks)
    closed = g.view("FEF")["position"]["stacks"]["1415"]
    with pytest.raises(RuleViolation):
        g.apply(ExamineStack("Communist", "1515"))
    g.apply(ExamineStack("FEF", "1415"))
    opened = g.view("FEF")["position"]["stacks"]["1415"]
    assert opened != closed and "803 VM" in str(opened)
    with pytest.raises(RuleViolation):                            # one stack only
        g.apply(ExamineStack("FEF", "1313"))


@pytest.mark.rule("IC 17.31", "IC 6.0")
def test_a_guerrilla_offensive_places_one_free_militia_on_a_cadre():
    g, _ = rolled(4, 5)
    assert PlaceMilitia("1214") in list(g.legal_actions)
    with pytest.raises(RuleViolation) as e:
        g.apply(PlaceMilitia("1415"))                             # no cadre there
    assert e.value.rule == "IC 17.31"
    g.apply(PlaceMilitia("1214"))
    assert any(u.counter.type == "militia" for u in g.state.units_at(g.state.map.hex("1214"), COM))
    assert g.points.communist == 50 and not any(isinstance(a, PlaceMilitia) for a in g.legal_actions)


@pytest.mark.rule("IC 24.2", "IC 24.1")
def test_geneva_talks_allow_a_ceasefire_both_players_must_accept(tmp_path):
    g, _ = rolled(5, 1)
    assert ProposeCeasefire("FEF") in list(g.legal_actions)
    g.apply(ProposeCeasefire("FEF"))
    assert (g.prompt.side, g.prompt.rule, g.prompt.kind) == ("Communist", "IC 24.2", "ceasefire")
    with pytest.raises(RuleViolation):
        g.apply(AnswerCeasefire("FEF", True))
    g.apply(AnswerCeasefire("Communist", False))
    assert g.outcome() is None
    with pytest.raises(RuleViolation):
        g.apply(ProposeCeasefire("FEF"))                          # once a turn each
    g.apply(ProposeCeasefire("Communist"))
    g.apply(AnswerCeasefire("FEF", True))
    out = g.outcome()
    assert out is not None and out.rule == "IC 24.2"
    g.write(tmp_path / "ceasefire.json")
    again = Game.read(tmp_path / "ceasefire.json")
    assert again.outcome() == out and again.position() == g.position()


@pytest.mark.rule("IC 24.2")
def test_no_ceasefire_without_geneva_talks():
    g, _ = rolled(3, 5)
    assert not any(isinstance(a, ProposeCeasefire) for a in g.legal_actions)
    with pytest.raises(RuleViolation) as e:
        g.apply(ProposeCeasefire("FEF"))
    assert e.value.rule == "IC 24.2"


@pytest.mark.rule("IC 6.0", "IC 5.2")
def test_a_press_visit_rewards_the_side_with_more_cities_and_a_tie_rewards_nobody():
    g, _ = rolled(3, 4)
    assert (g.points.fef, g.points.communist) == (51, 50)        # the FEF holds Qui Nhon, the only city
    g, res = rolled(6, 3)
    assert (g.points.fef, g.points.communist) == (50, 50) and "nobody gains" in res.text()
    g = Game.new(seed=1)
    g.points.communist = 40
    g.apply(RollEvent(), ScriptedDice([6, 3]))
    assert (g.points.fef, g.points.communist) == (50, 41)


@pytest.mark.rule("IC Random Events Table")
def test_every_event_but_a_quiet_month_does_something():
    for n, e in load_events().items():
        fx = e.effects
        active = any(fx[k] for k in ("political", "supply", "this_turn", "more_cities_gains", "lower_index_gains",
                                     "examine", "free_militia", "mobilization"))
        assert active == (e.name != "Quiet month"), n


# ---------------------------------------------------------------- 7 mobilization, 23 the staging area

from wargames.indochina import DeclareIntervention, Mobilize, PlaceReinforcement, RollAssistance  # noqa: E402
from wargames.indochina.game import AmphibiousInvasion, NavalTransport  # noqa: E402
from wargames.indochina.assistance import AssistancePhase  # noqa: E402


def mobilizing(side, *placed, roll=1):
    g = game_at(f"{side.value} Mobilization", *placed)
    g.mobilization = AssistancePhase(side)
    g.apply(RollAssistance(), ScriptedDice([roll]))
    return g


@pytest.mark.rule("IC 7.3", "IC 7.31")
def test_military_assistance_opens_the_phase_and_is_free():
    g = game_at("FEF Mobilization", base("FB", "1515"))
    g.mobilization = AssistancePhase(FEF)
    assert list(g.legal_actions) == [RollAssistance(), DeclareIntervention("French Emergency Reinforcements")]
    for early in (EndPhase(), Mobilize("VNA infantry group", "1515")):
        with pytest.raises(RuleViolation) as e:
            g.apply(early)
        assert e.value.rule == "IC 7.3"
    g.apply(RollAssistance(), ScriptedDice([3]))                    # US table, 3: two supply points
    assert g.logistics.points[FEF] == 0 + 2 and g.points.fef == 50
    with pytest.raises(RuleViolation):
        g.apply(RollAssistance(), ScriptedDice([3]))                # once a phase


@pytest.mark.rule("IC 7.22", "IC 7.21", "IC 7.42", "IC Mobilization Chart")
def test_the_mobilization_example_of_7_22():
    # The FEF buys a VNA infantry group for 1 point, placed on a French base in Vietnam, then a French
    # mechanized group for 3, placed in the Far Eastern Staging Area.
    g = mobilizing(FEF, base("FB", "1515"))
    g.apply(Mobilize("VNA infantry group", "1515"))
    assert g.points.fef == 49
    new = [u for u in g.state.units_at(g.state.map.hex("1515"), FEF) if u.counter.nationality == "Vietnamese National Army"]
    assert len(new) == 1 and new[0].counter.type == "regular infantry" and new[0].counter.size == "group"
    g.apply(Mobilize("French mechanized group", "Far Eastern Staging Area"))
    assert g.points.fef == 46
    (mech,) = g.staging.units
    assert g.state.unit(mech).counter.type == "mechanized" and not g.state.unit(mech).on_map
    assert g.position()["staging"]["units"] == [mech]


@pytest.mark.rule("IC 7.23", "IC 7.44", "IC 7.71")
def test_mobilization_limits():
    g = mobilizing(FEF, base("FB", "1515"))
    g.apply(Mobilize("VNA infantry group", "1515"))
    with pytest.raises(RuleViolation) as e:
        g.apply(Mobilize("VNA infantry group", "1515"))             # one new unit per hex a phase
    assert e.value.rule == "IC 7.23"
    g.apply(Mobilize("French infantry group", "Far Eastern Staging Area"))
    g.apply(Mobilize("French infantry group", "Far Eastern Staging Area"))    # the staging area has no limit
    with pytest.raises(RuleViolation):
        g.apply(Mobilize("VNA infantry group", "1517"))             # no base there (7.44)
    cadre = Counter("C", COM, "cadre", "cadre", 1, 4, 0, 2, nationality="Viet Minh")
    g = mobilizing(COM, (cadre, "1214"), (Counter("C2", COM, "cadre", "cadre", 1, 4, 0, 2, nationality="Viet Minh"),
                                          "1515"))
    g.apply(Mobilize("Viet Minh guerrilla battalion", "1214"))      # jungle: 1 + 1 (7.71)
    assert g.points.communist == 48
    g.apply(Mobilize("Viet Minh guerrilla battalion", "1515"))      # clear: 1
    assert g.points.communist == 47


@pytest.mark.rule("IC 7.31", "IC 7.44")
def test_assistance_units_are_placed_free_or_lost_at_the_end_of_the_phase():
    g = mobilizing(COM, base("VB", "1214", COM), roll=6)            # Chinese table, 6: a regular regiment
    assert g.mobilization.pending == ["Viet Minh regular infantry regiment"]
    g.apply(PlaceReinforcement("Viet Minh regular infantry regiment", "1214"))
    assert g.points.communist == 50 and g.mobilization.pending == []
    assert any(u.counter.type == "regular infantry" for u in g.state.units_at(g.state.map.hex("1214"), COM))
    g = mobilizing(COM, vm("803", "1415"), roll=6)                   # no base to put it on
    res = g.apply(EndPhase())
    assert "IC 7.44" in [s.rule for s in res.steps] and g.mobilization is None


@pytest.mark.rule("IC 6.0", "IC 7.22")
def test_a_discount_event_lowers_one_price_once():
    g = mobilizing(FEF, base("FB", "1515"))
    g.event["mobilization"]["FEF"] = "staging area discount"
    g.apply(Mobilize("French mechanized group", "Far Eastern Staging Area"))
    g.apply(Mobilize("French mechanized group", "Far Eastern Staging Area"))
    assert g.points.fef == 50 - 2 - 3
    g = mobilizing(FEF, base("FB", "1515"))
    g.event["mobilization"]["FEF"] = "no staging area"
    assert not any(isinstance(a, Mobilize) and a.where == "Far Eastern Staging Area" for a in g.legal_actions)


def edit_hex(g, label, features=(), attrs=()):
    """Give a hex of this game's own map more features and attributes (a test's map edit)."""
    from wargames.core.mapdata import HexInfo
    h = g.state.map.hex(label)
    old = g.state.map.hexes[h]
    g.state.map.hexes[h] = HexInfo(old.terrain, old.features | set(features), tuple(old.attrs) + tuple(attrs),
                                   old.provenance)


def _port(g, label, name="Qui Nhon"):
    edit_hex(g, label, {"coast"}, (("port", name),))


@pytest.mark.rule("IC 23.11", "IC 23.122", "IC 23.12")
def test_units_leave_the_staging_area_by_sea_in_the_fef_movement_phase():
    g = mobilizing(FEF, base("FB", "1619"))
    g.apply(Mobilize("French mechanized group", "Far Eastern Staging Area"))
    g.apply(Mobilize("French infantry group", "Far Eastern Staging Area"))
    mech, inf = sorted(g.staging.units)
    _port(g, "1619")
    _port(g, "1620", "beach")
    g.phase_index = __import__("wargames.indochina", fromlist=["SEQUENCE"]).SEQUENCE.index_of("FEF Movement")
    assert NavalTransport(mech, "1619") in list(g.legal_actions)
    g.apply(NavalTransport(mech, "1619"))
    assert g.state.label(g.state.unit(mech).hex) == "1619"
    with pytest.raises(RuleViolation) as e:
        g.apply(__import__("wargames.indochina", fromlist=["Move"]).Move(mech, ("1618",)))
    assert e.value.rule in ("IC 23.122", "IC 9.1")
    g.apply(AmphibiousInvasion(inf, "1620"))
    assert g.state.label(g.state.unit(inf).hex) == "1620" and not g.staging.units


# ---------------------------------------------------------------- 8 reorganization, 16 fortifications

from wargames.indochina.game import BreakDown, Fortify, Reform  # noqa: E402


def fr(uid, hex_, kind, size="group", s=5, m=6):
    return Counter(uid, FEF, kind, size, s, m, 2, 3, nationality="French"), hex_


@pytest.mark.rule("IC 8.11", "IC 8.21", "IC 8.13")
def test_a_french_infantry_division_breaks_down_free_into_its_8_21_parts():
    g = game_at("FEF Reorganization", fr("DIC", "1517", "regular infantry", "division", s=16))
    assert BreakDown("DIC") in list(g.legal_actions)
    g.apply(BreakDown("DIC"))
    parts = sorted(u.counter.type for u in g.state.units_at(g.state.map.hex("1517"), FEF))
    assert parts == ["mechanized", "regular infantry", "regular infantry"] and g.points.fef == 50
    assert "DIC" not in g.state.units
    with pytest.raises(RuleViolation) as e:
        game_at("FEF Movement", fr("DIC", "1517", "regular infantry", "division", s=16)).apply(BreakDown("DIC"))
    assert e.value.rule == "IC 8.11"


@pytest.mark.rule("IC 8.12", "IC 8.13", "IC 8.3", "IC 8.4")
def test_three_mechanized_groups_reform_a_division_for_one_point():
    g = game_at("FEF Reorganization", fr("m1", "1517", "mechanized"), fr("m2", "1517", "mechanized"),
                fr("m3", "1517", "mechanized"))
    g.state.unit("m2").disrupted = True
    assert Reform(("m1", "m2", "m3"), "mechanized") in list(g.legal_actions)
    g.apply(Reform(("m1", "m2", "m3"), "mechanized"))
    (div,) = g.state.units_at(g.state.map.hex("1517"), FEF)
    assert div.counter.size == "division" and div.disrupted and g.points.fef == 49      # 8.3: a disrupted part
    g = game_at("FEF Reorganization", fr("m1", "1517", "mechanized"), fr("m2", "1517", "mechanized"),
                (Counter("v3", FEF, "mechanized", "group", 4, 8, 2, 4, nationality="Vietnamese National Army"), "1517"))
    with pytest.raises(RuleViolation) as e:
        g.apply(Reform(("m1", "m2", "v3"), "mechanized"))
    assert e.value.rule == "IC 8.4"


@pytest.mark.rule("IC 15.31", "IC 16.1", "IC 16.2", "IC 16.4", "IC 13.21", "IC 16.3")
def test_a_fortification_is_built_for_a_supply_point_counts_in_combat_and_goes_when_its_units_leave():
    g = game_at("FEF Reorganization", gm("GM", "1517"), base("FB", "1515"), supply=(4, 0))
    assert Fortify("1517") in list(g.legal_actions)
    g.apply(Fortify("1517"))
    assert g.state.map.hex("1517") in g.logistics.fortifications and g.logistics.points[FEF] == 3
    with pytest.raises(RuleViolation):
        g.apply(Fortify("1517"))                                   # one a hex
    # it helps the FEF defenders: the DD of a fortified FEF defence waits for the FEF's option (16.3)
    g.phase_index = __import__("wargames.indochina", fromlist=["SEQUENCE"]).SEQUENCE.index_of("Communist Combat")
    g.state.units["803"] = __import__("wargames.indochina.units", fromlist=["UnitState"]).UnitState(
        vm("803", "1616", s=20)[0], g.state.map.hex("1616"))
    g.apply(Attack(("803",), "1517"))
    assert g.combat["combat"].fortified
    g = game_at("FEF Movement", gm("GM", "1517"))
    g.logistics.fortifications.add(g.state.map.hex("1517"))
    res = g.apply(__import__("wargames.indochina", fromlist=["Move"]).Move("GM", ("1516",)))
    assert not g.logistics.fortifications and "IC 16.4" in [s.rule for s in res.steps]


@pytest.mark.rule("IC 7.24", "IC Mobilization Chart")
def test_every_mobilization_chart_row_is_a_counter_of_the_mix():
    from wargames.indochina.assistance import AIR_NAVAL_TYPES, load_full_chart
    from wargames.indochina.counters import make_counter
    for name, row in load_full_chart().items():
        if row.type not in AIR_NAVAL_TYPES:
            c = make_counter(row.side, row.nationality, row.type, row.size, name)
            assert c.side is row.side, name


@pytest.mark.rule("IC 7.24")
def test_no_unit_comes_in_when_the_counter_mix_has_none_left():
    g = mobilizing(FEF, base("FB", "1515"))
    from wargames.indochina.counters import counter_mix
    limit = counter_mix().limit(FEF, "French", "marine infantry", "group")
    for _ in range(limit):
        g.apply(Mobilize("French marine infantry brigade", "Far Eastern Staging Area"))
    with pytest.raises(RuleViolation) as e:
        g.apply(Mobilize("French marine infantry brigade", "Far Eastern Staging Area"))
    assert e.value.rule == "IC 7.24"


# ---------------------------------------------------------------- 15.34-15.35 enhancements, 25 Death Commandos

@pytest.mark.rule("IC 15.34", "IC 15.35", "IC 13.23", "IC 13.1")
def test_attack_and_defense_enhancement_each_cost_a_supply_point_and_double_strength():
    g = game_at("Communist Combat", vm("803", "1616", s=4), gm("GM", "1617", s=2), base("VB", "1615", COM),
                base("FB", "1518"), supply=(2, 2))
    edit_hex(g, "1414", {"city"})                             # made a Communist-held city: their source (15.24)
    h = g.state.map.hex("1414")
    g.state.communist_cities.add("1414")
    g.state.units["cs"] = __import__("wargames.indochina.units", fromlist=["UnitState"]).UnitState(
        vm("cs", "1414")[0], h)
    attack = Attack(("803",), "1617", enhanced=True)
    assert attack in list(g.legal_actions)
    res = g.apply(attack)
    assert g.logistics.points[COM] == 1 and "IC 15.34" in [s.rule for s in res.steps]
    assert (g.prompt.side, g.prompt.rule, g.prompt.kind) == ("FEF", "IC 15.35", "enhance")
    g.apply(EnhanceDefence("FEF", True))
    assert g.logistics.points[FEF] == 1
    res = g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))
    assert "4 x 2 = 8" in res.text() and "2 x 2 = 4" in res.text()


@pytest.mark.rule("IC 15.35")
def test_no_defense_enhancement_prompt_without_supply():
    g = game_at("Communist Combat", vm("803", "1616", s=4), gm("GM", "1617", s=2))
    g.apply(Attack(("803",), "1617"))
    assert g.prompt.kind == "table"
    with pytest.raises(RuleViolation):
        g.apply(Attack(("803",), "1617", enhanced=True))


@pytest.mark.rule("IC 25.1", "IC 25.2", "IC 25.0")
def test_a_death_commando_assault_shifts_one_column_against_french_in_a_city_and_the_commando_dies():
    dc = (Counter("DC", COM, "death commando", "battalion", 1, 6, 0, 0, nationality="Viet Minh"), "1618")
    fef = (Counter("GM", FEF, "regular infantry", "group", 2, 6, 1, 3, nationality="French"), "1619")
    g = game_at("Communist Combat", vm("803", "1618", s=8), dc, fef)
    a = Attack(("803", "DC"), "1619", death_commando="DC")
    assert a in list(g.legal_actions)
    g.apply(a)
    res = g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([3]))
    assert "IC 25.1" in [s.rule for s in res.steps] and g.state.unit("DC").eliminated
    g = game_at("Communist Combat", vm("803", "1616", s=8), (dc[0], "1616"), gm("GM", "1617", s=2))
    with pytest.raises(RuleViolation) as e:                   # open ground, no fortification: no assault
        g.apply(Attack(("803", "DC"), "1617", death_commando="DC"))
    assert e.value.rule == "IC 25.1"
    g = game_at("Communist Combat", vm("803", "1618", s=8), dc, fef,
                ruleset=__import__("wargames.indochina", fromlist=["Ruleset"]).Ruleset.default(death_commandos=False))
    with pytest.raises(RuleViolation) as e:
        g.apply(a)
    assert e.value.rule == "IC 25.0"


# ---------------------------------------------------------------- 9.4 forced march; defect 10: DNA on the water

from wargames.indochina.game import ForcedMarch  # noqa: E402


def _water(g, *labels, feature="river"):
    for label in labels:
        edit_hex(g, label, {feature})


@pytest.mark.rule("IC 9.4", "IC 15.32")
def test_forced_march_doubles_the_movement_of_a_hexs_units_for_a_supply_point():
    slow = Counter("S", FEF, "regular infantry", "group", 4, 1, 2, 1, nationality="French")
    g = game_at("FEF Movement", (slow, "1517"), base("FB", "1515"), supply=(1, 0))
    far = ("1617", "1717")                                        # two clear hexes off the road: 2 MP
    with pytest.raises(RuleViolation) as e:
        g.apply(__import__("wargames.indochina", fromlist=["Move"]).Move("S", far))
    assert e.value.rule == "IC 9.0"
    assert ForcedMarch("1517") in list(g.legal_actions)
    g.apply(ForcedMarch("1517"))
    assert g.logistics.points[FEF] == 0
    res = g.apply(__import__("wargames.indochina", fromlist=["Move"]).Move("S", far))
    assert "IC 9.4" in [s.rule for s in res.steps] or "forced" in res.text()
    with pytest.raises(RuleViolation):                            # no second point, and S has moved
        g.apply(ForcedMarch("1717"))


@pytest.mark.rule("IC 18.1", "IC 18.3")
def test_defect10_a_dna_moves_and_retreats_only_on_water_in_play():
    from wargames.indochina import Move, Retreat
    dna = Counter("DNA 1", FEF, "DNA", "group", 2, 6, 1, 3, nationality="French")
    g = game_at("FEF Movement", (dna, "1517"))
    _water(g, "1517", "1518", "1519")
    moves = {a.path for a in g.legal_actions if isinstance(a, Move) and a.unit == "DNA 1"}
    assert moves == {("1518",)}                                    # 1516 and the rest are dry land
    with pytest.raises(RuleViolation) as e:
        g.apply(Move("DNA 1", ("1516",)))
    assert e.value.rule == "IC 18.1"
    g.apply(Move("DNA 1", ("1518", "1519")))
    assert g.state.label(g.state.unit("DNA 1").hex) == "1519"
    # a DR result: the DNA may retreat only along the water; with none it is eliminated
    g = game_at("Communist Combat", vm("803", "1616", s=12), (dna, "1517"))
    _water(g, "1517", "1518")
    g.apply(Attack(("803",), "1517"))
    g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([1]))     # 12 vs 2 at 6/1, a 1: DR
    assert g.prompt.kind == "retreat"
    assert {a.hex for a in g.legal_actions if isinstance(a, Retreat)} == {"1518"}
    g = game_at("Communist Combat", vm("803", "1616", s=12), (dna, "1517"))
    _water(g, "1517")                                                      # no water next to it
    g.apply(Attack(("803",), "1517"))
    res = g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([1]))
    assert g.state.unit("DNA 1").eliminated and "IC 13.62" in [s.rule for s in res.steps]


@pytest.mark.rule("IC 22.1")
def test_national_army_counters_of_the_mix_never_cross_a_border_in_play():
    from wargames.indochina import Move
    from wargames.indochina.counters import make_counter
    vna = make_counter(FEF, "Vietnamese National Army", "regular infantry", "group", "VNA 1")
    g = game_at("FEF Movement", (vna, "1012"))                   # 1011 is China, 1012 Vietnam
    with pytest.raises(RuleViolation) as e:
        g.apply(Move("VNA 1", ("1011",)))
    assert e.value.rule == "IC 22.1" and "22.1(2)" in e.value.reason


@pytest.mark.rule("IC 27.32", "IC 15.34")
def test_an_overrunning_force_may_pay_a_supply_point_to_double_itself():
    from wargames.indochina import Overrun, Ruleset
    units = (gm("GM", "1616", s=4), vm("803", "1617", s=4), base("FB", "1515"))
    g = game_at("FEF Movement", *units, supply=(1, 0), ruleset=Ruleset.default(ambushes=False))
    assert Overrun(("GM",), "1617", enhanced=True) in g.legal_actions
    g.apply(Overrun(("GM",), "1617", enhanced=True))
    assert g.logistics.points[FEF] == 0
    res = g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([1]))
    assert res.result["raw"] == "2/1"                                # 4 doubled against 4
    plain = game_at("FEF Movement", *units, supply=(0, 0), ruleset=Ruleset.default(ambushes=False))
    assert Overrun(("GM",), "1617", enhanced=True) not in plain.legal_actions
    with pytest.raises(RuleViolation) as e:
        plain.apply(Overrun(("GM",), "1617", enhanced=True))
    assert e.value.rule == "IC 15.34"
    plain.apply(Overrun(("GM",), "1617"))
    assert plain.apply(ChooseTable(plain.prompt.side, "Mobile"), ScriptedDice([1])).result["raw"] == "1/1"
