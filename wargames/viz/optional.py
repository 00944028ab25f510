"""bokeh as an optional dependency of the drawing modules.

The static book draws with bokeh. The live edition runs in the browser's Python (Pyodide), where bokeh cannot
load (numpy, contourpy and pillow have no offline builds). There the modules that draw with bokeh must still
import, so that what needs no bokeh keeps working: the marks and alt texts, the SVG maps of
:mod:`wargames.viz.svg` and the live widgets, which draw their maps as SVG. :func:`bokeh_names` gives the real
bokeh objects when bokeh is installed, and otherwise stand-ins that raise :class:`ImportError`, naming what was
wanted, as soon as they are used.
"""
from __future__ import annotations

import importlib

try:
    import bokeh  # noqa: F401
    HAVE_BOKEH = True
except ImportError:
    HAVE_BOKEH = False


class Missing:
    """Stands for a bokeh object where bokeh is not installed; any use raises ImportError."""

    def __init__(self, name: str):
        self._name = name

    def _fail(self, *_args, **_kwargs):
        raise ImportError(f"{self._name} needs bokeh, which is not installed here (in the live edition the "
                          f"maps are drawn as SVG: see wargames.viz.svg)", name="bokeh")

    __call__ = _fail

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._fail()

    def __repr__(self) -> str:
        return f"<{self._name}: bokeh is not installed>"


def bokeh_names(module: str, *names: str) -> tuple:
    """``names`` from bokeh ``module`` (say ``bokeh_names("bokeh.models", "Div", "Select")``), or
    :class:`Missing` stand-ins for each when bokeh cannot be imported."""
    if not HAVE_BOKEH:
        return tuple(Missing(f"{module}.{n}") for n in names)
    mod = importlib.import_module(module)
    return tuple(getattr(mod, n) for n in names)


def bokeh_name(module: str, name: str):
    """One name from a bokeh module, or its :class:`Missing` stand-in."""
    return bokeh_names(module, name)[0]
