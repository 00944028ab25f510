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
from ..core.yamlio import load_once, read_yaml

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
    for name, hexes in strongpoints(m).items():
        problem = _strongpoint_problem(m, hexes)
        if problem:
            raise place(DataError(str(path), f"hexes[{m.label(hexes[0])}].strongpoint",
                                  f"strongpoint {name} {problem} (C 14.A)"), raw)
    return m


@implements("C 14")
def strongpoints(m: MapData) -> dict[str, list[Hex]]:
    """Every strongpoint of the map and its hexes (C 14.A). Hexes share a strongpoint when they carry the same
    name; unnamed strongpoint hexes that touch form one strongpoint, named by its first hex's label (the
    unidentified one at N2224). Worked out once per map, which never changes in play; callers get copies."""
    found = m.derived(("C 14 strongpoints", len(m.hexes)), lambda: _find_strongpoints(m))
    return {name: list(hexes) for name, hexes in found.items()}


def _find_strongpoints(m: MapData) -> dict[str, list[Hex]]:
    named: dict[str, list[Hex]] = {}
    loose = []
    for h in sorted(m.hexes):
        info = m.hexes[h]
        if "strongpoint" in info.features:
            name = info.attr("strongpoint")
            if name is None:
                loose.append(h)
            else:
                named.setdefault(name, []).append(h)
    while loose:
        group = [loose.pop(0)]
        for h in group:
            for n in m.neighbors(h):
                if n in loose:
                    loose.remove(n)
                    group.append(n)
        named[m.label(group[0])] = sorted(group)
    return named


def _strongpoint_problem(m: MapData, hexes: list[Hex]) -> str | None:
    """Why these hexes are no strongpoint under C 14.A (1-3 touching hexes, wire or river all round), or None."""
    if len(hexes) > 3:
        return f"has {len(hexes)} hexes ({', '.join(map(m.label, hexes))}); a strongpoint has one to three"
    reach = {hexes[0]}
    for _ in hexes:
        reach |= {n for h in reach for n in m.neighbors(h) if n in hexes}
    if len(reach) != len(hexes):
        return f"is split: its hexes {', '.join(map(m.label, hexes))} do not all touch"
    for h in hexes:
        for n in m.neighbors(h):
            if n not in hexes and not m.side(h, n) & {"barbed_wire", "river"}:
                return (f"is open: the hexside {m.label(h)}|{m.label(n)} has neither barbed wire nor river")
    return None


#: The strongpoint complexes of C 14.A, by alpha code.
COMPLEXES = {"G": "Gabrielle", "B": "Beatrice", "C": "Claudine", "E": "Eliane", "H": "Huguette",
             "D": "Dominique", "AM": "Anne-Marie", "I": "Isabelle"}


def complex_of(name: str) -> str | None:
    """The alpha code of a strongpoint's complex (C 14.A): "AM-1" -> "AM", "Weime, I-5" -> "I". A strongpoint
    with a name only (Francoise, Juno, Armor) or none (N2224) is independent: None."""
    code = name.split(", ")[-1]
    head, _, num = code.partition("-")
    return head if num.isdigit() and head in COMPLEXES else None


#: How the scenarios spell strongpoints, and our names for them.
ALIASES = {"Junon": "Juno", "Françoise": "Francoise", "Weime": "Weime, I-5", "Wieme": "Weime, I-5",
           "I-5": "Weime, I-5"}


def strongpoint_name(m: MapData, text: str) -> str:
    """The map's name of a strongpoint as the scenarios write it: "H7" -> "H-7", "AM2" -> "AM-2", "Junon" ->
    "Juno". An unknown name raises DataError naming the map."""
    import re
    t = text.strip()
    mt = re.fullmatch(r"([A-Z]{1,2})-?(\d{1,2})", t)
    if mt:
        t = f"{mt.group(1)}-{int(mt.group(2))}"
    t = ALIASES.get(t, t)
    if t not in strongpoints(m):
        raise DataError(m.source, repr(text), "names no strongpoint on this map")
    return t


def complex_strongpoints(m: MapData, code: str) -> dict[str, list[Hex]]:
    """The strongpoints of one complex (C 14.A), e.g. "H" -> H-1 .. H-7."""
    return {n: hs for n, hs in strongpoints(m).items() if complex_of(n) == code}


VALLEY = MAPS / "valley.yaml"


def valley_map(path: str | Path | None = None) -> MapData:
    """The reconstructed valley (both sheets, labels "N1316"/"S0512"), read once per file version; an owner's
    printed map in the same layout loads through ``path``."""
    return load_once(load_citadel_map, VALLEY if path is None else path)


def hexes_with(m: MapData, feature: str) -> list[Hex]:
    return sorted(h for h, i in m.hexes.items() if feature in i.features)


def revetment_hex(m: MapData) -> Hex:
    """Where Dien Bien Phu's fighter-bombers and Crickets park (C 28.A, C 29, C 31)."""
    return _one(m, "revetment")


def runway_end(m: MapData) -> Hex:
    """The runway's north-west end (N1918 on the valley), where take-off fire is measured from (C 28.D)."""
    return _one(m, "runway_end")


def _one(m: MapData, feature: str) -> Hex:
    found = hexes_with(m, feature)
    if len(found) != 1:
        raise DataError(m.source, feature, f"the map needs exactly one {feature} hex, and has {len(found)}")
    return found[0]


def take_off_cone(m: MapData) -> frozenset[Hex]:
    """The hexes of the take-off pattern spreading from the runway's north-west end (C 28.D)."""
    return frozenset(h for h, i in m.hexes.items() if i.attr("take_off_cone"))


def villages(m: MapData) -> dict[str, Hex]:
    """Named villages (the Flak Raid's Ban Ong Pet, Ban Me and Ban Ban, Sc 2)."""
    return dict(m.derived("villages", lambda: {i.attr("village"): h for h, i in m.hexes.items()
                                               if i.attr("village")}))


def jungle_zone(m: MapData, h: Hex) -> str | None:
    """The strategic-movement zone of a full jungle hex (C 8, C 13), or None."""
    return m.info(h).attr("zone") if m.terrain(h) == "full_jungle" else None


def dbp_airfield(m: MapData) -> list[Hex]:
    """The usable airfield: the airfield hexes of the first (north) sheet (C 31; the southern one is not)."""
    first = m.layout.sheets[0][0] if hasattr(m.layout, "sheets") else None
    return sorted(h for h, i in m.hexes.items() if i.terrain == "airfield"
                  and (first is None or m.label(h).startswith(first)))


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
