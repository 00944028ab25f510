"""Build the book's HTML with ``jupyter-book build`` on every core (Sphinx's parallel reading and writing).

Jupyter Book 1's command line has no option for Sphinx's ``-j``, though the function it calls,
``jupyter_book.sphinx.build_sphinx``, takes ``jobs``. This runs the same command with ``jobs`` set. Sphinx then
reads the pages in that many processes and writes them in that many less one (the main process prepares each
page's doctree for them). The build is otherwise the same, with the same arguments, configuration and checks.

    .venv/bin/python tools/build_book.py [--jobs N] -- <jupyter-book build arguments>
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count() + 1,
                        help="Sphinx processes (default: one more than the cores, since writing uses one less)")
    parser.add_argument("build_args", nargs=argparse.REMAINDER, help="arguments for `jupyter-book build`")
    args = parser.parse_args(argv)
    build_args = args.build_args[1:] if args.build_args[:1] == ["--"] else args.build_args

    import jupyter_book.sphinx
    from jupyter_book.cli.main import main as jupyter_book_main

    build_sphinx = jupyter_book.sphinx.build_sphinx

    def build_sphinx_in_parallel(*a, **kw):
        kw["jobs"] = args.jobs
        return build_sphinx(*a, **kw)

    # `jupyter-book build` imports build_sphinx from this module when it runs, so it finds this one.
    jupyter_book.sphinx.build_sphinx = build_sphinx_in_parallel
    try:
        jupyter_book_main(["build", *build_args], standalone_mode=False)
    except SystemExit as e:         # jupyter-book reports a failed build by exiting
        return int(e.code or 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
