"""A real browser for the tests: Debian's chromium driven by playwright's Python driver (playwright's own browser
download is never used). Tests that need it skip, saying why, only when no chromium is installed."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM_NAMES = ("chromium", "chromium-browser")


def chromium_path() -> str | None:
    found = os.environ.get("GENPLAN_TEST_CHROMIUM") or next(
        (path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)
    return found if found and os.path.exists(found) else None


needs_chromium = pytest.mark.skipif(chromium_path() is None, reason="no chromium installed (Debian package "
                                    "`chromium`, which .ci/run installs); the browser tests need a real browser")


@contextmanager
def browser_page(width: int = 1280, height: int = 900) -> Iterator[tuple[Any, list[str]]]:
    """A page in headless chromium and the list its script errors and console errors are added to."""
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as playwright:
        # --no-sandbox: the tests run as root, where chromium refuses its own sandbox
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.on("pageerror", lambda exc: errors.append(f"script error: {exc}"))
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            yield page, errors
        finally:
            browser.close()


def section_text(page: Any, selector: str) -> str:
    """The text of a section of a page as a reader sees it: scrolled to, then read once the browser has laid it out
    (an exported page lays out its sections as they come into view: content-visibility)."""
    page.locator(selector).scroll_into_view_if_needed()
    page.wait_for_function("selector => document.querySelector(selector).innerText.trim().length > 0", arg=selector)
    return str(page.inner_text(selector))
