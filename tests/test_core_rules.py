"""Tests for wargames.core.rules (registry, coverage), wargames.core.log (Resolution) and errors."""
from __future__ import annotations

import json
import textwrap
from collections import defaultdict
from fractions import Fraction

import pytest

from wargames.core import rules
from wargames.core.errors import DataError, RuleViolation
from wargames.core.hexgrid import Hex
from wargames.core.log import Resolution, Step
from wargames.core.rules import (
    Section, chapters_by_rule, coverage, coverage_markdown, implementations, implements, rule_pattern,
)

# Not imported by name: pytest would collect a module-level function called ``tests_by_rule`` as a test.


@pytest.fixture
def registry(monkeypatch):
    """A private, empty implementation registry, so these tests never leak fake rule ids."""
    fresh: dict = defaultdict(list)
    monkeypatch.setattr(rules, "_IMPLEMENTATIONS", fresh)
    return fresh


# =========================================================================== Section

def test_section_implemented_needs_no_reason():
    s = Section("C 8", "Movement")
    assert s.status == "implemented" and s.reason == ""


@pytest.mark.parametrize("status", ["planned", "no-rules"])
def test_section_not_implemented_requires_a_reason(status):
    with pytest.raises(ValueError):
        Section("C 1", "Contents", status)
    s = Section("C 1", "Contents", status, "a table of contents, nothing to execute")
    assert s.reason


def test_section_unknown_status():
    with pytest.raises(ValueError):
        Section("C 1", "Contents", "someday", "later")


# =========================================================================== @implements

def test_implements_registers_function(registry):
    @implements("ZZ 1", "ZZ 2")
    def resolve_fire():
        return 42

    assert resolve_fire() == 42  # the decorator returns the function itself
    assert resolve_fire.__rules__ == ("ZZ 1", "ZZ 2")
    name = f"{__name__}.test_implements_registers_function.<locals>.resolve_fire"
    assert implementations("ZZ 1") == [name]
    assert implementations("ZZ 2") == [name]
    assert implementations("ZZ 3") == []
    assert implementations() == {"ZZ 1": [name], "ZZ 2": [name]}


def test_implements_registers_class_and_stacks(registry):
    @implements("ZZ 5")
    @implements("ZZ 4")
    class Melee:
        pass

    assert Melee.__rules__ == ("ZZ 4", "ZZ 5")
    assert len(implementations("ZZ 4")) == 1 and implementations("ZZ 4") == implementations("ZZ 5")


def test_implements_is_idempotent(registry):
    def f():
        pass

    implements("ZZ 6")(f)
    implements("ZZ 6")(f)
    assert len(implementations("ZZ 6")) == 1


def test_implements_needs_an_id():
    with pytest.raises(ValueError):
        implements()


def test_registry_fixture_isolates(registry):
    assert implementations() == {}


# =========================================================================== rule_pattern

@pytest.mark.parametrize("text, hit", [
    ("see C 9 for fire", True),
    ("C 9", True),
    ("(C 9)", True),
    ("as in C 9.", True),
    ("C 9, C 10", True),
    ("C 9-C 11", True),
    ("C 9.1 says", False),
    ("C 90 says", False),
    ("C 91", False),
    ("XC 9", False),
    ("AC 9 and C 9a", False),
    ("1.C 9", False),
    ("C 8", False),
])
def test_rule_pattern(text, hit):
    assert bool(rule_pattern("C 9").search(text)) == hit


def test_rule_pattern_subsection():
    pat = rule_pattern("C 9.1")
    assert pat.search("C 9.1 applies")
    assert not pat.search("C 9.12 applies")
    assert not pat.search("C 9.1.2 applies")
    assert not pat.search("C 9 applies")


def test_rule_pattern_escapes_specials():
    assert rule_pattern("F 1.2").search("F 1.2") and not rule_pattern("F 1.2").search("F 1x2")


# =========================================================================== tests_by_rule

FAKE_TESTS = textwrap.dedent('''
    import pytest

    pytestmark = [pytest.mark.rule("C 3"), pytest.mark.slow]

    @pytest.mark.rule("C 8")
    def test_move():
        pass

    @pytest.mark.rule("C 9", "C 9.1")
    @pytest.mark.parametrize("x", [1, 2])
    def test_fire(x):
        pass

    def test_plain():
        pass

    def helper():
        pass

    @pytest.mark.rule("C 10")
    class TestMelee:
        def test_one(self):
            pass
''')


def test_tests_by_rule_reads_markers(tmp_path):
    (tmp_path / "test_fake.py").write_text(FAKE_TESTS, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "test_other.py").write_text(
        'import pytest\n\n@pytest.mark.rule("C 8")\ndef test_other():\n    pass\n', encoding="utf-8")
    (tmp_path / "not_a_test.py").write_text(
        'import pytest\n\n@pytest.mark.rule("C 8")\ndef test_ignored():\n    pass\n', encoding="utf-8")
    found = rules.tests_by_rule(tmp_path)
    assert sorted(found["C 8"]) == ["test_fake.py::test_move", "test_other.py::test_other"]
    assert found["C 9"] == ["test_fake.py::test_fire"]
    assert found["C 9.1"] == ["test_fake.py::test_fire"]
    assert found["C 10"] == ["test_fake.py::TestMelee"]
    # Module-level pytestmark applies to every test in the module, and not to helpers.
    c3 = found["C 3"]
    assert {"test_fake.py::test_move", "test_fake.py::test_fire", "test_fake.py::test_plain",
            "test_fake.py::TestMelee", "test_fake.py::test_one"} == set(c3)
    assert not any("helper" in t for ts in found.values() for t in ts)
    assert "ignored" not in str(found)


def test_tests_by_rule_single_pytestmark(tmp_path):
    (tmp_path / "test_single.py").write_text(
        'import pytest\npytestmark = pytest.mark.rule("F 2")\n\ndef test_a():\n    pass\n', encoding="utf-8")
    assert rules.tests_by_rule(tmp_path) == {"F 2": ["test_single.py::test_a"]}


def test_tests_by_rule_empty_dir(tmp_path):
    assert rules.tests_by_rule(tmp_path) == {}


# =========================================================================== chapters_by_rule and coverage

def _book(tmp_path):
    book = tmp_path / "book"
    (book / "citadel").mkdir(parents=True)
    (book / "citadel" / "fire.md").write_text("# Fire\n\nRule C 9 gives the fire table.\n", encoding="utf-8")
    (book / "citadel" / "fire_detail.md").write_text("# Detail\n\nC 9.1 and C 90 only.\n", encoding="utf-8")
    (book / "citadel" / "move.md").write_text("# Move\n\nC 8: movement, then (C 9).\n", encoding="utf-8")
    (book / "appendix-coverage.md").write_text("C 8 C 9 C 9.1\n", encoding="utf-8")
    (book / "_build").mkdir()
    (book / "_build" / "fire.md").write_text("C 9\n", encoding="utf-8")
    return book


def test_chapters_by_rule_matches_exact_ids(tmp_path):
    book = _book(tmp_path)
    found = chapters_by_rule(book, ["C 9", "C 9.1", "C 8", "C 90", "C 7"])
    assert found["C 9"] == ["citadel/fire.md", "citadel/move.md"]
    assert found["C 9.1"] == ["citadel/fire_detail.md"]
    assert found["C 90"] == ["citadel/fire_detail.md"]
    assert found["C 8"] == ["citadel/move.md"]
    assert found["C 7"] == []


def test_coverage_joins_everything(tmp_path, registry):
    book = _book(tmp_path)
    tests_dir = tmp_path / "tests"
    tests_dir.mkdir()
    (tests_dir / "test_x.py").write_text(
        'import pytest\n\n@pytest.mark.rule("C 9")\ndef test_fire():\n    pass\n', encoding="utf-8")

    @implements("C 9")
    def fire():
        pass

    index = [Section("C 9", "Fire"), Section("C 1", "Contents", "no-rules", "table of contents")]
    rows = coverage(index, tests_dir, book)
    assert [r.id for r in rows] == ["C 9", "C 1"]
    fire_row, contents = rows
    assert fire_row.code == (f"{__name__}.test_coverage_joins_everything.<locals>.fire",)
    assert fire_row.tests == ("test_x.py::test_fire",)
    assert fire_row.chapters == ("citadel/fire.md", "citadel/move.md")
    assert contents.code == contents.tests == contents.chapters == ()
    md = coverage_markdown(rows)
    lines = md.splitlines()
    assert lines[0].startswith("| Rule |") and len(lines) == 4
    assert "no-rules: table of contents" in lines[3]
    assert "| C 9 | Fire | implemented |" in lines[2]


# =========================================================================== Resolution / Step

def test_resolution_add_find_text():
    res = Resolution()
    s1 = res.add("C 9", "3 x 4 SP at range 9 = 36 -> column 31-40", arithmetic="3*4*3=36",
                  result="31-40", strength=36, target=Hex(1, 2))
    res.add("C 9.2", "full jungle shifts two columns left", arithmetic="-2", result="19-22")
    res.add("C 9", "roll 4 -> 1 step loss", result=1, roll=4)
    res.result = {"losses": 1, "column": "19-22"}
    assert isinstance(s1, Step)
    assert s1.inputs == {"strength": 36, "target": Hex(1, 2)}
    assert res.rules() == ["C 9", "C 9.2", "C 9"]
    assert [s.result for s in res.find("C 9")] == ["31-40", 1]
    assert res.find("C 12") == []
    text = res.text()
    assert text.splitlines()[0] == "C 9: 3 x 4 SP at range 9 = 36 -> column 31-40 [3*4*3=36]"
    assert text.splitlines()[2] == "C 9: roll 4 -> 1 step loss"
    assert str(res) == text


def test_resolution_extend():
    a, b = Resolution(), Resolution()
    a.add("C 8", "move")
    b.add("C 9", "fire")
    a.extend(b)
    assert a.rules() == ["C 8", "C 9"]


def test_resolution_to_dict_is_json_serialisable():
    res = Resolution()
    res.add("C 9", "fire", arithmetic="a", result=Fraction(1, 3), target=Hex(1, 2),
            hexes=(Hex(0, 0), Hex(1, 0)), flags={"wire", "stream"}, nested={1: [Hex(2, 2)]})
    inner = Resolution()
    inner.add("C 10", "melee", result=3)
    res.add("C 11", "sub-resolution", result=inner)
    res.result = (Fraction(1, 2), None, True)
    d = res.to_dict()
    text = json.dumps(d)
    back = json.loads(text)
    assert back["steps"][0]["rule"] == "C 9"
    assert back["steps"][0]["result"] == "1/3"
    assert back["steps"][0]["inputs"]["nested"] == {"1": [str(Hex(2, 2))]}
    assert sorted(back["steps"][0]["inputs"]["flags"]) == ["stream", "wire"]
    assert back["steps"][1]["result"]["steps"][0]["rule"] == "C 10"
    assert back["result"] == ["1/2", None, True]


def test_step_line_without_arithmetic():
    assert Step("C 6", "stack of two companies").line() == "C 6: stack of two companies"


# =========================================================================== errors

def test_rule_violation():
    e = RuleViolation("C 6", "a third company would exceed the stack limit")
    assert e.rule == "C 6" and e.reason.startswith("a third")
    assert str(e) == "C 6: a third company would exceed the stack limit"


def test_data_error_names_file_field_reason(tmp_path):
    e = DataError(tmp_path / "x.yaml", "results[3]", "is missing")
    assert e.file == str(tmp_path / "x.yaml")
    assert e.field == "results[3]" and e.reason == "is missing"
    assert str(e) == f"{tmp_path / 'x.yaml'}: results[3]: is missing"
