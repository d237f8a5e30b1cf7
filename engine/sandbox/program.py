"""A generated program: its source text and the function the harness calls."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from genplan.engine.errors import GenplanError
from genplan.engine.python_text import parse_quietly

# The paper's name first, then the baseline's (Silver et al.).
DEFAULT_FUNCTIONS = ("generate_solution", "get_plan")
MAX_SOURCE_BYTES = 4 * 1024 * 1024


class ProgramError(GenplanError):
    """A program file we cannot use; str() is one line naming the file."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


@dataclass(frozen=True)
class Program:
    source: str
    path: str | None = None  # where it came from (for messages to the user; never shown to the model)
    functions: tuple[str, ...] = DEFAULT_FUNCTIONS

    @classmethod
    def from_source(cls, source: str, functions: tuple[str, ...] = DEFAULT_FUNCTIONS) -> Program:
        return cls(source=source, path=None, functions=tuple(functions))

    @classmethod
    def from_file(cls, path: str | Path, functions: tuple[str, ...] = DEFAULT_FUNCTIONS) -> Program:
        file = Path(path)
        if not file.exists():
            raise ProgramError(file, "no such file")
        if not file.is_file():
            raise ProgramError(file, "not a file")
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise ProgramError(file, f"cannot be read ({exc.strerror or exc})") from exc
        if len(data) > MAX_SOURCE_BYTES:
            raise ProgramError(file, f"too large for a program ({len(data)} bytes)")
        if b"\x00" in data:
            raise ProgramError(file, "not a Python program (binary data)")
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProgramError(file, f"not a Python program (not UTF-8 text at byte {exc.start})") from exc
        return cls(source=source, path=str(file), functions=tuple(functions))

    def syntax_problem(self) -> str | None:
        """One line describing why the text is not Python, or None. Only parses, never runs the code."""
        try:
            parse_quietly(self.source, self.path or "<program>")
        except SyntaxError as exc:
            where = f"line {exc.lineno}" if exc.lineno else "unknown line"
            return f"not a Python program: {exc.msg} ({where})"
        except (ValueError, RecursionError, MemoryError) as exc:
            return f"not a Python program: {type(exc).__name__}: {exc}"
        return None

    def defines_function(self) -> bool:
        """Whether a top-level ``def`` (or assignment) of one of the expected names exists, by parsing."""
        import ast

        try:
            tree = parse_quietly(self.source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
        names: set[str] = set()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
        return any(name in names for name in self.functions)
