"""Card data (cards.json) shipped as package data."""
