"""Greetings."""


def greet(name: str) -> str:
    """Say hello to `name`."""
    return f"Hello, {name}!"
