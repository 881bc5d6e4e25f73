#!/usr/bin/env python3
"""Wake-word streams on `hark serve`, with the reference Wyoming client (the `wyoming` package).

    python3 bench/serve-wake.py --hark .build/release/hark [--streams 1,2,4,8] [--sessions 1000]

1. Latency: for each count N, N clients at once send `detect` and stream the same recording of
   three real "jarvis" (audio-fixtures/wake/real_wakes.wav, first 14 s) at the pace of speech.
   Latency is the time from sending the chunk in which a wake word ends (by the recording's
   .txt labels) to the detection's arrival; p50 / max over every detection of every stream.
2. Memory: the server's resident memory at its peak while N streams are heard, and after they
   close; per stream, the difference over N (what the server holds for every client's wake
   streams, such as the verifier they share, stays after they close). Then SESSIONS short sessions one after another (connect, detect, 1.5 s of audio
   sent at once, close), and the memory after them.
"""
import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
import wave

from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.info import Describe
from wyoming.ping import Ping, Pong
from wyoming.wake import Detect, Detection, NotDetected

CHUNK_FRAMES = 1024
RATE = 16000
RECORDING = "audio-fixtures/wake/real_wakes.wav"
SECONDS = 14.0


def load(path, seconds):
    with wave.open(path, "rb") as recording:
        assert recording.getframerate() == RATE and recording.getnchannels() == 1 and recording.getsampwidth() == 2
        return recording.readframes(int(seconds * RATE))


def wake_ends(path, seconds):
    ends = []
    with open(path[:-4] + ".txt") as labels:
        for line in labels:
            start, end, kind = line.split("\t")[:3]
            if kind == "wake" and float(end) < seconds:
                ends.append(float(end))
    return ends


def resident_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise SystemExit("the server is gone")


def proportional_mb(pid):
    """Memory the process costs the system: its resident pages, each file page mapped more than
    once (every decoder maps the model's files) counted once (Pss)."""
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    raise SystemExit("the server is gone")


async def wait_for_server(port, deadline=60):
    start = time.monotonic()
    while time.monotonic() - start < deadline:
        try:
            client = AsyncTcpClient("127.0.0.1", port)
            await client.connect()
            await client.write_event(Describe().event())
            await client.read_event()
            await client.disconnect()
            return
        except OSError:
            await asyncio.sleep(0.2)
    raise SystemExit("hark serve did not start")


async def listen(port, audio, ends, opened, release):
    """One wake stream at the pace of speech; returns the latency (s) of each detection."""
    client = AsyncTcpClient("127.0.0.1", port)
    await client.connect()
    await client.write_event(Detect().event())
    await client.write_event(AudioStart(rate=RATE, width=2, channels=1).event())
    opened.set_result(None) if not opened.done() else None
    await release.wait()
    sent_at = {}  # chunk end (s of audio) -> wall time sent
    detections = []

    async def read():
        while True:
            event = await client.read_event()
            if event is None or Pong.is_type(event.type):
                return
            if Detection.is_type(event.type):
                detections.append((time.monotonic(), Detection.from_event(event).timestamp or 0))
            elif not NotDetected.is_type(event.type):
                raise SystemExit(f"unexpected {event.type}")

    reader = asyncio.create_task(read())
    start = time.monotonic()
    step = CHUNK_FRAMES * 2
    for at in range(0, len(audio), step):
        chunk = audio[at:at + step]
        due = start + at / 2 / RATE
        await asyncio.sleep(max(0, due - time.monotonic()))
        await client.write_event(AudioChunk(rate=RATE, width=2, channels=1, audio=chunk).event())
        sent_at[(at + len(chunk)) / 2 / RATE] = time.monotonic()
    await client.write_event(AudioStop().event())
    await client.write_event(Ping(text="end").event())
    await reader
    await client.disconnect()
    latencies = []
    for detected, timestamp in detections:
        # The chunk that carried the end of the detected word (the detection's timestamp).
        sent = min((t for (audio_end, t) in sent_at.items() if audio_end >= timestamp / 1000), default=None)
        if sent is not None:
            latencies.append(detected - sent)
    return latencies, len(detections)


async def latency_run(port, pid, count, audio, ends):
    loop = asyncio.get_running_loop()
    release = asyncio.Event()
    openings = [loop.create_future() for _ in range(count)]
    tasks = [asyncio.create_task(listen(port, audio, ends, opened, release)) for opened in openings]
    await asyncio.gather(*openings)
    await asyncio.sleep(1.0)  # each spotter made at its detect
    open_mb = resident_mb(pid)
    peak = (open_mb, proportional_mb(pid))

    async def sample():
        nonlocal peak
        while True:
            peak = (max(peak[0], resident_mb(pid)), max(peak[1], proportional_mb(pid)))
            await asyncio.sleep(0.1)

    sampler = asyncio.create_task(sample())
    release.set()
    results = await asyncio.gather(*tasks)
    sampler.cancel()
    latencies = [x for lat, _ in results for x in lat]
    found = sum(n for _, n in results)
    return latencies, found, peak


async def short_session(port, audio):
    client = AsyncTcpClient("127.0.0.1", port)
    await client.connect()
    await client.write_event(Detect().event())
    await client.write_event(AudioStart(rate=RATE, width=2, channels=1).event())
    await client.write_event(AudioChunk(rate=RATE, width=2, channels=1, audio=audio).event())
    await client.write_event(AudioStop().event())
    await client.write_event(Ping(text="end").event())
    while True:
        event = await client.read_event()
        if event is None or Pong.is_type(event.type):
            break
    await client.disconnect()


async def main():
    parser = argparse.ArgumentParser(description="Wake-word streams on hark serve")
    parser.add_argument("--hark", required=True)
    parser.add_argument("--streams", default="1,2,4,8")
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--port", type=int, default=10491)
    args = parser.parse_args()
    audio = load(RECORDING, SECONDS)
    ends = wake_ends(RECORDING, SECONDS)
    home = tempfile.mkdtemp(prefix="hark-serve-wake-")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"))
    server = subprocess.Popen([args.hark, "serve", "--uri", f"tcp://127.0.0.1:{args.port}"], env=env,
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(home, "serve.log"), "w"))
    try:
        await wait_for_server(args.port)
        start_mb = resident_mb(server.pid)
        print(f"hark serve on {os.cpu_count()} cores; memory at start {start_mb:.1f} MB")
        print("memory: resident (proportional, each shared page of the model's files counted once)")
        print(f"{'streams':>7}  {'found':>9}  {'latency p50':>11}  {'max':>6}  {'peak memory':>17}  {'per stream':>15}  {'after close':>17}")
        for count in [int(n) for n in args.streams.split(",")]:
            before = resident_mb(server.pid)
            latencies, found, peak = await latency_run(args.port, server.pid, count, audio, ends)
            await asyncio.sleep(1.0)
            after = (resident_mb(server.pid), proportional_mb(server.pid))
            p50 = statistics.median(latencies) if latencies else float("nan")
            worst = max(latencies) if latencies else float("nan")
            print(f"{count:>7}  {found:>4} of {count * len(ends):<3}  {p50:>9.2f} s  {worst:>4.2f} s  "
                  f"{peak[0]:>5.1f} ({peak[1]:>5.1f}) MB  {(peak[0] - after[0]) / count:>4.1f} ({(peak[1] - after[1]) / count:>4.1f}) MB  "
                  f"{after[0]:>5.1f} ({after[1]:>5.1f}) MB", flush=True)
        short = load(RECORDING, 1.5)
        before = resident_mb(server.pid)
        began = time.monotonic()
        for index in range(args.sessions):
            await short_session(args.port, short)
            if (index + 1) % 100 == 0:
                await asyncio.sleep(0.5)  # the server closes the last session's connection
                print(f"  {index + 1} sessions: {resident_mb(server.pid):.1f} MB", flush=True)
        elapsed = time.monotonic() - began
        await asyncio.sleep(0.5)
        after = resident_mb(server.pid)
        print(f"{args.sessions} short wake sessions in {elapsed:.0f} s: memory {before:.1f} → {after:.1f} MB ({after - before:+.1f} MB)")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    asyncio.run(main())
