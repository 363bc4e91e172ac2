"""The image's build steps run: the Django commands of ``deploy/Dockerfile``'s RUN lines,
executed as written (``sh -c``) with the Dockerfile's ENV, here, without Docker.

The image build once failed because collectstatic ran with a build key the settings refuse
(47 characters); the deploy files' other checks only read the file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"

# Steps that set up the image's system (packages, users, folders): not the project's own.
SYSTEM_PROGRAMS = {"apt-get", "pip", "rm", "useradd", "mkdir", "chown"}


def _instructions() -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` of the Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), " ".join(rest.split())))
    return found


def _image_environment() -> dict[str, str]:
    environment = {}
    for keyword, rest in _instructions():
        if keyword == "ENV":
            for assignment in re.findall(r"\S+=\S+", rest):
                name, _, value = assignment.partition("=")
                environment[name] = value
    return environment


def _project_steps() -> list[str]:
    """The shell steps of every RUN that are not system set-up, in order."""
    steps = []
    for keyword, rest in _instructions():
        if keyword == "RUN":
            for step in rest.split("&&"):
                words = step.split()
                if words and words[0] not in SYSTEM_PROGRAMS:
                    steps.append(step.strip())
    return steps


def test_the_dockerfile_runs_collectstatic_and_compilemessages() -> None:
    steps = " && ".join(_project_steps())
    assert "manage.py collectstatic" in steps
    assert "manage.py compilemessages" in steps


@pytest.mark.slow
def test_the_dockerfile_build_steps_succeed(tmp_path: Path) -> None:
    """What the image build runs after ``pip install .``, with the image's environment;
    only the folders are moved into a temporary one."""
    environment = {k: v for k, v in os.environ.items()
                   if k not in {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE",
                                "DATABASE_URL", "CELERY_TASK_ALWAYS_EAGER"}}
    environment.update(_image_environment())
    environment.update({
        "VAR_DIR": str(tmp_path / "var"), "STATIC_ROOT": str(tmp_path / "static"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{environment.get('PATH', '')}",
    })
    script = " && ".join(_project_steps())
    done = subprocess.run(["sh", "-c", script], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{script}\n{done.stderr[-3000:]}"
    assert (tmp_path / "static" / "admin").is_dir()
    assert list((tmp_path / "static").rglob("swagger-ui-bundle.js"))
