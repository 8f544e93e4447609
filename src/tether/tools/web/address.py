"""Which addresses a fetch may connect to, and the checked addresses of a host.

A host is resolved once per hop; every address it resolves to is checked, and the
connection then goes to one of those checked addresses (never to a second resolution,
which a rebinding DNS server could answer differently).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket

from tether.errors import ToolError
from tether.tools.web.flags import ALLOW_PRIVATE_FLAG

__all__ = ["checked_addresses", "forbidden_range", "refuse_known_private"]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_RANGES: tuple[tuple[str, str], ...] = (
    ("0.0.0.0/8", "an unspecified"),
    ("127.0.0.0/8", "a loopback"),
    ("10.0.0.0/8", "a private"),
    ("172.16.0.0/12", "a private"),
    ("192.168.0.0/16", "a private"),
    ("100.64.0.0/10", "a shared (carrier-grade NAT)"),
    ("169.254.0.0/16", "a link-local (cloud metadata)"),
    ("::/128", "an unspecified"),
    ("::1/128", "a loopback"),
    ("fc00::/7", "a private (unique local)"),
    ("fe80::/10", "a link-local"),
)
_NETWORKS = tuple((ipaddress.ip_network(net), what) for net, what in _RANGES)


def forbidden_range(address: IPAddress) -> str | None:
    """What kind of non-public address this is (`a loopback`...), or `None` when public."""
    if isinstance(address, ipaddress.IPv6Address):
        # ::ffff:127.0.0.1 and friends reach the IPv4 address they embed.
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is not None:
            return forbidden_range(embedded)
    for network, what in _NETWORKS:
        if address.version == network.version and address in network:
            return what
    if address.is_multicast or address.is_reserved:
        return "a reserved"
    return None


_LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")
"""Names that mean this machine wherever they are looked up (RFC 6761 reserves `localhost`
and every name under it; the others are what `/etc/hosts` files give the loopback)."""


def refuse_known_private(host: str, *, allow_private: bool) -> None:
    """Refuse (`ToolError`) a host that is a private address written out, or a name that always
    means this machine, without a lookup. Checked before anyone is asked, so no one approves
    a fetch that would be refused anyway; another name that resolves to a private address is
    refused when it connects (a lookup before the approval could itself carry data out)."""
    if allow_private:
        return
    name = host.strip("[]").rstrip(".").lower()
    if name in _LOOPBACK_NAMES or name.endswith(".localhost"):
        raise ToolError(
            f"Refusing to fetch from {host}: it is a loopback name; "
            f"pass {ALLOW_PRIVATE_FLAG} to allow private addresses"
        )
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return
    what = forbidden_range(address)
    if what is not None:
        raise ToolError(
            f"Refusing to fetch from {host}: it is {what} address; "
            f"pass {ALLOW_PRIVATE_FLAG} to allow private addresses"
        )


async def checked_addresses(host: str, port: int, *, allow_private: bool) -> list[str]:
    """Every address `host` resolves to, each checked; raises `ToolError` to refuse."""
    try:
        literal: IPAddress | None = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        literal = None
    if literal is not None:
        found = [literal]
    else:
        loop = asyncio.get_running_loop()
        try:
            infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as exc:
            raise ToolError(f"Could not resolve host {host}: {exc}") from exc
        found = []
        for info in infos:
            address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
            if address not in found:
                found.append(address)
        if not found:
            raise ToolError(f"Could not resolve host {host}: no addresses")
    if not allow_private:
        for address in found:
            what = forbidden_range(address)
            if what is not None:
                where = "it is" if literal is not None else f"it resolves to {address},"
                raise ToolError(
                    f"Refusing to fetch from {host}: {where} {what} address; "
                    f"pass {ALLOW_PRIVATE_FLAG} to allow private addresses"
                )
    return [str(address) for address in found]
