"""The Versions panel's tree: run → approach phase → candidate → version, each with its pass count.

What a version's phase, candidate and results are comes from the engine (``engine.versions``); the tree
only arranges and labels them. Runs are newest first; the open run is expanded, others start collapsed;
``f`` shows only the open run. Names are shown whole (never cut to ``c1``/``v0``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from genplan.tui.actions import bindings
from genplan.tui.artifacts import Version
from genplan.tui.outcomes import count_text
from genplan.tui.run_labels import short_run_id

PHASE_TITLES = {"description": "descriptions", "strategy": "strategy", "code": "code", "other": "other",
                "succ": "successor function", "goal": "goal test",  # AutoToS's functions
                "pddl-domain": "domain file (PDDL)", "pddl-problem": "problem file (PDDL)"}  # PDDLego+'s files


@dataclass(frozen=True)
class NodeRef:
    """What a tree node stands for: a run, a group inside it, or a version (``key`` = Version.key)."""

    kind: str  # run, group, version
    run_id: str
    key: str = ""


def _place(version: Version) -> Any:
    from genplan.engine.api.versions import version_place

    return version_place(version.kind, version.name)


class VersionsTree(Tree[NodeRef]):
    BINDINGS = bindings("versions")
    DEFAULT_CSS = """
    VersionsTree { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("runs", id=id)
        self.show_root = False
        self.guide_depth = 2
        self.auto_expand = True


class VersionsPanelModel:
    """The tree's content, kept apart from the widget: versions by run, overviews by run id."""

    def __init__(self) -> None:
        self.versions: dict[str, list[Version]] = {}
        self.overviews: dict[str, Any] = {}  # run id -> engine.versions.VersionsOverview

    def set_all(self, versions: list[Version], overviews: list[Any]) -> None:
        self.versions = {}
        for version in versions:
            self.versions.setdefault(version.run_id, []).append(version)
        self.overviews = {o.run_id: o for o in overviews}

    def run_ids(self) -> list[str]:
        """Newest first (run ids start with their creation time; the Runs panel uses the same order)."""
        return sorted(set(self.versions) | set(self.overviews), reverse=True)


OUTCOME_STYLES = {"success": "green", "failure": "red"}
STATUS_GLYPHS = {"finished": ("✓", "green"), "failed": ("✗", "red"), "running": ("⟳", "yellow"),
                 "stopped": ("■", "magenta")}


def run_label(run_id: str, overview: Any, current: bool) -> Text:
    # a run named by its approach (autotos-pddl-ferry-20261202-071530-ab12) keeps its time: the tree's column cut
    # such ids before it, so a domain's runs read alike; a plain id is short enough whole
    shown = short_run_id(run_id) if not run_id[:1].isdigit() else run_id
    text = Text(shown, style="bold" + (" underline" if current else ""))
    if overview is None:
        return text
    glyph, style = STATUS_GLYPHS.get(overview.status, ("?", "dim"))
    text.append(f" {glyph}", style=style)
    if overview.debug_total:
        text.append(" ")
        text.append_text(count_text(overview.debug_solved, overview.debug_total))
    if overview.outcome:  # an own-loop run: the trial's outcome, the evaluation's count
        text.append(f" {overview.outcome}", style=OUTCOME_STYLES.get(overview.outcome.split()[0], ""))
    if overview.forked_from:
        edited = f" {Path(overview.edited_version).name}" if overview.edited_version else ""
        text.append(f"  ⑂ {short_run_id(overview.forked_from)}{edited}", style="italic cyan")
    return text


def version_label(version: Version, overview: Any, marked: bool) -> Text:
    text = Text("● " if marked else "", style="bold cyan")
    if version.kind not in ("strategy", "program", "function", "pddl"):  # the phase says which these are
        text.append(f"{version.kind.replace('_', ' ')} ", style="dim")
    text.append(version.name, style="bold" if version.kind != "reflection" else "")
    results = overview.results_of(version.kind, version.name) if overview is not None else None
    if results is not None:
        text.append("  ")
        text.append_text(count_text(results.solved, results.total))
    if overview is not None and version.kind == "program" and overview.selected_program == version.name:
        text.append(" ★ selected", style="yellow")
    if version.edited:
        text.append(f" ✎ edit of {version.edit_of}" if version.edit_of else " ✎ edited", style="italic magenta")
    return text


def arrange(versions: list[Version]) -> list[tuple[str, str | None, Version]]:
    """(phase, candidate, version) in tree order: phases in the approach's order, candidates by number, and
    within them each version followed by the reflection on it and any edit snapshots."""
    places = {version.key: _place(version) for version in versions}
    phases = {"description": 0, "strategy": 1, "code": 2, "succ": 3, "goal": 4, "pddl-domain": 5, "pddl-problem": 6,
              "other": 7}

    def position(version: Version) -> tuple[Any, ...]:
        place = places[version.key]
        candidate = int(place.candidate[1:]) if place.candidate and place.candidate[1:].isdigit() else 0
        return (phases.get(place.phase, 9), candidate, place.number, place.after, version.name)

    return [(places[v.key].phase, places[v.key].candidate, v) for v in sorted(versions, key=position)]


def arrange_by_run(versions: list[Version]) -> dict[str, list[tuple[str, str | None, Version]]]:
    by_run: dict[str, list[Version]] = {}
    for version in versions:
        by_run.setdefault(version.run_id, []).append(version)
    return {run_id: arrange(members) for run_id, members in by_run.items()}


def build_run(node: TreeNode[NodeRef], run_id: str, arranged: list[tuple[str, str | None, Version]],
              overview: Any, marked: str | None) -> None:
    """Fill a run's node with its phases, candidates and versions."""
    node.remove_children()
    phase_nodes: dict[str, TreeNode[NodeRef]] = {}
    candidate_nodes: dict[tuple[str, str], TreeNode[NodeRef]] = {}
    for phase, candidate, version in arranged:
        parent = phase_nodes.get(phase)
        if parent is None:
            parent = phase_nodes[phase] = node.add(Text(PHASE_TITLES.get(phase, phase), style="bold"),
                                                   NodeRef("group", run_id, phase), expand=True)
        if candidate is not None:
            group = candidate_nodes.get((phase, candidate))
            if group is None:
                group = candidate_nodes[(phase, candidate)] = parent.add(
                    Text(f"candidate {candidate}", style="bold"), NodeRef("group", run_id, candidate), expand=True)
            parent = group
        parent.add_leaf(version_label(version, overview, version.key == marked), NodeRef("version", run_id, version.key))
