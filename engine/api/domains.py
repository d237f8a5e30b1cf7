"""A front end's view of a domain directory: opening it (any layout genplan reads), its task sets in order."""

from __future__ import annotations

from ..domainlib import TASK_SETS, DomainDir, DomainDirError, natural_key

__all__ = ["TASK_SETS", "DomainDir", "DomainDirError", "natural_key"]
