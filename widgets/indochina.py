"""The odds-shifts widget for Indochina land combat (IC 13.0).

- :func:`odds_shifts_static` precomputes, with the engine, every lookup the controls can need and wires them
  to :data:`widgets.common.PIPELINE_JS`, so the static book responds without Python;
- :class:`OddsShiftsLive` (ipywidgets) calls the engine directly in JupyterLab, for any strengths.
"""
from __future__ import annotations

import html
from fractions import Fraction
from itertools import product

from bokeh.layouts import column, row
from bokeh.models import Checkbox, ColumnDataSource, CustomJS, Div, Select, Slider
from bokeh.plotting import figure

from wargames.core import Resolution, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.indochina.charts import ATTACKER_RANK, RESULTS, default_charts
from wargames.indochina.combat import (Combat, Readings, Shift, Side, crt_chooser, final_column, raw_odds,
                                       roll_on_crt, shifts)

from .common import PIPELINE_JS, build_pipeline, fraction_text, odds_html, run_pipeline

MAX_STRENGTH = 30
TERRAINS = list(default_charts()[2])
MODES = ["normal", "overrun", "ambush"]
DEFENDER_HURT = ("SK", "DD", "DR", "DE")          # results that strike the defender only
ATTACKER_HURT = ("AE", "AR", "AD")                 # results that strike the attacker only


def column_labels() -> list[str]:
    return [c.label for c in default_charts()[0].columns]


def result_distribution(table: str, col: str):
    """Exact odds of every result on one column: the engine's CRT roll, run once per face of the die."""
    return enumerate_outcomes(lambda d: roll_on_crt(table, col, d)[1])


def _shift_parts(attacker: Side, terrain: str, fortified: bool, monsoon: bool, go: bool, mode: str, dc: bool,
                 light: bool) -> tuple[list[Shift] | None, str]:
    """The engine's shifts for one situation, or the rule it breaks."""
    try:
        return shifts(Combat(attacker, (1,), (1,), terrain=terrain, fortified=fortified, monsoon=monsoon,
                             general_offensive=go, mode=mode, death_commando=dc, attackers_all_light=light)), ""
    except RuleViolation as e:
        return None, f"{e.rule}: {e.reason}"


def _note(res: Resolution) -> str:
    """What the baseline, cap and table-edge steps did, in words that do not repeat the odds."""
    tags = []
    for step in res.steps:
        t = step.text
        if "above 7/1" in t:
            tags.append("starting odds above 7/1 start at 7/1 (IC 13.22)")
        elif "read literally" in t:
            tags.append("starting odds below 3/1 start at 3/1 (literal reading of IC 13.22)")
        elif "below the lowest column" in t:
            tags.append("starting odds below the table start at its lowest column (IC 13.22)")
        elif "capped" in t:
            tags.append("shifts capped at five per player (IC 13.21)")
        elif "nowhere to go" in t:
            tags.append("the table edge stops the shift (IC 13.21)")
    return "; ".join(tags).capitalize() + ("." if tags else "")


def _interned(name: str, inputs: list[str], table: dict) -> list:
    """Two stages instead of one: keys -> a short id, then id -> the (long, often repeated) text."""
    ids: dict[str, str] = {}
    short = {k: ids.setdefault(v, str(len(ids))) for k, v in table.items()}
    return [(f"{name}_id", inputs, short), (name, [f"{name}_id"], {i: v for v, i in ids.items()})]


def _stages():
    labels = column_labels()
    stages = []
    stages.append(("a_eff", ["A", "attack_enh"], {(a, e): a * (2 if e else 1)
                                                  for a in range(1, MAX_STRENGTH + 1) for e in (0, 1)}))
    stages.append(("d_eff", ["D", "defence_enh"], {(d, e): d * (2 if e else 1)
                                                   for d in range(1, MAX_STRENGTH + 1) for e in (0, 1)}))
    effs = range(1, 2 * MAX_STRENGTH + 1)
    stages.append(("raw", ["a_eff", "d_eff"], {(a, d): raw_odds(a, d)[0] for a in effs for d in effs}))
    # Shifts: one table per situation, with the engine's own list of shifts and their rules.
    lines, sums, errors = {}, {}, {}
    for att, terr, fort, mon, go, mode, dc, light in product(
            ("Communist", "FEF"), TERRAINS, (0, 1), (0, 1), (0, 1), MODES, (0, 1), (0, 1)):
        key = (att, terr, fort, mon, go, mode, dc, light)
        found, err = _shift_parts(Side(att), terr, bool(fort), bool(mon), bool(go), mode, bool(dc), bool(light))
        errors[key] = err
        if found is None:
            continue
        right = sum(s.columns for s in found if s.player == "attacker")
        left = sum(s.columns for s in found if s.player == "defender")
        sums[key] = f"{right},{left}"
        lines[key] = "".join(f"<li><code>{s.rule}</code> {html.escape(s.reason)}: {s.columns} "
                             f"{'right' if s.player == 'attacker' else 'left'}</li>" for s in found) or "<li>no shifts</li>"
    situation = ["attacker", "terrain", "fortified", "monsoon", "go", "mode", "dc", "light"]
    stages.append(("shift_sums", situation, sums))
    stages += _interned("shift_lines", situation, lines)
    stages += _interned("error", situation, {k: v for k, v in errors.items() if v})
    # Baseline, caps, netting and the table edge: the engine's final_column, for every raw column and sum.
    raws = sorted({v for v in stages[2][2].values()}, key=lambda l: Fraction(*map(int, l.split("/"))))
    mobile = default_charts()[0]
    finals, notes, index = {}, {}, {}
    for raw_label, r, l, reading in product(raws, range(0, 3), range(0, 7), ("1/3", "3/1")):
        res = Resolution()
        sh = ([Shift("attacker", r, "-", "right")] if r else []) + ([Shift("defender", l, "-", "left")] if l else [])
        col = final_column(raw_label, sh, mobile, res, Readings(reading))
        key = (raw_label, f"{r},{l}", reading)
        finals[key] = labels[col]
        index[key] = col
        notes[key] = _note(res)
    stages.append(("final", ["raw", "shift_sums", "reading"], finals))
    stages.append(("final_index", ["raw", "shift_sums", "reading"], index))
    stages += _interned("final_note", ["raw", "shift_sums", "reading"], {k: v for k, v in notes.items() if v})
    chooser = {}
    for att, fort, light in product(("Communist", "FEF"), (0, 1), (0, 1)):
        c = Combat(Side(att), (1,), (1,), fortified=bool(fort), attackers_all_light=bool(light))
        chooser[(att, fort, light)] = crt_chooser(c).value
    stages.append(("chooser", ["attacker", "fortified", "light"], chooser))
    odds, p_def, p_att = {}, {}, {}
    for table, lab in product(("Mobile", "Assault"), labels):
        dist = result_distribution(table, lab)
        order = sorted(dist, key=lambda r: ATTACKER_RANK[r])
        odds[(table, lab)] = odds_html(dist, label=lambda r: f"{r}: {RESULTS[r]}", order=order,
                                       caption=f"{table} CRT, column {lab} (reconstructed chart values)")
        p_def[(table, lab)] = float(dist.prob(lambda r: r in DEFENDER_HURT))
        p_att[(table, lab)] = float(dist.prob(lambda r: r in ATTACKER_HURT))
    stages.append(("odds", ["table", "final"], odds))
    stages.append(("p_def", ["table", "final"], p_def))
    stages.append(("p_att", ["table", "final"], p_att))
    return stages


TEMPLATE = """
<div class="wg-odds-steps">
<p><b>Strengths</b> (IC 13.2, 13.23): {a_eff} against {d_eff}: raw odds <b>{raw}</b>.</p>
<p><b>Shifts</b> (IC 13.21):</p><ul>{shift_lines}</ul>
<p style="color:#a00">{error}</p>
<p>{final_note}</p>
<p><b>Final column: {final}</b>. The <b>{chooser}</b> player picks the CRT (IC 13.31); showing the {table} CRT.</p>
{odds}
</div>
"""


def odds_shifts_static(width: int = 700):
    """A bokeh layout with the controls, the step-by-step odds and two plots; responsive without Python."""
    pipeline = build_pipeline(_stages())
    labels = column_labels()
    controls = {
        "A": Slider(title="Attacker strength", start=1, end=MAX_STRENGTH, value=14, step=1, name="ic-A"),
        "D": Slider(title="Defender strength", start=1, end=MAX_STRENGTH, value=5, step=1, name="ic-D"),
        "attack_enh": Checkbox(label="Attack Enhancement (x2)", active=False),
        "defence_enh": Checkbox(label="Defense Enhancement (x2)", active=False),
        "attacker": Select(title="Attacker", value="Communist", options=["Communist", "FEF"], name="ic-attacker"),
        "terrain": Select(title="Defender's terrain (reconstructed shifts)", value="clear", options=TERRAINS,
                          name="ic-terrain"),
        "fortified": Checkbox(label="Fortification", active=False),
        "monsoon": Checkbox(label="Monsoon turn", active=False),
        "go": Checkbox(label="General Offensive turn", active=False),
        "mode": Select(title="Kind of combat", value="normal", options=MODES, name="ic-mode"),
        "dc": Checkbox(label="Death Commando", active=False),
        "light": Checkbox(label="All attackers FEF Light class", active=False),
        "reading": Select(title="Reading of 13.22's lower baseline", value="1/3",
                          options=[("1/3", "ours: start no lower than 1/3"), ("3/1", "literal: start no lower than 3/1")]),
        "table": Select(title="CRT", value="Mobile", options=["Mobile", "Assault"], name="ic-table"),
    }
    first = run_pipeline(pipeline, {k: (str(int(w.active)) if isinstance(w, Checkbox) else str(w.value))
                                    for k, w in controls.items()})
    out = Div(text=TEMPLATE.format(**{k: ("" if v is None else v) for k, v in first.items()}), width=width,
              name="ic-odds-out")
    src = ColumnDataSource({"a": [], "col": [], "p_def": [], "p_att": []})
    p1 = figure(height=230, width=width, title="Final column as attacker strength rises (the step function)",
                y_range=(-0.5, len(labels) - 0.5), x_axis_label="attacker strength", toolbar_location=None,
                name="ic-columns")
    p1.step(x="a", y="col", source=src, mode="center", line_width=2.5, color="#0072B2")
    p1.scatter(x="a", y="col", source=src, size=5, color="#0072B2")
    p1.yaxis.ticker = list(range(len(labels)))
    p1.yaxis.major_label_overrides = {i: lab for i, lab in enumerate(labels)}
    p2 = figure(height=230, width=width, title="Chance of a result that hurts only the defender / only the attacker",
                y_range=(0, 1), x_axis_label="attacker strength", toolbar_location=None, name="ic-probs")
    p2.step(x="a", y="p_def", source=src, mode="center", line_width=2.5, color="#009E73",
            legend_label="defender hurt (SK, DD, DR, DE)")
    p2.step(x="a", y="p_att", source=src, mode="center", line_width=2.5, color="#D55E00", line_dash="dashed",
            legend_label="attacker hurt (AE, AR, AD)")
    p2.legend.location = "center_right"
    sweep = {"control": "A", "values": list(range(1, MAX_STRENGTH + 1)), "source": src, "x": "a",
             "ys": {"col": "final_index", "p_def": "p_def", "p_att": "p_att"}}
    cb = CustomJS(args={"pipeline": pipeline, "controls": controls, "out": out, "template": TEMPLATE,
                        "sweep": sweep}, code=PIPELINE_JS)
    for w in controls.values():
        w.js_on_change("active" if isinstance(w, Checkbox) else "value", cb)
    # First render of the plots, from the same tables.
    xs = list(range(1, MAX_STRENGTH + 1))
    vals = [run_pipeline(pipeline, {**{k: (str(int(w.active)) if isinstance(w, Checkbox) else str(w.value))
                                       for k, w in controls.items()}, "A": str(a)}) for a in xs]
    src.data = {"a": xs, "col": [v["final_index"] for v in vals], "p_def": [v["p_def"] for v in vals],
                "p_att": [v["p_att"] for v in vals]}
    c = controls
    layout = column(row(c["A"], c["D"]), row(c["attack_enh"], c["defence_enh"], c["fortified"], c["monsoon"]),
                    row(c["go"], c["dc"], c["light"]), row(c["attacker"], c["terrain"], c["mode"]),
                    row(c["reading"], c["table"]), out, p1, p2, name="ic-odds-widget")
    return layout, pipeline


class OddsShiftsLive:
    """ipywidgets version: any strengths, the engine's full Resolution, exact odds."""

    def __init__(self):
        import ipywidgets as w
        self.w = w
        self.A = w.BoundedIntText(value=14, min=1, max=999, description="attack")
        self.D = w.BoundedIntText(value=5, min=1, max=999, description="defence")
        self.flags = {name: w.Checkbox(value=False, description=name) for name in
                      ("attack_enhanced", "defence_enhanced", "fortified", "monsoon", "general_offensive",
                       "death_commando", "attackers_all_light")}
        self.attacker = w.Dropdown(options=["Communist", "FEF"], description="attacker")
        self.terrain = w.Dropdown(options=TERRAINS, description="terrain")
        self.mode = w.Dropdown(options=MODES, description="combat")
        self.table = w.Dropdown(options=["Mobile", "Assault"], description="CRT")
        self.out = w.HTML()
        for c in [self.A, self.D, *self.flags.values(), self.attacker, self.terrain, self.mode, self.table]:
            c.observe(lambda _ch: self.update(), names="value")
        self.update()

    def combat(self) -> Combat:
        return Combat(Side(self.attacker.value), (self.A.value,), (self.D.value,), terrain=self.terrain.value,
                      mode=self.mode.value, **{k: v.value for k, v in self.flags.items()})

    def update(self) -> str:
        from wargames.indochina.combat import final_odds
        from .common import resolution_html
        try:
            c = self.combat()
            raw, final, res = final_odds(c)
            dist = result_distribution(self.table.value, final)
            self.out.value = (resolution_html(res, f"{raw} -> {final}")
                              + f"<p>The {crt_chooser(c).value} player picks the CRT (IC 13.31).</p>"
                              + odds_html(dist, label=lambda r: f"{r}: {RESULTS[r]}"))
        except RuleViolation as e:
            self.out.value = f"<p style='color:#a00'><b>{e.rule}</b>: {html.escape(e.reason)}</p>"
        return self.out.value

    def widget(self):
        w = self.w
        return w.VBox([w.HBox([self.A, self.D, self.attacker]), w.HBox([self.terrain, self.mode, self.table]),
                       w.HBox(list(self.flags.values())[:4]), w.HBox(list(self.flags.values())[4:]), self.out])
