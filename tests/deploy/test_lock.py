"""The lock files pin, by hash, a version of everything pyproject.toml asks for.

``requirements/runtime.txt`` is what the image installs, ``requirements/dev.txt`` what
``make`` installs into .venv, ``requirements/tools.txt`` the installers themselves. A
dependency added to pyproject.toml without ``make lock`` fails here, naming it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "requirements"
DEV_ONLY = {"httpx", "aiosmtpd", "pytest", "hypothesis", "playwright", "mypy", "ruff", "psycopg"}


def pins(lock: str) -> dict[str, str]:
    """``name -> version`` of a lock file; every pin must carry at least one hash."""
    text = (REQUIREMENTS / lock).read_text()
    found: dict[str, str] = {}
    for block in re.split(r"\n(?=\S)", text):
        first = block.split("\\", 1)[0].strip()
        if not first or first.startswith("#"):
            continue
        name, _, version = first.split(";", 1)[0].strip().partition("==")
        assert version, f"{lock}: {first!r} is not pinned with =="
        assert "--hash=sha256:" in block, f"{lock}: {name} has no hash"
        found[canonicalize_name(name)] = version.strip()
    return found


def project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project


def requirements(extras: list[str]) -> list[Requirement]:
    """The project's requirements with ``extras``, self-references expanded."""
    meta = project()
    todo = [Requirement(r) for r in meta["dependencies"]]
    seen: set[str] = set()
    while extras:
        extra = extras.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for raw in meta["optional-dependencies"][extra]:
            req = Requirement(raw)
            if canonicalize_name(req.name) == canonicalize_name(meta["name"]):
                extras.extend(req.extras)
            else:
                todo.append(req)
    return todo


@pytest.mark.parametrize(
    ("lock", "extras"), [("runtime.txt", []), ("dev.txt", ["dev"])], ids=["runtime", "dev"]
)
def test_every_requirement_is_pinned_within_its_range(lock: str, extras: list[str]) -> None:
    pinned = pins(lock)
    for req in requirements(list(extras)):
        name = canonicalize_name(req.name)
        assert name in pinned, f"{req.name} is not in requirements/{lock}: run `make lock`"
        assert req.specifier.contains(pinned[name], prereleases=True), (
            f"requirements/{lock} pins {req.name}=={pinned[name]}, outside {req.specifier}: "
            "run `make lock`"
        )


def test_the_runtime_lock_has_no_development_package() -> None:
    assert not DEV_ONLY & set(pins("runtime.txt"))


def test_tests_run_against_the_versions_the_image_installs() -> None:
    runtime, dev = pins("runtime.txt"), pins("dev.txt")
    differ = {n: (v, dev.get(n)) for n, v in runtime.items() if dev.get(n) != v}
    assert not differ, f"runtime and dev locks disagree (runtime, dev): {differ}"


def test_the_installers_are_locked_too() -> None:
    assert {"pip", "uv"} <= set(pins("tools.txt"))
    assert {"setuptools"} <= set(pins("runtime.txt"))  # the image builds without isolation
