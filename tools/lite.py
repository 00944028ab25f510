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

bokeh cannot load in Pyodide (numpy, contourpy and pillow have no offline builds), so a cell that imports it, or
a module of ours that draws with it, is kept as a commented-out cell saying so (see `disable_bokeh_cells`).

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
KERNEL_SPECS = ["micropip==0.11.0", "ipython==9.12.0", "jedi==0.20.1", "comm==0.2.3", "ipywidgets==8.1.9"]
TEST_SPECS = ["pytest==9.2.0", "hypothesis==6.155.7"]
# Not loadable or not wanted in Pyodide: the kernel ships its own widgetsnbextension shim, and IPython's
# terminal helpers need a pty.
DROP = ("widgetsnbextension", "pexpect", "ptyprocess")
PREFETCH = ["wargames", "pyyaml", "ipywidgets", "jedi"]
# Modules that import bokeh (directly or through another of ours). A chapter cell importing one is disabled.
BOKEH_MODULES = re.compile(
    r"^\s*(from|import)\s+(bokeh|jupyter_bokeh|wargames\.viz|widgets(?!\.common\b)(\.\w+)?)\b", re.M)
LIVE_NOTE = (
    "# Live edition: this cell draws with bokeh, which cannot load in the browser's Python yet.\n"
    "# The static page shows its output; `make lab` runs it. The original code is commented out;\n"
    "# the statements that need no bokeh follow it and run:\n"
)
INTRO_CELL = (
    "**Live edition.** This chapter runs in your browser's Python (Pyodide): no server, nothing to install. "
    "Change a number in a cell and press Shift+Enter to run it again. Maps and bokeh widgets do not run here yet "
    "(their cells are commented out); the static page shows them, and `make lab` runs everything."
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


def live_statements(source: str) -> list[str]:
    """The cell's top-level statements that need no bokeh, in order, so later cells can use what they bind.

    A statement needs bokeh if it imports a bokeh module (see BOKEH_MODULES), or uses a name that such a
    statement bound; what it binds then needs bokeh too.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython magics: keep nothing
        return []
    lines = source.splitlines()
    tainted: set[str] = set()
    keep = []
    for node in tree.body:
        text = "\n".join(lines[node.lineno - 1:node.end_lineno])
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            needs_bokeh = bool(BOKEH_MODULES.search(text))
        else:
            used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            needs_bokeh = bool(used & tainted)
        if needs_bokeh:
            tainted |= _bound(node)
        else:
            keep.append(text)
    return keep


def disable_bokeh_cells(nb) -> int:
    """Comment out each code cell that imports bokeh or one of our modules that draws with it, and repeat below
    it, live, the statements that need neither (`live_statements`); returns how many cells."""
    count = 0
    for cell in nb.cells:
        if cell.cell_type == "code" and BOKEH_MODULES.search(cell.source):
            keep = live_statements(cell.source)
            body = "\n".join("# " + line if line else "#" for line in cell.source.splitlines())
            cell.source = LIVE_NOTE + body + ("\n\n" + "\n".join(keep) if keep else "")
            cell.outputs = []
            count += 1
    return count


def convert_chapters(sources: list[Path], files: Path) -> dict[str, int]:
    """Each MyST chapter -> files/<path under book>.ipynb with the Pyodide kernel; returns disabled cells a chapter."""
    import jupytext
    import nbformat

    disabled = {}
    for md in sources:
        rel = md.resolve().relative_to(REPO / "book").with_suffix(".ipynb")
        nb = jupytext.read(md, fmt="md:myst")
        nb.metadata.pop("jupytext", None)
        nb.metadata["kernelspec"] = dict(PYODIDE_KERNEL)
        nb.metadata["language_info"] = {"name": "python"}
        disabled[rel.as_posix()] = disable_bokeh_cells(nb)
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
            "jupyter-config-data": {"appName": "Executable Vietnam wargames (live)", "exposeAppInBrowser": "true"},
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
