"""Sphinx extension: accept bokeh's notebook marker mime types without a warning.

bokeh's ``show()``/``output_notebook()`` outputs carry ``application/javascript``
(which myst-nb renders) plus marker types ``application/vnd.bokehjs_load.v0+json`` and
``application/vnd.bokehjs_exec.v0+json``. myst-nb's Sphinx parser renders every mime type
of a bundle before choosing one, so the markers raise ``mystnb.unknown_mime_type``
warnings, which ``-W`` turns into a failed build. Suppressing that warning type globally
would also hide real problems, so only these two marker types are handled here:

- the exec marker renders to nothing;
- the load marker (on ``output_notebook()``'s bundle) renders to an empty node, so the
  bundle still says it is bokeh's loader when ``bokeh_static`` looks for it. myst-nb's
  HTML mime priority has no entry for the marker, so on its own the ``application/javascript``
  sibling is still the one selected and rendered.
"""

from docutils import nodes
from myst_nb.core.render import NbElementRenderer

LOAD_MARKER = "application/vnd.bokehjs_load.v0+json"
BOKEH_MARKERS = frozenset({LOAD_MARKER, "application/vnd.bokehjs_exec.v0+json"})

_render_unhandled = NbElementRenderer.render_unhandled
_render_unhandled_inline = NbElementRenderer.render_unhandled_inline


def _marker(data):
    return [nodes.inline(bokeh_marker=data.mime_type)] if data.mime_type == LOAD_MARKER else []


def _unhandled(self, data):
    if data.mime_type in BOKEH_MARKERS:
        return _marker(data)
    return _render_unhandled(self, data)


def _unhandled_inline(self, data):
    if data.mime_type in BOKEH_MARKERS:
        return _marker(data)
    return _render_unhandled_inline(self, data)


def setup(app):
    NbElementRenderer.render_unhandled = _unhandled
    NbElementRenderer.render_unhandled_inline = _unhandled_inline
    return {"parallel_read_safe": True, "parallel_write_safe": True}
