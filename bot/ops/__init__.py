"""Operations: the health and Prometheus metrics endpoint (``http.py``, ``prometheus.py``) and
structured JSON logging (``logs.py``). Nothing here is needed to play; all of it is off unless
the settings ask for it (METRICS_PORT, LOG_FORMAT=json). ``collector.py`` tunes the garbage
collector of ``python -m bot``'s process (always on there; tests and benches that build a bot
in their own process keep Python's settings)."""
