"""The comparison part's prose: every headline figure it states is the engine's (the chapters check the same
figures as they execute; this test runs without the book, straight from the engine)."""
from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import pytest

from wargames.compare import citadel, fte, indochina, measures, ntnd, percent

#: one xdist worker runs every file of this group, so the curves and worths that wargames.compare memoises are
#: worked out once for all of them
pytestmark = pytest.mark.xdist_group("compare-figures")


BOOK = Path(__file__).resolve().parents[1] / "book"
MODULES = {"citadel": citadel, "indochina": indochina, "fte": fte, "ntnd": ntnd}


def prose(path: Path) -> str:
    """The chapter without its code cells."""
    return re.sub(r"```\{code-cell\}.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)


def stated_figures(path: Path) -> dict:
    """The ``stated = {...}`` table of a chapter's checking cell: (game, measure) -> the text its prose gives."""
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^stated = (\{.*?\})$", text, flags=re.S | re.M)
    assert m, f"{path.name} has no stated figures"
    return ast.literal_eval(m.group(1))


@pytest.fixture(scope="module")
def figures():
    return {n: measures(m.engagement().dist) for n, m in MODULES.items()}


def test_every_figure_the_engagement_chapter_states_is_the_engines(figures):
    path = BOOK / "compare" / "engagement.md"
    stated, text = stated_figures(path), prose(path)
    assert len(stated) >= 10
    for (game, label), shown in stated.items():
        assert f"**{shown}**" in text, (game, label, shown)
        assert percent(figures[game][label]) == shown, (game, label)
    for game in MODULES:
        assert percent(figures[game]["position taken"]) in {v for (g, k), v in stated.items()
                                                            if g == game and k == "position taken"}


def test_the_sensitivity_chapters_figures():
    text = prose(BOOK / "compare" / "sensitivity.md")
    ind, cit, nt, ft = (m.taking_curve() for m in (indochina, citadel, ntnd, fte))
    pairs = [(ind.ys[ind.xs.index(8)], "50.0%"), (cit.ys[cit.xs.index(Fraction(7, 3))], "2.3%"),
             (cit.ys[cit.xs.index(7)], "61.0%"), (nt.ys[0], "16.7%"), (nt.ys[-1], "97.2%"),
             (ft.ys[0], "2.7%"), (ft.ys[-1], "16.3%")]
    for p, shown in pairs:
        assert percent(p) == shown and f"**{shown}**" in text, shown
    worth = {(n, w.label): w for n, m in MODULES.items() for w in m.worths()}
    for key, shown in [(("citadel", "one more unit"), "45.5"), (("citadel", "one morale point"), "5.4"),
                       (("ntnd", "one DRM"), "16.7"), (("ntnd", "one more unit"), "30.6"),
                       (("fte", "one morale point"), "2.8")]:
        assert f"{float(max(worth[key].deltas)) * 100:.1f}" == shown and f"**{shown}**" in text, key


def test_the_history_chapters_claims():
    cases = {c.title: c for m in MODULES.values() for c in m.history()}
    assert len(cases) >= 4 and {c.game for c in cases.values()} == set(MODULES)
    dk = cases["Dong Khe, 16-18 September 1950"]
    assert (dk.p_historical, dk.p_changed) == (Fraction(2, 3), Fraction(1, 6))
    text = prose(BOOK / "compare" / "history.md")
    assert "two chances in three" in text and "one time in six" in text
    assert cases["Hue: the Tet attack, 31 January 1968"].p_historical < Fraction(3, 10)
    assert "fewer than three chances in ten" in text
    for c in cases.values():
        assert c.sources and all(re.search(r"\(\d{4}\)$", s) for s in c.sources), c.title
        assert 0 <= c.p_changed <= 1 and 0 <= c.p_historical <= 1
