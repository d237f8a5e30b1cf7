"""Syntax highlighting with Pygments, shared by the editors, the code views and the diff view.

Tokens are mapped to the highlight names Textual's TextArea themes use (``keyword``, ``comment``...),
so a TextArea (which would otherwise need tree-sitter) and a Rich ``Text`` render in the same colours.
"""

from __future__ import annotations

from functools import cache, lru_cache

from pygments.lexer import Lexer
from pygments.token import Comment, Generic, Keyword, Name, Number, Operator, String, Token, _TokenType
from rich.style import Style
from rich.text import Text

# Files above this many characters are shown without highlighting: keeps the UI responsive.
MAX_HIGHLIGHT_CHARS = 400_000

LANGUAGES = ("pddl", "python", "markdown", "json", "text")

_TOKEN_NAMES: dict[_TokenType, str] = {
    Comment: "comment",
    Keyword: "keyword",
    Keyword.Constant: "boolean",
    Keyword.Type: "type",
    Keyword.Namespace: "keyword",
    Keyword.Declaration: "keyword",
    Operator.Word: "keyword.operator",
    Name.Function: "function",
    Name.Class: "class",
    Name.Builtin: "type.builtin",
    Name.Builtin.Pseudo: "constant.builtin",
    Name.Decorator: "function",
    Name.Variable: "variable",
    Name.Exception: "class",
    String: "string",
    String.Doc: "string.documentation",
    String.Backtick: "inline_code",
    Number: "number",
    Generic.Heading: "heading",
    Generic.Subheading: "heading",
    Generic.Strong: "bold",
    Generic.Emph: "italic",
    Generic.Deleted: "diff.deleted",
    Generic.Inserted: "diff.inserted",
}

# One palette for everything (dark background), close to VS Code's dark theme.
SYNTAX_STYLES: dict[str, Style] = {
    "comment": Style(color="#6A9955"),
    "keyword": Style(color="#C586C0"),
    "keyword.operator": Style(color="#569CD6"),
    "boolean": Style(color="#569CD6"),
    "type": Style(color="#4EC9B0"),
    "type.builtin": Style(color="#4FC1FF"),
    "constant.builtin": Style(color="#569CD6"),
    "function": Style(color="#DCDCAA"),
    "class": Style(color="#4EC9B0"),
    "variable": Style(color="#9CDCFE"),
    "string": Style(color="#CE9178"),
    "string.documentation": Style(color="#CE9178"),
    "inline_code": Style(color="#CE9178"),
    "number": Style(color="#B5CEA8"),
    "heading": Style(color="#569CD6", bold=True),
    "bold": Style(bold=True),
    "italic": Style(italic=True),
    "diff.deleted": Style(color="#F14C4C"),
    "diff.inserted": Style(color="#73C991"),
}


def language_for(path: str) -> str:
    """The highlighting language for a file name."""
    lowered = path.lower()
    if lowered.endswith(".pddl"):
        return "pddl"
    if lowered.endswith(".py"):
        return "python"
    if lowered.endswith((".md", ".markdown")):
        return "markdown"
    if lowered.endswith((".json", ".jsonl")):
        return "json"
    return "text"


@cache
def lexer_for(language: str | None) -> Lexer | None:
    if language == "pddl":
        from genplan.tui.pddl_lexer import PddlLexer

        return PddlLexer()
    if language == "python":
        from pygments.lexers.python import PythonLexer

        return PythonLexer()
    if language == "markdown":
        from pygments.lexers.markup import MarkdownLexer

        return MarkdownLexer()
    if language == "json":
        from pygments.lexers.data import JsonLexer

        return JsonLexer()
    return None


@lru_cache(maxsize=512)
def highlight_name(token_type: _TokenType) -> str | None:
    """The theme name of a token type: the nearest ancestor with a name."""
    current: _TokenType | None = token_type
    while current is not None and current is not Token:
        name = _TOKEN_NAMES.get(current)
        if name is not None:
            return name
        current = current.parent
    return None


def token_spans(text: str, language: str | None) -> list[tuple[int, int, str]]:
    """(start, end, highlight name) character ranges of ``text``."""
    if not text or len(text) > MAX_HIGHLIGHT_CHARS:  # (before the lexer: the empty editors of the first screen
        return []  # would load Pygments' lexers for nothing)
    lexer = lexer_for(language)
    if lexer is None:
        return []
    spans: list[tuple[int, int, str]] = []
    # get_tokens_unprocessed keeps offsets into the original text (get_tokens may rewrite newlines).
    for start, token_type, value in lexer.get_tokens_unprocessed(text):
        name = highlight_name(token_type)
        if name is not None and value:
            spans.append((start, start + len(value), name))
    return spans


def line_highlights(text: str, language: str | None) -> dict[int, list[tuple[int, int | None, str]]]:
    """Highlights per line as TextArea wants them: (start byte, end byte or None, name)."""
    spans = token_spans(text, language)
    result: dict[int, list[tuple[int, int | None, str]]] = {}
    if not spans:
        return result
    lines = text.split("\n")
    line_starts = []
    offset = 0
    for line in lines:
        line_starts.append(offset)
        offset += len(line) + 1
    row = 0
    for start, end, name in spans:
        while row + 1 < len(line_starts) and line_starts[row + 1] <= start:
            row += 1
        current = row
        position = start
        while position < end and current < len(lines):
            line_start = line_starts[current]
            line = lines[current]
            line_end = line_start + len(line)
            piece_end = min(end, line_end)
            if piece_end > position:
                begin_byte = len(line[: position - line_start].encode("utf-8"))
                end_byte = len(line[: piece_end - line_start].encode("utf-8"))
                result.setdefault(current, []).append((begin_byte, end_byte, name))
            current += 1
            if current < len(line_starts):
                position = line_starts[current]
    return result


def highlight_text(text: str, language: str | None, styles: dict[str, Style] | None = None) -> Text:
    """``text`` as a Rich Text with syntax colours."""
    palette = styles or SYNTAX_STYLES
    result = Text(text, no_wrap=True, end="")
    for start, end, name in token_spans(text, language):
        style = palette.get(name)
        if style is not None:
            result.stylize(style, start, end)
    return result


def highlight_lines(text: str, language: str | None) -> list[Text]:
    """One highlighted Text per line of ``text``."""
    return list(highlight_text(text, language).split("\n", allow_blank=True))
