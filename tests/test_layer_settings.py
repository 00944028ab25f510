"""The unit layer's settings (tests/conftest.py): after each test, the young garbage is collected and what is
still alive is frozen, so later full collections do not scan it again; tests marked ``long`` are collected first."""
import gc
import weakref

import pytest

from .conftest import pytest_runtest_logfinish


class _Node:
    pass


def test_after_a_test_its_young_garbage_is_freed_and_what_it_keeps_is_frozen():
    kept = [_Node() for _ in range(10)]
    cycle = _Node()
    cycle.me = cycle
    gone = weakref.ref(cycle)
    del cycle
    before = gc.get_freeze_count()
    pytest_runtest_logfinish("tests/test_layer_gc.py::x", ("tests/test_layer_gc.py", 0, "x"))
    assert gone() is None                               # the cycle was garbage: freed, not frozen
    assert gc.get_freeze_count() >= before + len(kept)  # the kept nodes are out of the collector's sight


def test_the_long_tests_are_collected_first(request):
    marked = [item.get_closest_marker("long") is not None for item in request.session.items]
    if not any(marked):
        pytest.skip("no test marked long was collected in this run")
    assert marked == sorted(marked, reverse=True)
