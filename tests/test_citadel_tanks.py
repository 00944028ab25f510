"""Citadel Rule 19 (tanks) through the game on the valley: fire (C 19.A), towing (C 19.D), repair (C 19.E) and
the Armor bunker (C 19.F)."""
import pytest

from wargames.citadel import Counter, Game, Side, UnitClass
from wargames.citadel.fire import all_small_arms, fire_strength, resolve_fire, terrain_shift
from wargames.citadel.returnphase import Tow, tow_problem
from wargames.citadel.tanks import RepairTank
from wargames.citadel.units import UnitState
from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import RuleViolation


def _tank(st, uid, label, disabled=False):
    u = UnitState(Counter(uid, Side.FRENCH, UnitClass.TANK, uid, 3, type="tank", morale_modifier=3), st.map.hex(label))
    u.disabled = disabled
    st.units[uid] = u
    return u


def _vm(st, uid, label):
    u = UnitState(Counter(uid, Side.VIETMINH, UnitClass.INFANTRY, uid, 14, size="battalion", type="infantry",
                          parent=uid, regiment="R", morale=4, reduced_strength=9, reduced_morale=3), st.map.hex(label))
    st.units[uid] = u
    return u


def _set_up(g: Game, before_last=None) -> None:
    """Answer every set-up prompt with its first offered action (``before_last`` runs before the last one)."""
    while g.phase.id == "set-up":
        acts = list(g.legal_actions)
        if before_last and len(g.state.setup.vietminh) == 1 and g.state.setup_stage == "Vietminh":
            before_last(g.state)
            before_last = None
        g.apply(acts[0])


@pytest.mark.rule("C 19.A", "C 19")
def test_a_tank_fires_small_arms_and_a_recoilless_rifle_at_one_hex():
    g = Game.new()
    st = g.state
    t = _tank(st, "Conti", "1718")
    target = st.map.hex("1713")
    res = Resolution()
    total = fire_strength(st, ["Conti"], target, res)
    text = " ".join(s.text for s in res.steps)
    assert "small arms" in text and "recoilless rifle" in text
    assert not all_small_arms(st, ["Conti"], target)          # the recoilless rifle is no small arm
    t.disabled = True                                         # a disabled tank keeps only 1 SP of small arms
    res = Resolution()
    assert fire_strength(st, ["Conti"], target, res) < total
    assert all_small_arms(st, ["Conti"], target) and "recoilless" not in " ".join(s.text for s in res.steps)
    into_sp = st.map.hex("1414")                              # AM-2: small arms may not fire into a strongpoint
    t.disabled = False
    res = Resolution()
    fire_strength(st, ["Conti"], into_sp, res)
    assert "small arms" not in " ".join(s.text for s in res.steps)


@pytest.mark.rule("C 19.F")
def test_tanks_in_the_armor_bunker_are_shifted_six_columns_other_units_four():
    g = Game.new("scenario1")
    st = g.state
    bunker = st.map.hex("N2228")
    t = _tank(st, "Conti", "N2228")
    assert terrain_shift(st, bunker, Resolution(), [t]) - terrain_shift(st, bunker, Resolution(), []) == -2


@pytest.mark.rule("C 19.F", "C 14.B")
def test_the_six_columns_are_for_tanks_and_only_in_the_armor_bunker():
    g = Game.new("scenario1")
    st = g.state
    bunker, am2 = st.map.hex("N2228"), st.map.hex("N1414")
    assert "armor_bunker" not in st.map.info(am2).features and "strongpoint" in st.map.info(am2).features
    coy = UnitState(Counter("Coy", Side.FRENCH, UnitClass.INFANTRY, "Coy", 3, size="company", type="infantry",
                            parent="P", morale=4, reduced_strength=2, reduced_morale=3), bunker)
    st.units["Coy"] = coy
    assert terrain_shift(st, bunker, Resolution(), [coy]) == terrain_shift(st, bunker, Resolution(), [])
    t = _tank(st, "Conti", "N1414")                           # a tank in another strongpoint has the normal -4
    assert terrain_shift(st, am2, Resolution(), [t]) == terrain_shift(st, am2, Resolution(), [])


@pytest.mark.rule("C 19.E")
def test_a_repair_roll_of_one_offers_the_disabled_tanks_in_the_bunker():
    from wargames.citadel.charts import Ruleset
    g = Game.new("scenario1", ruleset=Ruleset.default(advanced_rules=False), seed=3)   # no weather or supply dice

    def tanks(st):
        _tank(st, "Conti", "N2228", disabled=True)
        _tank(st, "Mulhouse", "N2228", disabled=True)
    # the set-up ends with the last headquarters marker (no Air Chart without the advanced rules); weather,
    # maintenance and availability pass; the repair roll is a 1
    while g.phase.id == "set-up":
        acts = list(g.legal_actions)
        if len(g.state.setup.vietminh) == 1 and g.state.setup_stage == "Vietminh":
            tanks(g.state)
        if g.state.setup_stage == "headquarters" and len(g.state.setup.headquarters) == 1:
            g.apply(acts[0], ScriptedDice([1]))
            break
        g.apply(acts[0])
    assert g.prompt.rule == "C 19.E" and set(g.legal_actions) == {RepairTank("Conti"), RepairTank("Mulhouse")}
    g.apply(RepairTank("Mulhouse"))
    assert not g.state.unit("Mulhouse").disabled and g.state.unit("Conti").disabled
    assert g.phase.id != "tank repair"


@pytest.mark.rule("C 19.E")
def test_a_repair_roll_other_than_one_repairs_nothing():
    from wargames.citadel.tanks import repair_roll
    g = Game.new("scenario1")
    st = g.state
    _tank(st, "Conti", "N2228", disabled=True)
    for roll in (2, 6):
        res = Resolution()
        assert repair_roll(st, ScriptedDice([roll]), res) == [] and "no tank is repaired" in res.text()
    _tank(st, "Outside", "N2128", disabled=True)
    assert repair_roll(st, ScriptedDice([1]), Resolution()) == ["Conti"]


@pytest.mark.rule("C 19.D", "C 12")
def test_towing_needs_a_clear_path_there_and_back_to_the_bunker():
    g = Game.new("scenario1")
    st = g.state
    tower = _tank(st, "Conti", "N2228")
    towed = _tank(st, "Mulhouse", "N2030", disabled=True)
    assert tow_problem(st, tower, towed) is None
    towed.disabled = False
    assert "not a disabled tank" in tow_problem(st, tower, towed)
    towed.disabled = True
    # ring the disabled tank with Vietminh: its own hex may be in their zone of control, but no path reaches it
    for i, n in enumerate(st.map.neighbors(towed.hex)):
        _vm(st, f"VM{i}", st.label(n))
    assert "no path" in tow_problem(st, tower, towed)
