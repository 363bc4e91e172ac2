"""``POST /api/analysis/`` is bounded by CPU time, not only by requests (issue 32).

A Kazambi 12x12 opening at 5,000 iterations cost seconds of CPU a request, and 60
requests a minute per address let a few addresses take every worker. Now one anonymous
request's search stops at ``ANALYSIS_CPU_SECONDS`` of its thread's CPU time; the CPU time
of one client address, and of all anonymous requests together, runs out and further
requests are refused with 429, ``Retry-After`` and a translated message, computing
nothing; anonymous analyses run one at a time; a repeated position is answered from the
cache without a search; signed-in organizers and staff get the larger budget and draw on
no shared one.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from analysis import limits, services
from games.analysis import analyse_position
from games.engines import get_engine

pytestmark = pytest.mark.django_db

URL = "/api/analysis/"
#: Parsing, the answer's JSON and the middleware, beyond the search's own budget.
SLACK = 0.25


def kazambi_opening() -> dict[str, Any]:
    engine = get_engine("kazambi")
    return dict(engine.to_dict(engine.new_game(seed=1, rows=12, cols=12)))


def ask(api: Any, address: str = "10.0.0.1", seed: int = 0, **headers: Any) -> Any:
    return api.post(URL, {"state": kazambi_opening(), "iterations": 5000, "seed": seed},
                    format="json", REMOTE_ADDR=address, **headers)


def charged_nothing(address: str, before: tuple[float, float]) -> bool:
    """Neither the address's nor the site's count grew since ``before`` (both only
    shrink as the window slides on)."""
    return all(now <= then for now, then in zip(limits.spent(address), before, strict=True))


def exhaust(api: Any, address: str) -> None:
    """Ask from ``address`` (seeds 0, 1, ...) until it is refused."""
    for seed in range(10):
        if ask(api, address, seed).status_code == 429:
            return
    raise AssertionError(f"{address} was never refused")


@pytest.fixture
def small(settings: Any) -> Any:
    """Budgets small enough for a test: 0.2 s of CPU a request and 0.2 s per address in
    each window (the site's own is set by the test of it)."""
    settings.ANALYSIS_CPU_SECONDS = 0.2
    settings.ANALYSIS_ADDRESS_CPU_PER_MINUTE = 0.2 * 60 / limits.WINDOW
    settings.ANALYSIS_SITE_SECONDS_PER_MINUTE = 60.0
    return settings


def test_an_anonymous_analysis_stops_at_its_cpu_budget(api: Any, settings: Any) -> None:
    settings.ANALYSIS_CPU_SECONDS = 0.3
    warm = api.post(URL, {"state": kazambi_opening(), "iterations": 1}, format="json")
    assert warm.status_code == 200  # the process's one-time imports and board tables
    started = time.thread_time()  # the test client runs the view in this thread
    answer = ask(api)
    spent = time.thread_time() - started
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["method"] == "mcts" and 0 < body["iterations"] < 5000
    assert "stopped by the time budget" in body["notes"]
    assert spent < 0.3 + SLACK, spent


def test_an_address_that_spent_its_cpu_time_is_refused_and_another_is_not(
        api: Any, small: Any, django_assert_num_queries: Any) -> None:
    answers = [ask(api, "10.0.0.1", seed) for seed in range(4)]
    codes = [answer.status_code for answer in answers]
    assert codes[0] == 200 and 429 in codes, codes
    refused = answers[codes.index(429)]
    body = refused.json()
    assert body["code"] == "analysis_limit"
    assert body["detail"].startswith("Your address has used up its analysis time")
    assert 1 <= int(refused["Retry-After"]) <= 2 * limits.WINDOW
    assert body["retry_after"] == int(refused["Retry-After"])
    # A search started under the budget may overrun it (two at most, as the window slides).
    assert limits.spent("10.0.0.1")[0] <= 2 * 0.2 + SLACK
    spent = limits.spent("10.0.0.1")
    with django_assert_num_queries(0):  # a refusal reads no table, writes nothing
        assert ask(api, "10.0.0.1", 99).status_code == 429
    assert charged_nothing("10.0.0.1", spent)
    assert ask(api, "10.0.0.2", 1).status_code == 200


def test_rotating_through_one_ipv6_64_is_one_address(api: Any, small: Any) -> None:
    """A subscriber holds a whole /64: each request from a new address of it still draws
    on one budget (an IPv4-mapped address counts as its IPv4 one)."""
    exhaust(api, "2001:db8:1:2::1")
    assert ask(api, "2001:db8:1:2:ffff:1:2:3", 7).status_code == 429
    assert ask(api, "2001:db8:1:3::1", 7).status_code == 200
    exhaust(api, "192.0.2.7")
    assert ask(api, "::ffff:192.0.2.7", 8).status_code == 429


def test_the_site_time_bounds_many_addresses_together(api: Any, small: Any) -> None:
    """0.4 s a window for the site: two searches of 0.2 s CPU (0.4 s wall at most)."""
    small.ANALYSIS_SITE_SECONDS_PER_MINUTE = 0.4 * 60 / limits.WINDOW
    codes = [ask(api, f"10.0.1.{number}", number).status_code for number in range(6)]
    assert codes[0] == 200 and codes[-1] == 429, codes
    assert limits.spent("10.0.1.99")[1] <= 2 * (0.4 + SLACK)
    refused = ask(api, "10.0.1.200", 200)
    assert refused.status_code == 429 and "Retry-After" in refused
    assert refused.json()["detail"].startswith(
        "The analysis time for visitors who are not signed in is used up")


def test_anonymous_analyses_run_one_at_a_time(api: Any, small: Any) -> None:
    with limits.anonymous_search("10.0.2.1"):  # another worker's analysis, running
        busy = ask(api, "10.0.2.2")
    assert busy.status_code == 429 and busy["Retry-After"] == "1"
    assert busy.json()["code"] == "analysis_busy"
    assert ask(api, "10.0.2.2").status_code == 200  # once it ended


def test_the_refusal_speaks_the_visitors_language(api: Any, small: Any) -> None:
    exhaust(api, "10.0.3.1")
    refused = ask(api, "10.0.3.1", 100, HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("Ваш адрес пока израсходовал своё время разбора")


def test_a_repeated_position_is_answered_without_a_search(
        api: Any, small: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    searches: list[str] = []

    def counted(game: str, *args: Any, **kwargs: Any) -> Any:
        searches.append(game)
        return analyse_position(game, *args, **kwargs)

    monkeypatch.setattr(services, "analyse_position", counted)
    first = ask(api, "10.0.4.1", 7)
    spent = limits.spent("10.0.4.1")
    again = ask(api, "10.0.4.2", 7)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and searches == ["kazambi"]
    assert charged_nothing("10.0.4.1", spent)  # the site paid nothing for it
    assert ask(api, "10.0.4.2", 8).status_code == 200 and len(searches) == 2  # a new seed
    exhaust(api, "10.0.4.2")
    assert ask(api, "10.0.4.2", 7).json() == first.json()  # a spent address still reads it


def test_organizers_get_the_larger_budget_and_share_none(
        api: Any, as_user: Any, organizer: Any, make_user: Any, small: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    small.ANALYSIS_ORGANIZER_CPU_SECONDS = 0.6
    budgets: list[float | None] = []

    def recorded(game: str, state: Any, budget: Any, **kwargs: Any) -> Any:
        budgets.append(budget.cpu_seconds)
        return analyse_position(game, state, budget, **kwargs)

    monkeypatch.setattr(services, "analyse_position", recorded)
    exhaust(api, "10.0.5.1")
    spent = limits.spent("10.0.5.1")
    answer = ask(as_user(organizer), "10.0.5.1", 100)  # from the spent address
    assert answer.status_code == 200, answer.content
    assert budgets[0] == 0.2 and budgets[-1] == 0.6
    assert charged_nothing("10.0.5.1", spent)
    assert services.may_analyse_longer(make_user("staffer", is_staff=True))
    plain = as_user(make_user("plain"))  # signed in, organizes nothing: anonymous budget
    assert ask(plain, "10.0.5.1", 101).status_code == 429
