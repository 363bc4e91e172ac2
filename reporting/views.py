"""The report page of a private link: ``/p/<token>/report/``.

Phone first and light (no script, one small stylesheet). The token is the only key: an
unknown or revoked one answers 404, and an address that guesses too many is refused for a
while. Every answer carries ``Cache-Control: no-store`` and ``Referrer-Policy: same-origin``:
the token is in the path, and no other site ever sees it as a referrer. (Not
``no-referrer``: under it browsers send ``Origin: null`` with the form's POST, and Django's
CSRF check refuses it, as it must.) Submissions need the CSRF token and draw on per-link
and per-address budgets (reporting.limits).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from config.login_guard import client_address
from core.errors import ApplicationError, LimitError
from playerlinks.services import link_from_token
from reporting import limits, selectors, services
from reporting.models import ResultReport
from tournaments.models import Pairing

FIELDS = ("kind", "wins_a", "wins_b", "draws", "outcome")


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _refusal(request: HttpRequest, message: str, status: int,
             retry_after: int | None = None) -> HttpResponse:
    response = render(request, "reporting/refused.html", {"message": message}, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return _private(response)


@require_http_methods(["GET", "HEAD", "POST"])
def report_page(request: HttpRequest, token: str) -> HttpResponse:
    address = client_address(request)
    try:
        limits.bad_token_check(address)
    except LimitError as error:
        return _refusal(request, error.message, 429, error.retry_after)
    link = link_from_token(token)
    if link is None:
        limits.bad_token_spend(address)
        return _refusal(request, _("This link is unknown or was revoked: ask the director "
                                   "for a new one."), 404)
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    if request.method == "POST":
        values = {name: request.POST.get(name, "")[:20] for name in FIELDS}
        values["games"] = [request.POST.get(f"game_{n}", "")[:8]
                           for n in range(1, selectors.MAX_GAME_ROWS + 1)]
        try:
            limits.submission_spend(link.pk, address)
            pairing = _pairing(request.POST.get("pairing", ""))
            services.report_submit(link=link, pairing=pairing, kind=values["kind"],
                                   data=values, address=address or None)
        except LimitError as error:
            return _refusal(request, error.message, 429, error.retry_after)
        except ApplicationError as error:
            errors[error.field or "form"] = error.message
        else:
            return _private(HttpResponseRedirect(request.path + "?sent=1"))
    page = selectors.report_page(link)
    if request.method != "POST" and page.mine is not None and page.is_open:
        values = _claim_values(page.mine)  # the form starts from the player's own claim
    chosen = dict(enumerate(values.get("games", []), start=1))
    context = {
        "page": page, "errors": errors, "values": values, "error": next(iter(errors.values()),
                                                                        ""),
        "sent": request.GET.get("sent") == "1" and not errors,
        "game_rows": [(number, chosen.get(number, "")) for number in page.game_rows],
        "next_path": request.path,
    }
    response = render(request, "reporting/report.html", context,
                      status=400 if errors else 200)
    return _private(response)


def _claim_values(report: ResultReport) -> dict[str, Any]:
    values: dict[str, Any] = {"kind": report.kind, "games": list(report.winners)}
    if report.kind == "score":
        values.update(wins_a=report.wins_a, wins_b=report.wins_b, draws=report.draws or "")
        if report.outcome != selectors.scored_outcome(report):
            values["outcome"] = report.outcome
    return values


def _pairing(value: str) -> Pairing:
    found = None
    if value.isdecimal() and len(value) < 19:
        found = Pairing.objects.select_related("round__tournament").filter(pk=int(value)).first()
    if found is None:
        raise ApplicationError(_("This board is not on the page any more: reload it."),
                               field="pairing")
    return found
