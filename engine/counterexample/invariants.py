"""The domain's invariants, so that the search and the shrinker only hand a program states it can be in.

Fast Downward's translator proves mutex groups for a task (sets of atoms of which at most one is true in every
reachable state). We run it as a separate process on a few source tasks (never imported: it is GPL) and read
the groups from its ``output.sas``. A ground group is lifted back to the schema it is an instance of: the
objects every atom of the group names are its parameters, the other argument places are counted (``on(b1, *)``,
``ontable(b1)``, ``holding(b1)``). A lifted group is kept only if every source task satisfies it.

A lifted group is *exactly-one* when every action that deletes one of its atoms adds another one with the same
parameters (pick-up deletes ``ontable(x)`` and adds ``holding(x)``): then a state with one true atom never
loses it. Which objects must carry an exactly-one group is learnt from the source tasks: the objects the groups
were about, by declared type and by the static unary facts (``(block b1)``) they all had.

:meth:`Invariants.violations` names what a task breaks; :meth:`Invariants.repair` mends a task after objects were
removed (the block that stood on a removed block goes to the table) where one atom of a group needs no other
object, and refuses otherwise.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from genplan.engine.fast_downward import fast_downward_driver, run_fast_downward_files
from genplan.engine.pddl import Domain, Problem
from genplan.engine.pddl.model import Action, Fact
from genplan.engine.planner import (
    fast_downward_input,
    fast_downward_reason,
    reserved_types_renamed,
)

TRANSLATE_SECONDS = 60.0
TRANSLATE_MEMORY_MB = 4096  # what genplan plan gives Fast Downward by default
COUNTED = -1  # a counted argument place of a part (any object)

# one part of a lifted group: the predicate and, per argument place, the parameter index or COUNTED
Part = tuple[str, tuple[int, ...]]

_ATOM = re.compile(r"^Atom ([^(]+)\((.*)\)$")


@dataclass
class Lifted:
    parts: frozenset[Part]
    params: int
    exactly_one: bool = False
    # which objects carry the group (one parameter): their declared types and the static unary facts they had
    types: set[str] = field(default_factory=set)
    unary: frozenset[str] | None = None

    def bindings(self, fact: Fact) -> list[tuple[str, ...]]:
        """The parameter values under which ``fact`` is an atom of this group (none, or one per matching part)."""
        found = []
        for predicate, places in self.parts:
            if predicate != fact[0] or len(places) != len(fact) - 1:
                continue
            values: dict[int, str] = {}
            if all(values.setdefault(index, arg) == arg for index, arg in zip(places, fact[1:]) if index != COUNTED):
                if len(values) == self.params:
                    found.append(tuple(values[i] for i in range(self.params)))
        return found

    def text(self, binding: tuple[str, ...] = ()) -> str:
        def part(item: Part) -> str:
            predicate, places = item
            args = [binding[i] if binding and i != COUNTED else ("*" if i == COUNTED else f"?{i}") for i in places]
            return f"({' '.join([predicate, *args])})"

        return " | ".join(part(p) for p in sorted(self.parts))

    def closed_atoms(self, binding: tuple[str, ...]) -> list[Fact]:
        """The atoms of the group that name no object but its parameters (``(ontable b3)``, ``(clear b3)``,
        ``(free left)``): the candidates for mending a group that lost its true atom."""
        return [(predicate, *(binding[i] for i in places))
                for predicate, places in sorted(self.parts) if COUNTED not in places]


@dataclass
class Invariants:
    groups: list[Lifted]
    note: str = ""  # why no invariant could be proven ("" when some were)

    @property
    def proven(self) -> bool:
        return bool(self.groups)

    def describe(self) -> str:
        if not self.groups:
            return f"no invariant proven ({self.note or 'Fast Downward found no mutex group'})"
        exact = sum(g.exactly_one for g in self.groups)
        return f"{len(self.groups)} mutex groups of Fast Downward's translator ({exact} exactly-one)"

    def _counts(self, group: Lifted, problem: Problem) -> dict[tuple[str, ...], list[Fact]]:
        counts: dict[tuple[str, ...], list[Fact]] = defaultdict(list)
        for fact in problem.init:
            for binding in group.bindings(fact):
                counts[binding].append(fact)
        return counts

    def _expected(self, group: Lifted, problem: Problem) -> list[tuple[str, ...]]:
        """The bindings that must have exactly one true atom in ``problem``."""
        if not group.exactly_one or group.params > 1:
            return []
        if group.params == 0:
            return [()]
        unary = _unary_facts(problem, group.unary or frozenset())
        return [(name,) for name, kind in problem.objects
                if kind in group.types and (group.unary or frozenset()) <= unary.get(name, set())]

    def violations(self, problem: Problem, only_at_most_one: bool = False) -> list[str]:
        """What ``problem``'s initial state breaks, one short line each ([] when it satisfies every group)."""
        problems = []
        for group in self.groups:
            counts = self._counts(group, problem)
            for binding, facts in counts.items():
                if len(facts) > 1:
                    shown = " ".join(f"({' '.join(f)})" for f in facts)
                    problems.append(f"at most one of {group.text(binding)} may hold, but {shown} do")
            for binding in [] if only_at_most_one else self._expected(group, problem):
                if not counts.get(binding):
                    problems.append(f"exactly one of {group.text(binding)} must hold, none does")
        return problems

    def repair(self, problem: Problem) -> tuple[Problem, list[Fact]] | None:
        """``problem`` mended after objects were removed: each exactly-one group left with no true atom gets the
        first of its closed atoms that breaks no other group (the block that stood on a removed block goes to
        the table, the block under it is clear again), and the atoms added; None when a group cannot be mended."""
        added: list[Fact] = []
        for group in self.groups:
            for binding in self._expected(group, problem):
                if self._counts(group, problem).get(binding):
                    continue
                for atom in group.closed_atoms(binding):
                    trial = replace(problem, init=[*problem.init, atom])
                    if not self.violations(trial, only_at_most_one=True):
                        problem = trial
                        added.append(atom)
                        break
                else:
                    return None
        if self.violations(problem):
            return None
        return problem, added

    def dependents(self, problem: Problem, name: str) -> set[str]:
        """Objects whose only place (the true atom of their exactly-one group) names ``name``: a car at a removed
        location, a block on a removed block. Found again for each dependent, so a tower goes whole."""
        found: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            for group in self.groups:
                if not group.exactly_one or group.params != 1:
                    continue
                for binding, facts in self._counts(group, problem).items():
                    owner = binding[0]
                    # the owner's place: it comes first ((on b3 b4), (at c1 l0)); (on b3 b4) is no place of b4
                    if owner not in found and owner != name and any(
                            fact[1] == owner and current in fact[2:] for fact in facts):
                        found.add(owner)
                        todo.append(owner)
        return found


def _unary_facts(problem: Problem, predicates: frozenset[str] | set[str]) -> dict[str, set[str]]:
    facts: dict[str, set[str]] = defaultdict(set)
    for fact in problem.init:
        if len(fact) == 2 and fact[0] in predicates:
            facts[fact[1]].add(fact[0])
    return facts


# ------------------------------------------------------------------------------- Fast Downward's groups


def translator_groups(domain: Domain, problem: Problem, timeout: float = TRANSLATE_SECONDS) -> list[list[Fact]] | str:
    """The mutex groups Fast Downward's translator proves for the task, as lists of atoms; or one line saying
    why there are none (not installed, the translator failed)."""
    driver = fast_downward_driver()
    if driver is None:
        return "Fast Downward's translator is not installed (pip install up-fast-downward)"
    (domain_text, problem_text), _ = reserved_types_renamed(domain, fast_downward_input(domain, problem))
    with tempfile.TemporaryDirectory(prefix="genplan-invariants-") as tmp:
        work = Path(tmp)
        (work / "domain.pddl").write_text(domain_text)
        (work / "problem.pddl").write_text(problem_text)
        try:  # each component in a process group of its own, all of it ended at the limit
            returncode, printed = run_fast_downward_files(
                driver, work, "domain.pddl", "problem.pddl", search=None, time_limit=None,
                memory_mb=TRANSLATE_MEMORY_MB, wall_limit=timeout, translate_options=["--keep-unimportant-variables"])
        except subprocess.TimeoutExpired:
            return f"Fast Downward's translator took longer than {timeout:g} s"
        output = work / "output.sas"
        if returncode != 0 or not output.exists():
            return f"Fast Downward's translator failed (exit {returncode}): {fast_downward_reason(printed)}"
        return parse_mutex_groups(output.read_text())


def parse_mutex_groups(sas: str) -> list[list[Fact]]:
    """The mutex groups of an ``output.sas`` text, each as its atoms: the variables whose values are atoms
    (a group the translator encodes as one variable is not repeated among the mutex groups) and the mutex
    groups across variables ("none of those" and negated atoms left out)."""
    lines = sas.splitlines()
    values: list[list[Fact | None]] = []
    groups: list[list[Fact]] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line == "begin_variable":
            count = int(lines[index + 3])
            texts = lines[index + 4:index + 4 + count]
            values.append([_atom(text) for text in texts])
            if not any(text.startswith("NegatedAtom") for text in texts):
                groups.append([atom for atom in values[-1] if atom is not None])
            index += 4 + count
        elif line == "begin_mutex_group":
            count = int(lines[index + 1])
            atoms = []
            for pair in lines[index + 2:index + 2 + count]:
                variable, value = (int(x) for x in pair.split())
                atom = values[variable][value]
                if atom is not None:
                    atoms.append(atom)
            groups.append(atoms)
            index += 2 + count
        else:
            index += 1
    return groups


def _atom(text: str) -> Fact | None:
    match = _ATOM.match(text.strip())
    if match is None:
        return None
    args = [a.strip() for a in match.group(2).split(",") if a.strip()]
    return (match.group(1).strip(), *args)


def lift(atoms: list[Fact]) -> Lifted | None:
    """The lifted group a ground group is an instance of: the objects every atom names are the parameters."""
    if len(atoms) < 2:
        return None
    common = set(atoms[0][1:])
    for atom in atoms[1:]:
        common &= set(atom[1:])
    params = sorted(common, key=lambda name: atoms[0][1:].index(name))
    parts = frozenset((atom[0], tuple(params.index(a) if a in common else COUNTED for a in atom[1:])) for atom in atoms)
    return Lifted(parts, len(params))


def _balanced(group: Lifted, domain: Domain) -> bool:
    """Every action that deletes an atom of the group adds one with the same parameters (exactly-one kept).
    A delete about an object the group is not about (by type, or by a static unary precondition such as
    ``(ball ?x)``) is no concern of the group."""
    def params(predicate: str, args: tuple[str, ...]) -> list[tuple[str, ...]]:
        return group.bindings((predicate, *args))

    def about(action: Action, binding: tuple[str, ...]) -> bool:
        if group.params != 1:
            return True
        variable = binding[0]
        types = next((p.types for p in action.parameters if p.name == variable), ())
        if domain.typed and types and group.types and not any(
                domain.is_subtype(kind, types) or domain.is_subtype(t, tuple(group.types)) for kind in group.types
                for t in types):
            return False
        needed = {lit.predicate for lit in action.preconditions
                  if lit.positive and lit.args == (variable,) and lit.predicate in domain.static_predicates}
        return needed <= (group.unary or frozenset()) if group.unary is not None else True

    predicates = {predicate for predicate, _places in group.parts}
    for action in domain.actions.values():
        if any(lit.predicate in predicates for effect in action.conditional_effects for lit in effect.literals()):
            return False
        added = {b for lit in action.add_effects for b in params(lit.predicate, lit.args)}
        for lit in action.del_effects:
            if any(b not in added and about(action, b) for b in params(lit.predicate, lit.args)):
                return False
    return True


def find_invariants(domain: Domain, sources: list[Problem], witnesses: Sequence[Problem] = ()) -> Invariants:
    """The lifted groups of the translator's groups on ``sources``, kept where every source and every one of
    ``witnesses`` (tasks a person wrote as states of the domain, never translated) satisfies them."""
    lifted: dict[tuple[frozenset[Part], frozenset[tuple[str, frozenset[str]]]], Lifted] = {}
    kinds: dict[int, frozenset[tuple[str, frozenset[str]]]] = {}
    notes = []
    for problem in sources:
        found = _cached_groups(domain, problem)
        if isinstance(found, str):
            notes.append(found)
            continue
        objects = dict(problem.objects)
        unary = _unary_facts(problem, domain.static_predicates)
        for atoms in found:
            group = lift(atoms)
            if group is None:
                continue
            owners = {binding[0] for atom in atoms for binding in group.bindings(atom)} if group.params == 1 else set()
            # what the group is about: a truck's place and a package's are both (at ?0 *), of other objects
            kind = frozenset((objects.get(o, "object"), frozenset(unary.get(o, set()))) for o in owners)
            group = lifted.setdefault((group.parts, kind), group)
            kinds[id(group)] = kind
            group.types |= {objects.get(owner, "object") for owner in owners}
            for owner in owners:
                have = unary.get(owner, set())
                group.unary = frozenset(have) if group.unary is None else group.unary & have
    groups = []
    for group in lifted.values():
        if any(group.parts < other.parts and group.params == other.params and kinds[id(group)] <= kinds[id(other)]
               for other in lifted.values()):
            continue  # a part of a larger group (the translator split it over two variables)
        known = [*sources, *witnesses]
        if any(Invariants([group]).violations(problem, only_at_most_one=True) for problem in known):
            continue  # not an invariant after all (lifted from a coincidence)
        # exactly one for every object of the kind only where no action takes it out of the group and every
        # such object of every source was in it (a part on a rack may as well be on a truck)
        group.exactly_one = _balanced(group, domain)
        group.exactly_one = group.exactly_one and all(not Invariants([group]).violations(problem) for problem in known)
        groups.append(group)
    groups.sort(key=lambda g: sorted(g.parts))
    return Invariants(groups, "" if groups else "; ".join(dict.fromkeys(notes)))


_CACHE: dict[tuple[str, str], list[list[Fact]] | str] = {}


def _cached_groups(domain: Domain, problem: Problem) -> list[list[Fact]] | str:
    """The translator's groups, once per domain and task text in this process (the shrinker asks again and again)."""
    key = fast_downward_input(domain, problem)
    if key not in _CACHE:
        _CACHE[key] = translator_groups(domain, problem)
    return _CACHE[key]
