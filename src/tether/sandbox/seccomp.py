"""The seccomp filter of sandboxed commands: no Unix sockets, so no host service is reachable.

A Unix socket is reached through the filesystem, and the sandbox sees the host's filesystem
(read-only does not stop a `connect`): the Docker daemon's socket, the session bus, ssh and
gpg agents would all answer a sandboxed command. Their paths cannot all be known, so instead
the sandbox may not create a Unix socket at all: `socket(AF_UNIX, ...)` fails with EPERM.
`socketpair` still works (a pair is connected only to itself), as do sockets inherited open.
Abstract sockets live in the network namespace, which the sandbox leaves unless the network is
allowed; the filter is there in both cases. io_uring is refused too: its requests can create
sockets without the `socket` system call that the filter checks.

The program is classic BPF as the kernel's `struct sock_filter` array (8 bytes an
instruction), which bwrap reads from a file descriptor (`--seccomp FD`). It checks the
architecture first, because system call numbers differ between them: the 32-bit x86 ABI on
x86_64 has `socketcall`, whose first argument says which socket call it is (1 = `socket`),
and which is refused for `socket` since its other arguments are out of the filter's reach.
"""

from __future__ import annotations

import errno
import platform
import struct
import sys
from dataclasses import dataclass

__all__ = ["SECCOMP_ARCHES", "Instruction", "assemble", "unix_socket_filter"]

# Opcodes (linux/bpf_common.h): load a 32-bit word of `struct seccomp_data`, compare the
# accumulator with a constant and jump, return a constant.
LD_ABS = 0x20
JEQ = 0x15
RET = 0x06

RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
"""The call fails with the errno in the low 16 bits instead of running."""

_NR = 0
_ARCH = 4
_ARG0 = 16 if sys.byteorder == "little" else 20
"""Offsets in `struct seccomp_data`: the call's number, the ABI, the low half of argument 0."""

AF_UNIX = 1
_SYS_SOCKET = 1
"""`socketcall`'s first argument for `socket`."""
_X32 = 0x40000000
"""x32 system calls come as x86_64 ones with this bit set."""
_IO_URING_SETUP = 425
"""The same number on every architecture (the unified table since Linux 5.1)."""


@dataclass(frozen=True)
class _Abi:
    audit_arch: int
    socket: tuple[int, ...]
    socketcall: int | None


_ABIS: dict[str, tuple[_Abi, ...]] = {
    "x86_64": (
        _Abi(0xC000003E, (41, _X32 | 41), None),  # x86_64 and x32
        _Abi(0x40000003, (359,), 102),  # i386
    ),
    "aarch64": (
        _Abi(0xC00000B7, (198,), None),
        _Abi(0x40000028, (281,), 102),  # 32-bit ARM
    ),
}
SECCOMP_ARCHES = tuple(_ABIS)
"""The machines the filter is written for; elsewhere the sandbox does not start."""


@dataclass(frozen=True)
class Instruction:
    """One BPF instruction: a load, a jump (to labels, when equal / else), or a return."""

    op: int
    k: int
    then: str | None = None
    otherwise: str | None = None
    label: str | None = None


def _abi_checks(abi: _Abi, name: str) -> list[Instruction]:
    body = [Instruction(LD_ABS, _NR, label=name)]
    body += [Instruction(JEQ, nr, "domain", None) for nr in abi.socket]
    body.append(Instruction(JEQ, _IO_URING_SETUP, "deny", None))
    body.append(Instruction(JEQ, _X32 | _IO_URING_SETUP, "deny", None))
    if abi.socketcall is not None:
        body.append(Instruction(JEQ, abi.socketcall, f"{name}-socketcall", None))
    body.append(Instruction(RET, RET_ALLOW))
    if abi.socketcall is not None:
        body.append(Instruction(LD_ABS, _ARG0, label=f"{name}-socketcall"))
        body.append(Instruction(JEQ, _SYS_SOCKET, "deny", None))
        body.append(Instruction(RET, RET_ALLOW))
    return body


def _program(abis: tuple[_Abi, ...]) -> list[Instruction]:
    program = [Instruction(LD_ABS, _ARCH)]
    program += [Instruction(JEQ, abi.audit_arch, f"abi{i}", None) for i, abi in enumerate(abis)]
    # An ABI the kernel offers but the filter does not know has other numbers: refuse it.
    program.append(Instruction(RET, RET_ERRNO | errno.ENOSYS))
    for i, abi in enumerate(abis):
        program += _abi_checks(abi, f"abi{i}")
    program.append(Instruction(LD_ABS, _ARG0, label="domain"))
    program.append(Instruction(JEQ, AF_UNIX, "deny", None))
    program.append(Instruction(RET, RET_ALLOW))
    program.append(Instruction(RET, RET_ERRNO | errno.EPERM, label="deny"))
    return program


def assemble(program: list[Instruction]) -> bytes:
    """The `struct sock_filter` array of `program`, its labels turned into forward offsets."""
    where = {ins.label: i for i, ins in enumerate(program) if ins.label is not None}
    out = bytearray()
    for i, ins in enumerate(program):
        jt = jf = 0
        if ins.op == JEQ:
            jt = where[ins.then] - i - 1 if ins.then is not None else 0
            jf = where[ins.otherwise] - i - 1 if ins.otherwise is not None else 0
            if not (0 <= jt <= 255 and 0 <= jf <= 255):
                raise ValueError(f"jump out of reach at instruction {i}")
        out += struct.pack("=HBBI", ins.op, jt, jf, ins.k)
    return bytes(out)


def unix_socket_filter(machine: str | None = None) -> bytes | None:
    """The filter for `machine` (this one by default); `None` where it is not written for it."""
    abis = _ABIS.get(machine or platform.machine())
    return None if abis is None else assemble(_program(abis))
