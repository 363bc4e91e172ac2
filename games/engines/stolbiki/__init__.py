"""Stolbiki, the mosaic card game for two teams (docs/rules/stolbiki.md)."""

from games.engines.stolbiki.engine import StolbikiEngine
from games.engines.stolbiki.notation import PASS, Placement

__all__ = ["PASS", "Placement", "StolbikiEngine"]
