"""The scenario chapters' tools (widgets.citadel_scenario): the set-up policy plays through Game.apply, and the
map, its words and the calendar say what the game state says."""
import pytest

from wargames.citadel import Game, Side
from wargames.citadel.scenarios import Placement, load_scenario_outline
from wargames.viz.hexmap import center
from widgets.citadel_scenario import (chart, dated_rules, forces, notation, play_setup, provenance_counts, setup_map,
                                      setup_words)


@pytest.fixture(scope="module")
def flak_raid():
    g = Game.new("scenario2", seed=2)
    return g, play_setup(g)


@pytest.mark.rule("C SR 2", "C Sc 2")
def test_the_policy_answers_every_set_up_prompt_through_apply(flak_raid):
    g, run = flak_raid
    st = g.state
    assert [s.stage for s in run.stages] == ["French", "works", "Vietminh", "headquarters", "aircraft"]
    assert run.stages[0].prompt.startswith("French: set up the French units (22 left")
    assert run.stages[1].actions == 1                       # the works stage: ended at once, nothing dug
    assert sum(s.actions for s in run.stages) == len(g.history) and not st.works
    assert g.phase.id != "set-up" and not st.setup.french and not st.setup.vietminh and g.invariants() == []
    assert run.opening and all(rule != "C SR 2" for rule, _ in run.opening)
    first = Game.new("scenario2", seed=2)
    assert g.history[0].action == next(iter(first.legal_actions))     # the French take the first hex offered


@pytest.mark.rule("C SR 2")
def test_the_map_holds_every_counter_and_the_words_name_them(flak_raid):
    g, _ = flak_raid
    st = g.state
    fig, summary = setup_map(st, "Scenario 2: the set-up", "scenario2-setup")
    assert fig.name == "scenario2-setup" and summary.startswith("Scenario 2: the set-up: 22 French and 19 Vietminh")
    shown = {center(h) for h in st.map.hexes}
    assert all(center(u.hex) in shown for u in st.units.values() if u.on_board)
    words = setup_words(st)
    assert all(uid in words for uid, u in st.units.items() if u.on_board and u.side is Side.FRENCH)
    assert "Vietminh: 19 counters" in words and "AM-2" in words
    assert sum(provenance_counts(st).values()) == len(st.units)


@pytest.mark.rule("C SR 1")
def test_notation_forces_and_chart_follow_the_outline():
    assert notation(Placement("1/8BPC", True, 1)) == "1/8BPC(R1)"
    assert notation(Placement("9/3BT", True, 0)) == "9/3BT(R)" and notation(Placement("4/II-10RAC")) == "4/II-10RAC"
    sc = load_scenario_outline(3)
    lines = forces(sc)
    assert "9/III-13DBLE(R1)" in lines[0] and lines[-1].startswith("Vietminh battalions by regiment: 36 1 NL 1 R7;")
    assert "provenance of vm_regiments.36: text: SR 1.B.4" in chart(sc)


@pytest.mark.rule("C 13", "C 15", "C 18", "C 32", "C 33", "C 35")
def test_dated_rules_in_force_or_starting_within_a_scenario():
    assert [(s, r) for s, _, r, _ in dated_rules(load_scenario_outline(1))] == [("starts", "C 18")]
    assert [(s, r) for s, _, r, _ in dated_rules(load_scenario_outline(6))] == \
        [("in force", "C 18"), ("in force", "C 15.A"), ("in force", "C 13"), ("starts", "C 32")]
    assert [s for s, *_ in dated_rules(load_scenario_outline(8))] == ["starts"] * 6
