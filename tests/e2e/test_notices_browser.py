"""Embeds in Chromium: framed by a page of a listed origin, refused on one that is not;
the venue screen at 1920x1080 (screenshots in artifacts/screenshots/)."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.smtp_server import free_port


class _HostSite:
    """A club's own site on another origin (127.0.0.1:PORT): one page with an iframe."""

    def __init__(self) -> None:
        self.port = free_port()
        self.page = ""
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                body = site.page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def host_site() -> Iterator[_HostSite]:
    site = _HostSite()
    try:
        yield site
    finally:
        site.server.shutdown()


def _frame_shows_table(browser: Browser) -> bool:
    """Switch into the page's iframe and look for the embed's table; back to the top."""
    found = browser._call("POST", f"{browser.session}/element",
                          {"using": "css selector", "value": "iframe"})
    browser._call("POST", f"{browser.session}/frame", {"id": found})
    try:
        return bool(browser.run("return !!document.querySelector('#embed table');"))
    finally:
        browser._call("POST", f"{browser.session}/frame", {"id": None})


def _wait_loaded(browser: Browser) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if browser.run("var f = document.querySelector('iframe');"
                       "return !!f && f.dataset.loaded === '1';"):
            return
        time.sleep(0.2)


def test_embed_framed_only_by_a_listed_origin(
    browser: Browser, page_server: str, club_data: Any, unblocked: None, host_site: _HostSite,
    artifacts: Path
) -> None:
    from notices.models import EmbedSettings

    tournament = club_data.results_night
    embed = f"{page_server}/embed/{tournament.club.slug}/{tournament.slug}/standings/"
    host_site.page = (
        "<!doctype html><html><body><h1>Our club</h1>"
        f'<iframe src="{embed}" width="360" height="600" '
        "onload=\"this.dataset.loaded='1'\"></iframe></body></html>")
    browser.set_size(1280, 900)
    try:
        EmbedSettings.objects.update_or_create(club=tournament.club,
                                               defaults={"origins": ["https://elsewhere.example"]})
        browser.get(host_site.origin + "/")
        _wait_loaded(browser)
        assert not _frame_shows_table(browser)  # refused: not a listed origin
        assert any("frame-ancestors" in line for line in browser.console_errors())
        browser.screenshot(artifacts / "notices-embed-refused.png", full_page=False)
        EmbedSettings.objects.filter(club=tournament.club).update(origins=[host_site.origin])
        browser.get(host_site.origin + "/")
        _wait_loaded(browser)
        assert _frame_shows_table(browser)  # shown on the listed origin
        browser.screenshot(artifacts / "notices-embed-shown.png", full_page=False)
    finally:
        EmbedSettings.objects.filter(club=tournament.club).delete()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_venue_screen_at_1920x1080(
    browser: Browser, page_server: str, club_data: Any, unblocked: None, artifacts: Path,
    language: str
) -> None:
    tournament = club_data.results_night
    browser.console_errors()  # what earlier tests left in the log
    browser.set_size(1920, 1080)
    browser.get(page_server + "/")
    chrome = int(browser.run("return window.outerHeight - window.innerHeight;"))
    browser.set_size(1920, 1080 + chrome)  # the page itself is 1920x1080, as on the TV
    url = f"{page_server}/tournaments/{tournament.club.slug}/{tournament.slug}/screen/"
    browser.get(page_server + "/")
    browser.run(f"document.cookie = 'django_language={language}; path=/';")
    browser.get(url)
    slides = browser.run("return Array.from(document.querySelectorAll('.slide'))"
                         ".map(s => s.dataset.slide);")
    assert slides[0] == "pairings" and "standings" in slides and "results" in slides
    # nothing overflows the screen: the TV shows it all without scrolling
    assert browser.run("return [window.innerWidth, window.innerHeight];") == [1920, 1080]
    assert browser.run("return document.documentElement.scrollHeight <= window.innerHeight + 1;")
    browser.screenshot(artifacts / f"notices-screen-{language}.png", full_page=False)
    browser.run("var wanted = document.querySelector('.slide[data-slide=standings]');"
                "document.querySelectorAll('.slide').forEach("
                "  s => s.classList.toggle('shown', s === wanted));")
    browser.screenshot(artifacts / f"notices-screen-standings-{language}.png", full_page=False)
    assert browser.console_errors() == []


@pytest.mark.parametrize("language", ["en", "ru"])
def test_opt_out_page_and_embed_on_a_phone(
    browser: Browser, page_server: str, club_data: Any, unblocked: None, artifacts: Path,
    language: str
) -> None:
    from notices.services import opt_out_token

    tournament = club_data.results_night
    player = tournament.entrants.select_related("player").first().player
    browser.console_errors()
    browser.set_size(375, 800)
    browser.get(page_server + "/")
    browser.run(f"document.cookie = 'django_language={language}; path=/';")
    for name, path in (
        ("opt-out", f"/notices/opt-out/{opt_out_token(player)}/"),
        ("embed-pairings", f"/embed/{tournament.club.slug}/{tournament.slug}/pairings/"),
        ("embed-bracket", f"/embed/{club_data.knockout.club.slug}/"
                          f"{club_data.knockout.slug}/bracket/"),
    ):
        browser.get(page_server + path)
        assert browser.run("return document.documentElement.scrollWidth <= "
                           "window.innerWidth;"), name  # nothing wider than the phone
        browser.screenshot(artifacts / f"notices-{name}-375-{language}.png")
    assert browser.run("return document.querySelectorAll('a[href*=\"/admin\"]').length;") == 0
    assert browser.console_errors() == []
