"""The unit layer's garbage-collector setting (tests/conftest.py): after each test, the young garbage is collected
and what is still alive is frozen, so later full collections do not scan it again."""
import gc
import weakref

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
