"""The odds-shifts widget: every state its static page can show is the engine's answer, and the live version
calls the engine and says the same things about illegal combinations."""
import html
import random
import re
from itertools import product

import pytest

from wargames.core import enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.indochina import Combat, Side, crt_chooser, final_odds
from wargames.indochina.charts import default_charts
from wargames.indochina.combat import Readings, roll_on_crt, shifts
from widgets.common import PIPELINE_JS, odds_html, run_pipeline
from widgets import indochina as ic
from widgets.indochina import OddsShiftsLive, odds_shifts_static

BASE = dict(A="14", D="5", attack_enh="0", defence_enh="0", attacker="Communist", terrain="clear", fortified="0",
            monsoon="0", go="0", mode="normal", dc="0", light="0", reading="1/3", table="Mobile")
FLAGS = ("attack_enh", "defence_enh", "fortified", "monsoon", "go", "dc", "light")


@pytest.fixture(scope="module")
def built():
    layout, pipeline = odds_shifts_static()
    _, summary_t, detail_t = ic.templates()
    return layout, pipeline, summary_t, detail_t


def page(built, controls):
    """What the page shows for these controls: the pipeline's values and its two rendered texts."""
    _, pipeline, summary_t, detail_t = built
    v = run_pipeline(pipeline, controls)
    return v, ic.render(v, summary_t), ic.render(v, detail_t)


def engine(ch):
    """The engine, called directly: (error, or raw, final, shifts, chooser, distribution on the chosen CRT)."""
    c = Combat(Side(ch["attacker"]), (int(ch["A"]),), (int(ch["D"]),), attack_enhanced=ch["attack_enh"] == "1",
               defence_enhanced=ch["defence_enh"] == "1", terrain=ch["terrain"], fortified=ch["fortified"] == "1",
               monsoon=ch["monsoon"] == "1", general_offensive=ch["go"] == "1", mode=ch["mode"],
               death_commando=ch["dc"] == "1", attackers_all_light=ch["light"] == "1")
    try:
        raw, final, _ = final_odds(c, Readings(ch["reading"]))
        found = shifts(c)
    except RuleViolation as e:
        return {"error": e}
    dist = enumerate_outcomes(lambda d: roll_on_crt(ch["table"], final, d)[1])
    return {"raw": raw, "final": final, "shifts": found, "chooser": crt_chooser(c).value, "dist": dist}


def text(fragment: str) -> str:
    return re.sub(r"<[^>]+>", "", fragment)


def check_agrees(built, ch):
    v, summary, detail = page(built, ch)
    e = engine(ch)
    if "error" in e:
        assert text(summary) == f"Not allowed by {e['error'].rule}: {e['error'].reason}.", ch
        assert detail == "<div class='wg-odds-steps'></div>", ch
        assert "picks the CRT" not in ic.render(v, ic.HINTS)
        assert v["final_index"] is None and v["p_def"] is None
        return
    right = sum(s.columns for s in e["shifts"] if s.player == "attacker")
    left = sum(s.columns for s in e["shifts"] if s.player == "defender")
    dist = e["dist"]
    p_def = dist.prob(lambda r: r in ("SK", "DD", "DR", "DE"))
    p_att = dist.prob(lambda r: r in ("AE", "AR", "AD"))
    assert (v["raw"], v["final"], v["chooser"]) == (e["raw"], e["final"], e["chooser"]), ch
    assert v["final_index"] == ic.column_labels().index(e["final"])
    assert (v["p_def"], v["p_att"]) == (float(p_def), float(p_att))
    assert summary == ("<div class='wg-summary'>" + ic.summary_text(e["raw"], right, left, e["final"], ch["table"],
                                                                    p_def, p_att) + "</div>"), ch
    for s in e["shifts"]:
        assert f"<code>{s.rule}</code> {s.reason}: {s.columns}" in detail, (ch, s)
    assert detail.count("<li>") == max(1, len(e["shifts"]))
    assert f"Final column: {e['final']}</b>" in detail and f"The <b>{e['chooser']}</b> player" in detail
    assert odds_html(dist, label=lambda r: f"{r}: {ic.RESULTS[r]}", order=sorted(dist, key=ic.ATTACKER_RANK.get),
                     caption=f"{ch['table']} CRT, column {e['final']} (reconstructed chart values)") in detail
    assert "Not allowed" not in summary
    assert f"The {e['chooser']} player picks the CRT (IC 13.31)" in ic.render(v, ic.HINTS)


@pytest.mark.rule("IC 13.2", "IC 13.21", "IC 13.22", "IC 13.31")
@pytest.mark.parametrize("change,expected", [
    ({}, "2/1"), ({"A": "6", "D": "10"}, "1/2"), ({"A": "8", "D": "2", "terrain": "mountain", "go": "1"}, "3/1"),
    ({"A": "10", "D": "1", "terrain": "mountain"}, "5/1"), ({"A": "9", "D": "3", "fortified": "1"}, "2/1")])
def test_widget_reproduces_the_printed_odds(built, change, expected):
    assert page(built, {**BASE, **change})[0]["final"] == expected


@pytest.mark.rule("IC 13.21", "IC 31.21")
def test_the_printed_example_button_sets_up_the_chapters_worked_example(built):
    from bokeh.models import Button
    v, summary, _ = page(built, ic.PRINTED)
    raw, final, _ = final_odds(Combat(Side.COMMUNIST, (8,), (2,), terrain="mountain", general_offensive=True))
    assert (v["raw"], v["final"]) == (raw, final) == ("4/1", "3/1")
    assert summary.startswith("<div class='wg-summary'>4/1 raw, 1 right shift, 2 left shifts, final column 3/1;")
    reset = [m for m in built[0].references() if isinstance(m, Button) and m.name == "ic-odds-reset"][0]
    (cb,) = reset.js_event_callbacks["button_click"]
    assert cb.args["printed"] == ic.PRINTED and set(cb.args["controls"]) == set(ic.PRINTED) == set(BASE)
    (restore,) = built[0].document.callbacks.js_event_callbacks["document_ready"]    # the URL-hash restore
    assert set(restore.args["controls"]) == set(BASE)


@pytest.mark.rule("IC 13.2", "IC 13.21", "IC 13.22", "IC 13.23", "IC 13.31", "IC 13.5")
def test_every_situation_agrees_with_the_engine(built):
    """All 1,728 situations (attacker, terrain, fortification, monsoon, GO, mode, commando, Light), each with
    seeded strengths, enhancements, reading and CRT."""
    rng = random.Random(13)
    n = 0
    for att, terr, fort, mon, go, mode, dc, light in product(
            ("Communist", "FEF"), ic.TERRAINS, "01", "01", "01", ic.MODES, "01", "01"):
        ch = {**BASE, "attacker": att, "terrain": terr, "fortified": fort, "monsoon": mon, "go": go, "mode": mode,
              "dc": dc, "light": light, "A": str(rng.randint(1, ic.MAX_STRENGTH)),
              "D": str(rng.randint(1, ic.MAX_STRENGTH)), "attack_enh": rng.choice("01"),
              "defence_enh": rng.choice("01"), "reading": rng.choice(("1/3", "3/1")),
              "table": rng.choice(("Mobile", "Assault"))}
        check_agrees(built, ch)
        n += 1
    assert n == 2 * 9 * 2 * 2 * 2 * 3 * 2 * 2


@pytest.mark.rule("IC 13.2", "IC 13.21", "IC 13.22")
def test_a_large_seeded_sample_of_states_agrees_with_the_engine(built):
    """Every control at random, 4,000 times (the full space has about 100 million states)."""
    rng = random.Random(2026)
    for _ in range(4000):
        ch = {"A": str(rng.randint(1, ic.MAX_STRENGTH)), "D": str(rng.randint(1, ic.MAX_STRENGTH)),
              "attacker": rng.choice(("Communist", "FEF")), "terrain": rng.choice(ic.TERRAINS),
              "mode": rng.choice(ic.MODES), "reading": rng.choice(("1/3", "3/1")),
              "table": rng.choice(("Mobile", "Assault")), **{f: rng.choice("01") for f in FLAGS}}
        check_agrees(built, ch)


@pytest.mark.rule("IC 13.22")
def test_every_strength_pair_agrees_on_the_final_column(built):
    for a, d, reading in product(range(1, ic.MAX_STRENGTH + 1), range(1, ic.MAX_STRENGTH + 1), ("1/3", "3/1")):
        ch = {**BASE, "A": str(a), "D": str(d), "reading": reading, "terrain": "mountain", "monsoon": "1"}
        raw, final, _ = final_odds(Combat(Side.COMMUNIST, (a,), (d,), terrain="mountain", monsoon=True),
                                   Readings(reading))
        v = page(built, ch)[0]
        assert (v["raw"], v["final"]) == (raw, final), ch


@pytest.mark.rule("IC 31.21", "IC 25.1", "IC 13.9")
@pytest.mark.parametrize("change,rule", [
    ({"attacker": "FEF", "go": "1"}, "IC 31.21"), ({"attacker": "FEF", "dc": "1", "fortified": "1"}, "IC 25.1"),
    ({"dc": "1"}, "IC 25.1"), ({"terrain": "all_sea"}, "IC 13.9"),
    ({"attacker": "FEF", "go": "1", "dc": "1", "terrain": "all_sea"}, "IC 13.9")])
def test_illegal_combinations_show_only_the_rule(built, change, rule):
    v, summary, detail = page(built, {**BASE, **change})
    assert text(summary).startswith(f"Not allowed by {rule}: ")
    assert "Final column" not in detail and "Strengths" not in detail and "raw" not in summary
    assert "{" not in summary + detail and "None" not in summary + detail


@pytest.mark.rule("IC 20.1", "IC 13.31")
def test_the_light_box_is_off_exactly_when_it_can_change_nothing(built):
    """Checked with the engine over every situation: for a Communist attacker the box changes no shift and no
    chooser, so the page greys it out and says why; for an FEF attacker it changes something."""
    def outcome(att, light, rest):
        try:
            c = ic._combat(att, *rest[:6], light=light)
            return [(s.rule, s.columns) for s in shifts(c)], crt_chooser(c)
        except RuleViolation as e:
            return e.rule
    for att in ("Communist", "FEF"):
        differs = any(outcome(att, True, rest) != outcome(att, False, rest) for rest in product(
            ic.TERRAINS, (False, True), (False, True), (False, True), ic.MODES, (False, True)))
        assert ic.light_matters(att) is differs
        hint = page(built, {**BASE, "attacker": att})[0]["light_hint"]
        assert bool(hint) is not differs
    assert not ic.light_matters("Communist") and ic.light_matters("FEF")
    layout = built[0]
    light = [m for m in layout.references() if getattr(m, "name", None) == "ic-light"][0]
    assert light.disabled        # the page opens with a Communist attacker
    assert "IC 20.1" in page(built, BASE)[0]["light_hint"]


def test_terrain_and_mode_options_read_as_words_with_the_engines_values(built):
    from bokeh.models import Select
    selects = {m.name: m for m in built[0].references() if isinstance(m, Select)}
    terrain = selects["ic-terrain"]
    assert [v for v, _ in terrain.options] == list(default_charts()[2])
    assert all("_" not in label for _, label in terrain.options)
    assert dict(terrain.options)["all_sea"] == "all sea (no attacks, IC 13.9)"
    assert [v for v, _ in selects["ic-mode"].options] == ic.MODES


def test_the_legend_decodes_every_code_either_chart_can_give():
    mobile, assault, _ = default_charts()
    codes = {t.lookup(i, r).value for t in (mobile, assault) for i in range(len(t.columns)) for r in t.rows}
    assert codes <= set(ic.LEGEND) and set(ic.LEGEND) == set(ic.RESULTS)
    block = ic.legend_block()
    for code, meaning in ic.LEGEND.items():
        assert f"<dt>{code}</dt><dd>{html.escape(meaning)}</dd>" in block and re.search(r"IC \d+\.\d", meaning)


def test_page_scripts_hold_no_rules():
    for script in (ic.MULTI_PIPELINE_JS, ic.LIGHT_JS):
        for word in ("7/1", "shift", "odds", "13.2", "Mobile", "FEF", "Communist"):
            assert word not in script


@pytest.mark.rule("IC 13.0")
def test_live_widget():
    w = OddsShiftsLive()
    assert "2/1" in w.out.value
    assert w.summary.value == "<div class='wg-summary'>2/1 raw, no shifts, final column 2/1; on the Mobile CRT " \
                              "defender hurt 67%, attacker hurt 17%</div>"
    w.terrain.value = "mountain"
    w.flags["general_offensive"].value = True
    w.A.value, w.D.value = 8, 2
    assert "3/1" in w.out.value and "IC 31.21" in w.out.value
    w.attacker.value = "FEF"
    assert w.out.value == "" and "Not allowed by IC 31.21" in w.summary.value


@pytest.mark.rule("IC 31.21", "IC 25.1", "IC 13.9", "IC 20.1")
def test_live_widget_says_what_the_static_page_says(built):
    w = OddsShiftsLive()
    for change in ({"attacker": "FEF", "go": "1"}, {"dc": "1"}, {"terrain": "all_sea", "go": "1"}):
        w.attacker.value = change.get("attacker", "Communist")
        w.terrain.value = change.get("terrain", "clear")
        w.flags["general_offensive"].value = change.get("go") == "1"
        w.flags["death_commando"].value = change.get("dc") == "1"
        static = page(built, {**BASE, **change})[1]
        assert w.summary.value == static and "Not allowed" in static
    w.attacker.value, w.flags["general_offensive"].value, w.flags["death_commando"].value = "FEF", False, False
    w.terrain.value = "clear"
    light = w.flags["attackers_all_light"]
    assert not light.disabled and w.hint.value == ""
    light.value = True
    w.attacker.value = "Communist"
    assert light.disabled and not light.value and "IC 20.1" in w.hint.value
