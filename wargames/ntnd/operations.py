"""The Communist operations phase (NT 6, with 4.1.2, 28.7.1, 28.9.3 and 28.9.7).

In this phase the Communist player promotes cadres (to regiments, 6.1.1, or Viet Cong sappers, 6.1.2 and
28.7.1) with a supply unit, breaks NVA divisions down into a cadre and a regiment (6.1.3), builds VC Bases with
two supply units (28.9.3) and divisions on them (28.9.7), and then turns units face up or inverts them (6.2).
Nothing is ever built beyond the counter mix (6.1.4). Every procedure returns a new position and the steps;
a refused choice raises RuleViolation and changes nothing.
"""
from __future__ import annotations

from ..core import implements
from ..core.errors import RuleViolation
from ..core.log import Resolution
from .recruitment import GUERRILLAS
from .state import NtndState

OPERATIONS = "operations"                     # the phase name these procedures require (3.1.3)
MARK_BASE_DIVISION = "NT 28.9.7 built"        # on a division built at a VC Base this turn (one a turn)
MOBILE_TERRAIN = ("mountain", "jungle", "swamp")   # 28.9.3


def _phase(state: NtndState, rule: str) -> None:
    if state.phase != OPERATIONS:
        raise RuleViolation(rule, f"this is done in the Communist operations phase, not in {state.phase!r}")


def _own(state: NtndState, unit: str, rule: str, **want) -> None:
    state.piece(unit)                         # in play, or RuleViolation
    c = state.counter(unit)
    for attr, value in want.items():
        if getattr(c, attr) not in (value if isinstance(value, tuple) else (value,)):
            raise RuleViolation(rule, f"{unit} is not a {value if isinstance(value, str) else ' or '.join(value)} "
                                      f"({attr} {getattr(c, attr)})")


def _near(state: NtndState, a: str, b: str) -> bool:
    """Same location, or two map hexes side by side."""
    la, lb = state.piece(a).location, state.piece(b).location
    if la == lb:
        return True
    zones = state.geography.zones
    return la not in zones and lb not in zones and state.hex_of(a).is_adjacent(state.hex_of(b))


def _free(state: NtndState, rule: str, **filters) -> str:
    free = state.available("communist", **filters)
    if not free:
        kind = " ".join(str(v) for v in filters.values())
        raise RuleViolation("NT 6.1.4", f"no {kind} is left in the counter mix ({rule})")
    return free[0].id


@implements("NT 6.1", "NT 6.1.1", "NT 6.1.2", "NT 6.1.4", "NT 28.7.1")
def promote(state: NtndState, cadre: str, supply: str, to: str = "regiment", *, unit: str | None = None,
            res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """Promote a guerrilla cadre that shares a hex with, or stands next to, a supply unit: the supply unit goes
    back to the mix and the cadre becomes a regiment of its nationality (6.1.1) or, for a Viet Cong cadre, a
    sapper (6.1.2, 28.7.1). One supply unit promotes one cadre. The new unit keeps the cadre's place and face.
    ``unit`` picks the regiment or sapper counter."""
    res = res if res is not None else Resolution()
    rule = "NT 6.1.2" if to == "sapper" else "NT 6.1.1"
    _phase(state, rule)
    if to not in ("regiment", "sapper"):
        raise RuleViolation("NT 6.1", f"a cadre is promoted to a regiment or a sapper, not a {to}")
    _own(state, cadre, rule, type="cadre")
    _own(state, supply, rule, type="supply")
    nationality = state.counter(cadre).nationality
    if to == "sapper" and nationality != "VC":
        raise RuleViolation("NT 6.1.2", f"only Viet Cong cadres become sappers; {cadre} is {nationality}")
    if not _near(state, cadre, supply):
        raise RuleViolation(rule, f"{supply} is neither in {cadre}'s hex nor next to it")
    if unit is None:
        unit = _free(state, rule, type=to, nationality=nationality)
    else:
        c = state.counter(unit)
        if c.type != to or c.nationality != nationality:
            raise RuleViolation(rule, f"{unit} is not a {nationality} {to}")
        if c not in state.available("communist"):
            raise RuleViolation("NT 6.1.4", f"{unit} is not in the counter mix")
    piece = state.piece(cadre)
    new = state.copy()
    new.remove(supply)
    new.remove(cadre)
    new.place(unit, piece.location, face_up=piece.face_up)
    res.add(rule, f"{cadre} promoted to {unit} at {piece.location}, spending {supply}", result=unit)
    res.result = unit
    return new, res


@implements("NT 6.1.3", "NT 6.1.4")
def break_down(state: NtndState, division: str, *, res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """Break an NVA division into a cadre and a regiment of the country it stands in: Viet Cong in South
    Vietnam, Pathet Lao in Laos, Khmer Rouge in Cambodia (6.1.3). The division goes back to the mix (to be
    recruited again, never rebuilt from smaller units). Both new units keep its place and face."""
    res = res if res is not None else Resolution()
    _phase(state, "NT 6.1.3")
    _own(state, division, "NT 6.1.3", type="division", nationality="NVA")
    piece = state.piece(division)
    geo = state.geography
    country = geo.zone(piece.location).country if piece.location in geo.zones else \
        geo.country(geo.hex(piece.location))
    nationality = GUERRILLAS.get(country)
    if nationality is None:
        raise RuleViolation("NT 6.1.3", f"{division} is in {country}, which has no guerrillas of its own")
    cadre = _free(state, "NT 6.1.3", type="cadre", nationality=nationality)
    regiment = _free(state, "NT 6.1.3", type="regiment", nationality=nationality)
    new = state.copy()
    new.remove(division)
    new.place(cadre, piece.location, face_up=piece.face_up)
    new.place(regiment, piece.location, face_up=piece.face_up)
    res.add("NT 6.1.3", f"{division} broken down into {cadre} and {regiment} at {piece.location}",
            result=(cadre, regiment))
    res.result = (cadre, regiment)
    return new, res


@implements("NT 28.9.3", "NT 28.9.1")
def build_vc_base(state: NtndState, location: str, supplies: tuple[str, str], *, face_up: bool = True,
                  res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """28.9.3: spend two supply units in a mountain, jungle or swamp hex of South Vietnam that a Viet Cong unit
    occupies, and put a VC Base there; one Base per corps and per hex (28.9.1). The supply units must stand in
    that hex."""
    res = res if res is not None else Resolution()
    _phase(state, "NT 28.9.3")
    geo = state.geography
    if location in geo.zones:
        raise RuleViolation("NT 28.9.3", "a VC Base is built in a map hex")
    h = geo.hex(location)
    if geo.country(h) != "SVN" or geo.terrain(h) not in MOBILE_TERRAIN:
        raise RuleViolation("NT 28.9.3", f"{location} is not a mountain, jungle or swamp hex of South Vietnam")
    here = state.at(location)
    if not any(state.counter(u).nationality == "VC" and state.counter(u).ground_combat for u in here):
        raise RuleViolation("NT 28.9.3", f"no Viet Cong unit occupies {location}")
    if len(set(supplies)) != 2:
        raise RuleViolation("NT 28.9.3", "a VC Base costs two supply units")
    for s in supplies:
        _own(state, s, "NT 28.9.3", type="supply")
        if state.piece(s).location != location:
            raise RuleViolation("NT 28.9.3", f"{s} is not in {location}")
    area = geo.area(h)
    for u, p in state.pieces.items():
        if state.counter(u).type == "vc_base":
            if p.location == location:
                raise RuleViolation("NT 28.9.1", f"{location} already has a VC Base")
            if state.area_of(p.location) == area:
                raise RuleViolation("NT 28.9.3", f"{area} Corps already has a VC Base ({u})")
    base = _free(state, "NT 28.9.3", type="vc_base")
    new = state.copy()
    for s in supplies:
        new.remove(s)
    new.place(base, location, face_up=face_up)
    res.add("NT 28.9.3", f"{base} built at {location}, spending {' and '.join(supplies)}", result=base)
    res.result = base
    return new, res


@implements("NT 28.9.7", "NT 4.1.7")
def build_division(state: NtndState, base: str, regiment: str, cadre: str, supply: str, *,
                   division: str | None = None, res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """28.9.7: a Viet Cong regiment and a Viet Cong cadre in a VC Base's hex, with a supply unit there too,
    become an NVA division; the supply unit is spent. One such division a turn, whatever the number of Bases; it
    counts toward the ten-division cap before the uprising (28.10) but not toward the two NVA recruits (4.1.3).
    ``division`` picks the counter (by default a division formed in the South, if one is free)."""
    res = res if res is not None else Resolution()
    _phase(state, "NT 28.9.7")
    _own(state, base, "NT 28.9.7", type="vc_base")
    _own(state, regiment, "NT 28.9.7", type="regiment", nationality="VC")
    _own(state, cadre, "NT 28.9.7", type="cadre", nationality="VC")
    _own(state, supply, "NT 28.9.7", type="supply")
    where = state.piece(base).location
    for u in (regiment, cadre, supply):
        if state.piece(u).location != where:
            raise RuleViolation("NT 28.9.7", f"{u} is not in the VC Base's hex {where}")
    if any(p.marked(MARK_BASE_DIVISION) for p in state.pieces.values()):
        raise RuleViolation("NT 28.9.7", "a division has already been built at a VC Base this turn")
    cap = state.policy.nva_division_limit(state.turn)
    divisions = sum(1 for u in state.pieces if state.counter(u).type == "division")
    if cap is not None and divisions + 1 > cap:
        raise RuleViolation("NT 4.1.7", f"{divisions} NVA divisions are in play; at most {cap} before the uprising")
    free = state.available("communist", type="division")
    if division is None:
        if not free:
            raise RuleViolation("NT 6.1.4", "no NVA division is left in the counter mix")
        division = next((c.id for c in free if "vc_formed" in c.tags), free[0].id)
    elif state.counter(division) not in free:
        raise RuleViolation("NT 6.1.4", f"{division} is not an NVA division in the counter mix")
    face = state.piece(regiment).face_up
    new = state.copy()
    for u in (regiment, cadre, supply):
        new.remove(u)
    new.place(division, where, face_up=face)
    new.update(division, marks=frozenset({MARK_BASE_DIVISION}))
    res.add("NT 28.9.7", f"{regiment} and {cadre} become {division} at {where}, spending {supply}",
            result=division)
    res.result = division
    return new, res


@implements("NT 6.2", "NT 4.1.2")
def set_face(state: NtndState, unit: str, face_up: bool, *,
             res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """6.2: turn a Communist unit face up or invert it. Tank regiments never go inverted. A dummy turned face
    up is unmasked: it is removed and goes back to the mix, worth no political points (4.1.2)."""
    res = res if res is not None else Resolution()
    _phase(state, "NT 6.2")
    piece = state.piece(unit)
    c = state.counter(unit)
    if c.side != "communist":
        raise RuleViolation("NT 6.2", f"{unit} is not a Communist unit")
    if piece.face_up == face_up:
        raise RuleViolation("NT 6.2", f"{unit} is already {'face up' if face_up else 'inverted'}")
    if c.type == "tank" and not face_up:
        raise RuleViolation("NT 6.2", "tank regiments may never be inverted")
    new = state.copy()
    if c.type == "dummy" and face_up:
        new.remove(unit)
        res.add("NT 4.1.2", f"{unit} turned face up: a dummy, removed to the mix", result=None)
        res.result = None
        return new, res
    new.update(unit, face_up=face_up)
    res.add("NT 6.2", f"{unit} {'turned face up' if face_up else 'inverted'}", result=face_up)
    res.result = face_up
    return new, res
