"""A Pygments lexer for PDDL domain and problem files (STRIPS with types, plus the usual extensions)."""

from __future__ import annotations

import re

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, Text, Whitespace

# Sections that open a part of a domain or problem definition.
SECTIONS = (
    ":requirements", ":types", ":constants", ":predicates", ":functions", ":action", ":durative-action",
    ":derived", ":parameters", ":precondition", ":effect", ":condition", ":duration", ":objects", ":init",
    ":goal", ":domain", ":metric", ":constraints", ":vars",
)
# Logical connectives and effect operators that follow an opening parenthesis.
OPERATORS = (
    "and", "or", "not", "imply", "forall", "exists", "when", "either", "increase", "decrease",
    "assign", "scale-up", "scale-down", "at start", "at end", "over all", "minimize", "maximize",
)
_NAME = r"[A-Za-z_][A-Za-z0-9_\-]*"
_END = r"(?![A-Za-z0-9_\-])"  # a whole name: `not` must not match the start of `not-eq`


class PddlLexer(RegexLexer):
    """Highlights comments, sections, requirement flags, connectives, variables, types and names.

    The first name after an opening parenthesis is a predicate, action or function name
    (``Name.Function``); names after ``-`` are types (``Keyword.Type``); ``?x`` are variables.
    """

    name = "PDDL"
    aliases = ["pddl"]
    filenames = ["*.pddl"]
    mimetypes = ["text/x-pddl"]
    flags = re.IGNORECASE | re.MULTILINE  # PDDL is case-insensitive

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r";[^\n]*", Comment.Single),
            (r"(\()(\s*)(define)" + _END, bygroups(Punctuation, Whitespace, Keyword.Namespace)),
            (r"(\()(\s*)(domain|problem)(\s+)(" + _NAME + ")",
             bygroups(Punctuation, Whitespace, Keyword.Namespace, Whitespace, Name.Class)),
            (r"(:action|:durative-action|:derived)(\s+)(" + _NAME + ")",
             bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (words(SECTIONS, suffix=_END), Keyword.Declaration),
            (r":" + _NAME, Name.Builtin),  # requirement flags such as :strips, :typing
            (r"(\()(\s*)(=)", bygroups(Punctuation, Whitespace, Operator)),
            (r"(\()(\s*)" + words(OPERATORS, suffix=_END).get(),
             bygroups(Punctuation, Whitespace, Operator.Word)),
            (r"(\()(\s*)(" + _NAME + ")", bygroups(Punctuation, Whitespace, Name.Function)),
            (r"\?" + _NAME, Name.Variable),
            (r"(-)(\s+)(" + _NAME + ")", bygroups(Operator, Whitespace, Keyword.Type)),
            (r"-?\d+(\.\d+)?", Number),
            (r"[()]", Punctuation),
            (_NAME, Name),
            (r"[<>=*/+\-]+", Operator),
            (r".", Text),
        ],
    }
