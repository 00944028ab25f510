#!/usr/bin/env python3
"""Make Citadel's reconstructed valley: wargames/citadel/data/maps/valley.yaml (and its Anne-Marie window).

The rulebook prints no map (catalog C-3.14), so this script lays the valley of Dien Bien Phu out on two sheets of
200-yard hexes (C 3) from what the rules state and from the historical plan of the garrison (March-May 1954;
Bernard Fall, *Hell in a Very Small Place*; Martin Windrow, *The Last Valley*). Positions are our own estimates,
rounded to the hex; nothing is traced from the printed map.

- Two sheets, N and S, 40 columns by 33 rows each, labels XXYY in even-q columns (catalog C-4). The south sheet
  lies directly below the north one: global row = printed row + 33 on S.
- The hand-made Anne-Marie excerpt (anne_marie.yaml, columns 03-20, rows 07-22 of N) is the seed: its hexes keep
  their terrain, zones, roads and provenance. Its airfield moves so the runway's north-west end is N1918
  (C 28.D), its river turns east below row 13 (so the runway lies west of the Nam Yum), and its hill hexsides are
  redrawn as slopes (see HILLS). The excerpt is then rewritten as a window cut from the valley, so the two agree
  hex by hex.
- Hexsides are derived, never typed: the river is the border between the two banks, wire encloses each
  strongpoint, the drainage ditch lines the runway's west side, hill hexsides are the slopes around each hill
  mass, and full-jungle hexsides separate jungle zones (C 13).

Run ``python tools/citadel_valley.py``; the output depends only on this file and the excerpt's hexes.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from wargames.core.hexgrid import Hex, OffsetLayout  # noqa: E402

MAPS = ROOT / "wargames" / "citadel" / "data" / "maps"
LAY = OffsetLayout()
COLS, ROWS = 40, 33                       # each sheet
SOUTH = 33                                # the south sheet's row offset
WINDOW = ((3, 20), (7, 22))               # the Anne-Marie excerpt, north sheet
HIST = ("historical plan of the Dien Bien Phu garrison, March-May 1954 (Fall, Hell in a Very Small Place; "
        "Windrow, The Last Valley), placed by the project at 200 yards a hex")


def lab(c: int, r: int) -> str:
    """Joined label of global (col, row)."""
    return f"N{c:02d}{r:02d}" if r <= SOUTH else f"S{c:02d}{r - SOUTH:02d}"


def g(label: str) -> tuple[int, int]:
    """Global (col, row) of a joined label."""
    c, r = int(label[1:3]), int(label[3:5])
    return (c, r + (SOUTH if label[0] == "S" else 0))


def hx(cr) -> Hex:
    return LAY.to_hex(*cr)


def cr(h: Hex) -> tuple[int, int]:
    return LAY.to_offset(h)


def nbrs(p):
    return [cr(n) for n in hx(p).neighbors() if 1 <= cr(n)[0] <= COLS and 1 <= cr(n)[1] <= 2 * ROWS]


def pixel(p):
    h = hx(p)
    return 1.5 * h.q, math.sqrt(3) * (h.r + h.q / 2)


def line(a, b):
    """Hexes from a to b (global col/row), a nudged lerp: for roads only."""
    ha, hb = hx(a), hx(b)
    n = ha.distance(hb)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0
        q = ha.q + (hb.q - ha.q) * t + 1e-6
        r = ha.r + (hb.r - ha.r) * t + 2e-6
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        p = cr(Hex(rq, rr))
        if not out or out[-1] != p:
            out.append(p)
    return out


def path(*labels):
    pts = [g(x) for x in labels]
    out = [pts[0]]
    for a, b in zip(pts, pts[1:]):
        out += line(a, b)[1:]
    return out


# --------------------------------------------------------------------------- the model

hexes: dict[tuple[int, int], dict] = {}


def put(label, terrain=None, feature=None, prov=None, **attrs):
    h = hexes[g(label)]
    if terrain:
        h["terrain"] = terrain
    if feature:
        h["features"].add(feature)
    if prov:
        h["provenance"] = {"kind": prov[0], "source": prov[1]}
    h.update(attrs)


for c in range(1, COLS + 1):
    for r in range(1, 2 * ROWS + 1):
        hexes[(c, r)] = {"terrain": "clear", "features": set()}


def rect(cols, rows, terrain, zone=None, sheet="N", keep_window=True):
    off = SOUTH if sheet == "S" else 0
    for c in range(cols[0], cols[1] + 1):
        for r in range(rows[0] + off, rows[1] + off + 1):
            if keep_window and in_window((c, r)):
                continue
            h = hexes[(c, r)]
            h["terrain"] = terrain
            if zone:
                h["zone"] = zone


def in_window(p):
    (c0, c1), (r0, r1) = WINDOW
    return c0 <= p[0] <= c1 and r0 <= p[1] <= r1


# -- jungle around the rim (C 8 strategic movement zones; C 13 borders)
rect((1, 2), (1, 13), "full_jungle", "Z1")
rect((1, 9), (1, 6), "full_jungle", "Z1")
rect((10, 14), (1, 2), "full_jungle", "Z1")
rect((1, 2), (14, 22), "full_jungle", "Z2")
rect((1, 4), (23, 33), "full_jungle", "Z3")
rect((1, 4), (1, 16), "full_jungle", "Z3", sheet="S")
rect((1, 4), (17, 33), "full_jungle", "Z4", sheet="S")
rect((5, 25), (31, 33), "full_jungle", "Z4", sheet="S")
rect((23, 40), (1, 3), "full_jungle", "Z5")
rect((35, 40), (4, 33), "full_jungle", "Z6")
rect((35, 40), (1, 20), "full_jungle", "Z6", sheet="S")
rect((31, 40), (27, 33), "full_jungle", "Z7", sheet="S")     # C 13: the isolated south-east patch
rect((33, 40), (22, 25), "partial_jungle", sheet="S")         # keeps the patch apart from the east rim

# -- the excerpt's own hexes (terrain, zones, roads, strongpoints, provenance)
excerpt = yaml.safe_load((MAPS / "anne_marie.yaml").read_text(encoding="utf-8"))
(ec0, ec1), (er0, er1) = WINDOW
for c in range(ec0, ec1 + 1):
    for r in range(er0, er1 + 1):
        hexes[(c, r)] = {"terrain": "clear", "features": set()}
for label, spec in excerpt["hexes"].items():
    p = g("N" + str(label).zfill(4))
    h = {"terrain": spec["terrain"], "features": set(spec.get("features", []))}
    for k in ("zone", "strongpoint", "village", "provenance"):
        if k in spec:
            h[k] = spec[k]
    if h["terrain"] == "airfield":        # the runway is redrawn below (C 28.D)
        h = {"terrain": "clear", "features": h["features"]}
    h["features"] -= {"revetment", "runway_end"}
    hexes[p] = h

# -- partial jungle fringe outside the excerpt window
full = {p for p, h in hexes.items() if h["terrain"] == "full_jungle"}
for p in list(hexes):
    if p not in full and not in_window(p) and any(n in full for n in nbrs(p)):
        hexes[p]["terrain"] = "partial_jungle"

# -- the Nam Yum: the west bank is every hex at or west of column BANK(row) (global rows)
BANK = {}
for r in range(1, 2 * ROWS + 1):
    BANK[r] = (16 if r <= 13 else {14: 17, 15: 18, 16: 19, 17: 20, 18: 21}.get(r, 22 if r <= 22 else 23)
               if r <= 45 else 22)


def west(p):
    return p[0] <= BANK[p[1]]


# -- roads (bridges and fords are road hexes on both sides of a river hexside)
ROADS = {
    "Pavie track, north to Lai Chau": path("N1501", "N1507"),
    "track from the centre north past Anne-Marie": path("N1513", "N1514", "N1622", "N2127", "N2227"),
    "ford of Ban Khe Phai to Gabrielle": path("N1506", "N1606", "N1706", "N1705", "N1804", "N1904"),
    "R.C. 4 to Tuan Giao (C 13: exits the east edge)": path("N2227", "N2327", "N2427", "N2624", "N2720",
                                                            "N2916", "N3115", "N3514", "N4013"),
    "road south to Isabelle and Laos": path("N2227", "N2131", "S2015", "S2022", "S2133"),
    "bridge to Weime": path("S2124", "S2224", "S2324"),
}
for pts in ROADS.values():
    for p in pts:
        hexes[p]["features"].add("road")

# -- east rim zones: R.C. 4 is the border between Z5 (north) and Z6 (south) where it leaves the map (C 13)
rc4 = {p[0]: p[1] for p in ROADS["R.C. 4 to Tuan Giao (C 13: exits the east edge)"] if p[0] >= 35}
for p, h in hexes.items():
    if h.get("zone") in ("Z5", "Z6") and p[1] <= SOUTH and p[0] in rc4:
        h["zone"] = "Z5" if p[1] <= rc4[p[0]] else "Z6"
for c in range(35, 41):                    # north of the road the rim belongs to Z5 all the way up
    for r in range(4, rc4.get(c, 0) + 1):
        hexes[(c, r)]["zone"] = "Z5"

# -- the main airstrip (C 31), runway north-west end N1918 (C 28.D), revetment beside it (C 31)
RUNWAY = ["N1918", "N1919", "N2019", "N2020", "N2121", "N2122"]
for x in RUNWAY:
    put(x, "airfield")
put("N1918", feature="runway_end", prov=("text", "C 28.D: hex 1918 is the end of the runway; the take-off "
                                                   "cone spreads from the airfield's north-west end"))
put("N2220", "airfield", "revetment", prov=("reconstructed", "C 31 revetment hex (fighter-bombers and Crickets "
                                                           "based at Dien Bien Phu); beside the runway's middle, "
                                                           "east side, as the aircraft revetments were"))
# the Isabelle strip (C 31: the southern map's airfield may not be used)
for r in range(18, 23):
    put(f"S18{r:02d}", "airfield", prov=("text", "C 31: an airfield on the southern map, not usable; placed west "
                                                 "of Isabelle as the auxiliary strip was"))

# -- the take-off cone: hexes within 10 of N1918 and within 30 degrees of the runway axis extended north-west
end = g("N1918")
ax, ay = (pixel(end)[0] - pixel(g(RUNWAY[-1]))[0], pixel(end)[1] - pixel(g(RUNWAY[-1]))[1])
for p in hexes:
    d = hx(p).distance(hx(end))
    if 1 <= d <= 10 and p[1] <= SOUTH:
        vx, vy = pixel(p)[0] - pixel(end)[0], pixel(p)[1] - pixel(end)[1]
        cos = (vx * ax + vy * ay) / math.hypot(vx, vy) / math.hypot(ax, ay)
        if cos >= math.cos(math.radians(30)) - 1e-9 and hexes[p]["terrain"] != "airfield":
            hexes[p]["take_off_cone"] = True

# -- hills: Gabrielle, the small hill south of it (excerpt), Beatrice, Dominique and Eliane (the Five Hills)
HILLS = ["N2002", "N2103", "N2104", "N2004", "N1904", "N1903", "N2003", "N2005",
         "N1909", "N1910", "N2009", "N2010",
         "N3112", "N3212", "N3313", "N3114", "N3014", "N3113", "N3213",
         "N2920", "N3020", "N2822", "N2922", "N3117", "N3217", "N2718", "N2818", "N3021",
         "N2924", "N3024", "N2726", "N2826", "N2628", "N2727", "N2827"]
for x in HILLS:
    put(x, "hill")
put("N2726", prov=("text", "C 13 hill example: hill hex"))
put("N2826", prov=("text", "C 13 hill example: hill hex; no hill terrain on its side shared with 2726"))
put("N2625", prov=("example", "C 13 hill example: adjacent to 2726 across a hill hexside (a slope); its own "
                              "terrain is ours"))

# -- swamps: low ground by the river; monsoon swamps flood from April 19 (C 13)
for x in ["N2430", "N2531", "N2532", "S2210", "S2211", "S2312"]:
    put(x, "swamp")
for x in ["N1927", "N1928", "S2105", "S2106", "S2110", "S2111", "S2123", "S2022", "S1923", "S2020", "S2021"]:
    put(x, "monsoon_swamp")

# -- strongpoints (C 14): name -> hexes; wire is added around each below
SP = {
    "G-5": ["N2003"], "G-1": ["N2002", "N2103"], "G-2": ["N2104", "N2004"], "G-3": ["N1904"], "G-4": ["N1903"],
    "B-1": ["N3112", "N3212"], "B-2": ["N3313"], "B-3": ["N3114"], "B-4": ["N3014"],
    "H-7": ["N1716"], "H-6": ["N1818"], "H-5": ["N1821", "N1822"], "H-1": ["N2022", "N2023"],
    "H-2": ["N2025", "N1925"], "H-4": ["N1723", "N1724"], "H-3": ["N1726"], "Francoise": ["N1525"],
    "C-1": ["N2029"], "C-2": ["N2130", "N2131"], "C-3": ["N1931"], "C-4": ["N1829", "N1830"], "C-5": ["N2032"],
    "Armor": ["N2228"], "Juno": ["N2330", "N2331"], None: ["N2224"],
    "D-1": ["N2920", "N3020"], "D-2": ["N2822", "N2922"], "D-3": ["N2524"], "D-4": ["N2421"],
    "D-5": ["N3117", "N3217"], "D-6": ["N2718", "N2818"],
    "E-1": ["N2924", "N3024"], "E-2": ["N2726", "N2826"], "E-3": ["N2430"], "E-4": ["N2628"],
    "I-1": ["S2022"], "I-2": ["S2123", "S2124"], "I-3": ["S2025"], "I-4": ["S1924"], "Weime, I-5": ["S2324"],
}
for name, labels in SP.items():
    for x in labels:
        put(x, feature="strongpoint")
        if name:
            hexes[g(x)]["strongpoint"] = name
for x in SP["Armor"]:
    put(x, feature="armor_bunker")
put("N2224", prov=("text", "C 14.A: hex 2224 (North Map) is an unidentified independent strongpoint"))

# -- villages of the Flak Raid (Sc 2): Vietminh AA west and north-west of the airstrip
for name, x in (("Ban Ong Pet", "N1209"), ("Ban Me", "N1220"), ("Ban Ban", "N1611")):
    put(x, village=name)

# --------------------------------------------------------------------------- hexsides

sides: dict[frozenset, set] = {}


def add(a, b, feat):
    sides.setdefault(frozenset((a, b)), set()).add(feat)


pairs = {frozenset((p, n)) for p in hexes for n in nbrs(p)}
sp_of = {p: h.get("strongpoint", lab(*p)) for p, h in hexes.items() if "strongpoint" in h["features"]}
for k in pairs:
    a, b = sorted(k)
    if west(a) != west(b):
        add(a, b, "river")
    if sp_of.get(a) != sp_of.get(b):
        add(a, b, "barbed_wire")
    if (hexes[a]["terrain"] == "hill") != (hexes[b]["terrain"] == "hill"):
        add(a, b, "hill")
    za, zb = hexes[a].get("zone"), hexes[b].get("zone")
    if za and zb and za != zb:
        add(a, b, "full_jungle")
runway = {g(x) for x in RUNWAY}
for p in runway:                           # the ditch runs along the runway's west side (C 8 exceptions)
    for n in nbrs(p):
        if n[0] < p[0] and n not in runway:
            add(p, n, "drainage_ditch")

SIDE_PROV = {frozenset((g("N2625"), g("N2726"))): ("text", "C 13 hill example: the 2625|2726 hexside is hill "
                                                           "terrain")}


# --------------------------------------------------------------------------- writing

def flow(d: dict) -> str:
    return yaml.safe_dump(d, default_flow_style=True, width=1000, sort_keys=False).strip()


def hex_entry(p, label):
    h = hexes[p]
    out = {"terrain": h["terrain"]}
    if h["features"]:
        out["features"] = sorted(h["features"])
    for k in ("zone", "strongpoint", "village", "take_off_cone", "provenance"):
        if k in h:
            out[k] = h[k]
    return out


def write_valley(path: Path):
    lines = [
        "# Citadel's valley of Dien Bien Phu: both map sheets joined, reconstructed (the rulebook prints no map).",
        "# Written by tools/citadel_valley.py; edit that script, not this file, then run it again.",
        "# Sheets: N (north) and S (south), 40 columns x 33 rows each, 200 yards a hex (C 3), labels XXYY in",
        "# even-q columns (catalog C-4) with the sheet letter in front: N1316 is printed 1316 on the north sheet.",
        "# S row 01 lies directly below N row 33. Columns 03-20, rows 07-22 of N are the Anne-Marie excerpt",
        "# (anne_marie.yaml), hex for hex.",
        "# Fixed by the text: 1316/1414 (AM-1, AM-2) and the C 8 path hexes, the C 13 hill example (2625, 2726,",
        "# 2826), 2224 (independent strongpoint, C 14.A), 1918 (runway end, C 28.D), an unusable airfield on S",
        "# (C 31), the south-east jungle patch and R.C. 4 as a zone border (C 13). Everything else is placed",
        "# from the historical plan of the garrison (Fall; Windrow), rounded to the hex.",
        "# Hexside rules used: river = border of the Nam Yum's banks; wire encloses every strongpoint (C 14.A);",
        "# hill hexsides are slopes (a hill hex beside a lower hex); full-jungle hexsides separate zones (C 13).",
        "name: 'Citadel: the valley of Dien Bien Phu (north and south sheets, reconstructed)'",
        "sheet: valley",
        "layout: {parity: even-q, col_digits: 2, row_digits: 2}",
        "sheets:",
        "  - {letter: N, row_offset: 0}",
        f"  - {{letter: S, row_offset: {SOUTH}}}",
        "provenance:",
        "  kind: reconstructed",
        f"  source: '{HIST}'",
        "fill:",
        f"  - {{sheet: N, cols: [1, {COLS}], rows: [1, {ROWS}], terrain: clear}}",
        f"  - {{sheet: S, cols: [1, {COLS}], rows: [1, {ROWS}], terrain: clear}}",
        "hexes:",
    ]
    for p in sorted(hexes, key=lambda p: (p[1] > SOUTH, p[0], p[1])):
        e = hex_entry(p, lab(*p))
        if e == {"terrain": "clear"}:
            continue
        lines.append(f"  {lab(*p)}: {flow(e)}")
    lines.append("hexsides:")
    for k in sorted(sides, key=lambda k: sorted((q[1] > SOUTH, q) for q in k)):
        a, b = sorted(k, key=lambda q: (q[1] > SOUTH, q))
        e = {"between": [lab(*a), lab(*b)], "features": sorted(sides[k])}
        if k in SIDE_PROV:
            e["provenance"] = {"kind": SIDE_PROV[k][0], "source": SIDE_PROV[k][1]}
        lines.append(f"  - {flow(e)}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_excerpt(path: Path):
    head = [
        "# An excerpt of Citadel's North map around Anne-Marie, as data (the printed map is absent from the text).",
        "# Cut by tools/citadel_valley.py from valley.yaml (north sheet, columns 03-20, rows 07-22) with plain",
        "# labels; edit the script, not this file. Labels are XXYY, even columns shifted down half a hex",
        "# (\"even-q\"; C 8 Movement Example, checked in tests). Facts the Movement Example fixes are tagged",
        "# `example` or `text`: the 17 path hexes are clear, the four battalions leave the jungle, AM-1 (1316) and",
        "# AM-2 (1414) are strongpoints; 1918 is the runway's end (C 28.D). Everything else is reconstructed.",
    ]
    (c0, c1), (r0, r1) = WINDOW
    data = {"name": excerpt["name"], "sheet": "north", "layout": excerpt["layout"],
            "provenance": {"kind": "reconstructed", "source": HIST}, "fill": {"cols": [c0, c1], "rows": [r0, r1], "terrain": "clear"},
            "hexes": {}, "hexsides": []}
    for p in sorted((p for p in hexes if in_window(p)), key=lambda p: (p[0], p[1])):
        e = hex_entry(p, None)
        if e != {"terrain": "clear"}:
            data["hexes"][f"{p[0]:02d}{p[1]:02d}"] = e
    for k in sorted(sides, key=lambda k: sorted(k)):
        if all(in_window(q) for q in k):
            a, b = sorted(k)
            data["hexsides"].append({"between": [f"{a[0]:02d}{a[1]:02d}", f"{b[0]:02d}{b[1]:02d}"],
                                     "features": sorted(sides[k])})
    path.write_text("\n".join(head) + "\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")


if __name__ == "__main__":
    write_valley(MAPS / "valley.yaml")
    write_excerpt(MAPS / "anne_marie.yaml")
    print(f"{len(hexes)} hexes, {len(sides)} hexsides")
