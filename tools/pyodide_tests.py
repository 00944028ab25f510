"""`make test-pyodide`: the engine's pure tests under the browser's Python (the npm Pyodide, run by Node).

    .venv-lite/bin/python tools/pyodide_tests.py [--quick] [pytest args...]     # default: -q tests
    .venv-lite/bin/python tools/pyodide_tests.py --fetch-only

``--quick`` (the form `make test` runs) leaves out the few long tests listed in ``QUICK_LEAVES_OUT`` below, with
the reasons; ``make test-pyodide`` runs everything. ``--fetch-only`` makes sure the runtime and the wheels are in
the cache, and stops: `make test` calls it before starting this layer beside the others, so that no two jobs
download into ``.lite-cache/`` at once.

1. gathers the wheels (the engine built from the checkout, pure PyYAML, pytest, Hypothesis and their pure
   dependencies, all for Python 3.13) with tools/lite.py, from its download cache ``.lite-cache/``;
2. copies the repo's tests into a temporary folder, leaving out the browser layer and every test file that
   imports bokeh, the widgets, Jupyter or the book tools (they need packages Pyodide cannot load offline);
   the sources (wargames/, widgets/, tools/, book/) are copied too, for the tests that read them, but the
   engine the tests import is the installed wheel (``--import-mode=append``). A test that imports such a
   package inside its body is skipped (a conftest added to the copy turns that ModuleNotFoundError into a skip);
3. runs ``node tools/pyodide_tests.mjs``, which installs the wheels into Pyodide and runs pytest there.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lite  # noqa: E402

REPO = lite.REPO
# Top-level modules that Pyodide cannot load offline, or that only the widget and book layers use.
NOT_IN_PYODIDE = {"bokeh", "jupyter_bokeh", "widgets", "ipywidgets", "IPython", "jupytext", "nbformat", "nbclient",
                  "jupyter_cache",
                  "nbval", "playwright", "sphinx", "myst_nb", "markdown_it", "lite_link",
                  "colorspacious"}  # the last: a test-only check of the charts' palette
# Engine modules that draw with bokeh.
BOKEH_ENGINE = ("wargames.viz",)
SKIP_DIRS = {"browser", "__pycache__"}
# Left out by --quick (the form `make test` runs), each with the reason; `make test-pyodide` runs them all. The
# unit layer of the same `make test` runs every one of them natively. Measured under Pyodide (2026-12-03, one
# run on a loaded machine, 4,236 tests in 2,146 s, 23 min of CPU) they took 716 of the 1,980 s the durations add
# up to; the quick form ran 4,180 tests in 12 min of CPU.
QUICK_LEAVES_OUT = {
    # Whole games played by a random player: they check the rules' sequencing, which is the same engine code
    # whatever runs it, and cost a minute or more each in Pyodide (138 s together).
    "tests/test_indochina_scenario_play.py::test_a_scenario_plays_from_its_set_up_to_an_outcome[scenario1-3]":
        "Indochina scenario 1 played to its outcome",
    "tests/test_indochina_scenario_play.py::test_a_scenario_plays_from_its_set_up_to_an_outcome[scenario2-4]":
        "Indochina scenario 2 played to its outcome",
    "tests/test_indochina_scenario_play.py::test_every_phase_offers_a_real_action_in_the_scenarios":
        "the same two games, looked at phase by phase",
    # One wrong value in every shape of field of every loader's sample, each file read again (578 s in Pyodide,
    # five times the native run: Pyodide has only PyYAML's pure-Python reader). Under Pyodide only that reader
    # differs, and it shares all but its scanner, parser and composer with libyaml's: the loaders' checks are
    # the same code. The pure reader's own guards stay in the quick layer (test_core_yamlio runs both readers;
    # test_hostile_file and the Hypothesis replacements give every loader hostile files here).
    "tests/test_hostile_inputs.py::test_every_field_wrong_type_or_out_of_range":
        "every field of every loader made wrong, one at a time (the same checks natively, with libyaml)",
}
COPY_TREES = ("wargames", "widgets", "tools", "book")


def imported_modules(path: Path) -> set[str]:
    """The modules a file imports when it is loaded (imports inside functions are not counted)."""
    names = set()

    def visit(node) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return names


def needs_more_than_pyodide(path: Path) -> bool:
    mods = imported_modules(path)
    return any(m.split(".")[0] in NOT_IN_PYODIDE or m.startswith(BOKEH_ENGINE) for m in mods)


# A test that imports one of those inside its body, or starts a subprocess (the mutation tests, the map
# generators' reruns), is skipped, with the reason, rather than failed.
CONFTEST = f"""
import pytest

NOT_IN_PYODIDE = {sorted(NOT_IN_PYODIDE)!r}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    try:
        return (yield)
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] in NOT_IN_PYODIDE:
            pytest.skip(f"needs {{err.name}}, which Pyodide cannot load offline")
        raise
    except OSError as err:
        if "does not support processes" in str(err):
            pytest.skip("starts a subprocess, which Pyodide cannot")
        raise
"""


def copy_tests(work: Path) -> list[str]:
    """Copy tests/ into work/tests without the layers Pyodide cannot run; returns the left-out files."""
    left_out = []
    for src in sorted((REPO / "tests").rglob("*")):
        rel = src.relative_to(REPO)
        if src.is_dir() or SKIP_DIRS.intersection(rel.parts):
            continue
        if src.suffix == ".py" and src.name.startswith("test_") and needs_more_than_pyodide(src):
            left_out.append(rel.as_posix())
            continue
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, work / rel)
    conftest = work / "tests" / "conftest.py"
    conftest.write_text((conftest.read_text() if conftest.exists() else "") + CONFTEST)
    files = subprocess.run(["git", "ls-files", *COPY_TREES, "pyproject.toml", "README.md"], cwd=REPO,
                           check=True, capture_output=True, text=True).stdout.split()
    for rel in files:
        if (REPO / rel).is_file() and not rel.startswith("book/_static/"):
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, work / rel)
    return left_out


def main(argv: list[str]) -> int:
    start = time.time()
    quick, fetch_only = "--quick" in argv, "--fetch-only" in argv
    argv = [a for a in argv if a not in ("--quick", "--fetch-only")]
    cache = REPO / ".lite-cache"
    cache.mkdir(exist_ok=True)
    runtime = lite.pyodide_runtime(cache)
    with tempfile.TemporaryDirectory(prefix="pyodide-tests-") as tmp:
        wheels, work = Path(tmp) / "wheels", Path(tmp) / "work"
        lite.test_wheels(cache, wheels)
        if fetch_only:
            return 0
        left_out = copy_tests(work)
        print(f"test-pyodide: {len(left_out)} test files left out (bokeh, widgets, Jupyter, book): "
              + " ".join(Path(p).name for p in left_out), flush=True)
        deselect = []
        if quick:
            print("test-pyodide --quick leaves out (the unit layer runs them natively, make test-pyodide here): "
                  + "; ".join(QUICK_LEAVES_OUT.values()), flush=True)
            deselect = [arg for node in QUICK_LEAVES_OUT for arg in ("--deselect", node)]
        cmd = ["node", str(REPO / "tools/pyodide_tests.mjs"), str(runtime), str(wheels), str(work),
               "--import-mode=append", "-p", "no:cacheprovider", *deselect, *(argv or ["-q", "tests"])]
        env = {**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": "/tmp/hypothesis"}
        status = subprocess.run(cmd, env=env).returncode
    print(f"test-pyodide: done in {time.time() - start:.0f} s (status {status})")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
