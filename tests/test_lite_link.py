"""The "Try it live" link (book/_ext/lite_link.py): URLs, and a tiny Sphinx + myst-nb build of three pages."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

EXT = Path(__file__).resolve().parents[1] / "book" / "_ext"
sys.path.insert(0, str(EXT))
import lite_link  # noqa: E402

HEADER = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

"""


def test_href_is_relative_to_the_page_depth():
    assert lite_link.live_href("book/intro") == "../lite/notebooks/index.html?path=intro.ipynb"
    assert lite_link.live_href("book/citadel/rule08") == "../../lite/notebooks/index.html?path=citadel/rule08.ipynb"
    assert lite_link.live_href("book/citadel/rule08", "live") == "../../live/notebooks/index.html?path=citadel/rule08.ipynb"
    assert lite_link.live_href("genindex") is None


def test_is_notebook(tmp_path):
    (tmp_path / "nb.md").write_text(HEADER + "# T\n")
    (tmp_path / "plain.md").write_text("# Plain\n")
    assert lite_link.is_notebook(tmp_path / "nb.md")
    assert not lite_link.is_notebook(tmp_path / "plain.md")
    assert not lite_link.is_notebook(tmp_path / "missing.md")


def _links(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    return re.findall(r'<p class="wg-live-link"><a class="reference external" href="([^"]+)"', text)


def test_tiny_book_build(tmp_path):
    """Notebook chapters at two depths get one link each, right under their title; a plain page gets none."""
    sphinx_build = pytest.importorskip("sphinx.cmd.build")
    pytest.importorskip("myst_nb")
    src, out = tmp_path / "src", tmp_path / "html"
    (src / "book" / "game").mkdir(parents=True)
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(EXT)!r})\n"
        "extensions = ['myst_nb', 'lite_link']\nroot_doc = 'book/intro'\nnb_execution_mode = 'off'\n"
        "exclude_patterns = ['_build']\n"
    )
    (src / "book" / "intro.md").write_text(
        HEADER + "# Intro\n\n```{toctree}\ngame/rule01\ngame/plain\n```\n\n```{code-cell} ipython3\n1 + 1\n```\n"
    )
    (src / "book" / "game" / "rule01.md").write_text(HEADER + "# Rule 1\n\nText.\n\n```{code-cell} ipython3\nx = 2\n```\n")
    (src / "book" / "game" / "plain.md").write_text("# Plain page\n\nNo code.\n")
    status = sphinx_build.build_main(["-q", "-b", "html", str(src), str(out)])
    assert status == 0
    assert _links(out / "book" / "intro.html") == ["../lite/notebooks/index.html?path=intro.ipynb"]
    assert _links(out / "book" / "game" / "rule01.html") == ["../../lite/notebooks/index.html?path=game/rule01.ipynb"]
    assert _links(out / "book" / "game" / "plain.html") == []
    page = (out / "book" / "game" / "rule01.html").read_text(encoding="utf-8")
    assert page.index("</h1>") < page.index("wg-live-link") < page.index("Text.")
