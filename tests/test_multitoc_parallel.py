"""book/_ext/multitoc_parallel.py: with it, Sphinx reads in parallel beside sphinx-multitoc-numbering, warns
nothing (the book builds with -W) and numbers the chapters as it does reading one page at a time."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

EXT = Path(__file__).resolve().parents[1] / "book" / "_ext"


def _build(tmp_path: Path, extensions: list[str], jobs: int) -> tuple[int, str]:
    sphinx_build = pytest.importorskip("sphinx.cmd.build")
    pytest.importorskip("sphinx_multitoc_numbering")
    src, out = tmp_path / "src", tmp_path / f"html{jobs}{len(extensions)}"
    (src / "a").mkdir(parents=True, exist_ok=True)
    (src / "conf.py").write_text(f"import sys\nsys.path.insert(0, {str(EXT)!r})\nextensions = {extensions!r}\n")
    (src / "index.rst").write_text("Book\n====\n\n.. toctree::\n   :numbered:\n\n" +
                                   "".join(f"   a/ch{i}\n" for i in range(8)))
    for i in range(8):          # Sphinx reads in parallel only from six pages up
        (src / "a" / f"ch{i}.rst").write_text(f"Chapter {i}\n==========\n\nSection\n-------\n")
    status = sphinx_build.build_main(["-q", "-W", "-j", str(jobs), "-b", "html", str(src), str(out)])
    page = (out / "a" / "ch7.html").read_text(encoding="utf-8") if status == 0 else ""
    return status, page


@pytest.mark.filterwarnings("ignore:nodes.Node.traverse:PendingDeprecationWarning")    # in sphinx-multitoc-numbering
def test_parallel_reading_warns_nothing_and_numbers_as_serial_reading(tmp_path):
    assert _build(tmp_path, ["sphinx_multitoc_numbering"], 2)[0] != 0        # undeclared: a warning, fatal
    status, parallel = _build(tmp_path, ["sphinx_multitoc_numbering", "multitoc_parallel"], 2)
    assert status == 0
    serial = _build(tmp_path, ["sphinx_multitoc_numbering", "multitoc_parallel"], 1)[1]
    number = re.compile(r'<span class="section-number">([0-9.]+)')
    assert number.findall(parallel) == number.findall(serial) and "8.1." in number.findall(parallel)
