"""The site's root page (book/_ext/root_page.py): a real HTML page with the book's icon that forwards to the book."""

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


def test_root_page_forwards_and_names_its_icon():
    tags = _tags(root_page.root_page("book/intro.html", "Wargames & co", "_static/favicon.svg"))
    assert ("meta", {"http-equiv": "Refresh", "content": "0; url=book/intro.html"}) in tags
    assert ("link", {"rel": "icon", "href": "_static/favicon.svg"}) in tags
    assert ("a", {"href": "book/intro.html"}) in tags
    assert "Wargames &amp; co" in root_page.root_page("x.html", "Wargames & co", None)
    assert not any(tag == "link" for tag, _ in _tags(root_page.root_page("x.html", "T", None)))


def test_tiny_book_build_writes_the_root_page_before_sphinx_external_toc(tmp_path):
    """With sphinx-external-toc loaded too, the root index.html is ours, and its icon and target exist."""
    sphinx_build = pytest.importorskip("sphinx.cmd.build")
    pytest.importorskip("sphinx_external_toc")
    src, out = tmp_path / "src", tmp_path / "html"
    (src / "book").mkdir(parents=True)
    (src / "icon.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    (src / "_toc.yml").write_text("format: jb-book\nroot: book/intro\nchapters:\n- file: book/rule01\n")
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(EXT)!r})\n"
        "extensions = ['sphinx_external_toc', 'root_page']\nexternal_toc_path = '_toc.yml'\n"
        "html_favicon = 'icon.svg'\nhtml_title = 'Tiny book'\nexclude_patterns = ['_build']\n"
    )
    (src / "book" / "intro.rst").write_text("Intro\n=====\n")
    (src / "book" / "rule01.rst").write_text("Rule 1\n======\n")
    assert sphinx_build.build_main(["-q", "-b", "html", str(src), str(out)]) == 0
    tags = _tags((out / "index.html").read_text(encoding="utf-8"))
    assert ("meta", {"http-equiv": "Refresh", "content": "0; url=book/intro.html"}) in tags
    icon = next(attrs["href"] for tag, attrs in tags if tag == "link" and attrs.get("rel") == "icon")
    assert (out / icon).is_file()
    assert (out / "book" / "intro.html").is_file()
