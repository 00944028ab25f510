"""record_deepcopy: the hand-written deep copy of records gives what copy.deepcopy gives."""
from __future__ import annotations

import copy
import datetime as dt
from dataclasses import dataclass, field

from wargames.core.hexgrid import Hex
from wargames.core.copies import record_deepcopy


@dataclass
class Inner:
    hexes: list = field(default_factory=list)
    __deepcopy__ = record_deepcopy


@dataclass
class Record:
    name: str
    at: Hex
    day: dt.date
    entered: list
    counts: dict
    seen: set
    path: tuple
    nested: list            # lists of lists: left to copy.deepcopy
    inner: Inner
    again: Inner            # the same object as ``inner``
    __deepcopy__ = record_deepcopy


def _record() -> Record:
    inner = Inner([Hex(0, 0)])
    return Record("V1", Hex(1, 2), dt.date(1954, 3, 13), [Hex(1, 2)], {"a": 1}, {"x"}, (Hex(0, 1), "y"),
                  [[1, 2], [3]], inner, inner)


def test_a_copy_equals_the_original_and_shares_only_what_cannot_change():
    r = _record()
    c = copy.deepcopy(r)
    assert c == r and type(c) is Record
    assert c.name is r.name and c.at is r.at and c.day is r.day and c.path is r.path
    for name in ("entered", "counts", "seen", "nested", "inner"):
        assert getattr(c, name) is not getattr(r, name), name
    assert c.nested[0] is not r.nested[0]
    assert c.inner is c.again                   # reached twice, copied once


def test_changing_the_copy_leaves_the_original_as_it_was():
    r = _record()
    before = copy.deepcopy(r)
    c = copy.deepcopy(r)
    c.entered.append(Hex(5, 5))
    c.counts["a"] = 2
    c.seen.add("z")
    c.nested[0].append(9)
    c.inner.hexes.clear()
    assert r == before and r.inner.hexes == [Hex(0, 0)]


def test_deepcopy_value_gives_what_copy_deepcopy_gives_for_plain_data():
    import enum
    from fractions import Fraction

    from wargames.core.copies import deepcopy_value

    class Side(enum.Enum):
        US = "US"

    shared = [1, 2]
    loop: list = ["x"]
    loop.append(loop)
    data = {"a": [Hex(0, 1), Side.US, Fraction(1, 3)], Side.US: {"n": 1, "s": {"x"}}, "t": (1, "y"),
            "tl": (shared, 2), "again": shared, "loop": loop, "inner": Inner([Hex(2, 2)])}
    for value in (data, [data, data], (data,)):
        mine, theirs = deepcopy_value(value, {}), copy.deepcopy(value)
        assert repr(mine) == repr(theirs)
    c = deepcopy_value(data, {})
    assert c["t"] is data["t"] and c["tl"] is not data["tl"] and c["tl"][0] is c["again"] is not shared
    assert c["a"][1] is Side.US and c["loop"][1] is c["loop"] and c["inner"] is not data["inner"]
    c["again"].append(3)
    c[Side.US]["s"].add("z")
    assert shared == [1, 2] and data[Side.US]["s"] == {"x"}


def test_a_chart_copy_is_its_own_and_shares_what_cannot_change():
    """Charts copy as records (core.copies): their lists and dicts are new, their cells and columns shared."""
    from wargames.citadel.charts import default_charts
    from wargames.core.charts import Column, Provenance
    from wargames.core.copies import PLAIN_TYPES
    from wargames.fte.charts import default_charts as fte_charts
    tet = fte_charts().tet                              # its cells hold words: plain values
    twin = copy.deepcopy(tet)
    assert twin == tet and twin.cells is not tet.cells and all(twin.cells[k] is tet.cells[k] for k in tet.cells)
    crt, ranges, tec = default_charts()                 # its cells hold fire results, which are copied
    again = copy.deepcopy(crt)
    assert again == crt and again.cells is not crt.cells and again.columns is not crt.columns
    assert again.columns[0] is crt.columns[0] and {Column, Provenance} <= PLAIN_TYPES
    again.cells.clear()
    assert crt.cells
    for table in (ranges, tec):
        twin = copy.deepcopy(table)
        assert twin == table and twin is not table
