"""Writes for matches: the one writer of Game rows and of pairings' results.

Every service takes the acting user as ``actor=`` and checks that they organize the
tournament's club.
"""

from matches.services.results import RecordedResult, match_result_record, result_record

__all__ = ["RecordedResult", "match_result_record", "result_record"]
