"""Making the chosen code runnable on its own: helper definitions taken from elsewhere in the answer
(or the previous program), example usage dropped, answers that only redefine helpers patched in."""

from __future__ import annotations

import ast
import builtins
import functools
import heapq

from genplan.engine.extract.code_segments import Segment, parse_python

_BUILTINS = frozenset(dir(builtins))


def _bound_names(tree: ast.AST) -> set[str]:
    """Every name the code binds anywhere (a conservative stand-in for scope analysis)."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
    return bound


def _missing_names(tree: ast.AST) -> set[str]:
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return used - _bound_names(tree) - _BUILTINS


def _top_level_binders(tree: ast.Module) -> dict[str, ast.stmt]:
    """Top-level statements by the names they bind (later statements win, as when Python runs them)."""
    table: dict[str, ast.stmt] = {}
    for node in tree.body:
        names: list[str] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(alias.asname or alias.name).split(".")[0] for alias in node.names if alias.name != "*"]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        for name in names:
            table[name] = node
    return table


@functools.lru_cache(maxsize=16)
def _lines(source: str) -> list[str]:
    """The lines of ``source``, split once however many statements are taken from it."""
    return source.split("\n")


def _statement_source(source: str, node: ast.stmt) -> str:
    lines = _lines(source)
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    last = node.end_lineno or node.lineno
    return "\n".join(lines[first - 1 : last])


def without_usage(source: str, tree: ast.Module, names: tuple[str, ...]) -> tuple[str, ast.Module, bool]:
    """Drop top-level example usage: ``if __name__ == "__main__":`` blocks, ``print(...)`` and statements
    that call the target function. Only the function is ever called, so these would just run (and
    possibly fail) when the program is loaded."""
    drop = [node for node in tree.body if _is_usage(node, names)]
    if not drop:
        return source, tree, False
    lines = source.split("\n")
    dropped_lines = {i for node in drop for i in range(node.lineno - 1, node.end_lineno or node.lineno)}
    kept_lines = {
        i for node in tree.body if node not in drop for i in range(node.lineno - 1, node.end_lineno or node.lineno)
    }
    if dropped_lines & kept_lines:  # statements sharing a line ("a = 1; print(a)"): leave the code alone
        return source, tree, False
    text = "\n".join(line for i, line in enumerate(lines) if i not in dropped_lines).strip("\n")
    new_tree, _ = parse_python(text)
    if new_tree is None:  # cannot happen for whole statements, but never hand back broken code for it
        return source, tree, False
    return text + "\n", new_tree, True


def _is_usage(node: ast.stmt, names: tuple[str, ...]) -> bool:
    if isinstance(node, ast.If):
        test = node.test
        return (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and test.left.id == "__name__"
        )
    if not isinstance(node, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return False
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        if isinstance(func, ast.Name) and func.id == "print":
            return True
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names for n in ast.walk(node)
    )


def add_helpers(source: str, tree: ast.Module, sources: list[tuple[str, ast.Module]]) -> tuple[str, tuple[str, ...]]:
    """Prepend definitions the main code uses but lacks, taken from ``sources`` (first match wins)."""
    main_source, main_tree = source, tree
    binders: dict[str, tuple[str, ast.stmt]] = {}  # name -> (source, statement) of the first source binding it
    for other_source, other_tree in sources:
        for name, node in _top_level_binders(other_tree).items():
            binders.setdefault(name, (other_source, node))
    added: list[tuple[str, ast.stmt, str]] = []  # (name, statement, its source text)
    seen: set[int] = set()
    wanted = _missing_names(main_tree)
    pending = sorted(wanted)  # a heap: names are resolved in alphabetical order, as they come up
    heapq.heapify(pending)
    while pending:
        name = heapq.heappop(pending)
        found = binders.get(name)
        if found is None:
            continue
        other_source, node = found
        if id(node) in seen:
            continue
        seen.add(id(node))
        added.append((name, node, _statement_source(other_source, node)))
        for new in _missing_names(node) - wanted:
            wanted.add(new)
            heapq.heappush(pending, new)
    if not added:
        return main_source, ()
    imports = [text for _, node, text in added if isinstance(node, (ast.Import, ast.ImportFrom))]
    others = [text for _, node, text in added if not isinstance(node, (ast.Import, ast.ImportFrom))]
    parts = []
    if imports:
        parts.append("\n".join(imports))
    parts.extend(others)
    parts.append(main_source)
    return "\n\n\n".join(parts), tuple(sorted({name for name, _, _ in added}))


def patch_previous(previous: str, function_name: str, segments: list[Segment]) -> tuple[str, tuple[str, ...]] | None:
    """Apply an answer that only (re)defines helpers to the previous program: replaced definitions stay
    where they were, new ones go before the main function, new imports to the top."""
    prev_tree, _ = parse_python(previous)
    if prev_tree is None:
        return None
    prev_names = {
        n.name for n in prev_tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    if function_name not in prev_names:
        return None
    definitions: dict[str, str] = {}
    imports: list[str] = []
    for segment in segments:
        for node in segment.tree.body if segment.tree is not None else []:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                definitions[node.name] = _statement_source(segment.source, node)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                imports.append(_statement_source(segment.source, node))
    # Only worth it if the answer changes what the previous program runs: it replaces one of its
    # definitions or supplies one it lacks. (A renamed main function, say, is better reported.)
    effective = (set(definitions) & prev_names) | (set(definitions) & _missing_names(prev_tree))
    if not effective:
        return None
    lines = previous.split("\n")
    pieces = ["\n".join(imports)] if imports else []
    position = 0
    for node in prev_tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
        if node.name == function_name:
            fresh = [text for name, text in definitions.items() if name not in prev_names]
            if fresh:
                pieces += ["\n".join(lines[position:first]), *fresh]
                position = first
        if node.name in definitions:
            pieces += ["\n".join(lines[position:first]), definitions[node.name]]
            position = node.end_lineno or node.lineno
    pieces.append("\n".join(lines[position:]))
    merged = "\n\n".join(piece.strip("\n") for piece in pieces if piece.strip())
    return merged + "\n", tuple(sorted(effective))

