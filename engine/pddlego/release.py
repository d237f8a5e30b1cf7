"""The PDDLego+ release's own rules, for replaying its logs (``genplan import pddlego``; ``--genplan-rules`` turns
them off): where the release's code behaved differently from genplan's live loop, an import behaves as the
release did, so that its logged answers fit the path the replay takes. docs/pddlego.md has the table with the
release's lines (``interactive_Alfworld.py`` and ``interactive_CoinCollector.py`` of the logs' time, May 2025).

- **Step limits** (also the default of live trials): CoinCollector 20 time steps (PDDLego+ and PlanGen),
  ALFWorld 50 for PDDLego+ and 20 for PlanGen.
- **The planner** was ``dual-bfws-ffparser`` on solver.planning.domains: a satisficing planner (its plans need
  not be shortest) behind FF's PDDL parser. An import takes the plan the log records whenever genplan's own
  check finds it a valid plan of the same files, however long (genplan plans only when the log has none).
- **What FF's parser refused** beyond what genplan refuses: a domain with an action without an ``:effect`` (the
  planner crashed), and an action whose variable fills a predicate argument of a type the variable's type is not
  a subtype of ("type of var ?R does not match type of arg 0 of predicate AT"). FF skips an action first when one
  of its parameters' types has no object ("unknown or empty type ... skipping op"), and a predicate used but not
  declared only in such actions never reached its checks (accepted); a variable of type ``object`` passes where
  the file does not list ``object`` among its types, and where it does, ``object`` is a type of its own that the
  types listed without a parent are not in.
- **ALFWorld's command mapping** (``map_actions``): the action is recognised by a substring of the plan line
  (``gotolocation``, ``openobject``, ...), names are split before their number wherever a digit follows a
  non-digit (``cabinet_16`` -> ``cabinet_ 16``), ``CloseObject`` is not a game command, ``SliceObject`` takes its
  second and third arguments.
- **ALFWorld's outer loop**: a ``go to`` the game answers with "Nothing happens." does not end the attempt (the
  planned commands after it are executed); any other failed command does, and so does a failed ``go to`` that
  was the last command.
- **ALFWorld's PlanGen** never kept the commands of its finished steps: after a failed command the game started
  again from the beginning with nothing replayed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from genplan.engine.pddl.errors import PddlError
from genplan.engine.pddl.lenient import DECLARED_PREDICATE, Repair
from genplan.engine.pddl.model import OBJECT, Action, Condition, Domain, Implication, Junction, Literal, Negation, Problem, Quantified
from genplan.engine.pddl.sexpr import Atom, SList, read_sexpr
from genplan.engine.pddlego.solver import CommandMapper, alfworld_command, coin_command
from genplan.engine.pddlego.tiebreak import TieBreakingSolver, realize_task
from genplan.engine.planner import SOLVED, PlannerResult

# (game, approach) -> time steps per trial, as the release set them (MAX_STEPS)
STEP_LIMITS: dict[tuple[str, str], int] = {
    ("coincollector", "pddlego"): 20, ("coincollector", "plangen"): 20,
    ("alfworld", "pddlego"): 50, ("alfworld", "plangen"): 20,
}


def step_limit(environment: str, approach: str) -> int:
    """The release's number of time steps per trial of ``approach`` in ``environment`` (20 where it set none)."""
    return STEP_LIMITS.get((environment, approach), 20)


@dataclass(frozen=True)
class Rules:
    """How an import replays a log: the release's rules (the default) or genplan's own."""

    release: bool = True

    def step_limit(self, environment: str, approach: str) -> int:
        return step_limit(environment, approach)

    def mapper(self, environment: str) -> CommandMapper:
        if environment == "coincollector":
            return coin_command
        return release_alfworld_command if self.release else alfworld_command

    def goto_failure_continues(self, environment: str) -> bool:
        return self.release and environment == "alfworld"

    def replay_after_reset(self, environment: str, approach: str) -> bool:
        return not (self.release and environment == "alfworld" and approach == "plangen")

    def to_dict(self) -> dict[str, Any]:
        return {"rules": "release" if self.release else "genplan"}


RELEASE = Rules(True)
GENPLAN = Rules(False)


# ------------------------------------------------------------------ ALFWorld's command mapping


def _spaced(name: str) -> str:
    """A space before each run of digits that follows a run of non-digits (``cabinet16`` -> ``cabinet 16``)."""
    return re.sub(r"(\D+)(\d+)", r"\1 \2", name)


def release_alfworld_command(action: str, args: list[str]) -> str | None:
    """The game command the release made of one plan step: the first of its action words (in the release's order)
    that the lower-cased step contains decides; the arguments are taken by position as the release took them."""
    parts = [action.lower(), *(a.lower() for a in args)]
    line = " ".join(parts)
    word = next((w for w in _RELEASE_ORDER if w in line), None)
    if word is None:
        return None
    needed, make = _RELEASE_TEMPLATES[word]
    return make([_spaced(p) for p in parts]) if len(parts) >= needed else None


_RELEASE_ORDER = ("gotolocation", "openobject", "pickupobject", "putobject", "useobject", "heatobject", "cleanobject",
                  "coolobject", "sliceobject")
# action word -> (the fewest words the step needs, the command from its words)
_RELEASE_TEMPLATES: dict[str, tuple[int, Callable[[list[str]], str]]] = {
    "gotolocation": (1, lambda w: f"go to {w[-1]}"),
    "openobject": (1, lambda w: f"open {w[-1]}"),
    "pickupobject": (3, lambda w: f"take {w[1]} from {w[2]}"),
    "putobject": (3, lambda w: f"move {w[1]} to {w[2]}"),
    "useobject": (2, lambda w: f"use {w[1]}"),
    "heatobject": (3, lambda w: f"heat {w[1]} with {w[2]}"),
    "cleanobject": (3, lambda w: f"clean {w[1]} with {w[2]}"),
    "coolobject": (3, lambda w: f"cool {w[1]} with {w[2]}"),
    "sliceobject": (4, lambda w: f"slice {w[2]} with {w[3]}"),
}


# ------------------------------------------------------------------ what FF's parser refused


def _ff_types(domain: Domain) -> tuple[dict[str, str], bool]:
    """The type tree as FF's parser read the file: each type listed in ``:types`` -> the parent written after its
    '-' (none written: the root), and whether the file lists ``object`` itself among its types. Where it does, FF
    took ``object`` for a type of its own, with only the objects declared of it (or of a type written ``- object``),
    not for the root every object belongs to. Types the file never lists have no parent but the root."""
    parents: dict[str, str] = {}
    declares_object = False
    try:
        tree = read_sexpr(domain.source)
    except PddlError:  # the loader read it; nothing to add then
        return parents, declares_object
    for section in tree.items:
        if not (isinstance(section, SList) and section.head() == ":types"):
            continue
        pending: list[str] = []
        items = section.items[1:]
        index = 0
        while index < len(items):
            item = items[index]
            if isinstance(item, Atom) and item.text == "-" and index + 1 < len(items):
                parent = items[index + 1]
                for name in pending:
                    if isinstance(parent, Atom) and parent.text.lower() != name:
                        parents.setdefault(name, parent.text.lower())
                pending = []
                index += 2
                continue
            if isinstance(item, Atom):
                pending.append(item.text.lower())
                declares_object = declares_object or item.text.lower() == OBJECT
            index += 1
    return parents, declares_object


def ff_crash(domain: Domain) -> str | None:
    """The release's planner crashed ("Segmentation fault") on a domain with an action that has no ``:effect``."""
    try:
        tree = read_sexpr(domain.source)
    except PddlError:
        return None
    for item in tree.items:
        if isinstance(item, SList) and item.head() == ":action":
            keys = {a.text.lower() for a in item.items if isinstance(a, Atom) and a.text.startswith(":")}
            if ":effect" not in keys:
                name = item.items[1].text if len(item.items) > 1 and isinstance(item.items[1], Atom) else "?"
                return f"The planner crashed on the domain file (Segmentation fault): action '{name}' has no :effect."
    return None


class _FFTypes:
    """Types, objects and the actions FF kept, as FF's parser saw the files (``_ff_types``)."""

    def __init__(self, domain: Domain, problem: Problem) -> None:
        self.parents, self.declares_object = _ff_types(domain)
        self.objects = [*problem.objects, *domain.constants]

    def chain(self, type_name: str) -> set[str]:
        found: set[str] = set()
        while type_name not in found:
            found.add(type_name)
            parent = self.parents.get(type_name)
            if parent is None:
                break
            type_name = parent
        return found

    def within(self, type_name: str, wanted: tuple[str, ...]) -> bool:
        if OBJECT in wanted and not self.declares_object:
            return True  # the root: every type is within it
        return any(w in self.chain(type_name) for w in wanted)

    def fits(self, var_types: tuple[str, ...], wanted: tuple[str, ...]) -> bool:
        if var_types == (OBJECT,) and not self.declares_object:
            return True  # a variable of the root type passed FF's check
        return all(self.within(t, wanted) for t in var_types)

    def skipped(self, action: Action) -> bool:
        """FF: "parameter ... has unknown or empty type ... skipping op" (a parameter type without an object)."""
        return any(not any(self.within(t, p.types) for _, t in self.objects) for p in action.parameters)


def ff_skipped_actions(domain: Domain, problem: Problem) -> set[str]:
    """The actions (as the file names them) FF left out because a parameter's type has no object."""
    view = _FFTypes(domain, problem)
    return {domain.original_action(a.name).lower() for a in domain.actions.values() if view.skipped(a)}


def ff_type_refusal(domain: Domain, problem: Problem) -> str | None:
    """FF's message for the first action variable that fills a predicate argument of a type its own type is not a
    subtype of, in an action FF keeps (every parameter type has an object); None when there is none."""
    view = _FFTypes(domain, problem)
    for action in domain.actions.values():
        if view.skipped(action):
            continue
        parameters = {p.name: p.types for p in action.parameters}
        literals = [(lit, parameters) for lit in (*action.preconditions, *action.add_effects, *action.del_effects)]
        for condition in action.conditions:
            literals += _literals_of(condition, parameters)
        for literal, types in literals:
            predicate = domain.predicates.get(literal.predicate)
            if predicate is None:
                continue
            for position, (arg, parameter) in enumerate(zip(literal.args, predicate.parameters)):
                if arg in types and not view.fits(types[arg], parameter.types):
                    return (f"The planner refused the domain file: in action '{domain.original_action(action.name)}',"
                            f" the type of {arg} ({' or '.join(types[arg])}) does not match the type of argument "
                            f"{position + 1} of predicate '{literal.predicate}' ({' or '.join(parameter.types)}).")
    return None


def _literals_of(condition: Condition, types: dict[str, tuple[str, ...]]) -> list[tuple[Literal, dict[str, tuple[str, ...]]]]:
    """The literals of an ADL condition, each with the variable types in force there (quantified ones added)."""
    if isinstance(condition, Literal):
        return [(condition, types)]
    if isinstance(condition, Junction):
        return [pair for part in condition.parts for pair in _literals_of(part, types)]
    if isinstance(condition, Negation):
        return _literals_of(condition.part, types)
    if isinstance(condition, Implication):
        return [*_literals_of(condition.antecedent, types), *_literals_of(condition.consequent, types)]
    if isinstance(condition, Quantified):
        inner = {**types, **{v.name: v.types for v in condition.variables}}
        return _literals_of(condition.body, inner)
    return []


class ReleaseSolver(TieBreakingSolver):
    """The solver of an import under the release's rules: genplan's checks, then what FF's parser refused, then the
    logged plan wherever genplan finds it a valid plan of the files (the release's planner was satisficing), else
    genplan's own planner."""

    def refusal(self, domain: Domain, problem: Problem) -> str | None:
        return ff_crash(domain) or ff_type_refusal(domain, problem)

    def accepts(self, repair: Repair, domain: Domain, problem: Problem) -> bool:
        """A predicate used but not declared only in actions FF left out never reached FF's check."""
        if repair.kind != DECLARED_PREDICATE:
            return False
        match = re.search(r"in action '([^']+)'", repair.message)
        name = re.search(r"predicate '([^']+)'", repair.message)
        if match is None or name is None:
            return False
        skipped = ff_skipped_actions(domain, problem)
        users = {domain.original_action(a.name).lower() for a in domain.actions.values()
                 if any(lit.predicate == name.group(1) for lit in (*a.preconditions, *a.add_effects, *a.del_effects))}
        return bool(users) and users <= skipped

    def _plan(self, domain: Domain, problem: Problem, rewrites: tuple[str, ...] = ()) -> PlannerResult:
        index = self.answered() - 1
        logged = self.log.calls[index].solver_plan if 0 <= index < len(self.log.calls) else None
        if logged:
            plan = realize_task(domain, problem, logged, self.mapper)
            if plan is not None:
                return PlannerResult(SOLVED, plan, "the release's plan (logged; checked by genplan)", 0.0)
        return super()._plan(domain, problem, rewrites)
