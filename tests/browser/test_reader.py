"""What a reader sees: every widget built with the book's layout, at a laptop's and a projector's size, light and dark.

The checks are generic, so every later widget that uses :func:`widgets.layout.map_widget` gets them:
labels unchanged after an interaction, no text drawn over other text, readable dropdowns in both themes, a
visible focus ring, controls, map and result within one and a half screens, zero console errors and warnings,
and a screenshot in ``_build/screenshots/``. Every page's plots carry an accessible name, and a page with a map
shows its position in words. (Each widget's agreement with the engine is in its own test file.)
"""
from __future__ import annotations

import re

import pytest

from .helpers import HTML_DIR, VIEWPORTS, deep_all_js, built_pages

pytestmark = pytest.mark.browser

# The three widgets the issue names; any other page whose source has a wg-widget is found by WIDGET_PAGES.
NAMED = ["book/citadel/rule08.html", "book/indochina/rule13.html", "book/fte/rule08.html"]
WIDGET_PAGES = sorted({p for p in built_pages() if "wg-widget" in (HTML_DIR / p).read_text(encoding="utf-8")})
MAP_MARK = re.compile(r'"name":\s*"hex-tiles"')

# Every <select> in a widget, with its shown text, colour and background, its label and whether it is enabled.
SELECTS_JS = "(root) => {" + deep_all_js() + """
  const host = document.querySelector(root);
  return all(host).filter((el) => el.tagName === "SELECT").map((el) => {
    const s = getComputedStyle(el);
    const label = el.getRootNode().querySelector("label");
    return {color: s.color, background: s.backgroundColor, behind: backdrop(el.parentElement || el.getRootNode().host),
            disabled: el.disabled,
            label: label ? label.innerText.trim() : "", options: [...el.options].map((o) => o.value),
            value: el.value};
  });
}
"""

# Every control label, slider title and tick-box caption, with its colour and the colour behind it.
LABEL_COLOURS_JS = "(root) => {" + deep_all_js() + """
  const host = document.querySelector(root);
  return all(host).filter((el) => el.tagName === "LABEL" || (el.classList && el.classList.contains("bk-slider-title")))
    .filter((el) => el.innerText.trim())
    .map((el) => ({text: el.innerText.trim().slice(0, 40), color: getComputedStyle(el).color, behind: backdrop(el)}));
}
"""

# Focus every enabled select of the widget in turn; report its outline while focused.
FOCUS_JS = "(root) => {" + deep_all_js() + """
  const host = document.querySelector(root);
  return all(host).filter((el) => el.tagName === "SELECT" && !el.disabled).map((el) => {
    el.focus();
    const s = getComputedStyle(el);
    return {style: s.outlineStyle, width: parseFloat(s.outlineWidth)};
  });
}
"""

# Choose another option of the index-th enabled select (as a reader would), firing the change event bokeh hears.
CHANGE_JS = "([root, index]) => {" + deep_all_js() + """
  const host = document.querySelector(root);
  const sel = all(host).filter((el) => el.tagName === "SELECT" && !el.disabled)[index];
  const next = [...sel.options].find((o) => o.value !== sel.value);
  sel.value = next.value;
  sel.dispatchEvent(new Event("input", {bubbles: true}));
  sel.dispatchEvent(new Event("change", {bubbles: true}));
  return next.value;
}
"""

PLOT_NAMES_JS = "() => {" + deep_all_js() + """
  return all(document).filter((el) => el.classList && (el.classList.contains("bk-Figure") ||
                                                      el.classList.contains("bk-Plot")))
    .filter((el) => el.checkVisibility ? el.checkVisibility() : true)
    .map((el) => ({role: el.getAttribute("role"), label: el.getAttribute("aria-label") || ""}));
}
"""


def _rgb(text: str) -> tuple[float, ...]:
    parts = [float(x) for x in re.findall(r"[\d.]+", text)]
    return tuple(parts[:3]) + ((parts[3],) if len(parts) > 3 else (1.0,))


def _luminance(rgb) -> float:
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: str, bg: str, behind: str) -> float:
    """WCAG contrast of text colour over a background, a translucent one blended over what lies behind it."""
    top, under = _rgb(bg), _rgb(behind)
    alpha = top[3]
    back = tuple(alpha * t + (1 - alpha) * u for t, u in zip(top[:3], under[:3]))
    a, b = _luminance(_rgb(fg)), _luminance(back)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def test_the_named_widgets_use_the_shared_layout(book_html):
    missing = [p for p in NAMED if p not in WIDGET_PAGES]
    assert not missing, f"pages without a widget built by widgets.layout.map_widget: {missing}"


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
@pytest.mark.parametrize("path", WIDGET_PAGES or NAMED)
def test_widget_as_a_reader_sees_it(open_page, path, viewport, dark):
    book = open_page(path, viewport=viewport, dark=dark)
    book.wait_for_bokeh(1)
    root = ".wg-widget"
    book.page.locator(root).first.wait_for(timeout=15_000)
    book.page.locator(f"{root} .wg-panel").first.scroll_into_view_if_needed()
    book.page.wait_for_timeout(300)
    name = f"{path.split('/')[-2]}-{path.split('/')[-1][:-5]}-{viewport[0]}x{viewport[1]}-{'dark' if dark else 'light'}"
    book.screenshot(name, f"{root} .wg-panel")

    # controls, map and one-line result fit in one and a half screens
    panel = book.box(f"{root} .wg-panel")
    assert panel["height"] <= 1.5 * viewport[1], f"{path}: the widget's panel is {panel['height']:.0f} px tall"
    summary = book.box(f"{root} .wg-summary")
    assert summary["top"] >= panel["top"] - 1 and summary["bottom"] <= panel["bottom"] + 1
    # the controls beside the map (or chart), the one-line result above it
    controls, plot = book.box(f"{root} .wg-controls"), book.box(f"{root} .wg-main [role=img]")
    assert controls["right"] <= plot["left"] + 5, f"{path}: the controls are not beside the map"
    assert summary["bottom"] <= plot["top"] + 5, f"{path}: the one-line result is not above the map"

    # dropdowns readable in this theme
    selects = book.page.evaluate(SELECTS_JS, root)
    assert selects, f"{path}: no dropdown in the widget"
    for s in selects:
        ratio = contrast(s["color"], s["background"], s["behind"])
        assert ratio >= 4.5, (f"{path}: dropdown {s['label']!r} has contrast {ratio:.1f} "
                              f"({s['color']} on {s['background']} over {s['behind']})")

    for label in book.page.evaluate(LABEL_COLOURS_JS, root):
        ratio = contrast(label["color"], "rgba(0, 0, 0, 0)", label["behind"])
        assert ratio >= 4.5, f"{path}: label {label['text']!r} has contrast {ratio:.1f} ({label['color']} on {label['behind']})"

    # a visible focus ring on every dropdown
    for ring in book.page.evaluate(FOCUS_JS, root):
        assert ring["style"] != "none" and ring["width"] >= 2, f"{path}: focus ring not visible: {ring}"

    # labels stay as they were after the reader changes a choice, and no text overprints other text
    labels = book.labels()
    assert all(labels), f"{path}: an empty label {labels}"
    enabled = [s for s in selects if not s["disabled"]]
    book.page.evaluate(CHANGE_JS, [root, len(enabled) - 1])
    book.page.wait_for_timeout(400)
    assert book.labels() == labels, f"{path}: a label changed after a choice"
    overlaps = book.overlaps(root)
    assert not overlaps, f"{path}: text drawn over other text: {overlaps}"
    book.assert_clean()


PAGES = built_pages()


PLOT_MODEL = re.compile(r'"type":\s*"object",\s*"name":\s*"(?:Figure|Plot|GMapPlot)"')


@pytest.mark.parametrize("path", [p for p in PAGES if PLOT_MODEL.search((HTML_DIR / p).read_text(encoding="utf-8"))]
                         or [None])
def test_every_plot_has_an_accessible_name_and_maps_are_told_in_words(open_page, path):
    if path is None:
        pytest.skip("no page with a plot")
    source = (HTML_DIR / path).read_text(encoding="utf-8")
    book = open_page(path)
    book.wait_for_bokeh(1)
    plots = book.page.evaluate(PLOT_NAMES_JS)
    unnamed = [p for p in plots if not p["label"].strip()]
    assert plots and not unnamed, f"{path}: {len(unnamed)} of {len(plots)} plots have no aria-label"
    if MAP_MARK.search(source):
        words = book.page.locator(".map-alt-text").all_inner_texts()
        assert words and all(w.strip() for w in words), f"{path}: a map page without its position in words"
    book.assert_clean()
