"""Parsing a model's Python text on the host without the warnings its code would raise when run, one parse at a
time.

A model's program often holds ``re.compile("\\d+")``: Python 3.11 warns about the invalid escape at
compile time (a DeprecationWarning; a SyntaxWarning from 3.12). Checking or cutting up the text is not
running it, so the warning is no concern of the host's, and where warnings are errors (``-W error``,
``PYTHONWARNINGS=error``, a test run that treats them so) it would make a valid program "not Python".
The sandboxed run still compiles the text with the interpreter's own settings.

Every parse and compile of such text on the host goes through this module, under one lock. CPython before
3.11.9/3.12.1 (gh-106905) counts the AST constructor's recursion depth in state shared by all threads: two
threads in ``ast.parse`` at once (the pipeline checks programs and extracts answers in threads; a thread switch
happens inside ``ast.parse`` whenever the collector runs a finalizer) corrupt the count, and the parse raises
``SystemError: AST constructor recursion depth mismatch``. ``warnings.catch_warnings`` is not thread-safe
either (it swaps the process's filter list). A parse takes milliseconds; holding the lock costs nothing
measurable.
"""

from __future__ import annotations

import ast
import threading
import warnings
from types import CodeType
from typing import Any

_COMPILER = threading.Lock()  # one host-side parse or compile at a time (module docstring)


def parse_quietly(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse`` with the compiler's warnings silenced; raises what ``ast.parse`` raises."""
    with _COMPILER, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, filename)


def compile_quietly(source: str, filename: str = "<unknown>") -> CodeType:
    """``compile(..., "exec")`` with the compiler's warnings silenced: the whole compiler, so errors the
    parser alone lets through ("'return' outside function") are raised as well."""
    with _COMPILER, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile(source, filename, "exec", dont_inherit=True)


def literal_quietly(text: str) -> Any:
    """``ast.literal_eval`` of a text (it parses it: the same lock); raises what ``ast.literal_eval`` raises."""
    with _COMPILER, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.literal_eval(text)
