"""`make mutate`: a mutation check of FTE fire, opportunity fire and assault, of Citadel melee and fire, and of
No Trumpets No Drums politics, combat (morale average, fire support, terrain, outnumbering, the VC Base, armour
shock and airmobile AA bonuses, ARVN desertion, the result), AA fire and bombing.

Each mutant changes one thing in one of the procedures listed in :data:`TARGETS`: a die roll modifier or
another statement deleted, a modifier's sign inverted, a condition negated or one of its parts dropped, a
comparison shifted (``>`` to ``>=``, ``==`` to ``!=``), a number moved by one, a flag flipped. The mutant is
made with :mod:`ast` (parse, change one node, unparse) and written into a temporary copy of the package and
the tests, never into the real files; the tests of its file's or game's :data:`STAGES` then run there with ``-x``
and a timeout.
A mutant the tests do not notice survives and is printed with its file, line, mutation and source line.
:data:`EQUIVALENT` lists the few mutants that cannot change behaviour, each with its reason.

    .venv/bin/python tools/mutate.py                 # every mutant, two workers
    .venv/bin/python tools/mutate.py --list          # only list the mutants
    .venv/bin/python tools/mutate.py --match sapper  # the mutants whose line or mutation mentions "sapper"
    .venv/bin/python tools/mutate.py --quick         # the first, fast stage of tests only
    .venv/bin/python tools/mutate.py --file ntnd/combat.py --workers 1   # one target file

Exit status 1 if a mutant survived that is not in :data:`EQUIVALENT`.
"""
from __future__ import annotations

import argparse
import ast
import compileall
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]

#: The procedures mutated, by file: functions, or Class.method.
TARGETS: dict[str, tuple[str, ...]] = {
    "wargames/fte/fire.py": ("FireOutcome.need", "high", "fire_distance", "to_hit_drms"),
    "wargames/fte/checks.py": ("marker_drms", "total", "roll_against", "tq_check"),
    "wargames/fte/opfire.py": ("eligible_opfirers", "ended_activation"),
    "wargames/fte/assault.py": ("AssaultRun.fighting_attackers", "AssaultRun.fighting_defenders",
                                "AssaultRun._tq", "AssaultRun._reveal", "AssaultRun._defenders",
                                "AssaultRun._apply"),
    # Citadel: the melee's odds, morale, column modifier and terrain shifts (C 11, C 13, C 14, C 19.B), and
    # the fire's strength, terrain shift and loss-taking (C 9, C 13, C 14, C 19.C).
    "wargames/citadel/melee.py": ("raw_odds", "averaged_morale", "odds_modifier", "melee_shift"),
    "wargames/citadel/fire.py": ("fire_strength", "terrain_shift", "_capacity"),
    # NTND: the political state every rule reads (NT 22-27).
    "wargames/ntnd/politics.py": ("Policy.declare_full", "Policy.declare_partial", "Policy._may_declare", "Policy.reverse", "Policy.declare_uprising", "Policy.election_dice", "Policy.hold_election", "Policy.partial_in_effect", "Policy.win_threshold", "Policy.basic_cadres", "Policy.viet_cong_basic_cadres", "Policy.uprising_turn", "Policy.nva_division_limit", "Policy.uprising_recruits", "Policy.aid_modifiers", "Policy.replacement_pp", "Policy.us_replacement_points", "Policy.attack_pp", "Policy.points_bounds", "Policy.withdrawals", "Policy.morale_rules", "Withdrawals.points", "PoliticalTrack.add", "PoliticalTrack.winner"),
    # NTND combat: the battle's checks, morale averaging, fire support, terrain, outnumbering, the other bonuses,
    # desertion and the result (NT 19, 25.4.1, 28.7.2, 28.8, 28.9, 12.3); the terrain chart's reading and the AA
    # hit rolls (NT 19.2.3, 12.1); which units fire AA, their rolls, what a bombing needs and may destroy
    # (NT 11.1.1, 12.1, 28.9.8).
    "wargames/ntnd/combat.py": ("_check", "lone_morale", "desertion_rolls", "average_morale", "fire_support",
                                "terrain_bonus", "outnumbering", "special_bonuses", "_retreat_fates", "outcome",
                                "resolve"),
    "wargames/ntnd/charts.py": ("aa_hit_rolls", "defence_modifier"),
    "wargames/ntnd/air.py": ("aa_units", "roll_aa", "bombing_need", "bombing_victims", "resolve_bombing",
                             "airmobile_near_aa"),
}

#: The tests, in stages of pytest arguments: a mutant the first stage catches never pays for the second, which
#: also holds the slow sampling test of the first stage's file.
SLOW = "tests/test_fte_fire_assault.py::test_assault_distribution_sums_to_one_and_matches_sampling"
FTE_STAGES: tuple[tuple[str, ...], ...] = (
    ("tests/test_fte_modifiers.py", "tests/test_fte_fire_assault.py", f"--deselect={SLOW}"),
    (SLOW, "tests/test_fte_protocol.py", "tests/test_fte_actions.py", "tests/test_fte_concealment.py",
     "tests/test_fte_sites.py", "tests/test_fte_special.py", "tests/test_fte_fire_missions.py",
     "tests/test_fte_movement.py", "tests/test_fte_traps.py", "tests/test_fte_casualties.py",
     "tests/test_fte_activation.py", "tests/test_fte_properties.py", "tests/test_fte_game.py",
     "tests/test_fte_assault_exact.py",
     "tests/test_fte_events.py", "tests/test_fte_units.py", "tests/test_fte_victory.py"),
)
CITADEL_STAGES: tuple[tuple[str, ...], ...] = (
    ("tests/test_citadel_melee.py", "tests/test_citadel_golden.py", "tests/test_citadel_tanks.py",
     "tests/test_citadel_charts.py"),
    ("tests/test_citadel_entrench.py", "tests/test_citadel_game.py", "tests/test_citadel_rules.py",
     "tests/test_citadel_air.py", "tests/test_citadel_supply.py", "tests/test_citadel_return.py"),
)
NTND_STAGES: tuple[tuple[str, ...], ...] = (("tests/test_ntnd_politics.py",),)
#: NTND combat, terrain, AA and bombing: the fast combat, air and chart tests, then the game's.
NTND_COMBAT_STAGES: tuple[tuple[str, ...], ...] = (
    ("tests/test_ntnd_combat.py", "tests/test_ntnd_combat_modifiers.py", "tests/test_ntnd_engagement.py",
     "tests/test_ntnd_air.py", "tests/test_ntnd_ambush.py", "tests/test_ntnd_charts.py"),
    ("tests/test_ntnd_game.py",),
)
#: The stages of tests for each game's targets (the game is the package the target file is in), or for one
#: target file where its game's tests do not fit it.
STAGES: dict[str, tuple[tuple[str, ...], ...]] = {
    "fte": FTE_STAGES, "citadel": CITADEL_STAGES, "ntnd": NTND_STAGES,
    "wargames/ntnd/combat.py": NTND_COMBAT_STAGES, "wargames/ntnd/charts.py": NTND_COMBAT_STAGES,
    "wargames/ntnd/air.py": NTND_COMBAT_STAGES}


def game_of(file: str) -> str:
    return Path(file).parts[1]


def stages_key(file: str) -> str:
    """The key of :data:`STAGES` whose tests a target file's mutants run: the file's own, else its game's."""
    return file if file in STAGES else game_of(file)

#: Mutants that cannot change behaviour: (file, source line, mutation) -> why.
_CROWD = 'crowd = len([u for u in state.units_at(hex_) if not (u.kind == "helicopter" and u.destroyed)]) - 4'
_CROWD_WHY = "units_at already leaves destroyed helicopters out, so this filter never drops a unit"
_NT_NONE = ("a side with no unit to count stops the battle in resolve before its average is read "
            "(NT 19.2.1, 13.3), so the 0 returned is never used")
_TRIPLE = 'triple = base and winner == "allied" and winner == att and W >= 3 * L and any('
_CLASSES = "classes=lambda r: (r in need, r == 6))"
_SAME_CLASSES = "a classes key only groups the faces: negating one part of it groups them the same way"
_TRIPLE_WHY = "with a VC Base defending, the Communist side defends, so the attacker is the Allied side"
EQUIVALENT: dict[tuple[str, str, str], str] = {
    ("wargames/fte/fire.py", 'return u.kind == "helicopter" and u.altitude == "high" and not u.destroyed',
     "drop `u.kind == 'helicopter'` from the `and`"):
        "only a helicopter has an altitude (a unit with one is refused otherwise)",
    ("wargames/fte/fire.py", _CROWD, "drop `u.kind == 'helicopter'` from the `and`"): _CROWD_WHY,
    ("wargames/fte/fire.py", _CROWD, "`==` -> `!=` in `u.kind == 'helicopter'`"): _CROWD_WHY,
    ("wargames/fte/opfire.py", 'return out is not None and out.hit and out.applied not in (None, "none")',
     "drop `out.hit` from the `and`"):
        "fire() records an applied result only after a hit",
    ("wargames/fte/assault.py", "if u.on_map and not u.broken and not u.suppressed and u.hex.is_adjacent(self.hex):",
     "drop `u.hex.is_adjacent(self.hex)` from the `and`"):
        "an attacker leaves the hexes next to the target only by retreating, and a retreating unit is Broken",
    ("wargames/fte/assault.py",
     "leaders = {u.hex for u in going if u.is_leader and u.on_map and not u.suppressed}",
     "drop `u.on_map` from the `and`"):
        "a leader off the map has no hex, so he shares none with an attacker on the map",
    ("wargames/citadel/melee.py", "if attack >= defence:", "`>=` -> `>` in `attack >= defence`"):
        "at equal strengths both branches give 1:1 (attack // defence and 1 / ceil(defence / attack) are 1)",
    ("wargames/citadel/melee.py", "if column > two:", "`>` -> `>=` in `column > two`"):
        "at 2:1 itself the modifier is (column - two) // 2 = 0, the same as the fall-through",
    ("wargames/citadel/melee.py", "if column < one:", "`<` -> `<=` in `column < one`"):
        "at 1:1 itself the modifier is -((one - column) // 2) = 0, the same as the fall-through",
    ("wargames/citadel/fire.py", "return 1 - min(state.phase_losses.get(u.id, 0), 1)", "`1` -> `2`"):
        "min(n, 2) is min(n, 1) here: only a Vietminh battalion (the branch above) ever has 2 losses in a phase "
        "(this cap gates every fire loss; desertion takes one point a unit a day); `2 - min` shares the key and dies",
    # NTND combat. Types tied to a side: tanks, sappers and VC Bases are Communist counters only (counters.yaml).
    ("wargames/ntnd/combat.py", "return Fraction(0), []", "`0` -> `1`"): _NT_NONE,
    ("wargames/ntnd/combat.py", "return Fraction(0), []", "`0` -> `-1`"): _NT_NONE,
    ("wargames/ntnd/combat.py", 'sapper = b.attacker == "communist" and any(u.type == "sapper" for u in b.attackers)',
     "drop `b.attacker == 'communist'` from the `and`"):
        "a sapper is a VC unit (28.7.1), so only a Communist attack includes one",
    ("wargames/ntnd/combat.py", 'alone = base_engaged and all(u.type == "vc_base" for u in b.defenders)',
     "drop `base_engaged` from the `and`"):
        "the defenders are never empty (19.1 check), so all of them VC Bases means one is engaged; and a VC Base "
        "is Communist, so Allied defenders are never all bases",
    ("wargames/ntnd/combat.py",
     'if b.armour_shock and b.attacker == "communist" and any(u.type == "tank" for u in b.attackers):',
     "drop `b.attacker == 'communist'` from the `and`"):
        "tanks are NVA units: an Allied attack never includes one",
    ("wargames/ntnd/combat.py", 'if u.in_zone or (base_holds and u.side == "communist"):',
     "drop `u.side == 'communist'` from the `and`"):
        "the caller passes base_holds only for the Communist side's units (outcome's fates)",
    ("wargames/ntnd/combat.py",
     'base = b.defender == "communist" and any(u.type == "vc_base" for u in b.defenders)',
     "drop `b.defender == 'communist'` from the `and`"):
        "a VC Base is Communist, so it is among the defenders only when the Communist side defends",
    ("wargames/ntnd/combat.py",
     'return _retreat_fates(eng[side], enemy_of[side], enemy_support, base and side == "communist")',
     "drop `side == 'communist'` from the `and`"):
        "_retreat_fates holds in place only Communist units under base_holds, whichever side is passed",
    ("wargames/ntnd/combat.py", "winner, loser = (att, dfd) if A > D else (dfd, att)", "`>` -> `>=` in `A > D`"):
        "a tie (A == D) has returned just above",
    ("wargames/ntnd/combat.py", _TRIPLE, "drop `winner == 'allied'` from the `and`"): _TRIPLE_WHY,
    ("wargames/ntnd/combat.py", _TRIPLE, "drop `winner == att` from the `and`"): _TRIPLE_WHY,
    ("wargames/ntnd/air.py",
     'if linebacker(state.turn) and any(state.counter(u).type == "sac" and state.counter(u).nationality == "US"',
     "drop `state.counter(u).nationality == 'US'` from the `and`"):
        "the only SAC counter is US (counters.yaml): every SAC is a US SAC (11.9.1)",
    ("wargames/ntnd/air.py", 'and state.side_of(x) == "communist" for x in state.at(g.label(n))):',
     "drop `state.side_of(x) == 'communist'` from the `and`"):
        "every artillery and SAM counter is Communist (counters.yaml; the Allied guns are firebases)",
    ("wargames/ntnd/air.py", _CLASSES, "`in` -> `not in` in `r in need`"): _SAME_CLASSES,
    ("wargames/ntnd/air.py", _CLASSES, "`==` -> `!=` in `r == 6`"): _SAME_CLASSES,
    ("wargames/ntnd/air.py", _CLASSES, "`6` -> `5`"):
        "the key still parts 5 from 6; it joins 4 with 6 only when 4-6 all succeed (a US SAC over a zone under "
        "Linebacker, 11.9.1), and no VC Base, the one unit a 6 alone reaches (28.9.8), stands in a zone (28.9.3)",
}

PYTEST = ("-x", "-q", "-p", "no:cacheprovider", "-p", "no:nbval", "-p", "no:anyio")
NEGATED = {ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Eq: ast.NotEq,
           ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
SYMBOL = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!=", ast.In: "in",
          ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+", ast.Sub: "-"}


@dataclass(frozen=True)
class Mutant:
    """One mutation: where it is (file, function, line, the original source line) and what it does."""

    file: str
    func: str
    index: int          # the index-th mutation point of the function
    line: int
    source: str
    what: str

    def name(self) -> str:
        return f"{self.file}:{self.line} ({self.func}): {self.what}"

    def key(self) -> tuple[str, str, str]:
        return (self.file, self.source, self.what)


# --------------------------------------------------------------------------- finding mutation points

Change = Callable[[], None]


def _text(node: ast.AST) -> str:
    s = ast.unparse(node)
    return s if len(s) <= 60 else s[:57] + "..."


def _negate(node: ast.expr) -> ast.expr:
    return ast.UnaryOp(ast.Not(), node)


def _is_log(node: ast.AST) -> bool:
    """``res.add(...)`` or ``self.res.add(...)`` (narration) or ``RuleViolation(...)`` (a refusal's text)."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Name):
        return f.id == "RuleViolation"
    owner = f.value if isinstance(f, ast.Attribute) else None
    owner_name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
    return isinstance(f, ast.Attribute) and f.attr == "add" and owner_name == "res"


def _is_drm(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Drm" and node.args


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str)


def _int(node: ast.AST) -> int | None:
    """The value of an integer literal (``-1`` included), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and _int(node.operand) is not None:
        return -_int(node.operand)
    return None


def _literal(v: int) -> ast.expr:
    return ast.Constant(v) if v >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-v))


def _setter(parent: ast.AST, field: str, index: int | None) -> Callable[[ast.AST], None]:
    def put(new: ast.AST) -> None:
        if index is None:
            setattr(parent, field, new)
        else:
            getattr(parent, field)[index] = new
    return put


def _children(node: ast.AST) -> Iterator[tuple[ast.AST, str, int | None]]:
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, ast.AST):
                    yield v, field, i
        elif isinstance(value, ast.AST):
            yield value, field, None


def _deletable(stmt: ast.stmt) -> bool:
    """A statement whose deletion is a plausible slip: a call like ``drms.append(...)`` (not a log line), an
    augmented assignment, an assignment to an attribute, or a name updated from itself."""
    if isinstance(stmt, ast.Expr):
        return isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute) \
            and not _is_log(stmt.value)
    if isinstance(stmt, ast.AugAssign):
        return True
    if isinstance(stmt, ast.Assign):
        if any(isinstance(t, (ast.Attribute, ast.Subscript, ast.Tuple)) for t in stmt.targets):
            return True
        names = {t.id for t in stmt.targets if isinstance(t, ast.Name)}
        return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(stmt.value))
    return False


def _points(node: ast.AST, put: Callable[[ast.AST], None]) -> Iterator[tuple[ast.AST, str, Change]]:
    """Every mutation point under ``node`` as (node, description, change), in a fixed order."""
    if isinstance(node, ast.JoinedStr) or _is_log(node):
        return                                                      # messages are not rules
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return                                                      # a docstring
    # statement lists: deleting one statement
    for field in ("body", "orelse"):
        stmts = getattr(node, field, None)
        if isinstance(stmts, list):
            for i, s in enumerate(stmts):
                if isinstance(s, ast.stmt) and _deletable(s):
                    yield s, f"delete `{_text(s)}`", (lambda s=s, stmts=stmts, i=i: stmts.__setitem__(i, ast.Pass()))
    # conditions: negate (unless already a `not`, whose removal comes below)
    tests = []
    if isinstance(node, (ast.If, ast.IfExp, ast.While)):
        tests.append((node.test, "test", None))
    if isinstance(node, ast.comprehension):
        tests += [(t, "ifs", i) for i, t in enumerate(node.ifs)]
    for t, field, i in tests:
        if not (isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not)):
            yield t, f"negate `{_text(t)}`", (lambda t=t, p=_setter(node, field, i): p(_negate(t)))
    # keyword flags computed from a comparison: always True, always False
    if isinstance(node, ast.keyword) and isinstance(node.value, (ast.Compare, ast.BoolOp)):
        for v in (True, False):
            yield node.value, f"`{node.arg}={_text(node.value)}` -> `{node.arg}={v}`", \
                (lambda v=v, k=node: setattr(k, "value", ast.Constant(v)))
    if isinstance(node, ast.BoolOp):
        op = "and" if isinstance(node.op, ast.And) else "or"
        for i, part in enumerate(node.values):
            rest = node.values[:i] + node.values[i + 1:]
            new = rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)
            yield part, f"drop `{_text(part)}` from the `{op}`", (lambda new=new: put(new))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield node, f"`{_text(node)}` -> `{_text(node.operand)}`", (lambda n=node: put(n.operand))
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            other = NEGATED[type(op)]
            yield node, f"`{SYMBOL[type(op)]}` -> `{SYMBOL[other]}` in `{_text(node)}`", \
                (lambda i=i, other=other, n=node: n.ops.__setitem__(i, other()))
    if isinstance(node, ast.BinOp) and type(node.op) in (ast.Add, ast.Sub) and not _is_text(node.left):
        other = ast.Sub if isinstance(node.op, ast.Add) else ast.Add
        yield node, f"`{SYMBOL[type(node.op)]}` -> `{SYMBOL[other]}` in `{_text(node)}`", \
            (lambda n=node, other=other: setattr(n, "op", other()))
    # a Drm's value: invert its sign
    if _is_drm(node):
        v = node.args[0]
        new = _literal(-_int(v)) if _int(v) is not None else ast.UnaryOp(ast.USub(), v)
        yield v, f"invert the sign of the DRM `{_text(v)}`", (lambda n=node, new=new: n.args.__setitem__(0, new))
    # numbers one up and one down; flags flipped
    n = _int(node)
    if n is not None:
        for m in (n + 1, n - 1):
            yield node, f"`{n}` -> `{m}`", (lambda m=m: put(_literal(m)))
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        yield node, f"`{node.value}` -> `{not node.value}`", (lambda v=node.value: put(ast.Constant(not v)))
    for child, field, i in _children(node):
        if isinstance(node, ast.Subscript) and field == "slice":
            continue                                                # indices: noise, not rules
        if isinstance(node, ast.FunctionDef) and field != "body":
            continue                                                # decorators, defaults, annotations
        if _is_drm(node) and field == "args" and i > 0:
            continue                                                # a DRM's rule and reason are text
        yield from _points(child, _setter(node, field, i))


def _function(tree: ast.Module, qual: str) -> ast.FunctionDef:
    """The function ``name`` or method ``Class.name`` at the top of a module."""
    *cls, name = qual.split(".")
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls[0]).body if cls else tree.body
    return next(n for n in body if isinstance(n, ast.FunctionDef) and n.name == name)


def mutants(file: str, funcs: tuple[str, ...] | None = None) -> list[Mutant]:
    """Every mutant of one file's target procedures (or of ``funcs``), in a fixed order."""
    text = (ROOT / file).read_text(encoding="utf-8")
    lines, tree = text.splitlines(), ast.parse(text)
    out = []
    for qual in (TARGETS[file] if funcs is None else funcs):
        fn = _function(tree, qual)
        for i, (node, what, _) in enumerate(_points(fn, lambda new: None)):
            out.append(Mutant(file, qual, i, node.lineno, lines[node.lineno - 1].strip(), what))
    return out


def mutated_source(m: Mutant) -> str:
    """The source of ``m.file`` with only mutant ``m`` applied."""
    with _AST_LOCK:
        tree = ast.parse((ROOT / m.file).read_text(encoding="utf-8"))
        for i, (node, what, change) in enumerate(_points(_function(tree, m.func), lambda new: None)):
            if i == m.index:
                assert (what, node.lineno) == (m.what, m.line), (m, what, node.lineno)
                change()
                return ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    raise LookupError(f"no mutation {m.index} in {m.file} {m.func}")


#: Python 3.11's parser may fail ("AST constructor recursion depth mismatch") when threads parse at once.
_AST_LOCK = threading.Lock()


# --------------------------------------------------------------------------- running the tests on a copy

@dataclass
class Verdict:
    mutant: Mutant
    status: str         # "killed", "survived", "timeout"
    seconds: float
    detail: str = ""


LIVE: set[subprocess.Popen] = set()       # the pytest runs under way, stopped if the check is interrupted
STOP = threading.Event()


class Sandbox:
    """A temporary copy of the package and the tests (one per worker); the real tree is only read."""

    def __init__(self, base: Path):
        self.dir = Path(tempfile.mkdtemp(prefix="mutate-", dir=base))
        # The package's bytecode comes along when the real tree has it: a copy keeps each source's time, so
        # compileall finds those files current and compiles only the others (a second of work per copy saved).
        shutil.copytree(ROOT / "wargames", self.dir / "wargames")
        shutil.copytree(ROOT / "tests", self.dir / "tests", ignore=shutil.ignore_patterns("__pycache__", "browser"))
        shutil.copy2(ROOT / "pyproject.toml", self.dir / "pyproject.toml")
        compileall.compile_dir(self.dir / "wargames", quiet=1)

    def run(self, tests: tuple[str, ...], timeout: float, write_bytecode: bool = False) -> tuple[str, str]:
        env = {**os.environ, "PYTHONPATH": str(self.dir)}
        env.pop("PYTEST_ADDOPTS", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if not write_bytecode:                             # the baseline run leaves the tests' bytecode
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        p = subprocess.Popen([sys.executable, "-m", "pytest", *PYTEST, *tests], cwd=self.dir, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        LIVE.add(p)
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            return "timeout", ""
        finally:
            LIVE.discard(p)
        last = (out.strip().splitlines() or [""])[-1]
        return ("survived" if p.returncode == 0 else "killed"), last

    def check(self, m: Mutant, stages: list[tuple[tuple[str, ...], float]]) -> Verdict:
        """Run the stages against mutant ``m``, then put the copy's file back."""
        target = self.dir / m.file
        original = target.read_text(encoding="utf-8")
        for pyc in (target.parent / "__pycache__").glob(target.stem + ".*.pyc"):
            pyc.unlink()                                   # same size and second: a stale .pyc would be read
        t0 = time.perf_counter()
        status, detail = "survived", ""
        try:
            target.write_text(mutated_source(m), encoding="utf-8")
            for tests, limit in stages:
                if STOP.is_set():
                    raise KeyboardInterrupt
                status, detail = self.run(tests, limit)
                if status != "survived":
                    break
        finally:
            target.write_text(original, encoding="utf-8")
        return Verdict(m, status, time.perf_counter() - t0, detail)


def run(chosen: list[Mutant], workers: int = 2, stages: tuple[tuple[str, ...], ...] | None = None,
        echo: Callable[[str], None] = print) -> list[Verdict]:
    """Check every chosen mutant on ``workers`` sandboxes; the unmutated tests must pass first. ``stages``:
    the tests, by default those of the mutants' game (all the mutants of one run are of one game)."""
    if stages is None:
        games = {stages_key(m.file) for m in chosen}
        if len(games) != 1:
            raise ValueError(f"one set of stages at a time, not {sorted(games)}")
        stages = STAGES[games.pop()]
    base = Path(tempfile.mkdtemp(prefix="wargames-mutate-"))
    STOP.clear()
    try:
        boxes = [Sandbox(base) for _ in range(max(1, min(workers, len(chosen))))]
        timed = []                                         # (tests, timeout) for each stage
        for tests in stages:
            tests = tuple(t for t in tests if t.startswith("-") or (ROOT / t.split("::")[0]).exists())
            t0 = time.perf_counter()
            status, detail = boxes[0].run(tests, 900, write_bytecode=True)
            if status != "survived":
                raise SystemExit(f"the unmutated tests fail ({' '.join(tests)}): {detail}")
            timed.append((tests, max(60.0, 4 * (time.perf_counter() - t0))))
        free: queue.Queue[Sandbox] = queue.Queue()
        for b in boxes:
            free.put(b)

        def one(m: Mutant) -> Verdict:
            box = free.get()
            try:
                return box.check(m, timed)
            finally:
                free.put(box)

        out = []
        pool = ThreadPoolExecutor(len(boxes))
        try:
            for n, v in enumerate(pool.map(one, chosen), 1):
                out.append(v)
                flag = {"killed": "killed", "timeout": "TIMEOUT", "survived": "SURVIVED"}[v.status]
                if v.status == "survived" and v.mutant.key() in EQUIVALENT:
                    flag = "allowed"
                echo(f"[{n}/{len(chosen)}] {flag:8} {v.seconds:5.1f}s {v.mutant.name()}")
        finally:
            STOP.set()
            pool.shutdown(wait=False, cancel_futures=True)
            for p in list(LIVE):
                p.kill()
            pool.shutdown(wait=True)
        return out
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--match", default="", help="only mutants whose source line or mutation contains this")
    ap.add_argument("--file", action="append", default=[], help="only this target file (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--quick", action="store_true", help="run only the first stage of tests")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))     # clean up the copies when stopped
    files = [f for f in TARGETS if not args.file or any(f.endswith(x) for x in args.file)]
    chosen = [m for f in files for m in mutants(f)
              if args.match.lower() in (m.source + " " + m.what).lower()]
    if args.list:
        for m in chosen:
            print(f"{m.name()}\n    {m.source}")
        print(f"{len(chosen)} mutants")
        return 0
    t0 = time.perf_counter()
    verdicts = []
    for key in dict.fromkeys(stages_key(m.file) for m in chosen):
        stages = STAGES[key]
        verdicts += run([m for m in chosen if stages_key(m.file) == key], args.workers,
                        stages[:1] if args.quick else stages)
    seconds = time.perf_counter() - t0
    survivors = [v for v in verdicts if v.status == "survived" and v.mutant.key() not in EQUIVALENT]
    allowed = [v for v in verdicts if v.status == "survived" and v.mutant.key() in EQUIVALENT]
    count = lambda s: sum(v.status == s for v in verdicts)
    if survivors:
        print("\nSurvivors (the tests did not notice):")
        for v in survivors:
            print(f"  {v.mutant.name()}\n      {v.mutant.source}")
    for v in allowed:
        print(f"  equivalent, allowed: {v.mutant.name()}: {EQUIVALENT[v.mutant.key()]}")
    print(f"\nmutants {len(verdicts)}, killed {count('killed')}, survived {len(survivors)}"
          f" (+{len(allowed)} equivalent, allowed), timeouts {count('timeout')}, time {seconds:.0f} s"
          f" ({args.workers} workers)")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
