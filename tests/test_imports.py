"""The package's import graph: no cycles, no module importing another module's private names, and the engine
never importing drawing or widget code (DESIGN §1)."""
import ast
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("wargames", "widgets")
#: one worker runs the three checks, so each module is parsed once for all of them
pytestmark = pytest.mark.xdist_group("imports")


def _modules():
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            yield name, path, parts[-1] == "__init__"


@lru_cache(maxsize=None)
def _imports(name: str, path: Path, is_pkg: bool) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    """(module imported, names imported, line) for every import statement, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, (), node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                mod = ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            found.append((mod, tuple(a.name for a in node.names), node.lineno))
    return tuple(found)


def test_no_module_imports_another_modules_private_names():
    bad = []
    for name, path, is_pkg in _modules():
        for mod, names, line in _imports(name, path, is_pkg):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private and mod.split(".")[0] in PACKAGES:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {', '.join(private)} from {mod}")
    assert not bad, "\n".join(bad)


def test_no_import_cycles_between_modules():
    known = {n for n, _, _ in _modules()}
    graph: dict[str, set[str]] = {}
    for name, path, is_pkg in _modules():
        deps = set()
        for mod, names, _ in _imports(name, path, is_pkg):      # a local import that dodges a cycle counts too
            for target in [f"{mod}.{n}" for n in names] + [mod]:
                if target in known and target != name:
                    deps.add(target)
                    break
        graph[name] = deps
    # packages import their own modules in __init__; a cycle through a package's __init__ is normal
    cycles, state = [], {}

    def visit(n, stack):
        state[n] = 1
        stack.append(n)
        for d in graph.get(n, ()):
            if d.startswith(n + ".") or n.startswith(d + "."):
                continue
            if state.get(d) == 1:
                cycles.append(stack[stack.index(d):] + [d])
            elif d not in state:
                visit(d, stack)
        stack.pop()
        state[n] = 2
    for n in sorted(graph):
        if n not in state:
            visit(n, [])
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles[:10])


def test_the_engine_never_imports_bokeh_or_widgets():
    bad = []
    for name, path, is_pkg in _modules():
        if not name.startswith("wargames") or name.startswith("wargames.viz"):
            continue
        for mod, _, line in _imports(name, path, is_pkg):
            if mod.split(".")[0] in ("bokeh", "ipywidgets", "widgets") or mod.startswith("wargames.viz"):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {mod}")
    assert not bad, "\n".join(bad)
