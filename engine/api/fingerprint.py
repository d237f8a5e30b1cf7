"""What a run ran on, recorded so that no other domain can continue it: the fingerprint of a domain source.

A run on a domain directory records in run.json ``fingerprint``: the domain's name, and a digest of its domain
file and of its debug tasks (their file names and bytes; not their paths, so that a copy of the domain matches).
These make a run's prompts and checks; a resume on a source whose fingerprint differs (another domain, or the
same one with its domain file or debug tasks changed) is refused before anything is written
(:func:`check_same_domain`). The eval tasks are recorded too, but a run never reads them: a change there does not
refuse a resume.

A run of an earlier genplan records none; its fingerprint is derived where it can be: from its recorded domain
directory when that still exists and is not the one given, else from the domain name its first request shows
(``(define (domain NAME)``); with neither, the resume goes on as before (unknown).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from genplan.engine.domainlib import DomainDir, DomainDirError, pddl_kind
from genplan.engine.runs import layout

KEY = "fingerprint"
_COMPARED = (("domain", "its domain file"), ("debug", "its debug tasks"))
_DEFINE = re.compile(r"\(\s*define\s*\(\s*domain\s+([^\s()]+)", re.IGNORECASE)


def _digest(files: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for path in files:
        h.update(path.name.encode("utf-8") + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


def fingerprint(domain: DomainDir) -> dict[str, str]:
    """The fingerprint of an opened domain source (OSError when one of its files cannot be read)."""
    kind = pddl_kind(domain.domain_file)
    return {
        "name": domain.name,
        "pddl_name": kind[1] if kind and kind[0] == "domain" else "",
        "domain": _digest([domain.domain_file]),
        "debug": _digest(domain.debug_tasks()),
        "eval": _digest(domain.eval_tasks()),
    }


def fingerprint_of(path: str | Path) -> dict[str, str] | None:
    """The fingerprint of the domain source at ``path`` (None when it does not open as one)."""
    try:
        return fingerprint(DomainDir.open(path))
    except (DomainDirError, OSError):
        return None


def _recorded(meta: Mapping[str, Any], run_dir: Path, given: Path) -> dict[str, str] | None:
    """What the run ran on: its recorded fingerprint, else what can be derived (see the module's words)."""
    recorded = meta.get(KEY)
    if isinstance(recorded, dict) and recorded.get("domain"):
        return {str(k): str(v) for k, v in recorded.items()}
    own = meta.get("domain_dir")
    if isinstance(own, str) and own and Path(own).resolve() != given.resolve():
        derived = fingerprint_of(own)
        if derived is not None:
            return derived
    name = _name_in_first_request(run_dir)
    return {"pddl_name": name} if name else None


def _name_in_first_request(run_dir: Path) -> str | None:
    """The domain name the run's first request that shows a domain file names (a run of an earlier genplan)."""
    for path in sorted(layout.requests_dir(run_dir).glob("*.json"))[:8]:
        try:
            text = path.read_text(encoding="utf-8").replace("\\n", " ")  # the prompt's line breaks, as JSON has them
        except (OSError, UnicodeDecodeError):
            continue
        found = _DEFINE.search(text)
        if found:
            return found.group(1).lower()
    return None


def _describe(print_: Mapping[str, str], where: str | None) -> str:
    name = print_.get("name") or print_.get("pddl_name") or "?"
    return f"{name} ({where})" if where else name


def mismatch(meta: Mapping[str, Any], run_dir: Path, given: Path) -> str | None:
    """Why the domain source ``given`` is not the one the run at ``run_dir`` (its run.json ``meta``) ran on, in
    words naming both; None when it is (or when nothing can tell: a run of an earlier genplan, see above)."""
    recorded = _recorded(meta, run_dir, given)
    if recorded is None:
        return None
    current = fingerprint_of(given)
    if current is None:
        return None  # the caller says what is wrong with the directory itself
    own = meta.get("domain_dir") if isinstance(meta.get("domain_dir"), str) else None
    ran_on, given_is = _describe(recorded, own), _describe(current, str(given))
    recorded_name = recorded.get("pddl_name") or ""
    if recorded_name and current.get("pddl_name") and recorded_name.lower() != current["pddl_name"].lower():
        return f"the run is on domain {ran_on}, and {given_is} is another domain"
    changed = [words for key, words in _COMPARED if key in recorded and recorded[key] != current.get(key)]
    if changed:
        return (f"the run is on domain {ran_on}, and {' and '.join(changed)} differ in {given_is} "
                "(changed since the run began)")
    return None
