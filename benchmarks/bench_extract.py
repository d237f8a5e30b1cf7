"""Answer extraction time against answer length: 10 KB to 5 MB of the junk models do produce.

    .venv/bin/python benchmarks/bench_extract.py [--sizes 10000,100000,1000000,5000000]

For each extractor and kind of junk it prints the seconds per answer and, against the smallest size, the
time ratio divided by the length ratio (about 1 for linear time). Asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from genplan.engine.autotos.extract import extract_function
from genplan.engine.extract import extract_code, extract_nl, extract_plan, extract_strategy
from genplan.engine.pddlego.loop import parse_json_answer

PROGRAM = "```python\ndef generate_solution(objects, init, goal):\n    plan = []\n    return plan\n```\n"
JUNK: dict[str, Callable[[int], str]] = {
    "bare words, one line": lambda n: ("the ferry sails " * (n // 16 + 1))[:n],
    "a program repeated": lambda n: (PROGRAM * (n // len(PROGRAM) + 1))[:n],
    "unclosed fences": lambda n: (("```python\ndef f(:\n" + "x = (" * 20 + "\n") * (n // 120 + 1))[:n],
}
EXTRACTORS: dict[str, Callable[[str], object]] = {
    "code": lambda text: extract_code(text, ("generate_solution",)),
    "plan": extract_plan,
    "strategy": extract_strategy,
    "nl": extract_nl,
    "autotos function": extract_function,
    "pddlego json": parse_json_answer,
}


def timed(function: Callable[[str], object], text: str) -> float:
    start = time.perf_counter()
    function(text)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000,5000000")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    print(f"{'extractor':18} {'junk':22} " + " ".join(f"{s / 1e6:>9.2f}MB" for s in sizes) + "  linearity")
    worst = 0.0
    for junk_name, make in JUNK.items():
        texts = [make(size) for size in sizes]
        for name, function in EXTRACTORS.items():
            seconds = [timed(function, text) for text in texts]
            worst = max(worst, seconds[-1])
            linearity = (seconds[-1] / max(seconds[0], 1e-6)) / (sizes[-1] / sizes[0])
            print(f"{name:18} {junk_name:22} " + " ".join(f"{s:10.3f}s" for s in seconds) + f"  {linearity:8.2f}")
    print(f"\nslowest extractor on the largest answer: {worst:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
