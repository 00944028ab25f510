"""Navigation as a reader meets it: the sidebar, the interactive index, the intro's status table, search.

What the pages show is compared with what the registry and _toc.yml say (widgets.status), so a stale
page or a sidebar that falls back to long titles fails here.
"""
from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest

from widgets.status import ALL_TITLES, ORDER, all_status, toc_files, toc_titles

from .helpers import VIEWPORTS

pytestmark = pytest.mark.browser

# The sidebar: pydata-sphinx-theme nests a chapter's sections in a <details> under its <li>.
SIDEBAR_JS = """
() => {
  const nav = document.querySelector("nav.bd-docs-nav");
  const top = [...nav.querySelectorAll("ul.bd-sidenav > li.toctree-l1")];
  return top.map((li) => {
    const a = li.querySelector(":scope > a");
    const details = li.querySelector(":scope > details");
    const kids = [...li.querySelectorAll("li.toctree-l2 > a")];
    return {
      title: a.textContent.trim(),
      href: a.getAttribute("href"),
      shown: a.checkVisibility ? a.checkVisibility() : a.offsetParent !== null,
      collapsible: !!details,
      open: details ? details.open : null,
      children: kids.map((k) => ({title: k.textContent.trim(), href: k.getAttribute("href"),
                                  visible: k.checkVisibility ? k.checkVisibility() : k.offsetParent !== null})),
    };
  });
}
"""


def _doc_of(href: str, page_doc: str) -> str:
    """The doc name a sidebar href (relative to page_doc's directory) points to."""
    base = "http://x/" + page_doc + ".html"
    path = urljoin(base, href.split("#")[0])[len("http://x/"):]
    return path.removesuffix(".html")


def _sidebar(book):
    book.page.locator("nav.bd-docs-nav").first.wait_for(state="attached")
    return book.page.evaluate(SIDEBAR_JS)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_sidebar_has_one_collapsible_part_per_game(open_page, viewport, dark):
    book = open_page("book/intro.html", viewport=viewport, dark=dark)
    entries = _sidebar(book)
    titles = [e["title"] for e in entries]
    games = [ALL_TITLES[name] for name in ORDER]
    assert [t for t in titles if t in games] == games, titles
    for e in entries:
        if e["title"] not in games:
            continue
        name = next(n for n in ORDER if ALL_TITLES[n] == e["title"])
        assert e["shown"], f"{e['title']} is not visible in the sidebar at {viewport}"
        assert _doc_of(e["href"], "book/intro") == f"book/{name}/index"
        expected = [d for d in toc_files() if d.startswith(f"book/{name}/") and d != f"book/{name}/index"]
        assert [_doc_of(c["href"], "book/intro") for c in e["children"]] == expected, name
        short = toc_titles()
        for child in e["children"]:
            assert child["title"] == short[_doc_of(child["href"], "book/intro")]
            assert len(child["title"]) <= 48 and not child["title"].startswith(e["title"]), child
        if expected:
            # Collapsed on a page outside the game: the chapters are there but not shown.
            assert e["collapsible"] and e["open"] is False, e
            assert not any(c["visible"] for c in e["children"]), name
    # The whole sidebar of the intro is short: the introduction, the games, the comparison (one entry, its
    # chapters nested), then at most five pages across them.
    assert sum(1 for c in entries) <= 1 + len(ORDER) + 1 + 5, titles
    # A click on the Citadel chevron opens its chapters in place.
    book.page.locator("nav.bd-docs-nav li.toctree-l1", has_text="Citadel").first.locator(
        ":scope > details > summary .toctree-toggle").click()
    citadel = next(e for e in _sidebar(book) if e["title"] == "Citadel")
    assert citadel["open"] is True and all(c["visible"] for c in citadel["children"])
    book.assert_clean()


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_sidebar_opens_the_current_game_and_uses_short_titles(open_page, viewport):
    book = open_page("book/fte/rule08.html", viewport=viewport)
    entries = _sidebar(book)
    fte = next(e for e in entries if e["title"] == ALL_TITLES["fte"])
    assert fte["open"] is True
    assert all(c["visible"] for c in fte["children"])
    others = [e for e in entries if e["title"] in (ALL_TITLES["citadel"], ALL_TITLES["indochina"])]
    assert others and all(e["open"] is False for e in others)
    short = toc_titles()
    for child in fte["children"]:
        doc = _doc_of(child["href"], "book/fte/rule08")
        assert child["title"] == short[doc], (doc, child["title"])
        assert not child["title"].startswith(ALL_TITLES["fte"])
    assert "Rule 8: the assault" in [c["title"] for c in fte["children"]]
    # The page's own title keeps the game and the rule number.
    h1 = book.page.locator("article h1").first.inner_text()
    assert h1.startswith("Front Toward Enemy, Rule 8"), h1
    book.assert_clean()


def test_citadel_part_lists_every_rule_then_the_scenarios_then_exercises(open_page):
    book = open_page("book/citadel/scenario8.html")
    citadel = next(e for e in _sidebar(book) if e["title"] == "Citadel")
    titles = [c["title"] for c in citadel["children"]]
    short = toc_titles()
    assert titles[-2:] == [short["book/citadel/scenario8"], short["book/citadel/exercises"]]
    assert [t for t in titles if t.startswith("Rule ")] == [short[f"book/citadel/rule{n:02d}"] for n in range(1, 36)]
    assert not any("not written" in t for t in titles)
    book.assert_clean()


def test_interactive_index_links_resolve(open_page):
    book = open_page("book/interactive.html")
    links = book.page.locator("article a.reference.internal").evaluate_all(
        "(els) => els.map((a) => [a.textContent.trim(), a.href])")
    targets = {href.split("#")[0] for _, href in links}
    # The three named widgets and at least the maps of FTE and Indochina are listed.
    for doc in ("citadel/rule08", "indochina/rule13", "fte/rule08", "indochina/rule02", "fte/rule07_3"):
        assert any(t.endswith(f"book/{doc}.html") for t in targets), doc
    for target in sorted(targets):
        response = book.page.request.get(target)
        assert response.status == 200, target
        assert "<h1" in response.text(), target
    book.assert_clean()


def test_intro_status_table_matches_the_registry(open_page):
    book = open_page("book/intro.html")
    table = book.page.locator("article table").filter(has_text="Status in this edition").first
    rows = table.locator("tbody tr")
    expected = all_status()
    assert rows.count() == len(expected)
    for i, st in enumerate(expected):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0].strip() == st.title
        assert cells[2].strip() == st.summary()
        href = rows.nth(i).locator("td a").first.get_attribute("href")
        assert _doc_of(href, "book/intro") == f"book/{st.name}/index"
    # The stale text: the FTE row said "planned" while the registry had no planned FTE section.
    fte = next(st for st in expected if st.name == "fte")
    assert ("planned" in rows.nth(ORDER.index("fte")).inner_text()) == (fte.planned > 0)
    book.assert_clean()


def test_ntnd_has_an_overview_page(open_page):
    book = open_page("book/ntnd/index.html")
    text = book.page.locator("article").inner_text()
    assert "No Trumpets No Drums" in book.page.locator("article h1").first.inner_text()
    assert "playable engine" in text and "rule03" in book.page.locator("article").inner_html()
    st = next(st for st in all_status() if st.name == "ntnd")
    assert st.engine and f"{st.implemented} of the {st.sections} sections of the rules index are implemented" in text
    book.assert_clean()


def _search(open_page, query: str) -> list[str]:
    book = open_page("search.html?q=" + query.replace(" ", "+"))
    book.wait_until("() => document.querySelector('#search-results .search-summary')"
                    " && !document.querySelector('#search-progress')?.textContent.trim()",
                    f"the search results for {query!r}", timeout_ms=30_000)
    hrefs = book.page.locator("#search-results ul.search > li > a").evaluate_all(
        "(els) => els.map((a) => a.getAttribute('href'))")
    book.assert_clean()
    return [re.sub(r"(\.html)?([?#].*)?$", "", h) for h in hrefs]


@pytest.mark.parametrize("query, chapter", [
    pytest.param("C 8", "book/citadel/rule08", marks=pytest.mark.rule("C 8")),
    ("C 9", "book/citadel/rule09"),
    ("IC 13", "book/indochina/rule13"),
    ("F 8.0", "book/fte/rule08"),
])
def test_search_for_a_rule_id_ranks_its_chapter_first(open_page, query, chapter):
    docs = _search(open_page, query)
    assert docs, f"no search results for {query}"
    assert docs[0] == chapter, docs[:5]
    # The ambiguities appendix cites every rule; it must come after the chapter.
    if "book/appendix/ambiguities" in docs:
        assert docs.index(chapter) < docs.index("book/appendix/ambiguities")
