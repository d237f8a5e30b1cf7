"""Domain variants: costumed (renamed by a hand-written mapping) and anonymized (numbered names) domains.

A variant has exactly the structure of its original: every action, predicate, type, parameter and object
gets a new name and nothing else changes, so a plan is valid on one side exactly when its renamed copy is
valid on the other. See docs/variants.md for the mapping file format.

The pieces:

- :class:`Renaming` — a concrete bijection of names (for one domain and, optionally, one task), with
  :meth:`Renaming.inverse`; :func:`rename_domain`, :func:`rename_problem`, :func:`rename_plan` apply it.
- :class:`Costume` — a costume mapping (``costume.toml``) loaded by :func:`load_mapping`; it holds rules
  (exact names, and *object words* for the objects of tasks of any size) and makes a :class:`Renaming`
  per task. :meth:`Costume.check` lists every problem of a mapping at once.
- :func:`anonymize_renaming` — ``action1``, ``predicate1``, ``type1``, ``object1`` … in file order.
- :func:`build_costume_dir` and :func:`build_anonymized_dir` check everything, then write a complete
  variant domain directory; :class:`VariantGenerator` is what the variant's ``generator.py`` runs: the
  original generator, its output renamed.
"""

from __future__ import annotations

import hashlib
import os
import re
import textwrap
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomli_w

from .domainlib import DomainDir, DomainDirError, natural_key
from .errors import GenplanError
from .pddl import PddlError, load_domain, load_problem, parse_problem_text
from .pddl.fastproblem import parse_problem_fast
from .pddl.model import OBJECT, Action, Domain, Fact, Literal, Parameter, Predicate, Problem
from .pddl.plans import parse_action, parse_plan_text, plan_to_text
from .pddl.writer import domain_to_pddl, problem_to_pddl

CATEGORIES = ("actions", "predicates", "types", "variables", "objects")
OBJECT_WORDS = "object-words"
SINGULAR = {
    "actions": "action",
    "predicates": "predicate",
    "types": "type",
    "variables": "variable",
    "objects": "object",
    OBJECT_WORDS: "object word",
}
PDDL_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
WORD = re.compile(r"^[a-z]+$")
WORD_OR_GAP = re.compile(r"[a-z]+|[^a-z]+")
# Words PDDL readers treat specially: never acceptable as new names.
RESERVED = frozenset(
    {"and", "not", "or", "either", "object", "define", "domain", "problem", "forall", "exists", "imply", "when"}
)
MAPPING_FILE = "costume.toml"
ANONYMOUS_DOMAIN = "domain1"


class VariantError(GenplanError):
    """A mapping or variant that cannot be used; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


# ------------------------------------------------------------------------------------------------ Renaming
@dataclass(frozen=True)
class Renaming:
    """A bijection of names per kind. Names absent from a table are not part of this renaming."""

    domain_names: dict[str, str] = field(default_factory=dict)
    problem_names: dict[str, str] = field(default_factory=dict)
    actions: dict[str, str] = field(default_factory=dict)
    predicates: dict[str, str] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)
    variables: dict[str, str] = field(default_factory=dict)  # without the leading '?'
    objects: dict[str, str] = field(default_factory=dict)  # the domain's constants and the task's objects
    _images: dict[str, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    def tables(self) -> dict[str, dict[str, str]]:
        return {
            "domain_names": self.domain_names,
            "problem_names": self.problem_names,
            "actions": self.actions,
            "predicates": self.predicates,
            "types": self.types,
            "variables": self.variables,
            "objects": self.objects,
        }

    def inverse(self) -> Renaming:
        inverted: dict[str, Any] = {}
        for kind, table in self.tables().items():
            back = {new: old for old, new in table.items()}
            if len(back) != len(table):
                raise ValueError(f"the {kind} renaming is not injective, it has no inverse")
            inverted[kind] = back
        return Renaming(**inverted)

    # Names without an entry stay as they are unless they are a *new* name of this renaming: then they get
    # a quote appended, so that a name unknown on one side is still unknown on the other.
    def _apply(self, kind: str, name: str) -> str:
        table: dict[str, str] = getattr(self, kind)
        if name in table:
            return table[name]
        images = self._images.get(kind)
        if images is None:
            images = self._images[kind] = frozenset(table.values())
        while name in images:
            name += "'"
        return name

    def action(self, name: str) -> str:
        return self._apply("actions", name)

    def predicate(self, name: str) -> str:
        return self._apply("predicates", name)

    def type(self, name: str) -> str:
        return name if name == OBJECT else self._apply("types", name)

    def object(self, name: str) -> str:
        return self._apply("objects", name)

    def variable(self, name: str) -> str:
        return "?" + self._apply("variables", name.lstrip("?"))

    def term(self, term: str) -> str:
        """A parameter (``?x``) or a constant."""
        return self.variable(term) if term.startswith("?") else self.object(term)


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def problem_name_for(new_domain: str, old_problem: str) -> str:
    """Problem names often spell out the original domain and sizes; the variant shows neither."""
    return f"{new_domain}-{_digest(old_problem)}"


# ------------------------------------------------------------------------------------------- applying it
def rename_fact(fact: Fact, r: Renaming) -> Fact:
    if fact[0] == "=":
        return ("=", *(r.object(a) for a in fact[1:]))
    return (r.predicate(fact[0]), *(r.object(a) for a in fact[1:]))


def fact_text(fact: Fact) -> str:
    return "(" + " ".join(fact) + ")"


def rename_literal_text(text: str, r: Renaming) -> str:
    """``(at c0 l1)`` or ``(not (at c0 l1))`` as the validator reports them."""
    inner = text.strip()
    negated = inner.startswith("(not ")
    if negated:
        inner = inner[5:-1].strip()
    renamed = fact_text(rename_fact(tuple(inner[1:-1].split()), r))
    return f"(not {renamed})" if negated else renamed


def _rename_literal(lit: Literal, r: Renaming) -> Literal:
    predicate = "=" if lit.predicate == "=" else r.predicate(lit.predicate)
    return Literal(predicate, tuple(r.term(a) for a in lit.args), lit.positive)


def _rename_parameter(p: Parameter, r: Renaming) -> Parameter:
    return Parameter(r.variable(p.name), tuple(r.type(t) for t in p.types))


def rename_domain(domain: Domain, r: Renaming) -> Domain:
    predicates = {}
    for pred in domain.predicates.values():
        new = r.predicate(pred.name)
        predicates[new] = Predicate(new, tuple(_rename_parameter(p, r) for p in pred.parameters))
    actions = {}
    for action in domain.actions.values():
        new = r.action(action.name)
        actions[new] = Action(
            name=new,
            parameters=tuple(_rename_parameter(p, r) for p in action.parameters),
            preconditions=tuple(_rename_literal(lit, r) for lit in action.preconditions),
            add_effects=tuple(_rename_literal(lit, r) for lit in action.add_effects),
            del_effects=tuple(_rename_literal(lit, r) for lit in action.del_effects),
        )
    renamed = Domain(
        name=r.domain_names.get(domain.name, domain.name),
        path=None,
        requirements=domain.requirements,
        type_parents={r.type(t): (None if p is None else r.type(p)) for t, p in domain.type_parents.items()},
        constants=[(r.object(c), r.type(t)) for c, t in domain.constants],
        predicates=predicates,
        actions=actions,
    )
    renamed.source = domain_text(renamed)
    return renamed


def domain_text(domain: Domain) -> str:
    """The domain as PDDL via the writer, with the types whose parent is ``object`` listed last.

    The writer leaves out ``- object``, so such a type written before a group like ``a b - c`` would
    join that group and become a subtype of ``c``; listed last it stays a direct subtype of object.
    """
    ordered = sorted(domain.type_parents.items(), key=lambda item: item[1] in (None, OBJECT))
    return domain_to_pddl(replace(domain, type_parents=dict(ordered)))


def rename_problem(problem: Problem, r: Renaming) -> Problem:
    renamed = Problem(
        name=r.problem_names.get(problem.name, problem.name),
        domain_name=r.domain_names.get(problem.domain_name, problem.domain_name),
        path=None,
        objects=[(r.object(o), r.type(t)) for o, t in problem.objects],
        init=[rename_fact(f, r) for f in problem.init],
        goal_pos=[rename_fact(f, r) for f in problem.goal_pos],
        goal_neg=[rename_fact(f, r) for f in problem.goal_neg],
    )
    renamed.source = problem_to_pddl(renamed)
    return renamed


def rename_plan(steps: Iterable[str], r: Renaming) -> list[str]:
    """Rename plan steps; a step that is not an action at all stays as written (it is malformed either way)."""
    out = []
    for raw in steps:
        step = parse_action(raw)
        if step.name is None:
            out.append(raw)
            continue
        body = " ".join([r.action(step.name), *(r.object(a) for a in step.args)])
        out.append(f"({body})" if step.parenthesized else body)
    return out


# ------------------------------------------------------------------------------------------- anonymizing
def anonymize_renaming(domain: Domain, problem: Problem | None = None, name: str = ANONYMOUS_DOMAIN) -> Renaming:
    """``action1``, ``predicate1``, ``type1``, ``var1``, ``object1`` … numbered in file order.

    Objects are numbered per task: the domain's constants first, then the task's objects in the order of
    its ``:objects`` section. Per-task numbering needs no table, so tasks of any size (and the output of
    the wrapped generator) can be anonymized; the same original name may get different numbers in
    different tasks, which carries no information anyway.
    """
    variables: dict[str, str] = {}
    for params in [p.parameters for p in domain.predicates.values()] + [a.parameters for a in domain.actions.values()]:
        for param in params:
            variables.setdefault(param.name.lstrip("?"), f"var{len(variables) + 1}")
    names = [c for c, _ in domain.constants] + ([o for o, _ in problem.objects] if problem else [])
    return Renaming(
        domain_names={domain.name: name},
        problem_names={problem.name: problem_name_for(name, problem.name)} if problem else {},
        actions={a: f"action{i}" for i, a in enumerate(domain.actions, start=1)},
        predicates={p: f"predicate{i}" for i, p in enumerate(domain.predicates, start=1)},
        types={t: f"type{i}" for i, t in enumerate((t for t in domain.type_parents if t != OBJECT), start=1)},
        variables=variables,
        objects={o: f"object{i}" for i, o in enumerate(dict.fromkeys(names), start=1)},
    )


# ----------------------------------------------------------------------------------------------- costumes
@dataclass
class Costume:
    """A costume mapping: new names for one domain, by exact name and (for objects) by word."""

    path: Path
    domain: str  # the name of the domain this costume is for
    name: str | None  # the costumed domain's name
    description: str
    notes: str
    tables: dict[str, dict[str, str]]  # CATEGORIES and OBJECT_WORDS -> {original: new}
    keep: dict[str, set[str]]  # same keys -> names deliberately left as they are

    # ------------------------------------------------------------------ objects
    def object_name(self, name: str) -> str | None:
        """The costume name of an object or constant, or None if the rules do not cover it."""
        if name in self.tables["objects"]:
            return self.tables["objects"][name]
        if name in self.keep["objects"]:
            return name
        pieces = []
        for piece in WORD_OR_GAP.findall(name):
            if not WORD.match(piece):
                pieces.append(piece)
            elif piece in self.tables[OBJECT_WORDS]:
                pieces.append(self.tables[OBJECT_WORDS][piece])
            elif piece in self.keep[OBJECT_WORDS]:
                pieces.append(piece)
            else:
                return None
        return "".join(pieces)

    def _uncovered_words(self, name: str) -> list[str]:
        if name in self.tables["objects"] or name in self.keep["objects"]:
            return []
        words = [w for w in WORD_OR_GAP.findall(name) if WORD.match(w)]
        return [w for w in words if w not in self.tables[OBJECT_WORDS] and w not in self.keep[OBJECT_WORDS]]

    def _object_problems(self, names: Iterable[str], where: str) -> list[str]:
        """Names the rules do not cover (one line per missing word) and names that would collide."""
        problems: list[str] = []
        missing: dict[str, str] = {}
        images: dict[str, str] = {}
        for name in names:
            for word in self._uncovered_words(name):
                missing.setdefault(word, name)
            new = self.object_name(name)
            if new is None:
                continue
            if new in images and images[new] != name:
                problems.append(f"{where}objects '{images[new]}' and '{name}' would both be called '{new}'")
            images.setdefault(new, name)
        for word, example in missing.items():
            problems.append(
                f"{where}object '{example}': the word '{word}' is neither renamed in [{OBJECT_WORDS}] "
                f"nor kept in [keep] {OBJECT_WORDS} (nor is the whole name in [objects])"
            )
        return problems

    # ------------------------------------------------------------------- checks
    def check(self, domain: Domain, tasks: Iterable[Problem]) -> list[str]:
        """Every problem of this mapping for ``domain`` and its tasks, one line each.

        Objects are judged over the names of all tasks together: a mapping that sends two names of
        different tasks to the same new name is not injective either.
        """
        where = f"{self.path}: "
        wrong = self._wrong_domain(domain)
        if wrong:
            return [wrong]  # every other check would only repeat that the names do not fit
        problems = self._domain_problems(domain, where)
        names = _object_names(domain, tasks)
        problems += self._unknown("objects", set(self.tables["objects"]) | self.keep["objects"], set(names), where)
        words = {w for o in names for w in WORD_OR_GAP.findall(o) if WORD.match(w)}
        problems += self._unknown(OBJECT_WORDS, set(self.tables[OBJECT_WORDS]) | self.keep[OBJECT_WORDS], words, where)
        problems += self._both("objects", where) + self._both(OBJECT_WORDS, where)
        return problems + self._object_problems(names, where)

    def _wrong_domain(self, domain: Domain) -> str | None:
        if self.domain == domain.name:
            return None
        return f"{self.path}: the mapping is for domain '{self.domain}' but the domain directory holds '{domain.name}'"

    def _domain_problems(self, domain: Domain, where: str) -> list[str]:
        """Actions, predicates, types and variables: unknown, uncovered, or colliding names."""
        problems: list[str] = []
        existing = _domain_names(domain)
        for category in ("actions", "predicates", "types", "variables"):
            problems += self._category_problems(category, existing[category], where)
        return problems

    def _category_problems(self, category: str, names: list[str], where: str) -> list[str]:
        table, kept = self.tables[category], self.keep[category]
        problems: list[str] = []
        if category == "types" and OBJECT in set(table) | kept:
            problems.append(f"{where}the type 'object' is built into PDDL and always stays; leave it out of the mapping")
            table, kept = {k: v for k, v in table.items() if k != OBJECT}, kept - {OBJECT}
        problems += self._unknown(category, set(table) | kept, set(names), where) + self._both(category, where)
        kind = SINGULAR[category]
        for name in names:
            if name not in table and name not in kept:
                problems.append(f"{where}{kind} '{name}' is neither renamed in [{category}] nor kept in [keep] {category}")
        images: dict[str, str] = {}
        for name in names:
            new = table.get(name, name)
            if new in images:
                problems.append(f"{where}{category} '{images[new]}' and '{name}' would both be called '{new}'")
            else:
                images[new] = name
        return problems

    def _unknown(self, category: str, given: set[str], existing: set[str], where: str) -> list[str]:
        why = {
            "objects": "it is neither a constant of the domain nor an object of any task",
            OBJECT_WORDS: "no object name of any task contains it",
        }.get(category, "the domain has no such name")
        return [f"{where}unknown {SINGULAR[category]} '{name}': {why}" for name in sorted(given - existing)]

    def _both(self, category: str, where: str) -> list[str]:
        both = sorted(set(self.tables[category]) & self.keep[category])
        return [f"{where}{SINGULAR[category]} '{n}' is both renamed in [{category}] and kept in [keep]" for n in both]

    # ---------------------------------------------------------------- renamings
    def renaming_for(self, domain: Domain, problem: Problem | None = None, name: str | None = None) -> Renaming:
        """The concrete renaming for the domain (and one task); raises VariantError if the rules fall short."""
        new_name = name or self.name or f"{domain.name}-costumed"
        where = f"{self.path}: "
        wrong = self._wrong_domain(domain)
        problems = [wrong] if wrong else self._domain_problems(domain, where)
        if problem is not None and not problems:
            problems = self._object_problems(_object_names(domain, [problem]), f"{where}task {problem.name}: ")
        if problems:
            raise VariantError(problems)
        names = [c for c, _ in domain.constants] + ([o for o, _ in problem.objects] if problem else [])
        tables: dict[str, Any] = {c: dict(self.tables[c]) for c in ("actions", "predicates", "types", "variables")}
        existing = _domain_names(domain)
        for category, table in tables.items():
            for kept in existing[category]:
                table.setdefault(kept, kept)
        return Renaming(
            domain_names={domain.name: new_name},
            problem_names={problem.name: problem_name_for(new_name, problem.name)} if problem else {},
            objects={o: self.object_name(o) or o for o in names},
            **tables,
        )


def _object_names(domain: Domain, tasks: Iterable[Problem]) -> list[str]:
    """The constants and the objects of the tasks, each once, in order."""
    names = [c for c, _ in domain.constants] + [o for task in tasks for o, _ in task.objects]
    return list(dict.fromkeys(names))


def _domain_names(domain: Domain) -> dict[str, list[str]]:
    variables: dict[str, None] = {}
    for params in [p.parameters for p in domain.predicates.values()] + [a.parameters for a in domain.actions.values()]:
        for param in params:
            variables[param.name.lstrip("?")] = None
    return {
        "actions": list(domain.actions),
        "predicates": list(domain.predicates),
        "types": [t for t in domain.type_parents if t != OBJECT],
        "variables": list(variables),
    }


_TOP_KEYS = {"domain", "name", "description", "notes", *CATEGORIES, OBJECT_WORDS, "keep"}


def load_mapping(path: str | Path) -> Costume:
    """Read a costume mapping; raises VariantError listing every problem of the file's own content."""
    costume, problems = read_mapping(path)
    if problems or costume is None:
        raise VariantError(problems)
    return costume


def read_mapping(path: str | Path) -> tuple[Costume | None, list[str]]:
    """The mapping made of the file's usable parts, and every problem of its content (one line each).

    Returning both lets a caller also check the usable parts against the domain, so that one run lists
    all problems. The costume is None only when the file cannot be read as TOML at all.
    """
    p = Path(path)
    where = f"{p}: "
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, [f"{where}no such mapping file"]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [f"{where}cannot be read ({exc})"]
    except tomllib.TOMLDecodeError as exc:
        return None, [f"{where}not valid TOML: {exc}"]
    problems: list[str] = [f"{where}unknown key '{k}' (known: {', '.join(sorted(_TOP_KEYS))})" for k in data if k not in _TOP_KEYS]
    domain = data.get("domain")
    if not isinstance(domain, str) or not domain:
        problems.append(f"{where}missing 'domain = \"NAME\"' naming the domain this costume is for")
        domain = ""
    texts = {}
    for key in ("name", "description", "notes"):
        value = data.get(key, "")
        if not isinstance(value, str):
            problems.append(f"{where}'{key}' must be a string")
            value = ""
        texts[key] = value
    if texts["name"] and not _valid_name(texts["name"].lower()):
        problems.append(f"{where}'name' = '{texts['name']}' is not a valid PDDL name")
    tables: dict[str, dict[str, str]] = {}
    for category in (*CATEGORIES, OBJECT_WORDS):
        tables[category], table_problems = _read_table(data.get(category, {}), category, where)
        problems += table_problems
    keep, keep_problems = _read_keep(data.get("keep", {}), where)
    problems += keep_problems
    for category in ("objects", OBJECT_WORDS):  # the other kinds are checked against the domain's names
        problems += _clashes(category, tables[category], keep[category], where)
    costume = Costume(
        path=p,
        domain=domain.lower(),
        name=texts["name"].lower() or None,
        description=texts["description"],
        notes=texts["notes"],
        tables=tables,
        keep=keep,
    )
    return costume, problems


def _valid_name(name: str) -> bool:
    return bool(PDDL_NAME.match(name)) and name not in RESERVED


def _read_table(raw: Any, category: str, where: str) -> tuple[dict[str, str], list[str]]:
    if not isinstance(raw, dict):
        return {}, [f"{where}[{category}] must be a table of \"original\" = \"new\" names"]
    table: dict[str, str] = {}
    problems: list[str] = []
    for key, value in raw.items():
        old = key.lower().lstrip("?") if category == "variables" else key.lower()
        if not isinstance(value, str):
            problems.append(f"{where}[{category}] {key}: the new name must be a string")
            continue
        new = value.lower().lstrip("?") if category == "variables" else value.lower()
        if category == OBJECT_WORDS:
            if not WORD.match(old):
                problems.append(f"{where}[{category}] '{key}': an object word consists of letters only")
            if not WORD.match(new):
                problems.append(f"{where}[{category}] {key} = '{value}': an object word is replaced by letters only")
        elif not _valid_name(new):
            problems.append(
                f"{where}[{category}] {key} = '{value}' is not a valid PDDL name "
                "(a letter, then letters, digits, '-' or '_'; not a PDDL keyword)"
            )
        if old in table:
            problems.append(f"{where}[{category}] names '{old}' twice")
        table[old] = new
    return table, problems


def _read_keep(raw: Any, where: str) -> tuple[dict[str, set[str]], list[str]]:
    keep: dict[str, set[str]] = {c: set() for c in (*CATEGORIES, OBJECT_WORDS)}
    if not isinstance(raw, dict):
        return keep, [f"{where}[keep] must be a table of lists, e.g. predicates = [\"at\"]"]
    problems = []
    for key, names in raw.items():
        if key not in keep:
            problems.append(f"{where}[keep] unknown key '{key}' (known: {', '.join(keep)})")
        elif not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            problems.append(f"{where}[keep] {key} must be a list of names")
        else:
            keep[key] = {n.lower().lstrip("?") for n in names}
    return keep, problems


def _clashes(category: str, table: dict[str, str], kept: set[str], where: str) -> list[str]:
    """Two names renamed to the same new name, or a new name equal to a name kept as it is."""
    problems = []
    sources: dict[str, str] = {}
    for old, new in table.items():
        if new in sources:
            problems.append(f"{where}[{category}] '{sources[new]}' and '{old}' are both renamed to '{new}'")
        sources.setdefault(new, old)
        if new in kept and new != old:
            problems.append(f"{where}[{category}] '{old}' is renamed to '{new}', a name that is kept as it is")
    return problems


# ---------------------------------------------------------------------------------------- variant dirs
VARIANT_SETS = ("debug", "eval", "probes")

GENERATOR_TEMPLATE = '''"""Instance generator of the {kind} domain {name}: the generator of {base} with its output renamed.

Written by `genplan {command}`; regenerate the directory rather than editing this file. The original
generator is found through `base_dir` in domain.toml{mapping_note}.
"""

from __future__ import annotations

import sys
from pathlib import Path

from genplan.engine.variants import VariantGenerator

_VARIANT = VariantGenerator(Path(__file__).resolve().parent)
PARAMETERS = _VARIANT.parameters
DEBUG_SPECS = _VARIANT.specs("debug")
EVAL_SPECS = _VARIANT.specs("eval")


def generate(seed: int, **sizes: int) -> str:
    return _VARIANT.generate(seed, **sizes)


if __name__ == "__main__":
    sys.exit(_VARIANT.main(sys.argv[1:]))
'''


@dataclass
class VariantPlan:
    """What a variant directory will contain: relative path -> text."""

    out: Path
    files: dict[str, str]


RenamingFor = Callable[[Problem | None], Renaming]


def _task_files(base: DomainDir) -> list[tuple[str, Path]]:
    found = []
    for task_set in VARIANT_SETS:
        directory = base.path / task_set
        if directory.is_dir():
            files = [p for p in directory.iterdir() if p.is_file() and p.suffix in (".pddl", ".plan")]
            found += [(task_set, p) for p in sorted(files, key=natural_key)]
    return found


def open_base(base_dir: str | Path) -> tuple[DomainDir, Domain, list[tuple[str, Path, Problem]]]:
    """The original domain directory, its domain and every task (set name, path, problem)."""
    base = DomainDir.open(base_dir)
    domain = load_domain(base.domain_file)
    tasks = []
    for task_set, path in _task_files(base):
        if path.suffix == ".pddl":
            tasks.append((task_set, path, load_problem(path, domain)))
    return base, domain, tasks


def plan_variant(
    base: DomainDir,
    domain: Domain,
    tasks: list[tuple[str, Path, Problem]],
    renaming_for: RenamingFor,
    out: Path,
    meta: dict[str, Any],
    readme: str,
    extra_files: dict[str, str],
) -> VariantPlan:
    """Every file of the variant directory, in memory (nothing is written)."""
    files: dict[str, str] = {"domain.pddl": domain_text(rename_domain(domain, renaming_for(None)))}
    renamings: dict[Path, Renaming] = {}
    for task_set, path, problem in tasks:
        renaming = renaming_for(problem)
        renamings[path] = renaming
        files[f"{task_set}/{path.name}"] = problem_to_pddl(rename_problem(problem, renaming))
    for task_set, path in _task_files(base):
        if path.suffix == ".plan":
            plan_renaming = renamings.get(path.with_suffix(".pddl"))
            if plan_renaming is None:
                raise VariantError([f"{path}: a plan file without a task file of the same name"])
            steps = [s.pddl() for s in parse_plan_text(path.read_text(encoding="utf-8"), path)]
            files[f"{task_set}/{path.name}"] = plan_to_text(rename_plan(steps, plan_renaming))
    base_rel = Path(os.path.relpath(base.path.resolve(), out.resolve())).as_posix()
    files["domain.toml"] = tomli_w.dumps({**meta, "base_dir": base_rel}, multiline_strings=True)
    if any(task_set == "probes" for task_set, _, _ in tasks):
        files["probes/README.md"] = (
            f"# probes of {meta['name']}\n\nThe probe tasks of the original domain `{base.name}`, renamed like "
            f"every other task (same file names). What each probe tests is described in the original's "
            f"`probes/README.md`.\n"
        )
    files["README.md"] = readme
    files.update(extra_files)
    return VariantPlan(out, files)


def write_variant(plan: VariantPlan, force: bool) -> None:
    """Write the files; with ``force`` an existing variant's task files that are no longer produced go."""
    out = plan.out
    if out.exists():
        if not out.is_dir():
            raise VariantError([f"{out}: exists and is not a directory"])
        if any(out.iterdir()) and not force:
            raise VariantError([f"{out}: exists and is not empty (use --force to regenerate it)"])
    for task_set in VARIANT_SETS:
        directory = out / task_set
        if directory.is_dir():
            for old in directory.iterdir():
                if old.is_file() and old.suffix in (".pddl", ".plan") and f"{task_set}/{old.name}" not in plan.files:
                    old.unlink()
    for relative, text in plan.files.items():
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")


def _preflight(base_dir: str | Path, out: str | Path, force: bool) -> tuple[list[str], Any]:
    """Problems with the base directory and the output place; the opened base when it is usable."""
    problems: list[str] = []
    opened = None
    try:
        opened = open_base(base_dir)
    except (DomainDirError, PddlError) as exc:
        problems.append(str(exc))
    out_path = Path(out)
    if opened is not None and out_path.resolve() == opened[0].path.resolve():
        problems.append(f"{out_path}: the output directory is the original domain directory")
    if out_path.exists() and (not out_path.is_dir() or (any(out_path.iterdir()) and not force)):
        problems.append(f"{out_path}: exists and is not an empty directory (use --force to regenerate it)")
    return problems, opened


def build_costume_dir(base_dir: str | Path, mapping_path: str | Path, out: str | Path, force: bool = False) -> VariantPlan:
    """``genplan costume``: check everything first (raising VariantError with every problem), then write."""
    out = Path(out)
    problems, opened = _preflight(base_dir, out, force)
    costume, mapping_problems = read_mapping(mapping_path)
    problems += mapping_problems
    if costume is not None and opened is not None:
        base, domain, tasks = opened
        problems += costume.check(domain, [problem for _, _, problem in tasks])
    if costume is not None and not costume.description.strip():
        problems.append(f"{costume.path}: missing 'description' (the costumed domain's description for domain.toml)")
    if problems:
        raise VariantError(list(dict.fromkeys(problems)))
    assert costume is not None and opened is not None
    base, domain, tasks = opened
    name = costume.name or out.name
    meta = {
        "name": name,
        "typed_objects": base.typed_objects,
        "description": costume.description.strip(),
        **({"notes": costume.notes.strip()} if costume.notes.strip() else {}),
        "costume_of": base.name,
        "variant": "costume",
    }
    mapping_text = Path(mapping_path).read_text(encoding="utf-8")
    plan = plan_variant(
        base,
        domain,
        tasks,
        lambda problem: costume.renaming_for(domain, problem, name),
        out,
        meta,
        _costume_readme(name, base, costume, domain),
        {"generator.py": _generator_text("costume", name, base.name), MAPPING_FILE: mapping_text},
    )
    write_variant(plan, force)
    return plan


def build_anonymized_dir(base_dir: str | Path, out: str | Path, name: str = ANONYMOUS_DOMAIN, force: bool = False) -> VariantPlan:
    """``genplan anonymize``: every name numbered; checks first, then writes."""
    out = Path(out)
    problems, opened = _preflight(base_dir, out, force)
    if not _valid_name(name):
        problems.append(f"--name '{name}' is not a valid PDDL name")
    if problems:
        raise VariantError(problems)
    base, domain, tasks = opened
    meta = {
        "name": name,
        "typed_objects": base.typed_objects,
        "description": (
            "An anonymized planning domain: every action, predicate, type, parameter and object has a numbered "
            "name (action1, predicate1, type1, object1, ...). Its PDDL definition is all there is to know about it."
        ),
        "costume_of": base.name,
        "variant": "anonymized",
    }
    plan = plan_variant(
        base,
        domain,
        tasks,
        lambda problem: anonymize_renaming(domain, problem, name),
        out,
        meta,
        _anonymized_readme(name, base),
        {"generator.py": _generator_text("anonymized", name, base.name)},
    )
    write_variant(plan, force)
    return plan


def _generator_text(kind: str, name: str, base: str) -> str:
    command = "costume" if kind == "costume" else "anonymize"
    note = f" and the renaming is read from {MAPPING_FILE}" if kind == "costume" else ""
    return GENERATOR_TEMPLATE.format(kind=kind, name=name, base=base, command=command, mapping_note=note)


def _costume_readme(name: str, base: DomainDir, costume: Costume, domain: Domain) -> str:
    rows = []
    renaming = costume.renaming_for(domain, None, name)
    for category in ("actions", "predicates", "types", "variables"):
        for old, new in getattr(renaming, category).items():
            rows.append(f"| {SINGULAR[category]} | `{old}` | `{new}` |")
    for old, new in costume.tables["objects"].items():
        rows.append(f"| object | `{old}` | `{new}` |")
    for old, new in costume.tables[OBJECT_WORDS].items():
        rows.append(f"| object word | `{old}…` | `{new}…` |")
    table = "\n".join(["| kind | original | costume |", "|---|---|---|", *rows])
    return f"""# {name}

A costumed variant of `{base.name}`: the same domain with every action, predicate, type, parameter and
object renamed, so the names tell a different story while the structure is exactly the original's. A plan
is valid here exactly when the plan with the original names is valid for `{base.name}`.

{textwrap.fill(" ".join(costume.description.split()), width=104)}

## Files

Everything here is produced by

```sh
genplan costume domains/{base.name} --mapping domains/{name}/{MAPPING_FILE} --out domains/{name} --force
```

from `{MAPPING_FILE}` (the mapping) and the original directory. `debug/`, `eval/` (and `probes/`) hold the
original tasks renamed, with the same file names; problem names are replaced by a digest of the original
name. `generator.py` runs the original generator and renames its output, so
`python domains/make_tasks.py --check {name}` reproduces the tasks. Comments of the original PDDL are
not carried over.

## Names

{table}
"""


def _anonymized_readme(name: str, base: DomainDir) -> str:
    return f"""# {name}

An anonymized variant of `{base.name}`: actions, predicates, types and parameters are numbered in the
order of the domain file (`action1`, `predicate1`, `type1`, `var1`, …), objects per task in the order of
its `:objects` section (constants first). The structure is exactly the original's.

Produced by `genplan anonymize domains/{base.name} --out <this directory>`; `generator.py` runs the
original generator and anonymizes its output.
"""


# ------------------------------------------------------------------------------------------- generator
class VariantGenerator:
    """What a variant directory's generator.py runs: the original generator, its problems renamed."""

    def __init__(self, variant_dir: Path) -> None:
        self.path = Path(variant_dir)
        meta_file = self.path / "domain.toml"
        with meta_file.open("rb") as handle:
            self.meta = tomllib.load(handle)
        base_dir = self.meta.get("base_dir")
        if not isinstance(base_dir, str):
            raise VariantError([f"{meta_file}: missing 'base_dir' (the original domain directory)"])
        self.base = DomainDir.open((self.path / base_dir).resolve())
        self.domain = load_domain(self.base.domain_file)
        self.name = str(self.meta["name"])
        if self.meta.get("variant") == "anonymized":
            self._renaming_for: RenamingFor = lambda p: anonymize_renaming(self.domain, p, self.name)
        else:
            costume = load_mapping(self.path / MAPPING_FILE)
            self._renaming_for = lambda p: costume.renaming_for(self.domain, p, self.name)
        self.parameters = self.base.parameters()

    def specs(self, task_set: str) -> list[tuple[int, dict[str, int]]]:
        return self.base.task_specs(task_set)

    def generate(self, seed: int, **sizes: int) -> str:
        text = self.base.generate(seed, **sizes)
        problem = parse_problem_fast(text, self.domain) or parse_problem_text(text, self.domain)
        return problem_to_pddl(rename_problem(problem, self._renaming_for(problem)))

    def main(self, argv: list[str]) -> int:
        from .generator_kit import run_cli

        run_cli(self.parameters, self.generate, f"Generate a task of {self.name}.", argv)
        return 0
