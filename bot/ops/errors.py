"""Errors of the operations endpoint, importable without its dependencies (prometheus-client,
aiohttp's server): ``python -m bot`` catches them whether or not METRICS_PORT is set."""


class OpsPortError(RuntimeError):
    """The health and metrics port could not be opened (taken, not allowed)."""
