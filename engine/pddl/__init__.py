"""PDDL core: parsing, the STRIPS model, the Python encoding of tasks, plans and validation."""

from .errors import PddlError, UnsupportedPddlError
from .loader import load_domain, load_problem, parse_domain_text, parse_problem_text
from .model import Action, Domain, Fact, Literal, Problem, Task

__all__ = [
    "Action",
    "Domain",
    "Fact",
    "Literal",
    "PddlError",
    "Problem",
    "Task",
    "UnsupportedPddlError",
    "load_domain",
    "load_problem",
    "parse_domain_text",
    "parse_problem_text",
]
