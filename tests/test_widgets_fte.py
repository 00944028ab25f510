"""The assault widget (F 8.0 Assault Example): every state the static page can show is what the engine gives.

The static graph is walked along every path (2 readings x 2 fire modes x 2 NVA targets x 13 dice presets), and
each leaf is compared with a fresh engine run for the same choices and dice: the HTML, the counters on the map,
the one-line summary and the position in words.
"""
import html
import itertools
import re
from fractions import Fraction

import pytest
from bokeh.models import Button, GlyphRenderer, Legend, Select, Text, Title

from wargames.core import RandomDice, ScriptedDice
from wargames.fte.assault import assault
from wargames.fte.examples import ASSAULT_DICE, assault_example
from wargames.viz.fte import MIN_TEXT_PX, _px, region_map
from widgets.common import _rounded, walk_graph
from widgets.fte import (CASUALTY_ROWS, DICE_PRESETS, PRINTED_CHOICES, PRINTED_PLAN, READINGS, REGION, RESULT_CODES,
                         RESULT_WORDS,
                         AssaultLive, alt_text, assault_static, distribution, distribution_html, leaf_view, plan_of,
                         reading_note, rounds_html, status_html, summary_text)

FIRE = ("combined", "separate")
TARGETS = ("US FT 19.19", "US FT 20.20")
PATHS = list(itertools.product(READINGS, FIRE, TARGETS, DICE_PRESETS))


@pytest.fixture(scope="module")
def static():
    """The page's widget with every view and control; the odds shown with the dice choice are left out here
    (enumerating the eight distributions takes minutes) and checked on their own below."""
    return assault_static(odds=False)


def _plan(fire, target):
    return plan_of(combine=fire == "combined", nva_target=target)


def _engine(reading, fire, target, preset):
    """A fresh run straight from the engine (not through the widget's replay)."""
    dice = ScriptedDice(ASSAULT_DICE, "printed") if preset == "printed" else RandomDice(int(preset.split()[1]))
    state = assault_example(READINGS[reading])
    try:
        return assault(state, _plan(fire, target), dice)
    except Exception:
        return None


@pytest.mark.rule("F 8.0")
def test_every_path_of_the_graph_shows_what_a_fresh_engine_run_gives(static):
    _, graph = static
    assert len(PATHS) == 104
    distinct = set()
    for choices in PATHS:
        reading, fire, target, preset = choices
        shown, notes = walk_graph(graph, list(choices))
        assert shown is not None, choices
        assert len(notes) == 4
        fresh = leaf_view(reading, _plan(fire, target), preset)
        assert shown["html"] == "".join(fresh["html"]), choices
        assert shown["summary"] == fresh["summary"] and shown["alt"] == fresh["alt"], choices
        assert shown["sources"]["units"] == {k: _rounded(v) for k, v in fresh["sources"]["units"].items()}, choices
        # and independently of leaf_view: the engine's own run, position and tables
        distinct.add(fresh["summary"] + fresh["alt"] + "".join(fresh["html"]))
        run = _engine(*choices)
        if run is None:
            assert preset == "printed" and fire == "separate" and "Not played out" in shown["summary"]
            continue
        assert status_html(run) in shown["html"] and rounds_html(run) in shown["html"]
        where = {u.id: run.state.label(u.hex) for u in run.state.units.values() if u.on_map}
        assert dict(zip(shown["sources"]["units"]["text"], shown["sources"]["units"]["hex"])) == where
        assert RESULT_WORDS[run.result] in shown["summary"]
    # the graph stores one view per distinct thing shown: no two different histories share a view
    assert len(graph["views"]) == len(distinct)


@pytest.mark.rule("F 8.0")
def test_the_graph_key_covers_every_choice(static):
    """Leaves that show different things are different nodes (the Citadel bug keyed on the position alone)."""
    _, graph = static
    leaf_of = {}
    for choices in PATHS:
        nid = graph["start"]
        for v in choices:
            nid = graph["nodes"][nid]["next"][v]
        leaf_of[choices] = graph["nodes"][nid]["view"]
    for a, b in itertools.combinations(PATHS, 2):
        if leaf_of[a] == leaf_of[b]:
            va = leaf_view(a[0], _plan(*a[1:3]), a[3])
            vb = leaf_view(b[0], _plan(*b[1:3]), b[3])
            assert va["html"] == vb["html"] and va["summary"] == vb["summary"], (a, b)


@pytest.mark.rule("F 8.0")
def test_printed_choices_give_the_printed_outcome(static):
    _, graph = static
    shown, notes = walk_graph(graph, list(PRINTED_CHOICES.values()))
    assert "Unresolved after three rounds" in shown["summary"]
    assert "US FT 19.19 broken, now in" in shown["summary"] and "NVA FT suppressed" in shown["summary"]
    assert "The position in words." in shown["html"]
    assert html.escape(shown["alt"]) in shown["html"]          # the alt text is shown, not only computed


@pytest.mark.rule("F 8.0")
def test_reading_note_is_whole():
    errata, original = reading_note("errata"), reading_note("original")
    assert "may not be activated to assault" in errata and "suppressed defender keeps firing" in errata
    assert "may still be activated to assault" in original and "defenders included" in original
    for note in (errata, original):
        for item in re.findall(r"<li>(.*?)</li>", note):
            assert item.endswith(".")                                 # every sentence ends: nothing cut off


@pytest.mark.rule("F 8.0")
def test_odds_are_percentages_grouped_by_result_with_exact_fractions_on_hover():
    dist = distribution("errata", PRINTED_PLAN)
    out = distribution_html(dist)
    visible = re.sub(r"title='[^']*'", "", out)
    assert not re.search(r"\d+/\d{3,}", visible)                      # no huge fraction outside the hover
    tables = re.findall(r"<table.*?</table>", out)
    by_result = dist.map(lambda o: o.result)
    assert len(tables) == 1 + sum(1 for r in by_result if by_result[r])
    for t in tables[1:]:
        assert t.count("<tr>") - 1 <= CASUALTY_ROWS                   # a header row, then at most 4 rows
    # the first table's hovers hold the exact chance of each result
    exact = dict(re.findall(r"<td>(\w+)</td><td class='wg-pct' title='exactly (\d+/\d+)'", tables[0]))
    assert {r: Fraction(f) for r, f in exact.items()} == {r: by_result[r] for r in by_result if by_result[r]}
    # each result's table sums (with its "other" row) to that result's chance
    for t in tables[1:]:
        result = re.search(r"<caption>(\w+):", t)[1]
        total = sum(Fraction(f) for f in re.findall(r"title='exactly (\d+/\d+)", t))
        assert total == by_result[result]


@pytest.mark.rule("F 8.0")
def test_the_dice_choice_shows_the_exact_odds_of_the_choices_above_it():
    from widgets.fte import _graph, dice_choice_odds
    html_ = dice_choice_odds("errata", PRINTED_PLAN)
    assert html_ == distribution_html(distribution("errata", PRINTED_PLAN))
    assert html_ != dice_choice_odds("errata", plan_of(nva_target="US FT 20.20"))      # the target matters


@pytest.mark.rule("F 8.0")
def test_map_is_cropped_readable_and_labelled(static):
    layout, graph = static
    fig = layout.select_one({"name": "fte-map"})
    m = region_map(assault_example().map, REGION)
    assert len(m.hexes) <= 30
    shown = {h for v in graph["views"].values() for h in graph["data"][v["sources"]["units"]["hex"]]}
    assert shown <= {m.label(h) for h in m.hexes}                       # every counter shown is on the map
    sizes = [r.glyph.text_font_size for r in fig.select(type=GlyphRenderer) if isinstance(r.glyph, Text)]
    sizes += [lg.label_text_font_size for lg in fig.select(type=Legend)]
    sizes += [t.text_font_size for t in fig.select(type=Title)]
    assert sizes and all(_px(s) >= MIN_TEXT_PX for s in sizes), sizes
    assert fig.html_attributes["role"] == "img"
    assert fig.html_attributes["aria-label"] == alt_text(_engine("errata", "combined", "US FT 19.19", "printed").state)


@pytest.mark.rule("F 8.0")
def test_legend_decodes_every_code_shown(static):
    layout, graph = static
    legend = layout.select_one({"name": "fa-legend"}).text
    codes = set()
    for v in graph["views"].values():
        for status in graph["data"][v["sources"]["units"]["status"]]:
            codes.update(status.split())
        text = "".join(graph["data"][i] for i in v["html"])
        codes.update(re.findall(r"→ <b>([^<]+)</b>", text))             # the effects in the round tables
        codes.update(re.findall(r"\b(KIA|WIA)\b", text))
        if "TQ" in text:
            codes.add("TQ")
        codes.update(r for r in ("cleared", "repulsed", "unresolved") if r in text)
    assert codes >= {"S", "B", "AC", "C", "TQ"}
    for code in codes:
        assert f"<dt>{html.escape(code)}</dt>" in legend, code
    for meaning in RESULT_CODES.values():
        assert re.search(r"\(F [\d.]+", meaning)                        # each meaning cites its rule


@pytest.mark.rule("F 8.0")
def test_layout_has_summary_hints_reset_roll_and_url_state(static):
    layout, _ = static
    selects = {s.name: s for s in layout.select({"type": Select})}
    assert set(selects) == {"fa-reading", "fa-combine", "fa-target", "fa-dice"}
    labels = {s.title for s in selects.values()}
    assert labels == {"Reading", "US fire", "NVA target", "Dice"}
    buttons = {b.name: b for b in layout.select({"type": Button})}
    assert {"fa-reset", "fa-roll"} <= set(buttons)
    reset = buttons["fa-reset"].js_event_callbacks["button_click"][0]
    assert reset.args["printed"] == PRINTED_CHOICES
    roll = buttons["fa-roll"].js_event_callbacks["button_click"][0]
    assert [d.name for d in roll.args["dice"]] == ["fa-dice"]            # rolls pick a seeded preset
    assert "Unresolved" in layout.select_one({"name": "fa-summary"}).text
    assert "Dice" in layout.select_one({"name": "fa-hints"}).text
    assert layout.document is not None and layout.document.callbacks.js_event_callbacks    # the hash restore


@pytest.mark.rule("F 8.0")
def test_live_widget_reruns_the_engine_and_resets_to_the_printed_example():
    live = AssaultLive()
    assert live.run.result == "unresolved"
    assert "Unresolved after three rounds" in live.summary.value
    assert "<dt>AC</dt>" in live.legend.value
    assert "The position in words." in live.alt.value
    live.dice.value = "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"
    run = _engine_scripted([1] * 20)
    assert live.run.result == run.result
    assert summary_text(run, "errata") in live.summary.value
    live.combine.value = False
    live.reading.value = "original"
    live.printed.click()
    assert live.dice.value == " ".join(map(str, ASSAULT_DICE)) and live.combine.value and live.reading.value == "errata"
    assert live.run.result == "unresolved"


def _engine_scripted(values):
    return assault(assault_example(READINGS["errata"]), PRINTED_PLAN, ScriptedDice(values, "test"))


@pytest.mark.rule("F 8.0")
def test_each_table_row_is_its_own_fragment_so_the_page_marks_what_changed(static):
    """The walker marks fragments that are new since the previous view; the rows are fragments of their own, so
    after a change only the rows that differ are marked (the table headers are shared)."""
    _, graph = static
    printed, _ = walk_graph(graph, list(PRINTED_CHOICES.values()))
    rolled, _ = walk_graph(graph, [*list(PRINTED_CHOICES.values())[:3], "seed 3"])
    new = [graph["data"][i] for i in rolled["parts"] if i not in printed["parts"]]
    kept = [graph["data"][i] for i in rolled["parts"] if i in printed["parts"]]
    assert any(p.startswith("<tr><td>") for p in new)                     # some rows changed
    assert any(p.startswith("<tr><th>unit</th>") for p in kept)           # the status table's header did not
    assert len(new) < len(rolled["parts"])
