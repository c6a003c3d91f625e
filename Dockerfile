# Mesa — the Discord card-game bot.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/bot.db

# DejaVu draws the accents, "ā" and suit symbols of the table images.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

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
