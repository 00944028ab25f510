"""Shared pieces of the widgets: HTML renderers for resolutions, odds and charts, and the static decision walker.

The static book cannot run Python, so the engine enumerates every choice a
widget offers at build time into a *decision graph* (nodes with one choice
each, whose options lead to other nodes; leaves carry a precomputed view; data shared by several views is stored once).
:data:`WALKER_JS` walks that graph in the browser. It knows nothing of the
rules: it only follows the options the reader picked and copies the view's
precomputed data into the page.
"""
from __future__ import annotations

import html
import os
from fractions import Fraction
from typing import Any, Callable, Hashable, Iterable

from wargames.core import ColumnTable, Distribution, Resolution

PROVENANCE_STYLE = {
    "text": ("T", "stated in the rule text"),
    "example": ("E", "forced by a printed worked example"),
    "reconstructed": ("R", "reconstructed by the project"),
    "printed": ("P", "loaded from the owner's printed chart"),
}


def in_book_build() -> bool:
    """True while the static book is being built (the Makefile sets WARGAMES_BOOK_BUILD=1)."""
    return os.environ.get("WARGAMES_BOOK_BUILD") == "1"


def resolution_html(res: Resolution, title: str = "") -> str:
    """An ordered list of the steps of a resolution, each with its rule id."""
    items = "".join(
        f"<li><code>{html.escape(s.rule)}</code> {html.escape(s.text)}"
        + (f" <span class='wg-arith'>[{html.escape(s.arithmetic)}]</span>" if s.arithmetic else "") + "</li>"
        for s in res.steps)
    head = f"<p><b>{html.escape(title)}</b></p>" if title else ""
    return f"{head}<ol class='wg-steps'>{items}</ol>"


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def odds_html(dist: Distribution, label: Callable[[Any], str] = str, order: Iterable[Hashable] | None = None,
              caption: str = "", limit: int | None = None) -> str:
    """Every outcome with its exact probability, as a percentage and a bar; the exact fraction is on hover.

    With ``limit``, only the ``limit`` likeliest outcomes get a row of their own and the rest are summed in
    one "other outcomes" row (its hover lists them).
    """
    keys = [o for o in (list(order) if order is not None else sorted(dist, key=lambda o: -dist[o])) if dist[o]]
    rest: list[Hashable] = []
    if limit is not None and len(keys) > limit:
        by_chance = sorted(keys, key=lambda o: -dist[o])
        kept = set(by_chance[:limit - 1])
        rest = [o for o in keys if o not in kept]
        keys = [o for o in keys if o in kept]
    shown = [(label(o), dist[o], f"exactly {fraction_text(dist[o])}") for o in keys]
    if rest:
        p = sum((dist[o] for o in rest), Fraction(0))
        shown.append((f"{len(rest)} other outcomes", p, f"exactly {fraction_text(p)}: "
                      + "; ".join(f"{label(o)} {fraction_text(dist[o])}" for o in rest)))
    top = max((p for _, p, _ in shown), default=Fraction(1)) or Fraction(1)
    rows = "".join(f"<tr><td>{html.escape(name)}</td><td class='wg-pct' title='{html.escape(tip)}'>"
                   f"<i class='wg-bar' style='width:{float(p / top) * 8:.2f}em'></i>{percent_text(p)}</td></tr>"
                   for name, p, tip in shown)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return (f"<style>{BAR_CSS}</style><table class='wg-odds'>{cap}<thead><tr><th>outcome</th><th>chance (hover "
            f"for the exact fraction)</th></tr></thead><tbody>{rows}</tbody></table>")


# A style block travels with each odds table, so its bars draw alike in the page, inside bokeh's shadow roots
# and in JupyterLab (a page stylesheet reaches none of the last two).
BAR_CSS = (".wg-bar{display:inline-block;vertical-align:middle;height:.8em;background:#3584e4;margin-right:.4em}"
           ".wg-pct{white-space:nowrap}")


def percent_text(p: Fraction) -> str:
    """A probability as a percentage: one decimal, more when that would show a possible outcome as 0.0%."""
    if p == 0 or p == 1:
        return f"{float(p):.0%}"
    for digits in (1, 2, 3, 4):
        text = f"{float(p) * 100:.{digits}f}%"
        if float(text[:-1]) != 0:
            return text
    return "<0.0001%"


def chart_html(table: ColumnTable, highlight: tuple[str, int] | None = None) -> str:
    """A column table with every cell's provenance: the commonest kind is stated once in the caption, and only
    the other cells carry a mark (set apart from the value, so "2P" with a mark never reads as a result "2PR")."""
    kinds = [table.cells[(c.label, r)].provenance.kind for c in table.columns for r in table.rows]
    usual = max(sorted(set(kinds)), key=kinds.count)
    head = "".join(
        f"<th>{html.escape(c.label)}"
        + (f"<sup title='{PROVENANCE_STYLE[table.column_provenance[c.label].kind][1]}'>"
           f"{PROVENANCE_STYLE[table.column_provenance[c.label].kind][0]}</sup>" if c.label in table.column_provenance else "")
        + "</th>" for c in table.columns)
    body = []
    for r in table.rows:
        cells = []
        for c in table.columns:
            cell = table.cells[(c.label, r)]
            mark, meaning = PROVENANCE_STYLE[cell.provenance.kind]
            cls = f"wg-{cell.provenance.kind}" + (" wg-hl" if highlight == (c.label, r) else "")
            tip = html.escape(f"{meaning}: {cell.provenance.source}" if cell.provenance.source else meaning)
            note = ("" if cell.provenance.kind == usual else
                    f"<sup class='wg-mark' aria-label='{html.escape(meaning)}'>{mark}</sup>")
            cells.append(f"<td class='{cls}' title='{tip}'><span class='wg-value'>"
                         f"{html.escape(str(cell.value))}</span>{note}</td>")
        body.append(f"<tr><th>{r}</th>{''.join(cells)}</tr>")
    others = sorted({k for k in kinds if k != usual})
    legend = (f"Unmarked cells: {PROVENANCE_STYLE[usual][1]}"
              + "".join(f"; <sup>{PROVENANCE_STYLE[k][0]}</sup> {PROVENANCE_STYLE[k][1]}" for k in others)
              + ". Hover a cell for its source.")
    return (f"<table class='wg-chart'><caption>{html.escape(table.name)} ({html.escape(table.rule)}). "
            f"{legend}</caption><thead><tr><th>roll</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


def build_decision_graph(root: Any, options: Callable[[Any], list[tuple[str, str, Callable[[Any], Any]]] | None],
                         key: Callable[[Any], Hashable], view: Callable[[Any], dict],
                         describe: Callable[[Any], dict]) -> dict:
    """Enumerate every branch from ``root`` into a graph the static page can walk.

    ``options(node)`` returns None at a leaf, else a list of (option value,
    option label, advance) where ``advance(node)`` returns the next node.
    Nodes are memoised on ``key``, so ``key`` must cover everything ``describe`` and ``view`` show for the
    node and every node below it: two nodes with equal keys share one stored subtree.
    ``describe(node)`` gives what a choice shows (title, odds HTML; optional "hint", one short line shown beside
    the control; optional "idle": True when every option leads on to the same node, so the page disables the
    control); ``view(leaf)`` gives the data the page swaps in at a leaf: ``{"sources": {name: {column:
    values}}, "html": [fragment, ...], "summary": one-line HTML, "alt": the position in words}`` (the last
    two optional; "alt" is one string or a list of fragments, escaped HTML text the page reads as plain text). Every column and HTML fragment is stored once in ``data``, and views refer to them by id.
    """
    nodes: dict[str, dict] = {}
    views: dict[str, dict] = {}
    data: dict[str, Any] = {}
    ids: dict[Hashable, str] = {}
    view_ids: dict[str, str] = {}
    data_ids: dict[str, str] = {}

    def pooled(value: Any) -> str:
        k = repr(value)
        if k not in data_ids:
            data_ids[k] = f"d{len(data_ids)}"
            data[data_ids[k]] = value
        return data_ids[k]

    def visit(n: Any) -> str:
        k = key(n)
        if k in ids:
            return ids[k]
        nid = ids[k] = f"n{len(ids)}"
        opts = options(n)
        if opts is None:
            v = view(n)
            stored = {"sources": {name: {col: pooled(rounded(vals)) for col, vals in d.items()}
                                  for name, d in v.get("sources", {}).items()},
                      "html": [pooled(part) for part in v.get("html", [])]}
            if "summary" in v:
                stored["summary"] = pooled(v["summary"])
            if "alt" in v:   # one string, or fragments pooled like "html" (views sharing sentences share them)
                stored["alt"] = ([pooled(part) for part in v["alt"]] if isinstance(v["alt"], list)
                                 else pooled(v["alt"]))
            vkey = repr(sorted(stored.items(), key=lambda kv: kv[0]))
            if vkey not in view_ids:
                view_ids[vkey] = f"v{len(view_ids)}"
                views[view_ids[vkey]] = stored
            nodes[nid] = {"view": view_ids[vkey]}
        else:
            nodes[nid] = {**describe(n), "next": {}}
            for value, _label, advance in opts:
                nodes[nid]["next"][value] = visit(advance(n))
        return nid

    start = visit(root)
    return {"start": start, "nodes": nodes, "views": views, "data": data}


def rounded(values: Any) -> Any:
    """Floats to 4 decimals: map coordinates need no more, and the page gets smaller."""
    if isinstance(values, list):
        return [round(v, 4) if type(v) is float else v for v in values]
    return values


def walk_graph(graph: dict, values: list[str]) -> tuple[dict | None, list[str]]:
    """The Python twin of :data:`WALKER_JS` (for the page's first render and for tests).

    Returns the leaf's view (sources, html, the ids of its HTML fragments as "parts", and summary/alt when the
    view has them) and the choice notes. Put "parts" in the output Div's ``tags`` (``out.tags = [parts]``) so
    the page's first change highlights what differs from the first render.
    """
    nid, notes = graph["start"], []
    for i, value in enumerate(values):
        node = graph["nodes"][nid]
        if "next" not in node:
            continue
        notes.append(f'<div class="wg-choice"><b>choice {i + 1}.</b> {node["title"]}{node["odds"]}</div>')
        nid = node["next"].get(value)
        if nid is None:
            return None, notes
    node = graph["nodes"][nid]
    if "view" not in node:
        return None, notes
    view = graph["views"][node["view"]]
    out = {"sources": {name: {col: graph["data"][i] for col, i in cols.items()} for name, cols in view["sources"].items()},
           "html": "".join(graph["data"][i] for i in view["html"]), "parts": list(view["html"])}
    if "summary" in view:
        out["summary"] = graph["data"][view["summary"]]
    if "alt" in view:
        alt = view["alt"]
        out["alt"] = "".join(graph["data"][i] for i in alt) if isinstance(alt, list) else graph["data"][alt]
    return out, notes


def idle_choices(graph: dict, values: list[str]) -> list[bool]:
    """The Python twin of the walker's disabling (for the first render): True for each choice whose node is
    marked ``idle`` (every option leads on to the same node: the choice does not matter there) or that is not
    needed at all."""
    nid, out = graph["start"], []
    for value in values:
        node = graph["nodes"].get(nid) if nid else None
        out.append(node is None or "next" not in node or bool(node.get("idle")))
        nid = node["next"].get(value) if node is not None and "next" in node else None
    return out


def graph_hints(graph: dict, values: list[str], labels: list[str]) -> str:
    """The Python twin of the hints :data:`WALKER_JS` writes beside the controls (one line per control)."""
    nid, lines = graph["start"], []
    for value, label in zip(values, labels):
        node = graph["nodes"].get(nid) if nid else None
        if node is None or "next" not in node:
            lines.append(f"<li><b>{html.escape(label)}</b>: not needed</li>")
            continue
        lines.append(f"<li><b>{html.escape(label)}</b>: {node.get('hint', node['title'])}</li>")
        nid = node["next"].get(value)
    return f"<ul class='wg-hints'>{''.join(lines)}</ul>"


# The generic walker. args: graph, choices (list of bokeh Select; each one's tags[0] is its short name for the
# hints), sources (dict name -> ColumnDataSource), info (Div for the text of each choice), out (Div for the leaf's
# HTML), and optionally hints (Div beside the controls: what each choice decides now), summary (Div: the leaf's
# one-line result), fig (the map: its aria-label follows the leaf's position in words). No rules logic: it follows
# the options the reader picked and copies precomputed data into the page. It never writes a control's title
# (in bokeh that is the control's visible label). Fragments new since the last view get class wg-changed.
WALKER_JS = """
let id = graph.start;
const notes = [];
const hintLines = [];
for (let i = 0; i < choices.length; i++) {
  const sel = choices[i];
  const node = id === null ? undefined : graph.nodes[id];
  if (node === undefined || node.next === undefined) {
    sel.disabled = true;
    hintLines.push('<li><b>' + sel.tags[0] + '</b>: not needed</li>');
    continue;
  }
  sel.disabled = (node.idle === true);
  hintLines.push('<li><b>' + sel.tags[0] + '</b>: ' + (node.hint !== undefined ? node.hint : node.title) + '</li>');
  notes.push('<div class="wg-choice"><b>choice ' + (i + 1) + '.</b> ' + node.title + node.odds + '</div>');
  const nextId = node.next[sel.value];
  id = (nextId === undefined) ? null : nextId;
}
if (typeof hints !== 'undefined' && hints !== null) {
  hints.text = "<ul class='wg-hints'>" + hintLines.join('') + '</ul>';
}
const leaf = (id === null) ? undefined : graph.nodes[id];
if (leaf !== undefined && leaf.view !== undefined) {
  const view = graph.views[leaf.view];
  for (const name in view.sources) {
    const cols = {};
    for (const col in view.sources[name]) { cols[col] = graph.data[view.sources[name][col]]; }
    sources[name].data = Object.assign({}, sources[name].data, cols);
  }
  const before = new Set(out.tags.length ? out.tags[0] : view.html);
  out.text = view.html.map(function (part) {
    const text = graph.data[part];
    return before.has(part) ? text : text.replace(/^<(tr|li)>/, '<$1 class="wg-changed">');
  }).join('');
  out.tags = [view.html.slice()];
  if (typeof summary !== 'undefined' && summary !== null && view.summary !== undefined) {
    summary.text = graph.data[view.summary];
  }
  if (typeof fig !== 'undefined' && fig !== null && view.alt !== undefined) {
    const raw = (Array.isArray(view.alt) ? view.alt : [view.alt]).map(function (i) { return graph.data[i]; }).join('');
    const words = new DOMParser().parseFromString(raw, 'text/html').body.textContent.trim();
    fig.html_attributes = Object.assign({}, fig.html_attributes, {'role': 'img', 'aria-label': words});
  }
} else {
  out.text = '<p>Pick a value for every choice.</p>';
  out.tags = [];
}
info.text = notes.join('');
"""


# --------------------------------------------------------------------------- lookup pipelines

def build_pipeline(stages: list[tuple[str, list[str], dict[tuple, Any]]]) -> list[dict]:
    """Precomputed lookup tables for the static page, evaluated in order by :data:`PIPELINE_JS`.

    Each stage is (name, inputs, table): ``inputs`` name controls or earlier stages, and ``table`` maps the
    tuple of their values (as strings) to the stage's value. The engine fills every table at build time, so
    the page only joins keys and looks them up.
    """
    out = []
    for name, inputs, table in stages:
        out.append({"name": name, "inputs": inputs,
                    "table": {"|".join(str(k) for k in (key if isinstance(key, tuple) else (key,))): value
                              for key, value in table.items()}})
    return out


def run_pipeline(pipeline: list[dict], controls: dict[str, str]) -> dict[str, Any]:
    """The Python twin of :data:`PIPELINE_JS` (first render and tests)."""
    values = dict(controls)
    for stage in pipeline:
        key = "|".join(str(values.get(i)) for i in stage["inputs"])
        values[stage["name"]] = stage["table"].get(key)
    return values


# args: pipeline, controls ({name: bokeh widget}), out (Div), template (string with {name} slots),
# sweep ({control, values, source, x, ys: {column: stage}} or null): re-evaluate the pipeline for every value
# of one control and put the named stages' outputs into a ColumnDataSource (for a plot). Only joins and lookups.
PIPELINE_JS = """
function evaluate(overrides) {
  const values = {};
  for (const name in controls) {
    const w = controls[name];
    values[name] = String(w.active !== undefined ? (w.active ? 1 : 0) : w.value);
  }
  Object.assign(values, overrides);
  for (const stage of pipeline) {
    const key = stage.inputs.map(function (i) { return values[i]; }).join('|');
    const v = stage.table[key];
    values[stage.name] = (v === undefined) ? '' : v;
  }
  return values;
}
const values = evaluate({});
out.text = template.replace(/\\{(\\w+)\\}/g, function (_, name) { return values[name] === undefined ? '' : values[name]; });
if (sweep) {
  const data = {}; data[sweep.x] = [];
  for (const col in sweep.ys) { data[col] = []; }
  for (const x of sweep.values) {
    const o = {}; o[sweep.control] = String(x);
    const v = evaluate(o);
    data[sweep.x].push(x);
    for (const col in sweep.ys) { const y = v[sweep.ys[col]]; data[col].push(y === '' ? NaN : Number(y)); }
  }
  sweep.source.data = data;
}
"""


def markdown_html(text: str):
    """Markdown (tables included) rendered to HTML for a notebook output.

    A ``text/markdown`` output reaches the built book without its tables, so generated tables go out as HTML.
    """
    from IPython.display import HTML
    from markdown_it import MarkdownIt
    return HTML(MarkdownIt("commonmark").enable("table").render(text))

