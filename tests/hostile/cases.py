"""The machinery of the hostile-input suite.

Each game declares its loaders as :class:`Loader` entries: a name, a good sample file, and ``load(path)``, which
reads a file of that type the way the game does (a chart, a map, a scenario, a FRAGO, a save). The suite then
feeds every loader the same hostile files, and mutates every field of each sample (:func:`mutations`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

from wargames.core.yamlio import read_yaml, remembering_tags

from .. import yamlc


@dataclass(frozen=True)
class Loader:
    """One loader: ``load(path)`` reads a file like ``sample``.

    ``sample`` may be a function that writes the sample and returns its path (a save made by playing).
    """

    name: str
    sample: Path | Callable[[], Path]
    load: Callable[[Path], Any]

    def sample_path(self) -> Path:
        return self.sample if isinstance(self.sample, Path) else self.sample()

    def __str__(self) -> str:
        return self.name


def plain(value: Any) -> Any:
    """A copy of data read by the safe reader as plain dicts and lists (for ``yaml.safe_dump``)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def sample_data(loader: Loader) -> Any:
    return plain(read_yaml(loader.sample_path()))


DUMPER = remembering_tags(yamlc.DUMPER)


def represent(data: Any) -> yaml.Node:
    """The YAML node graph of ``data`` as ``yaml.dump(..., sort_keys=False)`` makes it (rebuilt first, so that an
    object used twice is not written as an alias)."""
    return yaml.representer.SafeRepresenter(sort_keys=False).represent_data(plain(data))


def emit(node: yaml.Node) -> str:
    """The YAML text of a node graph, as ``yaml.dump(..., allow_unicode=True)`` writes it."""
    return yaml.serialize(node, Dumper=DUMPER, allow_unicode=True)


def write(path: Path, data: Any) -> Path:
    """Write ``data`` as YAML."""
    path.write_text(emit(represent(data)), encoding="utf-8")
    return path


def leaves(data: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every (path, value) in the document, containers included (a path is a tuple of keys and indices)."""
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from leaves(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from leaves(v, path + (i,))


def dotted(path: tuple) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) or not str(p).isidentifier() else (f".{p}" if out else str(p))
    return out


def replaced(data: Any, path: tuple, value: Any) -> Any:
    """``data`` with the value at ``path`` replaced: the containers along the path are copied, the rest shared
    (nothing here changes a document in place, and :func:`write` rebuilds what it writes)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    new = dict(data) if isinstance(data, dict) else list(data)
    new[head] = replaced(data[head], rest, value)
    return new


def replaced_node(data: Any, node: yaml.Node, path: tuple, value: Any) -> yaml.Node:
    """The node graph of ``replaced(data, path, value)`` from ``node``, the graph of ``data``: the nodes along the
    path are copied and only ``value`` is represented, so a mutated document is written without representing
    the whole of it again (the text is the same)."""
    if not path:
        return represent(value)
    head, rest = path[0], path[1:]
    items = list(node.value)
    if isinstance(node, yaml.MappingNode):
        i = list(data).index(head)
        items[i] = (items[i][0], replaced_node(data[head], items[i][1], rest, value))
        return yaml.MappingNode(node.tag, items, flow_style=node.flow_style)
    items[head] = replaced_node(data[head], items[head], rest, value)
    return yaml.SequenceNode(node.tag, items, flow_style=node.flow_style)


UNKNOWN_KEY = "zz_not_a_field"


def changes(data: Any) -> Iterator[tuple[str, str, tuple, Any]]:
    """(field path, what is done, where in the document, the new value) for every field of ``data``."""
    for path, value in leaves(data):
        where = dotted(path) or "(top level)"
        if isinstance(value, dict):
            yield where, "unknown key", path, {**value, UNKNOWN_KEY: 1}
        if not path:
            continue
        if isinstance(value, bool):
            yield where, "bool -> text", path, "no"
        elif isinstance(value, int):
            yield where, "int -> text", path, "seven"
            yield where, "int -> -10**6", path, -10 ** 6
            yield where, "int -> 10**6", path, 10 ** 6
        elif isinstance(value, str):
            yield where, "text -> int", path, 10 ** 6
            yield where, "text -> long text", path, "x" * 30_000
        elif isinstance(value, (list, dict)):
            yield where, f"{type(value).__name__} -> int", path, 7


def mutations(data: Any) -> Iterator[tuple[str, str, Any]]:
    """(field path, what was done, the mutated document) for every field of ``data``: the plain form of
    :func:`distinct_mutations`, which writes each shape of change once and only the entry it changes.

    - a whole number becomes text, a negative million and a million (no field of any file takes those);
    - text becomes a number (a million: where a field takes a word or a number, no number is that big) and
      a 30,000-character string;
    - true/false becomes the text "no";
    - a list or mapping becomes a number;
    - every mapping gains a key that no file type has.
    """
    for where, what, path, value in changes(data):
        yield where, what, (replaced(data, path, value) if path else value)


def shape(where: str) -> str:
    """A field path with list indices and label keys (hexes, rolls, columns) replaced by ``*``: mutating one
    field of each shape covers every kind of field without mutating all 400 hexes of a map."""
    return re.sub(r"\[[^\]]*\]", "[*]", where)


def distinct_mutations(data: Any, seen: set | None = None) -> list[tuple[str, str, str]]:
    """:func:`mutations`, one per field shape and kind of change, each as the YAML text of the mutated
    document. ``seen``: the (shape, change) pairs already made, say in another sample of the same file type
    (it is updated), which are not made again."""
    seen = set() if seen is None else seen
    out = []
    node = represent(data)
    sections = _sections(node)
    for where, what, path, value in changes(data):
        key = (shape(where), what)
        if key not in seen:
            seen.add(key)
            if path and sections:                       # only the top-level entry that changes is written again
                i = list(data).index(path[0]) if isinstance(node, yaml.MappingNode) else path[0]
                changed = _section(node, i, replaced_node(data, node, path, value).value[i])
                text = "".join(sections[:i]) + changed + "".join(sections[i + 1:])
            else:
                text = emit(replaced_node(data, node, path, value))
            out.append((where, what, text))
    return out


def _section(node: yaml.Node, i: int, item: Any) -> str:
    """The text of the ``i``-th top-level entry of a document (a key and its value, or a list item) with
    ``item`` in its place."""
    return emit(type(node)(node.tag, [item], flow_style=node.flow_style))


def _sections(node: yaml.Node) -> list[str] | None:
    """The text of each top-level entry of a block mapping or list: joined, they are the whole document (each
    ends its own lines, and a collection at the top has no end marker), so a mutation writes one again."""
    if not isinstance(node, yaml.CollectionNode) or node.flow_style or not node.value:
        return None
    return [_section(node, i, item) for i, item in enumerate(node.value)]
