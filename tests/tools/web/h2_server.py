"""A TLS server on 127.0.0.1 that speaks HTTP/2 only (ALPN `h2`), with the `h2` library."""

from __future__ import annotations

import asyncio
import ssl
import subprocess
from pathlib import Path

import h2.config
import h2.connection
import h2.events

__all__ = ["make_certificate", "serve_h2"]


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for `localhost` and its key, made with openssl."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


async def serve_h2(cert: Path, key: Path, body: bytes) -> asyncio.Server:
    """Serve `body` as text/plain to every request, over HTTP/2 only."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2"])

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
        conn.initiate_connection()
        writer.write(conn.data_to_send())
        try:
            for _ in range(1000):  # bounded: one short exchange per connection
                data = await reader.read(65536)
                if not data:
                    break
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        conn.send_headers(
                            event.stream_id,
                            [
                                (":status", "200"),
                                ("content-type", "text/plain"),
                                ("content-length", str(len(body))),
                            ],
                        )
                        conn.send_data(event.stream_id, body, end_stream=True)
                writer.write(conn.data_to_send())
                await writer.drain()
        finally:
            writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", 0, ssl=context)
