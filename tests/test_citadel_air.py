"""Citadel's air power (C 25-C 33): the Air Chart's data, the printed examples C-E14..C-E19, and the air
phases played through ``citadel.Game``. Each modifier, shift and exception has a test that fails if it is
deleted or turned round."""
import dataclasses
import datetime as dt
import shutil

import pytest

from wargames.citadel.stacking import stacking_problem
from wargames.citadel import Counter, EndPhase, Fire, Game, Ruleset, Side, UnitClass, UnitState
from wargames.citadel import air
from wargames.citadel.air import Sortie, Stack
from wargames.citadel.air_charts import (AIR_CONSTRAINTS, DATA, Valued, check_air_constraints,
                                         default_air_charts, load_weather_table)
from wargames.citadel.airplay import (AAFire, AirAttack, BatteryFire, BombStack, Cull, Drop, Fly, Land,
                                      air_strike)
from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import DataError, RuleViolation
from . import yamlc

FR, VM = "French", "Vietminh"


def game(**air_counts) -> Game:
    """The air demonstration, with the Air Chart replaced when counts are given."""
    g = Game.new("anne_marie_air", seed=3)
    if air_counts:
        g.state.air = air.new_air_state(air_counts.pop("available", {}), air_counts.pop("unserviceable", {}),
                                        air_counts.pop("revetment", {}))
    return g


def to_phase(g: Game, phase: str) -> None:
    """End every phase (passing every decision) until ``phase`` begins."""
    for _ in range(200):
        if g.state.phase == phase and g.play_index is not None or g.state.phase == phase and \
                g.phase.kind not in ("air", "admin"):
            return
        g.apply(EndPhase())
    raise AssertionError(f"never reached {phase}")


def labels(g, hexes):
    return sorted(g.state.label(h) for h in hexes)


# --------------------------------------------------------------------------- charts (catalog C-3 items 4-9)

@pytest.mark.rule("C Air Chart", "C 27", "C 28", "C 26", "C 25", "C Chart 3")
def test_the_shipped_air_chart_keeps_every_constraint_of_the_text():
    assert check_air_constraints() == []
    ac = default_air_charts()
    kinds = {c.provenance.kind for c in ac.weather.cells.values()} | {
        c.provenance.kind for c in ac.aa_fire.cells.values()}
    assert kinds == {"reconstructed"}
    assert ac.supply_bombing.get("supply", 1).provenance.kind == "example"
    assert all(w.provenance.kind == "example" for w in ac.transport_weights.weights.values())
    assert ac.air_units["B26"].provenance.kind == "text" and ac.air_units["C47"].provenance.kind == "text"
    assert ac.aa_altitude.guns["20mm"]["high"].provenance.kind == "text"


def _broken(ac, cid):
    """A copy of the Air Chart that breaks constraint ``cid``."""
    from copy import deepcopy
    from wargames.core.charts import Cell, Provenance
    ac = deepcopy(ac)
    r = Provenance("reconstructed")
    w = ac.weather
    if cid == "weather-d6-may":
        w.rows = [1, 2, 3, 4, 5, 6]
    elif cid == "weather-results":
        for k in w.cells:
            w.cells[k] = Cell("clear", r)
    elif cid == "weather-monotone":
        w.cells[("weather", 7)] = Cell("clear", r)
    elif cid == "aa-20mm-high":
        ac.aa_altitude.guns["20mm"]["high"] = Valued(1, r)
    elif cid == "aa-50cal":
        ac.aa_altitude.guns[".50cal"]["medium"] = Valued(1, r)
    elif cid == "aa-37mm-all":
        ac.aa_altitude.guns["37mm"]["high"] = Valued(None, r)
    elif cid == "aa-odds":
        for k in ac.aa_fire.cells:
            ac.aa_fire.cells[k] = Cell("-", r)
    elif cid == "aa-monotone":
        ac.aa_fire.cells[("6/1", 1)] = Cell("-", r)
    elif cid == "bombing-d6":
        ac.supply_bombing.rows = [1, 2, 3]
    elif cid == "bombing-roll-1":
        ac.supply_bombing.cells[("supply", 1)] = Cell("gsp", r)
    elif cid == "weights-c47":
        ac.transport_weights.weights["ammo_105"] = Valued(4, r)
    elif cid == "units-b26":
        ac.air_units["B26"] = dataclasses.replace(ac.air_units["B26"], attack=30)
    elif cid == "units-c47":
        ac.air_units["C47"] = dataclasses.replace(ac.air_units["C47"], attack=10)
    elif cid == "units-aircraft":
        ac.air_units["PB4Y"] = dataclasses.replace(ac.air_units["PB4Y"], aircraft=4)
    elif cid == "units-categories":
        ac.air_units["B26"] = dataclasses.replace(ac.air_units["B26"], category="fighter-bomber")
    elif cid == "units-branches":
        ac.air_units["F4U"] = dataclasses.replace(ac.air_units["F4U"], branch="airforce")
    else:
        raise AssertionError(cid)
    return ac


@pytest.mark.rule("C Air Chart", "C 27", "C 28", "C 26", "C 25")
@pytest.mark.parametrize("cid", [c.id for c in AIR_CONSTRAINTS])
def test_each_air_chart_constraint_catches_a_chart_that_breaks_it(cid):
    assert cid in check_air_constraints(_broken(default_air_charts(), cid))


@pytest.mark.rule("C Air Chart", "C 27")
def test_a_bad_air_chart_file_names_the_file_and_the_cell(tmp_path):
    doc = yamlc.safe_load((DATA / "weather.yaml").read_text())
    doc["by_column"]["weather"][3] = "fog"
    p = tmp_path / "weather.yaml"
    p.write_text(yamlc.safe_dump(doc))
    with pytest.raises(DataError) as e:
        load_weather_table(p)
    assert "weather.yaml" in str(e.value) and "weather" in e.value.field and "fog" in str(e.value)


@pytest.mark.rule("C Air Chart", "C 27")
def test_an_owners_printed_weather_table_is_used_by_the_game(tmp_path):
    doc = yamlc.safe_load((DATA / "weather.yaml").read_text())
    doc["by_column"]["weather"] = ["storm"] * 7
    del doc["provenance"]
    (tmp_path / "weather.yaml").write_text(yamlc.safe_dump(doc))
    rs = Ruleset.load(tmp_path)
    g = Game.new("anne_marie_air", ruleset=rs)
    assert g.state.air_charts.weather.get("weather", 1).value == "storm"
    assert g.state.air_charts.weather.get("weather", 1).provenance.kind == "printed"


# --------------------------------------------------------------------------- C-E14: strategic bombing

@pytest.mark.rule("C 26", "C 26.D")
def test_ce14_four_b26_at_medium_make_80_and_bomb_on_31_40_destroying_three_105mm():
    g = game(available={"B26": 4})
    st = g.state
    st.air.weather.update(valley="clear", supply_lines="clear", delta="clear")
    res = Resolution()
    stack = Stack(["B26-1", "B26-2", "B26-3", "B26-4"], "medium")
    assert air.attack_total(st, stack.aircraft, "medium", res) == 80
    air.bomb(st, stack, ScriptedDice([4, 1]), res)
    assert "-> 31-40" in res.text() and "roll 4: 3" in res.text()
    assert st.air.bombed == {"ammo_105": 3}
    assert air.effective_bombing(st, "ammo_105") == 3


@pytest.mark.rule("C 26", "C 28", "C 7")
def test_ce14_strategic_bombing_through_the_game_with_a_battery_firing():
    g = game(available={"B26": 4})
    g.state.air.weather.update(supply_lines="clear", delta="clear")
    to_phase(g, "strategic bombing")
    assert g.prompt.side == FR and g.prompt.rule == "C 26.D"
    g.apply(BombStack(("B26-1", "B26-2", "B26-3", "B26-4"), "medium"))
    g.apply(EndPhase())
    assert g.prompt.side == VM and g.prompt.rule == "C 28.F"
    assert BatteryFire(0, ("B26-1",)) in g.legal_actions
    g.apply(BatteryFire(0, ("B26-1",)), ScriptedDice([6]))        # 4 guns against 6: 1/2, roll 6: no effect
    with pytest.raises(RuleViolation, match="one battery"):
        g.apply(BatteryFire(0, ("B26-2",)))
    res = g.apply(EndPhase(), ScriptedDice([4, 1, 1, 1, 1]))      # then the next day's three weather rolls
    assert "supply bombing roll 1: 3 point(s) of ammo_105 destroyed" in res.text()
    assert "return to duty: B26-1, B26-2, B26-3, B26-4" in res.text()        # flown, then back next morning


@pytest.mark.rule("C 28", "C 28.F", "C 28.A", "C 31")
def test_an_f8f_aborted_over_the_supply_lines_goes_where_the_french_player_says():
    """C 28.F fires by the procedure of C 28.A, so an aborted counter that may use the Dien Bien Phu airfield
    goes to Aborted and Unserviceable or, inverted, to the revetment, as the French player chooses."""
    from wargames.citadel.airplay import AbortTo
    g = game(available={"F8F": 1, "B26": 1})
    g.state.air.weather.update(supply_lines="clear", delta="clear")
    to_phase(g, "strategic bombing")
    g.apply(BombStack(("F8F-1", "B26-1"), "medium"))
    g.apply(EndPhase())
    g.apply(BatteryFire(0, ("F8F-1", "B26-1")), ScriptedDice([1]))   # 4 guns against 4 + 6: 1/3, roll 1: A
    st = g.state.air
    assert st.box["B26-1"] == "aborted"                                 # a bomber has no choice
    assert g.prompt.side == FR and g.prompt.rule == "C 28.A"
    assert set(g.legal_actions) == {AbortTo("F8F-1", "aborted"), AbortTo("F8F-1", "revetment")}
    before = g.state_dict()
    with pytest.raises(RuleViolation, match="aborted aircraft"):
        g.apply(EndPhase())
    assert g.state_dict() == before
    g.apply(AbortTo("F8F-1", "revetment"))
    assert g.state.air.box["F8F-1"] == "revetment" and "F8F-1" in g.state.air.inverted
    assert g.prompt.side == VM and g.prompt.rule == "C 28.F"
    g.apply(EndPhase())
    assert g.state.air.box["F8F-1"] == "revetment"                      # it did not fly on to the flown box


@pytest.mark.rule("C 26", "C 26.D")
def test_strategic_bombing_ignores_pins_and_excess_destruction():
    g = game(available={"B26": 4})
    st = g.state
    res = Resolution()
    air.bomb(st, Stack(["B26-1", "B26-2", "B26-3", "B26-4"], "low"), ScriptedDice([1, 1]), res)   # 160 -> 91+, -4 -> 41-50, 1: 4P
    assert "(P has no effect)" in res.text() and st.air.bombed == {"ammo_105": 4}
    st.air.bombed["ammo_105"] = 14
    assert air.effective_bombing(st, "ammo_105") == 10           # at most the 10 the Vietminh receive (C 23.B)
    assert air.effective_bombing(st, "gsp") == 0


@pytest.mark.rule("C 28", "C 28.F")
def test_supply_line_batteries_are_not_doubled_and_at_most_eight_fire():
    g = game(available={"B26": 10})
    st = g.state
    st.air.stacks = [Stack([f"B26-{i}"], "low") for i in range(1, 10)]
    res = Resolution()
    air.battery_fire(st, 0, ["B26-1"], ScriptedDice([4]), res)
    assert "4 guns x1 = 4 against defence 6" in res.text()         # not doubled: 1/2 column
    for i in range(1, 8):
        air.battery_fire(st, i, [f"B26-{i + 1}"], ScriptedDice([6]), Resolution())
    with pytest.raises(RuleViolation, match="eight"):
        air.battery_fire(st, 8, ["B26-9"], ScriptedDice([6]), Resolution())


# --------------------------------------------------------------------------- C-E15: cargo

@pytest.mark.rule("C 26", "C 26.E")
@pytest.mark.parametrize("cargo,most", [("gsp", 1), ("ammo_155", 1), ("ammo_105", 4), ("ammo_120", 4)])
def test_ce15_a_c47_carries_one_gsp_one_155_or_four_105_or_120(cargo, most):
    g = game(available={"C47": 2})
    to_phase(g, "supply and transport")
    assert g.prompt.rule == "C 26.E"
    assert g.why_illegal(Drop(("C47-1",), "1316", "low", "N", cargo, most)) is None
    why = g.why_illegal(Drop(("C47-1",), "1316", "low", "N", cargo, most + 1))
    assert why.rule == "C 26.E"


@pytest.mark.rule("C 26", "C 26.E")
def test_ce15_a_c47_carries_two_strength_points_of_troops():
    g = game(available={"C47": 2})
    g.state.units["1/6BPC"] = UnitState(_para(), None)
    to_phase(g, "supply and transport")
    assert g.why_illegal(Drop(("C47-1",), "1316", "low", "N", "personnel", 2, "1/6BPC")) is None
    assert g.why_illegal(Drop(("C47-1",), "1316", "low", "N", "personnel", 3, "1/6BPC")).rule == "C 26.E"


@pytest.mark.rule("C 26", "C 26.E")
def test_drops_go_on_or_next_to_french_hexes_outside_vietminh_zoc_and_transports_face_alike():
    g = game(available={"C47": 2})
    to_phase(g, "supply and transport")
    assert g.why_illegal(Drop(("C47-1",), "1315", "low", "N", "gsp", 1)) is None       # next to 1316
    assert g.why_illegal(Drop(("C47-1",), "0612", "low", "N", "gsp", 1)).rule == "C 26.E"
    g.apply(Drop(("C47-1",), "1316", "low", "N", "gsp", 1))
    assert g.why_illegal(Drop(("C47-2",), "1414", "low", "S", "gsp", 1)).rule == "C 28.C"


@pytest.mark.rule("C 26", "C 26.E", "C 7")
def test_air_placements_outside_the_offered_sample_are_accepted_too():
    """legal_actions offers a sample of the air placements (citadel.game's docstring says so); a legal Fly or
    Drop that the sample leaves out is still in legal_actions, and apply carries it out."""
    g = game(available={"F8F": 2, "SB2C": 1, "C47": 2})
    g.apply(EndPhase())                                           # VM movement ends: French air placement
    offered = list(g.legal_actions)
    fly = Fly("tactical", ("F8F-1", "SB2C-1"), "0714", "medium", "SE")      # a mixed group facing south-east
    assert fly not in offered and not any(isinstance(a, Fly) and a.facing == "SE" for a in offered)
    assert fly in g.legal_actions
    g.apply(fly)
    assert g.state.air.sorties[0].aircraft == ["F8F-1", "SB2C-1"] and g.state.air.sorties[0].facing == "SE"
    g = game(available={"C47": 2})
    to_phase(g, "supply and transport")
    offered = list(g.legal_actions)
    drop = Drop(("C47-1", "C47-2"), "1414", "medium", "NW", "ammo_105", 8)    # two transports, eight 105mm points
    assert drop not in offered and not any(isinstance(a, Drop) and a.cargo != "gsp" for a in offered)
    assert drop in g.legal_actions
    g.apply(drop)
    s = g.state.air.sorties[-1]
    assert (s.mission, s.aircraft, s.cargo, s.amount) == ("transport", ["C47-1", "C47-2"], "ammo_105", 8)


@pytest.mark.rule("C 26", "C 26.E")
@pytest.mark.parametrize("altitude,roll,who", [("low", 5, "French"), ("low", 6, "nobody"), ("medium", 5, "nobody"),
                                               ("medium", 6, "Vietminh"), ("high", 4, "nobody"),
                                               ("high", 5, "Vietminh"), ("medium", 4, "French")])
def test_the_drop_roll_adds_one_at_medium_and_two_at_high(altitude, roll, who):
    g = game(available={"C47": 1})
    st = g.state
    s = Sortie("transport", ["C47-1"], st.map.hex("1316"), altitude, "N", "ammo_105", 4)
    res = Resolution()
    air.drop(st, s, ScriptedDice([roll]), res)
    assert f"recovered by {who}" in res.text()
    book = {"French": st.air.delivered, "Vietminh": st.air.captured, "nobody": {}}[who]
    assert book == ({"ammo_105": 4} if who != "nobody" else {})


# --------------------------------------------------------------------------- C-E16: storm

@pytest.mark.rule("C 27")
def test_ce16_storm_over_dien_bien_phu_stops_every_mission_to_the_map_without_a_prompt():
    g = game(available={"F8F": 2, "C47": 2, "Cricket": 1})
    g.state.air.weather["valley"] = "storm"
    g.apply(EndPhase())                                           # VM movement ends
    assert g.state.phase != "VM turn: French air placement"
    assert "storm over Dien Bien Phu" in g.resolutions[-1].text()
    to_phase(g, "strategic bombing")
    assert any("no transport missions" in r.text() for r in g.resolutions)


@pytest.mark.rule("C 27")
def test_storm_over_the_delta_grounds_only_delta_based_aircraft():
    g = game(available={"F8F": 1, "SB2C": 1}, revetment={"Cricket": 1})
    st = g.state
    st.air.weather["delta"] = "storm"
    assert "storm over the Red River delta" in air.weather_problem(st, ["F8F-1"], "valley")
    assert air.weather_problem(st, ["SB2C-1"], "valley") is None            # carriers: always clear
    assert air.weather_problem(st, ["Cricket-1"], "valley") is None         # based at Dien Bien Phu
    st.air.weather["valley"] = "storm"
    assert "storm over Dien Bien Phu" in air.weather_problem(st, ["SB2C-1"], "valley")
    with pytest.raises(RuleViolation, match="storm over Dien Bien Phu"):
        air.place_sortie(st, "spotting", ["Cricket-1"], "0910", "low", "N", Resolution())


@pytest.mark.rule("C 27")
def test_weather_is_three_rolls_with_one_added_in_may():
    g = game(available={"F8F": 1})
    st = g.state
    air.roll_weather(st, ScriptedDice([5, 3, 1]), Resolution())
    assert st.air.weather == {"valley": "overcast", "supply_lines": "clear", "delta": "clear"}
    st.date = dt.date(1954, 5, 2)
    air.roll_weather(st, ScriptedDice([5, 3, 1]), Resolution())
    assert st.air.weather == {"valley": "storm", "supply_lines": "overcast", "delta": "clear"}


# --------------------------------------------------------------------------- C-E17: overcast

@pytest.mark.rule("C 27")
def test_ce17_ten_b26_under_overcast_over_the_delta_then_the_supply_lines_three_arrive():
    g = game(available={"B26": 10})
    st = g.state
    st.air.weather.update(delta="overcast", supply_lines="overcast")
    res = Resolution()
    going = air.turn_back(st, [f"B26-{i}" for i in range(1, 11)], "supply_lines", res)
    assert len(going) == 3
    lines = [s.text for s in res.steps]
    assert "overcast over the delta: 5 of 10" in lines[0] and "overcast over the supply lines: 2 of 5" in lines[1]
    assert len(st.air.in_box("flown", "B26")) == 7


@pytest.mark.rule("C 27")
def test_ce17_through_the_game_and_per_type_with_carriers_clear():
    g = game(available={"B26": 10, "SB2C": 3})
    g.state.air.weather.update(delta="overcast", supply_lines="overcast")
    to_phase(g, "strategic bombing")
    g.apply(BombStack(tuple(f"B26-{i}" for i in range(1, 11)) + ("SB2C-1", "SB2C-2", "SB2C-3"), "low"))
    stack = g.state.air.stacks[0]
    assert sum(a.startswith("B26") for a in stack.aircraft) == 3
    assert sum(a.startswith("SB2C") for a in stack.aircraft) == 2             # only the supply lines: 3 - 1


# --------------------------------------------------------------------------- C-E18: split paratroop company

def _para():
    return Counter("1/6BPC", Side.FRENCH, UnitClass.INFANTRY, "1st Company, 6th Colonial Parachute Battalion", 3,
                   size="company", type="paratroopers", parent="6BPC", morale=4, reduced_strength=2,
                   reduced_morale=3)


@pytest.mark.rule("C 28", "C 28.G", "C 26.E")
def test_ce18_a_company_split_over_two_c47_one_aborted_lands_reduced_and_one_point_goes_back():
    g = game(available={"C47": 2})
    st = g.state
    st.units["1/6BPC"] = UnitState(_para(), None)
    st.unit("AA-37").hex = st.map.hex("1212")
    to_phase(g, "supply and transport")
    g.apply(Drop(("C47-1",), "1316", "low", "N", "personnel", 2, "1/6BPC"))
    assert g.why_illegal(Drop(("C47-2",), "1414", "low", "N", "personnel", 1, "1/6BPC")).rule == "C 26.E"
    g.apply(Drop(("C47-2",), "1315", "low", "N", "personnel", 1, "1/6BPC"))
    g.apply(EndPhase())
    assert g.prompt.side == VM
    g.apply(AAFire(("AA-37",), ("C47-2",)), ScriptedDice([2]))            # 4 guns v 4: 1/1, roll 2: A
    assert g.state.air.box["C47-2"] == "aborted"
    g.apply(EndPhase())
    u = g.state.unit("1/6BPC")
    assert u.hex == g.state.map.hex("1316") and u.inverted and u.strength == 2
    assert g.state.air.delta["infantry"] == 1
    assert g.state.air.box["C47-1"] == "flown"


@pytest.mark.rule("C 28", "C 28.G", "C 15")
def test_ce18_the_undelivered_point_joins_the_french_replacement_pool():
    from wargames.citadel.replacements import reserves_of
    g = game(available={"C47": 2})
    st = g.state
    st.units["1/6BPC"] = UnitState(_para(), None)
    before = dict(reserves_of(st).french_left)
    air.check_cargo(st, ["C47-1"], "personnel", 2, "1/6BPC", st.map.hex("1316"))
    st.air.personnel["1/6BPC"] = [[st.map.hex("1316"), 2]]           # C47-2 with the third point aborted
    air.land_personnel(st, Resolution())
    assert reserves_of(st).french_left == {**before, "infantry": before["infantry"] + 1}


@pytest.mark.rule("C 26", "C 26.E", "C 16")
def test_only_a_reinforcement_due_today_waits_in_the_delta_to_be_flown_in():
    from wargames.citadel.replacements import reserves_of
    g = game(available={"C47": 2})
    st = g.state
    st.units["1/6BPC"] = UnitState(_para(), None)
    reserves_of(st).schedule = {st.date + dt.timedelta(days=1): ("1/6BPC",)}
    with pytest.raises(RuleViolation, match="not yet due"):
        air.check_cargo(st, ["C47-1"], "personnel", 2, "1/6BPC", st.map.hex("1316"))
    reserves_of(st).schedule = {st.date: ("1/6BPC",)}
    air.check_cargo(st, ["C47-1"], "personnel", 2, "1/6BPC", st.map.hex("1316"))
    st.air.personnel["1/6BPC"] = [[st.map.hex("1316"), 2]]
    air.land_personnel(st, Resolution())
    assert "1/6BPC" in reserves_of(st).arrived


@pytest.mark.rule("C 26", "C 26.D", "C 23")
def test_strategic_bombing_cuts_the_vietminh_receipts_of_the_day():
    g = game(available={"B26": 4})
    g.state.air.weather.update(supply_lines="clear", delta="clear")
    stock = g.state.supply.stock(Side.VIETMINH, "105")
    to_phase(g, "strategic bombing")
    g.apply(BombStack(("B26-1", "B26-2", "B26-3", "B26-4"), "medium"))
    g.apply(EndPhase())
    res = g.apply(EndPhase(), ScriptedDice([4, 1, 1, 1, 1]))
    assert "bombing destroys 3 of today's 10 105mm ammunition" in res.text()
    assert "7 105mm ammunition (10 - 3 bombed)" in res.text()
    assert g.state.supply.stock(Side.VIETMINH, "105") == stock + 7


@pytest.mark.rule("C 26", "C 26.E", "C 23")
@pytest.mark.parametrize("roll,french,vietminh", [(3, 4, 0), (6, 0, 0), (5, 0, 4)])
def test_dropped_cargo_joins_the_stocks_of_whoever_recovers_it(roll, french, vietminh):
    g = game(available={"C47": 1})
    st = g.state
    vm = st.supply.stock(Side.VIETMINH, "105")
    s = Sortie("transport", ["C47-1"], st.map.hex("1316"), "high" if roll == 5 else "low", "N", "ammo_105", 4)
    air.drop(st, s, ScriptedDice([roll]), Resolution())
    assert st.supply.arriving.get("105", 0) == french                 # joins the stocks as the phase ends
    assert st.supply.stock(Side.VIETMINH, "105") == vm + vietminh      # at once (C 23.B)


# --------------------------------------------------------------------------- C-E19: culling

@pytest.mark.rule("C 29")
def test_ce19_returning_two_of_three_forfeits_the_third_return():
    g = game(available={"B26": 1})
    st = g.state
    for i in (2, 3, 4):
        st.air.counters[f"B26-{i}"] = "B26"
        st.air.box[f"B26-{i}"] = "shot_down"
    res = Resolution()
    air.cull(st, "B26", "shot_down", 1, 2, res)
    assert "1 permanently destroyed, 2 returned" in res.text() and "1 return(s) forgone" in res.text()
    assert len(st.air.in_box("aborted", "B26")) == 2 and len(st.air.in_box("destroyed", "B26")) == 1
    st.air.box["B26-1"] = "shot_down"                          # the next B26 shot down
    with pytest.raises(RuleViolation, match="must be permanently destroyed"):
        air.cull(st, "B26", "shot_down", 0, 1, Resolution())
    with pytest.raises(RuleViolation, match="up to three"):
        air.cull(st, "B26", "shot_down", 1, 4, Resolution())


@pytest.mark.rule("C 29", "C 7")
def test_culling_is_a_french_decision_in_the_maintenance_phase_then_routine_maintenance():
    g = game(available={"F8F": 1})
    st = g.state
    for i in (1, 2, 3, 4):
        st.air.counters[f"B26-{i}"] = "B26"
        st.air.box[f"B26-{i}"] = "shot_down"
    to_phase(g, "aircraft maintenance")
    assert g.prompt.side == FR and g.prompt.rule == "C 29"
    assert Cull("B26", "shot_down", 1, 3) in g.legal_actions
    assert Cull("B26", "shot_down", 1, 4) not in g.legal_actions
    g.apply(Cull("B26", "shot_down", 1, 3))
    g.apply(EndPhase(), ScriptedDice([4, 3, 6]))                 # C 29.D: culled, then maintained in one phase
    assert [g.state.air.box[f"B26-{i}"] for i in (2, 3, 4)] == ["available", "aborted", "available"]


@pytest.mark.rule("C 29", "C 31")
def test_ground_losses_cull_back_inverted_into_the_revetment():
    g = game(available={}, revetment={"F8F": 2})
    st = g.state
    assert air.destroyed_on_ground(st, 1, Resolution()) == ["F8F-1"]
    air.cull(st, "F8F", "destroyed_on_ground", 1, 0, Resolution())
    st.air.box["F8F-2"] = "destroyed_on_ground"
    st.air.counters["F8F-3"], st.air.box["F8F-3"] = "F8F", "destroyed_on_ground"
    air.cull(st, "F8F", "destroyed_on_ground", 1, 1, Resolution())
    assert st.air.box["F8F-3"] == "revetment" and "F8F-3" in st.air.inverted
    assert air.may_fly(st, "F8F-3", "tactical").startswith("F8F-3 is unserviceable")
    air.routine_maintenance(st, ScriptedDice([5]), Resolution())
    assert "F8F-3" not in st.air.inverted


@pytest.mark.rule("C 29")
def test_return_to_duty_empties_the_flown_box():
    g = game(available={"F8F": 1})
    g.state.air.box["F8F-1"] = "flown"
    air.return_to_duty(g.state, Resolution())
    assert g.state.air.box["F8F-1"] == "available"


# --------------------------------------------------------------------------- tactical air, flak, spotting

@pytest.mark.rule("C 26", "C 26.A")
@pytest.mark.parametrize("altitude,total", [("low", 80), ("medium", 40), ("high", 20)])
def test_attack_values_by_altitude(altitude, total):
    g = game(available={"F8F": 5})
    assert air.attack_total(g.state, [f"F8F-{i}" for i in range(1, 6)], altitude, Resolution()) == total


@pytest.mark.rule("C 26", "C 26.A")
def test_fractional_attack_totals_are_rounded_down():
    g = game(available={"F4U": 1, "F8F": 1})
    res = Resolution()
    assert air.attack_total(g.state, ["F4U-1"], "high", res) == 5
    assert air.attack_total(g.state, ["F4U-1", "F8F-1"], "high", res) == 9      # 36 / 4
    assert air.attack_total(g.state, ["F8F-1"], "medium", Resolution()) == 8
    g2 = game(available={"SB2C": 1})
    g2.state.air_charts.air_units["SB2C"] = dataclasses.replace(g2.state.air_charts.air_units["SB2C"], attack=21)
    assert air.attack_total(g2.state, ["SB2C-1"], "medium", Resolution()) == 10
    g2.state.air_charts.air_units["SB2C"] = dataclasses.replace(g2.state.air_charts.air_units["SB2C"], attack=15)
    assert air.attack_total(g2.state, ["SB2C-1"], "high", Resolution()) == 3            # 3.75, not 4


@pytest.mark.rule("C 26", "C 26.A", "C 13")
def test_a_tactical_strike_uses_the_fire_crt_with_the_targets_terrain_shift():
    g = game(available={"F8F": 1})
    st = g.state
    s = Sortie("tactical", ["F8F-1"], st.map.hex("0419"), "low", "N")
    res = Resolution()
    pending = air_strike(st, s, ScriptedDice([4]), res)             # 16 -> 15-18, jungle -2 -> 9-10, roll 4: 1
    assert "shifted -2 -> 9-10" in res.text() and "roll 4: 1" in res.text()
    assert pending is None and st.unit("4th Bn").losses == 1


@pytest.mark.rule("C 26", "C 26.A", "C 7")
def test_tactical_air_through_the_game_blocks_french_indirect_fire_into_the_hex():
    g = game(available={"F8F": 1, "Cricket": 1})
    g.apply(EndPhase())
    assert g.state.phase == "VM turn: French air placement" and g.prompt.side == FR
    g.apply(Fly("tactical", ("F8F-1",), "0419", "medium", "N"))
    g.apply(EndPhase())                                            # no gun reaches 0419: straight to the attack
    assert g.prompt.rule == "C 26.A"
    from wargames.citadel.fire import FirePhase
    problems = FirePhase(g.state, "indirect", Side.FRENCH).problems(["105-A"], g.state.map.hex("0419"))
    assert ("C 26.A", "aircraft attack 0419 this phase: no French indirect fire there") in problems
    g.apply(AirAttack("0419"), ScriptedDice([6]))
    assert air.air_attacked(g.state, g.state.map.hex("0419")) or g.state.phase in ("VM return", "French movement")
    assert g.state.air.box["F8F-1"] == "flown"
    assert not air.air_attacked(g.state, g.state.map.hex("1010"))


@pytest.mark.rule("C 26", "C 26.A")
def test_bombers_may_not_strike_next_to_french_units_but_fighter_bombers_may():
    g = game(available={"B26": 1, "F8F": 1})
    st = g.state
    st.unit("1st Bn").hex = st.map.hex("1315")                   # next to 1316 (French)
    with pytest.raises(RuleViolation, match="next to French ground units"):
        air.place_sortie(st, "tactical", ["B26-1"], "1315", "low", "N", Resolution())
    assert air.place_sortie(st, "tactical", ["F8F-1"], "1315", "low", "N", Resolution()) is not None


@pytest.mark.rule("C 26", "C 26.A", "C 26.B")
def test_placement_rules_one_altitude_a_hex_and_flak_low_over_guns():
    g = game(available={"F8F": 3, "Cricket": 1})
    st = g.state
    air.place_sortie(st, "tactical", ["F8F-1"], "0419", "low", "N", Resolution())
    with pytest.raises(RuleViolation):
        air.place_sortie(st, "tactical", ["F8F-2"], "0419", "medium", "N", Resolution())
    with pytest.raises(RuleViolation, match="low altitude"):
        air.place_sortie(st, "flak", ["F8F-2"], "0810", "medium", "N", Resolution())
    with pytest.raises(RuleViolation, match="no antiaircraft unit"):
        air.place_sortie(st, "flak", ["F8F-2"], "0910", "low", "N", Resolution())
    with pytest.raises(RuleViolation, match="spotter"):
        air.place_sortie(st, "tactical", ["Cricket-1"], "0910", "low", "N", Resolution())
    with pytest.raises(RuleViolation, match="already flies"):
        air.place_sortie(st, "tactical", ["F8F-1"], "0910", "low", "N", Resolution())


@pytest.mark.rule("C 26", "C 26.C", "C 10")
def test_a_spotter_spots_its_hex_and_neighbours_for_french_indirect_fire_this_player_turn():
    g = game(available={"Cricket": 1})
    st = g.state
    target = st.map.hex("0910")                                    # full jungle, no French unit next to it
    from wargames.citadel.fire_types import spotted
    assert not spotted(st, target, Side.FRENCH)[0]
    g.apply(EndPhase())
    g.apply(Fly("spotting", ("Cricket-1",), "0911", "low", "N"))
    g.apply(EndPhase())
    assert g.state.phase == "VM turn: antiaircraft fire"           # the .50cal reaches the spotter's orbit
    g.apply(EndPhase())
    assert g.state.phase == "VM turn: French indirect fire"
    ok, why = spotted(g.state, target, Side.FRENCH)
    assert ok and "C 26.C" in why
    assert not air.air_spotted(g.state, target, Side.VIETMINH)
    assert g.why_illegal(Fire(("105-A",), "0910")) is None
    g.state.player_turn_start += 1                                  # a later player turn
    assert not air.air_spotted(g.state, target, Side.FRENCH)


# --------------------------------------------------------------------------- antiaircraft fire (C 28)

def _sortie(g, mission, ids, hexlabel, altitude, facing="N"):
    s = air.place_sortie(g.state, mission, ids, hexlabel, altitude, facing, Resolution())
    assert s is not None
    return s


@pytest.mark.rule("C 28", "C 28.A")
def test_guns_in_the_same_hex_are_doubled_and_odds_round_down():
    g = game(available={"F8F": 2})
    st = g.state
    _sortie(g, "flak", ["F8F-1"], "0810", "low")
    res = Resolution()
    air.aa_fire(st, ["AA-37"], ["F8F-1"], False, ScriptedDice([3]), res)
    assert "x2 (same hex) = 8" in res.text() and "against defence 4 -> 2/1" in res.text()
    g2 = game(available={"F8F": 2})
    _sortie(g2, "tactical", ["F8F-1", "F8F-2"], "0910", "low")
    res = Resolution()
    air.aa_fire(g2.state, ["AA-37"], ["F8F-1", "F8F-2"], False, ScriptedDice([6]), res)
    assert "4 guns against defence 8 -> 1/2" in res.text()                # not doubled, defences combined


@pytest.mark.rule("C 28", "C 28.A")
@pytest.mark.parametrize("gun,ordnance,altitude,ok", [("20mm", "20", "high", False), ("20mm", "20", "medium", True),
                                                      (".50cal", ".50", "medium", False), (".50cal", ".50", "low", True),
                                                      ("37mm", "37", "high", True)])
def test_which_guns_reach_which_altitudes(gun, ordnance, altitude, ok):
    g = game(available={"F8F": 1})
    st = g.state
    c = Counter("AA-X", Side.VIETMINH, UnitClass.HEAVY_WEAPONS, "test battery", 4, size="company",
                type="antiaircraft", ordnance=ordnance)
    st.units["AA-X"] = UnitState(c, st.map.hex("0812"))
    s = _sortie(g, "tactical", ["F8F-1"], "0910", altitude)
    why = air.aa_problem(st, st.unit("AA-X"), s, ["F8F-1"], False)
    assert (why is None) == ok


@pytest.mark.rule("C 28", "C 28.B", "C 28.C")
def test_range_counts_to_the_flight_path_as_well_as_the_aircraft():
    g = game(available={"F8F": 2})
    st = g.state
    gun = st.unit("AA-50")                                          # .50cal, range 6, at 0909
    gun.hex = st.map.hex("0915")
    # 1316 is 6 from 0915? place the target so that only the path reaches
    s = Sortie("tactical", ["F8F-1"], st.map.hex("1720"), "low", "N")
    assert gun.hex.distance(s.hex) > 6
    assert "reaches neither" in air.aa_problem(st, gun, s, ["F8F-1"], False)
    s2 = Sortie("tactical", ["F8F-1"], st.map.hex("1720"), "low", "SE")   # path runs back north-west
    assert min(gun.hex.distance(h) for h in air.flight_path("fighter-bomber", s2.hex, "SE")) <= 6
    assert air.aa_problem(st, gun, s2, ["F8F-1"], False) is None


@pytest.mark.rule("C 28", "C 28.C")
def test_flight_path_lengths_by_type():
    from wargames.core import Hex
    t = Hex(0, 0)
    fb = air.flight_path("fighter-bomber", t, "N")
    assert len(fb) == 5 and fb[0] == Hex(0, 1) and fb[-1] == Hex(0, 5)          # behind: to the south
    b = air.flight_path("bomber", t, "N")
    assert len(b) == 12 and Hex(0, -1) in b and Hex(0, -2) in b and Hex(0, -3) not in b
    tr = air.flight_path("transport", t, "NE")
    assert len(tr) == 20 and Hex(-15, 15) in tr and Hex(5, -5) in tr
    assert sorted(air.flight_path("spotter", t, "N")) == sorted(t.neighbors())


@pytest.mark.rule("C 28", "C 28.B", "C 26.B")
def test_guns_under_flak_suppression_fire_only_at_the_suppressors():
    g = game(available={"F8F": 2})
    st = g.state
    _sortie(g, "flak", ["F8F-1"], "0810", "low")
    s2 = _sortie(g, "tactical", ["F8F-2"], "0910", "low")
    assert "flak suppression" in air.aa_problem(st, st.unit("AA-37"), s2, ["F8F-2"], False)
    assert air.aa_problem(st, st.unit("AA-50"), s2, ["F8F-2"], False) is None


@pytest.mark.rule("C 28", "C 28.E")
def test_each_gun_fires_once_and_each_aircraft_is_fired_at_once_a_phase():
    g = game(available={"F8F": 2})
    st = g.state
    _sortie(g, "tactical", ["F8F-1"], "0910", "low")
    _sortie(g, "tactical", ["F8F-2"], "0911", "low")
    air.aa_fire(st, ["AA-37"], ["F8F-1"], False, ScriptedDice([6]), Resolution())
    with pytest.raises(RuleViolation, match="already fired"):
        air.aa_fire(st, ["AA-37"], ["F8F-2"], False, ScriptedDice([6]), Resolution())
    with pytest.raises(RuleViolation, match="already been fired at"):
        air.aa_fire(st, ["AA-50"], ["F8F-1"], False, ScriptedDice([6]), Resolution())


@pytest.mark.rule("C 28", "C 28.D", "C 31")
def test_take_off_fire_is_low_doubled_and_an_abort_is_a_kill():
    g = game(available={}, revetment={"F8F": 1})
    st = g.state
    gun = st.unit("AA-37")
    gun.hex = st.map.hex("1515")                                    # north-west of the runway end 1918
    assert air.in_takeoff_cone(st, gun.hex) and not air.in_takeoff_cone(st, st.map.hex("1921"))
    s = _sortie(g, "tactical", ["F8F-1"], "0910", "high")
    assert s.took_off == ["F8F-1"]
    res = Resolution()
    air.aa_fire(st, ["AA-37"], ["F8F-1"], True, ScriptedDice([3]), res)       # 4 x1 x2 = 8 v 4: 2/1, roll 3: A
    assert "x2 (take-off pattern) = 8" in res.text() and "shot down instead" in res.text()
    assert st.air.box["F8F-1"] == "shot_down"


@pytest.mark.rule("C 28", "C 28.A", "C 31")
def test_an_aborted_f8f_may_go_inverted_to_the_revetment_by_french_choice():
    g = game(available={"F8F": 1, "B26": 1})
    g.apply(EndPhase())
    g.apply(Fly("flak", ("F8F-1",), "0810", "low", "N"))
    g.apply(EndPhase())
    g.apply(AAFire(("AA-37",), ("F8F-1",)), ScriptedDice([5]))   # 8 v 4: 2/1, roll 5: A
    assert g.prompt.side == FR and g.prompt.rule == "C 28.A"
    from wargames.citadel.airplay import AbortTo
    g.apply(AbortTo("F8F-1", "revetment"))
    assert g.state.air.box["F8F-1"] == "revetment" and "F8F-1" in g.state.air.inverted
    st = g.state
    _s = Sortie("tactical", ["B26-1"], st.map.hex("0810"), "low", "N")
    st.air.sorties.append(_s)
    air.aa_fire(st, ["AA-50"], ["B26-1"], False, ScriptedDice([1]), Resolution())   # .50 at 0909: 4 v 6: 1/2, 1: A
    assert st.air.box["B26-1"] == "aborted"                           # a bomber has no revetment choice


# --------------------------------------------------------------------------- Dien Bien Phu airfield (C 31)

@pytest.mark.rule("C 31", "C 26.F")
def test_revetment_aircraft_fly_every_phase_and_choose_where_to_land():
    g = game(available={}, revetment={"F8F": 1})
    g.apply(EndPhase())
    g.apply(Fly("tactical", ("F8F-1",), "0419", "low", "N"))
    g.apply(EndPhase())
    g.apply(AirAttack("0419"), ScriptedDice([6]))
    assert g.prompt.rule == "C 31"
    g.apply(Land(("F8F-1",), "dbp"))
    assert g.state.air.box["F8F-1"] == "revetment"
    to_phase(g, "French turn: French air placement")
    assert air.may_fly(g.state, "F8F-1", "tactical") is None           # again in the French player turn
    assert "only against targets on the map" in air.may_fly(g.state, "F8F-1", "strategic")


@pytest.mark.rule("C 31")
def test_vietminh_fire_with_losses_on_the_revetment_destroys_aircraft_on_the_ground():
    from wargames.citadel.fire import resolve_fire
    g = game(available={}, revetment={"F8F": 2})
    st = g.state
    rev = air.revetment_hex(st)
    st.unit("1/3BT").hex = rev
    st.unit("1st Bn").hex = st.map.hex(st.label(rev)[:2] + "%02d" % (int(st.label(rev)[2:]) - 1))
    res = resolve_fire(st, ["1st Bn"], rev, ScriptedDice([1]))      # 14 SP adjacent: losses
    assert st.air.in_box("destroyed_on_ground")
    assert "destroyed on the ground" in res.text()


@pytest.mark.rule("C 31", "C 9")
def test_aircraft_alone_in_the_revetment_are_no_target():
    """Fire combat is against ground units (C 9): with no French ground unit in the revetment hex, the aircraft
    parked there cannot be fired at (our reading of C 31); with one there, the same fire is legal."""
    g = game(available={}, revetment={"F8F": 2})
    st = g.state
    rev = st.label(air.revetment_hex(st))
    st.unit("1st Bn").hex = st.map.hex("1916")                  # next to the revetment hex 1917
    st.unit("2/3BT").hex = st.map.hex("1915")                   # a French company it may fire at
    while not (g.phase.kind == "direct fire" and g.play_index is None and g.fire_side is Side.VIETMINH):
        g.apply(EndPhase())
    shot = Fire(("1st Bn",), rev)
    before = g.state_dict()
    with pytest.raises(RuleViolation, match="aircraft in the revetment") as e:
        g.apply(shot)
    assert e.value.rule == "C 9" and g.state_dict() == before
    assert shot not in g.legal_actions and Fire(("1st Bn",), "1915") in g.legal_actions
    g.state.unit("1/3BT").hex = g.state.map.hex(rev)             # a French company parks with the aircraft
    assert g.why_illegal(shot) is None


# --------------------------------------------------------------------------- availability, strikes, rotation

@pytest.mark.rule("C 30")
def test_transport_availability_commits_a_die_of_c47_and_half_a_die_of_c119():
    g = game(available={"C47": 8, "C119": 4})
    st = g.state
    air.transport_availability(st, ScriptedDice([3, 5]), Resolution())
    assert len(st.air.in_box("flown", "C47")) == 3 and len(st.air.in_box("flown", "C119")) == 2


@pytest.mark.rule("C 32", "C 30")
def test_strikes_double_the_c47_roll_and_ground_or_unhalve_the_c119():
    g = game(available={"C47": 12, "C119": 6})
    st = g.state
    st.date = dt.date(1954, 4, 19)
    air.strike_roll(st, ScriptedDice([]), Resolution())                 # no roll before April 20
    st.date = dt.date(1954, 4, 20)
    air.strike_roll(st, ScriptedDice([6, 5]), Resolution())             # Americans strike for 5 days
    assert st.air.strikes["american"] == 5 and st.air.strikes["american_day"] == 1
    assert "American pilots" in air.may_fly(st, "C119-1", "transport")
    for _ in range(3):
        st.date += dt.timedelta(days=1)
        air.strike_roll(st, ScriptedDice([6, 2] if _ == 2 else [1]), Resolution())
    assert st.air.strikes["american_day"] == 4 and st.air.strikes["french"] == 2
    assert air.may_fly(st, "C119-1", "transport") is None
    res = Resolution()
    air.transport_availability(st, ScriptedDice([2, 3]), res)
    assert len(st.air.in_box("flown", "C47")) == 4 and len(st.air.in_box("flown", "C119")) == 3
    st.date += dt.timedelta(days=1)
    air.strike_roll(st, ScriptedDice([]), Resolution())                 # after the French strike: no more rolls
    assert st.air.strikes["sixes"] == 2


@pytest.mark.rule("C 33")
def test_naval_rotation_on_may_1_swaps_sb2c_and_f6f_for_four_f4u():
    g = game(available={"SB2C": 2, "F6F": 1, "F8F": 1})
    air.naval_rotation(g.state, Resolution())
    boxes = g.state.air.box
    assert boxes["SB2C-1"] == boxes["F6F-1"] == "withdrawn" and boxes["F8F-1"] == "available"
    assert len(g.state.air.in_box("available", "F4U")) == 4


# --------------------------------------------------------------------------- no aircraft: no prompts

@pytest.mark.rule("C 25", "C 7")
def test_without_an_air_chart_or_with_nothing_able_to_fly_the_air_phases_pass_silently():
    g = Game.new("anne_marie")
    assert g.state.air is None
    res = g.apply(EndPhase())
    assert "C 26" not in res.text() and "air" not in g.state.phase
    g2 = game(available={}, unserviceable={"B26": 2})
    res = g2.apply(EndPhase())
    assert "C 26" not in res.text() and "air" not in g2.state.phase
    prompts = set()
    for _ in range(40):
        if g2.outcome() is not None or g2.state.phase == "aircraft maintenance":
            break
        prompts.add(g2.prompt.rule)
        g2.apply(EndPhase())
    assert not prompts & {"C 26", "C 26.E", "C 26.D", "C 28"}


@pytest.mark.rule("C 25", "C 27", "C 29", "C 30", "C 26", "C 28")
def test_random_play_of_the_air_demonstration_keeps_the_invariants():
    import random
    for seed in (0, 1):
        rng = random.Random(seed)
        g = Game.new("anne_marie_air", seed=seed)
        n = 0
        while g.outcome() is None and n < 400:
            la = list(g.legal_actions)
            ends = [a for a in la if isinstance(a, EndPhase)]
            g.apply(rng.choice(ends) if ends and rng.random() < 0.3 else rng.choice(la))
            n += 1
            assert not g.invariants()
        assert g.outcome() is not None
        assert g.replay().position() == g.position()


@pytest.mark.rule("C Air Chart")
def test_an_air_scenario_with_an_unknown_type_names_the_field(tmp_path):
    from wargames.citadel.airplay import load_air_scenario
    from wargames.citadel.examples import SCENARIOS
    doc = yamlc.safe_load((SCENARIOS / "anne_marie_air.yaml").read_text())
    doc["air"]["available"]["Spitfire"] = 1
    shutil.copy(SCENARIOS / "anne_marie.yaml", tmp_path / "anne_marie.yaml")
    (tmp_path / "bad.yaml").write_text(yamlc.safe_dump(doc))
    with pytest.raises(DataError) as e:
        load_air_scenario(tmp_path / "bad.yaml")
    assert e.value.field == "air.available.Spitfire"


@pytest.mark.rule("C 33", "C 29")
def test_the_may_1_maintenance_phase_brings_the_naval_rotation():
    g = game(available={"SB2C": 1, "F6F": 1})
    g.state.date = dt.date(1954, 4, 30)
    while g.state.date != dt.date(1954, 5, 1):
        g.apply(EndPhase())
    assert any("naval rotation: F6F-1, SB2C-1 leave play; F4U-1, F4U-2, F4U-3, F4U-4 arrive" in r.text()
               for r in g.resolutions)


@pytest.mark.rule("C 26.E", "C 6")
def test_personnel_may_not_land_in_a_hex_they_would_overstack():
    g = game(available={"C47": 2})
    g.state.units["1/6BPC"] = UnitState(_para(), None)
    to_phase(g, "supply and transport")
    st = g.state
    para = st.unit("1/6BPC")
    full = st.map.hex("1316")
    for u in st.on_board(Side.FRENCH):            # crowd 1316 until one more company would be too many
        if stacking_problem([*st.units_at(full, Side.FRENCH), para]) is None:
            if stacking_problem([*st.units_at(full, Side.FRENCH), u]) is None:
                u.hex = full
    assert stacking_problem([*st.units_at(full, Side.FRENCH), para])
    roomy = next(h for h in sorted({u.hex for u in st.on_board(Side.FRENCH)})
                 if not stacking_problem([*st.units_at(h, Side.FRENCH), para]))
    why = g.why_illegal(Drop(("C47-1",), st.label(full), "low", "N", "personnel", 2, "1/6BPC"))
    assert why is not None and why.rule == "C 6"
    assert g.why_illegal(Drop(("C47-1",), st.label(roomy), "low", "N", "personnel", 2, "1/6BPC")) is None


@pytest.mark.rule("C 28")
def test_a_gun_off_the_map_is_refused_and_nothing_changes():
    g = game(available={"F8F": 1})
    g.apply(EndPhase())
    g.apply(Fly("flak", ("F8F-1",), "0810", "low", "N"))
    g.apply(EndPhase())
    g.state.unit("AA-37").eliminated = True
    before = g.state_dict()
    why = g.why_illegal(AAFire(("AA-37",), ("F8F-1",)))
    assert why is not None and "not on the map" in why.reason
    with pytest.raises(RuleViolation):
        g.apply(AAFire(("AA-37",), ("F8F-1",)), ScriptedDice([5]))
    assert g.state_dict() == before
