"""The counter mix as data (counters.yaml, counters.py): text values from the Counter Sheet Corrections and the
errata, the 11.11 classes, the 8.2 equivalents, the 7.24 counts, the scenario-word mappings and bad data."""
from __future__ import annotations

import copy

import pytest

from wargames.core.errors import DataError, RuleViolation
from wargames.indochina.combat import Side
from wargames.indochina.counters import (COUNTERS, counter_id, counter_mix, division_parts_consistent, load_counters,
                                         make_counter, parse_value, resolve)
from wargames.indochina.scenario_data import all_scenarios
from wargames.indochina.units import counter_errata, default_class
from . import yamlc

FEF, COM = Side.FEF, Side.COMMUNIST


def test_values_parse_as_printed():
    v = parse_value("(1)+2")
    assert (v.strength, v.movement, v.cls, v.parenthesized) == (1, 2, "Light", True)
    v = parse_value("6-8")
    assert (v.strength, v.movement, v.cls, v.parenthesized) == (6, 8, "Heavy", False)
    assert str(parse_value("(1)+2")) == "(1)+2"
    for bad in ("6/8", "(1+2", "1)+2", "x-1", "6-"):
        with pytest.raises(ValueError):
            parse_value(bad)


def test_text_values_from_the_corrections_and_errata():
    mix = counter_mix()
    sf = mix.row(FEF, "French", "light infantry", "group")
    assert str(sf.back) == "1+3" and sf.provenance.kind == "text" and "Counter Sheet Corrections" in sf.provenance.source
    gend = mix.row(FEF, "French", "gendarmerie", "group")
    assert str(gend.back) == "(1)+2" and gend.provenance.kind == "text"
    for nat in ("Khmer Issarak", "Pathet Lao"):
        g = mix.row(COM, nat, "guerrilla", "battalion")
        assert str(g.back) == "1+2" and g.provenance.kind == "text"
    mech = mix.row(COM, "Viet Minh", "mechanized", "regiment")
    assert str(mech.back) == "1-3" and mech.cls == "Heavy" and mech.count == 1 and mech.provenance.kind == "text"
    cia = mix.row(FEF, "US", "cadre", "cadre")
    assert str(cia.back) == "(1)+3"
    militia = mix.row(COM, "Viet Minh", "militia", "battalion")
    assert militia.count is None and militia.cls == "Light"            # 17.36 unlimited, 17.3 Light


def test_every_row_has_a_provenance_with_a_source():
    for r in counter_mix().rows:
        assert r.provenance.kind in ("text", "reconstructed") and r.provenance.source


def test_classes_follow_11_11_except_where_printed():
    for r in counter_mix().rows:
        assert r.cls == default_class(r.side, r.type)


def test_every_counter_passes_the_counter_errata():
    mix = counter_mix()
    for r in mix.rows:
        c = make_counter(r.side, r.nationality, r.type, r.size, "x")
        assert counter_errata(c) == [], r


def test_divisions_agree_with_the_8_2_equivalents():
    assert division_parts_consistent() == []


def test_the_mix_fits_the_sheet():
    assert 0 < counter_mix().land_total() <= 280            # 2.1: 280 counters, air units and markers included


def every_unit():
    for name, sc in all_scenarios().items():
        for side, s in sc.sides.items():
            for d in s.deployment:
                for u in d.units:
                    yield name, side, u.nationality or d.nationality, u
            for r in s.reinforcements:
                nats = r.nationality if isinstance(r.nationality, tuple) else (r.nationality,)
                for n in nats:
                    for u in r.units:
                        yield name, side, u.nationality or n, u


def test_every_scenario_unit_has_a_counter():
    seen = 0
    for name, side, nat, u in every_unit():
        if u.type in ("airstrike", "air transport", "naval bombardment"):
            continue
        c = make_counter(side, nat, u.type, u.size, "x")
        assert c.side is side and c.strength >= 1
        seen += 1
    assert seen > 40


def test_mappings_with_reasons():
    r = resolve(FEF, "Vietnamese National Army", "commando", "group")
    assert (r.type, r.size) == ("light infantry", "group") and r.notes
    r = resolve(FEF, "French", "infantry", "division")
    assert (r.type, r.size) == ("regular infantry", "division") and r.notes
    assert resolve(FEF, "French", "marine infantry", "brigade").size == "group"
    assert resolve(FEF, "French", "DNA", None).size == "group"
    assert resolve(COM, "Viet Minh", "guerrilla", None).size == "battalion"
    assert resolve(FEF, "Laotian National Army", "guerrilla", "group").size == "group"
    br = make_counter(FEF, "British", "mechanized", "division", "BR mech div 1")
    assert br.nationality == "British" and br.unit_class == "Heavy"
    nc = make_counter(FEF, "Nationalist Chinese", "infantry", "division", "NC reg inf div 1")
    prc = make_counter(COM, "Chinese", "regular infantry", "division", "PRC reg inf div 1")
    assert nc.unit_class == "Heavy" and prc.unit_class == "Light"       # IC 38 Introductory d
    assert nc.strength == prc.strength
    with pytest.raises(RuleViolation):
        resolve(FEF, "French", "zeppelin", "group")


def test_ids_are_readable():
    assert counter_id("French", "mechanized", "group", 3) == "FR mech gp 3"
    assert counter_id("Viet Minh", "regular infantry", "division", 1) == "VM reg inf div 1"
    assert counter_id("Khmer Issarak", "guerrilla", "battalion", 2) == "KI guer 2"
    assert counter_id("Pathet Lao", "cadre", "cadre", 1) == "PL cadre 1"


def test_death_commando_has_no_disrupted_side():
    dc = make_counter(COM, "Viet Minh", "death commando", None, "VM DC 1")
    assert (dc.disrupted_strength, dc.disrupted_movement) == (0, 0)


# ------------------------------------------------------------------------------------------- bad data

def write(tmp_path, mutate):
    doc = yamlc.safe_load(COUNTERS.read_text())
    mutate(doc)
    p = tmp_path / "counters.yaml"
    p.write_text(yamlc.safe_dump(doc, sort_keys=False))
    return p


@pytest.mark.parametrize("mutate, field, words", [
    (lambda d: d["counters"][0].update(front="6+8"), "counters[0].front", "Light sign"),
    (lambda d: d["counters"][0].update(front="1-8"), "counters[0].back", "parenthesized"),
    (lambda d: d["counters"][0].update(nationality="Martian"), "counters[0]", "nationality"),
    (lambda d: d["counters"][0].update(count="unlimited"), "counters[0]", "militia"),
    (lambda d: d["counters"][0].update(back=None), "counters[0]", "Death Commando"),
    (lambda d: d["counters"][0].update(type="tank"), "counters[0].type", "is not one of"),
    (lambda d: d["counters"][0].update(front="6=8"), "counters[0].front", "counter value"),
    (lambda d: d["counters"].append(copy.deepcopy(d["counters"][0])), "counters", "repeats"),
    (lambda d: d["counters"][0].update(count=99) or d["counters"][1].update(count=99), "counters", "280"),
])
def test_bad_rows_name_the_file_and_field(tmp_path, mutate, field, words):
    p = write(tmp_path, mutate)
    with pytest.raises(DataError) as e:
        load_counters(p)
    msg = str(e.value)
    assert str(p) in msg and field in msg and words in msg, msg


def test_the_shipped_file_loads_and_is_shared():
    a, b = counter_mix(), counter_mix()
    assert a is b and len(a.rows) == len(load_counters().rows)
