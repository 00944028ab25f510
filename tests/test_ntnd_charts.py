"""No Trumpets No Drums' charts: the printed values against the rulebook, one test per constraint the text sets
(each also broken on purpose), the lookups the rules use, owners' charts and bad files."""
import re
from fractions import Fraction
from pathlib import Path

import pytest

from wargames.core import Resolution, ScriptedDice, enumerate_outcomes
from wargames.core.dice import DiceError
from wargames.core.errors import DataError, RuleViolation
from wargames.ntnd import charts as C
from wargames.ntnd.charts import (CONSTRAINTS, EVENT_NUMBERS, NtndCharts, aa_hit, aa_hit_rolls, aid_result,
                                  check_constraints, default_charts, defence_modifier, load_charts,
                                  movement_allowance, movement_class, political_phase_items, pp_items, random_event,
                                  roll_aid, roll_random_event,
                                  svn_deserts, svn_morale, svn_morale_conditions, terrain_cost)
from . import yamlc

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT.parent / "shared" / "rulebooks" / "no-trumpets-no-drums.txt"
F = Fraction


def lines(first: int, last: int) -> list[str]:
    """Rulebook lines ``first``..``last`` (1-based), or skip when the shared rulebooks are not beside us."""
    if not RULEBOOK.exists():
        pytest.skip("the shared rulebooks are not beside this checkout")
    return RULEBOOK.read_text(encoding="utf-8").splitlines()[first - 1:last]


# --------------------------------------------------------------------------- printed charts against the text

@pytest.mark.rule("NT 8.2")
def test_movement_table_matches_the_printed_rows():
    rows = [line.split("\t") for line in lines(315, 323)]
    assert rows[0] == ["Unit Type", "Movement Allowance"]
    printed = {name: value for name, value in rows[1:]}
    c = default_charts()
    assert printed["Communist Supply Units"] == str(c.movement.row("communist_supply").allowance) == "12"
    assert printed["Other Communist Units"] == str(c.movement.row("communist_other").allowance) == "10"
    assert printed["Allied Ground Units"] == str(c.movement.row("allied_ground").allowance) == "12"
    assert printed["Allied Patrol Boats"] == str(c.movement.row("patrol_boat").allowance) == "18"
    airmobile = printed["Allied Airmobile Units"]
    assert airmobile.startswith("unlimited") and "9 movement points in Monsoon" in airmobile
    assert c.movement.row("airmobile").allowance == "unlimited" and c.movement.row("airmobile").monsoon == 9
    assert c.movement.row("airmobile").scope == "corps_or_adjacent"
    assert printed["Allied Air/Fleet Units"] == c.movement.row("allied_air_fleet").allowance == "unlimited"
    assert printed["Communist Interceptors"].startswith("restricted")
    assert set(c.movement.row("interceptor").zones) == {"Hanoi", "Haiphong", "China"}
    immobile = [k for k in printed if k.startswith("Green Berets")]
    assert printed[immobile[0]] == "immobile" and "VC Bases" in immobile[0]
    for side, t in (("allied", "green_beret"), ("allied", "militia"), ("allied", "firebase"), ("communist", "vc_base")):
        assert c.movement.row(movement_class(side, t)).allowance == "immobile"
    assert all(r.provenance.kind == "text" and r.provenance.source.startswith("NT ")
               for r in c.movement.classes.values())


@pytest.mark.rule("NT 12.1.1")
def test_aa_table_matches_the_printed_rows():
    rows = dict(line.split("\t") for line in lines(521, 524))
    assert rows.pop("Unit") == "Die roll" and len(rows) == 3
    by_word = {"Division": ("division", "tank"), "Artillery": ("artillery",), "Interceptor": ("sam", "interceptor")}
    for label, value in rows.items():
        (word,) = [w for w in by_word if w in label]
        faces = sorted(int(x) for x in re.findall(r"\d", value))
        for t in by_word[word]:
            assert sorted(aa_hit_rolls(t)) == faces, label
    assert [len(re.findall(r"\d", v)) for v in rows.values()] == [1, 2, 3]
    assert "Subtract one from the die when firing on SAC" in lines(526, 526)[0]
    assert default_charts().anti_aircraft.sac_modifier == -1


@pytest.mark.rule("NT 25.4.1")
def test_svn_morale_table_matches_the_printed_rows():
    rows = dict(line.split("\t") for line in lines(875, 880))
    assert rows.pop("Condition") == "Die roll modifier"
    table = default_charts().svn_morale.conditions
    expected = {"If the unit is attacking": "attacking",
                "If ARVN has a numerical advantage": "arvn_numerical_advantage",
                "If fighting in an ARVN-controlled area": "arvn_controlled_area",
                "If the Communist player has a numerical advantage": "communist_numerical_advantage",
                "If fighting in a Communist-controlled area": "communist_controlled_area"}
    assert set(rows) == set(expected)
    for label, key in expected.items():
        assert int(rows[label]) == table[key].modifier
        assert table[key].provenance.kind == "text"


@pytest.mark.rule("NT 22.4", "NT 22.3")
def test_political_points_match_the_printed_list_and_marks():
    items = {i.line: i for i in default_charts().political_points.items.values()}
    assert sorted(items) == list(range(764, 778))
    for n, text in enumerate(lines(764, 777), start=764):
        m = re.fullmatch(r"• ([+-]\d+) (?:per |if |for each |If )?.*?[.]? ?(\*+\^*)", text.strip())
        assert m, text
        assert int(m.group(1)) == items[n].points, text
        assert m.group(2) == items[n].marks, text
        assert items[n].provenance.kind == "text"
    assert "does not apply to a neutral state" in lines(779, 779)[0]


@pytest.mark.rule("NT 19.2.3")
def test_tec_defence_matches_the_printed_rows():
    printed = dict(line.split("\t") for line in lines(679, 684))
    tec = default_charts().terrain_effects
    assert int(printed["City"]) == tec.features["city"].defence == 2
    assert int(printed["Mountain"]) == tec.terrain["mountain"].defence == 2
    assert int(printed["Jungle/Swamp"]) == tec.terrain["jungle"].defence == tec.terrain["swamp"].defence == 1
    assert int(printed["All Attackers on: Minor River"]) == tec.features["minor_river"].attackers_on == 1
    assert int(printed["All Attackers on: Major River"]) == tec.features["major_river"].attackers_on == 2
    for row, col in (("city", "defence"), ("mountain", "defence"), ("jungle", "defence"), ("swamp", "defence"),
                     ("minor_river", "attackers_on"), ("major_river", "attackers_on"), ("clear", "cost"),
                     ("road", "cost"), ("trail", "cost")):
        assert tec.provenance(row, col).kind == "text", (row, col)
    for row, col in (("jungle", "cost"), ("swamp", "cost"), ("mountain", "cost"), ("town", "defence"),
                     ("minor_river", "cost"), ("major_river", "cost")):
        assert tec.provenance(row, col).kind == "reconstructed", (row, col)


@pytest.mark.rule("NT 8.2.6", "NT 8.2.7", "NT 27.1.1", "NT 27.1.2", "NT 14.2.2")
def test_other_text_values_match_their_lines():
    """The values the text gives in sentences: clear 1 (L337), trail 1 and road 1/2 (L339), the aid modifiers
    (L906, L908) and the Soviet bonus for a mined Haiphong (L566)."""
    tec, aid = default_charts().terrain_effects, default_charts().communist_aid.modifiers
    assert "one movement point to enter clear" in lines(337, 337)[0] and tec.terrain["clear"].cost == 1
    road = lines(339, 339)[0]
    assert "trails pay one movement point" in road and tec.routes["trail"][0] == 1
    assert "one half movement point per hex" in road and tec.routes["road"][0] == F(1, 2)
    words = {"one": 1, "two": 2}
    m = re.search(r"subtracting (\w+) if full Vietnamization is in progress, (\w+) if partial", lines(906, 906)[0])
    assert (-words[m.group(1)], -words[m.group(2)]) == (aid["full_vietnamization"].value,
                                                      aid["partial_vietnamization"].value)
    assert aid["election_withdrawal"].value == aid["partial_vietnamization"].value
    m = re.search(r"adding (\w+) if Allied ground units enter North Vietnam", lines(908, 908)[0])
    assert words[m.group(1)] == aid["allied_ground_units_in_north_vietnam"].value
    m = re.search(r"adds (\w+) to the die when rolling for Soviet Aid", lines(566, 566)[0])
    assert words[m.group(1)] == aid["haiphong_mined"].value and aid["haiphong_mined"].countries == ("USSR",)
    assert all(x.provenance.kind == "text" for x in aid.values())


# --------------------------------------------------------------------------- one test per constraint

@pytest.mark.rule("NT 8.2", "NT 12.1.1", "NT 25.4.1", "NT 22.4", "NT 19.2.3", "NT 21.1", "NT 27.1", "NT 7")
@pytest.mark.parametrize("constraint", CONSTRAINTS, ids=lambda c: c.id)
def test_shipped_charts_meet_each_constraint(constraint):
    assert constraint.check(default_charts()), constraint.text


def _edit(data: dict, path: tuple, value):
    for k in path[:-1]:
        data = data[k]
    if value is DELETE:
        del data[path[-1]]
    else:
        data[path[-1]] = value


DELETE = object()
#: for each constraint, edits to one chart file that break it (and nothing else in the file)
BREAKS = {
    "move-text": ("movement_allowances.yaml", [(("classes", "allied_ground", "allowance"), 10)]),
    "move-immobile": ("movement_allowances.yaml", [(("classes", "interceptor", "zones"), ["Hanoi", "China"])]),
    "aa-text": ("anti_aircraft.yaml", [(("units", "artillery", "hits"), [4, 5, 6])]),
    "svn-text": ("svn_morale.yaml", [(("conditions", "attacking", "modifier"), 1)]),
    "pp-text": ("political_points.yaml", [(("items", "saigon_held_by_communists", "marks"), "**^^")]),
    "tec-defence-text": ("terrain_effects.yaml", [(("terrain", "mountain", "defence"), 1)]),
    "tec-clear-road-trail": ("terrain_effects.yaml", [(("routes", "road", "cost"), 1)]),
    "tec-non-clear-over-one": ("terrain_effects.yaml", [(("terrain", "swamp", "cost"), 1)]),
    "tec-monsoon-zoi": ("terrain_effects.yaml", [(("terrain", "mountain", "cost"), 3)]),
    "tec-monsoon-local-vc": ("terrain_effects.yaml", [(("terrain", "mountain", "cost"), "11/2")]),
    "tec-halving-meaningful": ("terrain_effects.yaml", [(("terrain", "jungle", "cost"), 3)]),
    "tec-river-crossing": ("terrain_effects.yaml", [(("features", "major_river", "cost"), "1/4")]),
    "tec-town-bonus": ("terrain_effects.yaml", [(("features", "town", "defence"), 0)]),
    "tec-sea-prohibited": ("terrain_effects.yaml", [(("terrain", "all_sea", "cost"), 1)]),
    "events-18": None,          # the loader refuses such a file: see test_events_file_needs_exactly_18_events
    "events-coups": ("random_events.yaml", [(("events", 12, "effects", "coup"), DELETE)]),
    "events-communist-units": ("random_events.yaml", [(("events", n, "effects", "communist_units"), DELETE)
                                                      for n in (15, 16, 21, 22, 23)]),
    "events-allied-replacements": ("random_events.yaml", [(("events", n, "effects", "replacements"), DELETE)
                                                          for n in (25, 26, 32, 33)]),
    "events-us-replacement-pp": ("random_events.yaml", [(("events", 31, "effects", "next_turn"), DELETE)]),
    "events-laotian-intervention": ("random_events.yaml", [(("events", 14, "effects", "next_turn"), DELETE)]),
    "events-once": ("random_events.yaml", [(("events", n, "once"), DELETE) for n in (11, 12, 13, 14, 36)]),
    "aid-modifiers-text": ("communist_aid.yaml", [(("modifiers", "partial_vietnamization", "group"), DELETE)]),
    "aid-units-text": ("communist_aid.yaml", [(("countries", "China", "units"), ["supply", "sam", "tank"])]),
    "aid-monotone": ("communist_aid.yaml", [(("countries", "USSR", "results", 7), "none")]),
    "aid-a-real-roll": ("communist_aid.yaml", [(("countries", "China", "results", 1), "aid"),
                                               (("countries", "China", "results", 0), "aid"),
                                               (("countries", "China", "results", -1), "aid"),
                                               (("countries", "China", "results", 2), "aid"),
                                               (("countries", "China", "results", 3), "aid")]),
    "aid-modifiers-matter": ("communist_aid.yaml", [(("countries", "USSR", "results", n), "aid")
                                                    for n in (-1, 0, 1, 2, 3, 4)] +
                             [(("countries", "USSR", "results", n), "none") for n in (6, 7, 8, 9)]),
    "hm-areas": ("hearts_minds.yaml", [(("areas",), ["I", "II", "III", "IV", "Laos"])]),
    "hm-named-boxes": ("hearts_minds.yaml", [(("boxes", 1, "id"), "leaning_communist")]),
}


def owner_folder(tmp_path: Path, file: str, edits) -> Path:
    folder = tmp_path / "owner"
    folder.mkdir(exist_ok=True)
    data = yamlc.safe_load((C.DATA / file).read_text(encoding="utf-8"))
    for path, value in edits:
        _edit(data, path, value)
    (folder / file).write_text(yamlc.safe_dump(data, sort_keys=False), encoding="utf-8")
    return folder


def test_every_constraint_has_a_break():
    assert set(BREAKS) == {c.id for c in CONSTRAINTS}


@pytest.mark.rule("NT 8.2", "NT 12.1.1", "NT 25.4.1", "NT 22.4", "NT 19.2.3", "NT 21.1", "NT 27.1", "NT 7")
@pytest.mark.parametrize("cid", [k for k, v in BREAKS.items() if v], ids=str)
def test_each_constraint_notices_a_broken_chart(tmp_path, cid):
    file, edits = BREAKS[cid]
    owner = load_charts(owner_folder(tmp_path, file, edits))
    failed = check_constraints(owner)
    assert cid in failed
    assert owner.sources[next(k for k, (f, _) in C.CHART_FILES.items() if f == file)] != "default"


@pytest.mark.rule("NT 21.1")
def test_events_file_needs_exactly_18_events(tmp_path):
    folder = owner_folder(tmp_path, "random_events.yaml", [(("events", 36), DELETE)])
    with pytest.raises(DataError) as e:
        load_charts(folder)
    assert e.value.file.endswith("random_events.yaml") and e.value.field == "events[36]"
    data = yamlc.safe_load((C.DATA / "random_events.yaml").read_text(encoding="utf-8"))
    data["events"][41] = {"name": "Quiet", "effect": "nothing"}
    (folder / "random_events.yaml").write_text(yamlc.safe_dump(data), encoding="utf-8")
    with pytest.raises(DataError) as e:
        load_charts(folder)
    assert e.value.field == "events[41]"


# --------------------------------------------------------------------------- 8.2 lookups

@pytest.mark.rule("NT 8.2", "NT 8.2.1")
def test_monsoon_halves_face_up_allowances_only():
    assert movement_allowance("allied_ground", False).points == 12
    assert movement_allowance("allied_ground", True).points == 6
    assert movement_allowance("communist_other", True).points == 5
    assert movement_allowance("communist_supply", True).points == 6
    assert movement_allowance("communist_other", True, face_up=False).points == 10     # inverted: not halved
    assert movement_allowance("patrol_boat", True).points == 18                        # 8.2.1's exception
    assert movement_allowance("airmobile", True).points == 9                          # printed, not halved again
    clear = movement_allowance("airmobile", False)
    assert clear.kind == "unlimited" and clear.points is None and clear.scope == "corps_or_adjacent"
    assert movement_allowance("allied_air_fleet", True).kind == "unlimited"
    assert movement_allowance("immobile", False).kind == "immobile"
    assert movement_allowance("interceptor", False).kind == "restricted"


@pytest.mark.rule("NT 8.4")
def test_improved_ho_chi_minh_trail():
    trail = movement_allowance("communist_supply", False, improved_trail=True)
    assert trail.points == 15 and trail.provenance.source.startswith("NT 8.4")
    assert movement_allowance("communist_supply", True, improved_trail=True).points == F(15, 2)
    assert "15 points" in lines(347, 347)[0]
    with pytest.raises(RuleViolation) as e:
        movement_allowance("communist_other", False, improved_trail=True)
    assert e.value.rule == "NT 8.4"


@pytest.mark.rule("NT 8.2")
def test_movement_class_of_each_unit_type():
    assert movement_class("communist", "supply") == "communist_supply"
    assert movement_class("communist", "division") == "communist_other"
    assert movement_class("allied", "marine") == "allied_ground"
    assert movement_class("allied", "militia") == "immobile"
    assert movement_class("allied", "militia", in_green_beret_zoi=True) == "militia_in_green_beret_zoi"
    assert movement_allowance("militia_in_green_beret_zoi", True).scope == "green_beret_zoi"
    assert movement_class("allied", "firebase", in_green_beret_zoi=True) == "immobile"
    with pytest.raises(KeyError):
        movement_class("communist", "marine")


# --------------------------------------------------------------------------- 12.1.1 lookups

@pytest.mark.rule("NT 12.1.1", "NT 12.1.2", "NT 11.9.2")
def test_aa_hits_and_the_sac_and_linebacker_changes():
    assert [aa_hit("artillery", r) for r in range(1, 7)] == [False] * 4 + [True] * 2
    assert aa_hit_rolls("division", sac=True) == frozenset()          # 6 - 1 = 5 never hits (catalog A5.10)
    assert aa_hit_rolls("artillery", sac=True) == {6}
    assert aa_hit_rolls("sam", sac=True) == {5, 6}
    assert aa_hit_rolls("sam", linebacker=True, sac=True) == {6}      # final, no further -1
    assert aa_hit_rolls("sam", linebacker=True) == {5, 6}
    assert aa_hit_rolls("artillery", linebacker=True) == {5, 6}       # Linebacker changes SAMs only
    assert aa_hit_rolls("interceptor", linebacker=True, sac=True) == {5, 6}
    with pytest.raises(RuleViolation) as e:
        aa_hit("cadre", 6)
    assert e.value.rule == "NT 12.1.1"
    with pytest.raises(DiceError):
        aa_hit("sam", 7)


# --------------------------------------------------------------------------- 25.4.1 lookups

@pytest.mark.rule("NT 25.4.1")
def test_svn_morale_modifiers_and_desertion():
    conds = svn_morale_conditions(attacking=True, allied_units=3, communist_units=1, area_box="allied_control")
    assert conds == ("attacking", "arvn_numerical_advantage", "arvn_controlled_area")
    res = Resolution()
    assert svn_morale(conds, res=res) == -3 and [s.result for s in res.steps] == [-1, -1, -1]
    bad = svn_morale_conditions(attacking=False, allied_units=1, communist_units=2, area_box="communist_control")
    assert bad == ("communist_numerical_advantage", "communist_controlled_area") and svn_morale(bad) == 2
    assert svn_morale_conditions(attacking=False, allied_units=2, communist_units=2, area_box="neutral") == ()
    # deserts when the modified roll is higher than the printed value (a tie stays)
    assert not svn_deserts(2, 2, 0) and svn_deserts(3, 2, 0)
    assert not svn_deserts(4, 2, -2) and svn_deserts(2, 2, 1)
    with pytest.raises(KeyError):
        svn_morale(["raining"])


# --------------------------------------------------------------------------- 22.4 lookups

@pytest.mark.rule("NT 22.3", "NT 22.4")
def test_pp_items_by_timing_and_phase():
    names = lambda items: {i.name for i in items}       # noqa: E731
    assert names(pp_items("immediate")) == {"communist_unit_eliminated", "allied_unit_eliminated",
                                            "seato_unit_replaced", "us_unit_replaced"}
    assert names(pp_items("allied_phase")) == {"area_pro_allied", "area_allied_control", "all_towns_allied",
                                               "no_communist_units", "only_inverted_communists"}
    both = {"area_pro_communist", "area_communist_control", "town_held_by_communists", "city_held_by_communists",
            "saigon_held_by_communists"}
    assert names(pp_items("both_phases")) == both
    assert names(political_phase_items("communist")) == both
    assert names(political_phase_items("allied")) == both | names(pp_items("allied_phase"))
    items = default_charts().political_points.items
    assert {k for k, i in items.items() if i.not_if_neutral} == {
        "all_towns_allied", "no_communist_units", "only_inverted_communists", "town_held_by_communists",
        "city_held_by_communists"}
    assert items["saigon_held_by_communists"].instead_of == "city_held_by_communists"
    assert all(i.points > 0 for i in items.values() if i.timing == "allied_phase")
    assert all(i.points < 0 for i in items.values() if i.timing == "both_phases")
    with pytest.raises(ValueError):
        pp_items("sometimes")


# --------------------------------------------------------------------------- TEC lookups

@pytest.mark.rule("NT 8.2.2", "NT 8.2.6", "NT 8.2.7", "NT 8.3")
def test_terrain_costs():
    assert terrain_cost("clear") == 1
    assert terrain_cost("jungle") == terrain_cost("swamp") == 2 and terrain_cost("mountain") == F(5, 2)
    assert terrain_cost("clear", ["minor_river"]) == F(3, 2) and terrain_cost("jungle", ["major_river"]) == 3
    assert terrain_cost("clear", ["town"]) == 1 and terrain_cost("swamp", ["city"]) == 2   # settlements add nothing
    assert terrain_cost("mountain", ["road", "major_river"], along="road") == F(1, 2)     # a road bridges
    assert terrain_cost("mountain", ["trail"], along="trail") == 1
    assert terrain_cost("mountain", ["major_river"], pays_terrain=False) == 1              # 8.2.2 classes
    assert terrain_cost("clear", ["road"], along="road", pays_terrain=False) == F(1, 2)
    assert terrain_cost("all_sea") is None
    with pytest.raises(RuleViolation) as e:
        terrain_cost("clear", along="road")
    assert e.value.rule == "NT 8.2.7"


@pytest.mark.rule("NT 8.3", "NT 8.5.3")
def test_local_vc_and_zones_of_influence():
    # Local VC: no road or trail benefit, +1 for a non-clear hex, the river crossing unchanged
    assert terrain_cost("jungle", ["road"], along="road", local_vc=True) == 3
    assert terrain_cost("clear", ["road", "minor_river"], along="road", local_vc=True) == F(3, 2)
    assert terrain_cost("mountain", ["minor_river"], local_vc=True) == 4
    assert terrain_cost("jungle", pays_terrain=False, local_vc=True) == 2          # a ranger pays it too
    # a face-up Communist unit pays double in a zone of influence
    assert terrain_cost("mountain", enemy_zoi=True) == 5
    assert terrain_cost("clear", ["road"], along="road", enemy_zoi=True) == 1
    res = Resolution()
    terrain_cost("swamp", ["minor_river"], local_vc=True, res=res)
    assert [s.rule for s in res.steps] == ["NT 8.2.6", "NT 8.2.6", "NT 8.3"] and res.steps[-1].result == F(7, 2)


@pytest.mark.rule("NT 19.2.3", "NT 20.4.1", "NT 28.7.2")
def test_defence_modifiers():
    # 19.2.3 example: a Communist defender in a city on a swamp hex adds 3
    assert defence_modifier("swamp", ["city"]) == 3
    # 20.4.1 example: the terrain of a mountain hex is worth 2
    assert defence_modifier("mountain") == 2
    assert defence_modifier("clear", ["town"]) == 1 and defence_modifier("clear", ["road", "coastal"]) == 0
    # river rows count only when every attacking hex has the river
    assert defence_modifier("clear", [], [["minor_river"], ["minor_river", "road"]]) == 1
    assert defence_modifier("clear", [], [["major_river"], ["major_river"]]) == 2
    assert defence_modifier("clear", [], [["major_river"], ["minor_river"]]) == 1
    assert defence_modifier("clear", [], [["major_river"], []]) == 0
    assert defence_modifier("jungle", ["city"], [["major_river"]]) == 5               # all cumulative
    # a sapper takes the whole terrain bonus away, river rows included
    res = Resolution()
    assert defence_modifier("jungle", ["city"], [["major_river"]], sapper=True, res=res) == 0
    assert res.steps[-1].rule == "NT 28.7.2" and "+5" in res.steps[-1].text
    assert defence_modifier("mountain", ["town"], sapper=True) == 0


# --------------------------------------------------------------------------- Random Events

@pytest.mark.rule("NT 21.1", "NT 21.2")
def test_random_events_d66():
    events = default_charts().random_events.events
    assert len(events) == 18 and tuple(events) == EVENT_NUMBERS
    readings = [random_event(c, a) for c in range(1, 7) for a in range(1, 7)]
    hits = [e for e in readings if e is not None]
    assert len(hits) == 18                                   # an event half the time
    assert all(random_event(c, a) is None for c in (4, 5, 6) for a in range(1, 7))
    assert random_event(1, 2).number == 12 and random_event(2, 1).number == 21   # the Communist die is the tens
    assert all(e.provenance.kind == "reconstructed" for e in events.values())
    with pytest.raises(DiceError):
        random_event(0, 3)
    # with dice: an event half the time, each of the 18 with 1/36
    dist = enumerate_outcomes(roll_random_event)
    assert dist.prob(lambda n: n is None) == F(1, 2) and dist[36] == F(1, 36)
    res = Resolution()
    assert roll_random_event(ScriptedDice([3, 4]), res=res) == 34 and "Typhoon" in res.steps[-1].text


@pytest.mark.rule("NT 21.2")
def test_once_and_void_events():
    assert random_event(1, 1).effects["coup"] == "Cambodia"
    assert random_event(1, 1, occurred=[11]) is None                       # once per game
    assert random_event(2, 4, occurred=[24]).number == 24                  # not once: happens again
    res = Resolution()
    assert random_event(1, 1, neutral_states=["Laos"], res=res) is None    # Cambodia has joined a side
    assert "no longer neutral" in res.steps[-1].text
    assert random_event(1, 4, neutral_states=[]) is None                   # Laotian intervention needs neutral Laos
    assert random_event(1, 3, neutral_states=[]).effects["coup"] == "SVN"  # the Saigon coup ties to no neutral


# --------------------------------------------------------------------------- Communist Aid

@pytest.mark.rule("NT 27.1.1", "NT 27.1.2", "NT 14.2.2")
def test_aid_rolls_and_modifiers():
    china = aid_result("China", 4)
    assert china.granted and china.units == ("supply", "sam", "cadre")
    assert not aid_result("China", 3).granted
    assert not aid_result("USSR", 4).granted and aid_result("USSR", 5).granted
    assert aid_result("USSR", 5).units == ("supply", "sam", "artillery", "interceptor", "tank")
    full = aid_result("China", 6, ["full_vietnamization", "partial_vietnamization", "election_withdrawal"])
    assert full.modified == 4 and full.applied == ("full_vietnamization",)        # the group does not add up
    assert aid_result("China", 6, ["partial_vietnamization", "election_withdrawal"]).modified == 5
    assert aid_result("USSR", 4, ["haiphong_mined"]).granted                        # +1 for the Soviet roll
    assert aid_result("China", 3, ["haiphong_mined"]).modified == 3                 # not for the Chinese one
    inv = aid_result("USSR", 3, ["allied_ground_units_in_north_vietnam"])
    assert inv.modified == 5 and inv.granted
    top = aid_result("USSR", 6, ["allied_ground_units_in_north_vietnam", "haiphong_mined"])
    low = aid_result("China", 1, ["full_vietnamization"])
    assert (top.modified, low.modified) == (9, -1) and top.granted and not low.granted
    with pytest.raises(KeyError):
        aid_result("China", 3, ["bombing_halt"])
    assert roll_aid(ScriptedDice([5]), "USSR").granted
    assert enumerate_outcomes(lambda d: roll_aid(d, "China").granted)[True] == F(1, 2)


@pytest.mark.rule("NT 27.1")
def test_aid_odds_by_modifier():
    def p(country, mods):
        return F(sum(aid_result(country, r, mods).granted for r in range(1, 7)), 6)
    assert (p("China", []), p("USSR", []), p("USSR", ["haiphong_mined"])) == (F(1, 2), F(1, 3), F(1, 2))
    assert (p("China", ["full_vietnamization"]), p("USSR", ["full_vietnamization"])) == (F(1, 6), F(0))
    assert p("China", ["partial_vietnamization"]) == F(1, 3)


# --------------------------------------------------------------------------- Hearts and Minds

@pytest.mark.rule("NT 7.2.2", "NT 7.4", "NT 10.2.1")
def test_hearts_and_minds_track():
    t = default_charts().hearts_minds
    assert t.areas == ("I", "II", "III", "IV", "Laos", "Cambodia")
    assert t.ids == ("communist_control", "pro_communist", "neutral", "pro_allied", "allied_control")
    assert t.box("neutral").provenance.kind == "reconstructed" and t.box("pro_allied").provenance.kind == "text"
    assert t.shift("neutral", 1) == ("pro_allied", 0) and t.shift("pro_allied", -3) == ("communist_control", 0)
    assert t.shift("pro_allied", 2, excess="lose") == ("allied_control", 1)
    with pytest.raises(RuleViolation) as e:
        t.shift("allied_control", 1, rule="NT 7.2.2")
    assert e.value.rule == "NT 7.2.2" and "Allied Control" in e.value.reason
    with pytest.raises(RuleViolation):
        t.shift("pro_communist", -2)
    with pytest.raises(KeyError):
        t.shift("leaning", 1)


# --------------------------------------------------------------------------- owners' charts and bad files

@pytest.mark.rule("NT 19.2.3", "NT 8.2.6")
def test_an_owner_chart_replaces_ours(tmp_path):
    data = yamlc.safe_load((C.DATA / "terrain_effects.yaml").read_text(encoding="utf-8"))
    del data["provenance"]
    for row in data["terrain"].values():
        row.pop("provenance", None)
    data["terrain"]["mountain"]["cost"] = 2
    data["features"]["town"]["defence"] = 2
    folder = tmp_path / "printed"
    folder.mkdir()
    (folder / "terrain_effects.yaml").write_text(yamlc.safe_dump(data), encoding="utf-8")
    owner = load_charts(folder)
    assert isinstance(owner, NtndCharts) and owner.sources["terrain_effects"].startswith(str(folder.resolve()))
    assert terrain_cost("mountain", charts=owner) == 2 and terrain_cost("mountain") == F(5, 2)
    assert defence_modifier("clear", ["town"], charts=owner) == 2
    assert owner.terrain_effects.provenance("mountain", "cost").kind == "printed"
    assert owner.sources["random_events"] == "default" and random_event(1, 1, charts=owner).number == 11
    assert check_constraints(owner) == []


@pytest.mark.parametrize("file,edits,field", [
    ("political_points.yaml", [(("items", "us_unit_replaced", "points"), "seven")], "items.us_unit_replaced.points"),
    ("political_points.yaml", [(("items", "us_unit_replaced", "marks"), "*^*")], "items.us_unit_replaced.marks"),
    ("terrain_effects.yaml", [(("terrain", "mountain", "cost"), "1/0")], "terrain.mountain.cost"),
    ("terrain_effects.yaml", [(("terrain", "mountain", "cost"), 0)], "terrain.mountain.cost"),
    ("terrain_effects.yaml", [(("features", "town"), DELETE)], "features.town"),
    ("movement_allowances.yaml", [(("classes", "allied_ground", "types"), ["infantry", "tank_destroyer"])],
     "classes.allied_ground.types[1]"),
    ("anti_aircraft.yaml", [(("units", "artillery", "hits"), [5, 7])], "units.artillery.hits[1]"),
    ("svn_morale.yaml", [(("conditions", "attacking"), DELETE)], "conditions.attacking"),
    ("communist_aid.yaml", [(("countries", "China", "results", 9), DELETE)], "countries.China.results[9]"),
    ("communist_aid.yaml", [(("countries", "USSR", "results", 4), "maybe")], "countries.USSR.results[4]"),
    ("random_events.yaml", [(("events", 22, "effects", "communist_units"), {"cadre": 0})],
     "events[22].effects.communist_units.cadre"),
    ("hearts_minds.yaml", [(("boxes",), [{"id": "allied_control", "name": "AC", "side": "allied", "level": 2},
                                         {"id": "communist_control", "name": "CC", "side": "communist", "level": 2}])],
     "boxes"),
], ids=lambda x: x if isinstance(x, str) and "." in x else "")
def test_a_bad_cell_names_its_file_and_cell(tmp_path, file, edits, field):
    folder = owner_folder(tmp_path, file, edits)
    with pytest.raises(DataError) as e:
        load_charts(folder)
    assert e.value.file == str(folder / file) and e.value.field == field, str(e.value)
    assert e.value.line is not None


def test_a_file_that_is_no_chart_is_refused(tmp_path):
    (tmp_path / "combat_results.yaml").write_text("name: x\n", encoding="utf-8")
    with pytest.raises(DataError) as e:
        load_charts(tmp_path)
    assert e.value.field == "file name"


def test_every_shipped_file_is_a_chart_and_reloads_fresh():
    assert {f for f, _ in C.CHART_FILES.values()} == {p.name for p in C.DATA.glob("*.yaml")}
    a, b = default_charts(), default_charts()
    a.hearts_minds.areas = ()
    assert b.hearts_minds.areas and a.terrain_effects is not b.terrain_effects
