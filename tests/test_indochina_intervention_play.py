"""Intervention (29) and atomic bombs (30) played through Game.apply: declarations, the players' choices of what
arrives, the US port, the Chinese air force, bombs and fallout, and World War Three."""
import pytest

from .test_indochina_defects import close_phase, game_at, gm, vm
from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.indochina import (Attack, AtomicAttack, CommitStrike, DeclareIntervention, EndPhase, EndTurn, Game,
                                Mobilize, PlaceUSPort, ReceiveIntervention, ResolveStrike, RollAssistance,
                                RollChineseAirForce, RollEvent, Ruleset, Side, WithholdAirUnits)

FEF, COM = Side.FEF, Side.COMMUNIST
FESA, AIR = "Far Eastern Staging Area", "Air Available"
QUIET = [3, 5]                          # event 35, a quiet month


def advance_to(g, phase_id):
    """Close phases (a quiet event each turn; the Chinese air force roll a 1, its group kept back chosen
    first) until ``phase_id``."""
    while g.phase.id != phase_id:
        if g.phase.kind == "events" and not g.event_rolled:
            if g.intervention.chinese and g.intervening["air_roll"] != g.turn:
                g.apply(RollChineseAirForce(), ScriptedDice([1]))
                if g.intervening["withhold"]:
                    g.apply(next(a for a in g.legal_actions if isinstance(a, WithholdAirUnits)))
            g.apply(RollEvent(), ScriptedDice(QUIET))
        g.apply(close_phase(g))
    return g


def scenario2(phase_id="Communist Mobilization", ruleset=None):
    """Scenario 2 (it starts in 1953, so every increment is open) set up with the first legal placements."""
    g = Game.new("scenario2", ruleset=ruleset, seed=1)
    while g.deploy is not None or g.arrivals:
        g.apply(next(iter(g.legal_actions)))
    return advance_to(g, phase_id)


def intervene(g, increment, dice=None):
    """Declare ``increment`` and answer its choices with the first legal one."""
    g.apply(DeclareIntervention(increment), dice)
    while g.decision() is not None:
        g.apply(next(iter(g.legal_actions)))
    return g


def refused(g, action, rule, dice=None):
    before = g.position()
    with pytest.raises(RuleViolation) as e:
        g.apply(action, dice)
    assert e.value.rule == rule, e.value
    assert g.position() == before
    return e.value


# ---------------------------------------------------------------------------- 29.1: French emergency

@pytest.mark.rule("IC 29.1", "IC 29.3", "IC 29.0")
def test_french_emergency_reinforcements_cost_ten_points_and_the_fef_chooses_what_arrives():
    g = advance_to(Game.new(seed=1), "FEF Mobilization")
    fef = g.points.fef
    assert DeclareIntervention("French Emergency Reinforcements") in g.legal_actions
    res = g.apply(DeclareIntervention("French Emergency Reinforcements"), ScriptedDice([3]))
    assert g.points.fef == fef - 10 and "roll 3" in str(res)
    side, rule, _, kind = g.decision()
    assert (side, rule, kind) == ("FEF", "IC 29.1", "intervention")
    refused(g, EndPhase(), "IC 29.1")                           # the choice comes first
    refused(g, ReceiveIntervention("FEF", "US infantry division", FESA), "IC 29.1")
    refused(g, ReceiveIntervention("FEF", "French infantry group", AIR), "IC 29.31")
    refused(g, ReceiveIntervention("FEF", "French infantry group", FESA, 4), "IC 29.1")
    units = set(g.staging.units)
    g.apply(ReceiveIntervention("FEF", "French infantry group", FESA, 2))
    assert len(g.staging.units - units) == 2
    strikes = g.air["available"].get("airstrike", 0)
    g.apply(ReceiveIntervention("FEF", "airstrike", AIR))
    assert g.air["available"]["airstrike"] == strikes + 1 and g.decision() is None
    refused(g, DeclareIntervention("French Emergency Reinforcements"), "IC 29.3")


@pytest.mark.rule("IC 29.1")
def test_french_emergency_is_refused_without_ten_points_after_the_assistance_roll_and_for_the_communist():
    g = advance_to(Game.new(seed=1), "Communist Mobilization")
    refused(g, DeclareIntervention("French Emergency Reinforcements"), "IC 29.1", ScriptedDice([3]))
    g = advance_to(g, "FEF Mobilization")
    g.points.fef = 9
    refused(g, DeclareIntervention("French Emergency Reinforcements"), "IC 29.1", ScriptedDice([3]))
    g.points.fef = 40
    g.apply(RollAssistance(), ScriptedDice([1]))
    refused(g, DeclareIntervention("French Emergency Reinforcements"), "IC 29.1", ScriptedDice([3]))


@pytest.mark.rule("IC 29.0")
def test_intervention_is_an_optional_rule_that_can_be_switched_off():
    g = advance_to(Game.new(ruleset=Ruleset(readings={"intervention": False}), seed=1), "FEF Mobilization")
    assert not [a for a in g.legal_actions if isinstance(a, DeclareIntervention)]
    refused(g, DeclareIntervention("French Emergency Reinforcements"), "IC 29.0", ScriptedDice([3]))


# ---------------------------------------------------------------------------- 29.2: US intervention

@pytest.mark.rule("IC 29.21a")
def test_us_increments_need_a_scenario_starting_in_1953():
    g = advance_to(Game.new(seed=1), "FEF Mobilization")                  # the demonstration starts in 1950
    refused(g, DeclareIntervention("US Air-Naval Support"), "IC 29.21a", ScriptedDice([1, 1, 1, 1]))


@pytest.mark.rule("IC 29.21a", "IC 29.21b")
@pytest.mark.parametrize("overflow,fef_after", [("lose", 60 - 15), ("keep", 60)])
def test_us_air_naval_support_brings_four_dice_of_groups_and_pushes_the_communist_index(overflow, fef_after):
    g = scenario2("FEF Mobilization", Ruleset(readings={"intervention_overflow": overflow}))
    g.points.fef, g.points.communist = 60, 95
    naval, markers = g.air["available"].get("naval strike", 0), g.air["supply_markers"]
    g.apply(DeclareIntervention("US Air-Naval Support"), ScriptedDice([1, 2, 3, 4]))
    assert g.points.communist == 100 and g.points.fef == fef_after           # 95 + 20 = 115: 15 over
    assert g.air["available"]["naval strike"] == naval + 2 and g.air["supply_markers"] == markers + 1
    assert g.intervening["owed"][0]["left"] == 10
    transport = g.air["available"].get("air transport", 0)
    g.apply(ReceiveIntervention("FEF", "air transport", AIR, 10))
    assert g.air["available"]["air transport"] == transport + 10 and g.decision() is None


@pytest.mark.rule("IC 29.21a", "IC 29.31", "IC 29.32", "IC 23.12")
def test_us_ground_intervention_and_the_us_port_four_turns_later():
    g = scenario2("FEF Mobilization")
    declared = g.turn
    g.apply(DeclareIntervention("US Ground Intervention"), ScriptedDice([2]))
    ids = {u for u in g.staging.units if g.state.unit(u).counter.nationality == "US"}
    assert sorted(g.state.unit(u).counter.type for u in ids) == ["base", "cadre"]
    assert g.staging.us_ground
    g.apply(ReceiveIntervention("FEF", "US mechanized division", FESA))
    g.apply(ReceiveIntervention("FEF", "US infantry division", FESA))
    division = next(u for u in g.staging.units if g.state.unit(u).counter.type == "mechanized"
                    and g.state.unit(u).counter.nationality == "US")
    refused(g, PlaceUSPort("Qui Nhon"), "IC 29.32")                        # not before turn + 4
    g.apply(RollAssistance(), ScriptedDice([1]))
    for _ in range(4):
        g.apply(close_phase(g))
        advance_to(g, "FEF Mobilization")
    assert g.turn == declared + 4
    refused(g, PlaceUSPort("Qui Nhon"), "IC 29.32")                        # no US unit there yet
    refused(g, PlaceUSPort("Hanoi"), "IC 29.32")
    st = g.state
    qui_nhon = next(h for h in st.map.hexes if st.map.info(h).attr("name") == "Qui Nhon")
    assert not st.is_port(qui_nhon)
    g.staging.units.discard(division)
    st.unit(division).hex = qui_nhon                                     # landed there (test set-up)
    g.apply(PlaceUSPort("Qui Nhon"))
    assert g.state.is_port(qui_nhon) and g.position()["intervention"]["port"] == "Qui Nhon"
    refused(g, PlaceUSPort("Nha Trang"), "IC 29.32")                       # one marker


# ---------------------------------------------------------------------------- 29.4: Chinese intervention

@pytest.mark.rule("IC 29.41", "IC 29.42", "IC 29.43", "IC 29.411")
def test_chinese_limited_intervention_places_three_divisions_anywhere_in_china():
    g = scenario2()
    fef = g.points.fef
    g.apply(DeclareIntervention("Chinese Limited Intervention"))
    assert g.points.fef == min(fef + 20, 100)
    side, rule, _, _ = g.decision()
    assert (side, rule) == ("Communist", "IC 29.43")
    st = g.state
    china = next(st.label(h) for h in st.map.hexes if st.map.info(h).attr("country") == "China"
                 and st.terrain(h) not in ("all_sea", "all_lake") and not st.units_at(h))
    hanoi = next(st.label(h) for h in st.map.hexes if st.map.info(h).attr("name") == "Hanoi")
    refused(g, ReceiveIntervention("Communist", "Chinese infantry division", hanoi), "IC 29.43")
    refused(g, ReceiveIntervention("FEF", "Chinese infantry division", china), "IC 29.43")
    for _ in range(3):
        g.apply(ReceiveIntervention("Communist", "Chinese infantry division", china))
    assert len([u for u in g.state.units_at(g.state.map.hex(china)) if u.counter.nationality == "Chinese"]) == 3
    assert g.decision() is None
    g.apply(RollAssistance(), ScriptedDice([1]))
    g.apply(EndPhase())
    advance_to(g, "Communist Mobilization")
    refused(g, DeclareIntervention("Chinese Full Intervention"), "IC 29.42")


@pytest.mark.rule("IC 29.44")
def test_the_chinese_air_force_keeps_fef_air_groups_on_the_ground_for_a_turn():
    g = scenario2()
    intervene(g, "Chinese Full Intervention")
    assert sum(1 for u in g.state.units.values() if u.counter.nationality == "Chinese" and u.on_map) == 7
    g.apply(RollAssistance(), ScriptedDice([1]))
    while g.phase.kind != "events":
        g.apply(close_phase(g))
    assert list(g.legal_actions) == [RollChineseAirForce()]
    refused(g, RollEvent(), "IC 29.44", ScriptedDice(QUIET))
    total = sum(g.air["available"].values())
    g.apply(RollChineseAirForce(), ScriptedDice([3]))
    assert g.decision()[:2] == ("FEF", "IC 29.44")
    refused(g, RollEvent(), "IC 29.44", ScriptedDice(QUIET))
    refused(g, WithholdAirUnits("airstrike", 4), "IC 29.44")
    g.apply(WithholdAirUnits("airstrike", 2))
    g.apply(WithholdAirUnits("air transport", 1))
    assert sum(g.air["available"].values()) == total - 3 and g.decision() is None
    g.apply(RollEvent(), ScriptedDice(QUIET))
    advance_to(g, "End of Turn")
    g.apply(EndTurn())
    assert sum(g.air["available"].values()) + sum(g.air["aside"].values()) == total     # back next turn


# ---------------------------------------------------------------------------- 30: atomic bombs

def bombing_game(*placed, bombs=2):
    g = game_at("FEF Offensive Air", *placed)
    g.intervention.bombs = bombs
    return g


@pytest.mark.rule("IC 30.1", "IC 30.3", "IC 30.5", "IC 30.4", "IC Atomic Bomb Table")
def test_an_atomic_bomb_uses_the_table_one_bomb_per_hex_per_turn_and_no_airstrike_there():
    g = bombing_game(vm("VM 1", "1214"), vm("VM 2", "1214"), vm("VM 3", "1313"), gm("GM 1", "1315"))
    assert AtomicAttack("1214") in g.legal_actions and AtomicAttack("1315") not in g.legal_actions
    g.state.unit("VM 2").disrupted = True
    res = g.apply(AtomicAttack("1214"), ScriptedDice([3]))              # 3: disrupt, eliminate the disrupted
    assert "roll 3" in str(res)
    assert g.state.unit("VM 1").disrupted and not g.state.unit("VM 1").eliminated
    assert g.state.unit("VM 2").eliminated
    assert g.intervention.bombs == 1 and "1214" in g.bombs.fallout
    refused(g, AtomicAttack("1214"), "IC 30.3", ScriptedDice([2]))
    refused(g, AtomicAttack("1315"), "IC 30.1", ScriptedDice([2]))        # the FEF's own hex
    refused(g, CommitStrike("1214", airstrike=1), "IC 30.4")
    assert CommitStrike("1214", airstrike=1) not in g.legal_actions
    g.apply(CommitStrike("1313", airstrike=1))
    g.apply(ResolveStrike("1313"))
    while g.decision() is not None:                                  # a loss the Communist player picks
        g.apply(next(iter(g.legal_actions)))
    refused(g, AtomicAttack("1313"), "IC 30.4", ScriptedDice([2]))        # struck from the air this turn


@pytest.mark.rule("IC 30.4")
def test_no_land_attack_into_a_hex_bombed_this_turn():
    g = bombing_game(vm("VM 1", "1214", s=12), gm("GM 1", "1215"))
    g.apply(AtomicAttack("1214"), ScriptedDice([6]))
    g.apply(EndPhase())
    assert g.phase.id == "FEF Combat"
    assert not [a for a in g.legal_actions if isinstance(a, Attack)]
    refused(g, Attack(("GM 1",), "1214"), "IC 30.4")


@pytest.mark.rule("IC 30.5", "IC 30.6")
@pytest.mark.parametrize("roll,disrupted_before,outcome", [(3, False, "disrupted"), (1, True, "eliminated"),
                                                           (4, True, "unharmed")])
def test_fallout_at_the_end_of_the_turn(roll, disrupted_before, outcome):
    g = bombing_game(vm("VM 1", "1214"))
    g.bombs.fallout.add("1214")
    g.state.unit("VM 1").disrupted = disrupted_before
    while g.phase.kind != "end":
        g.apply(close_phase(g))
    g.apply(EndTurn(), ScriptedDice([roll]))
    u = g.state.unit("VM 1")
    assert (u.eliminated, u.disrupted) == {"disrupted": (False, True), "eliminated": (True, True),
                                           "unharmed": (False, True)}[outcome]


@pytest.mark.rule("IC 30.1")
@pytest.mark.parametrize("roll,effect", [(1, "eliminate"), (2, "eliminate"), (5, "disrupt"), (6, "disrupt")])
def test_each_row_of_the_atomic_bomb_table_in_play(roll, effect):
    g = bombing_game(vm("VM 1", "1214"))
    g.apply(AtomicAttack("1214"), ScriptedDice([roll]))
    u = g.state.unit("VM 1")
    assert (u.eliminated, u.disrupted) == {"eliminate": (True, False), "disrupt": (False, True)}[effect]


@pytest.mark.rule("IC 30.0")
def test_no_bombs_no_atomic_attack():
    g = bombing_game(vm("VM 1", "1214"), bombs=0)
    assert not [a for a in g.legal_actions if isinstance(a, AtomicAttack)]
    refused(g, AtomicAttack("1214"), "IC 30.5", ScriptedDice([2]))


# ---------------------------------------------------------------------------- 29.5, 7.72, saves

@pytest.mark.rule("IC 29.5")
@pytest.mark.parametrize("intervened", [True, False])
def test_world_war_three_ends_the_game_only_while_us_or_chinese_intervention_is_in_effect(intervened):
    g = scenario2()
    if intervened:
        intervene(g, "Chinese Limited Intervention")
    g.apply(RollAssistance(), ScriptedDice([1]))
    g.apply(EndPhase())
    while g.phase.kind != "events":
        g.apply(close_phase(g))
    if intervened:
        g.apply(RollChineseAirForce(), ScriptedDice([1]))
        g.apply(next(a for a in g.legal_actions if isinstance(a, WithholdAirUnits)))
    g.apply(RollEvent(), ScriptedDice([6, 5]))
    out = g.outcome()
    if intervened:
        assert out is not None and (out.winner, out.level, out.rule) == (None, "Both lose", "IC 29.5")
    else:
        assert out is None


@pytest.mark.rule("IC 7.72")
def test_a_lost_chinese_division_may_be_replaced_once_by_mobilization():
    g = scenario2()
    intervene(g, "Chinese Limited Intervention")
    g.apply(RollAssistance(), ScriptedDice([1]))
    china = [a for a in g.legal_actions if isinstance(a, Mobilize) and a.unit == "Chinese infantry division"]
    assert not china
    division = next(u for u in g.state.units.values() if u.counter.nationality == "Chinese")
    division.eliminated = True                                         # lost in a battle (test set-up)
    g.scored.add(division.counter.id)                                  # and scored then (5.2(2))
    g.points.communist = 60
    g._legal_cache = None                                              # the position was edited by hand
    offers = [a for a in g.legal_actions if isinstance(a, Mobilize) and a.unit == "Chinese infantry division"]
    g.apply(offers[0])
    assert g.points.communist == 60 - 6 - 1                         # the chart's 6, and 1 for China's mountains (7.71)
    refused(g, offers[1], "IC 7.72")                               # one loss, one replacement


@pytest.mark.rule("IC 29.0")
def test_a_game_saved_while_an_increment_waits_for_its_choices_replays_to_the_same_point(tmp_path):
    g = advance_to(Game.new(seed=1), "FEF Mobilization")
    g.apply(DeclareIntervention("French Emergency Reinforcements"), ScriptedDice([4]))
    g.apply(ReceiveIntervention("FEF", "French base", FESA))
    path = tmp_path / "save.json"
    g.write(path)
    again = Game.read(path)
    assert again.position() == g.position() and again.decision() == g.decision()
    assert again.position()["intervention"]["owed"][0]["left"] == 3


def test_random_play_with_intervention_breaks_nothing():
    from wargames.core.fuzz import fuzz
    report = fuzz(Game, actions=250, seed=7, illegal_rate=0.1, round_trip_rate=0.05)
    assert not report.failures, report.failures[0].detail[-1500:]
