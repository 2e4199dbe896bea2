# logic-bot: a small image that runs `python -m bot`. Games live in the /data volume.
#   docker build -t logic-bot .
#   docker run -d -e DISCORD_TOKEN=… -v logic-bot-data:/data logic-bot
#   docker run -d -e TELEGRAM_TOKEN=… -v logic-bot-data:/data logic-bot   # long polling
#   docker run -it -v logic-bot-data:/data logic-bot      # no token: the console game
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/logic-bot.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engines ./engines
COPY renderers ./renderers
RUN pip install . \
    && useradd --create-home --uid 10001 logicbot \
    && mkdir -p /data \
    && chown logicbot:logicbot /data

USER logicbot
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
