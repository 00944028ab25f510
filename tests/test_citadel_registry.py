"""Registry layer: every rulebook section is implemented (with code, tests and a chapter) or excused in writing."""
import re
from pathlib import Path

import pytest

import wargames.citadel as citadel
from wargames.core.rules import coverage, implementations

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT.parent / "shared" / "rulebooks" / "citadel.txt"


def _rows():
    return coverage(citadel.SECTIONS, ROOT / "tests", ROOT / "book")


def test_index_lists_every_section_of_the_rulebook():
    """Rules 1-35, Scenario Rules 1-3, Scenarios 1-8 and Charts 1-3 all appear in the index."""
    ids = {s.id for s in citadel.SECTIONS}
    expected = {f"C {n}" for n in range(1, 36)} | {f"C SR {n}" for n in range(1, 4)} | \
               {f"C Sc {n}" for n in range(1, 9)} | {f"C Chart {n}" for n in range(1, 4)}
    assert expected <= ids
    if RULEBOOK.exists():  # cross-check against the headings of the rulebook itself
        text = RULEBOOK.read_text(encoding="utf-8")
        rules = {int(n) for n in re.findall(r"^Rule (\d+):", text, flags=re.M)}
        assert {f"C {n}" for n in rules} <= ids
        scen = {int(n) for n in re.findall(r"^Scenario (\d+):", text, flags=re.M)}
        assert {f"C Sc {n}" for n in scen} <= ids


def test_no_duplicate_ids():
    ids = [s.id for s in citadel.SECTIONS]
    assert len(ids) == len(set(ids))


def test_registered_code_names_indexed_rules():
    ids = {s.id for s in citadel.SECTIONS}
    stray = {rid for rid in implementations() if rid.startswith("C ") and rid not in ids}
    assert not stray


@pytest.mark.parametrize("row", [r for r in _rows() if r.status == "implemented"], ids=lambda r: r.id)
def test_implemented_sections_have_code_tests_and_a_chapter(row):
    assert row.code, f"{row.id} is marked implemented but no code registers it"
    assert row.tests, f"{row.id} has no test marked @pytest.mark.rule({row.id!r})"
    assert row.chapters, f"{row.id} is cited by no book chapter"


@pytest.mark.parametrize("row", [r for r in _rows() if r.status != "implemented"], ids=lambda r: r.id)
def test_other_sections_have_a_reason_and_no_code(row):
    assert row.reason
    assert not row.code or row.status == "planned", f"{row.id} has code but says {row.status}"
