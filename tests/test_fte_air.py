"""The air-assault demonstration FRAGO (``air``): slicks flying reinforcements in (F 4.0, F 15.0), casualties
loaded and flown off (F 7.5.3, F 12.0, F 14.0) and Cobras (F 19.6), played through ``Game.apply``."""
import random

import pytest

from wargames import fte
from wargames.fte.game import FRAGOS

pytestmark = pytest.mark.rule("F 3.0")

QUIET = (fte.Draw, fte.Pass, fte.HoldFire, fte.EndActivation)


def quiet(g, until):
    """Draw, pass and hold fire (else the first offer) until ``until(g)`` holds."""
    while not until(g) and g.outcome() is None:
        legal = list(g.legal_actions)
        g.apply(next((a for a in legal if isinstance(a, QUIET)), legal[0]))


def plotted(g, trap="19.19", claymore="17.22"):
    """The set-up plots: the NVA/VC booby trap on the trail, the US claymore beside the landing zone (F 26.0)."""
    assert [g.prompt.side, g.prompt.kind] == ["NVA/VC", "plot"]
    g.apply(fte.Plot("booby_trap", trap))
    assert [g.prompt.side, g.prompt.kind] == ["US", "plot"]
    g.apply(fte.Plot("claymore", claymore))
    return g


def hold_fire(g):
    while g.prompt.kind == "opportunity_fire":
        g.apply(fte.HoldFire())


def steps(g, rule):
    return [s.text for r in g.resolutions for s in r.steps if s.rule == rule]


def test_the_air_frago_is_our_own_and_sets_up_the_ambush():
    f = fte.load_frago(FRAGOS / "air.yaml")
    assert "not one of the published FRAGOs" in f.note and "not a published" in (FRAGOS / "air.yaml").read_text()
    assert f.vp == {"US": 0, "NVA/VC": 8} and f.extra_chits == [{"turn": 2, "player": "US", "count": 1}]
    g = plotted(fte.Game.new("air", seed=1))
    s = g.state
    assert {(m.kind, s.label(m.hex)) for m in s.casualties.values()} == {("WIA", "17.23"), ("KIA", "17.24")}
    assert s.vp == {"US": 0, "NVA/VC": 8} and "Slick 1" not in s.units
    g.apply(fte.Draw())
    assert str(g.prompt) == "US: place your reinforcements on their map edge: Slick 1, Slick 2 (F 4.0)"


@pytest.mark.rule("F 4.0", "F 6.8", "F 14.0", "F 15.0", "F 7.5.3")
def test_a_slick_lands_unloads_picks_up_the_wounded_and_must_leave_the_next_turn():
    g = plotted(fte.Game.new("air", seed=3))
    g.apply(fte.Draw())
    g.apply(fte.PlaceReinforcement("Slick 1", "17.23", "treetop"))
    g.apply(fte.PlaceReinforcement("Slick 2", "17.22", "high"))
    assert g.state.units["Slick 1"].brought_reinforcements and g.prompt.kind == "draw"
    g.apply(fte.Draw())                                      # the US first activation
    g.apply(fte.Activate("unit", ("Slick 1",)))
    g.apply(fte.Move(("Slick 1",), altitude_start="ground"))   # lands: clear terrain allows it (F 6.8)
    hold_fire(g)
    g.apply(fte.Unload("Slick 1", units=("US FO", "US FT3", "US Lt")))
    hold_fire(g)
    slick = g.state.units["Slick 1"]
    assert slick.move_only and slick.leaves_turn == 2 and g.state.units["US Lt"].activated
    with pytest.raises(fte.game.RuleViolation):
        g.apply(fte.Load("Slick 1", units=("US Sgt",)))        # it may only move now (F 15.0) ...
    g.apply(fte.EndActivation())
    quiet(g, lambda g: g.state.turn == 2 and g.prompt.kind == "draw")
    (m,) = g.state.casualties_at(g.state.hex("17.23"))       # the wounded man (he died of wounds at turn's end)
    assert m.kind == "KIA" and any("dies of wounds" in t for t in steps(g, "F 17.0"))
    g.apply(fte.Draw())
    g.apply(fte.Activate("unit", ("Slick 1",)))
    g.apply(fte.Load("Slick 1", markers=(m.id,)))              # ... but by the errata it may load casualties
    hold_fire(g)
    g.apply(fte.Move(("Slick 1",)))                            # its Move: it hovers
    hold_fire(g)
    g.apply(fte.EndActivation())
    vp = g.state.vp["US"]
    quiet(g, lambda g: g.state.turn == 3)
    assert not g.state.units["Slick 1"].on_map and m.id not in g.state.casualties
    assert any("Slick 1 had to leave by the end of turn 2" in t for t in steps(g, "F 15.0"))
    assert any(m.id in t and "evacuated" in t for t in steps(g, "F 7.5.3"))
    assert g.state.vp["US"] == vp + 2                          # a friendly KIA evacuated (F 29.0)


def airmobile(g, a):
    """The actions of an air assault: landing, unloading, loading casualties, flying them off, asking for a
    medevac."""
    if isinstance(a, fte.Load):
        return bool(a.markers)
    if isinstance(a, (fte.Unload, fte.RequestMedevac)):
        return True
    u = g.state.units.get(a.units[0]) if isinstance(a, fte.Move) and len(a.units) == 1 else None
    aboard = u is not None and any(m.carried_by == u.id for m in g.state.casualties.values())
    return u is not None and u.kind == "helicopter" and ("ground" in (a.altitude_start, a.altitude_end)
                                                         or a.exit_map and aboard)      # flying casualties off


@pytest.mark.rule("F 4.0", "F 6.8", "F 12.0", "F 14.0", "F 15.0", "F 7.5.3")
def test_random_play_that_favours_the_air_assault_lands_unloads_evacuates_and_finishes():
    """Random legal play that takes an air-mobile action nine times in ten when one is offered (uniform random play
    seldom lands a slick in four turns): each of two games keeps the invariants and ends with a winner, and
    between them they land, unload, load casualties, fly them off and ask for a medevac."""
    seen: set[str] = set()
    for seed in (1, 4):
        g = fte.Game.new("air", seed=seed)
        rng = random.Random(seed)
        while g.outcome() is None:
            legal = list(g.legal_actions)
            air = [a for a in legal if airmobile(g, a)]
            busy = [a for a in legal if not isinstance(a, QUIET[1:])]
            g.apply(rng.choice(air if air and rng.random() < 0.9 else busy or legal))
            assert g.invariants() == []
        assert g.outcome().rule == "F 29.0"
        acts = [h.action for h in g.history]
        checks = {
            "enter at altitude": any(isinstance(a, fte.PlaceReinforcement) and a.altitude for a in acts),
            "land": any(isinstance(a, fte.Move) and a.altitude_start == "ground" for a in acts),
            "unload": any("unloads in" in t for t in steps(g, "F 15.0")),
            "load casualties": any(isinstance(a, fte.Load) and a.markers for a in acts),
            "leave the map": any("leaves the map" in t for t in steps(g, "F 15.0") + steps(g, "F 12.0")),
            "request a medevac": any("requests a medevac" in t for t in steps(g, "F 12.0")),
            "evacuate": any("evacuated" in t for t in steps(g, "F 7.5.3")),
        }
        seen |= {k for k, v in checks.items() if v}
    assert seen == {"enter at altitude", "land", "unload", "load casualties", "leave the map", "request a medevac",
                    "evacuate"}
