"""Rule 13 (terrain) as far as Rules 8-10 need it, and the map vocabulary.

Terrain is one type per hex; strongpoints, roads and Vietminh works are
features on top of it (C 14.B: a strongpoint does not change the hex's
terrain). Monsoon swamps count as clear until the April 19 turn (C 13).
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from ..core import Hex, implements
from ..core.errors import DataError
from ..core.mapdata import MapData, load_map
from ..core.schema import Bool, Str, place
from ..core.yamlio import read_yaml

TERRAINS = ("clear", "full_jungle", "partial_jungle", "hill", "swamp", "monsoon_swamp", "airfield")
FEATURES = ("road", "trench", "tunnel", "weapons_pit", "strongpoint", "armor_bunker",
            "revetment", "runway_end")
HEXSIDE_FEATURES = ("river", "barbed_wire", "drainage_ditch", "hill", "full_jungle")
MONSOON_DATE = dt.date(1954, 4, 19)
MAPS = Path(__file__).parent / "data" / "maps"


#: Citadel's own per-hex fields: the jungle zone of a full jungle hex (C 8 strategic movement), the name of
#: a strongpoint hex (C 14.A: a code "AM-1", a name "Francoise", or both "Weime, I-5"), a village's name (Sc 2).
HEX_ATTRS = {"zone": Str(pattern=r"Z\d{1,2}", what="a jungle zone such as 'Z1'"),
             "strongpoint": Str(pattern=r"[A-Z][A-Za-z]{0,11}-\d{1,2}|[A-Z][a-z]{1,15}(, [A-Z]{1,2}-\d{1,2})?",
                                what="a strongpoint name such as 'AM-1', 'Francoise' or 'Weime, I-5'"),
             "village": Str(pattern=r"[A-Z][A-Za-z' ]{1,30}", what="a village name such as 'Ban Me'"),
             "take_off_cone": Bool()}


def load_citadel_map(path: str | Path) -> MapData:
    """Load a Citadel map excerpt, checking its terrain names against the TEC's vocabulary.

    Every call reads the file afresh. A zone belongs to a full jungle hex, a strongpoint name to a hex with a
    strongpoint."""
    raw = read_yaml(path)
    m = load_map(path, TERRAINS, FEATURES, HEXSIDE_FEATURES, data=raw, attrs=HEX_ATTRS)
    for h, info in m.hexes.items():
        where = f"hexes[{m.label(h)}]"
        if info.attr("zone") is not None and info.terrain != "full_jungle":
            raise place(DataError(str(path), f"{where}.zone", f"a zone belongs to a full_jungle hex, and this "
                                                             f"hex is {info.terrain}"), raw)
        if info.attr("strongpoint") is not None and "strongpoint" not in info.features:
            raise place(DataError(str(path), f"{where}.strongpoint",
                                  "names a strongpoint, but the hex has no strongpoint in its features"), raw)
    return m


def anne_marie_map() -> MapData:
    """The shipped excerpt of the North map around Anne-Marie (mostly reconstructed), read afresh."""
    return load_citadel_map(MAPS / "anne_marie.yaml")


@implements("C 13")
def effective_terrain(m: MapData, h: Hex, date: dt.date) -> str:
    """The hex's terrain on a date: a monsoon swamp is clear before April 19, swamp from then on."""
    t = m.terrain(h)
    if t == "monsoon_swamp":
        return "swamp" if date >= MONSOON_DATE else "clear"
    return t


#: Vietminh entrenchments: weapons pits and tunnels count as trenches wherever trenches count (C 18).
ENTRENCHMENTS = ("trench", "tunnel", "weapons_pit")


def entrenchment(m: MapData, h: Hex) -> str | None:
    """The trench, tunnel or weapons pit in a hex (each counts as a trench, C 18), or None."""
    feats = m.info(h).features
    return next((w for w in ENTRENCHMENTS if w in feats), None)


def is_jungle(m: MapData, h: Hex) -> bool:
    return m.terrain(h) in ("full_jungle", "partial_jungle")
