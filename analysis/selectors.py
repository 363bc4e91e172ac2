"""Reads of stored analyses: the whole record, and the marks the game viewer shows."""

from __future__ import annotations

from typing import Any

from analysis.models import AnalysisStatus, GameAnalysis


def game_analysis(game_id: int) -> GameAnalysis | None:
    return GameAnalysis.objects.filter(game_id=game_id).first()


def move_marks(analysis: GameAnalysis | None) -> dict[int, dict[str, Any]]:
    """Move number -> its note, for a finished analysis, or the moves a partial one
    reached (empty otherwise)."""
    finished = (AnalysisStatus.DONE, AnalysisStatus.PARTIAL)
    if analysis is None or analysis.status not in finished or not analysis.result:
        return {}
    return {int(note["number"]): note for note in analysis.result.get("moves", [])}


def progress(analysis: GameAnalysis) -> float:
    if analysis.status == AnalysisStatus.DONE:
        return 1.0
    return analysis.moves_done / analysis.moves_total if analysis.moves_total else 0.0
