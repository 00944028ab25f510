"""The assault rounds (F 8.0 Assault Example) as a widget, live in JupyterLab and responsive in the static book.

Both versions run the same engine code, :func:`wargames.fte.assault.assault` on the position of
:func:`wargames.fte.examples.assault_example`:

- :class:`AssaultLive` (ipywidgets + bokeh through jupyter_bokeh) lets the reader choose the assaulting
  units, combined fire and its primary firer, the defender's target, the defender's opportunity fire before
  the TQ checks and its dice, the errata reading and every die, and re-resolves on each change; the exact
  outcome distribution comes from enumeration;
- :func:`assault_static` enumerates at build time the printed example's choices (with the errata or the
  original reading, combined or separate fire, either defender target, no opportunity fire or a shot at one
  of the assaulting units with a few presets of its dice) and a set of dice for the rest (the printed ones and
  seeded rolls) into a decision graph that :data:`widgets.common.WALKER_JS` walks in the page.
"""
from __future__ import annotations

import html
import re
from fractions import Fraction
from functools import lru_cache

from wargames.core import DataError, Distribution, RandomDice, ScriptedDice
from wargames.core.dist import enumerate_chain
from wargames.core.errors import RuleViolation
from wargames.fte.assault import RESULTS, AssaultOutcome, AssaultPlan, AssaultRun, assault_distribution, start
from wargames.fte.errata import ERRATA, ORIGINAL, SWITCHES
from wargames.fte.examples import ASSAULT_DICE, assault_example
from wargames.viz.fte import describe_fte, draw_fte_map, draw_fte_map_svg, region_map, unit_marks, units_data
from wargames.viz.optional import HAVE_BOKEH, bokeh_names

from .common import (WALKER_JS, build_decision_graph, fraction_text, graph_hints, idle_choices, odds_html,
                     resolution_html, walk_graph)
from .layout import (CONTROL_WIDTH, aria_map, hints_div, legend_html, map_widget, reset_button, roll_button, summary_div,
                     summary_html, url_state)

CustomJS, Div, Select = bokeh_names("bokeh.models", "CustomJS", "Div", "Select")

READINGS = {"errata": ERRATA, "original": ORIGINAL}
READING_LABELS = {"errata": "with the errata", "original": "as printed"}
TARGET = "20.19"
CANDIDATES = ("US FT 20.20", "US FT 19.19", "US Ldr")   # the US units adjacent to the NVA hex
PRINTED_PLAN = AssaultPlan(("US FT 20.20", "US FT 19.19"), TARGET, combine=True, primary="US FT 20.20",
                           defender_targets=(("NVA FT", "US FT 19.19"),))
DICE_PRESETS = {"printed": "the printed dice " + " ".join(map(str, ASSAULT_DICE)),
                **{f"seed {i}": f"rolled dice (seed {i})" for i in range(1, 13)}}
# The defender's opportunity fire before the TQ checks (F 8.0 step 3, F 21.0): none (as printed) or a shot at one
# assaulting unit. Its dice are a few presets, in the order the engine rolls them: the NVA unit's TQ check, then
# to-hit and effect; the rest of the assault takes the dice chosen under "Dice". A test checks every label
# against the engine, for both targets and both readings.
OPFIRE_CHOICES = {"none": "no fire (as printed)", "US FT 19.19": "at US FT 19.19", "US FT 20.20": "at US FT 20.20"}
OPFIRE_DICE = {
    "fails": ((7,), "TQ 7: fails its check"),
    "misses": ((2, 10), "TQ 2, to-hit 10: misses"),
    "WIA": ((2, 1, 2), "TQ 2, to-hit 1, effect 2: WIA"),
    "S": ((2, 1, 8), "TQ 2, to-hit 1, effect 8: S"),
    "B": ((2, 1, 5), "TQ 2, to-hit 1, effect 5: B"),
}
REGION = (17, 22, 18, 21)   # columns 17-22, rows 18-21: every hex a unit starts in or retreats to (a test checks)
MAP_TITLE = "Assault on 20.19 (demonstration map, reconstructed)"

# The two errata switches the assault depends on, in our words, for each reading (rule F 8.0).
READING_NOTES = {
    "assault_needs_unsuppressed": {
        "errata": "a unit with a Suppressed marker may not be activated to assault; only unsuppressed units "
                  "can start one",
        "original": "a suppressed unit may still be activated to assault",
    },
    "suppressed_defenders_fight_on": {
        "errata": "during the fire rounds only suppressed attackers drop out; a suppressed defender keeps "
                  "firing, with its marker's penalty",
        "original": "a suppressed unit on either side drops out of the fire rounds, defenders included",
    },
}

# Every code the map, the round tables and the summary can show, in our words with the rule that defines it.
RESULT_CODES = {
    "KIA": "killed: a full 3-man team is flipped to its reduced side, a smaller or reduced unit is removed, and a "
           "KIA marker is placed (F 7.4, F 7.5.1)",
    "WIA": "wounded: like KIA for the unit, with a WIA marker instead (F 7.4, F 7.5.1)",
    "B": "broken: the unit retreats two hexes and is marked Activation Complete (F 7.4, F 8.0)",
    "S": "suppressed: the unit fires with a penalty and is marked Activation Complete; a second S breaks it "
         "(F 7.4)",
    "S?": "possible suppression: the target takes a Troop Quality check and is suppressed only if it fails "
          "(F 7.4, F 1.2)",
    "C": "concealed: the unit is hidden and harder to hit; assaulting units drop it first, defenders after "
         "round 1 (F 18.1, F 8.0)",
    "AC": "activation complete: the unit has acted this turn (F 5.0)",
    "OF": "op fired: the unit has tried opportunity fire this activation, whether or not its check passed "
          "(F 21.0)",
    "TQ": "Troop Quality: a check passes on a d10 roll at or under the unit's TQ; a 1 always passes and a 10 "
          "always fails (F 1.2, F 8.0)",
    "cleared": "every defender is broken or gone; unsuppressed, unbroken attackers may advance in (F 8.0)",
    "repulsed": "no assaulting unit is left in the fight (F 8.0)",
    "unresolved": "both sides are still in the fight after the third round (F 8.0)",
}


def plan_of(attackers=PRINTED_PLAN.attackers, combine: bool = True, primary: str | None = "US FT 20.20",
            nva_target: str = "US FT 19.19", opfire: str | None = None) -> AssaultPlan:
    """An assault plan from the widget's choices."""
    return AssaultPlan(tuple(attackers), TARGET, combine=combine, primary=primary if combine else None,
                       defender_targets=(("NVA FT", nva_target),),
                       defender_opfire=(("NVA FT", opfire),) if opfire else ())


@lru_cache(maxsize=None)
def _position(reading: str):
    return assault_example(READINGS[reading])


def example_position(reading: str):
    """The Assault Example's position under a reading: a fresh copy of one built once (building it loads the
    charts, most of the time of a replay)."""
    return _position(reading).copy()


def _dice(preset: str):
    if preset == "printed":
        return ScriptedDice(ASSAULT_DICE, "printed dice")
    return RandomDice(int(preset.split()[1]))


def _opfire_dice(preset: str | None):
    return None if preset is None else ScriptedDice(OPFIRE_DICE[preset][0], "opportunity fire dice")


def replay(reading: str, plan: AssaultPlan, dice, opfire_dice=None) -> tuple[AssaultRun | None, str]:
    """Run the assault; returns the run and a message (empty, or why it could not be played out).

    ``opfire_dice`` (optional) rolls for the defenders' opportunity fire before the TQ checks, ``dice`` for
    every other step, so the printed dice keep their places whatever the opportunity fire rolls."""
    state = example_position(reading)
    try:
        run = start(state, plan)
        while not run.done:
            run.step(opfire_dice if run.phase == "opfire" and opfire_dice is not None else dice)
    except (RuleViolation, DataError) as e:
        return None, f"{getattr(e, 'rule', '')} {e}"
    unused = [f"{len(d.remaining)} {what}die roll(s) left unused: {d.remaining}"
              for d, what in ((opfire_dice, "opportunity fire "), (dice, ""))
              if isinstance(d, ScriptedDice) and d.remaining]
    return run, "; ".join(unused)


@lru_cache(maxsize=64)
def distribution(reading: str, plan: AssaultPlan) -> Distribution:
    """The exact distribution of the assault's outcome (enumerated; cached per reading and plan)."""
    return assault_distribution(example_position(reading), plan)[0]


# ---------------------------------------------------------------- HTML views

def _drms(out) -> str:
    return "<br>".join(html.escape(d.text()) for d in out.drms) or "none"


def _p_hit(out) -> str:
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
            f"<th>hex</th><th>strength</th><th>markers</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def outcome_label(o: AssaultOutcome) -> str:
    return o.text()


CASUALTY_ROWS = 4   # per result: the likeliest casualty counts, then one row for the rest


def distribution_html(dist: Distribution) -> str:
    """The chance of each result; then, for each result, its likeliest casualty counts and one row summing the
    others (every chance is of the whole assault; the exact fraction is on hover)."""
    by_result = dist.map(lambda o: o.result)
    parts = [odds_html(by_result, order=[r for r in RESULTS if by_result[r]],
                       caption="Exact chance of each result (cleared, repulsed, or unresolved after 3 rounds)")]
    for r in RESULTS:
        if not by_result[r]:
            continue
        part = {o: dist[o] for o in dist if o.result == r and dist[o]}   # a part of the whole: not a Distribution
        parts.append(odds_html(part, label=casualty_label, limit=CASUALTY_ROWS,
                               caption=f"{r}: the casualties (each chance is of the whole assault)"))
    return "".join(parts)


def reading_note(reading: str) -> str:
    """What the chosen reading says on the two points of F 8.0 the errata changed (whole sentences)."""
    rows = "".join(f"<li><code>{SWITCHES[k][0]}</code> {html.escape(notes[reading])}.</li>"
                   for k, notes in READING_NOTES.items())
    name = "with the official errata" if reading == "errata" else "as first printed"
    return f"<p>Reading: <b>the rulebook {name}</b></p><ul>{rows}</ul>"


def casualty_label(o: AssaultOutcome) -> str:
    """The casualties of an outcome, without its result (the group it sits in names that)."""
    def side(kia, wia):
        bits = [f"{kia} KIA"] * bool(kia) + [f"{wia} WIA"] * bool(wia)
        return " and ".join(bits) or "no casualties"
    return f"US {side(o.attacker_kia, o.attacker_wia)}; NVA {side(o.defender_kia, o.defender_wia)}"


RESULT_WORDS = {"cleared": "Hex 20.19 cleared", "repulsed": "Assault repulsed",
                "unresolved": "Unresolved after three rounds"}


def changes(state, before) -> list[str]:
    """What became of each unit that was hit since the position ``before``, then the casualty markers placed."""
    bits = []
    for u in sorted(state.units.values(), key=lambda u: (u.player, u.id)):
        if not u.on_map:
            bits.append(f"{u.id} removed")
        elif u.broken:
            bits.append(f"{u.id} broken, now in {state.label(u.hex)}")
        elif u.suppressed:
            bits.append(f"{u.id} suppressed")
        if u.on_map and u.reduced and not before.units[u.id].reduced:
            bits.append(f"{u.id} reduced")
    return bits + [f"{c.kind} marker in {state.label(c.hex)}" for c in state.casualties.values() if c.hex]


def summary_text(run: AssaultRun | None, reading: str, msg: str = "") -> str:
    """One line: the assault's result and what became of each unit that was hit (HTML)."""
    if run is None:
        return f"<b>Not played out</b>: {html.escape(msg)}"
    tail = "; ".join(changes(run.state, example_position(reading))) or "no unit hit"
    return f"<b>{RESULT_WORDS[run.result]}</b>: {html.escape(tail)}."


def opfire_result(state, before) -> str:
    """What the defender's opportunity fire left: whether the NVA unit kept its Concealed marker, and what it
    did to the assaulting units (one line, plain text)."""
    marker = "keeps" if state.units["NVA FT"].concealed else "loses"
    return f"NVA FT {marker} its Concealed marker; " + ("; ".join(changes(state, before)) or "no unit hit")


@lru_cache(maxsize=16)
def opfire_distribution(reading: str, plan: AssaultPlan) -> Distribution:
    """The exact chances of what the defender's opportunity fire does before the TQ checks, over every roll
    of its dice (its TQ check, to-hit, effect and any check the effect calls for): only that step is
    enumerated, which takes a fraction of a second (the whole assault takes a few seconds)."""
    before = example_position(reading)
    run = start(before.copy(), plan)
    run.step(ScriptedDice((), "no dice"))            # the assaulting units drop their markers: nothing is rolled
    dist, finals = enumerate_chain(run, lambda r, d: r.step(d), lambda r: r.key(), lambda r: r.phase != "opfire",
                                   lambda r: r.copy())
    acc: dict[str, Fraction] = {}
    for k, p in dist.items():
        label = opfire_result(finals[k].state, before)
        acc[label] = acc.get(label, Fraction(0)) + p
    return Distribution(acc)


def opfire_odds_html(reading: str, plan: AssaultPlan) -> str:
    """The table shown with the opportunity fire's dice: :func:`opfire_distribution` for this reading and plan."""
    (_, target), = plan.defender_opfire
    return odds_html(opfire_distribution(reading, plan),
                     caption=f"Exact chances of the NVA unit's opportunity fire at {target}, over every roll of "
                             "its dice (F 8.0, F 21.0)")


def alt_text(state) -> str:
    """The position in words: the map's accessible name, also shown under it."""
    return describe_fte(region_map(state.map, REGION), unit_marks(state), title=MAP_TITLE)


def alt_html(alt: str) -> str:
    """The position in words, shown on the page (the same text is the map's aria-label)."""
    return f"<p class='map-alt-text'><b>The position in words.</b> {html.escape(alt)}</p>"


def legend_codes(codes=None) -> dict[str, str]:
    """The codes to decode beside the map (all of :data:`RESULT_CODES` unless named)."""
    return {c: RESULT_CODES[c] for c in (codes or RESULT_CODES)}


# ---------------------------------------------------------------- map

def counter_label(unit_id: str, side: str) -> str:
    """The text on a counter: the id, less its side when the id would not fit the counter at 11 px (the colour,
    the hover and the position in words give the side)."""
    return unit_id[len(side) + 1:] if len(unit_id) > 8 and unit_id.startswith(side + " ") else unit_id


def map_for(run_or_state, width: int = 640):
    """The map of the assault's hexes (columns 17-22, rows 18-21) for a position; returns ``(figure, alt)``."""
    from bokeh.core.property.vectorization import field
    from bokeh.models import Legend
    state = run_or_state.state if isinstance(run_or_state, AssaultRun) else run_or_state
    fig, alt = draw_fte_map(state.map, unit_marks(state), region=REGION, width=width, title=MAP_TITLE,
                            highlight=[TARGET])
    fig.select_one({"name": "unit-labels"}).glyph.text = field("short")
    src = fig.select_one({"name": "units"}).data_source
    src.data = {**src.data, "short": units_source(state)["short"]}
    for legend in fig.select(type=Legend):       # three columns fit beside the controls at 11 px
        rows = -(-len(legend.items) // legend.ncols)
        legend.ncols = 3
        fig.height += 22 * (-(-len(legend.items) // 3) - rows)
    return fig, alt


def map_svg(state, width: int = 640) -> str:
    """The map of :func:`map_for` as SVG (the live edition's map), with the same short counter labels."""
    marks = unit_marks(state)
    return draw_fte_map_svg(state.map, marks, region=REGION, width=width, title=MAP_TITLE, highlight=[TARGET],
                            labels=units_source(state)["short"])[0]


def units_source(state) -> dict:
    """The map's counter data for a position (swapped into the page's map)."""
    data = units_data(state.map, unit_marks(state), REGION)
    data["short"] = [counter_label(t, s) for t, s in zip(data["text"], data["side"])]
    return data


# ---------------------------------------------------------------- static (book) version

def row_parts(fragment: str) -> list[str]:
    """An HTML fragment cut before each table row and list item: the page stores every row once, and the walker
    highlights the rows that are new since the previous view."""
    return [part for part in re.split(r"(?=<tr>|<li>)", fragment) if part]


def leaf_view(reading: str, plan: AssaultPlan, preset: str, opfire_preset: str | None = None) -> dict:
    """What the static page shows for one set of choices, from a fresh engine run (the decision graph stores
    this for every leaf; the tests compare the two). ``opfire_preset`` names the dice of the defender's
    opportunity fire (:data:`OPFIRE_DICE`) when the plan has some."""
    run, msg = replay(reading, plan, _dice(preset), _opfire_dice(opfire_preset if plan.defender_opfire else None))
    if run is None and preset == "printed":
        msg = ("the rulebook prints 12 dice, enough for the example as played; these choices need more rolls, "
               "so pick one of the seeded rolls. (" + msg.strip() + ")")
    note = f"<p class='wg-note'>{html.escape(msg)}</p>" if msg else ""
    if run is None:
        start = example_position(reading)
        alt = alt_text(start)
        return {"sources": {"units": units_source(start)}, "html": [note, alt_html(alt)],
                "summary": summary_html(summary_text(None, reading, msg)), "alt": alt}
    alt = alt_text(run.state)
    return {"sources": {"units": units_source(run.state)},
            "html": [note, *row_parts(status_html(run)), alt_html(alt), *row_parts(rounds_html(run)),
                     *row_parts(resolution_html(run.res, "Resolution, step by step"))],
            "summary": summary_html(summary_text(run, reading)), "alt": alt}


def dice_choice_odds(reading: str, plan: AssaultPlan) -> str:
    """What the page shows with the dice choice: the exact odds over every roll for the choices above it.

    With opportunity fire the whole assault is not enumerated at build time (a few seconds each, 16 times);
    the page says so, and the chances of the opportunity fire itself come with its dice."""
    if plan.defender_opfire:
        return ("<p>The exact odds of the whole assault with opportunity fire are not precomputed here (each "
                "enumeration takes a few seconds); the chances of the opportunity fire itself are shown "
                "with its dice, and <b>Exact odds</b> in the live widget enumerates the rest.</p>")
    return distribution_html(distribution(reading, plan))


#: The static page's choices, top to bottom (also the keys of the URL hash), with their options (value: label).
CHOICES = {"reading": READING_LABELS, "fire": {"combined": "combined", "separate": "separate"},
           "target": {"US FT 19.19": "US FT 19.19", "US FT 20.20": "US FT 20.20"},
           "opfire": OPFIRE_CHOICES, "opdice": {k: label for k, (_, label) in OPFIRE_DICE.items()},
           "dice": DICE_PRESETS}
HOLD = "-"      # the opportunity-fire dice of a path without opportunity fire: every option leads to one node


def static_plan(choices: dict) -> AssaultPlan:
    """The assault plan of a set of the static page's choices."""
    opfire = choices.get("opfire", "none")
    return plan_of(combine=choices["fire"] == "combined", nva_target=choices["target"],
                   opfire=None if opfire == "none" else opfire)


def static_view(choices: dict) -> dict:
    """What the static page shows for a full set of its choices (a fresh engine run)."""
    plan = static_plan(choices)
    return leaf_view(choices["reading"], plan, choices["dice"], choices.get("opdice") if plan.defender_opfire else None)


def _graph(odds: bool = True):
    """The decision graph over :data:`CHOICES`: reading, fire, NVA target, NVA opportunity fire, its dice, the
    dice. A node is the tuple of the values chosen so far; without opportunity fire its dice do not matter and
    every option leads to the same node. ``odds=False`` leaves out the enumerated odds shown with the dice
    choice (every view is the same; the tests use it, as the enumeration takes a while)."""
    keys = list(CHOICES)

    def options(node):
        if len(node) == len(keys):
            return None
        key = keys[len(node)]
        if key == "opdice" and node[3] == "none":
            return [(v, label, lambda n: n + (HOLD,)) for v, label in CHOICES[key].items()]
        return [(v, label, lambda n, v=v: n + (v,)) for v, label in CHOICES[key].items()]

    def describe(node):
        key, chosen = keys[len(node)], dict(zip(keys, node))
        if key == "reading":
            return {"title": "the rulebook as printed or with the official errata", "odds": ""}
        if key == "fire":
            return {"title": "combined or separate US fire", "odds": reading_note(node[0])}
        if key == "target":
            return {"title": "the NVA unit's target in the fire rounds", "odds": ""}
        if key == "opfire":
            return {"title": "the NVA unit's opportunity fire before the TQ checks (F 8.0, F 21.0): hold it, as "
                             "printed, or fire at one assaulting unit", "odds": "",
                    "hint": "hold fire (as printed) or shoot one attacker before the TQ checks (F 8.0)"}
        if key == "opdice":
            if chosen["opfire"] == "none":
                return {"title": "the opportunity fire's dice: not needed, the NVA unit holds its fire", "odds": "",
                        "hint": "not needed", "idle": True}
            return {"title": "the opportunity fire's dice, in the order rolled: its TQ check, then to-hit and effect "
                             "(the exact chances below cover every roll)",
                    "odds": opfire_odds_html(node[0], static_plan(chosen)),
                    "hint": "the NVA unit's TQ check, then to-hit and effect (F 21.0)"}
        plan = static_plan(chosen)
        if plan.defender_opfire:            # a note, no enumeration (see dice_choice_odds)
            return {"title": "the dice of the rest of the assault", "odds": dice_choice_odds(node[0], plan)}
        return {"title": "the dice (the exact odds below cover every possible roll)",
                "odds": dice_choice_odds(node[0], plan) if odds else ""}

    def view(node):
        return static_view(dict(zip(keys, node)))

    return build_decision_graph((), options, lambda n: n, view, describe)


PRINTED_CHOICES = {"reading": "errata", "fire": "combined", "target": "US FT 19.19", "opfire": "none",
                   "opdice": "fails", "dice": "printed"}
CONTROL_NAMES = {"reading": ("Reading", "fa-reading"), "fire": ("US fire", "fa-combine"),
                 "target": ("NVA target", "fa-target"), "opfire": ("NVA op fire", "fa-opfire"),
                 "opdice": ("Op fire dice", "fa-opdice"), "dice": ("Dice", "fa-dice")}
LEGEND_TITLE = "Codes on the map, in the tables and in the summary"


def assault_static(width: int = 640, odds: bool = True):
    """A bokeh layout that responds in a static page: reading, combined fire, the defender's target, the
    defender's opportunity fire and its dice, the dice.

    Returns ``(layout, graph)``. The controls sit beside the map with a "Printed example" reset and a roll
    button (it picks one of the presets of each dice control at random); the choices live in the URL hash
    (``#fa:reading=...&fire=...&target=...&opfire=...&opdice=...&dice=...``).
    """
    graph = _graph(odds)
    printed, _ = replay("errata", PRINTED_PLAN, _dice("printed"))
    fig, _ = map_for(printed, width=width)
    choices = {key: Select(title=title, value=PRINTED_CHOICES[key], options=list(CHOICES[key].items()),
                           tags=[title], name=name, width=CONTROL_WIDTH)
               for key, (title, name) in CONTROL_NAMES.items()}
    controls = list(choices.values())
    values = [c.value for c in controls]
    first, notes = walk_graph(graph, values)
    for c, idle in zip(controls, idle_choices(graph, values)):
        c.disabled = idle
    units = fig.select_one({"name": "units"}).data_source
    units.data = {**units.data, **first["sources"]["units"]}
    aria_map(fig, first["alt"])
    summary = summary_div("fa", first["summary"])
    hints = hints_div("fa", graph_hints(graph, values, [c.tags[0] for c in controls]))
    out = Div(text=first["html"], name="fa-outcome")
    out.tags = [first["parts"]]
    info = Div(text="".join(notes), name="fa-info")
    sources = {"units": units}
    cb = CustomJS(args={"graph": graph, "choices": controls, "sources": sources, "info": info, "out": out,
                        "hints": hints, "summary": summary, "fig": fig}, code=WALKER_JS)
    for c in controls:
        c.js_on_change("value", cb)
    buttons = [reset_button("fa", choices, PRINTED_CHOICES), roll_button("fa", [choices["opdice"], choices["dice"]])]
    layout = map_widget("fa", controls=controls, fig=fig, summary=summary, details=[out, info],
                        legend=legend_html(LEGEND_TITLE, legend_codes()), hints=hints, buttons=buttons,
                        map_max_width=560)     # wider, the legend under the map would fall below 1.5 screens
    url_state("fa", choices, layout)          # its own document: show it with widgets.layout.show_widget
    return layout, graph


# ---------------------------------------------------------------- live (JupyterLab) version

class AssaultLive:
    """ipywidgets front end: every change re-runs the engine; the exact odds are enumerated (and cached).

    Like the static page it shows a one-line summary above the map, the legend of every code under it, the
    position in words (also the map's aria-label), and a "Printed example" button that restores every choice
    and die of the rulebook's example."""

    def __init__(self, width: int = 640, svg: bool | None = None):
        import ipywidgets as w
        self.w = w
        self.svg = not HAVE_BOKEH if svg is None else svg      # the live edition has no bokeh: an SVG map
        self.width = width
        self.attackers = w.SelectMultiple(options=CANDIDATES, value=PRINTED_PLAN.attackers,
                                          description="Assaulting", rows=3)
        self.combine = w.Checkbox(value=True, description="combine US fire")
        self.primary = w.Dropdown(options=CANDIDATES[:2], value="US FT 20.20", description="primary")
        self.target = w.Dropdown(options=CANDIDATES, value="US FT 19.19", description="NVA shoots")
        self.opfire = w.Dropdown(options=[("no opportunity fire", None), *[(c, c) for c in CANDIDATES]], value=None,
                                 description="NVA op fire")
        self.opdice = w.Text(value=" ".join(map(str, OPFIRE_DICE["fails"][0])), description="op fire dice",
                             disabled=True)
        self.reading = w.ToggleButtons(options=[("errata", "errata"), ("as printed", "original")], value="errata")
        self.dice = w.Text(value=" ".join(map(str, ASSAULT_DICE)), description="dice")
        self.roll = w.Button(description="Roll the dice")
        self.printed = w.Button(description="Printed example")
        self.odds_button = w.Button(description="Exact odds")
        self.message, self.steps, self.odds = w.HTML(), w.HTML(), w.HTML()
        self.summary, self.alt = w.HTML(), w.HTML()
        self.legend = w.HTML(legend_html(LEGEND_TITLE, legend_codes()))
        run, _ = replay("errata", PRINTED_PLAN, _dice("printed"))
        if self.svg:
            self.map = w.HTML()
        else:
            self.fig, _ = map_for(run, width=width)
            self.source = self.fig.select_one({"name": "units"}).data_source
        self.controls = (self.attackers, self.combine, self.primary, self.target, self.opfire, self.opdice,
                         self.reading, self.dice)
        self.printed_values = [c.value for c in self.controls]
        for c in self.controls:
            c.observe(lambda _change: self.update(), names="value")
        self.roll.on_click(self._roll)
        self.printed.on_click(lambda _b: self.reset())
        self.odds_button.on_click(lambda _b: self.show_odds())
        self.run = run
        self._quiet = False
        self.update()

    def plan(self) -> AssaultPlan:
        return plan_of(self.attackers.value, self.combine.value, self.primary.value, self.target.value,
                       self.opfire.value)

    def _roll(self, _button) -> None:
        import random
        dice, opdice = RandomDice(random.randrange(10**6)), RandomDice(random.randrange(10**6))
        replay(self.reading.value, self.plan(), dice, opdice)
        self._quiet = True
        try:
            if opdice.rolls:
                self.opdice.value = " ".join(str(v) for v in opdice.script())
        finally:
            self._quiet = False
        self.dice.value = " ".join(str(v) for v in dice.script())

    def reset(self) -> None:
        """Back to the printed example: its units, fire, target, reading and dice (one update at the end)."""
        self._quiet = True
        try:
            for c, v in zip(self.controls, self.printed_values):
                c.value = v
        finally:
            self._quiet = False
        self.update()

    def update(self):
        if self._quiet:
            return None
        self.opdice.disabled = self.opfire.value is None
        def numbers(text: str) -> list[int]:
            return [int(x) for x in text.replace(",", " ").split()]
        try:
            dice = ScriptedDice(numbers(self.dice.value), "widget dice")
            opfire_dice = (ScriptedDice(numbers(self.opdice.value), "opportunity fire dice") if self.opfire.value
                           else None)
        except ValueError:
            self.message.value = "<p style='color:#a00'>The dice must be whole numbers 1-10.</p>"
            return None
        run, msg = replay(self.reading.value, self.plan(), dice, opfire_dice)
        self.message.value = f"<p style='color:#a00'>{html.escape(msg)}</p>" if msg else ""
        self.summary.value = summary_html(summary_text(run, self.reading.value, msg))
        if run is not None:
            self.run = run
            alt = alt_text(run.state)
            if self.svg:
                self.map.value = map_svg(run.state, self.width)
            else:
                self.source.data = units_source(run.state)
                aria_map(self.fig, alt)
            self.alt.value = alt_html(alt)
            self.steps.value = status_html(run) + rounds_html(run) + resolution_html(run.res, "Resolution")
        self.odds.value = "<p>Press <b>Exact odds</b> to enumerate every possible roll for these choices.</p>"
        return run

    def show_odds(self) -> Distribution:
        self.odds.value = "<p>Enumerating every roll…</p>"
        dist = distribution(self.reading.value, self.plan())
        self.odds.value = distribution_html(dist)
        return dist

    def widget(self):
        w = self.w
        if self.svg:
            shown = self.map
        else:
            from jupyter_bokeh import BokehModel
            shown = BokehModel(self.fig)
        controls = w.VBox([self.attackers, self.combine, self.primary, self.target, self.opfire, self.opdice,
                           self.reading, self.dice, w.HBox([self.printed, self.roll, self.odds_button]), self.message])
        main = w.VBox([self.summary, shown, self.legend, self.alt])
        return w.VBox([w.HBox([controls, main]), self.odds, self.steps])
