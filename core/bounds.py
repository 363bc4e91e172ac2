"""The upper bounds of what the service accepts, in one place.

The services enforce them (so the API, the admin, imports and the workers share them),
the API's input serializers repeat the simple ones so that the schema shows them, and
database constraints back the ones that protect the tables (games per match, rounds,
bot run limits). docs/security.md (Bounds) lists them.
"""

from __future__ import annotations

#: Games in one match, whatever its format: best of 99, 100 fixed games, first to N with
#: at most 100 games (a first-to-N without a cap gets this one).
MAX_MATCH_GAMES = 100

#: Rounds of a tournament (``rounds_planned``, round numbers): also the TRF's limit.
MAX_ROUNDS = 99

#: Entrants of a tournament (a Swiss or a knockout); a round robin takes as many as fit in
#: :data:`MAX_ROUNDS` rounds (100, a double round robin 50).
MAX_ENTRANTS = 1024

#: Members a team may have at one time, and organizers of one club.
MAX_TEAM_MEMBERS = 50
MAX_CLUB_ORGANIZERS = 20

#: Entries of a list in a request body that names tie-breaks.
MAX_TIEBREAKS = 20

#: Seconds on one seat's clock (``clock_left`` of a game): a day.
MAX_CLOCK_SECONDS = 24 * 60 * 60

#: A built-in bot's budget per move: iterations and seconds.
MAX_BOT_ITERATIONS = 100_000
MAX_BOT_SECONDS = 30.0

#: A bot run's limits: seconds per move; the seconds a whole game may last (the side to
#: move when they run out loses on time); the seconds after which a game sent but never
#: started is sent again (its message was lost).
MAX_MOVE_SECONDS = 60.0
MIN_GAME_SECONDS = 10
MAX_GAME_SECONDS = 3600
MIN_RESEND_SECONDS = 5
MAX_RESEND_SECONDS = 24 * 60 * 60
