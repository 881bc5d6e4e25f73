#!/usr/bin/env python3
"""Makes the real-voice noise corpus for `hark bench` (make bench-real).

    bench/make-real-corpus.py CORPORA OUTDIR

CORPORA is the folder of real recordings (../shared/corpora); OUTDIR receives one folder per
condition, each with the same recordings (16 kHz mono 16-bit WAV) and a NAME.json sidecar in
the rhasspy-test layout ({"text", "intent": {"name"} or null, "slots"}) plus "voice" (who
spoke: the corpus and, where it is known, the speaker), "noise", "snr", and "split" ("tune"
or "test": anything chosen on these recordings is chosen on "tune" and reported on "test",
which are other speakers or, where speakers are not named, other recordings), and OUTDIR/apps: the bundled apps plus bench/real-apps (a keypad
app whose phrase is a spoken digit, and a phone app whose phrase is a name).

Recordings (all real people):
  must be understood
    * home-en: the 49 rhasspy-test home-automation commands (one speaker; test);
    * digits-fsdd: three recordings of each digit by each of six speakers, said as
      "<digit>" to the keypad app; jackson, nicolas and theo are "tune", george, lucas and
      yweweler "test";
    * wake-mycroft/athena and wake-mycroft/amelia: every second recording, said as a name alone
      to the phone app ("Who should I call?"): one-word requests by many people and microphones;
  must be rejected
    * read-ljspeech: every sixth sentence (one reader; tune);
    * wake-mycroft/not-wake-words: every phrase (many speakers);
    * wake-jarvis: every fourth recording (many speakers).
    These, like the names, name no speaker: a recording whose name (a random UUID) starts with
    0-7 is "tune", with 8-f "test".

Conditions: clean, snr20, snr10, snr05, snr00 and snr20-click. Each recording is padded with
0.4 s before and 0.4 s after (people pause around a request; the recogniser hears the room
then), and mixed with one of the four real household noises (dishes, tap, bike, cat: the
noise-household recordings), taken in turn so that each condition holds every noise, cut at an
offset that follows from the recording's name within the last 40 % of the noise: the part no
model learns from (`household_noises`; from version 3, before which the whole recording).
"clean" has the same noise 60 dB down.
"snr20-click" is snr20 with a click at 50 ms: 4 ms of full-scale broadband noise decaying
over 30 ms, as a microphone opening or a button makes.

The spoken digits were recorded through a microphone sampling at 8 kHz, which hears nothing
above 4 kHz: their noise and click are heard through the same telephone band (from version 2;
before, wideband noise over narrowband speech, which no one microphone hears, and which hid the
band from the recogniser in every noisy room). Their SNR is that of the band.

SNR: 10 log10 of the speech's power over the noise's. The speech's power is the mean power
of the 20 ms frames of the unpadded recording within 30 dB of its loudest frame (the speech
itself, not the pauses around it); the noise's power is the mean over the piece cut. After
mixing, a recording whose peak passes 0.7 of full scale is turned down as a whole, so none
clips; otherwise levels are the recordings' own.

The same files come out on every run. Needs python3 with numpy, and sox.
"""
import json
import os
import shutil
import subprocess
import sys
import wave
import zlib

import numpy as np

RATE = 16000
# Written to OUTDIR/corpus-version; make bench-real makes the corpus again when it changes.
VERSION = "3"
PAD = int(0.4 * RATE)
NOISES = [("dishes", "doing_the_dishes.wav"), ("tap", "running_tap.wav"),
          ("bike", "exercise_bike.wav"), ("cat", "dude_miaowing.wav")]
CONDITIONS = [("clean", 60.0, False), ("snr20", 20.0, False), ("snr10", 10.0, False),
              ("snr05", 5.0, False), ("snr00", 0.0, False), ("snr20-click", 20.0, True)]
DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
TUNE_SPEAKERS = {"jackson", "nicolas", "theo"}
# Each household noise is cut in two: make adapt learns from the first 60 % alone and every
# benchmark mixes its speech with the rest alone. A model that learnt the very stretch of noise
# it is measured in hears it better than any kitchen it never heard (docs/benchmarks.md).
LEARNT_SHARE = 0.6


def read_audio(path, effects=()):
    """Any WAV as 16 kHz mono float samples in [-1, 1], converted by sox, through sox's `effects`
    (e.g. ["speed", "1.1"]) if given."""
    raw = subprocess.run(["sox", "-R", path, "-t", "raw", "-r", str(RATE), "-c", "1", "-b", "16",
                          "-e", "signed-integer", "-", *effects], check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0


def write_audio(path, samples):
    clipped = np.clip(np.round(samples * 32767.0), -32768, 32767).astype("<i2")
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(clipped.tobytes())


def household_noises(corpora, part):
    """[(name, samples)] of the four household noises, each cut at LEARNT_SHARE: `part` "learn"
    is the first stretch of each (make adapt), "measure" the rest (the benchmarks)."""
    if part not in ("learn", "measure"):
        raise ValueError(f"household_noises: part is \"learn\" or \"measure\", not {part!r}")
    out = []
    for name, file in NOISES:
        samples = read_audio(os.path.join(corpora, "noise-household", file))
        cut = int(len(samples) * LEARNT_SHARE)
        out.append((name, samples[:cut] if part == "learn" else samples[cut:]))
    return out


def speech_power(samples):
    frame = RATE // 50
    count = max(len(samples) // frame, 1)
    powers = np.array([np.mean(samples[i * frame:(i + 1) * frame] ** 2) for i in range(count)]) + 1e-12
    loud = powers >= powers.max() / 1000.0  # within 30 dB of the loudest frame
    return float(powers[loud].mean())


def click(length, seed):
    rng = np.random.default_rng(seed)
    burst = np.zeros(length)
    start, duration = int(0.05 * RATE), int(0.034 * RATE)
    envelope = np.ones(duration)
    envelope[int(0.004 * RATE):] = np.exp(-np.arange(duration - int(0.004 * RATE)) / (0.006 * RATE))
    burst[start:start + duration] = rng.uniform(-1, 1, duration) * envelope
    return burst


def telephone_band(samples):
    """`samples` as a microphone sampling at 8 kHz hears them: nothing above 4 kHz (tapered
    from 3.8 kHz, as a resampler's filter falls)."""
    frequencies = np.fft.rfftfreq(len(samples), 1.0 / RATE)
    gain = np.clip((4000.0 - frequencies) / 200.0, 0.0, 1.0)
    return np.fft.irfft(np.fft.rfft(samples) * gain, len(samples))


def by_prefix(file, prefix):
    """"tune" or "test" by the first hex digit of a UUID-named recording."""
    return "tune" if file[len(prefix)] in "01234567" else "test"


def recordings(corpora):
    """(name, path, sidecar) for every recording of the corpus, in a fixed order."""
    home = os.path.join(corpora, "home-en")
    for wav in sorted(f for f in os.listdir(home) if f.endswith(".wav")):
        stem = wav[:-4]
        with open(os.path.join(home, stem + ".json"), encoding="utf-8") as f:
            item = json.load(f)
        yield ("home-" + stem, os.path.join(home, wav),
               {"text": item["text"], "intent": {"name": item["intent"]["name"]},
                "slots": item.get("slots") or {}, "voice": "home-en", "split": "test"})
    digits = os.path.join(corpora, "digits-fsdd")
    speakers = sorted({f.split("_")[1] for f in os.listdir(digits) if f.endswith(".wav")})
    for speaker in speakers:
        for digit in range(10):
            for index in (0, 17, 34):
                path = os.path.join(digits, f"{digit}_{speaker}_{index}.wav")
                yield (f"digit-{speaker}-{digit}-{index}", path,
                       {"text": DIGITS[digit], "intent": {"name": "PressKey"}, "slots": {"digit": str(digit)},
                        "voice": "fsdd:" + speaker, "split": "tune" if speaker in TUNE_SPEAKERS else "test"})
    lj = os.path.join(corpora, "read-ljspeech")
    for wav in sorted(f for f in os.listdir(lj) if f.endswith(".wav"))[::6]:
        yield ("lj-" + wav[:-4], os.path.join(lj, wav),
               {"text": None, "intent": None, "voice": "ljspeech", "split": "tune"})
    other = os.path.join(corpora, "wake-mycroft", "not-wake-words")
    for wav in sorted(f for f in os.listdir(other) if f.endswith(".wav")):
        yield ("other-" + wav[:-4].replace("notwakeword-en-", "")[:13], os.path.join(other, wav),
               {"text": None, "intent": None, "voice": "mycroft:not-wake-words", "split": by_prefix(wav, "notwakeword-en-")})
    jarvis = os.path.join(corpora, "wake-jarvis")
    for wav in sorted(f for f in os.listdir(jarvis) if f.endswith(".wav"))[::4]:
        yield ("jarvis-" + wav[:-4][:13], os.path.join(jarvis, wav),
               {"text": None, "intent": None, "voice": "jarvis", "split": by_prefix(wav, "")})
    # Last, so that the recordings above keep the noise and offset they had before these came.
    for name, prefix in [("athena", "athena-en-"), ("amelia", "amelia-")]:
        folder = os.path.join(corpora, "wake-mycroft", name)
        for wav in sorted(f for f in os.listdir(folder) if f.endswith(".wav"))[::2]:
            yield (f"name-{name}-" + wav[len(prefix):len(prefix) + 8], os.path.join(folder, wav),
                   {"text": name, "intent": {"name": "CallContact"}, "slots": {"contact": name},
                    "voice": "mycroft:" + name, "split": by_prefix(wav, prefix)})


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-real-corpus.py CORPORA OUTDIR")
    corpora, out = sys.argv[1:3]
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for needed in ["home-en", "digits-fsdd", "read-ljspeech", "wake-mycroft", "wake-jarvis", "noise-household"]:
        if not os.path.isdir(os.path.join(corpora, needed)):
            sys.exit(f"make-real-corpus.py: {os.path.join(corpora, needed)} is missing")
    if shutil.which("sox") is None:
        sys.exit("make-real-corpus.py: sox is missing (apt-get install sox)")
    noises = household_noises(corpora, "measure")

    stage = os.path.join(out, ".partial")
    shutil.rmtree(stage, ignore_errors=True)
    for condition, _, _ in CONDITIONS:
        os.makedirs(os.path.join(stage, condition))
    items = list(recordings(corpora))
    counts = {}
    for number, (name, path, sidecar) in enumerate(items):
        speech = read_audio(path)
        power = speech_power(speech)
        padded = np.concatenate([np.zeros(PAD), speech, np.zeros(PAD)])
        seed = zlib.crc32(name.encode())
        narrowband = sidecar["voice"].startswith("fsdd:")
        heard = telephone_band if narrowband else (lambda samples: samples)
        for index, (condition, snr, clicks) in enumerate(CONDITIONS):
            noise_name, bed = noises[(number + index) % len(noises)]
            offset = seed % (len(bed) - len(padded))
            piece = heard(bed[offset:offset + len(padded)])
            gain = np.sqrt(power / (np.mean(piece ** 2) + 1e-12) / 10 ** (snr / 10))
            mixed = padded + gain * piece
            if clicks:
                mixed += heard(click(len(mixed), seed))
            peak = np.abs(mixed).max()
            if peak > 0.7:
                mixed *= 0.7 / peak
            write_audio(os.path.join(stage, condition, name + ".wav"), mixed)
            labelled = dict(sidecar, noise=noise_name + ("+click" if clicks else ""), snr=snr)
            with open(os.path.join(stage, condition, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(labelled, f)
        kind = sidecar["voice"].split(":")[0]
        counts[kind] = counts.get(kind, 0) + 1
        if (number + 1) % 100 == 0:
            print(f"{number + 1}/{len(items)} recordings", file=sys.stderr)

    apps = os.path.join(stage, "apps")
    shutil.copytree(os.path.join(repo, "apps"), apps, symlinks=True)
    for app in os.listdir(os.path.join(repo, "bench", "real-apps")):
        shutil.copytree(os.path.join(repo, "bench", "real-apps", app), os.path.join(apps, app))
    for folder in [c for c, _, _ in CONDITIONS] + ["apps"]:
        shutil.rmtree(os.path.join(out, folder), ignore_errors=True)
        os.rename(os.path.join(stage, folder), os.path.join(out, folder))
    os.rmdir(stage)
    with open(os.path.join(out, "corpus-version"), "w", encoding="utf-8") as f:
        f.write(VERSION + "\n")
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    print(f"{len(items)} recordings ({summary}) in {len(CONDITIONS)} conditions under {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
