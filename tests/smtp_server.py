"""A real SMTP server for tests and the benchmark (aiosmtpd on a thread of its own): every
message it accepts is kept, parsed, with its envelope recipients."""

from __future__ import annotations

import asyncio
import email
import socket
import threading
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


@dataclass
class Received:
    recipients: list[str]
    message: EmailMessage

    @property
    def text(self) -> str:
        body = self.message.get_body(preferencelist=("plain",))
        return body.get_content() if body is not None else ""


@dataclass
class Inbox:
    messages: list[Received] = field(default_factory=list)
    #: Answer "451 try again later" to this many messages before accepting.
    refuse: int = 0
    #: Hold each accepted message this many seconds before answering 250.
    hold_seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: Set when a message arrives (a test waiting for the first one).
    arrived: threading.Event = field(default_factory=threading.Event)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        with self.lock:
            if self.refuse > 0:
                self.refuse -= 1
                return "451 4.3.0 Try again later"
            parsed = email.message_from_bytes(envelope.content, policy=policy.default)
            self.messages.append(Received(list(envelope.rcpt_tos), parsed))  # type: ignore[arg-type]
        self.arrived.set()
        if self.hold_seconds:
            await asyncio.sleep(self.hold_seconds)
        return "250 OK"

    def to(self, address: str) -> list[Received]:
        with self.lock:
            return [m for m in self.messages if address in m.recipients]

    def count(self) -> int:
        with self.lock:
            return len(self.messages)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class SmtpServer:
    def __init__(self) -> None:
        self.inbox = Inbox()
        self.port = free_port()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()

    def mailers(self) -> dict[str, Any]:
        """Django's MAILERS setting that sends to this server."""
        return {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                            "OPTIONS": {"host": "127.0.0.1", "port": self.port,
                                        "timeout": 10}}}
