"""The two players of Indochina (its own module, so that the data-file schemas can name them without the
combat rules)."""
from __future__ import annotations

from ..core.sequence import Side as BaseSide


class Side(BaseSide):
    """The two players (``side.enemy`` is the other)."""

    FEF = "FEF"
    COMMUNIST = "Communist"
