#!/usr/bin/env python3
"""Makes the corpus of make bench-noise: requests and wake words by real people, each heard
with seconds of a noisy room before it, as a microphone in that room hears them.

    bench/make-noise-corpus.py CORPORA OUTDIR [--negative-minutes M] [--split tune --requests-only]

A stratified subset of the test side of make bench-real's and make bench-wake's corpora (the
speakers and recordings nothing is tuned on; see bench/make-real-corpus.py and
bench/make-wake-corpus.py for the splits), in five conditions: clean (the noise 60 dB down) and
real household noise at 20, 10, 5 and 0 dB SNR. The four noises (dishes, tap, bike, cat) are
taken in turn, so each condition holds every noise about equally, each from the stretch no model
learns from (make-real-corpus.py's `household_noises`; from version 6). The spoken digits,
recorded at 8 kHz, are heard with their room through the same telephone band (from version 5), as
make-real-corpus.py hears them; a turn before a digit with its "jarvis" too.

  requests/CONDITION/NAME.wav, NAME.json
      home-en's 49 commands, one take of each digit by each test speaker, a share of the names
      said alone (to be understood), and a share of the other phrases and of the "jarvis"
      recordings (to be rejected). Each recording has LEAD seconds of the room before it and
      TAIL (6) seconds after: the noise over the recording's own room (its quietest 100 ms,
      `own_room`), so the room does not change when the person starts. The sidecar
      (the rhasspy-test layout of make-real-corpus.py) says "wakeAt": LEAD, so `hark bench`
      cuts the request from what follows as the live loop would.
  turns/CONDITION/NAME.wav, NAME.json
      the same requests, each said after a test recording of "jarvis" (by another test speaker,
      brought to the request's level, cut to its sound, then TURN_GAP s of the request's room;
      the request's room under all of it, before and after too, from version 7):
      a whole turn, "Jarvis, turn on the lamp". The sidecar adds "wakePhrase", "wakeStartsAt"
      (LEAD) and sets "wakeAt" to where the request begins, so `hark bench --spot-wake` finds the
      wake word as the live loop does before it cuts the request.
  wake/CONDITION/positives/PHRASE/CONDITION/test-ID.wav
      a share of every phrase's test recordings, with LEAD seconds of the room before and 1 s after.
  wake/CONDITION/negatives/test-speech-NNN.wav
      M minutes (default 3) of test speech that is not a wake phrase, one utterance after
      another over the condition's noise, as make-wake-corpus.py writes its negatives.

`--split tune` takes the tune side instead (the speakers settings are chosen on; home-en has
none), and `--requests-only` makes the requests alone: the corpus to choose a setting of the
request stages on before make bench-noise reports it on the test side.

The same files come out on every run. Needs python3 with numpy, and sox.
"""
import argparse
import json
import os
import shutil
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module

real = import_module("make-real-corpus")
wake = import_module("make-wake-corpus")

RATE = real.RATE
LEAD = 5.0
# The room goes on after a request as before it: an endpointer that cannot tell the end of
# speech in the noise runs on, as it would in that room, to its limit (10 s after the wake word).
TAIL = 6.0
CONDITIONS = [("clean", 60.0), ("snr20", 20.0), ("snr10", 10.0), ("snr05", 5.0), ("snr00", 0.0)]
# Test recordings taken of each kind (the voice's corpus), spread evenly over each kind's list.
REQUEST_SHARE = {"home-en": 49, "fsdd": 30, "mycroft:athena": 20, "mycroft:amelia": 20,
                 "mycroft:not-wake-words": 30, "jarvis": 20}
WAKE_SHARE = 24  # recordings of each phrase
# The pause between the wake word and the request in a recorded turn (s).
TURN_GAP = 0.3
# Written into OUTDIR/corpus-version: make bench-noise remakes a corpus of another version.
VERSION = "8"


def spread(items, count):
    """`count` of `items`, evenly spaced (all of them when there are fewer)."""
    if len(items) <= count:
        return items
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def own_room(speech, length):
    """`length` samples of the room a recording was made in: the 100 ms of it (40 ms of a
    recording under a second) whose loudest 10 ms is the quietest, played forwards and backwards
    in turn until it fills them.

    Many of these recordings are cut tight round the words. Their quietest quarter second by mean
    power (make-wake-corpus.py's rule) held the edge of a word: tiled, it made a room that
    clicked twice a second (home-en's "how cold is it": -47 dBFS bursts in a -81 dBFS room) or
    said "five five five" (the spoken digits), which no endpointer should take for the end of speech."""
    frame = RATE // 100
    window = RATE // 25 if len(speech) < RATE else RATE // 10
    powers = np.array([np.mean(speech[i:i + frame] ** 2) for i in range(0, len(speech) - frame + 1, frame)])
    span = window // frame
    if len(powers) <= span:
        quietest = speech
    else:
        start = int(np.argmin([powers[i:i + span].max() for i in range(len(powers) - span + 1)]))
        quietest = speech[start * frame:start * frame + window]
    if len(quietest) == 0:
        return np.zeros(length)
    turns = [quietest, quietest[::-1]]
    return np.concatenate([turns[i % 2] for i in range(length // len(quietest) + 1)])[:length]


def in_room(speech, snr, noise, seed, lead, tail, narrowband=False, room_of=None):
    """`speech` with `lead` s of its own room before it and `tail` s after, the noise over all
    of it at `snr` dB below the speech (make-real-corpus.py's measure), never clipping. The room
    is `room_of`'s when given (a turn's is its request's). For a `narrowband` voice (the spoken
    digits, recorded at 8 kHz) all of it is heard through the telephone band, as
    make-real-corpus.py hears them."""
    power = real.speech_power(speech)
    source = speech if room_of is None else room_of
    before, after = own_room(source, int(lead * RATE)), own_room(source, int(tail * RATE))
    padded = np.concatenate([before, speech, after])
    piece = wake.bed(noise, seed % len(noise), len(padded))
    if narrowband:
        padded, piece = real.telephone_band(padded), real.telephone_band(piece)
    mixed = padded + np.sqrt(power / (np.mean(piece ** 2) + 1e-12) / 10 ** (snr / 10)) * piece
    peak = np.abs(mixed).max()
    return mixed * (0.7 / peak) if peak > 0.7 else mixed


def requests(corpora, noises, out, split="test"):
    chosen = []
    for kind, count in REQUEST_SHARE.items():
        items = [item for item in real.recordings(corpora)
                 if item[2]["split"] == split and (item[2]["voice"] == kind or item[2]["voice"].split(":")[0] == kind)]
        if kind == "fsdd":  # one take of each digit by each speaker
            items = [item for item in items if item[0].endswith("-0")]
        chosen += spread(items, count)
    for index, (condition, snr) in enumerate(CONDITIONS):
        folder = os.path.join(out, "requests", condition)
        os.makedirs(folder)
        for number, (name, path, sidecar) in enumerate(chosen):
            noise_name, noise = noises[(number + index) % len(noises)]
            mixed = in_room(real.read_audio(path), snr, noise, zlib.crc32(name.encode()), LEAD, TAIL,
                            narrowband=sidecar["voice"].startswith("fsdd:"))
            real.write_audio(os.path.join(folder, name + ".wav"), mixed)
            with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(dict(sidecar, noise=noise_name, snr=snr, wakeAt=LEAD), f)
    print(f"requests: {len(chosen)} recordings in {len(CONDITIONS)} conditions", file=sys.stderr)
    return chosen


def sound_of(speech):
    """`speech` cut to its sound: from 50 ms before the first 10 ms frame within 35 dB of the
    loudest to 50 ms after the last."""
    frame = RATE // 100
    powers = np.array([np.mean(speech[i:i + frame] ** 2) for i in range(0, len(speech) - frame + 1, frame)]) + 1e-12
    loud = np.nonzero(powers >= powers.max() / 10 ** 3.5)[0]
    start = max(0, loud[0] * frame - RATE // 20)
    end = min(len(speech), (loud[-1] + 1) * frame + RATE // 20)
    return speech[start:end]


def turns(corpora, noises, out, chosen):
    """Each request of `chosen` said after a test "jarvis" (see the module's doc)."""
    wakes = spread([path for path, split, _ in wake.wake_recordings(corpora, "wake-jarvis", "") if split == "test"],
                   len(chosen))
    for index, (condition, snr) in enumerate(CONDITIONS):
        folder = os.path.join(out, "turns", condition)
        os.makedirs(folder)
        for number, (name, path, sidecar) in enumerate(chosen):
            noise_name, noise = noises[(number + index) % len(noises)]
            request = real.read_audio(path)
            said = sound_of(real.read_audio(wakes[number % len(wakes)]))
            said = said * np.sqrt(real.speech_power(request) / real.speech_power(said))
            # One room for the whole turn: the request's, under the wake word too. (Before
            # version 7 the room before and after was the turn's quietest 100 ms, often the
            # wake word recording's quieter room, so a request made in a noisy room was heard
            # after a quiet one.)
            said = said + own_room(request, len(said))
            turn = np.concatenate([said, own_room(request, int(TURN_GAP * RATE)), request])
            mixed = in_room(turn, snr, noise, zlib.crc32(name.encode()), LEAD, TAIL,
                            narrowband=sidecar["voice"].startswith("fsdd:"), room_of=request)
            real.write_audio(os.path.join(folder, name + ".wav"), mixed)
            with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(dict(sidecar, noise=noise_name, snr=snr, wakePhrase="jarvis", wakeStartsAt=LEAD,
                               wakeAt=LEAD + (len(said) + int(TURN_GAP * RATE)) / RATE), f)
    print(f"turns: {len(chosen)} requests after a wake word in {len(CONDITIONS)} conditions", file=sys.stderr)


def wake_words(corpora, noises, out, negative_minutes):
    test_speech = [path for path, split in wake.speech_pool(corpora) if split == "test"]
    for index, (condition, snr) in enumerate(CONDITIONS):
        for slug, folder, prefix in wake.PHRASES:
            target = os.path.join(out, "wake", condition, "positives", slug, condition)
            os.makedirs(target)
            tests = [item for item in wake.wake_recordings(corpora, folder, prefix) if item[1] == "test"]
            for number, (path, _, ident) in enumerate(spread(tests, WAKE_SHARE)):
                _, noise = noises[(number + index) % len(noises)]
                mixed = in_room(real.read_audio(path), snr, noise, wake.noise_seed(path, corpora), LEAD, 1.0)
                real.write_audio(os.path.join(target, f"test-{ident}.wav"), mixed)
        negatives = os.path.join(out, "wake", condition, "negatives")
        os.makedirs(negatives)
        rng = np.random.default_rng(zlib.crc32(condition.encode()))
        stream = wake.Stream(negatives, corpora, "test", "speech", [noise for _, noise in noises])
        stream.files = index  # each condition starts its noises at a different one
        order = list(test_speech)
        rng.shuffle(order)
        for path in order:
            if stream.seconds + stream.length / RATE >= negative_minutes * 60:
                break
            stream.add(wake.levelled(real.read_audio(path), rng), path, snr, rng)
            if stream.length >= 120 * RATE:  # two-minute files, so the jobs share them out evenly
                stream.flush(rng)
        stream.flush(rng)
    print(f"wake words: {WAKE_SHARE} recordings of each of {len(wake.PHRASES)} phrases and "
          f"{negative_minutes} minutes of other speech in each condition", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora")
    parser.add_argument("out")
    parser.add_argument("--negative-minutes", type=float, default=3)
    parser.add_argument("--split", choices=["test", "tune"], default="test",
                        help="whose recordings: the test side (make bench-noise) or the tune side")
    parser.add_argument("--requests-only", action="store_true", help="make the requests alone (no turns, no wake words)")
    args = parser.parse_args()
    for needed in ["home-en", "digits-fsdd", "read-ljspeech", "wake-mycroft", "wake-jarvis", "noise-household"]:
        if not os.path.isdir(os.path.join(args.corpora, needed)):
            sys.exit(f"make-noise-corpus.py: {os.path.join(args.corpora, needed)} is missing")
    if shutil.which("sox") is None:
        sys.exit("make-noise-corpus.py: sox is missing (apt-get install sox)")
    noises = real.household_noises(args.corpora, "measure")
    stage = args.out.rstrip("/") + ".partial"
    shutil.rmtree(stage, ignore_errors=True)
    chosen = requests(args.corpora, noises, stage, args.split)
    if not args.requests_only:
        turns(args.corpora, noises, stage, chosen)
        wake_words(args.corpora, noises, stage, args.negative_minutes)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    apps = os.path.join(stage, "apps")
    shutil.copytree(os.path.join(repo, "apps"), apps, symlinks=True)
    for app in os.listdir(os.path.join(repo, "bench", "real-apps")):
        shutil.copytree(os.path.join(repo, "bench", "real-apps", app), os.path.join(apps, app))
    with open(os.path.join(stage, "corpus-version"), "w", encoding="utf-8") as f:
        f.write(VERSION + "\n")
    shutil.rmtree(args.out, ignore_errors=True)
    os.rename(stage, args.out)


if __name__ == "__main__":
    main()
