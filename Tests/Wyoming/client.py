#!/usr/bin/env python3
"""Talks to a running `hark serve` with the reference Wyoming client (the `wyoming` package, as
Home Assistant uses it): describe, then transcribe each recording given, streamed in chunks at the
recording's own rate and layout. Prints one JSON object: the info's programs and each transcript.

    python3 Tests/Wyoming/client.py --port 10300 RECORDING.wav [...]
"""
import argparse
import asyncio
import json
import time
import wave

from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.info import Describe, Info

CHUNK_FRAMES = 1024


async def transcribe(client, path):
    with wave.open(path, "rb") as recording:
        rate, width, channels = recording.getframerate(), recording.getsampwidth(), recording.getnchannels()
        audio = recording.readframes(recording.getnframes())
    await client.write_event(Transcribe(language="en").event())
    await client.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
    step = CHUNK_FRAMES * width * channels
    for start in range(0, len(audio), step):
        chunk = AudioChunk(rate=rate, width=width, channels=channels, audio=audio[start:start + step])
        await client.write_event(chunk.event())
    stopped = time.monotonic()
    await client.write_event(AudioStop().event())
    event = await client.read_event()
    if event is None:
        raise SystemExit(f"{path}: the server closed the connection instead of answering")
    if not Transcript.is_type(event.type):
        raise SystemExit(f"{path}: expected a transcript, got {event.type}: {event.data}")
    return {"recording": path, "text": Transcript.from_event(event).text,
            "seconds_after_stop": round(time.monotonic() - stopped, 4)}


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("recordings", nargs="*")
    args = parser.parse_args()
    async with AsyncTcpClient(args.host, args.port) as client:
        await client.write_event(Describe().event())
        event = await client.read_event()
        if event is None or not Info.is_type(event.type):
            raise SystemExit(f"expected info, got {event}")
        # Parsed with the reference classes, so a field they require and Hark left out fails here.
        info = Info.from_event(event)
        transcripts = [await transcribe(client, path) for path in args.recordings]
    print(json.dumps({
        "asr": [{"name": p.name, "installed": p.installed, "models": [m.name for m in p.models],
                 "languages": sorted({l for m in p.models for l in m.languages})} for p in info.asr],
        "tts": [{"name": p.name, "voices": [v.name for v in p.voices]} for p in info.tts],
        "intent": [p.name for p in info.intent],
        "handle": [p.name for p in info.handle],
        "transcripts": transcripts,
    }))


asyncio.run(main())
