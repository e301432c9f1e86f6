"""Phones already seated in a room (e.g. one person with the local stack's bots, or a
table whose roles the host set), played by tests/support/ui_table.py's player logic."""

import random

from playwright.sync_api import Page

from tests.support.ui_table import Phone, UiTable


def table_of(pages: list[Page], seed: int = 1, phone_type: type[Phone] = Phone) -> UiTable:
    """A UiTable over pages that are in a room already (UiTable.open_room not used); its
    phones tap as ``phone_type`` does (tests/support/webkit.py has WebKit's)."""
    table = UiTable.__new__(UiTable)
    table.base_url, table.rng, table.code = "", random.Random(seed), ""
    table.phones = [phone_type(f"phone{i}", page) for i, page in enumerate(pages)]
    table.on_new_screen, table._seen = None, set()
    return table
