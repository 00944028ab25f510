"""Rule 22: who may cross which border."""
from __future__ import annotations

from ..core import Hex, implements
from .state import IndochinaState
from .units import UnitState

INDOCHINA = ("Vietnam", "Laos", "Cambodia")
NATIONAL_ARMIES = ("VNA", "Cambodian", "Laotian", "Vietnamese National Army", "Cambodian National Army",
                   "Laotian National Army", "Khmer Issarak", "Pathet Lao")           # 22.1(2), short and full names
NEVER_CHINA = ("French", "US")                                                    # 22.1(1)


def country(st: IndochinaState, h: Hex) -> str:
    return st.map.info(h).attr("country", "Vietnam")


@implements("IC 22.0", "IC 22.1", "IC 22.3", "IC 22.4")
def border_problem(st: IndochinaState, u: UnitState, a: Hex, b: Hex) -> str | None:
    """Why ``u`` may not go from ``a`` into ``b`` across a border, or None (22.1, 22.3, 22.4).

    Units with no nationality recorded are treated by side: FEF units as French, Communist units as Viet Minh.
    """
    ca, cb = country(st, a), country(st, b)
    if cb in ("Burma", "Thailand"):
        return f"no unit ever enters {cb} (22.4)"
    if ca == cb:
        return None
    nat = u.counter.nationality or ("French" if u.side.value == "FEF" else "Viet Minh")
    if nat in NATIONAL_ARMIES:
        return f"{nat} units never cross a border (22.1(2))"
    if nat == "Viet Minh" and u.counter.type == "guerrilla":
        return "Viet Minh guerrillas never cross a border (22.1(3))"
    if "China" in (ca, cb) and not (nat == "Chinese" or (nat == "Viet Minh" and u.counter.type != "guerrilla")):
        return f"only Chinese and Viet Minh non-guerrilla units enter or leave China (22.3); {u.id} is {nat}"
    return None


@implements("IC 22.2", "IC 22.3")
def attack_problem(st: IndochinaState, attacker_side: str, target: Hex) -> str | None:
    """The FEF may never attack into China (22.3); attacks across the Indochinese borders are free (22.2)."""
    if attacker_side == "FEF" and country(st, target) == "China":
        return "the FEF never attacks into China (22.3)"
    return None
