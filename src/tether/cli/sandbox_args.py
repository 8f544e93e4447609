"""The sandbox flags shared by `run`, `acp` and `web`: `--sandbox MODE` and `--allow-network`."""

from __future__ import annotations

import argparse

from tether.sandbox.policy import SANDBOX_ENV, SANDBOX_MODES, SandboxPolicy

__all__ = ["add_sandbox_arguments", "sandbox_flags", "sandbox_policy"]


def add_sandbox_arguments(parser: argparse.ArgumentParser) -> None:
    """`--sandbox workspace-write|read-only|off` and `--allow-network`."""
    parser.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        default=None,
        help=f"how bash commands are confined (default: ${SANDBOX_ENV} or workspace-write)",
    )
    parser.add_argument(
        "--allow-network", action="store_true", help="keep the network in the sandbox"
    )


def sandbox_policy(args: argparse.Namespace) -> SandboxPolicy:
    """The policy the flags (else the environment) choose; `ValueError` for a bad env value."""
    return SandboxPolicy.from_env(args.sandbox, allow_network=args.allow_network)


def sandbox_flags(policy: SandboxPolicy) -> list[str]:
    """The flags that choose `policy` again, for an agent this process starts."""
    flags = ["--sandbox", policy.mode]
    if policy.allow_network:
        flags.append("--allow-network")
    return flags
