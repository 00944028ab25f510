"""Hex grids laid over real geography: the geometry shared by the reconstructed maps of Indochina
(tools/indochina_map.py, 25 km a hex) and No Trumpets No Drums (tools/ntnd_map.py, 40 km a hex).

A :class:`Grid` puts flat-topped hexes in even-q columns (labels CCRR) over an equirectangular projection of a
sphere (R = 6371 km) true at a standard parallel: x grows east by cos(parallel) * 111.2 km per degree of
longitude, y grows south by 111.2 km per degree of latitude. The module functions work on (col, row) pairs
whatever the grid's scale: neighbours, distances, straight lines, point-in-polygon, shortest land paths, and a
YAML dumper that always quotes hex labels. Standard library and PyYAML only.
"""
from __future__ import annotations

import math

import yaml

KM_PER_DEG = 6371.0 * math.pi / 180        # 111.19 km


class Grid:
    """Hex centres ``hex_km`` apart; the centre of column 1, row 1 sits at (lon0, lat0)."""

    def __init__(self, hex_km: float, lon0: float, lat0: float, std_parallel: float):
        self.hex_km, self.lon0, self.lat0, self.std_parallel = hex_km, lon0, lat0, std_parallel
        self.col_km = hex_km * math.sqrt(3) / 2          # flat-topped columns are this far apart
        self.kx = KM_PER_DEG * math.cos(math.radians(std_parallel))

    def centre(self, col: int, row: int) -> tuple[float, float]:
        """(lon, lat) of a hex centre; even columns sit half a hex lower (even-q)."""
        x = (col - 1) * self.col_km
        y = (row - 1) * self.hex_km + (self.hex_km / 2 if col % 2 == 0 else 0.0)
        return (self.lon0 + x / (KM_PER_DEG * math.cos(math.radians(self.std_parallel))), self.lat0 - y / KM_PER_DEG)

    def hex_at(self, lon: float, lat: float) -> tuple[int, int]:
        """The (col, row) whose centre is nearest to a point: the hex containing it."""
        hk, ck = self.hex_km, self.col_km
        x = (lon - self.lon0) * KM_PER_DEG * math.cos(math.radians(self.std_parallel))
        y = (self.lat0 - lat) * KM_PER_DEG
        c0 = round(x / ck) + 1
        best = None
        for c in (c0 - 1, c0, c0 + 1):
            yy = y - (hk / 2 if c % 2 == 0 else 0.0)
            r0 = round(yy / hk) + 1
            for r in (r0 - 1, r0, r0 + 1):
                cx = (c - 1) * ck
                cy = (r - 1) * hk + (hk / 2 if c % 2 == 0 else 0.0)
                d = (cx - x) ** 2 + (cy - y) ** 2
                if best is None or d < best[0] - 1e-9:
                    best = (d, (c, r))
        return best[1]

    def km(self, a, b) -> float:
        """Distance in km on the projection between two (lon, lat) points."""
        return math.hypot((a[0] - b[0]) * self.kx, (a[1] - b[1]) * KM_PER_DEG)

    def chain(self, points) -> list[tuple[int, int]]:
        """Hexes along a polyline of (lon, lat) points, each next to the one before."""
        out: list[tuple[int, int]] = []
        hexes = [self.hex_at(*p) for p in points]
        for a, b in zip(hexes, hexes[1:]):
            seg = line(a, b)
            out.extend(seg if not out else seg[1:])
        if len(hexes) == 1:
            out = hexes
        # a drawn line can double back on itself when waypoints are close; keep the first visit only
        seen, clean = set(), []
        for h in out:
            if h in seen:
                while clean and clean[-1] != h:
                    seen.discard(clean.pop())
                continue
            seen.add(h)
            clean.append(h)
        return clean


def to_cube(cr: tuple[int, int]) -> tuple[int, int, int]:
    c, r = cr
    q = c
    rr = r - (c + (c & 1)) // 2            # even-q, as wargames.core.hexgrid.OffsetLayout
    return q, rr, -q - rr


def from_cube(q: int, r: int) -> tuple[int, int]:
    return q, r + (q + (q & 1)) // 2


def neighbours(cr: tuple[int, int]) -> list[tuple[int, int]]:
    q, r, _ = to_cube(cr)
    return [from_cube(q + dq, r + dr) for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))]


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    (aq, ar, as_), (bq, br, bs) = to_cube(a), to_cube(b)
    return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))


def line(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The hexes from a to b, each next to the one before (cube line drawing, nudged off ties)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    (aq, ar, as_), (bq, br, bs) = to_cube(a), to_cube(b)
    out = []
    for i in range(n + 1):
        t = i / n
        q = aq + (bq - aq) * t + 1e-6
        r = ar + (br - ar) * t + 2e-6
        s = as_ + (bs - as_) * t - 3e-6
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        out.append(from_cube(rq, rr))
    return out


def label(cr: tuple[int, int]) -> str:
    return f"{cr[0]:02d}{cr[1]:02d}"


def inside(pt, poly) -> bool:
    """Whether a (lon, lat) point lies inside a polygon of such points (even-odd rule)."""
    x, y = pt
    res = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xc:
                res = not res
    return res


def land_path(a, b, ok) -> list:
    """A shortest chain of hexes from a to b through hexes where ``ok`` holds (breadth first, neighbours in a
    fixed order, ties towards the straight line)."""
    prev = {a: None}
    edge = [a]
    while edge and b not in prev:
        nxt = []
        for h in edge:
            for n in sorted(neighbours(h), key=lambda n: (distance(n, b), n)):
                if n not in prev and ok(n):
                    prev[n] = h
                    nxt.append(n)
        edge = nxt
    if b not in prev:
        raise SystemExit(f"no land path from {label(a)} to {label(b)}")
    out = [b]
    while prev[out[-1]] is not None:
        out.append(prev[out[-1]])
    return out[::-1]


def within(start: set, n: int, cells) -> set:
    """Grid hexes at most ``n`` steps from ``start`` (start included), among ``cells``."""
    seen, edge = set(start), set(start)
    for _ in range(n):
        edge = {m for h in edge for m in neighbours(h) if m in cells and m not in seen}
        seen |= edge
    return seen


def fill_slivers(country: dict, cells, edge: set) -> None:
    """Sea that the open ocean (the sea hexes of ``edge``) cannot reach is a sliver between two loosely drawn
    borders: give it to the country most of its neighbours have (ties by name)."""
    ocean = {h for h in edge if country[h] == "sea"}
    edge = set(ocean)
    while edge:
        edge = {m for h in edge for m in neighbours(h) if m in cells and m not in ocean and country[m] == "sea"}
        ocean |= edge
    for h in sorted(cells):
        if country[h] == "sea" and h not in ocean:
            near = sorted(country[n] for n in neighbours(h) if n in cells and country[n] != "sea")
            country[h] = max(sorted(set(near)), key=near.count)


class Label(str):
    """A hex label, always written quoted (so no YAML reader takes "0218" for a number)."""


class Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, writing :class:`Label` values quoted."""


Dumper.add_representer(Label, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", str(v), style="'"))
