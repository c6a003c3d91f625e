"""Operations: the health and Prometheus metrics endpoint (``http.py``, ``prometheus.py``) and
structured JSON logging (``logs.py``). Nothing here is needed to play; all of it is off unless
the settings ask for it (METRICS_PORT, LOG_FORMAT=json)."""
