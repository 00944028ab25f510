"""Build the live edition of the book: a JupyterLite site in which every chapter runs in the browser's Python.

Run it with the build venv that `make lite` creates (`.venv-lite`: jupyterlite-core, the Pyodide kernel,
jupytext)::

    .venv-lite/bin/python tools/lite.py                      # every chapter -> _build/html/lite
    .venv-lite/bin/python tools/lite.py --chapters 'book/indochina/rule13.md' --out /tmp/lite

Everything the site needs comes from local files, and the page asks nothing of any host but its own:

- the Pyodide runtime from the npm package (`npm pack pyodide@PYODIDE`), its lock emptied, because each of its
  entries points at a wheel that only the CDN holds;
- the engine as a wheel built from a copy of the checkout's tracked files (no in-tree ``build/``);
- pure-Python wheels for Python 3.13 (Pyodide's): PyYAML built without libyaml, micropip, IPython, jedi, comm,
  ipywidgets; the kernel's own widgetsnbextension shim replaces the real one;
- a lock written by ``uv`` from those wheels only (``--no-index --offline``).

Downloads go to ``.lite-cache/`` (git ignores it), so a second build needs no network. The chapters
(``book/**/*.md`` MyST notebooks) become ``.ipynb`` files with the same folders under ``book/``, so
``book/indochina/rule13.md`` opens as ``lite/notebooks/index.html?path=indochina/rule13.ipynb``.

bokeh cannot load in Pyodide (numpy, contourpy and pillow have no offline builds). Our drawing and widget modules
still import there (`wargames.viz.optional`); a chapter's map calls are pointed at SVG stand-ins
(`wargames.viz.live`), the live widgets draw SVG maps, and a cell that still needs bokeh is kept as a
commented-out cell saying so, with its other statements live (see `disable_bokeh_cells`).

``--test-wheels DIR`` only gathers the wheels that `tools/pyodide_tests.mjs` needs (engine, PyYAML, pytest,
Hypothesis and their pure dependencies) into DIR, for `make test-pyodide`.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYODIDE = "0.29.3"  # Python 3.13; the 0.30/314.x line is Python 3.14
PYTHON_VERSION = "3.13"
PYYAML = "6.0.3"
# Pure wheels the kernel loads. Versions pinned so a build is reproducible; pip resolves their dependencies.
KERNEL_SPECS = ["micropip==0.11.0", "ipython==9.12.0", "jedi==0.20.1", "comm==0.2.3", "ipywidgets==8.1.9",
                "markdown-it-py==3.0.0"]
# The import name each kernel wheel (and the pure PyYAML) provides: what a chapter may import in the live edition
# besides the standard library and bokeh (tests/test_lite_build.py checks the engine and widgets against it).
KERNEL_MODULES = {"micropip", "IPython", "jedi", "comm", "ipywidgets", "markdown_it", "yaml"}
TEST_SPECS = ["pytest==9.2.0", "hypothesis==6.155.7"]
# Not loadable or not wanted in Pyodide: the kernel ships its own widgetsnbextension shim, and IPython's
# terminal helpers need a pty.
DROP = ("widgetsnbextension", "pexpect", "ptyprocess")
# Loaded as the kernel starts: the kernel loads a package when a cell imports it, but not when one of our functions
# does (markdown-it-py, for widgets.common.markdown_html).
PREFETCH = ["wargames", "pyyaml", "ipywidgets", "jedi", "markdown-it-py"]
# A chapter cell that imports bokeh itself is disabled. Our drawing and widget modules load without bokeh
# (wargames.viz.optional), so importing them is fine; only the names of theirs that draw with bokeh are
# disabled (`bokeh_names`), and the static book's drawing calls point at SVG stand-ins (`LIVE_STANDINS`).
BOKEH_MODULES = re.compile(r"^\s*(from|import)\s+(bokeh|jupyter_bokeh)\b", re.M)
OUR_DRAWING = ("widgets", "wargames/viz")
# (module, name) -> the module of its bokeh-free stand-in with the same signature, drawing SVG
LIVE_STANDINS = {("bokeh.io", "show"): "wargames.viz.live", ("bokeh.io", "output_notebook"): "wargames.viz.live",
                 ("wargames.viz.hexmap", "draw_map"): "wargames.viz.live",
                 ("wargames.viz.hexmap", "with_alt_text"): "wargames.viz.live",
                 ("wargames.viz.fte", "draw_fte_map"): "wargames.viz.live",
                 ("wargames.viz.fte", "with_alt_text"): "wargames.viz.live"}
# A chapter cell tagged so (say, one that adds bokeh glyphs to a map) stays commented out in the live edition.
STATIC_ONLY = "static-only"
# Live widgets that draw their map as SVG when bokeh is missing (their bokeh branch is not taken there).
SVG_WHEN_NO_BOKEH = {("widgets.citadel", "AnneMarieLive"), ("widgets.citadel_melee", "MeleeLive"),
                     ("widgets.fte", "AssaultLive"), ("widgets.citadel_scenario", "setup_map"),
                     ("widgets.indochina_play", "phase_map")}
LIVE_NOTE = (
    "# Live edition: this cell draws a bokeh chart or panel, which cannot load in the browser's Python.\n"
    "# The static page shows its output; `make lab` runs it. The original code is commented out;\n"
    "# the statements that need no bokeh follow it and run:\n"
)
INTRO_CELL = (
    "**Live edition.** This chapter runs in your browser's Python (Pyodide): no server, nothing to install. "
    "Change a number in a cell and press Shift+Enter to run it again. Maps are drawn as SVG, and the live widgets "
    "call the engine on every change. A few bokeh charts and panels cannot run here (their cells are commented "
    "out, with a note); the static page shows them, and `make lab` runs everything."
)
LABEXTENSIONS = Path(sys.prefix) / "share/jupyter/labextensions"
LAB_EXTENSIONS = ["@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager"]
PYODIDE_KERNEL = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}


def run(cmd: list[str], **kw) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def pip(*args: str, env: dict | None = None) -> None:
    run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args], env=env)


# ---------------------------------------------------------------------------------------------- downloads


def pyodide_runtime(cache: Path) -> Path:
    """The npm pyodide package, unpacked into cache/pyodide-<version>/ (downloaded once)."""
    out = cache / f"pyodide-{PYODIDE}"
    if (out / "pyodide.mjs").is_file():
        return out
    tgz = cache / f"pyodide-{PYODIDE}.tgz"
    if not tgz.is_file():
        run(["npm", "pack", "--silent", f"pyodide@{PYODIDE}", "--pack-destination", cache])
    tmp = Path(tempfile.mkdtemp(dir=cache))
    with tarfile.open(tgz) as tar:
        tar.extractall(tmp, filter="data")
    shutil.rmtree(out, ignore_errors=True)
    (tmp / "package").rename(out)
    tmp.rmdir()
    return out


def pure_wheels(cache: Path, name: str, specs: list[str]) -> Path:
    """Pure-Python (py3-none-any) wheels for Pyodide's Python, with dependencies, in cache/<name>/."""
    out = cache / name
    stamp = out / ".specs"
    if stamp.is_file() and stamp.read_text() == "\n".join(specs):
        return out
    shutil.rmtree(out, ignore_errors=True)
    pip("download", "--only-binary=:all:", "--platform", "any", "--implementation", "py", "--abi", "none",
        "--python-version", PYTHON_VERSION, "-d", str(out), *specs)
    for whl in out.glob("*.whl"):
        if whl.name.lower().startswith(DROP):
            whl.unlink()
    stamp.write_text("\n".join(specs))
    return out


def pyyaml_wheel(cache: Path) -> Path:
    """PyYAML built from its sdist without the C extension: a py3-none-any wheel (its build tools as wheels:
    building them from source too, as `--no-binary=:all:` would, takes minutes)."""
    out = cache / "pyyaml"
    found = sorted(out.glob("*-none-any.whl"))
    if found:
        return found[0]
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "PYYAML_FORCE_LIBYAML": "0", "PYYAML_FORCE_CYTHON": "0"}
    pip("wheel", "--no-binary=pyyaml", "--no-deps", "-w", str(out), f"pyyaml=={PYYAML}", env=env)
    built = sorted(out.glob("*.whl"))
    if len(built) != 1 or not built[0].name.endswith("-none-any.whl"):
        raise SystemExit(f"lite: expected one pure PyYAML wheel in {out}, got {[w.name for w in built]}")
    return built[0]


def engine_wheel(dest: Path) -> Path:
    """The engine (wargames and widgets) as a wheel, built from a copy of the tracked files of the work tree."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, check=True, capture_output=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        for rel in files.decode().split("\0"):
            if rel and (rel in ("pyproject.toml", "README.md") or rel.startswith(("wargames/", "widgets/"))):
                if (REPO / rel).is_file():
                    (src / rel).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(REPO / rel, src / rel)
        pip("wheel", "--no-deps", "--no-build-isolation", "-w", str(dest), str(src))
    (wheel,) = dest.glob("wargames-*.whl")
    return wheel


def widgets_shim() -> Path:
    """The Pyodide kernel's widgetsnbextension-4.0.999 stand-in (the real one is a Jupyter server extension)."""
    base = LABEXTENSIONS / "@jupyterlite/pyodide-kernel-extension/static/pypi"
    found = sorted(base.glob("widgetsnbextension-4.*-py3-none-any.whl"))
    if not found:
        raise SystemExit(f"lite: no widgetsnbextension shim under {base}: is jupyterlite-pyodide-kernel installed?")
    return found[-1]


def test_wheels(cache: Path, dest: Path) -> None:
    """Every wheel `make test-pyodide` installs into the Node Pyodide, copied into dest."""
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob("*.whl"):
        old.unlink()
    for whl in [pyyaml_wheel(cache), *pure_wheels(cache, "test-wheels", TEST_SPECS).glob("*.whl")]:
        shutil.copy2(whl, dest)
    engine_wheel(dest)


# ----------------------------------------------------------------------------------------------- chapters


def is_notebook(md: Path) -> bool:
    head = md.read_text(encoding="utf-8")[:600]
    return head.startswith("---") and "jupytext:" in head and "kernelspec:" in head


def _bound(node) -> set[str]:
    """Names a statement binds (assignment targets, imports, defs, loop and with targets)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _targets(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _used(node) -> set[str]:
    """Names a statement reads from outside it: a loop's, a comprehension's or a function's own variables are
    not counted where they are in scope (``for z in ...: print(z)`` reads no earlier ``z``)."""
    names: set[str] = set()

    def visit(n, local: frozenset) -> None:
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load) and n.id not in local:
                names.add(n.id)
            return
        if isinstance(n, (ast.For, ast.AsyncFor)):
            visit(n.iter, local)
            inner = local | _targets(n.target)
            for child in [*n.body, *n.orelse]:
                visit(child, inner)
            return
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            inner = local
            for gen in n.generators:
                visit(gen.iter, inner)
                inner = inner | _targets(gen.target)
                for cond in gen.ifs:
                    visit(cond, inner)
            for child in ([n.key, n.value] if isinstance(n, ast.DictComp) else [n.elt]):
                visit(child, inner)
            return
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for d in [*n.args.defaults, *[d for d in n.args.kw_defaults if d is not None]]:
                visit(d, local)
            inner = local | {a.arg for a in [*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs,
                                             *filter(None, [n.args.vararg, n.args.kwarg])]}
            for child in (n.body if isinstance(n.body, list) else [n.body]):
                visit(child, inner)
            return
        for child in ast.iter_child_nodes(n):
            visit(child, local)

    visit(node, frozenset())
    return names


def _imports_bokeh(node) -> bool:
    return any(isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in ("bokeh", "jupyter_bokeh")
               or isinstance(n, ast.Import) and any(a.name.split(".")[0] in ("bokeh", "jupyter_bokeh")
                                                     for a in n.names) for n in ast.walk(node))


def _module_of(path: Path) -> str:
    return path.relative_to(REPO).with_suffix("").as_posix().replace("/", ".").removesuffix(".__init__")


def bokeh_names(root: Path = REPO) -> set[tuple[str, str]]:
    """The (module, name) pairs of our drawing and widget modules that need bokeh: a function, class or
    constant that imports bokeh, uses a bokeh stand-in (`wargames.viz.optional.bokeh_names`), or uses another
    such name of ours, except the live widgets of SVG_WHEN_NO_BOKEH. Found by reading the sources."""
    defs: dict[tuple[str, str], ast.AST] = {}
    imported: dict[tuple[str, str], tuple[str, str]] = {}       # (module, local name) -> (module, name)
    tainted: set[tuple[str, str]] = set()
    for top in OUR_DRAWING:
        for path in sorted((root / top).glob("*.py")):
            mod = _module_of(path)
            package = mod.rsplit(".", 1)[0]
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ImportFrom) and node.module:
                    src = node.module if not node.level else f"{package}.{node.module}"
                    for a in node.names:
                        if src.split(".")[0] in ("bokeh", "jupyter_bokeh"):
                            tainted.add((mod, a.asname or a.name))
                        else:
                            imported[(mod, a.asname or a.name)] = (src, a.name)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    defs[(mod, node.name)] = node
                elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                    call = node.value
                    if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                            and call.func.id in ("bokeh_name", "bokeh_names")):
                        tainted |= {(mod, n) for n in _bound(node)}
                    else:
                        for n in _bound(node):
                            defs[(mod, n)] = node
    for key, node in defs.items():
        if key not in SVG_WHEN_NO_BOKEH and _imports_bokeh(node):
            tainted.add(key)
    changed = True
    while changed:
        changed = False
        for key, node in defs.items():
            if key in tainted or key in SVG_WHEN_NO_BOKEH:
                continue
            mod = key[0]
            if any((mod, n) in tainted or imported.get((mod, n)) in tainted for n in _used(node)):
                tainted.add(key)
                changed = True
    return tainted


def live_imports(source: str) -> str:
    """The cell with its imports of the static book's drawing calls pointed at their SVG stand-ins
    (`LIVE_STANDINS`); other names stay where they were imported from."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines()
    for node in reversed(tree.body):
        if not isinstance(node, ast.ImportFrom) or node.level:
            continue
        moved = [a for a in node.names if (node.module, a.name) in LIVE_STANDINS]
        if not moved:
            continue
        stay = [a for a in node.names if a not in moved]
        indent = lines[node.lineno - 1][:node.col_offset]
        text = lambda names: ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in names)  # noqa: E731
        new = [f"{indent}from {LIVE_STANDINS[(node.module, moved[0].name)]} import {text(moved)}"]
        if stay:
            new.insert(0, f"{indent}from {node.module} import {text(stay)}")
        lines[node.lineno - 1:node.end_lineno] = new
    return "\n".join(lines)


def live_statements(source: str, needs_bokeh: set[tuple[str, str]] | None = None,
                    tainted: set[str] | None = None) -> list[str]:
    """The cell's top-level statements that need no bokeh, in order, so later cells can use what they bind.

    A statement needs bokeh if it imports from a bokeh module (see BOKEH_MODULES) or imports one of our names
    that needs bokeh (`bokeh_names`), or uses a name that such a statement bound (in this cell or, through
    ``tainted``, which it updates, in an earlier one); what it binds then needs bokeh too.
    """
    needs_bokeh = bokeh_names() if needs_bokeh is None else needs_bokeh
    tainted = set() if tainted is None else tainted
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython magics: keep nothing
        return []
    lines = source.splitlines()
    keep = []
    for node in tree.body:
        text = "\n".join(lines[node.lineno - 1:node.end_lineno])
        if isinstance(node, ast.Import):
            if BOKEH_MODULES.search(text):
                tainted |= _bound(node)
                continue
        elif isinstance(node, ast.ImportFrom):
            if BOKEH_MODULES.search(text):
                tainted |= _bound(node)
                continue
            bad = [a for a in node.names if (node.module, a.name) in needs_bokeh]
            if bad:
                tainted |= {a.asname or a.name for a in bad}
                good = [a for a in node.names if a not in bad]
                if good:
                    keep.append(f"from {node.module} import "
                                + ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in good))
                continue
        elif _used(node) & tainted:
            tainted |= _bound(node)
            continue
        else:
            tainted -= _bound(node)          # rebound by a statement that needs no bokeh
        keep.append(text)
    return keep


def disable_bokeh_cells(nb, needs_bokeh: set[tuple[str, str]] | None = None) -> int:
    """Point each code cell's drawing calls at their SVG stand-ins (`live_imports`), then comment out each cell
    that still needs bokeh, repeating below it, live, the statements that do not (`live_statements`); returns
    how many cells were commented out."""
    needs_bokeh = bokeh_names() if needs_bokeh is None else needs_bokeh
    tainted: set[str] = set()
    count = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if STATIC_ONLY in cell.metadata.get("tags", ()):
            tainted |= {n for node in ast.parse(cell.source).body for n in _bound(node)}
            keep = []
        else:
            cell.source = live_imports(cell.source)
            keep = live_statements(cell.source, needs_bokeh, tainted)
            if keep == _statements(cell.source):
                continue
        body = "\n".join("# " + line if line else "#" for line in cell.source.splitlines())
        cell.source = LIVE_NOTE + body + ("\n\n" + "\n".join(keep) if keep else "")
        cell.outputs = []
        count += 1
    return count


def _statements(source: str) -> list[str] | None:
    """The cell's top-level statements as text (None when it is not plain Python)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    lines = source.splitlines()
    return ["\n".join(lines[n.lineno - 1:n.end_lineno]) for n in tree.body]


def convert_chapters(sources: list[Path], files: Path) -> dict[str, int]:
    """Each MyST chapter -> files/<path under book>.ipynb with the Pyodide kernel; returns disabled cells a chapter."""
    import jupytext
    import nbformat

    disabled = {}
    needs_bokeh = bokeh_names()
    for md in sources:
        rel = md.resolve().relative_to(REPO / "book").with_suffix(".ipynb")
        nb = jupytext.read(md, fmt="md:myst")
        nb.metadata.pop("jupytext", None)
        nb.metadata["kernelspec"] = dict(PYODIDE_KERNEL)
        nb.metadata["language_info"] = {"name": "python"}
        disabled[rel.as_posix()] = disable_bokeh_cells(nb, needs_bokeh)
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(INTRO_CELL))
        for i, cell in enumerate(nb.cells):
            cell["id"] = f"cell-{i}"  # deterministic ids: two builds give the same files
        target = files / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
    return disabled


def chapter_sources(patterns: list[str] | None) -> list[Path]:
    if patterns:
        paths = sorted({p for pat in patterns for p in REPO.glob(pat)})
    else:
        paths = sorted((REPO / "book").rglob("*.md"))
    return [p for p in paths if "_" not in p.relative_to(REPO / "book").parts[0][:1] and is_notebook(p)]


# ------------------------------------------------------------------------------------------------- build


def build(out: Path, cache: Path, patterns: list[str] | None) -> None:
    start = time.time()
    cache.mkdir(parents=True, exist_ok=True)
    runtime = pyodide_runtime(cache)
    with tempfile.TemporaryDirectory(prefix="lite-") as tmp:
        lite_dir = Path(tmp)
        wheels = lite_dir / "wheels"
        wheels.mkdir()
        for whl in [pyyaml_wheel(cache), widgets_shim(), *pure_wheels(cache, "kernel-wheels", KERNEL_SPECS).glob("*.whl")]:
            shutil.copy2(whl, wheels)
        engine_wheel(wheels)
        static = lite_dir / "static" / "pyodide"
        shutil.copytree(runtime, static)
        lock = json.loads((static / "pyodide-lock.json").read_text())
        lock["packages"] = {}  # its entries name wheels that only the CDN has
        (static / "pyodide-lock.json").write_text(json.dumps(lock))
        disabled = convert_chapters(chapter_sources(patterns), lite_dir / "files")
        config = {
            # Only the two lab extensions the site needs (not jupytext's, which needs a server).
            "LiteBuildConfig": {
                "no_sourcemaps": True,
                "no_unused_shared_packages": True,
                "ignore_sys_prefix": ["federated_extensions"],
                "federated_extensions": [str(LABEXTENSIONS / name) for name in LAB_EXTENSIONS],
            },
            "PyodideLockAddon": {
                "enabled": True,
                "wheels": [str(wheels)],
                "prefetch_extra": PREFETCH,
                "pyodide_lock_uv_options": {"extra_uv_args": ["--no-index", "--offline"]},
            },
        }
        (lite_dir / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2))
        # Pin the app's settings: open notebooks with the Pyodide kernel and never phone home.
        (lite_dir / "jupyter-lite.json").write_text(json.dumps({
            "jupyter-lite-schema-version": 0,
            # exposeAppInBrowser: window.jupyterapp, which tests/browser/test_lite.py drives.
            # windowingMode none: every cell of a chapter is in the page (a widget far down is drawn too, and the
            # browser's find-in-page sees the whole chapter).
            "jupyter-config-data": {"appName": "Executable Vietnam wargames (live)", "exposeAppInBrowser": "true",
                                    "settingsOverrides": {"@jupyterlab/notebook-extension:tracker":
                                                          {"windowingMode": "none"}}},
        }, indent=2))
        shutil.rmtree(out, ignore_errors=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "UV_OFFLINE": "1", "UV_NO_INDEX": "1", "PIP_NO_INDEX": "1"}
        log = cache / "jupyter-lite-build.log"
        cmd = [Path(sys.executable).parent / "jupyter", "lite", "build", "--lite-dir", lite_dir, "--output-dir", out]
        print("+", " ".join(map(str, cmd)), f"> {log}", flush=True)
        with log.open("w") as f:
            done = subprocess.run([str(c) for c in cmd], cwd=lite_dir, env=env, stdout=f, stderr=subprocess.STDOUT)
        if done.returncode:
            print(log.read_text()[-5000:])
            raise SystemExit(f"lite: jupyter lite build failed (log: {log})")
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    off = sum(1 for n in disabled.values() if n)
    print(f"lite: {len(disabled)} chapters ({off} with bokeh cells commented out), "
          f"{size / 1e6:.1f} MB, built in {time.time() - start:.0f} s: {out}/notebooks/index.html?path=...")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / "_build/html/lite")
    ap.add_argument("--cache", type=Path, default=REPO / ".lite-cache")
    ap.add_argument("--chapters", nargs="*", help="glob(s) relative to the repo root (default: every chapter)")
    ap.add_argument("--test-wheels", type=Path, help="only gather the wheels of `make test-pyodide` into this dir")
    args = ap.parse_args(argv)
    if args.test_wheels:
        test_wheels(args.cache.resolve(), args.test_wheels.resolve())
    else:
        build(args.out.resolve(), args.cache.resolve(), args.chapters)


if __name__ == "__main__":
    main()
