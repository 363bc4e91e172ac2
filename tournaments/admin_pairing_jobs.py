"""The admin's pages of a round paired on a worker: the progress page (it refreshes
itself, no script needed) and its JSON for anyone who polls instead."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import gettext

from players.permissions import can_manage_club
from tournaments.models import PairingJob, PairingJobStatus

#: Seconds between two refreshes of the progress page.
REFRESH_SECONDS = 2


def urls(model_admin: Any) -> list[URLPattern]:
    wrap = model_admin.admin_site.admin_view

    def page(request: HttpRequest, object_id: int, job_id: int) -> HttpResponse:
        job = _job(request, object_id, job_id)
        dashboard = reverse("admin:tournaments_tournament_dashboard", args=[object_id])
        if job.status == PairingJobStatus.DONE:
            model_admin.message_user(request, gettext("Round %(round)d is paired.") % {
                "round": job.round_number}, messages.SUCCESS)
            return redirect(dashboard)
        return TemplateResponse(request, "tournaments/admin/pairing_job.html", {
            **model_admin.admin_site.each_context(request), "opts": model_admin.model._meta,
            "title": gettext("Pairing round %(round)d") % {"round": job.round_number},
            "tournament": job.tournament, "original": job.tournament, "job": job,
            "elapsed": _elapsed(job), "refresh": REFRESH_SECONDS,
            "links": {"dashboard": dashboard},
        })

    def state(request: HttpRequest, object_id: int, job_id: int) -> HttpResponse:
        return JsonResponse(job_state(_job(request, object_id, job_id)))

    return [
        path("<int:object_id>/pairing/<int:job_id>/", wrap(page),
             name="tournaments_tournament_pairing_job"),
        path("<int:object_id>/pairing/<int:job_id>/state/", wrap(state),
             name="tournaments_tournament_pairing_job_state"),
    ]


def job_url(job: PairingJob) -> str:
    return reverse("admin:tournaments_tournament_pairing_job",
                   args=[job.tournament_id, job.pk])


def job_state(job: PairingJob) -> dict[str, Any]:
    round_ = (job.tournament.rounds.filter(number=job.round_number).first()
              if job.status == PairingJobStatus.DONE else None)
    return {
        "status": job.status, "round": job.round_number, "elapsed_seconds": _elapsed(job),
        "error": job.error,
        "round_url": reverse("admin:tournaments_round_change", args=[round_.pk])
        if round_ is not None else None,
    }


def _job(request: HttpRequest, tournament_id: int, job_id: int) -> PairingJob:
    """The job, for its club's organizers only: anyone else is told it does not exist."""
    job = get_object_or_404(PairingJob.objects.select_related("tournament__club"),
                            pk=job_id, tournament_id=tournament_id)
    if not can_manage_club(request.user, job.tournament.club):
        raise Http404("No such pairing job.")
    return job


def _elapsed(job: PairingJob) -> int:
    if job.started_at is None:
        return 0
    return int(((job.finished_at or timezone.now()) - job.started_at).total_seconds())
