"""tools/lite.py, the live edition's build: which chapters it takes, and how it turns off cells that need bokeh."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools"
sys.path.insert(0, str(TOOLS))
import lite  # noqa: E402

CELL = """from IPython.display import HTML
from wargames.fte.charts import check_constraints, default_charts
from widgets.fte import assault_static, distribution_html
from wargames.viz.fte import tec_html

tec = default_charts().tec
assert check_constraints() == []
HTML(tec_html(tec))
layout, graph = assault_static()
for row in graph:
    print(row)
n = len(tec.terrain)
"""


def test_bokeh_modules_pattern():
    for line in ("from bokeh.io import show", "import bokeh", "  from jupyter_bokeh import BokehModel",
                 "from bokeh.models import Div"):
        assert lite.BOKEH_MODULES.search(line), line
    for line in ("from widgets.common import resolution_html", "from wargames.fte.charts import x",
                 "from IPython.display import HTML", "import widgetsx", "from widgets.layout import show_widget",
                 "from wargames.viz.fte import tec_html", "import wargames.viz", "import bokehx"):
        assert not lite.BOKEH_MODULES.search(line), line


def test_bokeh_names_are_found_by_reading_the_sources():
    found = lite.bokeh_names()
    for key in [("widgets.citadel", "anne_marie_static"), ("widgets.fte", "assault_static"),
                ("widgets.citadel_melee", "melee_static"), ("widgets.indochina", "odds_shifts_static"),
                ("widgets.ntnd", "combat_grid_static"), ("widgets.ntnd_politics", "election_static"),
                ("widgets.layout", "show_widget"),
                ("wargames.viz.hexmap", "draw_map"), ("wargames.viz.fte", "draw_fte_map"),
                ("widgets.ntnd_politics", "election_static")]:
        assert key in found, key
    for key in [("widgets.citadel", "AnneMarieLive"), ("widgets.fte", "AssaultLive"),
                ("widgets.citadel_melee", "MeleeLive"), ("widgets.indochina", "OddsShiftsLive"),
                ("widgets.ntnd", "CombatGridLive"), ("widgets.ntnd_politics", "ElectionLive"),
                ("widgets.fte", "distribution_html"), ("wargames.viz.fte", "tec_html"),
                ("wargames.viz.fte", "unit_marks"), ("wargames.viz.hexmap", "describe"),
                ("wargames.viz.svg", "draw_map_svg"), ("widgets.common", "markdown_html"),
                ("widgets.citadel_scenario", "setup_map"), ("widgets.layout", "aria_map"),
                ("widgets.indochina_play", "phase_map")]:
        assert key not in found, key


def test_live_statements_drop_what_depends_on_bokeh():
    assert lite.live_statements(CELL) == [
        "from IPython.display import HTML",
        "from wargames.fte.charts import check_constraints, default_charts",
        "from widgets.fte import distribution_html",
        "from wargames.viz.fte import tec_html",
        "tec = default_charts().tec",
        "assert check_constraints() == []",
        "HTML(tec_html(tec))",
        "n = len(tec.terrain)",
    ]
    assert lite.live_statements("%matplotlib inline\nx = 1") == []   # not Python: nothing kept


def test_live_imports_point_drawing_calls_at_svg_stand_ins():
    cell = ("from bokeh.io import output_notebook, show\n"
            "from wargames.viz.hexmap import PathMark, draw_map, with_alt_text\n"
            "from wargames.viz.fte import draw_fte_map as d, unit_marks\n"
            "fig, alt = draw_map(m)\nshow(with_alt_text(fig, alt))")
    assert lite.live_imports(cell).splitlines() == [
        "from wargames.viz.live import output_notebook, show",
        "from wargames.viz.hexmap import PathMark",
        "from wargames.viz.live import draw_map, with_alt_text",
        "from wargames.viz.fte import unit_marks",
        "from wargames.viz.live import draw_fte_map as d",
        "fig, alt = draw_map(m)", "show(with_alt_text(fig, alt))"]


def test_disable_bokeh_cells():
    nbformat = pytest.importorskip("nbformat")
    maps = ("from bokeh.io import show\nfrom wargames.viz.hexmap import draw_map, with_alt_text\n"
            "fig, alt = draw_map(m)\nshow(with_alt_text(fig, alt))")
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("print(1)"), nbformat.v4.new_code_cell(CELL),
        nbformat.v4.new_code_cell("print(len(graph))\nprint(n)"), nbformat.v4.new_code_cell(maps),
        nbformat.v4.new_code_cell("fig.scatter(x=[1], y=[1])\nk = 2", metadata={"tags": ["static-only"]}),
        nbformat.v4.new_code_cell("print(k)")])
    assert lite.disable_bokeh_cells(nb) == 4
    assert nb.cells[0].source == "print(1)"
    src = nb.cells[1].source
    assert src.startswith(lite.LIVE_NOTE)
    assert "# layout, graph = assault_static()" in src and "\ntec = default_charts().tec" in src
    assert "\nHTML(tec_html(tec))" in src and "\nlayout, graph" not in src
    compile(src, "cell", "exec")
    # a name bound in an earlier disabled statement taints the later cells that use it
    assert nb.cells[2].source.startswith(lite.LIVE_NOTE) and nb.cells[2].source.endswith("\nprint(n)")
    # maps are drawn by the SVG stand-ins, and the cell is otherwise unchanged
    assert nb.cells[3].source.startswith("from wargames.viz.live import show\n")
    assert nb.cells[3].source.endswith("fig, alt = draw_map(m)\nshow(with_alt_text(fig, alt))")
    # a cell tagged static-only stays off, with what it binds
    assert nb.cells[4].source.startswith(lite.LIVE_NOTE) and nb.cells[4].source.endswith("\n# k = 2")
    assert nb.cells[5].source.startswith(lite.LIVE_NOTE)


def test_chapter_sources_are_notebooks_under_book():
    found = lite.chapter_sources(["book/citadel/rule0*.md", "book/interactive.md", "book/appendix/ambiguities.md"])
    names = [p.relative_to(lite.REPO).as_posix() for p in found]
    assert "book/citadel/rule01.md" in names
    assert "book/interactive.md" not in names and "book/appendix/ambiguities.md" not in names  # no kernelspec


@pytest.mark.long
def test_every_package_the_engine_and_widgets_import_is_in_the_live_kernel():
    """A module of ours that imports a package the live edition's kernel lacks fails there, not natively."""
    import ast
    missing = set()
    for top in ("wargames", "widgets"):
        for path in (lite.REPO / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    root = name.split(".")[0]
                    if (root not in sys.stdlib_module_names and root not in ("wargames", "widgets", "bokeh",
                                                                              "jupyter_bokeh")
                            and root not in lite.KERNEL_MODULES):
                        missing.add((path.relative_to(lite.REPO).as_posix(), root))
    assert missing == set()


def test_a_loop_or_comprehension_variable_is_not_an_earlier_name():
    tainted = {"z", "u", "fig"}
    keep = lite.live_statements("for z in range(3):\n    print(z)\nxs = [u for u in range(2)]\n"
                                "f = lambda fig: fig\nfig2 = fig.copy()\nprint(z)", set(), tainted)
    # the loop rebinds z, so the last line reads the loop's z; fig is read from outside only by fig2's line
    assert keep == ["for z in range(3):\n    print(z)", "xs = [u for u in range(2)]", "f = lambda fig: fig",
                    "print(z)"]
    assert "fig2" in tainted
