# Guildhall application image: `docker compose up` builds it and runs it next to Postgres.
# The container migrates the database, then serves on 0.0.0.0:$PORT as an unprivileged user.
# PYTHON_IMAGE: any Debian-based image with Python 3.11 as `python` (default: the official one).
ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000 \
    GUILDHALL_LOG_FORMAT=json

# A fixed uid so that a bind-mounted data directory can be given to it on the host.
RUN groupadd --system --gid 10001 guildhall \
    && useradd --system --uid 10001 --gid 10001 --home-dir /app --shell /usr/sbin/nologin guildhall

WORKDIR /app

# Dependencies first, exactly as locked (versions and hashes): this layer is rebuilt only when
# requirements/runtime.txt changes, so a code change rebuilds in seconds.
# EXTRA_CA_CERTS: PEM certificates pip must trust besides its own, for a build machine whose
# outgoing HTTPS passes a re-signing proxy. Empty (the default) changes nothing; they are
# used for this step only and not kept in the image.
ARG EXTRA_CA_CERTS=""
COPY requirements/runtime.txt requirements/runtime.txt
RUN set -eu; \
    if [ -n "$EXTRA_CA_CERTS" ]; then \
        bundle=$(python -c 'import pip._vendor.certifi as c; print(c.where())'); \
        { cat "$bundle"; printf '%s\n' "$EXTRA_CA_CERTS"; } > /tmp/build-ca.pem; \
        export PIP_CERT=/tmp/build-ca.pem; \
    fi; \
    pip install --require-hashes --no-deps -r requirements/runtime.txt; \
    rm -f /tmp/build-ca.pem

COPY pyproject.toml setup.py README.md alembic.ini ./
COPY server ./server
COPY migrations ./migrations
COPY seeds ./seeds
COPY web ./web
# Editable: the code finds alembic.ini, migrations/, seeds/ and web/ beside it in /app.
# No network here: the build backend (setuptools) comes from the locked layer above.
# Compiled once here: the app runs with PYTHONDONTWRITEBYTECODE as a user who cannot write
# /app, so without it every start would compile the whole server again.
RUN pip install --no-deps --no-build-isolation -e . \
    && python -m compileall -q server migrations \
    && mkdir -p /app/data \
    && chown 10001:10001 /app/data

USER 10001:10001

EXPOSE 8000
# No VOLUME: with Postgres nothing is written here, and a VOLUME would leave an anonymous
# volume behind on every `down`/`up`. Without DATABASE_URL the SQLite file lives in
# /app/data: mount a named volume there (`-v guildhall-data:/app/data`).

# stdlib only: the slim image has no curl. Non-2xx or no answer within 4 s marks it unhealthy.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"]

CMD ["sh", "-c", "guildhall migrate && exec guildhall serve --host 0.0.0.0 --port \"${PORT}\""]
