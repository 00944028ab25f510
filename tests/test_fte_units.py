"""Counters (F 2.0) and the quick reference charts (F QRC) checked against the engine."""
import pytest

from wargames.core.errors import DataError
from wargames.fte.checks import Drm
from wargames.fte.fire import to_hit_drms
from wargames.fte.movement import allowance
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import Unit


@pytest.mark.rule("F 2.0")
def test_counter_fields_and_what_follows_from_them():
    ft = Unit("FT", "US", fire_rating=4, weapon="SA", tq=4, range=4, men=4)
    ldr = Unit("Ldr", "NVA", role="leader", tq=5, men=1)
    apc = Unit("APC", "US", kind="vehicle", role="apc", fire_rating=5, weapon="DP", defense=2, men=2)
    slick = Unit("Slick", "US", kind="helicopter", role="slick", men=2, altitude="high")
    assert ft.is_combat and not ldr.is_combat and ldr.is_leader and ldr.player == "NVA/VC"
    assert (ft.carry_limit, Unit("T3", "US", men=3).carry_limit, Unit("T2", "US", men=2).carry_limit) == (2, 1, 0)
    assert (apc.capacity, slick.capacity, ft.capacity) == (8, 7, 0)


@pytest.mark.rule("F 2.0")
@pytest.mark.parametrize("kw,field", [
    ({"side": "ARVN"}, "side"), ({"kind": "boat"}, "kind"), ({"weapon": "SA"}, "weapon"),
    ({"fire_rating": 4, "weapon": "laser"}, "weapon"), ({"men": 5}, "men"), ({"kind": "helicopter"}, "altitude"),
    ({"altitude": "high"}, "altitude"), ({"role": "general"}, "role")])
def test_bad_counters_name_the_field(kw, field):
    args = {"side": "US", **kw}
    with pytest.raises(DataError) as e:
        Unit("X", **args)
    assert f"unit X.{field}" in str(e.value)


@pytest.mark.rule("F QRC", "F 6.3", "F 6.6")
def test_quick_reference_movement_allowances():
    s = FteState(demo_map())
    place(s, [Unit("FT", "US", hex=s.hex("23.23")), Unit("V", "US", kind="vehicle", role="apc", hex=s.hex("23.24")),
              Unit("H", "US", kind="helicopter", role="slick", altitude="high", hex=s.hex("23.25")),
              Unit("G", "US", kind="helicopter", role="slick", altitude="ground", hex=s.hex("23.26"))])
    mp = lambda uid, **kw: allowance(s, s.unit(uid), **kw)[0]
    assert mp("FT") == 5 and mp("FT", double_time=True) == 9
    assert mp("V") == 15
    assert mp("H") == 20 and mp("G") == 2


@pytest.mark.rule("F QRC", "F 7.1")
def test_quick_reference_fire_drms_each_come_out_of_the_engine():
    s = FteState(demo_map())
    place(s, [Unit("A", "US", fire_rating=4, weapon="SA", range=2, hex=s.hex("20.20")),
              Unit("B", "US", fire_rating=4, weapon="SA", range=2, hex=s.hex("20.20")),
              Unit("T", "NVA", fire_rating=4, weapon="SA", hex=s.hex("21.20"))]
          + [Unit(f"N{i}", "NVA", hex=s.hex("21.20")) for i in range(4)])
    a, b, t = s.unit("A"), s.unit("B"), s.unit("T")
    rules = lambda drms: sorted((d.value, d.why.split(" (")[0]) for d in drms)
    drms = to_hit_drms(s, t, a, support=[b])
    assert (-1, "firing into an adjacent hex") in rules(drms)          # adjacent
    assert (-1, "B supports the attack") in rules(drms)                # each additional firer
    assert any(d.value == -1 and "beyond four" in d.why for d in drms)   # 5 units in the target hex
    t.hex = s.hex("23.19")                                             # rice paddy, 3 hexes away
    for n in range(4):
        s.unit(f"N{n}").hex = s.hex("23.19")
    drms = to_hit_drms(s, t, a, opportunity=True, stealthy=True)
    why = [d.why for d in drms]
    assert any("beyond range" in w for w in why) and any("stealthy" in w for w in why)
    a.concealed = True
    assert any(d.value == -1 and "concealed unit" in d.why for d in to_hit_drms(s, t, a, opportunity=True))
    assert any(d.value == 1 and "target in rice paddy" in d.why for d in drms)
