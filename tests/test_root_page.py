"""The site's root page (book/_ext/root_page.py): a real HTML page that forwards to the book and asks for no icon."""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

EXT = Path(__file__).resolve().parents[1] / "book" / "_ext"
sys.path.insert(0, str(EXT))
import root_page  # noqa: E402


class _Head(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _tags(text: str) -> list[tuple[str, dict]]:
    parser = _Head()
    parser.feed(text)
    return parser.tags


def test_root_page_forwards_and_asks_for_no_icon():
    tags = _tags(root_page.root_page("book/intro.html", "Wargames & co"))
    assert ("meta", {"http-equiv": "Refresh", "content": "0; url=book/intro.html"}) in tags
    assert ("link", {"rel": "icon", "href": "data:,"}) in tags
    assert ("a", {"href": "book/intro.html"}) in tags
    assert "<title>Wargames &amp; co</title>" in root_page.root_page("x.html", "Wargames & co")


def test_tiny_book_build_writes_the_root_page_before_sphinx_external_toc(tmp_path):
    """With sphinx-external-toc loaded too, the root index.html is ours, and the page it forwards to exists."""
    sphinx_build = pytest.importorskip("sphinx.cmd.build")
    pytest.importorskip("sphinx_external_toc")
    src, out = tmp_path / "src", tmp_path / "html"
    (src / "book").mkdir(parents=True)
    (src / "_toc.yml").write_text("format: jb-book\nroot: book/intro\nchapters:\n- file: book/rule01\n")
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(EXT)!r})\n"
        "extensions = ['sphinx_external_toc', 'root_page']\nexternal_toc_path = '_toc.yml'\n"
        "html_title = 'Tiny book'\nexclude_patterns = ['_build']\n"
    )
    (src / "book" / "intro.rst").write_text("Intro\n=====\n")
    (src / "book" / "rule01.rst").write_text("Rule 1\n======\n")
    assert sphinx_build.build_main(["-q", "-b", "html", str(src), str(out)]) == 0
    tags = _tags((out / "index.html").read_text(encoding="utf-8"))
    assert ("meta", {"http-equiv": "Refresh", "content": "0; url=book/intro.html"}) in tags
    assert ("link", {"rel": "icon", "href": "data:,"}) in tags
    assert "<title>Tiny book</title>" in (out / "index.html").read_text(encoding="utf-8")
    assert (out / "book" / "intro.html").is_file()
