"""Hidden sites (F 23.0), bunkers (F 24.0) and foxholes (F 25.0).

Caches, dummy caches, tunnels, foxholes and bunkers are set up face down. The other side learns what one is by
a successful Search in its hex (F 9.0), and a face-down bunker or foxholes also turns over the first time the
cover it gives is counted against a fire attack. A revealed site stays revealed. Bunkers (+2) and foxholes (+1)
protect at most two infantry units each, whichever side they belong to; getting in or out is free as part of a
move but draws opportunity fire, taken while the unit is still (or already) outside. American units destroy
revealed caches, tunnels and bunkers with the Destroy Cache action (F 11.0); foxholes cannot be destroyed.

Who is inside is recorded twice: each unit's ``fort`` and the site's ``occupants`` (the owner's written note
for a hidden site, F 24.0). The unit's ``fort`` is the truth; ``occupants`` gives the order in which units got
in, which decides who is counted when more units claim the cover than it holds.
"""
from __future__ import annotations

from typing import Callable

from ..core import Hex, Resolution, implements
from ..core.errors import DataError, RuleViolation
from .checks import Drm
from .state import FteState
from .units import SIDES, Site, Unit, player

#: Defence DRM of each fortification (F 24.0, F 25.0).
FORT_DRM = {"bunker": 2, "foxholes": 1}
FORT_RULE = {"bunker": "F 24.0", "foxholes": "F 25.0"}
#: Infantry units that fit in one bunker or one foxholes marker (F 24.0, F 25.0).
FORT_CAPACITY = 2
#: Sites whose revelation by the enemy scores like a cache (F 9.0, F 24.0); foxholes never score (F 25.0) and a
#: dummy cache is simply removed (F 9.0).
SCORING = ("rice", "medical", "ammo", "tunnel", "bunker")
#: Sites the Destroy Cache action can remove (F 11.0, F 23.0): everything but foxholes.
DESTRUCTIBLE = ("rice", "medical", "ammo", "tunnel", "bunker")


def owner(site: Site) -> str:
    """The player who set the site up: "US" or "NVA/VC"."""
    return player(site.side)


@implements("F 23.0")
def add_site(state: FteState, site: Site) -> Site:
    """Set up a site face down (or face up if ``revealed``), checking its data."""
    where = f"site {site.id}"
    if site.kind not in Site.KINDS:
        raise DataError("sites", f"{where}.kind", f"must be one of {Site.KINDS}, not {site.kind!r}")
    if site.side not in SIDES:
        raise DataError("sites", f"{where}.side", f"must be one of {SIDES}, not {site.side!r}")
    if site.hex not in state.map:
        raise DataError("sites", f"{where}.hex", "is not a hex of the map")
    if site.id in state.sites:
        raise DataError("sites", where, "the same site id is used twice")
    state.sites[site.id] = site
    return site


def sites_at(state: FteState, h: Hex, kind: str | None = None) -> list[Site]:
    return [s for s in state.sites.values() if s.hex == h and (kind is None or s.kind == kind)]


def fort_of(state: FteState, unit: Unit) -> Site | None:
    """The bunker or foxholes ``unit`` is in, or None."""
    if unit.fort is None:
        return None
    if unit.fort not in FORT_DRM:
        raise DataError("state", f"unit {unit.id}.fort", f"must be 'bunker', 'foxholes' or None, not {unit.fort!r}")
    found = sites_at(state, unit.hex, unit.fort) if unit.hex is not None else []
    if not found:
        raise DataError("state", f"unit {unit.id}.fort", f"no {unit.fort} in its hex")
    return found[0]


def occupants(state: FteState, site: Site) -> list[Unit]:
    """The units inside a bunker or foxholes, in the order they got in (the site's note first, then any other
    unit marked as inside)."""
    inside = [u for u in state.on_map() if u.hex == site.hex and u.fort == site.kind]
    rank = {uid: i for i, uid in enumerate(site.occupants)}
    return sorted(inside, key=lambda u: rank.get(u.id, len(rank)))


@implements("F 24.0", "F 25.0")
def fort_drm(state: FteState, unit: Unit) -> Drm | None:
    """The cover a fire attack on ``unit`` must beat: +2 in a bunker, +1 in foxholes, for the first two infantry
    units inside (F 24.0, F 25.0). None when the unit is not inside or is a third occupant."""
    site = fort_of(state, unit)
    if site is None or not unit.infantry:
        return None
    counted = occupants(state, site)[:FORT_CAPACITY]
    if unit not in counted:
        return None
    return Drm(FORT_DRM[site.kind], FORT_RULE[site.kind], f"in {'a bunker' if site.kind == 'bunker' else 'foxholes'}")


@implements("F 23.0", "F 24.0", "F 25.0")
def reveal_on_use(state: FteState, unit: Unit, res: Resolution) -> bool:
    """Counting a hidden bunker's or foxholes' cover against a fire attack turns it face up, with no victory
    points for anyone (F 23.0, F 24.0, F 25.0). Returns True when it was hidden."""
    site = fort_of(state, unit)
    if site is None or site.revealed:
        return False
    site.revealed = True
    res.add(FORT_RULE[site.kind], f"the hidden {site.kind} in {state.label(site.hex)} is revealed: {unit.id} "
                                  "used its cover (no victory points)", result=site.id, site=site.id)
    return True


@implements("F 23.0", "F 9.0", "F 24.0", "F 25.0")
def reveal_site(state: FteState, site_id: str, by: str, res: Resolution, rule: str = "F 9.0") -> str:
    """Turn an enemy site face up after a successful Search (F 9.0) or an interrogation (F 28.0). A dummy
    cache is removed; a cache, tunnel or bunker scores "cache_revealed" for ``by``; foxholes score nothing
    (F 25.0). Returns what the site was."""
    site = state.sites.get(site_id)
    if site is None:
        raise DataError("state", site_id, "no such site")
    if site.revealed:
        raise RuleViolation("F 23.0", f"site {site_id} is already revealed; a site is never hidden again")
    if owner(site) == by:
        raise RuleViolation("F 23.0", f"{by} set up site {site_id} and knows what it is")
    where = state.label(site.hex)
    if site.kind == "dummy":
        del state.sites[site_id]
        res.add(rule, f"the marker in {where} is a dummy cache and is removed (no victory points)",
                result="dummy", site=site_id)
        return "dummy"
    site.revealed = True
    res.add(rule, f"the marker in {where} is revealed: {site.kind}", result=site.kind, site=site_id)
    if site.kind in SCORING:
        state.award(by, "cache_revealed", res, FORT_RULE.get(site.kind, rule))
    else:
        res.add("F 25.0", "no victory points for revealing foxholes", site=site_id)
    return site.kind


@implements("F 9.0", "F 23.0")
def reveal_hidden_in_hex(state: FteState, h: Hex, by: str, res: Resolution, rule: str = "F 9.0") -> list[str]:
    """A successful Search turns face up every hidden site the other side has in the hex (F 9.0, F 23.0)."""
    found = [s.id for s in sites_at(state, h) if not s.revealed and owner(s) != by]
    if not found:
        res.add(rule, f"nothing hidden by the enemy in {state.label(h)}", result=[])
    return [reveal_site(state, sid, by, res, rule) for sid in found]


@implements("F 23.0", "F 24.0", "F 25.0", "F 11.0")
def destroy_site(state: FteState, site_id: str, by: str, res: Resolution, rule: str = "F 11.0", *,
                 vp: bool = True) -> None:
    """Remove a revealed cache, tunnel or bunker (F 11.0). Foxholes cannot be destroyed (F 23.0, F 25.0).
    Destroying a site the other side set up scores "cache_destroyed" (F 11.0, F 24.0) unless ``vp`` is off."""
    site = state.sites.get(site_id)
    if site is None:
        raise DataError("state", site_id, "no such site")
    if site.kind == "foxholes":
        raise RuleViolation("F 25.0", "foxholes can never be destroyed")
    if not site.revealed:
        raise RuleViolation("F 11.0", f"site {site_id} is still hidden; only a revealed site can be destroyed")
    for u in occupants(state, site):
        u.fort = None
    del state.sites[site_id]
    res.add(rule, f"the {site.kind} in {state.label(site.hex)} is destroyed and removed", result=site.kind,
            site=site_id)
    if vp and owner(site) != by:
        state.award(by, "cache_destroyed", res, FORT_RULE.get(site.kind, rule))


@implements("F 27.0", "F 24.0")
def sapper_hit(state: FteState, target: Unit, res: Resolution) -> bool:
    """A sapper's hit on a unit in a bunker also destroys the bunker, with no victory points (F 27.0). Call it
    when the hit is scored, before the effect moves or removes the target."""
    if target.fort != "bunker":
        return False
    site = fort_of(state, target)
    site.revealed = True
    res.add("F 27.0", f"the sapper's hit on {target.id} wrecks its bunker", site=site.id)
    destroy_site(state, site.id, "NVA/VC", res, "F 27.0", vp=False)
    return True


Opportunity = Callable[[FteState, Unit, Resolution], object]


def _check_fort_user(state: FteState, unit: Unit, kind: str) -> Site:
    rule = FORT_RULE.get(kind)
    if rule is None:
        raise DataError("sites", "kind", f"only a bunker or foxholes can be entered, not {kind!r}")
    if not unit.infantry:
        raise RuleViolation(rule, f"only infantry units use a {kind}; {unit.id} is a {unit.kind}")
    if not unit.on_map:
        raise RuleViolation(rule, f"{unit.id} is not on the map")
    if unit.fort is not None:
        raise RuleViolation(rule, f"{unit.id} is already in a {unit.fort}")
    found = [s for s in sites_at(state, unit.hex, kind) if s.revealed or owner(s) == unit.player]
    if not found:
        raise RuleViolation("F 23.0", f"{unit.id} knows of no {kind} in {state.label(unit.hex)} "
                                      "(an enemy site must be revealed before it can be used)")
    site = found[0]
    if len(occupants(state, site)) >= FORT_CAPACITY:
        raise RuleViolation(rule, f"the {kind} in {state.label(site.hex)} already holds {FORT_CAPACITY} units")
    return site


@implements("F 24.0", "F 25.0", "F 8.0")
def enter_fort(state: FteState, unit_id: str, kind: str, res: Resolution, *, advancing: bool = False,
               opportunity: Opportunity | None = None) -> bool:
    """Move ``unit_id`` into the bunker or foxholes in its hex, for no movement points (F 24.0, F 25.0).
    Unless the unit is advancing after an assault (F 8.0), the enemy may take opportunity fire first, while the
    unit is still outside: ``opportunity(state, unit, res)`` resolves it and returns something true if it
    stopped the unit (its activation ended, or it left the hex). Returns True when the unit got in."""
    unit = state.unit(unit_id)
    site = _check_fort_user(state, unit, kind)
    rule = FORT_RULE[kind]
    if advancing:
        res.add(rule, f"{unit.id} advances after the assault straight into the {kind}: no opportunity fire",
                unit=unit.id)
    elif opportunity is not None:
        res.add(rule, f"{unit.id} gets into the {kind}: the enemy may fire first, at it outside the cover",
                unit=unit.id)
        stopped = opportunity(state, unit, res)
        if stopped or unit.id not in state.units or not unit.on_map or unit.hex != site.hex:
            res.add(rule, f"{unit.id} does not get into the {kind}", result=False, unit=unit.id)
            return False
    unit.fort = kind
    if unit.id not in site.occupants:
        site.occupants.append(unit.id)
    res.add(rule, f"{unit.id} is in the {kind} in {state.label(site.hex)} (no movement points)", result=True,
            unit=unit.id, site=site.id)
    return True


@implements("F 24.0", "F 25.0")
def exit_fort(state: FteState, unit_id: str, res: Resolution, *, opportunity: Opportunity | None = None) -> None:
    """Leave a bunker or foxholes for no movement points (F 24.0, F 25.0); the opportunity fire this draws hits
    the unit already outside."""
    unit = state.unit(unit_id)
    site = fort_of(state, unit)
    if site is None:
        raise RuleViolation("F 24.0", f"{unit.id} is not in a bunker or foxholes")
    unit.fort = None
    if unit.id in site.occupants:
        site.occupants.remove(unit.id)
    res.add(FORT_RULE[site.kind], f"{unit.id} leaves the {site.kind} (no movement points); any opportunity fire "
                                  "hits it outside", unit=unit.id, site=site.id)
    if opportunity is not None:
        opportunity(state, unit, res)


def leave_hex(state: FteState, unit: Unit) -> None:
    """Bookkeeping for any unit leaving its hex (moving, retreating, loading, removed): it is no longer inside."""
    if unit.fort is None:
        return
    for s in sites_at(state, unit.hex, unit.fort) if unit.hex is not None else []:
        if unit.id in s.occupants:
            s.occupants.remove(unit.id)
    unit.fort = None


@implements("F 23.0")
def public_sites(state: FteState, viewer: str) -> list[dict]:
    """The site markers as ``viewer`` sees them: the other side's hidden markers show only "?" (F 23.0)."""
    out = []
    for s in state.sites.values():
        known = s.revealed or owner(s) == viewer
        out.append({"hex": state.label(s.hex), "kind": s.kind if known else "?", "revealed": s.revealed,
                    **({"id": s.id} if known else {})})
    return out


__all__ = ["FORT_DRM", "FORT_CAPACITY", "add_site", "sites_at", "fort_of", "occupants", "fort_drm",
           "reveal_on_use", "reveal_site", "reveal_hidden_in_hex", "destroy_site", "sapper_hit", "enter_fort",
           "exit_fort", "leave_hex", "public_sites"]
