"""The unit layer runs on both cores with ``--dist loadgroup`` (make test-unit): tests marked with one
``xdist_group`` must go to one worker, which is what lets a group share what it works out once (the Indochina
scenario games, the comparison curves, each widget's static page). A pytest-xdist that cannot tag the tests
(as with pytest 9.2) spreads them silently; this notices."""
import pytest

pytestmark = pytest.mark.xdist_group("layer-check")


def test_a_grouped_test_carries_its_group_when_the_layer_is_grouped(request):
    if not request.config.getoption("loadgroup", False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@layer-check"), request.node.nodeid
