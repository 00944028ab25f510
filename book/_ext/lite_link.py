"""Sphinx extension: a "Try it live" link under the title of every chapter page.

The link opens the same chapter, as a notebook, in the live edition of the book: the JupyterLite site that
``tools/lite.py`` builds into ``<html root>/lite/`` (``make book`` runs it after the Jupyter Book build).
A chapter is any page whose source is a MyST notebook (a jupytext header with a ``kernelspec``); its notebook
sits under the live edition's contents at its path below ``book/``, so the page ``book/citadel/rule08.html``
links to ``../../lite/notebooks/index.html?path=citadel/rule08.ipynb`` (relative, so the book works from any
folder or host).

Config: ``lite_link_dir`` (default ``"lite"``), the live edition's folder under the HTML root; an empty
value turns the links off.
"""

from __future__ import annotations

import html
from pathlib import Path

BOOK_DIR = "book/"
LINK_CLASS = "wg-live-link"


def is_notebook(source: Path) -> bool:
    """A MyST notebook starts with a YAML header naming jupytext and a kernelspec (tools/lite.py reads it alike)."""
    try:
        head = source.read_text(encoding="utf-8")[:600]
    except OSError:
        return False
    return head.startswith("---") and "jupytext:" in head and "kernelspec:" in head


def live_href(pagename: str, lite_dir: str = "lite") -> str | None:
    """The live edition's URL for a page, relative to that page; None for a page outside ``book/``."""
    if not pagename.startswith(BOOK_DIR):
        return None
    up = "../" * pagename.count("/")
    return f"{up}{lite_dir}/notebooks/index.html?path={pagename[len(BOOK_DIR):]}.ipynb"


def link_html(href: str) -> str:
    return (
        f'<p class="{LINK_CLASS}"><a class="reference external" href="{html.escape(href)}" '
        'title="Open this chapter as a notebook that runs in your browser">'
        '<span aria-hidden="true">&#9654;</span> Try it live</a>: run and change this chapter\'s code in your '
        "browser, with nothing to install (the first start takes about 30 s).</p>\n"
    )


def add_link(app, pagename, templatename, context, doctree) -> None:
    lite_dir = app.config.lite_link_dir
    body = context.get("body")
    if not lite_dir or doctree is None or not body:
        return
    href = live_href(pagename, lite_dir)
    if href is None or not is_notebook(Path(app.env.doc2path(pagename))):
        return
    link = link_html(href)
    end = body.find("</h1>")
    context["body"] = body[: end + 5] + "\n" + link + body[end + 5:] if end >= 0 else link + body


def setup(app):
    app.add_config_value("lite_link_dir", "lite", "html")
    app.connect("html-page-context", add_link)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
