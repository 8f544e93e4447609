"""The seccomp program, run by a small BPF interpreter for every ABI it is written for.

The kernel runs it for real in the sandbox tests; here every branch is checked, also those
of an architecture this machine is not.
"""

from __future__ import annotations

import errno
import struct

import pytest

from tether.sandbox.seccomp import (
    JEQ,
    LD_ABS,
    RET,
    RET_ALLOW,
    RET_ERRNO,
    SECCOMP_ARCHES,
    Instruction,
    assemble,
    unix_socket_filter,
)

DENY = RET_ERRNO | errno.EPERM
NOSYS = RET_ERRNO | errno.ENOSYS
X86_64, I386, AARCH64, ARM = 0xC000003E, 0x40000003, 0xC00000B7, 0x40000028


def run(program: bytes, arch: int, nr: int, arg0: int = 0) -> int:
    """What the filter returns for a call (the kernel's `struct seccomp_data`, little-endian)."""
    data = struct.pack("<iIQ6Q", nr, arch, 0, arg0, 0, 0, 0, 0, 0)
    code = [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]
    pc = 0
    acc = 0
    for _ in range(len(code)):  # forward jumps only: at most one pass
        op, jt, jf, k = code[pc]
        if op == LD_ABS:
            acc = struct.unpack_from("<I", data, k)[0]
            pc += 1
        elif op == JEQ:
            pc += 1 + (jt if acc == k else jf)
        elif op == RET:
            return k
        else:
            raise AssertionError(f"unexpected opcode {op:#x}")
    raise AssertionError("the program ran off its end")


@pytest.mark.parametrize(
    ("machine", "arch", "nr", "arg0", "expected"),
    [
        ("x86_64", X86_64, 41, 1, DENY),  # socket(AF_UNIX)
        ("x86_64", X86_64, 41, 2, RET_ALLOW),  # socket(AF_INET)
        ("x86_64", X86_64, 41, 10, RET_ALLOW),  # socket(AF_INET6)
        ("x86_64", X86_64, 41, (7 << 32) | 1, DENY),  # the kernel reads an int
        ("x86_64", X86_64, 0x40000000 | 41, 1, DENY),  # x32
        ("x86_64", X86_64, 53, 1, RET_ALLOW),  # socketpair(AF_UNIX)
        ("x86_64", X86_64, 42, 1, RET_ALLOW),  # connect on a socket made before
        ("x86_64", X86_64, 425, 0, DENY),  # io_uring_setup
        ("x86_64", X86_64, 0, 1, RET_ALLOW),  # read
        ("x86_64", I386, 359, 1, DENY),
        ("x86_64", I386, 359, 2, RET_ALLOW),
        ("x86_64", I386, 102, 1, DENY),  # socketcall(SYS_SOCKET, ...)
        ("x86_64", I386, 102, 8, RET_ALLOW),  # socketcall(SYS_SOCKETPAIR, ...)
        ("x86_64", I386, 425, 0, DENY),
        ("x86_64", I386, 3, 1, RET_ALLOW),
        ("x86_64", AARCH64, 198, 1, NOSYS),  # an ABI the filter was not written for
        ("aarch64", AARCH64, 198, 1, DENY),
        ("aarch64", AARCH64, 198, 2, RET_ALLOW),
        ("aarch64", AARCH64, 425, 0, DENY),
        ("aarch64", AARCH64, 41, 1, RET_ALLOW),  # 41 is another call there
        ("aarch64", ARM, 281, 1, DENY),
        ("aarch64", ARM, 102, 1, DENY),
        ("aarch64", X86_64, 41, 2, NOSYS),
    ],
)
def test_the_filter_refuses_unix_sockets_and_io_uring_only(
    machine: str, arch: int, nr: int, arg0: int, expected: int
) -> None:
    program = unix_socket_filter(machine)
    assert program is not None
    assert run(program, arch, nr, arg0) == expected


def test_the_filter_is_small_and_written_for_known_machines_only() -> None:
    for machine in SECCOMP_ARCHES:
        program = unix_socket_filter(machine)
        assert program is not None
        assert len(program) % 8 == 0
        assert len(program) // 8 < 40
    assert unix_socket_filter("riscv64") is None


def test_jumps_resolve_to_their_labels_and_backward_ones_are_refused() -> None:
    program = [
        Instruction(LD_ABS, 0),
        Instruction(JEQ, 7, "yes", None),
        Instruction(RET, 1),
        Instruction(RET, 2, label="yes"),
    ]
    code = assemble(program)
    assert struct.unpack_from("=HBBI", code, 8) == (JEQ, 1, 0, 7)
    assert run(code, 0, 7) == 2
    assert run(code, 0, 8) == 1
    backward = [Instruction(RET, 0, label="top"), Instruction(JEQ, 1, "top", None)]
    with pytest.raises(ValueError, match="jump out of reach"):
        assemble(backward)
