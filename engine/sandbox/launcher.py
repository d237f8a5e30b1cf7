"""How a fork server is started: the command line, the scrubbed environment, the namespaces.

With namespaces (the default when the kernel allows them without privileges, or when run as root), the
server runs as pid 1 of a new pid namespace (every process of a run dies with it and orphans come back
to it), in a new network namespace (no interface but a loopback that is down: no connections at all), with
its own /proc (other processes, including the parent and its environment, are invisible; with /proc/sys,
/proc/sysrq-trigger and the other host-wide entries read-only, so no write reaches the host kernel even where
namespace root is host root), and
with every mount read-only except the server's private base directory. The read-only mounts are made in an outer
user namespace and the server runs in an inner one, so it cannot make them writable again.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass

SERVER_MODULE = "genplan.engine.sandbox.server"
ISOLATION_ENV = "GENPLAN_SANDBOX_ISOLATION"  # auto | namespaces | plain
ISOLATION_CHOICES = ("auto", "namespaces", "plain")

# Runs inside the outer namespaces as their root: make every mount read-only but the base directory,
# then start the server in an inner user namespace (so the read-only flags are locked).
_NAMESPACE_SCRIPT = r"""
set -u
base=$1; mount=$2; unshare=$3; shift 3
"$mount" --bind "$base" "$base" || exit 97
while read -r _id _parent _dev _root point _rest; do
  case "$point" in "$base"|/proc|/proc/*) continue ;; esac
  "$mount" -o remount,bind,ro "$point" 2>/dev/null
done < /proc/self/mountinfo
# The fresh /proc stays writable for the inner unshare (it writes its uid_map), but what reaches the host
# kernel (sysctls, sysrq, irq affinity, ...) is read-only.
for entry in sys sysrq-trigger irq bus fs acpi scsi driver; do
  [ -e "/proc/$entry" ] || continue
  "$mount" --bind "/proc/$entry" "/proc/$entry" && "$mount" -o remount,bind,ro "/proc/$entry" || exit 96
done
exec "$unshare" --user --map-root-user --mount -- "$@"
"""


@dataclass(frozen=True)
class LaunchPlan:
    command: list[str]
    env: dict[str, str]
    namespaced: bool


def requested_isolation(explicit: str | None = None) -> str:
    choice = explicit or os.environ.get(ISOLATION_ENV, "auto") or "auto"
    if choice not in ISOLATION_CHOICES:
        raise ValueError(f"{ISOLATION_ENV} must be one of {', '.join(ISOLATION_CHOICES)}, got {choice!r}")
    return choice


def namespace_tools() -> tuple[str, str, str] | None:
    """Absolute paths of unshare, mount and sh, or None when one is missing (or not on Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    search = "/usr/bin:/bin:/usr/sbin:/sbin"
    unshare = shutil.which("unshare", path=search)
    mount = shutil.which("mount", path=search)
    sh = shutil.which("sh", path=search)
    if not (unshare and mount and sh):
        return None
    return unshare, mount, sh


def server_env(hash_seed: int, base: str, namespaced: bool, disabled: tuple[str, ...] = ()) -> dict[str, str]:
    """Nothing of the user's environment (API keys, tokens, proxies) reaches the server or the programs."""
    # The server must import genplan the way this process does (editable installs, source checkouts).
    path_entries = [p for p in sys.path if p and os.path.isdir(p)]
    return {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": base,
        "TMPDIR": base,
        "PYTHONHASHSEED": str(hash_seed),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": os.pathsep.join(path_entries),
        "GENPLAN_SANDBOX_NAMESPACED": "1" if namespaced else "0",
        # Kernel layers switched off (only by tests of the other layers and of the backstops).
        "GENPLAN_SANDBOX_DISABLED": ",".join(disabled),
    }


def plan_launch(hash_seed: int, base: str, namespaced: bool, disabled: tuple[str, ...] = ()) -> LaunchPlan:
    python = [sys.executable, "-s", "-B", "-m", SERVER_MODULE, base]
    env = server_env(hash_seed, base, namespaced, disabled)
    if not namespaced:
        return LaunchPlan(python, env, False)
    tools = namespace_tools()
    if tools is None:
        raise RuntimeError("unshare, mount or sh not found")
    unshare, mount, sh = tools
    command = [
        unshare,
        "--user",
        "--map-root-user",
        "--mount",
        "--net",
        "--pid",
        "--fork",
        "--kill-child",
        "--mount-proc",
        "--ipc",
        "--uts",
        sh,
        "-c",
        _NAMESPACE_SCRIPT,
        "genplan-sandbox",
        base,
        mount,
        unshare,
        *python,
    ]
    return LaunchPlan(command, env, True)
