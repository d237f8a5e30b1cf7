"""What a front end needs to make a domain's variants: a costumed copy (every name renamed to a theme) and an
anonymized one (``genplan costume``, ``genplan anonymize``)."""

from __future__ import annotations

from genplan.engine.variants.build import build_anonymized_dir, build_costume_dir
from genplan.engine.variants.renaming import ANONYMOUS_DOMAIN, VariantError

__all__ = ["ANONYMOUS_DOMAIN", "VariantError", "build_anonymized_dir", "build_costume_dir"]
