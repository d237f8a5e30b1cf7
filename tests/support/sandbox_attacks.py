"""Attacks on the sandbox by a program that first switches off the in-process policy (the audit hook).

Used by tests/test_sandbox_kernel.py in-process (as whoever runs pytest) and as a script run as an
unprivileged user (``python sandbox_attacks.py ISOLATION SETUP_JSON`` prints the results as JSON).
Every attack only *opens* or *probes*: nothing is written to a host file or sent to a host process even if
a layer failed (the test would then fail, not the machine).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from genplan.engine.sandbox import Limits, Program, Sandbox

TASK = (["a"], [("p", "a")], [("p", "a")])

# Five lines that turn the audit hook into a no-op by rewriting the globals it reads at call time.
TAMPER = """
import genplan.engine.sandbox.guard as g
g._DENIED_EXACT.clear(); g._DENIED_PREFIXES.clear(); g.DENIED_MODULES = frozenset()
g._inside = lambda path, root: True
g._SPECIAL_READ_FILES = g._SPECIAL_WRITE_FILES = type('All', (), {'__contains__': lambda s, x: True})()
"""

# Each body runs after TAMPER inside generate_solution; reaching `return ['ESCAPED']` means the attack worked.
ATTACKS: dict[str, str] = {
    "tamper works": "import ctypes\nreturn ['ESCAPED']",  # the hook really is off: refused imports pass
    "sysctl open for writing": "import os\nos.open('/proc/sys/kernel/domainname', os.O_WRONLY)",
    "unix socket connect": "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect({listener!r})",
    "raw socket syscall": (
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "if libc.socket(1, 1, 0) < 0:\n    raise OSError(ctypes.get_errno(), 'socket refused')"
    ),
    "config file key": "return [open({config!r}).read()]",
    "parent environ": "return [open('/proc/{parent}/environ', 'rb').read().decode('latin-1')]",
    "ptrace the server": (
        "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "if libc.ptrace(16, os.getppid(), 0, 0) != 0:\n    raise OSError(ctypes.get_errno(), 'ptrace refused')"
    ),
    "server memory": "import os\nopen(f'/proc/{{os.getppid()}}/mem', 'rb').read(1)",
    "write outside the private tmp": "open({outside!r}, 'w').write('x')",
    "write to /tmp": "open('/tmp/genplan-sandbox-attack-marker', 'w').write('x')",
    "signal outside the group": "import os\nos.kill({victim}, 0)",
    "signal the server": "import os\nos.kill(os.getppid(), 0)",
    "leave a process behind": "import os, time\nif os.fork() == 0:\n    time.sleep(60)\n    os._exit(0)",
    "raw fork": (
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\npid = libc.fork()\n"
        "if pid == 0:\n    libc.pause()\nif pid < 0:\n    raise OSError(ctypes.get_errno(), 'fork refused')"
    ),
    "exec a binary": "import os\nos.execv('/bin/true', ['true'])",
}


def program(body: str, setup: dict[str, Any]) -> Program:
    text = body.format(**setup)
    indented = "\n".join("    " + line for line in (TAMPER + text).strip().splitlines())
    return Program.from_source(f"def generate_solution(objects, init, goal):\n{indented}\n    return ['ESCAPED']\n")


def run_attacks(isolation: str, setup: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Outcome summary per attack: kind, exception line, plan, printed output."""
    results: dict[str, dict[str, Any]] = {}
    with Sandbox(Limits(time_limit=5, grace_seconds=0.5), isolation=isolation) as box:
        for name, body in ATTACKS.items():
            outcome = box.run(program(body, setup), TASK)
            results[name] = {
                "kind": outcome.kind,
                "exception": outcome.exception,
                "plan": outcome.plan,
                "text": json.dumps(outcome.to_dict()),
            }
        results["_layers"] = {"kind": "info", "text": box.layers_line(), "plan": None, "exception": None}
        results["_describe"] = {"kind": "info", "text": json.dumps(box.describe()), "plan": None, "exception": None}
    return results


if __name__ == "__main__":
    print(json.dumps(run_attacks(sys.argv[1], json.loads(sys.argv[2]))))
