import copy
"""Indochina rule 38.0: the three scenarios load, their numbers match the rule text, and bad files are reported."""
import pytest

from wargames.core.errors import DataError, RuleViolation
from wargames.indochina.combat import Side
from wargames.indochina.scenario_data import (NAMES, Month, controlled, forces, game_length, load_scenario,
                                              reconstructed, reinforcements_for, scenario_path, starting_points,
                                              starting_supply, turn_dates)
from . import yamlc

FEF, COM = Side.FEF, Side.COMMUNIST


@pytest.fixture(scope="module")
def intro():
    return load_scenario("introductory")


@pytest.fixture(scope="module")
def s1():
    return load_scenario("scenario1")


@pytest.fixture(scope="module")
def s2():
    return load_scenario("scenario2")


# --------------------------------------------------------------------------- every scenario

@pytest.mark.rule("IC 38.0")
@pytest.mark.parametrize("name", NAMES)
def test_each_scenario_loads_with_both_sides(name):
    sc = load_scenario(name)
    assert set(sc.sides) == {FEF, COM}
    assert sc.setup_order == (FEF, COM)          # the FEF always sets up first
    assert sc.provenance.kind == "text"
    assert all(u.count > 0 for s in sc.sides.values() for d in s.deployment for u in d.units)


@pytest.mark.rule("IC 38.0")
def test_names_and_aliases_find_the_same_file():
    assert scenario_path("intro") == scenario_path("introductory")
    assert scenario_path("2") == scenario_path("scenario2")
    assert load_scenario(scenario_path("s1")).id == "scenario1"


@pytest.mark.rule("IC 3.2", "IC Turn Record Chart")
@pytest.mark.parametrize("name,turns,first,last", [
    ("introductory", 5, "Nov 1945", "Mar 1946"),
    ("scenario1", 10, "Sep 1950", "Jun 1951"),
    ("scenario2", 9, "Oct 1953", "Jun 1954"),
])
def test_game_length_month_by_month(name, turns, first, last):
    sc = load_scenario(name)
    dates = turn_dates(sc)
    assert game_length(sc) == sc.turns == turns == len(dates)
    assert (dates[0].label, dates[-1].label) == (first, last)
    assert [d.turn for d in dates] == list(range(1, turns + 1))


@pytest.mark.rule("IC 3.2")
def test_extension_and_turn_numbers(s1, s2, intro):
    ext = turn_dates(s2, extended=True)
    assert len(ext) == 19 and ext[-1].label == "Apr 1955" and ext[9].extension and not ext[8].extension
    assert [d.label for d in ext if d.weather == "Monsoon"] == ["May 1954", "Jun 1954", "Jul 1954", "Aug 1954",
                                                                 "Sep 1954"]
    assert [d.turn for d in turn_dates(s1) if d.weather == "Monsoon"] == [1, 9, 10]
    assert s1.turn_of("1950-11") == 3
    with pytest.raises(RuleViolation):
        s1.turn_of("1951-07")
    with pytest.raises(RuleViolation):
        turn_dates(intro, extended=True)


@pytest.mark.rule("IC 38 Scenario 2")
def test_the_extension_is_a_ruleset_switch_of_the_game():
    from wargames.indochina import Game, Ruleset
    on = Ruleset(readings={"extended_scenario": True})
    assert Game.new("scenario2").total_turns == 9 and Game.new("scenario2", ruleset=on).total_turns == 19
    assert Game.new("scenario1", ruleset=on).total_turns == Game.new("scenario1").total_turns == 10


# --------------------------------------------------------------------------- the introductory scenario

@pytest.mark.rule("IC 38 Introductory")
def test_intro_points_and_switched_off_rules(intro):
    assert intro.political_points is None
    assert (starting_supply(intro, FEF), starting_supply(intro, "Communist")) == (0, 0)
    assert set(intro.ignored_rules) == {"IC 5.0", "IC 6.0", "IC 7.0", "IC 8.0", "IC 15.0", "IC 16.0", "IC 18.0",
                                        "IC 23.0", "IC 24.0"}
    assert intro.ignore_optional_rules
    with pytest.raises(RuleViolation) as e:
        starting_points(intro)
    assert e.value.rule == "IC 5.0"


@pytest.mark.rule("IC 38 Introductory")
def test_intro_forces(intro):
    fef = forces(intro, FEF)
    assert fef["infantry division"] == 2 + 3          # French and Nationalist Chinese
    assert forces(intro, FEF, "Nationalist Chinese") == {"infantry division": 3}
    assert forces(intro, FEF, "British") == {"mechanized division": 1}
    assert fef["regular infantry group"] == 2 + 1 + 1 + 1
    assert fef["marine infantry brigade"] == 1 and fef["airstrike group"] == 1
    assert forces(intro, COM, "Viet Minh") == {"cadre": 6, "guerrilla": 15}
    assert forces(intro, COM, "Khmer Issarak") == forces(intro, COM, "Pathet Lao") == {"cadre": 2, "guerrilla": 1}
    assert controlled(intro, FEF) == ["Saigon", "Haiphong", "Hanoi", "Phnom Penh", "Vientiane"]
    assert controlled(intro, COM) == []


@pytest.mark.rule("IC 38 Introductory")
def test_intro_reinforcements_alternate(intro):
    months = [d.month for d in turn_dates(intro)]
    french = [m for m in months for r in intro.sides[FEF].reinforcements if m in r.turns and r.nationality == "French"]
    assert french == [Month(1945, 11), Month(1946, 1), Month(1946, 3)]
    assert all(reinforcements_for(intro, FEF, m) == {"infantry group": 1} for m in months)
    assert all(reinforcements_for(intro, COM, m) == {"cadre": 1, "regular infantry regiment": 1, "guerrilla": 3}
               for m in months)


@pytest.mark.rule("IC 38 Introductory")
def test_intro_victory_points_and_readings(intro):
    v = intro.victory
    assert v.kind == "points" and v.win_ratio == 2
    assert [(p.who, p.vp) for p in v.points] == [("both", 3), ("both", 1), ("Communist", 1)]
    letters = [r.letter for r in intro.special_rules]
    assert letters[:8] == list("abcdefgh") and "h (second)" in letters
    second_h = next(r for r in intro.special_rules if r.letter == "h (second)")
    assert second_h.provenance.reconstructed
    recovery = next(r for r in intro.special_rules if r.letter == "FEF i")
    assert set(recovery.applies_to) == {FEF, COM} and recovery.provenance.reconstructed


# --------------------------------------------------------------------------- scenario 1

@pytest.mark.rule("IC 38 Scenario 1", "IC 5.1")
def test_s1_points(s1):
    pp = starting_points(s1)
    assert (pp.fef, pp.communist) == (50, 80)
    assert (starting_supply(s1, FEF), starting_supply(s1, COM)) == (10, 9)
    assert s1.no_events_first_turn and s1.victory.kind == "standard" and s1.victory.rule == "IC 24.0"


@pytest.mark.rule("IC 38 Scenario 1")
def test_s1_forces(s1):
    french = forces(s1, FEF, "French")
    assert sum(v for k, v in french.items() if k not in ("airstrike group", "air transport group",
                                                          "naval bombardment marker")) == 31
    assert french["regular infantry group"] == 15 and french["base"] == 4 and french["airstrike group"] == 6
    assert forces(s1, FEF, "Vietnamese National Army") == {"regular infantry group": 3, "guerrilla": 4}
    vm = forces(s1, COM, "Viet Minh")
    assert vm == {"militia": 7 + 4 + 2, "regular infantry division": 2, "regular infantry regiment": 8,
                  "cadre": 6, "guerrilla": 15, "base": 4}
    assert forces(s1, COM, "Viet Minh", optional=True)["death commando"] == 3
    assert s1.sides[FEF].fortifications.total == 5
    assert [w for _, w in s1.sides[FEF].fortifications.placements] == ["Mon Cai", "Lang Son", "Cao Bang",
                                                                        "Hai Giang", "Lao Cay"]


@pytest.mark.rule("IC 38 Scenario 1")
def test_s1_control_and_special_reinforcement(s1):
    assert controlled(s1, COM) == ["Vinh", "Dong Hai", "Qui Nhon", "Quang Nai", "Long Xuyen", "Cao Mao", "Bac Lieu"]
    assert controlled(s1, FEF).startswith("all except Bac Lieu, Cao Mao")
    (r,) = s1.sides[FEF].reinforcements
    assert r.turns == (Month(1950, 11),) and r.political_cost == 0 and s1.turn_of(r.turns[0]) == 3
    assert reinforcements_for(s1, FEF, "1950-11") == {"mechanized group": 1, "airborne infantry group": 1}
    assert reinforcements_for(s1, FEF, "1950-12") == {}
    assert any("B5 #34" in x for x in reconstructed(s1))


# --------------------------------------------------------------------------- scenario 2

@pytest.mark.rule("IC 38 Scenario 2", "IC 5.1")
def test_s2_points(s2):
    pp = starting_points(s2)
    assert (pp.fef, pp.communist) == (60, 75)
    assert (starting_supply(s2, FEF), starting_supply(s2, COM)) == (15, 12)
    assert s2.extension.turns == 19 and str(s2.extension.last_turn) == "1955-04"


@pytest.mark.rule("IC 38 Scenario 2")
def test_s2_forces(s2):
    french = forces(s2, FEF, "French")
    assert sum(v for k, v in french.items() if k not in ("airstrike group", "air transport group",
                                                          "naval bombardment marker")) == 41
    assert (french["airstrike group"], french["air transport group"]) == (7, 4)
    vna = forces(s2, FEF, "Vietnamese National Army")
    assert vna == {"mechanized group": 2, "regular infantry group": 6, "commando group": 2,
                   "airborne infantry group": 1, "guerrilla": 3 + 1 + 2 + 1}
    assert forces(s2, FEF, "Cambodian National Army") == {"regular infantry group": 3}
    vm = forces(s2, COM, "Viet Minh")
    assert vm["regular infantry division"] == 6 and vm["artillery division"] == 1
    assert vm["regular infantry regiment"] == 2 + 2 + 1 + 3
    assert vm["cadre"] == 3 + 1 + 2 + 1 and vm["guerrilla"] == 6 + 2 + 7 and vm["base"] == 3 + 1 + 2
    assert vm["militia"] == 4 + 1 + 3 + 14
    assert forces(s2, COM, "Pathet Lao") == {"militia": 1 + 2, "cadre": 2, "guerrilla": 2}
    assert forces(s2, COM, "Viet Minh", optional=True)["death commando"] == 1
    f = s2.sides[FEF].fortifications
    assert f.total == 8 and [c for c, _ in f.placements] == [7, 1]


@pytest.mark.rule("IC 38 Scenario 2")
def test_s2_control(s2):
    com = controlled(s2, COM)
    assert len(com) == 15 and com[-1] == "Sam Neua" and "Dien Bien Phu" in com
    assert "Cao Mao" not in com and "Bac Lieu" not in com
    assert any("B5 #26" in x for x in reconstructed(s2))


# --------------------------------------------------------------------------- bad files

def _broken(tmp_path, change):
    data = yamlc.safe_load(scenario_path("scenario1").read_text(encoding="utf-8"))
    change(data)
    p = tmp_path / "broken.yaml"
    p.write_text(yamlc.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p


def _set(path, value):
    def change(d):
        *head, last = path
        for k in head:
            d = d[k]
        d[last] = value
    return change


def _delete(path):
    def change(d):
        *head, last = path
        for k in head:
            d = d[k]
        del d[last]
    return change


FEF_UNIT0 = ["sides", "FEF", "deployment", 0, "units", 0]


@pytest.mark.rule("IC 38.0")
@pytest.mark.parametrize("change,field", [
    (_delete(["supply_points"]), "supply_points"),
    (_delete(["sides", "Communist"]), "sides.Communist"),
    (_delete(FEF_UNIT0 + ["count"]), "sides.FEF.deployment[0].units[0].count"),
    (_delete(["political_points"]), "political_points"),
    (_set(["title"], 3), "title"),
    (_set(["turns"], "ten"), "turns"),
    (_set(["turns"], 11), "turns"),
    (_set(["first_turn"], "1950-13"), "first_turn"),
    (_set(FEF_UNIT0 + ["count"], 0), "sides.FEF.deployment[0].units[0].count"),
    (_set(FEF_UNIT0 + ["count"], -2), "sides.FEF.deployment[0].units[0].count"),
    (_set(FEF_UNIT0 + ["count"], 2.5), "sides.FEF.deployment[0].units[0].count"),
    (_set(FEF_UNIT0 + ["count"], True), "sides.FEF.deployment[0].units[0].count"),
    (_set(FEF_UNIT0 + ["count"], "5"), "sides.FEF.deployment[0].units[0].count"),
    (_set(FEF_UNIT0 + ["type"], "tank"), "sides.FEF.deployment[0].units[0].type"),
    (_set(FEF_UNIT0 + ["size"], "corps"), "sides.FEF.deployment[0].units[0].size"),
    (_set(["sides", "FEF", "reinforcements", 0, "turns"], ["1951-07"]), "sides.FEF.reinforcements[0].turns[0]"),
    (_set(["sides", "FEF", "reinforcements", 0, "turns"], ["1950-08"]), "sides.FEF.reinforcements[0].turns[0]"),
    (_set(["sides", "FEF", "deployment", 0, "nationality"], "Viet Minh"), "sides.FEF.deployment[0].nationality"),
    (_set(["political_points", "FEF"], 0), "political_points.FEF"),
    (_set(["supply_points", "Communist"], -1), "supply_points.Communist"),
    (_set(["setup_order"], ["FEF", "Japan"]), "setup_order[1]"),
    (_set(["ignored_rules"], ["IC 99.0"]), "ignored_rules[0]"),
    (_set(["victory", "kind"], "sudden death"), "victory.kind"),
    (_set(["sides", "FEF", "fortifications", "total"], 6), "sides.FEF.fortifications.total"),
    (_set(["control", "FEF", "all_except"], ["Vinh"]), "control.FEF.all_except"),
    (_set(["sides", "Communist", "deployment", 0, "units", 0, "count"], 6), "sides.Communist.deployment"),
    (_set(["sides", "FEF", "deployment", 0, "wehre"], "typo"), "sides.FEF.deployment[0].wehre"),
    # the structured placement fields (deployment.py reads them)
    (_set(["sides", "FEF", "deployment", 0, "placement", "countries"], ["Atlantis"]),
     "sides.FEF.deployment[0].placement.countries[0]"),
    (_set(["sides", "FEF", "deployment", 0, "placement", "near"], {"within": 1}),
     "sides.FEF.deployment[0].placement.near"),
    (_set(["sides", "FEF", "deployment", 0, "placement", "near"], {"within": 1, "places": ["Hanoi"],
                                                                    "controlled_by": "FEF"}),
     "sides.FEF.deployment[0].placement.near"),
    (_set(["sides", "FEF", "deployment", 0, "placement", "near", "within"], -1),
     "sides.FEF.deployment[0].placement.near.within"),
    (_set(["sides", "FEF", "deployment", 0, "placement", "near", "controlled_by"], "Japan"),
     "sides.FEF.deployment[0].placement.near.controlled_by"),
    (_set(["sides", "FEF", "deployment", 0, "placement", "nearby"], 2), "sides.FEF.deployment[0].placement.nearby"),
    (_set(["sides", "FEF", "deployment", 1, "placement", "countries"], ["Laos"]),
     "sides.FEF.deployment[1].placement.countries"),
    (_set(["sides", "Communist", "deployment", 1, "placement", "south_of"], "Hue"),
     "sides.Communist.deployment[1].placement.south_of"),
    (_set(["sides", "Communist", "deployment", 4, "placement", "border", "country"], "Mars"),
     "sides.Communist.deployment[4].placement.border.country"),
    (_set(["sides", "Communist", "restrictions", "rule"], "IC 99"), "sides.Communist.restrictions.rule"),
    (_set(["sides", "Communist", "restrictions", "no_city_or_town"], "some"),
     "sides.Communist.restrictions.no_city_or_town"),
    (_set(["sides", "FEF", "fortifications", "placements", 0, "placement", "near", "places"], []),
     "sides.FEF.fortifications.placements[0].placement.near.places"),
])
def test_bad_files_name_the_field(tmp_path, change, field):
    p = _broken(tmp_path, change)
    with pytest.raises(DataError) as e:
        load_scenario(p)
    assert e.value.file == str(p)
    assert e.value.field == field, e.value


@pytest.mark.rule("IC 38.0")
def test_unknown_side_and_missing_file(tmp_path):
    def add_side(d):
        d["sides"]["Japan"] = copy.deepcopy(d["sides"]["FEF"])
    with pytest.raises(DataError) as e:
        load_scenario(_broken(tmp_path, add_side))
    assert e.value.field == "sides.Japan" and "the fields are Communist, FEF" in e.value.reason
    assert e.value.line is not None
    with pytest.raises(DataError) as e:
        load_scenario(tmp_path / "nowhere.yaml")
    assert e.value.field == "(file)"
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n")
    with pytest.raises(DataError) as e:
        load_scenario(tmp_path / "list.yaml")
    assert e.value.field == "(top level)"


@pytest.mark.rule("IC 38 Introductory")
def test_intro_without_points_needs_rule_5_ignored(tmp_path):
    data = yamlc.safe_load(scenario_path("introductory").read_text(encoding="utf-8"))
    data["ignored_rules"].remove("IC 5.0")
    p = tmp_path / "intro.yaml"
    p.write_text(yamlc.safe_dump(data), encoding="utf-8")
    with pytest.raises(DataError) as e:
        load_scenario(p)
    assert e.value.field == "political_points"


@pytest.mark.rule("IC 38.0")
def test_placement_fields_of_the_shipped_scenarios(s1, s2, intro):
    from wargames.indochina.scenario_data import Near
    north = s1.sides[Side.COMMUNIST].deployment[1].placement
    assert north.countries == ("Vietnam",) and north.north_of == "Hue" and north.provenance.reconstructed
    assert s1.sides[Side.COMMUNIST].deployment[2].placement.south_of == "Hue"
    assert s1.sides[Side.COMMUNIST].deployment[4].placement.border == ("Thailand", 3)
    assert s1.sides[Side.FEF].deployment[0].placement.near == Near(1, controlled_by=Side.FEF)
    assert s1.sides[Side.FEF].deployment[1].placement.box == "Air Available Box"
    assert s1.sides[Side.FEF].reinforcements[0].placement.box == "Far Eastern Staging Area"
    r = s1.sides[Side.COMMUNIST].restrictions
    assert (r.rule, r.no_city_or_town, r.guerrillas_apart) == ("IC 38 Scenario 1", "fef_controlled", True)
    assert intro.sides[Side.COMMUNIST].restrictions.no_city_or_town == "any"
    s2_north = s2.sides[Side.COMMUNIST].deployment[2].placement
    assert s2_north.not_near == Near(1, ("Hanoi", "Haiphong", "Thai Binh"))
    adjacent = s2.sides[Side.COMMUNIST].deployment[3].placement
    assert adjacent.near.on_place is False and adjacent.not_with_enemy
    assert s2.sides[Side.COMMUNIST].deployment[5].placement.border == ("Vietnam", 2)
    assert [r.near.places for r in s2.sides[Side.FEF].fortifications.rules] == [("Hanoi", "Haiphong", "Thai Binh"),
                                                                                ("Luang Prabang",)]


@pytest.mark.rule("IC 38.0")
def test_placement_readings_are_listed(s1, s2, intro):
    assert any("north and south of Hue" in x for x in reconstructed(s1))
    assert any("Thai hex" in x for x in reconstructed(s2))
    assert any("FEF occupied" in x for x in reconstructed(intro))
