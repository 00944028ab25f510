"""Hostile inputs to every loader and to saved games: each must end in a DataError naming the place.

The loaders are declared in ``tests/hostile/<game>.py``; each comes with a good sample. Every loader is fed
an alias bomb, a huge fill rectangle, deep nesting, a 50 MB file, bytes that are not UTF-8, a duplicated key,
and a wrong type or an out-of-range value in every shape of field of its file type; plus random replacements
drawn by Hypothesis. Every case must raise DataError (never another exception), name the field and its line,
and leave nothing behind: the sample loads the same before and after. How long each case takes is measured by
``benchmarks/hostile.py`` (``make bench``), not asserted here: a wall-clock limit fails on a busy machine or
under Pyodide whatever the code does, and a loader doing unbounded work (a fill of 10**18 hexes) never ends,
which the test layer's timeout reports.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wargames.core.bots import RandomBot, play
from wargames.core.dice import ScriptedDice
from wargames.core.errors import DataError
from wargames.games import game_class

from .hostile import cases
from .hostile.cases import Loader, distinct_mutations, leaves, replaced, sample_data, write
from .hostile import citadel as hostile_citadel, core as hostile_core, fte as hostile_fte
from .hostile import indochina as hostile_indochina, ntnd as hostile_ntnd

LOADERS: list[Loader] = (hostile_core.LOADERS + hostile_citadel.LOADERS + hostile_fte.LOADERS
                         + hostile_indochina.LOADERS + hostile_ntnd.LOADERS)
IDS = [lo.name for lo in LOADERS]

pytestmark = pytest.mark.rule()


def refused(loader: Loader, path: Path) -> DataError:
    """Load ``path``; it must raise DataError, which is returned."""
    try:
        loader.load(path)
    except DataError as e:
        return e
    except Exception as e:      # noqa: BLE001 - the point of the suite
        raise AssertionError(f"{loader}: {path.name}: {type(e).__name__} instead of DataError: {e}") from e
    raise AssertionError(f"{loader}: {path.name} was accepted")


def fingerprint(loader: Loader) -> str:
    return repr(loader.load(loader.sample_path()))


def test_every_file_type_has_a_loader_in_the_suite():
    names = {lo.name for lo in LOADERS}
    assert len(names) == len(LOADERS), "two loaders share a name"
    for kind in ("save", "map", "scenario", "FRAGO", "chart"):
        assert any(kind in n for n in names), kind


@pytest.fixture(scope="module")
def hostile_files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("hostile")
    bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8))
    files = {"alias bomb": bomb.encode(), "deep nesting": b"a: " + b"[" * 100_000 + b"]" * 100_000,
             "deep block nesting": b"a:\n" + b"".join(b"  " * i + b"- \n" for i in range(1, 300))}
    out = {}
    for name, data in files.items():
        out[name] = d / f"{name.replace(' ', '_')}.yaml"
        out[name].write_bytes(data)
    big = d / "fifty_mb.yaml"
    with big.open("wb") as f:
        line = b"- " + b"x" * 98 + b"\n"
        f.write(line * 500_000)
    out["50 MB file"] = big
    return out


@pytest.mark.parametrize("loader", LOADERS, ids=IDS)
@pytest.mark.parametrize("case", ["alias bomb", "deep nesting", "deep block nesting", "50 MB file"])
def test_hostile_file(loader, case, hostile_files):
    err = refused(loader, hostile_files[case])
    assert err.field == "(file)" and (err.line is not None or case == "50 MB file"), str(err)


@pytest.mark.parametrize("loader", LOADERS, ids=IDS)
def test_not_utf8_duplicate_key_and_huge_fill(loader, tmp_path):
    text = loader.sample_path().read_bytes()
    cut = text.index(b"\n", len(text) // 2) + 1
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(text[:cut] + b"# caf\xe9\n" + text[cut:])
    err = refused(loader, bad)
    assert "UTF-8" in err.reason and err.line == text[:cut].count(b"\n") + 1

    data = sample_data(loader)
    first = next(iter(data))
    dup = tmp_path / "duplicate.yaml"
    dup.write_text(dup_text := write(tmp_path / "x.yaml", data).read_text() + f"{first}: 1\n")
    err = refused(loader, dup)
    assert "repeats the key" in err.reason and "line 1" in err.reason
    assert err.line == dup_text.count("\n")

    fill = {"cols": [0, 10 ** 9], "rows": [0, 10 ** 9], "terrain": "clear"}
    err = refused(loader, write(tmp_path / "fill.yaml", {**data, "fill": fill}))
    assert err.line is not None


def _file_types(loaders: list[Loader]) -> dict[str, list[Loader]]:
    """The loaders by file type: those that share a load function (the four NTND scenarios, the three FTE
    FRAGOs, ...) are one type, named by the first of them."""
    types: dict = {}
    for lo in loaders:
        types.setdefault(lo.load, []).append(lo)
    return {group[0].name + (f" (and {len(group) - 1} more)" if len(group) > 1 else ""): group
            for group in types.values()}


FILE_TYPES = _file_types(LOADERS)


@pytest.mark.parametrize("kind", FILE_TYPES)
def test_every_field_wrong_type_or_out_of_range(kind, tmp_path):
    """One wrong type and out-of-range value per shape of field of a file type, each a DataError placed at a
    line. The samples of one type are taken in turn, and each mutates only the shapes of field that the
    samples before it did not have (the loader checks a shape of field the same way in every file)."""
    problems, made, seen = [], 0, set()
    for loader in FILE_TYPES[kind]:
        before = fingerprint(loader)
        muts = distinct_mutations(sample_data(loader), seen)
        made += len(muts)
        for i, (where, what, text) in enumerate(muts):
            path = tmp_path / f"m{i}.yaml"
            path.write_text(text, encoding="utf-8")
            try:
                err = refused(loader, path)
            except AssertionError as e:
                problems.append(f"{loader}: {where} ({what}): {e}")
                continue
            if err.line is None or err.field in ("", "(file)"):
                problems.append(f"{loader}: {where} ({what}): the error names no field and line: {err}")
        assert fingerprint(loader) == before, f"{loader}: a refused file changed what the sample loads to"
    assert not problems, f"{len(problems)} of {made} mutations:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("doc", [
    {"a": 1, "é long": ["x " * 60, {"b": [], "c": {}}], "d": [{"e": True, "f": None}, 2.5], "g": "dé"},
    [{"a": [1, 2]}, "text", [], {"b": {"c": "y " * 50}}],
], ids=["mapping", "list"])
def test_a_mutated_document_is_written_as_a_whole_document_would_be(doc):
    """Only the changed top-level entry is written again: the text must be what writing the whole mutated
    document gives, for every change (wrapped long text, unicode, empty collections, a list at the top)."""
    seen, whole = set(), []
    for where, what, mutated in cases.mutations(doc):         # each mutated document, written whole
        if (cases.shape(where), what) not in seen:
            seen.add((cases.shape(where), what))
            whole.append((where, what, cases.emit(cases.represent(mutated))))
    assert len(whole) > 10 and distinct_mutations(doc) == whole


def test_file_types_group_the_samples_of_one_loader():
    assert len(FILE_TYPES) < len(LOADERS)
    assert [lo.name for lo in FILE_TYPES["ntnd campaign scenario (and 3 more)"]] == [
        "ntnd campaign scenario", "ntnd tet scenario", "ntnd year_of_the_rat scenario", "ntnd 1975 scenario"]
    assert sum(len(group) for group in FILE_TYPES.values()) == len(LOADERS)


HOSTILE_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6)


@pytest.mark.parametrize("loader", LOADERS, ids=IDS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_replacements_raise_only_data_errors(loader, tmp_path, data):
    """Any value anywhere: the file loads or raises DataError, never another exception."""
    doc = sample_data(loader)
    paths = [p for p, _ in leaves(doc) if p]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(HOSTILE_VALUES)
    target = write(tmp_path / "random.yaml", replaced(doc, path, value))
    try:
        loader.load(target)
    except DataError:
        pass


# --------------------------------------------------------------------------- saves: truncated and tampered

SAVES = [lo for lo in hostile_core.LOADERS if lo.name.endswith(" save")]


def _save_doc(loader: Loader) -> dict:
    return sample_data(loader)


@pytest.mark.parametrize("loader", SAVES, ids=[lo.name for lo in SAVES])
def test_truncated_save(loader, tmp_path):
    text = loader.sample_path().read_text()
    for cut in (len(text) // 3, len(text) // 2, len(text) - 3):
        path = tmp_path / "cut.json"
        path.write_text(text[:cut])
        err = refused(loader, path)
        assert err.line is not None, str(err)


def _with_dice(doc: dict) -> tuple[int, int]:
    return next((i, j) for i, h in enumerate(doc["history"]) for j, _ in enumerate(h["dice"]))


@pytest.mark.parametrize("loader", SAVES, ids=[lo.name for lo in SAVES])
def test_changed_die_is_noticed(loader, tmp_path):
    doc = _save_doc(loader)
    i, j = _with_dice(doc)
    old = doc["history"][i]["dice"][j]
    for new in (v for v in range(1, 7) if v != old):
        err = refused(loader, write(tmp_path / "die.json", replaced(doc, ("history", i, "dice", j), new)))
        assert err.field in ("position_digest", f"history[{i}]") or err.field.startswith("history["), str(err)
        assert err.line is not None


@pytest.mark.parametrize("loader", SAVES, ids=[lo.name for lo in SAVES])
def test_die_that_no_die_has(loader, tmp_path):
    doc = _save_doc(loader)
    i, j = _with_dice(doc)
    err = refused(loader, write(tmp_path / "d.json", replaced(doc, ("history", i, "dice", j), 99)))
    assert err.field.startswith(f"history[{i}].dice[{j}]") and "not a roll of a d" in err.reason, str(err)
    assert err.line is not None


@pytest.mark.parametrize("loader", SAVES, ids=[lo.name for lo in SAVES])
def test_action_illegal_at_its_point(loader, tmp_path):
    """A later action moved to the front, where it is illegal: refused on replay, naming that entry and line."""
    doc = _save_doc(loader)
    history = doc["history"]
    cls = game_class(loader.name.split()[0])
    start = cls.new(doc["scenario"], seed=doc["seed"])
    illegal = next(h for h in history[1:] if start.why_illegal(cls.parse_action(h["action"])) is not None)
    bad = {**doc, "history": [illegal] + history}
    err = refused(loader, write(tmp_path / "illegal.json", bad))
    assert err.field.startswith("history[0]"), str(err)
    assert err.line is not None


@pytest.mark.parametrize("loader", SAVES, ids=[lo.name for lo in SAVES])
def test_an_action_that_is_not_an_action(loader, tmp_path):
    doc = _save_doc(loader)
    err = refused(loader, write(tmp_path / "a.json", replaced(doc, ("history", 0, "action"), "teleport to=9999")))
    assert err.field == "history[0].action" and "not an action" in err.reason and err.line is not None


# --------------------------------------------------------------------------- a user's own dice

class Loaded:
    """A user's dice object that always returns one face (which may be no face of the die at all)."""

    def __init__(self, face):
        self.face = face

    def roll(self, sides=6, why="", classes=None):
        return self.face


@pytest.mark.parametrize("face", [7, 0, True, 3.0, "4"])
def test_a_custom_dice_face_is_checked_where_a_procedure_rolls(face):
    from wargames.core.dice import DiceError
    from wargames.indochina.combat import roll_on_crt
    from wargames.indochina.events import roll_event
    with pytest.raises(DiceError) as ei:
        roll_event(Loaded(face))
    assert ei.value.file == "Loaded" and "event" in ei.value.field and "d6" in ei.value.reason
    with pytest.raises(DiceError):
        roll_on_crt("Mobile", "3/1", Loaded(face))
    assert roll_event(Loaded(3)).number == 33


@pytest.mark.parametrize("name", ["citadel", "fte", "indochina"])
def test_a_custom_dice_face_is_checked_in_a_game(name):
    """The first action of a random game that rolls, taken with dice that give 11: refused, game unchanged."""
    cls = game_class(name)
    played = play(cls.new(seed=2), RandomBot(2), max_actions=200)
    k = next(i for i, h in enumerate(played.history) if h.dice)
    game = cls.new(seed=2)
    for h in played.history[:k]:
        game.apply(h.action, ScriptedDice(list(h.dice)))
    before = game.state_dict()
    for face in (11, True):
        with pytest.raises(DataError) as ei:
            game.apply(played.history[k].action, Loaded(face))
        assert "Loaded" in ei.value.file and "not a roll of a d" in ei.value.reason
        assert game.state_dict() == before and len(game.history) == k
