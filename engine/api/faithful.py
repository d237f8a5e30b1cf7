"""The faithful toggles' help texts, for a front end's command line: without the approaches' registry that
:mod:`.presets` loads (a second of imports that `genplan-tui`'s first screen does not wait for)."""

from __future__ import annotations

from genplan.engine.pipeline.faithful import FAITHFUL_HELP, faithful_except_help

__all__ = ["FAITHFUL_HELP", "faithful_except_help"]
