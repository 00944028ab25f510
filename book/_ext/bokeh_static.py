"""Sphinx extension: every page loads BokehJS from ``_static``, and only the parts it uses.

A chapter calls ``output_notebook()``, whose output carries the whole of BokehJS (3.9 MB
with ``BOKEH_RESOURCES=inline``, or script URLs on a Bokeh server otherwise), and then
``show()``, whose output is a script holding the plot's document (``docs_json``) that waits
for ``window.Bokeh``. In the static book this extension

1. drops every ``output_notebook()`` output (recognised by bokeh's load marker mime type,
   which ``bokeh_mime`` keeps as a marker for this purpose);
2. on each page that shows bokeh documents, decodes them and asks bokeh itself
   (``bundle_for_objs_and_resources``, the function ``bokeh.embed`` uses for standalone
   pages) which components they need: ``bokeh`` always, ``bokeh-widgets``, ``bokeh-tables``,
   ``bokeh-gl`` and ``bokeh-mathjax`` only when a model needs them. Those files are added to
   the page's head as ordinary (blocking) scripts, so ``window.Bokeh`` exists before the
   body's ``show()`` scripts run, with paths relative to the page;
3. copies the minified BokehJS files of the installed bokeh into
   ``_static/bokeh/static/js/`` when the build finishes.

A browser then downloads BokehJS once for the whole book, and a page without
``show()`` output downloads none of it.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from bokeh_mime import LOAD_MARKER as LOAD_MIME_TYPE

# Where the files go, relative to the HTML root; bokeh's server layout under it ("static/js/").
STATIC_DIR = "_static/bokeh"
# bokeh.embed.notebook renders `const docs_json = <compact JSON>;` on a line of its own.
DOCS_JSON = re.compile(r"^\s*const docs_json = (\{.*\});\s*$", re.M)
# An absolute root for bokeh's server-mode URLs, cut off again to get paths inside STATIC_DIR.
_ROOT = "/" + STATIC_DIR + "/"

logger = logging.getLogger(__name__)


def bokehjs_dir() -> Path:
    from bokeh.util.paths import bokehjs_path

    return Path(bokehjs_path()) / "js"


class DropBokehLoad(SphinxPostTransform):
    """Remove the mime bundles of ``output_notebook()`` (before myst-nb picks a mime type)."""

    default_priority = 3  # myst_nb's SelectMimeType runs at 4
    formats = ("html",)

    def run(self, **kwargs) -> None:
        def is_load_bundle(node) -> bool:
            return (
                isinstance(node, nodes.container)
                and node.get("nb_element") == "mime_bundle"
                and any(child.get("mime_type") == LOAD_MIME_TYPE for child in node.children)
            )

        for bundle in list(self.document.findall(is_load_bundle)):
            bundle.parent.remove(bundle)


def page_documents(body: str) -> list:
    """The bokeh Documents that the ``show()`` scripts of a page's HTML body embed."""
    from bokeh.document import Document

    docs = []
    for match in DOCS_JSON.finditer(body):
        for doc_json in json.loads(match.group(1)).values():
            docs.append(Document.from_json(doc_json))
    return docs


def page_files(docs: list) -> tuple[list[str], list[str]]:
    """(js files relative to STATIC_DIR, raw js snippets) that bokeh says these documents need."""
    from bokeh.embed.bundle import bundle_for_objs_and_resources
    from bokeh.resources import Resources

    bundle = bundle_for_objs_and_resources(docs, Resources(mode="server", root_url=_ROOT, minified=True))
    files = []
    for url in bundle.js_files:
        url = str(url)
        if not url.startswith(_ROOT):
            raise ExtensionError(f"bokeh asked for a script outside {STATIC_DIR}: {url}")
        files.append(url[len(_ROOT):])
    if bundle.css_files:
        raise ExtensionError(f"bokeh asked for stylesheets this extension does not serve: {bundle.css_files}")
    return files, list(bundle.js_raw)


def add_bokeh_scripts(app, pagename, templatename, context, doctree) -> None:
    body = context.get("body") or ""
    if "docs_json" not in body:
        return
    try:
        docs = page_documents(body)
    except Exception as err:  # a document bokeh cannot read back would be blank in the page
        logger.warning(f"{pagename}: cannot read a bokeh document back: {err!r}", location=pagename)
        return
    if not docs:
        return
    files, raw = page_files(docs)
    for name in files:
        # add_js_file paths are relative to _static; Sphinx makes them relative to the page.
        app.add_js_file(STATIC_DIR.removeprefix("_static/") + "/" + name, priority=400)
    for code in raw:
        app.add_js_file(None, body=code, priority=401)


def copy_bokehjs(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    source = bokehjs_dir()
    target = Path(app.outdir) / STATIC_DIR / "static" / "js"
    target.mkdir(parents=True, exist_ok=True)
    copied = 0
    for path in sorted(source.glob("*.min.js")):
        shutil.copyfile(path, target / path.name)
        copied += 1
    # BokehJS is BSD-3-Clause: its notice travels with the copies.
    shutil.copyfile(source.parents[2] / "LICENSE.txt", target / "LICENSE.txt")
    if not (target / "bokeh.min.js").is_file():
        raise ExtensionError(f"no bokeh.min.js in {source}")
    logger.info(f"bokeh_static: {copied} BokehJS files copied to {target}")


def setup(app):
    app.setup_extension("bokeh_mime")
    app.add_post_transform(DropBokehLoad)
    app.connect("html-page-context", add_bokeh_scripts)
    app.connect("build-finished", copy_bokehjs)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
