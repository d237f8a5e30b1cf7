"""Errors of the PDDL layer: always one line that names the file (and line) and what is wrong."""

from __future__ import annotations

from pathlib import Path

from genplan.engine.errors import GenplanError


class PddlError(GenplanError):
    """A domain, problem or plan file that we cannot use. ``str()`` is the one-line user message."""

    def __init__(self, path: str | Path | None, message: str, line: int | None = None) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        self.detail = message
        super().__init__(self._format())

    def _format(self) -> str:
        where = self.path or "<text>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.detail}"


class UnsupportedPddlError(PddlError):
    """The file uses a PDDL construct outside the STRIPS fragment genplan supports."""
