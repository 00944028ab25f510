"""Execute every chapter of the book on all cores, into the cache the book build then reads.

`make book` runs this first, then `jupyter-book build` with ``execute_notebooks: cache``: Jupyter Book executes
chapters one after another, each in a new kernel, so with about 1-2 s of kernel start and imports (bokeh alone
takes 1 s) per chapter the floor alone grows with the book. Here one worker per core runs chapters one after
another in a kernel of its own that it keeps, with the client connected to it: before each chapter the kernel's namespace is emptied
(``%reset -f``) and it moves to the chapter's folder, so a chapter sees no name another defined, while the
modules it imports are already loaded. A chapter that fails takes its kernel with it (the next one starts a
new kernel). The stored outputs go into jupyter-cache's cache, and the build merges them (a notebook matches its
cache entry by the hash of its code cells, read with myst-nb's own reader).

The comparison chapters (``book/compare/``) run as one job, one after another in one kernel: they draw the same
curves and worths, which ``wargames.compare`` memoises, so the later ones find them computed (each still runs
whole, and alone in a new kernel it gives the same outputs).

The cache is emptied first, so every chapter runs against the current engine (a chapter whose code did not
change would otherwise keep outputs from an older engine). A chapter that fails is not stored: the build then
runs it again itself and reports the failing cell, and ``-W`` fails the build.

Prints a table of each chapter's execution time, slowest first.

    .venv/bin/python tools/execute_book.py                 # every chapter in _toc.yml
    .venv/bin/python tools/execute_book.py --cache DIR     # another cache folder
"""
from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import shutil
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / ".jupyter_cache"
READER = {"name": "myst_nb_md", "type": "plugin"}   # myst-nb's reader, so the hashes match the build's
#: folders whose chapters run as one job in one kernel, since they compute the same memoised figures
SHARED_KERNEL = ("book/compare/",)
#: the lock the workers share around each write to the cache (set by :func:`_worker_start`)
_CACHE_LOCK: list = []


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


_KERNEL: dict = {}     # this worker process's kernel manager and client, kept from one chapter to the next


def _run(client, kc=None) -> None:
    """Execute a NotebookClient's notebook, leaving the kernel and the client's channels open for the next one.
    With ``kc``, the kept kernel client is used: a new one waits for the kernel to be ready and for its output
    channel to fall silent, about 0.2 s each time (NotebookClient's constructor drops a ``kc`` passed to it, so it
    is set afterwards)."""
    if kc is not None:
        client.kc = kc
    client.execute(cleanup_kc=False)


def _shutdown_kernel() -> None:
    kc, km = _KERNEL.pop("kc", None), _KERNEL.pop("km", None)
    if kc is not None:
        kc.stop_channels()
    if km is not None:
        from jupyter_core.utils import run_sync
        try:
            run_sync(km.shutdown_kernel)(now=True)
        except Exception:       # noqa: BLE001 - a dead kernel has nothing left to shut down
            pass


def _execute_one(job: tuple[int, str, int]) -> tuple[int, str]:
    """Run one chapter in this worker's kept kernel and store its outputs: 0 stored, 1 a cell failed, 2 other."""
    import nbformat
    from jupyter_cache import get_cache
    from jupyter_cache.executors.utils import create_cache_bundle
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    pk, cache_path, timeout = job
    cache = get_cache(cache_path)
    project_nb = cache.get_project_notebook(pk)
    cwd = str(Path(project_nb.uri).parent)
    km, kc = _KERNEL.get("km"), _KERNEL.get("kc")
    client = None
    start = time.perf_counter()
    try:
        if km is not None:                      # a clean namespace, in the chapter's folder
            fresh = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
                f"%reset -f\nimport os as _os\n_os.chdir({cwd!r})\ndel _os")])
            _run(NotebookClient(fresh, km=km, timeout=timeout, record_timing=False), kc)
            start = time.perf_counter()
        # no timing records (as jupyter-cache runs cells): a cell's metadata is part of the hash the build matches
        client = NotebookClient(project_nb.nb, km=km, timeout=timeout, allow_errors=False, record_timing=False,
                                resources={"metadata": {"path": cwd}})
        _run(client, kc)
        _KERNEL["km"], _KERNEL["kc"] = client.km, client.kc
    except Exception as e:      # noqa: BLE001 - a failed cell, a dead kernel: the build runs it again, reports it
        if km is None and client is not None and client.km is not None:
            _KERNEL["km"], _KERNEL["kc"] = client.km, client.kc     # the kernel this chapter started goes down
        _shutdown_kernel()
        return (1 if isinstance(e, (CellExecutionError, CellTimeoutError)) else 2), project_nb.uri
    seconds = time.perf_counter() - start
    # One writer at a time: a write adds its record before its file and then prunes the cache in two queries,
    # so another worker's record added in between was taken for one to prune, with its file not yet there.
    with (_CACHE_LOCK[0] if _CACHE_LOCK else contextlib.nullcontext()):
        cache.cache_notebook_bundle(create_cache_bundle(project_nb, cwd, None, seconds, None),
                                    check_validity=False, overwrite=True)
    return 0, project_nb.uri


def _execute(jobs: tuple[tuple[int, str, int], ...]) -> list[tuple[int, str]]:
    """Run a job's chapters one after another in this worker's kept kernel."""
    return [_execute_one(job) for job in jobs]


def shared_folder(path: Path) -> str | None:
    """The :data:`SHARED_KERNEL` folder a chapter lies in, if any."""
    path = path.resolve()
    if not path.is_relative_to(ROOT):
        return None
    rel = path.relative_to(ROOT).as_posix()
    return next((f for f in SHARED_KERNEL if rel.startswith(f)), None)


def group_jobs(jobs: list, uris: list[str]) -> list[tuple]:
    """The jobs in order, those whose chapter lies in a :data:`SHARED_KERNEL` folder gathered into one job at
    the place of the folder's first chapter."""
    out: list[list] = []
    where: dict[str, list] = {}
    for job, uri in zip(jobs, uris):
        folder = shared_folder(Path(uri))
        if folder is None:
            out.append([job])
        elif folder in where:
            where[folder].append(job)
        else:
            where[folder] = [job]
            out.append(where[folder])
    return [tuple(group) for group in out]


def _worker_start(lock=None) -> None:
    """Keep the shared cache lock, and shut this worker's kernel down when it ends."""
    from multiprocessing.util import Finalize
    _CACHE_LOCK[:] = [lock] if lock is not None else []
    Finalize(None, _shutdown_kernel, exitpriority=10)       # a worker that ends shuts its kernel down


def main(argv: list[str] | None = None) -> int:
    from jupyter_cache import get_cache

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--timeout", type=int, default=300,
                        help="seconds per cell (as _config.yml; a chapter's front matter may ask for more)")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args(argv)
    shutil.rmtree(args.cache, ignore_errors=True)
    cache = get_cache(str(args.cache))
    paths = notebooks(toc_files())
    timeout = max([args.timeout] + [t for p in paths if (t := own_timeout(p))])
    # The chapters that ask for a longer timeout are the long ones, and a shared-kernel group is long too: start
    # them first, so the others fill the other cores around them instead of leaving one running alone at the end.
    for path in sorted(paths, key=lambda p: (own_timeout(p) is None, shared_folder(p) is None)):
        cache.add_nb_to_project(str(path), read_data=READER)
    records = cache.list_project_records()                                                      # in that order
    jobs = group_jobs([(r.pk, str(args.cache), timeout) for r in records], [r.uri for r in records])
    start = time.monotonic()
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(args.workers, initializer=_worker_start, initargs=(context.Lock(),))
    try:
        results = [r for group in pool.imap_unordered(_execute, jobs, chunksize=1) for r in group]
    finally:
        pool.close()            # not terminate(): each worker then ends normally and shuts its kernel down
        pool.join()
    wall = time.monotonic() - start
    seconds = {}
    for record in cache.list_cache_records():
        seconds[record.uri] = record.data.get("execution_seconds")
    rows = [(str(p.relative_to(ROOT).with_suffix("")), seconds.get(str(p))) for p in paths]
    print(time_table(rows, wall))
    failed = [uri for code, uri in results if code]
    if failed:
        print(f"{len(failed)} chapter(s) failed here; the build reports them", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
