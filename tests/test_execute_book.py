"""tools/execute_book.py: chapters share a kept kernel per worker, yet each starts clean, in its own folder,
and is stored so that the book build finds it (the build matches a chapter by its hash)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEADER = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

"""


def _tool():
    spec = importlib.util.spec_from_file_location("execute_book", ROOT / "tools" / "execute_book.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def jupyter_cache():
    """jupyter-cache, imported by the tests that run chapters rather than while tests are collected: with
    nbformat it takes about 2 s to import (jsonschema's URI checker builds a grammar), in every worker."""
    pytest.importorskip("nbclient")
    return pytest.importorskip("jupyter_cache")


def _chapter(folder: Path, code: str) -> Path:
    folder.mkdir()
    path = folder / "chapter.md"
    path.write_text(HEADER + "```{code-cell} ipython3\n" + code + "\n```\n", encoding="utf-8")
    return path


def _printed(cache, pk: int) -> str:
    nb = cache.get_cache_bundle(pk).nb
    return "".join(o.get("text", "") for cell in nb.cells for o in cell.get("outputs", []))


def test_a_kept_kernel_gives_each_chapter_a_clean_namespace_in_its_folder_and_a_stored_run_the_build_finds(
        tmp_path, jupyter_cache):
    tool = _tool()
    first = _chapter(tmp_path / "a", "left_behind = 1\nimport os\nprint(os.getcwd())")
    second = _chapter(tmp_path / "b", "import os\nprint('left_behind' in globals(), os.getcwd())")
    failing = _chapter(tmp_path / "c", "raise ValueError('a failing cell')")
    third = _chapter(tmp_path / "d", "import json\nprint(json.dumps(2))")
    cache = jupyter_cache.get_cache(str(tmp_path / "cache"))
    pks = [cache.add_nb_to_project(str(p), read_data=tool.READER).pk for p in (first, second, failing, third)]
    jobs = [(pk, str(tmp_path / "cache"), 60) for pk in pks]
    try:
        codes = tool._execute(tuple(jobs[:1]))
        kept = tool._KERNEL["kc"]
        codes += tool._execute(tuple(jobs[1:2]))
        assert tool._KERNEL["kc"] is kept               # the kernel's client too is kept from chapter to chapter
        codes += tool._execute(tuple(jobs[2:]))
        assert tool._KERNEL["kc"] is not kept
    finally:
        tool._shutdown_kernel()
    assert [c for c, _ in codes] == [0, 0, 1, 0]
    records = {r.uri: r for r in cache.list_cache_records()}
    assert str(failing) not in records                  # not stored: the build runs it again and reports it
    assert _printed(cache, records[str(first)].pk).strip() == str(tmp_path / "a")
    assert _printed(cache, records[str(second)].pk).split() == ["False", str(tmp_path / "b")]
    assert _printed(cache, records[str(third)].pk).strip() == "2"     # after a failure, a new kernel
    for path in (first, second, third):                 # what the build looks up: the chapter as myst-nb reads it
        nb = cache.get_project_notebook(cache.get_project_record(str(path)).pk).nb
        assert cache.match_cache_notebook(nb).uri == str(path)


def test_the_comparison_chapters_run_as_one_job_where_the_first_of_them_stood():
    tool = _tool()
    uris = [str(ROOT / p) for p in ("book/appendix/coverage.md", "book/intro.md", "book/compare/engagement.md",
                                    "book/citadel/rule08.md", "book/compare/designers.md", "book/fte/rule08.md")]
    jobs = list(range(len(uris)))
    assert tool.group_jobs(jobs, uris) == [(0,), (1,), (2, 4), (3,), (5,)]
    assert tool.shared_folder(ROOT / "book" / "compare" / "history.md") == "book/compare/"
    assert tool.shared_folder(ROOT / "book" / "citadel" / "rule08.md") is None
    assert tool.shared_folder(Path("/elsewhere/book/compare/history.md")) is None


class _RecordingLock:
    """A lock that says whether it is held."""

    def __init__(self):
        self.held = False

    def __enter__(self):
        assert not self.held
        self.held = True

    def __exit__(self, *exc):
        self.held = False


def test_workers_write_to_the_cache_one_at_a_time_under_the_lock_they_share(tmp_path, monkeypatch, jupyter_cache):
    # jupyter-cache adds a record before its file and prunes in two queries, so two workers writing at once
    # could prune the other's half-written entry (a KeyError that failed a CI build)
    tool = _tool()
    lock = _RecordingLock()
    writes = []
    from jupyter_cache.cache.main import JupyterCacheBase
    real = JupyterCacheBase.cache_notebook_bundle

    def store(self, *args, **kwargs):
        writes.append(lock.held)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(JupyterCacheBase, "cache_notebook_bundle", store)
    chapter = _chapter(tmp_path / "a", "print(1)")
    cache = jupyter_cache.get_cache(str(tmp_path / "cache"))
    pk = cache.add_nb_to_project(str(chapter), read_data=tool.READER).pk
    tool._worker_start(lock)
    try:
        assert tool._execute(((pk, str(tmp_path / "cache"), 60),)) == [(0, str(chapter))]
    finally:
        tool._shutdown_kernel()
        tool._CACHE_LOCK.clear()
    assert writes == [True] and not lock.held
    assert [r.uri for r in cache.list_cache_records()] == [str(chapter)]
