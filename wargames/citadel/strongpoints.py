"""Who controls each strongpoint (C 12.B.4, C 14, SR 1.A.2): a layer of the state over the read-only map.

The map names the strongpoints and their complexes (``terrain.strongpoints``, ``terrain.complex_of``).
Control changes hands when a unit of the other side occupies a strongpoint hex or passes through one.
"""
from __future__ import annotations

from ..core import Hex, implements
from .terrain import complex_of, strongpoints
from .units import Side


def _index(state) -> dict[Hex, str]:
    """Strongpoint name of every strongpoint hex (remembered per map)."""
    m = state.map
    return m.derived(("C 14 strongpoint of each hex", len(m.hexes)),
                     lambda: {h: name for name, hexes in strongpoints(m).items() for h in hexes})


def strongpoint_at(state, h: Hex) -> str | None:
    """The name of the strongpoint a hex belongs to (None outside strongpoints)."""
    return _index(state).get(h)


def strongpoint_hexes(state) -> dict[str, list[Hex]]:
    return strongpoints(state.map)


@implements("C 12")
def note_passage(state, side: Side, h: Hex) -> None:
    """A unit of ``side`` stands in or passes through ``h``: if it is a strongpoint hex, ``side`` controls it."""
    name = strongpoint_at(state, h)
    if name is not None:
        state.control[name] = side


def note_occupation(state) -> None:
    """Control at set-up: every strongpoint French (SR 2.1) unless the scenario says otherwise, then by occupant."""
    for name in strongpoint_hexes(state):
        state.control.setdefault(name, Side.FRENCH)
    for u in state.on_board():
        note_passage(state, u.side, u.hex)


def controller(state, name: str) -> Side:
    return state.control.get(name, Side.FRENCH)


@implements("C 14")
def complex_held(state, code: str, side: Side) -> bool:
    """Whether ``side`` controls every strongpoint of the complex ``code`` (C 17, SR 3: a captured complex)."""
    names = [n for n in strongpoint_hexes(state) if complex_of(n) == code]
    return bool(names) and all(controller(state, n) is side for n in names)
