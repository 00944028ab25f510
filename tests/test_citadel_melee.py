"""Citadel Rule 11 (melee), with the hill bonus (C 13), Gabrielle-5 (C 14.C) and tanks in melee (C 19.B):
the printed examples, the Melee Combat Table's constraints, and melees played through ``Game.apply``."""
import datetime as dt
import itertools

import pytest

from wargames.citadel import Counter, Game, Side, UnitClass
from wargames.citadel.charts import Ruleset
from wargames.citadel.game import EndPhase
from wargames.citadel.melee import (Advance, Melee, Retreat, Rout, TakeMeleeLoss, averaged_morale, melee_problem,
                                    melee_shift, odds_modifier, raw_odds)
from wargames.citadel.state import CitadelState
from wargames.citadel.terrain import load_citadel_map
from wargames.citadel.units import UnitState
from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import RuleViolation

MCT = Ruleset.default().chart("melee_crt")
FR, VM = Side.FRENCH, Side.VIETMINH


def _label(col: int) -> str:
    return MCT.columns[col].label


def _company(uid, morale, side=FR, strength=3, parent=None):
    return Counter(uid, side, UnitClass.INFANTRY, uid, strength, size="company", type="infantry",
                   parent=parent or uid, morale=morale, reduced_strength=2, reduced_morale=max(morale - 1, 0))


def _battalion(uid, strength=14, morale=4):
    return Counter(uid, VM, UnitClass.INFANTRY, uid, strength, size="battalion", type="infantry", parent=uid,
                   regiment="R", morale=morale, reduced_strength=9, reduced_morale=3)


def _tank(uid):
    return Counter(uid, FR, UnitClass.TANK, uid, 3, type="tank", morale_modifier=3)


# --------------------------------------------------------------------------- printed examples

@pytest.mark.rule("C 11", "C MCT")
@pytest.mark.parametrize("attack, defence, odds", [(4, 2, "2/1"), (5, 2, "2/1")])
def test_raw_odds_round_for_the_defender_as_printed(attack, defence, odds):
    assert _label(raw_odds(attack, defence, MCT)) == odds


@pytest.mark.rule("C 11", "C MCT")
@pytest.mark.parametrize("attack, defence, odds", [(3, 3, "1/1"), (5, 3, "1/1"), (6, 3, "2/1"), (3, 7, "1/3"),
                                                   (2, 5, "1/3"), (1, 9, "1/4"), (40, 3, "6/1"), (7, 2, "3/1")])
def test_raw_odds_below_one_to_one_and_past_the_table(attack, defence, odds):
    assert _label(raw_odds(attack, defence, MCT)) == odds


@pytest.mark.rule("C 11")
def test_raw_odds_need_a_defending_strength_and_read_a_single_point():
    assert _label(raw_odds(3, 1, MCT)) == "3/1" and _label(raw_odds(1, 1, MCT)) == "1/1"
    with pytest.raises(RuleViolation, match="no defending strength"):
        raw_odds(3, 0, MCT)


@pytest.mark.rule("C 11")
def test_averaged_morale_of_5_4_2_is_4():
    units = [UnitState(_company(f"c{m}", m)) for m in (5, 4, 2)]
    assert averaged_morale(units) == 4


@pytest.mark.rule("C 11")
def test_averaged_morale_rounds_a_half_up_and_a_third_down():
    assert averaged_morale([UnitState(_company("a", 3)), UnitState(_company("b", 4))]) == 4
    assert averaged_morale([UnitState(_company(f"c{i}", m)) for i, m in enumerate((4, 4, 5))]) == 4


@pytest.mark.rule("C 19.B")
def test_tank_morale_four_plus_two_with_a_tank_is_six():
    units = [UnitState(_company("a", 4)), UnitState(_company("b", 2)), UnitState(_tank("Conti"))]
    assert averaged_morale(units) == 6
    units[2].disabled = True                      # only an operational tank adds three
    assert averaged_morale(units) == 3


@pytest.mark.rule("C 19.B", "C 11")
def test_tanks_without_infantry_have_no_averaged_morale():
    # tanks never melee alone (C 19.B): a group without infantry has no mean to add the tanks' +3 to
    assert averaged_morale([UnitState(_tank("Conti"))]) == 0


@pytest.mark.rule("C 11")
@pytest.mark.parametrize("odds, mod", [("1/4", -1), ("1/3", -1), ("1/2", 0), ("1/1", 0), ("2/1", 0), ("3/1", 0),
                                       ("4/1", 1), ("5/1", 1), ("6/1", 2)])
def test_attacker_check_gains_one_per_two_columns_past_two_to_one_and_loses_one_per_two_below_one_to_one(odds, mod):
    assert odds_modifier(MCT.index(odds), MCT) == mod


# --------------------------------------------------------------------------- the table's constraints

@pytest.mark.rule("C MCT")
def test_the_table_has_the_named_columns_and_two_beyond_each_side():
    assert MCT.rows == [1, 2, 3, 4, 5, 6]
    assert MCT.index("2/1") - MCT.index("1/1") == 1
    assert len(MCT.columns) - 1 - MCT.index("2/1") >= 2 and MCT.index("1/1") >= 2


@pytest.mark.rule("C MCT")
def test_the_table_is_monotone():
    n = len(MCT.columns)
    for r in MCT.rows:
        for i in range(n - 1):
            assert MCT.lookup(i + 1, r).value.dominates(MCT.lookup(i, r).value), (r, i)
    for i in range(n):
        for r1, r2 in zip(MCT.rows, MCT.rows[1:]):
            assert MCT.lookup(i, r1).value.dominates(MCT.lookup(i, r2).value), (r1, i)


# --------------------------------------------------------------------------- the hill bonus (C 13)

HILLS = """
name: hill test
sheet: north
layout: {parity: even-q, col_digits: 2, row_digits: 2}
fill: {cols: [24, 29], rows: [23, 28], terrain: clear}
hexes:
  '2726': {terrain: hill}
  '2826': {terrain: hill}
  '2625': {terrain: hill}
hexsides:
  - {between: ['2625', '2726'], features: [hill]}
"""


def _hill_state(tmp_path, attackers):
    p = tmp_path / "hills.yaml"
    p.write_text(HILLS)
    m = load_citadel_map(p)
    pieces = [(_company("def", 3), "2726")] + [(_battalion(f"b{h}"), h) for h in attackers]
    return CitadelState.build(m, pieces)


@pytest.mark.rule("C 13", "C 11")
def test_hill_bonus_from_2826_but_not_from_2625(tmp_path):
    st = _hill_state(tmp_path, ["2826"])
    assert melee_shift(st, st.map.hex("2726"), [st.unit("b2826")], Resolution()) == -1
    st = _hill_state(tmp_path, ["2625"])
    assert melee_shift(st, st.map.hex("2726"), [st.unit("b2625")], Resolution()) == 0
    st = _hill_state(tmp_path, ["2826", "2625"])      # every attacker must come across a non-hill hexside
    res = Resolution()
    assert melee_shift(st, st.map.hex("2726"), [st.unit("b2826"), st.unit("b2625")], res) == 0
    assert "b2625" in res.steps[-1].text


@pytest.mark.rule("C 13")
def test_a_terrain_effects_chart_without_a_hill_bonus_gives_none(tmp_path):
    from wargames.citadel.charts import TerrainEffects
    st = _hill_state(tmp_path, ["2826"])
    crt, ranges, tec = st.tables()
    st.charts = (crt, ranges, TerrainEffects(tec.terrain, {k: e for k, e in tec.features.items()
                                                           if k != "hill_bonus"}, tec.source))
    assert melee_shift(st, st.map.hex("2726"), [st.unit("b2826")], Resolution()) == tec.terrain["hill"].melee_shift


# --------------------------------------------------------------------------- melee through the game

def _to(g: Game, phase_id: str) -> None:
    while g.phase.id != phase_id:
        g.apply(EndPhase())


def _anne_marie(positions: dict[str, str], date=None) -> Game:
    """The demonstration game with units put where a test needs them, at the start of the Vietminh melee."""
    g = Game.new()
    st = g.state
    for uid, lab in positions.items():
        u = st.unit(uid)
        if lab is None:
            u.eliminated = True
        else:
            u.hex = st.map.hex(lab)
    if date:
        st.date = date
    _to(g, "VM melee")
    return g


@pytest.mark.rule("C 11", "C 14")
def test_a_battalion_takes_am2_after_the_table_makes_the_company_retreat():
    g = _anne_marie({"1st Bn": "1413"})
    st = g.state
    assert str(g.prompt).startswith("Vietminh: attack an adjacent enemy hex in melee")
    # 14 : 3 -> 4:1 raw (+1 to the attacker's check); AM-2 is a strongpoint, -2 -> 2:1.
    res = g.apply(Melee(("1st Bn",), "1414"), ScriptedDice([3, 4, 2]))
    text = [s.text for s in res.steps]
    assert any("raw odds 14:3 -> 4:1" in t for t in text)
    assert any("defender 3 + 3 = 6; attacker 4 + 4 +1 for the raw odds = 9" in t for t in text)
    assert any("strongpoint -2" in t for t in text) and any("-> 2:1" in t and "shifted -2" in t for t in text)
    assert any("roll 2 on 2:1: 0/1r" in t for t in text)
    assert g.state.unit("2/3BT").inverted and g.prompt.side == "French"
    assert {type(a) for a in g.legal_actions} == {Retreat}
    g.apply(next(iter(g.legal_actions)))
    assert g.prompt.side == "Vietminh" and "advance into 1414" in str(g.prompt)
    g.apply(Advance(("1st Bn",)))
    assert g.state.unit("1st Bn").hex == g.state.map.hex("1414")
    assert g.state.control["AM-2"] is VM
    with pytest.raises(RuleViolation, match="already been attacked"):
        g.apply(Melee(("2nd Bn",), "1414"))


@pytest.mark.rule("C 11")
def test_a_defender_routs_when_the_margin_exceeds_its_own_morale():
    g = _anne_marie({"1st Bn": "1413"})
    # defender 1 + 3 = 4, attacker 6 + 4 + 1 = 11: a margin of 7 beats the company's morale of 3.
    res = g.apply(Melee(("1st Bn",), "1414"), ScriptedDice([1, 6]))
    assert any("2/3BT routs" in s.text for s in res.steps)
    assert g.state.unit("2/3BT").routed and {type(a) for a in g.legal_actions} == {Rout}
    g.apply(next(iter(g.legal_actions)))
    assert "advance" in str(g.prompt)
    g.apply(Advance(()))
    assert not g.state.units_at(g.state.map.hex("1414")) and g.state.control["AM-2"] is FR


@pytest.mark.rule("C 11")
def test_a_margin_equal_to_the_morale_does_not_rout():
    g = _anne_marie({"1st Bn": "1413"})
    # defender 2 + 3 = 5, attacker 3 + 4 + 1 = 8: a margin of 3 does not exceed morale 3; the table is rolled.
    res = g.apply(Melee(("1st Bn",), "1414"), ScriptedDice([2, 3, 6]))
    assert not g.state.unit("2/3BT").routed
    assert any("roll 6 on 2:1: 2r/0" in s.text for s in res.steps)


@pytest.mark.rule("C 11")
def test_the_attacker_gives_his_own_losses_and_retreats():
    g = _anne_marie({"1st Bn": "1413", "2nd Bn": "1313"})
    # 1313 is two hexes from 1414: refused.
    with pytest.raises(RuleViolation, match="not adjacent"):
        g.apply(Melee(("1st Bn", "2nd Bn"), "1414"))
    g = _anne_marie({"1st Bn": "1413", "2nd Bn": "1514"})
    # 28 : 3 -> 6:1 (+2), strongpoint -2 -> 4:1; roll 6 -> 1/1; the attacker picks which battalion loses.
    g.apply(Melee(("1st Bn", "2nd Bn"), "1414"), ScriptedDice([6, 1, 6]))
    assert g.prompt.side == "Vietminh" and set(g.legal_actions) == {TakeMeleeLoss("1st Bn"), TakeMeleeLoss("2nd Bn")}
    before = g.state.vm_losses
    g.apply(TakeMeleeLoss("2nd Bn"))
    assert g.state.unit("2nd Bn").losses == 1 and g.state.vm_losses == before + 1
    assert g.state.unit("2/3BT").inverted


@pytest.mark.rule("C 11")
def test_a_hex_of_weapons_alone_falls_without_a_melee():
    g = _anne_marie({"1st Bn": "1618", "105-A": "1719"})
    # 1719 holds the 120mm battery and a 105mm battery: no infantry, so both are eliminated at once.
    res = g.apply(Melee(("1st Bn",), "1719"), ScriptedDice([]))
    assert g.state.unit("105-A").eliminated and g.state.unit("120-A").eliminated
    assert any("pre-melee rout" in s.text for s in res.steps)
    assert "advance" in str(g.prompt)


@pytest.mark.rule("C 11")
def test_melee_refusals():
    g = _anne_marie({"1st Bn": "1413"})
    g.state.unit("1st Bn").pinned = True
    with pytest.raises(RuleViolation, match="pinned"):
        g.apply(Melee(("1st Bn",), "1414"))
    g = _anne_marie({"1st Bn": "1413"})
    with pytest.raises(RuleViolation, match="no enemy unit"):
        g.apply(Melee(("1st Bn",), "1412"))
    with pytest.raises(RuleViolation, match="only Vietminh units"):
        g.apply(Melee(("2/3BT",), "1413"))
    before = g.state_dict()
    with pytest.raises(RuleViolation):
        g.apply(Melee(("1st Bn", "1st Bn"), "1414"))
    assert g.state_dict() == before


@pytest.mark.rule("C 14.C")
def test_g5_is_attacked_only_from_strongpoint_hexes():
    g = _anne_marie({"1st Bn": "1315"})
    st = g.state
    # Stand-in for Gabrielle: the western hex of AM-1 (1316) is renamed G-5 for this test.
    from wargames.core.mapdata import HexInfo
    h = st.map.hex("1316")
    info = st.map.hexes[h]
    st.map = type(st.map)(st.map.name, st.map.sheet, st.map.layout, {**st.map.hexes, h: HexInfo(
        info.terrain, info.features, (("strongpoint", "G-5"),), info.provenance)}, st.map.hexsides, st.map.source)
    assert "G-5 may be attacked only from strongpoint hexes" in melee_problem(st, ["1st Bn"], h)
    st.unit("1st Bn").hex = st.map.hex("1416")         # AM-1's eastern hex, a strongpoint hex
    assert melee_problem(st, ["1st Bn"], h) is None


@pytest.mark.rule("C 19.B", "C 19.G")
def test_tanks_attack_only_with_infantry_and_not_across_an_unbridged_river(tmp_path):
    g = _anne_marie({"1st Bn": "1413"})
    st = g.state
    tank = UnitState(Counter("Conti", VM, UnitClass.TANK, "Conti", 3, type="tank", morale_modifier=3),
                     st.map.hex("1514"))
    st.units["Conti"] = tank
    assert "tanks attack only with infantry" in melee_problem(st, ["Conti"], st.map.hex("1414"))
    tank.hex = st.map.hex("1413")
    assert melee_problem(st, ["1st Bn", "Conti"], st.map.hex("1414")) is None


@pytest.mark.rule("C 11")
def test_random_melees_keep_the_position_sound():
    """Melees with seeded dice, every prompt answered by the last legal action: sound positions, and the
    phase always ends."""
    for seed in range(12):
        g = _anne_marie({"1st Bn": "1413", "2nd Bn": "1514"})
        g.apply(Melee(("1st Bn", "2nd Bn"), "1414"))
        while g.phase.id == "VM melee":
            acts = list(g.legal_actions)
            g.apply(EndPhase() if EndPhase() in acts else acts[seed % len(acts)])
        assert g.invariants() == []


@pytest.mark.rule("C 11")
def test_exact_melee_odds_run_the_games_procedure():
    from fractions import Fraction
    from wargames.citadel.melee import melee_odds, play_melee
    g = _anne_marie({"1st Bn": "1413", "2nd Bn": "1514"})
    h = g.state.map.hex("1414")
    d = melee_odds(g.state, ["1st Bn", "2nd Bn"], h)
    assert sum(d.values()) == 1 and g.state.unit("2/3BT").hex == h          # the game's state is untouched
    # the defender (morale 3) routs when 2 x d6 plus the attacker's edge of +4 + 2 - 3 beats 3 by the margin:
    routed = d.prob(lambda o: o.result == "defender routed")
    by_hand = Fraction(sum(1 for dr in range(1, 7) for ar in range(1, 7) if (ar + 4 + 2) - (dr + 3) > 3), 36)
    assert routed == by_hand
    # one scripted line of the same procedure agrees with the distribution's support
    one = play_melee(g.state.copy(), ["1st Bn", "2nd Bn"], h, ScriptedDice([6, 1, 6]))
    assert one in d and one.result == "neither" and (one.attacker_losses, one.defender_losses) == (1, 1)


@pytest.mark.rule("C 11", "C 18", "C 13")
def test_trench_and_full_jungle_shift_the_melee_for_the_defender():
    g = _anne_marie({"1st Bn": "1413"})
    st = g.state
    clear, jungle = st.map.hex("1413"), st.map.hex("0910")
    assert st.map.terrain(clear) == "clear" and st.map.terrain(jungle) == "full_jungle"
    atk = [st.unit("2nd Bn")]
    assert melee_shift(st, clear, atk, Resolution()) == 0
    st.works[clear] = "trench"
    assert melee_shift(st, clear, atk, Resolution()) == -1
    st.works[clear] = "weapons_pit"                                   # a pit counts as a trench (C 18)
    assert melee_shift(st, clear, atk, Resolution()) == -1
    assert melee_shift(st, jungle, atk, Resolution()) == -1
