"""A tiny greeter: the sample project of `tether demo`."""

import sys


def greet(name: str) -> str:
    """Say hello to someone."""
    return f"Helo, {name}!"


if __name__ == "__main__":
    print(greet(sys.argv[1] if len(sys.argv) > 1 else "world"))
