"""IC 38 set-up rules (deployment.py): initial control, control militia, set-up slots, where each counter may
start, set-up fortifications and the scenarios' own reinforcements.

Most tests run on a small synthetic map of Indochina built here (every place the scenarios name, the four
countries, Thailand, sea, a river); the last group runs on the reconstructed map once it is in the repository.
"""
from __future__ import annotations

import random

import pytest

from wargames.core.errors import DataError
from wargames.indochina import deployment as dp
from wargames.indochina.combat import Side
from wargames.indochina.counters import make_counter
from wargames.indochina.deployment import (Slot, air_box, control_militia, fortification_problem, fortification_slots,
                                           initial_control, legal_fortification_hexes, legal_hexes,
                                           placement_problem, reinforcement_slots, setup_slots)
from wargames.indochina.scenario_data import Month, load_scenario
from wargames.indochina.state import IndochinaState, load_indochina_map
from wargames.indochina.units import UnitState
from . import yamlc

FEF, COM = Side.FEF, Side.COMMUNIST

# name -> (label, kind); the towns of the Chinese border along row 05, Hue on row 18
PLACES = {
    "Lao Cay": ("1005", "town"), "Hai Giang": ("1205", "town"), "Cao Bang": ("1405", "town"),
    "Lang Son": ("1505", "town"), "Mon Cai": ("1705", "town"), "Dien Bien Phu": ("1008", "town"),
    "Na Sanh": ("1107", "town"), "Hoa Binh": ("1209", "town"), "Hanoi": ("1408", "city"),
    "Haiphong": ("1608", "city"), "Thai Binh": ("1510", "town"), "Ninh Binh": ("1311", "town"),
    "Than Hoa": ("1413", "town"), "Vinh": ("1415", "town"), "Dong Hai": ("1516", "town"), "Hue": ("1618", "city"),
    "Quang Nai": ("1720", "town"), "Qui Nhon": ("1722", "town"), "Pleiku": ("1522", "town"),
    "Saigon": ("1426", "city"), "Long Xuyen": ("1028", "town"), "Bac Lieu": ("1029", "town"),
    "Cao Mao": ("0830", "town"), "Sam Neua": ("0808", "town"), "Luang Prabang": ("0610", "city"),
    "Vientiane": ("0614", "city"), "Phnom Penh": ("0822", "city"), "Battambang": ("0520", "town"),
    "Kunming": ("0602", "city"),
}
MOUNTAIN = {"1206", "1306"}
RIVER = {"1407", "1409", "1507", "1508"}


def country(col: int, row: int) -> str:
    if col <= 3:
        return "Thailand"
    if col >= 18:
        return "sea"
    if row <= 4:
        return "China"
    if row >= 27:
        return "Vietnam"
    if col >= 12 or (col >= 10 and row <= 18):
        return "Vietnam"
    return "Laos" if row <= 18 else "Cambodia"


def synthetic_map(tmp_path):
    by_label = {lab: (name, kind) for name, (lab, kind) in PLACES.items()}
    hexes = {}
    for col in range(1, 21):
        for row in range(1, 31):
            lab = f"{col:02d}{row:02d}"
            c = country(col, row)
            h = {"terrain": "all_sea" if c == "sea" else ("mountain" if lab in MOUNTAIN else "clear"), "country": c}
            feats = []
            if col == 17 and c == "Vietnam":
                feats.append("coast")
            if lab in RIVER:
                feats.append("river")
            if lab in by_label:
                name, kind = by_label[lab]
                feats.append(kind)
                h["name"] = name
                h["militia"] = 2 if kind == "city" else 1
            if feats:
                h["features"] = feats
            hexes[lab] = h
    doc = {"name": "synthetic Indochina", "sheet": "main",
           "layout": {"parity": "even-q", "col_digits": 2, "row_digits": 2},
           "provenance": {"kind": "reconstructed", "source": "test map"}, "hexes": hexes}
    path = tmp_path / "synthetic.yaml"
    path.write_text(yamlc.safe_dump(doc))
    return load_indochina_map(path)


@pytest.fixture(scope="module")
def smap(tmp_path_factory):
    return synthetic_map(tmp_path_factory.mktemp("map"))


@pytest.fixture(scope="module")
def s1():
    return load_scenario("scenario1")


@pytest.fixture(scope="module")
def s2():
    return load_scenario("scenario2")


@pytest.fixture(scope="module")
def intro():
    return load_scenario("introductory")


def position(m, scenario, placements=()):
    st = IndochinaState.build(m, list(placements), source="test")
    control = initial_control(scenario, m)
    st.communist_cities = {lab for lab, who in control.items() if who is COM}
    return st


def put(st, counter, label):
    st.units[counter.id] = UnitState(counter, st.map.hex(label))


def slot_of(scenario, side, type_, deployment=None, optional=True, nationality=None):
    for s in setup_slots(scenario, side, optional_rules=optional):
        if s.counter.type == type_ and (deployment is None or s.deployment == deployment) and \
                (nationality is None or s.counter.nationality == nationality):
            return s
    raise AssertionError(f"no {type_} slot")


def dep_index(scenario, side, text):
    for i, d in enumerate(scenario.sides[side].deployment):
        if text in d.where:
            return i
    raise AssertionError(text)


# ------------------------------------------------------------------------------------ control, militia

def test_scenario1_seven_communist_places_each_get_one_militia(smap, s1):
    control = initial_control(s1, smap)
    communist = sorted(lab for lab, who in control.items() if who is COM and smap.info(smap.hex(lab)).attr("country") != "China")
    assert len(communist) == 7
    militia = control_militia(s1, smap)
    assert len(militia) == 7
    assert sorted(lab for _, lab in militia) == communist
    assert all(c.type == "militia" and c.side is COM for c, _ in militia)
    assert len({c.id for c, _ in militia}) == 7
    assert control[PLACES["Hanoi"][0]] is FEF and control[PLACES["Vientiane"][0]] is FEF     # "all except"
    assert control[PLACES["Kunming"][0]] is COM                                              # 17.1 China


def test_scenario2_control_militia_by_nationality(smap, s2):
    militia = control_militia(s2, smap)
    assert len(militia) == 15
    sam_neua = [c for c, lab in militia if lab == PLACES["Sam Neua"][0]]
    assert len(sam_neua) == 1 and sam_neua[0].nationality == "Pathet Lao"


def test_introductory_control_only_the_five_cities(smap, intro):
    control = initial_control(intro, smap)
    fef = sorted(lab for lab, who in control.items() if who is FEF)
    assert fef == sorted(PLACES[n][0] for n in ("Saigon", "Haiphong", "Hanoi", "Phnom Penh", "Vientiane"))
    assert control[PLACES["Hue"][0]] is None                       # special rule f: held by neither
    assert control_militia(intro, smap) == []


def test_unknown_place_is_a_data_error(smap, s1, tmp_path):
    text = open(s1.source).read().replace("{name: Vinh, country: Vietnam}", "{name: Atlantis, country: Vietnam}")
    text = text.replace("all_except: [Bac Lieu, Cao Mao, Dong Hai, Long Xuyen, Quang Nai, Qui Nhon, Vinh]",
                        "all_except: [Atlantis, Bac Lieu, Cao Mao, Dong Hai, Long Xuyen, Quang Nai, Qui Nhon]")
    p = tmp_path / "s1.yaml"
    p.write_text(text)
    with pytest.raises(DataError) as e:
        initial_control(load_scenario(p), smap)
    assert "Atlantis" in str(e.value) and "control.Communist.only" in str(e.value)


# ------------------------------------------------------------------------------------------------ slots

def test_setup_slots_counts_and_death_commandos_only_with_optional_rules(s1, s2, intro):
    with_dc = setup_slots(s1, COM, optional_rules=True)
    without = setup_slots(s1, COM, optional_rules=False)
    assert sum(s.counter.type == "death commando" for s in with_dc) == 3
    assert sum(s.counter.type == "death commando" for s in without) == 0
    assert len(with_dc) - len(without) == 3
    # control militia and the air box are not set-up slots
    assert all(s.kind == "setup" for s in with_dc)
    fef = setup_slots(s1, FEF, optional_rules=True)
    assert len(fef) == 5 + 15 + 2 + 3 + 2 + 4 + 3 + 3 + 1 + 1 + 1
    assert air_box(s1, FEF) == {"airstrike": 6, "air transport": 3, "naval bombardment": 1}
    assert sum(s.counter.type == "death commando" for s in setup_slots(intro, COM, optional_rules=True)) == 0


def test_ids_are_unique_stable_and_readable(s1, s2, intro):
    for sc in (s1, s2, intro):
        for side in Side:
            a = [s.counter.id for s in setup_slots(sc, side, optional_rules=True)]
            b = [s.counter.id for s in setup_slots(sc, side, optional_rules=True)]
            assert a == b and len(set(a)) == len(a)
            militia = [c.id for c, _ in control_militia(sc, synthetic_cache())] if side is COM else []
            assert not set(militia) & set(a)
    ids = [s.counter.id for s in setup_slots(s1, FEF, optional_rules=True)]
    assert "FR mech gp 1" in ids and "FR reg inf gp 15" in ids and "VNA guer gp 4" in ids
    ids = [s.counter.id for s in setup_slots(s1, COM, optional_rules=True)]
    assert "VM reg inf div 2" in ids and "VM militia 8" in ids          # 1-7 are the control militia
    assert "KI guer 2" in ids and "PL cadre 1" in ids


_SYN = {}


def synthetic_cache():
    if "m" not in _SYN:
        import tempfile
        from pathlib import Path
        _SYN["m"] = synthetic_map(Path(tempfile.mkdtemp()))
    return _SYN["m"]


def test_set_up_never_exceeds_the_counter_mix(s1, s2, intro):
    from collections import Counter as Tally
    from wargames.indochina.counters import counter_mix
    mix = counter_mix()
    for sc in (s1, s2, intro):
        for side in Side:
            tally = Tally((s.counter.side, s.counter.nationality, s.counter.type, s.counter.size)
                          for s in setup_slots(sc, side, optional_rules=True))
            for (sd, nat, t, size), n in tally.items():
                sheet = {"British": "US", "Nationalist Chinese": "Chinese"}.get(nat, nat)
                rside = COM if sheet == "Chinese" else sd
                limit = mix.limit(rside, sheet, t, size)
                assert limit is None or n <= limit, (sc.id, nat, t, size, n, limit)


# ------------------------------------------------------------------------------------------- placement

def test_fef_scenario1_on_or_next_to_fef_controlled_places(smap, s1):
    st = position(smap, s1)
    slot = slot_of(s1, FEF, "mechanized")
    assert placement_problem(st, s1, slot, PLACES["Hanoi"][0]) is None
    assert placement_problem(st, s1, slot, "1409") is None                         # next to Hanoi
    far = placement_problem(st, s1, slot, "1112")
    assert far and far.startswith("IC 38 Scenario 1") and "FEF controls" in far
    # Vinh is Communist: next to it alone is not enough, and the town itself is the Communist's
    assert placement_problem(st, s1, slot, PLACES["Vinh"][0]).startswith("IC 38 Scenario 1")
    i = dep_index(s1, FEF, "Vietnamese city or town")
    vna = next(s for s in setup_slots(s1, FEF, optional_rules=True) if s.deployment == i)
    assert placement_problem(st, s1, vna, "1415").startswith("IC 38 Scenario 1")          # Vinh, next to Than Hoa
    assert "holds at the start" in placement_problem(st, s1, vna, "1415")
    assert placement_problem(st, s1, vna, "1414") is None                                  # next to Than Hoa


def test_fef_never_in_china_thailand_or_sea(smap, s1):
    st = position(smap, s1)
    slot = slot_of(s1, FEF, "mechanized")
    assert placement_problem(st, s1, slot, "1404").startswith("IC 22.3")           # China, next to Cao Bang
    assert placement_problem(st, s1, slot, "0310").startswith("IC 22.4")
    assert placement_problem(st, s1, slot, "1808").startswith("IC 9.5")


def test_dna_only_on_water(smap, s1):
    st = position(smap, s1)
    slot = slot_of(s1, FEF, "DNA")
    assert placement_problem(st, s1, slot, "1407") is None                         # river, next to Hanoi
    assert placement_problem(st, s1, slot, PLACES["Hanoi"][0]).startswith("IC 18.1")


def test_stacking_limit_at_set_up(smap, s1):
    st = position(smap, s1)
    slots = [s for s in setup_slots(s1, FEF, optional_rules=True) if s.counter.type == "regular infantry"
             and s.counter.nationality == "French"]
    for s in slots[:4]:
        assert placement_problem(st, s1, s, "1409") is None
        put(st, s.counter, "1409")
    p = placement_problem(st, s1, slots[4], "1409")
    assert p.startswith("IC 10.5")
    # mountains hold one division (10.12)
    st2 = position(smap, s1)
    for s in slots[:2]:
        put(st2, s.counter, "1206")
    assert placement_problem(st2, s1, slots[2], "1206").startswith("IC 10.5")


def test_cambodian_army_only_on_a_cambodian_city(smap, s1):
    st = position(smap, s1)
    i = dep_index(s1, FEF, "Cambodian city")
    slot = next(s for s in setup_slots(s1, FEF, optional_rules=True) if s.deployment == i)
    assert legal_hexes(st, s1, slot) == [smap.hex(PLACES["Phnom Penh"][0])]
    assert placement_problem(st, s1, slot, PLACES["Battambang"][0]).startswith("IC 38 Scenario 1")


def test_communist_not_in_fef_city_nor_with_fef_units(smap, s1):
    st = position(smap, s1)
    north = dep_index(s1, COM, "north of Hue")
    slot = slot_of(s1, COM, "regular infantry", north)
    p = placement_problem(st, s1, slot, PLACES["Hanoi"][0])
    assert p.startswith("IC 38 Scenario 1") and "FEF controls" in p
    fef = make_counter(FEF, "French", "mechanized", "group", "FR mech gp 1")
    put(st, fef, "1112")
    assert placement_problem(st, s1, slot, "1112").startswith(("IC 10.3", "IC 38 Scenario 1"))
    # enemy ZOC is no bar: the hex next to the French unit is fine
    assert placement_problem(st, s1, slot, "1113") is None


def test_communist_guerrilla_next_to_a_friendly_guerrilla_is_refused(smap, s1):
    st = position(smap, s1)
    north = dep_index(s1, COM, "north of Hue")
    guerrillas = [s for s in setup_slots(s1, COM, optional_rules=True)
                  if s.deployment == north and s.counter.type == "guerrilla"]
    put(st, guerrillas[0].counter, "1112")
    p = placement_problem(st, s1, guerrillas[1], "1113")
    assert p is not None and p.startswith("IC 38 Scenario 1") and "guerrilla" in p
    assert placement_problem(st, s1, guerrillas[1], "1114") is None               # two hexes away
    # a regiment next to a guerrilla is fine
    assert placement_problem(st, s1, slot_of(s1, COM, "regular infantry", north), "1113") is None
    # a Khmer Issarak guerrilla is a friendly guerrilla too
    assert all(h != st.map.hex("1113") for h in legal_hexes(st, s1, guerrillas[1]))


def test_north_and_south_of_hue(smap, s1):
    st = position(smap, s1)
    north = slot_of(s1, COM, "regular infantry", dep_index(s1, COM, "north of Hue"))
    south = slot_of(s1, COM, "regular infantry", dep_index(s1, COM, "south of Hue"))
    assert placement_problem(st, s1, north, "1610") is None
    assert placement_problem(st, s1, north, "1620").startswith("IC 38 Scenario 1")
    assert placement_problem(st, s1, south, "1620") is None
    assert placement_problem(st, s1, south, "1610").startswith("IC 38 Scenario 1")
    hue = PLACES["Hue"][0]
    for slot in (north, south):
        assert "Hue itself" in placement_problem(st, s1, slot, hue)
    # level with Hue (same column parity, same row): neither; an odd column on row 18 lies half a hex north
    assert placement_problem(st, s1, north, "1418") and placement_problem(st, s1, south, "1418")
    assert placement_problem(st, s1, north, "1518") is None
    # China is not Vietnam
    assert placement_problem(st, s1, north, "1203").startswith("IC 38 Scenario 1")
    china = slot_of(s1, COM, "base", dep_index(s1, COM, "China"))
    assert placement_problem(st, s1, china, "1203") is None
    assert placement_problem(st, s1, china, "1210")


def test_khmer_issarak_within_three_of_the_thai_border(smap, s1):
    st = position(smap, s1)
    slot = slot_of(s1, COM, "cadre", dep_index(s1, COM, "Thai border"))
    assert placement_problem(st, s1, slot, "0620") is None                       # three from col 03
    p = placement_problem(st, s1, slot, "0720")
    assert p.startswith("IC 38 Scenario 1") and "Thailand border" in p
    assert placement_problem(st, s1, slot, "0612").startswith("IC 38 Scenario 1")     # Laos


def test_scenario2_north_group_not_on_or_next_to_hanoi(smap, s2):
    st = position(smap, s2)
    slot = slot_of(s2, COM, "regular infantry", dep_index(s2, COM, "not in or next to Hanoi"))
    p = placement_problem(st, s2, slot, "1409")                                  # next to Hanoi
    assert p.startswith("IC 38 Scenario 2") and "Hanoi" in p
    assert placement_problem(st, s2, slot, "1411") is None


def test_scenario2_group_next_to_hanoi_and_not_with_enemy(smap, s2):
    st = position(smap, s2)
    slot = slot_of(s2, COM, "regular infantry", dep_index(s2, COM, "next to Hanoi, Haiphong or Thai Binh, never"))
    assert placement_problem(st, s2, slot, "1409") is None
    assert placement_problem(st, s2, slot, PLACES["Hanoi"][0])                  # on it: no
    assert placement_problem(st, s2, slot, "1411").startswith("IC 38 Scenario 2")
    put(st, make_counter(FEF, "French", "mechanized", "group", "FR mech gp 1"), "1409")
    assert placement_problem(st, s2, slot, "1409").startswith("IC 38 Scenario 2")
    legal = {st.label(h) for h in legal_hexes(st, s2, slot)}
    assert legal and "1409" not in legal


def test_scenario2_laos_cambodia_near_the_vietnamese_border(smap, s2):
    st = position(smap, s2)
    slot = slot_of(s2, COM, "regular infantry", dep_index(s2, COM, "Vietnamese border"))
    assert placement_problem(st, s2, slot, "0812") is None                       # Laos, two from col 10
    assert placement_problem(st, s2, slot, "0712").startswith("IC 38 Scenario 2")
    assert placement_problem(st, s2, slot, "1112").startswith("IC 38 Scenario 2")    # Vietnam itself


def test_introductory_communist_refused_in_any_town(smap, intro):
    st = position(smap, intro)
    slot = slot_of(intro, COM, "cadre")
    p = placement_problem(st, intro, slot, PLACES["Hue"][0])                      # held by no one, still a city
    assert p.startswith("IC 38 Introductory") and "city or town" in p
    assert placement_problem(st, intro, slot, PLACES["Vinh"][0]).startswith("IC 38 Introductory")
    assert placement_problem(st, intro, slot, "1112") is None


def test_introductory_fef_only_on_fef_cities(smap, intro):
    st = position(smap, intro)
    slot = slot_of(intro, FEF, "regular infantry", nationality="French")
    legal = {st.label(h) for h in legal_hexes(st, intro, slot)}
    assert legal == {PLACES[n][0] for n in ("Saigon", "Haiphong", "Hanoi", "Phnom Penh", "Vientiane")}
    vna = next(s for s in setup_slots(intro, FEF, optional_rules=False) if s.counter.nationality ==
               "Vietnamese National Army")
    assert {st.label(h) for h in legal_hexes(st, intro, vna)} == {PLACES[n][0] for n in ("Saigon", "Haiphong", "Hanoi")}
    chinese = [s for s in setup_slots(intro, FEF, optional_rules=False) if s.counter.nationality == "Nationalist Chinese"]
    assert len(chinese) == 3 and all(s.counter.unit_class == "Heavy" for s in chinese)
    assert {st.label(h) for h in legal_hexes(st, intro, chinese[0])} == {PLACES["Hanoi"][0], PLACES["Haiphong"][0]}


def test_box_slots_and_every_refusal_names_a_rule(smap, s1):
    st = position(smap, s1)
    for slot in setup_slots(s1, COM, optional_rules=True)[:10] + setup_slots(s1, FEF, optional_rules=True)[:10]:
        for lab in ("0101", "1112", "1808", PLACES["Hanoi"][0]):
            p = placement_problem(st, s1, slot, lab)
            assert p is None or p.startswith("IC "), p


# -------------------------------------------------------------------------------------- fortifications

def test_scenario1_fortifications_on_the_five_border_towns(smap, s1):
    st = position(smap, s1)
    slots = fortification_slots(s1)
    assert len(slots) == 5
    legal = [{st.label(h) for h in legal_fortification_hexes(st, s1, s)} for s in slots]
    assert legal == [{PLACES[n][0]} for n in ("Mon Cai", "Lang Son", "Cao Bang", "Hai Giang", "Lao Cay")]
    assert fortification_problem(st, s1, slots[0], PLACES["Hanoi"][0]).startswith("IC 38 Scenario 1")
    assert fortification_problem(st, s1, slots[0], PLACES["Mon Cai"][0], fortified=[smap.hex(PLACES["Mon Cai"][0])]) \
        .startswith("IC 16.2")


def test_scenario2_fortifications_near_the_delta_and_luang_prabang(smap, s2):
    st = position(smap, s2)
    slots = fortification_slots(s2)
    assert len(slots) == 8 and sum(s.index == 0 for s in slots) == 7
    # an empty hex near Hanoi holds no FEF unit or militia: refused by 16.4 until a unit is there
    assert fortification_problem(st, s2, slots[0], "1409").startswith("IC 16.4")
    put(st, make_counter(FEF, "French", "mechanized", "group", "FR mech gp 1"), "1409")
    assert fortification_problem(st, s2, slots[0], "1409") is None
    assert fortification_problem(st, s2, slots[0], PLACES["Hanoi"][0]) is None     # militia holds it
    assert fortification_problem(st, s2, slots[0], "1413").startswith("IC 38 Scenario 2")
    assert [st.label(h) for h in legal_fortification_hexes(st, s2, slots[7])] == [PLACES["Luang Prabang"][0]]


# --------------------------------------------------------------------------------------- reinforcements

def test_scenario1_november_reinforcements_go_to_the_staging_area(s1):
    slots = reinforcement_slots(s1, FEF, "1950-11")
    assert [(s.counter.type, s.box) for s in slots] == [("mechanized", "Far Eastern Staging Area"),
                                                        ("airborne infantry", "Far Eastern Staging Area")]
    assert reinforcement_slots(s1, FEF, "1950-10") == []
    assert slots[0].counter.id == "FR mech gp 6"                  # after the five set up
    setup_ids = {s.counter.id for s in setup_slots(s1, FEF, optional_rules=True)}
    assert not {s.counter.id for s in slots} & setup_ids


def test_introductory_reinforcements(smap, intro):
    fef = reinforcement_slots(intro, FEF, Month(1945, 12))
    assert len(fef) == 1 and {a.nationality for a in fef[0].alternatives} == {"Laotian National Army",
                                                                               "Cambodian National Army"}
    com = reinforcement_slots(intro, COM, Month(1946, 1))
    assert [s.counter.type for s in com] == ["cadre", "regular infantry", "guerrilla", "guerrilla", "guerrilla"]
    assert len({s.counter.id for s in com} | {s.counter.id for s in reinforcement_slots(intro, COM, "1946-02")}) == 10
    st = position(smap, intro)
    cadre = make_counter(COM, "Viet Minh", "cadre", "cadre", "VM cadre 99")
    put(st, cadre, "1112")
    assert placement_problem(st, intro, com[1], "1112") is None
    assert placement_problem(st, intro, com[1], "1113").startswith("IC 38 Introductory")
    assert placement_problem(st, intro, com[2], "1112", placed_now=[smap.hex("1112")]).startswith("IC 38 Introductory")
    # a cadre or guerrilla with no nationality given may be Khmer Issarak in Cambodia, on a KI cadre
    assert {c.nationality for c in com[0].alternatives} == {"Khmer Issarak", "Pathet Lao"}
    assert com[1].alternatives == ()                               # the regiment is Viet Minh
    ki_cadre = make_counter(COM, "Khmer Issarak", "cadre", "cadre", "KI cadre 99")
    put(st, ki_cadre, "0620")
    vm, ki, pl = dp.choices(com[2])
    assert placement_problem(st, intro, vm, "0620").startswith("IC 38 Introductory")
    assert placement_problem(st, intro, ki, "0620") is None
    assert placement_problem(st, intro, pl, "0620").startswith("IC 38 Introductory")
    # French reinforcement: on an FEF-occupied city
    french = reinforcement_slots(intro, FEF, "1945-11")[0]
    hanoi = PLACES["Hanoi"][0]
    assert "occupies" in placement_problem(st, intro, french, hanoi)
    put(st, make_counter(FEF, "French", "mechanized", "group", "FR mech gp 1"), hanoi)
    assert placement_problem(st, intro, french, hanoi) is None


# ------------------------------------------------------------------------------------- whole set-ups

def random_setup(m, scenario, seed, optional=True):
    rng = random.Random(seed)
    st = position(m, scenario)
    for side in scenario.setup_order:
        if side is COM:
            for c, lab in control_militia(scenario, m):
                put(st, c, lab)
        for slot in setup_slots(scenario, side, optional_rules=optional):
            hexes = legal_hexes(st, scenario, slot)
            assert hexes, f"{scenario.id}: no legal hex for {slot.counter.id} ({slot.where})"
            put(st, slot.counter, st.label(rng.choice(hexes)))
        if side is FEF:
            done = set()
            for f in fortification_slots(scenario):
                hexes = legal_fortification_hexes(st, scenario, f, done)
                assert hexes, f"{scenario.id}: no hex for fortification {f.number} ({f.where})"
                done.add(rng.choice(hexes))
    # 10.3: the two sides never share a hex, the control militia included
    assert not {u.hex for u in st.on_map(FEF)} & {u.hex for u in st.on_map(COM)}
    return st


@pytest.mark.parametrize("name", ["introductory", "scenario1", "scenario2"])
def test_a_random_whole_setup_succeeds_on_the_synthetic_map(smap, name):
    from wargames.indochina.reorganization import check_initial_deployment
    sc = load_scenario(name)
    for seed in range(2):
        st = random_setup(smap, sc, seed)
        check_initial_deployment(st)
        # the Communist restrictions hold in the finished position
        for u in st.on_map(COM):
            if u.counter.type == "guerrilla":
                assert not any(v.counter.type == "guerrilla" for n in u.hex.neighbors() if n in st.map
                               for v in st.units_at(n, COM))


# ---------------------------------------------------------------------------------------- the real map

def real_map():
    from wargames.indochina import state
    if not hasattr(state, "indochina_map"):
        pytest.skip("the reconstructed map of Indochina has not landed yet")
    return state.indochina_map()


@pytest.mark.parametrize("name", ["introductory", "scenario1", "scenario2"])
def test_real_map_every_slot_has_a_legal_hex_and_a_whole_setup_succeeds(name):
    m = real_map()
    sc = load_scenario(name)
    st = random_setup(m, sc, 0)
    from wargames.indochina.reorganization import check_initial_deployment
    check_initial_deployment(st)


def test_real_map_hue_splits_vietnam_and_china_is_north():
    m = real_map()
    hue = dp.named_hexes(m, "Hue")[0]
    china = [h for h in m.hexes if m.info(h).attr("country") == "China"]
    assert china and all(dp._level(h) < dp._level(hue) for h in china)
    saigon = dp.named_hexes(m, "Saigon")[0]
    assert dp._level(saigon) > dp._level(hue)


def test_real_map_scenario1_golden_facts():
    m = real_map()
    s1 = load_scenario("scenario1")
    names = {lab: m.info(m.hex(lab)).attr("name") for _, lab in control_militia(s1, m)}
    assert sorted(names.values()) == sorted(["Vinh", "Dong Hai", "Qui Nhon", "Quang Nai", "Long Xuyen", "Cao Mao",
                                             "Bac Lieu"])
    st = position(m, s1)
    for f, town in zip(fortification_slots(s1), ("Mon Cai", "Lang Son", "Cao Bang", "Hai Giang", "Lao Cay")):
        assert legal_fortification_hexes(st, s1, f) == dp.named_hexes(m, town)
    # no FEF counter may start in China or Thailand; no Communist one in an FEF city
    for slot in setup_slots(s1, FEF, optional_rules=True):
        assert all(m.info(h).attr("country") in ("Vietnam", "Laos", "Cambodia") for h in legal_hexes(st, s1, slot))
    hanoi = dp.named_hexes(m, "Hanoi")[0]
    north = slot_of(s1, COM, "guerrilla", dep_index(s1, COM, "north of Hue"))
    assert placement_problem(st, s1, north, hanoi).startswith("IC 38 Scenario 1")


@pytest.mark.parametrize("name", ["introductory", "scenario1", "scenario2"])
def test_real_map_every_slot_has_a_legal_hex_before_anything_is_placed(name):
    m = real_map()
    sc = load_scenario(name)
    st = position(m, sc)
    for c, lab in control_militia(sc, m):
        put(st, c, lab)
    for side in Side:
        for slot in setup_slots(sc, side, optional_rules=True):
            assert legal_hexes(st, sc, slot), (name, slot.counter.id, slot.where)
        for f in fortification_slots(sc) if side is FEF else ():
            assert f.where and (legal_fortification_hexes(st, sc, f) or f.index == 0 and name == "scenario2"), f


def test_real_map_introductory_fills_its_five_cities_whatever_the_choices():
    m = real_map()
    intro = load_scenario("introductory")
    for seed in range(6):
        random_setup(m, intro, seed)


def test_real_map_scenario2_delta_fortifications_need_a_holder():
    m = real_map()
    s2 = load_scenario("scenario2")
    st = position(m, s2)
    delta = fortification_slots(s2)[0]
    legal = legal_fortification_hexes(st, s2, delta)
    # with no FEF units placed, only the FEF cities and towns near the delta (their militia) may take one
    assert legal and all(st.is_urban(h) for h in legal)
