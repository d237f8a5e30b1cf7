"""genplan's command line as a person runs it: a child process (``python -m genplan.cli.main``) whose settings and
caches live under the test's own directory, with no ``GENPLAN_*`` or ``OPENAI_*`` variable of the machine's."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

GENPLAN = (sys.executable, "-m", "genplan.cli.main")


def isolated_env(home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment with the user's genplan and model settings left out, config and cache under ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GENPLAN_", "OPENAI_"))}
    env.update(XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"), **(extra or {}))
    return env


def genplan(*args: str, home: Path, env: Mapping[str, str] | None = None, timeout: float = 300,
            **kw: Any) -> subprocess.CompletedProcess[str]:
    """``genplan ARGS`` to its end: exit code, stdout and stderr as text (stdin closed)."""
    return subprocess.run([*GENPLAN, *args], capture_output=True, text=True, env=isolated_env(home, env),
                          timeout=timeout, stdin=subprocess.DEVNULL, **kw)
