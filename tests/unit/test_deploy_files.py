"""The deployment files parse, and everything they name exists in the project."""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SETTINGS_TEXT = (ROOT / "config" / "settings.py").read_text()
#: The operator's guide: the configuration table and the deployment commands.
OPERATIONS = (ROOT / "docs" / "operations.md").read_text()


def _compose() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def _k8s_documents() -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all((DEPLOY / "k8s" / "app.yaml").read_text()) if doc]


def _systemd_commands() -> dict[str, str]:
    commands = {}
    for unit in sorted((DEPLOY / "systemd").glob("*.service")):
        for line in unit.read_text().splitlines():
            if line.startswith("ExecStart="):
                commands[unit.name] = line.removeprefix("ExecStart=")
    return commands


def _app_commands() -> list[list[str]]:
    compose = _compose()
    commands = [
        service["command"] for service in compose["services"].values()
        if "build" in service and "command" in service
    ]
    for doc in _k8s_documents():
        spec = doc.get("spec", {}).get("template", {}).get("spec", {})
        commands += [c["command"] for c in spec.get("containers", []) if "command" in c]
    for command in _systemd_commands().values():
        words = shlex.split(command)
        words[0] = Path(words[0]).name
        commands.append(words)
    return commands


def _check_module(module: str) -> None:
    assert importlib.util.find_spec(module) is not None, f"no module {module}"


def test_compose_has_the_services_a_club_needs() -> None:
    services = _compose()["services"]
    assert {"web", "worker", "beat", "postgres", "redis", "migrate"} <= set(services)


@pytest.mark.parametrize("command", _app_commands(), ids=lambda c: " ".join(c)[:60])
def test_every_command_names_something_that_exists(command: list[str]) -> None:
    program = command[0]
    if program == "gunicorn":
        module = command[1].split(":")[0]
        _check_module(module)
        config = command[command.index("--config") + 1]
        assert (ROOT / config).exists()
    elif program == "celery":
        _check_module(command[command.index("-A") + 1] + ".celery")
        assert command[command.index("-A") + 2] in {"worker", "beat"}
    elif program == "python":
        assert command[1] == "manage.py"
        from django.core.management import get_commands

        assert command[2] in get_commands()
    else:
        pytest.fail(f"unexpected program {program}")


def test_environment_variables_are_settings() -> None:
    names = set()
    for line in (DEPLOY / "env.example").read_text().splitlines():
        if line and not line.startswith("#"):
            names.add(line.split("=", 1)[0])
    for service in _compose()["services"].values():
        if "build" in service:
            names |= set(service.get("environment", {}))
    for name in names:
        assert re.search(rf'"{name}"', SETTINGS_TEXT), f"{name} is not read by the settings"
        assert name in OPERATIONS, f"{name} is not in the table of docs/operations.md"


def test_systemd_units_start_the_documented_commands() -> None:
    commands = _systemd_commands()
    assert set(commands) == {
        "clubtourney-web.service", "clubtourney-worker.service",
        "clubtourney-analysis-worker.service", "clubtourney-beat.service",
    }
    for command in commands.values():
        words = shlex.split(command)
        documented = " ".join([Path(words[0]).name, *words[1:4]])
        assert documented in OPERATIONS, f"docs/operations.md does not document {command!r}"


def _queues_of(command: list[str]) -> set[str] | None:
    """The queues a worker command names with --queues (or -Q); None: every queue."""
    for index, word in enumerate(command):
        if word.startswith("--queues="):
            return set(word.removeprefix("--queues=").split(","))
        if word in ("-Q", "--queues"):
            return set(command[index + 1].split(","))
    return None


def _worker_layouts() -> dict[str, list[set[str] | None]]:
    """Each deploy file's workers, by the queues they consume."""
    layouts: dict[str, list[set[str] | None]] = {}
    compose = [service["command"] for service in _compose()["services"].values()
               if "build" in service and "worker" in service.get("command", [])]
    layouts["compose"] = [_queues_of(command) for command in compose]
    k8s = [c["command"] for doc in _k8s_documents()
           for c in doc.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
           if "worker" in c.get("command", [])]
    layouts["k8s"] = [_queues_of(command) for command in k8s]
    layouts["systemd"] = [_queues_of(shlex.split(command))
                          for command in _systemd_commands().values()
                          if " worker " in command]
    return layouts


@pytest.mark.parametrize("name", ["compose", "k8s", "systemd"])
def test_every_queue_has_a_worker_and_analyses_have_their_own(name: str) -> None:
    """docs/workers.md: bot games and short tasks on one worker, analyses on another, so
    that analyses never hold the processes that play bot games."""
    from django.conf import settings

    every = {queue.name for queue in settings.CELERY_TASK_QUEUES}
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert routed | {settings.CELERY_TASK_DEFAULT_QUEUE} <= every
    workers = _worker_layouts()[name]
    consumed = set().union(*(every if queues is None else queues for queues in workers))
    assert consumed == every, f"{name}: no worker consumes {every - consumed}"
    for queues in workers:
        assert queues is not None and not {"analysis", "bots"} <= queues, (
            f"{name}: a worker consumes analyses and bot games together: {queues}")


def test_make_run_and_make_worker_consume_every_queue() -> None:
    """The embedded worker names no queue, so it consumes every queue the settings name."""
    run = (ROOT / "scripts" / "run.sh").read_text()
    makefile = (ROOT / "Makefile").read_text()
    for text in (run, makefile):
        start = text.index("-A config worker")
        command = text[start:text.index("\n", start)]
        if command.endswith("\\"):  # run.sh's command goes on on the next line
            command += text[start + len(command):].split("\n", 2)[1]
        assert "-Q" not in command and "--queues" not in command, command


def _project_packages() -> list[str]:
    """The project's top-level packages: every folder beside manage.py with an apps.py."""
    return sorted(path.parent.name for path in ROOT.glob("*/apps.py"))


def test_dockerfile_copies_every_app() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    packages = _project_packages()
    assert {"config", "games", "matches", "ratings", "botruns"} <= set(packages)
    for name in (*packages, "templates", "manage.py"):
        assert f"COPY {name}" in dockerfile, f"deploy/Dockerfile does not copy {name}"


def test_the_installed_package_includes_every_app() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    for name in _project_packages():
        assert f'"{name}*"' in pyproject, f"pyproject.toml's package list misses {name}"


def _manage(*args: str, **env: str) -> Any:
    import os
    import subprocess
    import sys

    ours = {"DEBUG", "SECRET_KEY", "SECURE_SSL_REDIRECT", "CELERY_TASK_ALWAYS_EAGER"}
    clean = {k: v for k, v in os.environ.items() if k not in ours}
    clean.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "false",
                  "DATABASE_URL": "sqlite:////tmp/deploy-check.sqlite3", **env})
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean,
                          capture_output=True, text=True)


@pytest.mark.slow
def test_production_settings_pass_check_deploy() -> None:
    import secrets

    key = secrets.token_urlsafe(50)
    done = _manage("check", "--deploy", "--fail-level", "WARNING", SECRET_KEY=key)
    assert done.returncode == 0, done.stderr + done.stdout
    assert "no issues" in done.stdout


def test_production_refuses_to_start_without_secret_key() -> None:
    done = _manage("check", SECRET_KEY="")
    assert done.returncode != 0
    assert "SECRET_KEY is not set" in done.stderr
    weak = _manage("check", SECRET_KEY="short")
    assert weak.returncode != 0
    assert "too weak" in weak.stderr


def _example_secret_key() -> str:
    for line in (DEPLOY / "env.example").read_text().splitlines():
        if line.startswith("SECRET_KEY="):
            return line.removeprefix("SECRET_KEY=")
    raise AssertionError("deploy/env.example has no SECRET_KEY line")


PLACEHOLDER_KEYS = [
    _example_secret_key(),
    "change-me-to-50-random-characters-python3-c-import-secrets",
    "changeme" * 7,
    "your-secret-key-goes-here-please-replace-it-before-deploying",
    "django-insecure-" + "a1b2c3d4e5" * 5,
    "x" * 64,
    "insecure-development-key-do-not-use-in-production",
]


@pytest.mark.parametrize("key", PLACEHOLDER_KEYS, ids=lambda key: key[:24])
def test_a_placeholder_secret_key_fails_the_start_up_check(key: str) -> None:
    done = _manage("check", SECRET_KEY=key)
    assert done.returncode != 0, done.stdout
    assert "SECRET_KEY" in done.stderr and "placeholder" in done.stderr
    deploy = _manage("check", "--deploy", SECRET_KEY=key)
    assert deploy.returncode != 0


@pytest.mark.slow
def test_check_deploy_flags_a_placeholder_key_even_in_development() -> None:
    """With DEBUG on the service starts with any key, but --deploy says what is wrong."""
    done = _manage("check", "--deploy", SECRET_KEY=_example_secret_key(), DEBUG="true")
    assert done.returncode != 0
    assert "config.E001" in done.stderr + done.stdout
