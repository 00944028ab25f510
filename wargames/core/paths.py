"""Searches over a hex map that every game's rules use: the cheapest path to a goal (supply lines, moves), the
nearest goals in steps, and the tree of shortest step paths from one hex.

They know nothing of any game: the rules pass in the neighbours of a hex, the cost of a step (None where the
step is closed) and what a goal is. Ties go to the hex found first, so callers pass neighbours in a fixed order.
"""
from __future__ import annotations

import heapq
import itertools
from collections import deque
from fractions import Fraction
from typing import Callable, Hashable, Iterable, TypeVar

H = TypeVar("H", bound=Hashable)


def cheapest_path(start: H, is_goal: Callable[[H], bool], neighbours: Callable[[H], Iterable[H]],
                  cost: Callable[[H, H], Fraction | int | None], limit: Fraction | int | None = None
                  ) -> tuple[list[H], Fraction] | None:
    """Dijkstra: the cheapest path from ``start`` to a hex where ``is_goal`` holds, stepping through
    ``neighbours`` at ``cost(a, b)`` (None: closed), never above ``limit``; None when no goal is in reach."""
    counter = itertools.count()
    # Whole-number costs are summed as ints (far cheaper than Fractions); the total is returned as a Fraction.
    best = {start: 0}
    back: dict[H, H] = {}
    queue = [(0, next(counter), start)]
    while queue:
        spent, _, h = heapq.heappop(queue)
        if spent > best[h]:
            continue
        if is_goal(h):
            return _walk_back(back, h), Fraction(spent)
        for n in neighbours(h):
            c = cost(h, n)
            if c is None:
                continue
            total = spent + c
            if limit is not None and total > limit:
                continue
            if n not in best or total < best[n]:
                best[n], back[n] = total, h
                heapq.heappush(queue, (total, next(counter), n))
    return None


def shortest_tree(start: H, neighbours: Callable[[H], Iterable[H]], passable: Callable[[H, H], bool]
                  ) -> dict[H, H | None]:
    """Breadth first: every hex reachable from ``start`` through steps ``passable(a, b)`` allows, mapped to the
    hex it is first reached from (``start`` to None). :func:`path_to` reads a path out of it."""
    back: dict[H, H | None] = {start: None}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in neighbours(h):
            if n not in back and passable(h, n):
                back[n] = h
                todo.append(n)
    return back


def path_to(tree: dict[H, H | None], end: H) -> list[H]:
    """The path from the root of a :func:`shortest_tree` to ``end``, both included."""
    path = [end]
    while tree[path[-1]] is not None:
        path.append(tree[path[-1]])
    return path[::-1]


def nearest(start: H, is_goal: Callable[[H], bool], neighbours: Callable[[H], Iterable[H]],
            passable: Callable[[H, H], bool] = lambda a, b: True) -> tuple[list[H], int]:
    """Every goal hex at the fewest steps from ``start`` (``start`` itself excluded), in the order found, and
    that number of steps; ``([], 0)`` when none is reachable."""
    seen, ring, steps = {start}, [start], 0
    while ring:
        steps += 1
        found, nxt = [], []
        for h in ring:
            for n in neighbours(h):
                if n in seen or not passable(h, n):
                    continue
                seen.add(n)
                nxt.append(n)
                if is_goal(n):
                    found.append(n)
        if found:
            return found, steps
        ring = nxt
    return [], 0


def _walk_back(back: dict, end):
    path = [end]
    while path[-1] in back:
        path.append(back[path[-1]])
    return path[::-1]


__all__ = ["cheapest_path", "nearest", "path_to", "shortest_tree"]
