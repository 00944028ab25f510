"""The assault rounds (F 8.0 Assault Example) as a widget, live in JupyterLab and responsive in the static book.

Both versions run the same engine code, :func:`wargames.fte.assault.assault` on the position of
:func:`wargames.fte.examples.assault_example`:

- :class:`AssaultLive` (ipywidgets + bokeh through jupyter_bokeh) lets the reader choose the assaulting
  units, combined fire and its primary firer, the defender's target, opportunity fire, the errata reading and
  every die, and re-resolves on each change; the exact outcome distribution comes from enumeration;
- :func:`assault_static` enumerates at build time the printed example's choices (with the errata or the
  original reading, combined or separate fire, either defender target) and a set of dice (the printed ones
  and seeded rolls) into a decision graph that :data:`widgets.common.WALKER_JS` walks in the page.
"""
from __future__ import annotations

import html
from functools import lru_cache

from bokeh.layouts import column, row
from bokeh.models import CustomJS, Div, Select

from wargames.core import DataError, Distribution, RandomDice, ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.fte.assault import RESULTS, AssaultOutcome, AssaultPlan, AssaultRun, assault, assault_distribution
from wargames.fte.errata import ERRATA, ORIGINAL, SWITCHES
from wargames.fte.examples import ASSAULT_DICE, assault_example
from wargames.viz.fte import draw_fte_map, unit_marks, units_data

from .common import WALKER_JS, build_decision_graph, fraction_text, odds_html, resolution_html, walk_graph

READINGS = {"errata": ERRATA, "original": ORIGINAL}
TARGET = "20.19"
CANDIDATES = ("US FT 20.20", "US FT 19.19", "US Ldr")   # the US units adjacent to the NVA hex
PRINTED_PLAN = AssaultPlan(("US FT 20.20", "US FT 19.19"), TARGET, combine=True, primary="US FT 20.20",
                           defender_targets=(("NVA FT", "US FT 19.19"),))
DICE_PRESETS = {"printed": "the printed dice " + " ".join(map(str, ASSAULT_DICE)),
                **{f"seed {i}": f"rolled dice (seed {i})" for i in range(1, 13)}}
REGION = (17, 23)


def plan_of(attackers=PRINTED_PLAN.attackers, combine: bool = True, primary: str | None = "US FT 20.20",
            nva_target: str = "US FT 19.19", opfire: str | None = None) -> AssaultPlan:
    """An assault plan from the widget's choices."""
    return AssaultPlan(tuple(attackers), TARGET, combine=combine, primary=primary if combine else None,
                       defender_targets=(("NVA FT", nva_target),),
                       defender_opfire=(("NVA FT", opfire),) if opfire else ())


def _dice(preset: str):
    if preset == "printed":
        return ScriptedDice(ASSAULT_DICE, "printed dice")
    return RandomDice(int(preset.split()[1]))


def replay(reading: str, plan: AssaultPlan, dice) -> tuple[AssaultRun | None, str]:
    """Run the assault; returns the run and a message (empty, or why it could not be played out)."""
    state = assault_example(READINGS[reading])
    try:
        run = assault(state, plan, dice)
    except (RuleViolation, DataError) as e:
        return None, f"{getattr(e, 'rule', '')} {e}"
    if isinstance(dice, ScriptedDice) and dice.remaining:
        return run, f"{len(dice.remaining)} die roll(s) left unused: {dice.remaining}"
    return run, ""


@lru_cache(maxsize=64)
def distribution(reading: str, plan: AssaultPlan) -> Distribution:
    """The exact distribution of the assault's outcome (enumerated; cached per reading and plan)."""
    return assault_distribution(assault_example(READINGS[reading]), plan)[0]


# ---------------------------------------------------------------- HTML views

def _drms(out) -> str:
    return "<br>".join(html.escape(d.text()) for d in out.drms) or "none"


def _p_hit(out) -> str:
    from fractions import Fraction
    return fraction_text(Fraction(out.need, 10))


def rounds_html(run: AssaultRun) -> str:
    """Each fire round: every attack with its DRMs and rules, the number needed, its exact chance, the dice
    and the effect; then the statuses after the round."""
    parts = []
    for i, attacks in enumerate(run.rounds, 1):
        rows = []
        for a in attacks:
            o = a.outcome
            eff = "" if not o.hit else f"{o.effect_roll} → <b>{html.escape(o.effect)}</b>"
            cell = run.state.charts.tet.get(o.column, o.effect_roll) if o.hit else None
            if cell is not None and cell.provenance.reconstructed:
                eff += " <sup title='reconstructed Target Effects Table cell'>R</sup>"
            rows.append(f"<tr><td>{a.side}</td><td>{html.escape(' + '.join(a.firers))}</td>"
                        f"<td>{html.escape(a.target)}</td><td class='wg-drm'>{_drms(o)}</td><td>{o.need}</td>"
                        f"<td>{_p_hit(o)}</td><td>{o.roll}</td><td>{'hit' if o.hit else 'miss'}</td><td>{eff}</td></tr>")
        parts.append(f"<table class='wg-round'><caption>Round {i} (F 8.0: simultaneous fire"
                     f"{'; the assaulting units get no terrain modifier' if i == 1 else '; both sides get terrain'})"
                     "</caption><thead><tr><th>side</th><th>firing</th><th>target</th><th>DRMs (rule)</th>"
                     "<th>needs</th><th>P(hit)</th><th>die</th><th>result</th><th>effect</th></tr></thead>"
                     f"<tbody>{''.join(rows)}</tbody></table>")
    return "".join(parts)


def status_html(run: AssaultRun) -> str:
    s = run.state
    rows = []
    for u in sorted(s.units.values(), key=lambda u: (u.player, u.id)):
        where = s.label(u.hex) if u.on_map else "removed"
        marks = ", ".join(m.replace("activated", "activation complete") for m in u.status()) or "—"
        rows.append(f"<tr><td>{html.escape(u.id)}</td><td>{where}</td><td>{'reduced' if u.reduced else 'full'}</td>"
                    f"<td>{html.escape(marks)}</td></tr>")
    cas = ", ".join(f"{c.kind} ({c.side}) in {s.label(c.hex)}" for c in s.casualties.values() if c.hex) or "none"
    return (f"<p><b>Result: {html.escape(run.result or '')}</b>. Casualty markers: {html.escape(cas)}. "
            f"VP: US {s.vp['US']}, NVA/VC {s.vp['NVA/VC']}.</p><table class='wg-status'><thead><tr><th>unit</th>"
            f"<th>hex</th><th>side</th><th>markers</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def outcome_label(o: AssaultOutcome) -> str:
    return o.text()


def distribution_html(dist: Distribution) -> str:
    """The chance of each result, then of each result with its casualty counts."""
    by_result = dist.map(lambda o: o.result)
    return (odds_html(by_result, order=[r for r in RESULTS if by_result[r]],
                      caption="exact chance of each result (cleared, repulsed, unresolved after 3 rounds)")
            + odds_html(dist, label=outcome_label, caption="exact chance of each result with its casualties"))


def reading_note(reading: str) -> str:
    changed = [k for k in ("assault_needs_unsuppressed", "suppressed_defenders_fight_on")]
    rows = "".join(f"<li><code>{SWITCHES[k][0]}</code> {html.escape(SWITCHES[k][2 if reading == 'errata' else 1])}</li>"
                   for k in changed)
    return f"<p>Reading: <b>{reading}</b></p><ul>{rows}</ul>"


# ---------------------------------------------------------------- map

def map_for(run_or_state, width: int = 640):
    state = run_or_state.state if isinstance(run_or_state, AssaultRun) else run_or_state
    return draw_fte_map(state.map, unit_marks(state), region=REGION, width=width,
                        title="Assault on 20.19 (demonstration map, reconstructed)", highlight=[TARGET])


def units_source(state) -> dict:
    """The map's counter data for a position (swapped into the page's map)."""
    return units_data(state.map, unit_marks(state), REGION)


# ---------------------------------------------------------------- static (book) version

def _graph():
    def options(node):
        kind = node[0]
        if kind == "root":
            return [(r, r, lambda n, r=r: ("reading", r)) for r in READINGS]
        if kind == "reading":
            return [(c, c, lambda n, c=c: ("combine", n[1], c)) for c in ("combined", "separate")]
        if kind == "combine":
            return [(t, t, lambda n, t=t: ("target", n[1], n[2], t)) for t in ("US FT 19.19", "US FT 20.20")]
        if kind == "target":
            return [(d, DICE_PRESETS[d], lambda n, d=d: ("leaf", *n[1:], d)) for d in DICE_PRESETS]
        return None

    def plan(node):
        return plan_of(combine=node[2] == "combined", nva_target=node[3])

    def describe(node):
        kind = node[0]
        if kind == "root":
            return {"title": "the rulebook as printed or with the official errata", "odds": ""}
        if kind == "reading":
            return {"title": "combined or separate US fire", "odds": reading_note(node[1])}
        if kind == "combine":
            return {"title": "the NVA unit's target", "odds": ""}
        dist = distribution(node[1], plan(node))
        return {"title": "the dice (the exact odds below cover every possible roll)", "odds": distribution_html(dist)}

    def view(node):
        run, msg = replay(node[1], plan(node), _dice(node[4]))
        note = f"<p class='wg-note'>{html.escape(msg)}</p>" if msg else ""
        if run is None:
            return {"html": [note]}
        return {"sources": {"units": units_source(run.state)},
                "html": [note, status_html(run), rounds_html(run),
                         resolution_html(run.res, "Resolution, step by step")]}

    return build_decision_graph(("root",), options, lambda n: n, view, describe)


def assault_static(width: int = 640):
    """A bokeh layout that responds in a static page: reading, combined fire, the defender's target, dice."""
    graph = _graph()
    run, _ = replay("errata", PRINTED_PLAN, _dice("printed"))
    fig, alt = map_for(run, width=width)
    choices = [
        Select(title="Reading", value="errata", options=[("errata", "with the errata"), ("original", "as printed")],
               tags=["reading"], name="fa-reading", width=170),
        Select(title="US fire", value="combined", options=["combined", "separate"], tags=["US fire"],
               name="fa-combine", width=150),
        Select(title="NVA target", value="US FT 19.19", options=["US FT 19.19", "US FT 20.20"], tags=["NVA target"],
               name="fa-target", width=150),
        Select(title="Dice", value="printed", options=list(DICE_PRESETS.items()), tags=["dice"], name="fa-dice",
               width=260),
    ]
    info = Div(text="", width=width, name="fa-info")
    out = Div(text="", width=width, name="fa-outcome")
    sources = {"units": fig.select_one({"name": "units"}).data_source}
    cb = CustomJS(args={"graph": graph, "choices": choices, "sources": sources, "info": info, "out": out},
                  code=WALKER_JS)
    for s in choices:
        s.js_on_change("value", cb)
    first, notes = walk_graph(graph, [c.value for c in choices])
    out.text = first["html"]
    info.text = "".join(notes)
    return column(row(*choices), fig, out, info, name="fte-assault-static"), graph


# ---------------------------------------------------------------- live (JupyterLab) version

class AssaultLive:
    """ipywidgets front end: every change re-runs the engine; the exact odds are enumerated (and cached)."""

    def __init__(self, width: int = 640):
        import ipywidgets as w
        self.w = w
        self.attackers = w.SelectMultiple(options=CANDIDATES, value=PRINTED_PLAN.attackers,
                                          description="Assaulting", rows=3)
        self.combine = w.Checkbox(value=True, description="combine US fire")
        self.primary = w.Dropdown(options=CANDIDATES[:2], value="US FT 20.20", description="primary")
        self.target = w.Dropdown(options=CANDIDATES, value="US FT 19.19", description="NVA shoots")
        self.opfire = w.Dropdown(options=[("no opportunity fire", None), *[(c, c) for c in CANDIDATES]], value=None,
                                 description="NVA op fire")
        self.reading = w.ToggleButtons(options=[("errata", "errata"), ("as printed", "original")], value="errata")
        self.dice = w.Text(value=" ".join(map(str, ASSAULT_DICE)), description="dice")
        self.roll = w.Button(description="Roll the dice")
        self.odds_button = w.Button(description="Exact odds")
        self.message, self.steps, self.odds = w.HTML(), w.HTML(), w.HTML()
        run, _ = replay("errata", PRINTED_PLAN, _dice("printed"))
        self.fig, _ = map_for(run, width=width)
        self.source = self.fig.select_one({"name": "units"}).data_source
        for c in (self.attackers, self.combine, self.primary, self.target, self.opfire, self.reading, self.dice):
            c.observe(lambda _change: self.update(), names="value")
        self.roll.on_click(self._roll)
        self.odds_button.on_click(lambda _b: self.show_odds())
        self.run = run
        self.update()

    def plan(self) -> AssaultPlan:
        return plan_of(self.attackers.value, self.combine.value, self.primary.value, self.target.value,
                       self.opfire.value)

    def _roll(self, _button) -> None:
        import random
        dice = RandomDice(random.randrange(10**6))
        replay(self.reading.value, self.plan(), dice)
        self.dice.value = " ".join(str(v) for v in dice.script())

    def update(self):
        try:
            values = [int(x) for x in self.dice.value.replace(",", " ").split()]
        except ValueError:
            self.message.value = "<p style='color:#a00'>The dice must be whole numbers 1-10.</p>"
            return None
        run, msg = replay(self.reading.value, self.plan(), ScriptedDice(values, "widget dice"))
        self.message.value = f"<p style='color:#a00'>{html.escape(msg)}</p>" if msg else ""
        if run is not None:
            self.run = run
            self.source.data = units_source(run.state)
            self.steps.value = status_html(run) + rounds_html(run) + resolution_html(run.res, "Resolution")
        self.odds.value = "<p>Press <b>Exact odds</b> to enumerate every possible roll for these choices.</p>"
        return run

    def show_odds(self) -> Distribution:
        self.odds.value = "<p>Enumerating every roll…</p>"
        dist = distribution(self.reading.value, self.plan())
        self.odds.value = distribution_html(dist)
        return dist

    def widget(self):
        from jupyter_bokeh import BokehModel
        w = self.w
        return w.VBox([w.HBox([self.attackers, w.VBox([self.combine, self.primary, self.target, self.opfire])]),
                       self.reading, w.HBox([self.dice, self.roll, self.odds_button]), self.message,
                       BokehModel(self.fig), self.odds, self.steps])
