"""Hostile-input suite: the citadel loaders and their samples."""
from __future__ import annotations

from .cases import Loader

LOADERS: list[Loader] = []
