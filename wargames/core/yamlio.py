"""The one safe YAML reader, used by every data loader and by saved games.

Data files are typed in by game owners and saves are shared between players, so a file is read as untrusted
input, in bounded time and memory:

- libyaml's ``CSafeLoader`` where it is installed (about ten times faster), the pure-Python ``SafeLoader``
  otherwise (Pyodide);
- a size cap (:data:`MAX_BYTES`), checked before the file is read;
- bytes that are not UTF-8, anchors and aliases (no data file needs them, and a few hundred bytes of them
  expand into gigabytes), merge keys, duplicate keys, unhashable keys and nesting deeper than
  :data:`MAX_DEPTH` are refused.

Every refusal is a :class:`~wargames.core.errors.DataError` with the file, the line and the column. Mappings and
lists come back as :class:`Mapping` and :class:`Sequence`, plain ``dict`` and ``list`` that also remember
where each entry was written, so that a later check (:mod:`wargames.core.schema`) can name the line.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from .errors import DataError

MAX_BYTES = 4_000_000       # the largest shipped file is 12 kB; a save of 20,000 actions is about 2 MB
MAX_DEPTH = 48              # the deepest shipped file nests 6 levels

class Mapping(dict):
    """A YAML mapping that remembers the (line, column) of itself and of each key."""

    __slots__ = ("mark", "marks")


class Sequence(list):
    """A YAML list that remembers the (line, column) of itself and of each item."""

    __slots__ = ("mark", "marks")


def _mark(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Refused(Exception):
    def __init__(self, node, reason: str):
        self.node, self.reason = node, reason


def _check_tree(root, depth: int = 1, seen: set[int] | None = None) -> None:
    """Walk a composed node graph without recursion, from ``depth``: a node reached twice (also against
    ``seen``) is an alias; bound the depth."""
    seen = set() if seen is None else seen
    stack = [(root, depth)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            raise _Refused(node, _ALIAS)
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise _Refused(node, _DEEP)
        if isinstance(node, SequenceNode):
            stack.extend((item, depth + 1) for item in node.value)
        elif isinstance(node, MappingNode):
            for key, value in node.value:
                if key.tag == _MERGE:
                    raise _Refused(key, _MERGED)
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))


_MAP, _SEQ, _STR = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_SCALARS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("int", "float", "bool", "null"))
_ALIAS = "uses an anchor and alias (&name / *name); write the values out instead"
_DEEP = f"nests deeper than {MAX_DEPTH} levels"
_MERGED = "uses a merge key (<<); write the values out instead"
_TAG_MEMO = 4096        # implicit tags remembered per class (remembering_tags)


def remembering_tags(base: type) -> type:
    """``base``, a PyYAML loader or dumper, with the implicit tags of plain scalars (int, bool, null, ...)
    remembered per text: with no path resolver added (as here), a tag depends on the text alone, and a data
    file repeats its words and numbers. Texts of up to 64 characters are kept, at most 4,096 per class."""
    tags: dict[str, str] = {}

    class Remembering(base):
        def resolve(self, kind, value, implicit):
            if kind is ScalarNode and implicit[0] and not self.yaml_path_resolvers:
                tag = tags.get(value)
                if tag is None:
                    tag = base.resolve(self, kind, value, implicit)
                    if len(tags) < _TAG_MEMO and len(value) <= 64:
                        tags[value] = tag
                return tag
            return base.resolve(self, kind, value, implicit)

    return Remembering


def _loader_class(base: type) -> type:
    """A safe loader on ``base`` with marked containers, refused duplicates and a node-graph check."""

    class Loader(remembering_tags(base)):
        def get_single_data(self):
            node = self.get_single_node()
            if node is None:
                return None
            return self.build(node, 1, set())

        def build(self, node, depth=1, seen=None):
            """The value of ``node``, built directly while checking the graph: a node reached twice is an alias,
            and the depth is bounded, so none of the generic constructor's bookkeeping for recursive
            structures is needed."""
            if seen is None:            # met under another tag through the generic constructor (a !!set)
                _check_tree(node, depth)
                seen = set()
            if id(node) in seen:
                raise _Refused(node, _ALIAS)
            seen.add(id(node))
            if depth > MAX_DEPTH:
                raise _Refused(node, _DEEP)
            tag = node.tag
            if tag == _STR:
                return node.value
            if tag == _MAP:
                out = Mapping()
                marks = {}
                out.mark, out.marks = _mark(node), marks
                inner = depth + 1
                for key_node, value_node in node.value:
                    if key_node.tag == _MERGE:
                        raise _Refused(key_node, _MERGED)
                    key = self.build(key_node, inner, seen)
                    try:
                        hash(key)
                    except TypeError:
                        raise _Refused(key_node, "is a key that is a list or mapping; keys must be plain values") \
                            from None
                    if key in out:
                        first = marks[key][0]
                        raise _Refused(key_node, f"repeats the key {short(key)} (first written on line {first})")
                    start = key_node.start_mark
                    marks[key] = start.line + 1, start.column + 1
                    out[key] = self.build(value_node, inner, seen)
                return out
            if tag == _SEQ:
                out = Sequence()
                items = node.value
                out.mark, out.marks = _mark(node), [_mark(n) for n in items]
                inner = depth + 1
                out.extend([self.build(n, inner, seen) for n in items])
                return out
            if tag in _SCALARS:
                return self.yaml_constructors[tag](self, node)
            if not isinstance(node, ScalarNode):    # a !!set, say: its graph is checked before it is built
                seen.discard(id(node))
                _check_tree(node, depth, seen)
            return self.construct_object(node, deep=True)   # any other tag: the safe constructor's answer

        if base is yaml.SafeLoader:
            def compose_node(self, parent, index):
                """The pure-Python composer recurses once per level: stop it before Python's limit does."""
                self._depth = getattr(self, "_depth", 0) + 1
                try:
                    if self._depth > MAX_DEPTH:
                        raise _Refused(self.peek_event(), _DEEP)
                    return base.compose_node(self, parent, index)
                finally:
                    self._depth -= 1

    # A mapping or list met under another tag (a !!set, say) is built the same way.
    Loader.add_constructor(_MAP, Loader.build)
    Loader.add_constructor(_SEQ, Loader.build)
    return Loader


#: The loaders: libyaml's where it is installed, and the pure-Python one (Pyodide; also tested here).
LOADERS = {"pure": _loader_class(yaml.SafeLoader)}
if hasattr(yaml, "CSafeLoader"):
    LOADERS["libyaml"] = _loader_class(yaml.CSafeLoader)
DEFAULT_LOADER = "libyaml" if "libyaml" in LOADERS else "pure"


def short(value: Any, limit: int = 40) -> str:
    """A bounded repr for messages (a value in a message must never expand an alias graph or a huge list)."""
    if isinstance(value, (dict, list, tuple, set)):
        return f"a {type(value).__name__} of {len(value)}"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def parse_yaml(text: str, source: str = "<string>", loader: str = DEFAULT_LOADER) -> Any:
    """Parse YAML text with every refusal of :func:`read_yaml`, except the size cap."""
    loader = LOADERS[loader](text)
    try:
        return loader.get_single_data()
    except _Refused as e:
        line, col = _mark(e.node)
        raise DataError(source, "(file)", e.reason, line, col) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise DataError(source, "(file)", f"is not valid YAML: {problem}",
                        mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
    except RecursionError:           # a last guard; MAX_DEPTH should stop every nest first
        raise DataError(source, "(file)", f"nests deeper than {MAX_DEPTH} levels") from None
    finally:
        loader.dispose()


def read_yaml(path: str | Path, max_bytes: int = MAX_BYTES, loader: str = DEFAULT_LOADER) -> Any:
    """Read a YAML (or JSON) file safely; every problem raises DataError naming the file and the line."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > max_bytes:
            raise DataError(p, "(file)", f"is {size:,} bytes; a data file may be at most {max_bytes:,}")
        with p.open("rb") as f:
            raw = f.read(max_bytes + 1)
    except OSError as e:
        raise DataError(p, "(file)", f"cannot be read: {e.strerror or e}") from None
    if len(raw) > max_bytes:            # grew while we looked
        raise DataError(p, "(file)", f"is more than {max_bytes:,} bytes, the most a data file may be")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise DataError(p, "(file)", f"is not UTF-8 text (byte {raw[e.start]:#04x})", line, col) from None
    return parse_yaml(text, str(p), loader)


def mark_of(container: Any, key: Any) -> tuple[int, int] | None:
    """Where ``container[key]`` was written, if the container came from :func:`read_yaml`."""
    marks = getattr(container, "marks", None)
    if marks is None:
        return None
    if isinstance(container, Sequence):
        return marks[key] if isinstance(key, int) and 0 <= key < len(marks) else None
    return marks.get(key)


def locate(root: Any, path: str) -> tuple[int, int] | None:
    """The line and column of a field path such as ``sides.FEF.deployment[2].units[0]`` (the deepest part
    of it that exists), or None for data that did not come from a file."""
    import re
    best = getattr(root, "mark", None)
    node = root
    for m in re.finditer(r"\[([^\]]*)\]|([^.\[\]]+)", path):
        token = m.group(1) if m.group(1) is not None else m.group(2)
        if isinstance(node, list):
            try:
                key = int(token)
            except ValueError:
                break
        elif isinstance(node, dict):
            key = next((k for k in node if str(k) == token), None)
            if key is None:
                break
        else:
            break
        here = mark_of(node, key)
        if here is None:
            break
        best, node = here, node[key]
    return best


_LOADED: dict[tuple, Any] = {}


def load_once(loader: Callable[..., Any], path: str | Path, *args: Any) -> Any:
    """``loader(path, *args)``, run once per version of the file and handed out as a deep copy.

    A version is the file (its device and inode) with its size and modification time: an edited file is read
    again, and two names of one file share it. The copy means no caller ever sees a change another caller
    made. Errors are not kept: a bad file raises every time.
    Immutable values (hexes, cells, provenance) deep-copy as themselves, so a copy costs little.
    """
    p = Path(path)
    try:
        st = p.stat()
    except OSError as e:
        from .errors import DataError
        raise DataError(p, "(file)", f"cannot be read: {e.strerror or e}") from None
    key = (loader, st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size, args)     # the file, however it is named
    if key not in _LOADED:
        _LOADED[key] = loader(p, *args)
    return copy.deepcopy(_LOADED[key])
