"""Test-wide settings: Hypothesis runs derandomised, so a property draws the same examples in every run (the
unit layer's time and its verdict repeat from run to run; benchmarks/README.md), with no per-example deadline
(a slow machine must not turn into a failure). A test's own ``@settings`` still bounds its examples.

After each test, what the test left alive (collected tests, caches, memoised curves: over a million objects in a
worker by the end) is moved out of the garbage collector's sight (``gc.freeze``), after the young garbage is
collected. Python's full collections otherwise scan all of it again and again: they took about 40 of the 450 s
of CPU the unit layer used (benchmarks/README.md). A cycle left by one test and dropped by a later one is then
never freed; that costs memory only (about 400 MB a worker at the end), never a result.

Tests marked ``long`` (many seconds each, outside any xdist group) are collected first, so that none of them
is the last test of the layer, running on one core while the other has nothing left to do (pytest-xdist
hands out the groups first, then the other tests in their collection order)."""
import gc

import pytest
from hypothesis import settings

settings.register_profile("wargames", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("wargames")


@pytest.hookimpl(trylast=True)
def pytest_runtest_logfinish(nodeid, location):
    gc.collect(1)
    gc.freeze()


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: item.get_closest_marker("long") is None)      # stable: the rest keep their order
