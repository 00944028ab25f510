"""The live edition (_build/html/lite, built by `make lite`): a chapter opens as a notebook, every cell runs in
the browser's Python with the network blocked, and no request leaves localhost. For the chapters of the named
live widgets (the Anne-Marie assault, the odds shifts, the assault rounds, the melee, the NTND combat grid and
election), one control of the widget is changed and the result it shows must change; the maps are SVG.

JupyterLite is served on ``localhost`` rather than 127.0.0.1, and chromium resolves every other name to nothing
(``MAP * ~NOTFOUND , EXCLUDE localhost``; the book's own fixture excludes 127.0.0.1, which would block this
host). Pyodide takes about 30 s from the page load to an idle kernel, so the timeouts are minutes, not seconds.

    WARGAMES_LITE_CHAPTER=indochina/rule13 .venv/bin/python -m pytest tests/browser/test_lite.py -s
"""

from __future__ import annotations

import http.server
import os
import time

import pytest

from .helpers import CHROMIUM_ARGS, HTML_DIR, chromium_path, is_local, serving

LITE = HTML_DIR / "lite"
# A chapter whose every cell runs without bokeh, and a text one of its outputs prints.
CHAPTER = os.environ.get("WARGAMES_LITE_CHAPTER", "citadel/rule09")
EXPECTED = os.environ.get("WARGAMES_LITE_EXPECTED", "howitzer_105")
KERNEL_TIMEOUT_MS = 240_000
RUN_TIMEOUT_MS = 240_000
ARGS = [a for a in CHROMIUM_ARGS if not a.startswith("--host-resolver-rules")] + [
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost"
]

KERNEL_IDLE_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!kernel && kernel.status === "idle" && !!w.content && w.content.widgets.length > 0;
}"""
CODE_CELLS_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets
  .filter((c) => c.model.type === "code")
  .map((c) => ({ count: c.model.executionCount, outputs: c.model.outputs.toJSON() }))"""
ALL_RUN_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const cells = w.content.widgets.filter((c) => c.model.type === "code");
  return w.sessionContext.session.kernel.status === "idle" && cells.every((c) => c.model.executionCount !== null);
}"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript"}

    def log_message(self, format, *args):  # noqa: A002 - base-class signature
        pass


@pytest.fixture(scope="module")
def lite_url():
    if not (LITE / "files" / f"{CHAPTER}.ipynb").is_file():
        pytest.skip(f"no live edition of {CHAPTER} in {LITE}: run `make lite` first")
    with serving(HTML_DIR, _Handler) as url:
        yield url.replace("127.0.0.1", "localhost")


# chapter -> (the widget control to change: its description, and the option to choose; text the widget shows
# once the chapter has run; whether the widget draws a map)
WIDGETS = {
    "citadel/rule08": (("shot 1", "1"), "P(pin) = 1/2", True),
    "indochina/rule13": (("attacker", "FEF"), "2/1 raw, no shifts", False),
    "fte/rule08": (("NVA shoots", "US FT 20.20"), "Unresolved after three rounds", True),
    "citadel/rule11": (("target", "AM-1, west hex (1316)"), "the exact odds of this attack", True),
    "ntnd/rule19": (("Allied die", "6"), "Over all 36 rolls", False),
    "ntnd/rule23": (("election", "1972"), "the peace party wins 50.0% of the time", False),
}
# the outermost VBox of a widget (a live widget's layout nests boxes)
OUTER = ".jp-OutputArea-output .widget-vbox:not(.widget-vbox .widget-vbox)"
WIDGET_JS = """() => {
  const boxes = [...document.querySelectorAll('%s')];
  return boxes.length ? boxes[boxes.length - 1].innerText : null;
}""" % OUTER


def _text(outputs: list[dict]) -> str:
    parts = []
    for out in outputs:
        if "text" in out:
            parts.append("".join(out["text"]) if isinstance(out["text"], list) else out["text"])
        for value in (out.get("data") or {}).values():
            parts.append(value if isinstance(value, str) else "".join(value) if isinstance(value, list) else "")
    return "\n".join(parts)


@pytest.fixture(scope="module")
def browser(playwright):
    executable = chromium_path()
    if executable is None:
        pytest.fail("Debian chromium not found: apt-get install chromium (or set CHROMIUM=path)")
    b = playwright.chromium.launch(executable_path=executable, args=ARGS)
    try:
        yield b
    finally:
        b.close()


class Visit:
    """One chapter of the live edition opened in a fresh browser context with every host but localhost blocked:
    its kernel started, all its cells run; what left localhost, page errors, bytes served and the times."""

    def __init__(self, context, url: str, chapter: str):
        self.external, self.errors, self.sizes = [], [], {}

        def route(r):
            if is_local(r.request.url):
                r.continue_()
            else:
                self.external.append(r.request.url)
                r.abort("blockedbyclient")

        context.route("**/*", route)
        # Bytes served, the kernel's worker included (http.server sends Content-Length).
        context.on("response", lambda r: self.sizes.setdefault(r.url, int(r.headers.get("content-length") or 0)))
        self.page = page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("websocket", lambda ws: self.external.append(ws.url))
        start = time.monotonic()
        page.goto(f"{url}lite/notebooks/index.html?path={chapter}.ipynb")
        page.wait_for_function(KERNEL_IDLE_JS, timeout=KERNEL_TIMEOUT_MS)
        self.idle = time.monotonic() - start
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.locator(".jp-OutputArea-output").first.wait_for(timeout=RUN_TIMEOUT_MS)
        self.first_output = time.monotonic() - start
        page.wait_for_function(ALL_RUN_JS, timeout=RUN_TIMEOUT_MS)
        self.done = time.monotonic() - start
        self.cells = page.evaluate(CODE_CELLS_JS)

    def failed(self) -> list:
        return [(i, o.get("ename"), o.get("evalue")) for i, c in enumerate(self.cells) for o in c["outputs"]
                if o.get("output_type") == "error"]


def test_live_chapter_runs_every_cell_offline(lite_url, browser, capsys):
    context = browser.new_context()
    try:
        v = Visit(context, lite_url, CHAPTER)
    finally:
        context.close()
    with capsys.disabled():
        print(f"\nlive {CHAPTER}: kernel idle {v.idle:.1f} s, first output {v.first_output:.1f} s, "
              f"{len(v.cells)} code cells run in {v.done:.1f} s after the page load; "
              f"{len(v.sizes)} files, {sum(v.sizes.values()) / 1e6:.1f} MB downloaded")
    assert v.failed() == [], f"cells failed in the live edition: {v.failed()}"
    assert all(c["count"] is not None for c in v.cells)
    assert EXPECTED in "\n".join(_text(c["outputs"]) for c in v.cells)
    assert v.external == [], f"requests left localhost: {v.external}"
    assert v.errors == [], v.errors


@pytest.mark.parametrize("chapter", list(WIDGETS))
def test_live_widget_answers_a_change_offline(chapter, browser, capsys):
    if not (LITE / "files" / f"{chapter}.ipynb").is_file():
        pytest.skip(f"no live edition of {chapter} in {LITE}: run `make lite` first")
    (label, option), expected, has_map = WIDGETS[chapter]
    with serving(HTML_DIR, _Handler) as url:
        context = browser.new_context()
        try:
            v = Visit(context, url.replace("127.0.0.1", "localhost"), chapter)
            assert v.failed() == [], f"cells of {chapter} failed in the live edition: {v.failed()}"
            page = v.page
            page.wait_for_function(WIDGET_JS, timeout=RUN_TIMEOUT_MS)
            before = page.evaluate(WIDGET_JS)
            assert expected in before, before[:2000]
            widget = page.locator(OUTER).last
            if has_map:
                assert widget.locator("svg.wg-hexmap").count() == 1
                map_before = widget.locator("svg.wg-hexmap").inner_html()
            control = widget.locator(".widget-dropdown", has_text=label).locator("select").first
            t0 = time.monotonic()
            control.select_option(label=option)
            page.wait_for_function(f"(before) => ({WIDGET_JS})() !== before", arg=before, timeout=60_000)
            answered = time.monotonic() - t0
            if has_map:     # the map is redrawn in the same callback; its update may reach the page a moment later
                page.wait_for_function(f"(before) => [...document.querySelectorAll('{OUTER}')].pop()"
                                       ".querySelector('svg.wg-hexmap').innerHTML !== before", arg=map_before,
                                       timeout=60_000)
        finally:
            context.close()
    with capsys.disabled():
        print(f"\nlive {chapter}: first output {v.first_output:.1f} s, {len(v.cells)} code cells run in "
              f"{v.done:.1f} s after the page load; the widget answered the change of {label!r} in {answered:.1f} s")
    assert v.external == [], f"requests left localhost: {v.external}"
    assert v.errors == [], v.errors
