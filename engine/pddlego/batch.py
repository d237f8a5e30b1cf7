"""Imported (or newly run) PDDLego+ / PlanGen trials as a batch directory that ``genplan report`` reads.

``OUT/batch.json`` uses the batch layout of ``engine/batch``: the experiment (environments as domains,
conditions as presets, models, trial numbers as seeds) and one entry per run. Entries are keyed by
(domain, preset, model, seed), so importing a trial again replaces its entry.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from genplan.engine.pddlego.importer import ImportResult
from genplan.engine.runs import read_meta

BATCH_FILE = "batch.json"


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {"experiment": {"name": path.parent.name}, "entries": []}
    return data if isinstance(data, dict) else {"experiment": {"name": path.parent.name}, "entries": []}


def record_import(out: Path, result: ImportResult) -> None:
    record_run(out, result.run_dir)


def record_run(out: Path, run_dir: Path) -> None:
    """Add (or replace) the entry of the trial run in ``run_dir`` in ``OUT/batch.json``."""
    meta = read_meta(run_dir)
    environment = meta.extra.get("environment") or {}
    domain = environment.get("name", "coincollector")
    approach = meta.approach or "pddlego"
    preset = meta.config.get("preset", approach)
    model = meta.model.get("model") or "unknown"
    entry = {"domain": domain, "preset": preset, "model": model, "seed": int(meta.extra.get("trial", 0)),
             "condition": meta.extra.get("condition", ""), "group": environment.get("group", ""),
             "run_dir": os.path.relpath(run_dir, out)}
    batch_path = out / BATCH_FILE
    batch = _load(batch_path)
    entries = [e for e in batch.get("entries", []) if
               (e.get("domain"), e.get("preset"), e.get("model"), e.get("seed"), e.get("condition"))
               != (domain, preset, model, entry["seed"], entry["condition"])]
    entries.append(entry)
    entries.sort(key=lambda e: (e["domain"], e["preset"], e["model"], e["seed"]))

    def unique(key: str) -> list[str]:
        return sorted({str(e[key]) for e in entries})

    batch["experiment"] = {
        "name": batch.get("experiment", {}).get("name", out.name),
        "domains": [{"name": d} for d in unique("domain")],
        "presets": [{"label": p, "config": {"approach": "plangen" if p.lower() == "plangen" else approach}}
                    for p in unique("preset")],
        "models": [{"label": m} for m in unique("model")],
        "seeds": sorted({int(e["seed"]) for e in entries}),
    }
    batch["entries"] = entries
    out.mkdir(parents=True, exist_ok=True)
    tmp = batch_path.with_name(".batch.json.tmp")
    tmp.write_text(json.dumps(batch, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, batch_path)
