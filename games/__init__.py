"""Pure rules engines. Nothing here does I/O, reads a clock or uses the global random."""
