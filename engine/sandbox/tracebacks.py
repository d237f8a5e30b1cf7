"""Tracebacks as the model sees them: harness frames removed, every file path replaced.

Silver et al. and Stein et al. show the traceback "without file paths": each ``File "..."`` becomes
``File "<file-name-omitted>"``. Runs inside the forked child (light imports only).
"""

from __future__ import annotations

import os
import re
import traceback as _tb

OMITTED = "<file-name-omitted>"
MAX_TRACEBACK_CHARS = 20_000

_FILE_RE = re.compile(r'File "[^"\n]*"')
# Frames of the harness itself (this package), e.g. the audit hook refusing an operation.
_HARNESS_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def omit_paths(text: str, extra_paths: tuple[str, ...] = ()) -> str:
    """Replace every ``File "..."`` and the given directory paths (e.g. the private temp dir)."""
    text = _FILE_RE.sub(f'File "{OMITTED}"', text)
    for path in extra_paths:
        if path:
            text = text.replace(path, ".")
    return text


def bound(text: str, limit: int = MAX_TRACEBACK_CHARS) -> str:
    """Keep the start and the (more informative) end of an overlong traceback."""
    if len(text) <= limit:
        return text
    head = limit // 4
    tail = limit - head
    skipped = text[head:-tail].count("\n")
    return f"{text[:head]}\n  ... ({skipped} lines omitted) ...\n{text[-tail:]}"


def _trim(te: _tb.TracebackException, program_file: str) -> None:
    """Drop the harness frames above the first frame of the program (here and in chained exceptions)."""
    seen: set[int] = set()
    todo = [te]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        frames = list(current.stack)
        for index, frame in enumerate(frames):
            if frame.filename == program_file:
                kept = [f for f in frames[index:] if not f.filename.startswith(_HARNESS_DIR)]
                current.stack = _tb.StackSummary.from_list(kept)
                break
        else:
            # No program frame (a syntax error, or an error of the harness itself): show no frames at all
            # rather than the harness's own call chain.
            current.stack = _tb.StackSummary.from_list([])
        for chained in (current.__cause__, current.__context__):
            if chained is not None:
                todo.append(chained)


def program_traceback(exc: BaseException, program_file: str, extra_paths: tuple[str, ...] = ()) -> str:
    """The traceback of an exception raised by the program, cleaned for the model."""
    te = _tb.TracebackException.from_exception(exc)
    _trim(te, program_file)
    text = "".join(te.format())  # without frames this is just the error (with its location for syntax errors)
    return bound(omit_paths(text, extra_paths))


def exception_line(exc: BaseException, extra_paths: tuple[str, ...] = ()) -> str:
    """``KeyError: ('at', 't0', 'l0-0')``; for syntax errors the last line of the formatted error."""
    lines = _tb.format_exception_only(type(exc), exc)
    last = lines[-1].strip() if lines else type(exc).__name__
    return bound(omit_paths(last, extra_paths), 2000)


_THREAD_RE = re.compile(r"^(Current thread|Thread) 0x[0-9a-f]+", re.MULTILINE)


def _collapse_repeats(lines: list[str]) -> list[str]:
    """Like Python's tracebacks: a run of identical lines is shown three times, then counted."""
    out: list[str] = []
    index = 0
    while index < len(lines):
        end = index
        while end + 1 < len(lines) and lines[end + 1] == lines[index]:
            end += 1
        count = end - index + 1
        out.extend(lines[index : index + min(count, 3)])
        if count > 3:
            out.append(f"  [Previous line repeated {count - 3} more times]")
        index = end + 1
    return out


def clean_fault_dump(text: str) -> str:
    """The stack faulthandler prints on a fatal signal, without paths, thread ids or the module list."""
    text = text.split("\nExtension modules:", 1)[0]
    text = _THREAD_RE.sub(lambda m: m.group(1), text)
    lines = omit_paths(text.strip()).splitlines()
    return bound("\n".join(_collapse_repeats(lines)), 8000)
