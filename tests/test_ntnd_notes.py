"""No Trumpets No Drums: the unnumbered notes and headings (NT 2.2 Note, 10.2 Note, 11.1.4 Note, 14 Preamble,
22.4 Note, 28 Preamble) and the rules that only say what a special unit is (NT 2.2, 8.10.1.1, 28.1, 28.2, 28.6,
28.11), each played through the game where it matters."""
import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.ntnd import neutrality as nt10
from wargames.ntnd.air_play import FlyMissions
from wargames.ntnd.charts import NtndCharts
from wargames.ntnd.combat_play import Attack, EliminateOverstack
from wargames.ntnd.game import EndPhase, Game, Interdict, Step, TallyPoints
from wargames.ntnd.state import NtndState
from wargames.ntnd.units import (AIR, GROUND_COMBAT, SUPPORT, airmobile_symbol, artillery_dot, counter_mix,
                                 piece_kind)
from wargames.ntnd.zones import zoc_hexes

from .test_ntnd_game import to_phase


def position(name: str, phase: str, pieces, standing=None, ruleset=None) -> Game:
    """A game of ``name`` at the start of ``phase`` whose map holds only ``pieces`` ((unit, location) pairs)."""
    g = Game.new(name, seed=1, ruleset=ruleset)
    to_phase(g, phase)
    s = NtndState(turn=g.state.turn, phase=phase, track=g.state.track, policy=g.state.policy,
                  hearts_minds=dict(g.state.hearts_minds), standing=dict(standing or g.state.standing))
    for u, at in pieces:
        s.place(u, at)
    g.state = s
    return g


def labels(g: Game, hexes) -> set[str]:
    return {g.state.geography.label(h) for h in hexes}


# ------------------------------------------------------------------------------------------------ NT 2.2

@pytest.mark.rule("NT 2.2")
def test_each_counter_is_one_of_the_three_kinds_and_stacking_counts_the_ground_combat_kind():
    mix = counter_mix()
    kinds = {c.id: piece_kind(c) for c in mix}
    assert set(kinds.values()) == {"ground combat", "support", "air"}
    assert all((kinds[c.id] == "ground combat") == (c.type in GROUND_COMBAT[c.side]) for c in mix)
    assert kinds["NVA 304"] == kinds["US 1/1 Cav"] == kinds["Thai 333"] == "ground combat"
    assert kinds["NVA art 45"] == kinds["US PB TF116"] == kinds["US Fleet"] == "support"
    assert kinds["US heli 1"] == kinds["US SOA"] == "air"
    assert {c.type for c in mix if kinds[c.id] == "support"} <= set(SUPPORT["communist"] + SUPPORT["allied"])
    assert {c.type for c in mix if kinds[c.id] == "air"} <= set(AIR["communist"] + AIR["allied"])
    # in play: a third ground combat unit overstacks a hex at the combat phase; support units have their own slots
    g = position("tet", "air_operations", [("US 1/1", "1916"), ("US 2/1", "1916"), ("US FB 1", "1916"),
                                           ("US PB TF116", "1028")])
    g.apply(EndPhase())
    assert g.phase.id == "allied_combat" and g.prompt.kind == "play"          # two plus a firebase: legal
    g = position("tet", "air_operations", [("US 1/1", "1916"), ("US 2/1", "1916"), ("US 3/1", "1916")])
    g.apply(EndPhase())
    assert g.prompt.rule == "NT 8.10.2"


@pytest.mark.rule("NT 2.2 Note")
def test_the_artillery_dot_gives_fire_support_and_the_airmobile_symbol_flies():
    mix = counter_mix()
    dotted = {c.type for c in mix if artillery_dot(c)}
    assert dotted == {"artillery", "firebase", "patrol_boat", "fleet"}
    assert not any(artillery_dot(c) and c.ground_combat for c in mix)
    flying = {c.id for c in mix if airmobile_symbol(c)}
    assert flying == {"US 1/1 Cav", "US 2/1 Cav", "US 3/1 Cav", "US 5SFM", "Lao ParaCdo"}
    # in play: the firebase's dot adds to the Allied total of an attack within two hexes
    totals = {}
    for extra in ((), (("US FB 1", "2019"),)):
        g = position("campaign", "allied_combat", (("USMC 1", "2018"), ("NVA 304", "2118")) + extra)
        res = g.apply(Attack(("USMC 1",), "2118"), ScriptedDice([3, 3]))
        totals[extra] = [s.result for s in res.steps if s.rule == "NT 19.2" and s.text.startswith("Totals")][-1]
        assert bool(extra) == any(s.rule == "NT 19.2.2" for s in res.steps)
    assert totals[(("US FB 1", "2019"),)]["allied"] > totals[()]["allied"]


# ------------------------------------------------------------------------------------------------ NT 8.10.1.1

@pytest.mark.rule("NT 8.10.1.1")
def test_a_unit_and_the_helicopter_it_carries_count_and_die_as_one():
    g = Game.new("tet", seed=1)
    to_phase(g, "air_operations")
    g.apply(FlyMissions((("transport", "US 3/101", ("US heli 1",)),)))
    st = g.state
    at = st.piece("US 3/101").location
    st.update("US 2/101", location=at)                 # two ground units and a helicopter: within the limit
    from wargames.ntnd.engagement import overstack_choices
    assert sorted(st.at(at)) == ["US 2/101", "US 3/101", "US heli 1"] and overstack_choices(st, at, "allied") == [()]
    st.update("US 196/23", location=at)                # a third ground unit: one must go, never the helicopter
    assert sorted(overstack_choices(st, at, "allied")) == [("US 196/23",), ("US 2/101",), ("US 3/101",)]
    points = st.track.points
    g.apply(EndPhase())
    assert g.phase.id == "allied_combat" and g.prompt.rule == "NT 8.10.2"
    with pytest.raises(RuleViolation, match="NT 19.3.2"):
        g.apply(EliminateOverstack(("US heli 1",)))
    res = g.apply(EliminateOverstack(("US 3/101",)))
    assert "US 3/101" not in g.state.pieces and "US heli 1" not in g.state.pieces   # the pair goes together
    assert res.find("NT 8.10.1.1") and {"US 3/101", "US heli 1"} <= g.state.dead
    assert g.state.track.points == points - 2          # and both count for the points (11.1.4)
    assert not g.invariants()


# ------------------------------------------------------------------------------------------------ NT 10.2 Note

@pytest.mark.rule("NT 10.2 Note")
def test_a_zone_of_control_stops_at_a_neutral_border_unless_announced():
    g = position("campaign", "communist_movement", [("USMC 1", "1411"), ("NVA 304", "1211")])
    st = g.state
    assert st.standing["Laos"] == "neutral"
    assert labels(g, zoc_hexes(st, "USMC 1")) == {"1410", "1411", "1511", "1512"}
    assert {"1311", "1312"} <= labels(g, zoc_hexes(st, "USMC 1", declared=("Laos",)))
    # in play: the NVA division walks along the border next to the marines, in Laos, and is not stopped
    first = g.apply(Step("NVA 304", "1311"))
    assert not first.find("NT 8.5.2")
    g.apply(Step("NVA 304", "1312"))
    assert g.state.piece("NVA 304").location == "1312"
    # the announcement: a violation of Laos, which stays neutral until 10.5
    record = nt10.declare_zoc(st, nt10.Violations(st.turn), "allied", "Laos")
    assert record.declared_by("allied") == ("Laos",) and record.countries("allied") == ("Laos",)
    assert st.standing["Laos"] == "neutral"
    with pytest.raises(RuleViolation, match="NT 10.2"):
        nt10.declare_zoc(st, record, "allied", "Laos")


# ------------------------------------------------------------------------------------------------ NT 11.1.4 Note

@pytest.mark.rule("NT 11.1.4 Note")
def test_airmobile_units_fly_on_their_own_helicopters_which_do_nothing_else():
    g = Game.new("tet", seed=1)
    to_phase(g, "allied_movement")
    res = g.apply(Step("US 1/1 Cav", "1511"))          # a mountain hex without a road, no helicopter attached
    assert g.state.helicopter_of("US 1/1 Cav") is None
    assert "airmobile allowance unlimited" in res.text() and res.find("NT 8.2.2")[0].result == 1
    to_phase(g, "air_operations")
    with pytest.raises(RuleViolation, match="NT 11.1.4 Note"):
        g.apply(FlyMissions((("transport", "US 2/1 Cav", ("US heli 1",)),)))   # our reading: refused
    for mission in (("transport", "US 2/101", ("US 1/1 Cav",)), ("supply", "1915", ("US 1/1 Cav",))):
        with pytest.raises(RuleViolation, match="NT 11.1.4 Note"):
            g.apply(FlyMissions((mission,)))
    g.apply(FlyMissions((("transport", "US 2/101", ("US heli 1",)),)))        # a plain infantry brigade takes one
    assert g.state.helicopter_of("US 2/101") == "US heli 1"


# ------------------------------------------------------------------------------------------------ NT 14 Preamble

@pytest.mark.rule("NT 14 Preamble")
def test_patrol_boats_and_the_fleet_are_the_allied_naval_units():
    from wargames.ntnd.naval import NAVAL_TYPES, is_naval
    assert NAVAL_TYPES == ("patrol_boat", "fleet")
    assert {c.type for c in counter_mix() if c.side == "allied" and c.type in NAVAL_TYPES} == {"patrol_boat",
                                                                                              "fleet"}
    g = Game.new("tet", seed=1)
    to_phase(g, "allied_movement")
    st = g.state
    for u in list(st.at("1328")):
        st.remove(u, eliminated=False)
    st.place("supply 9", "1328")
    st.update("US Fleet", location="1227")
    st.update("USMC 1", location="1227")
    assert is_naval(st, "US Fleet") and is_naval(st, "US PB TF117") and not is_naval(st, "USMC 1")
    with pytest.raises(RuleViolation, match="naval"):
        g.apply(Interdict("USMC 1", "supply 9"))
    g.apply(Interdict("US PB TF117", "supply 9"), ScriptedDice([3]))            # a boat hunts (and misses)
    res = g.apply(Interdict("US Fleet", "supply 9"), ScriptedDice([5]))         # so does the fleet
    assert "supply 9" not in g.state.pieces and res.find("NT 8.6.3")[0].result is True


# ------------------------------------------------------------------------------------------------ NT 22.4 Note

def _awards(standing, pieces):
    g = position("tet", "allied_politics", pieces, standing=standing)
    res = g.apply(TallyPoints())
    return {(s.inputs["item"], s.inputs["area"]): s.result for s in res.find("NT 22.4") if s.inputs.get("item")}


@pytest.mark.rule("NT 22.4 Note")
def test_the_marked_awards_skip_a_neutral_state_and_saigon_replaces_its_city_penalty():
    saigon = "1327"
    neutral = _awards({"Laos": "neutral", "Cambodia": "neutral"}, [("NVA 304", saigon), ("NVA 320", "1210")])
    allied = _awards({"Laos": "allied", "Cambodia": "neutral"}, [("NVA 304", saigon), ("NVA 320", "1210")])
    assert ("town_held_by_communists", "Laos") not in neutral and allied[("town_held_by_communists", "Laos")] == -1
    empty = _awards({"Laos": "neutral", "Cambodia": "neutral"}, [("NVA 304", saigon)])
    assert ("no_communist_units", "Laos") not in empty and ("no_communist_units", "Cambodia") not in empty
    assert empty[("no_communist_units", "I")] == 3                             # a corps always counts
    assert _awards({"Laos": "allied", "Cambodia": "neutral"}, [("NVA 304", saigon)])[("no_communist_units",
                                                                                       "Laos")] == 3
    assert neutral[("saigon_held_by_communists", "III")] == -25
    assert ("city_held_by_communists", "III") not in neutral                  # -25 instead of -2, not both


# ------------------------------------------------------------------------------------------------ NT 28

def _tank_total(name, ruleset=None):
    g = position(name, "communist_combat", (("USMC 1", "2018"), ("NVA 304", "2118"), ("NVA tank 202", "2118")),
                 ruleset=ruleset)
    attackers = ("NVA 304", "NVA tank 202")
    g.book.announced = ((attackers, "2018"),)
    res = g.apply(Attack(attackers, "2018"), ScriptedDice([3, 3]))
    return [s.result for s in res.steps if s.rule == "NT 19.2" and s.text.startswith("Totals")][-1]["communist"]


@pytest.mark.rule("NT 28 Preamble")
def test_two_of_the_optional_rules_are_switches_and_the_special_units_always_play():
    assert {k: r.default for k, r in NtndCharts.READINGS.items()} == {"armour_shock": True,
                                                                      "bought_brigades": False}
    switched = NtndCharts.default(**Game.VARIANTS["the optional rules of 28 switched"])
    assert _tank_total("tet") == _tank_total("tet", switched) + 1           # 28.8 on by default, off when switched
    g = Game.new("tet", seed=1, ruleset=switched)
    to_phase(g, "allied_movement")
    assert "airmobile allowance unlimited" in g.apply(Step("US 5SFM", "2122")).text()     # 28.2 still in force
    to_phase(g, "air_operations")
    g.apply(FlyMissions((("transport", "ARVN ranger 3", ("US SOA",)),)))                  # 28.1 still in force
    assert g.state.helicopter_of("ARVN ranger 3") == "US SOA"


@pytest.mark.rule("NT 28.1")
def test_the_soa_flies_the_helicopter_missions():
    g = Game.new("tet", seed=1)
    to_phase(g, "air_operations")
    with pytest.raises(RuleViolation, match="NT 11.1.4"):
        g.apply(FlyMissions((("transport", "ARVN ranger 3", ("US F 2AD",)),)))  # a fighter carries nobody
    g.apply(FlyMissions((("transport", "ARVN ranger 3", ("US SOA",)),)))
    assert g.state.helicopter_of("ARVN ranger 3") == "US SOA"


@pytest.mark.rule("NT 28.2")
def test_the_5sfm_moves_as_an_airmobile_unit():
    g = Game.new("tet", seed=1)
    to_phase(g, "allied_movement")
    assert g.state.counter("US 5SFM").type == "airmobile" and g.state.helicopter_of("US 5SFM") is None
    g.state.update("US 5SFM", location="1510")
    res = g.apply(Step("US 5SFM", "1511"))              # a mountain hex without a road: it flies in for 1
    assert "airmobile allowance unlimited" in res.text() and res.find("NT 8.2.2")[0].result == 1
    from wargames.ntnd.reaction import is_airmobile
    assert is_airmobile(g.state, "US 5SFM")


@pytest.mark.rule("NT 28.6")
def test_the_thai_333_is_a_ranger_regiment_and_moves_like_one():
    c = counter_mix().get("Thai 333")
    assert (c.side, c.nationality, c.type, c.size) == ("allied", "Thai", "ranger", "regiment")
    g = position("year_of_the_rat", "allied_movement", [("Thai 333", "1211"), ("Lao inf 1", "1110")])
    ranger = g.apply(Step("Thai 333", "1312"))          # mountain, no road: a ranger pays 1
    infantry = g.apply(Step("Lao inf 1", "1209"))       # mountain, no road: infantry pays the terrain
    assert ranger.find("NT 8.2.2")[0].result == 1 and not ranger.find("NT 8.2.6")
    assert infantry.find("NT 8.2.6")[0].result > 1


@pytest.mark.rule("NT 28.11")
def test_the_secret_war_units_may_be_in_neutral_laos_and_laotian_rangers_strike_hidden_units():
    for unit, broken in (("Thai 333", ()), ("Thai QC", ("Laos",))):
        g = position("year_of_the_rat", "allied_movement", [(unit, "1211")])
        assert g.state.standing["Laos"] == "neutral"
        g.apply(EndPhase(), ScriptedDice([2] if broken else []))
        assert g.violations.countries("allied") == broken
    st = position("year_of_the_rat", "allied_combat", [("Lao ranger 1", "1211"), ("Lao inf 1", "1110"),
                                                       ("NVA 304", "1111")]).state
    st.update("NVA 304", face_up=False)
    assert nt10.may_move_or_attack(st, "Lao ranger 1", "attack", to_location="1111", defenders=["NVA 304"])
    with pytest.raises(RuleViolation, match="NT 10.3.2"):
        nt10.check_move_or_attack(st, "Lao inf 1", "attack", to_location="1111", defenders=["NVA 304"])
