"""Tests of the fake Discord itself (the library lives in tests/fakediscord/)."""
