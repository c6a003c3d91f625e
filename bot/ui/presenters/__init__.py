"""One presenter module per game; each registers itself with ``register``."""
