"""The FTE assault widget (F 8.0 Assault Example) as a reader meets it, at a laptop's and a projector's size.

Every check goes through the page itself: the test sets the page's own controls, reads what the page then
shows, and compares it with the engine run in this process for the same choices and dice.
"""
from __future__ import annotations

import html
import itertools
import random
import re
from urllib.parse import quote

import pytest

from .helpers import VIEWPORTS

PAGE = "book/fte/rule08.html"
# the page's controls, top to bottom (and the URL hash keys)
KEYS = ("reading", "fire", "target", "opfire", "opdice", "dice")


def _text(fragment: str) -> str:
    """What a reader sees of an HTML fragment (tags dropped, entities decoded, spaces collapsed)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _expected(choices: dict) -> dict:
    """What the engine gives for these choices (computed here, not read from the page)."""
    from widgets.fte import static_view
    view = static_view(choices)
    return {"summary": _text(view["summary"]), "alt": view["alt"]}


def _label(key: str, value: str) -> str:
    """The option's text in the page (bokeh's <option> carries the label; the hash and the graph the value)."""
    from widgets.fte import CHOICES
    return CHOICES[key][value]


def _values(book) -> dict:
    """The page's choices as values (the page's selects show labels)."""
    from widgets.fte import CHOICES
    return {k: {label: v for v, label in CHOICES[k].items()}[c.input_value()] for k, c in _controls(book).items()}


def _controls(book):
    selects = book.page.locator("select")
    assert selects.count() == len(KEYS), "the assault widget should be the page's only bokeh controls"
    return dict(zip(KEYS, (selects.nth(i) for i in range(len(KEYS)))))


def _shown(book) -> dict:
    return {"summary": " ".join(book.text("p.wg-summary").split()),
            "alt": book.page.locator("[role=img][aria-label^='Assault on 20.19']").first.get_attribute("aria-label")}


def _wait_shown(book, expected: dict) -> dict:
    return book.settle(_shown, expected)


def _set(book, choices: dict) -> dict:
    """Pick these choices in the page, top to bottom; the opportunity fire's dice are left alone while the page
    disables them (no fire). Returns the choices the page then holds."""
    controls = _controls(book)
    for k in KEYS:
        if k == "opdice" and choices["opfire"] == "none":
            assert controls[k].is_disabled()
            continue
        if controls[k].input_value() != _label(k, choices[k]):
            controls[k].select_option(label=_label(k, choices[k]))
    return _values(book)


def _open(open_page, viewport, path=PAGE, dark=False):
    book = open_page(path, viewport=viewport, dark=dark)
    book.wait_for_bokeh(1)
    book.page.locator("p.wg-summary").first.wait_for(timeout=15_000)
    return book


def _sample(n: int, seed: int, **fixed) -> list[dict]:
    """``n`` sets of choices drawn (seeded) from every set the page offers, with the ``fixed`` ones set."""
    from widgets.fte import CHOICES
    rng = random.Random(seed)
    every = [dict(zip(KEYS, values)) for values in itertools.product(*(CHOICES[k] for k in KEYS))]
    return rng.sample([c for c in every if fixed.items() <= c.items()], n)


PRINTED = {"reading": "errata", "fire": "combined", "target": "US FT 19.19", "opfire": "none", "opdice": "fails",
           "dice": "printed"}


@pytest.mark.rule("F 8.0")
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_assault_widget_shows_the_engine_result_for_every_choice_tried(open_page, viewport):
    book = _open(open_page, viewport)
    labels = book.labels()
    assert {"Reading", "US fire", "NVA target", "NVA op fire", "Op fire dice", "Dice", "Printed example",
            "Roll the dice"} <= set(labels)
    assert _wait_shown(book, _expected(PRINTED)) == _expected(PRINTED)
    for choices in _sample(8, seed=viewport[0]):
        held = _set(book, choices)
        expected = _expected(choices)
        assert _wait_shown(book, expected) == expected, choices
        assert book.hash() == "#fa:" + "&".join(f"{k}={held[k]}" for k in KEYS)
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


@pytest.mark.rule("F 8.0", "F 21.0")
def test_the_defenders_opportunity_fire_is_a_choice_with_dice_of_its_own(open_page):
    """Held by default (its dice disabled); aimed at a team, the page shows the exact chances of that shot and,
    for each set of dice tried, what the engine gives; the printed example puts the held fire back."""
    book = _open(open_page, VIEWPORTS[0])
    controls = _controls(book)
    assert controls["opdice"].is_disabled() and _values(book)["opfire"] == "none"
    for target in ("US FT 19.19", "US FT 20.20"):
        controls["opfire"].select_option(label=_label("opfire", target))
        book.page.locator("table.wg-odds caption", has_text=f"opportunity fire at {target}").first.wait_for()
        assert not controls["opdice"].is_disabled()
        for choices in _sample(3, seed=len(target), opfire=target):
            held = _set(book, choices)
            assert held == choices
            expected = _expected(choices)
            assert _wait_shown(book, expected) == expected, choices
    book.page.get_by_role("button", name="Printed example").click()
    assert _wait_shown(book, _expected(PRINTED)) == _expected(PRINTED)
    assert _values(book) == PRINTED and controls["opdice"].is_disabled()
    book.assert_clean()


@pytest.mark.rule("F 8.0")
def test_a_link_with_the_widget_state_opens_that_state(open_page):
    choices = {"reading": "original", "fire": "separate", "target": "US FT 20.20", "opfire": "US FT 19.19",
               "opdice": "B", "dice": "seed 7"}
    link = PAGE + "#fa:" + "&".join(f"{k}={quote(v)}" for k, v in choices.items())
    book = _open(open_page, VIEWPORTS[0], path=link)
    expected = _expected(choices)
    assert _wait_shown(book, expected) == expected
    assert _values(book) == choices
    book.assert_clean()
