"""Browser layer fixtures: serve _build/html on 127.0.0.1 and drive Debian chromium via Playwright.

Hosts other than 127.0.0.1/localhost do not resolve, and route interception aborts and records
any request to them. In a test::

    def test_something(open_page):
        book = open_page("book/citadel/rule08.html")
        book.wait_for_widgets()
        book.select("Hex", "hex 1")
        assert book.value("Index") == "1"
        book.assert_clean()
"""

from __future__ import annotations

import http.server
from pathlib import Path

import pytest

from .helpers import CHROMIUM_ARGS, HTML_DIR, PAGE_TIMEOUT_MS, BookPage, chromium_path, is_local, serving


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def book_html() -> Path:
    if not HTML_DIR.is_dir():
        pytest.skip(f"no built book at {HTML_DIR}: run `make book` first (`make test` does)")
    return HTML_DIR


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - base-class signature
        pass


@pytest.fixture(scope="session")
def book_server(book_html: Path):
    """Base URL of a static server for the built book, on a free port of 127.0.0.1."""
    with serving(book_html, _QuietHandler) as url:
        yield url


@pytest.fixture(scope="session")
def playwright():
    """One Playwright for the whole run. The sync API runs an event loop while it is open, so a second
    ``sync_playwright()`` inside it fails: every browser of the layer is launched from this one."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(book_html: Path, playwright):
    executable = chromium_path()
    if executable is None:
        pytest.fail("Debian chromium not found: apt-get install chromium (or set CHROMIUM=path)")
    browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def open_page(browser, book_server):
    """Function that loads a page (path relative to _build/html, optionally with a ``#hash``) until the
    network is idle: ``open_page(path, viewport=(1366, 768), dark=False)``. ``dark`` sets the book theme's
    dark mode before the page's scripts run, as a reader's click on the theme toggle would persist it."""
    contexts = []

    def _open(path: str, viewport: tuple[int, int] | None = None, dark: bool = False) -> BookPage:
        options = {"viewport": {"width": viewport[0], "height": viewport[1]}} if viewport else {}
        context = browser.new_context(**options)
        if dark:
            context.add_init_script("localStorage.setItem('mode', 'dark'); localStorage.setItem('theme', 'dark');")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        visit = BookPage(page=page, url=book_server + path)

        def route(r):
            if is_local(r.request.url):
                r.continue_()
            else:
                visit.record_external(r.request.url)
                r.abort("blockedbyclient")

        context.route("**/*", route)
        visit.watch()
        page.goto(visit.url, wait_until="networkidle")
        return visit

    yield _open
    for context in contexts:
        context.close()
