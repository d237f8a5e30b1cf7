"""Editing a text in the user's own editor ($VISUAL / $EDITOR) while the TUI is suspended."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path


def editor_command() -> list[str] | None:
    value = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not value:
        return None
    try:
        return shlex.split(value)
    except ValueError:
        return None


def edit_text(text: str, suffix: str) -> str | None:
    """Write ``text`` to a temporary file, run the editor on it (blocking) and read it back.

    Returns None when no editor is configured or it failed. Call it while the app is suspended."""
    command = editor_command()
    if command is None:
        return None
    descriptor, name = tempfile.mkstemp(prefix="genplan-edit-", suffix=suffix)
    path = Path(name)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        completed = subprocess.run([*command, str(path)], check=False)
        if completed.returncode != 0:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    finally:
        path.unlink(missing_ok=True)
