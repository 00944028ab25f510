"""Citadel Scenario Rules 2 and 3 through the game: every scenario set up on the valley by placement prompts,
the set-up's limits, and the victory at the end."""
import random

import pytest

from wargames.citadel import Game, Side
from wargames.citadel.game import EndPhase
from wargames.citadel.setup import (BaseAircraft, Place, PlaceHeadquarters, PlaceWorks, crowded_dispositions,
                                    scenario_state)
from wargames.core.errors import RuleViolation


@pytest.mark.rule("C SR 2", "C 6")
@pytest.mark.parametrize("n", range(1, 9))
def test_every_french_disposition_fits_its_strongpoints(n):
    st, _ = scenario_state(n)
    assert crowded_dispositions(st, st.setup) == []


@pytest.mark.rule("C SR 2", "C 6")
def test_a_disposition_too_big_for_its_strongpoints_is_refused_at_set_up(monkeypatch):
    """SR 2.1: units may not set up in violation of stacking, so a scenario listing more than a complex holds
    could never finish its set-up: scenario_state refuses it, naming the place. Huguette's units (a battalion,
    three independent T'ai companies, two more companies of 3 T'ai) cannot join the T'ai in Anne-Marie's three
    hexes."""
    import copy
    from wargames.citadel import scenarios

    st, _ = scenario_state(1)
    for uid, where in st.setup.places.items():
        if where == "Huguette":
            st.setup.places[uid] = "Anne-Marie"
    assert crowded_dispositions(st, st.setup) == ["Anne-Marie"]

    shipped = scenarios.load_scenario_outline

    def moved(number, oob=None):
        outline = copy.deepcopy(shipped(number, oob))
        for group in outline.french:
            if group.at == "Huguette":
                group.at = "Anne-Marie"
        return outline
    monkeypatch.setattr(scenarios, "load_scenario_outline", moved)
    with pytest.raises(RuleViolation, match="Anne-Marie cannot all set up there") as e:
        scenario_state(1)
    assert e.value.rule == "C SR 2"


@pytest.mark.rule("C SR 2")
@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_random_set_ups_always_finish(n):
    """Placements chosen at random never leave a unit without a legal hex (the room check of C 6)."""
    rng = random.Random(n)
    g = Game.new(f"scenario{n}", seed=n)
    while g.phase.id == "set-up":
        acts = list(g.legal_actions)
        assert acts, g.prompt
        g.apply(rng.choice(acts))
    st = g.state
    assert not st.setup.french and not st.setup.vietminh and g.invariants() == []
    assert g.state.phase == ("French movement" if n == 2 else "weather") or g.phase.id != "set-up"


@pytest.mark.rule("C SR 2")
def test_french_units_set_up_only_in_their_complex_and_within_stacking():
    g = Game.new("scenario1")
    uid = g.state.setup.french[0]
    assert g.state.setup.places[uid] == "Beatrice"
    with pytest.raises(RuleViolation, match="not one of its hexes"):
        g.apply(Place(uid, "N1316"))
    first = next(iter(g.legal_actions))
    g.apply(first)
    assert g.state.unit(uid).hex == g.state.map.hex(first.hex)


@pytest.mark.rule("C SR 2", "C 18")
def test_works_need_a_root_in_partial_jungle_and_stay_within_the_allowance():
    g = Game.new("scenario3", seed=1)
    while g.state.setup_stage == "French":
        g.apply(next(iter(g.legal_actions)))
    assert "place trenches" in str(g.prompt)
    st = g.state
    clear = next(h for h in sorted(st.map.hexes) if st.map.terrain(h) == "clear" and not st.units_at(h))
    with pytest.raises(RuleViolation, match="leading back to partial jungle"):
        g.apply(PlaceWorks("trench", (st.label(clear),)))
    with pytest.raises(RuleViolation, match="only on a hill"):
        g.apply(PlaceWorks("tunnel", (st.label(clear),)))
    root = next(a for a in g.legal_actions if isinstance(a, PlaceWorks))
    g.apply(root)
    assert g.state.works
    g.apply(EndPhase())
    assert "Vietminh units" in str(g.prompt)


def _to_stage(g: Game, stage: str) -> None:
    """Answer the set-up prompts with the first offered action (no works) until ``stage`` begins."""
    while g.state.setup_stage != stage:
        acts = list(g.legal_actions)
        g.apply(EndPhase() if EndPhase() in acts else acts[0])


@pytest.mark.rule("C SR 2", "C 12")
def test_the_vietminh_player_sets_up_each_regiment_s_headquarters_marker_in_a_zone_he_chooses():
    """C 12.B.3 reads the zone of a regiment's headquarters marker; at set-up the Vietminh player places each
    marker (SR 2.3), one prompt answer per regiment, and the return rule then reads the zone he chose."""
    from wargames.citadel.returnphase import hq_zone
    from wargames.citadel.terrain import jungle_zone

    g = Game.new("scenario1", seed=1)
    with pytest.raises(RuleViolation, match="after the Vietminh units"):
        g.apply(PlaceHeadquarters("36", "Z1"))                    # not in the French stage
    _to_stage(g, "headquarters")
    st = g.state
    assert g.prompt.side == "Vietminh" and "headquarters marker" in g.prompt.question
    assert st.hq_zones == {}
    regiments = sorted({u.counter.regiment for u in st.on_board(Side.VIETMINH) if u.counter.regiment})
    zones = sorted({jungle_zone(st.map, h) for h in st.map.hexes} - {None})
    assert set(g.legal_actions) == {PlaceHeadquarters(r, z) for r in regiments for z in zones}
    before = g.state_dict()
    for bad, words in ((PlaceHeadquarters("36", "Z99"), "not a jungle zone"),
                       (PlaceHeadquarters("9", "Z1"), "no headquarters marker waiting")):
        with pytest.raises(RuleViolation, match=words) as e:
            g.apply(bad)
        assert e.value.rule == "C 12.B.3" and g.state_dict() == before
    with pytest.raises(RuleViolation):
        g.apply(EndPhase())
    # a zone away from where the regiment's units stand: the marker goes where the player says
    home = hq_zone(g.state, "36")
    away = next(z for z in zones if z != home)
    choice = PlaceHeadquarters("36", away)
    assert Game.parse_action(str(choice)) == choice
    g.apply(choice)
    assert g.state.hq_zones == {"36": away} and hq_zone(g.state, "36") == away
    with pytest.raises(RuleViolation, match="no headquarters marker waiting"):
        g.apply(PlaceHeadquarters("36", home))                    # one marker a regiment
    for r in regiments:
        if r != "36":
            g.apply(PlaceHeadquarters(r, zones[0]))
    assert set(g.state.hq_zones) == set(regiments) and g.state.setup_stage == "aircraft"
    again = Game.load(g.save())                                   # the choices are in the history
    assert again.state.hq_zones == g.state.hq_zones


@pytest.mark.rule("C SR 2", "C 31")
def test_the_french_player_chooses_the_aircraft_based_in_the_revetment_at_set_up():
    """SR 2.4: the French put their aircraft on the Air Chart last, basing as many Air Force fighter-bombers
    and spotters in the revetment as they like; in scenario 1 at least two F8F and three Cricket counters."""
    g = Game.new("scenario1", seed=1)
    st = g.state
    assert st.air.in_box("revetment") == [] and len(st.air.in_box("available", "F8F")) == 8
    _to_stage(g, "aircraft")
    assert g.prompt.side == "French" and "revetment" in g.prompt.question
    assert set(g.legal_actions) == {BaseAircraft((("Cricket", 3), ("F8F", n))) for n in range(2, 9)}
    before = g.state_dict()
    for bad, words in ((BaseAircraft((("Cricket", 3), ("F8F", 1))), "at least 2 F8F"),
                       (BaseAircraft((("Cricket", 2), ("F8F", 2))), "at least 3 Cricket"),
                       (BaseAircraft((("Cricket", 3), ("F8F", 9))), "has 8 available"),
                       (BaseAircraft((("Cricket", 3), ("F8F", 2), ("B26", 1))), "may not be based"),
                       (BaseAircraft((("Cricket", 3), ("F8F", 2), ("F8F", 1))), "named twice"),
                       (BaseAircraft((("Cricket", 3), "F8F")), "not a pair")):
        with pytest.raises(RuleViolation, match=words) as e:
            g.apply(bad)
        assert e.value.rule == "C SR 2" and g.state_dict() == before
    choice = BaseAircraft((("F8F", 5), ("Cricket", 3)))          # more than the floor, in any order
    assert Game.parse_action(str(choice)) == choice
    g.apply(choice)
    air = g.state.air
    assert len(air.in_box("revetment", "F8F")) == 5 and len(air.in_box("available", "F8F")) == 3
    assert len(air.in_box("revetment", "Cricket")) == 3 and g.phase.id != "set-up"
    assert Game.load(g.save()).state.air.in_box("revetment") == air.in_box("revetment")


@pytest.mark.rule("C SR 2", "C 31")
def test_outside_scenario_1_the_revetment_may_stay_empty_and_without_air_rules_nothing_is_asked():
    from wargames.citadel import Ruleset
    g = Game.new("scenario2", seed=2)
    _to_stage(g, "aircraft")
    assert set(g.legal_actions) == {BaseAircraft((("F8F", n),) if n else ()) for n in range(0, 6)}
    g.apply(BaseAircraft())
    assert g.state.air.in_box("revetment") == [] and g.phase.id != "set-up"
    g = Game.new("scenario2", ruleset=Ruleset.default(advanced_rules=False), seed=2)
    while g.phase.id == "set-up":
        assert not any(isinstance(a, BaseAircraft) for a in g.legal_actions)
        g.apply(next(iter(g.legal_actions)))
    assert g.state.air is None


@pytest.mark.rule("C SR 3", "C Sc 2")
def test_the_flak_raid_is_one_french_player_turn_scored_on_antiaircraft_batteries():
    rng = random.Random(5)
    g = Game.new("scenario2", seed=5)
    while g.outcome() is None:
        acts = list(g.legal_actions)
        g.apply(EndPhase() if EndPhase() in acts and g.phase.id != "set-up" else rng.choice(acts))
    out = g.outcome()
    assert out.rule == "C SR 3" and out.winner == "Vietminh" and "antiaircraft" in out.reason
    assert g.state.date.isoformat() == "1954-03-28"


@pytest.mark.rule("C SR 3")
def test_an_automatic_loss_stops_play_at_once():
    g = Game.new("scenario7")
    g.state.vm_losses = 101
    assert g.outcome() is None                       # the set-up is not play
    while g.phase.id == "set-up":
        acts = list(g.legal_actions)
        g.apply(EndPhase() if EndPhase() in acts else acts[0])
    out = g.outcome()
    assert out.winner == "French" and "101" in out.reason and out.level == "automatic victory"
