"""The widgets' shared pieces: odds tables, chart marks, the decision graph and the map-widget layout."""
import re
from fractions import Fraction

from bokeh.models import Button, Div, Select
from bokeh.plotting import figure

from wargames.core import enumerate_outcomes
from wargames.core.charts import Cell, Column, ColumnTable, Provenance
from widgets.common import (WALKER_JS, build_decision_graph, chart_html, graph_hints, odds_html, percent_text,
                            walk_graph)
from widgets.layout import (STYLE_CSS, URL_READ_JS, URL_WRITE_JS, legend_html, map_widget, reset_button, roll_button,
                            summary_div, url_state)


def _pcts(text: str) -> list[str]:
    return re.findall(r"</i>([^<]+)</td>", text)


def test_odds_show_percentages_with_bars_and_the_exact_fraction_on_hover():
    dist = enumerate_outcomes(lambda d: "hit" if d.roll(6) <= 2 else "miss")
    out = odds_html(dist)
    assert _pcts(out) == ["66.7%", "33.3%"]
    assert "title='exactly 2/3'" in out and "title='exactly 1/3'" in out
    widths = [float(w) for w in re.findall(r"width:([\d.]+)em", out)]
    assert widths == [8.0, 4.0]                       # bars proportional to the likeliest outcome


def test_odds_limit_sums_the_rest_in_one_row():
    dist = enumerate_outcomes(lambda d: d.roll(10))
    out = odds_html(dist, limit=3)
    assert out.count("<tr><td>") == 3
    assert "8 other outcomes" in out and "exactly 4/5" in out
    assert _pcts(out)[-1] == "80.0%"


def test_percent_text_never_shows_a_possible_outcome_as_zero():
    assert percent_text(Fraction(1, 3)) == "33.3%"
    assert percent_text(Fraction(1, 100000)) == "0.001%"
    assert percent_text(Fraction(1)) == "100%" and percent_text(Fraction(0)) == "0%"


def _table():
    def prov(kind):
        return Provenance(kind, "because")
    cells = {("A", r): Cell("2P", prov("reconstructed")) for r in (1, 2, 3)}
    cells[("A", 2)] = Cell("1", prov("example"))
    return ColumnTable("T", "X 1", [Column("A")], [1, 2, 3], cells)


def test_chart_marks_only_cells_whose_provenance_differs_from_the_caption():
    out = chart_html(_table())
    assert out.count("class='wg-mark'") == 1
    assert "<span class='wg-value'>1</span><sup class='wg-mark'" in out
    assert "<span class='wg-value'>2P</span></td>" in out            # no "2PR"
    assert "Unmarked cells: reconstructed by the project" in out


def _graph():
    """Two dice; the shown text names both dice, so the key must hold both (not just their sum)."""
    def options(node):
        if len(node) == 2:
            return None
        return [(str(d), str(d), lambda n, d=d: n + (d,)) for d in (1, 2)]

    def view(node):
        return {"html": [f"<tr><td>{node[0]}</td></tr>", f"<tr><td>{node[1]}</td></tr>"],
                "summary": f"sum {sum(node)}", "alt": f"dice {node}"}

    def describe(node):
        return {"title": f"die {len(node) + 1}", "odds": "", "hint": f"h{len(node) + 1}"}
    return build_decision_graph((), options, lambda n: n, view, describe)


def test_walk_returns_summary_alt_and_parts():
    graph = _graph()
    view, notes = walk_graph(graph, ["2", "1"])
    assert view["summary"] == "sum 3" and view["alt"] == "dice (2, 1)"
    assert view["html"] == "<tr><td>2</td></tr><tr><td>1</td></tr>"
    assert [graph["data"][p] for p in view["parts"]] == ["<tr><td>2</td></tr>", "<tr><td>1</td></tr>"]
    assert len(notes) == 2
    assert graph_hints(graph, ["2", "1"], ["a", "b"]) == "<ul class='wg-hints'><li><b>a</b>: h1</li><li><b>b</b>: h2</li></ul>"


def test_walker_never_writes_a_control_label():
    assert not re.search(r"\.title\s*=", WALKER_JS)
    assert "hints.text" in WALKER_JS and "wg-changed" in WALKER_JS and "aria-label" in WALKER_JS


def test_map_widget_styles_every_piece_and_puts_controls_beside_the_map():
    fig = figure(width=400, height=300)
    fig.scatter([1], [1])
    sel = Select(title="Die", value="1", options=["1", "2"])
    summary = summary_div("w")
    detail = Div(text="x")
    lay = map_widget("w", controls=[sel], fig=fig, summary=summary, details=[detail],
                     legend=legend_html("Codes", {"2P": "two steps, pinned"}),
                     buttons=[reset_button("w", {"d": sel}, {"d": "1"}), roll_button("w", [sel])])
    panel = lay.children[0]
    assert panel.children[0].name == "w-controls" and panel.children[1].name == "w-main"
    assert panel.children[1].children[1] is fig and fig.sizing_mode == "scale_width" and fig.max_width == 520
    for model in (sel, summary, detail, fig):
        assert [x.css for x in model.stylesheets if getattr(x, "name", "") == "wg-style"] == [STYLE_CSS]
    assert sel.title == "Die"
    assert "color: inherit" in STYLE_CSS and "outline: 3px" in STYLE_CSS
    legend = lay.select_one({"name": "w-legend"}).text
    assert "<dt>2P</dt><dd>two steps, pinned</dd>" in legend


def test_url_state_writes_on_change_and_reads_on_document_ready():
    sel = Select(title="Die", value="1", options=["1", "2"])
    lay = map_widget("w", controls=[sel], fig=figure(width=100, height=100), summary=summary_div("w"))
    url_state("w", {"d": sel}, lay)
    assert any(cb.code == URL_WRITE_JS for cb in sel.js_property_callbacks["change:value"])
    assert [cb.code for cb in lay.document.callbacks.js_event_callbacks["document_ready"]] == [URL_READ_JS]
    assert isinstance(lay.select_one({"name": "w-controls"}).children[0], Select)
    assert not any(isinstance(m, Button) for m in lay.references())
