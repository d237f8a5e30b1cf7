"""How a run stands, as ``run.json``'s ``status`` records it.

``RunStatus`` is a ``StrEnum``: a member is its text (``RunStatus.FINISHED == "finished"``, ``json.dumps``
writes ``"finished"``), so run directories read and written with it are the same bytes as before it existed.
"""

from __future__ import annotations

from enum import StrEnum


class RunStatus(StrEnum):
    RUNNING = "running"          # a process works on it (or did, until an open notices it is gone)
    FINISHED = "finished"        # ran to its end
    STOPPED = "stopped"          # stopped on request (a stop key, a limit); it can be resumed
    FAILED = "failed"            # ended by an error
    INTERRUPTED = "interrupted"  # its process died while it was running (kill -9, a crash, power off)
    UNKNOWN = ""                 # a run.json without a status, or with one genplan does not know

    @classmethod
    def parse(cls, value: object) -> RunStatus:
        """The status a run.json value stands for (UNKNOWN for anything else: a hand-edited or partial file)."""
        if isinstance(value, str):
            for status in cls:
                if status.value == value:
                    return status
        return cls.UNKNOWN

    @property
    def ended(self) -> bool:
        """Nothing works on the run any more and it did not die (finished, stopped or failed)."""
        return self in (RunStatus.FINISHED, RunStatus.STOPPED, RunStatus.FAILED)
