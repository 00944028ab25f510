"""The Anne-Marie melee (C 11) as a widget, live in JupyterLab and responsive in the static book.

The position is ours, not the rulebook's: the demonstration game (``Game.new()``) at the start of the Vietminh
melee phase, with the four battalions at the wire of Anne-Marie (:data:`AT_THE_WIRE`). The reader picks the
target hex, the attacking battalions and the three dice of one melee (the defender's and the attacker's
pre-melee morale dice, then the Melee Combat Table die). Both versions run the engine's own procedure,
:func:`wargames.citadel.melee.play_melee`, on a copy of that position, and its exact distribution,
:func:`wargames.citadel.melee.melee_odds`:

- :class:`MeleeLive` (ipywidgets + bokeh through jupyter_bokeh) re-resolves on every change;
- :func:`melee_static` plays every target, attacker set and die at build time into a decision graph, which
  :data:`widgets.common.WALKER_JS` walks in the browser.

Decisions inside a melee (where a routed or retreating unit goes, who takes a loss, the advance) are taken as
``melee_odds`` takes them: the first legal option, and an advance with every attacker that stacking lets in.
"""
from __future__ import annotations

import functools
import html
import itertools
from dataclasses import dataclass
from fractions import Fraction

from wargames.citadel import Game
from wargames.citadel.game import EndPhase
from wargames.citadel.melee import MeleeOutcome, advance_all, melee_odds, melee_problem, play_melee
from wargames.core import Distribution, Resolution, ScriptedDice
from wargames.core.dice import DiceError
from wargames.core.errors import RuleViolation
from wargames.viz.hexmap import FireMark, UnitMark, describe, draw_map, overlay_data
from wargames.viz.optional import HAVE_BOKEH, bokeh_name, bokeh_names
from wargames.viz.svg import draw_map_svg

from .common import (WALKER_JS, build_decision_graph, fraction_text, graph_hints, odds_html, percent_text,
                     resolution_html, walk_graph)
from .layout import (aria_map, hints_div, legend_html, map_widget, reset_button, roll_button, summary_div,
                     summary_html, url_state)

row = bokeh_name("bokeh.layouts", "row")
CustomJS, Div, Select = bokeh_names("bokeh.models", "CustomJS", "Div", "Select")

#: Where the battalions stand in our position (reconstructed: the 1st Battalion where the Movement Example
#: left it, the others as if a later night had brought them to the wire).
AT_THE_WIRE = {"1st Bn": "1413", "2nd Bn": "1315", "3rd Bn": "1415", "4th Bn": "1517"}
TARGETS = {"1414": "AM-2 (1414)", "1316": "AM-1, west hex (1316)", "1416": "AM-1, east hex (1416)"}
#: The attacker sets the page offers (the live widget takes any set).
ATTACKER_SETS = [("1st Bn",), ("2nd Bn",), ("3rd Bn",), ("4th Bn",), ("1st Bn", "2nd Bn"), ("2nd Bn", "3rd Bn"),
                 ("1st Bn", "2nd Bn", "3rd Bn"), ("3rd Bn", "4th Bn")]
DICE_LABELS = ["Defender's die", "Attacker's die", "Table die"]     # the two morale checks, then the MCT
DIE_NAMES = ["the defender's pre-melee morale check", "the attacker's pre-melee morale check",
             "the Melee Combat Table"]
DEFAULT = ("1414", ("1st Bn",), (3, 4, 2))
NAME = "am-melee"
#: The map sources that change from one melee to another (no vulnerability points or paths here).
DYNAMIC = ("units", "pin-badges", "fire-lines")
GROUPS = ["defender routed", "attacker routed", "both routed", "pre-melee rout", "defender retreats",
          "attacker retreats", "neither"]
GROUP_TEXT = {"defender routed": "the defenders rout (pre-melee morale check)",
              "attacker routed": "the attackers rout (pre-melee morale check)",
              "both routed": "units of both sides rout",
              "pre-melee rout": "the hex had no infantry: its units are eliminated",
              "defender retreats": "the table makes the defenders retreat",
              "attacker retreats": "the table makes the attackers retreat",
              "neither": "neither side routs or retreats (losses only, or none)"}


def set_key(attackers) -> str:
    return "+".join(attackers)


# --------------------------------------------------------------------------- the position and one melee

@functools.cache
def _base_game() -> Game:
    g = Game.new()
    st = g.state
    for uid, lab in AT_THE_WIRE.items():
        st.unit(uid).hex = st.map.hex(lab)
    while g.phase.id != "VM melee":
        g.apply(EndPhase())
    return g


def wire_state():
    """A fresh copy of our position at the start of the Vietminh melee phase."""
    return _base_game().state.copy()


def wire_game() -> Game:
    """The demonstration game with the battalions at the wire, at the start of the Vietminh melee phase
    (through ``Game.apply``: the units are placed, then the phases before the melee are ended)."""
    g = Game.new()
    st = g.state
    for uid, lab in AT_THE_WIRE.items():
        st.unit(uid).hex = st.map.hex(lab)
    while g.phase.id != "VM melee":
        g.apply(EndPhase())
    return g


@dataclass
class Line:
    """One melee, played with scripted dice: what the widget shows for it."""

    target: str
    attackers: tuple[str, ...]
    dice: tuple[int, ...]                # the dice the melee used (a prefix of those given)
    outcome: MeleeOutcome | None
    res: Resolution
    state: object                        # the position after the melee
    error: RuleViolation | None = None


@functools.cache
def cached_line(target: str, attackers: tuple[str, ...], dice: tuple[int, ...]) -> Line:
    """:func:`play_line`, memoised for the build of the static graph (the lines are only read)."""
    return play_line(target, attackers, dice)


def play_line(target: str, attackers, dice) -> Line:
    """Play one melee from our position with these dice; unused dice are ignored (the melee may end after the
    morale checks)."""
    st = wire_state()
    h = st.map.hex(target)
    attackers = tuple(attackers)
    res = Resolution()
    why = melee_problem(st, list(attackers), h) if attackers else "name at least one attacking unit"
    if why:
        return Line(target, attackers, (), None, res, st, RuleViolation("C 11", why))
    script = ScriptedDice(list(dice), source="widget dice")
    outcome = play_melee(st, list(attackers), h, script, res, choose=advance_all)
    return Line(target, attackers, tuple(dice[:script.used]), outcome, res, st)


def needs(target: str, attackers, dice) -> bool:
    """Whether the melee needs another die after ``dice`` (the script runs out)."""
    try:
        play_line(target, attackers, tuple(dice))
    except DiceError:
        return True
    return False


@functools.cache
def odds(target: str, attackers: tuple[str, ...]) -> Distribution:
    """The exact distribution of the melee's outcome: :func:`melee_odds` on our position."""
    st = wire_state()
    return melee_odds(st, list(attackers), st.map.hex(target))


def conditional(target: str, attackers: tuple[str, ...], prefix: tuple[int, ...]) -> Distribution:
    """The outcome's distribution once the first dice are known (every later die equally likely)."""
    acc: dict = {}
    rest = 3 - len(prefix)
    for tail in itertools.product(range(1, 7), repeat=rest):
        o = cached_line(target, attackers, prefix + tail).outcome
        acc[o] = acc.get(o, Fraction(0)) + Fraction(1, 6 ** rest)
    return Distribution(acc)


# --------------------------------------------------------------------------- HTML

def group_dist(d: Distribution) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for o, p in d.items():
        out[o.result] = out.get(o.result, Fraction(0)) + p
    return out


def odds_block(d: Distribution, caption: str = "") -> str:
    """The exact odds, grouped: how the melee ends, whether the hex is taken, and each side's losses."""
    grouped = Distribution(group_dist(d))
    taken = d.prob(lambda o: o.taken)
    att = Distribution(_sum_by(d, lambda o: o.attacker_losses))
    dfn = Distribution(_sum_by(d, lambda o: o.defender_losses))
    return ((f"<p>{html.escape(caption)}</p>" if caption else "")
            + odds_html(grouped, label=lambda g: GROUP_TEXT[g], order=GROUPS, caption="how the melee ends")
            + f"<p class='wg-taken'>The Vietminh stand in the hex at the end: <b>{percent_text(taken)}</b> "
              f"(exactly {fraction_text(taken)}).</p>"
            + odds_html(att, label=lambda n: f"attacker loses {n} SP", order=sorted(att),
                        caption="attacker's strength points lost")
            + odds_html(dfn, label=lambda n: f"defender loses {n} SP", order=sorted(dfn),
                        caption="defender's strength points lost (a routed or retreating company keeps the rest)"))


def _sum_by(d: Distribution, f) -> dict:
    out: dict = {}
    for o, p in d.items():
        out[f(o)] = out.get(f(o), Fraction(0)) + p
    return out


def summary_text(line: Line) -> str:
    if line.error is not None:
        return html.escape(f"Refused ({line.error.rule}): {line.error.reason}.")
    o, st = line.outcome, line.state
    where = {u.id: (st.label(u.hex) if u.on_board else "eliminated")
             for u in st.units.values() if u.counter.cls.name == "INFANTRY"}
    words = {"defender routed": "the defenders rout", "attacker routed": "the attackers rout",
             "both routed": "both sides rout", "pre-melee rout": "the hex falls without a fight",
             "defender retreats": "the defenders retreat", "attacker retreats": "the attackers retreat",
             "neither": "nobody moves"}[o.result]
    held = "the Vietminh take " + TARGETS[line.target] if o.taken else TARGETS[line.target] + " stays French"
    movers = ", ".join(f"{u} in {where[u]}" for u in line.attackers)
    return html.escape(f"{words[0].upper()}{words[1:]}; losses {o.attacker_losses} (attacker) and "
                       f"{o.defender_losses} (defender); {held}. Now: {movers}.")


def line_parts(line: Line) -> list[str]:
    """The resolution as HTML fragments, one per step (the static page stores each distinct step once)."""
    if line.error is not None:
        return [f"<p class='wg-error'>The engine refuses this attack: <code>{line.error.rule}</code> "
                f"{html.escape(line.error.reason)}.</p>"]
    full = resolution_html(line.res, "Resolution, step by step (our reconstructed table, R)")
    head, rest = full.split("<ol class='wg-steps'>", 1)
    items = rest[:-len("</ol>")].split("</li>")[:-1]
    return [head + "<ol class='wg-steps'>", *(i + "</li>" for i in items), "</ol>"]


def line_html(line: Line) -> str:
    return "".join(line_parts(line))


def alt_parts(alt: str) -> list[str]:
    sentences = [x if x.endswith(".") else x + "." for x in alt.split(". ") if x]
    return ["<p class='map-alt-text'><b>The position in words.</b> "] + [html.escape(x) + " " for x in sentences] \
        + ["</p>"]


def short_odds(d: Distribution) -> str:
    """One line: the chance of each way the melee can still end, and of the hex being taken."""
    g = group_dist(d)
    bits = [f"{GROUP_TEXT[k].split(' (')[0]} {percent_text(g[k])} ({fraction_text(g[k])})" for k in GROUPS if g.get(k)]
    taken = d.prob(lambda o: o.taken)
    return (f"<p>From here: {html.escape('; '.join(bits))}; the hex is taken with chance {percent_text(taken)} "
            f"({fraction_text(taken)}).</p>")


# --------------------------------------------------------------------------- the map

@functools.cache
def crop() -> tuple:
    m = _base_game().state.map
    return tuple(sorted((h for h in m.hexes if 11 <= m.layout.to_offset(h)[0] <= 17
                         and 12 <= m.layout.to_offset(h)[1] <= 19), key=m.label))


def marks(line: Line):
    st = line.state
    units = [UnitMark(u.id, u.hex, u.side.value, u.strength, u.losses, u.pinned, u.inverted, u.eliminated,
                      u.counter.name) for u in st.units.values() if (u.on_board or u.eliminated)
             and u.counter.cls.name != "HEAVY_WEAPONS"]
    lines = [FireMark(a, AT_THE_WIRE[a], line.target, "melee",
                      "melee" if line.outcome is None else f"melee: {line.outcome.result}",
                      f"melee attack on {line.target}") for a in line.attackers]
    return units, lines


def sources(line: Line) -> dict:
    units, lines = marks(line)
    data = overlay_data(line.state.map, units, fire_lines=lines, hexes=list(crop()), dynamic_only=True)
    return {k: v for k, v in data.items() if k in DYNAMIC}


def alt_text(line: Line) -> str:
    units, lines = marks(line)
    return describe(line.state.map, units, fire_lines=lines, map_part=False)


def _map_args(line: Line, width: int) -> tuple[tuple, dict]:
    units, lines = marks(line)
    return (line.state.map, units), dict(fire_lines=lines, hexes=list(crop()), width=width, highlight=list(TARGETS),
                                         title="Anne-Marie: the melee (position reconstructed)",
                                         highlight_label="target hexes")


def figure(line: Line, width: int = 560):
    args, kw = _map_args(line, width)
    fig, _ = draw_map(*args, name="melee-map", **kw)
    return fig


def map_svg(line: Line, width: int = 560) -> str:
    """The same map as :func:`figure`, as SVG (the live edition's map)."""
    args, kw = _map_args(line, width)
    return draw_map_svg(*args, **kw)[0]


def _bind(fig) -> dict:
    out = {}
    for name in DYNAMIC:
        model = fig.select_one({"name": name})
        out[name] = getattr(model, "data_source", None) or getattr(model, "source", None)
    return out


def _apply(srcs: dict, data: dict) -> None:
    for name, cols in data.items():
        srcs[name].data = {**srcs[name].data, **cols}


# --------------------------------------------------------------------------- static (book) version

def graph():
    """Every target, attacker set and die, played at build time into a decision graph."""
    def options(node):
        kind = node[0]
        if kind == "root":
            return [(t, lab, lambda _n, t=t: ("target", t)) for t, lab in TARGETS.items()]
        if kind == "target":
            return [(set_key(a), " + ".join(a), lambda n, a=a: ("attack", n[1], a, ())) for a in ATTACKER_SETS]
        _, target, attackers, dice = node
        if _refused(target, attackers) or len(dice) == 3 or (len(dice) == 2 and not needs(target, attackers, dice)):
            return None
        return [(str(d), str(d), lambda n, d=d: ("attack", n[1], n[2], n[3] + (d,))) for d in range(1, 7)]

    def key(node):
        return node

    def describe_node(node):
        if node[0] == "root":
            return {"title": "the target hex", "odds": "", "hint": "which French-held hex is attacked"}
        if node[0] == "target":
            return {"title": f"the attackers of {TARGETS[node[1]]}", "odds": "",
                    "hint": "which battalions attack (only those next to the target may)"}
        _, target, attackers, dice = node
        i = len(dice)
        odds_text = (odds_block(odds(target, attackers), "The exact odds of this attack (over every die):")
                     if i == 0 else short_odds(conditional(target, attackers, dice)))
        return {"title": html.escape(f"the die for {DIE_NAMES[i]} ({' + '.join(attackers)} on {target})"),
                "odds": odds_text,
                "hint": html.escape(f"die for {DIE_NAMES[i]}")}

    def view(node):
        if node[0] != "attack":
            return {"html": ["<p>Pick a value for every choice.</p>"]}
        _, target, attackers, dice = node
        line = cached_line(target, attackers, dice + (1,) * (3 - len(dice)))
        words = alt_parts(alt_text(line))
        return {"sources": sources(line), "html": line_parts(line) + words,
                "summary": summary_html(summary_text(line)), "alt": words[1:-1]}

    return build_decision_graph(("root",), options, key, view, describe_node)


def _refused(target, attackers) -> bool:
    st = _base_game().state
    return melee_problem(st, list(attackers), st.map.hex(target)) is not None


def legend() -> str:
    return legend_html("What the widget shows (C 11, C MCT)", {
        "a/d": "Melee Combat Table result: strength points lost by the attacker / the defender",
        "r": "after a number: that side's units retreat one hex",
        "rout": "a unit whose side's morale check loses by more than its own morale flees one hex",
        "taken": "the attackers advance into the emptied hex",
        "dashed": "outlined hexes: the three target hexes of Anne-Marie",
    }, note="The position, the table and the terrain shifts are reconstructed<sup>R</sup>; the procedure's "
            "steps 4-5 and retreat and rout movement are our reading (see the chapter).")


def melee_static(width: int = 560):
    """A bokeh layout that answers from the precomputed graph in a static page; returns (layout, graph)."""
    g = graph()
    target, attackers, dice = DEFAULT
    line = play_line(target, attackers, dice)
    fig = figure(line, width)
    t = Select(title="Target hex", value=target, options=list(TARGETS.items()), tags=["target"],
               name="melee-target", width=280)
    a = Select(title="Attacking battalions", value=set_key(attackers),
               options=[(set_key(s), " + ".join(s)) for s in ATTACKER_SETS], tags=["attackers"],
               name="melee-attackers", width=280)
    ds = [Select(title=DICE_LABELS[i], value=str(dice[i]), options=[str(x) for x in range(1, 7)],
                 tags=[f"die {i + 1}"], name=f"melee-die-{i + 1}", width=130) for i in range(3)]
    values = [target, set_key(attackers), *map(str, dice)]
    v, notes = walk_graph(g, values)
    info = Div(text="".join(notes), name="melee-info")
    out = Div(text=v["html"], name="melee-outcome", tags=[v["parts"]])
    summary = summary_div(NAME, v["summary"])
    hints = hints_div(NAME, graph_hints(g, values, ["target", "attackers", "die 1", "die 2", "die 3"]))
    aria_map(fig, alt_text(line))
    _apply(_bind(fig), v["sources"])
    cb = CustomJS(args={"graph": g, "choices": [t, a, *ds], "sources": _bind(fig), "info": info, "out": out,
                        "hints": hints, "summary": summary, "fig": fig}, code=WALKER_JS)
    for s in (t, a, *ds):
        s.js_on_change("value", cb)
    keyed = {"target": t, "attackers": a, **{f"d{i + 1}": d for i, d in enumerate(ds)}}
    buttons = [reset_button(NAME, keyed, dict(zip(keyed, values)), label="First example"), roll_button(NAME, ds)]
    layout = map_widget(NAME, controls=[t, a, row(*ds[:2]), ds[2]], fig=fig, summary=summary,
                        details=[out, info], legend=legend(), hints=hints, buttons=buttons,
                        map_max_width=int(width * 1.1), legend_beside=True)
    url_state(NAME, keyed, layout)
    return layout, g


# --------------------------------------------------------------------------- live (JupyterLab) version

class MeleeLive:
    """ipywidgets front end: every change replays the melee with the engine and recomputes its odds."""

    def __init__(self, width: int = 560, svg: bool | None = None):
        import ipywidgets as w
        self.w = w
        self.svg = not HAVE_BOKEH if svg is None else svg      # the live edition has no bokeh: an SVG map
        self.width = width
        target, attackers, dice = DEFAULT
        self.target = w.Dropdown(options=[(v, k) for k, v in TARGETS.items()], value=target, description="target")
        self.attackers = {b: w.Checkbox(value=b in attackers, description=f"{b} ({h})", indent=False)
                          for b, h in AT_THE_WIRE.items()}
        self.dice = [w.Dropdown(options=list(range(1, 7)), value=dice[i], description=f"die {i + 1}",
                                layout=w.Layout(width="150px")) for i in range(3)]
        self.roll = w.Button(description="Roll the dice")
        self.summary, self.steps, self.odds = w.HTML(), w.HTML(), w.HTML()
        if self.svg:
            self.map = w.HTML()
        else:
            self.fig = figure(play_line(target, attackers, dice), width)
            self.sources = _bind(self.fig)
        for c in [self.target, *self.attackers.values(), *self.dice]:
            c.observe(lambda _change: self.update(), names="value")
        self.roll.on_click(self._roll)
        self._rng = None
        self.update()

    def _roll(self, _button) -> None:
        import random
        self._rng = self._rng or random.Random()
        for d in self.dice:
            d.value = self._rng.randint(1, 6)

    def chosen(self) -> tuple[str, ...]:
        return tuple(b for b, c in self.attackers.items() if c.value)

    def update(self) -> Line:
        target, attackers = self.target.value, self.chosen()
        line = play_line(target, attackers, tuple(d.value for d in self.dice))
        if self.svg:
            self.map.value = map_svg(line, self.width)
        else:
            _apply(self.sources, sources(line))
        self.summary.value = summary_html(summary_text(line))
        self.steps.value = line_html(line)
        self.odds.value = "" if line.error else odds_block(odds(target, attackers), "the exact odds of this attack")
        self.line = line
        return line

    def widget(self):
        w = self.w
        if self.svg:
            shown = self.map
        else:
            from jupyter_bokeh import BokehModel
            shown = BokehModel(self.fig)
        return w.VBox([w.HBox([self.target, *self.attackers.values()]), w.HBox([*self.dice, self.roll]),
                       self.summary, shown, w.HBox([self.steps, self.odds])])
