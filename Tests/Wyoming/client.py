#!/usr/bin/env python3
"""Talks to a running `hark serve` with the reference Wyoming client (the `wyoming` package, as
Home Assistant uses it): describe, then transcribe each recording given, streamed in chunks at the
recording's own rate and layout, and listen for wake words in each --detect recording; then say
each --converse text as Home Assistant's conversation agent does, one connection a turn, the
conversation named in the transcript's context; and have each --synthesize text spoken, written to
--speech-out as WAV. Prints one JSON object: the info's programs, each transcript, each
recording's detections, each turn's reply and each synthesis's audio format and length.

    python3 Tests/Wyoming/client.py --port 10300 RECORDING.wav [...] [--detect STREAM.wav ...] \
        [--converse TEXT ...] [--synthesize TEXT --speech-out DIR]
"""
import argparse
import asyncio
import json
import time
import wave

from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.handle import Handled, NotHandled
from wyoming.info import Describe, Info
from wyoming.ping import Ping, Pong
from wyoming.tts import Synthesize
from wyoming.wake import Detect, Detection, NotDetected

CHUNK_FRAMES = 1024


async def stream(client, path):
    """Sends the recording as audio-start, chunks and audio-stop, at its own rate and layout."""
    with wave.open(path, "rb") as recording:
        rate, width, channels = recording.getframerate(), recording.getsampwidth(), recording.getnchannels()
        audio = recording.readframes(recording.getnframes())
    await client.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
    step = CHUNK_FRAMES * width * channels
    for start in range(0, len(audio), step):
        chunk = AudioChunk(rate=rate, width=width, channels=channels, audio=audio[start:start + step])
        await client.write_event(chunk.event())
    await client.write_event(AudioStop().event())


async def detect(client, path):
    """Listens for any served wake word in the recording. A ping after the stream is answered in
    order, so by its pong every detection (and not-detected) has come."""
    await client.write_event(Detect().event())
    await stream(client, path)
    await client.write_event(Ping(text="end").event())
    detections, not_detected = [], False
    while True:
        event = await client.read_event()
        if event is None:
            raise SystemExit(f"{path}: the server closed the connection while listening")
        if Pong.is_type(event.type):
            break
        if Detection.is_type(event.type):
            detection = Detection.from_event(event)
            detections.append({"name": detection.name, "timestamp": detection.timestamp})
        elif NotDetected.is_type(event.type):
            not_detected = True
        else:
            raise SystemExit(f"{path}: unexpected {event.type} while listening: {event.data}")
    return {"recording": path, "detections": detections, "not_detected": not_detected}


async def transcribe(client, path):
    await client.write_event(Transcribe(language="en").event())
    await stream(client, path)
    stopped = time.monotonic()
    event = await client.read_event()
    if event is None:
        raise SystemExit(f"{path}: the server closed the connection instead of answering")
    if not Transcript.is_type(event.type):
        raise SystemExit(f"{path}: expected a transcript, got {event.type}: {event.data}")
    return {"recording": path, "text": Transcript.from_event(event).text,
            "seconds_after_stop": round(time.monotonic() - stopped, 4)}


async def converse(host, port, texts):
    """Each text on a connection of its own, as a Transcript whose context names the
    conversation (Home Assistant's Wyoming conversation agent does exactly this)."""
    replies = []
    for text in texts:
        async with AsyncTcpClient(host, port) as client:
            await client.write_event(Transcript(text, context={"conversation_id": "01HARKTEST"}, language="en").event())
            event = await client.read_event()
        if event is None:
            raise SystemExit(f"{text!r}: the server closed the connection instead of answering")
        if Handled.is_type(event.type):
            reply = Handled.from_event(event)
        elif NotHandled.is_type(event.type):
            reply = NotHandled.from_event(event)
        else:
            raise SystemExit(f"{text!r}: expected handled or not-handled, got {event.type}: {event.data}")
        replies.append({"type": event.type, "text": reply.text, "context": reply.context})
    return replies


async def synthesize(client, text, path):
    """Hark's voice saying `text`, as audio-start, chunks and audio-stop, written to `path`."""
    await client.write_event(Synthesize(text=text).event())
    start, audio = None, b""
    while True:
        event = await client.read_event()
        if event is None:
            raise SystemExit(f"{text!r}: the server closed the connection while speaking")
        if AudioStart.is_type(event.type):
            start = AudioStart.from_event(event)
        elif AudioChunk.is_type(event.type):
            chunk = AudioChunk.from_event(event)
            if start is None or (chunk.rate, chunk.width, chunk.channels) != (start.rate, start.width, start.channels):
                raise SystemExit(f"{text!r}: a chunk in another format than audio-start said")
            audio += chunk.audio
        elif AudioStop.is_type(event.type):
            break
        else:
            raise SystemExit(f"{text!r}: unexpected {event.type} while speaking: {event.data}")
    with wave.open(path, "wb") as out:
        out.setframerate(start.rate)
        out.setsampwidth(start.width)
        out.setnchannels(start.channels)
        out.writeframes(audio)
    frames = len(audio) // (start.width * start.channels)
    return {"text": text, "path": path, "rate": start.rate, "width": start.width, "channels": start.channels,
            "seconds": frames / start.rate}


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("recordings", nargs="*")
    parser.add_argument("--detect", nargs="*", default=[], metavar="STREAM")
    parser.add_argument("--converse", nargs="*", default=[], metavar="TEXT")
    parser.add_argument("--synthesize", nargs="*", default=[], metavar="TEXT")
    parser.add_argument("--speech-out", default=".", metavar="DIR")
    args = parser.parse_args()
    async with AsyncTcpClient(args.host, args.port) as client:
        await client.write_event(Describe().event())
        event = await client.read_event()
        if event is None or not Info.is_type(event.type):
            raise SystemExit(f"expected info, got {event}")
        # Parsed with the reference classes, so a field they require and Hark left out fails here.
        info = Info.from_event(event)
        transcripts = [await transcribe(client, path) for path in args.recordings]
        wakes = [await detect(client, path) for path in args.detect]
        spoken = [await synthesize(client, text, f"{args.speech_out}/speech-{number}.wav")
                  for number, text in enumerate(args.synthesize)]
    conversation = await converse(args.host, args.port, args.converse)
    print(json.dumps({
        "asr": [{"name": p.name, "installed": p.installed, "models": [m.name for m in p.models],
                 "languages": sorted({l for m in p.models for l in m.languages})} for p in info.asr],
        "tts": [{"name": p.name, "voices": [v.name for v in p.voices]} for p in info.tts],
        "intent": [p.name for p in info.intent],
        "handle": [p.name for p in info.handle],
        "transcripts": transcripts,
        "wake": [{"name": p.name, "phrases": [m.phrase for m in p.models]} for p in info.wake],
        "detections": wakes,
        "conversation": conversation,
        "speech": spoken,
    }))


asyncio.run(main())
