"""One layout for every map widget of the book, fit for a laptop and a projector.

:func:`map_widget` puts the controls (with their buttons and a hints panel) in a column beside the map, a
one-line result above it, the legend decoding every result code under it, and the details below. The panel
sizes to the window; bokeh draws each piece in its own shadow root, so :data:`STYLE_CSS` is attached to every
piece: it follows the book's light and dark themes and JupyterLab's (text colour from the container, translucent
surfaces) and gives every control a visible focus ring.

The helpers around it are the static page's own: :func:`reset_button` brings back the printed example,
:func:`roll_button` rolls the dice in the page (then the page's precomputed lookup answers), and
:func:`url_state` keeps the choices in the URL hash, so a teacher's link opens the widget in that state.
None of their scripts knows a rule: they only set control values.
"""
from __future__ import annotations

import html
from typing import Mapping, Sequence

from wargames.viz.optional import bokeh_name, bokeh_names
from wargames.viz.svg import SvgMap

column, row = bokeh_names("bokeh.layouts", "column", "row")
Document = bokeh_name("bokeh.document", "Document")
(Button, Checkbox, CustomJS, Div, InlineStyleSheet, UIElement) = bokeh_names(
    "bokeh.models", "Button", "Checkbox", "CustomJS", "Div", "InlineStyleSheet", "UIElement")

CONTROL_WIDTH = 300

# Text takes its colour from where the widget sits, so it follows every theme: the book's light pages, its
# dark mode (pydata-sphinx-theme draws each HTML output on a light card with dark text there) and JupyterLab's
# themes. Surfaces are translucent greys that read on a light or a dark ground; the accent is the theme's.
_SURFACE = "rgba(128, 128, 128, 0.14)"
_BORDER = "rgba(128, 128, 128, 0.6)"
_ACCENT = "var(--pst-color-primary, var(--jp-brand-color1, #1a5fb4))"

STYLE_CSS = f"""
:host {{ font-size: 15px; }}
select, input, button, .bk-input, .bk-btn {{
  background: {_SURFACE}; color: inherit; border: 1px solid {_BORDER}; font-size: 15px;
}}
select option {{ background: Canvas; color: CanvasText; }}
.bk-input[disabled], select:disabled {{
  background: rgba(128, 128, 128, 0.05); color: inherit; border: 1px dashed {_BORDER}; opacity: 1;
}}
.bk-btn-default:hover {{ background: rgba(128, 128, 128, 0.25); }}
select:focus, input:focus, button:focus, .bk-input:focus, .bk-btn:focus, .bk-input:focus-visible, .bk-btn:focus-visible {{
  outline: 3px solid {_ACCENT} !important; outline-offset: 2px;
}}
label, .bk-input-group > label, .bk-slider-title {{ color: inherit; font-weight: 600; }}
table {{ border-collapse: collapse; margin: 0.3em 0; }}
th, td {{ border-bottom: 1px solid {_BORDER}; padding: 2px 6px; text-align: left; vertical-align: top; }}
caption {{ caption-side: top; text-align: left; opacity: 0.85; font-size: 0.9em; }}
.wg-summary {{ font-size: 1.1em; font-weight: 600; margin: 0; padding: 0.3em 0.5em;
  border-left: 4px solid {_ACCENT}; background: {_SURFACE}; }}
.wg-changed, .wg-changed td {{ background: rgba(255, 190, 0, 0.35); }}
.wg-hints {{ margin: 0.2em 0; padding-left: 1.1em; font-size: 0.9em; }}
.wg-hints li {{ margin-bottom: 0.25em; }}
.wg-legend {{ font-size: 0.92em; }}
.wg-legend dl {{ display: grid; grid-template-columns: max-content 1fr; gap: 0.1em 0.8em; margin: 0.2em 0; }}
:host(.wg-legend-wide) .wg-legend dl {{ grid-template-columns: max-content 1fr max-content 1fr; }}
.wg-legend dt {{ font-weight: 700; font-family: monospace; }}
.wg-legend dd {{ margin: 0; }}
.wg-pct {{ min-width: 12em; white-space: nowrap; }}
.map-alt-text {{ font-size: 0.92em; }}
.wg-error {{ color: #c01c28; font-weight: 600; }}
"""


def styled(layout):
    """Attach :data:`STYLE_CSS` to every bokeh element of ``layout`` (each draws in its own shadow root).

    One stylesheet model per widget: a bokeh model belongs to one document, and each widget has its own.
    """
    sheet = InlineStyleSheet(css=STYLE_CSS, name="wg-style")
    for model in layout.references():
        if isinstance(model, UIElement) and not any(getattr(x, "name", None) == "wg-style" for x in model.stylesheets):
            model.stylesheets = [*model.stylesheets, sheet]
    return layout


def summary_div(name: str, text: str = "") -> Div:
    """The one-line result shown above the map."""
    return Div(text=text, name=f"{name}-summary", sizing_mode="stretch_width", css_classes=["wg-summary-box"])


def hints_div(name: str, text: str = "") -> Div:
    """What each control decides at the moment, shown under the controls (never in a control's label)."""
    return Div(text=text, name=f"{name}-hints", width=CONTROL_WIDTH)


def summary_html(text: str) -> str:
    return f"<p class='wg-summary'>{text}</p>"


def legend_html(title: str, codes: Mapping[str, str], note: str = "") -> str:
    """A legend decoding result codes: ``codes`` maps each code as shown to its meaning (our words)."""
    items = "".join(f"<dt>{html.escape(code)}</dt><dd>{html.escape(meaning)}</dd>" for code, meaning in codes.items())
    tail = f"<p>{note}</p>" if note else ""
    return f"<div class='wg-legend'><b>{html.escape(title)}</b><dl>{items}</dl>{tail}</div>"


def reset_button(name: str, controls: Mapping[str, UIElement], printed: Mapping[str, str],
                 label: str = "Printed example") -> Button:
    """A button that puts every control back to the printed example's choice."""
    button = Button(label=label, name=f"{name}-reset", width=CONTROL_WIDTH // 2 - 12)
    button.js_on_click(CustomJS(args={"controls": dict(controls), "printed": {k: _text(v) for k, v in printed.items()}},
                                code=CONTROL_JS + "for (const k in printed) { setValue(controls[k], printed[k]); }"))
    return button


def roll_button(name: str, dice: Sequence[UIElement], label: str = "Roll the dice") -> Button:
    """A button that gives every die control a random face (each option equally likely) in the static page."""
    button = Button(label=label, name=f"{name}-roll", width=CONTROL_WIDTH // 2 - 12)
    button.js_on_click(CustomJS(args={"dice": list(dice)}, code="""
for (const d of dice) {
  const opts = d.options.map(function (o) { return Array.isArray(o) ? o[0] : o; });
  d.value = opts[Math.floor(Math.random() * opts.length)];
}
"""))
    return button


# A control's state as text and back: a Checkbox's "active" as 1/0, a Slider's number, a Select's value.
CONTROL_JS = """
function valueOf(w) { return (typeof w.active === 'boolean') ? (w.active ? '1' : '0') : String(w.value); }
function setValue(w, v) {
  if (typeof w.active === 'boolean') { w.active = (v === '1'); }
  else if (typeof w.value === 'number') { const n = Number(v); if (!Number.isNaN(n)) { w.value = n; } }
  else {
    const opts = (w.options || []).map(function (o) { return Array.isArray(o) ? o[0] : o; });
    if (opts.length === 0 || opts.includes(v)) { w.value = v; }
  }
}
"""


def _text(value) -> str:
    """A printed choice as the text CONTROL_JS compares (booleans as 1/0, as a Checkbox's state reads)."""
    return ("1" if value else "0") if isinstance(value, bool) else str(value)


def _watched(control) -> str:
    """The property that holds a control's state."""
    return "active" if isinstance(control, Checkbox) else "value"


# The hash holds one widget's state: #<name>:<key>=<value>&<key>=<value> (values URI-encoded).
URL_WRITE_JS = CONTROL_JS + """
const parts = [];
for (const k in controls) { parts.push(k + '=' + encodeURIComponent(valueOf(controls[k]))); }
const hash = '#' + name + ':' + parts.join('&');
if (window.location.hash !== hash) { history.replaceState(null, '', hash); }
"""
URL_READ_JS = CONTROL_JS + """
const raw = window.location.hash.slice(1);
const head = encodeURIComponent(name) + ':';
if (raw.startsWith(head) || decodeURIComponent(raw).startsWith(name + ':')) {
  const body = raw.startsWith(head) ? raw.slice(head.length) : raw.slice(raw.indexOf(':') + 1);
  for (const pair of body.split('&')) {
    const i = pair.indexOf('=');
    if (i < 0) continue;
    const w = controls[decodeURIComponent(pair.slice(0, i))];
    if (w !== undefined) { setValue(w, decodeURIComponent(pair.slice(i + 1))); }
  }
}
"""


def url_state(name: str, controls: Mapping[str, UIElement], anchor: UIElement) -> None:
    """Keep the controls' values in the URL hash, and restore them from it when the page opens.

    ``anchor`` is the widget's root layout: it is put in a document of its own (unless it has one), whose
    "document ready" event runs the restore; show it with :func:`show_widget`.
    Unknown keys and values that are not an option are ignored, so an old link cannot break the page.
    """
    args = {"name": name, "controls": dict(controls)}
    write = CustomJS(args=args, code=URL_WRITE_JS)
    for control in controls.values():
        control.js_on_change(_watched(control), write)
    doc = anchor.document
    if doc is None:
        doc = Document()
        doc.add_root(anchor)
    doc.js_on_event("document_ready", CustomJS(args=args, code=URL_READ_JS))


def show_widget(layout) -> None:
    """Show a widget in the notebook with its own document (so its "document ready" restore comes along).

    bokeh's ``show`` adds a layout to the notebook's current document unless that document is the layout's own,
    and a model cannot belong to two documents.
    """
    from bokeh.io import show
    from bokeh.io.state import curstate
    state = curstate()
    previous = state.document
    if layout.document is not None:
        state.document = layout.document
    try:
        show(layout)
    finally:
        state.document = previous


def aria_map(fig, alt: str) -> None:
    """Give the map an accessible name: its position in words. An SVG map (the live edition's) is an image
    titled with its description already; it gets an ``aria-label`` too."""
    if isinstance(fig, SvgMap):
        fig.svg = fig.svg.replace('role="img"', f'role="img" aria-label="{html.escape(alt, quote=True)}"', 1)
        return
    fig.html_attributes = {**fig.html_attributes, "role": "img", "aria-label": alt}


def map_widget(name: str, *, controls: Sequence[UIElement], fig, summary: Div, details: Sequence[UIElement] = (),
               legend: str = "", hints: Div | None = None, buttons: Sequence[Button] = (),
               map_max_width: int | None = None, legend_beside: bool = False):
    """The book's map-widget layout: controls beside the map, a one-line result above it.

    The column beside the map holds the controls, the buttons and the hints. The legend goes under the map,
    or with ``legend_beside`` under the hints, for a tall map whose column would otherwise outgrow one and a
    half screens of a 768 px laptop.

    The map keeps its aspect ratio and scales to the space beside the controls, never wider than
    ``map_max_width`` (default: 1.3 times the figure's own width, so a projector enlarges it without pushing
    the result below the fold); the details run under the panel at full width. Returns the styled bokeh layout
    (named ``name``).
    """
    side = [*controls]
    if buttons:
        side.append(row(*buttons, width=CONTROL_WIDTH))
    if hints is not None:
        side.append(hints)
    fig.max_width = map_max_width or int(fig.width * 1.3)
    fig.sizing_mode = "scale_width"
    main = [summary, fig]
    if legend and legend_beside:
        side.append(Div(text=legend, name=f"{name}-legend", width=CONTROL_WIDTH))
    elif legend:
        main.append(Div(text=legend, name=f"{name}-legend", sizing_mode="stretch_width", css_classes=["wg-legend-wide"]))
    panel = row(column(*side, width=CONTROL_WIDTH, name=f"{name}-controls", css_classes=["wg-controls"]),
                column(*main, sizing_mode="stretch_width", name=f"{name}-main", css_classes=["wg-main"]),
                sizing_mode="stretch_width", css_classes=["wg-panel"])
    # The classes let the browser tests find every widget built with this layout (bokeh names stay internal).
    layout = column(panel, *details, sizing_mode="stretch_width", name=name, css_classes=["wg-widget", f"wg-{name}"])
    for d in details:
        if getattr(d, "sizing_mode", None) is None:
            d.sizing_mode = "stretch_width"
    return styled(layout)

