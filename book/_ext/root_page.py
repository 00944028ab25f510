"""Sphinx extension: the site's root ``index.html`` is a small HTML page that forwards to the book.

The book's first page is ``book/intro``, so sphinx-external-toc writes a root ``index.html`` that is only a
``<meta http-equiv="Refresh">`` line, with no ``<head>``, title or icon. A browser that opens the root then
asks for ``/favicon.ico``, which the book does not have, and logs a 404 before it moves on. This extension
writes the root page first (sphinx-external-toc leaves an existing one alone): the same forward, plus the
book's title, its icon and a plain link for a reader whose browser does not follow the forward.
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
{icon}</head>
<body>
<p><a href="{target}">{title}</a></p>
</body>
</html>
"""


def root_page(target: str, title: str, icon: str | None) -> str:
    """The root page's HTML: forward to ``target`` (a relative URL), with ``title`` and the icon at ``icon``."""
    link = f'<link rel="icon" href="{html.escape(icon)}">\n' if icon else ""
    return PAGE.format(target=html.escape(target), title=html.escape(title), icon=link)


def write_root_page(app, exception) -> None:
    if exception is not None or app.builder.name != "html" or app.config.root_doc == "index":
        return
    favicon = app.config.html_favicon
    icon = f"_static/{Path(favicon).name}" if favicon else None
    title = app.config.html_title or app.config.project
    page = root_page(f"{app.config.root_doc}.html", title, icon)
    Path(app.outdir, "index.html").write_text(page, encoding="utf-8")


def setup(app):
    # Before sphinx-external-toc's own build-finished handler (default priority 500), which then finds the page.
    app.connect("build-finished", write_root_page, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
