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
from wargames.viz.fte import tec_html

tec = default_charts().tec
assert check_constraints() == []
HTML(tec_html(tec))
table = tec_html
for row in table(tec):
    print(row)
n = len(tec.terrain)
"""


def test_bokeh_modules_pattern():
    for line in ("from bokeh.io import show", "import bokeh", "from widgets.layout import show_widget",
                 "from widgets.citadel_scenario import forces", "from wargames.viz.fte import tec_html",
                 "import wargames.viz", "  from jupyter_bokeh import BokehModel"):
        assert lite.BOKEH_MODULES.search(line), line
    for line in ("from widgets.common import resolution_html", "from wargames.fte.charts import x",
                 "from IPython.display import HTML", "import widgetsx"):
        assert not lite.BOKEH_MODULES.search(line), line


def test_live_statements_drop_what_depends_on_bokeh():
    assert lite.live_statements(CELL) == [
        "from IPython.display import HTML",
        "from wargames.fte.charts import check_constraints, default_charts",
        "tec = default_charts().tec",
        "assert check_constraints() == []",
        "n = len(tec.terrain)",
    ]
    assert lite.live_statements("%matplotlib inline\nx = 1") == []   # not Python: nothing kept


def test_disable_bokeh_cells():
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)"), nbformat.v4.new_code_cell(CELL)])
    assert lite.disable_bokeh_cells(nb) == 1
    assert nb.cells[0].source == "print(1)"
    src = nb.cells[1].source
    assert src.startswith(lite.LIVE_NOTE)
    assert "# from wargames.viz.fte import tec_html" in src and "\ntec = default_charts().tec" in src
    assert "\nHTML(tec_html(tec))" not in src
    compile(src, "cell", "exec")


def test_chapter_sources_are_notebooks_under_book():
    found = lite.chapter_sources(["book/citadel/rule0*.md", "book/interactive.md", "book/appendix/ambiguities.md"])
    names = [p.relative_to(lite.REPO).as_posix() for p in found]
    assert "book/citadel/rule01.md" in names
    assert "book/interactive.md" not in names and "book/appendix/ambiguities.md" not in names  # no kernelspec
