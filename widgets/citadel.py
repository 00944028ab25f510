"""The Anne-Marie assault (C 8 Movement Example) as a widget, live in JupyterLab and responsive in the static book.

Both versions run the same engine code, :class:`wargames.citadel.examples.MovementExample`:

- :class:`AnneMarieLive` (ipywidgets + bokeh through jupyter_bokeh) re-resolves the phase on every change;
- :func:`anne_marie_static` enumerates at build time every assignment preset and every die it offers into
  a decision graph, which :data:`widgets.common.WALKER_JS` walks in the browser.
"""
from __future__ import annotations

import functools
import html
from dataclasses import dataclass

from wargames.citadel.examples import (BATTERIES, FIRST_LEGS, ONWARD_ROUTES, PRINTED_ASSIGNMENT, PRINTED_DICE,
                                       MovementExample)
from wargames.core import Distribution, ScriptedDice, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.viz.hexmap import (PathMark, action_hexes, citadel_marks, describe,
                                 movement_example_map, overlay_data)
from wargames.viz.optional import HAVE_BOKEH, bokeh_names
from wargames.viz.svg import movement_example_svg

from .common import (WALKER_JS, build_decision_graph, fraction_text, graph_hints, odds_html, percent_text,
                     resolution_html, walk_graph)
from .layout import (aria_map, hints_div, legend_html, map_widget, reset_button, roll_button, summary_div,
                     summary_html, url_state)

column, row = bokeh_names("bokeh.layouts", "column", "row")
CustomJS, Div, Select = bokeh_names("bokeh.models", "CustomJS", "Div", "Select")

BATTALIONS = ["1st Bn", "2nd Bn", "3rd Bn", "4th Bn"]
MAX_SHOTS = len(BATTERIES)
PRESETS = {
    "printed": ("The reading that reproduces the printed outcome (105s at the 1st-3rd, a 120 at the 4th)",
                PRINTED_ASSIGNMENT),
    "mortars first": ("Both 120s at the 1st and 2nd, 105s at the 3rd and 4th",
                      {"1st Bn": "120-A", "2nd Bn": "120-B", "3rd Bn": "105-A", "4th Bn": "105-B"}),
}
# Sources whose data changes from one outcome to another (named as in wargames.viz.hexmap.draw_map).
DYNAMIC = ("hex-tiles", "units", "pin-badges", "path-arrows", "vps", "fire-lines")


_ODDS: dict[tuple, Distribution] = {}


def shot_odds(ex: MovementExample) -> Distribution:
    """Exact distribution of the pending shot's result code: the same shoot() over all six faces (remembered by
    the example's position, which decides it, so a widget's later changes need not work it out again)."""
    key = ex.key()
    dist = _ODDS.get(key)
    if dist is None:
        dist = enumerate_outcomes(ex.shot_code)
        if len(_ODDS) > 4096:
            _ODDS.clear()
        _ODDS[key] = dist
    return dist


def forget() -> None:
    """Drop every remembered answer (shot odds, opening moves): the next change is worked out from scratch."""
    _ODDS.clear()
    _started.cache_clear()


@functools.lru_cache(maxsize=64)
def _started(assignment: tuple[tuple[str, str], ...]) -> MovementExample:
    return MovementExample(dict(assignment))


def shot_title(ex: MovementExample) -> str:
    firer, target = ex.pending
    vp = ex.phase.records[target].vps[-1]
    return f"{firer} fires at {target} paused in {ex.state.label(vp.hex)} (its VP #{vp.number})"


def odds_block(ex: MovementExample) -> str:
    dist = shot_odds(ex)
    pin = dist.prob(lambda c: "P" in c)
    return (f"<p>Exact chance this shot pins: <b>{fraction_text(pin)}</b> ({float(pin):.0%}).</p>"
            + odds_html(dist, caption="every result of this shot (reconstructed chart values)"))


@dataclass
class Outcome:
    example: MovementExample
    odds: list[tuple[str, Distribution]]   # (shot title, exact result distribution), in shot order
    error: RuleViolation | None = None


def resolve(assignment: dict[str, str], dice: list[int]) -> Outcome:
    """Play the example with this first-round assignment and these dice (one per shot, in order)."""
    ex = _started(tuple(sorted(assignment.items()))).copy()     # the moves before the first shot, made once
    odds = []
    script = ScriptedDice(dice, source="widget dice")
    try:
        while ex.pending:
            odds.append((shot_title(ex), shot_odds(ex)))
            ex.shoot(script)
    except RuleViolation as e:
        return Outcome(ex, odds, e)
    return Outcome(ex, odds)


def outcome_parts(ex: MovementExample) -> list[str]:
    """The shots and where every battalion ended, as HTML fragments (the static page stores each once)."""
    # No die column: outcomes are shared by every die that gives the same result, and the reader's dice
    # are on the controls.
    parts = ["<table class='wg-shots'><thead><tr><th>round</th><th>firer</th><th>target</th><th>VP hex</th>"
             "<th>column</th><th>result</th><th>effect</th></tr></thead><tbody>"]
    parts += [f"<tr><td>{s['round']}</td><td>{html.escape(s['firer'])}</td><td>{html.escape(s['target'])}</td>"
              f"<td>{s['hex']}</td><td>{s['column']}</td><td>{s['code']}</td>"
              f"<td>{'pinned' if s['pinned'] else 'not pinned'}</td></tr>" for s in ex.run.shots]
    parts.append("</tbody></table><ul class='wg-ends'>")
    st = ex.state
    for b in BATTALIONS:
        u, rec = st.unit(b), ex.phase.records[b]
        left = f", {u.strength} SP left" if u.losses or u.inverted else ""
        parts.append(f"<li>{b} in {st.label(u.hex)}: {html.escape(rec.end_reason or rec.status)}{left}</li>")
    parts.append("</ul>")
    return parts


def outcome_html(ex: MovementExample) -> str:
    return "".join(outcome_parts(ex))


def summary_text(ex: MovementExample) -> str:
    """The result in one short line: who was pinned where, and where the others stopped."""
    st = ex.state
    where = {b: st.label(st.unit(b).hex) for b in BATTALIONS}
    pinned = [b for b in BATTALIONS if st.unit(b).pinned]
    free = [b for b in BATTALIONS if b not in pinned]
    bits = []
    if pinned:
        bits.append("Pinned: " + ", ".join(f"{b} in {where[b]}" for b in pinned))
    if free:
        bits.append(("not pinned" if pinned else "None pinned") + ": " + ", ".join(f"{b} stopped in {where[b]}"
                                                                               for b in free))
    return html.escape("; ".join(bits) + ".")


def result_meaning(code: str) -> str:
    """A C 9 result code in our words (the codes are losses, then P for a pin; "-" for nothing)."""
    if code == "-":
        return "no effect: not hurt, not pinned, moves on"
    losses, pin = code.rstrip("P"), code.endswith("P")
    bits = [f"loses {losses} strength point{'s' * (losses != '1')}"] if losses else []
    bits.append("pinned: stays in its hex for the rest of the phase, and no other unit may enter it" if pin
                else "not pinned, moves on")
    return "; ".join(bits)


def table_codes() -> tuple[list[str], list[str]]:
    """Every result code and column of the fire table (the live widget can reach any of them)."""
    from wargames.citadel.charts import load_fire_crt
    crt = load_fire_crt()
    return sorted({cell.value.code for cell in crt.cells.values()}), [c.label for c in crt.columns]


def legend_for(codes, columns, ex: MovementExample) -> str:
    """Every code the widget can show, decoded, and the reconstructed battery positions."""
    def order(c):
        return (c != "-", int(c.rstrip("P").strip("-") or 0), c.endswith("P"))
    entries = {f"result {c}": result_meaning(c) for c in sorted(codes, key=order)}
    entries.update({
        ", ".join(columns): "fire table column of the shot (from the battery's strength and the target's terrain)",
        "12 SP, -2": "on a counter: strength points left, and the losses taken so far",
    })
    return legend_html("What the codes mean (C 8, C 9)", entries,
                       note=html.escape(batteries_text(ex)) + " The fire table values are ours too<sup>R</sup>.")


def crop_hexes(ex: MovementExample) -> list:
    """The hexes the map shows: every hex any outcome can use (starts, first legs, onward routes, batteries).

    One crop for every outcome, so that the static page can swap per-hex columns between outcomes.
    """
    st = ex.state
    routes = [PathMark(b, tuple([st.label(ex.phase.records[b].start), *FIRST_LEGS[b]]
                                + [h for r in ONWARD_ROUTES[b] for h in r])) for b in BATTALIONS]
    marks = citadel_marks(st)[0]
    return action_hexes(st.map, marks, routes, margin=0)


def battery_hexes(ex: MovementExample) -> dict[str, str]:
    """Where each battery stands: our reconstruction (the example does not give the positions)."""
    return {b: ex.state.label(ex.state.unit(b).hex) for b in BATTERIES}


def batteries_text(ex: MovementExample) -> str:
    return ("The battery positions are our reconstruction (the example does not print them): "
            + "; ".join(f"{b} in {h}" for b, h in battery_hexes(ex).items()) + ".")


def map_for(ex: MovementExample, **kw):
    """The map of this outcome, cropped to the action, with the reconstructed battery hexes outlined."""
    kw.setdefault("hexes", _crop(ex))
    kw.setdefault("highlight", sorted(set(battery_hexes(ex).values())))
    kw.setdefault("highlight_label", "battery position (reconstructed, R)")
    return movement_example_map(ex.run, **kw)


def map_svg(ex: MovementExample, **kw) -> tuple[str, str]:
    """:func:`map_for` as SVG (the live edition's map): the same crop, outlines and marks."""
    kw.setdefault("hexes", _crop(ex))
    kw.setdefault("highlight", sorted(set(battery_hexes(ex).values())))
    kw.setdefault("highlight_label", "battery position (reconstructed, R)")
    return movement_example_svg(ex.run, **kw)


def alt_parts_of(ex: MovementExample) -> list[str]:
    return alt_parts(_alt_text(ex))


def alt_html(ex: MovementExample) -> str:
    return "".join(alt_parts_of(ex))


def _alt_text(ex: MovementExample) -> str:
    phase = ex.phase
    starts = {uid: phase.state.label(rec.start) for uid, rec in phase.records.items()}
    # The map itself (terrain, strongpoints) is the same for every outcome: keep only what this one changes.
    alt = describe(phase.state.map, *citadel_marks(phase.state, phase.summary(), _dieless(ex), starts),
                   map_part=False)
    return alt + " " + batteries_text(ex)


def alt_parts(alt: str) -> list[str]:
    """The alt text as one fragment per sentence, so outcomes that share sentences share storage."""
    sentences = [x if x.endswith(".") else x + "." for x in alt.split(". ") if x]
    return (["<p class='map-alt-text'><b>The position in words.</b> "]
            + [html.escape(x) + " " for x in sentences] + ["</p>"])


def _dieless(ex: MovementExample) -> list[dict]:
    """The shots without their dice: what an outcome shows must depend only on the position reached."""
    return [{**s, "roll": None} for s in ex.run.shots]


@functools.cache
def _crop_once() -> tuple:
    return tuple(crop_hexes(MovementExample()))


def _crop(_ex: MovementExample) -> list:
    """:func:`crop_hexes`, computed once: the starts, routes and batteries are the same in every outcome and
    every first-round assignment."""
    return list(_crop_once())


def outcome_sources(ex: MovementExample) -> dict[str, dict]:
    """The map data that differs between outcomes: the dynamic overlay columns, by source name."""
    phase = ex.phase
    starts = {uid: phase.state.label(rec.start) for uid, rec in phase.records.items()}
    marks = citadel_marks(phase.state, phase.summary(), _dieless(ex), starts)
    data = overlay_data(phase.state.map, *marks, hexes=_crop(ex), dynamic_only=True)
    return data


def _bind_sources(fig) -> dict:
    out = {}
    for name in DYNAMIC:
        model = fig.select_one({"name": name})
        out[name] = getattr(model, "data_source", None) or getattr(model, "source", None)
    return out


def _apply(sources: dict, data: dict[str, dict]) -> None:
    """Python twin of the walker's merge: replace the given columns, keep the others."""
    for name, cols in data.items():
        sources[name].data = {**sources[name].data, **cols}


# ---------------------------------------------------------------- static (book) version

def _graph(width: int):
    def options(node):
        if node == "root":
            return [(key, label, lambda _n, a=assign: MovementExample(a)) for key, (label, assign) in PRESETS.items()]
        if not node.pending:
            return None
        return [(str(d), str(d), lambda ex, d=d: _shot(ex, d)) for d in range(1, 7)]

    def key(node):
        return "root" if node == "root" else shown_key(node)

    def describe(node):
        if node == "root":
            return {"title": "which battery fires at which battalion in the first round", "odds": "",
                    "hint": "which battery fires at which battalion in round 1"}
        pin = shot_odds(node).prob(lambda c: "P" in c)
        return {"title": html.escape(shot_title(node)), "odds": odds_block(node),
                "hint": html.escape(f"{shot_title(node)}; pins with chance {percent_text(pin)}")}

    def view(ex):
        codes.update(s["code"] for s in ex.run.shots)
        columns.update(s["column"] for s in ex.run.shots)
        # "alt" names the same sentence fragments as the shown paragraph, so it adds only their ids.
        words = alt_parts_of(ex)
        return {"sources": outcome_sources(ex), "html": outcome_parts(ex) + words,
                "summary": summary_html(summary_text(ex)), "alt": words[1:-1]}

    codes: set[str] = set()
    columns: set[str] = set()
    graph = build_decision_graph("root", options, key, view, describe)
    graph["codes"], graph["columns"] = sorted(codes), sorted(columns)
    return graph


def shown_key(ex: MovementExample) -> tuple:
    """What a node of the static graph stands for: the position *and* everything its views display.

    ``MovementExample.key()`` is the position only, and two shot histories can reach the same position (a
    "-" and a "1" both leave a battalion unpinned, say). Keyed on that alone, the graph gave the second
    history the first one's shots table. The shots without their dice, and each battalion's end reason,
    are what the views show beyond the position, so they are part of the key.
    """
    ends = tuple((uid, rec.end_reason) for uid, rec in ex.phase.records.items())
    return ex.key(), repr(_dieless(ex)), ends


def _shot(ex: MovementExample, die: int) -> MovementExample:
    new = ex.copy()
    new.shoot(ScriptedDice([die]))
    return new


NAME = "anne-marie"
DIE_LABELS = [f"Die for shot {i + 1}" for i in range(MAX_SHOTS)]


def anne_marie_static(width: int = 640):
    """A bokeh layout that responds in a static page: the reader picks a preset and the dice.

    Built with :func:`widgets.layout.map_widget`: the controls, a "Printed example" button, a "Roll the
    dice" button and the hints beside the map; the one-line result above it; the legend under it; the
    shots, the position in words and each shot's odds below. The choices live in the URL hash
    (``#anne-marie:preset=printed&d1=6&...``).
    """
    graph = _graph(width)
    printed = resolve(PRINTED_ASSIGNMENT, PRINTED_DICE).example
    fig, _ = map_for(printed, width=width)
    preset = Select(title="First-round assignment", value="printed", options=[(k, v[0]) for k, v in PRESETS.items()],
                    tags=["assignment"], name="am-preset", width=280)
    dice = [Select(title=DIE_LABELS[i], value=str(PRINTED_DICE[i]), options=[str(d) for d in range(1, 7)],
                   tags=[f"shot {i + 1}"], name=f"am-die-{i + 1}", width=130) for i in range(MAX_SHOTS)]
    values = ["printed", *map(str, PRINTED_DICE)]
    view, notes = walk_graph(graph, values)
    info = Div(text="".join(notes), name="am-info")
    out = Div(text=view["html"], name="am-outcome", tags=[view["parts"]])
    summary = summary_div(NAME, view["summary"])
    hints = hints_div(NAME, graph_hints(graph, values, ["assignment", *(f"shot {i + 1}" for i in range(MAX_SHOTS))]))
    aria_map(fig, _alt_text(printed))
    _apply(_bind_sources(fig), view["sources"])         # the first render shows what the lookup shows
    cb = CustomJS(args={"graph": graph, "choices": [preset, *dice], "sources": _bind_sources(fig), "info": info,
                        "out": out, "hints": hints, "summary": summary, "fig": fig}, code=WALKER_JS)
    for s in (preset, *dice):
        s.js_on_change("value", cb)
    keyed = {"preset": preset, **{f"d{i + 1}": d for i, d in enumerate(dice)}}
    buttons = [reset_button(NAME, keyed, dict(zip(keyed, values))), roll_button(NAME, dice)]
    controls = [preset, row(*dice[:2]), row(*dice[2:4]), dice[4]]
    layout = map_widget(NAME, controls=controls, fig=fig, summary=summary, details=[out, info],
                        legend=legend_for(graph["codes"], graph["columns"], printed), hints=hints, buttons=buttons,
                        map_max_width=int(width * 1.1), legend_beside=True)
    url_state(NAME, keyed, layout)
    return layout, graph


# ---------------------------------------------------------------- live (JupyterLab) version

class AnneMarieLive:
    """ipywidgets front end: every change re-runs the engine, re-draws the map and recomputes the odds."""

    def __init__(self, width: int = 700, svg: bool | None = None):
        import ipywidgets as w
        self.w = w
        self.svg = not HAVE_BOKEH if svg is None else svg      # the live edition has no bokeh: an SVG map
        self.assign = {b: w.Dropdown(options=["(none)", *BATTERIES], value=PRINTED_ASSIGNMENT.get(b, "(none)"),
                                     description=b, layout=w.Layout(width="210px")) for b in BATTALIONS}
        self.dice = [w.Dropdown(options=list(range(1, 7)), value=PRINTED_DICE[i], description=f"shot {i + 1}",
                                layout=w.Layout(width="150px")) for i in range(MAX_SHOTS)]
        self.roll = w.Button(description="Roll the dice")
        self.reset = w.Button(description="Printed example")
        self.summary = w.HTML()
        self.steps = w.HTML()
        self.odds = w.HTML()
        self.message = w.HTML()
        first = resolve(PRINTED_ASSIGNMENT, PRINTED_DICE).example
        self.width = width
        if self.svg:
            self.map = w.HTML()
        else:
            self.fig, _ = map_for(first, width=width)
            self.sources = _bind_sources(self.fig)
        for c in [*self.assign.values(), *self.dice]:
            c.observe(lambda _change: self.update(), names="value")
        self.roll.on_click(self._roll)
        self.reset.on_click(self.printed)
        self._rng = None
        self.legend = w.HTML(legend_for(*table_codes(), first))
        self.update()

    def printed(self, _button=None) -> None:
        """Back to the printed example: its assignment and its dice."""
        for b, dd in self.assign.items():
            dd.value = PRINTED_ASSIGNMENT.get(b, "(none)")
        for d, die in zip(self.dice, PRINTED_DICE):
            d.value = die

    def _roll(self, _button) -> None:
        import random
        self._rng = self._rng or random.Random()
        for d in self.dice:
            d.value = self._rng.randint(1, 6)

    def assignment(self) -> dict[str, str]:
        return {b: dd.value for b, dd in self.assign.items() if dd.value != "(none)"}

    def update(self) -> Outcome:
        oc = resolve(self.assignment(), [d.value for d in self.dice])
        if self.svg:
            self.map.value = map_svg(oc.example, width=self.width)[0]
        else:
            _apply(self.sources, outcome_sources(oc.example))
        self.message.value = (f"<p style='color:#a00'><b>{oc.error.rule}</b>: {html.escape(oc.error.reason)}</p>"
                              if oc.error else "")
        self.summary.value = summary_html(summary_text(oc.example))
        self.steps.value = outcome_html(oc.example) + alt_html(oc.example) + resolution_html(oc.example.run.log, "Resolution, step by step")
        self.odds.value = "".join(
            f"<p><b>Shot {i + 1}.</b> {html.escape(t)}: P(pin) = {fraction_text(d.prob(lambda c: 'P' in c))}</p>"
            + odds_html(d) for i, (t, d) in enumerate(oc.odds))
        self.outcome = oc
        return oc

    def widget(self):
        w = self.w
        if self.svg:
            shown = self.map
        else:
            from jupyter_bokeh import BokehModel
            shown = BokehModel(self.fig)
        return w.VBox([w.HBox(list(self.assign.values())), w.HBox([*self.dice, self.roll, self.reset]), self.message,
                       self.summary, shown, self.legend, w.HBox([self.steps, self.odds])])
