"""The two players of Indochina (its own module, so that the data-file schemas can name them without the
combat rules)."""
from __future__ import annotations

from ..core.errors import DataError
from ..core.sequence import Side as BaseSide


class Side(BaseSide):
    """The two players (``side.enemy`` is the other)."""

    FEF = "FEF"
    COMMUNIST = "Communist"


def side_named(text) -> Side:
    """The side an action names; any other name is bad input (a DataError, which the game reports as an
    illegal name)."""
    try:
        return Side(text)
    except ValueError:
        raise DataError("action", "side", f"{text!r} is not a side; the sides are FEF and Communist") from None
