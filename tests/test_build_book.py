"""tools/build_book.py: `jupyter-book build` with Sphinx's parallel jobs, the same arguments and the same exit code."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location("build_book", ROOT / "tools" / "build_book.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def jupyter_book_sphinx():
    """Jupyter Book's Sphinx entry point, imported by the test that needs it (Sphinx and its extensions take
    about 3 s to import, which collection would otherwise pay in every worker)."""
    return pytest.importorskip("jupyter_book.sphinx")


def _book(tmp_path: Path) -> Path:
    (tmp_path / "_config.yml").write_text("title: Tiny\n")
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    (tmp_path / "intro.md").write_text("# Intro\n")
    return tmp_path


@pytest.mark.filterwarnings("ignore:'BaseCommand' is deprecated:DeprecationWarning")    # jupyter-book's CLI, on click 8.2+
@pytest.mark.parametrize("status", [0, 2])
def test_the_build_gets_the_jobs_and_arguments_and_gives_its_exit_code(tmp_path, monkeypatch, status,
                                                                        jupyter_book_sphinx):
    calls = []

    def fake_build_sphinx(*args, **kwargs):
        calls.append(kwargs)
        return status

    monkeypatch.setattr(jupyter_book_sphinx, "build_sphinx", fake_build_sphinx)
    book = _book(tmp_path)
    assert _tool().main(["--jobs", "3", "--", str(book), "--all", "-W", "--keep-going"]) == status
    [kw] = calls
    assert kw["jobs"] == 3 and kw["freshenv"] and kw["warningiserror"] and kw["keep_going"]
