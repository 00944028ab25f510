"""The map searches every game's rules share (wargames.core.paths)."""
from fractions import Fraction as F

from wargames.core import Hex
from wargames.core.paths import cheapest_path, nearest, path_to, shortest_tree

LINE = [Hex(q, 0) for q in range(4)]


def along(h):
    return [n for n in LINE if n.is_adjacent(h)]


def test_cheapest_path_limit_is_inclusive_and_closed_steps_are_skipped():
    goal = lambda h: h == LINE[3]                                       # noqa: E731
    assert cheapest_path(LINE[0], goal, along, lambda a, b: F(2), F(6)) == (LINE, F(6))
    assert cheapest_path(LINE[0], goal, along, lambda a, b: F(2), F(11, 2)) is None
    assert cheapest_path(LINE[0], goal, along, lambda a, b: None if b == LINE[2] else F(1)) is None


def test_cheapest_path_prefers_the_cheaper_detour():
    a, b = Hex(0, 0), Hex(2, -1)
    ring = [Hex(1, -1), Hex(1, 0)]                  # two ways round from a to b
    nb = lambda h: [n for n in [a, b, *ring] if n.is_adjacent(h)]      # noqa: E731
    dear = lambda x, y: F(5) if Hex(1, -1) in (x, y) else F(1)         # noqa: E731
    assert cheapest_path(a, lambda h: h == b, nb, dear) == ([a, Hex(1, 0), b], F(2))


def test_nearest_gives_every_goal_at_the_fewest_steps():
    start = Hex(0, 0)
    goals = {Hex(2, 0), Hex(0, 2), Hex(3, 0)}
    found, steps = nearest(start, goals.__contains__, lambda h: h.neighbors())
    assert steps == 2 and set(found) == {Hex(2, 0), Hex(0, 2)}
    assert nearest(start, lambda h: False, along) == ([], 0)
    # only one first step is open: the goal behind the other side of the start is now further away
    only_east = lambda x, y: y.distance(start) != 1 or y == Hex(1, 0)   # noqa: E731
    assert nearest(start, goals.__contains__, lambda h: h.neighbors(), only_east) == ([Hex(2, 0)], 2)


def test_shortest_tree_paths():
    tree = shortest_tree(LINE[0], along, lambda a, b: True)
    assert set(tree) == set(LINE) and path_to(tree, LINE[3]) == LINE
    cut = shortest_tree(LINE[0], along, lambda a, b: b != LINE[2])
    assert set(cut) == {LINE[0], LINE[1]} and path_to(cut, LINE[0]) == [LINE[0]]
