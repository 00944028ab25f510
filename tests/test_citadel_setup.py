"""Citadel Scenario Rules 2 and 3 through the game: every scenario set up on the valley by placement prompts,
the set-up's limits, and the victory at the end."""
import random

import pytest

from wargames.citadel import Game, Side
from wargames.citadel.game import EndPhase
from wargames.citadel.setup import Place, PlaceWorks, _hexes_needed, place_hexes, scenario_state
from wargames.core.errors import RuleViolation


@pytest.mark.rule("C SR 2")
@pytest.mark.parametrize("n", range(1, 9))
def test_every_french_disposition_fits_its_strongpoints(n):
    st, _ = scenario_state(n)
    groups = {}
    for uid in st.setup.french:
        groups.setdefault(st.setup.places[uid], []).append(st.unit(uid))
    for where, units in groups.items():
        assert _hexes_needed(units, {}) <= len(place_hexes(st, where, Side.FRENCH)), where


@pytest.mark.rule("C SR 2")
@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_random_set_ups_always_finish(n):
    """Placements chosen at random never leave a unit without a legal hex (the room check of C 6)."""
    rng = random.Random(n)
    g = Game.new(f"scenario{n}", seed=n)
    while g.phase.id == "set-up":
        acts = list(g.legal_actions)
        assert acts, g.prompt
        g.apply(rng.choice(acts))
    st = g.state
    assert not st.setup.french and not st.setup.vietminh and g.invariants() == []
    assert g.state.phase == ("French movement" if n == 2 else "weather") or g.phase.id != "set-up"


@pytest.mark.rule("C SR 2")
def test_french_units_set_up_only_in_their_complex_and_within_stacking():
    g = Game.new("scenario1")
    uid = g.state.setup.french[0]
    assert g.state.setup.places[uid] == "Beatrice"
    with pytest.raises(RuleViolation, match="not one of its hexes"):
        g.apply(Place(uid, "N1316"))
    first = next(iter(g.legal_actions))
    g.apply(first)
    assert g.state.unit(uid).hex == g.state.map.hex(first.hex)


@pytest.mark.rule("C SR 2", "C 18")
def test_works_need_a_root_in_partial_jungle_and_stay_within_the_allowance():
    g = Game.new("scenario3", seed=1)
    while g.state.setup_stage == "French":
        g.apply(next(iter(g.legal_actions)))
    assert "place trenches" in str(g.prompt)
    st = g.state
    clear = next(h for h in sorted(st.map.hexes) if st.map.terrain(h) == "clear" and not st.units_at(h))
    with pytest.raises(RuleViolation, match="leading back to partial jungle"):
        g.apply(PlaceWorks("trench", (st.label(clear),)))
    with pytest.raises(RuleViolation, match="only on a hill"):
        g.apply(PlaceWorks("tunnel", (st.label(clear),)))
    root = next(a for a in g.legal_actions if isinstance(a, PlaceWorks))
    g.apply(root)
    assert g.state.works
    g.apply(EndPhase())
    assert "Vietminh units" in str(g.prompt)


@pytest.mark.rule("C SR 3", "C Sc 2")
def test_the_flak_raid_is_one_french_player_turn_scored_on_antiaircraft_batteries():
    rng = random.Random(5)
    g = Game.new("scenario2", seed=5)
    while g.outcome() is None:
        acts = list(g.legal_actions)
        g.apply(EndPhase() if EndPhase() in acts and g.phase.id != "set-up" else rng.choice(acts))
    out = g.outcome()
    assert out.rule == "C SR 3" and out.winner == "Vietminh" and "antiaircraft" in out.reason
    assert g.state.date.isoformat() == "1954-03-28"


@pytest.mark.rule("C SR 3")
def test_an_automatic_loss_stops_play_at_once():
    g = Game.new("scenario7")
    g.state.vm_losses = 101
    assert g.outcome() is None                       # the set-up is not play
    while g.phase.id == "set-up":
        acts = list(g.legal_actions)
        g.apply(EndPhase() if EndPhase() in acts else acts[0])
    out = g.outcome()
    assert out.winner == "French" and "101" in out.reason and out.level == "automatic victory"
