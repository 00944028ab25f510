"""What the eight Citadel scenario chapters share: a set-up played through the engine's own prompts with one
fixed, simple policy, the set-up map cropped to the counters with its description in words, and the dated
rules that fall within a scenario.

The policy is deliberately simple, not good: every French unit takes the first hex the engine offers; the
Vietminh dig nothing (they end the works stage at once); each Vietminh unit takes, among the hexes offered, the
one nearest to a French-held strongpoint; each regimental headquarters marker goes into the first jungle zone
offered (C 12.B.3); the French base as few aircraft in the revetment as the scenario allows (SR 2.4). Every
placement goes through ``Game.apply`` and is checked by SR 2.
"""
from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass

from wargames.citadel.air import ROTATION, STRIKE_START
from wargames.citadel.entrench import DIG_FROM
from wargames.citadel.game import EndPhase
from wargames.citadel.optional import ROCKETS_FROM
from wargames.citadel.replacements import VM_REPLACEMENTS_FROM
from wargames.citadel.scenarios import vm_strengths
from wargames.citadel.strongpoints import controller, strongpoint_at
from wargames.citadel.terrain import MONSOON_DATE, strongpoints
from wargames.citadel.units import Side
from wargames.viz.hexmap import center, citadel_map
from wargames.viz.optional import HAVE_BOKEH
from wargames.viz.svg import SvgMap, citadel_map_svg

#: Rules that start on a date of the battle (rule, what begins), in date order.
DATED_RULES = ((DIG_FROM, "C 18", "the Vietminh may dig trenches, tunnels and weapons pits"),
               (VM_REPLACEMENTS_FROM, "C 15.A", "the Vietminh receive replacements, three points a day"),
               (MONSOON_DATE, "C 13", "the monsoon swamps turn to swamp"),
               (STRIKE_START, "C 32", "the civilian pilots may strike"),
               (ROTATION, "C 33", "naval rotation: the SB2Cs and F6Fs leave, the F4Us arrive"),
               (ROCKETS_FROM, "C 35", "the Vietminh may fire rockets"))


@dataclass(frozen=True)
class Stage:
    """One stage of a played set-up: who placed, the prompt that opened it and how many actions it took."""

    stage: str
    prompt: str
    actions: int


@dataclass(frozen=True)
class SetupRun:
    """A played set-up: its stages, and what the engine did when the last placement opened the first day
    (the phases that need no decision, up to the first prompt of play), as ``(rule, text)`` steps."""

    stages: list[Stage]
    opening: list[tuple[str, str]]


def play_setup(game) -> SetupRun:
    """Answer every set-up prompt of ``game`` (just made by ``Game.new("scenarioN")``) with the fixed policy."""
    m = game.state.map
    targets: list = []
    near: dict[str, int] = {}
    stages: list[Stage] = []
    last = None

    def nearness(label: str) -> int:
        if label not in near:
            h = m.hex(label)
            near[label] = min(h.distance(t) for t in targets)
        return near[label]

    while game.phase.id == "set-up":
        stage = game.state.setup_stage          # looked up afresh: probing the legal actions may replace the state
        if not stages or stages[-1].stage != stage:
            stages.append(Stage(stage, str(game.prompt), 0))
        stages[-1] = Stage(stage, stages[-1].prompt, stages[-1].actions + 1)
        acts = list(game.legal_actions)
        if EndPhase() in acts:                  # the works stage: dig nothing
            last = game.apply(EndPhase())
        elif stage == "Vietminh":
            if not targets:
                targets += [h for name, hs in strongpoints(m).items()
                            if controller(game.state, name) is Side.FRENCH for h in hs]
            last = game.apply(min(acts, key=lambda a: nearness(a.hex)))
        else:
            last = game.apply(acts[0])
    return SetupRun(stages, [(s.rule, s.text) for s in (last.steps if last else ()) if s.rule != "C SR 2"])


def notation(p) -> str:
    """A placement in the booklet's notation (SR 1.A.5): R for inverted, a number for the points lost."""
    note = ("R" if p.inverted else "") + (str(p.losses) if p.losses else "")
    return f"{p.counter}({note})" if note else p.counter


def forces(outline) -> list[str]:
    """Both sides' forces as the outline and the chart give them, one printable line each."""
    lines = []
    for side, groups in (("French", outline.french), ("Vietminh", outline.vietminh)):
        for g in groups:
            lines.append(f"{side} at {g.at}: " + ", ".join(notation(p) for p in g.placements))
    for side, arrivals in (("French", outline.french_reinforcements), ("Vietminh", outline.vm_reinforcements)):
        lines.append(f"{side} reinforcements: " + ("; ".join(
            f"{d:%d %B}: {', '.join(p.counter for p in ps)}" for d, ps in sorted(arrivals.items())) or "none"))
    if outline.withheld:
        lines.append("Vietminh withheld (SR 2.3): " + ", ".join(p.counter for p in outline.withheld))
    by_regiment: dict[str, list[str]] = {}
    for cid, p in vm_strengths(outline).items():
        note = notation(p).partition("(")[2].rstrip(")")
        by_regiment.setdefault(cid.split("/")[1], []).append(note or "NL")
    lines.append("Vietminh battalions by regiment: "
                 + "; ".join(f"{reg} {' '.join(states)}" for reg, states in by_regiment.items()))
    return lines


def chart(outline) -> list[str]:
    """The Scenario Information Chart column the engine reads, and where each value comes from."""
    info = outline.information
    lines = [f"{k}: {info[k]}" for k in ("french_supply", "french_aircraft", "french_aircraft_aborted", "vm_supply",
                                         "vm_trenches", "french_replacements", "vm_strongpoints")]
    return lines + [f"provenance of {k}: {v}" for k, v in info["provenance"].items()]


def provenance_counts(state) -> Counter:
    """Where the values of a game's counters come from (order of battle, data/oob/): "text" when the rules print
    them all, "partly reconstructed" when the rules name the unit but not all its values, else "reconstructed"."""
    kinds = Counter()
    for u in state.units.values():
        p = u.counter.provenance
        kinds["reconstructed" if not p.startswith("text") else
              "partly reconstructed" if "reconstructed" in p else "text"] += 1
    return kinds


def dated_rules(outline) -> list[tuple[str, dt.date, str, str]]:
    """The dated rules of :data:`DATED_RULES` as a scenario meets them: ("in force", date, rule, what) for
    those in force from its first day, ("starts", ...) for those that begin during it."""
    out = []
    for when, rule, what in DATED_RULES:
        if when <= outline.start:
            out.append(("in force", when, rule, what))
        elif when <= outline.end:
            out.append(("starts", when, rule, what))
    return out


def setup_words(state) -> str:
    """The set-up in words: the French counters by strongpoint, the Vietminh ones by terrain."""
    french: dict[str, list[str]] = {}
    vm = Counter()
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if not u.on_board:
            continue
        if u.side is Side.FRENCH:
            where = strongpoint_at(state, u.hex) or state.label(u.hex)
            french.setdefault(where, []).append(u.id + (" inverted" if u.inverted else "")
                                                + (f" -{u.losses}" if u.losses else ""))
        else:
            vm[state.map.terrain(u.hex).replace("_", " ")] += 1
    held = sorted(n for n in strongpoints(state.map) if controller(state, n) is Side.VIETMINH)
    return ("French: " + "; ".join(f"{where}: {', '.join(ids)}" for where, ids in sorted(french.items()))
            + f". Vietminh: {sum(vm.values())} counters, "
            + ", ".join(f"{n} in {t}" for t, n in vm.most_common())
            + (f"; Vietminh-held strongpoints: {', '.join(held)}." if held else "; no strongpoint Vietminh-held."))


def setup_map(state, title: str, name: str, width: int = 720):
    """The set-up drawn on the valley, cropped to the placed counters with a margin of about one hex.

    Returns ``(figure, summary)``: the summary (counter counts and the crop) serves as the map's accessible
    name; :func:`setup_words` gives the full description. Where bokeh is missing (the live edition) the figure
    is the same map as SVG (:class:`wargames.viz.svg.SvgMap`)."""
    xs, ys = zip(*(center(u.hex) for u in state.units.values() if u.on_board))
    crop = [h for h in state.map.hexes if min(xs) - 1.5 <= center(h)[0] <= max(xs) + 1.5
            and min(ys) - 1.5 <= center(h)[1] <= max(ys) + 1.5]
    counts = Counter(u.side for u in state.units.values() if u.on_board)
    labels = sorted(state.label(h) for h in crop)
    if HAVE_BOKEH:
        fig, _ = citadel_map(state, hexes=crop, width=width, title=title, name=name)
    else:
        fig = SvgMap(*citadel_map_svg(state, hexes=crop, width=width, title=title))
    summary = (f"{title}: {counts[Side.FRENCH]} French and {counts[Side.VIETMINH]} Vietminh counters; the map "
               f"shows {len(crop)} of the valley's {len(state.map.hexes)} hexes, {labels[0]} to {labels[-1]}")
    return fig, summary


__all__ = ["DATED_RULES", "SetupRun", "Stage", "chart", "dated_rules", "forces", "notation", "play_setup", "provenance_counts",
           "setup_map", "setup_words"]
