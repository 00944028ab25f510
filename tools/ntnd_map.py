#!/usr/bin/env python3
"""Make the reconstructed map of No Trumpets No Drums: wargames/ntnd/data/maps/indochina.yaml.

The rulebook names places and map features but prints no map (inventory-ntnd.md §4), so this script draws one
from real geography, as tools/indochina_map.py does for Indochina, and with its code and its lines:

1. The grid is tools/geomap.py's: flat-topped hexes in even-q columns (labels CCRR) over an equirectangular
   projection true at 14 N. A hex is 40 km across (our choice: the inventory's proposal of about 20 x 28 hexes
   from the North Vietnamese panhandle to Ca Mau). Column 01 lies at 102.8 E, row 01 at 20.0 N.
2. Country and terrain come from tools/indochina_map.py's polygons (borders, coasts, terrain regions): its
   "Vietnam" is split at the Ben Hai (17.0 N) into North and South Vietnam, its cultivated land is clear, and
   the Tonle Sap becomes all-lake hexsides. South Vietnam is cut into the four corps by the 1965 boundaries
   (CORPS below).
3. Only the hexes the rules play on are kept: North Vietnam south of 20 N, Laos south of the Plain of Jars,
   Cambodia east of 102.8 E, South Vietnam, and sea within SEA_RING hexes of them. Thailand is left off: the map's
   west edge runs along the Mekong. Hanoi, Haiphong, China, the Plain of Jars, Luang Prabang and Vientiane are
   the off-board zones of NT 9.1, written in the map's `zones` with their neighbours and the hexes they border.
4. Places go in the hex containing them; rivers, roads and trails are polylines turned into chains of hexes.

Run ``python tools/ntnd_map.py`` to rewrite the map (``--out PATH`` to write it elsewhere). The output depends
only on this file, geomap.py and indochina_map.py: the same scripts always write the same bytes.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

import indochina_map as ic
from geomap import Dumper, Grid, Label, fill_slivers, inside, label, land_path, neighbours, within

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "wargames" / "ntnd" / "data" / "maps" / "indochina.yaml"

HEX_KM = 40.0
GRID = Grid(HEX_KM, 102.8, 20.0, 14.0)
COLS, ROWS = range(1, 24), range(1, 35)
SEA_RING = 2
BEN_HAI = 17.0            # the North/South Vietnam border (the 1954 demarcation line), as a latitude
LAOS_NORTH = 18.95        # Laos north of this is the off-board Plain of Jars and Vientiane (NT 9.1)

# ------------------------------------------------------------------------------- the corps of South Vietnam
# The 1965 corps tactical zones, as polygons over South Vietnam (first match wins; the rest is IV Corps).
# I: Quang Tri to Quang Ngai; II: Kontum and Binh Dinh to Binh Thuan and Quang Duc; III: Phuoc Long, Binh
# Long and Tay Ninh to Long An and Phuoc Tuy; IV: the delta.
I_II = [(109.60, 14.55), (109.10, 14.55), (108.75, 14.70), (108.40, 14.90), (107.90, 15.25), (107.40, 15.40),
        (105.00, 15.40)]
II_III = [(105.00, 12.10), (106.90, 12.10), (107.30, 11.85), (107.45, 11.45), (107.70, 11.15),
          (107.95, 10.90), (108.00, 10.50), (109.60, 10.50)]
III_IV = [(105.00, 11.00), (106.05, 10.99), (106.20, 10.70), (106.35, 10.50), (106.60, 10.45),
          (106.75, 10.42), (106.90, 10.30), (109.60, 10.30)]
CORPS = [("I", [(105.0, 18.0), (109.6, 18.0)] + I_II),
         ("II", ic.rev(I_II) + ic.rev(II_III)),
         ("III", II_III + ic.rev(III_IV))]

# -------------------------------------------------------------------------------------------------- places
# name (1965 spelling), lon, lat, kind (city = the rules' major city, town, or place: a named hex that is no
# settlement), country. Rule 5.1 names the corps headquarters.
HQ = {"Da Nang": "I", "Nha Trang": "II", "Saigon": "III", "Soc Trang": "IV", "Phnom Penh": "Cambodia"}
PLACES = [
    # North Vietnam (the panhandle)
    ("Thanh Hoa", 105.78, 19.81, "town", "NV"), ("Vinh", 105.69, 18.67, "city", "NV"),
    ("Ha Tinh", 105.90, 18.34, "town", "NV"), ("Dong Hoi", 106.62, 17.47, "town", "NV"),
    ("Mu Gia", 105.78, 17.68, "place", "NV"),
    # I Corps
    ("Quang Tri", 107.19, 16.75, "town", "SVN"), ("Dong Ha", 107.10, 16.82, "town", "SVN"),
    ("Khe Sanh", 106.73, 16.63, "town", "SVN"), ("Lang Vei", 106.65, 16.60, "place", "SVN"),
    ("Hue", 107.58, 16.46, "city", "SVN"), ("A Shau", 107.23, 16.20, "place", "SVN"),
    ("Da Nang", 108.22, 16.07, "city", "SVN"), ("Hoi An", 108.33, 15.88, "town", "SVN"),
    ("Tam Ky", 108.47, 15.57, "town", "SVN"), ("Quang Ngai", 108.80, 15.12, "town", "SVN"),
    ("Chu Lai", 108.65, 15.40, "town", "SVN"),
    # II Corps
    ("Kontum", 108.00, 14.35, "town", "SVN"), ("Dak To", 107.83, 14.66, "town", "SVN"),
    ("Pleiku", 108.00, 13.98, "town", "SVN"), ("An Khe", 108.65, 13.96, "town", "SVN"),
    ("Bong Son", 109.02, 14.42, "town", "SVN"), ("Qui Nhon", 109.22, 13.77, "city", "SVN"),
    ("Tuy Hoa", 109.30, 13.09, "town", "SVN"), ("Cheo Reo", 108.45, 13.40, "town", "SVN"),
    ("Ban Me Thuot", 108.04, 12.67, "town", "SVN"), ("Nha Trang", 109.19, 12.24, "city", "SVN"),
    ("Cam Ranh", 109.15, 11.92, "town", "SVN"), ("Da Lat", 108.44, 11.94, "town", "SVN"),
    ("Phan Rang", 108.99, 11.57, "town", "SVN"), ("Phan Thiet", 108.10, 10.93, "town", "SVN"),
    ("Gia Nghia", 107.69, 12.00, "town", "SVN"), ("Bao Loc", 107.80, 11.55, "town", "SVN"),
    # III Corps
    ("Saigon", 106.70, 10.78, "city", "SVN"), ("Bien Hoa", 106.82, 10.95, "city", "SVN"),
    ("Phu Cuong", 106.65, 10.98, "town", "SVN"), ("Iron Triangle", 106.50, 11.15, "place", "SVN"),
    ("Tay Ninh", 106.10, 11.31, "town", "SVN"), ("An Loc", 106.60, 11.65, "town", "SVN"),
    ("Loc Ninh", 106.60, 11.84, "town", "SVN"), ("Song Be", 106.95, 11.80, "town", "SVN"),
    ("Xuan Loc", 107.24, 10.93, "town", "SVN"), ("Vung Tau", 107.08, 10.35, "town", "SVN"),
    ("Ba Ria", 107.17, 10.50, "town", "SVN"), ("Ham Tan", 107.75, 10.68, "town", "SVN"),
    ("Tan An", 106.41, 10.54, "town", "SVN"), ("Dong Xoai", 106.90, 11.53, "town", "SVN"),
    # IV Corps
    ("My Tho", 106.36, 10.36, "city", "SVN"), ("Can Tho", 105.78, 10.03, "city", "SVN"),
    ("Soc Trang", 105.97, 9.60, "town", "SVN"), ("Vinh Long", 105.97, 10.25, "town", "SVN"),
    ("Ben Tre", 106.38, 10.24, "town", "SVN"), ("Tra Vinh", 106.34, 9.94, "town", "SVN"),
    ("Long Xuyen", 105.43, 10.38, "town", "SVN"), ("Chau Doc", 105.12, 10.70, "town", "SVN"),
    ("Moc Hoa", 105.93, 10.77, "town", "SVN"), ("Rach Gia", 105.08, 10.01, "town", "SVN"),
    ("Ha Tien", 104.48, 10.38, "town", "SVN"), ("Bac Lieu", 105.72, 9.29, "town", "SVN"),
    ("Ca Mau", 105.15, 9.18, "town", "SVN"), ("Go Cong", 106.67, 10.36, "town", "SVN"),
    # Laos (the panhandle)
    ("Paksane", 103.65, 18.39, "town", "Laos"), ("Thakhek", 104.80, 17.40, "town", "Laos"),
    ("Savannakhet", 104.75, 16.56, "town", "Laos"), ("Tchepone", 106.23, 16.69, "town", "Laos"),
    ("Muong Phine", 106.00, 16.52, "town", "Laos"), ("Saravane", 106.42, 15.72, "town", "Laos"),
    ("Pakse", 105.78, 15.12, "town", "Laos"), ("Attopeu", 106.83, 14.81, "town", "Laos"),
    ("Chavane", 106.97, 15.45, "place", "Laos"), ("Lak Sao", 105.20, 18.20, "town", "Laos"),
    # Cambodia
    ("Phnom Penh", 104.92, 11.56, "city", "Cambodia"), ("Battambang", 103.20, 13.10, "town", "Cambodia"),
    ("Siem Reap", 103.86, 13.36, "town", "Cambodia"), ("Kompong Cham", 105.46, 11.99, "town", "Cambodia"),
    ("Kompong Thom", 104.89, 12.71, "town", "Cambodia"), ("Kompong Chhnang", 104.67, 12.25, "town", "Cambodia"),
    ("Kratie", 106.02, 12.49, "town", "Cambodia"), ("Stung Treng", 105.97, 13.53, "town", "Cambodia"),
    ("Kampot", 104.18, 10.61, "town", "Cambodia"), ("Kompong Som", 103.53, 10.63, "town", "Cambodia"),
    ("Takeo", 104.79, 10.99, "town", "Cambodia"), ("Svay Rieng", 105.80, 11.09, "town", "Cambodia"),
    ("Prey Veng", 105.33, 11.48, "town", "Cambodia"), ("Pursat", 103.92, 12.53, "town", "Cambodia"),
    ("Kompong Speu", 104.52, 11.45, "town", "Cambodia"), ("Snuol", 106.42, 12.07, "town", "Cambodia"),
    ("Lomphat", 106.97, 13.50, "town", "Cambodia"), ("Sen Monorom", 107.20, 12.45, "town", "Cambodia"),
    ("Mimot", 106.18, 11.83, "town", "Cambodia"),
]
# places the task's inventory or the design notes name: put in the next free hex when their own is taken
MUST = ("Khe Sanh", "Lang Vei", "A Shau", "Hue", "Quang Tri", "Da Nang", "Kontum", "Pleiku", "Ban Me Thuot",
        "Nha Trang", "Da Lat", "Qui Nhon", "Saigon", "Bien Hoa", "Tay Ninh", "An Loc", "Can Tho", "My Tho",
        "Soc Trang", "Iron Triangle", "Tchepone", "Phnom Penh", "Kampot", "Kompong Som", "Vinh", "Thanh Hoa",
        "Dong Hoi", "Mu Gia", "Paksane", "Qui Nhon", "Quang Ngai")
NOTED = {"Khe Sanh": "named in the design note after NT 12 (the siege of Khe Sanh)",
         "Lang Vei": "named in the design note to NT 28 (the first Communist tank attack)",
         "A Shau": "named in the design note to NT 28.9.8 (base complexes)",
         "Iron Triangle": "named in the design note to NT 28.9.8 (base complexes)"}

# ------------------------------------------------------------------------------------------------ rivers
BASSAC = ic.RIVERS["Bassac"]
MAJOR_RIVERS = {
    "Mekong": ic.MEKONG[ic.MEKONG.index((103.30, 18.35)):],      # from above Paksane to the sea
    "Bassac": BASSAC,
    "Tonle Sap": ic.RIVERS["Tonle Sap river"],
}
MINOR_RIVERS = {
    "Ca": [(104.90, 19.05), (105.30, 18.85), (105.69, 18.67)],
    "Ben Hai": [(106.55, 17.05), (106.85, 17.00), (107.10, 17.02)],
    "Thach Han": [(106.85, 16.45), (107.19, 16.75), (107.25, 16.85)],
    "Perfume": [(107.20, 16.20), (107.45, 16.35), (107.58, 16.46), (107.70, 16.55)],
    "Thu Bon": [(107.75, 15.40), (108.10, 15.75), (108.33, 15.88)],
    "Song Ba": [(108.30, 14.10), (108.45, 13.40), (108.90, 13.15), (109.30, 13.09)],
    "Se San": [(107.83, 14.66), (107.45, 14.10), (106.80, 13.65), (106.00, 13.55)],
    "Srepok": [(108.04, 12.67), (107.55, 12.95), (106.97, 13.45), (106.10, 13.50)],
    "Se Kong": [(106.97, 15.45), (106.83, 14.81), (106.40, 14.20), (105.97, 13.55)],
    "Se Bang Fai": [(105.80, 17.60), (105.30, 17.20), (104.85, 17.05)],
    "Dong Nai": [(108.20, 11.75), (107.40, 11.25), (106.95, 11.05), (106.82, 10.95), (106.78, 10.60)],
    "Saigon": ic.RIVERS["Saigon River"],
    "Vam Co": [(105.93, 10.77), (106.25, 10.65), (106.41, 10.54), (106.70, 10.40)],
}

# ------------------------------------------------------------------------------------------------ routes
# (name, kind, [place names or (lon, lat) waypoints])
ROUTES = [
    ("Route 1", "road", [(105.78, 20.10), "Thanh Hoa", "Vinh", "Ha Tinh", (106.20, 17.90), "Dong Hoi", "Dong Ha",
                         "Quang Tri", "Hue", "Da Nang", "Tam Ky", "Chu Lai", "Quang Ngai", "Bong Son",
                         "Qui Nhon", "Tuy Hoa", "Nha Trang", "Cam Ranh", "Phan Rang", (108.55, 11.20),
                         "Phan Thiet", "Xuan Loc", "Bien Hoa", "Saigon", (106.30, 11.05), "Svay Rieng",
                         "Phnom Penh"]),
    ("Route 4", "road", ["Saigon", "Tan An", "My Tho", "Vinh Long", "Can Tho", "Soc Trang", "Bac Lieu",
                         "Ca Mau"]),
    ("Route 9", "road", ["Dong Ha", "Khe Sanh", "Lang Vei", "Tchepone", "Muong Phine", "Savannakhet"]),
    ("Route 13", "road", ["Saigon", "Phu Cuong", "An Loc", "Loc Ninh", "Snuol", "Kratie", "Stung Treng",
                          "Pakse", (105.40, 15.90), "Savannakhet", "Thakhek", "Paksane", (103.20, 18.30)]),
    ("Route 14", "road", ["Dak To", "Kontum", "Pleiku", "Ban Me Thuot", "Gia Nghia", "Dong Xoai", "Phu Cuong"]),
    ("Route 19", "road", ["Qui Nhon", "An Khe", "Pleiku", (107.65, 13.80)]),
    ("Route 21", "road", ["Ban Me Thuot", (108.70, 12.55), "Nha Trang"]),
    ("Route 20", "road", ["Xuan Loc", "Bao Loc", "Da Lat"]),
    ("Route 11", "road", ["Da Lat", "Phan Rang"]),
    ("Route 7 (Cheo Reo)", "road", ["Pleiku", "Cheo Reo", "Tuy Hoa"]),
    ("Route 15", "road", ["Bien Hoa", "Ba Ria", "Vung Tau"]),
    ("Route 22", "road", [(106.30, 11.05), "Tay Ninh"]),
    ("Route 8 (Laos)", "road", ["Vinh", "Lak Sao", "Paksane"]),
    ("Route 15 (North Vietnam)", "road", ["Ha Tinh", "Mu Gia"]),
    ("Route 5 (Cambodia)", "road", ["Phnom Penh", "Kompong Chhnang", "Pursat", "Battambang"]),
    ("Route 6 (Cambodia)", "road", ["Phnom Penh", (105.10, 11.98), "Kompong Thom", "Siem Reap"]),
    ("Route 7 (Cambodia)", "road", [(105.10, 11.98), "Kompong Cham", "Mimot", "Snuol"]),
    ("Route 4 (Cambodia)", "road", ["Phnom Penh", "Kompong Speu", "Kompong Som"]),
    ("Route 3 (Cambodia)", "road", ["Phnom Penh", "Takeo", "Kampot"]),
    ("Can Tho - Chau Doc road", "road", ["Can Tho", "Long Xuyen", "Chau Doc"]),
    ("Long Xuyen - Ha Tien road", "road", ["Long Xuyen", "Rach Gia", "Ha Tien"]),
    # the Ho Chi Minh Trail: from the passes out of North Vietnam down the Laos panhandle and into Cambodia
    ("Ho Chi Minh Trail", "trail", ["Mu Gia", (105.75, 17.40), (105.85, 17.05), "Tchepone", "Muong Phine",
                                    (106.25, 16.05), "Saravane", "Chavane", "Attopeu", (107.25, 14.70),
                                    (107.50, 14.72)]),
    ("Ho Chi Minh Trail (A Shau)", "trail", ["Tchepone", (106.60, 16.35), "A Shau", "Hue"]),
    ("Ho Chi Minh Trail (Khe Sanh)", "trail", ["Tchepone", (106.55, 16.85), "Khe Sanh"]),
    ("Ho Chi Minh Trail (Saravane)", "trail", ["Saravane", "Pakse"]),
    ("Ho Chi Minh Trail (Attopeu)", "trail", ["Attopeu", "Stung Treng"]),
    ("Ho Chi Minh Trail (Dak To)", "trail", [(107.50, 14.72), "Dak To"]),
    ("Ho Chi Minh Trail (Cambodia)", "trail", [(107.50, 14.72), (107.30, 14.20), "Lomphat", "Sen Monorom",
                                               "Snuol", "Mimot", (106.20, 11.45), "Iron Triangle"]),
    ("Ia Drang trail", "trail", ["Lomphat", (107.55, 13.60), "Pleiku"]),
    ("Quang Duc trail", "trail", ["Sen Monorom", "Gia Nghia"]),
    ("Parrot's Beak trail", "trail", ["Svay Rieng", "Moc Hoa", "Tan An"]),
    ("U Minh trail", "trail", ["Rach Gia", (105.10, 9.55), "Ca Mau"]),
    ("Thakhek trail", "trail", ["Thakhek", (105.40, 17.55), "Mu Gia"]),
]

# ---------------------------------------------------------------------------------------------------- zones
# NT 9.1 names six off-board zones; their neighbours are ours (the inventory's proposal, by real geography).
ZONES = [
    ("China", "China", ("Hanoi", "Luang Prabang")),
    ("Hanoi", "NV", ("China", "Haiphong", "Plain of Jars")),
    ("Haiphong", "NV", ("Hanoi",)),
    ("Plain of Jars", "Laos", ("Hanoi", "Luang Prabang")),
    ("Luang Prabang", "Laos", ("China", "Plain of Jars", "Vientiane")),
    ("Vientiane", "Laos", ("Luang Prabang",)),
]


# ------------------------------------------------------------------------------------------------- building
def country_of(pt) -> str:
    c = ic.country_of(pt)
    if c == "Vietnam":
        return "NV" if pt[1] > BEN_HAI else "SVN"
    return c


def area_of(pt, country: str) -> str | None:
    if country == "SVN":
        for name, poly in CORPS:
            if inside(pt, poly):
                return name
        return "IV"
    return {"NV": "NV", "Laos": "Laos", "Cambodia": "Cambodia"}.get(country)


def terrain_of(pt, country: str) -> str:
    t, _ = ic.region_of(pt, {"NV": "Vietnam", "SVN": "Vietnam"}.get(country, country))
    return {"cultivated": "clear", "all_lake": "swamp"}.get(t, t)


def on_map(pt, country: str) -> bool:
    return (country in ("NV", "SVN", "Cambodia") or (country == "Laos" and pt[1] <= LAOS_NORTH))


def build() -> tuple[dict, list, list, list[str]]:
    notes: list[str] = []
    cells = {(c, r): GRID.centre(c, r) for c in COLS for r in ROWS}
    country = {h: country_of(p) for h, p in cells.items()}
    fill_slivers(country, cells, {h for h in cells if h[1] == max(ROWS) or h[0] == max(COLS)})
    keep = {h for h, p in cells.items() if on_map(p, country[h])}
    # the Mekong is the Laos-Thailand border: its hexes on the Thai side are counted with Laos, so the river
    # runs unbroken from Laos to the sea and the map's west edge follows it
    for h in GRID.chain(MAJOR_RIVERS["Mekong"]):
        if h in cells and country[h] == "Thailand" and cells[h][1] <= LAOS_NORTH:
            notes.append(f"{label(h)}: the Mekong's hex on the Thai bank is counted with Laos")
            country[h] = "Laos"
            keep.add(h)
    land = set(keep)
    sea = {h for h in within(land, SEA_RING, cells) if country[h] == "sea"}
    keep |= sea
    hexes = {}
    for h in sorted(keep):
        p, c = cells[h], country[h]
        if c == "sea":
            hexes[h] = {"terrain": "all_sea", "features": set(), "country": "sea"}
        else:
            hexes[h] = {"terrain": terrain_of(p, c), "features": set(), "country": c, "area": area_of(p, c)}
    # the Annam coastal plain (tools/indochina_map.py's band): coastal Vietnamese lowland is clear
    for h, info in hexes.items():
        if info["country"] in ("NV", "SVN") and info["terrain"] == "jungle" \
                and ic.ANNAM_PLAIN[0] <= cells[h][1] <= ic.ANNAM_PLAIN[1] \
                and any(hexes.get(n, {}).get("terrain") == "all_sea" for n in neighbours(h)):
            info["terrain"] = "clear"

    # places: HQs first, then cities, then the named ones, then the rest
    where: dict[str, tuple[int, int]] = {}
    taken: dict[tuple[int, int], str] = {}
    order = sorted(PLACES, key=lambda p: (p[0] not in HQ, p[3] != "city", p[0] not in MUST))
    for name, lon, lat, kind, ctry in order:
        h = GRID.hex_at(lon, lat)
        if h in taken and name in MUST:
            free = [n for n in neighbours(h) if n in hexes and n not in taken and hexes[n]["terrain"] != "all_sea"
                    and hexes[n]["country"] == ctry]
            if free:
                best = min(free, key=lambda n: (GRID.km(cells[n], (lon, lat)), n))
                notes.append(f"{name} falls in the hex of {taken[h]} ({label(h)}); put in the next hex towards "
                             f"its real place, {label(best)}")
                h = best
        if h in taken:
            notes.append(f"{name} falls in the hex of {taken[h]} ({label(h)}); only {taken[h]} is shown")
            continue
        if h not in hexes:
            raise SystemExit(f"{name} ({lon}, {lat}) falls off the map at {label(h)}")
        info = hexes[h]
        if info["country"] != ctry or info["terrain"] == "all_sea":
            notes.append(f"{name}: its hex {label(h)} has its centre in {info['country']}; made {ctry} land "
                         f"for it")
            t = terrain_of(cells[h], ctry)
            info.update(terrain="jungle" if t == "all_sea" else t, country=ctry,
                        area=area_of((lon, lat), ctry))
        info["name"] = name
        if kind in ("city", "town"):
            info["features"].add(kind)
        if name in HQ:
            info["hq"] = HQ[name]
            info["provenance"] = {"kind": "reconstructed",
                                  "source": f"NT 5.1 names {name} as the {HQ[name]} headquarters; its hex is "
                                            f"placed by latitude and longitude, as the rest of the map"}
        elif name in NOTED:
            info["provenance"] = {"kind": "reconstructed",
                                  "source": f"{NOTED[name]}; its hex is placed by latitude and longitude"}
        taken[h] = name
        where[name] = h

    def chain_on_land(pts):
        hs = GRID.chain(pts)
        if not any(h in hexes and hexes[h]["terrain"] == "all_sea" for h in hs):
            return hs
        stops = [GRID.hex_at(*p) for p in pts]
        out = [stops[0]]
        for a, b in zip(stops, stops[1:]):
            out.extend(land_path(a, b, lambda h: h in hexes and hexes[h]["terrain"] != "all_sea")[1:])
        return out

    # rivers: major ones first; a hex on a major river is not also a minor-river hex
    for kind, rivers in (("major_river", MAJOR_RIVERS), ("minor_river", MINOR_RIVERS)):
        for rname, pts in rivers.items():
            for h in GRID.chain(pts):          # a river ends in the sea: its sea hexes are skipped
                info = hexes.get(h)
                if info is None or info["terrain"] == "all_sea":
                    continue
                if kind == "minor_river" and "major_river" in info["features"]:
                    continue
                info["features"].add(kind)
                info.setdefault("rivers", []).append(rname)
    # routes
    real = {p[0]: p[1:3] for p in PLACES}
    for rname, kind, stops in ROUTES:
        pts = [(cells[where[s]] if s in where else real[s]) if isinstance(s, str) else s for s in stops]
        hs = chain_on_land(pts)
        for s in stops:
            if isinstance(s, str) and s in where and where[s] not in hs:
                raise SystemExit(f"{rname} misses {s}")
        for h in hs:
            if h not in hexes:
                continue           # the route leaves the map (into Vientiane's or Hanoi's zone)
            info = hexes[h]
            info["features"].add(kind)
            if rname not in info.setdefault("routes", []):
                info["routes"].append(rname)
    # coast: land next to an all-sea hex (NT 8.2.3)
    for h, info in hexes.items():
        if info["terrain"] != "all_sea" and any(hexes.get(n, {}).get("terrain") == "all_sea"
                                                for n in neighbours(h)):
            info["features"].add("coastal")

    # hexsides: all-sea between two land hexes whose shared side lies in open water; all-lake across the
    # Tonle Sap (Cambodia only, NT 19.1.2)
    lake = next(poly for t, _, poly in ic.TERRAIN_REGIONS if t == "all_lake")
    sides = []
    for h in sorted(hexes):
        for n in neighbours(h):
            if n not in hexes or n <= h or "all_sea" in (hexes[h]["terrain"], hexes[n]["terrain"]):
                continue
            mid = ((cells[h][0] + cells[n][0]) / 2, (cells[h][1] + cells[n][1]) / 2)
            if hexes[h]["country"] == hexes[n]["country"] == "Cambodia" and inside(mid, lake):
                sides.append((h, n, "all_lake"))
            elif ic.country_of(mid) == "sea" and all("coastal" in hexes[x]["features"] for x in (h, n)):
                sides.append((h, n, "all_sea"))

    zones = build_zones(hexes, cells, country)
    return {label(h): v for h, v in hexes.items()}, sides, zones, notes


def build_zones(hexes: dict, cells: dict, country: dict) -> list[dict]:
    """Which map hexes border each zone: the hexes at the map's edge next to where the zone lies."""
    border: dict[str, set] = {z: set() for z, _, _ in ZONES}
    for h, info in hexes.items():
        for n in neighbours(h):
            if n in hexes:
                continue
            lon, lat = cells[n] if n in cells else GRID.centre(*n)
            if info["country"] == "NV" and lat > max(c[1] for c in cells.values()) - 0.01:
                border["Hanoi"].add(h)                      # the top row of North Vietnam
                if "coastal" in info["features"]:
                    border["Haiphong"].add(h)
            elif info["country"] == "sea" and n not in cells and lat > 19.5:
                border["Haiphong"].add(h)                   # the Gulf of Tonkin, the fleet's way in (8.6.1)
            elif info["country"] == "Laos" and n not in cells and lon < GRID.lon0:
                border["Vientiane"].add(h)                  # Vientiane lies beyond the west edge (4.3.1)
            elif info["country"] == "Laos" and n in cells and lat > LAOS_NORTH and country[n] == "Laos":
                border["Plain of Jars"].add(h)              # the rest of Laos north of the map
    out = []
    for name, ctry, adj in ZONES:
        out.append({
            "name": name, "country": ctry, "adjacent": list(adj),
            "border_hexes": [Label(label(h)) for h in sorted(border[name])],
            **({"hq": "Laos"} if name == "Luang Prabang" else {}),
            **({"sea_access": True} if name == "Haiphong" else {}),
            **({"west_edge": True} if name == "Vientiane" else {}),
        })
    return out


# ------------------------------------------------------------------------------------------------- writing
FEATURE_ORDER = ("city", "town", "road", "trail", "major_river", "minor_river", "coastal")
KEY_ORDER = ("terrain", "features", "country", "area", "name", "hq", "routes", "rivers", "provenance")


def render(hexes: dict, sides: list, zones: list, notes: list[str]) -> str:
    counts: dict[str, int] = {}
    for v in hexes.values():
        counts[v["terrain"]] = counts.get(v["terrain"], 0) + 1
    cols = sorted({int(k[:2]) for k in hexes})
    rows = sorted({int(k[2:]) for k in hexes})
    header = f"""\
# The reconstructed map of Indochina for No Trumpets No Drums. Made by tools/ntnd_map.py: edit the script, never
# this file.
#
# The rulebook prints no map (inventory-ntnd.md section 4). This one is drawn from real geography at 40 km a hex
# (our scale): hex centres placed by latitude and longitude on an equirectangular projection true at 14 N,
# flat-topped hexes in even-q columns, labels CCRR; column 01 at 102.8 E, row 01 at 20.0 N; columns run east,
# rows south. Columns {cols[0]:02d}-{cols[-1]:02d}, rows {rows[0]:02d}-{rows[-1]:02d}; {len(hexes)} hexes.
# Country and terrain are those covering each hex centre in tools/indochina_map.py's polygons; South Vietnam is
# cut into the four corps by their 1965 boundaries; North Vietnam is Vietnam north of 17.0 N.
#
# From the rulebook come only names and kinds: the corps headquarters of NT 5.1 (hex attribute hq), the six
# off-board zones of NT 9.1 (zones, provenance text), and the vocabulary of terrain (clear, jungle, swamp,
# mountain, all_sea), hex features (road, trail, minor_river, major_river, town, city = the rules' major city,
# coastal = land next to an all-sea hex, 8.2.3) and hexside features (all_sea; all_lake, in Cambodia only,
# 19.1.2). Where any of these lies is ours: geometry, terrain, borders, settlements and their class, roads,
# trails, rivers, the zones' neighbours and the hexes they border are all reconstructed.
#
# Zones: each lists its neighbours (adjacent) and the map hexes it borders (border_hexes, 9.1); Haiphong has
# sea_access (the fleet may enter it, 8.6.1) through the Gulf of Tonkin hexes it borders; Vientiane lies on
# the west map edge (west_edge, 4.3.1); Luang Prabang is the Laotian headquarters (hq: Laos, 5.1).
# Thailand is not on the map: west of the Laos panhandle the map ends at the Mekong.
#
# Terrain count: {", ".join(f"{k} {counts[k]}" for k in sorted(counts))}.
"""
    doc = {
        "name": "Indochina (No Trumpets No Drums, reconstructed)",
        "sheet": "main",
        "layout": {"parity": "even-q", "col_digits": 2, "row_digits": 2},
        "provenance": {"kind": "reconstructed",
                       "source": "placed by latitude and longitude from general geographic knowledge of "
                                 "1965-75 Indochina (towns, roads, the Ho Chi Minh Trail, rivers, borders, coasts, "
                                 "the corps boundaries) at 40 km a hex; the printed map is absent"},
        "notes": "\n".join(["Places moved or left out, and hexes changed for them:"] + [f"- {n}" for n in notes]),
        "zones": [{**z, "provenance": {"kind": "text", "source": "NT 9.1 names the zone"},
                   "links_provenance": {"kind": "reconstructed",
                                        "source": "its neighbours and border hexes are ours, by real geography"}}
                  for z in zones],
        "hexes": {},
        "hexsides": [{"between": [Label(label(a)), Label(label(b))], "features": [f]} for a, b, f in sides],
    }
    for lab in sorted(hexes):
        v = hexes[lab]
        out = {}
        for k in KEY_ORDER:
            val = v.get(k)
            if val is None or val == set():
                continue
            if k == "features":
                val = [f for f in FEATURE_ORDER if f in val]
            out[k] = val
        doc["hexes"][Label(lab)] = out
    body = yaml.dump(doc, Dumper=Dumper, sort_keys=False, allow_unicode=False, width=110, default_flow_style=None)
    return header + body


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(OUT), help="where to write the map (default: the shipped file)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    hexes, sides, zones, notes = build()
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(render(hexes, sides, zones, notes), encoding="utf-8")
    if not a.quiet:
        print(f"wrote {a.out}: {len(hexes)} hexes, {len(sides)} hexsides")
        for n in notes:
            print(" ", n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
