"""The notices log in the admin: what was sent to whom; a lost notice sent again on purpose;
embed origins saved through the service (bad ones refused by name)."""

from __future__ import annotations

from typing import Any

import pytest

from notices.models import EmbedSettings, Notice, NoticeStatus
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def test_log_lists_the_sent_notices_and_sends_a_lost_one_again(
    client: Any, make_event: Any, organizer: Any, smtp: Any,
    django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_event(entrants=2)
    for entrant in tournament.entrants.select_related("player"):
        entrant.player.email = f"p{entrant.player.pk}@example.org"
        entrant.player.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_pair_next(actor=organizer, tournament=tournament,
                                            release=True)
    organizer.is_staff = True
    organizer.save(update_fields=["is_staff"])
    client.force_login(organizer)
    page = client.get("/admin/notices/notice/")
    assert page.status_code == 200
    body = page.content.decode()
    for notice in Notice.objects.all():
        assert notice.email in body
    lost = Notice.objects.first()
    assert lost is not None
    Notice.objects.filter(pk=lost.pk).update(status=NoticeStatus.SENDING)  # worker died
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/admin/notices/notice/", {
            "action": "send_again", "_selected_action": [lost.pk]})
    assert answer.status_code == 302
    lost.refresh_from_db()
    assert lost.status == NoticeStatus.SENT
    assert len(smtp.to(lost.email)) == 2  # once at release, once on purpose
    assert client.get(f"/admin/notices/notice/{lost.pk}/change/").status_code == 200


def test_embed_settings_saved_through_the_service(client: Any, organizer: Any,
                                                  club_a: Any) -> None:
    organizer.is_staff = True
    organizer.save(update_fields=["is_staff"])
    client.force_login(organizer)
    bad = client.post("/admin/notices/embedsettings/add/", {
        "club": club_a.pk, "origins": "https://club.example.org/standings"})
    assert bad.status_code == 200 and "is not an origin" in bad.content.decode()
    assert not EmbedSettings.objects.exists()
    good = client.post("/admin/notices/embedsettings/add/", {
        "club": club_a.pk, "origins": "https://Club.example.org\n\nhttp://localhost:8080\n"})
    assert good.status_code == 302, good.content.decode()[:2000]
    assert EmbedSettings.objects.get().origins == ["https://club.example.org",
                                                   "http://localhost:8080"]
