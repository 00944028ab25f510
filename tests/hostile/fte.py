"""Hostile-input suite: the fte loaders and their samples."""
from __future__ import annotations

from .cases import Loader

LOADERS: list[Loader] = []
