"""Parsing a model's Python text on the host without the warnings its code would raise when run.

A model's program often holds ``re.compile("\\d+")``: Python 3.11 warns about the invalid escape at
compile time (a DeprecationWarning; a SyntaxWarning from 3.12). Checking or cutting up the text is not
running it, so the warning is no concern of the host's, and where warnings are errors (``-W error``,
``PYTHONWARNINGS=error``, a test run that treats them so) it would make a valid program "not Python".
The sandboxed run still compiles the text with the interpreter's own settings.
"""

from __future__ import annotations

import ast
import warnings
from types import CodeType


def parse_quietly(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse`` with the compiler's warnings silenced; raises what ``ast.parse`` raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, filename)


def compile_quietly(source: str, filename: str = "<unknown>") -> CodeType:
    """``compile(..., "exec")`` with the compiler's warnings silenced: the whole compiler, so errors the
    parser alone lets through ("'return' outside function") are raised as well."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile(source, filename, "exec", dont_inherit=True)
