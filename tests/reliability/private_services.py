"""Private PostgreSQL and Redis servers for the fault tests, on free loopback ports.

The fault tests restart their database and broker; doing that to the shared servers on
5432 and 6379 would break whatever else runs on the machine (other test runs, other
engineers). These servers live in a temporary folder and are restarted the same way
``pg_ctlcluster ... restart`` and ``redis-cli shutdown nosave`` + ``redis-server`` do.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, timeout: float, *, up: bool = True) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                if up:
                    return
        except OSError:
            if not up:
                return
        time.sleep(0.1)
    raise TimeoutError(f"port {port} still {'closed' if up else 'open'} after {timeout} s")


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: p.parent.name)
    if not versions:
        raise FileNotFoundError(f"{name} not found: install PostgreSQL")
    return str(versions[-1] / name)


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class PrivatePostgres:
    """A throw-away PostgreSQL cluster on a free port (trust authentication)."""

    def __init__(self) -> None:
        # Not under pytest's tmp_path: the postgres user must be able to reach the folder.
        self.folder = Path(tempfile.mkdtemp(prefix="clubtourney-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _pg_ctl(self, *args: str) -> None:
        subprocess.run(_as_postgres([_pg_bin("pg_ctl"), "-D", str(self.data), *args]),
                       check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        if not self.data.exists():
            subprocess.run(_as_postgres([_pg_bin("initdb"), "-D", str(self.data), "-U",
                                         "postgres", "--auth=trust", "-E", "UTF8"]),
                           check=True, capture_output=True, timeout=120)
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off")
        self._pg_ctl("-o", options, "-l", str(self.folder / "server.log"), "-w", "start")

    def restart(self) -> None:
        """What ``pg_ctlcluster <version> main restart`` does: a fast shutdown (every
        connection is cut) and a start with the same options."""
        self._pg_ctl("-m", "fast", "-l", str(self.folder / "server.log"), "-w", "restart")

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._pg_ctl("-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def create_database(self, name: str) -> None:
        subprocess.run([_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
                        "postgres", name], check=True, capture_output=True, timeout=60)

    def migrate(self, database: str) -> None:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test",
               "DATABASE_URL": self.url(database)}
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                       cwd=ROOT, env=env, check=True, capture_output=True, timeout=300)


class PrivateRedis:
    """A redis-server on a free port, without persistence, like scripts/ensure_services.sh
    starts the shared one."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)

    def url(self, database: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 (closed with the process)
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=log, stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, 20)

    def shutdown_nosave(self) -> None:
        """``redis-cli shutdown nosave``: every queued message is lost."""
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"],
                       capture_output=True, timeout=20)
        if self.process is not None:
            self.process.wait(timeout=20)
            self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.shutdown_nosave()
