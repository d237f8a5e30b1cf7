"""Finding the answer in model output: descriptions, pseudocode strategies, plans and Python programs.

One module per kind of answer (``nl``, ``strategy``, ``plan``, ``code``), on shared text handling
(``common``). Every extractor returns an :class:`Extraction`. Its ``value`` is what was found, or None
when nothing usable was found; ``reason`` then says why, phrased to complete "nothing could be
extracted because ..." so that the pipeline can tell the model once
(``prompts/<variant>/extraction_failed.j2``) before it counts the answer as a failed attempt. On
success ``reason`` says where the value was found.

Reasoning blocks (``<think>...</think>``) are ignored everywhere. Line numbers reported by the
extractors refer to the answer text as given. No extractor raises on any text, and each runs in time
linear in the answer's length (``tests/test_extract_properties.py``, ``benchmarks/bench_extract.py``).
"""

from __future__ import annotations

from genplan.engine.extract.code import DEFAULT_FUNCTION_NAMES, ExtractedCode, extract_code
from genplan.engine.extract.common import Extraction, FencedBlock, clean_answer, fenced_blocks
from genplan.engine.extract.nl import extract_nl
from genplan.engine.extract.plan import extract_plan, extract_plan_as_reference, parse_action_line
from genplan.engine.extract.strategy import extract_strategy

__all__ = [
    "DEFAULT_FUNCTION_NAMES", "ExtractedCode", "Extraction", "FencedBlock", "clean_answer", "extract_code",
    "extract_nl", "extract_plan", "extract_plan_as_reference", "extract_strategy", "fenced_blocks", "parse_action_line",
]
