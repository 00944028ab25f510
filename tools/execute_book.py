"""Execute every chapter of the book on all cores, into the cache the book build then reads.

`make book` runs this first, then `jupyter-book build` with ``execute_notebooks: cache``: Jupyter Book executes
chapters one after another, so with ~1 s of kernel start and imports per chapter the floor alone grows with the
book. jupyter-cache's parallel executor runs one kernel per core instead, and the build merges the stored outputs
(a notebook matches its cache entry by the hash of its code cells, read with myst-nb's own reader).

The cache is emptied first, so every chapter runs against the current engine (a chapter whose code did not
change would otherwise keep outputs from an older engine). A chapter that fails is not stored: the build then
runs it again itself and reports the failing cell, and ``-W`` fails the build.

Prints a table of each chapter's execution time, slowest first.

    .venv/bin/python tools/execute_book.py                 # every chapter in _toc.yml
    .venv/bin/python tools/execute_book.py --cache DIR     # another cache folder
"""
from __future__ import annotations

import argparse
import logging
import shutil
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / ".jupyter_cache"
READER = {"name": "myst_nb_md", "type": "plugin"}   # myst-nb's reader, so the hashes match the build's


def toc_files(toc: Path = ROOT / "_toc.yml") -> list[str]:
    """Every document of the table of contents, in order (paths without suffix)."""
    docs: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            if "file" in node:
                docs.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(yaml.safe_load(toc.read_text(encoding="utf-8")))
    return docs


def notebooks(docs: list[str]) -> list[Path]:
    """The documents that are notebooks (MyST markdown with a jupytext header and code cells)."""
    out = []
    for doc in docs:
        path = ROOT / f"{doc}.md"
        if path.exists() and "```{code-cell}" in path.read_text(encoding="utf-8"):
            out.append(path)
    return out


def own_timeout(path: Path) -> int | None:
    """A chapter's own cell timeout (``mystnb: execution_timeout:`` in its front matter), if it sets one."""
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---"):
        return None
    meta = yaml.safe_load(text.split("---", 2)[1]) or {}
    return (meta.get("mystnb") or {}).get("execution_timeout")


def time_table(rows: list[tuple[str, float | None]], wall: float) -> str:
    """The chapters' execution times, slowest first, with the total and the wall-clock time."""
    done = sorted(((doc, t) for doc, t in rows if t is not None), key=lambda r: -r[1])
    failed = [doc for doc, t in rows if t is None]
    width = max((len(doc) for doc, _ in rows), default=10)
    lines = [f"{'chapter':<{width}}  seconds", f"{'-' * width}  -------"]
    lines += [f"{doc:<{width}}  {t:7.1f}" for doc, t in done]
    lines += [f"{doc:<{width}}   failed (the build runs it again and reports it)" for doc in failed]
    total = sum(t for _, t in done)
    lines.append(f"{len(done)} chapters executed: {total:.0f} s of kernel time in {wall:.0f} s of wall time")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from jupyter_cache import get_cache
    from jupyter_cache.executors import load_executor

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--timeout", type=int, default=300,
                        help="seconds per cell (as _config.yml; a chapter's front matter may ask for more)")
    args = parser.parse_args(argv)
    shutil.rmtree(args.cache, ignore_errors=True)
    cache = get_cache(str(args.cache))
    paths = notebooks(toc_files())
    timeout = max([args.timeout] + [t for p in paths if (t := own_timeout(p))])
    # The chapters that ask for a longer timeout are the long ones: start them first, so the others fill the
    # other cores around them instead of leaving one chapter running alone at the end.
    for path in sorted(paths, key=lambda p: own_timeout(p) is None):
        cache.add_nb_to_project(str(path), read_data=READER)
    logger = logging.getLogger("execute_book")
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    start = time.monotonic()
    executor = load_executor("local-parallel", cache, logger=logger)
    result = executor.run_and_cache(timeout=timeout, allow_errors=False)
    wall = time.monotonic() - start
    seconds = {}
    for record in cache.list_cache_records():
        seconds[record.uri] = record.data.get("execution_seconds")
    rows = [(str(p.relative_to(ROOT).with_suffix("")), seconds.get(str(p))) for p in paths]
    print(time_table(rows, wall))
    if result.excepted or result.errored:
        print(f"{len(result.excepted) + len(result.errored)} chapter(s) failed here; the build reports them",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
