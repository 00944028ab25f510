"""The safe YAML reader (wargames.core.yamlio), with libyaml and with the pure-Python loader Pyodide uses."""
from __future__ import annotations

import pytest

from wargames.core.errors import DataError
from wargames.core.yamlio import LOADERS, MAX_DEPTH, locate, parse_yaml, read_yaml

pytestmark = pytest.mark.rule()
BOTH = pytest.mark.parametrize("loader", sorted(LOADERS))


def refused(text: str, loader: str) -> DataError:
    with pytest.raises(DataError) as ei:
        parse_yaml(text, "f.yaml", loader)
    return ei.value


def test_libyaml_is_used_where_installed():
    import yaml
    from wargames.core.yamlio import DEFAULT_LOADER
    assert DEFAULT_LOADER == ("libyaml" if hasattr(yaml, "CSafeLoader") else "pure")


@BOTH
def test_marks_of_keys_and_items(loader):
    d = parse_yaml("a: 1\nb:\n  - x: 2\n  - y: [1, 2]\n", "f", loader)
    assert d == {"a": 1, "b": [{"x": 2}, {"y": [1, 2]}]}
    assert d.marks["b"] == (2, 1) and d["b"].marks == [(3, 5), (4, 5)]
    assert locate(d, "b[1].y[1]") == (4, 12)
    assert locate(d, "b[1].nothing") == (4, 5)        # the deepest part that exists
    assert locate({"plain": 1}, "plain") is None


@BOTH
def test_duplicate_key_names_both_lines(loader):
    e = refused("a: 1\nb: 2\na: 3\n", loader)
    assert (e.line, e.column) == (3, 1) and "repeats the key 'a'" in e.reason and "line 1" in e.reason
    e = refused("top:\n  k: 1\n  k: 2\n", loader)
    assert e.line == 3


@BOTH
@pytest.mark.parametrize("text,what", [
    ("a: &x [1, 2]\nb: *x\n", "anchor and alias"),
    ("base: {a: 1}\nother:\n  <<: {b: 2}\n", "merge key"),
    ("? [1, 2]\n: 3\n", "list or mapping"),
    ("a: [1, 2\n", "not valid YAML"),
])
def test_refusals(loader, text, what):
    e = refused(text, loader)
    assert what in e.reason and e.line is not None and e.field == "(file)"


@BOTH
@pytest.mark.parametrize("text,line", [
    ("a: &x 1\nb: *x\n", 1),                                   # a scalar used twice
    ("s: !!set {? &k x}\nt: *k\n", 1),                           # from outside into a set
    ("s: !!set {? a, ? b}\nt: !!set {? &k x, ? *k}\n", 2),        # inside a set
])
def test_every_alias_is_refused_wherever_it_points(loader, text, line):
    e = refused(text, loader)
    assert "anchor and alias" in e.reason and e.line == line


@BOTH
def test_a_set_is_built_and_its_nesting_is_bounded(loader):
    assert parse_yaml("s: !!set {? a, ? b}\n", "f", loader) == {"s": {"a", "b"}}
    def nest(lists: int) -> str:       # the document is level 1, the set 2, its member's value 3
        return "s: !!set {? a : " + "[" * lists + "]" * lists + "}\n"
    assert parse_yaml(nest(MAX_DEPTH - 2), "f", loader) == {"s": {"a"}}
    assert "nests deeper than" in refused(nest(MAX_DEPTH - 1), loader).reason


@BOTH
def test_implicit_types_are_the_safe_loaders_whenever_a_text_comes_back(loader):
    """The tags of plain scalars are remembered per text; quoting still makes a string."""
    import yaml
    text = "a: [1, '1', yes, 'yes', null, ~, 1.5, 0x10, 1_000, 2024-01-02, .inf, x1, '']\nb: [1, '1', yes, 'yes']\n"
    for _ in range(2):
        assert parse_yaml(text, "f", loader) == yaml.safe_load(text)


# How fast these refusals are is measured by benchmarks/hostile.py (make bench), not asserted here: a wall-clock
# limit fails on a busy machine or under Pyodide whatever the code does. What shows the work is bounded is
# where the refusal is placed: at the first level past the limit, not after reading the whole nest.
@BOTH
def test_nesting_is_bounded(loader):
    ok = "a: " + "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2)
    parse_yaml(ok, "f", loader)
    e = refused("a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), loader)
    # the mapping is level 1, so the list at column 3 + MAX_DEPTH is the first one too deep
    assert "nests deeper than" in e.reason and (e.line, e.column) == (1, 3 + MAX_DEPTH)
    e = refused("[" * 100_000, loader)
    assert ("nest" in e.reason or "depth" in e.reason) and e.line == 1 and e.column <= 1001


@BOTH
def test_alias_bomb_is_refused_at_once(loader):
    bomb = "a: &a [1,1,1,1,1,1,1,1,1]\n" + "".join(
        f"{c}: &{c} [" + ",".join([f"*{p}"] * 9) + "]\n" for p, c in zip("abcdefgh", "bcdefghi"))
    e = refused(bomb, loader)
    assert "alias" in e.reason and (e.line, e.column) == (1, 4)      # at the first anchor, before any expansion


def test_size_cap_is_checked_before_reading(tmp_path):
    p = tmp_path / "big.yaml"
    p.write_bytes(b"- 1\n" * 1000)
    read_yaml(p)
    with pytest.raises(DataError, match="at most 3,999"):
        read_yaml(p, max_bytes=3999)


def test_not_utf8_names_line_and_column(tmp_path):
    p = tmp_path / "latin.yaml"
    p.write_bytes(b"a: 1\nname: caf\xe9\n")
    with pytest.raises(DataError) as ei:
        read_yaml(p)
    assert (ei.value.line, ei.value.column) == (2, 10) and "UTF-8" in ei.value.reason and "0xe9" in ei.value.reason


def test_missing_file(tmp_path):
    with pytest.raises(DataError, match="cannot be read"):
        read_yaml(tmp_path / "absent.yaml")


def test_load_once_reads_each_version_of_a_file_once_and_hands_out_copies(tmp_path):
    from wargames.core.yamlio import load_once
    calls = []

    def loader(path):
        calls.append(path)
        return read_yaml(path)

    p = tmp_path / "data.yaml"
    p.write_text("a: [1, 2]\n")
    first, second = load_once(loader, p), load_once(loader, str(p))
    assert len(calls) == 1 and first == second == {"a": [1, 2]}
    first["a"].append(3)                                # a caller's change shows up for no other caller
    assert load_once(loader, p) == {"a": [1, 2]} and len(calls) == 1
    (tmp_path / "alias.yaml").symlink_to(p)             # another name of the same file
    assert load_once(loader, tmp_path / "alias.yaml") == {"a": [1, 2]} and len(calls) == 1
    p.write_text("a: [1, 2, 3, 4]\n")                   # an edited file is read again
    assert load_once(loader, p) == {"a": [1, 2, 3, 4]} and len(calls) == 2


def test_load_once_keeps_no_error(tmp_path):
    from wargames.core.yamlio import load_once
    p = tmp_path / "bad.yaml"
    p.write_text("a: [1\n")
    for _ in range(2):
        with pytest.raises(DataError):
            load_once(read_yaml, p)
    with pytest.raises(DataError, match="cannot be read"):
        load_once(read_yaml, tmp_path / "missing.yaml")
