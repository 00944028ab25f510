"""Status of each game in this edition, generated from the rules registry and the table of contents.

The intro's status table, the game overview pages and the coverage appendix call these functions when
the book is built, so what they say about a game (how many sections are implemented, which rules have a
chapter, which rules are not written yet) is counted from ``wargames/<game>/rules_index.py`` and from
``_toc.yml`` and cannot fall behind them.

A game that has a rules index but no ``Game`` yet (:data:`wargames.games.INDEXED`, empty in this edition since
No Trumpets No Drums gained its ``Game``) is reported with its sections and counts, and as having no playable
engine.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from wargames.core.yamlio import read_yaml

from wargames.games import GAMES, INDEXED, INDEXED_TITLES, TITLES, sections

REPO = Path(__file__).resolve().parents[1]

# Every game the book covers, in the order of the book. Only games in GAMES have an engine.
ORDER = ("citadel", "indochina", "fte", "ntnd")
ALL_TITLES = {**TITLES, **INDEXED_TITLES}
SUBJECTS = {
    "citadel": "Dien Bien Phu, 1954: battalions, batteries and strongpoints",
    "indochina": "The First Indochina War, 1945-1954: the whole theatre, odds-based combat",
    "fte": "US and NVA/VC companies in a firefight, one d10, activation by chits",
    "ntnd": "The Vietnam War, 1965-1975, at the strategic scale: corps areas, politics, two-month turns",
}

# "C 8", "IC 13.22", "F 7.3.2", "C 14.B", "NT 8.2 Note": the rule number is the first number after the prefix
# (an unnumbered rule text of No Trumpets No Drums belongs to the rule it stands in).
_NUMBERED = re.compile(r"^[A-Z]+ (\d+)(?:\.[0-9A-Z]+)*(?: Note| Preamble)?$")
_FILE_RULE = re.compile(r"^rule(\d+)")


def rule_number(section_id: str) -> int | None:
    """The rule a numbered section belongs to (``"C 9.3"`` -> 9); None for charts, errata, scenarios."""
    m = _NUMBERED.match(section_id)
    return int(m.group(1)) if m else None


def toc_files(toc: Path | None = None) -> list[str]:
    """Every page of the book in reading order, as ``_toc.yml`` lists it (``book/citadel/rule08``)."""
    data = read_yaml(toc or REPO / "_toc.yml")
    out = [data["root"]]

    def walk(entries):
        for entry in entries or ():
            if "file" in entry:
                out.append(entry["file"])
            walk(entry.get("sections"))

    for part in data.get("parts", ()):
        walk(part.get("chapters"))
    walk(data.get("chapters"))
    return out


def toc_titles(toc: Path | None = None) -> dict[str, str]:
    """The sidebar title given to a page in ``_toc.yml`` (pages without one are left out)."""
    data = read_yaml(toc or REPO / "_toc.yml")
    out: dict[str, str] = {}

    def walk(entries):
        for entry in entries or ():
            if "file" in entry and "title" in entry:
                out[entry["file"]] = entry["title"]
            walk(entry.get("sections"))

    for part in data.get("parts", ()):
        walk(part.get("chapters"))
    walk(data.get("chapters"))
    return out


def page_title(doc: str, root: Path | None = None) -> str:
    """The first ``# `` heading of a page (its H1, the title Sphinx indexes for search)."""
    for line in ((root or REPO) / f"{doc}.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    raise ValueError(f"{doc}.md has no H1 line")


def ranges(numbers) -> str:
    """``[1, 2, 3, 5, 7, 8]`` -> ``"1-3, 5, 7-8"``."""
    nums = sorted(set(numbers))
    out: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else f"{nums[i]}-{nums[j]}")
        i = j + 1
    return ", ".join(out)


@dataclass(frozen=True)
class GameStatus:
    """What this edition holds of one game."""

    name: str
    title: str
    engine: bool                  # a package in wargames.games.GAMES (it has a Game)
    sections: int                 # sections in the game's rules index (0: no index)
    implemented: int
    planned: int
    no_rules: int
    chapters: tuple[str, ...]     # the game's pages in _toc.yml, reading order
    rules: tuple[int, ...]        # every numbered rule of the index
    written: tuple[int, ...]      # rules with a chapter of their own

    @property
    def unwritten(self) -> tuple[int, ...]:
        """Numbered rules that have no chapter yet."""
        return tuple(n for n in self.rules if n not in self.written)

    def summary(self) -> str:
        """One line for a status table, in words."""
        if not self.engine and not self.sections:
            return "not implemented yet: no rules index and no engine in this edition"
        text = f"{self.implemented} of {self.sections} sections implemented"
        if not self.engine:
            return (f"no playable engine yet; its rules index lists {self.sections} sections: "
                    f"{self.implemented} with a tested procedure (not yet reachable in play), {self.planned} planned, "
                    f"{self.no_rules} with nothing to execute")
        if self.planned:
            text += f", {self.planned} planned"
        if self.written:
            text += f"; chapters for Rules {ranges(self.written)}"
        if self.unwritten:
            text += f"; Rules {ranges(self.unwritten)} not written yet"
        else:
            text += "; every rule has a chapter"
        return text


def _chapter_rules(doc: str, prefix_ids: set[str], root: Path) -> set[int]:
    """Rules a page is the chapter of: its file name (``rule07b`` -> 7) and the rule ids in its H1."""
    found: set[int] = set()
    m = _FILE_RULE.match(doc.rsplit("/", 1)[-1])
    if m:
        found.add(int(m.group(1)))
    title = page_title(doc, root)
    for rid in prefix_ids:
        n = rule_number(rid)
        if n is not None and re.search(r"(?<![\w.])" + re.escape(rid) + r"(?![\w]|\.\d)", title):
            found.add(n)
    return found


def game_status(name: str, toc: Path | None = None, root: Path | None = None) -> GameStatus:
    """The status of one game, counted from its rules index and the table of contents."""
    root = root or REPO
    docs = [d for d in toc_files(toc) if d.startswith(f"book/{name}/")]
    if name not in GAMES and name not in INDEXED:
        return GameStatus(name, ALL_TITLES[name], False, 0, 0, 0, 0, tuple(docs), (), ())
    index = list(sections(name))
    ids = {s.id for s in index}
    rules = sorted({n for s in index if (n := rule_number(s.id)) is not None})
    written: set[int] = set()
    for doc in docs:
        written |= _chapter_rules(doc, ids, root)
    count = {status: sum(s.status == status for s in index) for status in ("implemented", "planned", "no-rules")}
    return GameStatus(name, ALL_TITLES[name], name in GAMES, len(index), count["implemented"], count["planned"],
                      count["no-rules"], tuple(docs), tuple(rules), tuple(n for n in rules if n in written))


def all_status(toc: Path | None = None, root: Path | None = None) -> list[GameStatus]:
    return [game_status(name, toc, root) for name in ORDER]


def overview_doc(name: str, toc: Path | None = None) -> str | None:
    """The first page of a game's part (its overview), or None if the book has no page for it."""
    docs = [d for d in toc_files(toc) if d.startswith(f"book/{name}/")]
    return docs[0] if docs else None


def status_markdown(rows: list[GameStatus], link=None) -> str:
    """The status table of the intro: one row per game. ``link(doc, text)`` turns a page into a link."""
    lines = ["| Game | Subject | Status in this edition |", "|---|---|---|"]
    for st in rows:
        first = st.chapters[0] if st.chapters else None
        title = f"*{st.title}*"
        if link is not None and first is not None:
            title = link(first, title)
        lines.append(f"| {title} | {SUBJECTS[st.name]} | {st.summary()} |")
    return "\n".join(lines)


def unwritten_markdown(st: GameStatus) -> str:
    """The sections of a game's rules that have no chapter yet, with what the registry says of each."""
    if not st.sections:
        return f"*{st.title}* has no rules index in this edition, so no section of it is registered yet."
    lines = ["| Section | Title | Status |", "|---|---|---|"]
    for s in sections(st.name):
        n = rule_number(s.id)
        if n is not None and n in st.unwritten:
            if s.status == "implemented":
                status = "implemented"
            else:
                status = s.reason if s.reason.startswith(s.status) else f"{s.status}: {s.reason}"
            lines.append(f"| {s.id} | {s.title} | {status} |")
    return "\n".join(lines)


def overview_markdown(st: GameStatus) -> str:
    """The status paragraph of a game's overview page."""
    def are(n: int) -> str:
        return f"{n} is" if n == 1 else f"{n} are"

    if not st.engine and not st.sections:
        return (f"**Status in this edition:** {st.summary()}. The rules registry holds no section of "
                f"*{st.title}*: no rules index lists its sections, no code registers a rule of it, and no "
                f"test is marked with one. Its part of the book has this page only.")
    if not st.engine:
        return (f"**Status in this edition:** {st.summary()}. There is no `Game` for *{st.title}* yet, so "
                "nothing plays, fuzzes or replays it: its implemented sections are building blocks the engine will "
                "use, and the coverage appendix lists every section with its status.")

    parts = [f"**Status in this edition:** {st.implemented} of the {st.sections} sections of the rules index "
             f"are implemented, {are(st.planned)} planned for a later edition and {st.no_rules} "
             f"{'holds' if st.no_rules == 1 else 'hold'} nothing to execute."]
    if st.unwritten:
        parts.append(f"Rules {ranges(st.written)} have chapters; Rules {ranges(st.unwritten)} are not written "
                     "yet (some of their sections may already be implemented where an earlier rule needs them; "
                     "the coverage appendix lists each one).")
    else:
        parts.append(f"Every numbered rule (Rules {ranges(st.written)}) has a chapter.")
    return " ".join(parts)
