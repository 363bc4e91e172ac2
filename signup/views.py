"""The public sign-up page and the applicant's status page: thin shells over the
services and selectors."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.http import require_http_methods

from config.login_guard import client_address
from core.errors import ApplicationError, LimitError
from playerlinks.models import EntrantLink
from playerlinks.services import link_token
from signup import limits, selectors, services
from signup.forms import HONEYPOT, SignUpForm
from signup.models import ENTRY_FIELDS, SignUp
from tournaments.models import Tournament

#: Where a player's private link page lives (the links pages' path).
LINK_PATH = "/p/{token}/"


def _private(response: HttpResponse) -> HttpResponse:
    """The status page's headers: its address is a secret, so no referrer leaves it, no
    cache keeps it and no search engine lists it."""
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _context(tournament: Tournament, found: Any, form: SignUpForm | None,
             problem: str | None, **more: Any) -> dict[str, Any]:
    taken = selectors.places_taken(tournament)
    cap = selectors.cap_of(found, tournament)
    return {"tournament": tournament, "settings": found, "form": form,
            "problem": services.window_text(problem) if problem else "",
            "places_left": max(0, cap - taken), "capped": found is not None and found.cap,
            "full": taken >= cap, "waitlist": found is not None and found.waitlist,
            "fee": tournament.entry_fee, "nav": "tournaments", **more}


@never_cache
@csrf_protect
@require_http_methods(["GET", "POST"])
def signup_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("club"),
                                   club__slug=club, slug=slug)
    found = selectors.settings_of(tournament)
    if found is None:
        raise Http404("No sign-up for this tournament.")
    problem = selectors.window_problem(found, tournament)
    if request.method == "GET":
        form = SignUpForm(settings=found) if problem is None else None
        return render(request, "signup/signup.html", _context(tournament, found, form, problem))
    form = SignUpForm(request.POST, settings=found)
    status = 400
    try:
        limits.spend(client_address(request))
        if request.POST.get(HONEYPOT, ""):
            raise ApplicationError(services_refusal())
        fields = {key: request.POST.get(key, "") for key in ENTRY_FIELDS if found.asks(key)}
        signup, token = services.sign_up(tournament=tournament,
                                         name=request.POST.get("name", ""), fields=fields)
    except LimitError as error:
        status = 429
        form.add_error(None, error.message)
        response = render(request, "signup/signup.html",
                          _context(tournament, found, form, problem), status=status)
        response["Retry-After"] = str(error.retry_after)
        return response
    except ApplicationError as error:
        field = error.field if error.field in form.fields else None
        form.add_error(field, error.message)
        problem = selectors.window_problem(found, tournament)
        return render(request, "signup/signup.html",
                      _context(tournament, found, form if problem is None else None, problem),
                      status=status)
    del signup
    return HttpResponseRedirect(reverse("signup:status", args=[token]), status=303)


def services_refusal() -> str:
    return _("The form was not sent by a person. Leave the hidden field empty.")


def _signup_or_404(token: str) -> SignUp:
    signup = selectors.signup_from_token(token)
    if signup is None:
        raise Http404("No such sign-up.")
    return signup


def _status_context(request: HttpRequest, signup: SignUp, token: str) -> dict[str, Any]:
    link_url = ""
    if signup.entrant_id is not None and signup.status == "accepted":
        link = EntrantLink.objects.live().filter(entrant_id=signup.entrant_id).first()
        if link is not None:
            link_url = request.build_absolute_uri(LINK_PATH.format(token=link_token(link)))
    return {"signup": signup, "tournament": signup.tournament, "token": token,
            "place": selectors.waitlist_place(signup), "link_url": link_url,
            "can_withdraw": signup.status in ("pending", "accepted", "waitlisted")
            and signup.tournament.status != "finished",
            "fee_due": signup.entrant.fee_due if signup.entrant_id and signup.entrant else None,
            "nav": "tournaments"}


@never_cache
@require_http_methods(["GET"])
def status_page(request: HttpRequest, token: str) -> HttpResponse:
    signup = _signup_or_404(token)
    return _private(render(request, "signup/status.html",
                           _status_context(request, signup, token)))


def _same_origin(response: HttpResponse) -> HttpResponse:
    """The withdrawal page's headers. Its form needs the browser's ``Origin`` header for
    the CSRF check, which a no-referrer page sends as ``null``: this page sends its
    address to its own site only (``same-origin``), and links nowhere else."""
    _private(response)
    response["Referrer-Policy"] = "same-origin"
    return response


@never_cache
@csrf_protect
@require_http_methods(["GET", "POST"])
def withdraw(request: HttpRequest, token: str) -> HttpResponse:
    signup = _signup_or_404(token)
    if request.method == "GET":
        return _same_origin(render(request, "signup/withdraw.html",
                                   _status_context(request, signup, token)))
    try:
        limits.spend(client_address(request))
        if request.POST.get("confirm") != "yes":
            raise ApplicationError(withdraw_unconfirmed(), field="confirm")
        services.signup_withdraw(signup=signup)
    except ApplicationError as error:
        context = _status_context(request, signup, token)
        context["error"] = error.message
        response = render(request, "signup/withdraw.html", context,
                          status=429 if isinstance(error, LimitError) else 400)
        return _same_origin(response)
    return _private(HttpResponseRedirect(reverse("signup:status", args=[token]), status=303))


def withdraw_unconfirmed() -> str:
    return _("Tick the box to confirm that you withdraw.")
