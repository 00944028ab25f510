"""No Trumpets No Drums through the game protocol: the set-up, the turn sequence, hidden units, and each phase's
actions reaching their rule modules."""
from fractions import Fraction

import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.ntnd.game import (SEQUENCE, Announce, DeclareUprising, DeclareVietnamization, Draft, EndPhase, Enter,
                                Game, Muster, Purchase, Recruit, RollAid, RollElection, Step, TallyPoints, Terror,
                                Withdraw, build_state)
from wargames.ntnd.politics import ELECTIONS
from wargames.ntnd.scenarios import SCENARIOS, scenario


def to_phase(g: Game, phase: str) -> None:
    """End phases (counting the points where a phase needs it) until ``phase`` begins."""
    from wargames.ntnd.combat_play import Attack
    while g.phase.id != phase:
        if g.prompt.kind == "decision":                  # a battle's or a mission's choice: the first offered
            g.apply(next(iter(g.legal_actions)))
            continue
        if g.phase.id == "communist_combat":
            attack = next((a for a in g.legal_actions if isinstance(a, Attack)), None)
            if attack is not None:
                g.apply(attack)
                continue
        if g.phase.id == "recruitment" and g.book.entitlement is None:
            g.apply(Muster())
        if g.phase.kind == "politics" and not g.book.tallied:
            g.apply(TallyPoints())
        if g.phase.id == "allied_politics" and g._election_year() and not g.book.election_held:
            g.apply(RollElection())
        if g.phase.id == "random_events" and not g.book.event_rolled:
            from wargames.ntnd.game import RollEvent
            g.apply(RollEvent())
        if g.phase.id == "reinforcement" and not g.book.withdrawn_this_turn:
            withdraw = next((a for a in g.legal_actions if isinstance(a, Withdraw)), None)
            if withdraw is not None:                     # 4.3.1, 23.3, 24.3.1: owed before the phase ends
                g.apply(withdraw)
        g.apply(EndPhase())


@pytest.mark.rule("NT 3", "NT 3.1", "NT 3.2", *(f"NT 3.1.{i}" for i in range(1, 8)),
                  *(f"NT 3.2.{i}" for i in range(1, 9)))
def test_the_turn_has_the_fifteen_phases_in_the_rulebook_order():
    assert [p.rule for p in SEQUENCE] == [f"NT 3.1.{i}" for i in range(1, 8)] + [f"NT 3.2.{i}" for i in range(1, 9)]
    assert [p.side for p in SEQUENCE[:7]] == ["communist"] * 4 + ["allied", "communist", "communist"]
    assert SEQUENCE[10].side == "communist" and SEQUENCE[14].side is None
    g = Game.new("tet", seed=1)
    for wrong, rule in ((Terror("I", ("x",)), "NT 7.4"), (Step("x", "0101"), "NT 8"), (Draft(), "NT 4.5.2"),
                        (TallyPoints(), "NT 22.3"), (Announce(("x",), "0101"), "NT 3.1.4")):
        with pytest.raises(RuleViolation, match=rule):
            g.apply(wrong)                                          # the recruitment phase: none of these


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_scenario_sets_up_as_its_file_says(name):
    sc = scenario(name)
    g = Game.new(name, seed=1)
    st = g.state
    assert st.turn == sc.start_turn and st.track.points == sc.points and st.policy == sc.policy
    assert {u: (p.location, p.face_up, p.corps) for u, p in st.pieces.items()} == {
        p.unit: (p.label, p.face_up, p.corps) for p in sc.placements}
    assert set(st.air) == set(sc.air_box) and st.dead == set(sc.dead_pile) and st.withdrawn == set(sc.withdrawn)
    assert st.hearts_minds == {a: r.value for a, r in sc.hearts_and_minds.items()}
    assert g.phase.id == "recruitment" and g.prompt.side == "communist"


@pytest.mark.rule("NT 4.1", "NT 4.1.6")
def test_recruitment_is_worked_out_then_placed_and_the_rest_lost():
    g = Game.new("campaign", seed=4)
    with pytest.raises(RuleViolation, match="muster"):
        g.apply(EndPhase())
    with pytest.raises(RuleViolation, match="muster"):
        g.apply(Recruit("supply", "supply", "China", face_up=True))
    g.apply(Muster())
    assert g.book.entitlement.count("supply", "China") == 1
    before = len(g.state.pieces)
    g.apply(Recruit("supply", "supply", "China", face_up=True))
    assert len(g.state.pieces) == before + 1 and g.book.entitlement.count("supply", "China") == 0
    with pytest.raises(RuleViolation, match="NT 4.1.4|no supply"):
        g.apply(Recruit("supply", "supply", "China", face_up=True))
    res = g.apply(EndPhase())
    assert "NT 4.1.6" in res.rules() and g.book.entitlement is None and g.phase.id == "communist_hearts_minds"


@pytest.mark.rule("NT 3")
def test_a_refused_action_changes_nothing():
    g = Game.new("tet", seed=2)
    g.apply(Muster())
    before = g.state_dict()
    for bad in (Recruit("basic", "cadre", "0101"), Step("nosuch", "0101"), Terror("I", ("x",)), Draft(),
                Announce(("a",), "0101"), TallyPoints()):
        with pytest.raises(RuleViolation):
            g.apply(bad)
        assert g.state_dict() == before


@pytest.mark.rule("NT 6.2", "NT 17.1")
def test_the_allied_player_does_not_see_inverted_units():
    g = Game.new("tet", seed=1)
    inverted = [u for u, p in g.state.pieces.items() if not p.face_up]
    assert inverted and all(g.state.side_of(u) == "communist" for u in inverted)
    allied = g.view("allied")["position"]["pieces"]
    communist = g.view("communist")["position"]["pieces"]
    assert not set(inverted) & set(allied) and set(inverted) <= set(communist)
    hidden = [k for k in allied if k.startswith("inverted")]
    assert len(hidden) == len(inverted)
    assert sorted(allied[k]["at"] for k in hidden) == sorted(g.state.piece(u).location for u in inverted)
    g.apply(Muster())
    assert g.view("allied")["position"]["entitlement"] is None and g.view("communist")["position"]["entitlement"]


def movement_game():
    g = Game.new("campaign", seed=7)
    to_phase(g, "communist_movement")
    return g


@pytest.mark.rule("NT 8", "NT 8.2")
def test_movement_is_hex_by_hex_and_another_unit_ends_a_move():
    g = movement_game()
    st = g.state
    mover = next(u for u in st.units("communist", face_up=False)
                 if st.counter(u).type == "regiment" and st.hex_of(u) is not None)
    start = st.piece(mover).location
    legal = [a for a in g.legal_actions if isinstance(a, Step) and a.unit == mover]
    first = legal[0] if legal else next(Step(mover, to) for to in g.state.geography.neighbours(start)
                                        if g.why_illegal(Step(mover, to)) is None)
    g.apply(first)
    assert g.state.piece(mover).location == first.to and g.book.moving.unit == mover
    assert g.book.moving.path == (first.to,) and g.book.moving.spent > 0
    other = next(u for u in g.state.units("communist") if u != mover and any(
        g.why_illegal(Step(u, to)) is None for to in g.state.geography.neighbours(g.state.piece(u).location)))
    to = next(t for t in g.state.geography.neighbours(g.state.piece(other).location)
              if g.why_illegal(Step(other, t)) is None)
    g.apply(Step(other, to))
    assert mover in g.book.moved
    back = Step(mover, start)
    with pytest.raises(RuleViolation, match="finished its move"):
        g.apply(back)


@pytest.mark.rule("NT 3.1.4", "NT 19.1", "NT 19.1.3")
def test_announced_attacks_follow_the_combat_rules():
    g = movement_game()
    st = g.state
    target = next(st.piece(u).location for u in st.units("allied") if st.hex_of(u) is not None)
    near = set(g.state.geography.neighbours(target))
    attacker = next((u for u in st.units("communist") if st.piece(u).location in near), None)
    far = next(u for u in st.units("communist", face_up=True) if st.counter(u).ground_combat
               and st.piece(u).location not in near and st.hex_of(u) is not None)
    with pytest.raises(RuleViolation, match="not next to"):
        g.apply(Announce((far,), target))
    with pytest.raises(RuleViolation, match="no Allied unit"):
        g.apply(Announce((far,), st.piece(far).location))
    if attacker is not None and not st.piece(attacker).face_up:
        with pytest.raises(RuleViolation, match="inverted"):
            g.apply(Announce((attacker,), target))
    ok = next(a for a in g.legal_actions if isinstance(a, Announce))
    g.apply(ok)
    assert g.book.announced[-1] == (ok.attackers, ok.target)
    with pytest.raises(RuleViolation, match="NT 19.1.3"):
        g.apply(Announce(ok.attackers, ok.target))


@pytest.mark.rule("NT 3.1.7", "NT 22.3", "NT 22.4")
def test_the_political_phase_counts_once_and_moves_the_track_by_the_ledger():
    from wargames.ntnd.political import ledger
    g = Game.new("tet", seed=5)
    to_phase(g, "communist_politics")
    with pytest.raises(RuleViolation, match="tally_points"):
        g.apply(EndPhase())
    want = ledger(g.state, "communist").total
    before = g.state.track.points
    g.apply(TallyPoints())
    assert g.state.track.points == before + want
    with pytest.raises(RuleViolation, match="counted already"):
        g.apply(TallyPoints())


@pytest.mark.rule("NT 4.2.2", "NT 4.5.2", "NT 24.1")
def test_a_declaration_opens_the_reinforcement_phase_before_the_points():
    g = Game.new("campaign", seed=6)
    to_phase(g, "reinforcement")
    us_before = g.state.policy.us_replacement_points()
    g.apply(DeclareVietnamization("full"))
    assert g.state.policy.vietnamization == "full" and g.state.policy.us_replacement_points() != us_before
    from wargames.ntnd.reinforcement import income
    pools, due = dict(g.state.replacement_points), income(g.state)
    assert due["US"] == g.state.policy.us_replacement_points()
    g.apply(Draft(), ScriptedDice([4]))                 # the first act of the phase brings the points in
    assert g.state.replacement_points["SVN"] == pools["SVN"] + due["SVN"] + 4
    assert g.state.replacement_points["US"] == pools["US"] + due["US"]
    with pytest.raises(RuleViolation, match="one draft a turn"):
        g.apply(Draft())
    with pytest.raises(RuleViolation, match="before anything else"):
        g.apply(DeclareVietnamization("partial"))


@pytest.mark.rule("NT 26.1", "NT 27.1")
def test_uprising_and_aid_come_before_the_recruits():
    g = Game.new("campaign", seed=8)
    with pytest.raises(RuleViolation, match="NT 26.1"):
        g.apply(DeclareUprising())                       # turn 1 is before Jan/Feb 1967
    with pytest.raises(RuleViolation, match="Jan/Feb"):
        g.apply(RollAid())


@pytest.mark.rule("NT 23.1", "NT 23.2")
def test_the_1968_election_is_rolled_after_the_points_and_decides_the_peace_party():
    g = Game.new("campaign", seed=9)
    g.state.turn = ELECTIONS[1968]          # no shipped short scenario holds an election turn: the campaign, moved on
    to_phase(g, "allied_politics")
    with pytest.raises(RuleViolation, match="after the phase's points"):
        g.apply(RollElection())
    g.apply(TallyPoints())
    with pytest.raises(RuleViolation, match="roll_election"):
        g.apply(EndPhase())
    points = g.state.track.points
    dice = [1, 1, 1] if points >= 30 else [6, 6, 6]
    res = g.apply(RollElection(), ScriptedDice(dice))
    assert g.state.policy.elections[-1] == (1968, points < 10 * sum(dice))
    assert "NT 23.2" in res.rules()


@pytest.mark.rule("NT 3")
def test_save_and_load_replay_a_played_game():
    import random
    g = Game.new("tet", seed=11)
    rng = random.Random(3)
    for _ in range(60):
        acts = list(g.legal_actions)
        if not acts:
            break
        g.apply(rng.choice(acts))
    again = Game.load(g.save())
    assert again.state_dict() == g.state_dict() and len(again.history) == len(g.history)


def ambush_game():
    """The Game at its Allied movement phase, with the position of tests/test_ntnd_ambush.py's mountain ambush: US
    1/1 (and a firebase) at 1716, inverted VC reg 1 at 1815, NVA 304 at 1814 and NVA art 45 at 1714."""
    from wargames.ntnd.state import NtndState
    g = Game.new("campaign", seed=1)
    to_phase(g, "allied_movement")
    s = NtndState(turn=g.state.turn, phase="allied_movement", track=g.state.track, policy=g.state.policy,
                  hearts_minds=dict(g.state.hearts_minds))
    for u, at, up in [("US 1/1", "1716", True), ("US FB 1", "1716", True), ("VC reg 1", "1815", False),
                      ("NVA 304", "1814", False), ("NVA art 45", "1714", False)]:
        s.place(u, at, face_up=up, corps="II" if u == "US 1/1" else None)
    g.state = s
    return g


@pytest.mark.rule("NT 20.1", "NT 20.2", "NT 20.3", "NT 20.5", "NT 20.6", "NT 22.3")
def test_an_ambush_stops_the_move_in_its_hex_and_each_side_decides_what_follows():
    from wargames.ntnd.game import Ambush, AmbushAftermath, LetPass
    g = ambush_game()
    g.apply(Step("US 1/1", "1715"))
    assert g.prompt.side == "communist" and g.prompt.rule == "NT 20.2"
    with pytest.raises(RuleViolation, match="must first"):
        g.apply(Step("US 1/1", "1615"))                  # nothing else until the Communist player answers
    with pytest.raises(RuleViolation, match="NT 20.3"):
        g.apply(Ambush(("US FB 1",)))
    points = g.state.track.points
    res = g.apply(Ambush(("VC reg 1", "NVA 304", "NVA art 45")), ScriptedDice([2, 6]))
    totals = [s.result for s in res.steps if s.text == "Totals before the dice"][0]
    assert totals == {"communist": Fraction(17, 2), "allied": Fraction(3)}    # the printed-rule arithmetic of 20.4
    assert all(g.state.piece(u).face_up for u in ("VC reg 1", "NVA 304", "NVA art 45"))
    assert g.prompt.rule == "NT 20.5" and g.prompt.side == "communist"     # US 1/1 was the only loss: no choice
    g.apply(AmbushAftermath(enter=("VC reg 1", "NVA 304")))
    assert "US 1/1" in g.state.dead and set(g.state.at("1715")) == {"VC reg 1", "NVA 304"}
    assert g.state.track.points == points - 1 and g.book.moving is None and g.prompt.kind == "play"
    again = ambush_game()
    again.apply(Step("US 1/1", "1715"))
    again.apply(LetPass())
    assert again.book.moving.unit == "US 1/1" and not again.state.piece("VC reg 1").face_up


@pytest.mark.rule("NT 10.2", "NT 10.2.1", "NT 10.5.2")
def test_a_step_across_a_neutral_border_is_charged_at_once_and_a_coup_ends_neutrality():
    g = Game.new("campaign", seed=2)
    to_phase(g, "communist_movement")
    st, geo = g.state, g.state.geography
    pairs = [(u, n) for u in st.units("communist", face_up=True) if st.counter(u).nationality == "NVA"
             and st.hex_of(u) is not None for n in g.state.geography.neighbours(st.piece(u).location)
             if n not in geo.zones and geo.country(geo.hex(n)) == "Laos" and g.why_illegal(Step(u, n)) is None
             and geo.country(st.hex_of(u)) != "Laos"]
    if not pairs:
        pytest.skip("no face-up NVA unit next to Laos in this set-up")
    unit, to = pairs[0]
    points, box = st.track.points, st.hearts_minds["Laos"]
    res = g.apply(Step(unit, to), ScriptedDice([4]))
    assert "NT 10.2" in res.rules() and g.state.track.points == points + 4    # a Communist violation: +4 Allied
    assert g.violations.countries("communist") == ("Laos",)
    g2 = Game.new("campaign", seed=3)
    to_phase(g2, "reinforcement")
    from wargames.ntnd.game import Coup
    points = g2.state.track.points
    g2.apply(Coup("Cambodia"), ScriptedDice([3, 4]))
    assert g2.state.standing["Cambodia"] == "allied" and g2.state.track.points == points - 7 * 5
    with pytest.raises(RuleViolation):
        g2.apply(Coup("Cambodia"))


@pytest.mark.rule("NT 11.2", "NT 11.5", "NT 12.1.1", "NT 11.1.1", "NT 11.1.1.2", "NT 22.3")
def test_a_bombing_over_hanoi_dogfights_draws_fire_and_each_side_chooses_its_losses():
    from wargames.ntnd.air_play import ChooseInterceptors, ChooseVictims, FlyMissions, ResolveMission
    g = Game.new("tet", seed=1)
    to_phase(g, "air_operations")
    fighters = ("US F 2AD", "US F 3TFW")
    points = g.state.track.points
    with pytest.raises(RuleViolation, match="NT 11.2"):
        g.apply(ResolveMission())                                            # nothing in the air yet
    g.apply(FlyMissions((("bombing", "Hanoi", fighters),)))
    assert all(u not in g.state.air for u in fighters)                       # flying: in neither box
    with pytest.raises(RuleViolation, match="every mission in the air is resolved"):
        g.apply(EndPhase())
    g.apply(ResolveMission(), ScriptedDice([3, 1, 2, 2]))      # fighters 3 (a kill) and 1; interceptors 2 and 2
    assert g.prompt.side == "communist" and g.prompt.rule == "NT 11.5"
    with pytest.raises(RuleViolation, match="choose 1"):
        g.apply(ChooseInterceptors(("NVA int 921", "NVA int 923")))
    aa = [u for u in g.state.at("Hanoi") if u != "NVA int 921" and g.state.counter(u).type != "supply"]
    g.apply(ChooseInterceptors(("NVA int 921",)), ScriptedDice([1] * len(aa) + [6]))
    assert "NVA int 921" not in g.state.pieces and g.prompt.rule == "NT 11.1.1.2"   # the bomb's 6 hits
    g.apply(ChooseVictims(("NVA SAM 1",)))
    assert "NVA SAM 1" not in g.state.pieces
    assert g.state.track.points == points + 2                   # an interceptor and a SAM destroyed: +1 each
    assert all(g.state.air[u] == "unavailable" for u in fighters) and g.prompt.kind == "play"
    g.apply(EndPhase())
    assert g.phase.id == "allied_combat"


@pytest.mark.rule("NT 11.1.1", "NT 11.1.1.2")
def test_a_victim_named_mid_mission_lets_the_later_attacks_roll_on():
    """Two SAC attacks: the first one's hit stops for the Communist choice; the second rolls with the dice of
    the choice, after the first roll is given back, not rolled again."""
    from wargames.ntnd import air
    from wargames.ntnd.air_play import ChooseVictims, FlyMissions, ResolveMission
    g = Game.new("tet", seed=1)
    to_phase(g, "air_operations")
    sacs = ("US SAC 1", "US SAC 2")
    g.apply(FlyMissions((("bombing", "1124", sacs),)))                  # two VC regiments in III Corps
    n_aa = len(air.aa_units(g.state, air.Mission("bombing", "1124", sacs)))
    g.apply(ResolveMission(), ScriptedDice([1] * n_aa + [6]))          # AA misses; the first bomb hits
    assert g.prompt.side == "communist" and g.prompt.rule == "NT 11.1.1.2"
    g.apply(ChooseVictims(("VC reg 272", "VC reg 271")), ScriptedDice([6]))   # the second bomb hits too
    assert "VC reg 272" not in g.state.pieces and "VC reg 271" not in g.state.pieces
    assert g.history[-1].dice == (6,)                                    # only the new roll is the choice's
    assert g.prompt.kind == "play"


@pytest.mark.rule("NT 14.2.1")
def test_the_fleet_goes_out_to_the_nearest_open_sea_where_the_allied_player_says():
    from wargames.ntnd.game import MoveFleet
    g = Game.new("tet", seed=1)
    to_phase(g, "communist_movement")
    st = g.state
    for h in ("1811", "1812"):                       # a coastal hex for the fleet, a land hex beside it
        for u in list(st.at(h)):
            st.remove(u, eliminated=False)
    st.update("US Fleet", location="1811")
    st.update("NVA 304", location="1812", face_up=True)
    st.update("NVA 320", location="1911")            # an enemy unit closes one of the four sea hexes next to it
    g.apply(Step("NVA 304", "1811"))
    assert g.prompt.side == "allied" and g.prompt.rule == "NT 14.2.1"
    assert g.invariants() == []                      # the fleet shares the hex only while its way out is chosen
    offered = sorted(a.to for a in g.legal_actions if isinstance(a, MoveFleet))
    assert offered == ["1711", "1810", "1912"]
    with pytest.raises(RuleViolation, match="NT 14.2.1"):
        g.apply(MoveFleet("1911"))
    g.apply(MoveFleet("1810"))
    assert g.state.piece("US Fleet").location == "1810" and g.prompt.side == "communist"


@pytest.mark.rule("NT 3.1.5", "NT 8.8.1.1", "NT 3.2.4", "NT 8.8.2", "NT 8.8.2.1")
def test_both_reactions_are_played_in_their_phases():
    from wargames.ntnd.game import React
    from wargames.ntnd.reaction import REACTED_MARK, end_communist_reaction
    g = Game.new("tet", seed=1)
    to_phase(g, "communist_movement")
    done = set()
    for a in [a for a in g.legal_actions if isinstance(a, Announce)]:
        if a.target not in done and g.why_illegal(a) is None:
            g.apply(a)
            done.add(a.target)
    g.apply(EndPhase())
    assert g.phase.id == "allied_reaction" and g.prompt.side == "allied"
    react = next(a for a in g.legal_actions if isinstance(a, React))
    assert react.to in done                                   # only to a hex under announced attack
    g.apply(react)
    assert g.state.piece(react.unit).location == react.to and REACTED_MARK in g.state.piece(react.unit).marks
    with pytest.raises(RuleViolation):
        g.apply(React(react.unit, react.to))                  # once
    to_phase(g, "communist_reaction")
    assert g.prompt.side == "communist"
    move = next(a for a in g.legal_actions if isinstance(a, React))
    g.apply(move)
    assert g.state.piece(move.unit).location == move.to
    want, _ = end_communist_reaction(g.state)
    g.apply(EndPhase())
    assert {u: p.face_up for u, p in g.state.pieces.items()} == {u: p.face_up for u, p in want.pieces.items()}


@pytest.mark.rule("NT 8.8.1.2", "NT 11.1.2")
def test_defensive_ground_support_slows_only_attackers_in_the_hex_it_flew_over():
    """The reaction-phase aircraft over 2118 lower the morale of attackers from 2118, one each, and never of the
    attacker that comes from 2017; when they can lower every attacker there, nobody is asked."""
    from wargames.ntnd.combat_play import Attack, LowerMorale
    from wargames.ntnd.state import NtndState

    def battle(support):
        g = Game.new("campaign", seed=1)
        to_phase(g, "communist_combat")
        s = NtndState(turn=g.state.turn, phase="communist_combat", track=g.state.track, policy=g.state.policy,
                      hearts_minds=dict(g.state.hearts_minds))
        for u, at in (("USMC 1", "2018"), ("ARVN 1", "2018"), ("NVA 304", "2118"), ("VC reg 1", "2118"),
                      ("NVA 308", "2017")):
            s.place(u, at)
        g.state = s
        g.book.announced = ((ATTACKERS, "2018"),)
        g.airbook.ground_support = (("2118", support),)
        return g, g.apply(Attack(ATTACKERS, "2018"), ScriptedDice([3, 3] if support > 2 else []))

    def lowered(res):
        return sorted(step.text.split("'")[0] for step in res.steps if step.rule == "NT 11.1.2")

    ATTACKERS = ("NVA 304", "VC reg 1", "NVA 308")
    g, _ = battle(1)
    assert g.prompt.side == "allied" and g.prompt.rule == "NT 11.1.2"
    assert sorted(a.units for a in g.legal_actions if isinstance(a, LowerMorale)) == [("NVA 304",), ("VC reg 1",)]
    for wrong in (("NVA 308",), ("NVA 304", "VC reg 1"), ("VC reg 1", "VC reg 1")):
        with pytest.raises(RuleViolation, match="NT 11.1.2"):
            g.apply(LowerMorale(wrong))
    assert lowered(g.apply(LowerMorale(("VC reg 1",)), ScriptedDice([3, 3]))) == ["VC reg 1"]
    g, res = battle(3)                                  # more aircraft than attackers in 2118: no choice
    assert lowered(res) == ["NVA 304", "VC reg 1"]


@pytest.mark.rule("NT 3.2.6", "NT 19.2", "NT 19.2.6", "NT 19.3", "NT 19.4", "NT 11.1.2", "NT 22.3", "NT 13.2")
def test_the_printed_battle_through_the_game_with_each_decision_its_owners():
    """The 19.2 example on the map (tests/test_ntnd_engagement.py's position at Qui Nhon), fought in the Allied
    combat phase with two ground-support aircraft through: 9.75 against 9.5, then the Communist player picks his
    loss, his units retreat one by one, and the Allied player declines to advance."""
    from wargames.ntnd.combat_play import Advance, Attack, Retreat
    from wargames.ntnd.game import ChooseLosses
    from wargames.ntnd.state import NtndState
    g = Game.new("campaign", seed=1)
    to_phase(g, "allied_combat")
    s = NtndState(turn=g.state.turn, phase="allied_combat", track=g.state.track, policy=g.state.policy,
                  hearts_minds=dict(g.state.hearts_minds))
    for u, at in (("USMC 1", "2018"), ("ARVN 1", "2018"), ("US FB 1", "2018"), ("ARVN 2", "2119"),
                  ("ARVN armor 1", "2119"), ("ARVN PB 1", "2119"), ("US Fleet", "2218"),
                  ("NVA 304", "2118"), ("VC reg 1", "2118"), ("NVA art 45", "2118"), ("NVA art 68", "2017")):
        s.place(u, at)
    g.state = s
    g.airbook.ground_support = (("2118", 2),)                   # two aircraft got through earlier this turn
    attackers = ("USMC 1", "ARVN 1", "ARVN 2", "ARVN armor 1")
    with pytest.raises(RuleViolation, match="NT 11.1.2"):
        g.apply(Attack(attackers, "2118", ("NVA 304", "NVA 304")))
    points = g.state.track.points
    res = g.apply(Attack(attackers, "2118", ("NVA 304", "VC reg 1")), ScriptedDice([3, 2]))
    totals = [s.result for s in res.steps if s.rule == "NT 19.2" and s.text.startswith("Totals")][-1]
    assert totals == {"allied": Fraction(27, 4), "communist": Fraction(15, 2)}
    assert g.prompt.side == "communist" and g.prompt.rule == "NT 19.2.6"
    with pytest.raises(RuleViolation, match="loses 1"):
        g.apply(ChooseLosses(("NVA art 45",)))
    g.apply(ChooseLosses(("VC reg 1",)))
    assert "VC reg 1" not in g.state.pieces and g.state.track.points == points + 1
    from wargames.ntnd.combat_play import EliminateOverstack
    while g.prompt.rule in ("NT 19.3", "NT 19.3.2"):          # NVA art 45 has one way out: into 2017's stack
        if g.prompt.rule == "NT 19.3":
            unit = g.cbook.battle["queue"][0][1]
            g.apply(Retreat(unit, next(a.to for a in g.legal_actions if isinstance(a, Retreat))))
        else:
            assert g.prompt.side == "communist"
            g.apply(EliminateOverstack(("NVA art 45",)))
    assert not [u for u in g.state.at("2118") if g.state.side_of(u) == "communist"]
    assert "NVA art 45" not in g.state.pieces and g.state.track.points == points + 2     # the over-stacked one too
    assert g.prompt.rule == "NT 19.4" and g.prompt.side == "allied"
    g.apply(Advance(()))
    assert g.cbook.battle is None and g.prompt.kind == "play"
    with pytest.raises(RuleViolation, match="NT 19.1"):
        g.apply(Attack(attackers, "2118"))                      # nobody left there, and they have fought


def _tank_attack(name, ruleset=None, shock_turn=None, declare=False):
    """A Communist attack with a tank on USMC 1 at 2018, in the Communist combat phase of ``name``."""
    from wargames.ntnd.combat_play import Attack, DeclareArmourShock
    from wargames.ntnd.state import NtndState
    g = Game.new(name, ruleset=ruleset, seed=1)
    to_phase(g, "communist_combat")
    s = NtndState(turn=g.state.turn, phase="communist_combat", track=g.state.track, policy=g.state.policy,
                  hearts_minds=dict(g.state.hearts_minds))
    for u, at in (("USMC 1", "2018"), ("NVA 304", "2118"), ("NVA tank 202", "2118")):
        s.place(u, at)
    s.armour_shock_turn = shock_turn
    g.state = s
    attackers = ("NVA 304", "NVA tank 202")
    g.book.announced = ((attackers, "2018"),)
    if declare:
        g.apply(DeclareArmourShock())
    res = g.apply(Attack(attackers, "2018"), ScriptedDice([3, 3]))
    totals = [s.result for s in res.steps if s.rule == "NT 19.2" and s.text.startswith("Totals")][-1]
    while g.prompt.kind == "decision":                          # losses, retreats, the advance: the first offered
        g.apply(next(iter(g.legal_actions)))
    return g, totals["communist"]


@pytest.mark.rule("NT 28.8")
def test_armour_shock_comes_with_the_first_tank_attack_of_a_1968_scenario():
    from wargames.ntnd.charts import NtndCharts
    g, shocked = _tank_attack("tet")
    assert g.state.armour_shock_turn == g.state.turn
    _, spent = _tank_attack("tet", shock_turn=17)                 # it came on an earlier turn: no more bonus
    _, off = _tank_attack("tet", ruleset=NtndCharts.default(armour_shock=False))
    assert shocked == spent + 1 and off == spent


@pytest.mark.rule("NT 28.8")
def test_the_campaign_declares_its_armour_shock_once():
    from wargames.ntnd.combat_play import DeclareArmourShock
    g, plain = _tank_attack("campaign")
    assert g.state.armour_shock_turn is None                   # no declaration, no shock
    with pytest.raises(RuleViolation, match="before the phase's first battle"):
        g.apply(DeclareArmourShock())
    g, shocked = _tank_attack("campaign", declare=True)
    assert shocked == plain + 1 and g.state.armour_shock_turn == g.state.turn
    assert DeclareArmourShock() not in g.legal_actions
    with pytest.raises(RuleViolation, match="NT 28.8"):
        g.apply(DeclareArmourShock())
    with pytest.raises(RuleViolation, match="declared"):
        _tank_attack("tet", declare=True)
    late = Game.new("year_of_the_rat", seed=1)                 # starts in 1972: no armour shock
    to_phase(late, "communist_combat")
    assert DeclareArmourShock() not in late.legal_actions
    with pytest.raises(RuleViolation, match="after 1968"):
        late.apply(DeclareArmourShock())


@pytest.mark.rule("NT 28.3.2", "NT 28.3.1")
def test_the_brigades_option_buys_the_3_82_and_1_5_mech_instead_of_scheduling_them():
    """Tet starts on the 3/82's arrival turn: on the schedule it enters free; under the 28.3.2 option it does not
    arrive but may be bought, like the USMC III, for two US points, and so may the 1/5 Mech before its date."""
    from fractions import Fraction
    from wargames.ntnd.charts import NtndCharts
    from wargames.ntnd.reinforcement import arrivals
    plain = Game.new("tet", seed=1)
    to_phase(plain, "reinforcement")
    assert "US 3/82" in arrivals(plain.state)
    with pytest.raises(RuleViolation, match="NT 4.2"):
        plain.apply(Purchase("US 1/5 Mech"))
    g = Game.new("tet", ruleset=NtndCharts.default(bought_brigades=True), seed=1)
    to_phase(g, "reinforcement")
    assert "US 3/82" not in arrivals(g.state)
    with pytest.raises(RuleViolation, match="NT 4.2.1"):
        g.apply(Enter("US 3/82"))
    g.book.received = True                                      # the turn's points are in: set the US pool
    g.state.replacement_points["US"] = Fraction(3)
    assert Purchase("US 1/5 Mech") in g.legal_actions
    g.apply(Purchase("US 1/5 Mech"))
    assert g.state.replacement_points["US"] == 1 and "US 1/5 Mech" in g.state.purchased
    with pytest.raises(RuleViolation, match="NT 4.2.6"):
        g.apply(Purchase("US 3/82"))                            # one point left of the two it costs


@pytest.mark.rule("NT 5.7")
def test_a_group_changing_corps_keeps_away_from_the_enemy_and_heads_for_its_new_corps():
    """The 25th Infantry goes from III to IV Corps at Tet. Two brigades are in contact and may not move at all;
    the third, once the regiments near it are gone, may, so the movement phase waits for it."""
    from wargames.ntnd.game import ReassignCorps
    g = Game.new("tet", seed=1)
    to_phase(g, "reinforcement")
    g.apply(ReassignCorps("US 25th Inf", "IV"))
    to_phase(g, "allied_movement")
    with pytest.raises(RuleViolation, match="NT 5.7.*next to"):
        g.apply(Step("US 2/25", "1127"))
    for u in ("VC reg 274", "VC reg 275"):                    # the regiments next to the 3/25 leave
        g.state.remove(u)
    with pytest.raises(RuleViolation, match="NT 5.7.*may still move"):
        g.apply(EndPhase())
    assert g.why_illegal(Step("US 3/25", "1426")) is None
    g.apply(Step("US 3/25", "1426"))
    res = g.apply(EndPhase())
    assert g.phase.id == "communist_reaction"
    stuck = sorted(s.inputs["unit"] for s in res.find("NT 5.7"))
    assert stuck == sorted(u for u in ("US 1/25", "US 2/25", "US 3/25")
                           if g.state.area_of(g.state.piece(u).location) != "IV")
    assert "US 2/25" in stuck and "US 1/25" in stuck


def _battle_at_qui_nhon(phase, pieces, attackers, target, dice):
    """A battle in ``phase`` of the campaign on a position of only ``pieces``; every decision after it is the first
    one offered. Returns the game and the battle's log."""
    from wargames.ntnd.combat_play import Attack
    from wargames.ntnd.state import NtndState
    g = Game.new("campaign", seed=1)
    to_phase(g, phase)
    s = NtndState(turn=g.state.turn, phase=phase, track=g.state.track, policy=g.state.policy,
                  hearts_minds=dict(g.state.hearts_minds))
    for u, at in pieces:
        s.place(u, at)
    g.state = s
    g.cbook.start = s.copy()                                    # the position as the combat phase began
    if phase == "communist_combat":
        g.book.announced = ((attackers, target),)
    res = g.apply(Attack(attackers, target), ScriptedDice(dice))
    while g.prompt.kind == "decision":
        res.extend(g.apply(next(iter(g.legal_actions))))
    return g, res


@pytest.mark.rule("NT 18.6.1")
def test_supply_units_caught_alone_are_eliminated_and_a_support_unit_saves_them():
    g, res = _battle_at_qui_nhon("allied_combat", (("USMC 1", "2018"), ("supply 1", "2118")), ("USMC 1",), "2118",
                                 [])
    assert "supply 1" not in g.state.pieces and res.find("NT 18.6.1")
    g, res = _battle_at_qui_nhon("allied_combat", (("USMC 1", "2018"), ("supply 1", "2118"), ("NVA art 45", "2118")),
                                 ("USMC 1",), "2118", [3, 3])         # the artillery fights (13.2.1) and holds
    assert "supply 1" in g.state.pieces and not res.find("NT 18.6.1")


@pytest.mark.rule("NT 18.6.2", "NT 18.2.1.4")
def test_an_nva_attack_uses_up_its_supply_unit_and_an_unsupplied_attacker_fights_lower():
    def communist_total(res):
        return [s.result for s in res.steps if s.rule == "NT 19.2" and s.text.startswith("Totals")][-1]["communist"]
    g, res = _battle_at_qui_nhon("communist_combat", (("USMC 1", "2018"), ("NVA 304", "2118"), ("supply 1", "2118")),
                                 ("NVA 304",), "2018", [3, 3])
    assert "supply 1" not in g.state.pieces and res.find("NT 18.6.2")
    supplied = communist_total(res)
    g, res = _battle_at_qui_nhon("communist_combat", (("USMC 1", "2018"), ("NVA 304", "2118")), ("NVA 304",), "2018",
                                 [3, 3])
    assert communist_total(res) == supplied - 1 and res.find("NT 18.2.1.4")


@pytest.mark.rule("NT 25.3", "NT 25.3.1", "NT 25.1")
def test_with_saigon_fallen_and_arvn_demoralized_every_arvn_unit_rolls_once_in_the_reinforcement_phase():
    import dataclasses
    g = Game.new("tet", seed=3)
    to_phase(g, "reinforcement")
    st = g.state
    st.track = dataclasses.replace(st.track, points=45)
    g.book.points_at_turn_start = 45                            # the Allied player turn began below 50 (25.1)
    saigon = st.geography.label(st.geography.place("Saigon"))
    for u in list(st.at(saigon)):
        st.remove(u, eliminated=False)
    st.update("NVA 304", location=saigon, face_up=True)
    at_risk = [u for u in st.units("allied") if st.counter(u).nationality == "SVN" and st.counter(u).ground_combat
               and not st.in_zone(u) and st.geography.country(st.hex_of(u)) == "SVN"]
    res = g.apply(Draft())
    rolled = [s.inputs["unit"] for s in res.find("NT 25.3") if "roll" in s.inputs]
    deserted = [s.inputs["unit"] for s in res.find("NT 25.3") if s.result is True]
    assert sorted(rolled) == sorted(at_risk) and deserted
    assert all(u not in g.state.pieces for u in deserted)
    assert all(s.inputs["roll"] > st.counter(s.inputs["unit"]).morale for s in res.find("NT 25.3") if s.result is True)
    assert not g.apply(EndPhase()).find("NT 25.3")              # once a turn


@pytest.mark.rule("NT 14.2.2")
def test_the_fleet_mines_haiphong_after_a_whole_turn_in_the_zone():
    from wargames.ntnd.game import MineHaiphong
    g = Game.new("tet", seed=1)
    to_phase(g, "allied_movement")
    with pytest.raises(RuleViolation, match="not in the Haiphong zone"):
        g.apply(MineHaiphong())
    g.state.update("US Fleet", location="1101")                # at sea next to the Haiphong zone
    assert "Haiphong" in g.state.geography.neighbours("1101")
    g.apply(Step("US Fleet", "Haiphong"))
    assert g.book.haiphong_entry == g.state.turn
    with pytest.raises(RuleViolation, match="whole turn"):
        g.apply(MineHaiphong())
    to_phase(g, "random_events")
    to_phase(g, "allied_movement")                              # the next turn
    points = g.state.track.points
    g.apply(MineHaiphong(), ScriptedDice([4]))
    assert g.state.policy.haiphong_mined and g.state.track.points == points - 4
    with pytest.raises(RuleViolation, match="mined already"):
        g.apply(MineHaiphong())


@pytest.mark.rule("NT 15.2.3", "NT 15.2.3.2")
def test_a_green_beret_withdrawn_takes_its_militia_and_comes_back_next_turn():
    from wargames.ntnd.game import WithdrawGreenBeret
    g = Game.new("tet", seed=1)
    to_phase(g, "reinforcement")
    st = g.state
    gb = next(u for u in st.units("allied") if st.counter(u).type == "green_beret")
    g.apply(WithdrawGreenBeret(gb))
    assert gb not in g.state.pieces and g.state.purchased[gb] == g.state.turn + 1
    with pytest.raises(RuleViolation, match="NT 15.2.3"):
        g.apply(WithdrawGreenBeret(gb))
    to_phase(g, "random_events")
    to_phase(g, "reinforcement")
    from wargames.ntnd.reinforcement import arrivals
    assert gb in arrivals(g.state)


@pytest.mark.rule("NT 11.1.3", "NT 18.1.1", "NT 18.2.1.4")
def test_air_supply_flown_in_the_air_phase_supplies_the_allied_attack_that_follows():
    from wargames.ntnd.air_play import FlyMissions, ResolveMission
    from wargames.ntnd.combat_play import Attack
    from wargames.ntnd.state import NtndState

    def attack(fly):
        g = Game.new("campaign", seed=1)
        to_phase(g, "air_operations")
        s = NtndState(turn=g.state.turn, phase="air_operations", track=g.state.track, policy=g.state.policy,
                      hearts_minds=dict(g.state.hearts_minds))
        for u, at in (("USMC 1", "2018"), ("VC reg 1", "2118")):    # the Marines have no line to any source
            s.place(u, at)
        s.air = dict(g.state.air)
        g.state = s
        if fly:
            g.apply(FlyMissions((("supply", "2018", ("VNAF heli",)),)))
            assert g.apply(ResolveMission(), ScriptedDice([])).find("NT 11.1.3")
        g.apply(EndPhase())
        return g.apply(Attack(("USMC 1",), "2118"), ScriptedDice([3, 3]))

    assert attack(False).find("NT 18.2.1.4") and not attack(True).find("NT 18.2.1.4")


@pytest.mark.rule("NT 26.7")
def test_the_south_vietnamese_rally_two_turns_after_the_uprising():
    import dataclasses
    g = Game.new("tet", seed=1)                                 # Tet: the uprising was declared on this turn
    to_phase(g, "reinforcement")
    assert not g.apply(Draft()).find("NT 26.7")                 # turn 18: not yet
    g = Game.new("tet", seed=1)
    g.state.policy = dataclasses.replace(g.state.policy, uprising=g.state.turn - 2)
    to_phase(g, "reinforcement")
    before = g.state.replacement_points["SVN"]
    res = g.apply(Draft(), ScriptedDice([5, 1]))                # the rally's die, then the draft's
    rally = res.find("NT 26.7")
    assert rally and rally[0].result == 5
    received = res.find("NT 4.2.2")[0].result["SVN"] - before
    drafted = res.find("NT 4.5.2")[0].result
    assert g.state.replacement_points["SVN"] == before + received + 5 + drafted


@pytest.mark.rule("NT 27.1.2")
def test_an_allied_invasion_of_north_vietnam_brings_an_aid_roll_at_once_with_two_added():
    g = Game.new("campaign", seed=1)
    to_phase(g, "allied_movement")
    st = g.state
    for u in list(st.at("1310")):
        st.remove(u, eliminated=False)
    st.update("US 173 Abn", location="1310") if "US 173 Abn" in st.pieces else st.place("US 173 Abn", "1310")
    res = g.apply(Step("US 173 Abn", "1309"), ScriptedDice([5, 1]))       # China 5 (+2: aid), USSR 1 (+2: none)
    assert res.find("NT 27.1.2")
    assert [s.text.split(":")[0] for s in res.find("NT 27.1")] == ["China", "USSR"]
    assert "China" in g.state.policy.aid and "USSR" not in g.state.policy.aid
    other = next(u for u in g.state.units("allied") if u != "US 173 Abn" and g.state.counter(u).ground_combat
                 and g.state.counter(u).attachment != "attached" and not g.state.in_zone(u))
    g.state.update(other, location="1310")
    second = g.apply(Step(other, "1309"), ScriptedDice([]))              # once a turn: no roll this time
    assert not second.find("NT 27.1.2") and g.state.piece(other).location == "1309"


@pytest.mark.rule("NT 8.6.4", "NT 8.6.4.1", "NT 8.6.4.2")
def test_two_landings_a_turn_where_the_fleet_waits():
    g = Game.new("tet", seed=1)
    to_phase(g, "allied_movement")
    g.apply(Step("US Fleet", "1811"))
    offered = {a.unit for a in g.legal_actions if isinstance(a, Step) and a.amphibious and a.to == "1811"}
    assert {"USMC 4", "USMC 9", "ROK 2 Mar"} <= offered
    res = g.apply(Step("USMC 4", "1811", amphibious=True))
    assert res.find("NT 8.6.4.1") and g.book.moving.spent == 6                # half of its 12 points
    with pytest.raises(RuleViolation, match="NT 8"):
        g.apply(Step("US Fleet", "1911"))                                     # the fleet stays for the turn
    g.apply(Step("ROK 2 Mar", "1811", amphibious=True))
    with pytest.raises(RuleViolation, match="two units a turn"):
        g.apply(Step("USMC 9", "1811", amphibious=True))


@pytest.mark.rule("NT 11.1.4")
def test_a_unit_a_helicopter_carries_moves_as_airmobile_and_takes_it_along():
    from wargames.ntnd.air_play import FlyMissions
    g = Game.new("tet", seed=1)
    to_phase(g, "air_operations")
    g.apply(FlyMissions((("transport", "US 3/101", ("US heli 1",)),)))
    assert g.state.helicopter_of("US 3/101") == "US heli 1"
    to_phase(g, "allied_movement")                                   # the next player turn of the Allies
    res = g.apply(Step("US 3/101", "2015"))
    assert "airmobile allowance unlimited" in res.text() and res.find("NT 8.2.2")
    assert g.state.piece("US heli 1").location == g.state.piece("US 3/101").location == "2015"


@pytest.mark.rule("NT 8.6.3")
def test_a_patrol_boat_hunts_unescorted_supply_on_the_water_once_a_turn():
    from wargames.ntnd.game import Interdict
    g = Game.new("tet", seed=1)
    to_phase(g, "allied_movement")
    st = g.state
    for u in list(st.at("1328")):
        st.remove(u, eliminated=False)
    st.place("supply 9", "1328")                               # on the coast next to US PB TF117 (1227)
    assert Interdict("US PB TF117", "supply 9") in g.legal_actions
    g.apply(Interdict("US PB TF117", "supply 9"), ScriptedDice([3]))          # 1-3: not found
    assert "supply 9" in g.state.pieces
    with pytest.raises(RuleViolation, match="this turn"):
        g.apply(Interdict("US PB TF117", "supply 9"))
    here = g.state.piece("NVA 304").location
    g.state.update("NVA 304", location="1328")                 # an escort: no more hunting there
    with pytest.raises(RuleViolation, match="accompany"):
        g.apply(Interdict("ARVN PB 1", "supply 9"))
    g.state.update("NVA 304", location=here)
    g.state.update("supply 9", face_up=False)                  # an inverted counter is not known for supply
    with pytest.raises(RuleViolation, match="inverted"):
        g.apply(Interdict("US PB TF116", "supply 9"))
    g.state.update("supply 9", face_up=True)
    g.state.update("ARVN PB 1", location="1227")               # a second boat, another try: 4-6 destroys it
    res = g.apply(Interdict("ARVN PB 1", "supply 9"), ScriptedDice([4]))
    assert "supply 9" not in g.state.pieces and res.find("NT 8.6.3")[0].result is True


@pytest.mark.rule("NT 24.2.1")
def test_full_vietnamization_calls_any_us_ground_unit_forward_within_six():
    from wargames.ntnd.reinforcement import arrivals, entry_points
    g = Game.new("campaign", seed=1)
    to_phase(g, "reinforcement")
    assert "US 3/82" not in arrivals(g.state)                   # due in Jan/Feb 1968 on the schedule
    g.apply(DeclareVietnamization("full"))
    assert "US 3/82" in arrivals(g.state)                       # 24.2.1: any six units, at once

    def ways_in(u):
        return [Enter(u, at, corps) for corps in ("I", "II", "III", "IV") for at in entry_points(g.state, corps)[:1]]

    def us_on_board():
        return [u for u in g.state.units("allied") if g.state.counter(u).nationality == "US"
                and g.state.counter(u).ground_combat and not g.state.in_zone(u)]

    brigades = [u for u in arrivals(g.state) if g.state.counter(u).nationality == "US"
                and g.state.counter(u).type in ("infantry", "marine")]
    for u in brigades:
        if len(us_on_board()) == 6:
            break
        g.apply(next(a for a in ways_in(u) if g.why_illegal(a) is None))
    assert len(us_on_board()) == 6
    seventh = next(u for u in brigades if u not in g.state.pieces)
    for a in ways_in(seventh):
        with pytest.raises(RuleViolation):
            g.apply(a)
    assert any("NT 24.2.1" in str(g.why_illegal(a)) for a in ways_in(seventh))


@pytest.mark.rule("NT 24.4.5")
def test_after_a_reversal_us_units_come_back_six_a_turn():
    import dataclasses
    g = Game.new("tet", seed=1)
    g.state.policy = dataclasses.replace(g.state.policy, reversed_from="partial")
    to_phase(g, "reinforcement")
    enter = next(a for a in g.legal_actions if isinstance(a, Enter) and a.unit == "US 3/82")
    g.book.us_entered = 6
    with pytest.raises(RuleViolation, match="NT 24.4.5"):
        g.apply(enter)
    g.book.us_entered = 5
    g.apply(enter)
    assert "US 3/82" in g.state.pieces and g.book.us_entered == 6


@pytest.mark.rule("NT 3.1.1", "NT 3.1.2", "NT 3.1.3", "NT 3.1.6", "NT 3.2.1", "NT 3.2.2", "NT 3.2.3", "NT 3.2.5",
                  "NT 3.2.7", "NT 6.1", "NT 7.2")
def test_in_each_phase_of_a_turn_its_player_acts_as_the_rules_let_him():
    """One turn of the Tet scenario, in which each phase's player takes an act of that phase (the first the game
    offers), and the act is recorded in the history in that phase."""
    from wargames.ntnd.air_play import FlyMissions
    from wargames.ntnd.combat_play import Attack
    from wargames.ntnd.game import Enter, Promote, RollEvent, SpendPoints
    wanted = {"recruitment": Recruit, "communist_hearts_minds": Terror, "operations": Promote,
              "communist_movement": Step, "communist_combat": Attack, "reinforcement": Enter,
              "allied_hearts_minds": SpendPoints, "allied_movement": Step, "air_operations": FlyMissions,
              "communist_politics": TallyPoints, "allied_politics": TallyPoints}
    g = Game.new("tet", seed=4)
    done = {}
    while g.state.turn == 18 and g.book.ended is None:
        if g.prompt.kind == "decision":
            g.apply(next(iter(g.legal_actions)))
            continue
        phase = g.phase.id
        if phase == "recruitment" and g.book.entitlement is None:
            g.apply(Muster())
        announce = next((a for a in g.legal_actions if isinstance(a, Announce)), None)
        if phase == "communist_movement" and "announce" not in done and announce is not None:
            g.apply(announce)
            done["announce"] = announce
            continue
        kind = wanted.get(phase)
        if kind is not None and phase not in done:
            act = next((a for a in g.legal_actions if isinstance(a, kind)), None)
            if phase == "communist_movement" and act is not None:
                act = next(a for a in g.legal_actions if isinstance(a, Step) and g.state.side_of(a.unit) == "communist")
            if act is not None:
                g.apply(act)
                done[phase] = act
                continue
        if phase == "random_events" and not g.book.event_rolled:
            g.apply(RollEvent())
            continue
        g.apply(next(a for a in g.legal_actions if isinstance(a, EndPhase)))
    assert set(done) == set(wanted) | {"announce"}, sorted(set(wanted) - set(done))
    assert all(any(h.action == act for h in g.history) for act in done.values())


@pytest.mark.rule("NT 8.10.2", "NT 8.10.1", "NT 8.10.1.2")
def test_a_stack_over_the_limit_when_a_combat_phase_begins_loses_the_excess_as_its_owner_chooses():
    from wargames.ntnd.combat_play import EliminateOverstack
    g = Game.new("tet", seed=1)
    to_phase(g, "communist_movement")
    st = g.state
    three = [u for u in st.units("communist") if st.counter(u).nationality == "NVA"
             and st.counter(u).type == "division" and not st.in_zone(u)][:3]
    for u in list(st.at("1110")):
        st.remove(u, eliminated=False)
    for u in three:
        st.update(u, location="1110", face_up=True)           # three divisions in one Laotian hex: one too many
    to_phase(g, "allied_reaction")
    g.apply(EndPhase())                                        # the Communist combat phase begins
    assert g.phase.id == "communist_combat" and g.prompt.side == "communist" and g.prompt.rule == "NT 8.10.2"
    with pytest.raises(RuleViolation):
        g.apply(EndPhase())
    with pytest.raises(RuleViolation, match="NT 19.3.2"):
        g.apply(EliminateOverstack(tuple(three[:2])))           # only the excess goes
    g.apply(EliminateOverstack((three[2],)))
    assert three[2] not in g.state.pieces and g.prompt.kind == "play"
    g.apply(EndPhase())


def _withdrawal_points(res) -> int:
    """The political points the withdrawal step of an action moved the track by (the phase's first act, the
    replacement points and any desertion, comes in the same action)."""
    return next(st.inputs["pp"] for st in res.steps if st.rule == "NT 4.3.1" and "pp" in st.inputs)


def _at_reinforcement(name: str, seed: int = 1, **policy) -> Game:
    """A game of scenario ``name`` just before its first Allied reinforcement phase (optionally with the policy
    changed first), so that entering the phase is the next EndPhase."""
    import dataclasses
    g = Game.new(name, seed=seed)
    to_phase(g, "communist_politics")
    if policy:
        g.state.policy = dataclasses.replace(g.state.policy, **policy)
    if not g.book.tallied:
        g.apply(TallyPoints())
    return g


@pytest.mark.rule("NT 24.3.1", "NT 24.3.2", "NT 24.3.3", "NT 4.3.1")
def test_partial_vietnamization_withdraws_two_to_ten_units_each_turn_before_the_phase_ends():
    from wargames.ntnd.reinforcement import withdrawal_pool
    g = _at_reinforcement("year_of_the_rat")             # Partial Vietnamization in force since 1969
    g.apply(EndPhase())
    assert g.phase.id == "reinforcement"
    with pytest.raises(RuleViolation, match="NT 4.3.1.*withdrawals are made first"):
        g.apply(EndPhase())
    offered = [a for a in g.legal_actions if isinstance(a, Withdraw)]
    assert offered and all(len(a.units) >= 2 for a in offered)
    us = [u for u in withdrawal_pool(g.state) if g.state.counter(u).nationality == "US"]
    with pytest.raises(RuleViolation, match="NT 24.3.1.*at least 2"):
        g.apply(Withdraw(tuple(us[:1])))
    res = g.apply(Withdraw(tuple(us[:4])))
    assert _withdrawal_points(res) == 4                           # 24.3.2: a point a unit
    assert next(st.inputs["arvn"] for st in res.steps if "arvn" in st.inputs) == 1    # 24.3.3: four US units
    assert all(u in g.state.withdrawn for u in us[:4])
    g.apply(EndPhase())                                           # owed no longer
    assert g.phase.id != "reinforcement"


@pytest.mark.rule("NT 23.3", "NT 23.3.1", "NT 23.3.2")
def test_the_peace_partys_die_is_rolled_as_the_phase_opens_and_a_short_withdrawal_costs_two_points_a_unit():
    from wargames.ntnd.reinforcement import withdrawal_pool
    g = _at_reinforcement("tet", peace_party=True, elections=((1968, True),))
    res = g.apply(EndPhase(), ScriptedDice([3]))
    assert g.book.withdrawal_die == 3 and "NT 23.3" in res.rules()
    with pytest.raises(RuleViolation, match="withdrawals are made first"):
        g.apply(EndPhase())
    us = [u for u in withdrawal_pool(g.state) if g.state.counter(u).nationality == "US"]
    assert _withdrawal_points(g.apply(Withdraw(tuple(us[:1])))) == -4    # two short of the die
    g.apply(EndPhase())


@pytest.mark.rule("NT 23.3.2")
def test_withdrawing_beyond_the_peace_partys_die_earns_a_point_a_unit():
    from wargames.ntnd.reinforcement import withdrawal_pool
    g = _at_reinforcement("tet", peace_party=True, elections=((1968, True),))
    g.apply(EndPhase(), ScriptedDice([1]))
    us = [u for u in withdrawal_pool(g.state) if g.state.counter(u).nationality == "US"]
    assert _withdrawal_points(g.apply(Withdraw(tuple(us[:3])))) == 2


@pytest.mark.rule("NT 4.3.1")
def test_a_scheduled_withdrawal_cannot_be_skipped_by_ending_the_phase():
    from wargames.ntnd.reinforcement import due_withdrawals, may_leave_from
    g = _at_reinforcement("tet")
    g.state.turn = 27                                  # Jul/Aug 1969: the first US and USMC units are due to leave
    g.apply(EndPhase())
    due = [u for u in due_withdrawals(g.state) if may_leave_from(g.state, u)]
    assert due
    with pytest.raises(RuleViolation, match="withdrawals are made first"):
        g.apply(EndPhase())
    g.apply(next(a for a in g.legal_actions if isinstance(a, Withdraw)))
    assert all(u in g.state.withdrawn for u in due)


@pytest.mark.rule("NT 16.6")
def test_the_communist_player_never_raises_montagnards():
    g = Game.new("campaign", seed=16)
    g.apply(Muster())
    montagnard = next(c.id for c in g.state.mix if c.type == "montagnard")
    place = next(a.at for a in g.legal_actions if isinstance(a, Recruit))
    for bad in (Recruit("basic", "montagnard", place), Recruit("basic", "cadre", place, unit=montagnard)):
        with pytest.raises(RuleViolation, match="NT 16.6"):
            g.apply(bad)
    assert not any(isinstance(a, Recruit) and a.kind == "montagnard" for a in g.legal_actions)


@pytest.mark.rule("NT 24.2.1", "NT 24.2.2", "NT 24.2.3")
def test_full_vietnamization_calls_us_ground_units_forward_but_not_support_air_or_seato():
    import dataclasses
    from wargames.ntnd.reinforcement import arrivals
    from wargames.ntnd.units import schedule
    g = Game.new("campaign", seed=24)
    st = g.state
    later = [u for u in schedule().counters("arrive") if schedule().turn_of(u, "arrive") > st.turn]
    kinds = {u: st.counter(u) for u in later}
    before = set(arrivals(st))
    st.policy = st.policy.declare_full(st.turn)
    called = set(arrivals(st)) - before
    us_ground = {u for u, c in kinds.items() if c.nationality == "US" and c.ground_combat}
    support = {u for u, c in kinds.items() if c.nationality == "US" and not c.ground_combat}
    seato = {u for u, c in kinds.items() if c.seato}
    assert us_ground and called == us_ground                       # 24.2.1: any of them, at once
    assert {st.counter(u).type for u in support} >= {"patrol_boat", "fighter", "sac"}
    assert not called & support                                    # 24.2.2: the schedule's turns
    assert seato and not called & seato                            # 24.2.3


@pytest.mark.rule("NT 26.4", "NT 26.2")
def test_during_the_uprising_control_and_town_cadres_still_come_though_the_basic_ones_do_not():
    import dataclasses
    from wargames.ntnd.recruitment import entitlements, town_points
    g = Game.new("tet", seed=26)
    st = g.state.copy()
    st.policy = dataclasses.replace(st.policy, uprising=st.turn)
    st.hearts_minds["I"] = "communist_control"
    geo = st.geography
    towns = [geo.label(h) for h in geo.settlements("II").values() if not st.at(geo.label(h))][:2]
    regiments = [u for u in st.units("communist") if st.counter(u).type == "regiment" and not st.in_zone(u)]
    for vc, town in zip(regiments, towns):
        st.update(vc, location=town, face_up=True)
    assert town_points(st, "II") >= 2
    ent = entitlements(st, ScriptedDice([1] * 6))          # a 1 is under two town points
    assert ("basic", None) not in ent.left                  # 26.2: no basic cadres in an uprising turn
    assert ("control", "I") in ent.left                     # 26.4: Communist Control still recruits
    assert ("extra", "II") in ent.left                      # 26.4: so do the held towns


@pytest.mark.rule("NT 24.3.5")
def test_under_partial_vietnamization_us_gunships_and_firebases_pass_to_the_arvn():
    from wargames.ntnd.game import TransferToArvn
    from wargames.ntnd.recruitment import us_units_in_play
    from wargames.ntnd.reinforcement import move_firebase, withdrawal_pool
    from wargames.ntnd.units import pools_that_may_replace
    g = _at_reinforcement("tet")
    g.apply(EndPhase())
    st = g.state
    gunship = next(u for u in sorted(st.air) if st.counter(u).type == "gunship")
    with pytest.raises(RuleViolation, match="only under Partial"):
        g.apply(TransferToArvn(gunship))
    g.apply(DeclareVietnamization("partial"))
    heli = next(u for u in sorted(st.air) if st.counter(u).type == "gunship" and st.counter(u).nationality == "US")
    fb = next(u for u in sorted(st.pieces) if st.counter(u).type == "firebase" and st.counter(u).nationality == "US")
    infantry = next(u for u in sorted(st.pieces) if st.counter(u).nationality == "US" and st.counter(u).ground_combat)
    with pytest.raises(RuleViolation, match="NT 24.3.5"):
        g.apply(TransferToArvn(infantry))
    for u in (heli, fb):
        american = us_units_in_play(g.state)
        g.apply(TransferToArvn(u))
        assert us_units_in_play(g.state) == american - 1                 # 24.3.4 counts it no longer
        assert g.state.counter(u).nationality == "SVN"
        assert pools_that_may_replace(g.state.counter(u)) == {"US"}      # replaced only with a US point
        assert u not in withdrawal_pool(g.state)                          # no longer an American unit to withdraw
    with pytest.raises(RuleViolation, match="ARVN already"):
        g.apply(TransferToArvn(fb))
    arvn = next(u for u in sorted(g.state.pieces) if g.state.counter(u).nationality == "SVN"
                and g.state.counter(u).ground_combat and g.state.counter(u).type not in ("militia", "montagnard")
                and not g.state.in_zone(u))
    us = next(u for u in sorted(g.state.pieces) if g.state.counter(u).nationality == "US"
              and g.state.counter(u).ground_combat and not g.state.in_zone(u))
    with pytest.raises(RuleViolation):
        move_firebase(g.state, fb, g.state.piece(us).location)            # 5.8: now an ARVN firebase
    new, _ = move_firebase(g.state, fb, g.state.piece(arvn).location)
    assert new.piece(fb).location == g.state.piece(arvn).location


@pytest.mark.rule("NT 27.1", "NT 27.1.1", "NT 26.1", "NT 26.2", "NT 26.3")
def test_in_jan_feb_1967_the_communist_player_rolls_for_aid_then_declares_the_uprising():
    from wargames.ntnd.calendar import Turn
    from wargames.ntnd.game import RollAid
    g = Game.new("campaign", seed=67)
    g.state.turn = 12                                  # the campaign moved on to Jan/Feb 1967
    assert Turn(12).months == "Jan/Feb" and not g.state.policy.aid
    res = g.apply(RollAid(), ScriptedDice([6, 6]))     # one die for each of China and the USSR
    assert [s.rule for s in res.steps].count("NT 27.1") >= 2 or len(res.find("NT 27.1")) >= 1
    with pytest.raises(RuleViolation, match="once"):
        g.apply(RollAid())
    g.apply(DeclareUprising())
    assert g.state.policy.uprising == 12
    res = g.apply(Muster())
    assert ("basic", None) not in g.book.entitlement.left                          # 26.2
    assert all(("uprising", c) in g.book.entitlement.left for c in ("I", "II", "III", "IV"))   # 26.3
    with pytest.raises(RuleViolation, match="NT 26.1"):
        g.apply(DeclareUprising())                   # after the recruits are worked out, and only once


@pytest.mark.rule("NT 10.2", "NT 10.2 Note", "NT 10.2.1", "NT 10.2.3")
def test_an_announced_zone_of_control_reaches_across_the_border_is_charged_each_turn_until_taken_back():
    from wargames.ntnd.game import DeclareZoc, RevokeZoc
    from wargames.ntnd.state import NtndState
    g = Game.new("campaign", seed=10)
    to_phase(g, "communist_movement")
    assert DeclareZoc("Laos") in g.legal_actions
    before = g.state.track.points
    res = g.apply(DeclareZoc("Laos"), ScriptedDice([2]))
    assert g.state.track.points == before + 2 and "NT 10.2.1" in res.rules()       # a Communist violation
    with pytest.raises(RuleViolation, match="already announced"):
        g.apply(DeclareZoc("Laos"))
    to_phase(g, "allied_movement")

    def stopped_at_border(game) -> str | None:
        """US 1/1 steps from 1512 to 1411, next to a face-up NVA division across the Laotian border at 1311."""
        s = NtndState(turn=game.state.turn, phase="allied_movement", track=game.state.track,
                      policy=game.state.policy, hearts_minds=dict(game.state.hearts_minds))
        s.place("US 1/1", "1512", corps="I")
        s.place("NVA 304", "1311", face_up=True)
        game.state = s
        game.book.moved = frozenset()
        res = game.apply(Step("US 1/1", "1411"))
        return "NT 8.5.2" in res.rules()

    assert stopped_at_border(g)                                  # the announced zone of control stops it
    to_phase(g, "communist_movement")                            # the next turn: charged again as it begins
    step = next(s for r in g.resolutions[-12:] for s in r.steps if s.rule == "NT 10.2.1")
    assert step.inputs["country"] == "Laos" and step.inputs["side"] == "communist"
    g.apply(RevokeZoc("Laos"))
    with pytest.raises(RuleViolation, match="no zone of control"):
        g.apply(RevokeZoc("Laos"))
    to_phase(g, "allied_movement")
    assert not stopped_at_border(g)                              # the border stops the zone again


@pytest.mark.rule("NT 20.5", "NT 19.3.2")
def test_ambushers_whose_only_retreat_over_stacks_are_offered_the_units_to_remove():
    """Found by random play: the ambushers' one retreat hex held a third unit, and no offered answer named the
    unit to remove, so the game had no legal action."""
    import json
    from pathlib import Path
    from wargames.ntnd.game import AmbushAftermath
    g = Game.load(json.loads((Path(__file__).parent / "data" / "ntnd_ambush_overstack_save.json").read_text()))
    assert g.prompt.side == "communist" and g.prompt.rule == "NT 20.5"
    answers = [a for a in g.legal_actions if isinstance(a, AmbushAftermath)]
    assert answers and all(a.overstack for a in answers)
    g.apply(answers[0])
    assert g.invariants() == [] and g.decision() is None


@pytest.mark.rule("NT 9.1", "NT 8.5")
def test_a_unit_leaving_a_zone_may_not_enter_a_hex_the_enemy_holds():
    from wargames.ntnd.movement import begin_move, check_step
    g = Game.new("year_of_the_rat", seed=1)
    st = g.state
    border = "0104"                                    # a hex on the Vientiane zone's edge
    assert st.geography.hex(border) in st.geography.zone("Vientiane").border_hexes
    assert st.piece("Lao ranger 1").location == "Vientiane"
    mv = begin_move(st, "Lao ranger 1", in_supply=True)
    check_step(st, mv, border)                         # open while it is empty
    for u in list(st.at(border)):
        st.remove(u, eliminated=False)
    st.update("PL reg 1", location=border, face_up=False)
    with pytest.raises(RuleViolation, match=r"NT 8\.5: 0104 holds enemy units"):
        check_step(st, mv, border)


@pytest.mark.rule("NT 11.5", "NT 11.1.2")
def test_an_aircraft_lost_in_the_dogfight_gives_no_ground_support_and_stays_dead():
    """Found by random play: a carrier wing shot down over Haiphong still counted as getting through and went
    back to the unavailable box while in the dead pile."""
    import json
    from pathlib import Path
    from wargames.ntnd.air_play import ChooseAirLosses
    g = Game.load(json.loads((Path(__file__).parent / "data" / "ntnd_dogfight_save.json").read_text()))
    assert g.prompt.rule == "NT 11.5" and g.airbook.step["mission"].units == ("US CV 1", "US CV 2")
    res = g.apply(ChooseAirLosses(("US CV 1",)))
    assert "US CV 1" in g.state.dead and "US CV 1" not in g.state.air and g.invariants() == []
    assert res.find("NT 11.1.2")[-1].result == 1 and g.airbook.ground_support[-1] == ("Haiphong", 1)
