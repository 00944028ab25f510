"""Page weight: what a reader's browser downloads to open each built page with an empty cache.

The pages are served the way a static host serves them (GitHub Pages, Netlify, nginx with
``gzip_static``): text files go out gzip-compressed to a browser that accepts it. For each page a
fresh browser context (empty cache) loads it until the network is idle, and the weight is the sum,
over every request, of the bytes received (response headers plus the encoded body), as Chromium
reports them. The uncompressed size of the same files is reported beside it.

The same cold load is each page's check that it loads clean offline (every host but the test server
resolves to nothing): no console error or warning, no uncaught page error, no failed request, none
that leaves localhost, and no generated Markdown table shown as text. (test_pages.py checks, on each
page that embeds plots or widgets, that they are drawn.)

Also checked on every page, from the requests it made:

- the ipywidgets manager (require.js, embed-setup.js, embed-amd.js) loads exactly on pages that
  hold an ipywidget view;
- BokehJS loads exactly on pages that embed a bokeh document, always from ``_static/bokeh`` (one
  copy for the whole book, cached across pages), and a page's HTML carries none of it inline;
- MathJax loads exactly on pages with math.

The last three tests need no browser: they check the Sphinx extensions (book/_ext) that make
this so.
"""

from __future__ import annotations

import gzip
import http.server
import io
import statistics
import sys
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from .helpers import HTML_DIR, REPO, BookPage, built_pages, serving

pytestmark = pytest.mark.browser

LIMIT = 1_500_000  # bytes, cold, per page (issue 9)
SHOW_LARGEST = 10
WIDGET_VIEW = 'type="application/vnd.jupyter.widget-view+json"'
WIDGET_MANAGER = ("_static/widgets/require.js", "_static/widgets/embed-setup.js", "_static/widgets/embed-amd.js")
BOKEH_DIR = "_static/bokeh/static/js/"
BOKEH_DOC = "const docs_json = "
BOKEHJS_BANNER = "Copyright (c) Anaconda, Inc., and Bokeh Contributors"  # heads every BokehJS file
MATH_NODE = 'class="math'
MATHJAX = "_static/mathjax/tex-mml-chtml.js"
COMPRESSIBLE = {".html", ".js", ".css", ".svg", ".json", ".txt", ".map", ".xml", ".ipynb", ".md"}

sys.path.insert(0, str(REPO / "book" / "_ext"))


# ------------------------------------------------------------------ a static host that compresses


class _GzipHandler(http.server.SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler that sends text files gzip-compressed when the client accepts it."""

    _cache: dict[Path, bytes] = {}
    _lock = threading.Lock()

    def log_message(self, format, *args):  # noqa: A002 - base-class signature
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and path.suffix in COMPRESSIBLE):
            return super().send_head()
        with self._lock:
            body = self._cache.get(path)
            if body is None:
                body = self._cache[path] = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a closed context drops its connections
            super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def gzip_server(book_html: Path):
    with serving(book_html, _GzipHandler, _Server) as url:
        yield url


# ------------------------------------------------------------------ measuring one page


def _local_file(base: str, url: str) -> Path | None:
    if not url.startswith(base):
        return None
    rel = unquote(urlsplit(url).path)[len(urlsplit(base).path):]
    path = HTML_DIR / rel
    if path.is_dir():
        path = path / "index.html"
    return path if path.is_file() else None


def measure(browser, base: str, page_path: str) -> dict:
    """Load one page cold; return its transfer weight, file weight, the local paths it requested and what
    was wrong with the load (failed or outside requests, console errors and warnings, page errors, a
    Markdown table shown as text)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        finished, failed = [], []
        page.on("requestfinished", lambda r: finished.append(r))
        page.on("requestfailed", lambda r: failed.append(f"{r.url} ({r.failure})"))
        visit = BookPage(page=page, url=base + page_path)
        visit.watch()
        page.goto(visit.url, wait_until="networkidle")
        unclean = visit.problems() + [f"an output shows an unrendered Markdown table: {t[:120]!r}"
                                      for t in visit.unrendered_tables()]
        transfer = files = 0
        requested = []
        for request in finished:
            sizes = request.sizes()
            transfer += sizes["responseHeadersSize"] + max(sizes["responseBodySize"], 0)
            local = _local_file(base, request.url)
            if local is not None:
                files += local.stat().st_size
                requested.append(local.relative_to(HTML_DIR).as_posix())
        return {"page": page_path, "transfer": transfer, "files": files, "requested": requested, "failed": failed,
                "unclean": unclean}
    finally:
        context.close()


def _mb(n: int) -> str:
    return f"{n / 1e6:.2f} MB"


# ------------------------------------------------------------------ the test


def test_every_page_loads_cold_light_and_clean(browser, gzip_server, capsys):
    pages = built_pages()
    assert pages, f"no pages under {HTML_DIR}"
    results, problems = [], []
    for path in pages:
        source = (HTML_DIR / path).read_text(encoding="utf-8")
        r = measure(browser, gzip_server, path)
        results.append(r)
        requested = set(r["requested"])
        if r["failed"]:
            problems.append(f"{path}: failed requests {r['failed']}")
        problems.extend(f"{path}: {problem}" for problem in r["unclean"])
        if r["transfer"] > LIMIT:
            problems.append(f"{path}: {_mb(r['transfer'])} downloaded cold (limit {_mb(LIMIT)})")

        widgets_needed = WIDGET_VIEW in source
        for script in WIDGET_MANAGER:
            if widgets_needed and script not in requested:
                problems.append(f"{path}: shows an ipywidget but does not load {script}")
            if not widgets_needed and script in requested:
                problems.append(f"{path}: shows no ipywidget but loads {script}")

        bokeh_loaded = sorted(p for p in requested if "bokeh" in p.rsplit("/", 1)[-1] and p.endswith(".js"))
        if BOKEH_DOC in source:
            if BOKEH_DIR + "bokeh.min.js" not in requested:
                problems.append(f"{path}: embeds a bokeh document but does not load {BOKEH_DIR}bokeh.min.js")
        elif bokeh_loaded:
            problems.append(f"{path}: embeds no bokeh document but loads {bokeh_loaded}")
        stray = [p for p in bokeh_loaded if not p.startswith(BOKEH_DIR)]
        if stray:
            problems.append(f"{path}: BokehJS from outside {BOKEH_DIR}: {stray}")
        if BOKEHJS_BANNER in source:
            problems.append(f"{path}: the HTML carries BokehJS inline")

        if any(p.endswith("fontawesome.js") for p in requested):
            problems.append(f"{path}: loads fontawesome.js (the theme's icons come from its CSS)")

        math = MATH_NODE in source
        if math and MATHJAX not in requested:
            problems.append(f"{path}: has math but does not load MathJax")
        if not math and MATHJAX in requested:
            problems.append(f"{path}: has no math but loads MathJax")

    transfers = [r["transfer"] for r in results]
    largest = sorted(results, key=lambda r: r["transfer"], reverse=True)[:SHOW_LARGEST]
    with capsys.disabled():
        print(f"\npage weight, cold, {len(results)} pages (gzip transfer / uncompressed files):")
        print(f"  median {_mb(int(statistics.median(transfers)))} / "
              f"{_mb(int(statistics.median(r['files'] for r in results)))}, "
              f"max {_mb(max(transfers))} / {_mb(max(r['files'] for r in results))}")
        for r in largest:
            print(f"  {_mb(r['transfer']):>9} / {_mb(r['files']):>9}  {r['page']}")
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------ the Sphinx extensions, without a browser


def test_bokeh_static_asks_bokeh_for_the_components_a_document_uses():
    from bokeh.embed.notebook import notebook_content
    from bokeh.layouts import column
    from bokeh.models import DataTable, Div, Select
    from bokeh.plotting import figure

    import bokeh_static

    def files_for(model):
        script, _div, _doc = notebook_content(model)
        return bokeh_static.page_files(bokeh_static.page_documents(script))[0]

    def plot(**kw):
        fig = figure(width=200, height=200, **kw)
        fig.scatter([1, 2], [3, 4])
        return fig

    base = "static/js/bokeh.min.js"
    assert files_for(plot()) == [base]
    assert files_for(column(Select(options=["a", "b"]), plot())) == [base, "static/js/bokeh-widgets.min.js"]
    assert "static/js/bokeh-tables.min.js" in files_for(column(DataTable(), plot()))
    assert "static/js/bokeh-gl.min.js" in files_for(plot(output_backend="webgl"))
    assert "static/js/bokeh-mathjax.min.js" in files_for(column(Div(text=r"$$x^2$$"), plot()))
    assert "static/js/bokeh-mathjax.min.js" not in files_for(column(Div(text="2 $ and 3 $"), plot()))


def test_bokeh_static_finds_every_document_of_a_page():
    from bokeh.embed.notebook import notebook_content
    from bokeh.plotting import figure

    import bokeh_static

    scripts = []
    for n in range(3):
        fig = figure(title=f"plot {n}")
        fig.line([0, 1], [n, n])
        scripts.append(f'<script type="text/javascript">{notebook_content(fig)[0]}</script>')
    docs = bokeh_static.page_documents("<p>text</p>\n".join(scripts))
    assert [d.roots[0].title.text for d in docs] == ["plot 0", "plot 1", "plot 2"]
    assert bokeh_static.page_documents("<p>no plots</p>") == []


def test_page_scripts_keeps_each_big_script_only_where_it_is_used():
    from types import SimpleNamespace

    from sphinx.builders.html._assets import _JavaScript

    import page_scripts

    app = SimpleNamespace(config=SimpleNamespace(mathjax_path="mathjax/tex-mml-chtml.js"))
    names = [*WIDGET_MANAGER, MATHJAX, "_static/x.js"]

    def scripts_after(body):
        context = {"body": body, "script_files": [_JavaScript(name, priority=800) for name in names]}
        page_scripts.drop_unused_scripts(app, "page", "page.html", context, None)
        return [str(js.filename) for js in context["script_files"]]

    view = '<script type="application/vnd.jupyter.widget-view+json">{"model_id": "m"}</script>'
    math = '<span class="math notranslate nohighlight">\\(x\\)</span>'
    assert scripts_after(view) == names
    assert scripts_after(math) == [MATHJAX, "_static/x.js"]
    assert scripts_after("<p>a page, $5</p>") == ["_static/x.js"]
