"""The structure of the two exercise pages (book/fte/exercises.md, book/ntnd/exercises.md).

Nothing is executed here: the book build runs the cells. These checks keep each page's promise to students:
every exercise cites the rules behind it and has exactly one hidden solution cell that pins its answer with an
assert, so the answer cannot live only in prose.
"""
import pathlib
import re

import pytest

BOOK = pathlib.Path(__file__).resolve().parent.parent / "book"
PAGES = {
    "fte": ("# Front Toward Enemy: exercises", r"\*\*F \d+(\.\d+)*\*\*"),
    "ntnd": ("# No Trumpets No Drums: exercises", r"\*\*NT \d+(\.\d+)*\*\*"),
}
CELL = re.compile(r"```\{code-cell\}[^\n]*\n(.*?)```", re.S)


def sections(text):
    """(heading, body) for every level-2 section of the page."""
    parts = re.split(r"^## ", text, flags=re.M)
    return [(p.split("\n", 1)[0], p.split("\n", 1)[1] if "\n" in p else "") for p in parts[1:]]


def exercises(game):
    text = (BOOK / game / "exercises.md").read_text()
    return text, [(h, b) for h, b in sections(text) if h.startswith("Exercise")]


@pytest.mark.parametrize("game", sorted(PAGES))
def test_page_header_and_count(game):
    text, found = exercises(game)
    title, _ = PAGES[game]
    assert text.startswith("---\njupytext:"), "a MyST notebook with a jupytext header"
    assert re.search(r"^# .*$", text, re.M).group(0) == title
    assert 10 <= len(found) <= 12
    numbers = [int(re.match(r"Exercise (\d+): \S", h).group(1)) for h, _ in found]
    assert numbers == list(range(1, len(found) + 1))
    assert "show(" not in text, "no bokeh plots on the exercise pages"
    assert "## Where to look" in text and "{doc}`rule" in text


@pytest.mark.parametrize("game", sorted(PAGES))
def test_each_exercise_has_one_hidden_asserting_solution(game):
    _, found = exercises(game)
    _, rule_id = PAGES[game]
    for heading, body in found:
        cells = CELL.findall(body)
        assert len(cells) == 1, f"{heading}: {len(cells)} code cells"
        (cell,) = cells
        assert cell.startswith(":tags: [hide-cell]\n"), f"{heading}: the solution is not hidden"
        assert re.search(r"^\s*assert ", cell, re.M), f"{heading}: the solution pins nothing"
        question = body.split("```{code-cell}", 1)[0]
        assert re.search(rule_id, question), f"{heading}: the question cites no rule id"
