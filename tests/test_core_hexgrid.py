"""Tests for wargames.core.hexgrid: hex maths, offset labels and exact line tracing."""
from __future__ import annotations

import math
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargames.core.errors import DataError
from wargames.core.hexgrid import (
    DIRECTIONS, Hex, LineTrace, OffsetLayout, distance, hexes_in, hexside, ring, sampled_line, spiral,
    trace_line,
)

EVEN_Q = OffsetLayout("even-q")
ODD_Q = OffsetLayout("odd-q")
CITADEL = OffsetLayout("even-q", 2, 2, "")
FTE = OffsetLayout("even-q", 2, 2, ".")
ORIGIN = Hex(0, 0)

coord = st.integers(min_value=-40, max_value=40)
hexes = st.builds(Hex, coord, coord)
small = st.integers(min_value=-8, max_value=8)
near_hexes = st.builds(Hex, small, small)
parities = st.sampled_from(["even-q", "odd-q"])


def rotate60(h: Hex) -> Hex:
    """Rotate a hex 60 degrees about the origin (cube (q, r, s) -> (-r, -s, -q))."""
    return Hex(-h.r, -h.s)


def offset_neighbours(col: int, row: int, parity: str) -> set[tuple[int, int]]:
    """Offset neighbours written out independently of the axial maths (Red Blob's tables).

    In "even-q" the even columns sit half a hex lower, so an even column's side neighbours are in
    rows (row, row + 1); an odd column's are in rows (row - 1, row). "odd-q" is the mirror image.
    """
    low = (col % 2 == 0) == (parity == "even-q")
    side_rows = (row, row + 1) if low else (row - 1, row)
    out = {(col, row - 1), (col, row + 1)}
    for dc in (-1, 1):
        for r in side_rows:
            out.add((col + dc, r))
    return out


# =========================================================================== basic hex maths

def test_hex_arithmetic_and_cube_coordinate():
    h = Hex(3, -5)
    assert h.s == 2
    assert Hex(1, 2) + Hex(3, 4) == Hex(4, 6)
    assert Hex(1, 2) - Hex(3, 4) == Hex(-2, -2)
    assert len(DIRECTIONS) == 6 and len(set(DIRECTIONS)) == 6
    assert all(Hex(dq, dr).distance(ORIGIN) == 1 for dq, dr in DIRECTIONS)


@given(hexes, hexes)
def test_distance_is_symmetric(a, b):
    assert distance(a, b) == distance(b, a) == a.distance(b)


@given(hexes, hexes, hexes)
def test_distance_triangle_inequality(a, b, c):
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, hexes)
def test_distance_zero_iff_equal(a, b):
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) >= 0


@given(hexes, hexes, hexes)
def test_distance_translation_invariant(a, b, t):
    assert distance(a + t, b + t) == distance(a, b)


@given(hexes)
def test_six_distinct_neighbours_at_distance_one(h):
    ns = h.neighbors()
    assert len(ns) == 6 and len(set(ns)) == 6
    assert all(distance(h, n) == 1 and h.is_adjacent(n) and n.is_adjacent(h) for n in ns)
    assert not h.is_adjacent(h)
    # Neighbourhood is symmetric.
    assert all(h in n.neighbors() for n in ns)


@given(hexes, st.integers(min_value=0, max_value=12))
def test_ring_has_6k_hexes_all_at_distance_k(c, k):
    r = ring(c, k)
    assert len(r) == (6 * k if k else 1)
    assert len(set(r)) == len(r)
    assert all(distance(c, h) == k for h in r)
    # A ring walks round: each hex is adjacent to the next, cyclically.
    if k:
        assert all(x.is_adjacent(y) for x, y in zip(r, r[1:] + r[:1]))


@given(hexes, st.integers(min_value=0, max_value=10))
def test_spiral_size_and_content(c, k):
    s = spiral(c, k)
    assert len(s) == 3 * k * (k + 1) + 1
    assert len(set(s)) == len(s)
    assert s[0] == c
    assert all(distance(c, h) <= k for h in s)
    # Ring by ring: distances never decrease.
    ds = [distance(c, h) for h in s]
    assert ds == sorted(ds)


def test_ring_rejects_negative_radius():
    with pytest.raises(ValueError):
        ring(ORIGIN, -1)


def test_distance_matches_breadth_first_search():
    """Distance is the number of steps through neighbours (checked independently by BFS)."""
    radius = 6
    seen = {ORIGIN: 0}
    queue = deque([ORIGIN])
    while queue:
        h = queue.popleft()
        if seen[h] == radius:
            continue
        for n in h.neighbors():
            if n not in seen:
                seen[n] = seen[h] + 1
                queue.append(n)
    assert set(seen) == set(spiral(ORIGIN, radius))
    assert all(distance(ORIGIN, h) == d for h, d in seen.items())


def test_hexside_key():
    a, b = Hex(0, 0), Hex(1, 0)
    assert hexside(a, b) == hexside(b, a) == frozenset({a, b})
    with pytest.raises(ValueError):
        hexside(a, Hex(2, 0))
    with pytest.raises(ValueError):
        hexside(a, a)


# =========================================================================== offset coordinates and labels

@given(parities, coord, coord)
def test_offset_to_axial_round_trip(parity, col, row):
    lay = OffsetLayout(parity)
    assert lay.to_offset(lay.to_hex(col, row)) == (col, row)


@given(parities, hexes)
def test_axial_to_offset_round_trip(parity, h):
    lay = OffsetLayout(parity)
    col, row = lay.to_offset(h)
    assert lay.to_hex(col, row) == h
    assert col == h.q


@given(parities, st.integers(0, 99), st.integers(0, 99))
def test_label_parse_round_trip(parity, col, row):
    lay = OffsetLayout(parity)
    label = f"{col:02d}{row:02d}"
    h = lay.parse(label)
    assert lay.to_offset(h) == (col, row)
    assert lay.label(h) == label
    assert lay.parse(lay.label(h)) == h


@given(st.integers(0, 99), st.integers(0, 99))
def test_fte_label_round_trip(col, row):
    label = f"{col:02d}.{row:02d}"
    h = FTE.parse(label)
    assert FTE.label(h) == label
    assert FTE.to_offset(h) == (col, row)


@given(parities, st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20))
def test_adjacency_agrees_with_offset_neighbour_tables(parity, c1, r1, c2, r2):
    lay = OffsetLayout(parity)
    expected = (c2, r2) in offset_neighbours(c1, r1, parity)
    assert lay.to_hex(c1, r1).is_adjacent(lay.to_hex(c2, r2)) == expected


@given(parities, st.integers(-20, 20), st.integers(-20, 20))
def test_offset_neighbour_table_is_exactly_the_six_axial_neighbours(parity, col, row):
    lay = OffsetLayout(parity)
    axial = {lay.to_offset(n) for n in lay.to_hex(col, row).neighbors()}
    assert axial == offset_neighbours(col, row, parity)


def test_fte_layout_parses_dotted_label():
    h = FTE.parse("23.23")
    assert FTE.to_offset(h) == (23, 23)
    assert FTE.label(h) == "23.23"
    assert h == CITADEL.parse("2323")
    assert FTE.parse(" 23.23 ") == h  # surrounding blanks are tolerated


@pytest.mark.parametrize("layout, label", [
    (CITADEL, "13"),
    (CITADEL, "1a16"),
    (CITADEL, ""),
    (CITADEL, "13.16"),
    (CITADEL, "131"),
    (CITADEL, "13166"),
    (CITADEL, "-1316"),
    (FTE, "1316"),
    (FTE, "13-16"),
    (FTE, "2.23"),
])
def test_malformed_label_raises_data_error_naming_it(layout, label):
    with pytest.raises(DataError) as ei:
        layout.parse(label, source="scenario.yaml")
    err = ei.value
    assert err.file == "scenario.yaml"
    assert repr(label) in err.field
    assert repr(label) in str(err)


def test_label_of_negative_offset_is_refused():
    with pytest.raises(ValueError):
        CITADEL.label(CITADEL.to_hex(-1, 5))
    with pytest.raises(ValueError):
        CITADEL.label(CITADEL.to_hex(5, -1))


def test_unknown_parity_rejected():
    with pytest.raises(ValueError):
        OffsetLayout("even-r")


def test_hexes_in_rectangle():
    got = list(hexes_in(range(1, 4), range(1, 3), CITADEL))
    assert len(got) == 6
    assert [CITADEL.label(h) for h in got] == ["0101", "0102", "0201", "0202", "0301", "0302"]


# =========================================================================== Citadel's layout (C 8)

ANNE_MARIE_ADJACENT = [
    ("1010", "1111"), ("1111", "1112"), ("1011", "1112"), ("1112", "1113"), ("0814", "0915"),
    ("0915", "1015"), ("0519", "0618"), ("0618", "0718"), ("0718", "0817"), ("0817", "0917"),
    ("0917", "1017"), ("1112", "1212"), ("1212", "1313"), ("1313", "1413"), ("1413", "1414"),
    ("2726", "2826"), ("2726", "2625"),
]
NOT_ADJACENT_IN_ODD_Q = {
    ("1010", "1111"), ("1011", "1112"), ("0814", "0915"), ("0519", "0618"), ("0718", "0817"),
    ("1212", "1313"), ("2726", "2625"),
}


@pytest.mark.rule("C 8")
@pytest.mark.parametrize("a, b", ANNE_MARIE_ADJACENT)
def test_anne_marie_steps_are_adjacent_in_even_q(a, b):
    ha, hb = CITADEL.parse(a), CITADEL.parse(b)
    assert ha.is_adjacent(hb)
    assert hb.is_adjacent(ha)
    assert distance(ha, hb) == 1
    assert hexside(ha, hb) == hexside(hb, ha)


@pytest.mark.rule("C 8")
@pytest.mark.parametrize("a, b", ANNE_MARIE_ADJACENT)
def test_odd_q_would_break_seven_anne_marie_steps(a, b):
    """The wrong parity fails exactly the seven steps that move between columns 'upwards'."""
    adjacent = ODD_Q.parse(a).is_adjacent(ODD_Q.parse(b))
    assert adjacent == ((a, b) not in NOT_ADJACENT_IN_ODD_Q)


@pytest.mark.rule("C 8")
def test_exactly_seven_anne_marie_steps_fail_in_odd_q():
    failing = {(a, b) for a, b in ANNE_MARIE_ADJACENT if not ODD_Q.parse(a).is_adjacent(ODD_Q.parse(b))}
    assert failing == NOT_ADJACENT_IN_ODD_Q
    assert len(failing) == 7


@pytest.mark.rule("C 8")
def test_citadel_distances():
    assert distance(CITADEL.parse("1313"), CITADEL.parse("1414")) == 2
    assert distance(CITADEL.parse("1313"), CITADEL.parse("1316")) == 3
    assert distance(CITADEL.parse("1414"), CITADEL.parse("1313")) == 2


@pytest.mark.rule("C 8")
def test_citadel_even_column_sits_lower():
    """In even-q, 1010's lower-right neighbour is 1111 and its upper-right neighbour is 1110."""
    h = CITADEL.parse("1010")
    labels = {CITADEL.label(n) for n in h.neighbors()}
    assert labels == {"1009", "1011", "0910", "0911", "1110", "1111"}
    h = CITADEL.parse("1111")
    labels = {CITADEL.label(n) for n in h.neighbors()}
    assert labels == {"1110", "1112", "1010", "1011", "1210", "1211"}


# =========================================================================== exact line tracing: laws

def check_trace_structure(t: LineTrace) -> None:
    """Structural laws every trace obeys."""
    a, b = t.start, t.end
    assert t.hexes[0] == a and t.hexes[-1] == b
    assert len(set(t.hexes)) == len(t.hexes)
    crossings = set(t.crossings)
    vertex_pairs = {(x, y): z for x, y, z in t.vertices}
    along = [frozenset(p) for p in t.along]
    assert all(len(p) == 2 for p in along)
    used_along = set()
    for h1, h2 in zip(t.hexes, t.hexes[1:]):
        if h1.is_adjacent(h2):
            # A clean crossing or a vertex passage, never both.
            assert ((h1, h2) in crossings) != ((h1, h2) in vertex_pairs)
            if (h1, h2) in vertex_pairs:
                z = vertex_pairs[(h1, h2)]
                assert z.is_adjacent(h1) and z.is_adjacent(h2)
                assert z not in t.hexes
        else:
            # Separated by a run along the hexside between two hexes flanking both.
            assert distance(h1, h2) == 2
            flank = [p for p in along if all(x.is_adjacent(h1) and x.is_adjacent(h2) for x in p)]
            assert len(flank) == 1, (h1, h2, t)
            x, y = tuple(flank[0])
            assert x.is_adjacent(y)
            used_along.add(flank[0])
    assert used_along == set(along)
    assert len(t.crossings) + len(t.vertices) + len(t.along) == len(t.hexes) - 1
    for x, y in t.crossings:
        assert x.is_adjacent(y)
    for x, y in t.along:
        assert x.is_adjacent(y)
        assert x not in t.hexes and y not in t.hexes
    assert t.intervening == t.hexes[1:-1]
    assert t.has_tie == bool(t.along or t.vertices)


@settings(max_examples=120, deadline=None)
@given(near_hexes, near_hexes)
def test_trace_structure(a, b):
    check_trace_structure(trace_line(a, b))


@settings(max_examples=60, deadline=None)
@given(near_hexes, near_hexes)
def test_trace_hexes_lie_on_shortest_paths(a, b):
    """Every hex the line enters is on some shortest path from a to b (within the segment's hull)."""
    t = trace_line(a, b)
    n = distance(a, b)
    assert all(distance(a, h) + distance(h, b) == n for h in t.hexes)
    # Ordered by distance from a, strictly.
    ds = [distance(a, h) for h in t.hexes]
    assert ds == sorted(ds)


@settings(max_examples=80, deadline=None)
@given(near_hexes, near_hexes)
def test_trace_reversed(a, b):
    fwd, back = trace_line(a, b), trace_line(b, a)
    assert back.hexes == fwd.hexes[::-1]
    assert {frozenset(p) for p in back.along} == {frozenset(p) for p in fwd.along}
    assert [frozenset(p) for p in back.along] == [frozenset(p) for p in fwd.along][::-1]
    assert sorted(back.crossings) == sorted((y, x) for x, y in fwd.crossings)
    assert list(back.crossings) == [(y, x) for x, y in fwd.crossings][::-1]
    assert list(back.vertices) == [(y, x, z) for x, y, z in fwd.vertices][::-1]


@settings(max_examples=60, deadline=None)
@given(near_hexes, near_hexes, hexes)
def test_trace_translation_invariant(a, b, shift):
    t, u = trace_line(a, b), trace_line(a + shift, b + shift)
    assert u.hexes == tuple(h + shift for h in t.hexes)
    assert u.crossings == tuple((x + shift, y + shift) for x, y in t.crossings)
    assert {frozenset({x + shift, y + shift}) for x, y in t.along} == {frozenset(p) for p in u.along}
    assert u.vertices == tuple((x + shift, y + shift, z + shift) for x, y, z in t.vertices)


@settings(max_examples=50, deadline=None)
@given(near_hexes, near_hexes, st.integers(0, 5))
def test_trace_rotation_invariant(a, b, turns):
    def rot(h):
        for _ in range(turns):
            h = rotate60(h)
        return h

    t, u = trace_line(a, b), trace_line(rot(a), rot(b))
    assert u.hexes == tuple(rot(h) for h in t.hexes)
    assert set(u.crossings) == {(rot(x), rot(y)) for x, y in t.crossings}
    assert {frozenset(p) for p in u.along} == {frozenset(map(rot, p)) for p in t.along}
    assert set(u.vertices) == {(rot(x), rot(y), rot(z)) for x, y, z in t.vertices}


@settings(max_examples=100, deadline=None)
@given(near_hexes, near_hexes)
def test_sampled_line_is_an_ordered_subset_of_the_exact_trace(a, b):
    s = sampled_line(a, b)
    t = trace_line(a, b)
    if s is None:
        # A sample sat exactly on a hex boundary: a tie, or a clean crossing at a sample point
        # (e.g. (0,0)->(1,3) crosses a hexside exactly at t=1/3). Either way the trace knows it.
        assert t.has_tie or len(t.crossings) > 0
        return
    assert len(s) == distance(a, b) + 1
    assert s[0] == a and s[-1] == b
    positions = [t.hexes.index(h) for h in s]  # ValueError if a sampled hex is not traced
    assert positions == sorted(positions)
    assert len(set(positions)) == len(positions)


@settings(max_examples=80, deadline=None)
@given(near_hexes, near_hexes)
def test_sampled_line_without_tie_is_a_path(a, b):
    s = sampled_line(a, b)
    if s is not None:
        assert all(x.is_adjacent(y) for x, y in zip(s, s[1:]))


def test_trace_to_self():
    t = trace_line(Hex(3, 4), Hex(3, 4))
    assert t.hexes == (Hex(3, 4),)
    assert t.crossings == t.along == t.vertices == ()
    assert t.intervening == ()
    assert not t.has_tie
    assert sampled_line(Hex(3, 4), Hex(3, 4)) == [Hex(3, 4)]


def test_trace_to_neighbour_is_one_crossing():
    for n in ORIGIN.neighbors():
        t = trace_line(ORIGIN, n)
        assert t.hexes == (ORIGIN, n)
        assert t.crossings == ((ORIGIN, n),)
        assert not t.has_tie


# =========================================================================== explicit cases

def test_diagonal_runs_along_a_hexside():
    t = trace_line(Hex(0, 0), Hex(2, -1))
    assert t.hexes == (Hex(0, 0), Hex(2, -1))
    assert t.intervening == ()
    assert [frozenset(p) for p in t.along] == [frozenset({Hex(1, 0), Hex(1, -1)})]
    assert t.crossings == ()
    assert t.vertices == ()
    assert t.has_tie
    assert sampled_line(Hex(0, 0), Hex(2, -1)) is None


def test_long_diagonal_alternates_hexes_and_hexside_runs():
    t = trace_line(Hex(0, 0), Hex(6, -3))
    assert t.hexes == (Hex(0, 0), Hex(2, -1), Hex(4, -2), Hex(6, -3))
    assert [frozenset(p) for p in t.along] == [
        frozenset({Hex(1, 0), Hex(1, -1)}),
        frozenset({Hex(3, -1), Hex(3, -2)}),
        frozenset({Hex(5, -2), Hex(5, -3)}),
    ]


def test_all_six_diagonals_are_ties():
    diagonals = [Hex(2, -1), Hex(1, -2), Hex(-1, -1), Hex(-2, 1), Hex(-1, 2), Hex(1, 1)]
    for d in diagonals:
        t = trace_line(ORIGIN, d)
        assert t.hexes == (ORIGIN, d)
        assert len(t.along) == 1
        x, y = t.along[0]
        assert x.is_adjacent(y) and all(distance(ORIGIN, h) == 1 == distance(h, d) for h in (x, y))


def test_straight_line_along_a_row_has_only_crossings():
    for direction in ORIGIN.neighbors():
        end = Hex(direction.q * 5, direction.r * 5)
        t = trace_line(ORIGIN, end)
        assert t.hexes == tuple(Hex(direction.q * i, direction.r * i) for i in range(6))
        assert t.crossings == tuple(zip(t.hexes, t.hexes[1:]))
        assert t.along == () and t.vertices == ()
        assert sampled_line(ORIGIN, end) == list(t.hexes)


def test_a_vertex_passage_exists():
    found = [h for h in spiral(ORIGIN, 7) if trace_line(ORIGIN, h).vertices]
    assert found, "some line within distance 7 must pass through a vertex"
    for target in found:
        t = trace_line(ORIGIN, target)
        for before, after, beside in t.vertices:
            assert before.is_adjacent(after)
            assert before.is_adjacent(beside)
            assert after.is_adjacent(beside)
            i = t.hexes.index(before)
            assert t.hexes[i + 1] == after
            assert beside not in t.hexes


def test_known_vertex_passage():
    """(0,0)->(4,1): at t=1/3 the line passes exactly through the corner of (1,0), (2,0) and (1,1)."""
    t = trace_line(ORIGIN, Hex(4, 1))
    assert (Hex(1, 0), Hex(2, 0), Hex(1, 1)) in t.vertices
    assert t.along == ()
    assert t.has_tie


# =========================================================================== floating-point cross-check

SQRT3 = math.sqrt(3.0)


def _pixel(q: float, r: float) -> tuple[float, float]:
    return 1.5 * q, SQRT3 * (r + q / 2.0)


def _nearest_centre(x: float, y: float) -> tuple[tuple[int, int] | None, float]:
    """The hex centre nearest the point, or None within 1e-9 of a tie (brute force over a 3x3 block)."""
    q = x / 1.5
    r = y / SQRT3 - q / 2.0
    q0, r0 = round(q), round(r)
    dists = []
    for dq in (-1, 0, 1):
        for dr in (-1, 0, 1):
            cq, cr = q0 + dq, r0 + dr
            cx, cy = _pixel(cq, cr)
            dists.append((math.hypot(x - cx, y - cy), (cq, cr)))
    dists.sort()
    if dists[1][0] - dists[0][0] < 1e-9:
        return None, dists[0][0]
    return dists[0][1], dists[0][0]


def _float_trace(target: tuple[int, int], per_step: int = 400) -> list[Hex]:
    x1, y1 = _pixel(*target)
    n = max(abs(target[0]), abs(target[1]), abs(target[0] + target[1]))
    samples = per_step * max(n, 1)
    out: list[Hex] = []
    for i in range(samples + 1):
        f = i / samples
        cell, _ = _nearest_centre(f * x1, f * y1)
        if cell is None:
            continue
        h = Hex(*cell)
        if not out or out[-1] != h:
            out.append(h)
    return out


def test_trace_matches_floating_point_sampling_within_distance_6():
    targets = spiral(ORIGIN, 6)
    assert len(targets) == 127
    for target in targets:
        exact = trace_line(ORIGIN, target).hexes
        approx = _float_trace((target.q, target.r))
        assert tuple(approx) == exact, f"target {target}: float {approx} vs exact {exact}"


def test_float_cross_check_sees_ties_as_ties():
    """The cross-check itself: on the diagonal the flanking hexes only ever tie, so they never appear."""
    approx = _float_trace((2, -1))
    assert approx == [Hex(0, 0), Hex(2, -1)]


def test_connected_groups_link_shared_and_adjacent_hexes_in_order():
    from wargames.core.hexgrid import connected_groups
    pts = {"a": Hex(0, 0), "b": Hex(5, 5), "c": Hex(1, 0), "d": Hex(2, 0), "e": Hex(5, 5), "f": Hex(9, 0)}
    assert connected_groups(list(pts), pts.get) == [["a", "c", "d"], ["b", "e"], ["f"]]
    assert connected_groups([], pts.get) == []


def test_line_traces_match_a_search_of_every_hex_within_range(monkeypatch):
    """The trace looks only at hexes near the sampled line, in integer units of t: it must find exactly what a
    search of every hex within the segment's length finds, ties (hexsides, vertices) included."""
    from wargames.core import hexgrid
    fast = {b: hexgrid.trace_line(hexgrid.ORIGIN, b) for b in hexgrid.spiral(hexgrid.ORIGIN, 9)[1:]}
    fast[Hex(-40, 17)] = hexgrid.trace_line(hexgrid.ORIGIN, Hex(-40, 17))
    monkeypatch.setattr(hexgrid, "_near_line", lambda a, b, n: hexgrid.spiral(a, n))
    for b, trace in fast.items():
        slow = getattr(hexgrid, "_trace")(hexgrid.ORIGIN, b)
        assert slow == trace, b
    assert any(t.along for t in fast.values()) and any(t.vertices for t in fast.values())
