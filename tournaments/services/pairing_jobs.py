"""The next round paired by a worker: big Swiss events (``SWISS_BACKGROUND_ENTRANTS``
entrants or more) would hold the admin's request for many seconds.

:func:`pairing_job_request` records a job (one queued or running per tournament: a second
request gets the same job) and sends the ``tournaments.pair_round`` task when it commits;
:func:`pairing_job_run`, the task's body, calls :func:`round_pair_next` as the organizer
who asked and keeps the outcome (the round, or the service's refusal in words) on the job.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from players.permissions import Actor, actor_user, ensure_can_manage_club
from tournaments.models import PAIRING_JOB_ACTIVE, PairingJob, PairingJobStatus, Tournament
from tournaments.services.rounds import round_pair_next
from tournaments.services.tournaments import lock_tournament

logger = logging.getLogger(__name__)

#: A running job older than this counts as lost (a 1,000-entrant round takes 10-20 s).
RUNNING_AT_MOST = timedelta(minutes=15)


def pairs_in_background(tournament: Tournament) -> bool:
    """Whether the admin pairs ``tournament``'s next round on a worker (Swiss only)."""
    return (tournament.system.pairs_by_trf
            and tournament.entrants.count() >= settings.SWISS_BACKGROUND_ENTRANTS)


def pairing_job_request(*, actor: Actor, tournament: Tournament) -> PairingJob:
    """The tournament's queued or running job, or a new one sent to a worker."""
    ensure_can_manage_club(actor, tournament.club)
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        active = tournament.pairing_jobs.filter(status__in=PAIRING_JOB_ACTIVE).first()
        if active is not None and not _lost(active):
            return active
        if active is not None:
            _finish(active, PairingJobStatus.FAILED,
                    _("The worker pairing this round stopped without an answer; it was asked "
                      "again."))
        job = PairingJob.objects.create(
            tournament=tournament, round_number=tournament.rounds.count() + 1,
            requested_by=actor_user(actor))
        pk = job.pk
        transaction.on_commit(lambda: _publish(pk))
    return job


def _lost(job: PairingJob) -> bool:
    """A job running for longer than any pairing takes: its worker (or machine) is gone."""
    return (job.status == PairingJobStatus.RUNNING and job.started_at is not None
            and timezone.now() - job.started_at > RUNNING_AT_MOST)


def _publish(job_id: int) -> None:
    from tournaments.tasks import pair_round_task

    pair_round_task.delay(job_id)


def pairing_job_run(job_id: int) -> str:
    """Pair the job's round (the worker's task); returns the status it leaves, or
    ``"skipped"`` for a job gone or finished already (a second copy of the task)."""
    with transaction.atomic():
        job = (PairingJob.objects.select_for_update(of=("self",))
               .select_related("tournament__club", "requested_by").filter(pk=job_id).first())
        if job is None or job.status not in PAIRING_JOB_ACTIVE:
            return "skipped"
        if job.tournament.rounds.filter(number=job.round_number).exists():
            # A copy sent again after its worker died just after the round was saved.
            return _finish(job, PairingJobStatus.DONE)
        job.status, job.started_at = PairingJobStatus.RUNNING, timezone.now()
        job.save(update_fields=["status", "started_at"])
    if job.requested_by is None:
        return _finish(job, PairingJobStatus.FAILED,
                       _("The organizer who asked for this pairing no longer exists."))
    try:
        round_pair_next(actor=job.requested_by, tournament=job.tournament)
    except (ApplicationError, PermissionDenied) as error:
        return _finish(job, PairingJobStatus.FAILED, str(error))
    except Exception:
        logger.exception("pairing job %s stopped", job_id)
        _finish(job, PairingJobStatus.FAILED,
                _("The pairing stopped unexpectedly; the worker's log has the details."))
        raise
    return _finish(job, PairingJobStatus.DONE)


def _finish(job: PairingJob, status: str, error: str = "") -> str:
    job.status, job.error, job.finished_at = status, error, timezone.now()
    job.save(update_fields=["status", "error", "finished_at"])
    return status
