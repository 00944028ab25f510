"""The experimental rules as Ruleset switches in play (Going Underground, Aircraft Range, Naval Operations) and
the airstrikes of 27.5 called into overruns and ambushes, all through Game.apply."""
import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.core.fuzz import fuzz
from wargames.indochina import (Advance, Attack, ChooseTable, DeclareAmbush, DeclineAdvance, EndPhase, Game, Move,
                                Overrun, Side)
from wargames.indochina.air_play import CommitStrike, ResolveStrike
from wargames.indochina.airstrikes import RANGE_RULE
from wargames.indochina.bombardment import shipped_table
from wargames.indochina.experimental import NAVAL, UNDERGROUND
from wargames.indochina.experimental_play import (EXPERIMENTAL_ACTIONS, OVERRUN_STRIKE, AmphibiousAssault,
                                                  CallAirstrike, ChooseAirstrikeLoss, EndUnderground,
                                                  GoUnderground, Resurface)
from wargames.indochina.game import ACTIONS
from wargames.indochina.ruleset import Ruleset
from wargames.indochina.state import IndochinaState, load_indochina_map
from wargames.indochina.units import Counter, UnitState

from .test_indochina_defects import game_at, gm, pass_phase, vm

FEF, COM = Side.FEF, Side.COMMUNIST
ON = {"underground": True, "aircraft_range": True, "naval_operations": True}
DRM = {k: v.value for k, v in shipped_table().drms.items()}


def rules(**on):
    return Ruleset(readings=on)


def cadre(uid="VM cadre", nationality="Viet Minh"):
    return Counter(uid, COM, "cadre", "cadre", 0, 6, 1, 3, nationality=nationality)


def base(uid="FEF base"):
    return Counter(uid, FEF, "base", "group", 1, 0, 0, 0)


def refused(g, action, rule, dice=None):
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(action, dice)
    assert e.value.rule == rule, str(e.value)
    assert g.state_dict() == before
    assert g.why_illegal(action) is not None


def replayed(g):
    """Undo the last action and apply it again with its dice: the position (snapshotted from ``POSITION``)
    comes back the same. (The games here are set up by hand, so a save would not replay; the save of a real
    game is tested below and by the random play.)"""
    before, last = g.state_dict(), g.history[-1]
    g.undo()
    g.apply(last.action, ScriptedDice(list(last.dice)) if last.dice else None)
    assert g.state_dict() == before
    return g


def test_the_switches_are_readings_off_by_default_and_the_actions_are_the_games():
    r = Ruleset()
    assert (r["underground"], r["aircraft_range"], r["naval_operations"]) == (False, False, False)
    assert Ruleset.READINGS["underground"].rule == UNDERGROUND
    assert Ruleset.READINGS["aircraft_range"].rule == RANGE_RULE
    assert Ruleset.READINGS["naval_operations"].rule == NAVAL
    assert set(EXPERIMENTAL_ACTIONS) <= set(ACTIONS)
    assert not Game.why_not_in_play(UNDERGROUND) and not Game.why_not_in_play(OVERRUN_STRIKE)


# --------------------------------------------------------------------------- Going Underground

def to_step_or_phase(g, phase_id):
    """Play on to ``phase_id``, closing any Underground step on the way."""
    while g.phase.id != phase_id:
        if g.exp["step"] is not None:
            g.apply(EndUnderground())
        else:
            pass_phase(g)
    return g


@pytest.mark.rule(UNDERGROUND)
def test_with_the_switch_off_movement_ends_at_once_and_hiding_is_refused():
    g = game_at("Communist Movement", (cadre(), "1714"), gm("GM 1", "1515"))
    refused(g, GoUnderground("VM cadre"), UNDERGROUND)
    g.apply(EndPhase())
    assert g.phase.id == "FEF Defensive Air" and g.exp["step"] is None


@pytest.mark.rule(UNDERGROUND)
def test_the_movement_phase_ends_with_an_underground_step_the_communist_closes():
    g = game_at("Communist Movement", (cadre(), "1714"), gm("GM 1", "1515"), ruleset=rules(underground=True))
    g.apply(EndPhase())
    assert g.phase.id == "Communist Movement"
    p = g.prompt
    assert (p.side, p.rule, p.kind) == ("Communist", UNDERGROUND, "underground")
    assert set(g.legal_actions) == {GoUnderground("VM cadre"), EndUnderground()}
    refused(g, EndPhase(), UNDERGROUND)
    g.apply(GoUnderground("VM cadre"))
    assert not g.state.unit("VM cadre").on_map and not g.state.unit("VM cadre").eliminated
    assert g.state_dict()["position"]["exp"]["hidden"] == {"VM cadre": ["1714", 1]}
    assert not g.invariants()
    assert "VM cadre" not in str(g.view("FEF")) and "1714" not in str(g.view("FEF")["position"]["exp"])
    assert g.view("FEF")["position"]["exp"]["hidden"] == 1
    assert g.view("Communist")["position"]["exp"]["hidden"] == {"VM cadre": ["1714", 1]}
    replayed(g)
    g.apply(EndUnderground())
    assert g.phase.id == "FEF Defensive Air" and g.prompt.kind == "play"


@pytest.mark.rule(UNDERGROUND)
def test_no_step_when_the_communist_has_nothing_to_hide():
    g = game_at("Communist Movement", vm("VM 1", "1714"), gm("GM 1", "1515"), ruleset=rules(underground=True))
    g.apply(EndPhase())
    assert g.phase.id == "FEF Defensive Air"


@pytest.mark.rule(UNDERGROUND, "IC 17.33")
def test_who_may_go_underground():
    militia = Counter("VM militia", COM, "militia", "battalion", 1, 0, 1, 0, nationality="Viet Minh")
    g = game_at("Communist Movement", (cadre(), "1714"), (cadre("PL cadre", "Pathet Lao"), "1716"),
                (militia, "1619"), vm("VM 1", "1715"), gm("GM 1", "1515"), ruleset=rules(underground=True))
    g.apply(EndPhase())
    refused(g, GoUnderground("PL cadre"), UNDERGROUND)           # not in its own country (Laos)
    refused(g, GoUnderground("VM militia"), UNDERGROUND)         # militia in a city
    refused(g, GoUnderground("VM 1"), UNDERGROUND)               # a regiment is no cadre, guerrilla or militia
    refused(g, GoUnderground("GM 1"), UNDERGROUND)
    g.apply(GoUnderground("VM cadre"))
    refused(g, GoUnderground("VM cadre"), UNDERGROUND)           # already off the map


@pytest.mark.rule(UNDERGROUND)
def test_a_hidden_unit_resurfaces_in_a_later_step_on_or_next_to_its_hex():
    g = game_at("Communist Movement", (cadre(), "1714"), gm("GM 1", "1713"), ruleset=rules(underground=True))
    g.apply(EndPhase())
    g.apply(GoUnderground("VM cadre"))
    refused(g, Resurface("VM cadre", "1714"), UNDERGROUND)       # not in the step it hid in
    g.apply(EndUnderground())
    to_step_or_phase(g, "FEF Movement")
    g.apply(EndPhase())
    assert g.prompt.kind == "underground" and g.exp["step"] == 2
    refused(g, Resurface("VM cadre", "1713"), UNDERGROUND)       # an enemy unit is there
    refused(g, Resurface("VM cadre", "1716"), UNDERGROUND)       # two hexes away
    assert Resurface("VM cadre", "1715") in g.legal_actions
    g.apply(Resurface("VM cadre", "1714"))                      # its own hex is allowed too
    assert g.state.label(g.state.unit("VM cadre").hex) == "1714"
    g.undo()
    g.apply(Resurface("VM cadre", "1715"))
    assert g.state.label(g.state.unit("VM cadre").hex) == "1715" and not g.exp["hidden"]
    assert not g.invariants()
    replayed(g)


@pytest.mark.rule(UNDERGROUND)
def test_a_saved_game_with_a_unit_underground_replays_to_the_same_position():
    from .test_indochina_air_play import to_phase
    g = to_phase(Game.new("highlands demo", ruleset=rules(underground=True), seed=2), "Communist Movement")
    g.apply(EndPhase())
    g.apply(GoUnderground("Cadre A"))
    again = Game.load(g.save())
    assert again.state_dict() == g.state_dict() and again.exp["hidden"] == {"Cadre A": ["1214", 1]}
    again.apply(EndUnderground())
    assert not again.invariants()


@pytest.mark.rule(UNDERGROUND)
def test_fef_militia_counts_as_an_enemy_unit_for_resurfacing():
    g = game_at("Communist Movement", (cadre(), "1618"), gm("GM 1", "1515"), ruleset=rules(underground=True))
    g.apply(EndPhase())
    g.apply(GoUnderground("VM cadre"))
    to_step_or_phase(g, "FEF Movement")
    g.apply(EndPhase())
    assert g.state.fef_militia(g.state.map.hex("1619")) > 0
    refused(g, Resurface("VM cadre", "1619"), UNDERGROUND)



@pytest.mark.rule(UNDERGROUND, "IC 17.35")
def test_a_militia_resurfaces_only_where_a_militia_may_stand():
    militia = Counter("VM militia", COM, "militia", "battalion", 1, 0, 1, 0, nationality="Viet Minh")
    other = Counter("VM militia 2", COM, "militia", "battalion", 1, 0, 1, 0, nationality="Viet Minh")
    g = game_at("Communist Movement", (militia, "1714"), (other, "1715"), gm("GM 1", "1515"),
                ruleset=rules(underground=True))
    g.apply(EndPhase())
    g.apply(GoUnderground("VM militia"))
    to_step_or_phase(g, "FEF Movement")
    g.apply(EndPhase())
    refused(g, Resurface("VM militia", "1715"), "IC 17.35")      # one militia a hex
    g.state.neutral_cities.add("1713")
    refused(g, Resurface("VM militia", "1713"), "IC 17.35")      # a city nobody holds would raise a second
    g.apply(Resurface("VM militia", "1714"))

# --------------------------------------------------------------------------- Aircraft Range

def strike_result(base_hex, *, carrier=0, ruleset=None, roll=3):
    placed = [vm("VM 1", "1516", s=2)] + ([(base(), base_hex)] if base_hex else [])
    g = game_at("FEF Offensive Air", *placed, ruleset=ruleset or rules(aircraft_range=True))
    g.apply(CommitStrike("1516", airstrike=1, carrier=carrier))
    return g.apply(ResolveStrike("1516"), ScriptedDice([roll])).result


@pytest.mark.rule(RANGE_RULE)
def test_the_range_from_the_nearest_base_modifies_the_bombardment():
    near, mid, far = (strike_result(h) for h in ("1514", "1510", "1020"))   # 2, 6 and 7 hexes
    assert near["modified"] == 3 + DRM["range_near"] == 4
    assert mid["modified"] == 3 + DRM["range_mid"] == 3
    assert far["modified"] == 3 + DRM["range_far"] == 2
    off = strike_result("1514", ruleset=rules())
    assert off["modified"] == 3


@pytest.mark.rule(RANGE_RULE)
def test_without_a_base_only_carriers_fly_and_they_fly_from_the_sea():
    g = game_at("FEF Offensive Air", vm("VM 1", "1516", s=2), ruleset=rules(aircraft_range=True))
    refused(g, CommitStrike("1516", airstrike=1), RANGE_RULE)
    assert CommitStrike("1516", airstrike=1, carrier=1) in g.legal_actions
    sea = strike_result(None, carrier=1)                         # 1516 to the sea at 2120: 7 hexes
    assert sea["modified"] == 3 + DRM["range_far"]
    mixed = strike_result("1514", carrier=1)                     # one group alone, from the carrier
    assert mixed["modified"] == 3 + DRM["range_far"]


@pytest.mark.rule(RANGE_RULE)
def test_carriers_only_under_the_switch_and_two_groups_at_most():
    g = game_at("FEF Offensive Air", vm("VM 1", "1516", s=2), (base(), "1514"))
    refused(g, CommitStrike("1516", airstrike=1, carrier=1), RANGE_RULE)
    g = game_at("FEF Offensive Air", vm("VM 1", "1516", s=2), vm("VM 2", "1416", s=2), (base(), "1514"),
                ruleset=rules(aircraft_range=True))
    g.air["available"]["airstrike"] = g.air["owned"]["airstrike"] = 4
    refused(g, CommitStrike("1516", airstrike=3, carrier=3), RANGE_RULE)
    refused(g, CommitStrike("1516", airstrike=1, carrier=2), RANGE_RULE)
    g.apply(CommitStrike("1516", airstrike=2, carrier=2))
    refused(g, CommitStrike("1416", airstrike=1, carrier=1), RANGE_RULE)   # the carriers' two are used
    g.apply(CommitStrike("1416", airstrike=1))
    assert replayed(g).air["phase"]["carrier"] == {"1516": 2}
    assert not g.invariants()


# --------------------------------------------------------------------------- 27.5: airstrikes in overruns

@pytest.mark.rule(OVERRUN_STRIKE, "IC 27.3")
def test_the_fef_calls_airstrikes_into_its_own_overrun_with_the_overrun_modifier():
    g = game_at("FEF Movement", gm("GM 1", "1515"), gm("GM 2", "1515"), vm("VM 1", "1516", s=2))
    g.apply(Overrun(("GM 1", "GM 2"), "1516"))
    assert g.prompt.kind == "table"                              # the combat's own prompt stays
    assert CallAirstrike("FEF", 2) in g.legal_actions
    refused(g, CallAirstrike("Communist", 1), OVERRUN_STRIKE)
    refused(g, CallAirstrike("FEF", 3), "IC 12.21")
    res = g.apply(CallAirstrike("FEF", 2), ScriptedDice([4]))
    assert any(s.rule == OVERRUN_STRIKE and "overrun" in s.text and s.result == DRM["overrun"] for s in res.steps)
    assert res.steps and g.air["completed"] == {"airstrike": 2} and "airstrike" not in g.air["available"]
    assert g.state.unit("VM 1").disrupted                          # 4 - 1 = 3 on line 2: a disruption
    assert g.combat["combat"].defence == (g.state.unit("VM 1").strength,)
    refused(g, CallAirstrike("FEF", 1), OVERRUN_STRIKE)            # once per combat
    replayed(g)
    g.apply(ChooseTable("Communist", "Mobile"), ScriptedDice([3]))
    assert not g.invariants()


@pytest.mark.rule(OVERRUN_STRIKE)
def test_defending_the_fef_strikes_the_overrunning_force_and_not_after_the_crt_is_chosen():
    g = game_at("Communist Movement", vm("VM 1", "1516"), vm("VM 2", "1516"), gm("GM 1", "1515"))
    g.apply(Overrun(("VM 1", "VM 2"), "1515"))
    cb = g.combat
    assert cb["side"] == "Communist"
    g.apply(CallAirstrike("FEF", 1), ScriptedDice([6]))       # 6 - 1 = 5 on line 1: B1, the owner picks
    assert g.exp["strike"]["hex"] == "1516" and g.prompt.kind == "loss"
    g2 = game_at("Communist Movement", vm("VM 1", "1516"), gm("GM 1", "1515"))
    g2.apply(Overrun(("VM 1",), "1515"))
    g2.apply(ChooseTable(g2.prompt.side, "Mobile"), ScriptedDice([1]))
    assert CallAirstrike("FEF", 1) not in g2.legal_actions


@pytest.mark.rule(OVERRUN_STRIKE)
def test_no_overrun_airstrike_in_ordinary_combat_or_when_grounded():
    g = game_at("FEF Combat", gm("GM 1", "1515"), vm("VM 1", "1516", s=2))
    g.apply(Attack(("GM 1",), "1516"))
    refused(g, CallAirstrike("FEF", 1), OVERRUN_STRIKE)
    g = game_at("FEF Movement", gm("GM 1", "1515"), vm("VM 1", "1516", s=2))
    g.air["grounded"] = {"why": "a typhoon", "rule": "IC 6.0"}
    g.apply(Overrun(("GM 1",), "1516"))
    assert CallAirstrike("FEF", 1) not in g.legal_actions
    refused(g, CallAirstrike("FEF", 1), "IC 6.0")


@pytest.mark.rule(OVERRUN_STRIKE, "IC 27.3")
def test_a_strike_that_leaves_no_defender_ends_the_overrun_and_the_force_moves_on():
    g = game_at("FEF Movement", gm("GM 1", "1515"), gm("GM 2", "1515"), vm("VM 1", "1516", s=2))
    g.state.unit("VM 1").disrupted = True
    g.air["available"]["airstrike"] = g.air["owned"]["airstrike"] = 5
    g.apply(Overrun(("GM 1", "GM 2"), "1516"))
    res = g.apply(CallAirstrike("FEF", 5), ScriptedDice([6]))  # 6 - 1 = 5 on line 5-7: B3
    assert g.state.unit("VM 1").eliminated
    assert g.combat is None and not g.forces[0].stopped
    assert any(s.rule == "IC 27.3" and "no defender" in s.text for s in res.steps)
    assert not g.invariants()


@pytest.mark.rule(OVERRUN_STRIKE)
def test_the_communist_picks_the_unit_an_overrun_strike_disrupts():
    g = game_at("FEF Movement", gm("GM 1", "1515"), gm("GM 2", "1515"), vm("VM 1", "1516", s=2),
                vm("VM 2", "1516", s=2))
    g.apply(Overrun(("GM 1", "GM 2"), "1516"))
    g.apply(CallAirstrike("FEF", 1), ScriptedDice([6]))       # 6 - 1 = 5 on line 1: B1, the owner's choice
    p = g.prompt
    assert (p.side, p.kind) == ("Communist", "loss")
    assert set(g.legal_actions) == {ChooseAirstrikeLoss("Communist", "VM 1"), ChooseAirstrikeLoss("Communist", "VM 2")}
    refused(g, ChooseTable("Communist", "Mobile"), p.rule)
    replayed(g)
    g.apply(ChooseAirstrikeLoss("Communist", "VM 2"))
    assert g.state.unit("VM 2").disrupted and not g.state.unit("VM 1").disrupted
    assert g.prompt.kind == "table"



@pytest.mark.rule(OVERRUN_STRIKE, "IC 28.2")
def test_an_ambush_takes_overrun_airstrikes_too_and_a_cleared_hex_lets_the_move_go_on():
    g = game_at("FEF Movement", vm("803", "1414"), gm("GM", "1515", s=6))
    g.apply(Move("GM", ("1514",)))
    g.apply(DeclareAmbush("Communist", "1414"))
    g.state.unit("803").disrupted = True
    g.air["available"]["airstrike"] = g.air["owned"]["airstrike"] = 5
    res = g.apply(CallAirstrike("FEF", 5), ScriptedDice([6]))    # the ambushers' hex: B3 on line 5-7
    assert g.state.unit("803").eliminated and g.combat is None and g.prompt.kind == "play"
    assert any(s.rule == "IC 27.3" and "no defender" in s.text for s in res.steps)
    assert not g.invariants()


@pytest.mark.rule(OVERRUN_STRIKE, "IC 28.2")
def test_ambushing_the_fef_strikes_the_moving_force_and_may_destroy_it():
    g = game_at("Communist Movement", gm("GM L", "1414", cls="Light"), vm("VM 1", "1515"))
    g.apply(Move("VM 1", ("1514",)))
    assert g.prompt.kind == "ambush" and g.prompt.side == "FEF"
    g.apply(DeclareAmbush("FEF", "1414"))
    g.state.unit("VM 1").disrupted = True
    g.air["available"]["airstrike"] = g.air["owned"]["airstrike"] = 5
    res = g.apply(CallAirstrike("FEF", 5), ScriptedDice([6]))
    assert any(s.rule == "IC 12.32" and s.text.startswith("1514") for s in res.steps)
    assert g.state.unit("VM 1").eliminated and g.combat is None
    assert any(s.rule == "IC 27.3" and "no attacker" in s.text for s in res.steps)
    assert not g.invariants()


@pytest.mark.rule(OVERRUN_STRIKE, RANGE_RULE)
def test_overrun_strikes_take_the_range_rule_and_its_carriers():
    g = game_at("FEF Movement", gm("GM 1", "1515"), vm("VM 1", "1516", s=2))
    g.apply(Overrun(("GM 1",), "1516"))
    refused(g, CallAirstrike("FEF", 1, 1), RANGE_RULE)            # the switch is off: no carriers
    g = game_at("FEF Movement", gm("GM 1", "1515"), vm("VM 1", "1516", s=2), (base(), "1514"),
                ruleset=rules(aircraft_range=True))
    g.air["available"]["airstrike"] = g.air["owned"]["airstrike"] = 3
    g.apply(Overrun(("GM 1",), "1516"))
    refused(g, CallAirstrike("FEF", 1, 2), RANGE_RULE)
    refused(g, CallAirstrike("FEF", 3, 3), RANGE_RULE)
    res = g.apply(CallAirstrike("FEF", 2), ScriptedDice([3]))    # from the base two hexes away: +1, and -1
    assert [s.result for s in res.steps if s.rule in (OVERRUN_STRIKE, RANGE_RULE) and s.result is not None] == \
        [DRM["overrun"], DRM["range_near"]]
    assert any(s.rule == "IC 12.33" and s.text.startswith("roll 3: B1") for s in res.steps)   # 3 - 1 + 1
    g = game_at("FEF Movement", gm("GM 1", "1515"), vm("VM 1", "1516", s=2), ruleset=rules(aircraft_range=True))
    g.apply(Overrun(("GM 1",), "1516"))
    refused(g, CallAirstrike("FEF", 1), RANGE_RULE)               # no base: only a carrier may fly
    g.apply(CallAirstrike("FEF", 1, 1), ScriptedDice([3]))
    assert g.exp["carrier"][2] == 1


@pytest.mark.rule(OVERRUN_STRIKE, "IC 6.0")
def test_no_overrun_strike_while_an_event_grounds_the_air_units():
    g = game_at("FEF Movement", gm("GM 1", "1515"), vm("VM 1", "1516", s=2))
    g.event["this_turn"].append("no air operations")
    g.event["number"] = 1
    g.apply(Overrun(("GM 1",), "1516"))
    refused(g, CallAirstrike("FEF", 1), "IC 6.0")


@pytest.mark.rule(UNDERGROUND)
def test_the_invariants_notice_a_hidden_unit_left_on_the_map():
    g = game_at("Communist Movement", (cadre(), "1714"), gm("GM 1", "1515"), ruleset=rules(underground=True))
    g.apply(EndPhase())
    g.apply(GoUnderground("VM cadre"))
    g.state.unit("VM cadre").hex = g.state.map.hex("1714")
    assert any(UNDERGROUND in p for p in g.invariants())

# --------------------------------------------------------------------------- Naval Operations

COAST = """\
name: Coast (schematic)
sheet: main
layout: {parity: even-q, col_digits: 2, row_digits: 2}
provenance: {kind: reconstructed, source: a small schematic coast for the Naval Operations tests}
fill: {cols: [10, 14], rows: [10, 14], terrain: clear}
hexes:
  "1210": {terrain: all_lake}
  "1211": {terrain: all_lake}
  "1310": {terrain: clear, features: [coast]}
  "1311": {terrain: clear, features: [coast]}
  "1312": {terrain: clear, features: [coast, town], name: Haiphong, port: Haiphong, militia: 1}
  "1313": {terrain: all_sea}
  "1314": {terrain: clear, features: [coast]}
  "1410": {terrain: all_sea}
  "1411": {terrain: all_sea}
  "1412": {terrain: all_sea}
  "1413": {terrain: all_sea}
  "1414": {terrain: all_sea}
"""


@pytest.fixture
def coast(tmp_path):
    p = tmp_path / "coast.yaml"
    p.write_text(COAST, encoding="utf-8")
    return load_indochina_map(p)


def coast_game(m, phase_id, *placed, staged=(), ruleset=None, supply=(0, 0)):
    g = game_at(phase_id, ruleset=ruleset or rules(naval_operations=True), supply=supply)
    st = IndochinaState.build(m, placed)
    st.charts, st.monsoon = g.state.charts, g.state.monsoon
    for c in staged:
        st.units[c.id] = UnitState(c, None)
        g.staging.units.add(c.id)
    g.state = st
    return g


def marine(uid="Marines", s=6):
    return Counter(uid, FEF, "marine infantry", "group", s, 6, 3, 3)


@pytest.mark.rule(NAVAL)
def test_an_amphibious_assault_is_refused_with_the_switch_off(coast):
    g = coast_game(coast, "FEF Movement", vm("VM 1", "1311", s=1), staged=[marine()], ruleset=rules())
    refused(g, AmphibiousAssault(("Marines",), "1311", "1411"), NAVAL)
    assert not [a for a in g.legal_actions if isinstance(a, AmphibiousAssault)]


def assault(coast, roll, s=6, supply=False, points=(0, 0)):
    g = coast_game(coast, "FEF Movement", vm("VM 1", "1311", s=2), staged=[marine(s=s)], supply=points)
    assert AmphibiousAssault(("Marines",), "1311", "1411") in g.legal_actions
    g.apply(AmphibiousAssault(("Marines",), "1311", "1411", supply))
    assert g.combat["kind"] == "amphibious" and not g.invariants()
    replayed(g)
    g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([roll]))
    while g.combat is not None and g.prompt.kind == "retreat":      # the defender's retreats come first
        g.apply(next(iter(g.legal_actions)))
    return g


@pytest.mark.rule(NAVAL, "IC 23.12")
def test_a_winning_assault_lands_on_the_hex(coast):
    g = assault(coast, 4, s=12)                                  # 12 against 2, roll 4: DE
    assert g.prompt.kind == "advance"
    assert all(len(a.path) == 1 for a in g.legal_actions if isinstance(a, Advance))   # one hex: the beach
    refused(g, ChooseTable("FEF", "Mobile"), "IC 13.61")
    g.apply(Advance("FEF", ("Marines",), ("1311",)))
    assert g.state.label(g.state.unit("Marines").hex) == "1311"
    assert "Marines" not in g.staging.units and "Marines" in g.staging.spent
    assert not g.invariants()


@pytest.mark.rule(NAVAL, "IC 13.61")
def test_a_landing_force_lands_on_the_beach_and_goes_no_further(coast):
    mech = Counter("GM mech", FEF, "mechanized", "group", 12, 6, 6, 3)
    g = coast_game(coast, "FEF Movement", vm("VM 1", "1311", s=2), staged=[mech])
    g.apply(AmphibiousAssault(("GM mech",), "1311", "1411"))
    g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([4]))
    assert g.prompt.kind == "advance" and g.combat["advance"] == 1
    assert not [a for a in g.legal_actions if isinstance(a, Advance) and len(a.path) > 1]
    refused(g, Advance("FEF", ("GM mech",), ("1311", "1310")), "IC 13.61")

@pytest.mark.rule(NAVAL)
def test_declining_to_land_goes_back_to_the_staging_area(coast):
    g = assault(coast, 4, s=12)
    g.apply(DeclineAdvance("FEF"))
    assert g.state.unit("Marines").hex is None and "Marines" in g.staging.units
    assert not g.invariants()


@pytest.mark.rule(NAVAL)
def test_a_retreat_result_sends_the_landing_force_back_to_the_staging_area(coast):
    g = assault(coast, 1, s=1)                                   # 1 against 2, roll 1: AR
    assert g.combat is None and g.resolutions[-1].result["result"] == "AR"
    u = g.state.unit("Marines")
    assert u.hex is None and u.disrupted and not u.eliminated    # the CRT's disruption stands
    assert "Marines" in g.staging.units and "Marines" in g.staging.spent
    assert not [a for a in g.legal_actions if isinstance(a, AmphibiousAssault)]     # its move is over (23.122)
    assert not g.invariants()


@pytest.mark.rule(NAVAL)
def test_invasion_supply_doubles_the_landing_force_without_a_line_of_supply(coast):
    g = coast_game(coast, "FEF Movement", vm("VM 1", "1311", s=2), staged=[marine()], supply=(0, 0))
    refused(g, AmphibiousAssault(("Marines",), "1311", "1411", True), NAVAL)
    g = coast_game(coast, "FEF Movement", vm("VM 1", "1311", s=2), staged=[marine()], supply=(2, 0))
    g.apply(AmphibiousAssault(("Marines",), "1311", "1411", True))
    assert g.logistics.points[FEF] == 1 and g.combat["combat"].attack_enhanced
    refused(g, AmphibiousAssault(("Marines",), "1310", "1410"), "IC 13.31")


@pytest.mark.rule(NAVAL, "IC 23.12")
def test_the_assault_needs_a_sea_hex_next_to_an_enemy_held_coast(coast):
    g = coast_game(coast, "FEF Movement", vm("VM 1", "1311", s=2), staged=[marine()])
    refused(g, AmphibiousAssault(("Marines",), "1310", "1410"), NAVAL)        # nobody there
    refused(g, AmphibiousAssault(("Marines",), "1311", "1414"), NAVAL)        # not next to it
    refused(g, AmphibiousAssault(("Marines",), "1311", "1310"), NAVAL)        # land, not sea
    refused(g, AmphibiousAssault(("VM 1",), "1311", "1411"), NAVAL)           # not in the staging area
    g2 = coast_game(coast, "FEF Combat", vm("VM 1", "1311", s=2), staged=[marine()])
    refused(g2, AmphibiousAssault(("Marines",), "1311", "1411"), NAVAL)


@pytest.mark.rule(NAVAL, "IC 15.2")
def test_supply_lines_may_cross_lake_and_sea_hexes(coast):
    """Forced march (15.32) needs a line of supply: the FEF's two hexes off the road from the base at 1314
    reach 1312 only across the bay at 1313."""
    from wargames.indochina import ForcedMarch
    placed = [(base(), "1314"), gm("GM 1", "1312"), vm("VM 1", "1010", s=2)]
    for on in (False, True):
        g = coast_game(coast, "FEF Movement", *placed, ruleset=rules(naval_operations=on), supply=(3, 0))
        action = ForcedMarch("1312")
        assert (g.why_illegal(action) is None) is on, g.why_illegal(action)
    g.apply(action)                                      # the procedure traces the same line as the check
    assert g.logistics.points[FEF] == 2
    g = coast_game(coast, "FEF Reorganization", *placed, ruleset=rules(naval_operations=True), supply=(3, 0))
    from wargames.indochina import Fortify
    assert g.why_illegal(Fortify("1312")) is None
    g.apply(Fortify("1312"))                             # a fortification needs the line too (15.31)


# --------------------------------------------------------------------------- random play with the switches on

@pytest.mark.rule(UNDERGROUND, RANGE_RULE, NAVAL, OVERRUN_STRIKE)
def test_random_play_with_the_switches_on_reaches_every_part_and_breaks_nothing():
    variant = Game.VARIANTS["experimental rules"]                 # the variant the coverage appendix plays
    assert set(variant) == set(ON) and all(variant.values())
    report = fuzz(Game, actions=600, seed=7, scenario="highlands demo", ruleset=Ruleset(readings=dict(variant)))
    assert not report.failures, report.failures[0].detail[-1500:]
    assert {UNDERGROUND, RANGE_RULE, NAVAL, OVERRUN_STRIKE} <= report.reached
