"""Wall time of a full F5-3 run against the same run forced to one request at a time.

The scripted OpenAI-compatible server answers every request after a fixed delay, so the ratio shows what
running independent requests concurrently (task descriptions, strategy-validation plans) buys.
Goal (issue 4): concurrent <= 0.5 x sequential. Run: .venv/bin/python benchmarks/bench_pipeline.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.ferry_model import FERRY, FerryModel  # noqa: E402
from support.scripted_server import ScriptedServer  # noqa: E402

from genplan.engine.api import pipeline as pipeline_on  # noqa: E402
from genplan.engine.approaches.presets import load_preset  # noqa: E402
from genplan.engine.domainlib import DomainDir  # noqa: E402
from genplan.engine.llm import ModelSettings, make_provider  # noqa: E402
from genplan.engine.runs.store import RunStore  # noqa: E402

DELAY_S = 0.5


def one_run(concurrency: int) -> tuple[float, int]:
    with ScriptedServer(fixed_delay_s=DELAY_S) as server, tempfile.TemporaryDirectory() as tmp:
        server.respond_with(FerryModel())
        config = load_preset("F5-3").with_changes(max_concurrency=concurrency)
        provider = make_provider(ModelSettings(model=server.model, base_url=server.base_url), no_cache=True)
        store = RunStore.create(Path(tmp), {"config": config.to_dict()})
        pipeline = pipeline_on(DomainDir.open(FERRY), config, provider, store)
        start = time.perf_counter()
        pipeline.run()
        return time.perf_counter() - start, len(server.requests)


def main() -> None:
    sequential, calls = one_run(1)
    concurrent, _ = one_run(load_preset("F5-3").max_concurrency)
    print(f"F5-3 on domains/ferry, {calls} model requests, {DELAY_S:.2f} s answer delay")
    print(f"one request at a time: {sequential:6.2f} s")
    print(f"concurrent (default):  {concurrent:6.2f} s")
    print(f"ratio concurrent/sequential: {concurrent / sequential:.2f} (goal <= 0.50)")


if __name__ == "__main__":
    main()
