"""The Anne-Marie widget (C 8 Movement Example) as a reader uses it: every shown state is the engine's.

The page answers from the decision graph built into it; these tests set its dropdowns as a reader would,
read the table of shots it then shows, and compare it with a fresh engine run in the test process for the
same choices. They also check the printed-example button, a teacher's link (the URL hash), that the labels
never change, and that the controls, the map and the one-line result fit in one and a half screens.
"""
from __future__ import annotations

import random
from urllib.parse import quote

import pytest

from wargames.citadel.examples import PRINTED_DICE
from widgets.citadel import MAX_SHOTS, PRESETS, batteries_text, resolve, summary_text

from .helpers import VIEWPORTS, deep_all_js

pytestmark = pytest.mark.browser

PAGE = "book/citadel/rule08.html"
ROOT = ".wg-anne-marie"
PRESET_LABEL = "First-round assignment"
DIE_LABELS = [f"Die for shot {i + 1}" for i in range(MAX_SHOTS)]

# Every element of the widget, its own shadow root included (bokeh draws the root's children in there).
INSIDE_JS = deep_all_js() + """
  const inside = (sel) => {
    const host = document.querySelector(sel);
    if (host === null) return [];
    return host.shadowRoot ? all(host).concat(all(host.shadowRoot)) : all(host);
  };"""

# Every <select> of the widget by its visible label: value, options, disabled.
SELECTS_JS = "(root) => {" + INSIDE_JS + """
  const out = {};
  for (const el of inside(root)) {
    if (el.tagName !== "SELECT") continue;
    const label = el.getRootNode().querySelector("label");
    out[label ? label.innerText.trim() : ""] = {value: el.value, disabled: el.disabled,
                                                options: [...el.options].map((o) => o.value)};
  }
  return out;
}
"""

# Set the select with this label to this value as a reader would (bokeh listens to input/change).
SET_JS = "([root, label, value]) => {" + INSIDE_JS + """
  for (const el of inside(root)) {
    if (el.tagName !== "SELECT") continue;
    const l = el.getRootNode().querySelector("label");
    if (l && l.innerText.trim() === label) {
      if (el.disabled) return "disabled";
      const opt = [...el.options].find((o) => o.value === value || o.text === value);
      if (opt === undefined) return null;
      el.value = opt.value;
      el.dispatchEvent(new Event("input", {bubbles: true}));
      el.dispatchEvent(new Event("change", {bubbles: true}));
      return el.value;
    }
  }
  return null;
}
"""

# The shots table and the one-line summary as shown, and the map's accessible name.
SHOWN_JS = "(root) => {" + INSIDE_JS + """
  const els = inside(root);
  const table = els.find((el) => el.tagName === "TABLE" && el.classList.contains("wg-shots"));
  const rows = table ? [...table.querySelectorAll("tbody tr")].map(
    (tr) => [...tr.querySelectorAll("td")].map((td) => td.innerText.trim())) : null;
  const summary = els.find((el) => el.classList && el.classList.contains("wg-summary"));
  const words = els.find((el) => el.classList && el.classList.contains("map-alt-text"));
  const fig = els.find((el) => el.getAttribute && el.getAttribute("aria-label") && el.getAttribute("role") === "img");
  let wordsText = null;
  if (words) { const c = words.cloneNode(true); const b = c.querySelector("b"); if (b) b.remove(); wordsText = c.textContent.trim(); }
  return {rows: rows, summary: summary ? summary.innerText.trim() : null, words: wordsText,
          aria: fig ? fig.getAttribute("aria-label") : null};
}
"""


def engine_rows(preset: str, dice: list[int]) -> list[list[str]]:
    """The shots table the engine gives for these choices (as the page's columns)."""
    ex = resolve(PRESETS[preset][1], dice).example
    return [[str(s["round"]), s["firer"], s["target"], s["hex"], s["column"], s["code"],
             "pinned" if s["pinned"] else "not pinned"] for s in ex.run.shots]


def engine_summary(preset: str, dice: list[int]) -> str:
    import html
    return html.unescape(summary_text(resolve(PRESETS[preset][1], dice).example))


def _ready(book):
    book.wait_for_bokeh(1)
    book.page.locator(f"{ROOT} .wg-panel").first.wait_for(timeout=15_000)


def _choose(book, preset: str, dice: list[int]) -> None:
    # The reader picks the preset by its text (bokeh puts the text in the <option>, the key in the model).
    assert book.page.evaluate(SET_JS, [ROOT, PRESET_LABEL, PRESETS[preset][0]]) == PRESETS[preset][0]
    for label, die in zip(DIE_LABELS, dice):
        # A die that no shot uses is disabled; the page then ignores it.
        book.page.evaluate(SET_JS, [ROOT, label, str(die)])
    book.page.wait_for_timeout(150)


def _shown(book) -> dict:
    return book.page.evaluate(SHOWN_JS, ROOT)


@pytest.mark.rule("C 8")
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_every_sampled_choice_shows_the_engine_result(open_page, viewport):
    book = open_page(PAGE, viewport=viewport)
    _ready(book)
    labels = book.labels()
    first = _shown(book)
    assert first["rows"] == engine_rows("printed", PRINTED_DICE)
    rng = random.Random(9)
    checked = 0
    for _ in range(25):
        preset = rng.choice(list(PRESETS))
        dice = [rng.randint(1, 6) for _ in range(MAX_SHOTS)]
        _choose(book, preset, dice)
        shown = _shown(book)
        used = len(engine_rows(preset, dice))
        assert shown["rows"] == engine_rows(preset, dice[:used]), (preset, dice)
        assert shown["summary"] == engine_summary(preset, dice[:used]), (preset, dice)
        assert shown["aria"] == shown["words"], "the map's aria-label is not the position in words"
        checked += 1
    assert checked == 25
    assert book.labels() == labels, "a control's label changed after choosing dice"
    book.screenshot(f"citadel-anne-marie-sample-{viewport[0]}x{viewport[1]}", f"{ROOT} .wg-panel")
    book.assert_clean()


@pytest.mark.rule("C 8")
def test_the_issue_sequence_shows_the_engine_result(open_page):
    """Printed reading, dice 6-6-3-4-1: once shown with another history's shots (105-A "1", 120-B "1P")."""
    book = open_page(PAGE)
    _ready(book)
    _choose(book, "printed", [6, 6, 3, 4, 1])
    rows = _shown(book)["rows"]
    assert rows == engine_rows("printed", [6, 6, 3, 4, 1])
    assert {r[1]: r[5] for r in rows}["105-A"] == "-"
    book.assert_clean()


@pytest.mark.rule("C 8")
def test_printed_example_button_restores_the_printed_state(open_page):
    book = open_page(PAGE, viewport=VIEWPORTS[0])
    _ready(book)
    _choose(book, "mortars first", [1, 1, 1, 1, 1])
    assert _shown(book)["rows"] == engine_rows("mortars first", [1] * MAX_SHOTS)
    book.page.locator(f"{ROOT} button", has_text="Printed example").first.click()
    book.page.wait_for_timeout(300)
    selects = book.page.evaluate(SELECTS_JS, ROOT)
    assert selects[PRESET_LABEL]["value"] == PRESETS["printed"][0]
    assert [selects[label]["value"] for label in DIE_LABELS] == [str(d) for d in PRINTED_DICE]
    assert _shown(book)["rows"] == engine_rows("printed", PRINTED_DICE)
    book.assert_clean()


@pytest.mark.rule("C 8")
def test_roll_button_gives_a_state_the_engine_agrees_with(open_page):
    book = open_page(PAGE)
    _ready(book)
    book.page.locator(f"{ROOT} button", has_text="Roll the dice").first.click()
    book.page.wait_for_timeout(300)
    selects = book.page.evaluate(SELECTS_JS, ROOT)
    dice = [int(selects[label]["value"]) for label in DIE_LABELS]
    preset = next(k for k, (text, _) in PRESETS.items() if text == selects[PRESET_LABEL]["value"])
    used = len(engine_rows(preset, dice))
    assert _shown(book)["rows"] == engine_rows(preset, dice[:used])
    book.assert_clean()


@pytest.mark.rule("C 8")
def test_a_link_with_a_state_opens_that_state(open_page):
    dice = [3, 5, 2, 6, 4]
    state = "&".join([f"preset={quote('mortars first')}", *(f"d{i + 1}={d}" for i, d in enumerate(dice))])
    book = open_page(f"{PAGE}#anne-marie:{state}", viewport=VIEWPORTS[1])
    _ready(book)
    book.page.wait_for_timeout(300)
    selects = book.page.evaluate(SELECTS_JS, ROOT)
    assert selects[PRESET_LABEL]["value"] == PRESETS["mortars first"][0]
    used = len(engine_rows("mortars first", dice))
    assert [selects[label]["value"] for label in DIE_LABELS[:used]] == [str(d) for d in dice[:used]]
    assert _shown(book)["rows"] == engine_rows("mortars first", dice[:used])
    # and a change writes the state back into the address
    _choose(book, "printed", PRINTED_DICE)
    assert book.hash().startswith("#anne-marie:preset=printed"), book.hash()
    book.assert_clean()


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_controls_map_and_result_fit_in_one_and_a_half_screens(open_page, viewport):
    book = open_page(PAGE, viewport=viewport)
    _ready(book)
    book.page.locator(f"{ROOT} .wg-panel").first.scroll_into_view_if_needed()
    top = book.box(f"{ROOT} .wg-panel")["top"]
    limit = top + 1.5 * viewport[1]
    for what in (".wg-controls", ".wg-summary", ".bk-Figure"):
        box = book.box(f"{ROOT} {what}")
        assert box["bottom"] <= limit, f"{what} ends {box['bottom'] - top:.0f} px below the panel's top"
    # the battery positions are told in the legend and in the position in words
    legend = book.text(f"{ROOT} .wg-legend")
    told = batteries_text(resolve(PRESETS["printed"][1], PRINTED_DICE).example)
    assert told in legend and told in _shown(book)["words"]
    book.screenshot(f"citadel-anne-marie-{viewport[0]}x{viewport[1]}", f"{ROOT} .wg-panel")
    book.assert_clean()
