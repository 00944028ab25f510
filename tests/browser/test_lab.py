"""`make lab` offline: a chapter opened in JupyterLab draws its live map and answers a live control.

The test runs the Makefile's own `lab` target (so its environment, BOKEH_RESOURCES=inline, is what
is tested) on a free port of localhost, with a token, in a scratch copy of the chapter: JupyterLab
saves open notebooks on its own, and the chapter in book/ must not be rewritten. Chromium resolves
no host but localhost, so a CDN dependency (BokehJS's default) fails the test.

In book/citadel/rule08.md it runs every cell, as a reader would, then changes the first die of the
live Anne-Marie widget (AnneMarieLive) and checks that the list of shots and the map change, that
the shown result for the new die is the engine's, and that no output says "Javascript Error".
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from .helpers import CHROMIUM_ARGS, REPO, chromium_path

pytestmark = pytest.mark.browser

CHAPTER = REPO / "book" / "citadel" / "rule08.md"
START_TIMEOUT_S = 60
RUN_TIMEOUT_MS = 120_000
# The lab is served on localhost: MAP * also maps 127.0.0.1 away, so localhost is the one exception.
LAB_CHROMIUM_ARGS = [a for a in CHROMIUM_ARGS if not a.startswith("--host-resolver-rules")] + [
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost"]

# Every code cell has run: none waits ("[*]") and each shows an execution count.
ALL_RAN_JS = """
() => {
  const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
  return prompts.length > 0 && prompts.every((p) => /\\[\\d+\\]/.test(p.textContent));
}
"""

# The live widget's map: bokeh renders into shadow roots; hash the pixels of its canvases.
LIVE_MAP_PIXELS_JS = """
(root) => {
  const canvases = [];
  const walk = (node) => {
    for (const el of node.querySelectorAll('*')) {
      if (el.tagName === 'CANVAS' && el.width && el.height) canvases.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(root);
  let sum = 0, n = 0;
  for (const c of canvases) {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < data.length; i += 4) { sum = (sum * 31 + data[i] + 7 * data[i + 1] + 13 * data[i + 2]) % 1000000007; }
    n += c.width * c.height;
  }
  return {canvases: canvases.length, area: n, hash: sum};
}
"""


# innerText of an HTML fragment, laid out in the page (for comparison with what a widget shows).
HTML_TEXT_JS = """
(html) => {
  const d = document.createElement('div');
  d.innerHTML = html;
  document.body.appendChild(d);
  const text = d.innerText;
  d.remove();
  return text;
}
"""


def _words(text: str) -> str:
    return " ".join(text.split())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab(tmp_path: Path):
    pytest.importorskip("jupyterlab", reason="jupyterlab is not installed (pip install -e '.[test]')")
    pytest.importorskip("jupytext", reason="jupytext is not installed: chapters open as notebooks through it")
    if chromium_path() is None:
        pytest.fail("Debian chromium not found: apt-get install chromium (or set CHROMIUM=path)")
    work = tmp_path / "lab"
    work.mkdir()
    shutil.copy(CHAPTER, work / CHAPTER.name)
    port, token = _free_port(), secrets.token_hex(16)
    env = {k: v for k, v in os.environ.items() if k != "WARGAMES_BOOK_BUILD"}
    env.update(JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "ws"))
    args = f"--port={port} --ServerApp.port_retries=0 --ServerApp.ip=localhost --IdentityProvider.token={token}"
    log = (tmp_path / "lab.log").open("w")
    proc = subprocess.Popen(
        ["make", "-s", "lab", f"LAB_DIR={work}", f"LAB_ARGS={args}"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    base = f"http://localhost:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"`make lab` exited with {proc.returncode}:\n{(tmp_path / 'lab.log').read_text()[-3000:]}")
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not answer within {START_TIMEOUT_S} s")
                time.sleep(0.3)
        yield f"{base}/lab/tree/{CHAPTER.name}?token={token}"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # make and the server it started, nothing else
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
        log.close()


def _engine_steps(die: int) -> str:
    """The live widget's shot list for the printed assignment with the first die replaced."""
    from widgets.citadel import PRINTED_DICE, AnneMarieLive

    live = AnneMarieLive()
    live.dice[0].value = die
    assert live.outcome.example.run.shots, "the engine fired no shot"
    assert [d.value for d in live.dice][1:] == list(PRINTED_DICE)[1:]
    return live.steps.value


def test_live_widget_in_jupyterlab_offline(lab, playwright):
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=LAB_CHROMIUM_ARGS)
    try:
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        page.set_default_timeout(30_000)
        external = []
        page.on("request", lambda r: external.append(r.url)
                if not r.url.startswith(("http://localhost", "data:", "blob:", "ws://localhost")) else None)
        page.goto(lab)
        page.locator(".jp-Notebook .jp-CodeCell").first.wait_for()
        status = page.locator(".jp-StatusBar-TextItem", has_text="Idle")
        deadline = time.monotonic() + 30
        while not status.count():
            dialog = page.locator(".jp-Dialog").get_by_role("button", name="Select")
            if dialog.count():
                dialog.click()
            assert time.monotonic() < deadline, "the chapter's kernel never became idle"
            page.wait_for_timeout(200)

        page.locator("#jp-MainMenu").get_by_text("Run", exact=True).click()
        page.get_by_text("Run All Cells", exact=True).click()
        page.wait_for_function(ALL_RAN_JS, timeout=RUN_TIMEOUT_MS, polling=250)

        errors = page.locator(".jp-OutputArea-output", has_text="Javascript Error")
        tracebacks = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']",
                                  has_text="Traceback")
        assert errors.count() == 0, errors.first.inner_text()
        assert tracebacks.count() == 0, tracebacks.first.inner_text()

        # The live widget: the outermost ipywidget in the output of the cell that builds AnneMarieLive;
        # its first die is the first dropdown offering the faces 1 to 6.
        cell = page.locator(".jp-CodeCell", has_text="AnneMarieLive()").last
        live = cell.locator(".jp-OutputArea .jupyter-widgets").first
        live.wait_for()
        faces = [str(n) for n in range(1, 7)]
        dropdowns = live.locator("select")
        die1 = next((dropdowns.nth(i) for i in range(dropdowns.count())
                     if dropdowns.nth(i).locator("option").all_inner_texts() == faces), None)
        assert die1 is not None, "the live widget has no die dropdown (faces 1-6)"
        map_pixels = lambda: live.evaluate(LIVE_MAP_PIXELS_JS)  # noqa: E731
        page.wait_for_function(f"(el) => ({LIVE_MAP_PIXELS_JS})(el).area > 0",
                               arg=live.element_handle(), timeout=30_000)
        before_map, before_text = map_pixels(), live.inner_text()

        new = 1 if int(die1.input_value()) != 1 else 6
        die1.select_option(str(new))
        page.wait_for_function("([el, text]) => el.innerText !== text",
                               arg=[live.element_handle(), before_text], timeout=15_000)
        page.wait_for_timeout(500)  # the map redraw follows the same change
        after_map, after_text = map_pixels(), live.inner_text()
        assert after_map["hash"] != before_map["hash"], "the live map did not change with the die"

        shown = page.evaluate(HTML_TEXT_JS, _engine_steps(new))
        assert _words(shown) in _words(after_text), "the live widget does not show the engine's shots"
        assert errors.count() == 0, errors.first.inner_text()
        assert not external, f"requests off localhost: {external[:5]}"
    finally:
        browser.close()
