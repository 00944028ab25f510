"""The No Trumpets No Drums position (wargames.ntnd.state): pieces, dead pile, counter mix, copies."""
import pytest

from wargames.core.errors import RuleViolation
from wargames.ntnd.state import NtndState


@pytest.fixture
def state():
    s = NtndState(turn=1, phase="setup")
    saigon = s.geography.label(s.geography.place("Saigon"))
    s.place("VC cadre 1", saigon, face_up=False)
    return s, saigon


@pytest.mark.rule("NT 4.4", "NT 4.1.6")
def test_placing_and_the_counter_mix(state):
    s, saigon = state
    assert s.at(saigon) == ["VC cadre 1"] and s.side_at(saigon) == "communist"
    assert not s.piece("VC cadre 1").face_up
    before = len(s.available("communist", type="cadre"))
    s.place("VC cadre 2", "Hanoi")
    assert len(s.available("communist", type="cadre")) == before - 1
    assert s.in_zone("VC cadre 2") and s.hex_of("VC cadre 2") is None and s.area_of("Hanoi") == "NV"
    assert s.area_of(saigon) == "III"
    with pytest.raises(RuleViolation, match="already in play"):
        s.place("VC cadre 1", "Hanoi")
    with pytest.raises(RuleViolation, match="NT 9"):
        s.place("VC cadre 3", "9999")
    with pytest.raises(RuleViolation, match="NT 9"):
        s.update("VC cadre 1", location="Paris")
    assert s.units("communist", face_up=False) == ["VC cadre 1"]
    assert s.units(area="III") == ["VC cadre 1"]


@pytest.mark.rule("NT 4.2.3", "NT 4.1.2", "NT 4.3.2")
def test_elimination_and_withdrawal(state):
    s, saigon = state
    allied = s.available("allied", nationality="US")[0].id
    s.place(allied, saigon)
    s.remove(allied)
    assert allied in s.dead and allied not in {c.id for c in s.available("allied")}
    s.remove("VC cadre 1")
    assert "VC cadre 1" not in s.dead and "VC cadre 1" in {c.id for c in s.available("communist")}
    s.withdraw(allied)
    assert allied in s.withdrawn and allied not in s.dead
    with pytest.raises(RuleViolation, match="NT 4.3.2"):
        s.place(allied, saigon)
    with pytest.raises(RuleViolation, match="not in play"):
        s.remove("VC cadre 1")


def test_copies_are_independent_and_share_the_map(state):
    s, saigon = state
    c = s.copy()
    c.update("VC cadre 1", face_up=True)
    c.hearts_minds["I"] = "allied_control"
    c.place("VC cadre 2", saigon)
    assert not s.piece("VC cadre 1").face_up and "I" not in s.hearts_minds and s.at(saigon) == ["VC cadre 1"]
    assert c.at(saigon) == ["VC cadre 1", "VC cadre 2"]
    assert c.geography is s.geography and c.mix is s.mix
