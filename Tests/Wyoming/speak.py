#!/usr/bin/env python3
"""Asks a running `hark serve` to speak texts with the reference Wyoming client (the `wyoming`
package, as Home Assistant uses it), one connection each. Prints one JSON object per text, in
order: the events' types in order (audio chunks counted, not listed), when audio-start, the
first chunk and audio-stop came (seconds after the request), the audio's length in seconds,
and the error event's data if one came. A text written VOICE::TEXT asks for that voice
(the event's voice.name).

    python3 Tests/Wyoming/speak.py --port 10300 TEXT [VOICE::TEXT ...]
"""
import argparse
import asyncio
import json
import time

from wyoming.audio import AudioChunk
from wyoming.client import AsyncTcpClient
from wyoming.tts import Synthesize, SynthesizeVoice


async def speak(port, text):
    voice = None
    if "::" in text:
        name, text = text.split("::", 1)
        voice = SynthesizeVoice(name=name)
    client = AsyncTcpClient("127.0.0.1", port)
    await client.connect()
    asked = time.monotonic()
    await client.write_event(Synthesize(text=text, voice=voice).event())
    result = {"types": [], "chunks": 0, "seconds": 0.0}
    while True:
        event = await asyncio.wait_for(client.read_event(), timeout=120)
        if event is None:
            break
        at = time.monotonic() - asked
        if event.type == "audio-chunk":
            chunk = AudioChunk.from_event(event)
            result["chunks"] += 1
            result["seconds"] += len(chunk.audio) / (chunk.rate * chunk.width * chunk.channels)
            result.setdefault("first_chunk_at", at)
            continue
        result["types"].append(event.type)
        if event.type == "audio-start":
            result["start_at"] = at
        if event.type == "error":
            result["error"] = event.data
            break
        if event.type == "audio-stop":
            result["stop_at"] = at
            break
    await client.disconnect()
    return result


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("texts", nargs="+")
    args = parser.parse_args()
    print(json.dumps([await speak(args.port, text) for text in args.texts]))


if __name__ == "__main__":
    asyncio.run(main())
