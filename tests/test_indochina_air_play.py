"""The two FEF Air Phases in play (12, 19, 26.3(1)), through Game.apply from the demonstration scenario."""
import json

import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.core.fuzz import fuzz
from wargames.indochina import EndPhase, Game, Move, Side
from wargames.indochina.air_play import (AIR_ACTIONS, AirTransport, ChooseStrikeLoss, CommitStrike, IncreaseSorties,
                                         ResolveStrike)
from wargames.indochina.bombardment import shipped_table
from wargames.indochina.logistics import Logistics
from wargames.indochina.scenarios import demo_air_box
from wargames.indochina.state import IndochinaState, demo_map
from wargames.indochina.units import Counter

FEF, COM = Side.FEF, Side.COMMUNIST


PROCEDURE = ("roll_event", "roll_assistance", "score_cities", "end_turn")     # the steps a phase may require


def to_phase(g, phase_id):
    """Play on until ``phase_id`` with EndPhase, or the step the phase requires first (the event roll, ...)."""
    while g.phase.id != phase_id:
        if g.why_illegal(EndPhase()) is None:
            g.apply(EndPhase())
            continue
        legal = list(g.legal_actions)
        g.apply(next((a for a in legal if str(a).split(" ")[0] in PROCEDURE), legal[0]))
    return g


def demo_at(phase_id):
    return to_phase(Game.new("highlands demo", seed=1), phase_id)


def custom_at(phase_id, *placed):
    """The demonstration game in ``phase_id`` with only these units on the map (its air box unchanged)."""
    g = demo_at(phase_id)
    st = IndochinaState.build(demo_map(), placed)
    st.charts = g.state.charts
    g.state = st
    return g


def vm(uid, hex_, s=4, kind="regular infantry", size="regiment"):
    return Counter(uid, COM, kind, size, s, 6, 2, 4, nationality="Viet Minh"), hex_


def gm(uid, hex_, s=4, kind="regular infantry"):
    return Counter(uid, FEF, kind, "group", s, 6, 2, 3), hex_


def refused(g, action, rule):
    before = g.state_dict()
    with pytest.raises(RuleViolation) as e:
        g.apply(action)
    assert e.value.rule == rule, str(e.value)
    assert g.state_dict() == before
    assert g.why_illegal(action) is not None and g.why_illegal(action).rule == rule


def cell(line, roll):
    t = shipped_table()
    return t.read(next(x for x in t.lines if x.label == line), roll)[1].value.text


# --------------------------------------------------------------------------- the box and the phases

def test_the_demo_and_the_scenarios_have_an_air_box():
    assert demo_air_box() == {"airstrike": 2, "air transport": 1, "naval strike": 1}
    assert demo_air_box("scenario1") == {"airstrike": 6, "air transport": 3, "naval strike": 1}
    assert demo_air_box("scenario2") == {"airstrike": 7, "air transport": 4, "naval strike": 1}
    assert demo_air_box("introductory") == {"airstrike": 1, "air transport": 1, "naval strike": 1}
    g = Game.new()
    assert g.state_dict()["position"]["air"]["available"] == {"airstrike": 2, "air transport": 1, "naval strike": 1}


@pytest.mark.rule("IC 12.0", "IC 12.32")
def test_both_air_phases_offer_strikes_and_transport():
    for phase in ("FEF Defensive Air", "FEF Offensive Air"):
        g = demo_at(phase)
        kinds = {type(a) for a in g.legal_actions}
        assert CommitStrike in kinds and AirTransport in kinds and EndPhase in kinds
        assert g.prompt.side == "FEF"


# --------------------------------------------------------------------------- strikes

@pytest.mark.rule("IC 12.32", "IC 22.3", "IC 12.21", "IC 12.6", "IC 12.33")
def test_strikes_refused_with_their_rule():
    g = demo_at("FEF Defensive Air")
    refused(g, CommitStrike("1214", airstrike=1), "IC 12.32")       # only a cadre there
    refused(g, CommitStrike("1515", airstrike=1), "IC 12.32")       # FEF units there
    refused(g, CommitStrike("1616", airstrike=1), "IC 12.32")       # nobody there
    refused(g, CommitStrike("1415", airstrike=3), "IC 12.21")       # only two groups available
    refused(g, CommitStrike("1415", b29=1), "IC 12.21")             # no B-29 without US intervention
    refused(g, CommitStrike("1415", naval=1), "IC 12.6")            # far from the coast
    refused(g, CommitStrike("1415"), "IC 12.33")
    refused(g, IncreaseSorties("airstrike", 1), "IC 12.22")         # not in the Defensive phase
    g = custom_at("FEF Defensive Air", vm("C1", "1610"), gm("GM", "1515"))
    refused(g, CommitStrike("1610", airstrike=1), "IC 22.3")        # China


@pytest.mark.rule("IC 12.33", "IC 12.34", "IC 12.36", "IC 12.37", "IC Bombardment Table")
def test_a_strike_reads_the_table_and_the_units_go_to_completed():
    g = demo_at("FEF Defensive Air")
    g.apply(CommitStrike("1415", airstrike=1))
    g.apply(CommitStrike("1415", airstrike=1))                      # joins the same attack (12.35)
    air = g.state_dict()["position"]["air"]
    assert air["available"] == {"air transport": 1, "naval strike": 1}
    assert air["phase"]["committed"] == {"1415": {"airstrike": 2}}
    assert (g.prompt.side, g.prompt.rule, g.prompt.kind) == ("FEF", "IC 12.34", "strikes")
    refused(g, EndPhase(), "IC 12.34")                              # the placed strike must be resolved
    refused(g, AirTransport("GM 100", "1515", "1619"), "IC 12.42")  # strikes first (12.11, 12.42)
    assert cell("2", 4) == "B1"
    res = g.apply(ResolveStrike("1415"), ScriptedDice([4]))
    assert res.result["cell"] == "B1" and res.result["line"] == "2"
    assert g.state.unit("803 VM").disrupted
    air = g.state_dict()["position"]["air"]
    assert air["completed"] == {"airstrike": 2} and air["phase"]["committed"] == {}
    assert air["phase"]["bombarded"] == ["1415"]
    refused(g, CommitStrike("1415", airstrike=1), "IC 12.37")
    refused(g, CommitStrike("1313", naval=1), "IC 12.34")          # placing is over once a strike is resolved
    g.apply(EndPhase())
    assert g.state_dict()["position"]["air"]["phase"]["bombarded"] == []


def test_a_strike_on_a_hex_emptied_since_its_placement_is_called_off():
    g = custom_at("FEF Defensive Air", vm("A", "1415"), gm("GM", "1515"))
    g.apply(CommitStrike("1415", airstrike=2))
    g.state.unit("A").eliminated = True                 # as if some other rule had removed it meanwhile
    res = g.apply(ResolveStrike("1415"))
    assert any(s.rule == "IC 12.32" for s in res.steps)
    air = g.state_dict()["position"]["air"]
    assert air["available"]["airstrike"] == 2 and air["phase"]["committed"] == {} and not g.invariants()
    g.apply(EndPhase())


@pytest.mark.rule("IC 12.51", "IC 12.53", "IC 12.54")
def test_flak_shoots_down_a_group_near_artillery():
    g = custom_at("FEF Offensive Air", vm("A", "1415"), vm("ART", "1414", kind="artillery"), gm("GM", "1515"))
    g.apply(CommitStrike("1415", airstrike=1))
    assert cell("1", 0) == "A1"
    res = g.apply(ResolveStrike("1415"), ScriptedDice([1]))         # 1 - 1 (artillery next door) = 0: A1
    assert res.result["cell"] == "A1" and res.result["air_lost"] == 1
    air = g.state_dict()["position"]["air"]
    assert air["eliminated"] == {"airstrike": 1} and air["available"]["airstrike"] == 1
    assert "airstrike" not in air["completed"]
    assert not g.state.unit("A").disrupted


@pytest.mark.rule("IC Bombardment Table", "IC 13.5")
def test_the_owner_chooses_the_unit_a_b1_disrupts_and_a_save_replays_mid_phase(tmp_path):
    g = custom_at("FEF Defensive Air", vm("A", "1415"), vm("B", "1415"), gm("GM", "1515"))
    g.apply(CommitStrike("1415", airstrike=1))
    assert cell("1", 4) == "B1"
    g.apply(ResolveStrike("1415"), ScriptedDice([4]))
    assert (g.prompt.side, g.prompt.rule, g.prompt.kind) == ("Communist", "IC Bombardment Table", "loss")
    assert set(g.legal_actions) == {ChooseStrikeLoss("Communist", "A"), ChooseStrikeLoss("Communist", "B")}
    refused(g, ChooseStrikeLoss("FEF", "A"), "IC Bombardment Table")
    refused(g, ChooseStrikeLoss("Communist", "GM"), "IC Bombardment Table")
    refused(g, EndPhase(), "IC Bombardment Table")
    refused(g, AirTransport("GM", "1515", "1619"), "IC Bombardment Table")
    # a save in the middle of the bombardment (the custom position is not replayable, so save the demo instead)
    d = demo_at("FEF Defensive Air")
    d.apply(CommitStrike("1415", airstrike=2))
    d.write(tmp_path / "mid.json")
    again = Game.read(tmp_path / "mid.json")
    assert again.state_dict() == d.state_dict()
    d.apply(ResolveStrike("1415"), ScriptedDice([6]))
    again.apply(ResolveStrike("1415"), ScriptedDice([6]))
    assert again.state_dict() == d.state_dict()
    g.apply(ChooseStrikeLoss("Communist", "B"))
    assert g.state.unit("B").disrupted and not g.state.unit("A").disrupted
    assert g.prompt.kind == "play"


def two_in_1415():
    """The demonstration in the FEF Defensive Air Phase after 120 VM joined 803 VM in 1415."""
    g = demo_at("Communist Movement")
    g.apply(Move("120 VM", ("1416", "1415")))
    if g.prompt.kind == "ambush":
        g.apply(g.parse_action('decline_ambush side="FEF"'))
    assert g.state.label(g.state.unit("120 VM").hex) == "1415"
    return to_phase(g, "FEF Defensive Air")


@pytest.mark.rule("IC Bombardment Table", "IC 12.34")
def test_a_save_made_while_the_owner_chooses_replays(tmp_path):
    g = two_in_1415()
    g.apply(CommitStrike("1415", airstrike=1))
    g.apply(ResolveStrike("1415"), ScriptedDice([6]))              # line 1, roll 6: B2 on two units, no choice
    assert g.state.unit("803 VM").disrupted and g.state.unit("120 VM").disrupted
    g = two_in_1415()
    g.apply(CommitStrike("1415", airstrike=1))
    g.apply(ResolveStrike("1415"), ScriptedDice([4]))              # line 1, roll 4: B1, the owner picks
    assert g.prompt.kind == "loss"
    g.write(tmp_path / "s.json")
    again = Game.read(tmp_path / "s.json")
    assert again.state_dict() == g.state_dict() and again.prompt == g.prompt
    for x in (g, again):
        x.apply(ChooseStrikeLoss("Communist", "120 VM"))
    assert again.state_dict() == g.state_dict()
    assert g.state.unit("120 VM").disrupted and not g.state.unit("803 VM").disrupted


@pytest.mark.rule("IC Bombardment Table", "IC Errata")
def test_a_b3_eliminates_one_disrupted_unit_and_disrupts_the_rest(tmp_path):
    g = custom_at("FEF Defensive Air", vm("A", "1415"), vm("B", "1415"), vm("C", "1415"), gm("GM", "1515"))
    g.state.unit("A").disrupted = True
    g.state.unit("B").disrupted = True
    g.air["available"]["airstrike"] = g.air["owned"]["airstrike"] = 3      # a bigger box for line 3-4
    g.apply(CommitStrike("1415", airstrike=3))
    assert cell("3-4", 6) == "B3"
    g.apply(ResolveStrike("1415"), ScriptedDice([6]))
    assert g.prompt.kind == "loss" and set(g.prompt.question.split(" in ")[0].split(" of ")[1].split(", ")) == {"A", "B"}
    g.apply(ChooseStrikeLoss("Communist", "A"))
    assert g.state.unit("A").eliminated and not g.state.unit("B").eliminated
    assert g.state.unit("C").disrupted
    assert g.state_dict()["position"]["air"]["completed"] == {"airstrike": 3}


# --------------------------------------------------------------------------- increased sorties, end of turn

@pytest.mark.rule("IC 12.22", "IC 15.33", "IC 12.21", "IC 12.23")
def test_increased_sorties_cost_supply_and_the_turn_end_resets_the_box():
    g = demo_at("FEF Defensive Air")
    g.apply(CommitStrike("1415", airstrike=2))
    g.apply(ResolveStrike("1415"), ScriptedDice([1]))               # NE
    g = to_phase(g, "FEF Offensive Air")
    assert g.state_dict()["position"]["air"]["completed"] == {"airstrike": 2}
    if getattr(g, "logistics", None) is None:
        refused(g, IncreaseSorties("airstrike", 1), "IC 15.33")     # no supply ledger in this position yet
    g.logistics = Logistics({FEF: 1, COM: 0})
    refused(g, IncreaseSorties("airstrike", 2), "IC 15.33")         # two groups cost two points
    refused(g, IncreaseSorties("air transport", 1), "IC 12.22")     # none in the Completed box
    assert IncreaseSorties("airstrike", 1) in g.legal_actions
    g.apply(IncreaseSorties("airstrike", 1))
    assert g.logistics.points[FEF] == 0
    air = g.state_dict()["position"]["air"]
    assert air["available"]["airstrike"] == 1 and air["completed"] == {"airstrike": 1}
    g.apply(CommitStrike("1415", airstrike=1))
    refused(g, IncreaseSorties("airstrike", 1), "IC 12.22")         # only at the start of the phase
    g.apply(ResolveStrike("1415"), ScriptedDice([1]))
    g = to_phase(g, "Events")
    air = g.state_dict()["position"]["air"]
    assert air["completed"] == {} and air["available"] == {"airstrike": 2, "air transport": 1, "naval strike": 1}


@pytest.mark.rule("IC 26.3")
def test_monsoon_keeps_half_the_air_units_aside():
    g = demo_at("FEF Defensive Air")
    g.month = 4                                       # the next turn is May: monsoon (26.1)
    g = to_phase(g, "Events")
    assert g.state.monsoon
    air = g.state_dict()["position"]["air"]
    assert air["available"] == {"airstrike": 1, "air transport": 1, "naval strike": 1}
    assert air["aside"] == {"airstrike": 1}
    assert not g.invariants()


# --------------------------------------------------------------------------- air transport

@pytest.mark.rule("IC 12.41", "IC 12.52", "IC 12.53")
def test_air_transport_next_to_communists_rolls_the_at_line():
    g = demo_at("FEF Offensive Air")                                 # Pleiku (1515) is next to 803 VM (1415)
    assert shipped_table().at_line.cells[1].value == "X"
    res = g.apply(AirTransport("GM 100", "1515", "1619"), ScriptedDice([1]))
    assert res.result["code"] == "X" and g.state.unit("GM 100").hex == g.state.map.hex("1515")
    air = g.state_dict()["position"]["air"]
    assert air["eliminated"] == {"air transport": 1} and "air transport" not in air["available"]
    refused(g, AirTransport("2/1 RTA", "1516", "1619"), "IC 12.41")  # no transport group left
    g = demo_at("FEF Offensive Air")
    res = g.apply(AirTransport("GM 100", "1515", "1619"), ScriptedDice([4]))
    assert res.result["code"] == "OK" and res.result["rolled"]
    assert g.state.label(g.state.unit("GM 100").hex) == "1619"
    assert g.state_dict()["position"]["air"]["completed"] == {"air transport": 1}
    refused(g, CommitStrike("1415", airstrike=1), "IC 12.11")        # strikes come before transports


@pytest.mark.rule("IC 12.41", "IC 12.44", "IC 12.45", "IC 19.1", "IC 12.52")
def test_air_transport_far_from_communists_needs_no_roll_and_its_refusals():
    para = Counter("1 BEP", FEF, "airborne infantry", "group", 4, 6, 2, 3), "1515"
    g = custom_at("FEF Offensive Air", para, gm("GM", "1515"), gm("GQ", "1619"), vm("V", "1813"))
    res = g.apply(AirTransport("GM", "1515", "1619"))                  # no die: neither end is near Communists
    assert res.result["code"] == "OK" and not res.result["rolled"]
    g = custom_at("FEF Offensive Air", para, gm("GM", "1515"), gm("GQ", "1619"), vm("V", "1813"))
    refused(g, AirTransport("GM", "1516", "1619"), "IC 12.41")       # not where the unit is
    refused(g, AirTransport("GM", "1515", "1617"), "IC 12.41")       # not an airfield, and GM is not airborne
    refused(g, AirTransport("1 BEP", "1515", "1813"), "IC 12.45")    # airborne, but Communists are there
    refused(g, AirTransport("1 BEP", "1515", "1711"), "IC 22.3")     # China
    refused(g, AirTransport("1 BEP", "1515", "1912"), "IC 12.44")    # mountain
    g = custom_at("FEF Offensive Air", (Counter("VNA 1", FEF, "airborne infantry", "group", 3, 6, 1, 3,
                                                nationality="VNA"), "1515"), vm("V", "1813"))
    refused(g, AirTransport("VNA 1", "1515", "1610"), "IC 22.1")    # a national army never leaves its country
    g = custom_at("FEF Offensive Air", para, gm("GM", "1515"), gm("GQ", "1619"), vm("V", "1813"))
    res = g.apply(AirTransport("1 BEP", "1515", "1814"), ScriptedDice([5]))   # a drop next to V: AT roll
    assert res.result["landing"] == "parachute" and res.result["rolled"]
    assert g.state.label(g.state.unit("1 BEP").hex) == "1814"


@pytest.mark.rule("IC 15.71", "IC 15.72", "IC 12.46", "IC 12.52", "IC 15.74")
def test_an_airborne_supply_marker_is_dropped_and_expires_after_the_next_player_turn():
    from wargames.core.log import Resolution
    from wargames.indochina.air_play import AirDropSupply
    g = demo_at("FEF Defensive Air")
    refused(g, AirDropSupply("1515"), "IC 15.71")                    # none in the Air Mission box
    g._air_receive_supply_marker(Resolution())
    if getattr(g, "logistics", None) is None:
        refused(g, AirDropSupply("1515"), "IC 15.7")                 # no supply ledger in the position yet
    g.logistics = Logistics({FEF: 0, COM: 0})
    refused(g, AirDropSupply("1617"), "IC 15.75")                    # no FEF unit there
    refused(g, AirDropSupply("1415"), "IC 15.75")                    # Communists there
    assert AirDropSupply("1515") in g.legal_actions
    res = g.apply(AirDropSupply("1515"), ScriptedDice([2]))          # next to 803 VM: AT line, 2 = AB (abort)
    assert res.result["code"] == "AB" and not g.logistics.airborne
    assert g.state_dict()["position"]["air"]["supply_markers"] == 1
    g = demo_at("FEF Defensive Air")
    g._air_receive_supply_marker(Resolution())
    g.logistics = Logistics({FEF: 0, COM: 0})
    res = g.apply(AirDropSupply("1515"), ScriptedDice([6]))
    assert res.result["code"] == "OK" and [m.dropped for m in g.logistics.airborne] == [2]   # Communist turn 1
    assert g.state_dict()["position"]["air"]["supply_markers"] == 0
    g = to_phase(g, "FEF Mobilization")                              # the Communist player turn is over
    assert len(g.logistics.airborne) == 1
    g = to_phase(g, "Political Points")                              # and now the FEF player turn after it
    assert g.logistics.airborne == []


# --------------------------------------------------------------------------- hooks for the events and mobilization code

@pytest.mark.rule("IC Random Events Table", "IC 12.21")
def test_a_grounded_turn_refuses_every_mission_until_the_turn_ends():
    from wargames.core.log import Resolution
    g = demo_at("FEF Defensive Air")
    g._air_ground("Typhoon", Resolution())
    assert [str(a) for a in g.legal_actions] == ["end_phase"]
    refused(g, CommitStrike("1415", airstrike=1), "IC Random Events Table")
    refused(g, AirTransport("GM 100", "1515", "1619"), "IC Random Events Table")
    g = to_phase(g, "Events")
    assert g.state_dict()["position"]["air"]["grounded"] is None


@pytest.mark.rule("IC 7.43")
def test_new_air_units_are_available_at_once():
    from wargames.core.log import Resolution
    g = demo_at("FEF Defensive Air")
    g._air_receive("airstrike", 2, Resolution())
    g._air_receive("naval bombardment", 1, Resolution())           # the Mobilization Chart's name (7.43)
    air = g.state_dict()["position"]["air"]
    assert air["available"] == {"airstrike": 4, "air transport": 1, "naval strike": 2} and not g.invariants()
    g.apply(CommitStrike("1415", airstrike=4))


def test_malformed_air_actions_are_refused_cleanly():
    g = demo_at("FEF Offensive Air")
    for text in ('commit_strike hex="1415" airstrike="2"', 'commit_strike hex=["1415"] airstrike=1',
                 'commit_strike hex="9999" airstrike=1', 'resolve_strike hex=7', 'air_transport unit=["GM 100"] '
                 'origin="1515" destination="1619"', 'air_transport unit="nobody" origin="1515" destination="1619"',
                 'increase_sorties kind=["airstrike"] groups=1', 'increase_sorties kind="airstrike" groups=true',
                 'choose_strike_loss side="Communist" unit="803 VM"', 'choose_strike_loss side="Martians" unit="x"'):
        before = g.state_dict()
        with pytest.raises(RuleViolation):
            g.apply(Game.parse_action(text))
        assert g.state_dict() == before


def test_airborne_units_are_offered_drops_near_the_fighting():
    para = Counter("1 BEP", FEF, "airborne infantry", "group", 4, 6, 2, 3), "1515"
    g = custom_at("FEF Offensive Air", para, vm("V", "1813"))
    drops = {a.destination for a in g.legal_actions if isinstance(a, AirTransport)}
    assert "1814" in drops and "1813" not in drops and "1912" not in drops       # not onto V, not a mountain


# --------------------------------------------------------------------------- random play

def test_random_play_reaches_the_air_actions_without_a_crash():
    report = fuzz(Game, actions=600, seed=11)
    assert report.ok, [f.line() for f in report.failures]
    assert {"IC 12.34", "IC 12.33", "IC 12.41"} <= report.reached


def test_bots_play_several_turns_using_the_air_phases():
    """Random play that flies whatever it can in the air phases and moves briskly through the others."""
    import random
    used = set()
    for seed in range(3):
        g, rng = Game.new(seed=seed), random.Random(seed)
        for _ in range(3000):
            if g.outcome() is not None or g.turn >= 3:
                break
            legal = list(g.legal_actions)
            air = [a for a in legal if isinstance(a, AIR_ACTIONS)]
            ends = [a for a in legal if isinstance(a, EndPhase)]
            a = rng.choice(air) if air else (ends[0] if ends and rng.random() < 0.3 else rng.choice(legal))
            g.apply(a)
            if isinstance(a, AIR_ACTIONS):
                used.add(type(a).__name__)
            assert not g.invariants(), g.invariants()
        assert g.turn >= 3 or g.outcome() is not None
        again = Game.load(json.loads(json.dumps(g.save())))
        assert again.state_dict() == g.state_dict()
    assert {"CommitStrike", "ResolveStrike", "AirTransport"} <= used


@pytest.mark.rule("IC 20.2", "IC 20.0", "IC 12.41")
def test_an_fef_base_makes_its_hex_an_airfield():
    base = Counter("FB", FEF, "base", "battalion", 1, 3, 1, 1), "1617"
    g = custom_at("FEF Offensive Air", gm("GM", "1515"), vm("V", "1813"))
    refused(g, AirTransport("GM", "1515", "1617"), "IC 12.41")       # a clear hex: no airfield
    g = custom_at("FEF Offensive Air", gm("GM", "1515"), base, vm("V", "1813"))
    res = g.apply(AirTransport("GM", "1515", "1617"))                  # the base is the airfield
    assert res.result["code"] == "OK" and g.state.label(g.state.unit("GM").hex) == "1617"
