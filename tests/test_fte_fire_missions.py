"""FTE fire missions (F 16.0): the chart and its constraints, accuracy, scatter, the area and the attacks."""
import copy
from fractions import Fraction

import pytest

from wargames.core import DataError, Resolution, RuleViolation, ScriptedDice, enumerate_outcomes
from wargames.fte import fire_missions as fm
from wargames.fte.charts import DATA
from wargames.fte.state import FireMission, FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Unit
from wargames.core.charts import read_yaml

M = demo_map()
RAW = read_yaml(DATA / "fire_missions.yaml")


def _state(*units: Unit, **kw) -> FteState:
    st = FteState(M, **kw)
    st.vp = {"US": 10, "NVA/VC": 10}
    place(st, units)
    return st


def _ft(uid, where, side="NVA", **kw):
    return Unit(uid, side, fire_rating=4, weapon="SA", tq=4, men=4, hex=M.hex(where), **kw)


def _mission(st, kind="BN Mortar", target="22.22", side="US"):
    m = FireMission(side, kind, st.hex(target), st.turn)
    st.fire_missions.append(m)
    return m


# --------------------------------------------------------------------------- the chart

@pytest.mark.rule("F 16.0")
@pytest.mark.parametrize("constraint", fm.CONSTRAINTS, ids=lambda c: c.id)
def test_shipped_chart_meets_each_constraint(constraint):
    assert constraint.check(fm.default_fire_mission_chart())


def _with(change):
    data = copy.deepcopy(RAW)
    change(data)
    return fm.load_fire_mission_chart("edited.yaml", data=data)


@pytest.mark.rule("F 16.0")
@pytest.mark.parametrize("change,broken", [
    (lambda d: d["accuracy"].__setitem__("on_target_max", 5), "FM-accuracy"),
    (lambda d: d["missions"]["ARTY"].__setitem__("radius", 1), "FM-area"),
    (lambda d: d["missions"]["BN Mortar"].__setitem__("scatter_divisor", 3), "FM-scatter"),
    (lambda d: d["missions"]["ARTY"].__setitem__("weapon", "DP"), "FM-he"),
    (lambda d: d["missions"]["ARTY"].__setitem__("fire_rating", 10), "FM-rating-range"),
    (lambda d: d["missions"]["BN Mortar"].__setitem__("fire_rating", 3), "FM-rating-floor"),
    (lambda d: d["missions"]["ARTY"].__setitem__("fire_rating", 4), "FM-rating-order"),
    (lambda d: d["directions"].__setitem__(2, "north"), "FM-directions"),
])
def test_each_constraint_catches_a_bad_chart(change, broken):
    assert broken in fm.check_constraints(_with(change))


@pytest.mark.rule("F 16.0")
def test_reconstructed_values_are_marked():
    c = fm.default_fire_mission_chart()
    assert c.missions["ARTY"]["fire_rating"].provenance.reconstructed
    assert c.directions[1].provenance.reconstructed
    assert c.missions["ARTY"]["radius"].provenance.kind == "text"
    assert c.accuracy["observer_drm"].provenance.kind == "text"


@pytest.mark.rule("F 16.0")
@pytest.mark.parametrize("change,field", [
    (lambda d: d["missions"].pop("ARTY"), "missions.ARTY"),
    (lambda d: d["missions"]["ARTY"].__setitem__("weapon", "laser"), "missions.ARTY.weapon"),
    (lambda d: d["missions"]["ARTY"].__setitem__("fire_rating", "six"), "missions.ARTY.fire_rating"),
    (lambda d: d["missions"]["ARTY"].__setitem__("colour", "red"), "missions.ARTY.colour"),
    (lambda d: d["directions"].__setitem__(7, "north"), "directions[7]"),
    (lambda d: d["directions"].__setitem__(3, "up"), "directions[3]"),
    (lambda d: d["directions"].pop(6), "directions[6]"),
    (lambda d: d["directions"].__setitem__("up", "north"), "directions.up"),
    (lambda d: d["accuracy"].pop("always_scatters"), "accuracy.always_scatters"),
])
def test_bad_chart_files_raise_data_errors_naming_the_cell(change, field):
    with pytest.raises(DataError) as e:
        _with(change)
    assert e.value.field == field and e.value.file == "edited.yaml"


# --------------------------------------------------------------------------- accuracy and scatter

def _accurate(dice, observer=False, side="US"):
    st = _state()
    st.aerial_observer = observer
    return fm.accuracy(st, _mission(st, side=side), dice, Resolution())[0]


@pytest.mark.rule("F 16.0", "F 19.8")
def test_exact_accuracy_with_and_without_the_aerial_observer():
    assert enumerate_outcomes(_accurate)[True] == Fraction(3, 5)
    assert enumerate_outcomes(_accurate, observer=True)[True] == Fraction(4, 5)
    assert enumerate_outcomes(_accurate, observer=True, side="NVA/VC")[True] == Fraction(3, 5)


@pytest.mark.rule("F 16.0", "F 19.8")
@pytest.mark.parametrize("roll,observer,on", [(6, False, True), (7, False, False), (1, False, True),
                                              (8, True, True), (9, True, False), (10, True, False)])
def test_accuracy_bands(roll, observer, on):
    assert _accurate(ScriptedDice([roll]), observer) is on


@pytest.mark.rule("F 16.0")
def test_exact_scatter_distances():
    dist = lambda div: enumerate_outcomes(lambda d: fm.scatter_distance(d.roll(10), div))   # noqa: E731
    assert dict(dist(5)) == {1: Fraction(1, 2), 2: Fraction(1, 2)}
    assert dict(dist(3)) == {1: Fraction(3, 10), 2: Fraction(3, 10), 3: Fraction(3, 10), 4: Fraction(1, 10)}


@pytest.mark.rule("F 16.0")
@pytest.mark.parametrize("d6,d10,kind,lands", [
    (1, 10, "BN Mortar", "22.20"),     # north 2 hexes
    (4, 3, "BN Mortar", "22.23"),      # south 1 hex
    (2, 4, "ARTY", "24.21"),           # north-east 2 hexes
    (6, 10, "ARTY", "18.20"),          # north-west 4 hexes
])
def test_scatter_direction_and_distance(d6, d10, kind, lands):
    st = _state()
    with ScriptedDice([d6, d10]) as d:
        impact, _, _ = fm.scatter(st, _mission(st, kind), d, Resolution())
    assert st.label(impact) == lands


@pytest.mark.rule("F 16.0")
def test_area_sizes_and_the_map_edge():
    st = _state()
    assert len(fm.area(st, st.hex("21.20"), "BN Mortar")) == 7
    assert len(fm.area(st, st.hex("21.20"), "ARTY")) == 19
    assert len(fm.area(st, st.hex("17.15"), "BN Mortar")) < 7


# --------------------------------------------------------------------------- execution

@pytest.mark.rule("F 16.0", "F 7.4")
def test_golden_an_accurate_mortar_mission_breaks_a_unit_without_a_retreat():
    st = _state(_ft("n", "22.22"), _ft("far", "24.26"))
    m = _mission(st)
    res = Resolution()
    # accuracy 3 (on target); grass +1 so the rating 5 needs 4: roll 4 hits; effect 6 on the HE column is B
    with ScriptedDice([3, 4, 6]) as d:
        outs = fm.execute_fire_missions(st, d, res)
    (out,) = outs
    assert out.on_target and st.label(out.impact) == "22.22" and len(out.area) == 7
    (att,) = out.attacks
    assert (att.need, att.hit, att.effect, att.applied) == (4, True, "B", "B")
    assert st.units["n"].broken and st.label(st.units["n"].hex) == "22.22"
    assert st.fire_missions == []


@pytest.mark.rule("F 16.0")
def test_hits_friend_and_foe_alike_and_ignores_jungle_and_concealment():
    st = _state(_ft("n", "20.21", concealed=True), _ft("u", "20.22", side="US"))
    m = _mission(st, target="20.21")
    res = Resolution()
    with ScriptedDice([1, 5, 9, 5, 9]) as d:           # on target; both units: rating 5, no DRM -> need 5
        out = fm.execute_mission(st, m, d, res)
    assert [a.target for a in out.attacks] == ["n", "u"]
    assert all(a.need == 5 and a.hit for a in out.attacks)


@pytest.mark.rule("F 16.0", "F 7.0", "F 6.9")
def test_high_helicopters_and_passengers_are_not_attacked():
    heli = Unit("h", "US", kind="helicopter", role="slick", tq=5, men=4, altitude="high", hex=M.hex("22.22"))
    low = Unit("g", "US", kind="helicopter", role="slick", tq=5, men=4, altitude="ground", hex=M.hex("22.23"))
    rider = _ft("p", "22.23", side="US", loaded_in="g")
    st = _state(heli, low, rider)
    m = _mission(st)
    with ScriptedDice([2, 10]) as d:                    # on target; the grounded slick is missed
        out = fm.execute_mission(st, m, d, Resolution())
    assert out.skipped == ["h"] and [a.target for a in out.attacks] == ["g"]


@pytest.mark.rule("F 16.0")
def test_a_scattered_artillery_mission_lands_elsewhere():
    st = _state(_ft("n", "24.23"), _ft("x", "23.20"))
    m = _mission(st, "ARTY", "24.24")
    # scatter (8); north (1); ceil(10/3) = 4 hexes -> 24.20, whose 19 hexes hold 23.20 but not 24.23
    with ScriptedDice([8, 1, 10, 10]) as d:
        out = fm.execute_mission(st, m, d, Resolution())
    assert st.label(out.impact) == "24.20" and out.distance == 4 and not out.on_target
    assert [a.target for a in out.attacks] == ["x"] and not out.attacks[0].hit


@pytest.mark.rule("F 16.0")
def test_cancel_before_the_accuracy_roll_only_by_the_requester():
    st = _state(_ft("n", "22.22"))
    keep, drop = _mission(st), _mission(st, target="20.20")
    res = Resolution()
    with pytest.raises(RuleViolation) as e:
        fm.cancel_fire_mission(st, drop, res, who="NVA/VC")
    assert e.value.rule == "F 16.0"
    with ScriptedDice([7, 1, 1, 10]) as d:            # keep scatters north 1 to 22.21; its attack on n misses
        outs = fm.execute_fire_missions(st, d, res, cancel=[drop])
    assert [o.cancelled for o in outs] == [False, True]
    assert st.fire_missions == []
    with pytest.raises(RuleViolation):
        fm.cancel_fire_mission(st, drop, res)


@pytest.mark.rule("F 16.0")
def test_only_missions_due_now_execute():
    st = _state(turn=3)
    later = FireMission("US", "ARTY", st.hex("22.22"), 4)
    now = FireMission("US", "BN Mortar", st.hex("22.22"), 3)
    st.fire_missions = [later, now]
    assert fm.due(st) == [now]
    with ScriptedDice([2]) as d:
        fm.execute_fire_missions(st, d, Resolution())
    assert st.fire_missions == [later]


@pytest.mark.rule("F 16.0", "F 29.0")
def test_casualties_from_a_mission_score_for_the_enemy_of_the_victim():
    st = _state(_ft("n", "20.20"))
    m = _mission(st, target="20.20")
    with ScriptedDice([1, 1, 3]) as d:                 # on target, hit, HE 3 = WIA
        fm.execute_mission(st, m, d, Resolution())
    assert st.vp == {"US": 13, "NVA/VC": 10} and len(st.casualties) == 1
