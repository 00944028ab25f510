"""Indochina rule 15: supply points, lines of supply, and the logistical functions, on small test maps."""
import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import DataError, RuleViolation
from wargames.core.hexgrid import OffsetLayout
from wargames.core.mapdata import HexInfo, MapData
from wargames.indochina import Combat, Side, final_odds
from wargames.indochina.logistics import (Logistics, attack_enhancement, base_destroyed, check_airborne_supply,
                                          defense_enhancement, entrench, forced_march, friendly_units,
                                          land_airborne_supply, logistical_cost, los_limits, recover,
                                          supply_block, supply_multiplier, trace_los, ultimate_source)
from wargames.indochina.state import IndochinaState
from wargames.indochina.units import Counter
from wargames.indochina.zoc import zoc_hexes

COM, FEF = Side.COMMUNIST, Side.FEF
LAYOUT = OffsetLayout("even-q", 2, 2, "")


def sketch(cols=20, rows=9, roads=(), trails=(), cities=(), ports=(), china=(), terrain=None):
    """A clear rectangle; roads/trails/cities/ports/china are lists of labels; terrain maps label -> terrain."""
    hexes = {}
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            lab = f"{c:02d}{r:02d}"
            feats = {f for f, where in (("road", roads), ("trail", trails), ("city", cities), ("port", ports))
                     if lab in where}
            attrs = (("country", "China" if lab in china else "Vietnam"),)
            hexes[LAYOUT.to_hex(c, r)] = HexInfo((terrain or {}).get(lab, "clear"), frozenset(feats), attrs)
    return MapData("logistics test", "test", LAYOUT, hexes)


def row(r, c0, c1):
    return [f"{c:02d}{r:02d}" for c in range(c0, c1 + 1)]


def unit(uid, side, utype="regular infantry", size="group", s=6, m=6, ds=3, dm=3, **kw):
    return Counter(uid, side, utype, size, s, m, ds, dm, **kw)


def base(uid, side):
    return Counter(uid, side, "base", "group", 1, 0, 0, 0)


def road_position(*extra, monsoon=False, trails=False, disrupted=False):
    """An FEF base in a port at 0105 at the west end of a 20-hex road (or trail) along row 5."""
    route = row(5, 1, 20)
    m = sketch(roads=() if trails else route, trails=route if trails else (), ports=["0105"])
    st = IndochinaState.build(m, [(base("B", FEF), "0105"), *extra], monsoon=monsoon)
    st.unit("B").disrupted = disrupted
    return st


def reach(st, side, label, year=None):
    return trace_los(st, side, label, year).result is not None


@pytest.mark.rule("IC 15.21", "IC 15.2")
def test_fef_line_16_road_hexes_then_2_off_road():
    st = road_position()
    line = trace_los(st, FEF, "1705").result
    assert (line.road, line.off_road) == (16, 0)
    line = trace_los(st, FEF, "1905").result
    assert (line.road, line.off_road) == (16, 2) and line.base == "B"
    assert not reach(st, FEF, "2005")                 # 19 hexes down the road: 16 + 2 is the most
    assert reach(st, FEF, "1007")                     # two hexes off the road
    assert not reach(st, FEF, "1008")                 # three
    res = trace_los(st, FEF, "2005")
    assert res.result is None and "no line of supply" in res.steps[-1].text


@pytest.mark.rule("IC 15.21")
def test_fef_road_part_starts_at_the_base():
    """A base off the road supplies only its own off-road radius: the road part must start at the base."""
    m = sketch(roads=row(5, 3, 20), ports=["0105"])
    st = IndochinaState.build(m, [(base("B", FEF), "0105")])
    assert reach(st, FEF, "0305") and not reach(st, FEF, "0605")


@pytest.mark.rule("IC 15.21")
def test_disrupted_fef_base_eight_road_hexes_two_off():
    st = road_position(disrupted=True)
    assert los_limits(FEF, True, False) == (8, 2)
    assert reach(st, FEF, "0905") and reach(st, FEF, "1105")
    assert not reach(st, FEF, "1205")
    assert "disrupted" in trace_los(st, FEF, "1105").text()


@pytest.mark.rule("IC 26.3", "IC 15.21")
def test_monsoon_fef_one_off_road_and_no_trails():
    wet = road_position(monsoon=True)
    assert reach(wet, FEF, "1805") and not reach(wet, FEF, "1905")
    dry_trail, wet_trail = road_position(trails=True), road_position(trails=True, monsoon=True)
    assert reach(dry_trail, FEF, "1505")
    assert reach(wet_trail, FEF, "0205") and not reach(wet_trail, FEF, "0305")   # only the 1 off-road hex
    assert "no trails" in trace_los(wet_trail, FEF, "0205").text()


def communist_position(*extra, monsoon=False, disrupted=False, rows=9):
    m = sketch(rows=rows, cities=["0105"])
    st = IndochinaState.build(m, [(base("VB", COM), "0105"), *extra], monsoon=monsoon)
    st.unit("VB").disrupted = disrupted
    return st


@pytest.mark.rule("IC 15.22", "IC 26.3")
def test_communist_radius_six_three_disrupted_three_in_monsoon():
    st = communist_position()
    assert reach(st, COM, "0705") and not reach(st, COM, "0805")
    assert reach(communist_position(disrupted=True), COM, "0405")
    assert not reach(communist_position(disrupted=True), COM, "0505")
    assert reach(communist_position(monsoon=True), COM, "0405")
    assert not reach(communist_position(monsoon=True), COM, "0505")
    assert los_limits(COM, True, True) == (0, 3)


@pytest.mark.rule("IC 15.231", "IC 15.22")
def test_terrain_is_free_but_sea_enemy_units_and_china_block():
    mountains = {lab: "mountain" for lab in row(5, 2, 7)}
    st = IndochinaState.build(sketch(cities=["0105"], terrain=mountains), [(base("VB", COM), "0105")])
    assert reach(st, COM, "0705")                     # six mountain hexes cost six, like clear
    sea = {f"04{r:02d}": "all_sea" for r in range(1, 10)}
    st = IndochinaState.build(sketch(cities=["0105"], terrain=sea), [(base("VB", COM), "0105")])
    assert not reach(st, COM, "0505") and supply_block(st, COM, None, st.map.hex("0405")) == "an all-sea hex"
    lake = {f"04{r:02d}": "all_lake" for r in range(1, 10)}
    st = IndochinaState.build(sketch(cities=["0105"], terrain=lake), [(base("VB", COM), "0105")])
    assert reach(st, COM, "0505")
    china = [f"{c:02d}{r:02d}" for c in range(1, 21) for r in range(1, 5)]
    st = IndochinaState.build(sketch(ports=["0107"], roads=row(7, 1, 20), china=china), [(base("B", FEF), "0107")])
    assert reach(st, FEF, "0506") and not reach(st, FEF, "0504")
    assert "China" in supply_block(st, FEF, None, st.map.hex("0504"))
    st = road_position((unit("VM", COM), "0905"))
    assert "enemy units" in supply_block(st, FEF, None, st.map.hex("0905"))


@pytest.mark.rule("IC 11.6", "IC 15.23")
def test_enemy_zoc_blocks_unless_a_friendly_unit_is_there():
    vm = unit("VM", COM, size="regiment")
    st = road_position((vm, "1004"))
    zoc_road = sorted(h for h in zoc_hexes(st, st.unit("VM")) if st.has(h, "road"))
    assert zoc_road and not reach(st, FEF, "1505")
    assert "enemy ZOC" in supply_block(st, FEF, None, zoc_road[0])
    guards = [(unit(f"G{i}", FEF), st.label(h)) for i, h in enumerate(zoc_road)]
    st = road_position((vm, "1004"), *guards)
    assert reach(st, FEF, "1505")
    # remove one guard: the line is cut again
    st = road_position((vm, "1004"), *guards[1:])
    assert not reach(st, FEF, "1505")


@pytest.mark.rule("IC 15.24", "IC 15.241")
def test_bases_need_an_ultimate_source():
    m = sketch(roads=row(5, 1, 20), ports=["0105"], cities=["2005"])
    st = IndochinaState.build(m, [(base("B", FEF), "1005")])
    assert ultimate_source(st, FEF, st.map.hex("1005")).result is None      # port and city both empty
    assert not reach(st, FEF, "1105")
    st = IndochinaState.build(m, [(base("B", FEF), "1005"), (unit("P", FEF), "0105")])
    assert len(ultimate_source(st, FEF, st.map.hex("1005")).result) == 10  # any length is fine
    assert reach(st, FEF, "1105")
    # a wall of enemy ZOC between base and port cuts the base off (15.241)
    wall = [(unit(f"V{r}", COM), f"05{r:02d}") for r in range(1, 10, 2)]
    st = IndochinaState.build(m, [(base("B", FEF), "1005"), (unit("P", FEF), "0105"), *wall])
    assert ultimate_source(st, FEF, st.map.hex("1005")).result is None
    assert "cannot serve" in trace_los(st, FEF, "1105").text()


@pytest.mark.rule("IC 15.24")
def test_communist_china_edge_source_from_1950():
    china = [f"{c:02d}{r:02d}" for c in range(1, 21) for r in range(1, 3)]
    m = sketch(china=china, trails=["1001", "1002"])
    st = IndochinaState.build(m, [(base("VB", COM), "1008")])
    assert ultimate_source(st, COM, st.map.hex("1008"), year=1949).result is None
    assert ultimate_source(st, COM, st.map.hex("1008"), year=1950).result[-1] == st.map.hex("1001")
    assert reach(st, COM, "1006", year=1951) and not reach(st, COM, "1006", year=1948)


@pytest.mark.rule("IC 15.0", "IC 15.1", "IC 15.11")
def test_ledger_spending_and_overspending():
    lg = Logistics({FEF: 3})
    assert lg.points[COM] == 0
    st = road_position((unit("GM", FEF), "0505"))
    attack_enhancement(st, lg, FEF, "0505")
    assert lg.points[FEF] == 2
    with pytest.raises(RuleViolation) as e:
        Logistics({FEF: 0}).spend(FEF, 1, "IC 15.11", "a test", None)
    assert e.value.rule == "IC 15.11" and "holds only 0" in e.value.reason
    with pytest.raises(DataError):
        Logistics({FEF: -1})


@pytest.mark.rule("IC 15.3", "IC 15.4")
def test_costs_and_multiplier():
    assert [logistical_cost(f) for f in ("entrench", "forced march", "attack", "defense", "recovery")] == [1] * 5
    assert logistical_cost("recovery", in_enemy_zoc=True) == 2
    assert supply_multiplier(False) == 1 and supply_multiplier(True) == 2
    with pytest.raises(DataError):
        logistical_cost("bribe")


@pytest.mark.rule("IC 15.32", "IC 9.4")
def test_forced_march_one_point_per_hex_and_needs_a_line():
    st = road_position((unit("A", FEF, m=6), "0505"), (unit("C", FEF, m=8), "0505"), (unit("far", FEF), "2005"))
    lg = Logistics({FEF: 1})
    res = forced_march(st, lg, FEF, "0505")
    assert res.result == {"A": 12, "C": 16} and lg.points[FEF] == 0
    with pytest.raises(RuleViolation) as e:
        forced_march(st, Logistics({FEF: 5}), FEF, "2005")
    assert e.value.rule == "IC 9.4"
    with pytest.raises(RuleViolation) as e:
        forced_march(st, lg, FEF, "0505")                   # no point left
    assert e.value.rule == "IC 15.32"


@pytest.mark.rule("IC 15.34", "IC 15.35", "IC 13.23")
def test_enhancement_doubles_one_hex_for_one_combat():
    st = road_position((unit("A", FEF, s=6), "0505"), (unit("C", FEF, s=3), "0505"))
    lg = Logistics({FEF: 2})
    res = attack_enhancement(st, lg, FEF, "0505")
    assert res.result["strength"] == 18 and lg.points[FEF] == 1
    res = defense_enhancement(st, lg, FEF, "0505")
    assert res.result["units"] == ["A", "C"] and lg.points[FEF] == 0
    _, _, combat = final_odds(Combat(FEF, (6, 3), (9,), attack_enhanced=True))
    assert any("18" in s.text for s in combat.find("IC 13.23"))
    with pytest.raises(RuleViolation) as e:
        defense_enhancement(st, lg, FEF, "0505")
    assert e.value.rule == "IC 15.35"


@pytest.mark.rule("IC 14.5", "IC 14.51", "IC 15.36")
def test_recovery_costs_one_or_two_in_enemy_zoc():
    st = road_position((unit("A", FEF), "0505"), (unit("Z", FEF), "0805"), (unit("VM", COM), "0804"))
    for uid in ("A", "Z"):
        st.unit(uid).disrupted = True
    lg = Logistics({FEF: 3})
    recover(st, lg, "A")
    assert not st.unit("A").disrupted and lg.points[FEF] == 2
    res = recover(st, lg, "Z")
    assert lg.points[FEF] == 0 and res.find("IC 14.51")[0].result == 2
    with pytest.raises(RuleViolation) as e:
        recover(st, lg, "Z")                                # no longer disrupted
    assert e.value.rule == "IC 15.36"


@pytest.mark.rule("IC 15.36", "IC 14.51")
def test_recovery_overspending_leaves_the_unit_disrupted():
    st = road_position((unit("Z", FEF), "0805"), (unit("VM", COM), "0804"))
    st.unit("Z").disrupted = True
    lg = Logistics({FEF: 1})
    with pytest.raises(RuleViolation) as e:
        recover(st, lg, "Z")
    assert e.value.rule == "IC 15.36" and "costs 2" in e.value.reason
    assert st.unit("Z").disrupted and lg.points[FEF] == 1


@pytest.mark.rule("IC 14.51")
def test_light_units_ignore_heavy_zoc_for_recovery():
    heavy = unit("mech", FEF, "mechanized")
    st = communist_position((unit("VM", COM), "0305"), (heavy, "0405"))
    st.unit("VM").disrupted = True
    lg = Logistics({COM: 1})
    res = recover(st, lg, "VM")
    assert lg.points[COM] == 0 and "does not count" in res.text()
    light = unit("lt", FEF, "light infantry")
    st = communist_position((unit("VM", COM), "0305"), (light, "0405"))
    st.unit("VM").disrupted = True
    with pytest.raises(RuleViolation):
        recover(st, Logistics({COM: 1}), "VM")                 # a Light enemy's ZOC counts: 2 points
    recover(st, lg2 := Logistics({COM: 2}), "VM")
    assert lg2.points[COM] == 0


@pytest.mark.rule("IC 15.9", "IC 14.51")
def test_disrupted_base_recovers_itself():
    st = road_position(disrupted=True)
    lg = Logistics({FEF: 1})
    res = recover(st, lg, "B")
    assert res.find("IC 15.9") and not st.unit("B").disrupted
    assert reach(st, FEF, "1905")                       # back to 16 + 2
    cut = IndochinaState.build(sketch(ports=["0105"]), [(base("B", FEF), "1005")])
    cut.unit("B").disrupted = True
    with pytest.raises(RuleViolation):
        recover(cut, Logistics({FEF: 1}), "B")            # no ultimate source: no line, no recovery


@pytest.mark.rule("IC 15.31", "IC 16.1")
def test_entrench_needs_a_unit_a_line_and_a_point():
    st = road_position((unit("A", FEF), "0505"), (unit("far", FEF), "0509"))
    lg = Logistics({FEF: 2})
    entrench(st, lg, FEF, "0505")
    assert st.map.hex("0505") in lg.fortifications and lg.points[FEF] == 1
    with pytest.raises(RuleViolation) as e:
        entrench(st, lg, FEF, "0506")
    assert e.value.rule == "IC 16.1"
    with pytest.raises(RuleViolation) as e:
        entrench(st, lg, FEF, "0505")
    assert e.value.rule == "IC 16.2"
    with pytest.raises(RuleViolation) as e:
        entrench(st, lg, FEF, "0509")                       # four hexes off the road
    assert e.value.rule == "IC 15.31"


@pytest.mark.rule("IC 15.5")
def test_allies_share_supply():
    vna = unit("VNA", FEF, nationality="VNA")
    st = road_position((vna, "0505"), (unit("Fr", FEF, nationality="French"), "0505"))
    st.unit("VNA").disrupted = True
    lg = Logistics({FEF: 1})
    recover(st, lg, "VNA")
    assert lg.points[FEF] == 0
    assert {u.id for u in friendly_units(st, FEF, st.map.hex("0505"))} == {"VNA", "Fr"}


@pytest.mark.rule("IC 15.6")
def test_base_destroyed_loss_and_capture():
    st = road_position()
    lg = Logistics({FEF: 10, COM: 0})
    res = base_destroyed(st, lg, "B", ScriptedDice([5]), land_combat=True, enemy_advanced=True)
    assert res.result == {"roll": 5, "lost": 5, "captured": 3} and lg.points == {FEF: 5, COM: 3}
    assert st.unit("B").eliminated
    st = road_position()
    lg = Logistics({FEF: 3})
    res = base_destroyed(st, lg, "B", ScriptedDice([6]), land_combat=True, enemy_advanced=True)
    assert res.result == {"roll": 6, "lost": 3, "captured": 2} and lg.points[FEF] == 0
    st = road_position()
    lg = Logistics({FEF: 4})
    res = base_destroyed(st, lg, "B", ScriptedDice([4]), land_combat=False, enemy_advanced=True)
    assert res.result["captured"] == 0 and lg.points == {FEF: 0, COM: 0}
    st = road_position((unit("A", FEF), "0505"))
    with pytest.raises(RuleViolation):
        base_destroyed(st, lg, "A", ScriptedDice([1]))


@pytest.mark.rule("IC 15.7", "IC 15.73", "IC 15.74")
def test_airborne_supply_serves_its_own_hex_once():
    # a hex far beyond any line of supply
    st = road_position((unit("para", FEF, "airborne infantry"), "1009"), (unit("A", FEF), "1009"))
    lg = Logistics({FEF: 0})
    land_airborne_supply(st, lg, "AS1", FEF, "1009", player_turn=1)
    with pytest.raises(RuleViolation):
        defense_enhancement(st, lg, FEF, "1009")            # no line and no points
    res = defense_enhancement(st, lg, FEF, "1009", airborne="AS1")
    assert res.result["strength"] == 24 and lg.airborne == []
    land_airborne_supply(st, lg, "AS2", FEF, "1009", player_turn=1)
    with pytest.raises(RuleViolation) as e:
        attack_enhancement(st, lg, FEF, "0505", airborne="AS2")   # not its hex (and nobody there)
    st.unit("para").disrupted = True
    recover(st, lg, "para", airborne="AS2")
    assert not st.unit("para").disrupted and lg.points[FEF] == 0
    land_airborne_supply(st, lg, "AS3", FEF, "1009", player_turn=1)
    entrench(st, lg, FEF, "1009", airborne="AS3")
    assert st.map.hex("1009") in lg.fortifications


@pytest.mark.rule("IC 15.74", "IC 15.75")
def test_airborne_supply_expires_or_is_lost():
    st = road_position((unit("A", FEF), "1009"), (unit("B2", FEF), "1209"))
    lg = Logistics()
    land_airborne_supply(st, lg, "AS1", FEF, "1009", player_turn=3)
    land_airborne_supply(st, lg, "AS2", FEF, "1209", player_turn=3)
    assert check_airborne_supply(st, lg, player_turn=3, end_of_turn=True).result == ["AS1", "AS2"]
    st.unit("B2").eliminated = True                           # 15.75: nobody left in the hex
    assert check_airborne_supply(st, lg).result == ["AS1"]
    res = check_airborne_supply(st, lg, player_turn=4, end_of_turn=True)
    assert res.result == [] and res.find("IC 15.74")


def _set_up(scenario: str, seed: int):
    """A rulebook scenario's position after a random legal set-up on the reconstructed map."""
    import random
    from wargames.indochina import Game
    g, rng = Game.new(scenario, seed=seed), random.Random(seed)
    while g.deploy is not None:
        g.apply(rng.choice(list(g.legal_actions)))
    return g.state


@pytest.mark.rule("IC 15.2", "IC 15.21", "IC 15.22")
def test_supplied_hexes_agrees_with_trace_los_on_every_hex_of_the_real_map():
    from wargames.indochina.logistics import supplied_hexes, trace_los
    st = _set_up("scenario1", 5)
    for side in Side:
        found = supplied_hexes(st, side, 1950)
        near = {n for h in found for n in st.map.neighbors(h)} | found
        for h in sorted(near, key=st.label)[:400]:
            assert (trace_los(st, side, h, 1950).result is not None) == (h in found), st.label(h)


@pytest.mark.rule("IC 15.24", "IC 15.241")
def test_the_source_region_agrees_with_ultimate_source_for_every_hex_a_base_could_stand_in():
    from wargames.indochina.logistics import source_region, ultimate_source
    st = _set_up("scenario2", 6)
    for side in Side:
        region = source_region(st, side, 1954)
        sample = sorted(st.map.hexes, key=st.label)[::7]
        for h in sample:
            assert (ultimate_source(st, side, h, 1954).result is not None) == (h in region), (side, st.label(h))
