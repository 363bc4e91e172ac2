"""Shared fixtures: users, clubs and an API client (database tests run on PostgreSQL).

Under pytest-xdist (``make test``) each worker has its own test database (pytest-django
adds the worker's name to it); the sets that share something else run on one worker each
(``ONE_WORKER``, by the scheduler below)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.utils import translation

# Test files (or folders) that must not run on two workers at once, by what they share.
ONE_WORKER = {
    # the Celery queues of the suite's Redis broker database (CELERY_BROKER_URL)
    "tests/integration/celery/": "celery-broker",
    "tests/reliability/test_worker_faults.py": "celery-broker",
    "tests/reliability/test_queue_fairness.py": "celery-broker",
    # one Chromium, one live server and one committed club (tests/e2e/conftest.py)
    "tests/e2e/": "browser",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave the full Swiss corpus out unless asked for (``make test-swiss-full``). Under
    xdist, the tests marked ``slow`` come first: the scheduler hands out work in this order
    (after the ``ONE_WORKER`` sets), so the long tests start at once instead of finishing
    last on one worker while the others are done."""
    if os.environ.get("SWISS_FULL") != "1":
        full = [item for item in items if item.get_closest_marker("swiss_full")]
        if full:
            config.hook.pytest_deselected(items=full)
            items[:] = [item for item in items if not item.get_closest_marker("swiss_full")]
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist's load scheduling, except that each set of ``ONE_WORKER`` is one unit
    of work (xdist's own ``--dist loadgroup`` renames node ids, which pytest 9 ignores).
    The largest units go out first, so these sets start at once."""
    from xdist.scheduler import LoadScopeScheduling

    class OneWorkerSets(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return next((group for prefix, group in ONE_WORKER.items()
                         if nodeid.startswith(prefix)), nodeid)

    return OneWorkerSets(config, log)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput") \
            and session.config.getoption("numprocesses", default=None):
        from tests.template_db import drop_template

        drop_template()


@pytest.fixture(scope="session")
def _worker_database(request: pytest.FixtureRequest, django_db_modify_db_settings: None,
                     django_db_blocker: Any) -> Iterator[str | None]:
    """Under xdist on PostgreSQL, this worker's database copied from the migrated template
    (tests/template_db.py); dropped at the end."""
    from tests.template_db import drop_worker_database, worker_database_from_template

    with django_db_blocker.unblock():
        name = worker_database_from_template(request.config)
    yield name
    if name is not None:
        with django_db_blocker.unblock():
            drop_worker_database(name)


@pytest.fixture(scope="session")
def django_db_keepdb(request: pytest.FixtureRequest, _worker_database: str | None) -> bool:
    """pytest-django's: keep the database (``--reuse-db``); also the worker's copy of the
    template, which is complete already (its migrate finds nothing to do)."""
    return _worker_database is not None or bool(request.config.getvalue("reuse_db"))


@pytest.fixture(scope="session", autouse=True)
def _flush_by_delete() -> Iterator[None]:
    """After each transactional test pytest-django empties the tables with Django's flush:
    on PostgreSQL one TRUNCATE of every table, which makes new files for each table and
    index (more than a second on a busy machine). A test leaves a few rows, which DELETE
    removes in a tenth of that time, in the flush's one transaction: the triggers fire as
    for any write (the tournaments' versions and the tables' generations move on, as the
    TRUNCATE trigger moves them), and Django's foreign keys, deferred, are checked at the
    commit, when every table is empty."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self: DatabaseOperations, style: Any, tables: Any, *,
                  reset_sequences: bool = False, allow_cascade: bool = False) -> list[str]:
        if reset_sequences or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences,
                            allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
                for table in tables]

    patch = pytest.MonkeyPatch()
    patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
    yield
    patch.undo()


@pytest.fixture(autouse=True)
def _default_language() -> Any:
    """Each test starts and ends in the default language: a request or a login that
    activated Russian in this thread must not carry into the next test on the worker."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def make_user(db: Any) -> Any:
    from django.contrib.auth import get_user_model

    counter = iter(range(1, 10_000))

    def make(username: str | None = None, **fields: Any) -> Any:
        name = username or f"user{next(counter)}"
        return get_user_model().objects.create_user(name, password="pw-" + name, **fields)

    return make


@pytest.fixture
def admin_user(make_user: Any) -> Any:
    return make_user("root", is_superuser=True, is_staff=True)


@pytest.fixture
def club_a(db: Any, make_user: Any) -> Any:
    from players.models import Club

    club = Club.objects.create(name="Alpha Club", slug="alpha")
    club.organizers.add(make_user("alice"))
    return club


@pytest.fixture
def club_b(db: Any, make_user: Any) -> Any:
    from players.models import Club

    club = Club.objects.create(name="Beta Club", slug="beta")
    club.organizers.add(make_user("bob"))
    return club


@pytest.fixture
def api() -> Any:
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def as_user(api: Any) -> Any:
    def login(user: Any) -> Any:
        api.force_authenticate(user=user)
        return api

    return login


@pytest.fixture
def organizer(club_a: Any) -> Any:
    return club_a.organizers.get()


@pytest.fixture
def make_event(club_a: Any, organizer: Any) -> Callable[..., Any]:
    """A started tournament of ``entrants`` players (bots if ``bots`` names a kind; the
    entrant at index ``i`` of ``installed`` is that installed bot instead); tests/worlds.py."""
    from players.models import Player
    from tests.worlds import enter
    from tournaments import services

    def make(format: str = "round_robin", entrants: int = 4, game: str = "kugamai",
             bots: str | None = None, bot_settings: dict[str, Any] | None = None,
             start: bool = True, installed: dict[int, str] | None = None,
             **fields: Any) -> Any:
        fields.setdefault("release_pairings_at_once", True)  # as tests/worlds.py does
        tournament = services.tournament_create(
            actor=organizer, club=club_a, name=f"{game} {format}", game=game, format=format,
            **fields,
        )
        players = []
        for index in range(entrants):
            program = (installed or {}).get(index, "")
            players.append(Player.objects.create(
                display_name=program or
                f"{'Bot' if bots else 'Player'} {tournament.pk}-{index + 1}",
                club=club_a, is_bot=bool(bots), bot_kind="installed" if program else bots or "",
                bot_settings={} if program else bot_settings or {}, installed_bot=program,
            ))
        return enter(organizer, tournament, players, rating_step=1, start=start)

    return make


@pytest.fixture
def installed_bots_dir(tmp_path: Any, settings: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A bots directory of the test's own (``BOTS_DIR`` here and for the workers it
    starts): the example bot and the test bots of ``tests/data/bots``, linked."""
    from pathlib import Path

    root = Path(__file__).resolve().parent
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "random-example").symlink_to(root.parent / "examples" / "bots" / "random-example")
    for bot in sorted((root / "data" / "bots").iterdir()):
        if bot.is_dir():
            (folder / bot.name).symlink_to(bot)
    settings.BOTS_DIR = folder
    monkeypatch.setenv("BOTS_DIR", str(folder))
    return folder
