"""Costumes: the rules of a costume mapping, checked against a domain and turned into renamings.

Reading the mapping file is :mod:`.mapping`'s job; a :class:`Costume` is what it yields.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.engine.pddl.model import OBJECT, Domain, Problem
from genplan.engine.variants.renaming import TOTAL_COST, Renaming, VariantError, problem_name_for, variable_names

CATEGORIES = ("actions", "predicates", "types", "variables", "functions", "objects")
OBJECT_WORDS = "object-words"
SINGULAR = {
    "actions": "action",
    "predicates": "predicate",
    "types": "type",
    "variables": "variable",
    "functions": "function",
    "objects": "object",
    OBJECT_WORDS: "object word",
}
DOMAIN_CATEGORIES = ("actions", "predicates", "types", "variables", "functions")  # checked against the domain file
WORD = re.compile(r"^[a-z]+$")
WORD_OR_GAP = re.compile(r"[a-z]+|[^a-z]+")


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
        tasks = list(tasks)
        problems = self._domain_problems(domain, where, _goal_variables(domain, tasks))
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

    def _domain_problems(self, domain: Domain, where: str, goal_variables: list[str]) -> list[str]:
        """Actions, predicates, types, variables (the tasks' quantified goal variables too) and cost functions:
        unknown, uncovered, or colliding names."""
        problems: list[str] = []
        existing = _domain_names(domain, goal_variables)
        for category in DOMAIN_CATEGORIES:
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
        # the quantified variables of compound goals: this task's, and those the mapping names (check() has
        # judged them against every task)
        goals = _goal_variables(domain, [problem] if problem is not None else [])
        goals += [v for v in (*self.tables["variables"], *self.keep["variables"]) if v not in goals]
        problems = [wrong] if wrong else self._domain_problems(domain, where, goals)
        if problem is not None and not problems:
            problems = self._object_problems(_object_names(domain, [problem]), f"{where}task {problem.name}: ")
        if problems:
            raise VariantError(problems)
        names = [c for c, _ in domain.constants] + ([o for o, _ in problem.objects] if problem else [])
        tables: dict[str, Any] = {c: dict(self.tables[c]) for c in DOMAIN_CATEGORIES}
        existing = _domain_names(domain, goals)
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


def _goal_variables(domain: Domain, tasks: Iterable[Problem]) -> list[str]:
    """The variables the tasks' compound goals quantify over that the domain file does not use."""
    in_domain = set(variable_names(domain))
    found: dict[str, None] = {}
    for task in tasks:
        found.update((v, None) for v in variable_names(domain, task) if v not in in_domain)
    return list(found)


def _domain_names(domain: Domain, goal_variables: list[str]) -> dict[str, list[str]]:
    return {
        "actions": list(domain.actions),
        "predicates": list(domain.predicates),
        "types": [t for t in domain.type_parents if t != OBJECT],
        # quantified ones (forall, exists, the tasks' compound goals) included
        "variables": [*variable_names(domain), *(v for v in goal_variables if v not in variable_names(domain))],
        "functions": [f for f in domain.functions if f != TOTAL_COST],
    }
