"""PostgreSQL twins of the SQLite migrations one folder up (same numbers and names)."""
