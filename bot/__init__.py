"""The Discord adapter and the table service."""
