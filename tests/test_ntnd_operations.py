"""The Communist operations phase (wargames.ntnd.operations): NT 6, 28.7.1, 28.9.3, 28.9.7, 4.1.2."""
from dataclasses import replace

import pytest

from wargames.core.errors import RuleViolation
from wargames.ntnd.operations import break_down, build_division, build_vc_base, promote, set_face
from wargames.ntnd.state import NtndState

JUNGLE, NEXT, TWO_AWAY = "1720", "1620", "1520"      # II Corps jungle; its neighbour; Cambodia two hexes off
CLEAR_II, PLEIKU, LAOS = "2017", "1718", "1111"


def fresh(turn=1):
    return NtndState(turn=turn, phase="operations")


@pytest.mark.rule("NT 6.1.1", "NT 6.1.2", "NT 28.7.1", "NT 6.1.4")
def test_promoting_cadres():
    s = fresh()
    s.place("VC cadre 1", JUNGLE, face_up=False)
    s.place("supply 1", NEXT)
    new, res = promote(s, "VC cadre 1", "supply 1")
    reg = res.result
    assert new.counter(reg).type == "regiment" and new.counter(reg).nationality == "VC"
    assert new.piece(reg).location == JUNGLE and not new.piece(reg).face_up
    assert "supply 1" not in new.pieces and "VC cadre 1" not in new.pieces and "VC cadre 1" in s.pieces
    new, res = promote(s, "VC cadre 1", "supply 1", "sapper")
    assert new.counter(res.result).type == "sapper"
    s.update("supply 1", location=TWO_AWAY)
    with pytest.raises(RuleViolation, match="next to"):
        promote(s, "VC cadre 1", "supply 1")
    s.update("supply 1", location=JUNGLE)
    promote(s, "VC cadre 1", "supply 1")
    s.place("KR cadre 1", TWO_AWAY)
    s.place("supply 2", TWO_AWAY)
    new, res = promote(s, "KR cadre 1", "supply 2")
    assert new.counter(res.result).nationality == "KR"
    with pytest.raises(RuleViolation, match="only Viet Cong"):
        promote(s, "KR cadre 1", "supply 2", "sapper")
    with pytest.raises(RuleViolation, match="supply"):
        promote(s, "KR cadre 1", "VC cadre 1")
    with pytest.raises(RuleViolation, match="cadre"):
        promote(s, "supply 2", "supply 1")
    for r in s.available("communist", type="regiment", nationality="KR"):
        s.place(r.id, "Hanoi")
    with pytest.raises(RuleViolation, match="NT 6.1.4"):
        promote(s, "KR cadre 1", "supply 2")
    s.phase = "movement"
    with pytest.raises(RuleViolation, match="operations phase"):
        promote(s, "VC cadre 1", "supply 1")


@pytest.mark.rule("NT 6.1.3")
def test_breaking_down_a_division():
    s = fresh()
    s.place("NVA 304", JUNGLE, face_up=False)
    new, res = break_down(s, "NVA 304")
    cadre, reg = res.result
    assert {new.counter(cadre).type, new.counter(reg).type} == {"cadre", "regiment"}
    assert new.counter(cadre).nationality == new.counter(reg).nationality == "VC"
    assert not new.piece(reg).face_up and "NVA 304" not in new.pieces
    assert "NVA 304" in {c.id for c in new.available("communist", type="division")}
    s.update("NVA 304", location=LAOS)
    assert new.counter(break_down(s, "NVA 304")[1].result[0]).nationality == "PL"
    s.update("NVA 304", location=TWO_AWAY)
    assert new.counter(break_down(s, "NVA 304")[1].result[1]).nationality == "KR"
    s.update("NVA 304", location="Hanoi")
    with pytest.raises(RuleViolation, match="NT 6.1.3"):
        break_down(s, "NVA 304")
    s.update("NVA 304", location="Plain of Jars")                   # a Laotian zone
    assert new.counter(break_down(s, "NVA 304")[1].result[0]).nationality == "PL"
    s.place("VC cadre 1", JUNGLE)
    with pytest.raises(RuleViolation, match="division"):
        break_down(s, "VC cadre 1")


@pytest.mark.rule("NT 28.9.3", "NT 28.9.1")
def test_building_a_vc_base():
    s = fresh()
    s.place("VC cadre 1", JUNGLE)
    s.place("supply 1", JUNGLE)
    s.place("supply 2", JUNGLE)
    new, res = build_vc_base(s, JUNGLE, ("supply 1", "supply 2"))
    assert new.counter(res.result).type == "vc_base" and not {"supply 1", "supply 2"} & set(new.pieces)
    with pytest.raises(RuleViolation, match="two supply"):
        build_vc_base(s, JUNGLE, ("supply 1", "supply 1"))
    s.update("supply 2", location=NEXT)
    with pytest.raises(RuleViolation, match="not in"):
        build_vc_base(s, JUNGLE, ("supply 1", "supply 2"))
    s.update("supply 2", location=JUNGLE)
    s.update("VC cadre 1", location=NEXT)
    with pytest.raises(RuleViolation, match="no Viet Cong"):
        build_vc_base(s, JUNGLE, ("supply 1", "supply 2"))
    s.place("NVA 304", JUNGLE)                                     # an NVA unit is not a VC occupier
    with pytest.raises(RuleViolation, match="no Viet Cong"):
        build_vc_base(s, JUNGLE, ("supply 1", "supply 2"))
    for loc in (CLEAR_II, TWO_AWAY):
        t = fresh()
        for u in ("VC cadre 1", "supply 1", "supply 2"):
            t.place(u, loc)
        with pytest.raises(RuleViolation, match="mountain, jungle or swamp"):
            build_vc_base(t, loc, ("supply 1", "supply 2"))
    second = new.copy()
    for u in ("VC cadre 2", "supply 3", "supply 4"):
        second.place(u, NEXT)
    with pytest.raises(RuleViolation, match="already has a VC Base"):
        build_vc_base(second, NEXT, ("supply 3", "supply 4"))


@pytest.mark.rule("NT 28.9.7", "NT 4.1.7")
def test_a_division_built_on_a_base():
    s = fresh()
    s.place("VC base 1", JUNGLE)
    reg = s.available("communist", type="regiment", nationality="VC")[0].id
    for u in (reg, "VC cadre 1", "supply 1"):
        s.place(u, JUNGLE)
    new, res = build_division(s, "VC base 1", reg, "VC cadre 1", "supply 1")
    assert "vc_formed" in new.counter(res.result).tags and new.piece(res.result).location == JUNGLE
    assert not {reg, "VC cadre 1", "supply 1"} & set(new.pieces)
    reg2 = new.available("communist", type="regiment", nationality="VC")[0].id
    for u in (reg2, "VC cadre 2", "supply 2"):
        new.place(u, JUNGLE)
    with pytest.raises(RuleViolation, match="already been built"):
        build_division(new, "VC base 1", reg2, "VC cadre 2", "supply 2")
    s.update("supply 1", location=NEXT)
    with pytest.raises(RuleViolation, match="not in the VC Base"):
        build_division(s, "VC base 1", reg, "VC cadre 1", "supply 1")
    s.update("supply 1", location=JUNGLE)
    for d in s.available("communist", type="division")[:10]:
        s.place(d.id, "Hanoi")
    with pytest.raises(RuleViolation, match="NT 4.1.7"):
        build_division(s, "VC base 1", reg, "VC cadre 1", "supply 1")
    s.turn, s.policy = 12, replace(s.policy, uprising=12)
    build_division(s, "VC base 1", reg, "VC cadre 1", "supply 1")


@pytest.mark.rule("NT 6.2", "NT 4.1.2")
def test_inverting_and_flipping():
    s = fresh()
    s.place("VC cadre 1", JUNGLE)
    s.place("NVA tank 202", "China")
    s.place("dummy 1", NEXT, face_up=False)
    new, _ = set_face(s, "VC cadre 1", False)
    assert not new.piece("VC cadre 1").face_up and s.piece("VC cadre 1").face_up
    assert set_face(new, "VC cadre 1", True)[0].piece("VC cadre 1").face_up
    with pytest.raises(RuleViolation, match="already"):
        set_face(s, "VC cadre 1", True)
    with pytest.raises(RuleViolation, match="never be inverted"):
        set_face(s, "NVA tank 202", False)
    new, res = set_face(s, "dummy 1", True)
    assert "dummy 1" not in new.pieces and "dummy 1" in {c.id for c in new.available("communist")}
    s.place("US 1/1", PLEIKU)
    with pytest.raises(RuleViolation, match="not a Communist"):
        set_face(s, "US 1/1", False)
    s.phase = "movement"
    with pytest.raises(RuleViolation, match="operations phase"):
        set_face(s, "VC cadre 1", False)
