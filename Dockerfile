# Mesa — the Discord card-game bot.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/bot.db \
    NUMBA_CACHE_DIR=/opt/numba-cache

# DejaVu draws the accents, "ā" and suit symbols of the table images.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY storage ./storage
# The Triple Triad search is compiled by numba: compiling it here, into a cache the bot's user
# owns, saves each new container ~6 s of compiling in its search workers at start (the cache is
# per CPU model: on another host the workers recompile into the same directory once).
RUN pip install --no-compile . \
    && useradd --system --create-home --uid 10001 mesa \
    && mkdir -p /data "$NUMBA_CACHE_DIR" \
    && python -c "from games.triad.compiled import warm_up; warm_up()" \
    && chown -R mesa:mesa /data "$NUMBA_CACHE_DIR"

USER mesa
VOLUME ["/data"]
ENTRYPOINT ["python", "-m", "bot"]
