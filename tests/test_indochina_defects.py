"""Indochina rule defects found by playing through Game.apply (the numbered defects of the Indochina issue)."""
import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.indochina import (SEQUENCE, Attack, ChooseTable, EndPhase, EndTurn, Game, Move, RollAssistance, RollEvent,
                                Ruleset, ScoreCities, Side)
from wargames.indochina import game as game_module
from wargames.indochina.scenarios import setup_scenario
from wargames.indochina.state import IndochinaState, demo_map
from wargames.indochina.units import Counter

FEF, COM = Side.FEF, Side.COMMUNIST


def close_phase(g):
    """The action that closes the current phase: scoring closes Political Points, EndTurn the End of Turn;
    a Mobilization Phase first rolls for military assistance (7.3)."""
    if g.phase.kind == "mobilization" and g.mobilization is not None and not g.mobilization.assistance_rolled:
        g.apply(RollAssistance(), ScriptedDice([1]))         # a 1: supply only, on both tables
    return {"political": ScoreCities(), "end": EndTurn()}.get(g.phase.kind, EndPhase())


def pass_phase(g):
    """Close the current phase."""
    return g.apply(close_phase(g))


def game_at(phase_id, *placed, ruleset=None, supply=(0, 0)):
    """A game in ``phase_id`` with only these units on the demonstration map, and ``supply`` points (FEF,
    Communist): none by default, so no combat stops to ask about Defense Enhancement (15.35)."""
    g = Game.new(ruleset=ruleset, seed=1)
    g.logistics.points[FEF], g.logistics.points[COM] = supply
    st = IndochinaState.build(demo_map(), placed)
    st.charts = g.state.charts
    st.monsoon = g.state.monsoon
    g.state, g.phase_index, g.event_rolled = st, SEQUENCE.index_of(phase_id), True
    return g


def vm(uid, hex_, s=4, kind="regular infantry", size="regiment"):
    return Counter(uid, COM, kind, size, s, 6, 2, 4, nationality="Viet Minh"), hex_


def gm(uid, hex_, s=4, kind="regular infantry", cls=""):
    return Counter(uid, FEF, kind, "group", s, 6, 2, 3, cls=cls), hex_


# ---------------------------------------------------------------- 14: event 12's provenance

@pytest.mark.rule("IC 6.1", "IC Random Events Table")
def test_defect14_event_12_effect_is_reconstructed_in_play():
    g = Game.new(seed=1)
    res = g.apply(RollEvent(), ScriptedDice([1, 2]))
    event = res.result
    assert (event.number, event.name) == (12, "Dau Tranh")
    assert event.provenance.kind == "reconstructed"         # only the name is in the text (6.1's example)
    assert "6.1" in event.provenance.source
    assert "(reconstructed entry)" in res.text()


# ---------------------------------------------------------------- 12: no ZOC without combat strength

@pytest.mark.rule("IC 11.1", "IC 2.35", "IC 11.42")
def test_defect12_a_strength_0_unit_projects_no_zoc():
    zero = Counter("Z", FEF, "regular infantry", "group", 0, 6, 0, 3)
    g = game_at("Communist Movement", vm("803", "1615"), (zero, "1616"),
                ruleset=Ruleset.default(ambushes=False, overruns=False))
    res = g.apply(Move("803", ("1716",)))                     # 1615 and 1716 both touch 1616
    assert not any(s.rule == "IC 11.42" for s in res.steps) and "11.42" not in res.text()
    one = Counter("Y", FEF, "regular infantry", "group", 1, 6, 0, 3)
    g = game_at("Communist Movement", vm("803", "1615"), (one, "1616"),
                ruleset=Ruleset.default(ambushes=False, overruns=False))
    res = g.apply(Move("803", ("1716",)))
    assert "11.42" in res.text()                              # a strength-1 unit does


# ---------------------------------------------------------------- 11: Death Commandos and overstacking

@pytest.mark.rule("IC 25.3", "IC 10.21")
def test_defect11_overstacking_eliminates_a_death_commando():
    dc = Counter("DC", COM, "death commando", "regiment", 2, 6, 1, 4)
    g = game_at("Communist Movement", vm("a", "1616"), vm("b", "1616"), vm("c", "1616"), vm("d", "1616"), (dc, "1616"),
                gm("GM", "1313"))
    res = g.apply(EndPhase())
    assert g.state.unit("DC").eliminated and not g.state.unit("DC").on_map
    assert all(g.state.unit(u).disrupted for u in ("a", "b", "c", "d"))
    assert "IC 25.3" in [s.rule for s in res.steps]
    assert not g.invariants()


# ---------------------------------------------------------------- 13: weather

def _monsoon_setup(month):
    def setup(name):
        st, points, cal = setup_scenario(name)
        return st, points, {**cal, "month": month}
    return setup


@pytest.mark.rule("IC 26.1", "IC 26.3")
def test_defect13_the_starting_months_weather_applies(monkeypatch):
    monkeypatch.setattr(game_module, "setup_scenario", _monsoon_setup(7))
    g = Game.new(seed=1)
    assert g.month == 7 and g.state.monsoon and g.position()["monsoon"]
    g.apply(RollEvent(), ScriptedDice([3, 5]))
    while g.phase.kind != "movement":
        pass_phase(g)
    res = g.apply(Move("803 VM", ("1414",)))
    assert "monsoon +1" in res.text()


@pytest.mark.rule("IC 26.0", "IC 26.3")
def test_defect13_weather_is_an_optional_rule_that_can_be_switched_off(monkeypatch):
    monkeypatch.setattr(game_module, "setup_scenario", _monsoon_setup(7))
    off = Game.new(ruleset=Ruleset.default(weather=False), seed=1)
    assert not off.state.monsoon
    g = game_at("Communist Combat", vm("803", "1616", s=8), gm("GM", "1617", s=2),
                ruleset=Ruleset.default(weather=False))
    g.apply(Attack(("803",), "1617"))
    res = g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([3]))
    assert "IC 26.3" not in [s.rule for s in res.steps]
    monkeypatch.setattr(game_module, "setup_scenario", _monsoon_setup(4))
    off = Game.new(ruleset=Ruleset.default(weather=False), seed=1)
    for _ in range(2 * len(SEQUENCE)):                       # a May turn stays clear with weather off
        if off.prompt.kind != "play":
            break
        if off.phase.kind == "events" and not off.event_rolled:
            off.apply(RollEvent(), ScriptedDice([3, 5]))
        else:
            pass_phase(off)
        assert not off.state.monsoon


# ---------------------------------------------------------------- 7: who chooses the CRT

@pytest.mark.rule("IC 13.31")
def test_defect7_the_communist_player_chooses_for_a_heavy_fef_attack():
    g = game_at("FEF Combat", gm("GM", "1616", cls="Heavy"), vm("803", "1617"))
    assert g.state.unit("GM").counter.unit_class == "Heavy"
    g.apply(Attack(("GM",), "1617"))
    assert g.prompt.side == "Communist" and g.prompt.kind == "table"
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(ChooseTable("FEF", "Assault"))
    assert e.value.rule == "IC 13.31" and g.state_dict() == before
    assert sorted(a.table for a in g.legal_actions) == ["Assault", "Mobile"]
    assert {a.side for a in g.legal_actions} == {"Communist"}


@pytest.mark.rule("IC 13.31", "IC 13.11")
def test_defect7_attacks_are_offered_once_each_and_on_both_tables():
    g = game_at("Communist Combat", vm("803", "1616"), gm("GM", "1617"))
    attacks = [a for a in g.legal_actions if isinstance(a, Attack)]
    assert attacks == [Attack(("803",), "1617")]              # a lone attacker: listed once
    g = game_at("Communist Combat", vm("803", "1616"), vm("108", "1618"), gm("GM", "1617"))
    attacks = [a for a in g.legal_actions if isinstance(a, Attack) and a.defender_hex == "1617"]
    assert len(attacks) == len(set(attacks)) == 3             # both together, and each alone
    g.apply(Attack(("803",), "1617"))
    assert sorted(a.table for a in g.legal_actions) == ["Assault", "Mobile"]


# ---------------------------------------------------------------- 1: town and city terrain in combat

@pytest.mark.rule("IC 13.21")
def test_defect1_a_town_defender_gets_the_town_shift_in_play():
    g = game_at("Communist Combat", vm("803", "1516", s=8), gm("GM", "1515", s=2))   # 1515: a town in clear
    g.apply(Attack(("803",), "1515"))
    res = g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([3]))
    assert res.result["raw"] == "2/1"                        # 8 against 2 and the town's militia of 1
    assert res.result["column"] == "1/1" and "FEF defender in town" in res.text()


@pytest.mark.rule("IC 13.21", "IC 13.31", "IC 16.3")
def test_defect1_loop_and_final_odds_agree_on_a_fortified_city_in_the_monsoon():
    from wargames.indochina.combat import Combat, final_odds
    import dataclasses
    g = game_at("Communist Combat", vm("803", "1618", s=20), gm("GM", "1619", s=2))  # 1619: a city
    h = g.state.map.hex("1619")
    info = g.state.map.hexes[h]
    g.state.map.hexes[h] = dataclasses.replace(info, features=info.features | {"fortification"})
    g.state.monsoon = True
    g.apply(Attack(("803",), "1619"))
    assert g.prompt.side == "FEF"                             # fortified FEF defence: the FEF chooses (13.31(1))
    res = g.apply(ChooseTable("FEF", "Mobile"), ScriptedDice([3]))
    c = Combat(COM, (20,), (2, 2), terrain="city", fortified=True, monsoon=True)     # with the city's militia
    assert res.result["column"] == final_odds(c)[1]


# ---------------------------------------------------------------- 8: Communist militia never move

@pytest.mark.rule("IC 17.3", "IC 9.3")
def test_defect8_communist_militia_do_not_move_even_one_hex():
    militia = Counter("M", COM, "militia", "battalion", 1, 0, 1, 0)
    g = game_at("Communist Movement", (militia, "1616"), vm("803", "1614"), gm("GM", "1313"))
    assert not [a for a in g.legal_actions if isinstance(a, Move) and a.unit == "M"]
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(Move("M", ("1617",)))
    assert e.value.rule == "IC 17.3" and g.state_dict() == before
    g.apply(Move("803", ("1615",)))                           # other units still move
    assert g.state.label(g.state.unit("803").hex) == "1615"


# ---------------------------------------------------------------- 6: overstacked hexes fight up to the limit

@pytest.mark.rule("IC 10.22")
def test_defect6_an_overstacked_hex_employs_only_the_stacking_limit():
    five = [vm(x, "1616") for x in "abcde"]                   # five regiments: 2 1/2 divisions
    g = game_at("Communist Combat", *five, gm("GM", "1617"))
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(Attack(tuple("abcde"), "1617"))
    assert e.value.rule == "IC 10.22" and g.state_dict() == before
    g.apply(Attack(tuple("abcd"), "1617"))                    # up to the limit of two divisions
    assert g.prompt.kind == "table"
    g = game_at("Communist Combat", vm("803", "1616", s=8), *[gm(x, "1617", s=1) for x in "pqrst"])
    g.apply(Attack(("803",), "1617"))
    assert g.prompt.kind == "defend" and g.prompt.side == "FEF"


# ---------------------------------------------------------------- 9: a city reverts when its militia goes

@pytest.mark.rule("IC 17.33", "IC 17.322")
def test_defect9_a_city_whose_communist_militia_is_eliminated_reverts_to_the_fef():
    militia = Counter("M", COM, "militia", "battalion", 1, 0, 1, 0, cls="Light")
    g = game_at("Communist Combat", (militia, "1515"), gm("GM", "1516", s=6))        # 1515: a town
    g.state.communist_cities.add("1515")
    town = g.state.map.hex("1515")
    assert g.state.controller(town) is COM and g.state.fef_militia(town) == 0
    g.apply(Attack(("M",), "1516"))
    res = g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))          # 1/3, roll 1: AE
    assert g.state.unit("M").eliminated
    assert g.state.controller(town) is FEF and g.state.fef_militia(town) == 1
    assert "1515" not in g.position()["communist_cities"] and "IC 17.33" in res.rules()


# ---------------------------------------------------------------- 5: no crash half-way, no change on refusal

@pytest.mark.rule("IC 13.62", "IC 13.5")
def test_defect5_a_dr_with_no_open_retreat_hex_finishes_cleanly():
    ring = [vm(f"r{i}", lab, s=1) for i, lab in enumerate(["1517", "1518", "1618", "1717", "1718"])]
    g = game_at("Communist Combat", vm("803", "1616", s=20), *ring, gm("GM", "1617", s=1))
    g.apply(Attack(("803",), "1617"))
    res = g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))           # 7/1, roll 1: DR
    assert "DR" in res.text()
    gm_unit = g.state.unit("GM")
    assert not gm_unit.on_map or g.state.label(gm_unit.hex) != "1617" or gm_unit.eliminated
    assert g.combat is None or g.prompt.kind == "advance"
    assert not g.invariants()


# ---------------------------------------------------------------- 2: FEF militia is a unit in its hex

@pytest.mark.rule("IC 17.2", "IC 17.13", "IC 9.5")
def test_defect2_a_communist_unit_may_not_move_into_an_fef_city_held_by_its_militia():
    g = game_at("Communist Movement", vm("803", "1516"), gm("GM", "1313"))          # 1515: town, militia 1
    assert not [a for a in g.legal_actions if isinstance(a, Move) and a.path == ("1515",)]
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(Move("803", ("1515",)))
    assert e.value.rule == "IC 17.2" and g.state_dict() == before


@pytest.mark.rule("IC 17.2", "IC 13.62")
def test_defect2_a_communist_retreat_does_not_enter_an_fef_militia_city():
    g = game_at("FEF Combat", gm("GM", "1517", s=20), vm("803", "1516", s=1), vm("a", "1416"), vm("b", "1415"),
                vm("c", "1615"), vm("d", "1616"))                 # 1516's only free neighbour is the town 1515
    g.apply(Attack(("GM",), "1516"))
    g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))                  # 7/1, roll 1: DR
    assert "1515" not in [a.hex for a in g.legal_actions if hasattr(a, "hex") and a.__class__.__name__ == "Retreat"]
    assert g.state.unit("803").eliminated or g.state.label(g.state.unit("803").hex) != "1515"
    assert not g.invariants()


# ---------------------------------------------------------------- reading: the two-hex advance is per unit

@pytest.mark.rule("IC 13.61")
def test_reading_two_hex_advance_is_for_each_qualified_unit():
    from wargames.indochina import Advance, Retreat
    art = Counter("ART", COM, "artillery", "regiment", 10, 4, 5, 2)
    g = game_at("Communist Combat", vm("803", "1616", s=10), (art, "1616"), gm("GM", "1617", s=1))
    assert art.unit_class == "Heavy"
    g.apply(Attack(("803", "ART"), "1617"))
    g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))                  # 7/1, roll 1: DR
    while g.prompt.kind == "retreat":
        g.apply(next(a for a in g.legal_actions if isinstance(a, Retreat)))
    assert g.prompt.kind == "advance"
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(Advance("Communist", ("803", "ART"), ("1617", "1618")))
    assert e.value.rule == "IC 13.61" and g.state_dict() == before
    assert not [a for a in g.legal_actions if isinstance(a, Advance) and "ART" in a.units and len(a.path) == 2]
    g.apply(Advance("Communist", ("803",), ("1617", "1618")))                        # the Light unit goes on
    assert g.state.label(g.state.unit("803").hex) == "1618"


# ---------------------------------------------------------------- reading: both indexes at 0 is a Draw

@pytest.mark.rule("IC 24.1", "IC 5.22")
def test_reading_both_indexes_at_0_end_the_game_in_a_draw():
    g = Game.new(seed=1)
    g.apply(RollEvent(), ScriptedDice([3, 5]))
    g.points.fef = g.points.communist = 0                     # both fall to 0 together
    out = g.outcome()
    assert out is not None and out.winner is None and out.level == "Draw" and out.rule == "IC 24.1"
    assert g.prompt is None
    with pytest.raises(RuleViolation) as e:
        g.apply(EndPhase())
    assert e.value.rule == "IC 24.1"
    g = Game.new(seed=1)
    g.points.fef = 0                                          # only one: a Decisive Victory (24.1(3)(a))
    assert (g.outcome().winner, g.outcome().level) == ("Communist", "Decisive")


# ---------------------------------------------------------------- reading: a militia-held FEF city supplies

@pytest.mark.rule("IC 15.24", "IC 17.2", "IC 24.1")
def test_reading_an_fef_city_held_by_its_militia_is_an_ultimate_source():
    from wargames.indochina.logistics import ultimate_source
    base = Counter("B", FEF, "base", "battalion", 0, 0, 0, 0)
    st = IndochinaState.build(demo_map(), [(base, "1618")])
    city = st.map.hex("1619")
    assert st.has(city, "city") and st.fef_militia(city) == 2 and not st.units_at(city)
    assert ultimate_source(st, FEF, st.map.hex("1618")).result is not None
    st.communist_cities.add("1619")                           # a Communist-held city is not the FEF's source
    assert ultimate_source(st, FEF, st.map.hex("1618")).result is None


# ---------------------------------------------------------------- 4: ambushes along a whole path

@pytest.mark.rule("IC 28.1", "IC 28.52")
def test_defect4_an_ambush_is_offered_in_the_middle_of_a_multi_hex_move():
    from wargames.indochina import DeclineAmbush
    g = game_at("FEF Movement", vm("803", "1414"), gm("GM", "1615", s=6))
    g.apply(Move("GM", ("1515", "1514", "1614")))             # 1515 -> 1514 goes from one ZOC of 803 to another
    assert (g.prompt.side, g.prompt.kind) == ("Communist", "ambush")
    assert g.state.label(g.state.unit("GM").hex) == "1514"
    g.apply(DeclineAmbush("Communist"))
    assert g.state.label(g.state.unit("GM").hex) == "1614"   # the rest of the path follows


# ---------------------------------------------------------------- 3: a force moves on after an overrun

@pytest.mark.rule("IC 27.33", "IC 27.41", "IC 27.2")
def test_defect3_a_force_keeps_moving_after_an_overrun():
    from wargames.indochina import MoveForce, Overrun, Retreat
    g = game_at("FEF Movement", gm("GM", "1616", s=20), vm("803", "1617", s=1),
                ruleset=Ruleset.default(ambushes=False))
    g.apply(Overrun(("GM",), "1617"))
    g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([6]))
    while g.prompt.kind == "retreat":
        g.apply(next(a for a in g.legal_actions if isinstance(a, Retreat)))
    while g.prompt.kind != "play":
        g.apply(g.legal_actions[0])
    moves = [a for a in g.legal_actions if isinstance(a, MoveForce) and a.units == ("GM",)]
    assert moves                                              # 6 MP - 4 for the overrun: it may go on
    g.apply(moves[0])
    assert g.state.label(g.state.unit("GM").hex) == moves[0].path[-1]


@pytest.mark.rule("IC 27.1", "IC 27.2")
def test_defect3_a_lone_unit_is_offered_to_move_and_then_overrun():
    from wargames.indochina import MoveForce, Overrun
    g = game_at("FEF Movement", gm("GM", "1615", s=20), vm("803", "1617", s=1),
                ruleset=Ruleset.default(ambushes=False))
    assert MoveForce(("GM",), ("1616",)) in g.legal_actions
    g.apply(MoveForce(("GM",), ("1616",)))
    assert Overrun(("GM",), "1617") in g.legal_actions


# ---------------------------------------------------------------- 2 (supply half): FEF militia closes Communist lines

@pytest.mark.rule("IC 17.2", "IC 17.13", "IC 15.23")
def test_defect2_fef_militia_closes_its_hex_to_communist_lines_of_supply():
    from wargames.indochina.logistics import supply_block
    g = game_at("Communist Recovery", vm("803", "1620"))
    st = g.state
    assert supply_block(st, COM, None, st.map.hex("1619")) == "enemy units"      # Qui Nhon's printed militia
    st.communist_cities.add("1619")                                               # once it is Communist: open
    assert supply_block(st, COM, None, st.map.hex("1619")) == ""
