"""Hex maths in axial/cube coordinates, offset labels at the boundary, exact line tracing.

Follows the conventions of Red Blob Games' hex guide. All arithmetic is exact:
line tracing uses :class:`fractions.Fraction`, so a line that runs along a
hexside or through a vertex is *detected*, never nudged away with an epsilon.
Each game's rule then decides what such a tie means.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from math import lcm
from fractions import Fraction
from typing import Iterable, Iterator, NamedTuple

from .errors import DataError
from .copies import immutable

# Axial directions for flat-topped hexes, counter-clockwise from "lower right".
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@immutable
class Hex(NamedTuple):
    """A hex in axial coordinates (q, r); the cube coordinate s is -q-r.

    A named pair, so that hashing and comparing hexes (every map lookup and path search does both) runs in C.
    It hashes and orders as the pair (q, r). Code that tells a hex from other tuples tests ``Hex`` first."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: "Hex") -> "Hex":
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: "Hex") -> "Hex":
        return Hex(self.q - other.q, self.r - other.r)

    def neighbors(self) -> list["Hex"]:
        return [Hex(self.q + dq, self.r + dr) for dq, dr in DIRECTIONS]

    def distance(self, other: "Hex") -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return max(abs(dq), abs(dr), abs(dq + dr))      # |ds| = |dq + dr|

    def is_adjacent(self, other: "Hex") -> bool:
        return self.distance(other) == 1


def distance(a: Hex, b: Hex) -> int:
    return a.distance(b)


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` steps from ``center`` (the centre itself for 0)."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    out = []
    dq, dr = DIRECTIONS[4]
    h = Hex(center.q + dq * radius, center.r + dr * radius)
    for i in range(6):
        for _ in range(radius):
            out.append(h)
            h = Hex(h.q + DIRECTIONS[i][0], h.r + DIRECTIONS[i][1])
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``center``, ring by ring."""
    return [h for k in range(radius + 1) for h in ring(center, k)]


def connected_groups(items: Iterable, hex_of) -> list[list]:
    """Split items into groups linked through shared or adjacent hexes (each item in the hex of, or next to,
    another of its group). Groups come in the order of their first item; items keep their order inside."""
    left = list(items)
    groups: list[list] = []
    while left:
        group = [left.pop(0)]
        grew = True
        while grew:
            grew = False
            for item in list(left):
                h = hex_of(item)
                if any(h == hex_of(g) or h.is_adjacent(hex_of(g)) for g in group):
                    group.append(item)
                    left.remove(item)
                    grew = True
        groups.append(group)
    return groups


def hexside(a: Hex, b: Hex) -> frozenset[Hex]:
    """The key of the hexside between two adjacent hexes."""
    if not a.is_adjacent(b):
        raise ValueError(f"{a} and {b} are not adjacent")
    return frozenset((a, b))


# --------------------------------------------------------------------------- offset labels

@dataclass(frozen=True)
class OffsetLayout:
    """How a printed map numbers its hexes.

    ``parity`` is ``"even-q"`` (even columns shifted down half a hex, as on
    Citadel's maps) or ``"odd-q"``; both are vertical columns of flat-topped
    hexes. ``col_digits``/``row_digits`` and ``separator`` give the label form:
    Citadel's "1316" is 2+2 digits with no separator, FTE's "23.23" uses ".".
    """

    parity: str = "even-q"
    col_digits: int = 2
    row_digits: int = 2
    separator: str = ""

    def __post_init__(self) -> None:
        if self.parity not in ("even-q", "odd-q"):
            raise ValueError(f"unknown offset parity {self.parity!r}")

    @property
    def _pattern(self) -> re.Pattern:
        return _label_pattern(self.col_digits, self.row_digits, self.separator)

    def to_hex(self, col: int, row: int) -> Hex:
        shift = (col + (col & 1)) // 2 if self.parity == "even-q" else (col - (col & 1)) // 2
        return Hex(col, row - shift)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        shift = (h.q + (h.q & 1)) // 2 if self.parity == "even-q" else (h.q - (h.q & 1)) // 2
        return h.q, h.r + shift

    def parse(self, label: str, source: str = "hex label") -> Hex:
        """Turn a printed label into a hex; a malformed label raises :class:`DataError`."""
        m = self._pattern.match(str(label).strip())
        if not m:
            example = "0" * self.col_digits + self.separator + "0" * self.row_digits
            raise DataError(source, repr(label), f"not a hex label of the form {example!r}")
        return self.to_hex(int(m.group(1)), int(m.group(2)))

    def label(self, h: Hex) -> str:
        col, row = self.to_offset(h)
        if col < 0 or row < 0:
            raise ValueError(f"{h} has no printed label (negative offset coordinates)")
        return f"{col:0{self.col_digits}d}{self.separator}{row:0{self.row_digits}d}"


@dataclass(frozen=True)
class SheetedLayout:
    """Several printed sheets joined into one map, each reusing ``base``'s labels.

    ``sheets`` gives each sheet's letter and row offset, north to south, e.g. ``(("N", 0), ("S", 33))``:
    the south sheet's row 01 lies just below the north sheet's row 33. A joined label names its sheet,
    ``"N1316"`` or ``"S0512"``. Columns are shared, so shifting rows keeps the even-q parity. Hex maths
    (``to_hex``, ``to_offset``) uses the joined rows; labels and parsing go through the sheets. A sheet's
    rows run from 01 up to the next sheet's offset (the first sheet may also use row 00).
    """

    base: OffsetLayout
    sheets: tuple[tuple[str, int], ...]

    def __post_init__(self) -> None:
        letters = [s for s, _ in self.sheets]
        offsets = [o for _, o in self.sheets]
        if not self.sheets or len(set(letters)) != len(letters) or offsets != sorted(set(offsets)):
            raise ValueError(f"sheets need distinct letters and increasing row offsets, not {self.sheets!r}")
        if any(not re.fullmatch(r"[A-Z]{1,2}", s) for s in letters):
            raise ValueError(f"a sheet letter is one or two capitals, not {letters!r}")

    # the label form of the printed sheets
    parity = property(lambda self: self.base.parity)
    col_digits = property(lambda self: self.base.col_digits)
    row_digits = property(lambda self: self.base.row_digits)
    separator = property(lambda self: self.base.separator)

    def to_hex(self, col: int, row: int) -> Hex:
        return self.base.to_hex(col, row)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        return self.base.to_offset(h)

    def span(self, letter: str) -> tuple[int, int | None]:
        """The printed rows of a sheet: (first, last), last None for the bottom sheet."""
        i = [s for s, _ in self.sheets].index(letter)
        last = self.sheets[i + 1][1] - self.sheets[i][1] if i + 1 < len(self.sheets) else None
        return (0 if i == 0 else 1), last

    def offset(self, letter: str) -> int:
        return dict(self.sheets)[letter]

    def sheet_hex(self, letter: str, col: int, row: int) -> Hex:
        """The hex printed as (col, row) on sheet ``letter``."""
        return self.base.to_hex(col, row + self.offset(letter))

    def parse(self, label: str, source: str = "hex label") -> Hex:
        """Turn ``"N1316"`` into a hex; a malformed label, an unknown sheet or a row past its sheet raise
        :class:`DataError`."""
        text = str(label).strip()
        m = re.match(r"^([A-Z]{1,2})(.*)$", text)
        letters = "/".join(s for s, _ in self.sheets)
        if not m or not self.base._pattern.match(m.group(2)):
            example = self.sheets[0][0] + "0" * self.col_digits + self.separator + "0" * self.row_digits
            raise DataError(source, repr(label), f"not a hex label of the form {example!r} (sheet {letters}, "
                                                 f"then the printed number)")
        letter, rest = m.groups()
        if letter not in dict(self.sheets):
            raise DataError(source, repr(label), f"names sheet {letter!r}, not one of this map's ({letters})")
        col, row = self.base.to_offset(self.base.parse(rest, source=source))
        first, last = self.span(letter)
        if row < first or (last is not None and row > last):
            digits = self.row_digits
            upto = f"{last:0{digits}d}" if last is not None else "on"
            raise DataError(source, repr(label), f"row {row:0{digits}d} is not on sheet {letter} "
                                                 f"(rows {first:0{digits}d}-{upto})")
        return self.sheet_hex(letter, col, row)

    def split(self, h: Hex) -> tuple[str, int, int]:
        """The sheet letter and printed (col, row) of a hex."""
        col, row = self.base.to_offset(h)
        letter, off = self.sheets[0]
        for s, o in self.sheets[1:]:
            if row - o >= 1:
                letter, off = s, o
        return letter, col, row - off

    def label(self, h: Hex) -> str:
        letter, col, row = self.split(h)
        return letter + self.base.label(self.base.to_hex(col, row))


@lru_cache(maxsize=None)
def _label_pattern(col_digits: int, row_digits: int, separator: str) -> re.Pattern:
    sep = re.escape(separator)
    return re.compile(rf"^(\d{{{col_digits}}}){sep}(\d{{{row_digits}}})$")


# --------------------------------------------------------------------------- exact line tracing

@dataclass(frozen=True)
class LineTrace:
    """What a centre-to-centre line meets, found exactly.

    - ``hexes``: hexes whose interior the line passes through, in order (start and end included);
    - ``crossings``: hexsides crossed cleanly, as (from, to) pairs in order;
    - ``along``: hexsides the line runs along, given by the two hexes flanking each;
    - ``vertices``: passages through a vertex, as (before, after, beside): the line goes from
      ``before`` into ``after`` through the corner they share with ``beside``.
    """

    start: Hex
    end: Hex
    hexes: tuple[Hex, ...]
    crossings: tuple[tuple[Hex, Hex], ...]
    along: tuple[tuple[Hex, Hex], ...]
    vertices: tuple[tuple[Hex, Hex, Hex], ...]

    @property
    def intervening(self) -> tuple[Hex, ...]:
        """Hexes strictly between the two ends whose interior the line enters."""
        return self.hexes[1:-1]

    @property
    def has_tie(self) -> bool:
        return bool(self.along or self.vertices)


def _interval(u0: int, du: int, D: int, strict: bool) -> tuple[int, int] | None:
    """Values of t with |u0 + t*du| <= 1 (or < 1 when strict), as (lo, hi) in units of 1/D; None if empty.

    Infinite bounds are represented by +/-2 since t only matters in [0, 1]. ``du`` divides ``D``.
    """
    if du == 0:
        ok = abs(u0) < 1 if strict else abs(u0) <= 1
        return (-2 * D, 2 * D) if ok else None
    a = (-1 - u0) * D // du
    b = (1 - u0) * D // du
    return (min(a, b), max(a, b))


def trace_line(a: Hex, b: Hex) -> LineTrace:
    """Trace the segment from the centre of ``a`` to the centre of ``b`` exactly.

    A line's trace only depends on ``b - a``: traces are computed once from the origin and moved to ``a``.
    """
    if a == ORIGIN:
        return _origin_trace(b)
    t = _origin_trace(b - a)

    def at(h: Hex) -> Hex:
        return h + a
    return LineTrace(a, b, tuple(at(h) for h in t.hexes), tuple((at(x), at(y)) for x, y in t.crossings),
                     tuple((at(x), at(y)) for x, y in t.along),
                     tuple((at(x), at(y), at(z)) for x, y, z in t.vertices))


ORIGIN = Hex(0, 0)


@lru_cache(maxsize=1 << 15)     # every offset of the largest map (the Dien Bien Phu valley) fits
def _origin_trace(b: Hex) -> LineTrace:
    return _trace(ORIGIN, b)


def _near_line(a: Hex, b: Hex, n: int) -> list[Hex]:
    """Every hex that could touch the segment a-b, in spiral order: those within 2 of the n + 1 samples
    a + (b - a) i / n rounded in axial coordinates. A point of the segment lies within 1/2 (cube distance) of a
    sample, its hex's centre within 2/3 of it, and the rounded sample within 1 of the sample: 2 in all."""
    near: set[Hex] = set()
    for i in range(n + 1):
        g = Hex(a.q + round((b.q - a.q) * i / n), a.r + round((b.r - a.r) * i / n))
        near.update(h for h in spiral(g, 2))
    return sorted(near, key=lambda h: _spiral_index(h - a))


def _spiral_index(d: Hex) -> tuple[int, int]:
    """Where the offset ``d`` comes in ``spiral(ORIGIN, ...)``: its ring, then its place in ``ring``."""
    k = max(abs(d.q), abs(d.r), abs(d.s))
    q, r, s = d.q, d.r, d.s
    if k == 0:
        return 0, 0
    if r == k and q < 0:
        return k, q + k
    if s == -k and 0 <= q < k:
        return k, k + q
    if q == k and r <= 0 and r > -k:
        return k, 2 * k - r
    if r == -k and q > 0:
        return k, 4 * k - q
    if s == k and q <= 0 and q > -k:
        return k, 4 * k - q
    return k, 5 * k + r


def _trace(a: Hex, b: Hex) -> LineTrace:
    n = a.distance(b)
    if n == 0:
        return LineTrace(a, b, (a,), (), (), ())
    cands = [h for h in _near_line(a, b, n) if a.distance(h) + h.distance(b) <= n + 1]
    dq, dr = b.q - a.q, b.r - a.r
    ds = -dq - dr
    # The segment is a + t (b - a), 0 <= t <= 1. Every bound on t is (+-1 - u0) / du with integer u0 and du,
    # so t is measured exactly in integer units of 1/D, D the lcm of the |du|.
    dus = (dq - dr, dr - ds, ds - dq)
    D = lcm(*(abs(x) for x in dus if x)) or 1
    closed: dict[Hex, tuple[int, int]] = {}
    interior: dict[Hex, tuple[int, int]] = {}
    for h in cands:
        # The hex cell in cube coordinates: |dx - dy|, |dy - dz|, |dz - dx| <= 1 relative to the centre.
        oq, orr = a.q - h.q, a.r - h.r
        os_ = -oq - orr
        us = ((oq - orr, dus[0]), (orr - os_, dus[1]), (os_ - oq, dus[2]))
        lo_c, hi_c, lo_o, hi_o = 0, D, 0, D
        open_ok, closed_ok = True, True
        for u0, du in us:
            iv = _interval(u0, du, D, strict=False)
            if iv is None:
                closed_ok = False
                break
            lo_c, hi_c = max(lo_c, iv[0]), min(hi_c, iv[1])
            ivo = _interval(u0, du, D, strict=True)
            if ivo is None:
                open_ok = False
            else:
                lo_o, hi_o = max(lo_o, ivo[0]), min(hi_o, ivo[1])
        if not closed_ok or lo_c > hi_c:
            continue
        closed[h] = (lo_c, hi_c)
        if open_ok and lo_o < hi_o:
            interior[h] = (lo_o, hi_o)
    hexes = tuple(sorted(interior, key=lambda h: interior[h][0]))
    # Hexes met only along an edge: positive length, no interior.
    edge_only = [h for h, (lo, hi) in closed.items() if h not in interior and lo < hi]
    along: list[tuple[Hex, Hex]] = []
    runs: list[tuple[Fraction, Fraction]] = []
    for i, h1 in enumerate(edge_only):
        for h2 in edge_only[i + 1:]:
            if h1.is_adjacent(h2):
                lo = max(closed[h1][0], closed[h2][0])
                hi = min(closed[h1][1], closed[h2][1])
                if lo < hi:
                    along.append((h1, h2))
                    runs.append((lo, hi))
    order = sorted(range(len(along)), key=lambda i: runs[i][0])
    along = [along[i] for i in order]
    run_ends = {t for r in runs for t in r}
    crossings: list[tuple[Hex, Hex]] = []
    vertices: list[tuple[Hex, Hex, Hex]] = []
    for h1, h2 in zip(hexes, hexes[1:]):
        t = interior[h1][1]
        if interior[h2][0] != t or t in run_ends:
            continue
        touching = [h for h, (lo, hi) in closed.items() if lo <= t <= hi]
        if len(touching) == 2:
            crossings.append((h1, h2))
        else:
            beside = [h for h in touching if h not in (h1, h2)]
            vertices.append((h1, h2, beside[0]))
    return LineTrace(a, b, hexes, tuple(crossings), tuple(along), tuple(vertices))


def sampled_line(a: Hex, b: Hex) -> list[Hex] | None:
    """Red Blob's sampled line (N+1 points), or None when a sample sits on a hex boundary."""
    n = a.distance(b)
    out = []
    for i in range(n + 1):
        t = Fraction(i, n) if n else Fraction(0)
        h = _strict_cell(a.q + (b.q - a.q) * t, a.r + (b.r - a.r) * t)
        if h is None:
            return None
        out.append(h)
    return out


def _strict_cell(q: Fraction, r: Fraction) -> Hex | None:
    """The hex whose interior holds the point (q, r), or None if the point is on a boundary."""
    guess = Hex(round(q), round(r))
    for h in [guess, *guess.neighbors()]:
        x, z = q - h.q, r - h.r
        y = -x - z
        if abs(x - y) < 1 and abs(y - z) < 1 and abs(z - x) < 1:
            return h
    return None


def hexes_in(cols: Iterable[int], rows: Iterable[int], layout: OffsetLayout) -> Iterator[Hex]:
    rows = list(rows)
    for c in cols:
        for r in rows:
            yield layout.to_hex(c, r)
