"""Private addresses are refused on the resolved address of every hop, unless allowed."""

from __future__ import annotations

import ipaddress

import pytest

from tests.tools.web.conftest import fetch
from tests.tools.web.server import PageServer, reply
from tether.errors import ToolError
from tether.tools import ToolContext
from tether.tools.web import WebFetchTool
from tether.tools.web.address import checked_addresses, forbidden_range

REFUSED = "pass --allow-private-fetch to allow private addresses"


@pytest.mark.parametrize(
    ("address", "what"),
    [
        ("127.0.0.1", "a loopback"),
        ("127.255.0.9", "a loopback"),
        ("10.1.2.3", "a private"),
        ("172.16.0.1", "a private"),
        ("172.31.255.255", "a private"),
        ("192.168.1.1", "a private"),
        ("169.254.169.254", "a link-local (cloud metadata)"),
        ("100.64.0.1", "a shared (carrier-grade NAT)"),
        ("0.0.0.0", "an unspecified"),
        ("::1", "a loopback"),
        ("::", "an unspecified"),
        ("fc00::1", "a private (unique local)"),
        ("fd00:ec2::254", "a private (unique local)"),
        ("fe80::1", "a link-local"),
        ("::ffff:127.0.0.1", "a loopback"),
        ("::ffff:10.0.0.1", "a private"),
        ("2002:7f00:1::", "a loopback"),
        ("224.0.0.1", "a reserved"),
    ],
)
def test_non_public_ranges_are_named(address: str, what: str) -> None:
    assert forbidden_range(ipaddress.ip_address(address)) == what


@pytest.mark.parametrize("address", ["93.184.216.34", "172.32.0.1", "8.8.8.8", "2606:4700::1111"])
def test_public_addresses_pass(address: str) -> None:
    assert forbidden_range(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize("host", ["localhost", "LocalHost.", "app.localhost", "ip6-localhost"])
async def test_a_loopback_name_is_refused_without_a_lookup(
    server: PageServer, ctx: ToolContext, host: str
) -> None:
    server.routes["/"] = lambda h: reply(h, 200, b"secret", "text/plain")
    result, card = await fetch(ctx, f"http://{host}:{server.port}/", WebFetchTool())
    assert result.is_error and card is None
    expected = f"Refusing to fetch from {host.lower()}: it is a loopback name; {REFUSED}"
    assert result.text() == expected
    assert server.paths == []  # nothing was sent


async def test_a_hostname_resolving_to_loopback_is_refused_when_it_connects(
    server: PageServer,
) -> None:
    # Any other name is looked up only once the fetch is approved; what it resolves to is
    # checked then.
    with pytest.raises(ToolError) as refused:
        await checked_addresses("localhost", server.port, allow_private=False)
    assert str(refused.value).startswith("Refusing to fetch from localhost: it resolves to ")
    assert str(refused.value).endswith(f", a loopback address; {REFUSED}")


@pytest.mark.parametrize("host", ["127.0.0.1", "[::1]", "127.1.2.3"])
async def test_a_loopback_literal_is_refused_without_the_flag(
    server: PageServer, ctx: ToolContext, host: str
) -> None:
    result, _ = await fetch(ctx, f"http://{host}:{server.port}/", WebFetchTool())
    assert result.is_error
    assert result.text() == (
        f"Refusing to fetch from {host.strip('[]')}: it is a loopback address; {REFUSED}"
    )
    assert server.paths == []


async def test_the_connection_goes_to_the_checked_address_with_the_host_named(
    server: PageServer, ctx: ToolContext
) -> None:
    server.routes["/"] = lambda h: reply(h, 200, b"hello", "text/plain")
    result, _ = await fetch(ctx, server.url("/", host="localhost"))
    assert "hello" in result.text()
    assert server.hosts == [f"localhost:{server.port}"]
