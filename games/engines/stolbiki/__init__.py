"""Stolbiki, the mosaic card game for two teams (GAMES.md section 3)."""

from games.engines.stolbiki.engine import StolbikiEngine
from games.engines.stolbiki.notation import PASS, Placement

__all__ = ["PASS", "Placement", "StolbikiEngine"]
