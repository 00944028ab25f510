"""Golden tests: every printed worked example of Citadel Rules 1-10, with exact inputs and every stated number.

The Movement Example (C 8) gives paths, vulnerability points and the pin outcome but no dice, positions or
battery assignment; PRINTED_DICE and PRINTED_ASSIGNMENT are one reading that reproduces every stated fact.
"""
from fractions import Fraction

import pytest

from wargames.citadel import CitadelState, Counter, Side, UnitClass
from wargames.citadel.charts import default_charts, load_fire_crt
from wargames.citadel.examples import (BATTERIES, PRINTED_ASSIGNMENT, PRINTED_DICE, anne_marie_setup,
                                       replay_movement_example)
from wargames.citadel.fire import allocate_losses, fire_strength, resolve_fire, terrain_shift, take_loss
from wargames.citadel.movement import MovementPhase
from wargames.citadel.stacking import stacking_problem
from wargames.citadel.units import UnitState
from wargames.core import Hex, Resolution, ScriptedDice, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.core.mapdata import MapData, HexInfo
from wargames.core.hexgrid import OffsetLayout


@pytest.fixture
def run():
    with ScriptedDice(PRINTED_DICE, source="C 8 Movement Example dice") as dice:
        r = replay_movement_example(dice)
    return r


# ---------------------------------------------------------------- C 8 Movement Example

@pytest.mark.rule("C 8")
def test_paths_and_first_vulnerability_points(run):
    s = run.phase.summary()
    assert s["1st Bn"]["path"][:3] == ["1010", "1111", "1112"]
    assert s["2nd Bn"]["path"] == ["1011", "1112", "1113"]
    assert s["3rd Bn"]["path"] == ["0814", "0915", "1015"]
    assert s["4th Bn"]["path"][:3] == ["0519", "0618", "0718"]
    first = {u: s[u]["vps"][0] for u in s}
    assert {u: v["hex"] for u, v in first.items()} == {"1st Bn": "1112", "2nd Bn": "1113", "3rd Bn": "1015", "4th Bn": "0718"}
    for v in first.values():  # "in each case the third clear terrain hex entered"
        assert v["reasons"] == ["clear hex #3: every third clear hex (C 8 item 1)"]


@pytest.mark.rule("C 8")
def test_second_battalion_passes_through_the_paused_first():
    st = anne_marie_setup()
    ph = MovementPhase(st, Side.VIETMINH)
    ph.move("1st Bn", ["1010", "1111", "1112"])
    res = ph.move("2nd Bn", ["1011", "1112", "1113"])   # 1112 holds the (unpinned) paused 1st Bn
    assert res.result["status"] == {"2nd Bn": "paused"}


@pytest.mark.rule("C 8", "C 9")
def test_first_round_of_opportunity_fire(run):
    r1 = [s for s in run.shots if s["round"] == 1]
    # Three 105mm batteries and one 120mm battery fire, each at one battalion.
    assert sorted(s["firer"] for s in r1) == ["105-A", "105-B", "105-C", "120-A"]
    assert len({s["target"] for s in r1}) == 4
    assert [(s["firer"], s["target"], s["hex"], s["column"], s["roll"], s["code"]) for s in r1] == [
        ("105-A", "1st Bn", "1112", "11-14", 6, "-"),
        ("105-B", "2nd Bn", "1113", "11-14", 2, "2P"),
        ("105-C", "3rd Bn", "1015", "11-14", 3, "2P"),
        ("120-A", "4th Bn", "0718", "7-8", 4, "-"),
    ]
    # "the second and third Vietminh battalions are pinned. The first and fourth are not."
    assert {s["target"]: s["pinned"] for s in r1} == {"1st Bn": False, "2nd Bn": True, "3rd Bn": True, "4th Bn": False}


@pytest.mark.rule("C 8", "C 5")
def test_first_battalion_rerouted_and_stops_in_zoc_without_vp(run):
    s = run.phase.summary()["1st Bn"]
    assert run.barred == [("1st Bn", "1113", "1113 holds the pinned unit 2nd Bn; no unit may enter a hex containing a pinned unit")]
    assert s["path"] == ["1010", "1111", "1112", "1212", "1313", "1413"]
    assert s["end"] == "entered an enemy zone of control"
    assert [v["hex"] for v in s["vps"]] == ["1112"]          # 1413 (clear hex #6) is no VP: French ZOC
    zoc_note = [st.text for st in run.log.steps if st.text.startswith("1413 would be a VP")]
    assert zoc_note and "clear hex #6" in zoc_note[0] and "2/3BT" in zoc_note[0] and "exception 3" in zoc_note[0]
    entered = [st for st in run.log.steps if st.text.startswith("1st Bn enters")]
    assert [st.inputs["clear_count"] for st in entered] == [1, 2, 3, 4, 5, 6]


@pytest.mark.rule("C 8")
def test_fourth_battalion_pauses_again_and_is_pinned(run):
    s = run.phase.summary()["4th Bn"]
    assert s["path"] == ["0519", "0618", "0718", "0817", "0917", "1017"]
    assert [(v["hex"], v["number"]) for v in s["vps"]] == [("0718", 1), ("1017", 2)]
    assert s["vps"][1]["reasons"] == ["clear hex #6: every third clear hex (C 8 item 1)"]
    r2 = [x for x in run.shots if x["round"] == 2]
    # "The remaining French 120mm mortar battery fires at the fourth battalion and pins it."
    assert [(x["firer"], x["target"], x["hex"], x["column"], x["roll"], x["code"], x["pinned"]) for x in r2] == [
        ("120-B", "4th Bn", "1017", "7-8", 1, "2P", True)]


@pytest.mark.rule("C 8", "C 9.5")
def test_closing_checks(run):
    st = run.phase.state
    # "Vietminh movement is now over, as all units have either been pinned or moved into a zone of control."
    assert run.phase.finished
    assert {u: st.unit(u).pinned for u in ("1st Bn", "2nd Bn", "3rd Bn", "4th Bn")} == {
        "1st Bn": False, "2nd Bn": True, "3rd Bn": True, "4th Bn": True}
    # No unit fired at more than once at any single VP; no French unit fired twice in the phase.
    vps = [(x["target"], x["hex"]) for x in run.shots]
    assert len(vps) == len(set(vps)) == 5
    firers = [x["firer"] for x in run.shots]
    assert sorted(firers) == sorted(BATTERIES)
    # The 4th battalion was fired at twice, by two units at two VPs.
    fourth = [x for x in run.shots if x["target"] == "4th Bn"]
    assert len(fourth) == 2 and len({x["firer"] for x in fourth}) == 2 and len({x["hex"] for x in fourth}) == 2


@pytest.mark.rule("C 8")
def test_the_example_is_consistent_with_the_map():
    st = anne_marie_setup()
    m = st.map
    path_hexes = ["1010", "1111", "1112", "1011", "1113", "0814", "0915", "1015", "0519", "0618", "0718",
                  "0817", "0917", "1017", "1212", "1313", "1413"]
    assert all(m.terrain(m.hex(h)) == "clear" and not m.info(m.hex(h)).features for h in path_hexes)
    for u in ("1st Bn", "2nd Bn", "3rd Bn", "4th Bn"):
        assert m.terrain(st.unit(u).hex) == "full_jungle"
    for h, name in (("1316", "AM-1"), ("1414", "AM-2")):
        info = m.info(m.hex(h))
        assert "strongpoint" in info.features and info.attr("strongpoint") == name
        outside = [n for n in m.hex(h).neighbors() if m.info(n).attr("strongpoint") != name]
        assert all("barbed_wire" in m.side(m.hex(h), n) for n in outside)
    # Batteries are south-east of Anne-Marie and in range of every VP they fire at.
    _, ranges, _ = default_charts()
    am = m.hex("1316")
    for b in BATTERIES:
        bh = st.unit(b).hex
        col, row = m.layout.to_offset(bh)
        assert col > 13 and row > 16
    with ScriptedDice(PRINTED_DICE) as d:
        run = replay_movement_example(d)
    for shot in run.shots:
        rng = st.unit(shot["firer"]).hex.distance(m.hex(shot["hex"]))
        key = "howitzer_105" if shot["firer"].startswith("105") else "mortar_120"
        assert rng <= ranges.max_range(key)


@pytest.mark.rule("C 8")
def test_exact_pin_chances_of_the_printed_shots():
    """Enumeration runs the same opportunity-fire code as the replay, over all six dice."""
    def shot(dice, firer, target):
        st = anne_marie_setup()
        ph = MovementPhase(st, Side.VIETMINH)
        for uid, leg in {"1st Bn": ["1010", "1111", "1112"], "2nd Bn": ["1011", "1112", "1113"]}.items():
            ph.move(uid, leg)
        ph.end_moves()
        return ph.opportunity_fire(firer, target, dice).result["code"]
    dist = enumerate_outcomes(shot, "105-A", "1st Bn")
    assert dist.prob(lambda c: "P" in c) == Fraction(1, 2)
    assert sum(dist.values()) == 1


# ---------------------------------------------------------------- C 9 examples

def _tiny_map(terrain: str) -> MapData:
    lay = OffsetLayout()
    hexes = {lay.to_hex(c, r): HexInfo(terrain if (c, r) == (10, 10) else "clear") for c in range(1, 25) for r in range(1, 25)}
    return MapData("test map", "north", lay, hexes)


def _battery(i: int) -> Counter:
    return Counter(f"105-{i}", Side.FRENCH, UnitClass.HEAVY_WEAPONS, f"105mm battery {i}", 4,
                   size="company", type="howitzer", ordnance="105")


def _vm_battalion() -> Counter:
    return Counter("VM Bn", Side.VIETMINH, UnitClass.INFANTRY, "battalion", 14, size="battalion", type="infantry",
                   parent="R", morale=4, reduced_strength=9, reduced_morale=3)


@pytest.mark.rule("C 9", "C 13")
def test_fire_example_three_105s_at_nine_hexes():
    """3 batteries x 4 SP, range 9 (x3) = 36 -> 31-40; target in full jungle -2 -> 19-22."""
    m = _tiny_map("full_jungle")
    target = m.hex("1010")
    spots = [h for h in (m.hex("1910"), m.hex("1911"), m.hex("1909")) if h.distance(target) == 9]
    assert len(spots) == 3
    st = CitadelState.build(m, [(_battery(i), m.label(h)) for i, h in enumerate(spots)] + [(_vm_battalion(), "1010")])
    res = Resolution()
    assert fire_strength(st, ["105-0", "105-1", "105-2"], target, res) == 36
    assert [s.result for s in res.steps[:3]] == [12, 12, 12]
    assert all(s.inputs["multiplier"] == 3 and s.inputs["range"] == 9 for s in res.steps[:3])
    crt, _, _ = default_charts()
    col = crt.column_for(36)
    assert crt.columns[col].label == "31-40"
    shift = terrain_shift(st, target, Resolution())
    assert shift == -2
    assert crt.columns[crt.shift(col, shift)[0]].label == "19-22"
    with ScriptedDice([4]) as d:
        out = resolve_fire(st, ["105-0", "105-1", "105-2"], target, d)
    assert out.result["column"] == "19-22"
    assert any("31-40 shifted -2 -> 19-22" in s.text for s in out.steps)


@pytest.mark.rule("C 9", "C 22")
def test_fire_example_with_one_battery_firing_fewer_points():
    """The C 9 example with 105-0 firing 2 of its 4 SP (C 22): 2 x 3 + 12 + 12 = 30; the others fire all."""
    m = _tiny_map("full_jungle")
    spots = ("1910", "1911", "1909")
    st = CitadelState.build(m, [(_battery(i), h) for i, h in enumerate(spots)] + [(_vm_battalion(), "1010")])
    assert fire_strength(st, ["105-0", "105-1", "105-2"], m.hex("1010"), Resolution(), {"105-0": 2}) == 30


@pytest.mark.rule("C 9")
def test_one_battery_of_the_fire_example_states_no_total():
    m = _tiny_map("full_jungle")
    st = CitadelState.build(m, [(_battery(0), "1910"), (_vm_battalion(), "1010")])
    res = Resolution()
    assert fire_strength(st, ["105-0"], m.hex("1010"), res) == 12
    assert len(res.steps) == 1 and "total" not in res.text()          # a total is stated only for several units


@pytest.mark.rule("C 9")
def test_a_battery_beyond_its_longest_range_cannot_fire():
    m = _tiny_map("clear")
    mortar = Counter("81-A", Side.FRENCH, UnitClass.HEAVY_WEAPONS, "81mm mortars", 3, size="company",
                     type="infantry weapons", ordnance="81")
    st = CitadelState.build(m, [(mortar, "2110"), (_vm_battalion(), "1010")])   # 11 hexes; 81mm reach 10
    with pytest.raises(RuleViolation, match="cannot reach 11 hexes"):
        fire_strength(st, ["81-A"], m.hex("1010"), Resolution())


@pytest.mark.rule("C 13", "C 18")
@pytest.mark.parametrize("works", ["trench", "weapons_pit"])
def test_a_trench_lowers_the_fire_column_by_two(works):
    st = CitadelState.build(_tiny_map("clear"), [(_vm_battalion(), "1010")])
    target = st.map.hex("1010")
    assert terrain_shift(st, target, Resolution()) == 0
    st.works[target] = works                                            # a pit counts as a trench (C 18)
    assert terrain_shift(st, target, Resolution()) == -2


@pytest.mark.rule("C 9.1", "C 9.2")
def test_loss_cap_example_lone_company_on_9_10_roll_2():
    """A French company fired on at 9-10, roll 2 = two losses: it takes only one."""
    crt, _, _ = default_charts()
    assert crt.lookup(crt.index("9-10"), 2).value.losses == 2
    company = Counter("Coy", Side.FRENCH, UnitClass.INFANTRY, "company", 3, size="company", type="infantry",
                      parent="6BPC", morale=4, reduced_strength=2, reduced_morale=3)
    st = CitadelState.build(_tiny_map("clear"), [(company, "1010")])
    res = Resolution()
    with ScriptedDice([]) as d:
        allocate_losses(st, [st.unit("Coy")], 2, Side.VIETMINH, d, res, small_arms_only=True)
    assert st.unit("Coy").inverted and st.unit("Coy").strength == 2
    void = res.find("C 9.2")[0]
    assert void.result == 1 and "the other 1 have no effect" in void.text


@pytest.mark.rule("C 9.1", "C 9.2", "C 19.C")
def test_loss_cap_example_with_a_tank_beside_the_company_under_small_arms():
    """The same two small-arms losses on the company and a tank: the tank takes none (C 19.C), the company one."""
    company = Counter("Coy", Side.FRENCH, UnitClass.INFANTRY, "company", 3, size="company", type="infantry",
                      parent="6BPC", morale=4, reduced_strength=2, reduced_morale=3)
    tank = Counter("Conti", Side.FRENCH, UnitClass.TANK, "Conti", 3, type="tank", morale_modifier=3)
    st = CitadelState.build(_tiny_map("clear"), [(company, "1010"), (tank, "1010")])
    res = Resolution()
    with ScriptedDice([]) as d:
        assert allocate_losses(st, [st.unit("Coy"), st.unit("Conti")], 2, Side.VIETMINH, d, res,
                               small_arms_only=True) is None
    assert st.unit("Coy").inverted and not st.unit("Conti").disabled
    assert res.find("C 9.2")[0].result == 1


@pytest.mark.rule("C 9.1")
def test_only_vietminh_battalions_take_more_than_one_loss():
    """C 9.1 names Vietminh infantry battalions alone: a French battalion-sized counter takes one loss a phase."""
    french = Counter("FR Bn", Side.FRENCH, UnitClass.INFANTRY, "battalion", 14, size="battalion", type="infantry",
                     parent="FR Bn", morale=4, reduced_strength=9, reduced_morale=3)
    st = CitadelState.build(_tiny_map("clear"), [(french, "1010")])
    res = Resolution()
    with ScriptedDice([]) as d:
        allocate_losses(st, [st.unit("FR Bn")], 3, Side.VIETMINH, d, res, small_arms_only=False)
    assert st.unit("FR Bn").losses == 1 and "the other 2 have no effect" in res.find("C 9.2")[0].text


@pytest.mark.rule("C 9.3")
def test_battalion_critical_loss_level_example():
    """A battalion with a 4-loss marker loses one more step: marker removed, counter inverted."""
    st = CitadelState.build(_tiny_map("clear"), [(_vm_battalion(), "1010")])
    u = st.unit("VM Bn")
    u.losses = 4
    res = Resolution()
    with ScriptedDice([]) as d:
        take_loss(st, u, d, res)
    assert u.inverted and u.losses == 0 and u.strength == 9 and u.morale == 3
    assert res.find("C 9.3")


@pytest.mark.rule("C 9.1", "C 9.3", "C 9.4")
def test_battalion_of_the_example_takes_at_most_its_strength_in_one_fire():
    """The battalion with a 4-loss marker (10 SP left) can take one step to its critical level and then the
    reverse's 9: 10 of 11 losses, the last has no effect."""
    st = CitadelState.build(_tiny_map("clear"), [(_vm_battalion(), "1010")])
    u = st.unit("VM Bn")
    u.losses = 4
    res = Resolution()
    with ScriptedDice([]) as d:
        assert allocate_losses(st, [u], 11, Side.FRENCH, d, res, small_arms_only=False) is None
    assert u.eliminated and "the other 1 have no effect" in res.find("C 9.2")[0].text


@pytest.mark.rule("C 6", "C 6.1")
def test_stacking_example_six_bpc():
    """All companies of one battalion may stack, plus six weapons units plus ten tanks (limits add)."""
    coys = [Counter(f"{i}/6BPC", Side.FRENCH, UnitClass.INFANTRY, f"company {i}", 3, size="company", type="paratroopers",
                    parent="6BPC", morale=4, reduced_strength=2, reduced_morale=3) for i in range(1, 5)]
    weapons = [Counter(f"W{i}", Side.FRENCH, UnitClass.HEAVY_WEAPONS, "mortars", 3, size="company",
                       type="infantry weapons", ordnance="81") for i in range(6)]
    tanks = [Counter(f"T{i}", Side.FRENCH, UnitClass.TANK, f"tank {i}", 3, morale_modifier=3) for i in range(10)]
    units = [UnitState(c) for c in coys + weapons + tanks]
    assert stacking_problem(units) is None
    extra = UnitState(Counter("W6", Side.FRENCH, UnitClass.HEAVY_WEAPONS, "mortars", 3, size="company",
                              type="infantry weapons", ordnance="81"))
    assert "exceed the limit of 6" in stacking_problem(units + [extra])
