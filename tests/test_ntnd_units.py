"""No Trumpets No Drums counter mix and Allied schedule (wargames/ntnd/units.py, data/counters.yaml,
data/schedule.yaml): the constraints the text puts on the absent counter sheet and schedule, the rules derived
from a counter's type, and bad data."""
from __future__ import annotations

import copy
import dataclasses

import pytest

from wargames.core.errors import DataError, RuleViolation
from wargames.ntnd.units import (COUNTERS, NVA_DIVISION_CAP, SCHEDULE, Counter, check_corps_assignment,
                                 check_nva_division_cap,
                                 counter_mix, has_zoc, load_counters, load_schedule, pools_that_may_replace,
                                 schedule, turn_date)
from . import yamlc

MIX = counter_mix()
SCHED = schedule()


def ids(counters):
    return {c.id for c in counters}


def one(**filters) -> Counter:
    found = MIX.select(**filters)
    assert len(found) == 1, (filters, ids(found))
    return found[0]


# ------------------------------------------------------------------------------------------- 2.1 the sheet

@pytest.mark.rule("NT 2.1")
def test_the_sheet_holds_260_counters_250_units_and_10_markers():
    assert MIX.total == 260
    assert len(MIX) == 250
    assert {m.name: m.count for m in MIX.markers} == {
        "Month": 1, "Year": 1, "Political Points": 1, "Haiphong Harbor Mined": 1, "Hearts and Minds": 6}


def test_every_counter_has_a_provenance_with_a_source_and_a_unique_id():
    assert len(ids(MIX)) == len(MIX)
    for c in MIX:
        assert c.provenance.kind in ("text", "example", "reconstructed") and c.provenance.source, c.id


# ------------------------------------------------------------------------------------------- counts from the text

@pytest.mark.rule("NT 15.1")
def test_five_green_berets():
    assert MIX.limit(type="green_beret") == 5 == MIX.limit(type="green_beret", nationality="US")


@pytest.mark.rule("NT 16.2")
def test_four_montagnards():
    assert MIX.limit(type="montagnard") == 4


@pytest.mark.rule("NT 28.4.1")
def test_phoenix_at_most_one_per_corps():
    assert 1 <= MIX.limit(type="phoenix") <= 4
    assert all(c.nationality == "SVN" for c in MIX.select(type="phoenix"))


@pytest.mark.rule("NT 28.9.3")
def test_vc_bases_at_most_one_per_corps():
    assert 1 <= MIX.limit(type="vc_base") <= 4


@pytest.mark.rule("NT 4.1.7")
def test_more_nva_divisions_than_the_cap_before_the_uprising():
    assert MIX.limit(type="division", nationality="NVA") > NVA_DIVISION_CAP == 10
    assert MIX.limit(type="division") == MIX.limit(type="division", side="communist", nationality="NVA")


@pytest.mark.parametrize("filters", [
    {"type": "fleet"}, {"type": "soa"}, {"tag": "5sfm"}, {"tag": "usmc_iii"},
    {"type": "firebase", "nationality": "SEATO"}])
def test_exactly_one_of_the_unique_units(filters):
    assert MIX.limit(**filters) == 1


def test_the_unique_units_are_what_their_rules_say():
    assert one(type="fleet").nationality == "US"
    assert one(type="soa").nationality == "US"
    sfm = one(tag="5sfm")
    assert (sfm.type, sfm.airmobile, sfm.morale, sfm.attachment) == ("airmobile", True, 2, "unattached")
    m3 = one(tag="usmc_iii")
    assert (m3.type, m3.replacement_cost, m3.attachment, m3.corps_group) == ("marine", (("US", 2),), "attached",
                                                                             "USMC")
    seato_fb = one(type="firebase", nationality="SEATO")
    assert seato_fb.seato and seato_fb.rp_pool == "SEATO"


@pytest.mark.rule("NT 5.2.2")
def test_us_1st_infantry_division_has_three_brigades_in_one_corps_group():
    bdes = MIX.select(division="1st Inf")
    assert ids(bdes) == {"US 1/1", "US 2/1", "US 3/1"}
    assert {(c.nationality, c.type, c.size, c.attachment, c.corps_group) for c in bdes} == {
        ("US", "infantry", "brigade", "attached", "US 1st Inf")}


@pytest.mark.rule("NT 11.1.4")
def test_1st_cav_brigades_are_airmobile_and_not_attached():
    cav = MIX.select(division="1st Cav")
    assert len(cav) == 3
    for c in cav:
        assert c.type == "airmobile" and c.airmobile and c.movement_class == "airmobile"
        assert c.attachment == "unattached" and c.corps_group is None       # 5.5 over 5.2.2


@pytest.mark.rule("NT 28.3.2")
def test_3_82_and_1_5_mech():
    abn, mech = MIX.get("US 3/82"), MIX.get("US 1/5 Mech")
    assert (abn.nationality, abn.size, abn.division) == ("US", "brigade", "82nd Abn")
    assert (mech.type, mech.mechanized, mech.division) == ("mechanized", True, "5th Mech")


@pytest.mark.rule("NT 4.3.3", "NT 28.6")
def test_thai_qc_and_333():
    qc, r333 = one(tag="thai_qc"), one(tag="thai_333")
    assert qc.nationality == r333.nationality == "Thai"
    assert qc.corps_group == "Thai" and qc.attachment == "attached"
    assert r333.type == "ranger" and r333.attachment == "none" and r333.corps_group is None


@pytest.mark.rule("NT 28.11")
def test_laotian_guard_para_commando_rangers_and_airmobile():
    guard = one(tag="laotian_guard")
    para = one(tag="para_commando")
    assert guard.nationality == para.nationality == "Laotian"
    assert para.type == "airmobile" and para.airmobile
    assert para.replacement_cost == (("Indochinese", 1), ("US", 1))          # 28.11.5
    assert MIX.limit(nationality="Laotian", type="ranger") >= 1
    assert MIX.limit(nationality="Laotian", type="airmobile") >= 1


def test_arvn_divisions_regiments_rangers_and_armour():
    assert MIX.limit(nationality="SVN", size="division") >= 10
    assert MIX.limit(nationality="SVN", type="infantry", size="regiment") >= 1
    assert MIX.limit(nationality="SVN", type="ranger") >= 1
    assert MIX.limit(nationality="SVN", type="armor") >= 1


@pytest.mark.rule("NT 14.1.1")
def test_us_and_arvn_patrol_boats_with_their_lone_morale():
    assert {c.morale for c in MIX.select(type="patrol_boat", nationality="US")} == {3}
    assert {c.morale for c in MIX.select(type="patrol_boat", nationality="SVN")} == {2}


@pytest.mark.rule("NT 11", "NT 24.3.6")
def test_air_units():
    assert MIX.limit(type="fighter", nationality="US") >= 1
    assert MIX.limit(type="fighter", nationality="SVN") >= 1
    assert MIX.limit(type="carrier") >= 1
    assert MIX.limit(type="sac") >= 2                                     # 24.3.6: "one SAC" may stay
    assert MIX.limit(type="fighter", tag="usmc") >= 2                      # 24.3.6: "one USMC air" may stay
    assert MIX.limit(type="gunship", nationality="US") >= 1
    assert MIX.limit(type="interceptor", side="communist") >= 1
    for c in MIX.select(side="allied"):
        if c.type in ("fighter", "carrier", "sac", "gunship", "soa"):
            assert c.movement_class == "air_fleet" and not c.ground_combat and c.morale is None


def test_communist_units():
    for t in ("artillery", "sam", "tank"):
        assert MIX.limit(type=t, nationality="NVA") >= 1, t
    for nat in ("VC", "PL", "KR"):
        assert MIX.limit(type="cadre", nationality=nat) >= 1, nat
        assert MIX.limit(type="regiment", nationality=nat) >= 1, nat
    for t in ("sapper", "dummy", "supply"):
        assert MIX.limit(type=t, side="communist") >= 1, t
    assert {c.nationality for c in MIX.select(type="sapper")} == {"VC"}        # 6.1.2, 28.7


@pytest.mark.rule("NT 4.1.3", "NT 4.1.4")
def test_enough_communist_recruits_for_one_turn():
    assert MIX.limit(type="supply") >= 3                                       # one each in 3 zones
    assert MIX.limit(type="cadre") >= 3


# ------------------------------------------------------------------------------------------- morale

@pytest.mark.rule("NT 19.2.1")
def test_the_19_2_example_units_have_their_printed_morale():
    marines = MIX.select(type="marine", nationality="US")
    assert marines and {c.morale for c in marines} == {4}
    assert len([c for c in MIX.select(nationality="SVN", size="division") if c.morale == 2]) >= 2
    assert {c.morale for c in MIX.select(nationality="SVN", type="armor")} == {3}
    assert {c.morale for c in MIX.select(type="division", nationality="NVA")} == {4}
    assert {c.morale for c in MIX.select(type="regiment", nationality="VC")} == {3}
    # the example's sums: 4 + 2 + 2 + 3 = 11 over four units; 4 + 3 before the two fighters
    allied = [marines[0].morale, 2, 2, MIX.select(nationality="SVN", type="armor")[0].morale]
    assert sum(allied) == 11


@pytest.mark.rule("NT 28.2.1", "NT 13.1.3", "NT 13.2.1", "NT 28.7.1")
def test_other_morale_values_from_the_text():
    assert one(tag="5sfm").morale == 2
    assert {c.morale for c in MIX.select(type="firebase")} == {1}
    assert {c.morale for c in MIX.select(type="artillery")} == {1}
    assert {c.morale for c in MIX.select(type="sapper")} == {3}               # acts as a VC regiment


@pytest.mark.rule("NT 8.5.1")
def test_morale_is_1_to_4_or_none_for_counters_that_never_fight_alone():
    for c in MIX:
        if c.type in ("dummy", "supply", "sam", "fleet", "interceptor", "fighter", "carrier", "sac", "gunship",
                      "soa"):
            assert c.morale is None, c.id
        else:
            assert c.morale in (1, 2, 3, 4), c.id


# ------------------------------------------------------------------------------------------- derived from the type

@pytest.mark.rule("NT 2.2", "NT 19.2.1")
def test_ground_combat_support_and_the_artillery_dot():
    for c in MIX:
        if c.type in ("artillery", "firebase", "patrol_boat", "fleet"):
            assert c.artillery and not c.ground_combat, c.id
        else:
            assert not c.artillery, c.id
    for t in ("dummy", "vc_base", "sam", "supply"):                           # 2.2: support, not combat
        assert not any(c.ground_combat for c in MIX.select(type=t)), t
    for t in ("cadre", "division", "regiment", "sapper", "tank", "militia", "montagnard", "green_beret",
              "phoenix", "ranger", "marine", "infantry", "airmobile", "mechanized", "armor"):
        assert all(c.ground_combat for c in MIX.select(type=t)), t
    assert {c.type for c in MIX if c.mechanized} == {"tank", "mechanized", "armor"}


@pytest.mark.rule("NT 8.2")
@pytest.mark.parametrize("counter_id, cls", [
    ("supply 1", "communist_supply"), ("NVA 304", "communist_other"), ("dummy 1", "communist_other"),
    ("NVA art 675", "communist_other"), ("NVA SAM 1", "communist_other"), ("NVA int 921", "interceptor"),
    ("VC base 1", "immobile"), ("US GB 1", "immobile"), ("SVN militia 1", "immobile"), ("US FB 1", "immobile"),
    ("US 1/1", "allied_ground"), ("ARVN ranger 1", "allied_ground"), ("US 11 ACR", "allied_ground"),
    ("US PB TF116", "patrol_boat"), ("US 1/1 Cav", "airmobile"), ("US 5SFM", "airmobile"),
    ("US Fleet", "air_fleet"), ("US SAC 1", "air_fleet"), ("US heli 1", "air_fleet")])
def test_movement_classes(counter_id, cls):
    assert MIX.get(counter_id).movement_class == cls


@pytest.mark.rule("NT 8.5.1")
def test_who_has_a_zone_of_control():
    assert has_zoc(MIX.get("NVA 304")) and has_zoc(MIX.get("VC reg 271")) and has_zoc(MIX.get("USMC 9"))
    assert has_zoc(MIX.get("ARVN armor 1"))                                    # morale 3
    assert not has_zoc(MIX.get("ARVN 1"))                                      # morale 2
    assert not has_zoc(MIX.get("VC cadre 1")) and not has_zoc(MIX.get("US 5SFM"))
    assert not has_zoc(MIX.get("NVA art 675")) and not has_zoc(MIX.get("US PB TF116"))   # not combat units
    assert not has_zoc(MIX.get("NVA 304"), face_up=False)                       # inverted
    assert not has_zoc(MIX.get("dummy 1")) and not has_zoc(MIX.get("VC base 1"))
    # the printed value decides: the same counter with morale 2 or 4
    ranger = MIX.get("ARVN ranger 1")
    assert has_zoc(ranger) and not has_zoc(dataclasses.replace(ranger, morale=2))
    assert has_zoc(dataclasses.replace(ranger, morale=4))
    assert not has_zoc(dataclasses.replace(ranger, type="firebase"))
    assert MIX.get("NVA 304").zoc and not MIX.get("ARVN 1").zoc


@pytest.mark.rule("NT 8.5.3", "NT 28.9.1")
def test_who_has_a_zone_of_influence():
    assert {c.type for c in MIX if c.zoi_radius} == {"firebase", "fleet", "green_beret"}
    assert {c.zoi_radius for c in MIX if c.zoi_radius} == {2}
    assert MIX.get("VC base 1").zoi_radius == 0 and not has_zoc(MIX.get("VC base 1"))


@pytest.mark.rule("NT 5.2.1", "NT 5.2.2", "NT 5.2.3", "NT 5.5", "NT 5.6")
@pytest.mark.parametrize("counter_id, attachment", [
    ("US 1/4", "attached"), ("USMC 9", "attached"), ("ARVN 1", "attached"), ("ARVN ranger 1", "attached"),
    ("ROK Cav", "attached"), ("ANZAC 1ATF", "attached"), ("Lao Guard", "attached"), ("Cam inf 1", "attached"),
    ("Lao ParaCdo", "attached"),
    ("ARVN reg 42", "unattached"), ("ARVN armor 1", "unattached"), ("US 173 Abn", "unattached"),
    ("US 11 ACR", "unattached"), ("US 1/1 Cav", "unattached"), ("US 5SFM", "unattached"),
    ("US GB 1", "none"), ("SVN militia 1", "none"), ("SVN Montagnard 1", "none"), ("US FB 1", "none"),
    ("US Fleet", "none"), ("US PB TF116", "none"), ("US SAC 1", "none"), ("SVN Phoenix 1", "none"),
    ("NVA 304", "none"), ("Thai 333", "none")])
def test_corps_attachment(counter_id, attachment):
    assert MIX.get(counter_id).attachment == attachment


@pytest.mark.rule("NT 5.2.2", "NT 5.7")
def test_units_that_must_share_a_corps():
    assert {c.corps_group for c in MIX.select(tag="usmc") if c.ground_combat} == {"USMC"}
    assert {c.corps_group for c in MIX.select(nationality="ROK")} == {"ROK"}
    assert {c.corps_group for c in MIX.select(nationality="Thai")} == {"Thai", None}
    for div in ("4th Inf", "9th Inf", "25th Inf", "23rd Americal", "101st Abn"):
        bdes = MIX.select(division=div)
        assert len(bdes) == 3 and {c.corps_group for c in bdes} == {f"US {div}"}, div
    assert MIX.get("ARVN 1").corps_group is None and MIX.get("US 173 Abn").corps_group is None


@pytest.mark.rule("NT 5.2.1", "NT 5.2.2", "NT 5.2.3")
def test_corps_assignment():
    g = MIX.get
    ok = {g("US 1/1"): "III", g("US 2/1"): "III", g("US 3/1"): "III",          # the 5.2.2 example
          g("USMC 9"): "I", g("USMC 3"): "I", g("USMC III"): "I", g("ARVN 1"): "I", g("ARVN 22"): "II",
          g("ROK Cav"): "II", g("ROK 2 Mar"): "II", g("Thai QC"): "III", g("Thai BP 1"): "III",
          g("Lao Guard"): "Laos", g("Cam inf 1"): "Cambodia", g("US 3/82"): "I", g("US 1/5 Mech"): "I"}
    check_corps_assignment(ok)
    bad = [({g("US 1/1"): "III", g("US 2/1"): "II"}, "NT 5.2.2"),
           ({g("USMC 9"): "I", g("USMC III"): "II"}, "NT 5.2.2"),
           ({g("ROK Cav"): "II", g("ROK 28"): "III"}, "NT 5.2.2"),
           ({g("Thai QC"): "II", g("Thai BP 2"): "III"}, "NT 5.2.2"),
           ({g("Lao Guard"): "I"}, "NT 5.2.1"), ({g("Cam inf 1"): "Laos"}, "NT 5.2.1"),
           ({g("ARVN 1"): "Laos"}, "NT 5.2.3"), ({g("US 1/4"): "Cambodia"}, "NT 5.2.2"),
           ({g("US 173 Abn"): "III"}, "NT 5.5"), ({g("US 1/1 Cav"): "II"}, "NT 5.5"),
           ({g("Thai 333"): "III"}, "NT 5.6"), ({g("US GB 1"): "I"}, "NT 5.6")]
    for assignment, rule in bad:
        with pytest.raises(RuleViolation) as e:
            check_corps_assignment(assignment)
        assert e.value.rule == rule, (assignment, e.value)
    # the 333 and the other Thai units need not share a corps; different US divisions need not either
    check_corps_assignment({g("Thai BP 1"): "III", g("US 1/4"): "II", g("US 1/9"): "IV"})


@pytest.mark.rule("NT 4.2.5", "NT 16.5")
def test_replacement_pools():
    assert MIX.get("US 1/1").rp_pool == "US" and pools_that_may_replace(MIX.get("US 1/1")) == {"US"}
    assert pools_that_may_replace(MIX.get("ROK Cav")) == {"SEATO"}
    assert pools_that_may_replace(MIX.get("ANZAC 1ATF")) == {"SEATO"}
    assert pools_that_may_replace(MIX.get("ARVN 1")) == {"SVN", "US", "SEATO"}
    assert pools_that_may_replace(MIX.get("Lao inf 1")) == {"Indochinese", "US", "SEATO"}
    assert pools_that_may_replace(MIX.get("Cam militia 1")) == {"Indochinese", "US", "SEATO"}
    assert pools_that_may_replace(MIX.get("SVN Montagnard 1")) == {"US"}            # 16.5
    assert pools_that_may_replace(MIX.get("Lao ParaCdo")) == {"Indochinese", "US"}  # 28.11.5
    assert pools_that_may_replace(MIX.get("NVA 304")) == frozenset() and MIX.get("NVA 304").rp_pool is None


@pytest.mark.rule("NT 4.2.5")
def test_seato_and_indochinese_membership():
    assert {c.nationality for c in MIX if c.seato} == {"ROK", "Thai", "ANZAC", "SEATO"}
    assert {c.nationality for c in MIX if c.indochinese} == {"Laotian", "Cambodian"}


# ------------------------------------------------------------------------------------------- limits

@pytest.mark.rule("NT 4.4", "NT 4.1.6", "NT 6.1.4")
def test_the_mix_is_a_limit():
    assert MIX.limit(type="sapper") == 3
    used = ["VC sapper 1", "VC sapper 2"]
    assert ids(MIX.available(used, type="sapper")) == {"VC sapper 3"}
    assert MIX.take(used, type="sapper").id == "VC sapper 3"
    with pytest.raises(RuleViolation) as e:
        MIX.take(used + ["VC sapper 3"], rule="NT 6.1.4", type="sapper")
    assert e.value.rule == "NT 6.1.4"
    with pytest.raises(RuleViolation):
        MIX.available(["no such counter"], type="sapper")
    with pytest.raises(RuleViolation):
        MIX.get("US 1/7 Cav")


@pytest.mark.rule("NT 4.1.7", "NT 28.10")
def test_ten_nva_divisions_until_the_uprising():
    check_nva_division_cap(10, uprising_declared=False)
    with pytest.raises(RuleViolation):
        check_nva_division_cap(11, uprising_declared=False)
    check_nva_division_cap(MIX.limit(type="division"), uprising_declared=True)


# ------------------------------------------------------------------------------------------- the schedule

@pytest.mark.rule("NT 3")
def test_turn_dates():
    assert turn_date(1) == "Mar/Apr 1965" and turn_date(6) == "Jan/Feb 1966" and turn_date(12) == "Jan/Feb 1967"
    assert turn_date(23) == "Nov/Dec 1968" and turn_date(47) == "Nov/Dec 1972" and turn_date(63) == "Jul/Aug 1975"
    with pytest.raises(RuleViolation, match="NT 3"):
        turn_date(64)


@pytest.mark.rule("NT 4.2.1", "NT 4.3.1")
def test_every_schedule_entry_names_an_allied_counter_of_the_mix():
    for e in SCHED.entries:
        for cid in e.counters:
            assert cid in MIX and MIX.get(cid).side == "allied", cid
        assert e.provenance.kind in ("text", "reconstructed") and e.provenance.source


@pytest.mark.rule("NT 4.2.1")
def test_no_counter_arrives_twice():
    entering = SCHED.counters("arrive") + SCHED.counters("buyable")
    assert len(entering) == len(set(entering))
    leaving = SCHED.counters("withdraw")
    assert len(leaving) == len(set(leaving))


@pytest.mark.rule("NT 4.3.1", "NT 4.3.2")
def test_withdrawals_only_after_arrival():
    for cid in SCHED.counters("withdraw"):
        entered = SCHED.turn_of(cid, "arrive") or SCHED.turn_of(cid, "buyable")
        assert entered is not None and entered < SCHED.turn_of(cid, "withdraw"), cid


def test_every_us_and_seato_counter_is_on_the_schedule():
    entering = set(SCHED.counters("arrive") + SCHED.counters("buyable"))
    for c in MIX.select(side="allied"):
        if c.nationality in ("US", "ROK", "Thai", "ANZAC", "SEATO"):
            assert c.id in entering, c.id


@pytest.mark.rule("NT 4.3.3", "NT 28.6.1", "NT 28.11.5", "NT 28.3.1", "NT 28.3.2")
def test_the_dated_entries_of_the_text():
    qc, r333 = one(tag="thai_qc").id, one(tag="thai_333").id
    assert SCHED.turn_of(qc, "withdraw") == 20 and turn_date(20) == "May/Jun 1968"
    assert SCHED.turn_of(r333, "arrive") == 32 and turn_date(32) == "May/Jun 1970"
    assert SCHED.turn_of("Lao ParaCdo", "buyable") == 12 and turn_date(12) == "Jan/Feb 1967"
    assert SCHED.turn_of("Lao ParaCdo", "arrive") is None                    # bought, never free
    assert SCHED.turn_of("USMC III", "buyable") == 1 and SCHED.turn_of("USMC III", "arrive") is None
    assert SCHED.turn_of("US 3/82", "arrive") is not None and SCHED.turn_of("US 1/5 Mech", "arrive") is not None
    text = {(e.kind, c) for e in SCHED.entries if e.provenance.kind == "text" for c in e.counters}
    assert text == {("withdraw", qc), ("arrive", r333), ("buyable", "Lao ParaCdo"), ("buyable", "USMC III"),
                    ("arrive", "US 3/82"), ("arrive", "US 1/5 Mech")}


def test_the_historical_shape_of_the_schedule():
    """US Army and Marine ground units arrive during the 1965-69 build-up and leave in the 1969-72 increments
    (Keystone Eagle, Jul/Aug 1969, to the last brigades, May/Jun 1972)."""
    for c in MIX.select(nationality="US"):
        if c.ground_combat and c.type != "green_beret" and "usmc_iii" not in c.tags:
            arrive, leave = SCHED.turn_of(c.id, "arrive"), SCHED.turn_of(c.id, "withdraw")
            assert 1 <= arrive <= 24 and 27 <= leave <= 44, (c.id, arrive, leave)
    assert set(SCHED.on(27, "withdraw")) >= {"US 1/9", "US 2/9", "USMC 9"}          # Keystone Eagle
    assert SCHED.on(1, "arrive")[0] == "USMC 9"                                      # Da Nang, 8 Mar 1965
    assert SCHED.turn_of("US 1/1", "arrive") == SCHED.turn_of("US 3/1", "arrive") == 4


# ------------------------------------------------------------------------------------------- bad data

def write(tmp_path, source, mutate, name):
    doc = yamlc.safe_load(source.read_text())
    mutate(doc)
    p = tmp_path / name
    p.write_text(yamlc.safe_dump(doc, sort_keys=False))
    return p


def row(doc, counter_id):
    return next(r for r in doc["counters"] if r["id"] == counter_id)


@pytest.mark.parametrize("mutate, field, words", [
    (lambda d: row(d, "US 1/1").update(morale=5), ".morale", "from 1 to 4"),
    (lambda d: row(d, "US 1/1").update(morale=0), ".morale", "from 1 to 4"),
    (lambda d: row(d, "US 1/1").update(morale=None), ".morale", "is missing"),
    (lambda d: row(d, "US Fleet").update(morale=3), ".morale", "no printed morale"),
    (lambda d: row(d, "US 1/1").update(nationality="NVA"), ".nationality", "not a allied nationality"),
    (lambda d: row(d, "US 1/1").update(type="tank"), ".type", "not a allied unit type"),
    (lambda d: row(d, "US 1/1").update(type="bicycle"), ".type", "is not one of"),
    (lambda d: row(d, "NVA 304").update(division="1st Cav"), ".division", "belong to a division"),
    (lambda d: row(d, "US 1/1").update(attachment="none"), ".attachment", "attachment_rule"),
    (lambda d: row(d, "US 1/1").update(tags=["flying"]), ".tags", "is not one of"),
    (lambda d: row(d, "US 1/1").update(id="US 2/1"), ".id", "repeats"),
])
def test_a_bad_counter_names_the_file_and_the_unit(tmp_path, mutate, field, words):
    p = write(tmp_path, COUNTERS, mutate, "counters.yaml")
    with pytest.raises(DataError) as e:
        load_counters(p)
    msg = str(e.value)
    assert str(p) in msg and field in msg and words in msg, msg
    assert "(unit 'US 1/1')" in msg or "(unit 'US Fleet')" in msg or "(unit 'NVA 304')" in msg or \
        "(unit 'US 2/1')" in msg, msg
    assert e.value.line is not None


def test_the_sheet_total_is_checked(tmp_path):
    p = write(tmp_path, COUNTERS, lambda d: d["counters"].pop(0), "counters.yaml")
    with pytest.raises(DataError) as e:
        load_counters(p)
    assert "260" in str(e.value) and "NT 2.1" in str(e.value)


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d["entries"][0]["counters"].append("US 1/7 Cav"), "not a counter"),
    (lambda d: d["entries"][0]["counters"].append("NVA 304"), "Communist"),
    (lambda d: d["entries"][0]["counters"].append("US 1/1"), "already enters"),
    (lambda d: d["entries"][0].update(date="May/Jun 1965"), "is Mar/Apr 1965"),
    (lambda d: d["entries"].append({"turn": 30, "date": "Jan/Feb 1970", "kind": "withdraw",
                                    "counters": ["US 1/1"]}), "already leaves"),
    (lambda d: d["entries"].append({"turn": 30, "date": "Jan/Feb 1970", "kind": "withdraw",
                                    "counters": ["ARVN 1"]}), "never arrives"),
    (lambda d: d["entries"].insert(0, {"turn": 2, "date": "May/Jun 1965", "kind": "withdraw",
                                       "counters": ["US 1/1"]}), "not after its arrival"),
])
def test_a_bad_schedule_entry_names_the_file_and_the_entry(tmp_path, mutate, words):
    p = write(tmp_path, SCHEDULE, mutate, "schedule.yaml")
    with pytest.raises(DataError) as e:
        load_schedule(p, MIX)
    msg = str(e.value)
    assert str(p) in msg and "entries[" in msg and words in msg, msg


def test_the_shipped_files_load_and_are_shared():
    assert counter_mix() is MIX and schedule() is SCHED
    assert load_counters() == MIX and copy.deepcopy(MIX) is MIX
