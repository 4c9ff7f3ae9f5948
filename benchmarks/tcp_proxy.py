"""A small TCP proxy for the benchmarks: spreads connections over several web instances.

    python benchmarks/tcp_proxy.py --listen 8700 --to 8701 8702

Each accepted connection goes to the next instance in turn (round-robin per connection, as a
proxy in TCP mode does) and bytes are copied both ways until either side closes. Loopback only.
It stands in for the deployment's proxy (Caddy) where none is installed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def serve(listen: int, backends: list[int]) -> None:
    turn = itertools.cycle(backends)

    async def handle(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", next(turn))
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))

    server = await asyncio.start_server(handle, "127.0.0.1", listen)
    async with server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--listen", type=int, required=True, help="loopback port to listen on")
    parser.add_argument("--to", type=int, nargs="+", required=True, help="the instances' loopback ports")
    args = parser.parse_args()
    asyncio.run(serve(args.listen, args.to))


if __name__ == "__main__":
    main()
