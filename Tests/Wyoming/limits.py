#!/usr/bin/env python3
"""Tries a running `hark serve`'s connection limits with the reference Wyoming client (the
`wyoming` package, as Home Assistant uses it): holds --cap connections open without a word,
opens one more (which must be refused), waits for the held ones to be closed as idle, then
checks a new client is served. Prints one JSON object: the refused connection's event and
whether it was closed, each held connection's last event, when it was closed, and whether a
describe was answered afterwards.

    python3 Tests/Wyoming/limits.py --port 10300 --cap 3 --wait 10
"""
import argparse
import asyncio
import json
import time

from wyoming.client import AsyncTcpClient
from wyoming.info import Describe, Info


async def last_words(client, wait):
    """The events a silent client is sent until its connection closes (or `wait` s pass)."""
    events = []
    try:
        while True:
            event = await asyncio.wait_for(client.read_event(), timeout=wait)
            if event is None:
                return events, True
            events.append({"type": event.type, "data": event.data})
    except asyncio.TimeoutError:
        return events, False


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cap", type=int, required=True)
    parser.add_argument("--wait", type=float, default=10)
    args = parser.parse_args()
    started = time.monotonic()
    held = []
    for _ in range(args.cap):
        client = AsyncTcpClient("127.0.0.1", args.port)
        await client.connect()
        held.append(client)
    await asyncio.sleep(0.3)  # the server has taken every held connection
    extra = AsyncTcpClient("127.0.0.1", args.port)
    await extra.connect()
    refused, refused_closed = await last_words(extra, args.wait)
    outcomes = await asyncio.gather(*(last_words(client, args.wait) for client in held))
    closed_after = time.monotonic() - started
    served = AsyncTcpClient("127.0.0.1", args.port)
    await served.connect()
    await served.write_event(Describe().event())
    answer = await asyncio.wait_for(served.read_event(), timeout=args.wait)
    await served.disconnect()
    print(json.dumps({
        "refused": refused, "refused_closed": refused_closed,
        "held": [events for events, _ in outcomes], "held_closed": [closed for _, closed in outcomes],
        "held_closed_after": closed_after,
        "served_after": answer is not None and Info.is_type(answer.type),
    }))


if __name__ == "__main__":
    asyncio.run(main())
