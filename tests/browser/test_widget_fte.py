"""The FTE assault widget (F 8.0 Assault Example) as a reader meets it, at a laptop's and a projector's size.

Every check goes through the page itself: the test sets the page's own controls, reads what the page then
shows, and compares it with the engine run in this process for the same choices and dice.
"""
from __future__ import annotations

import html
import random
import re
from urllib.parse import quote

import pytest

from .helpers import VIEWPORTS

PAGE = "book/fte/rule08.html"
KEYS = ("reading", "fire", "target", "dice")     # the page's controls, top to bottom (and the URL hash keys)


def _text(fragment: str) -> str:
    """What a reader sees of an HTML fragment (tags dropped, entities decoded, spaces collapsed)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _expected(choices: dict) -> dict:
    """What the engine gives for these choices (computed here, not read from the page)."""
    from widgets.fte import leaf_view, plan_of
    view = leaf_view(choices["reading"], plan_of(combine=choices["fire"] == "combined", nva_target=choices["target"]),
                     choices["dice"])
    return {"summary": _text(view["summary"]), "alt": view["alt"]}


def _label(key: str, value: str) -> str:
    """The option's text in the page (bokeh's <option> carries the label; the hash and the graph the value)."""
    from widgets.fte import DICE_PRESETS, READING_LABELS
    return {"reading": READING_LABELS, "dice": DICE_PRESETS}.get(key, {}).get(value, value)


def _values(book) -> dict:
    """The page's choices as values (the page's selects show labels)."""
    from widgets.fte import DICE_PRESETS, READING_LABELS
    back = {"reading": {v: k for k, v in READING_LABELS.items()}, "dice": {v: k for k, v in DICE_PRESETS.items()}}
    return {k: back.get(k, {}).get(c.input_value(), c.input_value()) for k, c in _controls(book).items()}


def _controls(book):
    selects = book.page.locator("select")
    assert selects.count() == 4, "the assault widget should be the page's only bokeh controls"
    return dict(zip(KEYS, (selects.nth(i) for i in range(4))))


def _shown(book) -> dict:
    return {"summary": " ".join(book.text("p.wg-summary").split()),
            "alt": book.page.locator("[role=img][aria-label^='Assault on 20.19']").first.get_attribute("aria-label")}


def _wait_shown(book, expected: dict) -> dict:
    return book.settle(_shown, expected)


def _set(book, choices: dict) -> None:
    controls = _controls(book)
    for k in KEYS:
        if controls[k].input_value() != _label(k, choices[k]):
            controls[k].select_option(label=_label(k, choices[k]))


def _open(open_page, viewport, path=PAGE, dark=False):
    book = open_page(path, viewport=viewport, dark=dark)
    book.wait_for_bokeh(1)
    book.page.locator("p.wg-summary").first.wait_for(timeout=15_000)
    return book


def _sample(n: int, seed: int) -> list[dict]:
    from widgets.fte import DICE_PRESETS, READINGS
    rng = random.Random(seed)
    every = [dict(zip(KEYS, (r, f, t, d))) for r in READINGS for f in ("combined", "separate")
             for t in ("US FT 19.19", "US FT 20.20") for d in DICE_PRESETS]
    return rng.sample(every, n)


PRINTED = {"reading": "errata", "fire": "combined", "target": "US FT 19.19", "dice": "printed"}


@pytest.mark.rule("F 8.0")
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_assault_widget_shows_the_engine_result_for_every_choice_tried(open_page, viewport):
    book = _open(open_page, viewport)
    labels = book.labels()
    assert {"Reading", "US fire", "NVA target", "Dice", "Printed example", "Roll the dice"} <= set(labels)
    assert _wait_shown(book, _expected(PRINTED)) == _expected(PRINTED)
    for choices in _sample(8, seed=viewport[0]):
        _set(book, choices)
        expected = _expected(choices)
        assert _wait_shown(book, expected) == expected, choices
        assert book.hash() == "#fa:" + "&".join(f"{k}={choices[k]}" for k in KEYS)
    assert book.labels() == labels                      # no interaction rewrites a control's label
    # the roll button picks a seeded preset; whatever it picked, the page shows the engine's result for it
    book.page.get_by_role("button", name="Roll the dice").click()
    book.page.wait_for_timeout(300)
    rolled = _values(book)
    assert _wait_shown(book, _expected(rolled)) == _expected(rolled)
    # back to the printed example
    book.page.get_by_role("button", name="Printed example").click()
    assert _wait_shown(book, _expected(PRINTED)) == _expected(PRINTED)
    assert _values(book) == PRINTED
    assert book.labels() == labels
    book.assert_clean()


@pytest.mark.rule("F 8.0")
def test_a_link_with_the_widget_state_opens_that_state(open_page):
    choices = {"reading": "original", "fire": "separate", "target": "US FT 20.20", "dice": "seed 7"}
    link = PAGE + "#fa:" + "&".join(f"{k}={quote(v)}" for k, v in choices.items())
    book = _open(open_page, VIEWPORTS[0], path=link)
    expected = _expected(choices)
    assert _wait_shown(book, expected) == expected
    assert _values(book) == choices
    book.assert_clean()
