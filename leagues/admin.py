"""The leagues' admin."""

from leagues import admin_captains  # noqa: E402,F401  (the captain links page; keep last)
