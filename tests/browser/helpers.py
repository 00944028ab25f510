"""Helpers for the browser layer: the built-page list and `BookPage`, one loaded page."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import re
import threading
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[2]
HTML_DIR = Path(os.environ.get("WARGAMES_BOOK_HTML", REPO / "_build" / "html"))
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
IGNORED_SCHEMES = {"data", "blob", "about", "javascript"}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    # Every host but the test server resolves to nothing, so a CDN dependency fails loudly.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
PAGE_TIMEOUT_MS = 30_000
# A laptop and a projector: every named widget is checked at both, light and dark.
VIEWPORTS = [(1366, 768), (1920, 1080)]
SCREENSHOTS = REPO / "_build" / "screenshots"


@contextlib.contextmanager
def serving(directory: Path, handler_class, server_class=http.server.ThreadingHTTPServer):
    """Serve ``directory`` on a free port of 127.0.0.1 with ``handler_class``; yields the base URL."""
    handler = functools.partial(handler_class, directory=str(directory))
    server = server_class(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def chromium_path() -> str | None:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return path if Path(path).exists() else None


def built_pages() -> list[str]:
    """Every built HTML page of the static book relative to the HTML root (theme templates in _static and the
    live edition in lite/, which tests/browser/test_lite.py opens, excluded)."""
    if not HTML_DIR.is_dir():
        return []
    return sorted(
        p.relative_to(HTML_DIR).as_posix()
        for p in HTML_DIR.rglob("*.html")
        if not p.relative_to(HTML_DIR).parts[0].startswith("_") and p.relative_to(HTML_DIR).parts[0] != "lite"
    )


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in IGNORED_SCHEMES or parts.hostname in LOCAL_HOSTS


# Walks open shadow roots (bokeh renders into them) and reports, for each bokeh plot element,
# its size, visibility, canvas area and how many distinct colours its canvases hold (max 3).
BOKEH_PLOTS_JS = """
() => {
  const isPlot = (el) => el.classList && ["bk-Figure", "bk-Plot", "bk-GMapPlot"]
    .some((c) => el.classList.contains(c));
  const all = (root, out = []) => {
    for (const el of root.querySelectorAll("*")) {
      out.push(el);
      if (el.shadowRoot) all(el.shadowRoot, out);
    }
    return out;
  };
  return all(document).filter(isPlot).map((el) => {
    const box = el.getBoundingClientRect();
    const inside = el.shadowRoot ? all(el.shadowRoot) : [];
    const colours = new Set();
    let canvasArea = 0;
    for (const c of inside.concat(all(el)).filter((e) => e.tagName === "CANVAS")) {
      if (!c.width || !c.height) continue;
      canvasArea += c.width * c.height;
      // Read a copy: reading the page's own canvases again and again makes Chrome log a warning.
      const copy = document.createElement("canvas");
      copy.width = c.width; copy.height = c.height;
      const ctx = copy.getContext("2d", {willReadFrequently: true});
      ctx.drawImage(c, 0, 0);
      const data = ctx.getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < data.length && colours.size < 3; i += 4 * 7) {
        if (data[i + 3] > 0) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
      }
    }
    return {
      classes: String(el.className),
      width: box.width,
      height: box.height,
      visible: el.checkVisibility ? el.checkVisibility() : true,
      canvasArea: canvasArea,
      colours: colours.size,
    };
  });
}
"""

WIDGETS_RENDERED_JS = """
() => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')]
  .every((s) => s.parentElement.querySelector(".widget-subarea .jupyter-widgets"))
"""


@dataclass
class BookPage:
    """One loaded page of the built book, with everything it logged or requested."""

    page: object  # playwright.sync_api.Page
    url: str
    console_errors: list[str] = field(default_factory=list)
    console_warnings: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)
    failed_local: list[str] = field(default_factory=list)

    def record_external(self, url: str) -> None:
        if not is_local(url) and url not in self.external_requests:
            self.external_requests.append(url)

    def watch(self) -> None:
        """Record, from now on, every request that leaves localhost, failed local response, console error or
        warning and uncaught page error of the page."""
        page = self.page

        def on_response(response):
            if response.status >= 400:
                self.failed_local.append(f"{response.status} {response.url}")

        def on_console(message):
            if message.type == "error":
                self.console_errors.append(f"{message.text} [{message.location.get('url', '')}]")
            elif message.type == "warning":
                self.console_warnings.append(f"{message.text} [{message.location.get('url', '')}]")

        page.on("request", lambda request: self.record_external(request.url))
        page.on("websocket", lambda ws: self.record_external(ws.url))
        page.on("response", on_response)
        page.on("console", on_console)
        page.on("pageerror", lambda error: self.page_errors.append(f"{error}\n{error.stack}"))

    # checks
    def problems(self) -> list[str]:
        return (
            [f"console error: {m}" for m in self.console_errors]
            + [f"console warning: {m}" for m in self.console_warnings]
            + [f"page error: {m}" for m in self.page_errors]
            + [f"external request: {u}" for u in self.external_requests]
            + [f"local request failed: {u}" for u in self.failed_local]
        )

    def unrendered_tables(self) -> list[str]:
        """Cell outputs that show a generated Markdown table as text (its pipes and rules), not as a table."""
        outputs = self.page.locator(".cell_output").all_inner_texts()
        return [o for o in outputs if re.search(r"\|\s*(---|—)\s*\|", o)]

    def assert_clean(self) -> None:
        problems = self.problems()
        assert not problems, f"{self.url}:\n  " + "\n  ".join(problems)

    def wait_until(self, js_predicate: str, what: str, timeout_ms: int = 15_000) -> None:
        """Wait for a JS predicate; on timeout fail with `what` and every problem seen so far."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(js_predicate, timeout=timeout_ms, polling=100)
        except PlaywrightTimeout:
            details = "\n  ".join(self.problems()) or "(no console errors or blocked requests)"
            raise AssertionError(f"{self.url}: timed out waiting for {what}\n  {details}") from None

    # bokeh
    def bokeh_plots(self) -> list[dict]:
        return self.page.evaluate(BOKEH_PLOTS_JS)

    def wait_for_bokeh(self, count: int = 1) -> None:
        """Wait until at least `count` bokeh plots are in the DOM and every visible one is drawn."""
        drawn = f"""() => {{
          const plots = ({BOKEH_PLOTS_JS})();
          return plots.length >= {int(count)} && plots.every(
            (p) => !p.visible || (p.width > 0 && p.height > 0 && p.canvasArea > 0 && p.colours >= 2));
        }}"""
        self.wait_until(drawn, f"{count} drawn bokeh plot(s)")

    # ipywidgets (static embed, state from the build)
    def wait_for_widgets(self) -> None:
        """Wait until the widget manager has rendered every embedded widget view."""
        self.wait_until(WIDGETS_RENDERED_JS, "the embedded widgets to render")

    def widget(self, description: str):
        """Locator of the input/select of the widget whose description is `description`."""
        return self.page.get_by_label(description, exact=True)

    def select(self, description: str, option: str) -> None:
        """Choose `option` (its visible label) in the Dropdown described by `description`."""
        self.widget(description).select_option(label=option)

    def value(self, description: str) -> str:
        """Value shown by the text or number widget described by `description`."""
        return self.widget(description).input_value()

    def text(self, selector: str) -> str:
        """Visible text of the first element matching a CSS selector (pierces shadow DOM)."""
        return self.page.locator(selector).first.inner_text()

    # what a reader sees
    def labels(self) -> list[str]:
        """The visible text of every bokeh control label and button, in page order (pierces shadow roots)."""
        return self.page.evaluate(LABELS_JS)

    def overlaps(self, root_selector: str = "body") -> list[str]:
        """Pairs of visible text boxes that overlap one another inside ``root_selector`` (shadow roots included).

        Each text node's own rectangles are compared, so a label written over another (as a bokeh title
        changed into a sentence once did) is found; nested elements do not count as overlapping.
        """
        return self.page.evaluate(OVERLAPS_JS, root_selector)

    def box(self, selector: str) -> dict:
        """The page-coordinate box of the first element matching ``selector`` (pierces shadow roots)."""
        handle = self.page.locator(selector).first
        handle.wait_for(timeout=15_000)
        b = handle.bounding_box()
        scroll = self.page.evaluate("window.scrollY")
        return {"top": b["y"] + scroll, "bottom": b["y"] + b["height"] + scroll, "height": b["height"],
                "left": b["x"], "right": b["x"] + b["width"]}

    def viewport_height(self) -> int:
        return self.page.evaluate("window.innerHeight")

    def screenshot(self, name: str, selector: str | None = None) -> Path:
        """Save a screenshot (of one element, or the window) to _build/screenshots/<name>.png."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        if selector:
            self.page.locator(selector).first.screenshot(path=str(path))
        else:
            self.page.screenshot(path=str(path))
        return path

    def settle(self, read, want, tries: int = 60):
        """``read(self)`` again every 100 ms until it equals ``want`` (bokeh applies a change asynchronously);
        returns the last value read, for the caller's assertion."""
        got = read(self)
        for _ in range(tries):
            if got == want:
                break
            self.page.wait_for_timeout(100)
            got = read(self)
        return got

    def hash(self) -> str:
        return self.page.evaluate("decodeURIComponent(window.location.hash)")


def deep_all_js() -> str:
    return """
  const all = (root, out = []) => {
    if (root.shadowRoot) all(root.shadowRoot, out);
    for (const el of root.querySelectorAll("*")) {
      out.push(el);
      if (el.shadowRoot) all(el.shadowRoot, out);
    }
    return out;
  };
  // The colour behind an element: the first opaque background up the tree, through shadow hosts.
  const backdrop = (el) => {
    for (let e = el; e; e = e.parentElement || (e.getRootNode && e.getRootNode().host) || null) {
      const bg = getComputedStyle(e).backgroundColor;
      const alpha = bg.startsWith("rgba") ? parseFloat(bg.split(",")[3]) : 1;
      if (bg !== "transparent" && alpha > 0.5) return bg;
    }
    return getComputedStyle(document.body).backgroundColor;
  };"""


LABELS_JS = "() => {" + deep_all_js() + """
  return all(document)
    .filter((el) => (el.tagName === "LABEL" && el.closest && el.getRootNode().host) ||
                    (el.tagName === "BUTTON" && el.getRootNode().host))
    .filter((el) => el.checkVisibility ? el.checkVisibility() : true)
    .map((el) => el.innerText.trim());
}
"""

OVERLAPS_JS = "(sel) => {" + deep_all_js() + """
  const roots = [...document.querySelectorAll(sel)];
  const texts = [];
  const walk = (node) => {
    const it = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    let t;
    while ((t = it.nextNode())) {
      if (!t.textContent.trim()) continue;
      const el = t.parentElement;
      if (!el || (el.checkVisibility && !el.checkVisibility())) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || Number(style.opacity) === 0) continue;
      const range = document.createRange();
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) {
        if (r.width > 1 && r.height > 1) texts.push({text: t.textContent.trim().slice(0, 40), r: r});
      }
    }
  };
  for (const root of roots) {
    walk(root);
    for (const el of all(root)) { if (el.shadowRoot) walk(el.shadowRoot); }
  }
  const found = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i].r, b = texts[j].r;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 2 && h > 2) {
        found.push(`${JSON.stringify(texts[i].text)} over ${JSON.stringify(texts[j].text)}`);
        if (found.length > 10) return found;
      }
    }
  }
  return found;
}
"""
