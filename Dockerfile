# Mesa — the Discord card-game bot.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/bot.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY storage ./storage
RUN pip install --no-compile . \
    && useradd --system --create-home --uid 10001 mesa \
    && mkdir -p /data && chown mesa:mesa /data

USER mesa
VOLUME ["/data"]
ENTRYPOINT ["python", "-m", "bot"]
