"""Pure rating maths: Glicko-2, FIDE Elo, team games and bulk recomputation.

No Django here; the rating services in ``players`` call these modules.
"""
