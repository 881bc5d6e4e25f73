#!/usr/bin/env python3
"""Load benchmark of `hark serve` with the reference Wyoming client (the `wyoming` package):
CLIENTS connections at once, each for SECONDS streaming real recordings at the pace of speech and
holding a conversation of its own, then each kind of malformed input, then a last describe.

    python3 bench/serve-load.py --hark .build/release/hark [--clients 8] [--seconds 60]
        [--apps apps] [RECORDING.wav ...]

Each client, over and over: transcribe a recording (chunks of 1024 frames, sent in real time),
then a three-turn soup order through `handle`. It prints the transcript latency after
audio-stop and the reply latency of `handle` (p50 / p95), transcripts that differ from the
recordings' sidecars, conversations whose replies were not their own (crossed), the server's
resident memory at the start, its peak and at the end, and for each malformed input whether the
server answered with an error, closed that connection and went on serving others.

Beside the normal clients, for the same run: IDLE connections that never send anything (closed
by the server's idle timeout, with an error event saying so), HOARDERS that each stream 59 s of
192 kHz stereo 32-bit audio as fast as they can and then hold it without audio-stop (the most an
utterance may be; one more streams past the 60 s limit and must be refused), connections opened
past the server's cap (each must be refused with an error event), and a short synthesis asked
while a long one (5,000 characters) is being spoken: its first audio's latency.
Recordings default to audio-fixtures/home-en/*.wav (each with a NAME.json sidecar).
"""
import argparse
import asyncio
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import wave

from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.handle import Handled, NotHandled
from wyoming.info import Describe, Info
from wyoming.event import Event
from wyoming.tts import Synthesize

CHUNK_FRAMES = 1024

# A conversation whose every reply is known: a client that hears another's reply has crossed.
CONVERSATION = [
    ("order a bowl of chicken noodle soup", "Soup Shack: Sorry, we're out of chicken noodle soup. Which soup?"),
    ("minestrone", "Pickup or delivery?"),
    ("cancel", "OK."),
]

MALFORMED = [
    ("not JSON", b"this is not json\n", "bad-json"),
    ("an unknown event type", b'{"type": "make-coffee"}\n', "unknown-event"),
    ("a header line over 64 KiB", b" " * 70_000, "too-large"),
    ("a payload claimed over 2 MiB",
     b'{"type": "audio-chunk", "data": {"rate": 16000, "width": 2, "channels": 1}, "payload_length": 4000000000}\n', "too-large"),
    ("24-bit audio", b'{"type": "audio-start", "data": {"rate": 16000, "width": 3, "channels": 1}}\n', "bad-audio"),
    ("half a frame", b'{"type": "audio-chunk", "data": {"rate": 16000, "width": 2, "channels": 2}, "payload_length": 3}\n\x01\x02\x03',
     "bad-audio"),
    ("audio-stop with no audio", b'{"type": "audio-stop"}\n', "unexpected-event"),
    ("a wake phrase not served", b'{"type": "detect", "data": {"names": ["computer"]}}\n', "bad-data"),
]


def load(path):
    with wave.open(path, "rb") as recording:
        audio = recording.readframes(recording.getnframes())
        layout = (recording.getframerate(), recording.getsampwidth(), recording.getnchannels())
    with open(path[:-4] + ".json") as sidecar:
        text = json.load(sidecar)["text"]
    return {"path": path, "audio": audio, "layout": layout, "text": text}


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def percentile(values, share):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


class Figures:
    def __init__(self):
        self.transcript_seconds = []
        self.handle_seconds = []
        self.wrong_transcripts = []
        self.crossed = 0
        self.conversations = 0
        self.failures = []


async def transcribe(client, recording, figures):
    rate, width, channels = recording["layout"]
    await client.write_event(Transcribe(language="en").event())
    await client.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
    step = CHUNK_FRAMES * width * channels
    audio = recording["audio"]
    started = time.monotonic()
    for index, start in enumerate(range(0, len(audio), step)):
        await client.write_event(AudioChunk(rate=rate, width=width, channels=channels, audio=audio[start:start + step]).event())
        # The pace of speech: chunk n is sent when its audio would have been spoken.
        due = started + (index + 1) * CHUNK_FRAMES / rate
        await asyncio.sleep(max(0, due - time.monotonic()))
    stopped = time.monotonic()
    await client.write_event(AudioStop().event())
    event = await client.read_event()
    if event is None or not Transcript.is_type(event.type):
        raise RuntimeError(f"expected a transcript for {recording['path']}, got {event and event.type}")
    figures.transcript_seconds.append(time.monotonic() - stopped)
    text = Transcript.from_event(event).text
    if text != recording["text"]:
        figures.wrong_transcripts.append((os.path.basename(recording["path"]), text))


async def converse(client, figures):
    figures.conversations += 1
    for said, expected in CONVERSATION:
        asked = time.monotonic()
        await client.write_event(Event(type="handle", data={"text": said}))
        event = await client.read_event()
        if event is None or not (Handled.is_type(event.type) or NotHandled.is_type(event.type)):
            raise RuntimeError(f"expected handled for {said!r}, got {event and event.type}")
        figures.handle_seconds.append(time.monotonic() - asked)
        if (event.data or {}).get("text") != expected:
            figures.crossed += 1
            return


async def client_loop(number, port, recordings, deadline, figures):
    turn = number
    try:
        async with AsyncTcpClient("127.0.0.1", port) as client:
            while time.monotonic() < deadline:
                await transcribe(client, recordings[turn % len(recordings)], figures)
                await converse(client, figures)
                turn += 1
    except Exception as error:  # reported, not hidden: a client that failed is a finding
        figures.failures.append(f"client {number}: {error}")


async def malformed_case(port, raw, expected_code):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    header = await asyncio.wait_for(reader.readline(), 10)
    answer = json.loads(header) if header else {}
    data = answer.get("data") or {}
    if answer.get("data_length"):
        data.update(json.loads(await reader.readexactly(answer["data_length"])))
    closed = (await asyncio.wait_for(reader.read(1), 10)) == b""
    writer.close()
    return answer.get("type") == "error" and data.get("code") == expected_code, closed


async def idle_connection(port, closed_after, codes):
    """Connects and says nothing: the server should close it with an idle-timeout error."""
    opened = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    header = await reader.readline()
    if header:
        answer = json.loads(header)
        data = answer.get("data") or {}
        if answer.get("data_length"):
            data.update(json.loads(await reader.readexactly(answer["data_length"])))
        codes.append(data.get("code"))
        await reader.read()
    closed_after.append(time.monotonic() - opened)
    writer.close()


async def hoarder(port, seconds, outcome):
    """Streams `seconds` of 192 kHz stereo 32-bit audio as fast as the server reads it, never
    sends audio-stop, and holds the connection until the server closes it."""
    rate, width, channels = 192_000, 4, 2
    chunk = os.urandom(CHUNK_FRAMES * width * channels)
    try:
        async with AsyncTcpClient("127.0.0.1", port) as client:
            await client.write_event(Transcribe(language="en").event())
            await client.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
            for _ in range(int(seconds * rate / CHUNK_FRAMES)):
                await client.write_event(AudioChunk(rate=rate, width=width, channels=channels, audio=chunk).event())
            event = await client.read_event()
            outcome.append((event.data or {}).get("code") if event is not None else "closed")
    except (ConnectionError, OSError):
        outcome.append("closed")


async def past_the_cap(port, count):
    """Opens `count` connections at once and keeps them; returns how many were accepted, how
    many refused with too-many-connections, and the writers to close."""
    accepted, refused, writers = 0, 0, []
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writers.append(writer)
        try:
            header = await asyncio.wait_for(reader.readline(), 2)
        except asyncio.TimeoutError:
            accepted += 1  # the server waits for it to speak
            continue
        if header and b"too-many-connections" in header + await reader.read(4096):
            refused += 1
    return accepted, refused, writers


async def first_audio_after(port, text):
    async with AsyncTcpClient("127.0.0.1", port) as client:
        asked = time.monotonic()
        await client.write_event(Synthesize(text=text).event())
        first = None
        while True:
            event = await client.read_event()
            if event is None:
                raise RuntimeError("the server closed a synthesis")
            if AudioChunk.is_type(event.type) and first is None:
                first = time.monotonic() - asked
            if AudioStop.is_type(event.type):
                return first, time.monotonic() - asked


async def long_and_short_speech(port):
    sentence = "The kitchen lights are on, the oven is at two hundred degrees, and the timer has ten minutes left. "
    long_text = (sentence * 60)[:5000]
    long_task = asyncio.create_task(first_audio_after(port, long_text))
    await asyncio.sleep(0.5)
    short = await first_audio_after(port, "OK.")
    long_result = await long_task
    # Two long texts at once, against one alone just before: side by side where cores allow.
    started = time.monotonic()
    await asyncio.gather(first_audio_after(port, long_text), first_audio_after(port, long_text))
    both = time.monotonic() - started
    return long_result, short, both


async def abuse(args, port, pid, report):
    """The unruly clients, while the normal ones run."""
    closed_after, codes, hoarded = [], [], []
    idle = [asyncio.create_task(idle_connection(port, closed_after, codes)) for _ in range(args.idle)]
    hoarders = [asyncio.create_task(hoarder(port, 59, hoarded)) for _ in range(args.hoarders)]
    hoarders.append(asyncio.create_task(hoarder(port, 61, hoarded)))
    await asyncio.sleep(5)
    report["with idle and hoarders"] = resident_kib(pid)
    open_now = args.clients + args.idle + args.hoarders + 1
    accepted, refused, writers = await past_the_cap(port, max(0, args.max_connections - open_now) + 8)
    report["accepted"], report["refused"] = accepted, refused
    for writer in writers:
        writer.close()
    report["speech"] = await long_and_short_speech(port)
    await asyncio.gather(*idle, *hoarders)
    report["idle closed after"] = closed_after
    report["idle codes"] = codes
    report["hoarded"] = hoarded
    report["after idle and hoarders"] = resident_kib(pid)


async def describe(port):
    async with AsyncTcpClient("127.0.0.1", port) as client:
        await client.write_event(Describe().event())
        event = await asyncio.wait_for(client.read_event(), 10)
        return event is not None and Info.is_type(event.type)


async def run(args, port, pid):
    recordings = [load(path) for path in args.recordings]
    figures = Figures()
    memory = [resident_kib(pid)]

    async def sample():
        while True:
            memory.append(resident_kib(pid))
            await asyncio.sleep(1)

    sampler = asyncio.create_task(sample())
    deadline = time.monotonic() + args.seconds
    started = time.monotonic()
    unruly = {}
    unruly_task = asyncio.create_task(abuse(args, port, pid, unruly))
    await asyncio.gather(*(client_loop(n, port, recordings, deadline, figures) for n in range(args.clients)))
    elapsed = time.monotonic() - started
    await unruly_task
    sampler.cancel()
    memory.append(resident_kib(pid))

    print(f"{args.clients} clients for {elapsed:.0f} s on loopback, recordings at the pace of speech "
          f"({len(recordings)} recordings, {len(CONVERSATION)}-turn conversations)")
    print(f"transcripts: {len(figures.transcript_seconds)}; after audio-stop p50 {percentile(figures.transcript_seconds, 0.5) * 1000:.0f} ms, "
          f"p95 {percentile(figures.transcript_seconds, 0.95) * 1000:.0f} ms, max {max(figures.transcript_seconds, default=0) * 1000:.0f} ms")
    print(f"  different from the sidecar: {len(figures.wrong_transcripts)}"
          + "".join(f"\n    {name}: {text!r}" for name, text in figures.wrong_transcripts[:10]))
    print(f"handle replies: {len(figures.handle_seconds)}; p50 {percentile(figures.handle_seconds, 0.5) * 1000:.0f} ms, "
          f"p95 {percentile(figures.handle_seconds, 0.95) * 1000:.0f} ms")
    print(f"conversations: {figures.conversations}, crossed (a reply not its own): {figures.crossed}")
    # Samples are a second apart: the eleventh is the server after ten seconds of load (warm).
    warm = memory[min(len(memory) - 1, 11)]
    print(f"server memory (resident): {memory[0] / 1024:.1f} MB before the clients, {warm / 1024:.1f} MB after 10 s, "
          f"peak {max(memory) / 1024:.1f} MB, {memory[-1] / 1024:.1f} MB at the end")
    for failure in figures.failures:
        print(f"FAILED: {failure}")

    print(f"beside them: {args.idle} idle connections, {args.hoarders} clients holding 59 s of 192 kHz stereo 32-bit "
          f"audio (one more sending 61 s)")
    closed = unruly["idle closed after"]
    idle_ok = len(closed) == args.idle and all(code == "idle-timeout" for code in unruly["idle codes"])
    print(f"  idle connections closed by the server: {len(closed)} of {args.idle}, after {percentile(closed, 0.5):.1f} s "
          f"(median), error codes {sorted(set(map(str, unruly['idle codes'])))}")
    print(f"  hoarders: {sorted(map(str, unruly['hoarded']))}")
    print(f"  server memory with them connected {unruly['with idle and hoarders'] / 1024:.1f} MB, "
          f"after they were closed {unruly['after idle and hoarders'] / 1024:.1f} MB")
    print(f"  {unruly['accepted'] + unruly['refused']} more connections at once: {unruly['accepted']} accepted up to the cap of "
          f"{args.max_connections}, {unruly['refused']} refused with too-many-connections")
    (long_first, long_all), (short_first, short_all), both = unruly["speech"]
    print(f"  speech: 5,000 characters gave their first audio after {long_first * 1000:.0f} ms (all in {long_all:.1f} s); "
          f"\"OK.\" asked meanwhile, after {short_first * 1000:.0f} ms (all in {short_all * 1000:.0f} ms); "
          f"two of 5,000 at once, both in {both:.1f} s")
    hoard_ok = unruly["hoarded"].count("bad-audio") == 1
    open_now = args.clients + args.idle + args.hoarders + 1
    # Every connection past the cap refused (one of those counted open may have been closed).
    ok_unruly = idle_ok and hoard_ok and unruly["refused"] >= 7 and unruly["accepted"] <= args.max_connections - open_now + 1

    print("malformed input (each on its own connection):")
    ok = not figures.failures and figures.crossed == 0 and ok_unruly
    for name, raw, code in MALFORMED:
        refused, closed = await malformed_case(port, raw, code)
        print(f"  {name}: {'error ' + code if refused else 'NO error ' + code}, {'closed' if closed else 'LEFT OPEN'}")
        ok = ok and refused and closed
    alive = await describe(port)
    print(f"afterwards the server {'still answers describe' if alive else 'DOES NOT ANSWER'}")
    return ok and alive


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hark", required=True, help="the hark binary to serve with")
    parser.add_argument("--apps", default="apps")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--idle", type=int, default=32, help="idle connections beside the clients")
    parser.add_argument("--hoarders", type=int, default=4, help="clients holding a whole minute of audio")
    parser.add_argument("--max-connections", type=int, default=64, help="the server's cap (hark serve --max-connections)")
    parser.add_argument("--idle-timeout", type=float, default=60, help="the server's (hark serve --idle-timeout)")
    parser.add_argument("recordings", nargs="*")
    args = parser.parse_args()
    if not args.recordings:
        args.recordings = sorted(glob.glob("audio-fixtures/home-en/*.wav"))
    if not args.recordings:
        sys.exit("no recordings: name some, or run from the repository (audio-fixtures/home-en)")

    scratch = tempfile.mkdtemp(prefix="hark-serve-load-")
    environment = dict(os.environ, HARK_DATABASE=os.path.join(scratch, "shortcuts.sqlite"), XDG_DATA_HOME=scratch,
                       HARK_OWNER_APPS=os.path.join(scratch, "owner-apps"))
    server = subprocess.Popen([args.hark, "serve", "--uri", "tcp://127.0.0.1:0", "--apps", args.apps, "--log-level", "error",
                               "--max-connections", str(args.max_connections), "--idle-timeout", f"{args.idle_timeout:g}"],
                              stdout=subprocess.PIPE, env=environment, text=True)
    try:
        line = server.stdout.readline()
        if "serving Wyoming on tcp://" not in line:
            sys.exit(f"hark serve did not start: {line!r}")
        port = int(line.rsplit(":", 1)[1])
        ok = asyncio.run(run(args, port, server.pid))
    finally:
        server.terminate()
        server.wait(10)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
