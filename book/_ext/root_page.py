"""Sphinx extension: the site's root ``index.html`` is a small HTML page that forwards to the book.

The book's first page is ``book/intro``, so sphinx-external-toc writes a root ``index.html`` that is only a
``<meta http-equiv="Refresh">`` line. A browser that opens it asks for ``/favicon.ico``, which the site does not
have, and logs a 404 (or the forward cuts the request off, if it comes first). This extension writes the root
page before sphinx-external-toc would (it leaves an existing page alone): the same forward, the book's title, a
plain link for a browser that does not forward, and an empty inline icon, so that the browser asks for no icon
at all (the book's own pages name its icon).
"""

from __future__ import annotations

import html
from pathlib import Path

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Refresh" content="0; url={target}">
<title>{title}</title>
<link rel="icon" href="data:,">
</head>
<body>
<p><a href="{target}">{title}</a></p>
</body>
</html>
"""


def root_page(target: str, title: str) -> str:
    """The root page's HTML: forward to ``target`` (a relative URL), under ``title``."""
    return PAGE.format(target=html.escape(target), title=html.escape(title))


def write_root_page(app, exception) -> None:
    if exception is not None or app.builder.name != "html" or app.config.root_doc == "index":
        return
    page = root_page(f"{app.config.root_doc}.html", app.config.html_title or app.config.project)
    Path(app.outdir, "index.html").write_text(page, encoding="utf-8")


def setup(app):
    # Before sphinx-external-toc's own build-finished handler (default priority 500), which then finds the page.
    app.connect("build-finished", write_root_page, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
