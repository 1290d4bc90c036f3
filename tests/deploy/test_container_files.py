"""The Dockerfile and docker-compose.yml say what the self-hosting guide promises.

No Docker engine runs where the suite runs, so the files are parsed and checked here, and
``test_container_command.py`` runs the command the container runs.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from server.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]


def dockerfile_instructions() -> list[tuple[str, str]]:
    """The Dockerfile as (INSTRUCTION, argument text) pairs, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text()
    joined = re.sub(r"\\\n", " ", text)
    pairs = []
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        pairs.append((word.upper(), rest.strip()))
    return pairs


def instruction_args(name: str) -> list[str]:
    """Argument texts of every ``name`` instruction, in order."""
    return [rest for word, rest in dockerfile_instructions() if word == name]


def exec_form(text: str) -> list[str]:
    """The argv of a JSON (exec) form instruction argument; fails the test for shell form."""
    assert text.startswith("["), f"expected exec form, got {text!r}"
    argv = json.loads(text)
    assert isinstance(argv, list) and all(isinstance(a, str) for a in argv)
    return argv


def container_command() -> str:
    """The shell command line CMD runs (CMD is ``["sh", "-c", "<line>"]``)."""
    (cmd,) = instruction_args("CMD")
    argv = exec_form(cmd)
    assert argv[:2] == ["sh", "-c"], argv
    return argv[2]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


def test_image_is_slim_python_311_unless_overridden() -> None:
    (base,) = instruction_args("FROM")
    assert base == "${PYTHON_IMAGE}"
    default = next(a for a in instruction_args("ARG") if a.startswith("PYTHON_IMAGE="))
    assert re.fullmatch(r"PYTHON_IMAGE=python:3\.11(\.\d+)?-slim(-\w+)?", default), default
    # The ARG must come before FROM to be usable in it.
    words = [(w, a) for w, a in dockerfile_instructions()]
    assert words.index(("ARG", default)) < words.index(("FROM", base))


def test_dependencies_are_installed_from_the_lock_before_the_code_is_copied() -> None:
    steps = dockerfile_instructions()
    lock_install = next(
        i for i, (w, a) in enumerate(steps) if w == "RUN" and "requirements/runtime.txt" in a
    )
    assert "--require-hashes" in steps[lock_install][1]
    first_code_copy = next(
        i for i, (w, a) in enumerate(steps) if w == "COPY" and a.split()[0] == "server"
    )
    assert lock_install < first_code_copy
    copies_before = [a for w, a in steps[:lock_install] if w == "COPY"]
    assert copies_before == ["requirements/runtime.txt requirements/runtime.txt"]


def test_no_volume_instruction_leaves_anonymous_volumes() -> None:
    assert instruction_args("VOLUME") == []


def test_image_installs_the_project_with_pip_and_copies_what_it_reads() -> None:
    runs = " ".join(instruction_args("RUN"))
    assert re.search(r"pip install --no-deps --no-build-isolation (-e )?\.(\s|$)", runs), runs
    copied = {src for arg in instruction_args("COPY") for src in shlex.split(arg)[:-1]}
    for needed in ("pyproject.toml", "alembic.ini", "server", "migrations", "seeds", "web"):
        assert needed in copied, f"{needed} is not copied into the image"


def test_image_runs_as_a_non_root_user_created_in_the_image() -> None:
    users = instruction_args("USER")
    assert users, "no USER instruction: the server would run as root"
    last = users[-1]
    assert last == "10001:10001", "a numeric uid:gid, so runtimes can check it is not root"
    runs = " ".join(instruction_args("RUN"))
    assert re.search(r"useradd\b.*--uid 10001 --gid 10001\b", runs), "the user is never created"
    # Everything after the last USER runs unprivileged, including CMD and HEALTHCHECK.
    words = [word for word, _ in dockerfile_instructions()]
    assert words.index("CMD") > len(words) - 1 - words[::-1].index("USER")


def test_image_healthcheck_requests_healthz_on_the_served_port() -> None:
    (check,) = instruction_args("HEALTHCHECK")
    options, _, command = check.partition(" CMD ")
    assert "--interval=" in options and "--timeout=" in options
    argv = exec_form(command.strip())
    assert "/healthz" in " ".join(argv)
    exposed = instruction_args("EXPOSE")
    assert exposed == ["8000"]


def test_container_migrates_before_serving_on_all_interfaces() -> None:
    line = container_command()
    migrate, _, serve = line.partition("&&")
    assert shlex.split(migrate) == ["guildhall", "migrate"]
    serve_argv = shlex.split(serve.replace('"${PORT}"', "PORT"))
    assert serve_argv[:3] == ["exec", "guildhall", "serve"]
    assert serve_argv[serve_argv.index("--host") + 1] == "0.0.0.0"
    assert serve_argv[serve_argv.index("--port") + 1] == "PORT"


def test_dockerignore_keeps_local_state_and_secrets_out_of_the_image() -> None:
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".git", ".venv", "data", ".env"} <= ignored
    # The build copies these; ignoring them would break `pip install`.
    assert not {"server", "pyproject.toml", "README.md", "migrations"} & ignored


def test_dockerignore_keeps_the_developer_tools_out_of_the_image() -> None:
    # The image installs the copied server/ editable, so what is not copied is not there
    # (the wheel leaves the same package out: tests/deploy/test_runtime_install.py).
    assert "server/devtools" in (ROOT / ".dockerignore").read_text().split()
    assert (ROOT / "server" / "devtools" / "__init__.py").is_file()


def test_compose_db_is_postgres_with_a_named_volume_and_pg_isready(compose: dict[str, Any]) -> None:
    db = compose["services"]["db"]
    assert db["image"] == "${POSTGRES_IMAGE:-postgres:16-alpine}"
    volume, _, target = db["volumes"][0].partition(":")
    assert volume in compose["volumes"], "the database volume must be a named volume"
    assert target == "/var/lib/postgresql/data"
    test = db["healthcheck"]["test"]
    assert "pg_isready" in " ".join(test)
    env = db["environment"]
    assert {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"} <= set(env)


def test_compose_app_waits_for_a_healthy_db(compose: dict[str, Any]) -> None:
    app = compose["services"]["app"]
    assert app["build"]["context"] == "."
    assert app["build"]["args"]["PYTHON_IMAGE"] == "${PYTHON_IMAGE:-python:3.11-slim}"
    assert app["depends_on"] == {"db": {"condition": "service_healthy"}}


def test_compose_app_is_configured_by_environment(compose: dict[str, Any]) -> None:
    app = compose["services"]["app"]
    db_env = compose["services"]["db"]["environment"]
    env = app["environment"]
    assert {"DATABASE_URL", "SECRET_KEY", "PUBLIC_URL", "PORT"} <= set(env)
    url = env["DATABASE_URL"]
    assert url.startswith("postgresql://") and "@db:5432/" in url
    assert url.rsplit("/", 1)[1] == db_env["POSTGRES_DB"]
    assert url.split("//", 1)[1].split(":", 1)[0] == db_env["POSTGRES_USER"]
    # No working secret may ship in the file: compose must refuse to start without one.
    assert re.fullmatch(r"\$\{SECRET_KEY:\?[^}]+\}", env["SECRET_KEY"]), env["SECRET_KEY"]


def test_compose_app_publishes_the_port_it_serves_and_checks_healthz(
    compose: dict[str, Any],
) -> None:
    app = compose["services"]["app"]
    port = str(app["environment"]["PORT"])
    (mapping,) = app["ports"]
    assert mapping.rsplit(":", 1)[1] == port
    check = " ".join(app["healthcheck"]["test"])
    assert f"127.0.0.1:{port}/healthz" in check


def test_compose_sets_only_variables_the_server_reads(compose: dict[str, Any]) -> None:
    known = set(Settings.variables())
    assert {"DATABASE_URL", "SECRET_KEY", "PUBLIC_URL", "PORT"} <= known
    unknown = set(compose["services"]["app"]["environment"]) - known
    assert not unknown, f"compose sets variables nothing reads: {sorted(unknown)}"


def test_image_and_compose_log_one_json_object_per_line(compose: dict[str, Any]) -> None:
    env_lines = " ".join(instruction_args("ENV"))
    assert re.search(r"(^|\s)GUILDHALL_LOG_FORMAT=json(\s|$)", env_lines), env_lines
    app_env = compose["services"]["app"]["environment"]
    assert app_env["GUILDHALL_LOG_FORMAT"] == "json"
    # The value must be one the server accepts (it refuses to start on anything else).
    fixed = {k: v for k, v in app_env.items() if "${" not in str(v)}  # no interpolation here
    settings = load_settings({"DATABASE_URL": "postgresql://u@h/db", "SECRET_KEY": "k", **fixed})
    assert settings.log_format == "json"


def test_compose_passes_every_setting_from_dotenv_and_trusts_its_own_network(
    compose: dict[str, Any],
) -> None:
    app = compose["services"]["app"]
    assert app["env_file"] == [{"path": ".env", "required": False}]
    subnet = compose["networks"]["guildhall"]["ipam"]["config"][0]["subnet"]
    trusted = app["environment"]["GUILDHALL_TRUSTED_PROXIES"]
    assert trusted == "${GUILDHALL_TRUSTED_PROXIES:-" + subnet + "}"
    assert app["networks"] == compose["services"]["db"]["networks"] == ["guildhall"]
