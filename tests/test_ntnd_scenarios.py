"""No Trumpets No Drums scenarios (wargames/ntnd/scenarios.py, data/scenarios/*.yaml): every shipped set-up
loads and obeys the set-up rules, the facts each scenario must hold, and hostile files that must be refused
with a DataError naming the file, the field and the unit."""
from __future__ import annotations

import copy
from collections import defaultdict
from pathlib import Path

import pytest

from wargames.core.errors import DataError
from wargames.ntnd.charts import default_charts
from wargames.ntnd.geography import shipped_map
from wargames.ntnd.politics import ELECTIONS
from wargames.ntnd.scenarios import DATA, SCENARIOS, Victory, load_scenario, scenario
from wargames.ntnd.units import check_corps_assignment, counter_mix, schedule, turn_date
from . import yamlc

MIX = counter_mix()
SCHED = schedule()
GEO = shipped_map()
ALL = {name: scenario(name) for name in SCENARIOS}
AREAS = ("I", "II", "III", "IV", "Laos", "Cambodia")


# ------------------------------------------------------------------------------------------- every scenario

@pytest.mark.rule("NT 2")
def test_the_campaign_and_the_three_named_scenarios_exist():
    assert set(SCENARIOS) == {"campaign", "tet", "year_of_the_rat", "1975"}
    assert {s.name for s in ALL.values()} == {"Campaign Game", "The Tet Offensive", "The Year of the Rat", "1975"}
    assert sorted(p.stem for p in DATA.glob("*.yaml")) == sorted(SCENARIOS)


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_value_and_placement_has_a_provenance_with_a_source(name):
    s = ALL[name]
    items = [s.political_points.provenance, s.policy_provenance, s.victory.provenance] + \
        [r.provenance for r in s.hearts_and_minds.values()] + [r.provenance for r in s.neutrality.values()] + \
        [p.provenance for p in s.placements]
    for prov in items:
        assert prov.kind in ("text", "reconstructed") and prov.source


@pytest.mark.parametrize("name", SCENARIOS)
def test_points_and_all_six_hearts_and_minds_markers(name):
    s = ALL[name]
    assert 50 <= s.points <= 249          # 25.1: ARVN not demoralized at the start; 22.4 not already decided
    track = default_charts().hearts_minds
    assert set(s.hearts_and_minds) == set(AREAS) == set(track.areas)
    assert all(s.box(a) in track.ids for a in AREAS)


@pytest.mark.parametrize("name", SCENARIOS)
def test_each_counter_once_and_within_the_mix(name):
    s = ALL[name]
    everything = list(s.on_map) + list(s.air_box) + list(s.dead_pile)
    assert len(everything) == len(set(everything))
    assert all(u in MIX for u in everything)


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.rule("NT 4.2.1")
def test_scheduled_units_in_play_match_arrivals_before_the_start_less_withdrawals(name):
    s = ALL[name]
    arrived = {c for e in SCHED.entries if e.kind == "arrive" and e.turn < s.start_turn for c in e.counters}
    gone = {c for e in SCHED.entries if e.kind == "withdraw" and e.turn < s.start_turn for c in e.counters}
    scheduled = set(SCHED.counters())
    in_play = (s.in_play | set(s.dead_pile)) & scheduled
    bought = {c for c in in_play if SCHED.turn_of(c, "arrive") is None}
    assert in_play - bought == arrived - gone
    assert all(SCHED.turn_of(c, "buyable") < s.start_turn for c in bought)
    assert set(s.pending) == {c for e in SCHED.entries if e.kind == "arrive" and e.turn >= s.start_turn
                              for c in e.counters} - gone
    assert set(s.withdrawn) == gone


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.rule("NT 5.2")
def test_attached_units_name_a_corps_they_stand_in_and_groups_share_it(name):
    s = ALL[name]
    assignment = {}
    for p in s.placements:
        c = MIX.get(p.unit)
        assert (p.corps is not None) == (c.attachment == "attached"), p.unit
        if p.corps:
            assignment[c] = p.corps
            area = GEO.area(p.hex) if p.hex is not None else GEO.zone(p.zone).country
            assert area == p.corps, p.unit
    check_corps_assignment(assignment)


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.rule("NT 8.10.1")
def test_stacking_recounted(name):
    s = ALL[name]
    saigon = GEO.place("Saigon")
    hexes = defaultdict(list)
    for p in s.placements:
        if p.hex is not None:
            hexes[p.hex].append(MIX.get(p.unit))
    extras = ("firebase", "green_beret", "phoenix", "militia", "montagnard", "patrol_boat", "artillery", "sam",
              "vc_base")
    for h, cs in hexes.items():
        assert len({c.side for c in cs}) == 1
        ground = [c for c in cs if (c.ground_combat or c.type == "dummy") and c.type not in extras]
        assert len(ground) <= (3 if h == saigon and cs[0].side == "allied" else 2), GEO.label(h)
        for t in ("firebase", "patrol_boat", "artillery", "sam", "vc_base"):
            assert sum(c.type == t for c in cs) <= 1


@pytest.mark.parametrize("name", SCENARIOS)
def test_faces_and_countries(name):
    s = ALL[name]
    for p in s.placements:
        c = MIX.get(p.unit)
        country = GEO.country(p.hex) if p.hex is not None else GEO.zone(p.zone).country
        if c.side == "allied":
            assert p.face_up and country not in ("NV", "China")
            if c.type == "militia":
                assert country != "NV"
        if c.type == "tank":
            assert p.face_up
        if c.type == "dummy":
            assert not p.face_up
        if c.type in ("cadre", "regiment", "sapper"):
            assert country == {"VC": "SVN", "PL": "Laos", "KR": "Cambodia"}[c.nationality]
        if country in ("Laos", "Cambodia") and s.state(country) == "neutral" and c.side == "communist" \
                and c.nationality == "NVA" and c.type != "supply":
            assert not p.face_up, p.unit


# ------------------------------------------------------------------------------------------- facts

def test_campaign_runs_the_whole_war_from_march_1965():
    s = ALL["campaign"]
    assert (s.start_turn, s.end_turn, s.start_date, s.end_date) == (1, 63, "Mar/Apr 1965", "Jul/Aug 1975")
    assert s.first_player == "communist"
    assert s.policy.vietnamization == "none" and s.policy.elections == () and s.policy.uprising is None
    assert s.policy.aid == frozenset() and not s.policy.haiphong_mined
    assert s.armor_shock and not s.phoenix_allowed
    # the American commitment is the player's: no US or SEATO unit starts on the map
    assert not [u for u in s.in_play if MIX.get(u).nationality in ("US", "ROK", "Thai", "ANZAC")]
    assert "USMC 9" in s.pending and "US GB 1" in s.pending


@pytest.mark.rule("NT 10.1")
def test_neutrality_by_date():
    assert [ALL[n].state("Laos") for n in SCENARIOS] == ["neutral"] * 4
    assert [ALL[n].state("Cambodia") for n in SCENARIOS] == ["neutral", "neutral", "allied", "allied"]
    assert ALL["campaign"].neutrality["Laos"].provenance.kind == "text"


def test_tet_starts_in_jan_feb_1968_with_the_uprising_and_ends_before_the_election():
    s = ALL["tet"]
    assert s.start_date == "Jan/Feb 1968" and s.start_turn == 18 and s.end_turn < ELECTIONS[1968]
    assert s.policy.uprising == 18 and s.policy.aid == {"China", "USSR"}
    assert s.placement("USMC 26").label == GEO.label(GEO.place("Khe Sanh"))
    assert s.placement("US GB 1").label == GEO.label(GEO.place("Lang Vei"))
    assert {s.placement(u).corps for u in s.on_map if "usmc" in MIX.get(u).tags} == {"I"}
    assert "US 3/82" in s.pending          # flown in after Tet began (turn 18 arrival)
    assert s.armor_shock                    # 28.8: Lang Vei


def test_year_of_the_rat_is_1972_partial_vietnamization_nixon_won_haiphong_not_yet_mined():
    s = ALL["year_of_the_rat"]
    assert turn_date(s.start_turn) == "Mar/Apr 1972" and s.end_turn < ELECTIONS[1972]
    assert s.policy.vietnamization == "partial" and s.policy.partial_in_effect and not s.policy.peace_party
    assert s.policy.elections == ((1968, False),)
    assert not s.policy.haiphong_mined
    assert s.state("Cambodia") == "allied"
    us_ground = {u for u in s.on_map if MIX.get(u).nationality == "US" and MIX.get(u).ground_combat}
    assert us_ground == {"US 3/1 Cav", "US 196/23"}
    assert not s.armor_shock and s.phoenix_allowed


def test_1975_has_no_americans_and_both_elections_held():
    s = ALL["1975"]
    assert s.start_date == "Jan/Feb 1975" and s.end_turn == 63
    assert not [u for u in s.in_play if MIX.get(u).nationality == "US"]
    assert s.policy.elections == ((1968, False), (1972, False))
    assert s.box("Cambodia") == "communist_control" and s.box("Laos") == "communist_control"


def test_nva_division_cap_holds_where_no_uprising_preceded_the_start():
    for name in ("campaign", "tet"):
        s = ALL[name]
        assert sum(MIX.get(u).type == "division" for u in s.on_map) <= 10


def test_victory_readings():
    assert ALL["campaign"].victory.at_end == "communist"
    assert all(ALL[n].victory.at_end == "points_vs_start" for n in ("tet", "year_of_the_rat", "1975"))
    v = Victory("points_vs_start", ALL["tet"].victory.provenance)
    assert (v.winner(121, 120), v.winner(119, 120), v.winner(120, 120)) == ("allied", "communist", None)
    assert Victory("communist", v.provenance).winner(240, 100) == "communist"
    assert Victory("draw", v.provenance).winner(240, 100) is None


# ------------------------------------------------------------------------------------------- hostile files

def raw(name: str) -> dict:
    return yamlc.safe_load((DATA / f"{name}.yaml").read_text())


def entry(doc: dict, unit: str) -> dict:
    return next(e for e in doc["setup"] if unit in e["units"])


def load(doc: dict, tmp_path: Path, name="bad.yaml"):
    path = tmp_path / name
    path.write_text(yamlc.safe_dump(doc, sort_keys=False))
    return load_scenario(path)


def refused(doc, tmp_path, unit, *words):
    with pytest.raises(DataError) as e:
        load(doc, tmp_path)
    msg = str(e.value)
    assert "bad.yaml" in msg and (unit is None or unit in msg), msg
    for w in words:
        assert w in msg, msg
    return e.value


def add(doc, units, at, **kw):
    doc["setup"].append({"units": units, "at": at, "provenance": "reconstructed", **kw})


def test_the_shipped_file_round_trips(tmp_path):
    assert load(raw("tet"), tmp_path).placements == ALL["tet"].placements


def test_unknown_unit(tmp_path):
    d = raw("campaign")
    add(d, ["NVA 999"], "Hanoi")
    assert refused(d, tmp_path, "NVA 999", "NT 4.4").field.startswith("setup[")


def test_unknown_hex_and_place(tmp_path):
    d = raw("campaign")
    entry(d, "ARVN 2")["at"] = "9999"
    refused(d, tmp_path, None, "9999")
    d = raw("campaign")
    entry(d, "ARVN 2")["at"] = "Atlantis"
    refused(d, tmp_path, None, "Atlantis")


def test_unit_placed_twice(tmp_path):
    d = raw("campaign")
    add(d, ["VC cadre 1"], "1511", face="down")
    refused(d, tmp_path, "VC cadre 1", "already placed")
    d = raw("tet")
    d["air_box"]["units"].append("US F 2AD")
    refused(d, tmp_path, "US F 2AD", "already placed")


def test_stacking_over_the_limit(tmp_path):
    d = raw("campaign")                            # ARVN 1 and ARVN armor 1 hold Hue: a third is too many
    entry(d, "ARVN reg 51")["at"] = "Hue"
    refused(d, tmp_path, "ARVN reg 51", "NT 8.10.1", "3 ground combat units where the limit is 2")
    d = raw("campaign")                            # three in Saigon is legal, four is not
    add(d, ["ARVN ranger 1"], "Saigon", corps="III")
    d["setup"] = [e for e in d["setup"] if not (e["units"] == ["ARVN ranger 1"] and e["at"] == "Da Nang")]
    refused(d, tmp_path, "ARVN ranger 1", "4 ground combat units where the limit is 3")
    d = raw("tet")                                 # a second firebase in one hex
    entry(d, "US FB 1")["units"].append("US FB 5")
    entry(d, "US PB TF117")["units"].remove("US FB 5")
    refused(d, tmp_path, "US FB 5", "second firebase")


def test_both_sides_in_one_hex(tmp_path):
    d = raw("campaign")
    entry(d, "VC cadre 1")["at"] = "Hue"
    refused(d, tmp_path, None, "never start in one hex")


def test_attached_unit_outside_its_corps_or_without_one(tmp_path):
    d = raw("campaign")
    entry(d, "ARVN 2")["corps"] = "II"
    refused(d, tmp_path, "ARVN 2", "NT 5.2")
    d = raw("campaign")
    entry(d, "ARVN 2")["corps"] = None
    refused(d, tmp_path, "ARVN 2", "give its corps")
    d = raw("campaign")
    entry(d, "ARVN reg 51")["corps"] = "I"
    refused(d, tmp_path, "ARVN reg 51", "NT 5.5")


def test_a_division_split_between_corps(tmp_path):
    d = raw("tet")
    e = entry(d, "US 3/25")
    e["at"], e["corps"] = "2022", "II"
    refused(d, tmp_path, "US 3/25", "NT 5.2.2")


def test_faces(tmp_path):
    d = raw("campaign")
    entry(d, "ARVN 2")["face"] = "down"
    refused(d, tmp_path, "ARVN 2", "never inverted")
    d = raw("tet")
    entry(d, "NVA tank 202")["face"] = "down"
    refused(d, tmp_path, None, "NT 6.2")
    d = raw("campaign")
    entry(d, "dummy 1")["face"] = "up"
    refused(d, tmp_path, "dummy 1", "NT 4.1.2")


def test_countries(tmp_path):
    d = raw("campaign")
    add(d, ["VC cadre 11"], "1110", face="down")
    d["setup"] = [e for e in d["setup"] if e["units"] != ["PL cadre 1"]]
    refused(d, tmp_path, "VC cadre 11", "NT 8.9.1")
    d = raw("tet")
    entry(d, "NVA 316")["face"] = "up"
    refused(d, tmp_path, "NVA 316", "neutral")
    d = raw("campaign")
    entry(d, "ARVN reg 51")["at"] = "1002"
    refused(d, tmp_path, "ARVN reg 51", "10.8")
    d = raw("campaign")
    add(d, ["Cam militia 1"], "Savannakhet")
    refused(d, tmp_path, "Cam militia 1", "NT 8.9.2")
    d = raw("campaign")
    entry(d, "Cam inf 3")["at"] = "Savannakhet"
    refused(d, tmp_path, "Cam inf 3", "NT 5.2")


def test_neutral_laos_keeps_allied_units_out_but_cambodia_after_its_coup_does_not(tmp_path):
    d = raw("tet")
    d["setup"] = [e for e in d["setup"] if e["units"] != ["US 5SFM"]]
    add(d, ["US 5SFM"], "1114")
    refused(d, tmp_path, "US 5SFM", "NT 10.2")
    d = raw("year_of_the_rat")                   # Cambodia neutral again: the NVA face up there is refused
    d["neutrality"]["Cambodia"]["state"] = "neutral"
    refused(d, tmp_path, None, "Cambodia is neutral")


def test_schedule(tmp_path):
    d = raw("tet")
    add(d, ["US 3/82"], "2022", corps="II")
    refused(d, tmp_path, "US 3/82", "NT 4.2.1")
    d = raw("tet")
    d["setup"] = [e for e in d["setup"] if e["units"] != ["US 3/25"]]
    refused(d, tmp_path, "US 3/25", "place it")
    d = raw("year_of_the_rat")
    add(d, ["Thai QC"], "1426", corps="III")
    refused(d, tmp_path, "Thai QC", "withdrawn")
    d = raw("campaign")
    add(d, ["Lao ParaCdo"], "Vientiane", corps="Laos")
    refused(d, tmp_path, "Lao ParaCdo", "may first be bought on turn 12")


def test_air_and_naval_placement(tmp_path):
    d = raw("tet")
    d["air_box"]["units"].remove("US SAC 1")
    add(d, ["US SAC 1"], "1811")
    refused(d, tmp_path, "US SAC 1", "air box")
    d = raw("tet")
    d["air_box"]["units"].append("NVA int 925")
    refused(d, tmp_path, "NVA int 925", "air box")
    d = raw("tet")
    entry(d, "NVA int 923")["units"].remove("NVA int 923")
    add(d, ["NVA int 923"], "1208")
    refused(d, tmp_path, "NVA int 923", "NT 8.2.5")
    d = raw("tet")
    entry(d, "US Fleet")["at"] = "Pleiku"
    refused(d, tmp_path, "US Fleet", "NT 8.2.3")
    d = raw("campaign")
    entry(d, "ARVN PB 2")["at"] = "Bac Lieu"      # coastal: fine
    load(d, tmp_path)
    entry(d, "ARVN PB 2")["at"] = "Ban Me Thuot"
    refused(d, tmp_path, "ARVN PB 2", "NT 8.2.4")
    d = raw("campaign")
    entry(d, "ARVN reg 51")["at"] = "1911"
    refused(d, tmp_path, "ARVN reg 51", "all-sea")


def test_special_placements(tmp_path):
    d = raw("tet")
    entry(d, "US GB 2")["at"] = "Dak To"
    refused(d, tmp_path, "US GB 2", "NT 15.1")
    d = raw("tet")
    entry(d, "US FB 2")["at"] = "1719"
    refused(d, tmp_path, None, "NT 5.6.2")
    d = raw("tet")
    d["setup"] = [e for e in d["setup"] if e["units"] != ["US FB 2"]]
    add(d, ["US FB 2"], "Qui Nhon")                 # only ROK and ARVN there: not its nation
    refused(d, tmp_path, "US FB 2", "NT 5.6.2")
    d = raw("campaign")
    add(d, ["VC base 3"], "1424", face="down")       # a second base in III Corps
    refused(d, tmp_path, "VC base 3", "one a corps")
    d = raw("campaign")
    add(d, ["VC base 3"], "1625", face="down")
    d["setup"] = [e for e in d["setup"] if e["units"] != ["VC reg 275"]]
    refused(d, tmp_path, "VC base 3", "NT 28.9.3")
    d = raw("campaign")
    entry(d, "SVN militia 3")["at"] = "1719"
    refused(d, tmp_path, "SVN militia 3", "NT 5.6.1")
    d = raw("tet")
    add(d, ["SVN Phoenix 1"], "Hue")
    refused(d, tmp_path, "SVN Phoenix 1", "NT 28.4.1")
    d = raw("year_of_the_rat")                     # Phoenix allowed from 1968, one per corps
    add(d, ["SVN Phoenix 1"], "Hue")
    load(d, tmp_path)
    add(d, ["SVN Phoenix 2"], "Da Nang")
    refused(d, tmp_path, "SVN Phoenix 2", "one a corps")
    d = raw("year_of_the_rat")
    add(d, ["Thai 333"], "Kratie")
    d["setup"] = [e for e in d["setup"] if not (e["units"] == ["Thai 333"] and e["at"] == "Vientiane")]
    refused(d, tmp_path, "Thai 333", "NT 28.6.1")
    d = raw("campaign")
    entry(d, "Lao Guard")["at"] = "Plain of Jars"
    refused(d, tmp_path, "Lao Guard", "NT 28.11.4")


def test_more_hostile_and_friendly_cases(tmp_path):
    d = raw("tet")
    d["dead_pile"]["units"] = ["VC reg Delta 3"]
    entry(d, "VC reg Delta 3")["units"].remove("VC reg Delta 3")
    d["setup"] = [e for e in d["setup"] if e["units"]]
    refused(d, tmp_path, "VC reg Delta 3", "counter mix")
    d = raw("tet")                                 # an eliminated Allied unit waits in the dead pile
    d["setup"] = [e for e in d["setup"] if e["units"] != ["US 3/25"]]
    d["dead_pile"]["units"] = ["US 3/25"]
    assert load(d, tmp_path).dead_pile == ("US 3/25",)
    d = raw("campaign")                            # a VC Base only on mountain, jungle or swamp
    add(d, ["VC base 3"], "1813", face="down")
    refused(d, tmp_path, "VC base 3", "mountain, jungle or swamp")
    d = raw("tet")                                 # militia in a Green Beret's zone of influence is fine
    add(d, ["SVN militia 1"], "1617")
    entry(d, "SVN militia 1")["units"].remove("SVN militia 1")
    d["setup"] = [e for e in d["setup"] if e["units"]]
    assert load(d, tmp_path).placement("SVN militia 1").label == "1617"
    d = raw("tet")                                 # Green Berets may stand in neutral Laos (15.1, 10.2.3.1)
    entry(d, "US GB 5")["at"] = "1114"
    assert load(d, tmp_path).placement("US GB 5").label == "1114"


@pytest.mark.rule("NT 16.2")
def test_montagnards_limited_by_hearts_and_minds(tmp_path):
    d = raw("tet")                                 # I and II neutral, Laos pro-Communist: none allowed
    add(d, ["SVN Montagnard 1"], "1617")           # in GB 2's zone of influence
    refused(d, tmp_path, "SVN Montagnard 1", "NT 16.2")
    d["hearts_and_minds"]["II"]["box"] = "pro_allied"
    load(d, tmp_path)
    add(d, ["SVN Montagnard 2"], "1619")
    refused(d, tmp_path, "SVN Montagnard 2", "allows 1")


@pytest.mark.rule("NT 4.1.7")
def test_nva_division_cap_before_the_uprising(tmp_path):
    d = raw("campaign")
    add(d, ["NVA 324B", "NVA 325C", "NVA 320B", "NVA 711"], "China")
    refused(d, tmp_path, None, "NT 4.1.7")
    d["policy"]["uprising"] = None
    d = raw("year_of_the_rat")                     # after Tet's uprising there is no cap
    assert sum(MIX.get(u).type == "division" for u in load(d, tmp_path).on_map) > 10


def test_the_header_fields(tmp_path):
    d = raw("campaign")
    d["hearts_and_minds"]["IV"]["box"] = "liberated"
    refused(d, tmp_path, None, "hearts_and_minds.IV.box")
    d = raw("campaign")
    d["political_points"]["value"] = 300
    refused(d, tmp_path, None, "political_points.value")
    d = raw("year_of_the_rat")
    d["policy"]["elections"] = []
    refused(d, tmp_path, None, "policy.elections")
    d = raw("campaign")
    d["policy"]["uprising"] = 5
    refused(d, tmp_path, None, "NT 26.1")
    d = raw("campaign")
    d["end_turn"] = 0
    refused(d, tmp_path, None, "end_turn")
    d = raw("year_of_the_rat")
    d["policy"]["vietnamization_turn"] = None
    refused(d, tmp_path, None, "vietnamization_turn")
    d = raw("campaign")
    d["neutrality"]["Laos"]["state"] = "conquered"
    refused(d, tmp_path, "Lao Guard", "NT 10.6")


def test_scenario_by_unknown_name():
    with pytest.raises(KeyError):
        scenario("dien bien phu")


def test_a_deep_copy_of_a_scenario_equals_itself():
    s = ALL["1975"]
    assert copy.deepcopy(s) == s
