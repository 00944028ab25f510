"""The Indochina odds-shifts widget (IC 13.0-13.3) as a reader meets it, at a laptop's and a projector's size.

The test sets the page's own controls (sliders by keyboard, menus, tick boxes), reads what the page then shows,
and compares it with the engine run in this process for the same choices.
"""
from __future__ import annotations

import random
from urllib.parse import quote

import pytest

from .helpers import VIEWPORTS

PAGE = "book/indochina/rule13.html"
SELECTS = ("attacker", "terrain", "mode", "reading", "table")      # the page's menus, top to bottom
BOXES = {"attack_enh": "Attack Enhancement (x2)", "defence_enh": "Defense Enhancement (x2)",
         "fortified": "Fortification", "monsoon": "Monsoon turn", "go": "General Offensive turn",
         "dc": "Death Commando", "light": "All attackers FEF Light class"}
BASE = dict(A="14", D="5", attack_enh="0", defence_enh="0", attacker="Communist", terrain="clear", fortified="0",
            monsoon="0", go="0", mode="normal", dc="0", light="0", reading="1/3", table="Mobile")


def expected(ch: dict) -> dict:
    """The engine's answer for these choices, computed here: the summary line and the final column."""
    from tests.test_widgets_indochina import engine
    from widgets.indochina import summary_text
    got = engine(ch)
    if "error" in got:
        e = got["error"]
        return {"summary": f"Not allowed by {e.rule}: {e.reason}.", "final": None}
    found, dist, final = got["shifts"], got["dist"], got["final"]
    line = summary_text(got["raw"], sum(s.columns for s in found if s.player == "attacker"),
                        sum(s.columns for s in found if s.player == "defender"), final, ch["table"],
                        dist.prob(lambda r: r in ("SK", "DD", "DR", "DE")), dist.prob(lambda r: r in ("AE", "AR", "AD")))
    return {"summary": line, "final": final}


def all_labels(book) -> list[str]:
    """The menus' and buttons' labels (book.labels), then the sliders' titles and the tick boxes' labels."""
    sliders = book.page.locator(".bk-slider-title").all_inner_texts()
    boxes = book.page.locator("input[type=checkbox] + .bk-label").all_inner_texts()
    return book.labels() + [" ".join(t.split()) for t in sliders] + boxes


def box(book, key: str):
    """The tick box of one control (bokeh draws a box and its label side by side, in the order of BOXES)."""
    return book.page.locator("input[type=checkbox]").nth(list(BOXES).index(key))


def shown(book) -> dict:
    summary = " ".join(book.text(".wg-summary").split())
    steps = book.page.locator(".wg-odds-steps").first.inner_text()
    final = None
    for line in steps.splitlines():
        if line.startswith("Final column: "):
            final = line[len("Final column: "):].split(".")[0]
    return {"summary": summary, "final": final}


def wait_shown(book, want: dict) -> dict:
    return book.settle(shown, want, tries=50)


def set_slider(book, index: int, value: int, current: int) -> None:
    """Move the index-th slider from ``current`` to ``value`` with the keyboard, as a reader could: one step
    at a time with the arrow keys."""
    handle = book.page.locator(".noUi-handle").nth(index)
    handle.focus()
    for _ in range(abs(value - current)):
        handle.press("ArrowRight" if value > current else "ArrowLeft")


def options(key: str) -> list[str]:
    """The values of one menu, in the page's order (the page's option elements carry only the shown words)."""
    from widgets.indochina import MODES, TERRAINS
    return {"attacker": ["Communist", "FEF"], "terrain": TERRAINS, "mode": MODES, "reading": ["1/3", "3/1"],
            "table": ["Mobile", "Assault"]}[key]


def choose(book, key: str, value: str) -> None:
    book.page.locator("select").nth(SELECTS.index(key)).select_option(index=options(key).index(value))


def set_choices(book, ch: dict, now: dict) -> None:
    for key in SELECTS:                        # attacker first: it decides whether the Light box is enabled
        if ch[key] != now[key]:
            choose(book, key, ch[key])
    for key in BOXES:
        if ch[key] != now[key]:
            box(book, key).set_checked(ch[key] == "1")
    for i, key in enumerate(("A", "D")):
        if ch[key] != now[key]:
            set_slider(book, i, int(ch[key]), int(now[key]))


def sample(n: int, seed: int) -> list[dict]:
    from widgets.indochina import MODES, TERRAINS
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        ch = {"A": str(rng.randint(1, 30)), "D": str(rng.randint(1, 30)),
              "attacker": rng.choice(("Communist", "FEF")), "terrain": rng.choice(TERRAINS),
              "mode": rng.choice(MODES), "reading": rng.choice(("1/3", "3/1")),
              "table": rng.choice(("Mobile", "Assault")), **{k: rng.choice("00001") for k in BOXES}}
        if ch["attacker"] == "Communist":
            ch["light"] = "0"                  # the page greys the box out then (it changes nothing)
        out.append(ch)
    return out


def open_widget(open_page, viewport, path=PAGE, dark=False):
    book = open_page(path, viewport=viewport, dark=dark)
    book.wait_for_bokeh(1)
    book.page.locator(".wg-summary").first.wait_for(timeout=15_000)
    return book


@pytest.mark.rule("IC 13.2", "IC 13.21", "IC 13.22", "IC 13.31")
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_every_state_tried_in_the_page_is_the_engines(open_page, viewport):
    book = open_widget(open_page, viewport)
    labels = all_labels(book)
    assert {"Attacker strength: 14", "Defender strength: 5", *BOXES.values(), "Attacker", "Defender's terrain (reconstructed shifts)", "Kind of combat",
            "CRT", "Printed example"} <= set(labels), labels
    assert wait_shown(book, expected(BASE)) == expected(BASE)
    now = dict(BASE)
    for ch in sample(25 if viewport[0] < 1900 else 12, seed=viewport[0]):
        set_choices(book, ch, now)
        now = ch
        want = expected(ch)
        assert wait_shown(book, want) == want, ch
    # a slider's label shows its value, so compare the labels with the strengths put back
    set_choices(book, {**now, "A": "14"}, now)
    set_choices(book, {**now, "A": "14", "D": "5"}, {**now, "A": "14"})
    book.page.wait_for_timeout(300)
    assert all_labels(book) == labels
    assert not book.overlaps(".wg-widget")
    book.assert_clean()


@pytest.mark.rule("IC 31.21", "IC 25.1", "IC 13.9")
@pytest.mark.parametrize("change", [{"attacker": "FEF", "go": "1"}, {"dc": "1"},
                                    {"attacker": "FEF", "go": "1", "dc": "1", "terrain": "all_sea"}],
                         ids=["GO-FEF", "commando-in-the-open", "GO-FEF-commando-all-sea"])
def test_an_illegal_combination_shows_only_the_rule(open_page, change):
    book = open_widget(open_page, VIEWPORTS[0])
    set_choices(book, {**BASE, **change}, BASE)
    want = expected({**BASE, **change})
    assert want["final"] is None
    assert wait_shown(book, want) == want
    steps = book.page.locator(".wg-odds-steps").first.inner_text()
    assert steps.strip() == "" and "Final column" not in book.page.locator(".wg-ic-odds").inner_text()
    assert book.page.locator(".wg-ic-odds table.wg-odds").count() == 0
    book.page.wait_for_timeout(500)
    book.assert_clean()                        # console warnings count too (bokeh's "could not set initial ranges")


@pytest.mark.rule("IC 20.1", "IC 13.31")
def test_the_light_box_is_greyed_out_with_its_reason_for_a_communist_attack(open_page):
    book = open_widget(open_page, VIEWPORTS[0])
    light = box(book, "light")
    hints = book.page.locator(".wg-hints").first
    assert light.is_disabled() and "IC 20.1" in hints.inner_text()
    choose(book, "attacker", "FEF")
    book.page.wait_for_timeout(300)
    assert light.is_enabled() and "IC 20.1" not in hints.inner_text()
    choose(book, "terrain", "jungle")
    light.check()
    ch = {**BASE, "attacker": "FEF", "terrain": "jungle", "light": "1"}
    assert wait_shown(book, expected(ch)) == expected(ch)
    choose(book, "attacker", "Communist")
    book.page.wait_for_timeout(300)
    assert light.is_disabled() and not light.is_checked()
    ch = {**ch, "attacker": "Communist", "light": "0"}
    assert wait_shown(book, expected(ch)) == expected(ch)
    book.assert_clean()


def test_terrain_menu_reads_as_words(open_page):
    from widgets.indochina import TERRAINS
    book = open_widget(open_page, VIEWPORTS[0])
    terrain = book.page.locator("select").nth(1)
    texts = terrain.evaluate("s => [...s.options].map(o => o.text)")
    assert len(texts) == len(TERRAINS) and not [t for t in texts if "_" in t]
    assert "all sea (no attacks, IC 13.9)" in texts


@pytest.mark.rule("IC 13.21", "IC 31.21")
def test_a_link_restores_a_state_and_the_printed_example_button_resets_it(open_page):
    ch = {**BASE, "A": "20", "D": "3", "attacker": "FEF", "terrain": "city", "fortified": "1", "light": "1",
          "table": "Assault"}
    link = PAGE + "#ic-odds:" + "&".join(f"{k}={quote(v, safe='')}" for k, v in ch.items())
    book = open_widget(open_page, VIEWPORTS[0], path=link)
    assert wait_shown(book, expected(ch)) == expected(ch)
    assert box(book, "fortified").is_checked() and box(book, "light").is_checked()
    book.page.get_by_role("button", name="Printed example").click()
    from widgets.indochina import PRINTED
    want = expected(PRINTED)
    assert want["summary"].startswith("4/1 raw, 1 right shift, 2 left shifts, final column 3/1")
    assert wait_shown(book, want) == want
    book.page.wait_for_timeout(300)
    head, _, body = book.hash().partition(":")
    assert head == "#ic-odds" and dict(pair.split("=", 1) for pair in body.split("&")) == PRINTED
    book.assert_clean()
