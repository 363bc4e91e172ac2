from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.smtp_server import Inbox, SmtpServer


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    """A real SMTP server for this test; Django's mail goes to it."""
    with SmtpServer() as server:
        settings.MAILERS = server.mailers()
        settings.NOTICE_RETRY_SECONDS = 0.01
        yield server.inbox
