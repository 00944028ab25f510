"""The generated status tables (widgets.status) and the navigation they rely on (_toc.yml, H1 lines)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from wargames.games import GAMES, INDEXED, INDEXED_TITLES, TITLES, sections
from widgets import status
from widgets.status import (ALL_TITLES, ORDER, all_status, game_status, page_title, ranges, rule_number,
                            status_markdown, toc_files, toc_titles, unwritten_markdown)

REPO = Path(__file__).resolve().parents[1]


def _book(tmp_path: Path, pages: dict[str, str]) -> Path:
    """A small book: a _toc.yml with one Citadel part holding ``pages`` (doc -> H1)."""
    lines = ["format: jb-book", "root: book/intro", "parts:", "  - caption: Games", "    chapters:",
             "      - file: book/citadel/index", "        sections:"]
    (tmp_path / "book" / "citadel").mkdir(parents=True)
    (tmp_path / "book" / "intro.md").write_text("# Intro\n")
    (tmp_path / "book" / "citadel" / "index.md").write_text("# Citadel\n")
    for doc, h1 in pages.items():
        lines.append(f"          - file: {doc}")
        (tmp_path / f"{doc}.md").write_text(f"---\nx: 1\n---\n\n# {h1}\n\nText citing C 20.\n")
    toc = tmp_path / "_toc.yml"
    toc.write_text("\n".join(lines) + "\n")
    return toc


def test_ranges():
    assert ranges([]) == ""
    assert ranges([3]) == "3"
    assert ranges([1, 2, 3, 5, 7, 8, 38]) == "1-3, 5, 7-8, 38"
    assert ranges([5, 4, 4, 3]) == "3-5"


def test_rule_number():
    assert rule_number("C 8") == 8
    assert rule_number("IC 13.22") == 13
    assert rule_number("F 7.3.2") == 7
    assert rule_number("C 14.B") == 14
    assert rule_number("C Fire CRT") is None
    assert rule_number("IC Exp Naval Operations") is None
    assert rule_number("IC 38 Introductory") is None and rule_number("IC 38 Scenario 1") is None
    assert rule_number("NT 19.2.6") == 19 and rule_number("NT 1") == 1
    assert rule_number("NT 8.2 Note") == 8 and rule_number("NT 28 Preamble") == 28


def test_written_rules_come_from_the_toc_file_names_and_h1(tmp_path):
    toc = _book(tmp_path, {"book/citadel/rule01": "Citadel, Rule 1 (C 1): x",
                           "book/citadel/rule02": "Citadel, Rule 2 (C 2): y",
                           "book/citadel/extra": "Citadel (C 12): the return phase, early"})
    st = game_status("citadel", toc=toc, root=tmp_path)
    assert st.written == (1, 2, 12)
    # Citing a rule in the body (C 20 above) does not make a chapter of it.
    assert 20 in st.unwritten
    assert st.unwritten == tuple(n for n in range(3, 36) if n != 12)
    assert "chapters for Rules 1-2, 12; Rules 3-11, 13-35 not written yet" in st.summary()


def test_counts_match_the_rules_index():
    for name in GAMES:
        index = list(sections(name))
        st = game_status(name)
        assert st.engine
        assert st.sections == len(index)
        assert st.implemented + st.planned + st.no_rules == len(index)
        assert st.implemented == len([s for s in index if s.status == "implemented"])
        assert st.summary().startswith(f"{st.implemented} of {len(index)} sections implemented")


def test_a_game_with_a_rules_index_but_no_engine(monkeypatch):
    """A game whose index exists before its Game (as No Trumpets No Drums did) is reported without an engine."""
    monkeypatch.setattr(status, "GAMES", {k: v for k, v in GAMES.items() if k != "ntnd"})
    monkeypatch.setattr(status, "INDEXED", {"ntnd": "wargames.ntnd"})
    st = game_status("ntnd")
    index = list(sections("ntnd"))
    assert not st.engine and st.sections == len(index) == 385 + 7 and {19, 23} <= set(st.written)
    assert st.implemented + st.planned + st.no_rules == st.sections
    assert st.implemented == len([s for s in index if s.status == "implemented"]) >= 2
    assert st.no_rules == 59 and st.rules == tuple(range(1, 29))
    assert st.unwritten == tuple(n for n in st.rules if n not in st.written)
    assert st.summary().startswith("no playable engine yet; its rules index lists 392 sections: "
                                   f"{st.implemented} with a tested procedure (not yet reachable in play), "
                                   f"{st.planned} planned, 59 with nothing to execute")
    table = unwritten_markdown(st).splitlines()
    shown = [s for s in index if status.rule_number(s.id) in st.unwritten]
    assert len(table) == 2 + len(shown)
    assert not shown or (table[2].startswith("| NT 1 |") and table[-1].startswith(f"| {shown[-1].id} |"))
    text = status.overview_markdown(st)
    assert st.summary() in text and "no `Game`" in text


def test_ntnd_is_a_game_of_the_registry():
    st = game_status("ntnd")
    assert "ntnd" in GAMES and st.engine and st.sections == 385 + 7
    assert st.summary().startswith(f"{st.implemented} of 392 sections implemented")


def test_a_game_with_neither_index_nor_engine(monkeypatch):
    monkeypatch.setattr(status, "GAMES", {k: v for k, v in GAMES.items() if k != "ntnd"})
    monkeypatch.setattr(status, "INDEXED", {})
    st = game_status("ntnd")
    assert not st.engine and st.sections == 0 and st.written == ()
    assert st.summary().startswith("not implemented yet")
    assert "has no rules index" in unwritten_markdown(st)
    assert "no rules index lists its sections" in status.overview_markdown(st)


def test_every_game_of_the_registry_is_in_the_book_order():
    assert set(GAMES) <= set(ORDER) and set(INDEXED) <= set(ORDER) and not set(GAMES) & set(INDEXED)
    assert all(ALL_TITLES[name] == TITLES[name] for name in GAMES)
    assert all(ALL_TITLES[name] == INDEXED_TITLES[name] for name in INDEXED)


def test_status_table_has_one_row_per_game_with_its_counts():
    rows = all_status()
    table = status_markdown(rows, link=lambda doc, text: f"[{text}]({doc}.html)")
    body = table.splitlines()[2:]
    assert len(body) == len(ORDER) == 4
    for line, st in zip(body, rows):
        assert f"[*{st.title}*](book/{st.name}/index.html)" in line
        assert line.rstrip(" |").endswith(st.summary())
    fte = game_status("fte")
    assert fte.written == tuple(range(1, 30))


def test_citadel_every_rule_has_a_chapter_and_the_part_ends_with_the_scenarios_then_exercises():
    st = game_status("citadel")
    assert st.written == tuple(range(1, 36)) and st.unwritten == ()
    assert unwritten_markdown(st).splitlines()[2:] == []
    docs = [d for d in toc_files() if d.startswith("book/citadel/")]
    assert docs[-9:] == [f"book/citadel/scenario{n}" for n in range(1, 9)] + ["book/citadel/exercises"]
    rules = [int(d[-2:]) for d in docs if d.startswith("book/citadel/rule")]
    assert rules == list(range(1, 36))             # in rule order


def test_toc_has_one_part_per_game_with_short_titles():
    titles = toc_titles()
    docs = toc_files()
    for name in ORDER:
        assert f"book/{name}/index" in docs
        assert titles[f"book/{name}/index"] == ALL_TITLES[name]
    for doc in docs:
        if re.search(r"/rule\d+", doc):
            short = titles[doc]
            assert re.match(r"^Rules? \d+", short), (doc, short)
            assert len(short) <= 48, (doc, short)
            game = next(ALL_TITLES[n] for n in ORDER if doc.startswith(f"book/{n}/"))
            assert not short.startswith(game)


@pytest.mark.parametrize("name", list(GAMES))
def test_chapter_h1_keeps_the_game_and_the_rule_id(name):
    prefix = {"citadel": "C", "indochina": "IC", "fte": "F", "ntnd": "NT"}[name]
    for doc in toc_files():
        m = re.search(r"/rule(\d+)", doc)
        if not doc.startswith(f"book/{name}/") or not m:
            continue
        h1 = page_title(doc)
        n = int(m.group(1))
        assert h1.startswith(ALL_TITLES[name] + ", Rule"), h1
        ids = re.search(r"\(([^)]*)\)", h1)
        assert ids and re.search(rf"(^|, ){prefix} {n}(\.\d+)*(,|$)", ids.group(1)), h1


def test_every_game_part_ends_with_its_exercise_page():
    docs = toc_files()
    for name in ORDER:
        mine = [d for d in docs if d.startswith(f"book/{name}/")]
        assert mine[-1] == f"book/{name}/exercises", name
        assert page_title(mine[-1]) == f"{ALL_TITLES[name]}: exercises"


def test_interactive_index_lists_every_map_and_widget():
    text = (REPO / "book" / "interactive.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\{doc\}`([^`]+)`", text))
    for doc in toc_files():
        body = (REPO / f"{doc}.md").read_text(encoding="utf-8")
        if re.search(r"^\s*show\w*\(", body, re.M) or re.search(r"import \w+Live\b", body):
            assert doc.removeprefix("book/") in linked, f"{doc} has a map or widget but is not in interactive.md"
    for target in linked:
        assert f"book/{target}" in toc_files(), target


def test_module_reads_the_repo_toc():
    assert status.REPO == REPO
    assert toc_files()[0] == "book/intro"


def test_rule_ids_of_a_page_title_become_search_entries():
    """book/_ext/rule_index.py: the ids in a chapter title's parentheses (what makes a search for "C 8" rank it)."""
    import sys
    sys.path.insert(0, str(REPO / "book" / "_ext"))
    from rule_index import rule_ids
    assert rule_ids("Citadel, Rule 8 (C 8): movement and opportunity fire") == ["C 8"]
    assert rule_ids("Indochina, Rules 5 and 7 (IC 5, IC 7): x") == ["IC 5", "IC 7"]
    assert rule_ids("Front Toward Enemy, Rule 8 (F 8.0): the assault") == ["F 8.0"]
    assert rule_ids("Rules coverage (by section)") == []
    assert rule_ids("No parentheses") == []
