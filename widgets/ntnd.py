"""The combat-grid widget for No Trumpets No Drums (NT 19.2): the printed battle, its 36 rolls and exact odds.

The battle is the rulebook's 19.2 example (four Allied units attack an NVA division and a VC regiment in a city
on a swamp hex). The reader toggles what feeds the two morale totals (the ground-support fighters, the Communist
artillery, the firebase, the fleet, the patrol boat, the defender's terrain) and picks the two dice; the page
shows the engine's steps, the 6 x 6 grid of results with the exact odds, and the result of the chosen roll.

- :func:`combat_grid_static` runs :func:`wargames.ntnd.combat.resolve` at build time for every setting and
  every roll, stores the answers as lookup tables (:func:`widgets.common.build_pipeline`) and wires them to
  :data:`widgets.common.PIPELINE_JS`: the page only joins keys and looks them up, it knows no rule;
- :class:`CombatGridLive` (ipywidgets) calls the same engine on every change in JupyterLab.
"""
from __future__ import annotations

import html
import re
from fractions import Fraction
from itertools import product

from wargames.core import Distribution, ScriptedDice
from wargames.ntnd.combat import (Adjustment, Battle, Engaged, Hex, Support, combat_odds, num, resolve,
                                  verdict)

from .common import PIPELINE_JS, build_pipeline, odds_html, resolution_html, run_pipeline

NAME = "nt-combat"
TERRAINS = ["clear", "jungle", "swamp", "mountain"]
#: The controls and their values, as the page reads them (a Checkbox reads "1" or "0").
CHOICES = {"fighters": ["0", "1", "2"], "artillery": ["0", "1", "2"], "firebase": ["0", "1"],
           "fleet": ["0", "1"], "boat": ["0", "1"], "terrain": TERRAINS, "city": ["0", "1"],
           "a_die": [str(i) for i in range(1, 7)], "c_die": [str(i) for i in range(1, 7)]}
ALLIED_KEYS = ["firebase", "fleet", "boat"]
COMMUNIST_KEYS = ["fighters", "artillery", "terrain", "city"]
PRINTED = {"fighters": "2", "artillery": "2", "firebase": "1", "fleet": "1", "boat": "1", "terrain": "swamp",
           "city": "1", "a_die": "3", "c_die": "2"}
GS = Adjustment(-1, "NT 11.1.2", "ground support")
OUTCOME_WORDS = {("allied", False): "Allied win", ("allied", True): "Allied win at twice",
                 ("communist", False): "Communist win", ("communist", True): "Communist win at twice",
                 (None, False): "tie"}
CELL = {("allied", False): ("A", "#cfe3ff"), ("allied", True): ("A2", "#7fb2f0"),
        ("communist", False): ("C", "#ffd9c2"), ("communist", True): ("C2", "#f49a6c"), (None, False): ("=", "#e8e8e8")}
#: One style block for every grid (the cells carry only a class), sent with each grid's page fragment.
GRID_CSS = ("<style>.wg-grid td{color:#000;text-align:center;min-width:2em}"
            + "".join(f".wg-grid td.g-{code.replace('=', 't')}{{background:{colour}}}" for code, colour in CELL.values())
            + "</style>")
LEGEND = ("A: the Allies win (the Communist side loses one ground combat unit, the rest retreat); A2: they win "
          "with twice the total or more (two units lost); C and C2 the same for the Communist side; =: a tie "
          "(one unit lost each, retreats optional, the defender deciding first).")


def battle(c: dict) -> Battle:
    """The printed battle with the reader's settings (``c`` maps each control to its text value)."""
    n = int(c["fighters"])
    nva = Engaged("NVA division", "division", "NVA", 4, (GS,) if n >= 1 else ())
    vc = Engaged("VC regiment", "regiment", "VC", 3, (GS,) if n >= 2 else ())
    art = int(c["artillery"])
    defenders = (nva, vc) + ((Engaged("artillery 1", "artillery", "NVA", 1),) if art >= 1 else ())
    support = tuple(s for s, on in (
        (Support("artillery 1", "artillery", 0), art >= 1),
        (Support("artillery 2", "artillery", 1), art >= 2),
        (Support("firebase", "firebase", 2), c["firebase"] == "1"),
        (Support("fleet", "fleet", 2), c["fleet"] == "1"),
        (Support("patrol boat", "patrol_boat", 1), c["boat"] == "1")) if on)
    allied = (Engaged("USMC brigade", "marine", "US", 4), Engaged("ARVN division 1", "infantry", "SVN", 2),
              Engaged("ARVN division 2", "infantry", "SVN", 2), Engaged("ARVN armour", "armor", "SVN", 3))
    return Battle("allied", allied, defenders, support,
                  Hex(c["terrain"], {"city"} if c["city"] == "1" else set()))


def steps_html(steps) -> str:
    return "".join(f"<li><code>{html.escape(s.rule)}</code> {html.escape(s.text)}"
                   + (f" <span class='wg-arith'>[{html.escape(s.arithmetic)}]</span>" if s.arithmetic else "")
                   + "</li>" for s in steps)


def grid_html(results: dict[tuple[int, int], tuple], caption: str) -> str:
    """The 6 x 6 grid: the Allied die down, the Communist die across, each cell the engine's verdict."""
    head = "".join(f"<th scope='col'>{c}</th>" for c in range(1, 7))
    rows = []
    for a in range(1, 7):
        cells = []
        for c in range(1, 7):
            code = CELL[results[(a, c)]][0]
            cells.append(f"<td class='g-{code.replace('=', 't')}' "
                         f"title='{html.escape(OUTCOME_WORDS[results[(a, c)]])}'>{code}</td>")
        rows.append(f"<tr><th scope='row'>{a}</th>{''.join(cells)}</tr>")
    return (f"{GRID_CSS}<table class='wg-grid'><caption>{html.escape(caption)}</caption><thead><tr><th>Allied die \\ "
            f"Communist die</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def odds_block(dist: Distribution) -> str:
    order = [k for k in OUTCOME_WORDS if k in dist]
    return odds_html(dist, label=lambda k: OUTCOME_WORDS[k], order=order, caption="Exact odds over the 36 rolls")


def play(c: dict):
    with ScriptedDice([int(c["a_die"]), int(c["c_die"])]) as d:
        return resolve(battle(c), d)


def split(res):
    """The engine's steps in four groups: Allied morale, Communist morale, the two rolls, the outcome."""
    rolls = {s.inputs["side"]: s for s in res.steps if "roll" in s.inputs}
    first = min(res.steps.index(r) for r in rolls.values())
    pre = res.steps[:first]
    allied = [s for s in pre if s.inputs.get("side") == "allied"]
    comm = [s for s in pre if s.inputs.get("side") == "communist"]
    if len(allied) + len(comm) + 1 != len(pre):        # every step before the dice but the totals has a side
        raise ValueError("a step before the dice belongs to neither side")
    after = [s for s in res.steps[first:] if "roll" not in s.inputs]
    return allied, comm, rolls, after


class _Table(dict):
    """A lookup table that refuses two different answers for one key (the engine must agree with itself)."""

    def put(self, key, value):
        if key in self and self[key] != value:
            raise ValueError(f"lookup key {key!r} has two answers: {self[key]!r} and {value!r}")
        self[key] = value


def stages():
    """Every lookup the page needs, filled by the engine over every setting and roll."""
    t = {name: _Table() for name in ("allied_steps", "allied_total", "comm_steps", "comm_total", "grid", "odds",
                                     "odds_line", "a_final", "c_final", "a_roll", "c_roll", "outcome", "verdict",
                                     "p_result")}
    for values in product(*(CHOICES[k] for k in ALLIED_KEYS + COMMUNIST_KEYS)):
        c = dict(zip(ALLIED_KEYS + COMMUNIST_KEYS, values))
        results = {}
        for a, d in product(range(1, 7), repeat=2):
            res = play({**c, "a_die": str(a), "c_die": str(d)})
            results[(a, d)] = verdict(res.result)
            allied, comm, rolls, after = split(res)
            totals = res.find("NT 19.2")[-1].result
            at, ct = num(totals["allied"]), num(totals["communist"])
            ak, ck = tuple(c[k] for k in ALLIED_KEYS), tuple(c[k] for k in COMMUNIST_KEYS)
            t["allied_steps"].put(ak, steps_html(allied))
            t["comm_steps"].put(ck, steps_html(comm))
            t["allied_total"].put(ak, at)
            t["comm_total"].put(ck, ct)
            af, cf = num(rolls["allied"].result), num(rolls["communist"].result)
            t["a_final"].put((at, str(a)), af)
            t["c_final"].put((ct, str(d)), cf)
            t["a_roll"].put((at, str(a)), steps_html([rolls["allied"]]))
            t["c_roll"].put((ct, str(d)), steps_html([rolls["communist"]]))
            t["outcome"].put((af, cf), steps_html(after))
            t["verdict"].put((af, cf), OUTCOME_WORDS[verdict(res.result)])
        dist = Distribution({k: Fraction(sum(1 for v in results.values() if v == k), 36) for k in set(results.values())})
        t["grid"].put((at, ct), grid_html(results, f"Allied {at} against Communist {ct} before the dice"))
        t["odds"].put((at, ct), odds_block(dist))
        t["odds_line"].put((at, ct), odds_line(dist))
        for i, k in enumerate(OUTCOME_WORDS):
            t["p_result"].put((at, ct, str(i)), float(dist[k]) if k in dist else 0.0)
    return [("allied_steps", ALLIED_KEYS, t["allied_steps"]), ("allied_total", ALLIED_KEYS, t["allied_total"]),
            ("comm_steps", COMMUNIST_KEYS, t["comm_steps"]), ("comm_total", COMMUNIST_KEYS, t["comm_total"]),
            ("a_final", ["allied_total", "a_die"], t["a_final"]), ("c_final", ["comm_total", "c_die"], t["c_final"]),
            ("a_roll", ["allied_total", "a_die"], t["a_roll"]), ("c_roll", ["comm_total", "c_die"], t["c_roll"]),
            ("outcome", ["a_final", "c_final"], t["outcome"]), ("verdict", ["a_final", "c_final"], t["verdict"]),
            ("grid", ["allied_total", "comm_total"], t["grid"]), ("odds", ["allied_total", "comm_total"], t["odds"]),
            ("odds_line", ["allied_total", "comm_total"], t["odds_line"]),
            ("p_result", ["allied_total", "comm_total", RESULT], t["p_result"])]


def odds_line(dist: Distribution) -> str:
    """Each possible outcome's chance counted in rolls out of 36 (15/36, as the rules' readers count it)."""
    return "; ".join(f"{OUTCOME_WORDS[k]} {dist[k] * 36}/36" for k in OUTCOME_WORDS if k in dist)


SUMMARY = ("<div class='wg-summary'>Allied {a_final} against Communist {c_final}: <b>{verdict}</b>. "
           "Over all 36 rolls: {odds_line}.</div>")
DETAIL = ("<p><b>Allied morale</b></p><ol class='wg-steps'>{allied_steps}</ol>"
          "<p><b>Communist morale</b></p><ol class='wg-steps'>{comm_steps}</ol>"
          "<p><b>Before the dice</b>: Allied {allied_total}, Communist {comm_total}.</p>"
          "<ol class='wg-steps'>{a_roll}{c_roll}{outcome}</ol>" + "<style>.wg-grid tbody tr:nth-child({a_die}) "
          "td:nth-of-type({c_die}){outline:3px solid #000;outline-offset:-3px;font-weight:700}</style>"
          "{grid}<p class='wg-legend'>" + html.escape(LEGEND)
          + "</p>{odds}")
#: Not a control: the odds chart sweeps it over the outcomes' indexes in OUTCOME_WORDS.
RESULT = "result_index"
SLOT = re.compile(r"\{(\w+)\}")


def render(values: dict, template: str) -> str:
    """The Python twin of PIPELINE_JS's template step."""
    return SLOT.sub(lambda m: "" if values.get(m.group(1)) is None else str(values[m.group(1)]), template)


MULTI_PIPELINE_JS = ("for (const target of targets) {\n  const out = target[0], template = target[1], "
                     "sweep = target[2];\n" + PIPELINE_JS + "\n}\n")


def page_controls(controls: dict) -> dict[str, str]:
    from bokeh.models import Checkbox
    return {k: (str(int(w.active)) if isinstance(w, Checkbox) else str(w.value)) for k, w in controls.items()}


def combat_grid_static():
    """The bokeh layout of the static page and its pipeline (for checks): responsive without Python."""
    from bokeh.layouts import row
    from bokeh.models import Checkbox, CustomJS, Div, Select

    from .layout import CONTROL_WIDTH, map_widget, reset_button, roll_button, summary_div, url_state
    pipeline = build_pipeline(stages())
    cw = CONTROL_WIDTH
    controls = {
        "fighters": Select(title="Ground support flown (NT 11.1.2)", value="2",
                           options=[("0", "none"), ("1", "one (on the NVA division)"), ("2", "two (one on each unit)")],
                           width=cw),
        "artillery": Select(title="Communist artillery (NT 19.2.2)", value="2", width=cw,
                            options=[("0", "none"), ("1", "one, stacked"), ("2", "one stacked, one adjacent")]),
        "firebase": Checkbox(label="Allied firebase within 2 hexes", active=True),
        "fleet": Checkbox(label="US fleet within 2 hexes", active=True),
        "boat": Checkbox(label="Patrol boat adjacent", active=True),
        "terrain": Select(title="Defender's terrain (NT 19.2.3)", value="swamp", options=TERRAINS, width=cw),
        "city": Checkbox(label="Major city in the defender's hex", active=True),
        "a_die": Select(title="Allied die", value="3", options=CHOICES["a_die"], width=cw // 2 - 8),
        "c_die": Select(title="Communist die", value="2", options=CHOICES["c_die"], width=cw // 2 - 8),
    }
    first = run_pipeline(pipeline, page_controls(controls))
    summary = summary_div(NAME, render(first, SUMMARY))
    out = Div(text=render(first, DETAIL), name=f"{NAME}-out", sizing_mode="stretch_width")
    fig, sweep = odds_chart(pipeline, page_controls(controls))
    update = CustomJS(args={"pipeline": pipeline, "controls": controls,
                            "targets": [[summary, SUMMARY, None], [out, DETAIL, sweep]]}, code=MULTI_PIPELINE_JS)
    for w in controls.values():
        w.js_on_change("active" if isinstance(w, Checkbox) else "value", update)
    side = [w for k, w in controls.items() if k not in ("a_die", "c_die")]
    side.append(row(controls["a_die"], controls["c_die"], width=cw))
    layout = map_widget(NAME, controls=side, fig=fig, summary=summary, details=[out],
                        buttons=[reset_button(NAME, controls, PRINTED),
                                 roll_button(NAME, [controls["a_die"], controls["c_die"]])])
    url_state(NAME, controls, layout)
    return layout, pipeline


def odds_chart(pipeline: list[dict], controls: dict[str, str]):
    """A bar chart of the exact chance of each outcome over the 36 rolls, and the sweep that refills it."""
    from bokeh.models import ColumnDataSource
    from bokeh.plotting import figure

    from .layout import aria_map
    xs = list(range(len(OUTCOME_WORDS)))
    ps = [run_pipeline(pipeline, {**controls, RESULT: str(i)})["p_result"] for i in xs]
    src = ColumnDataSource({"k": xs, "p": ps})
    fig = figure(height=220, width=420, y_range=(0, 1), x_range=(-0.6, len(xs) - 0.4), toolbar_location=None,
                 title="Chance of each result over the 36 rolls", y_axis_label="chance", name=f"{NAME}-odds")
    fig.vbar(x="k", top="p", width=0.7, source=src, color="#0072B2")
    fig.xaxis.ticker = xs
    fig.xaxis.major_label_overrides = {i: f"{CELL[k][0]}: {w}" for i, (k, w) in enumerate(OUTCOME_WORDS.items())}
    fig.xaxis.major_label_orientation = 0.5
    fig.title.text_font_size = "14px"
    aria_map(fig, "Bar chart of the exact chance of each combat result (Allied win, Allied win at twice, "
                  "Communist win, Communist win at twice, tie) over the 36 rolls of the two dice, for the chosen "
                  "settings; the line above it gives the same chances in rolls out of 36.")
    sweep = {"control": RESULT, "values": xs, "source": src, "x": "k", "ys": {"p": "p_result"}}
    return fig, sweep


class CombatGridLive:
    """ipywidgets version: the same controls, the engine's full resolution, the grid and the exact odds."""

    def __init__(self):
        import ipywidgets as w
        self.w = w
        self.controls = {
            "fighters": w.Dropdown(options=[("none", "0"), ("one", "1"), ("two", "2")], value="2",
                                   description="fighters"),
            "artillery": w.Dropdown(options=[("none", "0"), ("stacked", "1"), ("stacked + adjacent", "2")],
                                    value="2", description="artillery"),
            "firebase": w.Checkbox(value=True, description="firebase"),
            "fleet": w.Checkbox(value=True, description="fleet"),
            "boat": w.Checkbox(value=True, description="patrol boat"),
            "terrain": w.Dropdown(options=TERRAINS, value="swamp", description="terrain"),
            "city": w.Checkbox(value=True, description="major city"),
            "a_die": w.Dropdown(options=CHOICES["a_die"], value="3", description="Allied die"),
            "c_die": w.Dropdown(options=CHOICES["c_die"], value="2", description="Comm. die"),
        }
        self.summary = w.HTML()
        self.out = w.HTML()
        for c in self.controls.values():
            c.observe(lambda _ch: self.update(), names="value")
        self.update()

    def values(self) -> dict[str, str]:
        return {k: (("1" if v.value else "0") if isinstance(v, self.w.Checkbox) else v.value)
                for k, v in self.controls.items()}

    def update(self) -> str:
        c = self.values()
        res = play(c)
        b = battle(c)
        dist = combat_odds(b)
        results = {}
        for a, d in product(range(1, 7), repeat=2):
            results[(a, d)] = verdict(play({**c, "a_die": str(a), "c_die": str(d)}).result)
        totals = res.find("NT 19.2")[-1].result
        r = res.result
        self.summary.value = render({"a_final": num(r.of("allied").total), "c_final": num(r.of("communist").total),
                                     "verdict": OUTCOME_WORDS[verdict(r)], "odds_line": odds_line(dist)}, SUMMARY)
        mark = render(c, "<style>.wg-grid tbody tr:nth-child({a_die}) td:nth-of-type({c_die}){outline:3px solid #000;"
                         "outline-offset:-3px;font-weight:700}</style>")
        self.out.value = (resolution_html(res) + mark + grid_html(results, f"Allied {num(totals['allied'])} against "
                                                                    f"Communist {num(totals['communist'])} before the dice")
                          + f"<p>{html.escape(LEGEND)}</p>" + odds_block(dist))
        return self.out.value

    def widget(self):
        w, c = self.w, self.controls
        return w.VBox([w.HBox([c["fighters"], c["artillery"], c["terrain"]]),
                       w.HBox([c["firebase"], c["fleet"], c["boat"], c["city"]]),
                       w.HBox([c["a_die"], c["c_die"]]), self.summary, self.out])
