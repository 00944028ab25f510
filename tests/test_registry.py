"""Registry layer: every rulebook section is implemented (with code, tests and a chapter) or excused in writing."""
import re
from pathlib import Path

import pytest

import wargames.citadel as citadel
import wargames.fte as fte
import wargames.indochina as indochina  # noqa: F401  (registers its rules)
from wargames.core.rules import coverage, implementations
from wargames.games import INDEXED, import_all, sections
from wargames.indochina.rules_index import SECTIONS as IC_SECTIONS

ROOT = Path(__file__).resolve().parents[1]
RULEBOOKS = ROOT.parent / "shared" / "rulebooks"
GAMES = {"Citadel": ("C ", citadel.SECTIONS), "Indochina": ("IC ", IC_SECTIONS),
         "Front Toward Enemy": ("F ", fte.SECTIONS),
         "No Trumpets No Drums": ("NT ", sections("ntnd"))}   # no Game yet; sections() imports its modules


SECTIONS = [(game, s) for game, (_, secs) in GAMES.items() for s in secs]

#: one worker runs this file, so the coverage report (every test file parsed, every chapter scanned) is made once
pytestmark = pytest.mark.xdist_group("registry")


@pytest.fixture(scope="module")
def rows() -> dict[tuple[str, str], object]:
    """Each game's coverage rows by (game, rule id), made when a test asks (not while tests are collected)."""
    return {(game, r.id): r for game, (_, secs) in GAMES.items()
            for r in coverage(secs, ROOT / "tests", ROOT / "book")}


def test_citadel_index_lists_every_section_of_the_rulebook():
    """Rules 1-35, Scenario Rules 1-3, Scenarios 1-8 and Charts 1-3 all appear in the index."""
    ids = {s.id for s in citadel.SECTIONS}
    expected = {f"C {n}" for n in range(1, 36)} | {f"C SR {n}" for n in range(1, 4)} | \
               {f"C Sc {n}" for n in range(1, 9)} | {f"C Chart {n}" for n in range(1, 4)}
    assert expected <= ids
    book = RULEBOOKS / "citadel.txt"
    if book.exists():  # cross-check against the headings of the rulebook itself
        text = book.read_text(encoding="utf-8")
        assert {f"C {n}" for n in re.findall(r"^Rule (\d+):", text, flags=re.M)} <= ids
        assert {f"C Sc {n}" for n in re.findall(r"^Scenario (\d+):", text, flags=re.M)} <= ids


def test_indochina_index_lists_every_numbered_section():
    ids = {s.id for s in IC_SECTIONS}
    book = RULEBOOKS / "indochina.txt"
    if not book.exists():
        pytest.skip("the shared rulebooks are not beside this checkout")
    numbers = set(re.findall(r"^(\d+\.\d+) ", book.read_text(encoding="utf-8"), flags=re.M))
    # 29.21 is printed twice; the index splits it into 29.21a and 29.21b.
    missing = {n for n in numbers if f"IC {n}" not in ids and n != "29.21"}
    assert not missing, sorted(missing)
    assert {"IC 29.21a", "IC 29.21b"} <= ids


def test_fte_index_lists_every_numbered_section_and_the_errata():
    ids = {s.id for s in fte.SECTIONS}
    book = RULEBOOKS / "front-toward-enemy.txt"
    if not book.exists():
        pytest.skip("the shared rulebooks are not beside this checkout")
    text = book.read_text(encoding="utf-8")
    numbers = set(re.findall(r"^(\d+\.\d+(?:\.\d+)?) ", text, flags=re.M))
    assert numbers and not {n for n in numbers if f"F {n}" not in ids}
    assert {"F QRC", "F Errata", "F Revisions", "F Clarifications", "F TEC", "F TET", "F VP Chart"} <= ids


def test_a_game_without_a_game_class_has_every_module_imported_for_the_registry():
    """Code of No Trumpets No Drums registers rules before any Game imports it: sections() walks the package."""
    for name in INDEXED:
        modules = import_all(name)
        assert f"wargames.{name}.rules_index" in modules and f"wargames.{name}.calendar" in modules
    assert implementations("NT 8.2 Note") == ["wargames.ntnd.calendar.Turn.monsoon"]


@pytest.mark.parametrize("game", GAMES)
def test_no_duplicate_ids_and_no_stray_registrations(game):
    prefix, sections = GAMES[game]
    ids = [s.id for s in sections]
    assert len(ids) == len(set(ids))
    stray = {rid for rid in implementations() if rid.startswith(prefix) and rid not in ids}
    assert not stray


@pytest.mark.parametrize("game,section", [x for x in SECTIONS if x[1].status == "implemented"],
                         ids=lambda x: x.id if hasattr(x, "id") else x)
def test_implemented_sections_have_code_tests_and_a_chapter(game, section, rows):
    row = rows[game, section.id]
    assert row.code, f"{row.id} is marked implemented but no code registers it"
    assert row.tests, f"{row.id} has no test marked @pytest.mark.rule({row.id!r})"
    assert row.chapters, f"{row.id} is cited by no book chapter"


@pytest.mark.parametrize("game,section", [x for x in SECTIONS if x[1].status != "implemented"],
                         ids=lambda x: x.id if hasattr(x, "id") else x)
def test_other_sections_have_a_reason_and_no_code(game, section, rows):
    row = rows[game, section.id]
    assert row.reason
    assert not row.code or row.status == "planned", f"{row.id} has code but says {row.status}"
