#!/usr/bin/env python3
"""Makes the real-voice wake-word corpus for `hark bench-wake` (make bench-wake).

    bench/make-wake-corpus.py CORPORA OUTDIR [--test-hours H] [--tune-hours H]

CORPORA is the folder of real recordings (../shared/corpora). OUTDIR receives:

  positives/PHRASE/CONDITION/SPLIT-ID.wav
      every real recording of each wake phrase (wake-jarvis; wake-mycroft's athena, amelia and
      hey chatterbox), with 1 s of its own room (its quietest quarter second, over and over)
      before and after it, and the condition's noise over all of it. CONDITION is "clean" (the
      noise 60 dB below the speech) or "snr10" (real household noise at 10 dB).
  negatives/SPLIT-FAMILY-NNN.wav, SPLIT-FAMILY-NNN.tsv
      ten-minute streams of real speech that is not the phrase, as a microphone in a lived-in
      room would hear it: utterances one after another with pauses of 0.3-4 s between them,
      over one household noise (dishes, tap, bike, cat, in turn; like every noise here, from
      the stretch no model learns from: make-real-corpus.py's `household_noises`, from version
      2) at a level that changes from pass to pass (the room 60 dB down, then 20, 10, 5 and 0 dB
      below the speech), some passes played 8 % slower or faster (a lower or higher voice).
      FAMILY "speech" holds read-ljspeech, home-en, the not-wake phrases and the digits; FAMILY
      "wake-PHRASE" holds that phrase's recordings, which must not wake any other phrase: the
      benchmark leaves a phrase's own family out when it measures that phrase. Beside each
      stream, a list of its utterances: where each starts and ends (seconds) and the recording
      it came from, so a false alarm can be traced to what was said.

SPLIT says who may be learned from: anything chosen on recordings is chosen on "tune" and
reported on "test". The digits split by speaker (jackson, nicolas, theo tune; george, lucas,
yweweler test); read-ljspeech (one reader) by sentence (every fifth is tune); recordings named
by a random UUID, whose speakers are not named, by its first hex digit (0-3 tune, 4-f test),
so no recording is in both. Test negatives are made until every phrase has at least
--test-hours (default 10.5) of them besides its own family; tune negatives up to --tune-hours
(default 2). Hours here are audio: the pauses are part of the stream, nothing is inserted.

SNR: 10 log10 of the speech's power over the noise's, the speech's power being the mean of its
20 ms frames within 30 dB of its loudest (as bench/make-real-corpus.py). Every utterance is
first brought to the same speech power (-26 dBFS, +-4 dB at random), so one quiet speaker is
not buried. The same files come out on every run. Needs python3 with numpy, and sox.
"""
import argparse
import csv
import os
import shutil
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module

real = import_module("make-real-corpus")
RATE = real.RATE
read_audio, write_audio, speech_power = real.read_audio, real.write_audio, real.speech_power

PHRASES = [("jarvis", "wake-jarvis", ""), ("athena", "wake-mycroft/athena", "athena-en-"),
           ("amelia", "wake-mycroft/amelia", "amelia-"),
           ("hey-chatterbox", "wake-mycroft/heychatterbox", "heychatterbox-en-us-")]
# Each positive's condition and the SNR of its room (60: a quiet room, the noise 60 dB down).
CONDITIONS = [("clean", 60), ("snr10", 10)]
# Written to OUTDIR/corpus-version; make wake-corpus makes the corpus again when it changes.
VERSION = "3"
TUNE_SPEAKERS = {"jackson", "nicolas", "theo"}
# (SNR in dB, speed) of each pass over the speech, in the order they are made.
PASSES = [(60, 1.0), (20, 1.0), (10, 1.0), (5, 1.0), (60, 0.92), (10, 1.08), (20, 0.92),
          (0, 1.0), (5, 1.08), (60, 1.08), (10, 0.92), (20, 1.08)]
FILE_SECONDS = 600
LEVEL = 10 ** (-26 / 10)  # the speech power every utterance is brought to, before jitter


def uuid_split(name, prefix):
    return "tune" if name[len(prefix)] in "0123" else "test"


def wake_recordings(corpora, folder, prefix):
    path = os.path.join(corpora, folder)
    for wav in sorted(f for f in os.listdir(path) if f.endswith(".wav")):
        yield os.path.join(path, wav), uuid_split(wav, prefix), wav[len(prefix):len(prefix) + 8]


def speech_pool(corpora):
    """(path, split) of every utterance of the "speech" family."""
    lj = os.path.join(corpora, "read-ljspeech")
    for index, wav in enumerate(sorted(f for f in os.listdir(lj) if f.endswith(".wav"))):
        yield os.path.join(lj, wav), "tune" if index % 5 == 0 else "test"
    home = os.path.join(corpora, "home-en")
    for wav in sorted(f for f in os.listdir(home) if f.endswith(".wav")):
        yield os.path.join(home, wav), "test"
    other = os.path.join(corpora, "wake-mycroft", "not-wake-words")
    for wav in sorted(f for f in os.listdir(other) if f.endswith(".wav")):
        yield os.path.join(other, wav), uuid_split(wav, "notwakeword-en-")
    digits = os.path.join(corpora, "digits-fsdd")
    for wav in sorted(f for f in os.listdir(digits) if f.endswith(".wav")):
        yield os.path.join(digits, wav), "tune" if wav.split("_")[1] in TUNE_SPEAKERS else "test"


def levelled(samples, rng):
    power = speech_power(samples)
    return samples * np.sqrt(LEVEL * 10 ** (rng.uniform(-4, 4) / 10) / power)


def at_speed(samples, speed):
    """Played `speed` times faster: pitch and tempo together, as a turntable would."""
    if speed == 1.0:
        return samples
    positions = np.arange(0, len(samples) - 1, speed)
    return np.interp(positions, np.arange(len(samples)), samples)


def bed(noise, offset, length):
    """`length` samples of a noise recording from `offset`, wrapping round."""
    index = (offset + np.arange(length)) % len(noise)
    return noise[index]


def own_room(speech, length):
    """`length` samples of the room a recording was made in: its quietest quarter second,
    played forwards and backwards in turn (so that no seam clicks) until it fills them."""
    window, hop = RATE // 4, RATE // 40
    if len(speech) <= window:
        quietest = speech
    else:
        powers = [np.mean(speech[start:start + window] ** 2)
                  for start in range(0, len(speech) - window + 1, hop)]
        start = hop * int(np.argmin(powers))
        quietest = speech[start:start + window]
    if len(quietest) == 0:
        return np.zeros(length)
    turns = [quietest, quietest[::-1]]
    tiled = np.concatenate([turns[i % 2] for i in range(length // len(quietest) + 1)])
    return tiled[:length]


def noise_seed(path, corpora):
    """Where in its noise a recording's bed starts, from the recording's place within `corpora`:
    the same wherever the corpora are and however their folder is spelt (before version 3 the
    whole path counted, so ../shared/corpora and its absolute path gave other figures)."""
    return zlib.crc32(os.path.relpath(path, corpora).encode())


def positive(path, number, condition, noises, corpora):
    """The recording at `path` (the `number`th of its phrase) with 1 s of the condition's room
    before and after it, as the benchmark hears it. The room is the recording's own (its
    quietest quarter second, `own_room`) with the condition's noise over it: a microphone that
    was listening before anyone spoke heard that room, not silence. (Laid over silence, the
    recording's own background stepped up from a room quieter than itself, which no microphone
    in that room would hear.)"""
    speech = read_audio(path)
    power = speech_power(speech)
    room = own_room(speech, RATE)
    padded = np.concatenate([room, speech, room])
    seed = noise_seed(path, corpora)
    snr = dict(CONDITIONS)[condition]
    noise = noises[(number + (condition == "snr10")) % len(noises)]
    piece = bed(noise, seed % len(noise), len(padded))
    gain = np.sqrt(power / (np.mean(piece ** 2) + 1e-12) / 10 ** (snr / 10))
    mixed = padded + gain * piece
    peak = np.abs(mixed).max()
    if peak > 0.7:
        mixed *= 0.7 / peak
    return mixed


def positives(corpora, noises, out):
    for slug, folder, prefix in PHRASES:
        for condition, _ in CONDITIONS:
            os.makedirs(os.path.join(out, "positives", slug, condition), exist_ok=True)
        count = 0
        for number, (path, split, ident) in enumerate(wake_recordings(corpora, folder, prefix)):
            for condition, _ in CONDITIONS:
                write_audio(os.path.join(out, "positives", slug, condition, f"{split}-{ident}.wav"),
                            positive(path, number, condition, noises, corpora))
            count += 1
        print(f"positives: {count} recordings of \"{slug}\"", file=sys.stderr)


class Stream:
    """Writes utterances into ten-minute files over a noise bed."""

    def __init__(self, out, corpora, split, family, noises):
        self.out, self.corpora, self.split, self.family, self.noises = out, corpora, split, family, noises
        self.files, self.seconds = 0, 0.0
        self.parts, self.length, self.said = [], 0, []

    def add(self, samples, source, snr, rng):
        pause = np.zeros(int(rng.uniform(0.3, 4.0) * RATE))
        self.parts += [pause, samples]
        start = self.length + len(pause)
        self.said.append((start / RATE, (start + len(samples)) / RATE, os.path.relpath(source, self.corpora)))
        self.length += len(pause) + len(samples)
        self.snr = snr
        if self.length >= FILE_SECONDS * RATE:
            self.flush(rng)

    def flush(self, rng):
        if not self.parts:
            return
        speech = np.concatenate(self.parts + [np.zeros(RATE)])
        noise = self.noises[self.files % len(self.noises)]
        piece = bed(noise, int(rng.integers(len(noise))), len(speech))
        gain = np.sqrt(LEVEL / (np.mean(piece ** 2) + 1e-12) / 10 ** (self.snr / 10))
        mixed = speech + gain * piece
        peak = np.abs(mixed).max()
        if peak > 0.9:
            mixed *= 0.9 / peak
        name = f"{self.split}-{self.family}-{self.files:03d}.wav"
        write_audio(os.path.join(self.out, name), mixed)
        with open(os.path.join(self.out, name[:-4] + ".tsv"), "w", newline="") as listing:
            writer = csv.writer(listing, delimiter="\t", lineterminator="\n")
            writer.writerow(["start", "end", "recording"])
            writer.writerows((f"{start:.2f}", f"{end:.2f}", source) for start, end, source in self.said)
        self.files += 1
        self.seconds += len(mixed) / RATE
        self.parts, self.length, self.said = [], 0, []
        print(f"negatives: {name} ({self.seconds / 3600:.2f} h of {self.split} {self.family})", file=sys.stderr)


def negatives(corpora, noises, out, test_hours, tune_hours):
    os.makedirs(out, exist_ok=True)
    families = {"speech": list(speech_pool(corpora))}
    for slug, folder, prefix in PHRASES:
        families["wake-" + slug] = [(p, s) for p, s, _ in wake_recordings(corpora, folder, prefix)]
    cache = {}

    def audio(path):
        if path not in cache:
            cache[path] = read_audio(path)
        return cache[path]

    hours = {}
    for split, target in (("test", test_hours), ("tune", tune_hours)):
        streams = {family: Stream(out, corpora, split, family, noises) for family in families}
        rng = np.random.default_rng(zlib.crc32(split.encode()))

        def enough():
            total = sum(s.seconds for s in streams.values())
            largest_own = max(streams[f].seconds for f in families if f.startswith("wake-"))
            return (total - largest_own) / 3600 >= target

        for snr, speed in PASSES:
            if enough():
                break
            for family, items in families.items():
                order = [item for item in items if item[1] == split]
                rng.shuffle(order)
                for path, _ in order:
                    streams[family].add(at_speed(levelled(audio(path), rng), speed), path, snr, rng)
                # A pass ends with its file, so every file has one level and one speed.
                streams[family].flush(rng)
        if not enough():
            sys.exit(f"make-wake-corpus.py: the recordings make fewer than {target} h of {split} negatives")
        hours[split] = {f: s.seconds / 3600 for f, s in streams.items()}
    return hours


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora")
    parser.add_argument("out")
    parser.add_argument("--test-hours", type=float, default=10.5)
    parser.add_argument("--tune-hours", type=float, default=2.0)
    args = parser.parse_args()
    for needed in ["read-ljspeech", "home-en", "digits-fsdd", "wake-jarvis", "wake-mycroft", "noise-household"]:
        if not os.path.isdir(os.path.join(args.corpora, needed)):
            sys.exit(f"make-wake-corpus.py: {os.path.join(args.corpora, needed)} is missing")
    if shutil.which("sox") is None:
        sys.exit("make-wake-corpus.py: sox is missing (apt-get install sox)")
    noises = [samples for _, samples in real.household_noises(args.corpora, "measure")]
    stage = os.path.join(args.out, ".partial")
    shutil.rmtree(stage, ignore_errors=True)
    positives(args.corpora, noises, stage)
    hours = negatives(args.corpora, noises, os.path.join(stage, "negatives"), args.test_hours, args.tune_hours)
    for folder in ("positives", "negatives"):
        shutil.rmtree(os.path.join(args.out, folder), ignore_errors=True)
        os.rename(os.path.join(stage, folder), os.path.join(args.out, folder))
    os.rmdir(stage)
    with open(os.path.join(args.out, "corpus-version"), "w", encoding="utf-8") as f:
        f.write(VERSION + "\n")
    for split, families in hours.items():
        listing = ", ".join(f"{family} {h:.2f} h" for family, h in families.items())
        print(f"{split} negatives: {listing}", file=sys.stderr)


if __name__ == "__main__":
    main()
