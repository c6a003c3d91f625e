"""Discord presentation: dynamic items, component layout, presenters, images."""
