"""Reading a costume mapping file (``costume.toml``, format in docs/variants.md) into a :class:`.Costume`.

Only the file's own content is judged here; whether its names fit a domain is :meth:`.Costume.check`.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from genplan.engine.variants.costume import CATEGORIES, OBJECT_WORDS, WORD, Costume
from genplan.engine.variants.renaming import VariantError, valid_name

MAPPING_FILE = "costume.toml"
_TOP_KEYS = {"domain", "name", "description", "notes", *CATEGORIES, OBJECT_WORDS, "keep"}


def load_mapping(path: str | Path) -> Costume:
    """Read a costume mapping; raises VariantError listing every problem of the file's own content."""
    costume, problems = read_mapping(path)
    if problems or costume is None:
        raise VariantError(problems)
    return costume


def read_mapping(path: str | Path) -> tuple[Costume | None, list[str]]:
    """The mapping made of the file's usable parts, and every problem of its content (one line each).

    Returning both lets a caller also check the usable parts against the domain, so that one run lists
    all problems. The costume is None only when the file cannot be read as TOML at all.
    """
    p = Path(path)
    where = f"{p}: "
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, [f"{where}no such mapping file"]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [f"{where}cannot be read ({exc})"]
    except tomllib.TOMLDecodeError as exc:
        return None, [f"{where}not valid TOML: {exc}"]
    problems: list[str] = [f"{where}unknown key '{k}' (known: {', '.join(sorted(_TOP_KEYS))})" for k in data if k not in _TOP_KEYS]
    domain = data.get("domain")
    if not isinstance(domain, str) or not domain:
        problems.append(f"{where}missing 'domain = \"NAME\"' naming the domain this costume is for")
        domain = ""
    texts = {}
    for key in ("name", "description", "notes"):
        value = data.get(key, "")
        if not isinstance(value, str):
            problems.append(f"{where}'{key}' must be a string")
            value = ""
        texts[key] = value
    if texts["name"] and not valid_name(texts["name"].lower()):
        problems.append(f"{where}'name' = '{texts['name']}' is not a valid PDDL name")
    tables: dict[str, dict[str, str]] = {}
    for category in (*CATEGORIES, OBJECT_WORDS):
        tables[category], table_problems = _read_table(data.get(category, {}), category, where)
        problems += table_problems
    keep, keep_problems = _read_keep(data.get("keep", {}), where)
    problems += keep_problems
    for category in ("objects", OBJECT_WORDS):  # the other kinds are checked against the domain's names
        problems += _clashes(category, tables[category], keep[category], where)
    costume = Costume(
        path=p,
        domain=domain.lower(),
        name=texts["name"].lower() or None,
        description=texts["description"],
        notes=texts["notes"],
        tables=tables,
        keep=keep,
    )
    return costume, problems

def _read_table(raw: Any, category: str, where: str) -> tuple[dict[str, str], list[str]]:
    if not isinstance(raw, dict):
        return {}, [f"{where}[{category}] must be a table of \"original\" = \"new\" names"]
    table: dict[str, str] = {}
    problems: list[str] = []
    for key, value in raw.items():
        old = key.lower().lstrip("?") if category == "variables" else key.lower()
        if not isinstance(value, str):
            problems.append(f"{where}[{category}] {key}: the new name must be a string")
            continue
        new = value.lower().lstrip("?") if category == "variables" else value.lower()
        if category == OBJECT_WORDS:
            if not WORD.match(old):
                problems.append(f"{where}[{category}] '{key}': an object word consists of letters only")
            if not WORD.match(new):
                problems.append(f"{where}[{category}] {key} = '{value}': an object word is replaced by letters only")
        elif not valid_name(new):
            problems.append(
                f"{where}[{category}] {key} = '{value}' is not a valid PDDL name "
                "(a letter, then letters, digits, '-' or '_'; not a PDDL keyword)"
            )
        if old in table:
            problems.append(f"{where}[{category}] names '{old}' twice")
        table[old] = new
    return table, problems


def _read_keep(raw: Any, where: str) -> tuple[dict[str, set[str]], list[str]]:
    keep: dict[str, set[str]] = {c: set() for c in (*CATEGORIES, OBJECT_WORDS)}
    if not isinstance(raw, dict):
        return keep, [f"{where}[keep] must be a table of lists, e.g. predicates = [\"at\"]"]
    problems = []
    for key, names in raw.items():
        if key not in keep:
            problems.append(f"{where}[keep] unknown key '{key}' (known: {', '.join(keep)})")
        elif not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            problems.append(f"{where}[keep] {key} must be a list of names")
        else:
            keep[key] = {n.lower().lstrip("?") for n in names}
    return keep, problems


def _clashes(category: str, table: dict[str, str], kept: set[str], where: str) -> list[str]:
    """Two names renamed to the same new name, or a new name equal to a name kept as it is."""
    problems = []
    sources: dict[str, str] = {}
    for old, new in table.items():
        if new in sources:
            problems.append(f"{where}[{category}] '{sources[new]}' and '{old}' are both renamed to '{new}'")
        sources.setdefault(new, old)
        if new in kept and new != old:
            problems.append(f"{where}[{category}] '{old}' is renamed to '{new}', a name that is kept as it is")
    return problems
