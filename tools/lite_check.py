"""Which live-edition notebooks run to the end without bokeh? A quick CPython stand-in for Pyodide.

    .venv/bin/python tools/lite_check.py [_build/html/lite/files/indochina/rule13.ipynb ...]

Runs each notebook that tools/lite.py wrote (default: all of them, under _build/html/lite/files) in a local
kernel in which importing bokeh fails, as it does in Pyodide, and prints, for each, "ok" or the first cell
that fails and why. It does not prove a notebook runs in Pyodide (tests/browser/test_lite.py does that for
one chapter); it finds the cells that still depend on bokeh, directly or through a commented-out cell.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbclient
import nbformat

REPO = Path(__file__).resolve().parents[1]
BLOCK_BOKEH = """
import sys
class _NoBokeh:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("bokeh", "jupyter_bokeh"):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked: the live edition has no bokeh)", name=name)
sys.meta_path.insert(0, _NoBokeh())
"""


def check(path: Path, timeout: int = 120) -> tuple[bool, str]:
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(BLOCK_BOKEH))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    client = nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=False)
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as err:
        code = [c for c in nb.cells if c.cell_type == "code"]
        failed = next((i for i, c in enumerate(code) if any(o.get("output_type") == "error" for o in c.outputs)), -1)
        return False, f"code cell {failed} of {len(code) - 1}: {err.ename}: {str(err.evalue)[:120]}"
    except Exception as err:  # noqa: BLE001 - report and go on to the next notebook
        return False, f"{type(err).__name__}: {str(err)[:120]}"
    return True, "ok"


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted((REPO / "_build/html/lite/files").rglob("*.ipynb"))
    ok = 0
    for path in paths:
        start = time.time()
        good, why = check(path)
        ok += good
        print(f"{'ok  ' if good else 'FAIL'} {path.relative_to(path.parents[1])} ({time.time() - start:.0f} s) {why}",
              flush=True)
    print(f"{ok} of {len(paths)} notebooks run to the end without bokeh")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
