"""PDDL core: parsing, the model (STRIPS and the ADL subset), the Python encoding of tasks, plans and validation.

Reading files
-------------
``load_domain(path)`` / ``load_problem(path, domain)`` read files; ``parse_domain_text(text)``,
``parse_problem_text(text, domain)`` and ``parse_task_text(domain_text, problem_text)`` read text. All of
them are strict by default: anything genplan cannot use raises a :class:`PddlError` whose ``str()`` is one
line naming the file, the line and what is wrong (:class:`UnsupportedPddlError` for constructs outside
STRIPS with typing, negative preconditions and equality and the ADL subset of docs/pddl.md: numeric fluents,
durative actions, derived predicates, ...). Harmless irregularities (a problem naming another domain) are kept
as one-line texts in ``.warnings``.

Lenient mode for model-written PDDL
-----------------------------------
Pass ``lenient=True`` to any of these functions to repair the slips models make most often instead of
refusing the file (details in :mod:`.lenient`):

- ``or`` / ``imply`` / a negated ``and`` in a precondition: the action is split into one action per case
  (``move`` -> ``move-or1``, ``move-or2``); ``domain.original_action(name)`` gives the name the model wrote;
- undeclared types (declared under ``object``), predicates (declared with the arity of their first use),
  constants in actions and, in problems, objects in ``:init``/``:goal`` (typed after the predicate argument);
- with ``parse_task_text(..., lenient=True)``: types and predicates only the problem uses are declared in the
  domain.

Each repair is a :class:`Repair` in ``domain.repairs`` / ``problem.repairs`` (``kind``, ``message``,
``path``, ``line``; ``str(repair)`` is one line to show a model). Everything else is checked as strictly as
ever, so a lenient load can still raise :class:`PddlError`.

    domain, problem = parse_task_text(domain_text, problem_text, lenient=True)
    for repair in (*domain.repairs, *problem.repairs):
        print(repair)
"""

from genplan.engine.pddl.errors import PddlError, UnsupportedPddlError
from genplan.engine.pddl.loader import load_domain, load_problem, parse_domain_text, parse_problem_text, parse_task_text
from genplan.engine.pddl.model import Action, Domain, Fact, Literal, Problem, Repair, Task

__all__ = [
    "Action",
    "Domain",
    "Fact",
    "Literal",
    "PddlError",
    "Problem",
    "Repair",
    "Task",
    "UnsupportedPddlError",
    "load_domain",
    "load_problem",
    "parse_domain_text",
    "parse_problem_text",
    "parse_task_text",
]
