"""Run ids shortened for narrow columns, keeping what tells a domain's runs apart."""

from __future__ import annotations

import re

# genplan's run ids: [name-]YYYYMMDD-HHMMSS[-suffix] (a pipeline run's suffix is random, an own-loop run's a count)
RUN_ID_TIME = re.compile(r"^(?P<name>.*?)-?(?P<date>\d{8})-(?P<time>\d{6})(?:-(?P<suffix>[^-]+))?$")


def short_run_id(run_id: str) -> str:
    """``20261207-021311-2226`` -> ``021311-2226``, ``autotos-pddl-ferry-20261202-071530`` ->
    ``autotos-pddl-ferry 071530``: the time and suffix tell a domain's runs apart, where the date (the same for a
    day's runs) was what a narrow column kept."""
    match = RUN_ID_TIME.match(run_id)
    if match is None:
        return run_id
    short = match["time"] + (f"-{match['suffix']}" if match["suffix"] else "")
    return f"{match['name']} {short}" if match["name"] else short
