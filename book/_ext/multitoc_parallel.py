"""Sphinx extension: the book may be read in parallel although sphinx-multitoc-numbering does not say so.

sphinx-multitoc-numbering declares nothing about parallel reading, so Sphinx would read the pages one after
another and say so in a warning (which ``-W`` makes fatal). All the extension does is replace the TocTree
collector's ``assign_section_numbers``, which Sphinx calls in the main process once every page has been read
and merged: reading the pages in worker processes does not reach it. This marks it safe for parallel reading,
for the version checked (0.1.3); another version stops the build, to be checked again.
"""
from __future__ import annotations

from sphinx.errors import ExtensionError

NAME = "sphinx_multitoc_numbering"
CHECKED = "0.1.3"


def mark_safe(app) -> None:
    ext = app.extensions.get(NAME)
    if ext is None or ext.parallel_read_safe is not None:
        return
    version = getattr(ext.module, "__version__", "unknown")   # its setup() returns no metadata, so no version
    if version != CHECKED:
        raise ExtensionError(f"{NAME} {version} is not the version checked for parallel reading ({CHECKED}): "
                             f"check that it still only assigns section numbers after reading, then update "
                             f"book/_ext/multitoc_parallel.py")
    ext.parallel_read_safe = True


def setup(app):
    # builder-inited: after every extension of the configuration is loaded, before Sphinx asks which may read
    # in parallel
    app.connect("builder-inited", mark_safe)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
