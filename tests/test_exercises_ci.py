"""Structure of the Citadel and Indochina exercise pages (the pages themselves run in the book build).

Each page needs 10 or more ``## Exercise N: ...`` sections, numbered in order; each section cites at least one
rule id of its game in bold and is followed by exactly one code cell, tagged ``hide-cell``, whose code
asserts the computed answer. The page ends with a "Where to look" list whose links name existing chapters.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parent.parent / "book"
PAGES = {
    "citadel": ("# Citadel: exercises", r"\*\*C \d+(\.[0-9A-Z]+)*\*\*"),
    "indochina": ("# Indochina: exercises", r"\*\*IC \d+(\.\d+)*\*\*"),
}
CELL = re.compile(r"```\{code-cell\}[^\n]*\n(.*?)```", re.S)
HEADING = re.compile(r"^## Exercise (\d+): \S.*$", re.M)


def sections(text: str) -> list[tuple[int, str]]:
    """(number, body) of each exercise: from its heading to the next level-2 heading."""
    starts = list(HEADING.finditer(text))
    out = []
    for m in starts:
        nxt = re.compile(r"^## ", re.M).search(text, m.end())
        out.append((int(m.group(1)), text[m.end():nxt.start() if nxt else len(text)]))
    return out


def check_page(text: str, title: str, rule_id: str) -> list[str]:
    """Every problem with one page's structure (an empty list when it is sound)."""
    problems = []
    if not text.startswith("---\njupytext:"):
        problems.append("no jupytext header")
    if title not in text.splitlines():
        problems.append(f"no H1 {title!r}")
    found = sections(text)
    if len(found) < 10:
        problems.append(f"{len(found)} exercises, 10 or more wanted")
    if [n for n, _ in found] != list(range(1, len(found) + 1)):
        problems.append(f"exercises numbered {[n for n, _ in found]}")
    for n, body in found:
        cells = CELL.findall(body)
        prose = CELL.sub("", body)
        if len(cells) != 1:
            problems.append(f"exercise {n}: {len(cells)} code cells, exactly one wanted")
            continue
        code = cells[0]
        if not code.startswith(":tags: [hide-cell]\n"):
            problems.append(f"exercise {n}: the solution cell is not tagged hide-cell")
        if not re.search(r"^\s*assert ", code, re.M):
            problems.append(f"exercise {n}: the solution cell asserts nothing")
        if "print(" not in code:
            problems.append(f"exercise {n}: the solution cell prints no answer")
        if not re.search(rule_id, prose):
            problems.append(f"exercise {n}: the question cites no rule id")
        if body.index("```") > 0 and not prose.strip():
            problems.append(f"exercise {n}: no question text")
    if "show(" in text:
        problems.append("a show( call: the page should draw no bokeh plot")
    tail = text.split("## Where to look", 1)
    if len(tail) != 2:
        problems.append("no 'Where to look' section")
    else:
        links = re.findall(r"\{doc\}`([^`]+)`", tail[1])
        if not links:
            problems.append("'Where to look' links nothing")
    return problems


@pytest.mark.parametrize("game", sorted(PAGES))
def test_exercise_page_structure(game):
    title, rule_id = PAGES[game]
    path = BOOK / game / "exercises.md"
    assert check_page(path.read_text(encoding="utf-8"), title, rule_id) == []


@pytest.mark.parametrize("game", sorted(PAGES))
def test_where_to_look_links_exist(game):
    text = (BOOK / game / "exercises.md").read_text(encoding="utf-8")
    links = re.findall(r"\{doc\}`([^`]+)`", text.split("## Where to look", 1)[1])
    missing = [name for name in links if not (BOOK / game / f"{name}.md").exists()]
    assert missing == []


GOOD = """---
jupytext:
---

# Citadel: exercises

## Exercise 1: one

A question (**C 9.2**).

```{code-cell} ipython3
:tags: [hide-cell]
print("answer")
assert 1 == 1
```

## Where to look

- {doc}`rule09`
"""


def good_page(n: int = 10) -> str:
    head, rest = GOOD.split("## Exercise 1", 1)
    one = "## Exercise 1" + rest.split("## Where to look")[0]
    body = "".join(one.replace("Exercise 1:", f"Exercise {i}:") for i in range(1, n + 1))
    return head + body + "## Where to look" + rest.split("## Where to look")[1]


def test_checker_accepts_a_sound_page():
    assert check_page(good_page(), *PAGES["citadel"]) == []


@pytest.mark.parametrize("spoil, expected", [
    (lambda t: t.replace(":tags: [hide-cell]\n", "", 1), "not tagged hide-cell"),
    (lambda t: t.replace("assert 1 == 1\n", "", 1), "asserts nothing"),
    (lambda t: t.replace("(**C 9.2**)", "", 1), "cites no rule id"),
    (lambda t: t.replace("```\n\n## Exercise 2", "```\n\n```{code-cell} ipython3\n:tags: [hide-cell]\nassert 1\n```\n\n## Exercise 2", 1), "exactly one wanted"),
    (lambda t: t.replace("Exercise 10:", "Exercise 11:", 1), "numbered"),
    (lambda t: t.replace("# Citadel: exercises", "# Citadel exercises", 1), "no H1"),
])
def test_checker_notices_a_spoiled_page(spoil, expected):
    problems = check_page(spoil(good_page()), *PAGES["citadel"])
    assert any(expected in p for p in problems), problems


def test_checker_wants_ten_exercises():
    assert any("10 or more" in p for p in check_page(good_page(9), *PAGES["citadel"]))
