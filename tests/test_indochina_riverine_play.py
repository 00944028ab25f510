"""IC 18.4-18.45 in play: DNA amphibious movement through Game.apply (Embark, the DNA's Move, Disembark, the
landing at the end of the Movement Phase, the passenger's fate in a DNA's overrun), on the schematic river map
of the rule 18 tests and from the Scenario 1 set-up."""
import random

import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.indochina import ChooseTable, DeclareAmbush, Deploy, EndPhase, Game, Move, MoveForce, Overrun, Retreat, Side
from wargames.indochina.riverine import is_dna
from wargames.indochina.riverine_play import Disembark, Embark
from wargames.indochina.stacking import stack_total
from wargames.indochina.state import IndochinaState, load_indochina_map
from wargames.indochina.units import Counter
from wargames.indochina.game import Game as IndochinaGame
from tests.test_indochina_defects import game_at, pass_phase
from tests.test_indochina_riverine_staging import MAP

FEF, COM = Side.FEF, Side.COMMUNIST


@pytest.fixture
def water_map(tmp_path):
    p = tmp_path / "coast.yaml"
    p.write_text(MAP, encoding="utf-8")
    return load_indochina_map(p)


def unit(uid, side=FEF, kind="regular infantry", size="group", s=6, m=6):
    return Counter(uid, side, kind, size, s, m, s // 2, m // 2)


def dna(uid="DNA 1", s=3, m=8):
    return unit(uid, FEF, "DNA", "group", s, m)


def river_game(m, *placed, phase="FEF Movement", ruleset=None, supply=(0, 0)):
    """The demonstration game moved onto the river map with only these units, in ``phase``, in clear weather."""
    g = game_at(phase, ruleset=ruleset, supply=supply)
    st = IndochinaState.build(m, placed)
    st.charts, st.monsoon = g.state.charts, False
    g.state = st
    return g


def refused(g, action, rule):
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(action)
    assert e.value.rule == rule, e.value
    assert g.state_dict() == before                     # a refusal changes nothing
    assert g.why_illegal(action) is not None and action not in g.legal_actions
    return e.value


def at(g, uid):
    u = g.state.unit(uid)
    return g.state.label(u.hex) if u.on_map else None


# ------------------------------------------------------------------ 18.41(1), 18.42: boarding
@pytest.mark.rule("IC 18.41", "IC 18.42")
def test_embark_refusals_each_with_its_rule(water_map):
    g = river_game(water_map, (dna(), "1111"), (unit("GM 1"), "1111"), (unit("GM 2"), "1111"),
                   (unit("Div", size="division"), "1111"), (unit("GM far"), "1112"),
                   (unit("Mil", kind="militia", size="battalion", s=1, m=0), "1111"), (unit("VM", COM), "1010"))
    refused(g, Embark("DNA 1", "Div"), "IC 18.42")                 # no divisions
    refused(g, Embark("DNA 1", "GM far"), "IC 18.41")              # must start in the DNA's hex
    refused(g, Embark("DNA 1", "Mil"), "IC 17.3")                  # militia never move
    refused(g, Embark("GM 1", "GM 2"), "IC 18.41")                 # only a DNA carries
    assert {a.unit for a in g.legal_actions if isinstance(a, Embark)} == {"GM 1", "GM 2"}   # offered, the rest refused
    res = g.apply(Embark("DNA 1", "GM 1"))
    assert "IC 18.42" in res.rules() and g.riverine.passenger("DNA 1") == "GM 1"
    refused(g, Embark("DNA 1", "GM 2"), "IC 18.42")                # one passenger a DNA
    other = river_game(water_map, (dna(), "1111"), (unit("GM 1"), "1111"), (unit("GM 2"), "1110"))
    other.apply(Move("GM 2", ("1111",)))
    refused(other, Embark("DNA 1", "GM 2"), "IC 18.41")            # it moved: it did not start there
    other.apply(Move("DNA 1", ("1112",)))
    moved = river_game(water_map, (dna(), "1111"), (unit("GM 1"), "1112"))
    moved.apply(Move("DNA 1", ("1112",)))
    refused(moved, Embark("DNA 1", "GM 1"), "IC 18.41")            # a DNA that moved takes nobody aboard
    by_sea = river_game(water_map, (dna(), "1111"), (unit("GM 1"), "1111"))
    by_sea.staging.spent.add("GM 1")                               # it arrived by sea this turn
    refused(by_sea, Embark("DNA 1", "GM 1"), "IC 23.122")
    later = river_game(water_map, (dna(), "1111"), (unit("GM 1"), "1111"), phase="FEF Combat")
    refused(later, Embark("DNA 1", "GM 1"), "IC 18.41")            # only in the FEF Movement Phase
    com = river_game(water_map, (dna(), "1111"), (unit("GM 1"), "1111"), phase="Communist Movement")
    refused(com, Embark("DNA 1", "GM 1"), "IC 18.41")


# ------------------------------------------------------------------ 18.41(2), 18.44, 18.42: a full trip
@pytest.mark.rule("IC 18.41", "IC 18.42", "IC 18.44")
def test_embark_move_and_disembark_through_apply(water_map):
    g = river_game(water_map, (dna(), "1110"), (unit("GM 1"), "1110"), (unit("GM 2"), "1113"))
    g.apply(Embark("DNA 1", "GM 1"))
    res = g.apply(Move("DNA 1", ("1111", "1112", "1113")))
    assert at(g, "DNA 1") == at(g, "GM 1") == "1113" and "GM 1 travels aboard DNA 1" in res.text()
    assert stack_total(g.state, g.state.map.hex("1113"), FEF) == 1.5            # the passenger counts (18.42)
    assert Disembark("DNA 1") in list(g.legal_actions)
    res = g.apply(Disembark("DNA 1"))
    assert "IC 18.44" in res.rules() and g.riverine.passenger("DNA 1") is None and at(g, "GM 1") == "1113"
    refused(g, Disembark("DNA 1"), "IC 18.41")                               # nothing left aboard
    refused(g, Embark("DNA 1", "GM 2"), "IC 18.44")                          # the DNA is done for the phase
    assert not [a for a in g.legal_actions if getattr(a, "unit", None) == "GM 1" or
                "GM 1" in getattr(a, "units", ())]


@pytest.mark.rule("IC 18.44")
def test_the_passenger_makes_no_other_move_and_the_dna_stops_after_a_drop(water_map):
    g = river_game(water_map, (dna(), "1111"), (unit("GM 1"), "1111"), (unit("GM 2"), "1111"),
                   (unit("VM", COM, s=1), "1011"))
    g.apply(Embark("DNA 1", "GM 1"))
    refused(g, Move("GM 1", ("1211",)), "IC 18.44")
    refused(g, MoveForce(("GM 1", "GM 2"), ("1211",)), "IC 18.44")
    refused(g, Overrun(("GM 1", "GM 2"), "1011"), "IC 18.44")
    refused(g, Overrun(("GM 1",), "1011"), "IC 18.44")
    g.apply(Move("GM 2", ("1211",)))                                  # the others move as usual
    g.apply(Disembark("DNA 1"))                                       # set down where it boarded
    refused(g, Move("GM 1", ("1211",)), "IC 18.44")                   # still no move of its own
    refused(g, Move("DNA 1", ("1112",)), "IC 18.44")
    refused(g, Overrun(("DNA 1",), "1011"), "IC 18.44")


@pytest.mark.rule("IC 18.44")
def test_a_unit_carried_by_dna_is_not_flown_later_in_the_turn(water_map):
    from wargames.indochina import AirTransport
    g = river_game(water_map, (dna(), "1110"), (unit("GM 1"), "1110"))
    g.apply(Embark("DNA 1", "GM 1"))
    g.apply(Move("DNA 1", ("1111",)))
    pass_phase(g)
    assert g.phase.id == "FEF Offensive Air" and at(g, "GM 1") == "1111"
    refused(g, AirTransport("GM 1", "1111", "1110"), "IC 18.44")


@pytest.mark.rule("IC 18.42", "IC 9.5")
def test_a_dna_with_a_passenger_ends_its_move_where_the_passenger_can_land(water_map):
    g = river_game(water_map, (dna(), "1110"), (unit("GM 1"), "1110"))
    g.apply(Embark("DNA 1", "GM 1"))
    refused(g, Move("DNA 1", ("1210",)), "IC 9.5")                    # a lake: no land unit stops there
    g.apply(Move("DNA 1", ("1210", "1310")))                          # across the lake to the coast is fine
    assert at(g, "GM 1") == "1310"


# ------------------------------------------------------------------ 18.41(3): the landing at the end of the phase
@pytest.mark.rule("IC 18.41", "IC 18.42")
def test_whatever_is_aboard_lands_in_the_dna_hex_when_the_movement_phase_ends(water_map):
    g = river_game(water_map, (dna(), "1110"), (unit("GM 1"), "1110"), (dna("DNA 2"), "1114"),
                   (unit("GM 2"), "1114"))
    g.apply(Embark("DNA 1", "GM 1"))
    g.apply(Embark("DNA 2", "GM 2"))
    g.apply(Move("DNA 1", ("1111", "1112")))
    assert g.decision() is None                  # no prompt: the rule leaves no choice of where
    res = g.apply(EndPhase())
    assert "IC 18.41" in res.rules() and "GM 1 down at 1112" in res.text().replace("sets ", "")
    assert at(g, "GM 1") == "1112" and at(g, "GM 2") == "1114"
    assert not g.riverine.carried and g.phase.kind == "air"
    assert not g.invariants()


# ------------------------------------------------------------------ 18.43: the passenger shares the DNA's fate
def overrun_game(water_map, vm_strength=1):
    g = river_game(water_map, (dna(s=3), "1111"), (unit("GM 1", s=9), "1111"), (unit("VM", COM, s=vm_strength),
                                                                                 "1011"))
    g.apply(Embark("DNA 1", "GM 1"))
    assert Overrun(("DNA 1",), "1011") in list(g.legal_actions)            # offered, not only accepted
    g.apply(Overrun(("DNA 1",), "1011"))
    return g


def roll_for(water_map, code, vm_strength=1):
    """The die that gives ``code`` in the DNA's overrun (found by trying each)."""
    for r in range(1, 7):
        g = overrun_game(water_map, vm_strength)
        res = g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([r]))
        if res.result and res.result.get("result") == code:
            return r
    pytest.skip(f"no roll gives {code} at this ratio")


@pytest.mark.rule("IC 18.43")
def test_the_passenger_strength_does_not_count_in_the_dna_overrun(water_map):
    g = overrun_game(water_map)
    assert g.combat["attackers"] == ["DNA 1"] and g.combat["combat"].attack == (3,)
    assert g.combat["dna"] == {"DNA 1": {"passenger": "GM 1", "disrupted": False}}


@pytest.mark.rule("IC 18.43")
def test_the_passenger_is_disrupted_and_retreats_with_the_dna(water_map):
    r = roll_for(water_map, "AR", vm_strength=6)
    g = overrun_game(water_map, vm_strength=6)
    g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([r]))
    assert g.prompt.kind == "retreat"
    options = [a for a in g.legal_actions if isinstance(a, Retreat)]
    assert options and all(a.hex in ("1110", "1112") for a in options)   # water hexes only (18.3)
    res = g.apply(options[0])
    assert "IC 18.43" in res.rules()
    assert at(g, "GM 1") == at(g, "DNA 1") == options[0].hex
    assert g.state.unit("DNA 1").disrupted and g.state.unit("GM 1").disrupted
    assert g.riverine.passenger("DNA 1") == "GM 1" and not g.invariants()
    g.apply(EndPhase())
    assert at(g, "GM 1") == options[0].hex and not g.riverine.carried


@pytest.mark.rule("IC 18.43")
def test_the_passenger_is_eliminated_with_the_dna(water_map):
    r = roll_for(water_map, "AE", vm_strength=6)
    g = overrun_game(water_map, vm_strength=6)
    res = g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([r]))
    assert g.state.unit("DNA 1").eliminated and g.state.unit("GM 1").eliminated
    assert "IC 18.43" in res.rules() and not g.riverine.carried and not g.invariants()


@pytest.mark.rule("IC 18.43")
def test_a_disrupted_dna_disrupts_its_passenger_where_it_stands(water_map):
    r = roll_for(water_map, "AD")
    g = overrun_game(water_map)
    g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([r]))
    assert g.state.unit("DNA 1").disrupted and g.state.unit("GM 1").disrupted
    assert at(g, "GM 1") == at(g, "DNA 1") == "1111"


@pytest.mark.rule("IC 18.43", "IC 14.4")
def test_a_disrupted_passenger_is_eliminated_when_its_dna_is_disrupted(water_map):
    r = roll_for(water_map, "AD")
    g = river_game(water_map, (dna(s=3), "1111"), (unit("GM 1", s=9), "1111"), (unit("VM", COM, s=1), "1011"))
    g.state.unit("GM 1").disrupted = True
    g.apply(Embark("DNA 1", "GM 1"))
    g.apply(Overrun(("DNA 1",), "1011"))
    g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([r]))
    assert g.state.unit("GM 1").eliminated and not g.state.unit("DNA 1").eliminated
    assert not g.riverine.carried and not g.invariants()


@pytest.mark.rule("IC 18.43")
def test_a_result_that_spares_the_dna_spares_the_passenger(water_map):
    r = roll_for(water_map, "DD")
    g = overrun_game(water_map)
    g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([r]))
    assert g.state.unit("VM").disrupted
    assert not g.state.unit("GM 1").disrupted and at(g, "GM 1") == at(g, "DNA 1") == "1111"
    assert g.riverine.passenger("DNA 1") == "GM 1"


def ambushed(water_map, roll):
    """DNA 1 carries GM 1 up the river past a Light Viet Minh unit in the jungle, which ambushes it."""
    g = river_game(water_map, (dna(s=3), "1110"), (unit("GM 1", s=9), "1110"), (unit("VM", COM, s=2), "1010"))
    g.apply(Embark("DNA 1", "GM 1"))
    g.apply(Move("DNA 1", ("1111", "1112", "1113")))
    assert g.prompt.kind == "ambush" and at(g, "GM 1") == "1111"          # stopped in mid-path, passenger too
    g.apply(DeclareAmbush("Communist", "1010"))
    assert g.combat["attackers"] == ["DNA 1"] and g.combat["combat"].attack == (3,)   # GM 1's 9 does not count
    res = g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([roll]))
    return g, res


@pytest.mark.rule("IC 18.43", "IC 28.1", "IC 28.52")
def test_an_ambushed_dna_that_goes_on_carries_its_passenger_on(water_map):
    g = river_game(water_map, (dna(s=3), "1110"), (unit("GM 1", s=9), "1110"), (unit("GM 2"), "1110"),
                   (unit("VM", COM, s=2), "1010"))
    g.apply(Embark("DNA 1", "GM 1"))
    g.apply(Move("DNA 1", ("1111", "1112", "1113")))
    refused(g, Embark("DNA 1", "GM 2"), "IC 28.1")                 # the ambush question comes first
    g, res = ambushed(water_map, 6)
    assert res.result["result"] == "SK" and g.prompt.kind == "play"
    assert at(g, "DNA 1") == at(g, "GM 1") == "1113" and not g.state.unit("GM 1").disrupted


@pytest.mark.rule("IC 18.43", "IC 28.1")
def test_an_ambushed_dna_retreats_and_is_disrupted_with_its_passenger(water_map):
    g, res = ambushed(water_map, 2)
    assert res.result["result"] == "AR" and g.prompt.kind == "retreat"
    options = [a for a in g.legal_actions if isinstance(a, Retreat)]
    assert options and all(a.hex in ("1110", "1112") for a in options)
    g.apply(options[-1])
    assert at(g, "DNA 1") == at(g, "GM 1") == options[-1].hex
    assert g.state.unit("GM 1").disrupted and g.state.unit("DNA 1").disrupted and not g.invariants()


@pytest.mark.rule("IC 18.43", "IC 28.1")
def test_an_ambushed_dna_eliminated_takes_its_passenger_with_it(water_map):
    g, res = ambushed(water_map, 1)
    assert res.result["result"] == "AE"
    assert g.state.unit("DNA 1").eliminated and g.state.unit("GM 1").eliminated and not g.riverine.carried


@pytest.mark.rule("IC 28.0")
def test_with_ambushes_switched_off_the_dna_sails_past(water_map):
    from wargames.indochina import Ruleset
    g = river_game(water_map, (dna(s=3), "1110"), (unit("GM 1", s=9), "1110"), (unit("VM", COM, s=2), "1010"),
                   ruleset=Ruleset.default(ambushes=False))
    g.apply(Embark("DNA 1", "GM 1"))
    g.apply(Move("DNA 1", ("1111", "1112", "1113")))
    assert g.ambush is None and at(g, "GM 1") == "1113"


@pytest.mark.rule("IC 18.42")
def test_a_passenger_on_a_lake_when_the_phase_ends_cannot_land_and_is_lost(water_map):
    g = river_game(water_map, (dna(s=3), "1110"), (unit("GM 1", s=9), "1110"))
    g.apply(Embark("DNA 1", "GM 1"))
    for uid in ("DNA 1", "GM 1"):              # a position set by hand: legal play keeps a carrier off lakes
        g.state.unit(uid).hex = g.state.map.hex("1210")
    res = g.apply(EndPhase())
    assert g.state.unit("GM 1").eliminated and not g.state.unit("DNA 1").eliminated
    assert "IC 18.42" in res.rules() and not g.riverine.carried and not g.invariants()


@pytest.mark.rule("IC 18.45", "IC 15.2", "IC 9.4")
def test_a_carried_base_supplies_from_where_its_dna_takes_it(water_map):
    from wargames.indochina import ForcedMarch
    g = river_game(water_map, (dna(s=3), "1110"), (unit("Base", kind="base", size="battalion", s=1, m=0), "1110"),
                   (unit("GM 5"), "1314"), (unit("GM 6"), "1113"), supply=(5, 0))
    refused(g, ForcedMarch("1314"), "IC 9.4")                          # no base reaches Cam Ranh yet
    g.apply(Embark("DNA 1", "Base"))                                    # a base with no movement of its own
    g.apply(Move("DNA 1", ("1111", "1112", "1113", "1114")))
    assert ForcedMarch("1314") in list(g.legal_actions)                # the base aboard now supplies it


@pytest.mark.rule("IC 18.43", "IC 18.45", "IC 15.6")
def test_a_carried_base_lost_with_its_dna_costs_supply(water_map):
    g = river_game(water_map, (dna(s=3), "1111"), (unit("Base", kind="base", size="battalion", s=1), "1111"),
                   (unit("VM", COM, s=6), "1011"), supply=(5, 0))
    g.apply(Embark("DNA 1", "Base"))
    g.apply(Overrun(("DNA 1",), "1011"))
    assert g.prompt.kind == "table"            # the Communist cannot pay for Defense Enhancement: no prompt
    res = g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([1, 4]))
    assert g.state.unit("DNA 1").eliminated and g.state.unit("Base").eliminated
    assert "IC 15.6" in res.rules() and g.logistics.points[FEF] == 1


@pytest.mark.rule("IC 18.43")
def test_a_dna_disrupted_before_the_fight_and_spared_by_it_leaves_its_passenger_alone(water_map):
    for r in range(1, 7):
        g = river_game(water_map, (dna(s=3), "1111"), (unit("GM 1", s=9), "1111"), (unit("VM", COM, s=1), "1011"))
        g.state.unit("DNA 1").disrupted = True
        g.apply(Embark("DNA 1", "GM 1"))
        g.apply(Overrun(("DNA 1",), "1011"))
        res = g.apply(ChooseTable(g.prompt.side, "Mobile"), ScriptedDice([r]))
        if res.result["result"] in ("DD", "SK", "NE", "DE", "DR"):
            assert not g.state.unit("GM 1").disrupted and at(g, "GM 1") == "1111"
            return
    pytest.fail("no roll spares the DNA")


def test_the_invariants_notice_a_passenger_out_of_its_dna_hex(water_map):
    g = river_game(water_map, (dna(), "1111"), (unit("GM 1"), "1111"))
    g.apply(Embark("DNA 1", "GM 1"))
    assert not g.invariants()
    g.state.unit("GM 1").hex = g.state.map.hex("1211")
    assert any("IC 18.41" in x for x in g.invariants())


# ------------------------------------------------------------------ from the Scenario 1 set-up, saved and replayed
def scenario_at_fef_movement(seed=1):
    """Scenario 1 set up with the FEF's other units in a DNA's hex where the set-up allows, then to the FEF
    Movement Phase."""
    g = Game.new("scenario1", seed=seed)
    while g.deploy is not None or g.arrivals:
        st = g.state
        dna_hexes = {st.label(u.hex) for u in st.on_map() if is_dna(u)}
        legal = list(g.legal_actions)
        g.apply(next((a for a in legal if isinstance(a, Deploy) and a.hex in dna_hexes), legal[0]))
    while g.phase.id != "FEF Movement":
        pass_phase(g)
    return g


@pytest.mark.rule("IC 18.41", "IC 18.42", "IC 18.45")
def test_a_passenger_aboard_is_in_the_position_and_survives_save_and_replay():
    g = scenario_at_fef_movement()
    embarks = [a for a in g.legal_actions if isinstance(a, Embark)]
    assert embarks, "Scenario 1 offers no DNA a passenger"
    g.apply(embarks[0])
    d = embarks[0].dna
    pos = g.position()["riverine"]
    assert pos["carried"] == {d: embarks[0].unit} and embarks[0].unit in pos["carried_this_turn"]
    moves = [a for a in g.legal_actions if isinstance(a, Move) and a.unit == d]
    g.apply(moves[0])
    back = IndochinaGame.load(g.save())
    assert back.state_dict() == g.state_dict() and back.riverine.passenger(d) == embarks[0].unit
    assert at(back, embarks[0].unit) == moves[0].path[-1]
    g.undo(1)
    assert at(g, embarks[0].unit) == at(g, d) and g.riverine.passenger(d) == embarks[0].unit


def test_random_play_of_scenario_1_reaches_embark_and_disembark():
    g, rng = scenario_at_fef_movement(seed=2), random.Random(2)
    seen = set()
    for _ in range(400):
        legal = list(g.legal_actions)
        if g.phase.id != "FEF Movement" or not legal:
            break
        mine = [a for a in legal if isinstance(a, (Embark, Disembark))]
        a = rng.choice(mine) if mine and rng.random() < 0.5 else rng.choice(
            [x for x in legal if not isinstance(x, EndPhase)] or legal)
        g.apply(a)
        seen.add(type(a).__name__)
        assert not g.invariants(), g.invariants()
    assert {"Embark", "Disembark"} <= seen
