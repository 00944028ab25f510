"""Indochina on the shared game protocol: prompts for every decision, to the player the rule names."""
import json
import random
import shutil

import pytest

from wargames import indochina
from wargames.core import ScriptedDice
from wargames.core.bots import RandomBot
from wargames.core.errors import DataError, RuleViolation
from wargames.core.fuzz import fuzz
from wargames.indochina import (SEQUENCE, Advance, Attack, ChooseDefenders, ChooseTable, ChooseUnit, ConvertResult,
                                DeclareAmbush, DeclineAdvance, DeclineAmbush, DropOff, EndPhase, Game, Move, MoveForce,
                                Overrun, Retreat, Ruleset, Side)
from wargames.indochina.charts import DATA
from wargames.indochina.state import IndochinaState, demo_map, load_indochina_map
from wargames.indochina.units import Counter

FEF, COM = Side.FEF, Side.COMMUNIST


def game_at(phase_id, *placed, ruleset=None, m=None, supply=(0, 0)):
    """A game in ``phase_id`` with only these units on the (demonstration) map, and ``supply`` points (FEF,
    Communist): none by default, so no combat stops to ask about Defense Enhancement (15.35)."""
    g = Game.new(ruleset=ruleset, seed=1)
    g.logistics.points[FEF], g.logistics.points[COM] = supply
    st = IndochinaState.build(m or demo_map(), placed)
    st.charts = g.state.charts
    g.state, g.phase_index, g.event_rolled = st, SEQUENCE.index_of(phase_id), True
    return g


def vm(uid, hex_, s=4, kind="regular infantry"):
    return Counter(uid, COM, kind, "regiment", s, 6, 2, 4, nationality="Viet Minh"), hex_


def gm(uid, hex_, s=4, kind="regular infantry"):
    return Counter(uid, FEF, kind, "group", s, 6, 2, 3), hex_


def light(uid, hex_, s=2):
    return Counter(uid, FEF, "light infantry", "battalion", s, 6, 1, 4), hex_


def offered(g, cls):
    return [a for a in g.legal_actions if isinstance(a, cls)]


def test_the_package_starts_a_game():
    g = indochina.Game.new()
    assert g.scenario == "highlands demo" and str(g.prompt) == "Communist: roll for the turn's event (IC 6.1)"
    assert [str(a) for a in g.legal_actions] == ["roll_event"]
    assert g.outcome() is None and g.state_dict()["position"]["points"] == {"FEF": 50, "Communist": 50}
    with pytest.raises(DataError):
        Game.new("Dien Bien Phu")


@pytest.mark.rule("IC 3.0", "IC 3.1", "IC 10.21", "IC 13.31", "IC 13.62", "IC 28.1")
def test_fuzz_finds_no_failure():
    report = fuzz(Game, actions=400, seed=7)
    assert report.ok, [f.line() for f in report.failures]
    assert report.actions >= 400 and report.illegal_tried > 10


def _played(seed, n):
    g = Game.new(seed=seed)
    bot = RandomBot(seed)
    for _ in range(n):
        if g.outcome() is not None:
            break
        for a in g.legal_actions:
            assert Game.parse_action(str(a)) == a
        g.apply(bot.choose(g))
    return g


@pytest.mark.rule("IC 3.2")
def test_text_forms_saves_and_undo():
    g = _played(3, 150)
    again = Game.load(json.loads(json.dumps(g.save())))
    assert again.state_dict() == g.state_dict()
    before = g.state_dict()
    last = g.history[-1]
    g.undo()
    g.apply(last.action, ScriptedDice(list(last.dice)))
    assert g.state_dict() == before
    assert g.replay().state_dict() == before


@pytest.mark.rule("IC 13.31")
def test_the_communist_chooses_against_an_unfortified_fef_defender():
    g = game_at("Communist Combat", vm("803", "1617", s=8), gm("GM", "1618"))
    g.apply(Attack(("803",), "1618"))
    assert (g.prompt.side, g.prompt.rule, g.prompt.kind) == ("Communist", "IC 13.31", "table")
    assert set(g.legal_actions) == {ChooseTable("Communist", "Mobile"), ChooseTable("Communist", "Assault")}
    with pytest.raises(RuleViolation) as e:
        g.apply(ChooseTable("FEF", "Assault"))
    assert e.value.rule == "IC 13.31"


@pytest.mark.rule("IC 13.31")
def test_the_communist_chooses_even_when_the_fef_attacks_with_heavy_units():
    g = game_at("FEF Combat", vm("803", "1617"), gm("GM", "1618", s=8))
    g.apply(Attack(("GM",), "1617"))
    assert g.prompt.side == "Communist"                 # not the phasing player
    with pytest.raises(RuleViolation):
        g.apply(ChooseTable("FEF", "Mobile"))


@pytest.mark.rule("IC 13.31", "IC 20.1")
def test_the_fef_chooses_when_all_its_attackers_are_light():
    g = game_at("FEF Combat", vm("803", "1617"), light("BT", "1618"), light("BT2", "1618"))
    g.apply(Attack(("BT", "BT2"), "1617"))
    assert g.prompt.side == "FEF" and g.prompt.rule == "IC 13.31"
    with pytest.raises(RuleViolation):
        g.apply(ChooseTable("Communist", "Mobile"))
    g.apply(ChooseTable("FEF", "Assault"), ScriptedDice([3]))


@pytest.mark.rule("IC 13.31", "IC 16.3")
def test_the_fef_chooses_when_defending_a_fortification(tmp_path):
    text = (DATA.parent / "maps" / "demo.yaml").read_text()
    text = text.replace("  '1618':\n    terrain: clear\n",
                        "  '1618':\n    terrain: clear\n    features:\n    - fortification\n")
    (tmp_path / "fort.yaml").write_text(text)
    m = load_indochina_map(tmp_path / "fort.yaml")
    g = game_at("Communist Combat", vm("803", "1617", s=9), gm("GM", "1618", s=3), m=m)
    g.apply(Attack(("803",), "1618"))
    assert g.prompt.side == "FEF"                       # the defender, not the phasing Communist
    with pytest.raises(RuleViolation):
        g.apply(ChooseTable("Communist", "Mobile"))
    res = g.apply(ChooseTable("FEF", "Assault"), ScriptedDice([1]))
    assert res.result["raw"] == "3/1"                   # the 13.31 example: 9 against 3 on the Assault CRT
    assert any(s.rule == "IC 16.3" for s in res.steps)
    # 16.3(2): a DD against the fortified FEF defence is the FEF's to turn into a BB
    g = game_at("Communist Combat", vm("803", "1617", s=9), gm("GM", "1618", s=3), m=m)
    g.apply(Attack(("803",), "1618"))
    res = g.apply(ChooseTable("FEF", "Assault"), ScriptedDice([5]))         # 2/1 after the fortification: DD
    assert res.result["result"] == "DD" and (g.prompt.side, g.prompt.rule) == ("FEF", "IC 16.3")
    assert set(g.legal_actions) == {ConvertResult("FEF", True), ConvertResult("FEF", False)}
    with pytest.raises(RuleViolation):
        g.apply(ConvertResult("Communist", True))
    g.apply(ConvertResult("FEF", True))
    assert g.state.unit("GM").disrupted and g.state.unit("803").disrupted      # BB: one unit each side


@pytest.mark.rule("IC 13.62", "IC 11.53")
def test_the_owner_chooses_each_retreat_hex_among_the_legal_ones():
    g = game_at("Communist Combat", vm("803", "1617", s=12), gm("GM", "1618"), vm("108", "1719"))
    g.apply(Attack(("803",), "1618"))
    g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([4]))          # 12 v 4 = 3/1, roll 4: DR
    assert g.prompt.side == "FEF" and g.prompt.rule == "IC 13.62" and "GM" in g.prompt.question
    hexes = {a.hex for a in g.legal_actions}
    assert hexes == {"1518", "1519", "1619", "1718"}                  # not 1617 or 1719 (Communist units)
    with pytest.raises(RuleViolation):
        g.apply(Retreat("Communist", "GM", "1518"))
    with pytest.raises(RuleViolation):
        g.apply(Retreat("FEF", "GM", "1617"))
    g.apply(Retreat("FEF", "GM", "1718"))                               # into a Communist ZOC: eliminated
    assert g.state.unit("GM").eliminated
    assert g.prompt.side == "Communist" and g.prompt.rule == "IC 13.61"


@pytest.mark.rule("IC 13.62")
def test_a_unit_with_nowhere_to_retreat_is_eliminated():
    g = game_at("Communist Combat", vm("a", "2118", s=6), vm("b", "2018", s=6), vm("c", "2019", s=1),
                gm("GM", "2119", s=2))
    g.apply(Attack(("a", "b"), "2119"))
    g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([3]))          # 12 v 2 = 6/1 in cultivated: DR
    assert g.state.unit("GM").eliminated
    assert g.prompt.rule == "IC 13.61"


@pytest.mark.rule("IC 13.61")
def test_the_attacker_decides_the_advance():
    g = game_at("FEF Combat", vm("803", "1617", s=2), gm("GM", "1618", s=12), gm("GM2", "1618", s=2))
    g.apply(Attack(("GM", "GM2"), "1617"))
    g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([6]))          # 14 v 2 = 7/1, roll 6: DE
    assert g.prompt.side == "FEF" and g.prompt.kind == "advance"
    assert DeclineAdvance("FEF") in g.legal_actions and Advance("FEF", ("GM",), ("1617",)) in g.legal_actions
    with pytest.raises(RuleViolation):
        g.apply(DeclineAdvance("Communist"))
    with pytest.raises(RuleViolation):
        g.apply(Advance("FEF", ("GM",), ("1616",)))                    # the first hex is the defender's
    g.apply(Advance("FEF", ("GM",), ("1617",)))
    assert g.state.label(g.state.unit("GM").hex) == "1617" and g.state.label(g.state.unit("GM2").hex) == "1618"
    assert g.prompt.kind == "play"


@pytest.mark.rule("IC 13.5")
def test_each_owner_picks_the_unit_a_bb_result_hits():
    g = game_at("Communist Combat", vm("a", "1617"), vm("b", "1617"), gm("G1", "1618", s=2), gm("G2", "1618", s=2))
    g.apply(Attack(("a", "b"), "1618"))
    g.apply(ChooseTable("Communist", "Assault"), ScriptedDice([4]))         # 8 v 4 = 2/1, roll 4: BB
    assert g.prompt.side == "Communist" and g.prompt.kind == "loss"
    assert set(g.legal_actions) == {ChooseUnit("Communist", "a"), ChooseUnit("Communist", "b")}
    with pytest.raises(RuleViolation):
        g.apply(ChooseUnit("FEF", "G1"))
    g.apply(ChooseUnit("Communist", "b"))
    assert g.prompt.side == "FEF"
    g.apply(ChooseUnit("FEF", "G2"))
    assert [u for u in ("a", "b", "G1", "G2") if g.state.unit(u).disrupted] == ["b", "G2"]


@pytest.mark.rule("IC 28.1", "IC 28.4", "IC 28.2")
def test_the_non_phasing_player_declares_the_ambush():
    # 803 (Light, in jungle at 1414) has a ZOC on 1515 and on 1514: the FEF group steps from one into the other.
    g = game_at("FEF Movement", vm("803", "1414"), gm("GM", "1515", s=6))
    g.apply(Move("GM", ("1514",)))
    assert (g.prompt.side, g.prompt.rule, g.prompt.kind) == ("Communist", "IC 28.1", "ambush")
    assert set(g.legal_actions) == {DeclareAmbush("Communist", "1414"), DeclineAmbush("Communist")}
    with pytest.raises(RuleViolation):
        g.apply(DeclineAmbush("FEF"))
    with pytest.raises(RuleViolation):
        g.apply(EndPhase())
    g.apply(DeclareAmbush("Communist", "1414"))
    assert g.prompt.kind == "table" and g.prompt.side == "Communist"
    res = g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))
    assert any(s.rule == "IC 28.2" for s in res.steps)


@pytest.mark.rule("IC 28.0", "IC 27.0", "IC 31.0", "IC 13.22")
def test_readings_switch_the_optional_rules_and_the_baseline():
    g = game_at("FEF Movement", vm("803", "1414"), gm("GM", "1515", s=6),
                ruleset=Ruleset.default(ambushes=False, overruns=False))
    assert not offered(g, Overrun)
    g.apply(Move("GM", ("1514",)))
    assert g.prompt.kind == "play"
    with pytest.raises(DataError):
        Ruleset.default(baseline="2/1")
    low = game_at("Communist Combat", vm("803", "1617", s=2), gm("GM", "1618", s=5),
                  ruleset=Ruleset.default(baseline="3/1"))
    low.apply(Attack(("803",), "1618"))
    res = low.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))
    assert res.result["column"] == "3/1"


@pytest.mark.rule("IC 13.3", "IC Mobile CRT")
def test_an_owners_edited_crt_changes_results_in_play(tmp_path):
    folder = tmp_path / "charts"
    shutil.copytree(DATA, folder)
    path = folder / "mobile_crt.yaml"
    text = path.read_text()
    row = '  1: ["AE", "AR", "AR", "AD", "NE", "SK", "DD", "DR", "DR"]'
    assert row in text
    path.write_text(text.replace(row, '  1: ["AE", "AR", "AR", "AD", "DE", "SK", "DD", "DR", "DR"]'))
    rules = Ruleset.load(folder)
    for ruleset, expected in ((None, "NE"), (rules, "DE")):
        g = game_at("Communist Combat", vm("803", "1617", s=12), gm("GM", "1618"), ruleset=ruleset)
        g.apply(Attack(("803",), "1618"))
        res = g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))   # 3/1, roll 1
        assert res.result["result"] == expected
    assert rules.to_dict()["charts"]["mobile_crt"].startswith(str(path.resolve()))


@pytest.mark.rule("IC 3.1")
def test_a_random_game_to_the_end_has_an_outcome():
    g = Game.new(seed=11)
    rng = random.Random(11)
    for _ in range(3000):
        if g.outcome() is not None:
            break
        actions = list(g.legal_actions)
        ends = [a for a in actions if isinstance(a, EndPhase)]
        g.apply(ends[0] if ends and rng.random() < 0.5 else rng.choice(actions))
    out = g.outcome()
    assert out is not None and out.rule in ("IC 24.1", "IC 5.22") and g.prompt is None


@pytest.mark.rule("IC 21.0", "IC 21.1")
def test_each_side_sees_what_fog_of_war_allows():
    g = Game.new(seed=1)
    fef, com = g.view("FEF")["position"]["stacks"], g.view("Communist")["position"]["stacks"]
    assert "units" not in g.view("FEF")["position"]
    assert all(e.get("hidden") for e in fef["1415"])                 # a Viet Minh stack, closed to the FEF
    assert com["1515"][0]["id"] == "GM 100"                          # FEF units in Vietnam are open (21.1(2))
    with pytest.raises(DataError):
        g.view("Japan")


@pytest.mark.rule("IC 27.1", "IC 27.33", "IC 27.42")
def test_an_overrunning_force_may_overrun_again_while_its_points_last():
    mech = Counter("GM", FEF, "mechanized", "group", 12, 8, 3, 4)
    g = game_at("FEF Movement", vm("803", "1617", s=2), (mech, "1618"))
    g.apply(Overrun(("GM",), "1617"))
    assert g.prompt.side == "Communist" and g.prompt.rule == "IC 13.31"
    res = g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))     # 6/1, one left for the overrun: DD
    assert res.result["column"] == "5/1" and res.result["result"] == "DD"
    assert Overrun(("GM",), "1617") in list(g.legal_actions)           # 4 of 8 MP left: once more (27.33)
    assert Move("GM", ("1619",)) not in g.legal_actions
    g.apply(Overrun(("GM",), "1617"))
    g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))
    assert g.state.unit("803").eliminated                               # a second disruption eliminates
    assert not offered(g, Overrun)                                      # no points left


@pytest.mark.rule("IC 10.22")
def test_an_overstacked_hex_fights_with_the_units_its_owner_picks_up_to_the_limit():
    # three regiments (1 1/2 divisions) in a mountain hex (limit 1): the Communist picks two to defend
    g = game_at("FEF Combat", vm("a", "1913", s=4), vm("b", "1913", s=3), vm("c", "1913", s=1),
                gm("GM", "1914", s=12))
    g.apply(Attack(("GM",), "1913"))
    assert (g.prompt.side, g.prompt.rule, g.prompt.kind) == ("Communist", "IC 10.22", "defend")
    assert {a.units for a in g.legal_actions} == {("a", "b"), ("a", "c"), ("b", "c")}
    with pytest.raises(RuleViolation):
        g.apply(ChooseDefenders("FEF", ("a", "b")))
    with pytest.raises(RuleViolation):
        g.apply(ChooseDefenders("Communist", ("a", "b", "c")))       # over the limit
    g.apply(ChooseDefenders("Communist", ("b", "c")))
    res = g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([6]))
    assert res.result["raw"] == "3/1"                                 # 12 against 3 + 1, not against 8
    # attacking out of an overstacked hex: only units up to the limit may attack
    g = game_at("Communist Combat", vm("a", "1913", s=4), vm("b", "1913", s=3), vm("c", "1913", s=1),
                gm("GM", "1914", s=2))
    assert g.why_illegal(Attack(("a", "b", "c"), "1914")).rule == "IC 10.22"
    assert g.why_illegal(Attack(("a", "b"), "1914")) is None


@pytest.mark.rule("IC 28.1", "IC 28.52", "IC 11.42")
def test_a_longer_move_waits_for_the_ambush_answer_and_then_goes_on():
    g = game_at("FEF Movement", vm("803", "1414"), gm("GM", "1515", s=6))
    assert Move("GM", ("1514", "1513")) in g.legal_actions             # a whole path, though not listed
    g.apply(Move("GM", ("1514", "1513")))
    assert g.state.label(g.state.unit("GM").hex) == "1514" and g.prompt.kind == "ambush"
    g.apply(DeclineAmbush("Communist"))
    assert g.state.label(g.state.unit("GM").hex) == "1513" and g.prompt.kind == "play"


@pytest.mark.rule("IC 27.2", "IC 27.41")
def test_a_force_moves_together_and_moves_on_after_an_overrun():
    mech = Counter("GM", FEF, "mechanized", "group", 12, 8, 3, 4)
    g = game_at("FEF Movement", vm("803", "1617", s=2), (mech, "1618"), gm("RTA", "1618", s=2))
    assert MoveForce(("GM", "RTA"), ("1619",)) in list(g.legal_actions)
    g.apply(Overrun(("GM",), "1617"))
    g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([1]))     # DD: the force is not stopped
    assert MoveForce(("GM",), ("1619",)) in list(g.legal_actions)     # it may move on (27.41)
    with pytest.raises(RuleViolation):
        g.apply(MoveForce(("GM", "RTA"), ("1619",)))                   # nobody joins a force (27.2)
    g.apply(MoveForce(("GM",), ("1619",)))
    assert g.state.label(g.state.unit("GM").hex) == "1619"
    # a force of two moves together; one drops off and moves no further (27.2)
    g.apply(MoveForce(("RTA",), ("1518",)))
    assert g.why_illegal(DropOff("RTA")).rule == "IC 27.2"           # the last unit of a force stays in it
    assert g.why_illegal(Move("GM", ("1618",))).rule == "IC 9.1"


@pytest.mark.rule("IC 27.2")
def test_units_drop_off_a_force_and_move_no_further():
    g = game_at("FEF Movement", gm("A", "1515"), gm("B", "1515"))
    g.apply(MoveForce(("A", "B"), ("1516",)))
    assert {a.unit for a in g.legal_actions if isinstance(a, DropOff)} == {"A", "B"}
    g.apply(DropOff("A"))
    assert g.why_illegal(Move("A", ("1517",))).rule == "IC 9.1"
    g.apply(MoveForce(("B",), ("1517",)))
    assert [g.state.label(g.state.unit(u).hex) for u in "AB"] == ["1516", "1517"]
