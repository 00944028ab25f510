#!/usr/bin/env python3
"""Make the reconstructed map of Indochina: wargames/indochina/data/maps/indochina.yaml.

The printed map is absent from the rulebook (catalog B3), so this script draws one from real geography at the
game's scale (IC 2.37: a hex is 25 km across). Everything here is our own reconstruction from general
geographic knowledge (coordinates of towns, rivers, borders and coasts, rounded to a few kilometres); nothing
is traced from the printed map.

How it works, in four steps:

1. A grid of flat-topped hexes in even-q columns (the demo map's layout, labels CCRR; the grid code is
   tools/geomap.py, shared with tools/ntnd_map.py) is laid over an equirectangular projection of a sphere (R = 6371 km) with its standard parallel at 16 N: x grows east by
   cos(16 deg) * 111.2 km per degree of longitude, y grows south by 111.2 km per degree of latitude. Hex
   centres are 25 km apart; column 01 lies at 99.5 E, row 01 at 24.2 N.
2. Each hex takes the country and the terrain of the polygon covering its centre (POLYGONS below; the first
   match wins, so the Indochinese countries are drawn carefully and their neighbours loosely around them).
3. Only part of the grid is kept: Vietnam, Laos and Cambodia; China, Thailand and Burma within STRIP hexes
   of them; sea within SEA_RING hexes of any kept land, and the whole Gulf of Tonkin. The open ocean is left
   off.
4. Rivers, roads and trails are polylines (through places and waypoints) turned into chains of adjacent hexes;
   places are put in the hex containing them, with the scenario's spelling as their name.

Run ``python tools/indochina_map.py`` to rewrite the map, or ``--out PATH`` to write it elsewhere. The output
depends only on this file: the same script always writes the same bytes.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from geomap import Dumper, Grid, Label, distance, fill_slivers, inside, land_path, label, line, neighbours, within

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "wargames" / "indochina" / "data" / "maps" / "indochina.yaml"

# ------------------------------------------------------------------------------------------------ the grid
HEX_KM = 25.0                              # IC 2.37: centre to centre
STD_PARALLEL = 16.0
LON0, LAT0 = 99.5, 24.2                    # the centre of hex 0100 (column 1 starts here)
COLS, ROWS = range(1, 54), range(1, 72)
STRIP = 3                                  # hexes of China, Thailand and Burma kept beside Indochina
SEA_RING = 2                               # hexes of sea kept beside land

INDOCHINA = ("Vietnam", "Laos", "Cambodia")


GRID = Grid(HEX_KM, LON0, LAT0, STD_PARALLEL)
centre, hex_at, chain = GRID.centre, GRID.hex_at, GRID.chain


# -------------------------------------------------------------------------------------- shared lines (lon, lat)
# The Mekong, from the China/Burma/Laos corner to the sea by its main (Tien) branch. Where it is the border of
# Laos, the Laos polygon below reuses these very points, so river and border agree.
MEKONG = [(101.16, 21.14), (100.90, 20.95), (100.55, 20.65), (100.30, 20.42), (100.09, 20.36),
          (100.40, 20.27), (100.55, 20.15), (100.80, 20.05), (101.20, 20.05), (101.60, 19.98), (102.14, 19.89),
          (102.05, 19.55), (101.80, 19.15), (101.75, 18.60), (101.55, 18.20), (101.66, 17.90), (102.10, 17.95),
          (102.60, 17.97), (103.00, 18.15), (103.30, 18.35), (103.65, 18.39), (103.95, 18.35), (104.40, 17.95),
          (104.80, 17.40), (104.78, 16.95), (104.75, 16.56), (105.05, 16.15), (105.40, 15.95), (105.50, 15.50),
          (105.55, 15.30), (105.80, 15.12), (105.90, 14.70), (105.90, 14.20), (105.95, 13.95), (105.97, 13.53),
          (106.02, 12.90), (106.02, 12.49), (105.65, 12.10), (105.46, 11.99), (105.10, 11.75), (104.95, 11.58),
          (105.05, 11.35), (105.28, 11.05), (105.25, 10.85), (105.55, 10.55), (105.97, 10.25), (106.36, 10.33),
          (106.75, 10.20)]
LAOS_THAI_BORDER_MEKONG_1 = MEKONG[4:7]      # Golden Triangle to where the border leaves the river
LAOS_THAI_BORDER_MEKONG_2 = MEKONG[15:30]    # Chiang Khan to Khong Chiam
LAOS_BURMA_BORDER = MEKONG[0:5]

# The China border of Vietnam and Laos, west to east (the Laos/China/Vietnam corner is (102.14, 22.40)).
CHINA_BORDER_LAOS = [(101.16, 21.14), (101.70, 21.18), (101.75, 21.60), (101.60, 22.00), (101.80, 22.45),
                     (102.14, 22.40)]
CHINA_BORDER_VIETNAM = [(102.14, 22.40), (102.50, 22.75), (102.90, 22.60), (103.30, 22.78), (103.60, 22.60),
                        (103.97, 22.52), (104.35, 22.78), (104.80, 22.92), (105.05, 23.00), (105.35, 23.38),
                        (105.80, 23.05), (106.15, 22.95), (106.50, 22.90), (106.75, 22.85), (106.70, 22.55),
                        (106.60, 22.35), (106.70, 22.10), (106.73, 21.98), (106.95, 21.90), (107.35, 21.65),
                        (107.70, 21.62), (107.98, 21.53)]
# Vietnam's coast, north to south, then round Ca Mau to Ha Tien.
VIETNAM_COAST = [(107.98, 21.53), (107.70, 21.35), (107.40, 21.25), (107.30, 21.05), (107.08, 20.93),
                 (106.85, 20.80), (106.78, 20.68), (106.62, 20.45), (106.58, 20.25), (106.30, 20.10),
                 (106.05, 19.95), (105.90, 19.75), (105.80, 19.35), (105.72, 18.80), (105.95, 18.40),
                 (106.35, 18.05), (106.62, 17.50), (107.00, 17.10), (107.18, 16.88), (107.65, 16.55),
                 (108.00, 16.30), (108.20, 16.12), (108.32, 16.10), (108.40, 15.88), (108.65, 15.55),
                 (108.82, 15.38), (108.90, 15.10), (109.08, 14.65), (109.24, 13.78), (109.25, 13.45),
                 (109.33, 13.08), (109.46, 12.90), (109.35, 12.60), (109.22, 12.25), (109.22, 11.90),
                 (109.02, 11.56), (109.00, 11.35), (108.30, 10.93), (108.10, 10.90), (107.75, 10.65),
                 (107.10, 10.33), (106.95, 10.38), (106.78, 10.35), (106.72, 10.05), (106.55, 9.65),
                 (106.20, 9.48), (105.80, 9.22), (105.40, 8.88), (104.75, 8.58), (104.80, 8.90), (104.85, 9.50),
                 (105.08, 10.00), (104.60, 10.30), (104.45, 10.40)]
VIETNAM_CAMBODIA_BORDER = [(104.45, 10.40), (104.80, 10.55), (105.10, 10.72), (105.25, 10.90),
                           (105.45, 10.95), (105.80, 10.98), (106.15, 11.00), (106.20, 11.15),
                           (105.95, 11.35), (105.85, 11.65), (106.40, 11.95), (106.75, 12.05),
                           (107.20, 12.30), (107.45, 12.45), (107.55, 12.80), (107.50, 13.40),
                           (107.55, 13.80), (107.45, 14.20), (107.55, 14.70)]
VIETNAM_LAOS_BORDER = [(107.55, 14.70), (107.45, 15.20), (107.25, 15.70), (107.05, 16.10), (106.85, 16.35),
                       (106.55, 16.65), (106.30, 17.05), (105.90, 17.45), (105.70, 17.85), (105.15, 18.35),
                       (104.60, 18.80), (103.95, 19.25), (104.30, 19.80), (104.55, 20.05), (104.70, 20.40),
                       (104.40, 20.70), (103.90, 20.85), (103.55, 21.05), (103.20, 21.25), (102.95, 21.35),
                       (102.85, 21.75), (102.60, 22.05), (102.14, 22.40)]
LAOS_THAI_BORDER_INLAND = [(100.55, 20.15), (100.50, 19.60), (100.85, 19.10), (101.20, 18.60), (101.05, 18.10),
                           (101.35, 17.85), (101.66, 17.90)]
LAOS_THAI_BORDER_SOUTH = [(105.55, 15.30), (105.45, 14.90), (105.20, 14.35)]
LAOS_CAMBODIA_BORDER = [(105.20, 14.35), (105.55, 14.15), (105.95, 13.95), (106.30, 14.15), (106.75, 14.45),
                        (107.20, 14.45), (107.55, 14.70)]
CAMBODIA_THAI_BORDER = [(105.20, 14.35), (104.60, 14.40), (103.90, 14.40), (103.20, 14.30), (102.70, 14.10),
                        (102.55, 13.65), (102.40, 13.15), (102.50, 12.70), (102.75, 12.20), (102.92, 11.65)]
CAMBODIA_COAST = [(102.92, 11.65), (103.05, 11.50), (103.15, 11.10), (103.45, 10.90), (103.50, 10.62),
                  (103.82, 10.55), (104.18, 10.52), (104.45, 10.40)]


def rev(pts):
    return list(reversed(pts))


def far_out(pts, dlon, dlat):
    """A line pushed out to sea (for polygon edges that must lie beyond the coast)."""
    return [(x + dlon, y + dlat) for x, y in pts]


# -------------------------------------------------------------------------------------------------- polygons
# Countries, most precise first. Open sea is wherever no country polygon covers a centre.
COUNTRY_POLYGONS = [
    ("Vietnam", CHINA_BORDER_VIETNAM + VIETNAM_COAST + VIETNAM_CAMBODIA_BORDER + VIETNAM_LAOS_BORDER),
    ("Vietnam", [(103.83, 10.45), (104.08, 10.42), (104.05, 10.05), (103.95, 10.00)]),           # Phu Quoc
    ("Vietnam", [(106.55, 8.75), (106.68, 8.75), (106.68, 8.62), (106.55, 8.62)]),               # Poulo Condore
    ("Laos", CHINA_BORDER_LAOS + rev(VIETNAM_LAOS_BORDER) + rev(LAOS_CAMBODIA_BORDER)
     + rev(LAOS_THAI_BORDER_SOUTH) + rev(LAOS_THAI_BORDER_MEKONG_2) + rev(LAOS_THAI_BORDER_INLAND)
     + rev(LAOS_THAI_BORDER_MEKONG_1[1:]) + rev(LAOS_BURMA_BORDER[1:])),
    ("Cambodia", rev(VIETNAM_CAMBODIA_BORDER) + rev(LAOS_CAMBODIA_BORDER) + CAMBODIA_THAI_BORDER
     + CAMBODIA_COAST),
    ("Cambodia", [(103.15, 11.20), (103.30, 11.20), (103.30, 11.00), (103.15, 11.00)]),            # Koh Kong island
    # neighbours, drawn loosely: they may overlap Indochina (which comes first) but not the sea
    ("China", [(96.0, 27.0), (112.0, 27.0), (112.0, 21.45), (109.60, 21.45), (109.10, 21.50), (108.60, 21.75),
               (108.35, 21.62), (107.98, 21.53), (107.0, 21.6), (104.0, 21.6), (101.75, 21.5), (101.16, 21.14),
               (100.60, 21.45), (100.20, 21.50), (99.50, 22.10), (96.0, 22.10)]),
    ("China", [(108.62, 19.15), (108.70, 18.50), (109.50, 18.20), (110.50, 18.70), (111.00, 19.60),
               (110.60, 20.15), (110.00, 20.05), (109.60, 20.00), (109.20, 19.75)]),                # Hainan
    ("Thailand", [(96.0, 20.40), (100.09, 20.36), (100.55, 20.15), (101.6, 18.9), (102.6, 18.3), (103.8, 18.5),
                  (105.0, 17.2), (105.2, 16.0), (105.8, 15.0), (105.8, 14.2), (104.0, 13.8), (103.5, 12.8),
                  (103.3, 11.8), (102.92, 11.62), (102.75, 12.00), (102.45, 12.20), (102.10, 12.45),
                  (101.30, 12.65), (100.90, 13.00), (100.90, 13.50), (96.0, 13.50)]),
    ("Burma", [(96.0, 22.10), (99.50, 22.10), (100.20, 21.50), (100.60, 21.45), (101.16, 21.14),
               (100.80, 20.80), (100.09, 20.36), (96.0, 20.40)]),
]

# The Gulf of Tonkin: every sea hex in it is kept (amphibious and port play round Haiphong).
GULF_OF_TONKIN = [(105.5, 22.0), (109.6, 22.0), (109.6, 20.05), (109.2, 19.75), (108.62, 19.15), (108.6, 18.0),
                  (107.2, 16.8), (105.5, 16.8)]

# Terrain, first match wins (land hexes only; water is the country polygons' business). Each region is named;
# the plains in the hills come before the hills.
TERRAIN_REGIONS = [
    ("all_lake", "Tonle Sap", [(103.60, 13.15), (103.90, 13.20), (104.30, 12.90), (104.55, 12.55),
                               (104.40, 12.45), (104.10, 12.70), (103.70, 12.90)]),
    ("cultivated", "Muong Thanh valley (Dien Bien Phu)", [(102.97, 21.50), (103.07, 21.50), (103.07, 21.28),
                                                          (102.97, 21.28)]),
    ("swamp", "Plain of Reeds", [(105.45, 10.95), (106.10, 10.95), (106.30, 10.65), (105.90, 10.45),
                                 (105.50, 10.62)]),
    ("swamp", "U Minh and Ca Mau forests", [(104.70, 8.50), (105.30, 8.75), (105.25, 9.55), (104.98, 9.78),
                                            (104.75, 9.30)]),
    ("swamp", "Rung Sat mangroves", [(106.75, 10.62), (107.02, 10.55), (107.02, 10.36), (106.75, 10.36)]),
    ("swamp", "Red River Delta coastal marsh", [(106.05, 19.92), (106.62, 20.25), (106.62, 20.45),
                                                (106.35, 20.30), (106.05, 20.05)]),
    ("cultivated", "Red River Delta", [(105.35, 21.33), (105.90, 21.45), (106.40, 21.22), (106.80, 20.95),
                                       (106.80, 20.65), (106.55, 20.25), (106.10, 19.90), (105.85, 20.00),
                                       (105.75, 20.30), (105.50, 20.62), (105.30, 21.00)]),
    ("cultivated", "Thanh Hoa plain", [(105.50, 20.05), (106.00, 20.00), (105.95, 19.55), (105.55, 19.60)]),
    ("cultivated", "Nghe An plain", [(105.40, 19.15), (105.85, 19.15), (105.95, 18.50), (105.50, 18.55)]),
    ("cultivated", "Mekong Delta rice lands", [(104.40, 10.45), (105.10, 10.80), (105.60, 11.00),
                                               (106.30, 11.15), (106.95, 11.05), (107.30, 10.55), (107.0, 9.8),
                                               (105.9, 8.9), (104.6, 8.4)]),
    ("clear", "Plain of Jars", [(102.9, 19.7), (103.5, 19.7), (103.5, 19.2), (102.9, 19.2)]),
    ("clear", "Vientiane plain", [(102.2, 18.3), (102.2, 17.8), (103.0, 17.8), (103.8, 18.2), (103.8, 18.5),
                                  (102.9, 18.4)]),
    ("clear", "middle Mekong lowlands", [(104.55, 17.75), (105.0, 17.5), (105.3, 16.5), (105.8, 15.6),
                                         (106.0, 15.0), (105.95, 14.4), (105.5, 14.5), (105.5, 15.3),
                                         (104.65, 16.3), (104.55, 17.2)]),
    ("mountain", "Tonkin highlands", [(101.8, 22.7), (105.4, 23.6), (106.9, 23.0), (106.30, 22.20),
                                      (105.60, 21.90), (105.30, 21.40), (105.10, 20.80), (104.80, 20.30),
                                      (104.20, 20.30), (103.00, 21.00), (102.00, 21.70)]),
    ("mountain", "northern Laos", [(99.5, 22.6), (102.2, 22.6), (104.8, 20.3), (103.9, 18.6), (102.6, 18.5),
                                   (101.0, 18.0), (99.5, 19.0)]),
    ("mountain", "Annamite Cordillera", [(103.8, 20.6), (104.2, 19.6), (104.6, 18.9), (105.0, 18.3),
                                         (105.6, 17.6), (106.0, 17.0), (106.4, 16.4), (106.7, 15.9),
                                         (107.0, 15.3), (107.3, 14.9), (107.6, 14.7), (108.3, 14.9),
                                         (108.15, 15.5), (107.95, 15.85), (108.15, 16.2), (107.45, 16.3),
                                         (107.0, 16.75), (106.6, 17.2), (106.3, 17.6), (106.0, 18.0),
                                         (105.6, 18.4), (105.3, 18.9), (105.1, 19.3), (104.9, 19.9),
                                         (104.7, 20.4)]),
    ("mountain", "southern Annam massifs (Chu Yang Sin, Lang Biang)",
     [(107.7, 11.6), (108.1, 12.35), (108.6, 12.8), (109.1, 13.0), (109.15, 12.6), (108.9, 12.3),
      (108.85, 11.75), (108.4, 11.3), (107.9, 11.4)]),
    ("mountain", "Cardamom and Elephant mountains", [(102.7, 12.6), (103.2, 12.45), (103.9, 12.1),
                                                     (104.2, 11.5), (103.8, 10.9), (103.3, 11.0),
                                                     (102.95, 11.6), (102.6, 12.2)]),
    ("mountain", "Guangxi and Yunnan hills", [(96.0, 27.0), (112.0, 27.0), (112.0, 21.45), (96.0, 21.45)]),
    ("mountain", "Shan hills", [(96.0, 22.2), (100.2, 22.2), (100.2, 20.3), (96.0, 20.3)]),
    ("jungle", "Viet Bac hill forest", [(105.3, 21.3), (106.5, 21.2), (107.6, 21.4), (107.0, 22.3),
                                        (106.3, 22.2), (105.5, 22.0)]),
    ("jungle", "eastern Cambodia forests", [(105.95, 14.4), (107.6, 14.7), (107.6, 12.0), (106.4, 11.9),
                                            (105.9, 12.3)]),
    ("jungle", "northern Cambodia forests", [(104.3, 14.4), (105.95, 14.4), (105.95, 13.4), (104.3, 13.4)]),
]
# basins smaller than a hex: the town's hex takes the basin's terrain whatever covers the hex centre
BASINS = ("Muong Thanh valley (Dien Bien Phu)", "Plain of Jars")
COUNTRY_DEFAULT_TERRAIN = {"Vietnam": "jungle", "Laos": "jungle", "Cambodia": "clear", "China": "mountain",
                           "Thailand": "clear", "Burma": "mountain"}
# Annam's narrow coastal plain: Vietnamese coastal hexes between these latitudes are cultivated unless a
# mountain region reaches the sea there (Hai Van, Ca pass).
ANNAM_PLAIN = (11.2, 20.0)

# ---------------------------------------------------------------------------------------------------- places
# name (the scenarios' spelling where they name it), lon, lat, kind, militia, country, note
# militia scale (17.0, reconstructed): 3 capitals and great ports, 2 provincial capitals and big towns,
# 1 small towns. kind: city, town, or place (a named hex that is not a town).
PLACES = [
    # Tonkin
    ("Hanoi", 105.85, 21.03, "city", 3, "Vietnam"), ("Haiphong", 106.68, 20.86, "city", 3, "Vietnam"),
    ("Nam Dinh", 106.17, 20.42, "town", 2, "Vietnam"), ("Thai Binh", 106.34, 20.45, "town", 2, "Vietnam"),
    ("Hai Duong", 106.33, 20.94, "town", 2, "Vietnam"), ("Bac Ninh", 106.07, 21.19, "town", 2, "Vietnam"),
    ("Phu Ly", 105.92, 20.54, "town", 1, "Vietnam"), ("Ninh Binh", 105.97, 20.25, "town", 2, "Vietnam"),
    ("Son Tay", 105.50, 21.14, "town", 1, "Vietnam"), ("Viet Tri", 105.43, 21.32, "town", 1, "Vietnam"),
    ("Thai Nguyen", 105.84, 21.59, "town", 2, "Vietnam"), ("Tuyen Quang", 105.21, 21.82, "town", 2, "Vietnam"),
    ("Yen Bai", 104.87, 21.72, "town", 2, "Vietnam"), ("Lao Cay", 103.97, 22.49, "town", 2, "Vietnam"),
    ("Hai Giang", 104.98, 22.82, "town", 2, "Vietnam"), ("Cao Bang", 106.26, 22.67, "town", 2, "Vietnam"),
    ("Bac Kan", 105.83, 22.15, "town", 1, "Vietnam"), ("Dong Khe", 106.43, 22.43, "town", 1, "Vietnam"),
    ("That Khe", 106.47, 22.25, "town", 1, "Vietnam"), ("Lang Son", 106.76, 21.85, "town", 2, "Vietnam"),
    ("Mon Cai", 107.97, 21.53, "town", 1, "Vietnam"), ("Tien Yen", 107.40, 21.33, "town", 1, "Vietnam"),
    ("Hon Gai", 107.08, 20.95, "town", 1, "Vietnam"), ("Hoa Binh", 105.34, 20.81, "town", 2, "Vietnam"),
    ("Moc Chau", 104.63, 20.85, "town", 1, "Vietnam"), ("Son La", 103.91, 21.33, "town", 2, "Vietnam"),
    ("Na Sanh", 104.02, 21.22, "place", 0, "Vietnam"), ("Tuan Giao", 103.42, 21.58, "town", 1, "Vietnam"),
    ("Lai Chau", 103.16, 22.05, "town", 1, "Vietnam"), ("Dien Bien Phu", 103.02, 21.39, "town", 1, "Vietnam"),
    # Annam
    ("Than Hoa", 105.78, 19.81, "town", 2, "Vietnam"), ("Vinh", 105.69, 18.67, "town", 2, "Vietnam"),
    ("Ha Tinh", 105.90, 18.34, "town", 1, "Vietnam"), ("Dong Hai", 106.62, 17.47, "town", 1, "Vietnam"),
    ("Quang Tri", 107.19, 16.75, "town", 1, "Vietnam"), ("Khe Sanh", 106.73, 16.63, "town", 1, "Vietnam"),
    ("Hue", 107.58, 16.46, "city", 3, "Vietnam"), ("Tourane", 108.22, 16.07, "city", 3, "Vietnam"),
    ("Hoi An", 108.33, 15.88, "town", 1, "Vietnam"), ("Tam Ky", 108.47, 15.57, "town", 1, "Vietnam"),
    ("Quang Nai", 108.80, 15.12, "town", 2, "Vietnam"), ("Qui Nhon", 109.22, 13.77, "town", 2, "Vietnam"),
    ("Tuy Hoa", 109.30, 13.09, "town", 1, "Vietnam"), ("Nha Trang", 109.19, 12.24, "town", 2, "Vietnam"),
    ("Cam Ranh", 109.15, 11.92, "place", 0, "Vietnam"), ("Phan Rang", 108.99, 11.57, "town", 1, "Vietnam"),
    ("Phan Thiet", 108.10, 10.93, "town", 2, "Vietnam"), ("Da Lat", 108.44, 11.94, "town", 2, "Vietnam"),
    ("Kontum", 108.00, 14.35, "town", 1, "Vietnam"), ("Pleiku", 108.00, 13.98, "town", 2, "Vietnam"),
    ("An Khe", 108.65, 13.96, "town", 1, "Vietnam"), ("Ban Me Thuot", 108.04, 12.67, "town", 2, "Vietnam"),
    ("Bao Loc", 107.80, 11.55, "town", 1, "Vietnam"),
    # Cochinchina
    ("Saigon", 106.70, 10.78, "city", 3, "Vietnam"), ("Bien Hoa", 106.82, 10.95, "town", 2, "Vietnam"),
    ("Thu Dau Mot", 106.65, 10.98, "town", 1, "Vietnam"), ("Tay Ninh", 106.10, 11.31, "town", 1, "Vietnam"),
    ("Loc Ninh", 106.60, 11.84, "town", 1, "Vietnam"), ("Xuan Loc", 107.24, 10.93, "town", 1, "Vietnam"),
    ("Cap St Jacques", 107.08, 10.35, "town", 2, "Vietnam"), ("Ba Ria", 107.17, 10.50, "town", 1, "Vietnam"),
    ("My Tho", 106.36, 10.36, "town", 2, "Vietnam"), ("Tan An", 106.41, 10.54, "town", 1, "Vietnam"),
    ("Vinh Long", 105.97, 10.25, "town", 2, "Vietnam"), ("Tra Vinh", 106.34, 9.94, "town", 1, "Vietnam"),
    ("Sa Dec", 105.76, 10.29, "town", 1, "Vietnam"), ("Can Tho", 105.78, 10.03, "town", 2, "Vietnam"),
    ("Long Xuyen", 105.43, 10.38, "town", 2, "Vietnam"), ("Chau Doc", 105.12, 10.70, "town", 1, "Vietnam"),
    ("Rach Gia", 105.08, 10.01, "town", 2, "Vietnam"), ("Ha Tien", 104.48, 10.38, "town", 1, "Vietnam"),
    ("Soc Trang", 105.97, 9.60, "town", 1, "Vietnam"), ("Bac Lieu", 105.72, 9.29, "town", 1, "Vietnam"),
    ("Cao Mao", 105.15, 9.18, "town", 1, "Vietnam"),
    # Laos
    ("Vientiane", 102.60, 17.97, "city", 3, "Laos"), ("Luang Prabang", 102.14, 19.89, "city", 3, "Laos"),
    ("Sam Neua", 104.05, 20.42, "town", 1, "Laos"), ("Phong Saly", 102.10, 21.68, "town", 1, "Laos"),
    ("Muong Sai", 101.98, 20.69, "town", 1, "Laos"), ("Nam Tha", 101.40, 20.95, "town", 1, "Laos"),
    ("Houei Sai", 100.45, 20.28, "town", 1, "Laos"), ("Xieng Khouang", 103.36, 19.33, "town", 1, "Laos"),
    ("Sayaboury", 101.75, 19.25, "town", 1, "Laos"), ("Paksane", 103.65, 18.39, "town", 1, "Laos"),
    ("Thakhek", 104.80, 17.40, "town", 1, "Laos"), ("Savannakhet", 104.75, 16.56, "town", 2, "Laos"),
    ("Tchepone", 106.23, 16.69, "town", 1, "Laos"), ("Saravane", 106.42, 15.72, "town", 1, "Laos"),
    ("Pakse", 105.78, 15.12, "town", 2, "Laos"), ("Attopeu", 106.83, 14.81, "town", 1, "Laos"),
    # Cambodia
    ("Phnom Penh", 104.92, 11.56, "city", 3, "Cambodia"), ("Battambang", 103.20, 13.10, "town", 2, "Cambodia"),
    ("Siem Reap", 103.86, 13.36, "town", 2, "Cambodia"), ("Kompong Cham", 105.46, 11.99, "town", 2, "Cambodia"),
    ("Kompong Thom", 104.89, 12.71, "town", 1, "Cambodia"),
    ("Kompong Chhnang", 104.67, 12.25, "town", 1, "Cambodia"), ("Kratie", 106.02, 12.49, "town", 1, "Cambodia"),
    ("Stung Treng", 105.97, 13.53, "town", 1, "Cambodia"), ("Kampot", 104.18, 10.61, "town", 2, "Cambodia"),
    ("Veal Renh", 103.82, 10.70, "place", 0, "Cambodia"), ("Takeo", 104.79, 10.99, "town", 1, "Cambodia"),
    ("Svay Rieng", 105.80, 11.09, "town", 1, "Cambodia"), ("Prey Veng", 105.33, 11.48, "town", 1, "Cambodia"),
    ("Pursat", 103.92, 12.53, "town", 1, "Cambodia"), ("Kompong Speu", 104.52, 11.45, "town", 1, "Cambodia"),
    ("Sisophon", 102.97, 13.59, "town", 1, "Cambodia"),
    # China, beside the border (always Communist, 17.1; militia 1 only so every town has a value)
    ("Dong Xing", 107.97, 21.55, "town", 1, "China"), ("Pingxiang", 106.75, 22.10, "town", 1, "China"),
    ("Longzhou", 106.85, 22.35, "town", 1, "China"), ("Jingxi", 106.42, 23.13, "town", 1, "China"),
    ("Hekou", 103.95, 22.51, "town", 1, "China"), ("Malipo", 104.70, 23.13, "town", 1, "China"),
    ("Mengla", 101.56, 21.48, "town", 1, "China"),
]
CITIES_NOTE = ("cities: the capitals of the five lands of the Union (Hanoi, Hue, Saigon, Phnom Penh, "
               "Vientiane), the royal capital Luang Prabang, and the two great ports Haiphong and Tourane")
# The scenarios' places (IC 38; their files' `name:` spelling).
SCENARIO_PLACES = ("Bac Lieu", "Cao Bang", "Cao Mao", "Dien Bien Phu", "Dong Hai", "Haiphong", "Hai Giang", "Hanoi",
                   "Hoa Binh", "Hue", "Lang Son", "Lao Cay", "Long Xuyen", "Luang Prabang", "Mon Cai", "Na Sanh",
                   "Ninh Binh", "Phnom Penh", "Pleiku", "Quang Nai", "Qui Nhon", "Saigon", "Sam Neua",
                   "Thai Binh", "Than Hoa", "Vientiane", "Vinh")         # alphabetical
BORDER_FORTS = ("Mon Cai", "Lang Son", "Cao Bang", "Hai Giang", "Lao Cay")
# Hexes whose content a rule states; the position is still ours (see the file header).
RULE_NOTES = {
    **{n: "IC 38 scenario 1, FEF f: a town on the Chinese border" for n in BORDER_FORTS},
    "Da Lat": "IC errata (map): Da Lat is a town",
    "Sam Neua": "IC 38 scenario 2: Sam Neua is a town in Laos",
    "Hue": "IC 38 scenarios 1 and 2: Hue divides the north of Vietnam from the south",
    "Haiphong": "IC 23.11(1) note: one of the four printed ports",
    "Cam Ranh": "IC 23.11(1) note: one of the four printed ports",
    "Saigon": "IC 23.11(1) note and 23.11(2): a printed port, reached from the sea by the river hex south of it",
    "Veal Renh": "IC 23.11(1) note: one of the four printed ports",
}
PORTS = ("Haiphong", "Cam Ranh", "Saigon", "Veal Renh")   # IC 23.11(1): the only four printed ports

# ---------------------------------------------------------------------------------------------------- rivers
RIVERS = {
    "Mekong": MEKONG,
    "Bassac": [(104.95, 11.55), (105.12, 11.10), (105.12, 10.70), (105.43, 10.38), (105.78, 10.03),
               (105.97, 9.75), (106.20, 9.50)],
    "Tonle Sap river": [(104.45, 12.45), (104.67, 12.25), (104.92, 11.60)],
    "Red River": [(103.97, 22.50), (104.40, 22.10), (104.87, 21.72), (105.10, 21.50), (105.43, 21.32),
                  (105.50, 21.14), (105.85, 21.03), (106.00, 20.80), (106.17, 20.42), (106.40, 20.30),
                  (106.58, 20.22)],
    "Black River": [(103.16, 22.05), (103.40, 21.75), (103.80, 21.45), (104.20, 21.15), (104.65, 20.95),
                    (105.00, 20.85), (105.34, 20.81), (105.40, 21.00), (105.43, 21.28)],
    "Clear River": [(104.98, 22.82), (105.05, 22.40), (105.21, 21.82), (105.30, 21.55), (105.43, 21.33)],
    "Saigon River": [(106.40, 11.40), (106.65, 10.98), (106.70, 10.78), (106.74, 10.60), (106.78, 10.36)],
}

# ---------------------------------------------------------------------------------------------------- routes
# (name, kind, [place names or (lon, lat) waypoints]); each becomes a chain of adjacent hexes.
SKUN = (105.10, 11.98)             # where the Kompong Thom and Kompong Cham roads part (they share the hexes to it)
ROUTES = [
    ("RC 1", "road", ["Lang Son", "Bac Ninh", "Hanoi", "Phu Ly", "Ninh Binh", "Than Hoa", "Vinh", "Ha Tinh",
                      (106.20, 17.90), "Dong Hai", "Quang Tri", "Hue", "Tourane", "Tam Ky", "Quang Nai",
                      (109.00, 14.40), "Qui Nhon", "Tuy Hoa", "Nha Trang", "Cam Ranh", "Phan Rang",
                      (108.55, 11.20), "Phan Thiet", "Xuan Loc", "Bien Hoa", "Saigon"]),
    ("RC 4", "road", ["Mon Cai", "Tien Yen", (107.10, 21.55), "Lang Son", "That Khe", "Dong Khe", "Cao Bang"]),
    ("RC 3", "road", ["Hanoi", "Thai Nguyen", "Bac Kan", "Cao Bang"]),
    ("RC 2", "road", ["Hanoi", "Viet Tri", "Tuyen Quang", "Hai Giang"]),
    ("RC 5", "road", ["Hanoi", "Hai Duong", "Haiphong"]),
    ("RC 6", "road", ["Hanoi", "Hoa Binh", "Moc Chau", "Son La", "Tuan Giao", "Lai Chau"]),
    ("RC 18", "road", ["Bac Ninh", "Hon Gai", "Tien Yen"]),
    ("RC 9", "road", ["Quang Tri", "Khe Sanh", "Tchepone", "Savannakhet"]),
    ("RC 13", "road", ["Saigon", "Thu Dau Mot", "Loc Ninh", "Kratie", "Stung Treng", "Pakse", (105.40, 15.90),
                       "Savannakhet", "Thakhek", "Paksane", "Vientiane", (102.45, 18.90), (102.45, 19.45),
                       "Luang Prabang"]),
    ("RC 7", "road", ["Vinh", (104.85, 19.05), (104.20, 19.25), "Xieng Khouang", (102.45, 19.45)]),
    ("RC 19", "road", ["Qui Nhon", "An Khe", "Pleiku"]),
    ("RC 14", "road", ["Kontum", "Pleiku", "Ban Me Thuot"]),
    ("RC 21", "road", ["Ban Me Thuot", (108.70, 12.55), "Nha Trang"]),
    ("RC 20", "road", ["Xuan Loc", "Bao Loc", "Da Lat"]),
    ("RC 11", "road", ["Da Lat", "Phan Rang"]),
    ("Phnom Penh - Battambang road", "road", ["Phnom Penh", "Kompong Chhnang", "Pursat",
                                              "Battambang", "Sisophon"]),
    ("Phnom Penh - Siem Reap road", "road", ["Phnom Penh", SKUN, "Kompong Thom", "Siem Reap",
                                             "Sisophon"]),
    ("Phnom Penh - Saigon road", "road", ["Phnom Penh", "Svay Rieng", (106.20, 11.10), "Saigon"]),
    ("Phnom Penh - Kompong Cham road", "road", ["Phnom Penh", SKUN, "Kompong Cham", (105.90, 12.00),
                                                "Loc Ninh"]),
    ("Phnom Penh - Kampot road", "road", ["Phnom Penh", "Takeo", "Kampot"]),
    ("Saigon - Ca Mau road", "road", ["Saigon", "Tan An", "My Tho", "Vinh Long", "Can Tho", "Soc Trang",
                                      "Bac Lieu", "Cao Mao"]),
    ("Can Tho - Chau Doc road", "road", ["Can Tho", "Long Xuyen", "Chau Doc"]),
    ("Long Xuyen - Ha Tien road", "road", ["Long Xuyen", "Rach Gia", "Ha Tien"]),
    ("Saigon - Cap St Jacques road", "road", ["Bien Hoa", "Ba Ria", "Cap St Jacques"]),
    ("Saigon - Tay Ninh road", "road", ["Thu Dau Mot", "Tay Ninh"]),
    # trails
    ("Tuan Giao - Dien Bien Phu trail", "trail", ["Tuan Giao", "Dien Bien Phu"]),
    ("Lai Chau - Dien Bien Phu trail", "trail", ["Lai Chau", "Dien Bien Phu"]),
    ("Dien Bien Phu - Luang Prabang trail", "trail", ["Dien Bien Phu", (102.50, 21.10), (102.45, 20.60),
                                                      "Luang Prabang"]),
    ("Phong Saly trail", "trail", ["Phong Saly", (102.45, 21.10)]),
    ("Lao Cay - Lai Chau trail", "trail", ["Lao Cay", (103.80, 22.35), "Lai Chau"]),
    ("Yen Bai - Lao Cay trail", "trail", ["Yen Bai", (104.40, 22.10), "Lao Cay"]),
    ("Hai Giang - Cao Bang trail", "trail", ["Hai Giang", (105.70, 22.75), "Cao Bang"]),
    ("Na Sanh trail", "trail", ["Son La", "Na Sanh"]),
    ("Sam Neua - Moc Chau trail", "trail", ["Sam Neua", (104.40, 20.60), "Moc Chau"]),
    ("Sam Neua - Than Hoa trail", "trail", ["Sam Neua", (104.45, 20.35), (105.10, 20.10), "Than Hoa"]),
    ("Sam Neua - Xieng Khouang trail", "trail", ["Sam Neua", (103.70, 19.90), "Xieng Khouang"]),
    ("Luang Prabang - Muong Sai - Nam Tha trail", "trail", ["Luang Prabang", "Muong Sai", "Nam Tha",
                                                            "Houei Sai"]),
    ("Sayaboury trail", "trail", ["Luang Prabang", "Sayaboury"]),
    ("RC 8 (Nape pass) trail", "trail", ["Ha Tinh", (105.15, 18.35), "Paksane"]),
    ("RC 12 (Mu Gia pass) trail", "trail", ["Thakhek", (105.75, 17.65), "Dong Hai"]),
    ("Saravane - Tchepone trail", "trail", ["Pakse", "Saravane", "Tchepone"]),
    ("Attopeu - Kontum trail", "trail", ["Saravane", "Attopeu", "Kontum"]),
    ("Stung Treng - Attopeu trail", "trail", ["Stung Treng", "Attopeu"]),
    ("Kratie - Ban Me Thuot trail", "trail", ["Kratie", (107.10, 12.55), "Ban Me Thuot"]),
    ("Kompong Thom - Stung Treng trail", "trail", ["Kompong Thom", (105.30, 13.20), "Stung Treng"]),
    # into China, to the north edge of the map (IC 15.24(2))
    ("Pingxiang - Nanning road", "road", ["Lang Son", "Pingxiang", "Longzhou", (107.10, 23.30)]),
    ("Cao Bang - Jingxi trail", "trail", ["Cao Bang", "Jingxi", (106.45, 23.60)]),
    ("Hai Giang - Malipo trail", "trail", ["Hai Giang", "Malipo", (104.75, 23.60)]),
    ("Hekou - Mengzi road", "road", ["Lao Cay", "Hekou", (103.70, 22.80), (103.45, 23.30)]),
    ("Mon Cai - Dong Xing road", "road", ["Mon Cai", "Dong Xing", (108.05, 21.80), (108.10, 22.40)]),
    ("Mengla - Nam Tha trail", "trail", ["Nam Tha", "Mengla", (101.60, 22.20)]),
    ("Phong Saly - China trail", "trail", ["Phong Saly", (101.95, 22.40), (102.00, 22.90)]),
]


# --------------------------------------------------------------------------------------------------- building
def country_of(pt) -> str:
    for name, poly in COUNTRY_POLYGONS:
        if inside(pt, poly):
            return name
    return "sea"


def region_of(pt, country: str) -> tuple[str, str]:
    for terrain, name, poly in TERRAIN_REGIONS:
        if terrain == "all_lake" and country not in INDOCHINA:
            continue
        if inside(pt, poly):
            return terrain, name
    return COUNTRY_DEFAULT_TERRAIN[country], ""


def build() -> tuple[dict, list[str]]:
    notes: list[str] = []
    cells = {(c, r): centre(c, r) for c in COLS for r in ROWS}
    country = {cr: country_of(pt) for cr, pt in cells.items()}
    fill_slivers(country, cells, {h for h in cells if h[1] == max(ROWS) or h[0] == max(COLS)})
    places = {p[0]: p for p in PLACES}

    # places force their own hex to their own country (a coastal town whose centre falls in the sea, a border
    # town whose centre falls across the line); Chinese towns go to the nearest free Chinese hex
    where: dict[str, tuple[int, int]] = {}
    order = sorted(PLACES, key=lambda p: ({"city": 0, "town": 1, "place": 2}[p[3]], -p[4],
                                          p[0] not in SCENARIO_PLACES and p[0] not in PORTS))
    taken: dict[tuple[int, int], str] = {}
    for name, lon, lat, kind, militia, ctry in order:
        h = hex_at(lon, lat)
        if ctry == "China" and (country[h] != "China" or h in taken):
            cands = sorted((distance(h, k), k) for k, v in country.items() if v == "China" and k not in taken
                           and distance(h, k) <= 2)
            if cands:
                notes.append(f"{name} (China) sits across the river from a Vietnamese town; put in the next "
                             f"Chinese hex {label(cands[0][1])}")
                h = cands[0][1]
        if h in taken and (name in SCENARIO_PLACES or name in PORTS):
            free = [n for n in neighbours(h) if n in cells and n not in taken and country[n] == ctry]
            if free:
                best = min(free, key=lambda n: (GRID.km(centre(*n), (lon, lat)), n))
                notes.append(f"{name} falls in the hex of {taken[h]} ({label(h)}); the scenarios or the port "
                             f"rules need it, so it is put in the next hex towards its real place, {label(best)}")
                h = best
        if h in taken:
            notes.append(f"{name} falls in the hex of {taken[h]} ({label(h)}); only {taken[h]} is shown")
            continue
        if country[h] != ctry:
            notes.append(f"{name}: its hex {label(h)} has its centre in {country[h]}; made {ctry} for the town")
            country[h] = ctry
        taken[h] = name
        where[name] = h

    # IC 38 scenario 1 puts the five fortified towns on the Chinese border: where our border line passes a hex
    # away, the hex north of the town is given to China
    for name in BORDER_FORTS:
        h = where[name]
        if not any(country.get(n) == "China" for n in neighbours(h)):
            north = (h[0], h[1] - 1)
            notes.append(f"{name} ({label(h)}) lies a hex short of our border line; its northern neighbour "
                         f"{label(north)} is made China, as IC 38 scenario 1 puts the town on the border")
            country[north] = "China"

    # which hexes are kept
    indo = {h for h, c in country.items() if c in INDOCHINA}
    near = within(indo, STRIP, cells)
    keep = indo | {h for h in near if country[h] in ("China", "Thailand", "Burma")}
    coastal = within(keep, SEA_RING, cells)
    keep |= {h for h, c in country.items() if c == "sea" and (h in coastal or inside(cells[h], GULF_OF_TONKIN))}
    # every Indochinese hex keeps all six neighbours on the map (no land touches the open edge)
    for h in sorted(indo):
        for n in neighbours(h):
            if n in cells:
                keep.add(n)

    hexes: dict[tuple[int, int], dict] = {}
    for h in sorted(keep):
        c = country[h]
        if c == "sea":
            hexes[h] = {"terrain": "all_sea", "features": set(), "country": "sea"}
        else:
            t, _ = region_of(cells[h], c)
            hexes[h] = {"terrain": t, "features": set(), "country": c}
    # the Annam coastal plain
    for h, info in hexes.items():
        if info["country"] != "Vietnam" or info["terrain"] == "mountain":
            continue
        lat = cells[h][1]
        if ANNAM_PLAIN[0] <= lat <= ANNAM_PLAIN[1] and any(
                n in hexes and hexes[n]["terrain"] == "all_sea" for n in neighbours(h)):
            if info["terrain"] in ("jungle", "clear"):
                info["terrain"] = "cultivated"

    # places
    for name, lon, lat, kind, militia, ctry in PLACES:
        if name not in where:
            continue
        info = hexes[where[name]]
        if info["terrain"] in ("all_sea", "all_lake"):
            t, _ = region_of(cells[where[name]], ctry)
            notes.append(f"{name}: its hex {label(where[name])} was {info['terrain']}; made {t} land for the town")
            info["terrain"] = t if t not in ("all_sea", "all_lake") else COUNTRY_DEFAULT_TERRAIN[ctry]
        t, region = region_of((lon, lat), ctry)     # a town in a basin smaller than a hex: the basin's terrain
        if region in BASINS and t != info["terrain"]:
            notes.append(f"{name}: its hex {label(where[name])} takes the terrain at the town, {t}, "
                         f"not {info['terrain']}")
            info["terrain"] = t
        info["country"] = ctry
        info["name"] = name
        if kind in ("city", "town"):
            info["features"].add(kind)
            info["militia"] = militia
        if name in PORTS:
            info["port"] = name
        if name in RULE_NOTES:
            info["provenance"] = {"kind": "reconstructed",
                                  "source": f"{RULE_NOTES[name]}; its position is placed by latitude and "
                                            f"longitude, as the rest of the map"}

    # rivers
    for rname, pts in RIVERS.items():
        for h in chain(pts):
            if h in hexes and hexes[h]["terrain"] not in ("all_sea", "all_lake"):
                hexes[h]["features"].add("river")
    # routes
    for rname, kind, stops in ROUTES:
        pts = [(centre(*where[s]) if s in where else places[s][1:3]) if isinstance(s, str) else s
               for s in stops]
        hs = chain(pts)
        if any(h in hexes and hexes[h]["terrain"] in ("all_sea", "all_lake") for h in hs):
            stops_h = [hex_at(*p) for p in pts]
            hs = [stops_h[0]]
            for a, b in zip(stops_h, stops_h[1:]):
                seg = line(a, b)
                if any(h in hexes and hexes[h]["terrain"] in ("all_sea", "all_lake") for h in seg):
                    seg = land_path(a, b, lambda h: h in hexes and hexes[h]["terrain"] not in
                                     ("all_sea", "all_lake"))
                hs.extend(seg[1:])
        for i, s in enumerate(stops):
            if isinstance(s, str) and s in where and where[s] not in hs:
                raise SystemExit(f"route {rname} misses {s}")
        for h in hs:
            if h not in hexes:
                break          # the route leaves the map (into China, at the north edge)
            info = hexes[h]
            if info["terrain"] in ("all_sea", "all_lake"):
                print(f"WARNING route {rname} runs into water at {label(h)}", file=sys.stderr)
                continue
            info["features"].add(kind)
            info.setdefault("routes", []).append(rname)
    # coast
    for h, info in hexes.items():
        if info["terrain"] != "all_sea" and any(n in hexes and hexes[n]["terrain"] == "all_sea"
                                                for n in neighbours(h)):
            info["features"].add("coast")
    # Saigon's exit to the sea (23.11(2)): the river hex straight south, named if it is not
    sg = where["Saigon"]
    south = (sg[0], sg[1] + 1)
    if "river" not in hexes[south]["features"]:
        raise SystemExit(f"the hex south of Saigon ({label(south)}) is not a river hex")
    # north edge (15.24(2)): a Chinese hex whose northern neighbour is off the map
    for h, info in hexes.items():
        if info["country"] == "China" and (h[0], h[1] - 1) not in hexes:
            info["north_edge"] = True
    return {label(h): v for h, v in hexes.items()}, notes


FEATURE_ORDER = ("city", "town", "road", "trail", "river", "coast", "fortification")
KEY_ORDER = ("terrain", "features", "country", "name", "militia", "port", "sea_access", "north_edge", "routes",
             "provenance")


def render(hexes: dict, notes: list[str]) -> str:
    counts: dict[str, int] = {}
    for v in hexes.values():
        counts[v["terrain"]] = counts.get(v["terrain"], 0) + 1
    header = f"""\
# The reconstructed map of Indochina. Made by tools/indochina_map.py: edit the script, never this file.
#
# The printed map is absent from the rulebook (catalog B3). This one is drawn from real geography at the game's
# scale, 25 km a hex (IC 2.37): hex centres are placed by latitude and longitude on an equirectangular
# projection of a sphere (R 6371 km) true at 16 N, flat-topped hexes in even-q columns (the demo map's layout),
# labels CCRR; column 01 is at 99.5 E and row 01 at 24.2 N, columns run east and rows south. Each hex takes the
# country and terrain that cover its centre, from the script's polygons, with two exceptions for towns in a
# basin smaller than a hex, whose hex takes the basin's terrain (the hills round them would otherwise make them
# mountain, with mountain stacking, 10.12): Dien Bien Phu (the rice basin of Muong Thanh, cultivated) and
# Xieng Khouang (the Plain of Jars, clear). {len(hexes)} hexes.
#
# Our labels are our own grid: the hex numbers printed in the errata (Da Lat 2409, Angkor Wat 3819, swamp 2147)
# cannot be matched to them. Da Lat is a town, as the errata says; Angkor Wat is not a town and shares the hex
# of Siem Reap; no hex is swamp because of the errata.
#
# Extent: Tonkin, Annam, Cochinchina, Laos and Cambodia whole; China, Thailand and Burma up to {STRIP} hexes
# from them (units never enter Thailand or Burma, 22.4; China's northernmost hex in each column has
# north_edge: true, for the Communist supply source of 15.24(2)); sea within {SEA_RING} hexes of land and the whole
# Gulf of Tonkin (all_sea, country sea). The open ocean and Hainan are left off.
#
# Per hex: terrain (mountain, jungle, swamp, cultivated, clear, all_lake for the Tonle Sap, all_sea);
# features: road and trail (chains of adjacent hexes; two road hexes side by side are joined, 9.71), river
# (rivers run through hexes, 9.74: Mekong, Bassac, Tonle Sap river, Red, Black and Clear Rivers, Saigon River),
# coast (land next to sea), town and city; country; name (the scenarios' spelling where IC 38 names the place:
# Mon Cai, Hai Giang, Lao Cay, Than Hoa, Dong Hai, Quang Nai, Cao Mao, Na Sanh...; "Phnom Penh", which the
# scenario files use, printed "Phnom Phen"); militia; port; routes (the names of the roads and trails through
# the hex).
#
# Militia (17.0): printed on the map, so absent; our scale: 3 in a city, 2 in a provincial capital or big town,
# 1 in a small town (1 also in the Chinese towns, which are always Communist, 17.1). Na Sanh (an airfield camp),
# Cam Ranh and Veal Renh (ports) are named hexes without a town.
# {CITIES_NOTE}.
#
# Ports (23.11(1)): only the four printed ones, Haiphong, Cam Ranh, Saigon and Veal Renh (attribute port).
# Saigon's river exit (23.11(2)) is the river hex straight south of it, so no sea_access is needed. The Far
# Eastern Staging Area and the Air Unit Holding Area are off-map boxes (2.2), not hexes: staging.py and air.py
# keep them, and the ports join the staging area to the map (23.11). Borders follow from the country of each
# hex; the engine needs no border hexsides.
#
# Provenance: the file default is reconstructed. Hexes whose content a rule states (the five border towns of
# scenario 1, Da Lat, Sam Neua, Hue, the four ports) have their own provenance, also reconstructed, whose source
# cites the rule: the rule fixes what the place is, never which hex it is in, and a provenance has one kind.
#
# Terrain count: {", ".join(f"{k} {counts[k]}" for k in sorted(counts))}.
"""
    doc = {
        "name": "Indochina (reconstructed)",
        "sheet": "main",
        "layout": {"parity": "even-q", "col_digits": 2, "row_digits": 2},
        "provenance": {"kind": "reconstructed",
                       "source": "placed by latitude and longitude from general geographic knowledge of "
                                 "1945-54 Indochina (towns, rivers, colonial roads, borders, coasts) at 25 km a "
                                 "hex, IC 2.37; the printed map is absent"},
        "notes": "\n".join(["Places moved, left out, or whose hex was changed for them:"]
                           + [f"- {n}" for n in notes]) if notes else "",
        "hexes": {},
    }
    for lab in sorted(hexes):
        v = hexes[lab]
        out = {}
        for k in KEY_ORDER:
            if k not in v:
                continue
            val = v[k]
            if k == "features":
                if not val:
                    continue
                val = [f for f in FEATURE_ORDER if f in val]
            out[k] = val
        doc["hexes"][Label(lab)] = out
    body = yaml.dump(doc, Dumper=Dumper, sort_keys=False, allow_unicode=False, width=110,
                     default_flow_style=None)
    return header + body


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(OUT), help="where to write the map (default: the shipped file)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    hexes, notes = build()
    text = render(hexes, notes)
    Path(a.out).write_text(text, encoding="utf-8")
    if not a.quiet:
        print(f"wrote {a.out}: {len(hexes)} hexes")
        for n in notes:
            print(" ", n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
