"""Smoke test: the real `genplan-tui` command in a pseudo-terminal shows its first screen and quits."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from support.ferry_model import FERRY
from test_tui_support import isolated  # noqa: F401

COMMAND = Path(sys.executable).parent / "genplan-tui"


def read_until(fd: int, needle: bytes, timeout: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_genplan_tui_starts_in_a_terminal_and_quits(isolated: Path) -> None:  # noqa: F811
    assert COMMAND.exists(), "the console script genplan-tui is installed with the package"
    domain = isolated / "ferry"
    shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
    main_fd, child_fd = pty.openpty()
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    process = subprocess.Popen([str(COMMAND), str(domain)], stdin=child_fd, stdout=child_fd, stderr=child_fd,
                               env=env, close_fds=True, start_new_session=True)
    os.close(child_fd)
    try:
        screen = read_until(main_fd, b"Domain", timeout=60)
        assert b"Domain" in screen and b"Tasks" in screen, screen[-400:]
        screen += read_until(main_fd, b"ferry", timeout=30)
        os.write(main_fd, b"q")
        read_until(main_fd, b"\x00never\x00", timeout=0)  # keep the pty drained while the app exits
        deadline = time.monotonic() + 30
        while process.poll() is None and time.monotonic() < deadline:
            read_until(main_fd, b"\x00never\x00", timeout=0.2)
        assert process.wait(timeout=5) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        os.close(main_fd)
