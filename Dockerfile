# Guildhall application image: `docker compose up` builds it and runs it next to Postgres.
# The container migrates the database, then serves on 0.0.0.0:$PORT as an unprivileged user.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000 \
    GUILDHALL_LOG_FORMAT=json

# A fixed uid so that a bind-mounted data directory can be given to it on the host.
RUN groupadd --system --gid 10001 guildhall \
    && useradd --system --uid 10001 --gid guildhall --home-dir /app --shell /usr/sbin/nologin guildhall

WORKDIR /app

COPY pyproject.toml README.md alembic.ini ./
COPY server ./server
COPY migrations ./migrations
COPY seeds ./seeds
COPY web ./web
# Editable install: the code finds alembic.ini, migrations/, seeds/ and web/ beside it in /app.
RUN pip install -e . \
    && mkdir -p /app/data \
    && chown -R guildhall:guildhall /app/data

USER guildhall

EXPOSE 8000
VOLUME ["/app/data"]

# stdlib only: the slim image has no curl. Non-2xx or no answer within 4 s marks it unhealthy.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"]

CMD ["sh", "-c", "guildhall migrate && exec guildhall serve --host 0.0.0.0 --port \"${PORT}\""]
