"""The rules registry: every rulebook section, the code that implements it, its tests and chapter.

Each game lists its sections in ``rules_index.py`` (ids and titles in the
project's own words). Code registers what it implements with
``@implements("C 8")``. Sections that no code implements carry a written
reason (``planned`` work, or ``no-rules`` text such as a table of contents).
The coverage report joins the index, the registrations, the tests (found by
their ``@pytest.mark.rule(...)`` markers) and the book chapters that cite a rule.
"""
from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

STATUSES = ("implemented", "planned", "no-rules")


@dataclass(frozen=True)
class Section:
    """One section of a rulebook: its id (``"C 8"``), a title, and, if not implemented, why."""

    id: str
    title: str
    status: str = "implemented"
    reason: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"{self.id}: status must be one of {STATUSES}")
        if self.status != "implemented" and not self.reason:
            raise ValueError(f"{self.id}: a section that is not implemented needs a written reason")


_IMPLEMENTATIONS: dict[str, list[str]] = defaultdict(list)

# "Reached in play": while a recorder is on (see :func:`reaching`), a profile hook notes the rule ids of
# every registered function (for a class, its ``__init__``) that runs. Off, it costs nothing: no hook is set.
_REACHED: list[set[str]] = []
_CODES: dict[object, tuple[str, ...]] = {}


def _profile(frame, event, arg) -> None:
    if event == "call":
        ids = _CODES.get(frame.f_code)
        if ids is not None and _REACHED:
            _REACHED[-1].update(ids)


@contextmanager
def reaching():
    """Collect, in the yielded set, the rule ids of registered code that runs under :func:`watching` inside.

    Blocks nest: :meth:`wargames.core.game.Game.apply` watches the code of each carried-out action and hands
    its rules to the enclosing block, so refused actions and legality probes do not count.
    """
    found: set[str] = set()
    _REACHED.append(found)
    try:
        yield found
    finally:
        _REACHED.pop()


@contextmanager
def watching():
    """While a recorder is open, note every registered function that runs inside (a profile hook).

    If another profiler is already running (cProfile, a debugger), nothing is noted.
    """
    if not _REACHED or sys.getprofile() is not None:
        yield
        return
    sys.setprofile(_profile)
    try:
        yield
    finally:
        sys.setprofile(None)


def recording() -> bool:
    return bool(_REACHED)


@contextmanager
def unrecorded():
    """A block whose code counts for no open recorder, and so runs with no profile hook: a replay of actions
    already counted (a saved game loaded again) reaches nothing new."""
    saved = _REACHED[:]
    _REACHED.clear()
    try:
        yield
    finally:
        _REACHED[:] = saved


@contextmanager
def noting():
    """While a recorder is open, note the rules that the block's registered code reaches, and hand them to the
    recorder only if the block ends without an exception (a refused action reaches nothing). With no recorder
    open, the block runs with no profile hook at all: the hook makes every Python call several times dearer."""
    if not _REACHED:
        yield
        return
    with reaching() as reached, watching():
        yield
    note_reached(reached)


def note_reached(rule_ids: Iterable[str]) -> None:
    """Add rule ids to the innermost open recorder (a carried-out action hands its rules outwards)."""
    if _REACHED:
        _REACHED[-1].update(rule_ids)


def _code_of(obj):
    target = obj.__init__ if isinstance(obj, type) else obj
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    return getattr(target, "__code__", None)


def implements(*rule_ids: str) -> Callable:
    """Decorator: record that the decorated function or class implements these rule ids."""
    if not rule_ids:
        raise ValueError("implements() needs at least one rule id")

    def deco(obj):
        name = f"{obj.__module__}.{obj.__qualname__}"
        for rid in rule_ids:
            if name not in _IMPLEMENTATIONS[rid]:
                _IMPLEMENTATIONS[rid].append(name)
        code = _code_of(obj)
        if code is not None:
            _CODES[code] = tuple(dict.fromkeys(_CODES.get(code, ()) + tuple(rule_ids)))
        existing = getattr(obj, "__rules__", ())
        try:
            obj.__rules__ = tuple(existing) + tuple(rule_ids)
        except (AttributeError, TypeError):
            pass
        return obj

    return deco


def implementations(rule_id: str | None = None):
    """What code implements a rule (or the whole mapping)."""
    if rule_id is None:
        return {k: list(v) for k, v in _IMPLEMENTATIONS.items()}
    return list(_IMPLEMENTATIONS.get(rule_id, []))


def rule_pattern(rule_id: str) -> re.Pattern:
    """Matches a citation of exactly this rule id ("C 9" but not "C 9.1" or "C 90")."""
    return re.compile(r"(?<![\w.])" + re.escape(rule_id) + r"(?![\w]|\.\d)")


def _signature(paths: Iterable[Path]) -> tuple[tuple[str, int], ...]:
    """Each file with its modification time: a cache key that changes when any file does."""
    return tuple((str(p), p.stat().st_mtime_ns) for p in paths)


def tests_by_rule(tests_dir: str | Path) -> dict[str, list[str]]:
    """Map rule id -> test names, from ``@pytest.mark.rule("...")`` markers (read with ``ast``)."""
    files = _signature(sorted(Path(tests_dir).rglob("test_*.py")))
    return {rid: list(names) for rid, names in _tests_by_rule(files).items()}


@lru_cache(maxsize=8)
def _tests_by_rule(files: tuple[tuple[str, int], ...]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = defaultdict(list)
    for name, _ in files:
        path = Path(name)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=name)
        module_rules = []
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
                module_rules += _marker_rules(node.value)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name.startswith(("test", "Test")):
                rules = module_rules + [r for d in node.decorator_list for r in _marker_rules(d)]
                for rid in rules:
                    out[rid].append(f"{path.name}::{node.name}")
    return {rid: tuple(names) for rid, names in out.items()}


def _marker_rules(node: ast.AST) -> list[str]:
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "rule":
            found += [a.value for a in sub.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return found


def chapters_by_rule(book_dir: str | Path, rule_ids: Iterable[str]) -> dict[str, list[str]]:
    """Map rule id -> chapter files (relative to ``book_dir``) that cite it."""
    book = Path(book_dir)
    paths = [p for p in sorted(book.rglob("*.md")) if "_build" not in p.parts
             and not p.relative_to(book).as_posix().startswith("appendix")]
    texts = _chapter_texts(str(book), _signature(paths))
    # The substring test is cheap and rules out most chapters before the exact pattern is tried.
    return {rid: [name for name, text in texts if rid in text and rule_pattern(rid).search(text)]
            for rid in rule_ids}


@lru_cache(maxsize=8)
def _chapter_texts(book: str, files: tuple[tuple[str, int], ...]) -> tuple[tuple[str, str], ...]:
    return tuple((Path(name).relative_to(book).as_posix(), Path(name).read_text(encoding="utf-8"))
                 for name, _ in files)


@dataclass(frozen=True)
class CoverageRow:
    id: str
    title: str
    status: str
    reason: str
    code: tuple[str, ...]
    tests: tuple[str, ...]
    chapters: tuple[str, ...]
    reached: bool | None = None     # reached in play (None: not measured)


def coverage(index: Iterable[Section], tests_dir: str | Path, book_dir: str | Path,
             reached: set[str] | None = None) -> list[CoverageRow]:
    """The coverage report: one row per rulebook section; ``reached`` are the rules reached in play."""
    sections = list(index)
    tests = tests_by_rule(tests_dir)
    chapters = chapters_by_rule(book_dir, [s.id for s in sections])
    return [CoverageRow(s.id, s.title, s.status, s.reason, tuple(implementations(s.id)),
                        tuple(tests.get(s.id, ())), tuple(chapters.get(s.id, ())),
                        None if reached is None else s.id in reached) for s in sections]


def coverage_markdown(rows: Iterable[CoverageRow]) -> str:
    """Render the coverage report as a Markdown table."""
    lines = ["| Rule | Title | Status | Reached in play | Code | Tests | Chapter |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        code = "<br>".join(f"`{c.split('.', 2)[-1]}`" for c in r.code) or "—"
        status = r.status if r.status == "implemented" else f"{r.status}: {r.reason}"
        chap = "<br>".join(r.chapters) or "—"
        if r.reached is None or (r.status != "implemented" and not r.reached):
            reached = "—"
        else:
            reached = "yes" if r.reached else "**no**"
        lines.append(f"| {r.id} | {r.title} | {status} | {reached} | {code} | {len(r.tests)} | {chap} |")
    return "\n".join(lines)
