"""The odds-shifts widget for Indochina land combat (IC 13.0).

- :func:`odds_shifts_static` precomputes, with the engine, every lookup the controls can need and wires them
  to :data:`widgets.common.PIPELINE_JS`, so the static book responds without Python. Text that only makes
  sense for a legal combination is gated (:func:`gated`), so an illegal one shows its rule and nothing else;
- :class:`OddsShiftsLive` (ipywidgets) calls the engine directly in JupyterLab, for any strengths.
"""
from __future__ import annotations

import html
import re
from fractions import Fraction
from itertools import product

from wargames.core import Resolution, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.indochina.charts import ATTACKER_RANK, RESULTS, default_charts
from wargames.indochina.combat import (Combat, Readings, Shift, Side, crt_chooser, final_column, raw_odds,
                                       roll_on_crt, shifts)
from wargames.viz.optional import bokeh_name, bokeh_names

from .common import PIPELINE_JS, build_pipeline, odds_html, run_pipeline

(Checkbox, ColumnDataSource, CustomJS, Div, Select, Slider) = bokeh_names(
    "bokeh.models", "Checkbox", "ColumnDataSource", "CustomJS", "Div", "Select", "Slider")
figure = bokeh_name("bokeh.plotting", "figure")

MAX_STRENGTH = 30
MOBILE, _, TEC = default_charts()        # the widget's own copy of the shipped charts, read once
TERRAINS = list(TEC)
MODES = ["normal", "overrun", "ambush"]
DEFENDER_HURT = ("SK", "DD", "DR", "DE")          # results that strike the defender only
ATTACKER_HURT = ("AE", "AR", "AD")                 # results that strike the attacker only
MODE_LABELS = {"normal": "normal attack", "overrun": "overrun (IC 27.3)", "ambush": "ambush (IC 28.2)"}

# Every code the two CRTs can give, in our words, with the rules that govern it (IC 13.5 lists the results;
# disruption is IC 14, retreat IC 13.62, advance IC 13.61). The attacker results are reconstructed.
LEGEND = {
    "DE": "every defending unit is eliminated; the attacker may advance into the hex (IC 13.5, IC 13.61)",
    "DR": "every defending unit is disrupted (IC 14.2) and retreats one hex (IC 13.62); the attacker may advance "
          "(IC 13.61)",
    "DD": "every defending unit is disrupted and stays put (IC 13.5, IC 14.2); an FEF force defending a "
          "fortification may take BB instead (IC 16.3)",
    "SK": "the defender picks one of its units to disrupt (IC 13.5, IC 14.2)",
    "BB": "each side disrupts one of its own units, chosen by its owner (IC 13.5, IC 14.2)",
    "NE": "nothing happens to either side (IC 13.5)",
    "AD": "the attacker picks one of its units to disrupt (IC 13.5, reconstructed)",
    "AR": "every attacking unit is disrupted and retreats one hex (IC 13.5, IC 13.62, reconstructed)",
    "AE": "the attacker loses one unit of its choice and the others are disrupted (IC 13.5, reconstructed)",
}


def terrain_label(name: str) -> str:
    """A reader's name for a TEC entry; hexes no attack may enter say so (IC 13.9)."""
    t = TEC[name]
    words = name.replace("_", " ")
    return f"{words} (no attacks, IC 13.9)" if t.heavy is None and t.light is None else words


def column_labels() -> list[str]:
    return [c.label for c in MOBILE.columns]


def result_distribution(table: str, col: str):
    """Exact odds of every result on one column: the engine's CRT roll, run once per face of the die."""
    return enumerate_outcomes(lambda d: roll_on_crt(table, col, d)[1])


def _combat(attacker: str, terrain: str, fortified: bool, monsoon: bool, go: bool, mode: str, dc: bool,
            light: bool, a: int = 1, d: int = 1, attack_enh: bool = False, defence_enh: bool = False) -> Combat:
    return Combat(Side(attacker), (a,), (d,), attack_enhanced=attack_enh, defence_enhanced=defence_enh,
                  terrain=terrain, fortified=fortified, monsoon=monsoon, general_offensive=go, mode=mode,
                  death_commando=dc, attackers_all_light=light)


def _shift_parts(attacker: str, terrain: str, fortified: bool, monsoon: bool, go: bool, mode: str, dc: bool,
                 light: bool) -> tuple[list[Shift] | None, RuleViolation | None]:
    """The engine's shifts for one situation, or the rule it breaks."""
    try:
        return shifts(_combat(attacker, terrain, fortified, monsoon, go, mode, dc, light)), None
    except RuleViolation as e:
        return None, e


def illegal_html(e: RuleViolation) -> str:
    """What an illegal combination shows, in the static page and the live widget alike: the rule and why."""
    return (f"<p class='wg-error' role='alert'><b>Not allowed by {html.escape(e.rule)}</b>: "
            f"{html.escape(e.reason)}.</p>")


def shift_words(right: int, left: int) -> str:
    parts = [f"{n} {side} shift{'s' if n > 1 else ''}" for n, side in ((right, "right"), (left, "left")) if n]
    return ", ".join(parts) or "no shifts"


def hurt_words(table: str, p_def: Fraction, p_att: Fraction) -> str:
    return f"on the {table} CRT defender hurt {float(p_def):.0%}, attacker hurt {float(p_att):.0%}"


def summary_text(raw: str, right: int, left: int, final: str, table: str, p_def: Fraction, p_att: Fraction) -> str:
    """The one-line result: raw odds, shift totals, final column and the chance each side is hurt."""
    return f"{raw} raw, {shift_words(right, left)}, final column {final}; {hurt_words(table, p_def, p_att)}"


def light_matters(attacker: str) -> bool:
    """Whether "all attackers FEF Light" can change anything (a shift or the CRT chooser) for this attacker."""
    for terr, fort in product(TERRAINS, (False, True)):
        on, off = (_shift_parts(attacker, terr, fort, False, False, "normal", False, light)[0]
                   for light in (True, False))
        if on != off or (crt_chooser(_combat(attacker, terr, fort, False, False, "normal", False, True))
                         is not crt_chooser(_combat(attacker, terr, fort, False, False, "normal", False, False))):
            return True
    return False


def light_hint(attacker: str) -> str:
    if light_matters(attacker):
        return ""
    return (f"<li>\"All attackers FEF Light\" is off while the {attacker} player attacks: "
            f"IC 20.1 and IC 13.31 give it to FEF attackers only.</li>")


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


SLOT = re.compile(r"\{(\w+)\}")


def gated(template: str, gate: str, prefix: str) -> tuple[list, str]:
    """Shown only when stage ``gate`` is "1": each stretch of the template's own text becomes a one-entry
    lookup on the gate (stages named ``prefix0``, ``prefix1``...), so an illegal combination (no gate) leaves
    no words behind. Returns (stages, template)."""
    stages, out, pos = [], [], 0
    for i, piece in enumerate(SLOT.split(template)):
        if i % 2:
            out.append("{" + piece + "}")
        elif piece.strip():
            name = f"{prefix}{pos}"
            pos += 1
            stages.append((name, [gate], {"1": piece}))
            out.append("{" + name + "}")
    return stages, "".join(out)


SITUATION = ["attacker", "terrain", "fortified", "monsoon", "go", "mode", "dc", "light"]


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
    lines, sums, errors, legal = {}, {}, {}, {}
    for att, terr, fort, mon, go, mode, dc, light in product(
            ("Communist", "FEF"), TERRAINS, (0, 1), (0, 1), (0, 1), MODES, (0, 1), (0, 1)):
        key = (att, terr, fort, mon, go, mode, dc, light)
        found, err = _shift_parts(att, terr, bool(fort), bool(mon), bool(go), mode, bool(dc), bool(light))
        if found is None:
            errors[key] = illegal_html(err)
            continue
        legal[key] = "1"
        right = sum(s.columns for s in found if s.player == "attacker")
        left = sum(s.columns for s in found if s.player == "defender")
        sums[key] = f"{right},{left}"
        lines[key] = "".join(f"<li><code>{s.rule}</code> {html.escape(s.reason)}: {s.columns} "
                             f"{'right' if s.player == 'attacker' else 'left'}</li>" for s in found) or "<li>no shifts</li>"
    stages.append(("legal", SITUATION, legal))
    stages.append(("shift_sums", SITUATION, sums))
    stages += _interned("shift_lines", SITUATION, lines)
    stages += _interned("error", SITUATION, errors)
    stages.append(("shift_words", ["shift_sums"], {v: shift_words(*map(int, v.split(","))) for v in set(sums.values())}))
    # Baseline, caps, netting and the table edge: the engine's final_column, for every raw column and sum.
    raws = sorted({v for v in stages[2][2].values()}, key=lambda l: Fraction(*map(int, l.split("/"))))
    mobile = MOBILE
    notes, index = {}, {}
    for raw_label, sum_key, reading in product(raws, sorted(set(sums.values())), ("1/3", "3/1")):
        r, l = map(int, sum_key.split(","))
        res = Resolution()
        sh = ([Shift("attacker", r, "-", "right")] if r else []) + ([Shift("defender", l, "-", "left")] if l else [])
        col = final_column(raw_label, sh, mobile, res, Readings(reading))
        key = (raw_label, sum_key, reading)
        index[key] = col
        notes[key] = _note(res)
    stages.append(("final_index", ["raw", "shift_sums", "reading"], index))
    stages.append(("final", ["final_index"], {i: lab for i, lab in enumerate(labels)}))
    stages += _interned("final_note", ["raw", "shift_sums", "reading"], {k: v for k, v in notes.items() if v})
    chooser = {}
    for att, fort, light in product(("Communist", "FEF"), (0, 1), (0, 1)):
        chooser[(att, fort, light)] = crt_chooser(_combat(att, "clear", bool(fort), False, False, "normal", False,
                                                          bool(light))).value
    stages.append(("chooser", ["attacker", "fortified", "light"], chooser))
    odds, p_def, p_att, pct = {}, {}, {}, {}
    for table, lab in product(("Mobile", "Assault"), labels):
        dist = result_distribution(table, lab)
        order = sorted(dist, key=lambda r: ATTACKER_RANK[r])
        odds[(table, lab)] = odds_html(dist, label=lambda r: f"{r}: {RESULTS[r]}", order=order,
                                       caption=f"{table} CRT, column {lab} (reconstructed chart values)")
        p_def[(table, lab)] = float(dist.prob(lambda r: r in DEFENDER_HURT))
        p_att[(table, lab)] = float(dist.prob(lambda r: r in ATTACKER_HURT))
        pct[(table, lab)] = hurt_words(table, dist.prob(lambda r: r in DEFENDER_HURT),
                                       dist.prob(lambda r: r in ATTACKER_HURT))
    stages.append(("odds", ["table", "final"], odds))
    stages.append(("p_def", ["table", "final"], p_def))
    stages.append(("p_att", ["table", "final"], p_att))
    stages.append(("hurt_words", ["table", "final"], pct))
    # Values the gated templates show, present only for a legal combination.
    for name, domain in (("a_eff", range(1, 2 * MAX_STRENGTH + 1)), ("d_eff", range(1, 2 * MAX_STRENGTH + 1)),
                         ("raw", raws), ("chooser", ("Communist", "FEF")), ("table", ("Mobile", "Assault"))):
        stages.append((f"shown_{name}", ["legal", name], {("1", v): v for v in domain}))
    stages.append(("light_hint", ["attacker"], {a: light_hint(a) for a in ("Communist", "FEF")}))
    stages.append(("hint_chooser", ["legal", "chooser"],
                   {("1", a): f"<li>The {a} player picks the CRT (IC 13.31).</li>" for a in ("Communist", "FEF")}))
    return stages


SUMMARY = "{shown_raw} raw, {shift_words}, final column {final}; {hurt_words}"
DETAIL = """<p><b>Strengths</b> (IC 13.2, IC 13.23): {shown_a_eff} against {shown_d_eff}: raw odds <b>{shown_raw}</b>.</p>
<p><b>Shifts</b> (IC 13.21):</p><ul>{shift_lines}</ul>
<p>{final_note}</p>
<p><b>Final column: {final}</b>. The <b>{shown_chooser}</b> player picks the CRT (IC 13.31); showing the {shown_table} CRT.</p>
{odds}"""


HINTS = "<ul class='wg-hints'>{hint_chooser}{light_hint}</ul>"


def templates() -> tuple[list, str, str]:
    """The stages behind the gated summary and detail, and the two templates the page fills."""
    s_stages, summary = gated(SUMMARY, "legal", "summary_text")
    d_stages, detail = gated(DETAIL, "legal", "detail_text")
    return (s_stages + d_stages, f"<div class='wg-summary'>{summary}{{error}}</div>",
            f"<div class='wg-odds-steps'>{detail}</div>")


def render(values: dict, template: str) -> str:
    """The Python twin of PIPELINE_JS's template step (a missing value shows nothing)."""
    return SLOT.sub(lambda m: "" if values.get(m.group(1)) is None else str(values[m.group(1)]), template)


def page_controls(controls: dict) -> dict[str, str]:
    return {k: (str(int(w.active)) if isinstance(w, Checkbox) else str(w.value)) for k, w in controls.items()}


# args: attacker (Select), light (Checkbox), useless ({attacker: true when the Light box can change nothing}).
# The engine fills ``useless`` at build time; the script only greys the box out (and clears it) accordingly.
LIGHT_JS = """
const off = useless[attacker.value] === true;
light.disabled = off;
if (off && light.active) { light.active = false; }
"""


# The chapter's worked example (IC 13.21): 8 against 2 in mountain on a General Offensive turn, 4/1 -> 3/1.
PRINTED = {**{k: "0" for k in ("attack_enh", "defence_enh", "fortified", "monsoon", "dc", "light")},
           "A": "8", "D": "2", "attacker": "Communist", "terrain": "mountain", "go": "1", "mode": "normal",
           "reading": "1/3", "table": "Mobile"}


def _style_plot(p) -> None:
    """Text on the plots at 12 px or more (the layout asks for at least 11)."""
    p.title.text_font_size = "14px"
    for axis in (p.xaxis, p.yaxis):
        axis.major_label_text_font_size = "13px"
        axis.axis_label_text_font_size = "13px"


# PIPELINE_JS, unchanged, once per (Div, template, sweep) target.
MULTI_PIPELINE_JS = ("for (const target of targets) {\n  const out = target[0], template = target[1], "
                     "sweep = target[2];\n" + PIPELINE_JS + "\n}\n")


def odds_shifts_static(width: int = 700):
    """A bokeh layout with the controls, the step-by-step odds and two plots; responsive without Python.

    Built on :func:`widgets.layout.map_widget`: the controls, a "Printed example" button and the hints beside
    the column plot, the one-line summary above it, the result codes under it, the steps and the second plot
    below. The choices live in the URL hash (``#ic-odds:...``)."""
    from .layout import (CONTROL_WIDTH, aria_map, hints_div, legend_html, map_widget, reset_button, summary_div,
                         url_state)
    extra, summary_t, detail_t = templates()
    pipeline = build_pipeline(_stages() + extra)
    labels = column_labels()
    useless = {a: not light_matters(a) for a in ("Communist", "FEF")}
    cw = CONTROL_WIDTH
    controls = {
        "A": Slider(title="Attacker strength", start=1, end=MAX_STRENGTH, value=14, step=1, name="ic-A", width=cw),
        "D": Slider(title="Defender strength", start=1, end=MAX_STRENGTH, value=5, step=1, name="ic-D", width=cw),
        "attacker": Select(title="Attacker", value="Communist", options=["Communist", "FEF"], name="ic-attacker",
                           width=cw),
        "terrain": Select(title="Defender's terrain (reconstructed shifts)", value="clear",
                          options=[(t, terrain_label(t)) for t in TERRAINS], name="ic-terrain", width=cw),
        "mode": Select(title="Kind of combat", value="normal", options=[(m, MODE_LABELS[m]) for m in MODES],
                       name="ic-mode", width=cw),
        "attack_enh": Checkbox(label="Attack Enhancement (x2)", active=False),
        "defence_enh": Checkbox(label="Defense Enhancement (x2)", active=False),
        "fortified": Checkbox(label="Fortification", active=False),
        "monsoon": Checkbox(label="Monsoon turn", active=False),
        "go": Checkbox(label="General Offensive turn", active=False),
        "dc": Checkbox(label="Death Commando", active=False),
        "light": Checkbox(label="All attackers FEF Light class", active=False, disabled=useless["Communist"],
                          name="ic-light"),
        "reading": Select(title="Reading of 13.22's lower baseline", value="1/3", width=cw, name="ic-reading",
                          options=[("1/3", "ours: start no lower than 1/3"), ("3/1", "literal: start no lower than 3/1")]),
        "table": Select(title="CRT", value="Mobile", options=["Mobile", "Assault"], name="ic-table", width=cw),
    }
    first = run_pipeline(pipeline, page_controls(controls))
    summary = summary_div("ic-odds", render(first, summary_t))
    hints = hints_div("ic-odds", render(first, HINTS))
    out = Div(text=render(first, detail_t), name="ic-odds-out")
    src = ColumnDataSource({"a": [], "col": [], "p_def": [], "p_att": []})
    # Fixed ranges: an illegal combination leaves the plots empty, and auto-ranging on no data logs warnings.
    xr = (0.5, MAX_STRENGTH + 0.5)
    p1 = figure(height=340, width=460, title="Final column by attacker strength",
                x_range=xr, y_range=(-0.5, len(labels) - 0.5), x_axis_label="attacker strength",
                toolbar_location=None, name="ic-columns")
    p1.step(x="a", y="col", source=src, mode="center", line_width=2.5, color="#0072B2")
    p1.scatter(x="a", y="col", source=src, size=6, color="#0072B2")
    p1.yaxis.ticker = list(range(len(labels)))
    p1.yaxis.major_label_overrides = {i: lab for i, lab in enumerate(labels)}
    p2 = figure(height=250, width=width, title="Chance of a result that hurts only the defender / only the attacker",
                x_range=xr, y_range=(0, 1), x_axis_label="attacker strength", toolbar_location=None, name="ic-probs",
                sizing_mode="scale_width", max_width=int(width * 1.3))
    p2.step(x="a", y="p_def", source=src, mode="center", line_width=2.5, color="#009E73",
            legend_label="defender hurt (SK, DD, DR, DE)")
    p2.step(x="a", y="p_att", source=src, mode="center", line_width=2.5, color="#D55E00", line_dash="dashed",
            legend_label="attacker hurt (AE, AR, AD)")
    p2.legend.location = "center_right"
    p2.legend.label_text_font_size = "13px"
    for p in (p1, p2):
        _style_plot(p)
    aria_map(p1, "Step chart of the final CRT column (1/3 up to 7/1) for attacker strengths 1 to 30 against the "
                 "chosen defender and situation; the line above it gives the column for the chosen strength.")
    aria_map(p2, "Step chart of the chance, on the chosen CRT, of a result that hurts only the defender and of one "
                 "that hurts only the attacker, for attacker strengths 1 to 30.")
    sweep = {"control": "A", "values": list(range(1, MAX_STRENGTH + 1)), "source": src, "x": "a",
             "ys": {"col": "final_index", "p_def": "p_def", "p_att": "p_att"}}
    # One callback fills the three Divs, so the page carries the lookup tables once.
    update = CustomJS(args={"pipeline": pipeline, "controls": controls,
                            "targets": [[summary, summary_t, None], [hints, HINTS, None], [out, detail_t, sweep]]},
                      code=MULTI_PIPELINE_JS)
    for w in controls.values():
        w.js_on_change("active" if isinstance(w, Checkbox) else "value", update)
    # Also on the box itself: a link may tick it for a Communist attack.
    light_cb = CustomJS(args={"attacker": controls["attacker"], "light": controls["light"], "useless": useless},
                        code=LIGHT_JS)
    controls["attacker"].js_on_change("value", light_cb)
    controls["light"].js_on_change("active", light_cb)
    # First render of the plots, from the same tables.
    xs = list(range(1, MAX_STRENGTH + 1))
    vals = [run_pipeline(pipeline, {**page_controls(controls), "A": str(a)}) for a in xs]
    nan = float("nan")
    src.data = {"a": xs, "col": [nan if v["final_index"] is None else v["final_index"] for v in vals],
                "p_def": [nan if v["p_def"] is None else v["p_def"] for v in vals],
                "p_att": [nan if v["p_att"] is None else v["p_att"] for v in vals]}
    reset = reset_button("ic-odds", controls, PRINTED)
    layout = map_widget("ic-odds", controls=list(controls.values()), fig=p1, summary=summary,
                        details=[out, p2], legend=legend_html("Result codes of the two CRTs", LEGEND),
                        hints=hints, buttons=[reset])
    url_state("ic-odds", controls, layout)
    return layout, pipeline


def legend_block() -> str:
    """The result codes decoded, for the live widget (the static page uses the shared legend_html)."""
    from .layout import legend_html
    return legend_html("Result codes of the two CRTs", LEGEND)


class OddsShiftsLive:
    """ipywidgets version: any strengths, the engine's full Resolution, exact odds; the same summary line,
    illegal-combination message and Light-box rule as the static page."""

    def __init__(self):
        import ipywidgets as w
        self.w = w
        self.A = w.BoundedIntText(value=14, min=1, max=999, description="attack")
        self.D = w.BoundedIntText(value=5, min=1, max=999, description="defence")
        self.flags = {name: w.Checkbox(value=False, description=name.replace("_", " ")) for name in
                      ("attack_enhanced", "defence_enhanced", "fortified", "monsoon", "general_offensive",
                       "death_commando", "attackers_all_light")}
        self.attacker = w.Dropdown(options=["Communist", "FEF"], description="attacker")
        self.terrain = w.Dropdown(options=[(terrain_label(t), t) for t in TERRAINS], description="terrain")
        self.mode = w.Dropdown(options=[(MODE_LABELS[m], m) for m in MODES], description="combat")
        self.table = w.Dropdown(options=["Mobile", "Assault"], description="CRT")
        self.summary = w.HTML()
        self.hint = w.HTML()
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
        light = self.flags["attackers_all_light"]
        useless = not light_matters(self.attacker.value)
        light.disabled = useless
        hint = light_hint(self.attacker.value)
        self.hint.value = f"<ul class='wg-hints'>{hint}</ul>" if hint else ""
        if useless and light.value:
            light.value = False          # observed: update() runs again with the box clear
            return self.out.value
        try:
            c = self.combat()
            raw, final, res = final_odds(c)
            found = shifts(c)
            dist = result_distribution(self.table.value, final)
            self.summary.value = "<div class='wg-summary'>" + html.escape(summary_text(
                raw, sum(s.columns for s in found if s.player == "attacker"),
                sum(s.columns for s in found if s.player == "defender"), final, self.table.value,
                dist.prob(lambda r: r in DEFENDER_HURT), dist.prob(lambda r: r in ATTACKER_HURT))) + "</div>"
            self.out.value = (resolution_html(res, f"{raw} -> {final}")
                              + f"<p>The {crt_chooser(c).value} player picks the CRT (IC 13.31).</p>"
                              + odds_html(dist, label=lambda r: f"{r}: {RESULTS[r]}",
                                          order=sorted(dist, key=lambda r: ATTACKER_RANK[r])))
        except RuleViolation as e:
            self.summary.value = f"<div class='wg-summary'>{illegal_html(e)}</div>"
            self.out.value = ""
        return self.out.value

    def widget(self):
        w = self.w
        return w.VBox([w.HBox([self.A, self.D, self.attacker]), w.HBox([self.terrain, self.mode, self.table]),
                       w.HBox(list(self.flags.values())[:4]), w.HBox(list(self.flags.values())[4:]), self.hint,
                       self.summary, self.out, w.HTML(legend_block())])
