"""Keeping the event loop responsive: warm up once after the first screen, then keep the garbage
collector's pauses short.

CPython's cyclic garbage collector holds the GIL while it walks every tracked object of the generations it
collects. With Textual, the engine and the model client loaded that is about 200,000 objects, and a full
collection took 80–130 ms on our 2-core machines: the longest blocks of the event loop we measured while a
run streamed. Most of those objects live as long as the app (modules, classes, functions, the main
screen). So everything alive when the app mounts is moved into the permanent generation (``gc.freeze``),
which the collector never walks; after the first frame a worker thread imports what a session will need
and builds the lexers (Pygments compiles their rules on first use), and what that created is frozen too.
A larger threshold for the youngest generation then makes collections rarer; each one stays small.
Everything is undone when the app exits.
"""

from __future__ import annotations

import gc
import importlib
from dataclasses import dataclass

# What a session imports on first use: the engine's API (every approach: the pipeline, the model client, the
# sandbox), what a run and a rerun load as the API names them (RUN_MODULES), the screens opened from the main
# one. All of it after the first screen, in a worker thread.
WARM_MODULES = (
    "genplan.engine.api",
    "genplan.tui.replay",
    "genplan.tui.rerun",
    "genplan.tui.screens.rerun",
    "genplan.tui.screens.step",
    "genplan.tui.screens.compare",
    "genplan.tui.screens.editor",
    "genplan.tui.screens.plan_stepper",
    "genplan.tui.screens.settings",
    "genplan.tui.screens.help",
)
# Python's default is (700, 10, 10).
GC_THRESHOLDS = (2000, 10, 10)


@dataclass(frozen=True)
class GcState:
    """What to restore when the app exits."""

    thresholds: tuple[int, int, int]


def warm_up() -> list[str]:
    """Import the modules and build the lexers a session will need. Returns what failed (never raises:
    this only saves time later, and the code that needs a module reports its errors itself)."""
    from genplan.tui.highlight import LANGUAGES, lexer_for

    failed = []
    try:
        from genplan.engine.api import RUN_MODULES
    except Exception:  # noqa: BLE001 - its import error is reported where a run needs it
        RUN_MODULES = ()
    for name in (*WARM_MODULES[:1], *RUN_MODULES, *WARM_MODULES[1:]):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - e.g. an optional dependency missing
            failed.append(name)
    for language in LANGUAGES:
        try:
            lexer_for(language)
        except Exception:  # noqa: BLE001
            failed.append(f"lexer:{language}")
    return failed


def freeze_long_lived(state: GcState | None = None) -> GcState:
    """Exempt every object alive now from later collections and raise the thresholds. Called when the
    app mounts (Textual and the views are loaded) and again after the warm-up; pass the state of the
    first call to the later ones.

    Only the young generations are collected first: a full collection here would itself block for ~90 ms
    and found only a few hundred garbage objects at this point (they stay allocated until the app exits).
    """
    if state is None:
        state = GcState(thresholds=gc.get_threshold())  # type: ignore[arg-type]
    gc.collect(1)
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return state


def restore(state: GcState) -> None:
    """Give the frozen objects back to the collector and restore the thresholds."""
    gc.unfreeze()
    gc.set_threshold(*state.thresholds)
