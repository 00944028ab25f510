"""Unit tests for Citadel Rules 2 and 4-10 (plus the parts of 13 and 19.C that they use).

Each test states the rule it checks with ``@pytest.mark.rule``. Most use small synthetic maps (clear
terrain with a few special hexes) so that the one fact under test is the only thing that varies.
Hex labels are the printed XXYY form, "even-q" layout: walking down one column (1001, 1002, ...) always
steps to an adjacent hex.
"""
from __future__ import annotations

import datetime as dt
import functools
from collections import Counter as Tally

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from wargames.citadel import CitadelState, Counter, Side, UnitClass, UnitState
from wargames.citadel.charts import default_charts
from wargames.citadel.examples import BATTERIES, FIRST_LEGS, anne_marie_setup, replay_movement_example
from wargames.citadel.fire import FirePhase, allocate_losses, settle_forced, take_pick, fire_strength, resolve_fire, take_loss, terrain_shift
from wargames.citadel.fire_types import (HMG, HOWITZER, MORTAR, RECOILLESS, SMALL_ARMS, fire_mode, line_of_sight,
                                         spotted, weapon_type)
from wargames.citadel.movement import MovementPhase
from wargames.citadel.sequence import SEQUENCE, CitadelGame, next_phase, phase_named
from wargames.citadel.stacking import check_stacking, stacking_problem
from wargames.citadel.terrain import MONSOON_DATE, effective_terrain
from wargames.citadel.units import load_counters
from wargames.citadel.zoc import zone_of_control
from wargames.core import Hex, RandomDice, Resolution, ScriptedDice, enumerate_outcomes
from wargames.core.errors import DataError, RuleViolation
from wargames.core.hexgrid import OffsetLayout, hexside
from wargames.core.mapdata import HexInfo, MapData, SideInfo

LAY = OffsetLayout()
VM, FR = Side.VIETMINH, Side.FRENCH


# ====================================================================== helpers

def _map(special: dict | None = None, sides: dict | None = None, cols=range(1, 21), rows=range(1, 21)) -> MapData:
    """A clear map with some special hexes.

    ``special`` maps a label to a terrain name, or to (terrain, features) or (terrain, features, attrs).
    ``sides`` maps a pair of labels to a set of hexside features.
    """
    special = special or {}
    hexes = {}
    for c in cols:
        for r in rows:
            lab = f"{c:02d}{r:02d}"
            spec = special.get(lab, "clear")
            if isinstance(spec, str):
                spec = (spec,)
            spec = tuple(spec)
            terrain = spec[0]
            feats = spec[1] if len(spec) > 1 else ()
            attrs = spec[2] if len(spec) > 2 else {}
            hexes[LAY.parse(lab)] = HexInfo(terrain, frozenset(feats), tuple(sorted(attrs.items())))
    m = MapData("synthetic test map", "north", LAY, hexes)
    for (a, b), feats in (sides or {}).items():
        m.hexsides[hexside(LAY.parse(a), LAY.parse(b))] = SideInfo(frozenset(feats))
    return m


def _coy(uid: str, side: Side = FR, parent: str | None = "BN1", strength: int = 3) -> Counter:
    return Counter(uid, side, UnitClass.INFANTRY, f"company {uid}", strength, size="company", type="infantry",
                   parent=parent, morale=4, reduced_strength=2, reduced_morale=3)


def _bn(uid: str, side: Side = VM, regiment: str | None = None) -> Counter:
    return Counter(uid, side, UnitClass.INFANTRY, f"battalion {uid}", 14, size="battalion", type="infantry",
                   parent=uid, morale=4, reduced_strength=9, reduced_morale=3, regiment=regiment)


def _weapon(uid: str, side: Side = FR, type: str = "howitzer", ordnance: str = "105", strength: int = 4,
            regiment: str | None = None) -> Counter:
    return Counter(uid, side, UnitClass.HEAVY_WEAPONS, f"{ordnance} {type} {uid}", strength, size="company",
                   type=type, ordnance=ordnance, regiment=regiment)


def _tank(uid: str) -> Counter:
    return Counter(uid, FR, UnitClass.TANK, f"tank {uid}", 3, morale_modifier=3)


def _state(m: MapData, placements, date: dt.date = dt.date(1954, 3, 20), phase: str = "VM movement") -> CitadelState:
    return CitadelState.build(m, placements, date=date, phase=phase)


def _h(label: str) -> Hex:
    return LAY.parse(label)


def _vm_mover(special=None, sides=None, extra=(), date=dt.date(1954, 3, 20), start="1001"):
    """A Vietminh battalion at ``start`` and a French 105 battery far away in 1820 (in range of everything)."""
    m = _map(special, sides)
    st = _state(m, [(_bn("Bn"), start), (_weapon("F105"), "1820"), *extra], date=date)
    return st, MovementPhase(st, VM)


def _fr_mover(special=None, sides=None, extra=(), date=dt.date(1954, 3, 20), start="1001"):
    """A French company at ``start`` and a Vietminh 105 battery far away in 1820."""
    m = _map(special, sides)
    st = _state(m, [(_coy("Coy"), start), (_weapon("V105", VM), "1820"), *extra], date=date, phase="French movement")
    return st, MovementPhase(st, FR)


def _vps(ph: MovementPhase, uid: str) -> list[tuple[str, list[str]]]:
    return [(ph.state.label(v.hex), v.reasons) for v in ph.records[uid].vps]


def _col(rows) -> list[str]:
    """Labels down column 10: _col(range(2, 5)) == ['1002', '1003', '1004']."""
    return [f"10{r:02d}" for r in rows]


# ====================================================================== C 4 and Chart 2: counters

@pytest.mark.rule("C 4", "C Chart 2")
@pytest.mark.parametrize("missing", ["morale", "reduced_strength", "reduced_morale"])
def test_infantry_counters_need_morale_and_back_values(missing):
    kw = dict(size="company", type="infantry", parent="B", morale=4, reduced_strength=2, reduced_morale=3)
    kw[missing] = None
    with pytest.raises(DataError) as e:
        Counter("X", FR, UnitClass.INFANTRY, "x", 3, **kw)
    assert e.value.field == f"counter X.{missing}"
    assert "backprinted" in e.value.reason


@pytest.mark.rule("C 4", "C Chart 2")
def test_heavy_weapons_need_ordnance_and_a_weapon_type():
    with pytest.raises(DataError) as e:
        Counter("W", FR, UnitClass.HEAVY_WEAPONS, "w", 4, size="company", type="howitzer", ordnance=None)
    assert e.value.field == "counter W.ordnance"
    with pytest.raises(DataError) as e:
        Counter("W", FR, UnitClass.HEAVY_WEAPONS, "w", 4, size="company", type="paratroopers", ordnance="105")
    assert e.value.field == "counter W.type"
    # Heavy weapons are not backprinted: no morale or reverse values are needed.
    assert _weapon("ok").morale is None


@pytest.mark.rule("C 4", "C Chart 2")
def test_bad_infantry_type_size_or_strength_names_the_field():
    base = dict(size="company", type="infantry", parent="B", morale=4, reduced_strength=2, reduced_morale=3)
    with pytest.raises(DataError) as e:
        Counter("X", FR, UnitClass.INFANTRY, "x", 3, **{**base, "type": "howitzer"})
    assert e.value.field == "counter X.type" and "infantry" in e.value.reason
    with pytest.raises(DataError) as e:
        Counter("X", FR, UnitClass.INFANTRY, "x", 3, **{**base, "size": "regiment"})
    assert e.value.field == "counter X.size"
    with pytest.raises(DataError) as e:
        Counter("X", FR, UnitClass.INFANTRY, "x", 0, **base)
    assert e.value.field == "counter X.strength"
    with pytest.raises(DataError) as e:
        Counter("X", FR, UnitClass.INFANTRY, "x", "3", **base)
    assert e.value.field == "counter X.strength"
    with pytest.raises(DataError) as e:
        Counter("X", FR, UnitClass.INFANTRY, "x", 3, **{**base, "morale": 4.5})
    assert e.value.field == "counter X.morale"
    with pytest.raises(DataError) as e:                       # the file's ranges hold for counters made in code
        Counter("X", FR, UnitClass.INFANTRY, "x", 3, **{**base, "morale": -7})
    assert e.value.field == "counter X.morale" and "from 0 to 9" in e.value.reason


@pytest.mark.rule("C 4", "C Chart 2", "C 9.3")
def test_unit_strength_front_inverted_and_losses():
    u = UnitState(_bn("B"))
    assert (u.strength, u.morale) == (14, 4)
    u.losses = 3
    assert u.strength == 11                      # front side less the step-reduction marker
    u.inverted, u.losses = True, 0
    assert (u.strength, u.morale) == (9, 3)      # the reverse side's values
    u.losses = 2
    assert u.strength == 7
    u.losses = 20
    assert u.strength == 0                       # never negative
    w = UnitState(_weapon("W"))
    w.losses = 1
    assert w.strength == 3 and w.morale is None
    t = UnitState(_tank("T"))
    assert t.strength == 3
    t.disabled = True
    assert t.strength == 1


@pytest.mark.rule("C 4", "C Chart 2")
def test_load_counters_builds_counters_and_names_the_record_on_error():
    good = {"id": "A", "side": "French", "class": "combat infantry", "name": "a", "size": "company",
            "type": "infantry", "parent": "P", "strength": 3, "morale": 4, "reduced_strength": 2, "reduced_morale": 3}
    weapon = {"id": "W", "side": "Vietminh", "class": "heavy weapons", "name": "w", "size": "company",
              "type": "infantry weapons", "ordnance": "82", "strength": 3}
    out = load_counters([good, weapon], "my.yaml")
    assert [c.id for c in out] == ["A", "W"] and out[0].side is FR and out[1].cls is UnitClass.HEAVY_WEAPONS
    cases = [
        ({k: v for k, v in good.items() if k != "side"}, "counters[1].side", "missing"),
        ({**good, "class": "cavalry"}, "counters[1].class", "cavalry"),
        ({**good, "colour": "red"}, "counters[1].colour", "not a field"),
        ({**good, "morale": -7}, "counters[1].morale", "from 0 to 9"),
        ({**good, "strength": 10 ** 6}, "counters[1].strength", "from 1 to 60"),
        ({**good, "reduced_strength": 4}, "counters[1].reduced_strength", "front strength 3"),
        ({**good, "id": "A"}, "counters[1].id", "repeats the id 'A' of counters[0]"),
        ({k: v for k, v in good.items() if k != "morale"}, "counters[1].morale", "backprinted"),
        ({**weapon, "ordnance": None}, "counters[1].ordnance", "ordnance"),
        ("not a mapping", "counters[1]", "mapping"),
    ]
    for rec, field, words in cases:
        with pytest.raises(DataError) as e:
            load_counters([good, rec], "my.yaml")
        assert e.value.file == "my.yaml" and e.value.field == field and words in str(e.value), (rec, e.value)


# ====================================================================== C 5: zones of control

@pytest.mark.rule("C 5")
def test_zoc_is_the_six_neighbours_and_enemy_units_do_not_cancel_it():
    m = _map()
    st = _state(m, [(_coy("F"), "1010"), (_bn("V"), "1011"), (_bn("V2"), "1110")])
    fz = zone_of_control(st, FR)
    assert fz == set(_h("1010").neighbors()) and len(fz) == 6
    assert _h("1011") in fz and _h("1110") in fz       # enemy-occupied hexes stay in the ZOC
    assert _h("1010") not in fz                         # a unit's own hex is not part of its ZOC
    vz = zone_of_control(st, VM)
    assert _h("1010") in vz                             # and the enemy's ZOC is not cancelled either
    assert vz == set(_h("1011").neighbors()) | set(_h("1110").neighbors())


@pytest.mark.rule("C 5", "C 8")
def test_friendly_units_do_not_weaken_an_enemy_zoc_for_movement():
    # A Vietminh battalion already sits next to the French company (and projects its own ZOC over the path);
    # a second battalion entering the French ZOC still stops.
    st, ph = _vm_mover(extra=[(_coy("F"), "1005"), (_bn("Escort"), "1105")])
    assert _h("1105").is_adjacent(_h("1005")) and _h("1105").is_adjacent(_h("1004"))
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", ["1002", "1003", "1004", "0904"])
    assert e.value.rule == "C 8" and "must stop in 1004" in e.value.reason and "zone of control" in e.value.reason
    res = ph.move("Bn", _col(range(2, 5)))
    assert res.result["status"] == {"Bn": "done"}


# ====================================================================== C 6: stacking

def _units(*counters) -> list[UnitState]:
    return [UnitState(c) for c in counters]


@pytest.mark.rule("C 6", "C 6.1")
def test_two_companies_of_different_battalions_may_stack_three_may_not():
    assert stacking_problem(_units(_coy("a", parent="B1"), _coy("b", parent="B2"))) is None
    problem = stacking_problem(_units(_coy("a", parent="B1"), _coy("b", parent="B2"), _coy("c", parent="B3")))
    assert problem and "two companies" in problem
    # two companies of one battalion plus one of another are still three companies of more than one battalion
    assert stacking_problem(_units(_coy("a", parent="B1"), _coy("b", parent="B1"), _coy("c", parent="B2")))


@pytest.mark.rule("C 6", "C 6.1")
def test_any_number_of_companies_of_one_battalion_may_stack():
    assert stacking_problem(_units(*[_coy(f"{i}", parent="6BPC") for i in range(5)])) is None


@pytest.mark.rule("C 6", "C 6.1")
def test_independent_companies_are_not_one_battalion():
    """Companies without a parent battalion (e.g. T'ai light companies) count as separate companies."""
    assert stacking_problem(_units(_coy("a", parent=None), _coy("b", parent=None))) is None
    assert stacking_problem(_units(_coy("a", parent=None), _coy("b", parent=None), _coy("c", parent=None)))


@pytest.mark.rule("C 6", "C 6.1")
def test_a_battalion_may_not_stack_with_another_battalion_or_a_company():
    assert stacking_problem(_units(_bn("B"))) is None
    assert "battalion" in stacking_problem(_units(_bn("B"), _coy("c", VM, parent="X")))
    assert "battalion" in stacking_problem(_units(_bn("B"), _bn("C")))


@pytest.mark.rule("C 6", "C 6.2")
def test_six_heavy_weapons_may_stack_seven_may_not():
    six = [_weapon(f"W{i}") for i in range(6)]
    assert stacking_problem(_units(*six)) is None
    assert "limit of 6" in stacking_problem(_units(*six, _weapon("W6")))


@pytest.mark.rule("C 6", "C 6.3")
def test_tanks_are_unlimited_and_limits_add_together():
    assert stacking_problem(_units(*[_tank(f"T{i}") for i in range(25)])) is None
    full = _units(_bn("B", FR), *[_weapon(f"W{i}") for i in range(6)], *[_tank(f"T{i}") for i in range(10)])
    assert stacking_problem(full) is None


@pytest.mark.rule("C 6")
def test_enemy_units_do_not_count_against_stacking():
    m = _map()
    st = _state(m, [(_bn("V1"), "1010"), *[(_weapon(f"W{i}"), "1010") for i in range(5)],
                    (_coy("a", parent="P1"), "1010"), (_coy("b", parent="P2"), "1010"), (_weapon("W5"), "1111")])
    check_stacking(st, _h("1010"), FR, [st.unit("W5")])          # 6 French weapons + 2 companies + an enemy battalion
    st2 = _state(m, [(_bn("V1"), "1010"), (_bn("V2"), "1111")])
    with pytest.raises(RuleViolation) as e:
        check_stacking(st2, _h("1010"), VM, [st2.unit("V2")])
    assert e.value.rule == "C 6" and "1010" in e.value.reason


@pytest.mark.rule("C 6")
def test_retreat_that_would_break_stacking_eliminates_the_unit():
    from wargames.citadel.melee import move_after_melee
    m = _map()
    st = _state(m, [(_bn("A"), "1010"), (_bn("B"), "1011"), (_coy("F"), "1012"), (_bn("C"), "1109")])
    res = Resolution()
    move_after_melee(st, st.unit("B"), _h("1010"), res, "C 11", "retreat")
    assert st.unit("B").eliminated and "eliminated" in res.text() and "C 6" in res.text()
    res = Resolution()
    move_after_melee(st, st.unit("C"), _h("1108"), res, "C 11", "retreat")
    assert res.text() == "C 11: C retreats to 1108"
    assert st.unit("C").hex == _h("1108") and not st.unit("C").eliminated
    # an enemy unit in the hex does not count against stacking
    st.unit("F").hex = _h("1107")
    move_after_melee(st, st.unit("A"), _h("1107"), Resolution(), "C 11", "retreat")
    assert st.unit("A").hex == _h("1107") and not st.unit("A").eliminated


# ====================================================================== C 7 and C 2: sequence of play

@pytest.mark.rule("C 7")
def test_sequence_order_matches_the_rulebook():
    ids = [p.id for p in SEQUENCE]
    assert ids[:4] == ["weather", "aircraft maintenance", "transport availability", "tank repair"]
    assert {p.segment for p in SEQUENCE[:4]} == {"Initial Segment"}
    for short, side in (("VM", VM), ("French", FR)):
        turn = [p for p in SEQUENCE if p.segment == f"{side.value} Player Turn"]
        assert [(p.kind, p.side) for p in turn] == [
            ("movement", side),
            ("indirect fire", VM),        # 2a Vietminh indirect fire
            ("air", FR),                  # 2b1 aircraft placement
            ("air", VM),                  # 2b2 antiaircraft fire
            ("air", FR),                  # 2b3 aircraft attacks
            ("indirect fire", FR),        # 2c French indirect fire
            ("direct fire", None),        # 3
            ("melee", side),              # 4
            ("return", side),             # 5
        ]
        assert turn[0].id == f"{short} movement" and "opportunity fire" in turn[0].name
        assert "placement" in turn[2].name and "antiaircraft" in turn[3].name and "attacks" in turn[4].name
    vm_start = ids.index("VM movement")
    assert ids.index("VM return") < ids.index("French movement")
    assert vm_start == 4 and ids[-2:] == ["supply and transport", "strategic bombing"]
    assert {p.segment for p in SEQUENCE[-2:]} == {"Terminal Segment"} and len(SEQUENCE) == 24


@pytest.mark.rule("C 7", "C 2")
def test_next_phase_wraps_to_a_new_day():
    d = dt.date(1954, 3, 31)
    assert next_phase("weather", d) == ("aircraft maintenance", d)
    assert next_phase("VM return", d) == ("French movement", d)
    assert next_phase("strategic bombing", d) == ("weather", dt.date(1954, 4, 1))


@pytest.mark.rule("C 2", "C 7")
def test_one_game_turn_is_one_day():
    st = _state(_map(), [(_coy("F"), "1010")], date=dt.date(1954, 3, 13))
    g = CitadelGame(st, phase="weather")
    seen = []
    for _ in range(len(SEQUENCE)):
        seen.append(g.phase.id)
        assert st.date == dt.date(1954, 3, 13)
        g.advance()
    assert seen == [p.id for p in SEQUENCE]
    assert g.phase.id == "weather" and st.date == dt.date(1954, 3, 14) and st.phase_index == len(SEQUENCE)


@pytest.mark.rule("C 7", "C 9")
def test_pins_stay_until_the_end_of_the_melee_phase():
    st = _state(_map(), [(_coy("F"), "1010"), (_bn("V"), "1012")])
    g = CitadelGame(st, phase="VM movement")
    g.movement()                                     # nobody moves
    st.unit("V").pinned, st.unit("V").pinned_at = True, st.phase_index
    while g.phase.id != "VM melee":
        g.advance()
        assert st.unit("V").pinned, f"pin removed early, in {g.phase.id}"
    g.advance()                                      # end of the Vietminh melee phase
    assert g.phase.id == "VM return" and not st.unit("V").pinned and st.unit("V").pinned_at is None
    st.unit("F").pinned = True
    while g.phase.id != "French melee":
        g.advance()
        assert st.unit("F").pinned
    g.advance()
    assert not st.unit("F").pinned


@pytest.mark.rule("C 7")
def test_movement_outside_a_movement_phase_is_refused():
    st = _state(_map(), [(_coy("F"), "1010")])
    g = CitadelGame(st, phase="VM direct fire")
    with pytest.raises(RuleViolation) as e:
        g.movement()
    assert e.value.rule == "C 7" and "not a movement phase" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        CitadelGame(st, phase="VM melee").fire_phase()
    assert e.value.rule == "C 7"
    with pytest.raises(KeyError):
        CitadelGame(st, phase="lunch")
    assert phase_named("French movement").side is FR


@pytest.mark.rule("C 7", "C 8")
def test_a_phase_cannot_end_while_units_wait_for_opportunity_fire():
    st = _state(_map(), [(_bn("V"), "1001"), (_weapon("F"), "1820")])
    g = CitadelGame(st, phase="VM movement")
    ph = g.movement()
    assert g.movement() is ph
    ph.move("V", _col(range(2, 5)))
    with pytest.raises(RuleViolation) as e:
        g.advance()
    assert e.value.rule == "C 8"
    ph.end_moves()
    ph.end_fire()
    ph.stop("V")
    assert g.advance().id == "VM turn: VM indirect fire"


# ====================================================================== C 8: vulnerability points

@pytest.mark.rule("C 8")
@pytest.mark.parametrize("special, reason", [
    (("clear", {"road"}), "road hex entered"),
    ("swamp", "swamp hex entered"),
    ("airfield", "airfield hex entered"),
])
def test_vm_road_swamp_and_airfield_hexes_are_vps(special, reason):
    st, ph = _vm_mover({"1003": special})
    with pytest.raises(RuleViolation):
        ph.move("Bn", _col(range(2, 5)))             # may not run past the VP in 1003
    res = ph.move("Bn", _col(range(2, 4)))
    assert res.result["status"] == {"Bn": "paused"}
    [(hexlab, reasons)] = _vps(ph, "Bn")
    assert hexlab == "1003" and any(reason in r for r in reasons)


@pytest.mark.rule("C 8")
def test_airfield_entered_across_the_drainage_ditch_is_no_vp():
    st, ph = _vm_mover({"1003": "airfield", "1103": "airfield"}, sides={("1002", "1003"): {"drainage_ditch"}})
    res = ph.move("Bn", _col(range(2, 5)))          # 1002 clear #1, 1003 via the ditch, 1004 clear #2
    assert res.result["status"] == {"Bn": "moving"} and _vps(ph, "Bn") == []
    assert any("drainage ditch" in s.text and "1003" in s.text for s in res.steps)
    # the same airfield entered across an ordinary hexside is a VP
    st2, ph2 = _vm_mover({"1003": "airfield"}, start="1103")
    assert _h("1103").is_adjacent(_h("1003"))
    ph2.move("Bn", ["1003"])
    assert _vps(ph2, "Bn")[0][0] == "1003"


@pytest.mark.rule("C 8")
def test_vm_in_full_jungle_or_trench_hex_is_never_a_vp():
    st, ph = _vm_mover({"1002": ("full_jungle", {"road"}), "1003": ("clear", {"road", "trench"}),
                        "1004": ("swamp", {"trench"})})
    res = ph.move("Bn", _col(range(2, 6)))
    assert _vps(ph, "Bn") == [] and res.result["status"] == {"Bn": "moving"}
    notes = [s.text for s in res.steps if "would be a VP" in s.text]
    assert len(notes) == 3 and "full jungle" in notes[0] and "trench" in notes[1] and "exception 1" in notes[2]
    assert ph.records["Bn"].clear_count == 1        # only 1005; jungle and trench hexes are not clear


@pytest.mark.rule("C 8")
def test_french_road_hexes_are_not_clear_and_not_vps():
    road = {lab: ("clear", {"road"}) for lab in _col(range(2, 7))}
    st, ph = _fr_mover(road)
    res = ph.move("Coy", _col(range(2, 7)))
    assert res.result["status"] == {"Coy": "moving"} and ph.records["Coy"].clear_count == 0
    ph.move("Coy", _col(range(7, 9)))
    assert ph.records["Coy"].clear_count == 2
    with pytest.raises(RuleViolation):
        ph.move("Coy", _col(range(9, 11)))          # 1009 is clear hex #3: a VP
    ph.move("Coy", ["1009"])
    assert _vps(ph, "Coy") == [("1009", ["clear hex #3: every third clear hex (C 8 item 1)"])]


@pytest.mark.rule("C 8")
@pytest.mark.parametrize("special, word", [
    ("full_jungle", "full jungle"),
    (("partial_jungle", {"road"}), "partial jungle"),   # a road does not negate the jungle
    ("swamp", "swamp"),
    (("clear", {"trench"}), "trench"),
    ("airfield", "airfield"),
])
def test_french_jungle_swamp_trench_and_airfield_hexes_are_vps(special, word):
    st, ph = _fr_mover({"1002": special})
    res = ph.move("Coy", ["1002"])
    assert res.result["status"] == {"Coy": "paused"}
    [(lab, reasons)] = _vps(ph, "Coy")
    assert lab == "1002" and any(word in r for r in reasons)


@pytest.mark.rule("C 8")
def test_french_unit_in_a_strongpoint_is_exempt():
    st, ph = _fr_mover({"1002": ("full_jungle", {"strongpoint"}), "1005": ("clear", {"strongpoint"})})
    res = ph.move("Coy", _col(range(2, 7)))         # 1005 is clear hex #3, 1002 jungle: both in strongpoints
    assert _vps(ph, "Coy") == [] and res.result["status"] == {"Coy": "moving"}
    notes = [s.text for s in res.steps if "would be a VP" in s.text]
    assert len(notes) == 2 and all("strongpoint" in n for n in notes)
    # Vietminh units get no such exemption in a strongpoint
    st2, ph2 = _vm_mover({"1002": ("swamp", {"strongpoint"})})
    ph2.move("Bn", ["1002"])
    assert _vps(ph2, "Bn")[0][0] == "1002"


@pytest.mark.rule("C 8")
def test_clear_count_is_cumulative_and_vps_fall_at_every_third():
    # clear, hill, clear, road (VP, does not reset), clear (#3 -> VP), clear, clear, clear (#6 -> VP)
    st, ph = _vm_mover({"1003": "hill", "1005": ("clear", {"road"})})
    ph.move("Bn", _col(range(2, 6)))
    ph.end_moves(); ph.end_fire()
    ph.move("Bn", ["1006"])
    ph.end_moves(); ph.end_fire()
    ph.move("Bn", _col(range(7, 10)))
    assert [(lab, r[0].split(":")[0]) for lab, r in _vps(ph, "Bn")] == [
        ("1005", "road hex entered (C 8 VM item 2)"), ("1006", "clear hex #3"), ("1009", "clear hex #6")]
    assert [v.number for v in ph.records["Bn"].vps] == [1, 2, 3]


@pytest.mark.rule("C 8")
def test_river_crossing_must_be_announced_and_the_hex_becomes_a_vp():
    st, ph = _vm_mover(sides={("1002", "1003"): {"river"}})
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", _col(range(2, 4)))
    assert e.value.rule == "C 8" and "announce" in e.value.reason and "1002" in e.value.reason
    ph.move("Bn", ["1002"])
    ph.announce_crossing("Bn", "1003")
    assert _vps(ph, "Bn") == [("1002", ["announces a river crossing into 1003 (C 8 item 3)"])]
    with pytest.raises(RuleViolation):
        ph.move("Bn", ["1003"])                      # must wait for opportunity fire first
    [vp] = ph.end_moves()
    assert vp.unit == "Bn" and st.label(vp.hex) == "1002"
    with ScriptedDice([6]) as d:
        ph.opportunity_fire("F105", "Bn", d)
    ph.end_fire()
    ph.move("Bn", _col(range(3, 5)))
    assert ph.records["Bn"].clear_count == 3 and _vps(ph, "Bn")[-1][0] == "1004"


@pytest.mark.rule("C 8")
def test_announcing_in_a_hex_that_is_already_a_vp_makes_one_vp():
    st, ph = _vm_mover({"1002": ("clear", {"road"})}, sides={("1002", "1003"): {"river"}},
                       extra=[(_weapon("G105"), "1819")])
    ph.move("Bn", ["1002"])                            # a road hex: a VP on entry
    ph.announce_crossing("Bn", "1003")                 # announced from the same hex before the fire
    [(lab, reasons)] = _vps(ph, "Bn")
    assert lab == "1002" and len(reasons) == 2 and "road" in reasons[0] and "river" in reasons[1]
    assert len(ph.end_moves()) == 1
    with ScriptedDice([6]) as d:
        ph.opportunity_fire("F105", "Bn", d)
    assert ph.targets() == []                          # nobody else may fire at that one VP
    ph.end_fire()
    ph.move("Bn", ["1003"])
    assert st.unit("Bn").hex == _h("1003")


@pytest.mark.rule("C 8")
def test_french_announce_river_even_with_a_road_but_not_barbed_wire():
    sides = {("1002", "1003"): {"river"}, ("1001", "1002"): {"barbed_wire"}}
    st, ph = _fr_mover({"1002": ("clear", {"road"}), "1003": ("clear", {"road"})}, sides=sides)
    ph.move("Coy", ["1002"])                        # wire needs no announcement for the French
    with pytest.raises(RuleViolation) as e:
        ph.announce_crossing("Coy", "1001")
    assert "needs no announcement" in e.value.reason
    with pytest.raises(RuleViolation):
        ph.move("Coy", ["1003"])
    ph.announce_crossing("Coy", "1003")
    assert _vps(ph, "Coy")[0][0] == "1002"
    # the Vietminh must announce barbed wire too
    st2, ph2 = _vm_mover(sides={("1001", "1002"): {"barbed_wire"}})
    with pytest.raises(RuleViolation) as e:
        ph2.move("Bn", ["1002"])
    assert "barbed wire" in e.value.reason


@pytest.mark.rule("C 8")
def test_a_path_running_past_a_vp_raises_and_moves_nothing():
    st, ph = _vm_mover()
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", _col(range(2, 6)))
    assert e.value.rule == "C 8" and "must stop in 1004" in e.value.reason and "1005" in e.value.reason
    assert st.unit("Bn").hex == _h("1001") and "Bn" not in ph.records     # no record left behind


@pytest.mark.rule("C 8", "C 5")
def test_entering_an_enemy_zoc_ends_movement():
    st, ph = _vm_mover(extra=[(_coy("F"), "1005")])
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", ["1002", "1003", "1004", "1104"])
    assert "zone of control" in e.value.reason
    res = ph.move("Bn", ["1002", "1003", "1004"])   # 1004 is clear #3 but in the French ZOC: no VP
    assert res.result["status"] == {"Bn": "done"} and _vps(ph, "Bn") == []
    assert any("exception 3" in s.text for s in res.steps)
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", ["1104"])
    assert "ended its movement" in e.value.reason


@pytest.mark.rule("C 8", "C 9")
def test_no_unit_may_enter_a_hex_holding_a_pinned_unit_nor_move_when_pinned():
    st, ph = _vm_mover(extra=[(_bn("Pinned"), "1003")])
    st.unit("Pinned").pinned = True
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", _col(range(2, 5)))
    assert e.value.rule == "C 8" and "pinned" in e.value.reason and "1003" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        ph.move("Pinned", ["1004"])
    assert e.value.rule == "C 8" and "pinned" in e.value.reason
    # an unpinned friendly unit may be passed through
    st.unit("Pinned").pinned = False
    ph.move("Bn", _col(range(2, 5)))
    assert st.unit("Bn").hex == _h("1004")


@pytest.mark.rule("C 8", "C 6")
def test_stacking_is_checked_where_the_move_stops():
    st, ph = _vm_mover(extra=[(_bn("Other"), "1004")])
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", _col(range(2, 5)))            # the VP 1004 already holds a battalion
    assert e.value.rule == "C 6" and "1004" in e.value.reason


@pytest.mark.rule("C 8")
def test_in_step_two_only_paused_units_move():
    st, ph = _vm_mover(extra=[(_bn("Late"), "0301"), (_bn("Done"), "0501")])
    ph.move("Bn", _col(range(2, 5)))
    ph.move("Done", ["0502"])
    ph.end_moves()
    ph.end_fire()
    with pytest.raises(RuleViolation) as e:
        ph.move("Late", ["0302"])
    assert "did not move in the first step" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        ph.move("Done", ["0503"])
    assert "ended its movement" in e.value.reason
    ph.move("Bn", ["1005"])                           # the unpinned paused unit continues


@pytest.mark.rule("C 8")
def test_a_paused_unit_waits_for_end_fire():
    st, ph = _vm_mover()
    ph.move("Bn", _col(range(2, 5)))
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", ["1005"])
    assert "must wait for opportunity fire" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        ph.stop("Bn")                                  # stopping does not escape the fire at the VP
    assert "not escape it" in e.value.reason
    ph.end_moves()
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", ["1005"])
    assert "end_fire" in e.value.reason
    with pytest.raises(RuleViolation):
        ph.stop("Bn")
    ph.end_fire()
    ph.move("Bn", ["1005"])


def _two_paused():
    """Two Vietminh battalions paused at VPs (1004, 1404) and three French batteries."""
    st, ph = _vm_mover(extra=[(_bn("Bn2"), "1401"), (_weapon("G105"), "1819"), (_weapon("H105"), "1719")])
    ph.move("Bn", _col(range(2, 5)))
    ph.move("Bn2", ["1402", "1403", "1404"])
    ph.end_moves()
    return st, ph


@pytest.mark.rule("C 8")
def test_only_one_unit_fires_at_each_vp():
    st, ph = _two_paused()
    with ScriptedDice([6]) as d:
        ph.opportunity_fire("F105", "Bn", d)
    with pytest.raises(RuleViolation) as e:
        ph.opportunity_fire("G105", "Bn", ScriptedDice([6]))
    assert e.value.rule == "C 8" and "only one unit may fire at each VP" in e.value.reason
    assert [vp.unit for vp in ph.targets()] == ["Bn2"]


@pytest.mark.rule("C 8")
def test_a_unit_fires_at_most_once_per_movement_phase():
    st, ph = _two_paused()
    with ScriptedDice([6]) as d:
        ph.opportunity_fire("F105", "Bn", d)
    with pytest.raises(RuleViolation) as e:
        ph.opportunity_fire("F105", "Bn2", ScriptedDice([6]))
    assert "already fired this movement phase" in e.value.reason
    ph.end_fire()
    ph.move("Bn", _col(range(5, 8)))                  # a second VP for Bn in the next step
    ph.end_moves()
    assert "F105" not in ph.eligible_firers("Bn") and "G105" in ph.eligible_firers("Bn")
    with pytest.raises(RuleViolation) as e:
        ph.opportunity_fire("F105", "Bn", ScriptedDice([6]))
    assert "already fired" in e.value.reason


@pytest.mark.rule("C 8", "C 9")
def test_out_of_range_and_vm_antiaircraft_firers_are_refused():
    st, ph = _fr_mover(extra=[(_weapon("V81", VM, "infantry weapons", "82", 3), "1020"),
                              (_weapon("VAA", VM, "antiaircraft", "37", 3), "1007")])
    ph.move("Coy", _col(range(2, 5)))
    ph.end_moves()
    with pytest.raises(RuleViolation) as e:          # 82mm mortar: 16 hexes, beyond its range of 10
        ph.opportunity_fire("V81", "Coy", ScriptedDice([1]))
    assert e.value.rule == "C 8" and "beyond its range" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        ph.opportunity_fire("VAA", "Coy", ScriptedDice([1]))
    assert "antiaircraft" in e.value.reason
    assert ph.eligible_firers("Coy") == ["V105"]
    with pytest.raises(RuleViolation) as e:
        ph.opportunity_fire("Coy", "Coy", ScriptedDice([1]))
    assert "moving player" in e.value.reason


@pytest.mark.rule("C 8", "C 10")
def test_mortars_may_take_opportunity_fire_and_french_aa_too():
    st, ph = _vm_mover(extra=[(_weapon("M120", FR, "infantry weapons", "120", 8), "1010"),
                              (_weapon("AA", FR, "antiaircraft", ".50", 2), "1207")])
    ph.move("Bn", _col(range(2, 5)))
    ph.end_moves()
    assert set(ph.eligible_firers("Bn")) == {"F105", "M120", "AA"}


@pytest.mark.rule("C 8", "C 9")
def test_opportunity_fire_needs_no_line_of_sight_but_not_pinned_firers():
    # reading (catalog C-5 item 35): range only; a pinned unit may not fire
    st, ph = _vm_mover({"1502": "hill", "1503": "hill"}, extra=[(_weapon("Near", FR, "infantry weapons", "120", 8), "1804")])
    st.unit("F105").pinned = True
    ph.move("Bn", _col(range(2, 5)))
    ph.end_moves()
    assert ph.eligible_firers("Bn") == ["Near"]
    with pytest.raises(RuleViolation) as e:
        ph.opportunity_fire("F105", "Bn", ScriptedDice([1]))
    assert "pinned" in e.value.reason


@pytest.mark.rule("C 8", "C 9")
def test_pinned_by_opportunity_fire_ends_movement():
    st, ph = _vm_mover()
    ph.move("Bn", _col(range(2, 5)))
    ph.end_moves()
    with ScriptedDice([1]) as d:                      # 105 at range 16 (x2) = 8 -> 7-8, roll 1 = 2P
        res = ph.opportunity_fire("F105", "Bn", d)
    assert res.result["pinned"] == ("Bn",) and ph.records["Bn"].status == "done"
    ph.end_fire()
    assert ph.finished
    with pytest.raises(RuleViolation):
        ph.move("Bn", ["1005"])


def _zones_map():
    special = {}
    for c in range(1, 21):
        for r in range(1, 21):
            if c <= 3:
                special[f"{c:02d}{r:02d}"] = ("full_jungle", (), {"zone": "Z1"})
            elif c >= 17:
                special[f"{c:02d}{r:02d}"] = ("full_jungle", (), {"zone": "Z2"})
    return _map(special)


def _regiment_state():
    m = _zones_map()
    return _state(m, [(_bn("R1/1", regiment="R1"), "0201"), (_bn("R1/2", regiment="R1"), "0202"),
                      (_weapon("R1/W", VM, "infantry weapons", "82", 3, regiment="R1"), "0201"),
                      (_weapon("Free", VM, "howitzer", "105", 4), "0205"),
                      (_bn("R2/1", regiment="R2"), "1010"), (_coy("F"), "1015")])


@pytest.mark.rule("C 8")
def test_strategic_movement_moves_a_whole_regiment_to_another_zone():
    st = _regiment_state()
    ph = MovementPhase(st, VM)
    with pytest.raises(RuleViolation) as e:
        ph.strategic_move("R1", {"R1/1": "1801", "R1/2": "1802"})
    assert "move together" in e.value.reason and "R1/W" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        ph.strategic_move("R1", {"R1/1": "0305", "R1/2": "0306", "R1/W": "0305"})
    assert "another zone" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        ph.strategic_move("R1", {"R1/1": "1601", "R1/2": "1802", "R1/W": "1802"})
    assert "not a full jungle hex" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        ph.strategic_move("R2", {"R2/1": "1801"})       # R2 is not in full jungle
    assert "not in a full jungle hex" in e.value.reason
    assert st.unit("R1/1").hex == _h("0201")            # refused moves leave everyone in place
    res = ph.strategic_move("R1", {"R1/1": "1801", "R1/2": "1802", "R1/W": "1801"})
    assert [s.rule for s in res.steps] == ["C 8"] * 3
    assert st.label(st.unit("R1/2").hex) == "1802"
    # afterwards the units may move, but only within the new zone's full jungle
    ph.move("R1/2", ["1803", "1804"])
    with pytest.raises(RuleViolation) as e:
        ph.move("R1/1", ["1701", "1601"])
    assert "may not leave" in e.value.reason and "Z2" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        MovementPhase(st, FR).strategic_move("R1", {})
    assert "only the Vietminh" in e.value.reason


@pytest.mark.rule("C 8")
def test_unassigned_battery_exits_and_reenters_in_a_later_phase_on_full_jungle():
    st = _regiment_state()
    ph = MovementPhase(st, VM)
    with pytest.raises(RuleViolation):
        ph.exit_board("R1/W")                           # assigned to a regiment
    with pytest.raises(RuleViolation):
        ph.exit_board("R1/1")                           # not a weapons battery
    ph.exit_board("Free")
    assert st.unit("Free").off_board and not st.unit("Free").on_board
    with pytest.raises(RuleViolation) as e:
        ph.reenter("Free", "1805")
    assert "later movement phase" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        MovementPhase(st, FR).reenter("Free", "1805")   # the French movement phase is not a Vietminh one
    assert e.value.rule == "C 8"
    st.phase_index += 24                                # the next Vietminh movement phase
    ph2 = MovementPhase(st, VM)
    with pytest.raises(RuleViolation) as e:
        ph2.reenter("Free", "1005")
    assert "not a full jungle hex" in e.value.reason
    ph2.reenter("Free", "1805")
    assert st.unit("Free").on_board and st.label(st.unit("Free").hex) == "1805"
    ph2.move("Free", ["1806"])
    with pytest.raises(RuleViolation):
        MovementPhase(st, FR).exit_board("Free")        # only in a Vietminh movement phase


@pytest.mark.rule("C 8", "C 7", "C 10")
def test_heavy_weapons_that_moved_cannot_fire_in_the_following_direct_fire_phase():
    m = _map()
    st = _state(m, [(_weapon("Mover"), "1010"), (_weapon("Still"), "1210"), (_bn("V1"), "1013"),
                    (_bn("V2"), "1212")], phase="French movement")
    g = CitadelGame(st, phase="French movement")
    ph = g.movement()
    ph.move("Mover", ["1011"])                          # 1011 -> 1013 is 2 hexes: direct fire for a 105
    ph.end_moves()
    ph.end_fire()
    while g.phase.id != "French direct fire":
        g.advance()
    fp = g.fire_phase()
    with pytest.raises(RuleViolation) as e:
        fp.fire(["Mover"], "1013", ScriptedDice([6]))
    assert e.value.rule == "C 8" and "moved" in e.value.reason
    with ScriptedDice([6]) as d:
        fp.fire(["Still"], "1212", d)                   # the battery that stayed put may fire
    # in the next player turn's direct fire phase the mover may fire again
    while g.phase.id != "VM direct fire":
        g.advance()
    with ScriptedDice([6]) as d:
        g.fire_phase().fire(["Mover"], "1013", d)


# ====================================================================== C 9: fire combat procedure

def _fire_state(target_terrain="clear", target_feats=(), date=dt.date(1954, 3, 20), extra=()):
    m = _map({"1010": (target_terrain, set(target_feats))})
    return _state(m, [(_bn("VBn"), "1010"), *extra], date=date)


@pytest.mark.rule("C 9")
def test_range_modifier_applies_to_each_unit_before_summing():
    # 105 at range 2 (x1) and at range 9 (x3): 4 + 12 = 16, not (4 + 4) times one multiplier
    st = _fire_state(extra=[(_weapon("Close"), "1012"), (_weapon("Far"), "1019")])
    res = Resolution()
    total = fire_strength(st, ["Close", "Far"], _h("1010"), res)
    assert total == 16
    assert [(s.inputs["range"], s.inputs["multiplier"], s.result) for s in res.steps[:2]] == [(2, 1, 4), (9, 3, 12)]
    assert res.steps[-1].text == "total fire strength 16"
    with ScriptedDice([6]) as d:
        out = resolve_fire(st, ["Close", "Far"], _h("1010"), d)
    assert out.result["column"] == "15-18"


@pytest.mark.rule("C 9", "C 13")
def test_column_shift_clamped_at_the_table_edge_is_reported():
    # a 1 SP 81mm mortar at 6 hexes (x1) = 1 -> the leftmost column; full jungle -2 runs off the table
    st = _fire_state("full_jungle", extra=[(_weapon("M", FR, "infantry weapons", "81", 1), "1016")])
    crt, _, _ = default_charts()
    with ScriptedDice([1]) as d:
        out = resolve_fire(st, ["M"], _h("1010"), d)
    assert out.steps[0].result == 1 and crt.column_for(1) == 0
    [shift] = [s for s in out.steps if "shifted" in s.text]
    assert shift.rule == "C 9" and "2 shift(s) have nowhere to go" in shift.text
    assert out.result["column"] == crt.columns[0].label == "1-2"
    # a shift that fits says nothing about the edge
    st = _fire_state("partial_jungle", extra=[(_weapon("M", FR, "infantry weapons", "81", 3), "1016")])
    with ScriptedDice([1]) as d:
        out = resolve_fire(st, ["M"], _h("1010"), d)
    [shift] = [s for s in out.steps if "shifted" in s.text]
    assert "nowhere" not in shift.text and shift.result == "1-2"


@pytest.mark.rule("C 9")
def test_pins_go_on_every_unit_in_the_target_hex():
    st = _fire_state(extra=[(_weapon("VW", VM, "infantry weapons", "82", 3), "1010"),
                            (_weapon("F1"), "1017"), (_weapon("F2"), "1018"), (_weapon("F3"), "1019")])
    with ScriptedDice([2]) as d:                       # 36 -> 31-40, roll 2 = 3P
        out = resolve_fire(st, ["F1", "F2", "F3"], _h("1010"), d)
    assert out.result["code"] == "3P"
    assert set(out.result["pinned"]) == {"VBn", "VW"}
    assert st.unit("VBn").pinned and st.unit("VW").pinned and st.unit("VW").pinned_at == st.phase_index
    assert {"F1", "F2", "F3"} <= st.fired and {"VBn", "VW"} <= st.fired_at


@pytest.mark.rule("C 9", "C 13", "C 9.2")
def test_the_resolution_lists_every_step_with_its_rule():
    st = _fire_state("full_jungle", extra=[(_weapon("F1"), "1017"), (_weapon("F2"), "1018"), (_weapon("F3"), "1019")])
    with ScriptedDice([1]) as d:
        out = resolve_fire(st, ["F1", "F2", "F3"], _h("1010"), d)
    rules = out.rules()
    assert rules[:4] == ["C 9", "C 9", "C 9", "C 9"]         # three units' strength, then the total
    assert "C 13" in rules and rules.index("C 13") < rules.index("C 9.2")
    assert all(s.rule and s.text for s in out.steps)
    text = out.text()
    for piece in ("F1: 4 SP x3 at range 7 = 12", "total fire strength 36", "-> column 31-40", "full jungle -2",
                  "shifted -2 -> 19-22", "roll 1 on 19-22"):
        assert piece in text, piece
    assert out.to_dict()["steps"][0]["rule"] == "C 9"


@pytest.mark.rule("C 9")
def test_vm_antiaircraft_units_may_not_fire_at_ground_units():
    st = _fire_state(extra=[(_coy("F"), "1011"), (_weapon("VAA", VM, "antiaircraft", "37", 3), "1012")])
    with pytest.raises(RuleViolation) as e:
        resolve_fire(st, ["VAA"], _h("1011"), ScriptedDice([1]))
    assert e.value.rule == "C 9"


# ---------------------------------------------------------------- C 9.1 / 9.2 loss allocation

def _stack_state():
    m = _map()
    return _state(m, [(_bn("VBn"), "1010"), (_weapon("VW", VM, "infantry weapons", "82", 3), "1010"),
                      (_bn("Elsewhere"), "1212")])


@pytest.mark.rule("C 9.1", "C 9.2")
def test_three_losses_on_battalion_and_battery_alternate_picks_owner_first():
    st = _stack_state()
    res = Resolution()
    with ScriptedDice([]) as d:
        pending = allocate_losses(st, [st.unit("VBn"), st.unit("VW")], 3, FR, d, res, small_arms_only=False)
        assert pending.chooser is VM and pending.options(st) == ["VBn", "VW"] and st.phase_losses == {}
        take_pick(st, pending, "VBn", d, res)                    # the owner picks first (the odd loss)
        assert pending.chooser is FR
        with pytest.raises(RuleViolation) as e:
            take_pick(st, pending, "Elsewhere", d, res)
        assert e.value.rule == "C 9.2"
        take_pick(st, pending, "VW", d, res)                     # then the firer
        assert pending.options(st) == ["VBn"]                    # the battery has taken its one loss (C 9.1)
        assert settle_forced(st, pending, d, res) is None        # so the last loss has only one place to go
    picks = [s for s in res.find("C 9.2") if s.text.startswith("loss")]
    assert [(s.text.split(": the ")[1].split(" player")[0], s.inputs["unit"]) for s in picks] == [
        ("Vietminh", "VBn"), ("French", "VW"), ("Vietminh", "VBn")]
    assert "only one choice" in picks[2].text
    assert st.unit("VBn").losses == 2 and st.unit("VW").losses == 1
    assert st.phase_losses == {"VBn": 2, "VW": 1}


@pytest.mark.rule("C 9.1", "C 9.2")
def test_explicit_allocation_is_followed_and_validated():
    st = _stack_state()
    with ScriptedDice([]) as d:
        allocate_losses(st, [st.unit("VBn"), st.unit("VW")], 3, FR, d, Resolution(), False,
                        allocation=["VW", "VBn", "VBn"])
    assert st.unit("VW").losses == 1 and st.unit("VBn").losses == 2
    bad = [
        (["VBn", "VBn"], "C 9.2", "names 2 unit(s) but 3"),
        (["VBn", "Elsewhere", "VBn"], "C 9.2", "not among the units fired on"),
        (["VBn", "VW", "VW"], "C 9.1", "cannot take another loss"),
    ]
    for alloc, rule, words in bad:
        st = _stack_state()
        with pytest.raises(RuleViolation) as e:
            allocate_losses(st, [st.unit("VBn"), st.unit("VW")], 3, FR, ScriptedDice([]), Resolution(), False,
                            allocation=alloc)
        assert e.value.rule == rule and words in e.value.reason, alloc
        # a refused allocation changes nothing
        assert st.unit("VBn").losses == 0 and st.unit("VW").losses == 0 and not st.phase_losses


@pytest.mark.rule("C 9.1", "C 9.2")
def test_a_unit_already_hit_this_phase_cannot_take_another_loss():
    st = _stack_state()
    st.phase_losses["VW"] = 1
    with pytest.raises(RuleViolation) as e:
        allocate_losses(st, [st.unit("VBn"), st.unit("VW")], 2, FR, ScriptedDice([]), Resolution(), False,
                        allocation=["VW", "VBn"])
    assert e.value.rule == "C 9.1"
    res = Resolution()
    allocate_losses(st, [st.unit("VBn"), st.unit("VW")], 2, FR, ScriptedDice([]), res, False)
    assert st.unit("VBn").losses == 2 and st.unit("VW").losses == 0


@pytest.mark.rule("C 9.2")
def test_without_an_allocation_the_players_choose():
    """No hidden default: the procedure takes forced picks only and leaves every real choice pending."""
    st = _state(_map(), [(_coy("A", parent="P"), "1010"), (_coy("B", parent="P"), "1010"),
                         (_coy("C", parent="P"), "1010")])
    res = Resolution()
    pending = allocate_losses(st, [st.unit(x) for x in "CBA"], 2, VM, ScriptedDice([]), res, True)
    assert pending.remaining == 2 and pending.chooser is FR and pending.options(st) == ["C", "B", "A"]
    assert all(st.unit(x).losses == 0 and not st.unit(x).inverted for x in "ABC")
    lone = _state(_map(), [(_coy("A", parent="P"), "1010")])
    assert allocate_losses(lone, [lone.unit("A")], 1, VM, ScriptedDice([]), Resolution(), True) is None
    assert lone.unit("A").inverted                               # one unit: nothing to choose


@pytest.mark.rule("C 9.1", "C 9.2")
def test_losses_beyond_what_the_hex_can_take_have_no_effect():
    st = _state(_map(), [(_coy("A", parent="P"), "1010"), (_weapon("W"), "1010")])
    res = Resolution()
    pending = allocate_losses(st, [st.unit("A"), st.unit("W")], 5, VM, ScriptedDice([]), res, False)
    void = res.find("C 9.2")[0]
    assert void.result == 2 and "the other 3 have no effect" in void.text
    take_pick(st, pending, "W", ScriptedDice([]), res)
    assert settle_forced(st, pending, ScriptedDice([]), res) is None
    assert st.unit("A").inverted and st.unit("W").losses == 1


# ---------------------------------------------------------------- C 9.3 / 9.4

@pytest.mark.rule("C 9.3")
def test_company_flips_after_one_loss_battalion_after_five():
    st = _state(_map(), [(_coy("C"), "1010"), (_bn("B"), "1012")])
    c, b = st.unit("C"), st.unit("B")
    res = Resolution()
    take_loss(st, c, ScriptedDice([]), res)
    assert c.inverted and c.losses == 0 and c.strength == 2 and c.morale == 3
    for k in range(1, 5):
        take_loss(st, b, ScriptedDice([]), res)
        assert not b.inverted and b.losses == k and b.strength == 14 - k
    take_loss(st, b, ScriptedDice([]), res)
    assert b.inverted and b.losses == 0 and b.strength == 9
    assert len(res.find("C 9.3")) == 2


@pytest.mark.rule("C 9.4")
def test_elimination_when_losses_reach_the_current_sides_strength():
    st = _state(_map(), [(_coy("C"), "1010"), (_bn("B"), "1012"), (_weapon("W"), "1014")])
    c, b, w = st.unit("C"), st.unit("B"), st.unit("W")
    res = Resolution()
    take_loss(st, c, ScriptedDice([]), res)             # flipped to 2 SP
    take_loss(st, c, ScriptedDice([]), res)
    assert not c.eliminated and c.strength == 1
    take_loss(st, c, ScriptedDice([]), res)
    assert c.eliminated and res.find("C 9.4")
    for _ in range(5 + 8):
        take_loss(st, b, ScriptedDice([]), res)
    assert b.inverted and b.strength == 1 and not b.eliminated
    take_loss(st, b, ScriptedDice([]), res)
    assert b.eliminated
    for _ in range(3):
        take_loss(st, w, ScriptedDice([]), res)
    assert w.strength == 1 and not w.eliminated
    take_loss(st, w, ScriptedDice([]), res)
    assert w.eliminated and len(res.find("C 9.4")) == 3


@pytest.mark.rule("C 9.1", "C 9.4")
def test_a_vm_battalion_can_take_many_losses_in_one_fire_and_be_eliminated():
    st = _state(_map(), [(_bn("B"), "1010")])
    b = st.unit("B")
    b.inverted, b.losses = True, 7                       # 2 SP left
    res = Resolution()
    allocate_losses(st, [b], 4, FR, ScriptedDice([]), res, False)
    assert b.eliminated and "the other 2 have no effect" in res.find("C 9.2")[0].text


# ---------------------------------------------------------------- C 9.5

def _fire_phase_state():
    m = _map()
    return _state(m, [(_bn("V1"), "1010"), (_bn("V2"), "1210"), (_weapon("A"), "1016"),
                      (_weapon("B"), "1216"), (_coy("Rifles"), "1011"),
                      (_weapon("Mortar", FR, "infantry weapons", "81", 3), "1014")])


@pytest.mark.rule("C 9.5")
def test_fire_phase_refuses_a_unit_firing_twice_and_a_hex_fired_at_twice():
    st = _fire_phase_state()
    fp = FirePhase(st, "indirect", FR)
    with ScriptedDice([6]) as d:
        fp.fire(["A"], "1010", d)
    with pytest.raises(RuleViolation) as e:
        fp.fire(["A"], "1210", ScriptedDice([6]))
    assert e.value.rule == "C 9.5" and "already fired" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        fp.fire(["B"], "1010", ScriptedDice([6]))
    assert e.value.rule == "C 9.5" and "already been fired at" in e.value.reason
    with ScriptedDice([6]) as d:
        fp.fire(["B"], "1210", d)
    assert fp.problems(["Mortar"], _h("1010"))[-1][0] == "C 9.5"


@pytest.mark.rule("C 9.5", "C 9")
def test_fire_phase_refuses_empty_or_mixed_fire():
    st = _fire_phase_state()
    fp = FirePhase(st, "direct")
    with pytest.raises(RuleViolation) as e:
        fp.fire([], "1010", ScriptedDice([]))
    assert e.value.rule == "C 9"
    with pytest.raises(RuleViolation) as e:
        fp.fire(["Rifles", "V1"], "1010", ScriptedDice([]))
    assert "both sides" in e.value.reason


# ====================================================================== C 10: weapon types and fire phases

@pytest.mark.rule("C 10")
def test_weapon_types():
    assert weapon_type(_coy("c")) == SMALL_ARMS
    assert weapon_type(_bn("b")) == SMALL_ARMS
    assert weapon_type(_weapon("r", VM, "infantry weapons", "75")) == RECOILLESS
    for o in ("81", "82", "120"):
        assert weapon_type(_weapon("m", FR, "infantry weapons", o)) == MORTAR
    assert weapon_type(_weapon("m", FR, "airborne infantry weapons", "120")) == MORTAR
    for o in ("75", "105", "155"):
        assert weapon_type(_weapon("h", FR, "howitzer", o)) == HOWITZER
    assert weapon_type(_weapon("aa", FR, "antiaircraft", ".50")) == HMG
    with pytest.raises(RuleViolation) as e:
        weapon_type(_weapon("vaa", VM, "antiaircraft", "37"))
    assert e.value.rule == "C 9" and "antiaircraft" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        weapon_type(_weapon("odd", FR, "infantry weapons", "60"))
    assert e.value.rule == "C 10"


@pytest.mark.rule("C 10")
def test_fire_modes():
    _, ranges, _ = default_charts()
    assert fire_mode(_weapon("m", FR, "infantry weapons", "81"), 1, ranges) == "indirect"
    assert fire_mode(_weapon("m", FR, "infantry weapons", "120"), 12, ranges) == "indirect"
    assert fire_mode(_coy("c"), 1, ranges) == "direct"
    assert fire_mode(_weapon("r", VM, "infantry weapons", "75"), 4, ranges) == "direct"
    assert fire_mode(_weapon("aa", FR, "antiaircraft", ".50"), 3, ranges) == "direct"
    for o in ("75", "105"):
        h = _weapon("h", FR, "howitzer", o)
        assert [fire_mode(h, r, ranges) for r in (1, 2, 3, 9)] == ["direct", "direct", "indirect", "indirect"]
    h155 = _weapon("h", FR, "howitzer", "155")
    assert [fire_mode(h155, r, ranges) for r in (1, 4, 5, 20)] == ["direct", "direct", "indirect", "indirect"]


@pytest.mark.rule("C 10")
def test_fire_phase_refuses_mortars_direct_and_small_arms_indirect():
    st = _fire_phase_state()
    with pytest.raises(RuleViolation) as e:
        FirePhase(st, "direct").fire(["Mortar"], "1010", ScriptedDice([6]))
    assert e.value.rule == "C 10" and "mortar" in e.value.reason and "indirect" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        FirePhase(st, "indirect", FR).fire(["Rifles"], "1010", ScriptedDice([6]))
    assert e.value.rule == "C 10" and "small arms" in e.value.reason
    # a 105 two hexes away fires direct, not indirect
    st.unit("A").hex = _h("1008")
    with pytest.raises(RuleViolation) as e:
        FirePhase(st, "indirect", FR).fire(["A"], "1010", ScriptedDice([6]))
    assert e.value.rule == "C 10"
    assert FirePhase(st, "direct").problems(["A"], _h("1010")) == []
    with ScriptedDice([6]) as d:
        FirePhase(st, "indirect", FR).fire(["Mortar"], "1010", d)
    assert FirePhase(st, "indirect", VM).problems(["B"], _h("1210"))[0][0] == "C 7"   # wrong sub-phase


# ---------------------------------------------------------------- line of sight

def _los(special=None, sides=None, units=(), a="1010", b="1013"):
    m = _map(special, sides)
    st = _state(m, [(_coy(f"u{i}"), lab) for i, lab in enumerate(units)])
    return line_of_sight(st, _h(a), _h(b))


@pytest.mark.rule("C 10")
def test_los_condition_1_units_in_between():
    assert _los().result is True
    blocked = _los(units=["1011"])
    assert blocked.result is False and any("condition 1" in s.text for s in blocked.steps)
    assert _los({"1010": "hill"}, units=["1011"]).result is True          # firer on a hill, blocker not
    assert _los({"1013": "hill"}, units=["1012"]).result is True          # target on a hill
    # the intervening unit on a hill blocks even when firer and target are on hills
    r = _los({"1010": "hill", "1013": "hill", "1011": "hill"}, units=["1011"])
    assert r.result is False and any("condition 1" in s.text for s in r.steps)
    # units at the ends of the line do not block
    assert _los(units=["1010", "1013"]).result is True


@pytest.mark.rule("C 10")
def test_los_condition_2_hills_in_between():
    r = _los({"1011": "hill"})
    assert r.result is False and any("condition 2" in s.text for s in r.steps)
    assert _los({"1011": "hill", "1010": "hill"}).result is False          # only one end on a hill
    assert _los({"1011": "hill", "1010": "hill", "1013": "hill"}).result is True
    # jungle hexes in between do not block by themselves (only full jungle hexsides do)
    assert _los({"1011": "full_jungle", "1012": "partial_jungle"}).result is True


@pytest.mark.rule("C 10")
def test_los_condition_3_full_jungle_hexside_unless_adjacent():
    r = _los(sides={("1011", "1012"): {"full_jungle"}})
    assert r.result is False and any("condition 3" in s.text for s in r.steps)
    assert _los(sides={("1010", "1011"): {"full_jungle"}}, b="1011").result is True
    assert _los(sides={("1011", "1012"): {"river", "barbed_wire"}}).result is True


@pytest.mark.rule("C 10")
def test_los_condition_4_along_a_hexside():
    from wargames.core import trace_line
    tr = trace_line(_h("1010"), _h("1210"))
    assert tr.intervening == () and {frozenset(p) for p in tr.along} == {frozenset({_h("1110"), _h("1111")})}
    assert _los(a="1010", b="1210").result is True
    one = _los(units=["1110"], a="1010", b="1210")
    assert one.result is True and any("at most one side blocks" in s.text for s in one.steps)
    assert _los({"1111": "hill"}, a="1010", b="1210").result is True
    both = _los({"1111": "hill"}, units=["1110"], a="1010", b="1210")
    assert both.result is False and any("condition 4" in s.text for s in both.steps)
    assert _los(units=["1110", "1111"], a="1010", b="1210").result is False
    jungle = _los(sides={("1110", "1111"): {"full_jungle"}}, a="1010", b="1210")
    assert jungle.result is False and any("full jungle hexside" in s.text for s in jungle.steps)


@pytest.mark.rule("C 10")
def test_direct_fire_needs_line_of_sight():
    st = _fire_phase_state()
    st.unit("A").hex = _h("1012")
    st.unit("Rifles").hex = _h("1011")
    with pytest.raises(RuleViolation) as e:
        FirePhase(st, "direct").fire(["A"], "1010", ScriptedDice([6]))
    assert e.value.rule == "C 10" and "line of sight" in e.value.reason


# ---------------------------------------------------------------- spotting

@pytest.mark.rule("C 10")
def test_spotting_conditions():
    m = _map({"1010": "full_jungle", "1210": "partial_jungle", "1410": "clear", "1610": "full_jungle"})
    rr = _weapon("RR", VM, "infantry weapons", "75", 2)
    h75 = _weapon("H75", VM, "howitzer", "75", 2)
    st = _state(m, [(_bn("V1"), "1010"), (_bn("V2"), "1210"), (_bn("V3"), "1410"), (rr, "1610"),
                    (h75, "0610"), (_coy("F"), "1211")])
    st.map.hexes[_h("0610")] = HexInfo("full_jungle")
    ok, why = spotted(st, _h("1410"), FR)
    assert ok and "condition 1" in why
    ok, why = spotted(st, _h("1010"), FR)
    assert not ok and "not spotted" in why
    ok, why = spotted(st, _h("1210"), FR)                # French company adjacent to the partial jungle hex
    assert ok and "condition 2" in why
    assert not spotted(st, _h("1610"), FR)[0]
    st.phase_index = 5
    st.fired_in["RR"] = 5                                 # fired in this same phase: not yet
    assert not spotted(st, _h("1610"), FR)[0]
    st.phase_index = 7
    ok, why = spotted(st, _h("1610"), FR)                # fired in an earlier phase and has not moved
    assert ok and "condition 3" in why
    st.moved_in["RR"] = 6                                 # moved after firing
    assert not spotted(st, _h("1610"), FR)[0]
    st.fired_in["H75"] = 5                                # a 75mm howitzer is no recoilless rifle
    assert not spotted(st, _h("0610"), FR)[0]


@pytest.mark.rule("C 10")
def test_indirect_fire_at_an_unspotted_target_is_refused():
    m = _map({"1010": "full_jungle"})
    st = _state(m, [(_bn("V"), "1010"), (_weapon("A"), "1016")])
    with pytest.raises(RuleViolation) as e:
        FirePhase(st, "indirect", FR).fire(["A"], "1010", ScriptedDice([6]))
    assert e.value.rule == "C 10" and "not spotted" in e.value.reason


# ====================================================================== C 13: monsoon swamps

@pytest.mark.rule("C 13")
def test_monsoon_swamp_is_clear_before_april_19_and_swamp_from_then():
    m = _map({"1003": "monsoon_swamp"})
    assert MONSOON_DATE == dt.date(1954, 4, 19)
    assert effective_terrain(m, _h("1003"), dt.date(1954, 4, 18)) == "clear"
    assert effective_terrain(m, _h("1003"), dt.date(1954, 4, 19)) == "swamp"
    assert effective_terrain(m, _h("1003"), dt.date(1954, 5, 7)) == "swamp"
    # before: the hex is clear hex #2, no VP
    st, ph = _vm_mover({"1003": "monsoon_swamp"}, date=dt.date(1954, 4, 18))
    ph.move("Bn", _col(range(2, 4)))
    assert _vps(ph, "Bn") == [] and ph.records["Bn"].clear_count == 2
    # from April 19: a swamp hex, a VP, and not clear
    st, ph = _vm_mover({"1003": "monsoon_swamp"}, date=dt.date(1954, 4, 19))
    ph.move("Bn", _col(range(2, 4)))
    assert _vps(ph, "Bn")[0][0] == "1003" and "swamp" in _vps(ph, "Bn")[0][1][0]
    assert ph.records["Bn"].clear_count == 1


@pytest.mark.rule("C 13", "C 9")
def test_monsoon_swamp_strongpoint_fire_modifier():
    before = _fire_state("monsoon_swamp", {"strongpoint"}, date=dt.date(1954, 4, 18))
    after = _fire_state("monsoon_swamp", {"strongpoint"}, date=dt.date(1954, 4, 19))
    res = Resolution()
    assert terrain_shift(before, _h("1010"), res) == -4
    assert terrain_shift(after, _h("1010"), res) == -2
    assert "clear" in res.steps[0].text and "strongpoint monsoon swamp -2" in res.steps[1].text
    # an ordinary swamp strongpoint keeps -4
    assert terrain_shift(_fire_state("swamp", {"strongpoint"}, date=dt.date(1954, 4, 19)), _h("1010"), res) == -4


# ====================================================================== C 19.C: tank losses

def _tank_state():
    return _state(_map(), [(_tank("T"), "1010"), (_coy("C", parent="P"), "1010"), (_bn("V"), "1012"),
                           (_weapon("VW", VM, "infantry weapons", "82", 3), "1013")])


@pytest.mark.rule("C 19.C")
@pytest.mark.parametrize("roll, disabled", [(1, True), (2, True), (3, True), (4, False), (5, False), (6, False)])
def test_tank_hit_roll(roll, disabled):
    st = _tank_state()
    t = st.unit("T")
    res = Resolution()
    with ScriptedDice([roll]) as d:
        take_loss(st, t, d, res)
    assert t.disabled is disabled and not t.eliminated
    assert st.phase_losses["T"] == 1                     # a hit counts as one loss whatever the roll
    assert res.steps[-1].rule == "C 19.C" and res.steps[-1].inputs["roll"] == roll
    assert t.strength == (1 if disabled else 3)


@pytest.mark.rule("C 19.C")
@pytest.mark.parametrize("roll, destroyed", [(1, True), (3, True), (4, False), (6, False)])
def test_disabled_tank_hit_again(roll, destroyed):
    st = _tank_state()
    t = st.unit("T")
    t.disabled = True
    with ScriptedDice([roll]) as d:
        take_loss(st, t, d, Resolution())
    assert t.eliminated is destroyed and t.disabled


@pytest.mark.rule("C 19.C", "C 9.2")
def test_tanks_are_immune_to_small_arms():
    st = _tank_state()
    st.unit("C").hex = _h("1009")                         # the tank alone in 1010
    res = Resolution()
    with ScriptedDice([]) as d:                           # no tank roll is made
        allocate_losses(st, [st.unit("T")], 2, VM, d, res, small_arms_only=True)
    assert not st.unit("T").disabled and "have no effect" in res.find("C 9.2")[0].text
    # small arms on the tank and a company: only the company can be hit
    st = _tank_state()
    with ScriptedDice([1]) as d:                          # 14 x2 (range 1) = 28 -> 23-30, roll 1 = 3P
        st.unit("V").hex = _h("1011")
        out = resolve_fire(st, ["V"], _h("1010"), d)
    assert out.result["code"] == "3P"
    assert not st.unit("T").disabled and st.unit("C").inverted
    # weapons fire can hit the tank; a hit with no effect still absorbs a loss
    st = _tank_state()
    with ScriptedDice([5]) as d:
        allocate_losses(st, [st.unit("T"), st.unit("C")], 2, VM, d, Resolution(), small_arms_only=False,
                        allocation=["T", "C"])
    assert not st.unit("T").disabled and st.unit("C").inverted and st.phase_losses == {"T": 1, "C": 1}


@pytest.mark.rule("C 19.C", "C 8")
def test_disabled_tanks_may_not_move():
    st = _tank_state()
    st.unit("T").disabled = True
    with pytest.raises(RuleViolation) as e:
        MovementPhase(st, FR).move("T", ["1011"])
    assert e.value.rule == "C 19.C"


# ====================================================================== property tests

@functools.lru_cache(maxsize=None)
def _anne_marie() -> CitadelState:
    return anne_marie_setup()     # loading the map excerpt is slow-ish: do it once, then copy


def _check_replay(run):
    st = run.phase.state
    firers = [s["firer"] for s in run.shots]
    assert len(firers) == len(set(firers)), "a unit fired twice in one movement phase"
    vps = [(s["target"], s["hex"]) for s in run.shots]
    assert len(vps) == len(set(vps)), "a vulnerability point was fired at twice"
    assert run.phase.finished
    for uid in FIRST_LEGS:
        rec = run.phase.records[uid]
        assert rec.status == "done", uid
        assert st.unit(uid).pinned == (rec.end_reason == "pinned by opportunity fire"), (uid, rec.end_reason)
        if rec.end_reason == "entered an enemy zone of control":
            assert any(st.unit(uid).hex.is_adjacent(f.hex) for f in st.on_board(Side.FRENCH))
    for uid, rec in run.phase.records.items():
        for vp in rec.vps:
            assert vp.fired_by is None or vp.fired_by in BATTERIES


@pytest.mark.rule("C 8", "C 9")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hst.integers(0, 2**32 - 1))
def test_replay_invariants_with_random_dice(seed):
    _check_replay(replay_movement_example(RandomDice(seed), state=_anne_marie().copy()))


@pytest.mark.rule("C 8", "C 9")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=hst.lists(hst.integers(1, 6), min_size=12, max_size=12),
       order=hst.permutations(BATTERIES))
def test_replay_invariants_with_scripted_dice_and_any_assignment(script, order):
    assignment = dict(zip(FIRST_LEGS, order))
    run = replay_movement_example(ScriptedDice(script), assignment=assignment, state=_anne_marie().copy())
    _check_replay(run)
    assert {s["firer"] for s in run.shots if s["round"] == 1} == set(order[:4])


def _one_shot(dice, base):
    st = base.copy()
    ph = MovementPhase(st, VM)
    ph.move("Bn", _col(range(2, 5)))
    ph.end_moves()
    r = ph.opportunity_fire("F105", "Bn", dice).result
    return r["code"], st.unit("Bn").strength


@pytest.mark.rule("C 8", "C 9")
def test_enumerated_odds_agree_with_random_samples():
    m = _map(cols=range(8, 13), rows=range(1, 12))
    base = _state(m, [(_bn("Bn"), "1001"), (_weapon("F105"), "1211")])
    dist = enumerate_outcomes(_one_shot, base)
    assert sum(dist.values()) == 1 and len(dist) >= 3
    n = 2000
    dice = RandomDice(20240517)
    counts = Tally(_one_shot(dice, base) for _ in range(n))
    assert set(counts) <= set(dist)
    for outcome, p in dist.items():
        assert abs(counts[outcome] / n - float(p)) < 0.05, (outcome, counts[outcome], p)


# ---------------------------------------------------------------- defects found by random play (issue 8)

def _to_phase(g: CitadelGame, phase_id: str) -> None:
    while g.phase.id != phase_id:
        g.advance()


@pytest.mark.rule("C 9", "C 7", "C 10")
def test_the_indirect_fire_phase_is_one_simultaneous_fire_phase():
    """A French battery pinned, or even eliminated, by Vietminh indirect fire still fires in the same phase."""
    m = _map({"1010": "full_jungle"})
    st = _state(m, [(_weapon("V120", VM, "infantry weapons", "120", 8), "1001"), (_weapon("F105"), "1015"),
                    (_bn("Target"), "1019"), (_coy("Spot"), "1018")])
    g = CitadelGame(st, phase="VM movement")
    _to_phase(g, "VM turn: VM indirect fire")
    vm = g.fire_phase()
    vm.fire(["V120"], "1015", ScriptedDice([1]))                # 8 x4? at range 14: whatever column, a 1 pins
    assert st.unit("F105").pinned
    _to_phase(g, "VM turn: French indirect fire")
    fr = g.fire_phase()
    assert fr.problems(["F105"], _h("1019")) == []              # pinned in this fire phase: it still fires
    st.unit("F105").eliminated = True                           # eliminated in it: it still fires, too
    assert fr.problems(["F105"], _h("1019")) == []
    st.unit("F105").eliminated = False
    _to_phase(g, "VM direct fire")                              # the next fire phase: the pin now holds
    assert any("pinned earlier" in r for _, r in g.fire_phase().problems(["F105"], _h("1016")))


@pytest.mark.rule("C 9")
def test_units_fire_with_the_strength_they_had_when_the_fire_phase_began():
    st = _state(_map(), [(_coy("A"), "1010"), (_bn("V"), "1012")])
    res = Resolution()
    take_loss(st, st.unit("A"), ScriptedDice([]), res)         # flipped to 2 SP by a loss in this phase
    fire_strength(st, ["A"], _h("1012"), out := Resolution())
    assert out.steps[0].inputs["unit"] == "A" and out.steps[0].text.startswith("A: 3 SP")


@pytest.mark.rule("C 10")
def test_a_howitzer_fires_in_the_direct_or_the_indirect_fire_phase_never_both():
    st = _state(_map(), [(_weapon("F105"), "1010"), (_bn("Far"), "1016"), (_bn("Near"), "1012")])
    g = CitadelGame(st, phase="VM movement")
    _to_phase(g, "VM turn: French indirect fire")
    with ScriptedDice([6]) as d:
        g.fire_phase().fire(["F105"], "1016", d)                 # 6 hexes: indirect
    _to_phase(g, "VM direct fire")
    problems = g.fire_phase().problems(["F105"], _h("1012"))   # 2 hexes: direct
    assert ("C 10", "F105 fired in this player turn's other fire phase; a howitzer fires in the direct or "
                    "the indirect fire phase, never both") in problems
    _to_phase(g, "French direct fire")                          # the next player turn: free again
    assert g.fire_phase().problems(["F105"], _h("1012")) == []


@pytest.mark.rule("C 14.B")
def test_small_arms_may_not_fire_at_units_in_a_strongpoint():
    m = _map({"1012": ("clear", {"strongpoint"})})
    st = _state(m, [(_bn("V"), "1011"), (_coy("F"), "1012"), (_weapon("VM75", VM, "infantry weapons", "75", 3), "1010")],
                phase="VM direct fire")
    fp = FirePhase(st, "direct")
    assert ("C 14.B", "V fires small arms, and small arms may not fire at units in the strongpoint 1012") in \
        fp.problems(["V"], _h("1012"))
    assert not [p for p in fp.problems(["VM75"], _h("1012")) if p[0] == "C 14.B"]   # a recoilless rifle may


@pytest.mark.rule("C 18", "C 8", "C 13")
@pytest.mark.parametrize("works", ["tunnel", "weapons_pit"])
def test_weapons_pits_and_tunnels_count_as_trenches(works):
    terrain = "hill" if works == "tunnel" else "clear"
    st, ph = _vm_mover({"1003": (terrain, {works})})
    assert ph.exemption(_h("1003")).startswith(f"a Vietminh unit in a {works.replace('_', ' ')} hex (it counts as a trench")
    st2, ph2 = _fr_mover({"1003": ("clear", {works})})
    ph2.move("Coy", ["1002", "1003"])
    assert "counts as a trench" in " ".join(ph2.records["Coy"].vps[-1].reasons)
    res = Resolution()
    _, _, tec = default_charts()
    shift = terrain_shift(st, _h("1003"), res)
    plain = terrain_shift(_state(_map({"1003": (terrain, {"trench"})}), []), _h("1003"), Resolution())
    assert shift == plain and "as a trench, C 18" in res.steps[-1].text


@pytest.mark.rule("C 8", "C 10")
def test_strategic_movement_and_reentry_count_as_movement():
    zones = {lab: ("full_jungle", (), {"zone": z}) for lab, z in (("0101", "A"), ("0102", "A"), ("0103", "A"),
                                                                    ("1901", "B"), ("1902", "B"), ("1903", "B"))}
    m = _map(zones)
    st = _state(m, [(_bn("B1", regiment="R"), "0101"), (_weapon("W", VM, "infantry weapons", "82", 3, "R"), "0102"),
                    (_weapon("Free", VM, "infantry weapons", "75", 3), "0103")])
    st.unit("Free").off_board, st.unit("Free").exited_at, st.unit("Free").hex = True, -1, None
    ph = MovementPhase(st, VM)
    ph.strategic_move("R", {"B1": "1901", "W": "1902"})
    ph.reenter("Free", "1903")
    assert st.moved_in == {"B1": 0, "W": 0, "Free": 0}
    assert st.weapons_moved_in == {"W": 0, "Free": 0}           # so neither fires in the next direct fire phase


@pytest.mark.rule("C 8")
def test_pinned_or_paused_units_cannot_exit_and_batteries_reenter_only_before_opportunity_fire():
    m = _map({"1005": "full_jungle"})
    st = _state(m, [(_weapon("Free", VM, "infantry weapons", "75", 3), "1001"), (_weapon("Out", VM, "infantry weapons", "82", 3), None),
                    (_weapon("F105", FR), "1820")])
    st.unit("Out").off_board, st.unit("Out").exited_at = True, -1
    ph = MovementPhase(st, VM)
    st.unit("Free").pinned = True
    with pytest.raises(RuleViolation, match="pinned"):
        ph.exit_board("Free")
    st.unit("Free").pinned = False
    ph.move("Free", _col(range(2, 5)))                          # pauses at clear hex #3
    with pytest.raises(RuleViolation, match="paused"):
        ph.exit_board("Free")
    ph.end_moves()
    ph.end_fire()
    with pytest.raises(RuleViolation, match="before the first opportunity fire"):
        ph.reenter("Out", "1005")
    assert MovementPhase(st, VM).reenter("Out", "1005")        # a fresh phase: step 1, allowed


@pytest.mark.rule("C 6", "C 8")
def test_two_battalions_can_never_end_in_one_hex():
    st, ph = _vm_mover(extra=[(_bn("Other"), "1003")])
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", ["1002", "1003"])
    assert e.value.rule == "C 6" and "1003" in e.value.reason
    assert "Bn" not in ph.records
    ph.move("Bn", ["1002"])
    ph.stop("Bn")
    assert stacking_problem(st.units_at(_h("1003"), VM)) is None


# ---------------------------------------------------------------- legal_actions / apply / replay (DESIGN §2)



@pytest.mark.rule("C 8", "C 18")
def test_vietminh_weapons_in_a_trench_take_no_opportunity_fire_but_from_a_pit_they_do():
    st, ph = _fr_mover()
    ph.move("Coy", _col(range(2, 5)))
    ph.end_moves()
    assert ph.eligible_firers("Coy") == ["V105"]
    st.works[_h("1820")] = "trench"
    assert ph.eligible_firers("Coy") == []
    with pytest.raises(RuleViolation) as e:
        ph.opportunity_fire("V105", "Coy", ScriptedDice([1]))
    assert "trench" in e.value.reason and "C 18" in e.value.reason
    st.works[_h("1820")] = "weapons_pit"
    assert ph.eligible_firers("Coy") == ["V105"]


def test_a_copied_state_is_independent_and_copies_each_shared_object_once():
    """The state's hand-written deep copy: changing the copy leaves the original as it was; the map and
    charts are shared; a unit or set reached from outside the state too is copied once, as ``copy.deepcopy``
    would; and the copy's unit index by hex follows its own units."""
    import copy

    st = anne_marie_setup()
    st.fired.add("105-A")
    st.works[next(iter(st.map.hexes))] = "trench"
    u = next(u for u in st.units.values() if u.on_board)
    here = u.hex
    assert u in st.units_at(here)
    unit, fired, new = copy.deepcopy((u, st.fired, st), {id(st.map): st.map})
    assert new.units[u.id] is unit and new.fired is fired and unit is not u
    assert new.map is st.map
    new.fired.add("120-B")
    new.works.clear()
    new.phase_losses["x"] = 1
    unit.losses += 1
    assert st.fired == {"105-A"} and st.works and "x" not in st.phase_losses and u.losses == unit.losses - 1
    assert st.copy().units[u.id] is not u
    assert new.units_at(here) == [v for v in new.units.values() if v.on_board and v.hex == here]
    assert all(v is new.units[v.id] for v in new.units_at(here))
