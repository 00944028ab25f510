"""Sphinx extension: a page loads only the big scripts it uses.

Sphinx and the theme put the same scripts on every page. Three are large and most pages do not
use them:

- the ipywidgets manager (``require.js``, ``embed-setup.js`` and ``embed-amd.js``, together
  about 3.6 MB, all under ``_static/widgets/``), listed in ``html_js_files`` in ``_config.yml``.
  A page needs it only if it holds a widget view, i.e. a
  ``<script type="application/vnd.jupyter.widget-view+json">`` that myst-nb writes for each
  displayed ipywidget;
- MathJax. Sphinx adds it to a page with equations, but also to every page whose toctree
  includes such a page (the book's index pages). A page needs it if its body holds a math node
  (``class="math ..."``), or a widget view (ipywidgets typeset their labels with it);
- pydata-sphinx-theme's ``fontawesome.js`` (1.5 MB), which only draws icons that pages add by
  hand; the theme's own icons come from its CSS webfont. ``templates/webpack-macros.html`` drops it.

The first two are taken out of the page's script list in ``html-page-context`` (Sphinx restores
the full list before the next page).
"""

from __future__ import annotations

from pathlib import Path

WIDGET_DIR = "_static/widgets/"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MATH_NODE = 'class="math'
TEMPLATES = Path(__file__).parent / "templates"


def needs_widget_manager(body: str) -> bool:
    return WIDGET_VIEW in body


def needs_mathjax(body: str) -> bool:
    return MATH_NODE in body or needs_widget_manager(body)


def _filename(js) -> str:
    return str(getattr(js, "filename", js) or "")


def drop_unused_scripts(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if scripts is None:
        return
    body = context.get("body") or ""
    drop = []
    if not needs_widget_manager(body):
        drop.append(lambda name: name.startswith(WIDGET_DIR))
    if not needs_mathjax(body):
        mathjax = "_static/" + app.config.mathjax_path  # Sphinx's path for a local mathjax_path
        drop.append(lambda name: name == mathjax)
    if drop:
        scripts[:] = [js for js in scripts if not any(rule(_filename(js)) for rule in drop)]


def add_templates(app, config) -> None:
    config.templates_path = [str(TEMPLATES), *config.templates_path]


def setup(app):
    app.connect("config-inited", add_templates)
    app.connect("html-page-context", drop_unused_scripts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
