"""Helpers for the chapter that plays the first turn of Indochina Scenario 1 (book/indochina/play_scenario1.md).

:class:`RandomPlayer` is a seeded random player: it picks among ``game.legal_actions`` and knows nothing of
strategy. :class:`TurnRecord` keeps, per phase, every action applied with the text of its resolution and the
position after it. :func:`phase_map` draws one map of a region with the hexes drawn once and a Select that
swaps in the counters of each phase (bokeh CustomJS, so it works in the static book).
"""
from __future__ import annotations

import html
import random
from dataclasses import dataclass, field

from wargames.viz.hexmap import UnitMark, describe, draw_map, overlay_data, with_alt_text
from wargames.viz.optional import HAVE_BOKEH, bokeh_name, bokeh_names
from wargames.viz.svg import draw_map_svg

column = bokeh_name("bokeh.layouts", "column")
CustomJS, Div, Select = bokeh_names("bokeh.models", "CustomJS", "Div", "Select")

#: the actions that close a phase or a turn; the random player takes them once its budget is spent
CLOSING = ("EndPhase", "ScoreCities", "EndTurn")
#: actions the random player leaves alone: spending political points at random empties the FEF index in the
#: first turn (a sudden-death loss, IC 5.22), and the General Offensive (IC 31) is a once-a-game decision
NEVER = ("Mobilize", "DeclareGeneralOffensive")


def kind(action) -> str:
    return type(action).__name__


@dataclass
class PhaseLog:
    """What happened in one phase: (who acted, action, resolution text) rows and the position at its end."""

    phase: str
    rows: list = field(default_factory=list)
    units: list = field(default_factory=list)
    points: tuple = ()


class TurnRecord:
    """Applies actions to ``game`` and records them by phase (the phase each action was taken in)."""

    def __init__(self, game):
        self.game = game
        self.phases: list[PhaseLog] = []

    def _log(self) -> PhaseLog:
        pid = self.game.phase.id
        if not self.phases or self.phases[-1].phase != pid or self.phases[-1].units:
            self.phases.append(PhaseLog(pid))
        return self.phases[-1]

    def apply(self, action):
        log = self._log()
        who = getattr(self.game.prompt, "side", "") or ""
        res = self.game.apply(action)
        log.rows.append((str(who), str(action), res.text()))
        if kind(action) in CLOSING:
            log.units = unit_marks(self.game)
            log.points = (self.game.points.fef, self.game.points.communist)
        return res

    def log(self, phase: str) -> PhaseLog:
        return next(p for p in self.phases if p.phase == phase)


class RandomPlayer:
    """A seeded random player, not a strategy: in each phase it takes up to ``budget`` actions drawn at random
    from the legal ones (never those in :data:`NEVER`), then the action that closes the phase. A prompt that
    offers no closing action (a CRT choice, a loss, a retreat) it answers at random, outside the budget."""

    def __init__(self, record: TurnRecord, seed: int, budget: dict | None = None, default: int = 1):
        self.record, self.game = record, record.game
        self.rng = random.Random(seed)
        self.budget = budget or {}
        self.default = default
        self.used: dict[str, int] = {}

    def choose(self):
        legal = list(self.game.legal_actions)
        close = [a for a in legal if kind(a) in CLOSING]
        free = [a for a in legal if kind(a) not in CLOSING and kind(a) not in NEVER]
        if not close:
            return self.rng.choice(legal)
        pid = self.game.phase.id
        limit = self.budget.get(self.game.phase.kind, self.default)
        if free and self.used.get(pid, 0) < limit:
            self.used[pid] = self.used.get(pid, 0) + 1
            return self.rng.choice(free)
        return close[0]

    def step(self):
        return self.record.apply(self.choose())

    def finish_phase(self):
        """Play on until the current phase has closed."""
        pid, turn = self.game.phase.id, self.game.turn
        while self.game.phase.id == pid and self.game.turn == turn and not self.game.over:
            self.step()

    def answer_prompts(self):
        """Answer the prompts that offer no closing action (the rest of a combat, say)."""
        while not self.game.over and not any(kind(a) in CLOSING for a in self.game.legal_actions):
            self.step()


def unit_marks(game) -> list[UnitMark]:
    return [UnitMark(u.id, u.hex, u.side.value, u.strength, inverted=u.disrupted)
            for u in game.state.units.values() if u.on_map]


def region(game, cols: tuple[int, int], rows: tuple[int, int]) -> list:
    """The hexes whose printed label CCRR lies in the column and row ranges (both ends included)."""
    m = game.state.map
    out = []
    for h in m.hexes:
        lab = m.label(h)
        c, r = int(lab[:2]), int(lab[2:])
        if cols[0] <= c <= cols[1] and rows[0] <= r <= rows[1]:
            out.append(h)
    return out


def log_html(log: PhaseLog, open_under: int = 12) -> str:
    """The resolutions of one phase, one block per action; a long phase folds into a <details>."""
    parts = []
    for who, action, text in log.rows:
        head = f"<p><b>{html.escape(who or 'the game')}</b>: <code>{html.escape(action)}</code></p>"
        parts.append(head + f"<pre>{html.escape(text)}</pre>")
    body = "".join(parts)
    lines = sum(t.count("\n") + 1 for _, _, t in log.rows)
    if lines > open_under:
        return (f"<details><summary>{html.escape(log.phase)}: {len(log.rows)} action(s), {lines} lines of "
                f"resolution (click to open)</summary>{body}</details>")
    return body


def phase_map(game, snapshots: list[tuple[str, list[UnitMark]]], hexes, title: str, width: int = 760):
    """One map of ``hexes``, drawn once, and a Select that swaps in the counters of each snapshot. Where bokeh
    is missing (the live edition), an ipywidgets dropdown and the map as SVG, redrawn for each snapshot."""
    m = game.state.map
    crop = set(hexes)
    pick = lambda marks: [u for u in marks if u.hex in crop]  # noqa: E731
    first_label, first = snapshots[0]
    if not HAVE_BOKEH:
        return _phase_map_svg(m, snapshots, hexes, title, width, pick)
    fig, _ = draw_map(m, pick(first), title=title, width=width, hexes=hexes, name="indochina-turn-map")
    data = {lab: overlay_data(m, pick(marks), hexes=hexes, dynamic_only=True)["units"] for lab, marks in snapshots}
    words = {lab: f"{title}, position after {lab}: " + describe(m, pick(marks), map_part=False)
             for lab, marks in snapshots}
    alt = words[first_label]
    units = fig.select(name="units")[0].data_source
    select = Select(title="Position after", value=first_label, options=[lab for lab, _ in snapshots],
                    name="phase-select")
    note = Div(text=f"<p class='map-alt-text'>{html.escape(alt)}</p>", width=width)
    select.js_on_change("value", CustomJS(args={"src": units, "data": data, "words": words, "note": note, "fig": fig}, code="""
        const v = cb_obj.value;
        src.data = Object.assign({}, src.data, data[v]);
        const p = document.createElement('p');
        p.className = 'map-alt-text';
        p.textContent = words[v];
        note.text = p.outerHTML;
        fig.html_attributes = Object.assign({}, fig.html_attributes, {'role': 'img', 'aria-label': words[v]});
    """))
    fig.html_attributes = {**fig.html_attributes, "role": "img", "aria-label": alt}
    return column(select, fig, note), words


def _phase_map_svg(m, snapshots, hexes, title: str, width: int, pick):
    import ipywidgets as w
    by_label = dict(snapshots)
    words = {lab: f"{title}, position after {lab}: " + describe(m, pick(marks), map_part=False)
             for lab, marks in snapshots}

    def drawn(lab: str) -> str:
        svg, _ = draw_map_svg(m, pick(by_label[lab]), title=title, width=width, hexes=hexes)
        return svg + f"<p class='map-alt-text'>{html.escape(words[lab])}</p>"

    select = w.Dropdown(options=list(by_label), value=snapshots[0][0], description="Position after")
    view = w.HTML(drawn(snapshots[0][0]))
    select.observe(lambda change: setattr(view, "value", drawn(change["new"])), names="value")
    return w.VBox([select, view]), words
