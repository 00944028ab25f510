"""The No Trumpets No Drums rules index against the rulebook's own headings."""
import re
from pathlib import Path

import pytest

from wargames.core.rules import STATUSES
from wargames.ntnd.rules_index import SECTIONS

RULEBOOK = Path(__file__).resolve().parents[2] / "shared" / "rulebooks" / "no-trumpets-no-drums.txt"
# A numbered heading: a section number ("1." for a chapter, "19.2.6" below it) at the start of a line.
HEADING = re.compile(r"^(\d+)\.(?: |$)|^(\d+(?:\.\d+)+) ")
UNNUMBERED = {"NT 2.2 Note", "NT 8.2 Note", "NT 10.2 Note", "NT 11.1.4 Note", "NT 14 Preamble",
              "NT 22.4 Note", "NT 28 Preamble"}


def rulebook_headings() -> list[tuple[int, str]]:
    """(line, number) of every numbered heading after the table of contents (whose lines start with a bullet)."""
    if not RULEBOOK.exists():
        pytest.skip("the shared rulebooks are not beside this checkout")
    lines = RULEBOOK.read_text(encoding="utf-8").splitlines()   # keeps the last line, which has no newline
    out = []
    for n, line in enumerate(lines, start=1):
        m = HEADING.match(line)
        if m:
            out.append((n, m.group(1) or m.group(2)))
    return out


def sort_key(section_id: str) -> tuple:
    """Numeric order of an id; an unnumbered text sorts right after the section it stands in."""
    number, _, word = section_id.removeprefix("NT ").partition(" ")
    return tuple(int(p) for p in number.split(".")) + ((0,) if word else ())


def test_the_index_has_every_numbered_heading_and_nothing_else():
    heads = rulebook_headings()
    assert len(heads) == 385
    assert heads[0] == (65, "1") and heads[-1] == (1010, "28.11.5")   # the last line has no newline
    numbered = [s.id for s in SECTIONS if s.id not in UNNUMBERED]
    assert numbered == [f"NT {num}" for _, num in heads]              # same ids, in the rulebook's order
    assert len(SECTIONS) == 385 + 7
    assert {s.id for s in SECTIONS} - set(numbered) == UNNUMBERED


def test_list_items_in_the_text_are_not_taken_for_headings():
    """Lines inside rules that start like numbers ("1965", "(1)", "a.") are not headings."""
    nums = [num for _, num in rulebook_headings()]
    assert len(nums) == len(set(nums))
    assert all(int(n.split(".")[0]) <= 28 for n in nums)


def test_ids_are_unique_and_in_rulebook_order():
    ids = [s.id for s in SECTIONS]
    assert len(ids) == len(set(ids))
    assert ids == sorted(ids, key=sort_key)


@pytest.mark.parametrize("section_id, line, neighbour", [
    ("NT 2.2 Note", 101, "NT 2.2"), ("NT 8.2 Note", 325, "NT 8.2"), ("NT 10.2 Note", 439, "NT 10.2"),
    ("NT 11.1.4 Note", 487, "NT 11.1.4"), ("NT 14 Preamble", 552, "NT 14"), ("NT 22.4 Note", 779, "NT 22.4"),
    ("NT 28 Preamble", 918, "NT 28")])
def test_each_unnumbered_text_follows_the_heading_it_stands_under(section_id, line, neighbour):
    heads = rulebook_headings()
    before = [num for n, num in heads if n < line][-1]
    assert f"NT {before}" == neighbour
    ids = [s.id for s in SECTIONS]
    assert ids[ids.index(section_id) - 1] == neighbour
    text = RULEBOOK.read_text(encoding="utf-8").splitlines()[line - 1]
    assert text and not HEADING.match(text)


def test_statuses_and_reasons():
    by_id = {s.id: s for s in SECTIONS}
    assert all(s.status in STATUSES for s in SECTIONS)
    assert all(s.reason for s in SECTIONS if s.status != "implemented")
    for flavour in ("NT 1", "NT 7.1", "NT 16.1"):
        assert by_id[flavour].status == "no-rules" and "flavour" in by_id[flavour].reason
    for xref, target in (("NT 4.2.4", "NT 7.2"), ("NT 8.9.3", "NT 5.3"), ("NT 11.10", "NT 28.1"),
                         ("NT 19.2.3.1", "NT 28.7"), ("NT 19.2.3.2", "NT 12.3"), ("NT 4.1.5", "NT 27")):
        assert by_id[xref].status == "no-rules" and target in by_id[xref].reason
    assert by_id["NT 19.2.5"].status == "no-rules" and "example" in by_id["NT 19.2.5"].reason
    assert by_id["NT 28.10"].status == "no-rules" and "NT 4.1.7" in by_id["NT 28.10"].reason
    # 28.11.1 repeats the list of 10.2.3.1 but adds that those units may attack inverted units: a rule.
    assert by_id["NT 28.11.1"].status != "no-rules"
    for table in ("NT 8.2", "NT 12.1.1", "NT 19.2.3", "NT 22.4", "NT 25.4.1"):
        assert by_id[table].status != "no-rules"             # the tables are executed by the rules that read them
    headings = [s for s in SECTIONS if s.title.endswith("(heading)")]
    assert len(headings) == 43 and all(s.status == "no-rules" for s in headings)
    assert sum(s.status == "no-rules" for s in SECTIONS) == 59


def test_headings_name_the_sections_they_stand_over():
    ids = {s.id for s in SECTIONS}
    for s in SECTIONS:
        if s.title.endswith("(heading)"):
            first, last = re.fullmatch(r"a heading over (NT [\d.]+) to (NT [\d.]+)", s.reason).groups()
            assert first in ids and last in ids
            assert first.startswith(s.id + ".") and last.startswith(s.id + ".")
