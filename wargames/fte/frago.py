"""FRAGOs, the scenario cards (F 3.0): what a scenario gives as data, checked as it loads, and its set-up.

A FRAGO names its map, turns, chits, first player, units (with their hexes), sites, reinforcements, key terrain,
starting VP, extra chits, casualty markers and the traps plotted or to be plotted (F 3.0, F 4.0, F 5.0, F 7.5,
F 26.0, F 29.0). :func:`load_frago` reads one through the schema, so a bad file is refused with its field and
line; :func:`setup` builds the position a game starts from (:class:`wargames.fte.game.Game`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

from ..core import Hex, Resolution, implements
from ..core.charts import PROVENANCE
from ..core.errors import DataError, RuleViolation
from ..core.mapdata import MapData
from ..core.schema import Bool, Int, Invalid, List, Nullable, Opt, Record, Str, load_file, place as place_error
from ..core.yamlio import read_yaml
from .casualties import place_marker
from .charts import Charts
from .errata import ERRATA, Readings
from .placement import entry_problem
from .sites import FORT_DRM
from .state import PLAYERS, FteState, place
from .terrain import demo_map, load_fte_map
from .traps import plot_booby_trap, plot_claymore
from .units import ALTITUDES, CAPACITY, KINDS, ROLES, SIDES, WEAPONS, Site, Unit, player, problem

FRAGOS = Path(__file__).parent / "data" / "fragos"


# --------------------------------------------------------------------------- FRAGOs as data

@dataclass
class Frago:
    """A scenario card: what the rules leave to the scenario (F 3.0, 4.0, 5.0, 7.5.3, 29.0).

    ``units`` and the units of ``reinforcements`` are checked unit specs (the fields of a counter and, for
    ``units``, its ``hex``: see :data:`FRAGO`)."""

    name: str
    note: str
    turns: int
    first_player: str
    chits: dict[str, int]
    random_event: bool
    units: list[dict]
    sites: list[dict] = field(default_factory=list)
    reinforcements: list[dict] = field(default_factory=list)   # {turn, hexes, units}
    key_terrain: list[dict] = field(default_factory=list)      # {hex, player, points}: held at the end
    us_may_carry_off: bool = False
    booby_traps: list[str] = field(default_factory=list)     # hexes the NVA/VC player plotted (F 26.0)
    claymores: list[str] = field(default_factory=list)       # hexes the US player plotted (F 26.0)
    plots: dict[str, int] = field(default_factory=dict)      # traps each player plots at set-up (F 26.0)
    map_path: str | None = None
    source: str = "<memory>"
    vp: dict[str, int] = field(default_factory=lambda: {"US": 0, "NVA/VC": 0})   # at the start (F 29.0)
    extra_chits: list[dict] = field(default_factory=list)    # {turn, player, count}: added in step a (F 4.0)
    casualties: list[dict] = field(default_factory=list)     # {kind, side, hex}: KIA/WIA markers at the start (F 7.5)


_DEFAULTS = {f.name: f.default for f in fields(Unit)}
UNIT_ID = Str(min_len=1, max_len=60, what="a unit id")
HEX = Str(key=True, min_len=1, max_len=12, what="a hex label")


def _unit_check(v: dict) -> None:
    bad = problem(v)
    if bad is not None:
        raise Invalid(*bad)


def _reinforcement_check(v: dict) -> None:
    """A reinforcement's helicopter has no altitude yet: its owner picks Treetop or High as it enters (F 4.0)."""
    if v["kind"] == "helicopter":
        if v["altitude"] is not None:
            raise Invalid("altitude", "a reinforcement helicopter enters at the altitude its owner picks then "
                                      "(Treetop or High, F 4.0): leave it out")
        v = {**v, "altitude": "treetop"}
    _unit_check(v)


def _unit_schema(placed: bool) -> Record:
    """A counter as a FRAGO sets it up (F 2.0): what it prints and the markers it starts with; ``placed``: with
    its hex (reinforcements are placed by their owner on their group's hexes, helicopters at the altitude he
    picks, F 4.0)."""
    optional = {"kind": Str(KINDS), "role": Str(ROLES), "fire_rating": Nullable(Int(1, 10)),
                "weapon": Nullable(Str(WEAPONS)), "tq": Int(1, 10), "range": Nullable(Int(1, 30)),
                "defense": Int(0, 9), "men": Int(1, 4), "altitude": Nullable(Str(ALTITUDES)),
                "reduced_fire_rating": Nullable(Int(1, 10)), "reduced_men": Nullable(Int(1, 3)),
                "searching": Int(0, 9), "fort": Nullable(Str(tuple(FORT_DRM))), "loaded_in": Nullable(UNIT_ID),
                **{k: Bool() for k in ("reduced", "concealed", "suppressed", "broken", "exhausted", "low_ammo",
                                       "hero", "injury", "immobilized", "downed", "destroyed")}}
    return Record({"id": UNIT_ID, "side": Str(SIDES), **({"hex": HEX} if placed else {})},
                  {k: Opt(schema, _DEFAULTS[k]) for k, schema in optional.items()},
                  check=_unit_check if placed else _reinforcement_check, what="a unit {id, side, ...}")


def _capacity(t: dict) -> int:
    """Troops a transport's spec may carry (F 6.9)."""
    return 8 if t["kind"] == "vehicle" else CAPACITY.get(t["role"], 0) if t["kind"] == "helicopter" else 0


def _frago_check(v: dict) -> None:
    """What a FRAGO's fields must say together, the map aside: unit and site ids used once, a key terrain hex
    once a player, transports that exist and hold their passengers, reinforcements and extra chits due within the
    game, and each group of reinforcements able to fit in its hexes (F 6.2)."""
    ids: dict[str, str] = {}
    groups = [("units", v["units"])] + [(f"reinforcements[{i}].units", r["units"])
                                        for i, r in enumerate(v["reinforcements"])]
    for where, units in groups:
        for j, u in enumerate(units):
            if u["id"] in ids:
                raise Invalid(f"{where}[{j}].id", f"repeats the unit id {u['id']!r} of {ids[u['id']]}")
            ids[u["id"]] = f"{where}[{j}]"
    for where, units in groups:
        by_id = {u["id"]: u for u in units}
        for j, u in enumerate(units):
            t = by_id.get(u["loaded_in"]) if u["loaded_in"] is not None else None
            if u["loaded_in"] is not None and (t is None or t is u or t["kind"] == "infantry"
                                               or player(t["side"]) != player(u["side"])):
                raise Invalid(f"{where}[{j}].loaded_in", f"{u['loaded_in']!r} is no vehicle or helicopter of the "
                                                         f"same player set up {'here' if where == 'units' else 'with it'}")
            if u["loaded_in"] is not None and u["kind"] != "infantry":
                raise Invalid(f"{where}[{j}].loaded_in", f"{u['id']} is a {u['kind']}: only infantry are transported "
                                                         "(F 6.9)")
        for j, u in enumerate(units):
            aboard = sum(w["men"] + w["injury"] for w in units if w["loaded_in"] == u["id"] and w is not u)
            if aboard > _capacity(u):
                raise Invalid(f"{where}[{j}]", f"{u['id']} carries {aboard} troops; it may carry {_capacity(u)} (F 6.9)")
    sites: dict[str, int] = {}
    for i, site in enumerate(v["sites"]):
        if site["id"] in sites:
            raise Invalid(f"sites[{i}].id", f"repeats the site id {site['id']!r} of sites[{sites[site['id']]}]")
        sites[site["id"]] = i
    held: dict[tuple[str, str], int] = {}
    for i, k in enumerate(v["key_terrain"]):
        if (k["hex"], k["player"]) in held:
            raise Invalid(f"key_terrain[{i}].hex", f"{k['hex']} is key terrain for {k['player']} already "
                                                   f"(key_terrain[{held[k['hex'], k['player']]}])")
        held[k["hex"], k["player"]] = i
    for i, r in enumerate(v["reinforcements"]):
        for j, u in enumerate(r["units"]):
            if u["fort"] is not None:
                raise Invalid(f"reinforcements[{i}].units[{j}].fort", "reinforcements enter on the map's edge, "
                                                                      "in no bunker or foxholes (F 4.0)")
        seen: set[str] = set()
        for j, u in enumerate(r["units"]):
            if u["loaded_in"] is not None and u["loaded_in"] not in seen:
                raise Invalid(f"reinforcements[{i}].units[{j}].loaded_in", "the transport must be listed before "
                                                                           "the units loaded in it")
            seen.add(u["id"])
        hexes = len(set(r["hexes"]))
        for kind, per_hex in (("helicopter", 1), ("vehicle", 2)):
            js = [j for j, u in enumerate(r["units"]) if u["kind"] == kind]
            if len(js) > per_hex * hexes:
                raise Invalid(f"reinforcements[{i}].units[{js[per_hex * hexes]}]",
                              f"the group's {hexes} hex(es) take at most {per_hex * hexes} {kind}(s) ({per_hex} a "
                              "hex, F 6.2): add a hex")
        if r["turn"] > v["turns"]:
            raise Invalid(f"reinforcements[{i}].turn", f"turn {r['turn']} is after the last turn ({v['turns']})")
    for i, x in enumerate(v["extra_chits"]):
        if x["turn"] > v["turns"]:
            raise Invalid(f"extra_chits[{i}].turn", f"turn {x['turn']} is after the last turn ({v['turns']})")


FRAGO = Record(
    {"name": Str(min_len=1, max_len=200), "note": Str(), "turns": Int(1, 30), "first_player": Str(PLAYERS),
     "chits": Record({p: Int(0, 20) for p in PLAYERS}), "units": List(_unit_schema(True), min_len=1, max_len=500)},
    {"provenance": Opt(PROVENANCE), "map": Opt(Str(pattern=r"[\w-][\w.-]{0,99}", what="demo, or the name of a map file beside the FRAGO")),
     "random_event": Opt(Bool(), True), "us_may_carry_off": Opt(Bool(), False),
     "sites": Opt(List(Record({"id": Str(min_len=1, max_len=60), "kind": Str(Site.KINDS), "side": Str(SIDES),
                               "hex": HEX}, {"revealed": Opt(Bool(), False)}, what="a site {id, kind, side, hex}"),
                       max_len=500), []),
     "reinforcements": Opt(List(Record({"turn": Int(1, 30), "hexes": List(HEX, min_len=1, max_len=100),
                                        "units": List(_unit_schema(False), min_len=1, max_len=500)},
                                       what="reinforcements {turn, hexes, units}"), max_len=100), []),
     "key_terrain": Opt(List(Record({"hex": HEX, "player": Str(PLAYERS), "points": Int(0, 100)},
                                    what="key terrain {hex, player, points}"), max_len=100), []),
     "booby_traps": Opt(List(HEX, max_len=500), []), "claymores": Opt(List(HEX, max_len=500), []),
     "plots": Opt(Record({}, {"booby_traps": Opt(Int(0, 50), 0), "claymores": Opt(Int(0, 50), 0)},
                         what="how many booby traps and claymores the players plot at set-up"),
                  {"booby_traps": 0, "claymores": 0}),
     "vp": Opt(Record({}, {p: Opt(Int(0, 999), 0) for p in PLAYERS}, what="starting VP {US, NVA/VC}"),
               {"US": 0, "NVA/VC": 0}),
     "extra_chits": Opt(List(Record({"turn": Int(1, 30), "player": Str(PLAYERS), "count": Int(1, 20)},
                                    what="extra chits {turn, player, count}"), max_len=100), []),
     "casualties": Opt(List(Record({"kind": Str(("KIA", "WIA")), "side": Str(SIDES), "hex": HEX},
                                   what="a casualty marker {kind, side, hex}"), max_len=100), [])},
    check=_frago_check, what="a FRAGO")


def _frago_map(v: dict, file: str) -> MapData:
    """The map a FRAGO names: ``demo`` (the default) or a map file beside it."""
    if v["map"] in (None, "demo"):
        return demo_map()
    path = Path(file).parent / v["map"]
    if not path.is_file():
        raise Invalid("map", f"names no map: there is no file {path}")
    return load_fte_map(path)


def _on_the_map(v: dict, m: MapData) -> None:
    """Every hex the FRAGO names is on its map; a unit set up in a bunker or foxholes finds one in its hex."""
    def at(where: str, label: str) -> Hex:
        try:
            return m.hex(label)
        except DataError as e:
            raise Invalid(where, e.reason if label in e.reason else f"{label!r} is {e.reason}") from None
    for i, u in enumerate(v["units"]):
        at(f"units[{i}].hex", u["hex"])
    forts = {(at(f"sites[{i}].hex", s["hex"]), s["kind"]) for i, s in enumerate(v["sites"])}
    for i, u in enumerate(v["units"]):
        if u["fort"] is not None and (m.hex(u["hex"]), u["fort"]) not in forts:
            raise Invalid(f"units[{i}].fort", f"no site of kind {u['fort']} is set up in {u['hex']}")
    for i, r in enumerate(v["reinforcements"]):
        for j, label in enumerate(r["hexes"]):
            at(f"reinforcements[{i}].hexes[{j}]", label)
    for i, k in enumerate(v["key_terrain"]):
        at(f"key_terrain[{i}].hex", k["hex"])
    for key in ("booby_traps", "claymores"):
        for i, label in enumerate(v[key]):
            at(f"{key}[{i}]", label)
    for i, c in enumerate(v["casualties"]):
        at(f"casualties[{i}].hex", c["hex"])


@implements("F 3.0")
def load_frago(path: str | Path) -> Frago:
    """Load a FRAGO from YAML; every problem names the file, the field and its line.

    Beyond each field's type and range: the hexes are on the FRAGO's map, unit ids are used once,
    reinforcements come within the game, and the scenario sets up: every unit where the rules let it stand
    (no enemy in its hex, the stacking limits, F 6.2), loaded units with their transport, plotted booby traps
    and claymores where they may be (F 26.0)."""
    file = str(path)
    raw = read_yaml(path)
    v = load_file(path, FRAGO, raw)
    try:
        m = _frago_map(v, file)
        _on_the_map(v, m)
    except Invalid as e:
        raise place_error(DataError(file, e.path, e.reason), raw) from None
    frago = Frago(v["name"], v["note"], v["turns"], v["first_player"], v["chits"], v["random_event"], v["units"],
                  v["sites"], v["reinforcements"], v["key_terrain"], v["us_may_carry_off"], v["booby_traps"],
                  v["claymores"], dict(v["plots"]), v["map"], file, vp=v["vp"], extra_chits=v["extra_chits"],
                  casualties=v["casualties"])
    try:
        setup(frago, m=m)
    except DataError as e:
        raise (place_error(e, raw) if e.file == file else e) from None
    return frago


def demo_frago() -> Frago:
    """The shipped demonstration FRAGO (our own, not a published scenario)."""
    return load_frago(FRAGOS / "demo.yaml")


def new_unit(spec: dict) -> Unit:
    """A new counter from a checked unit spec (its hex aside): the full side's values, flipped to the reduced
    side when the FRAGO sets it up reduced (F 2.0)."""
    u = Unit(**{k: (list(x) if isinstance(x, list) else x) for k, x in spec.items() if k not in ("hex", "reduced")})
    if spec.get("reduced"):
        u.flip()
    return u


def reinforcement_unit(spec: dict, altitude: str = "treetop") -> Unit:
    """A new counter from a reinforcement's spec; a helicopter at ``altitude`` (its owner's pick, F 4.0)."""
    return new_unit({**spec, "altitude": altitude} if spec["kind"] == "helicopter" else spec)


@implements("F 3.0")
def setup(frago: Frago, readings: Readings = ERRATA, charts: Charts | None = None,
          m: MapData | None = None) -> FteState:
    """Set a FRAGO up: the map, the units in their hexes, the sites, the casualty markers, the chits, the starting
    VP and the scenario's rules."""
    if m is None:
        m = demo_map() if frago.map_path in (None, "demo") else load_fte_map(Path(frago.source).parent / frago.map_path)
    state = FteState(m, readings=readings, last_turn=frago.turns, first_player=frago.first_player,
                     us_may_carry_off=frago.us_may_carry_off, **({} if charts is None else {"charts": charts}))
    state.cup.chits = dict(frago.chits)
    state.cup.random_event = frago.random_event
    state.vp = {p: frago.vp.get(p, 0) for p in PLAYERS}          # the starting VP (F 29.0)
    units = []
    for i, spec in enumerate(frago.units):
        u = new_unit(spec)
        u.hex = _hex(m, spec["hex"], frago.source, f"units[{i}].hex")
        units.append(u)
    # Each unit where the rules let it stand, as if the units entered in the FRAGO's order, Medics and Civilians
    # first (the enemy may enter their hexes, F 6.2, F 28.0): the later of two units that clash is named.
    for i in sorted(range(len(units)), key=lambda i: (units[i].role not in ("medic", "civilians"), i)):
        u = units[i]
        rule, why = ("", "") if u.loaded_in is not None else entry_problem(state, [u], u.hex)
        if why:
            raise DataError(frago.source, f"units[{i}].hex", f"{u.id} cannot be set up there: {why} ({rule})")
        place(state, [u])
    for i, u in enumerate(units):
        t = state.units[u.loaded_in] if u.loaded_in is not None else None
        if t is not None and u.hex != t.hex:
            raise DataError(frago.source, f"units[{i}].hex", f"{u.id} is loaded in {t.id}, so it must be set up in "
                                                             f"its hex, {state.label(t.hex)}")
    state.units = {u.id: state.units[u.id] for u in units}      # in the FRAGO's order
    for i, spec in enumerate(frago.sites):
        h = _hex(m, spec["hex"], frago.source, f"sites[{i}].hex")
        state.sites[spec["id"]] = Site(spec["id"], spec["kind"], spec["side"], h, bool(spec.get("revealed", False)))
    for i, c in enumerate(frago.casualties):          # casualties of the fighting before the scenario (F 7.5)
        h = _hex(m, c["hex"], frago.source, f"casualties[{i}].hex")
        if state.enemies_at(h, player(c["side"])):
            raise DataError(frago.source, f"casualties[{i}].hex", f"{c['hex']} holds enemy units: a casualty marker "
                                                                  "alone with the enemy is captured or removed (F 7.5.3)")
        place_marker(state, c["kind"], c["side"], h, Resolution(), "F 7.5")
    for k, plot in (("booby_traps", plot_booby_trap), ("claymores", plot_claymore)):
        for i, label in enumerate(getattr(frago, k)):
            h = _hex(m, label, frago.source, f"{k}[{i}]")
            try:
                plot(state, h, Resolution())
            except RuleViolation as e:
                raise DataError(frago.source, f"{k}[{i}]", e.reason) from None
    return state


def _hex(m, label: str, file: str, where: str) -> Hex:
    try:
        return m.hex(label)
    except DataError as e:
        raise DataError(file, where, e.reason) from None


__all__ = ["FRAGOS", "FRAGO", "Frago", "load_frago", "demo_frago", "setup", "new_unit", "reinforcement_unit"]
