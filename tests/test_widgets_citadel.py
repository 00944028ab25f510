"""The Anne-Marie widget: the static decision graph and the live callbacks run the engine, not a copy of it."""
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from wargames.citadel.examples import PRINTED_ASSIGNMENT, PRINTED_DICE, MovementExample
from wargames.core import ScriptedDice
from wargames.core.dist import enumerate_outcomes
from widgets.common import WALKER_JS, rounded, walk_graph
from widgets.citadel import (MAX_SHOTS, forget, PRESETS, AnneMarieLive, alt_html, anne_marie_static, batteries_text,
                             crop_hexes, outcome_html, outcome_sources, resolve, shot_odds, summary_text)
from widgets.layout import summary_html

ROOT = Path(__file__).resolve().parents[1]


#: The page is built once (a session fixture) on the one worker that runs these tests (``--dist loadgroup``).
pytestmark = pytest.mark.xdist_group("widgets-citadel")


@pytest.fixture(scope="session")
def static():
    return anne_marie_static()


@pytest.mark.rule("C 8")
def test_graph_offers_every_die_at_every_shot(static):
    _, graph = static
    nodes = graph["nodes"]
    root = nodes[graph["start"]]
    assert set(root["next"]) == set(PRESETS)
    for nid, node in nodes.items():
        if nid != graph["start"] and "next" in node:
            assert set(node["next"]) == {"1", "2", "3", "4", "5", "6"}
            assert "P(pin)" not in node["title"] and "Exact chance this shot pins" in node["odds"]
        if "view" in node:
            assert node["view"] in graph["views"]


@pytest.mark.rule("C 8")
def test_walking_the_printed_choices_gives_the_printed_outcome(static):
    _, graph = static
    view, notes = walk_graph(graph, ["printed", *map(str, PRINTED_DICE)])
    assert len(notes) == 6                                   # the assignment, then five shots
    assert "120-B fires at 4th Bn paused in 1017" in notes[-1]
    assert "2nd Bn in 1113: pinned by opportunity fire" in view["html"]
    assert "1st Bn in 1413: entered an enemy zone of control" in view["html"]


@pytest.mark.rule("C 8")
def test_every_leaf_matches_a_fresh_engine_run(static):
    """Spot-check: for several dice, the graph's leaf equals what the engine computes directly."""
    _, graph = static
    for dice in ([1, 1, 1, 1, 1], [6, 6, 6, 6, 6], [6, 2, 3, 4, 6], [3, 6, 6, 1, 2]):
        view, _ = walk_graph(graph, ["printed", *map(str, dice)])
        ex = resolve(PRINTED_ASSIGNMENT, dice).example
        from widgets.citadel import outcome_html
        assert view["html"].startswith(outcome_html(ex))


def _leaves(ex: MovementExample, dice: list[int]):
    """Every way the phase can end from ``ex``: (dice, example at the end), depth first.

    The example is copied at each die, so all sequences that share a prefix share its engine work.
    """
    if not ex.pending:
        yield dice, ex
        return
    for d in range(1, 7):
        nxt = ex.copy() if d < 6 else ex        # the last branch may use the original
        nxt.shoot(ScriptedDice([d]))
        yield from _leaves(nxt, dice + [d])


@pytest.mark.rule("C 8")
def test_every_dice_sequence_of_the_static_graph_matches_the_engine(static):
    """All 12,132 sequences (both presets, every die): the page's lookup shows what the engine computes.

    The graph used to key nodes on the position only, so two histories ending in the same position showed
    the first one's shots (2,292 sequences wrong, e.g. printed reading with 6-6-3-4-1).
    """
    layout, graph = static
    legend = layout.select_one({"name": "anne-marie-legend"}).text
    count = 0
    for preset, (_, assignment) in PRESETS.items():
        for dice, ex in _leaves(MovementExample(assignment), []):
            page = [preset, *map(str, dice), *["1"] * (MAX_SHOTS - len(dice))]   # unused dice keep a value
            view, _ = walk_graph(graph, page)
            assert view is not None, (preset, dice)
            assert view["html"] == outcome_html(ex) + alt_html(ex), (preset, dice)
            assert view["sources"] == {name: {col: rounded(vals) for col, vals in cols.items()}
                                       for name, cols in outcome_sources(ex).items()}, (preset, dice)
            assert view["summary"] == summary_html(summary_text(ex)), (preset, dice)
            for s in ex.run.shots:                              # every code shown is decoded in the legend
                assert f"<dt>result {s['code']}</dt>" in legend and s["column"] in legend, (preset, dice)
            count += 1
    assert count == 12_132


@pytest.mark.rule("C 9")
def test_the_issue_example_shows_the_engine_results(static):
    """Printed reading, dice 6-6-3-4-1: the shots table gives what a fresh engine run gives."""
    _, graph = static
    dice = [6, 6, 3, 4, 1]
    ex = resolve(PRINTED_ASSIGNMENT, dice).example
    codes = {s["firer"]: s["code"] for s in ex.run.shots}
    view, _ = walk_graph(graph, ["printed", *map(str, dice)])
    for s in ex.run.shots:
        assert f"<td>{s['firer']}</td><td>{s['target']}</td><td>{s['hex']}</td><td>{s['column']}</td>" \
               f"<td>{s['code']}</td>" in view["html"]
    assert codes["105-A"] == "-" and codes["120-B"] == "2P"     # as the C 9 chart in the book gives


@pytest.mark.rule("C 8")
def test_walker_js_holds_no_rules():
    """The page's script only follows ids and copies data: no dice, columns or rule ids in it."""
    for word in ("roll", "column", "pin", "C 8", "losses", "range"):
        assert word not in WALKER_JS


@pytest.mark.rule("C 8")
def test_shot_odds_are_exact_and_sum_to_one():
    ex = MovementExample()
    dist = shot_odds(ex)
    assert sum(dist.values()) == 1
    assert dist.prob(lambda c: "P" in c) == Fraction(1, 2)


@pytest.mark.rule("C 8")
def test_live_widget_recomputes_on_change():
    w = AnneMarieLive()
    assert w.outcome.error is None
    assert [s["code"] for s in w.outcome.example.run.shots] == ["-", "2P", "2P", "-", "2P"]
    w.dice[1].value = 6                                     # 105-B misses: 2nd Bn goes on
    shots = w.outcome.example.run.shots
    assert shots[1]["code"] == "-" and not shots[1]["pinned"]
    assert "2nd Bn" in w.steps.value and "P(pin) = 1/2" in w.odds.value
    units = w.sources["units"].data
    assert len(units["x"]) == 11
    w.assign["2nd Bn"].value = "105-A"                      # 105-A would fire twice
    assert w.outcome.error is not None and w.outcome.error.rule == "C 8"
    assert "already fired" in w.message.value


def test_verbatim_check_finds_no_copied_rulebook_text():
    tool = ROOT.parent / "shared" / "tools" / "verbatim_check.py"
    if not tool.exists():
        pytest.skip("the shared rulebooks are not beside this checkout")
    out = subprocess.run([sys.executable, str(tool)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.rule("C 8")
def test_summary_names_the_pinned_battalions_and_where_the_others_stopped():
    ex = resolve(PRINTED_ASSIGNMENT, PRINTED_DICE).example
    text = summary_text(ex)
    pinned = [b for b in ("1st Bn", "2nd Bn", "3rd Bn", "4th Bn") if ex.state.unit(b).pinned]
    assert text.startswith("Pinned: " + ", ".join(f"{b} in {ex.state.label(ex.state.unit(b).hex)}" for b in pinned))
    assert text.endswith("; not pinned: 1st Bn stopped in 1413.")
    none = resolve(PRINTED_ASSIGNMENT, [6, 6, 6, 6, 6]).example
    assert not any(none.state.unit(b).pinned for b in ("1st Bn", "2nd Bn", "3rd Bn", "4th Bn"))
    assert summary_text(none).startswith("None pinned: 1st Bn stopped in ")


@pytest.mark.rule("C 8")
def test_static_page_marks_the_batteries_and_names_the_map(static):
    layout, _ = static
    fig = layout.select_one({"name": "citadel-map"})
    printed = resolve(PRINTED_ASSIGNMENT, PRINTED_DICE).example
    marked = fig.select_one({"name": "highlight"}).data_source.data
    battery_hexes = {printed.state.unit(b).hex for b in ("105-A", "105-B", "105-C", "120-A", "120-B")}
    assert {(q, r) for q, r in zip(marked["q"], marked["r"])} == {(h.q, h.r) for h in battery_hexes}
    assert fig.html_attributes["role"] == "img"
    assert batteries_text(printed) in fig.html_attributes["aria-label"]
    out = layout.select_one({"name": "am-outcome"}).text
    assert batteries_text(printed) in out                    # the position in words, on the page too
    tiles = fig.select_one({"name": "hex-tiles"}).data_source.data
    crop = crop_hexes(printed)
    assert len(tiles["q"]) == len(crop) < len(printed.state.map.hexes)
    assert all((u.hex.q, u.hex.r) in set(zip(tiles["q"], tiles["r"])) for u in printed.state.units.values() if u.hex)


@pytest.mark.rule("C 8")
def test_static_page_has_the_reset_and_roll_buttons_and_keeps_its_state_in_the_url(static):
    layout, _ = static
    from bokeh.models import Button
    labels = [m.label for m in layout.references() if isinstance(m, Button)]
    assert sorted(labels) == ["Printed example", "Roll the dice"]
    reset = layout.select_one({"name": "anne-marie-reset"})
    printed = reset.js_event_callbacks["button_click"][0].args["printed"]
    assert printed == {"preset": "printed", **{f"d{i + 1}": str(d) for i, d in enumerate(PRINTED_DICE)}}
    ready = layout.document.callbacks._js_event_callbacks["document_ready"]   # the hash restore on load
    assert len(ready) == 1 and set(ready[0].args["controls"]) == {"preset", "d1", "d2", "d3", "d4", "d5"}


@pytest.mark.rule("C 8")
def test_live_widget_has_summary_legend_and_printed_button():
    w = AnneMarieLive()
    assert w.summary.value == summary_html(summary_text(w.outcome.example))
    for code in ("-", "1", "2P", "P"):
        assert f"<dt>result {code}</dt>" in w.legend.value
    w.dice[0].value = 1
    w.assign["4th Bn"].value = "120-B"
    assert w.outcome.example.run.shots[0]["roll"] == 1
    w.reset.click()
    assert [d.value for d in w.dice] == PRINTED_DICE and w.assignment() == PRINTED_ASSIGNMENT
    assert [s["code"] for s in w.outcome.example.run.shots] == [s["code"] for s in resolve(
        PRINTED_ASSIGNMENT, PRINTED_DICE).example.run.shots]


@pytest.mark.rule("C 8")
def test_shot_code_is_what_the_shot_gives_and_leaves_the_example_alone():
    """The odds look ahead on a copy of the phase: the same code as shooting for real, nothing moved."""
    ex = MovementExample()
    ex.shoot(ScriptedDice([6]))
    before = ex.key()
    for die in range(1, 7):
        look = ex.shot_code(ScriptedDice([die]))
        assert ex.key() == before
        assert look == ex.copy().shoot(ScriptedDice([die])).result["code"]
    forget()
    assert shot_odds(ex) == enumerate_outcomes(lambda d: ex.copy().shoot(d).result["code"])
