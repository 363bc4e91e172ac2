"""Notifications through a real SMTP server started by each test: who gets what, in which
language, once; re-releases send only the changed boards; retries; opt-out."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from notices import services
from notices.models import Notice, NoticeKind, NoticePreference, NoticeStatus
from notices.tasks import send_notice_task
from tournaments import services as tournament_services
from tournaments.models import Pairing
from tournaments.services.rounds import PlannedPairing, round_create

pytestmark = pytest.mark.django_db


def with_emails(tournament: Any) -> list[Any]:
    players = []
    for entrant in tournament.entrants.select_related("player").order_by("seed"):
        player = entrant.player
        player.email = f"p{player.pk}@example.org"
        player.save(update_fields=["email"])
        players.append(player)
    return players


def release(organizer: Any, tournament: Any, capture: Any) -> Any:
    with capture(execute=True):
        return tournament_services.round_pair_next(actor=organizer, tournament=tournament,
                                                   release=True)


def test_release_sends_each_player_their_own_board_in_their_language(
    make_event: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_event(entrants=4)
    tournament.venue = "Hall B, 2nd floor"
    tournament.save(update_fields=["venue"])
    players = with_emails(tournament)
    NoticePreference.objects.create(player=players[1], language="ru")
    round_ = release(organizer, tournament, django_capture_on_commit_callbacks)
    round_.refresh_from_db()
    assert smtp.count() == 4
    for pairing in round_.pairings.select_related("entrant_a__player", "entrant_b__player"):
        for me, other, first in ((pairing.entrant_a, pairing.entrant_b, True),
                                 (pairing.entrant_b, pairing.entrant_a, False)):
            [received] = smtp.to(me.player.email)
            text = received.text
            assert other.player.display_name in text
            russian = me.player == players[1]
            assert received.message["Content-Language"] == ("ru" if russian else "en-gb")
            if russian:
                assert f"Доска: {pairing.board}" in text
                assert ("Вы ходите первым." if first else "Первым ходит соперник.") in text
                assert "ваша доска" in received.message["Subject"]
            else:
                assert f"Board: {pairing.board}" in text
                assert ("You move first." if first else "Your opponent moves first.") in text
                assert received.message["Subject"].endswith("round 1: your board")
            assert "Hall B, 2nd floor" in text
            assert "/notices/opt-out/" in text
            assert received.message["List-Unsubscribe"].startswith("<http")
    assert set(Notice.objects.values_list("status", flat=True)) == {NoticeStatus.SENT}
    # released again by hand (the same round): nothing new, nothing twice
    assert services.notify_round_released(round_.pk) == []
    assert smtp.count() == 4


def test_re_release_of_one_swapped_board_sends_two(
    make_event: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_event(entrants=4)
    with_emails(tournament)
    round_ = release(organizer, tournament, django_capture_on_commit_callbacks)
    assert smtp.count() == 4
    boards = list(round_.pairings.order_by("board"))
    tournament_services.round_unpair(actor=organizer, round_=round_)
    swapped = [PlannedPairing(boards[0].entrant_b, boards[0].entrant_a),  # colours swapped
               PlannedPairing(boards[1].entrant_a, boards[1].entrant_b)]
    with django_capture_on_commit_callbacks(execute=True):
        round_create(actor=organizer, tournament=tournament.__class__.objects.get(
            pk=tournament.pk), number=1, planned=swapped, release=True)
    assert smtp.count() == 6
    changed = {boards[0].entrant_a.player.email, boards[0].entrant_b.player.email}
    later = smtp.messages[4:]
    assert {m.recipients[0] for m in later} == changed
    first_now = next(m for m in later if m.recipients[0] == boards[0].entrant_b.player.email)
    assert "You move first." in first_now.text


def test_opted_out_players_and_players_without_address_get_nothing(
    make_event: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any,
    client: Any
) -> None:
    tournament = make_event(entrants=4)
    players = with_emails(tournament)
    players[3].email = ""
    players[3].save(update_fields=["email"])
    token = services.opt_out_token(players[0])
    url = reverse("notices:opt-out", args=[token])
    page = client.get(url)
    assert page.status_code == 200 and players[0].display_name in page.content.decode()
    assert not NoticePreference.objects.filter(opted_out=True).exists()  # a GET changes nothing
    assert client.post(url).status_code == 200
    assert NoticePreference.objects.get(player=players[0]).opted_out
    release(organizer, tournament, django_capture_on_commit_callbacks)
    assert sorted(m.recipients[0] for m in smtp.messages) == sorted(
        [players[1].email, players[2].email])


@pytest.mark.parametrize("token", ["nonsense", "1:abc", "a\x00b", "x" * 500])
def test_a_forged_opt_out_link_changes_nothing(client: Any, make_event: Any, token: str) -> None:
    make_event(entrants=2)
    assert client.post(f"/notices/opt-out/{token}/").status_code in (400, 404)
    assert not NoticePreference.objects.exists()


def test_another_players_token_cannot_be_made_by_changing_the_id(make_event: Any) -> None:
    tournament = make_event(entrants=2)
    first, second = [e.player for e in tournament.entrants.order_by("seed")]
    import base64

    token = services.opt_out_token(first)
    value, stamp, signature = token.split(":")
    other = base64.urlsafe_b64encode(str(second.pk).encode()).decode().rstrip("=")
    assert services.player_from_opt_out_token(token) == first
    assert services.player_from_opt_out_token(f"{other}:{stamp}:{signature}") is None


def test_smtp_errors_are_retried_and_the_message_sent_once(
    make_event: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_event(entrants=2)
    with_emails(tournament)
    smtp.refuse = 2  # "451 try again later" twice
    release(organizer, tournament, django_capture_on_commit_callbacks)
    assert smtp.count() == 2
    notices = list(Notice.objects.order_by("id"))
    assert [n.status for n in notices] == [NoticeStatus.SENT, NoticeStatus.SENT]
    assert sum(n.attempts for n in notices) == 4
    # a copy of the task for a sent notice sends nothing
    assert send_notice_task.delay(notices[0].pk).get() == "skipped"
    assert smtp.count() == 2


def test_a_server_that_keeps_refusing_gives_up(
    make_event: Any, organizer: Any, smtp: Any, settings: Any,
    django_capture_on_commit_callbacks: Any
) -> None:
    settings.NOTICE_RETRIES = 2
    tournament = make_event(entrants=2)
    with_emails(tournament)
    smtp.refuse = 100
    release(organizer, tournament, django_capture_on_commit_callbacks)
    assert smtp.count() == 0
    assert set(Notice.objects.values_list("status", flat=True)) == {NoticeStatus.GAVE_UP}
    assert "451" in Notice.objects.first().error  # type: ignore[union-attr]


def test_check_in_open_tells_every_player_still_in_once(
    make_event: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_event(entrants=3)
    tournament.venue = "Club room"
    tournament.save(update_fields=["venue"])
    players = with_emails(tournament)
    NoticePreference.objects.create(player=players[2], language="ru")
    with django_capture_on_commit_callbacks(execute=True):
        assert len(services.notify_check_in_open(tournament, 1)) == 3
    with django_capture_on_commit_callbacks(execute=True):
        assert services.notify_check_in_open(tournament, 1) == []
    assert smtp.count() == 3
    assert "Check-in for round 1" in smtp.to(players[0].email)[0].text
    assert "Регистрация на тур 1" in smtp.to(players[2].email)[0].text


def test_result_to_confirm_goes_to_that_entrant_only(
    make_event: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from games.series.format import MatchScore
    from matches.services.results import match_result_record

    tournament = make_event(entrants=2)
    with_emails(tournament)
    round_ = release(organizer, tournament, django_capture_on_commit_callbacks)
    pairing = round_.pairings.get()
    match_result_record(actor=organizer, pairing=pairing, score=MatchScore(1, 0, 0),
                        expected_version=pairing.version)
    pairing.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        assert len(services.notify_result_to_confirm(pairing, pairing.entrant_b)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert services.notify_result_to_confirm(pairing, pairing.entrant_b) == []
    [message] = [m for m in smtp.to(pairing.entrant_b.player.email)
                 if "confirm" in m.message["Subject"]]
    assert "waits for your confirmation" in message.text
    assert pairing.entrant_a.player.display_name in message.text
    other = Pairing.objects.exclude(pk=pairing.pk).first()
    assert other is None  # two entrants, one board


def test_result_to_confirm_refuses_an_entrant_of_another_board(
    make_event: Any, organizer: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from core.errors import ApplicationError

    tournament = make_event(entrants=4)
    round_ = release(organizer, tournament, django_capture_on_commit_callbacks)
    first, second = round_.pairings.order_by("board")
    with pytest.raises(ApplicationError) as refused:
        services.notify_result_to_confirm(first, second.entrant_a)
    assert refused.value.field == "entrant"
    assert not Notice.objects.exists()


def test_lineup_deadline_goes_to_the_captains(
    club_a: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from players import services as player_services
    from players.models import Player

    members = [Player.objects.create(display_name=f"Member {i}", club=club_a,
                                     email=f"m{i}@example.org") for i in range(4)]
    event = tournament_services.tournament_create(
        actor=organizer, club=club_a, name="Pairs", game="kazambi-pairs",
        format="round_robin", match_format={"kind": "single", "games": 1})
    entrants = []
    for index in range(2):
        team = player_services.team_create(
            actor=organizer, name=f"Pair {index}", club=club_a,
            members=members[2 * index:2 * index + 2], joined_on=dt.date(2020, 1, 1))
        entrants.append(tournament_services.entrant_register(
            actor=organizer, tournament=event, team=team, rating=1500))
    deadline = timezone.now() + dt.timedelta(hours=2)
    with django_capture_on_commit_callbacks(execute=True):
        ids = services.notify_lineup_deadline(event, entrants[0], 1, deadline, [members[0]])
    assert len(ids) == 1
    [message] = smtp.messages
    assert message.recipients == ["m0@example.org"]
    assert "The lineup of Pair 0 for round 1" in message.text
    notice = Notice.objects.get()
    assert notice.kind == NoticeKind.LINEUP_DEADLINE and notice.status == NoticeStatus.SENT


def test_preferences_are_set_by_the_players_club_only(
    make_event: Any, organizer: Any, club_b: Any
) -> None:
    from core.errors import ApplicationError

    tournament = make_event(entrants=2)
    player = tournament.entrants.first().player
    services.preference_update(actor=organizer, player=player, language="ru")
    assert NoticePreference.objects.get(player=player).language == "ru"
    with pytest.raises(ApplicationError) as refused:
        services.preference_update(actor=organizer, player=player, language="xx")
    assert refused.value.field == "language"
    stranger = club_b.organizers.get()
    with pytest.raises(Exception):  # noqa: B017,PT011 - PermissionDenied or ApplicationError
        services.preference_update(actor=stranger, player=player, opted_out=True)
    assert not NoticePreference.objects.get(player=player).opted_out


def test_draft_rounds_send_nothing_until_released(
    make_event: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_event(entrants=2)
    with_emails(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = tournament_services.round_pair_next(actor=organizer, tournament=tournament,
                                                     release=False)
    assert services.notify_round_released(round_.pk) == []
    assert smtp.count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_release(actor=organizer, round_=round_)
    assert smtp.count() == 2


def test_the_opt_out_form_needs_its_csrf_token(make_event: Any) -> None:
    from django.test import Client

    tournament = make_event(entrants=2)
    player = tournament.entrants.first().player
    client = Client(enforce_csrf_checks=True)
    url = reverse("notices:opt-out", args=[services.opt_out_token(player)])
    assert client.post(url).status_code == 403
    assert not NoticePreference.objects.exists()
    page = client.get(url)
    token = page.cookies["csrftoken"].value
    assert client.post(url, {"csrfmiddlewaretoken": token}).status_code == 200
    assert NoticePreference.objects.get(player=player).opted_out
    # and back again
    assert client.post(url, {"csrfmiddlewaretoken": token, "resume": "1"}).status_code == 200
    assert not NoticePreference.objects.get(player=player).opted_out


def test_a_bye_is_told_in_the_players_language(
    make_event: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_event(format="swiss", entrants=3, rounds_planned=3)
    players = with_emails(tournament)
    for player in players:
        NoticePreference.objects.create(player=player, language="ru")
    round_ = release(organizer, tournament, django_capture_on_commit_callbacks)
    bye = round_.pairings.get(entrant_b=None)
    [message] = smtp.to(bye.entrant_a.player.email)
    assert "вы свободны" in message.text
    assert "Pairing" not in message.text  # the bye's kind in Russian too


def test_opening_check_in_in_the_admin_tells_the_players(
    make_event: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from playerlinks.checkins import check_in_window_open

    tournament = make_event("swiss", entrants=3, rounds_planned=3)
    players = with_emails(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        window = check_in_window_open(actor=organizer, tournament=tournament)
    assert smtp.count() == 3
    assert f"Check-in for round {window.round_number}" in smtp.to(players[0].email)[0].text


def test_a_players_report_asks_the_opponent_to_confirm_from_their_own_page(
    make_event: Any, organizer: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from playerlinks import services as links
    from reporting import services as reporting

    tournament = make_event(entrants=2)
    players = with_emails(tournament)
    round_ = release(organizer, tournament, django_capture_on_commit_callbacks)
    pairing = round_.pairings.get()
    issued = {entrant.pk: links.link_issue(actor=organizer, entrant=entrant)
              for entrant in (pairing.entrant_a, pairing.entrant_b)}
    reporter, _ = issued[pairing.entrant_a_id]
    _, opponent_token = issued[pairing.entrant_b_id]
    sent_before = smtp.count()
    with django_capture_on_commit_callbacks(execute=True):
        reporting.report_submit(link=reporter, pairing=pairing, kind="score",
                                data={"wins_a": 1, "wins_b": 0, "draws": 0})
    opponent = next(p for p in players if p.pk == pairing.entrant_b.player_id)
    message = smtp.to(opponent.email)[-1]
    assert f"/p/{opponent_token}/report/" in message.text and "1-0" in message.text
    assert smtp.count() == sent_before + 1  # the reporter is not asked about their own claim
