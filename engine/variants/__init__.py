"""Domain variants: costumed (renamed by a hand-written mapping) and anonymized (numbered names) domains.

A variant has exactly the structure of its original: every action, predicate, type, parameter and object
gets a new name and nothing else changes, so a plan is valid on one side exactly when its renamed copy is
valid on the other. See docs/variants.md for the mapping file format.

One module per responsibility:

- :mod:`.renaming` — :class:`~.renaming.Renaming`, a concrete bijection of names (for one domain and,
  optionally, one task), and applying it: :func:`~.renaming.rename_domain`, ``rename_problem``,
  ``rename_plan``; also the numbered renaming :func:`~.renaming.anonymize_renaming` and :class:`VariantError`.
- :mod:`.costume` — :class:`~.costume.Costume`, the rules of a costume mapping (exact names, and *object
  words* for the objects of tasks of any size): checking them against a domain, making a ``Renaming`` per task.
- :mod:`.mapping` — reading ``costume.toml`` into a ``Costume`` (``load_mapping``, ``read_mapping``).
- :mod:`.directory` — every file of a variant directory planned in memory, then written.
- :mod:`.build` — ``genplan costume`` / ``genplan anonymize``: check everything, then write the directory.
- :mod:`.generator` — :class:`VariantGenerator`, what a variant's ``generator.py`` runs.
"""

from __future__ import annotations

# The one name kept here: every variant directory's generator.py (the shipped ones and those users have
# written with earlier versions) imports it as ``genplan.engine.variants.VariantGenerator``.
from genplan.engine.variants.generator import VariantGenerator

__all__ = ["VariantGenerator"]
