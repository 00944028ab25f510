"""The assault widget (F 8.0 Assault Example): every state the static page can show is what the engine gives.

The static graph is walked along every path (2 readings x 2 fire modes x 2 NVA targets x 3 opportunity-fire
choices x 5 presets of its dice x 13 dice presets), and each leaf is compared with a fresh engine run for the
same choices and dice: the HTML, the counters on the map, the one-line summary and the position in words.
"""
import html
import itertools
import re
from fractions import Fraction

import pytest
from bokeh.models import Button, GlyphRenderer, Legend, Select, Text, Title

from wargames.core import RandomDice, ScriptedDice
from wargames.fte.assault import assault, start
from wargames.fte.examples import ASSAULT_DICE, assault_example
from wargames.viz.fte import MIN_TEXT_PX, _px, region_map
from widgets.common import rounded, idle_choices, walk_graph
from widgets.fte import (CASUALTY_ROWS, CHOICES, DICE_PRESETS, OPFIRE_DICE, PRINTED_CHOICES, PRINTED_PLAN, READINGS,
                         REGION, RESULT_CODES, RESULT_WORDS,
                         AssaultLive, alt_text, assault_static, distribution, distribution_html, leaf_view,
                         opfire_distribution, opfire_odds_html, plan_of, reading_note, rounds_html, static_plan,
                         static_view, status_html, summary_text)

FIRE = ("combined", "separate")
TARGETS = ("US FT 19.19", "US FT 20.20")
OPFIRE = ("none", *TARGETS)
KEYS = ("reading", "fire", "target", "opfire", "opdice", "dice")
PATHS = list(itertools.product(READINGS, FIRE, TARGETS, OPFIRE, OPFIRE_DICE, DICE_PRESETS))


#: The page is built once (a session fixture) on the one worker that runs these tests (``--dist loadgroup``).
pytestmark = pytest.mark.xdist_group("widgets-fte")


@pytest.fixture(scope="session")
def static():
    """The page's widget with every view and control; the odds shown with the dice choice are left out here
    (enumerating the eight distributions takes a while) and checked on their own below."""
    return assault_static(odds=False)


def _plan(fire, target, opfire="none"):
    return plan_of(combine=fire == "combined", nva_target=target, opfire=None if opfire == "none" else opfire)


class _ThenDice:
    """Scripted values first, then another dice object (the opportunity fire's preset, then the rest)."""

    def __init__(self, first, then):
        self.first, self.then = list(first), then

    def roll(self, sides=6, why="", classes=None):
        return self.first.pop(0) if self.first else self.then.roll(sides, why, classes)


def _engine(reading, fire, target, opfire, opdice, preset):
    """A fresh run straight from the engine (not through the widget's replay): with opportunity fire, its preset
    dice come first and the rest of the assault rolls the dice preset."""
    dice = ScriptedDice(ASSAULT_DICE, "printed") if preset == "printed" else RandomDice(int(preset.split()[1]))
    if opfire != "none":
        dice = _ThenDice(OPFIRE_DICE[opdice][0], dice)
    state = assault_example(READINGS[reading])
    try:
        return assault(state, _plan(fire, target, opfire), dice)
    except Exception:
        return None


@pytest.mark.rule("F 8.0", "F 21.0")
def test_every_path_of_the_graph_shows_what_a_fresh_engine_run_gives(static):
    _, graph = static
    assert len(PATHS) == 2 * 2 * 2 * 3 * 5 * 13
    distinct = set()
    for choices in PATHS:
        shown, notes = walk_graph(graph, list(choices))
        assert shown is not None, choices
        assert len(notes) == len(KEYS)
        fresh = static_view(dict(zip(KEYS, choices)))
        assert shown["html"] == "".join(fresh["html"]), choices
        assert shown["summary"] == fresh["summary"] and shown["alt"] == fresh["alt"], choices
        assert shown["sources"]["units"] == {k: rounded(v) for k, v in fresh["sources"]["units"].items()}, choices
        # and independently of the widget's replay: the engine's own run, position and tables
        distinct.add(fresh["summary"] + fresh["alt"] + "".join(fresh["html"]))
        run = _engine(*choices)
        if run is None:
            assert choices[-1] == "printed" and "Not played out" in shown["summary"], choices
            continue
        assert status_html(run) in shown["html"] and rounds_html(run) in shown["html"]
        where = {u.id: run.state.label(u.hex) for u in run.state.units.values() if u.on_map}
        assert dict(zip(shown["sources"]["units"]["text"], shown["sources"]["units"]["hex"])) == where
        assert RESULT_WORDS[run.result] in shown["summary"]
        fired = [s.text for s in run.res.steps if s.rule == "F 21.0"]
        assert bool(fired) == (choices[3] != "none"), choices         # the defender fired only when told to
    # the graph stores one view per distinct thing shown: no two different histories share a view
    assert len(graph["views"]) == len(distinct)


@pytest.mark.rule("F 8.0")
def test_the_graph_key_covers_every_choice(static):
    """Leaves that show different things are different nodes (the Citadel bug keyed on the position alone)."""
    _, graph = static
    by_view = {}
    for choices in PATHS:
        nid = graph["start"]
        for v in choices:
            nid = graph["nodes"][nid]["next"][v]
        by_view.setdefault(graph["nodes"][nid]["view"], []).append(choices)
    for paths in by_view.values():
        first = static_view(dict(zip(KEYS, paths[0])))
        for other in paths[1:]:
            view = static_view(dict(zip(KEYS, other)))
            assert view["html"] == first["html"] and view["summary"] == first["summary"], (paths[0], other)


@pytest.mark.rule("F 8.0", "F 21.0")
def test_the_opportunity_fire_dice_matter_only_when_the_defender_fires(static):
    """Holding fire (the printed choice) disables the control of its dice: every option leads to one node."""
    _, graph = static
    printed = list(PRINTED_CHOICES.values())
    assert idle_choices(graph, printed) == [k == "opdice" for k in KEYS]
    layout, _ = static
    assert layout.select_one({"name": "fa-opdice"}).disabled and not layout.select_one({"name": "fa-opfire"}).disabled
    for opfire in TARGETS:
        values = [*printed[:3], opfire, *printed[4:]]
        assert not any(idle_choices(graph, values))
    nid = graph["start"]
    for v in printed[:4]:
        nid = graph["nodes"][nid]["next"][v]
    assert len(set(graph["nodes"][nid]["next"].values())) == 1 and graph["nodes"][nid]["idle"]
    # without fire the page shows the printed example whatever the (unused) opportunity-fire dice say
    for opdice in OPFIRE_DICE:
        shown, _ = walk_graph(graph, [*printed[:4], opdice, printed[5]])
        assert "Unresolved after three rounds" in shown["summary"] and "NVA FT suppressed" in shown["summary"]


@pytest.mark.rule("F 8.0", "F 21.0")
@pytest.mark.parametrize("reading", list(READINGS))
@pytest.mark.parametrize("target", TARGETS)
def test_each_opportunity_fire_dice_label_says_what_the_engine_does(reading, target):
    """The presets' labels (TQ check, to-hit, effect) against the engine: the dice are all used by the
    opportunity fire, and the check, the hit and the effect are the ones named."""
    expected = {"fails": (True, None), "misses": (False, None), "WIA": (False, "WIA"), "S": (False, "S"),
                "B": (False, "B")}
    assert set(expected) == set(OPFIRE_DICE)
    for preset, (values, label) in OPFIRE_DICE.items():
        state = assault_example(READINGS[reading])
        run = start(state, _plan("combined", "US FT 19.19", target))
        dice = ScriptedDice(values, label)
        run.step(dice)
        run.step(dice)
        assert run.phase == "tq" and not dice.remaining, preset
        nva, hit = state.units["NVA FT"], state.units[target]
        keeps, effect = expected[preset]
        assert nva.op_fired and nva.concealed == keeps, preset
        texts = " | ".join(s.line() for s in run.res.steps)
        assert f"rolls {values[0]}, {'fails' if keeps else 'passes'}" in texts, (preset, texts)
        if effect is None:
            assert not (hit.suppressed or hit.broken or hit.reduced), preset
        else:
            assert f"small arms column: {effect}" in texts, preset
            assert {"WIA": hit.reduced, "S": hit.suppressed, "B": hit.broken}[effect], preset
        if len(values) > 1:
            assert "a concealed unit's opportunity fire (F 21.0)" in texts          # the -1 of a concealed firer


@pytest.mark.rule("F 8.0", "F 21.0")
def test_the_opportunity_fire_dice_choice_shows_the_exact_chances_of_that_fire(static):
    _, graph = static
    for target in TARGETS:
        dist = opfire_distribution("errata", _plan("combined", "US FT 19.19", target))
        assert sum(dist.values()) == 1
        keeps = sum(p for o, p in dist.items() if o.startswith("NVA FT keeps its Concealed marker"))
        assert keeps == Fraction(6, 10)                            # TQ 4: a 5 or more fails and keeps the marker
        assert any(f"{target} broken" in o for o in dist) and any(f"{target} suppressed" in o for o in dist)
        _, notes = walk_graph(graph, [*list(PRINTED_CHOICES.values())[:3], target, "fails", "printed"])
        assert opfire_odds_html("errata", _plan("combined", "US FT 19.19", target)) in notes[4]
        assert "not precomputed" in notes[5]                        # the whole assault is left to the live widget


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
    assert "not precomputed" in dice_choice_odds("errata", plan_of(opfire="US FT 19.19"))


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
    assert fig.html_attributes["aria-label"] == alt_text(_engine(*PRINTED_CHOICES.values()).state)


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
    assert codes >= {"S", "B", "AC", "C", "TQ", "OF"}
    for code in codes:
        assert f"<dt>{html.escape(code)}</dt>" in legend, code
    for meaning in RESULT_CODES.values():
        assert re.search(r"\(F [\d.]+", meaning)                        # each meaning cites its rule


@pytest.mark.rule("F 8.0")
def test_layout_has_summary_hints_reset_roll_and_url_state(static):
    layout, _ = static
    selects = {s.name: s for s in layout.select({"type": Select})}
    assert set(selects) == {"fa-reading", "fa-combine", "fa-target", "fa-opfire", "fa-opdice", "fa-dice"}
    labels = {s.title for s in selects.values()}
    assert labels == {"Reading", "US fire", "NVA target", "NVA op fire", "Op fire dice", "Dice"}
    for key, name in zip(KEYS, ("fa-reading", "fa-combine", "fa-target", "fa-opfire", "fa-opdice", "fa-dice")):
        assert [v for v, _ in selects[name].options] == list(CHOICES[key])
        assert selects[name].value == PRINTED_CHOICES[key]
    buttons = {b.name: b for b in layout.select({"type": Button})}
    assert {"fa-reset", "fa-roll"} <= set(buttons)
    reset = buttons["fa-reset"].js_event_callbacks["button_click"][0]
    assert reset.args["printed"] == PRINTED_CHOICES
    roll = buttons["fa-roll"].js_event_callbacks["button_click"][0]
    assert [d.name for d in roll.args["dice"]] == ["fa-opdice", "fa-dice"]     # rolls pick dice presets
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


@pytest.mark.rule("F 8.0", "F 21.0")
def test_live_widget_offers_the_defenders_opportunity_fire_with_dice_of_its_own():
    live = AssaultLive()
    assert live.opfire.value is None and live.opdice.disabled            # the printed example: no fire
    live.opfire.value = "US FT 19.19"
    assert not live.opdice.disabled
    live.opdice.value = "2 1 5"                                           # passes, hits with a natural 1, B
    engine = assault(assault_example(READINGS["errata"]), _plan("combined", "US FT 19.19", "US FT 19.19"),
                     _ThenDice([2, 1, 5], ScriptedDice(ASSAULT_DICE, "printed")))
    assert live.run.result == engine.result and summary_text(engine, "errata") in live.summary.value
    assert "US FT 19.19 broken" in live.summary.value
    steps = [s.text for s in live.run.res.steps]
    assert "NVA FT TQ check for opportunity fire at US FT 19.19: rolls 2, passes" in steps
    assert "US FT 19.19 is out of the assault after the opportunity fire" in steps
    live.opdice.value = "7"                                               # fails its check: the printed dice go on
    assert live.run.result == "unresolved"
    assert live.run.state.units["NVA FT"].op_fired and "NVA FT suppressed" in live.summary.value
    live.printed.click()
    assert live.opfire.value is None and live.opdice.disabled and live.run.result == "unresolved"


def _engine_scripted(values):
    return assault(assault_example(READINGS["errata"]), PRINTED_PLAN, ScriptedDice(values, "test"))


@pytest.mark.rule("F 8.0")
def test_each_table_row_is_its_own_fragment_so_the_page_marks_what_changed(static):
    """The walker marks fragments that are new since the previous view; the rows are fragments of their own, so
    after a change only the rows that differ are marked (the table headers are shared)."""
    _, graph = static
    printed, _ = walk_graph(graph, list(PRINTED_CHOICES.values()))
    rolled, _ = walk_graph(graph, [*list(PRINTED_CHOICES.values())[:5], "seed 3"])
    new = [graph["data"][i] for i in rolled["parts"] if i not in printed["parts"]]
    kept = [graph["data"][i] for i in rolled["parts"] if i in printed["parts"]]
    assert any(p.startswith("<tr><td>") for p in new)                     # some rows changed
    assert any(p.startswith("<tr><th>unit</th>") for p in kept)           # the status table's header did not
    assert len(new) < len(rolled["parts"])
