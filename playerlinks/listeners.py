"""What this floor does when the tournaments floor announces something."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from playerlinks.models import CheckInWindow
from tournaments.events import PairingAsked, pairing_asked


def refuse_pairing_while_checking_in(event: PairingAsked) -> None:
    """A round whose check-in is still open is not paired: close it first (the missing
    become absent), so nobody is paired who has not come."""
    if CheckInWindow.objects.filter(tournament_id=event.tournament_id,
                                    round_number=event.round_number,
                                    closed_at__isnull=True).exists():
        raise ApplicationError(
            _("Check-in for round %(round)d is still open: close it before pairing.")
            % {"round": event.round_number}, field="check_in")


def connect() -> None:
    pairing_asked.connect(refuse_pairing_while_checking_in)
