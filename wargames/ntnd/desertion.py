"""NT 25.3: ARVN desertion when the cities fall.

While ARVN is demoralized (25.1) and the milder regime of 25.3 applies (:meth:`Policy.morale_rules`: US ground
units still in South Vietnam, or Full Vietnamization), the loss of cities makes ARVN units desert. A corps zone
with two or more of its cities in Communist hands has every ARVN unit in it roll one die; if Saigon is in
Communist hands, every ARVN unit in South Vietnam rolls. A roll above the unit's printed morale sends it out of
play (to the dead pile, from which it may be bought back), with no points to the Communist player. Where a
division, or two regiments of one hex, desert, a Communist supply unit takes their place.

Our readings: a city is "Communist-occupied" when face-up Communist units hold it (as the occupation items of
22.4 count it); "ARVN units" are the South Vietnamese ground combat units, as for the 25.4.1 rolls of
:func:`wargames.ntnd.combat.desertion_rolls`. The roll is made once a turn, in the Allied reinforcement phase
(25.3.1); calling it at that moment is the game's business, this module is the procedure.
"""
from __future__ import annotations

from ..core import implements
from ..core.dice import Dice, roll_die
from ..core.log import Resolution
from .engagement import eliminate, us_ground_in_svn
from .state import NtndState

SVN_CORPS = ("I", "II", "III", "IV")
SAIGON = "Saigon"
CITIES_TO_FALL = 2          # 25.3: "two or more major cities"


def _held(state: NtndState, label: str) -> bool:
    """A hex is Communist-occupied when face-up Communist units are in it (our reading, as 22.4)."""
    return any(state.side_of(u) == "communist" and state.piece(u).face_up for u in state.at(label))


@implements("NT 25.3")
def fallen_cities(state: NtndState, corps: str) -> tuple[str, ...]:
    """The cities of a South Vietnamese corps zone that face-up Communist units occupy, by name."""
    g = state.geography
    return tuple(name for name, h in g.settlements(corps).items() if g.is_city(h) and _held(state, g.label(h)))


@implements("NT 25.3")
def desertion_areas(state: NtndState) -> tuple[str, ...]:
    """The corps zones whose ARVN units roll: all four if Saigon is held, otherwise those that have lost two or
    more cities (25.3)."""
    g = state.geography
    if _held(state, g.label(g.place(SAIGON))):
        return SVN_CORPS
    return tuple(c for c in SVN_CORPS if len(fallen_cities(state, c)) >= CITIES_TO_FALL)


@implements("NT 25.3")
def city_desertion(state: NtndState, dice: Dice, *, points: int | None = None,
                   res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """Roll for every ARVN unit that 25.3 puts at risk and remove the deserters; returns the new position.

    ``points``: the political track as the player turn began (25.1; by default the track now). Nothing
    happens unless ARVN is demoralized and 25.3 applies (:meth:`Policy.morale_rules`). ``res.result`` is the
    tuple of deserters.
    """
    res = res if res is not None else Resolution()
    points = state.track.points if points is None else points
    rules = state.policy.morale_rules(points, us_ground_in_svn(state))
    if "NT 25.3" not in rules:
        why = "ARVN is not demoralized" if not rules else "the 25.4 regime applies instead"
        res.add("NT 25.3", f"no desertion roll: {why}", result=())
        res.result = ()
        return state, res
    areas = desertion_areas(state)
    g = state.geography
    if not areas:
        res.add("NT 25.3", "no desertion roll: Saigon holds and no corps has lost two cities", result=())
        res.result = ()
        return state, res
    res.add("NT 25.3", ("Saigon has fallen: every ARVN unit in South Vietnam rolls" if
                        _held(state, g.label(g.place(SAIGON))) else
                        "ARVN units roll in " + ", ".join(f"{c} Corps ({' and '.join(fallen_cities(state, c))} "
                                                         f"lost)" for c in areas)))
    new = state.copy()
    gone: list[str] = []
    for u in state.units("allied"):
        c = state.counter(u)
        if c.nationality != "SVN" or not c.ground_combat or state.in_zone(u) or state.area_of(
                state.piece(u).location) not in areas:
            continue
        roll = roll_die(dice, 6, f"desertion of {u} (NT 25.3)", classes=lambda v, p=c.morale: v > p)
        deserts = roll > c.morale
        res.add("NT 25.3", f"{u} rolls: {'it deserts' if deserts else 'it stays'}",
                arithmetic=f"{roll} {'>' if deserts else '<='} printed morale {c.morale}", unit=u, roll=roll,
                result=deserts)
        if deserts:
            gone.append(u)
    left_behind: dict[str, list[str]] = {}
    for u in gone:
        left_behind.setdefault(state.piece(u).location, []).append(u)
        eliminate(new, u, cause="desertion", res=res)
    for where, units in left_behind.items():
        sizes = [state.counter(u).size for u in units]
        if "division" in sizes or sizes.count("regiment") >= 2:
            free = new.available("communist", type="supply")
            if not free:
                res.add("NT 25.3", f"no Communist supply unit is left in the mix to place at {where}")
                continue
            new.place(free[0].id, where, face_up=True)
            res.add("NT 25.3", f"{free[0].id} is placed at {where}, where {' and '.join(units)} deserted",
                    unit=free[0].id, location=where)
    res.result = tuple(gone)
    return new, res
