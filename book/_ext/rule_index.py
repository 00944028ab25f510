"""Search: each page whose title names rule ids, "Citadel, Rule 8 (C 8): ...", gets a main index entry per id.

Sphinx's search drops digits from a query, so "C 8" searches the word "c" and ranks the pages by title
order. A query that matches a main index entry of about its own length scores 100 in searchtools.js,
above any title (15) or text (5) match, so the chapter of the rule comes first.
"""
from __future__ import annotations

import re

from docutils import nodes
from sphinx import addnodes

_IDS = re.compile(r"\(([^()]*)\)")
_RULE_ID = re.compile(r"^[A-Z]+ [0-9A-Z]")


def rule_ids(title: str) -> list[str]:
    """The rule ids in the first parentheses of a page title: "Rules 5 and 7 (IC 5, IC 7): ..." -> both."""
    m = _IDS.search(title)
    if not m:
        return []
    return [part.strip() for part in m.group(1).split(",") if _RULE_ID.match(part.strip())]


def _add_entries(app, doctree) -> None:
    title = next(iter(doctree.findall(nodes.title)), None)
    if title is None or not isinstance(title.parent, nodes.section) or not title.parent["ids"]:
        return
    section = title.parent
    new = [("single", rid, section["ids"][0], "main", None) for rid in rule_ids(title.astext())]
    if not new:
        return
    # The search index reads index nodes from the doctree; the general index reads the domain's entries.
    section.insert(section.index(title) + 1, addnodes.index(entries=new, inline=False))
    app.env.get_domain("index").entries.setdefault(app.env.docname, []).extend(new)


def setup(app):
    app.connect("doctree-read", _add_entries)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
