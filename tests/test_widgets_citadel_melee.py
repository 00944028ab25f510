"""The Anne-Marie melee widget (C 11): the static graph and the live callbacks show the engine's own results."""
import itertools
from fractions import Fraction

import pytest

from wargames.citadel.melee import advance_all, melee_odds, play_melee
from wargames.core import Distribution, Resolution, ScriptedDice
from widgets.common import WALKER_JS, rounded, walk_graph
from widgets.citadel_melee import (ATTACKER_SETS, TARGETS, MeleeLive, alt_parts, alt_text, line_parts, melee_static,
                                   odds, odds_block, set_key, sources, summary_text, play_line, wire_game,
                                   wire_state)
from widgets.layout import summary_html


#: The page is built once (a session fixture) on the one worker that runs these tests (``--dist loadgroup``).
pytestmark = pytest.mark.xdist_group("widgets-citadel-melee")


@pytest.fixture(scope="session")
def static():
    return melee_static()


def _valid():
    st = wire_state()
    from wargames.citadel.melee import melee_problem
    return [(t, a) for t in TARGETS for a in ATTACKER_SETS if not melee_problem(st, list(a), st.map.hex(t))]


@pytest.mark.rule("C 11")
def test_the_offered_attacks_are_the_games_own():
    """The sets the page can play are exactly the Melee actions the game offers in that position (those it lists,
    plus the pairs it accepts)."""
    g = wire_game()
    valid = _valid()
    assert {(t, a) for t, a in valid} >= {(m.target, m.attackers) for m in g.legal_actions
                                         if type(m).__name__ == "Melee" and m.attackers in ATTACKER_SETS}
    assert {t for t, _ in valid} == {"1414", "1316"}          # 1416 holds no French unit in the set-up


@pytest.mark.rule("C 11", "C MCT")
def test_every_leaf_of_the_static_graph_is_a_fresh_engine_run(static):
    """Every target, attacker set and die the page offers: the leaf shows what the engine computes now."""
    _, graph = static
    count = 0
    for target in TARGETS:
        for attackers in ATTACKER_SETS:
            for dice in itertools.product(range(1, 7), repeat=3):
                view, _ = walk_graph(graph, [target, set_key(attackers), *map(str, dice)])
                assert view is not None, (target, attackers, dice)
                st = wire_state()
                res = Resolution()
                line = play_line(target, attackers, dice)
                if line.error is None:                        # the same line straight from the engine
                    out = play_melee(st, list(attackers), st.map.hex(target), ScriptedDice(list(dice[:len(line.dice)])),
                                     res, choose=advance_all)
                    assert out == line.outcome and [s.text for s in res.steps] == [s.text for s in line.res.steps]
                assert view["html"] == "".join(line_parts(line) + alt_parts(alt_text(line)))
                assert view["summary"] == summary_html(summary_text(line))
                assert view["sources"] == {n: {c: rounded(v) for c, v in cols.items()}
                                           for n, cols in sources(line).items()}
                count += 1
    assert count == 3 * len(ATTACKER_SETS) * 216


@pytest.mark.rule("C 11")
def test_the_odds_shown_are_melee_odds(static):
    _, graph = static
    for target, attackers in _valid():
        st = wire_state()
        exact = melee_odds(st, list(attackers), st.map.hex(target))
        assert odds(target, attackers) == exact
        _, notes = walk_graph(graph, [target, set_key(attackers), "1", "1", "1"])
        assert odds_block(exact, "The exact odds of this attack (over every die):") in notes[2]
        # the leaves, each dice triple weighing 1/216, add up to the same distribution
        acc = {}
        for dice in itertools.product(range(1, 7), repeat=3):
            o = play_line(target, attackers, dice).outcome
            acc[o] = acc.get(o, Fraction(0)) + Fraction(1, 216)
        assert Distribution(acc) == exact


@pytest.mark.rule("C 11")
def test_the_default_line_is_the_chapters_golden_line(static):
    _, graph = static
    view, notes = walk_graph(graph, ["1414", "1st Bn", "3", "4", "2"])
    assert "raw odds 14:3 -&gt; 4:1" in view["html"] and "roll 2 on 2:1: 0/1r" in view["html"]
    assert "the Vietminh take AM-2" in view["summary"]
    view, _ = walk_graph(graph, ["1416", "3rd Bn+4th Bn", "1", "1", "1"])
    assert "1416 holds no enemy unit" in view["html"]


@pytest.mark.rule("C 11")
def test_a_melee_that_ends_at_the_morale_check_needs_no_table_die(static):
    _, graph = static
    # 1st Bn alone on AM-2: defender 1 + 3 = 4, attacker 6 + 4 + 1 = 11; the company routs, no table roll
    line = play_line("1414", ("1st Bn",), (1, 6, 5))
    assert line.dice == (1, 6) and line.outcome.result == "defender routed"
    from widgets.common import idle_choices
    assert idle_choices(graph, ["1414", "1st Bn", "1", "6", "5"]) == [False, False, False, False, True]


@pytest.mark.rule("C 11")
def test_walker_holds_no_rules():
    for word in ("morale", "rout", "C 11", "melee"):
        assert word not in WALKER_JS


@pytest.mark.rule("C 11")
def test_live_widget_re_resolves_on_change():
    w = MeleeLive()
    assert w.line.error is None and w.line.outcome.taken
    assert "roll 2 on 2:1" in w.steps.value and "how the melee ends" in w.odds.value
    w.dice[2].value = 6                                   # 2r/0 on 2:1: the attacker falls back
    assert w.line.outcome.result == "attacker retreats" and "roll 6 on 2:1: 2r/0" in w.steps.value
    w.attackers["2nd Bn"].value = True                    # 28:3 -> 6:1 raw
    assert "raw odds 28:3" in w.steps.value
    st = wire_state()
    assert w.odds.value.count("<table") == 3
    assert odds("1414", ("1st Bn", "2nd Bn")) == melee_odds(st, ["1st Bn", "2nd Bn"], st.map.hex("1414"))
    w.target.value = "1416"
    assert w.line.error is not None and "no enemy unit" in w.summary.value and w.odds.value == ""
    assert len(w.sources["units"].data["x"]) == 6         # two companies and four battalions
