"""Indochina optional rules 27-31 (overrun, ambush, intervention, atomic bombs, General Offensive) and 24 (victory)."""
from fractions import Fraction

import pytest

from wargames.core import ScriptedDice, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.indochina import Side
from wargames.indochina.optional import (AmbushLog, AtomicBombs, GeneralOffensive, Intervention, ambush,
                                         ambush_qualified, atomic_bomb_supply, check_ambush, check_chinese_placement,
                                         check_overrun_size, check_us_port, chinese_air_force, declare_intervention,
                                         drop_atomic_bomb, drop_off, fallout, force_step, form_force, overrun)
from wargames.indochina.political import PoliticalPoints
from wargames.indochina.state import IndochinaState, demo_map
from wargames.indochina.units import Counter
from wargames.indochina.victory import Place, ceasefire, collapse, military_victory, political_victory, victory

COM, FEF = Side.COMMUNIST, Side.FEF


def unit(uid, side, utype="regular infantry", size="group", s=6, m=8, ds=3, dm=4, **kw):
    return Counter(uid, side, utype, size, s, m, ds, dm, **kw)


def position(*placed, monsoon=False):
    return IndochinaState.build(demo_map(), placed, monsoon=monsoon)


def mech(uid="GM", **kw):
    return unit(uid, FEF, "mechanized", **kw)


def vm(uid="VM", s=2, **kw):
    return unit(uid, COM, size="regiment", s=s, m=6, ds=1, dm=3, **kw)


# ------------------------------------------------------------------------------------------------ 27 overrun

def overrun_position():
    """A mechanized group (6) in Pleiku (1515) next to a 2-strength VM regiment in the open (1614): 3/1,
    one left for the overrun: 2/1 on the Mobile CRT (the Communist picks: the attacker is Heavy)."""
    return position((mech(), "1515"), (vm(), "1614"))


@pytest.mark.rule("IC 27.1", "IC 27.3", "IC 27.33", "IC 27.0", "IC 27.22")
def test_overrun_costs_four_mp_and_may_repeat_while_mp_last():
    st = overrun_position()
    f = form_force(st, ["GM"])
    with ScriptedDice([3]) as d:                                  # 2/1, roll 3: SK
        res = overrun(st, f, "1614", "Mobile", d)
    assert res.result["column"] == "2/1" and res.result["code"] == "SK"
    assert res.find("IC 27.3") and f.spent["GM"] == 4 and not f.stopped
    assert st.unit("VM").disrupted
    with ScriptedDice([4]) as d:                                  # 6 vs 1: 6/1 - 1 = 5/1, roll 4: DR
        res = overrun(st, f, "1614", "Mobile", d)
    assert res.result["code"] == "DR" and st.unit("VM").eliminated      # disrupted twice by combat (14.4)
    assert f.remaining(st) == 0
    assert res.result["advance"] == 0 and st.label(st.unit("GM").hex) == "1515"
    with pytest.raises(RuleViolation) as e:
        overrun(st, f, "1714", "Mobile", ScriptedDice([1]))
    assert e.value.rule in ("IC 27.1", "IC 27.33")


@pytest.mark.rule("IC 27.1")
def test_overrun_needs_four_mp_left():
    st = overrun_position()
    f = form_force(st, ["GM"])
    f.spent["GM"] = Fraction(9, 2)
    with pytest.raises(RuleViolation) as e:
        overrun(st, f, "1614", "Mobile", ScriptedDice([1]))
    assert e.value.rule == "IC 27.1" and "4" in e.value.reason


@pytest.mark.rule("IC 27.42", "IC 27.4")
@pytest.mark.parametrize("roll,code,stops", [(1, "AD", True), (2, "NE", True), (3, "SK", False), (4, "DD", False)])
def test_overrun_termination(roll, code, stops):
    st = overrun_position()
    f = form_force(st, ["GM"])
    with ScriptedDice([roll]) as d:
        res = overrun(st, f, "1614", "Mobile", d)
    assert res.result["code"] == code and f.stopped is stops
    if stops:
        with pytest.raises(RuleViolation) as e:
            force_step(st, f, "1516")
        assert e.value.rule == "IC 27.42"


@pytest.mark.rule("IC 27.42", "IC 27.3")
def test_overrun_distribution_is_exact():
    """Every face of the die on the 2/1 column: the force stops on AD or NE, one chance in three."""
    def one(dice):
        st = overrun_position()
        f = form_force(st, ["GM"])
        r = overrun(st, f, "1614", "Mobile", dice, choices={"retreats": {"VM": "1714"}})
        return r.result["code"], f.stopped
    dist = enumerate_outcomes(one)
    assert dist[("DR", False)] == Fraction(2, 6) and dist[("NE", True)] == Fraction(1, 6)
    assert dist.prob(lambda o: o[1]) == Fraction(1, 3)


@pytest.mark.rule("IC 27.41")
def test_no_advance_after_an_overrun():
    st = position((mech(s=20), "1515"), (vm(), "1614"))        # 10/1 -> 7/1 - 1 = 6/1; roll 6: DE
    f = form_force(st, ["GM"])
    with ScriptedDice([6]) as d:
        res = overrun(st, f, "1614", "Mobile", d)
    assert res.result["code"] == "DE" and st.unit("VM").eliminated
    assert res.result["advance"] == 0 and res.find("IC 27.41") and st.label(st.unit("GM").hex) == "1515"
    assert not f.stopped and f.remaining(st) == 4


@pytest.mark.rule("IC 27.31")
def test_overrun_counts_terrain():
    st = position((mech(), "1515"), (vm(), "1415"))               # jungle: 2 left for a Communist defender
    f = form_force(st, ["GM"])
    with ScriptedDice([4]) as d:
        res = overrun(st, f, "1415", "Mobile", d)
    assert res.result["column"] == "1/2" and res.result["code"] == "NE"     # 3/1, 2 left for jungle, 1 for the overrun
    assert res.find("IC 27.31")


@pytest.mark.rule("IC 27.21")
def test_overrun_force_size_and_stacking():
    # The rulebook's case: two groups in a hex, a division moves in and overruns: 2 divisions, allowed.
    div = mech("DIV", size="division")
    st = position((div, "1516"), (unit("G1", FEF), "1515"), (unit("G2", FEF), "1515"), (vm(), "1614"))
    f = form_force(st, ["DIV"])
    force_step(st, f, "1515")
    assert check_overrun_size(st, f) == 1
    # A force of a division and three groups is 2.5 divisions: too big.
    st = position(*[(mech(f"G{i}"), "1515") for i in range(5)], (vm(), "1614"))
    with pytest.raises(RuleViolation) as e:
        overrun(st, form_force(st, [f"G{i}" for i in range(5)]), "1614", "Mobile", ScriptedDice([1]))
    assert e.value.rule == "IC 27.21" and "four regiments" in e.value.reason
    # Four groups are the limit, but not out of a hex overstacked by a fifth.
    with pytest.raises(RuleViolation) as e:
        overrun(st, form_force(st, [f"G{i}" for i in range(4)]), "1614", "Mobile", ScriptedDice([1]))
    assert e.value.rule == "IC 27.21" and "overstacked" in e.value.reason


@pytest.mark.rule("IC 27.2")
def test_force_moves_together_and_may_only_drop_units():
    st = position((mech("A"), "1515"), (mech("B"), "1515"), (mech("C"), "1516"), (vm(), "1614"))
    with pytest.raises(RuleViolation) as e:
        form_force(st, ["A", "C"])
    assert e.value.rule == "IC 27.2"
    f = form_force(st, ["A", "B"])
    res = force_step(st, f, "1516")
    assert st.label(st.unit("A").hex) == st.label(st.unit("B").hex) == "1516" and not res.result["zoc_to_zoc"]
    drop_off(f, "B")
    assert f.units == ["A"] and f.dropped == ["B"]
    with pytest.raises(RuleViolation):
        drop_off(f, "A")
    with pytest.raises(RuleViolation):
        drop_off(f, "C")


@pytest.mark.rule("IC 27.22")
def test_overrun_targets_one_adjacent_enemy_hex():
    st = overrun_position()
    f = form_force(st, ["GM"])
    with pytest.raises(RuleViolation) as e:
        overrun(st, f, ["1614", "1615"], "Mobile", ScriptedDice([1]))
    assert e.value.rule == "IC 27.22"
    with pytest.raises(RuleViolation) as e:
        overrun(st, f, "1615", "Mobile", ScriptedDice([1]))
    assert e.value.rule == "IC 27.22"
    with pytest.raises(RuleViolation) as e:
        overrun(st, f, "1714", "Mobile", ScriptedDice([1]))
    assert e.value.rule == "IC 27.33"
    with pytest.raises(RuleViolation) as e:
        overrun(st, f, "1614", "Mobile", ScriptedDice([1]), chosen_by=FEF)
    assert e.value.rule == "IC 13.31"


# ------------------------------------------------------------------------------------------------ 28 ambush

def pleiku():
    """The rulebook's ambush: an FEF mechanized group goes from Pleiku (1515) south to 1516; the VM regiment
    south-west of Pleiku (1415, jungle) has a ZOC on both."""
    st = position((mech(), "1515"), (vm(s=4), "1415"))
    f = form_force(st, ["GM"])
    step = force_step(st, f, "1516")
    return st, f, step


@pytest.mark.rule("IC 28.1", "IC 28.2", "IC 28.0", "IC 28.5", "IC 28.52")
def test_the_pleiku_ambush():
    st, f, step = pleiku()
    assert step.result["zoc_to_zoc"] and f.spent["GM"] == Fraction(9, 4)      # road 1/4 + ZOC to ZOC 2
    log = AmbushLog(FEF)
    with ScriptedDice([6]) as d:
        res = ambush(st, f, "1515", "1415", log, "Mobile", d)
    # 6 vs 4: 1/1; jungle 2 left and ambush 2 left: past the lowest column, 1/3. Roll 6: SK.
    assert res.result["column"] == "1/3" and res.result["code"] == "SK"
    assert res.find("IC 28.2")
    assert f.spent["GM"] == Fraction(9, 4)                                      # no MP for the ambush
    assert st.unit("VM").disrupted and not f.stopped and res.result["advance"] == 0
    assert log.used == {"VM"}


@pytest.mark.rule("IC 28.52", "IC 28.51")
@pytest.mark.parametrize("roll,code,stops", [(1, "AE", True), (2, "AR", True), (4, "AD", True), (5, "NE", True),
                                             (6, "SK", False)])
def test_ambush_termination(roll, code, stops):
    st, f, _ = pleiku()
    with ScriptedDice([roll]) as d:
        res = ambush(st, f, "1515", "1415", AmbushLog(FEF), "Mobile", d, choices={"retreats": {"GM": "1517"}})
    assert res.result["code"] == code and res.result["stopped"] is stops and f.stopped is stops


@pytest.mark.rule("IC 28.2", "IC 28.52")
def test_ambush_distribution():
    def one(dice):
        st, f, _ = pleiku()
        return ambush(st, f, "1515", "1415", AmbushLog(FEF), "Mobile", dice,
                      choices={"retreats": {"GM": "1517"}}).result["stopped"]
    assert enumerate_outcomes(one)[True] == Fraction(5, 6)


@pytest.mark.rule("IC 28.3")
def test_ambush_once_per_unit_per_phase_and_only_in_movement():
    st, f, _ = pleiku()
    log = AmbushLog(FEF)
    with pytest.raises(RuleViolation) as e:
        check_ambush(st, ["GM"], "1515", "1415", log, phase_kind="retreat")
    assert e.value.rule == "IC 28.3"
    with ScriptedDice([6]) as d:
        ambush(st, f, "1515", "1415", log, "Mobile", d)
    with pytest.raises(RuleViolation) as e:
        check_ambush(st, ["GM"], "1515", "1415", log)
    assert e.value.rule == "IC 28.3" and "once" in e.value.reason


@pytest.mark.rule("IC 28.1")
def test_ambush_needs_a_zoc_to_zoc_move_next_to_the_ambushers():
    st = position((mech(), "1514"), (vm(s=4), "1415"))
    f = form_force(st, ["GM"])
    force_step(st, f, "1515")                                      # from outside the ZOC into it
    with pytest.raises(RuleViolation) as e:
        check_ambush(st, ["GM"], "1514", "1415", AmbushLog(FEF))
    assert e.value.rule == "IC 28.1"
    st, f, _ = pleiku()
    with pytest.raises(RuleViolation) as e:
        check_ambush(st, ["GM"], "1515", "1313", AmbushLog(FEF))
    assert e.value.rule == "IC 28.1"


@pytest.mark.rule("IC 28.4")
def test_who_may_ambush():
    st = position((vm("L", s=4), "1415"), (vm("open", s=4), "1614"), (vm("L2"), "1416"),
                  (unit("ART", COM, "artillery", "regiment"), "1416"),
                  (vm("P", parenthesized=True), "1414"), (unit("FL", FEF, "light infantry"), "1214"))
    assert ambush_qualified(st, "1415", COM)[0]
    assert not ambush_qualified(st, "1614", COM)[0]                # clear terrain
    ok, why = ambush_qualified(st, "1416", COM)                    # a Heavy artillery unit in the hex
    assert not ok and "mixing" in why
    ok, why = ambush_qualified(st, "1414", COM)                    # no ZOC
    assert not ok and "zone of control" in why
    assert ambush_qualified(st, "1214", FEF)[0]                    # FEF Light units may ambush too
    st, f, _ = pleiku()
    st.unit("VM").hex = st.map.hex("1616")                         # clear, next to 1516 and 1515
    with pytest.raises(RuleViolation) as e:
        check_ambush(st, ["GM"], "1515", "1616", AmbushLog(FEF))
    assert e.value.rule in ("IC 28.4", "IC 28.1")


# ------------------------------------------------------------------------------------------------ 29 intervention

def pp(fef=50, com=50):
    return PoliticalPoints(fef=fef, communist=com)


@pytest.mark.rule("IC 29.21a")
def test_atomic_bomb_supply():
    assert [atomic_bomb_supply(r) for r in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    with pytest.raises(RuleViolation):
        atomic_bomb_supply(7)

    def bombs(dice):
        return declare_intervention(Intervention(), "US Atomic Bombs", pp(), dice, turn=1, scenario_year=1953,
                                    phase_id="FEF Mobilization").result["receives"]["atomic bombs"]
    assert dict(enumerate_outcomes(bombs)) == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}


@pytest.mark.rule("IC 29.21a", "IC 29.2", "IC 29.0")
def test_us_increments_raise_the_communist_index():
    p = pp()
    with ScriptedDice([3, 4, 5, 6]) as d:
        r = declare_intervention(Intervention(), "US Air-Naval Support", p, d, turn=2, scenario_year=1953,
                                 phase_id="FEF Mobilization")
    assert r.result["receives"] == {"airstrike/air transport groups": 18, "US naval strikes": 2, "airborne supply": 1}
    assert p.communist == 70
    p = pp()
    with ScriptedDice([2]) as d:
        r = declare_intervention(Intervention(), "US Ground Intervention", p, d, turn=2, scenario_year=1954,
                                 phase_id="FEF Mobilization")
    assert p.communist == 90 and r.result["receives"]["US divisions"] == 2
    assert r.result["receives"]["US port marker from turn"] == 6
    with pytest.raises(RuleViolation) as e:
        declare_intervention(Intervention(), "US Ground Intervention", pp(), ScriptedDice([2]), turn=2,
                             scenario_year=1952, phase_id="FEF Mobilization")
    assert e.value.rule == "IC 29.21a"
    with pytest.raises(RuleViolation):
        declare_intervention(Intervention(), "US Ground Intervention", pp(), ScriptedDice([2]), turn=2,
                             scenario_year=1954, phase_id="FEF Movement")

    def groups(dice):
        return declare_intervention(Intervention(), "US Air-Naval Support", pp(), dice, turn=1, scenario_year=1953,
                                    phase_id="FEF Mobilization").result["receives"]["airstrike/air transport groups"]
    dist = enumerate_outcomes(groups)
    assert dist.expectation() == 14 and dist[4] == Fraction(1, 1296) and dist[14] == Fraction(146, 1296)


@pytest.mark.rule("IC 29.21b", "IC 29.411")
def test_overflow_past_100():
    p = pp(fef=40, com=80)
    with ScriptedDice([1]) as d:
        r = declare_intervention(Intervention(), "US Atomic Bombs", p, d, turn=1, scenario_year=1953,
                                 phase_id="FEF Mobilization")
    assert (p.communist, p.fef) == (100, 10) and r.find("IC 29.21b")           # 80 + 50 = 130: FEF loses 30
    p = pp(fef=40, com=80)
    with ScriptedDice([1]) as d:
        declare_intervention(Intervention(), "US Atomic Bombs", p, d, turn=1, scenario_year=1953,
                             phase_id="FEF Mobilization", no_overflow_loss=True)
    assert (p.communist, p.fef) == (100, 40)
    p = pp(fef=90, com=30)
    r = declare_intervention(Intervention(), "Chinese Full Intervention", p, ScriptedDice([]), turn=1,
                             scenario_year=1953, phase_id="Communist Mobilization")
    assert (p.fef, p.communist) == (100, 0) and r.find("IC 29.411") and p.game_over is Side.FEF


@pytest.mark.rule("IC 29.1", "IC 29.3")
def test_french_emergency_reinforcements():
    rec, p = Intervention(), pp(fef=12)
    with ScriptedDice([5]) as d:
        r = declare_intervention(rec, "French Emergency Reinforcements", p, d, turn=1, scenario_year=1946,
                                 phase_id="FEF Mobilization")
    assert r.result["receives"] == {"French land/air units": 5} and p.fef == 2
    with pytest.raises(RuleViolation) as e:
        declare_intervention(rec, "French Emergency Reinforcements", pp(), ScriptedDice([5]), turn=3,
                             scenario_year=1946, phase_id="FEF Mobilization")
    assert e.value.rule == "IC 29.3"
    with pytest.raises(RuleViolation) as e:
        declare_intervention(Intervention(), "French Emergency Reinforcements", pp(fef=9), ScriptedDice([5]), turn=1,
                             scenario_year=1946, phase_id="FEF Mobilization")
    assert e.value.rule == "IC 29.1"


@pytest.mark.rule("IC 29.41", "IC 29.42", "IC 29.4", "IC 29.44", "IC 29.5")
def test_chinese_intervention():
    rec, p = Intervention(), pp()
    with pytest.raises(RuleViolation) as e:
        declare_intervention(rec, "Chinese Limited Intervention", p, ScriptedDice([]), turn=1, scenario_year=1950,
                             phase_id="Communist Mobilization")
    assert e.value.rule == "IC 29.41"
    assert chinese_air_force(rec, ScriptedDice([])) == 0 and not rec.us_or_chinese
    r = declare_intervention(rec, "Chinese Limited Intervention", p, ScriptedDice([]), turn=1, scenario_year=1951,
                             phase_id="Communist Mobilization")
    assert r.result["receives"] == {"Chinese infantry divisions": 3} and p.fef == 70 and rec.us_or_chinese
    with pytest.raises(RuleViolation) as e:
        declare_intervention(rec, "Chinese Full Intervention", p, ScriptedDice([]), turn=2, scenario_year=1953,
                             phase_id="Communist Mobilization")
    assert e.value.rule == "IC 29.42"
    with ScriptedDice([4]) as d:
        assert chinese_air_force(rec, d) == 4
    assert victory([], 50, 50, world_war_three=True).level == "Both lose"


@pytest.mark.rule("IC 29.43")
def test_chinese_units_are_placed_in_china():
    st = position()
    check_chinese_placement(st, "1010")
    with pytest.raises(RuleViolation) as e:
        check_chinese_placement(st, "1515")
    assert e.value.rule == "IC 29.43"


@pytest.mark.rule("IC 29.32")
def test_us_port_marker():
    rec = Intervention(declared={"US Ground Intervention": 3})
    check_us_port(rec, 7, "Qui Nhon", True)
    for turn, town, us, why in [(6, "Qui Nhon", True, "turn 7"), (7, "Saigon", True, "Nha Trang"),
                                (7, "Nha Trang", False, "combat effective")]:
        with pytest.raises(RuleViolation) as e:
            check_us_port(rec, turn, town, us)
        assert e.value.rule == "IC 29.32" and why in e.value.reason
    with pytest.raises(RuleViolation):
        check_us_port(Intervention(), 9, "Qui Nhon", True)


# ------------------------------------------------------------------------------------------------ 30 atomic bombs

@pytest.mark.rule("IC 30.3", "IC 30.5", "IC 30.0")
def test_dropping_bombs():
    rec, bombs = Intervention(bombs=2), AtomicBombs()
    drop_atomic_bomb(rec, bombs, "1614", turn=1)
    with pytest.raises(RuleViolation) as e:
        drop_atomic_bomb(rec, bombs, "1614", turn=1)
    assert e.value.rule == "IC 30.3"
    drop_atomic_bomb(rec, bombs, "1614", turn=2)
    assert bombs.fallout == {"1614"} and rec.bombs == 0
    with pytest.raises(RuleViolation) as e:
        drop_atomic_bomb(rec, bombs, "1615", turn=2)
    assert e.value.rule == "IC 30.5"


@pytest.mark.rule("IC 30.6")
def test_fallout():
    def one(dice, already):
        st = position((vm(), "1614"))
        st.unit("VM").disrupted = already
        return fallout(st, AtomicBombs(fallout={"1614"}), dice)["VM"]
    assert dict(enumerate_outcomes(one, False)) == {"disrupted": Fraction(1, 2), "no effect": Fraction(1, 2)}
    assert dict(enumerate_outcomes(one, True)) == {"eliminated": Fraction(1, 2), "no effect": Fraction(1, 2)}
    st = position((vm("A"), "1614"), (vm("B"), "1614"), (mech(), "1515"))
    with ScriptedDice([3, 4]) as d:
        assert fallout(st, AtomicBombs(fallout={"1614"}), d) == {"A": "disrupted", "B": "no effect"}


# ------------------------------------------------------------------------------------------------ 31 general offensive

@pytest.mark.rule("IC 31.21", "IC 31.1", "IC 31.0", "IC 31.2")
def test_general_offensive_political_points_are_two_dice():
    def gain(dice, start):
        p = pp(com=start)
        GeneralOffensive().declare(p, dice, turn=1, total_turns=6)
        return p.communist
    dist = enumerate_outcomes(gain, 50)
    assert dist[57] == Fraction(6, 36) and dist[52] == Fraction(1, 36) and dist.expectation() == 57
    capped = enumerate_outcomes(gain, 95)                          # the index stops at 100 (5.21)
    assert capped[100] == Fraction(30, 36) and max(capped) == 100
    go, p = GeneralOffensive(), pp()
    with ScriptedDice([2, 5]) as d:
        res = go.declare(p, d, turn=2, total_turns=6)
    assert p.communist == 57 and res.result == 7 and go.active(2) and not go.active(3)
    with pytest.raises(RuleViolation) as e:
        go.declare(p, ScriptedDice([1, 1]), turn=3, total_turns=6)
    assert e.value.rule == "IC 31.1"
    with pytest.raises(RuleViolation) as e:
        GeneralOffensive().declare(pp(), ScriptedDice([1, 1]), turn=2, total_turns=6, phase_id="Communist Combat")
    assert e.value.rule == "IC 31.1"


@pytest.mark.rule("IC 31.23")
def test_general_offensive_not_in_the_last_two_turns():
    GeneralOffensive().declare(pp(), ScriptedDice([1, 1]), turn=4, total_turns=6)
    for turn in (5, 6):
        with pytest.raises(RuleViolation) as e:
            GeneralOffensive().declare(pp(), ScriptedDice([1, 1]), turn=turn, total_turns=6)
        assert e.value.rule == "IC 31.23"


@pytest.mark.rule("IC 31.22")
def test_no_vm_pl_ki_mobilization_the_next_turn():
    go = GeneralOffensive()
    go.declare(pp(), ScriptedDice([1, 1]), turn=2, total_turns=6)
    go.check_mobilization(2, "Viet Minh")
    go.check_mobilization(4, "Pathet Lao")
    go.check_mobilization(3, "Chinese")
    for nat in ("Viet Minh", "Pathet Lao", "Khmer Issarak"):
        with pytest.raises(RuleViolation) as e:
            go.check_mobilization(3, nat)
        assert e.value.rule == "IC 31.22"


# ------------------------------------------------------------------------------------------------ 24 victory

def places(fef_cities=3, com_cities=0, fef_towns=6, com_towns=4, chinese=True):
    out = [Place(f"C{i}", "city", FEF) for i in range(fef_cities)]
    out += [Place(f"K{i}", "city", COM, "Laos") for i in range(com_cities)]
    out += [Place(f"T{i}", "town", FEF, "Cambodia") for i in range(fef_towns)]
    out += [Place(f"U{i}", "town", COM) for i in range(com_towns)]
    if chinese:
        out.append(Place("Kunming", "city", COM, "China"))
    return out


@pytest.mark.rule("IC 24.1")
def test_military_victory_counts_indochina_only():
    assert military_victory(places(), FEF)                          # all 3 cities, 6 of 10 towns
    assert not military_victory(places(), FEF, count_chinese_cities=True)
    assert not military_victory(places(fef_towns=5, com_towns=5), FEF)     # 50% is not 51%
    assert military_victory(places(fef_towns=51, com_towns=49), FEF)
    assert not military_victory(places(fef_towns=50, com_towns=50), FEF)
    assert not military_victory(places(com_cities=1), FEF)
    assert not military_victory(places(), COM)


@pytest.mark.rule("IC 24.1")
def test_political_and_decisive_victory_and_draws():
    assert political_victory(80, 20) is FEF and political_victory(20, 79) is None and political_victory(10, 70) is COM
    out = victory(places(), 80, 20)
    assert (out.level, out.winner) == ("Decisive", FEF)
    out = victory(places(), 50, 20)
    assert (out.level, out.winner, out.military) == ("Military", FEF, FEF)
    out = victory(places(), 10, 70)
    assert (out.level, out.winner) == ("Draw", None) and out.military is FEF and out.political is COM
    out = victory(places(fef_towns=4, com_towns=6), 10, 70)
    assert (out.level, out.winner) == ("Political", COM)
    assert victory(places(fef_towns=4, com_towns=6), 40, 50).level == "Draw"


@pytest.mark.rule("IC 24.1", "IC 24.0")
def test_collapse_of_an_index():
    assert collapse(0, 5).level == "Decisive" and collapse(0, 5).winner is COM
    assert collapse(-3, 5).winner is COM and collapse(5, 0).winner is FEF
    assert collapse(0, 0).level == "Draw" and collapse(-1, 0).winner is None
    assert collapse(1, 1) is None
    assert victory(places(), 0, 70).winner is COM


@pytest.mark.rule("IC 24.2")
def test_ceasefire():
    with pytest.raises(RuleViolation) as e:
        ceasefire(False, True, True, places(), 50, 20)
    assert e.value.rule == "IC 24.2"
    assert ceasefire(True, True, False, places(), 50, 20) is None
    out = ceasefire(True, True, True, places(), 50, 20)
    assert out.level == "Military" and out.log.steps[0].rule == "IC 24.2"
