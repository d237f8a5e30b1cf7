"""Python programs: the code in an answer that defines the function the pipeline calls."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from genplan.engine.extract.code_merge import add_helpers, patch_previous, without_usage
from genplan.engine.extract.code_segments import Segment, code_segments, parse_python
from genplan.engine.extract.common import Extraction, clean_answer, fail

DEFAULT_FUNCTION_NAMES = ("generate_solution", "get_plan")


@dataclass(frozen=True)
class ExtractedCode:
    """A program found in an answer.

    ``syntax_error`` ("line 12: '(' was never closed") is set when the model's code does not parse; the
    code is returned anyway so that the error can be reported like any other Python exception.
    ``helpers`` names definitions taken from other code blocks of the answer or from ``previous_code``;
    ``patched`` means the answer only redefined parts of ``previous_code``. ``lines`` is the 1-based,
    inclusive line range of the main code in the answer (None when patched). ``dropped_usage``: top-level
    example usage (``print(...)``, calls of the function, a ``__main__`` block) was removed.
    """

    code: str
    function_name: str
    syntax_error: str | None = None
    helpers: tuple[str, ...] = ()
    patched: bool = False
    lines: tuple[int, int] | None = None
    dropped_usage: bool = False


def extract_code(
    text: str,
    function_names: Iterable[str] = DEFAULT_FUNCTION_NAMES,
    previous_code: str | None = None,
) -> Extraction[ExtractedCode]:
    """The program in an answer: the code that defines one of ``function_names`` at top level.

    Code is looked for in fenced blocks and, outside fences, in runs of code-like lines (answers often
    have no fence at all, or prose before and after the code). Several candidates: one that parses
    beats one that does not, then the last one wins. Names the chosen code uses but does not define are
    taken from the answer's other code blocks, then from ``previous_code`` (Silver et al. appended every
    answer to a growing file for the same reason). An answer that defines none of ``function_names``
    but redefines helpers of ``previous_code`` is applied to it (``patched``).
    """
    names = tuple(function_names)
    text = clean_answer(text)
    if not text.strip():
        return fail("the answer is empty")
    tree, _ = parse_python(text)
    if tree is not None and any(Segment(text, 0, 0, tree, None).defines(n) for n in names):
        segments = [Segment(text, 0, len(text.split("\n")), tree, None)]
        how = "the whole answer"
    else:
        segments = code_segments(text)
        how = ""
    for name in names:
        defining = [s for s in segments if s.defines(name)]
        if defining:
            break
    else:
        return _no_function(segments, names, previous_code)
    parsing = [s for s in defining if s.tree is not None]
    chosen = parsing[-1] if parsing else defining[-1]
    where = how or f"the code at lines {chosen.start + 1}-{chosen.end}"
    span = (chosen.start + 1, chosen.end)
    if chosen.tree is None:
        return Extraction(
            ExtractedCode(chosen.source, name, syntax_error=chosen.error, lines=span),
            f"{where} (it does not parse: {chosen.error})",
        )
    sources = [(s.source, s.tree) for s in reversed(segments) if s is not chosen and s.tree is not None]
    if previous_code:
        prev_tree, _ = parse_python(previous_code)
        if prev_tree is not None:
            sources.append((previous_code, prev_tree))
    source, tree, dropped = without_usage(chosen.source, chosen.tree, names)
    code, helpers = add_helpers(source, tree, sources)
    if dropped:
        where += ", without its example usage"
    if helpers:
        where += f", with {', '.join(helpers)} from elsewhere"
    return Extraction(ExtractedCode(code, name, helpers=helpers, lines=span, dropped_usage=dropped), where)


def _no_function(
    segments: list[Segment], names: tuple[str, ...], previous_code: str | None
) -> Extraction[ExtractedCode]:
    wanted = " or ".join(names)
    if previous_code:
        for name in names:
            patched = patch_previous(previous_code, name, segments)
            if patched is not None:
                code, replaced = patched
                return Extraction(
                    ExtractedCode(code, name, helpers=replaced, patched=True),
                    f"the previous program with the answer's definition of {', '.join(replaced)}",
                )
    defined = [f for s in segments for f in s.function_names()]
    if defined:
        listed = ", ".join(dict.fromkeys(defined))
        return fail(f"the code in the answer defines {listed} but no function named {wanted}")
    if segments:
        return fail(f"the code in the answer does not define the function {wanted}")
    return fail(f"the answer contains no Python code defining {wanted}")
