"""Rule 14: strongpoints and complexes, and who controls them (C 12.B.4, SR 1.A.2).

A strongpoint is named on the map (``strongpoint`` attribute of its one to three hexes); its complex is the
letters before the dash (AM-1 and AM-2 make Anne-Marie). Control changes hands when a unit of the other side
occupies a strongpoint hex or passes through one: the map stays read-only, and control is a layer of the state.
"""
from __future__ import annotations

from ..core import Hex, implements
from .units import Side

#: The complexes C 14.A names, by code.
COMPLEXES = {"G": "Gabrielle", "B": "Beatrice", "C": "Claudine", "E": "Eliane", "H": "Huguette", "D": "Dominique",
             "AM": "Anne-Marie", "I": "Isabelle"}


def strongpoint_at(state, h: Hex) -> str | None:
    """The name of the strongpoint a hex belongs to (None outside strongpoints)."""
    info = state.map.info(h)
    if "strongpoint" not in info.features:
        return None
    return info.attr("strongpoint") or state.label(h)


@implements("C 14")
def complex_of(name: str) -> str:
    """A strongpoint's complex: the code before the dash (AM-1 -> AM); an unnamed or lone one is its own."""
    code = name.split("-")[0] if "-" in name else name
    return code


def strongpoint_hexes(state) -> dict[str, list[Hex]]:
    """Every strongpoint on the map and its hexes."""
    out: dict[str, list[Hex]] = {}
    for h in sorted(state.map.hexes):
        name = strongpoint_at(state, h)
        if name is not None:
            out.setdefault(name, []).append(h)
    return out


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


def complex_held(state, code: str, side: Side) -> bool:
    """Whether ``side`` controls every strongpoint of the complex ``code`` (SR 3: capturing a complex)."""
    names = [n for n in strongpoint_hexes(state) if complex_of(n) == code]
    return bool(names) and all(controller(state, n) is side for n in names)
