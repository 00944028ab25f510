"""The election-odds widget for No Trumpets No Drums (NT 23.2 with NT 24.2.7 and NT 24.4.1-2).

- :func:`election_static` precomputes, with the engine's exact odds, the result of every election the controls
  can describe and wires the tables to :data:`widgets.common.PIPELINE_JS`, so the static book responds without
  Python, including the curve of the chance against the political points;
- :class:`ElectionLive` (ipywidgets) asks the engine directly in JupyterLab, for any points.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from wargames.ntnd.politics import ALLIED_WIN, IMPOSED, PEACE_PARTY, Policy, election_odds
from wargames.viz.optional import bokeh_name, bokeh_names

from .common import PIPELINE_JS, build_pipeline, fraction_text, percent_text, run_pipeline

(ColumnDataSource, CustomJS, Div, Select, Slider) = bokeh_names(
    "bokeh.models", "ColumnDataSource", "CustomJS", "Div", "Select", "Slider")
figure = bokeh_name("bokeh.plotting", "figure")

YEARS = (1968, 1972)
MAX_POINTS = 300


def _policies() -> dict[str, tuple[str, Policy]]:
    """The situations an election can meet, by control value: (label, the engine's political state)."""
    base = Policy()
    full, partial = base.declare_full(1), base.declare_partial(10)
    return {"none": ("no Vietnamization", base),
            "partial": ("Partial Vietnamization (NT 24.3)", partial),
            "full": ("Full Vietnamization: one die fewer (NT 24.2.7)", full),
            "partial-reversed": ("Partial Vietnamization reversed: one die more (NT 24.4.1)", partial.reverse()),
            "full-reversed": ("Full Vietnamization reversed: two dice more (NT 24.4.2)", full.reverse())}


POLICIES = _policies()
ORDER = (PEACE_PARTY, IMPOSED, ALLIED_WIN)
PRINTED = {"year": "1968", "policy": "none", "points": "100"}


@lru_cache(maxsize=None)
def odds(year: int, policy: str, points: int):
    """The engine's exact distribution for one setting of the controls."""
    return election_odds(POLICIES[policy][1], year, points)


LABELS = {PEACE_PARTY: "peace party wins (NT 23.3)", IMPOSED: "Allied win under 100 points: Partial "
          "Vietnamization imposed (NT 23.8)", ALLIED_WIN: "Allied win"}
SLOTS = {PEACE_PARTY: "peace", IMPOSED: "imposed", ALLIED_WIN: "win"}


def values(year: int, policy: str, points: int) -> dict[str, str]:
    """Every slot of the two templates for one setting, from the engine's exact distribution."""
    dist = odds(year, policy, points)
    out = {"dice": str(POLICIES[policy][1].election_dice(year)), "year": str(year), "points": str(points)}
    for result, slot in SLOTS.items():
        p = dist.get(result, Fraction(0))
        out[f"pct_{slot}"] = percent_text(p)
        out[f"frac_{slot}"] = fraction_text(p)
    return out


TEMPLATE_SUMMARY = ("<div class='wg-summary'><b>{year}</b>, {dice} dice (ten times their total against {points} "
                    "points): the peace party wins {pct_peace} of the time</div>")
TEMPLATE_DETAIL = ("<table class='wg-odds'><thead><tr><th>result</th><th>chance (hover for the exact fraction)</th>"
                   "</tr></thead><tbody>" + "".join(
                       f"<tr><td>{LABELS[r]}</td><td class='wg-pct' title='exactly {{frac_{s}}}'>{{pct_{s}}}</td></tr>"
                       for r, s in SLOTS.items()) + "</tbody></table>")


def render(template: str, vals: dict) -> str:
    return template.format(**{k: "" if v is None else v for k, v in vals.items()})


def _stages() -> list:
    inputs = ["year", "policy", "points"]
    tables: dict[str, dict] = {}
    for y in YEARS:
        for p in POLICIES:
            for pts in range(MAX_POINTS + 1):
                vals = values(y, p, pts)
                dist = odds(y, p, pts)
                vals["p_peace"] = round(float(dist.get(PEACE_PARTY, 0)), 5)
                vals["p_imposed"] = round(float(dist.get(IMPOSED, 0)), 5)
                for name, v in vals.items():
                    if name not in inputs:
                        tables.setdefault(name, {})[(str(y), p, str(pts))] = v
    return [(name, inputs, table) for name, table in tables.items()]


MULTI_PIPELINE_JS = ("for (const target of targets) {\n  const out = target[0], template = target[1], "
                     "sweep = target[2];\n" + PIPELINE_JS + "\n}\n")


def election_static(width: int = 640):
    """The bokeh panel: year, Vietnamization and points; the odds table and the curve of the chance of a
    peace-party win against the points. Responsive without Python."""
    from .layout import CONTROL_WIDTH, aria_map, map_widget, reset_button, summary_div, url_state
    pipeline = build_pipeline(_stages())
    cw = CONTROL_WIDTH
    controls = {
        "year": Select(title="Election", value="1968", options=[str(y) for y in YEARS], name="nt-year", width=cw),
        "policy": Select(title="Vietnamization", value="none", options=[(k, v[0]) for k, v in POLICIES.items()],
                         name="nt-policy", width=cw),
        "points": Slider(title="Allied political points", start=0, end=MAX_POINTS, value=100, step=1,
                         name="nt-points", width=cw),
    }
    first = run_pipeline(pipeline, {k: str(w.value) for k, w in controls.items()})
    summary = summary_div("nt-election", render(TEMPLATE_SUMMARY, first))
    out = Div(text=render(TEMPLATE_DETAIL, first), name="nt-election-out")
    src = ColumnDataSource({"pts": [], "peace": [], "imposed": []})
    fig = figure(height=320, width=width, title="Chance of each election result against the political points",
                 x_range=(0, MAX_POINTS), y_range=(0, 1), x_axis_label="Allied political points at the election",
                 y_axis_label="chance", toolbar_location=None, name="nt-election-curve")
    fig.step(x="pts", y="peace", source=src, mode="after", line_width=2.5, color="#D55E00",
             legend_label="peace party wins")
    fig.step(x="pts", y="imposed", source=src, mode="after", line_width=2.5, color="#0072B2", line_dash="dashed",
             legend_label="Allied win under 100: Partial Vietnamization imposed")
    fig.legend.location = "top_right"
    fig.legend.label_text_font_size = "13px"
    fig.title.text_font_size = "14px"
    aria_map(fig, "Step chart, for political points 0 to 300, of the chance that the peace party wins the chosen "
                  "election and of the chance that the Allies win it under 100 points, which imposes Partial "
                  "Vietnamization; the chance falls as the points rise.")
    xs = list(range(MAX_POINTS + 1))
    sweep = {"control": "points", "values": xs, "source": src, "x": "pts",
             "ys": {"peace": "p_peace", "imposed": "p_imposed"}}
    update = CustomJS(args={"pipeline": pipeline, "controls": controls,
                            "targets": [[summary, TEMPLATE_SUMMARY, None], [out, TEMPLATE_DETAIL, sweep]]},
                      code=MULTI_PIPELINE_JS)
    for w in controls.values():
        w.js_on_change("value", update)
    vals = [run_pipeline(pipeline, {**{k: str(w.value) for k, w in controls.items()}, "points": str(x)}) for x in xs]
    src.data = {"pts": xs, "peace": [v["p_peace"] for v in vals], "imposed": [v["p_imposed"] for v in vals]}
    reset = reset_button("nt-election", controls, PRINTED, label="1968 at 100 points")
    layout = map_widget("nt-election", controls=list(controls.values()), fig=fig, summary=summary, details=[out],
                        buttons=[reset])
    url_state("nt-election", controls, layout)
    return layout, pipeline


class ElectionLive:
    """ipywidgets version: any points, the engine's exact odds, the same summary line as the static page."""

    def __init__(self):
        import ipywidgets as w
        self.w = w
        self.year = w.Dropdown(options=[str(y) for y in YEARS], description="election")
        self.policy = w.Dropdown(options=[(v[0], k) for k, v in POLICIES.items()], description="policy")
        self.points = w.BoundedIntText(value=100, min=-50, max=1000, description="points")
        self.summary = w.HTML()
        self.out = w.HTML()
        for c in (self.year, self.policy, self.points):
            c.observe(lambda _ch: self.update(), names="value")
        self.update()

    def update(self) -> None:
        year, policy, points = int(self.year.value), self.policy.value, self.points.value
        vals = values(year, policy, points)
        self.summary.value = render(TEMPLATE_SUMMARY, vals)
        self.out.value = render(TEMPLATE_DETAIL, vals)

    def widget(self):
        return self.w.VBox([self.w.HBox([self.year, self.policy, self.points]), self.summary, self.out])
