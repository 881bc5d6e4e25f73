#!/usr/bin/env python3
"""Estimates a SPLICE noise compensation (shipped as models/en-us.splice until the network replaced it).

    bench/estimate-noise-compensation.py CORPORA OUT.splice [--components K] [--noises N] [--denoise TOOL]

SPLICE (stereo-based piecewise linear compensation for environments): the same speech is heard
clean and in household noise, and for each kind of noisy frame the mean difference between the
clean and the noisy cepstra is learnt. Hark's recogniser moves a noisy room's frames by it
(Sources/HarkSpeech/NoiseCompensation.swift, which documents the file).

The speech is make adapt's wideband recordings (bench/make-adapt-corpus.py: speakers and
recordings the benchmarks never measure on). Each is written clean (the room 60 dB down) and in
N of the four household noises (each noise in turn, the first 60 % of each: the benchmarks mix
in the rest) at 20, 10, 5 and 0 dB SNR, at offsets that follow from the recording's name, with
3 s of the same room first, as a microphone in that room hears it: pocketsphinx's noise removal
has learnt the room by the time the speech starts. The
cepstra come from sphinx_fe with the model's feat.params and Hark's front-end settings, every
frame kept so the clean and noisy frames line up; the first 2.5 s are left out.

A mixture of K diagonal Gaussians over the noisy frames' cepstra and deltas ((c[t+2] - c[t-2]) / 2)
is fitted by EM (12 rounds, on at most 300,000 frames, a fixed seed), and each component's
correction is the clean less the noisy cepstra, weighed by its posterior. One recording in ten
(by a hash of its name) is held out and printed: how much of the noisy frames' squared distance
from the clean ones the correction removes, per SNR. The same file comes out on every run.

With --denoise TOOL (bench/webrtc-denoise.cc built), each noisy mix is heard through WebRTC's
noise suppression first, as Hark hears a request in a loud room (a suppressor of its own for the
whole mix, at the standard strength, its 6 ms delay taken out), and the correction learnt is the
one from suppressed to clean speech. The clean mix is kept as it is. (Measured for the hearing
through the suppression and for the wake word's second look, and not shipped: docs/benchmarks.md.)
Needs numpy, sox and sphinx_fe (sphinxbase-utils).
"""
import argparse
import concurrent.futures
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zlib

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("adapt_corpus", os.path.join(here, "make-adapt-corpus.py"))
adapt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(adapt)
real = adapt.real

HEADER = "hark-noise-compensation 1"
SNRS = [20.0, 10.0, 5.0, 0.0]
ROOM_FIRST = 3 * real.RATE
SKIP_FRAMES = 250  # 2.5 s: the noise removal has heard the room by then
COEFFICIENTS = 13
FRONT_END = ["-samprate", "16000", "-nfft", "512", "-lowerf", "130", "-upperf", "6800", "-nfilt", "25",
             "-transform", "dct", "-lifter", "22", "-remove_silence", "no", "-remove_noise", "yes"]
EM_ROUNDS = 12
EM_FRAMES = 300_000
# As NoiseSuppressor.suppressing: moderate strength, and the 96 samples the module's analysis
# window holds the sound back (the C tool processes each frame in place).
DENOISE_LEVEL = 1
DENOISE_DELAY = 96


def mixes(name, speech, noises, per_snr):
    """(tag, samples) of the recording clean, then in `per_snr` noises at each SNR."""
    padded = np.concatenate([np.zeros(ROOM_FIRST + adapt.PAD), speech, np.zeros(adapt.PAD)])
    seed = zlib.crc32(name.encode())
    power = real.speech_power(speech)

    def mixed(bed, offset, snr):
        piece = bed[offset % (len(bed) - len(padded)):][:len(padded)]
        return padded + np.sqrt(power / (np.mean(piece ** 2) + 1e-12) / 10 ** (snr / 10)) * piece

    out = [("clean", mixed(noises[seed % len(noises)][1], seed, 60.0))]
    for k, snr in enumerate(SNRS):
        for j in range(per_snr):
            noise, bed = noises[(seed + k + j) % len(noises)]
            out.append((f"{noise}{int(snr):02d}", mixed(bed, seed + 7919 * (k * per_snr + j), snr)))
    peak = max(np.abs(samples).max() for _, samples in out)
    scale = 0.7 / peak if peak > 0.7 else 1.0
    return [(tag, samples * scale) for tag, samples in out]


def cepstra(wav):
    """sphinx_fe's cepstra of one WAV, every frame."""
    mfc = wav[:-4] + ".mfc"
    subprocess.run(["sphinx_fe", "-i", wav, "-o", mfc, "-mswav", "yes"] + FRONT_END,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    values = np.fromfile(mfc, dtype="<f4")
    return values[1:].reshape(-1, COEFFICIENTS).astype(np.float64)


def denoised(tool, samples):
    """`samples` through WebRTC's noise suppression, in step with them and as long."""
    pcm = np.clip(np.round(samples * 32767.0), -32768, 32767).astype("<i2")
    padded = np.concatenate([pcm, np.zeros(DENOISE_DELAY, dtype="<i2")])
    out = subprocess.run([tool, "0", str(DENOISE_LEVEL)], input=padded.tobytes(), check=True,
                         capture_output=True).stdout
    heard = np.frombuffer(out, dtype="<i2").astype(np.float64) / 32767.0
    return np.concatenate([heard[DENOISE_DELAY:], np.zeros(max(0, len(samples) - len(heard) + DENOISE_DELAY))])[:len(samples)]


def require(corpora, program):
    """Exits with what is missing unless the tools and corpora the stereo speech needs are there."""
    for tool in ["sox", "sphinx_fe"]:
        if shutil.which(tool) is None:
            sys.exit(f"{program}: {tool} is missing (apt-get install sox sphinxbase-utils)")
    for needed in ["read-ljspeech", "wake-mycroft", "wake-jarvis", "noise-household"]:
        if not os.path.isdir(os.path.join(corpora, needed)):
            sys.exit(f"{program}: {os.path.join(corpora, needed)} is missing")


def stereo(corpora, per_snr, denoise=None, skip=SKIP_FRAMES, extra=(), speeds=(1.0,), leave_out=()):
    """[(noisy cepstra, clean cepstra, tag, held out)] of every wideband adaptation recording: its
    clean mix (tag "clean", the same frames twice), then its noisy ones (tag the SNR, "20" to
    "00"), every frame kept from the `skip`th on (2.5 s: the noise removal has heard the room).
    Through `denoise` first if given; `extra` (name, path) recordings after them; each recording
    once at each of `speeds` (1 as it came). One recording in ten is held out, by a hash of its
    name (all its speeds with it). The mixes in the noises named in `leave_out` are left out, the
    others kept as they are."""
    noises = real.household_noises(corpora, "learn")
    items = [item[:2] for item in adapt.recordings(corpora) if not item[0].startswith("digit-")] + list(extra)
    items = [(name if speed == 1.0 else f"{name}@{speed:g}", name, path, speed) for name, path in items for speed in speeds]
    out = []
    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for number, (name, base, path, speed) in enumerate(items):
            wavs = []
            # sox's speed moves the pitch with the pace, as a shorter or longer voice would.
            speech = real.read_audio(path, [] if speed == 1.0 else ["speed", f"{speed:g}"])
            for tag, samples in mixes(name, speech, noises, per_snr):
                if tag[:-2] in leave_out:  # a noisy mix's tag is its noise and SNR: "dishes10"
                    continue
                if denoise and tag != "clean":
                    samples = denoised(denoise, samples)
                wavs.append((tag, os.path.join(work, f"{name}.{tag}.wav")))
                real.write_audio(wavs[-1][1], samples)
            heard = dict(zip([tag for tag, _ in wavs], pool.map(cepstra, [wav for _, wav in wavs])))
            clean = heard.pop("clean")[skip:]
            held = zlib.crc32(base.encode()) % 10 == 0
            out.append((clean, clean, "clean", held))
            for tag, noisy in heard.items():
                n = min(len(clean), len(noisy) - skip)
                out.append((noisy[skip:skip + n], clean[:n], tag[-2:], held))
            for _, wav in wavs:
                os.remove(wav)
                os.remove(wav[:-4] + ".mfc")
            if (number + 1) % 25 == 0:
                print(f"{number + 1}/{len(items)} recordings heard", file=sys.stderr)
    return out


def with_deltas(frames):
    padded = np.pad(frames, ((2, 2), (0, 0)), mode="edge")
    return np.hstack([frames, (padded[4:] - padded[:-4]) / 2.0])


def posteriors(x, weights, means, variances):
    scores = (-0.5 * (((x[:, None, :] - means[None]) ** 2) / variances[None]).sum(2)
              - 0.5 * np.log(variances).sum(1)[None] + np.log(weights)[None])
    scores -= scores.max(1, keepdims=True)
    p = np.exp(scores)
    return p / p.sum(1, keepdims=True)


def fit(features, components):
    rng = np.random.default_rng(1)
    sample = features[rng.choice(len(features), min(len(features), EM_FRAMES), replace=False)]
    means = sample[rng.choice(len(sample), components, replace=False)].copy()
    variances = np.tile(sample.var(0), (components, 1))
    weights = np.full(components, 1.0 / components)
    for round_ in range(EM_ROUNDS):
        s0 = np.zeros(components)
        s1 = np.zeros((components, features.shape[1]))
        s2 = np.zeros_like(s1)
        for start in range(0, len(sample), 20000):
            x = sample[start:start + 20000]
            p = posteriors(x, weights, means, variances)
            s0 += p.sum(0)
            s1 += p.T @ x
            s2 += p.T @ (x * x)
        s0 = np.maximum(s0, 1e-6)
        weights = np.maximum(s0 / s0.sum(), 1e-8)
        means = s1 / s0[:, None]
        variances = np.maximum(s2 / s0[:, None] - means ** 2, 1e-3)
        print(f"EM round {round_ + 1}/{EM_ROUNDS}", file=sys.stderr)
    return weights, means, variances


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpora")
    parser.add_argument("out")
    parser.add_argument("--components", type=int, default=128)
    parser.add_argument("--noises", type=int, default=2, help="noises at each SNR, each recording")
    parser.add_argument("--denoise", metavar="TOOL", help="hear each noisy mix through this webrtc-denoise first")
    args = parser.parse_args()
    if args.denoise and not os.access(args.denoise, os.X_OK):
        sys.exit(f"estimate-noise-compensation.py: {args.denoise} is not a program (make it from bench/webrtc-denoise.cc)")
    require(args.corpora, "estimate-noise-compensation.py")
    train, held = [], []
    for noisy, clean, tag, is_held in stereo(args.corpora, args.noises, args.denoise):
        side = held if is_held else train
        side.append((with_deltas(noisy), clean - noisy, tag))
    features = np.vstack([f for f, _, _ in train])
    differences = np.vstack([d for _, d, _ in train])
    print(f"{len(features)} frames to learn from, {len(held)} mixes held out", file=sys.stderr)
    weights, means, variances = fit(features, args.components)
    s0 = np.zeros(args.components)
    s1 = np.zeros((args.components, COEFFICIENTS))
    for start in range(0, len(features), 20000):
        p = posteriors(features[start:start + 20000], weights, means, variances)
        s0 += p.sum(0)
        s1 += p.T @ differences[start:start + 20000]
    corrections = s1 / np.maximum(s0, 1e-6)[:, None]
    errors = {}
    for f, d, tag in held:
        moved = posteriors(f, weights, means, variances) @ corrections
        sums = errors.setdefault(tag, [0.0, 0.0])
        sums[0] += float((d ** 2).sum())
        sums[1] += float(((d - 0.5 * moved) ** 2).sum())
    for tag, (before, after) in sorted(errors.items()):
        if before > 0:
            print(f"held out, {tag} dB: half the correction leaves {after / before:.0%} of the squared distance from clean")
    staged = args.out + ".partial"
    with open(staged, "w", encoding="utf-8") as out:
        out.write(f"{HEADER}\ncomponents {args.components} coefficients {COEFFICIENTS}\n")
        for k in range(args.components):
            row = [weights[k], *means[k], *variances[k], *corrections[k]]
            out.write(" ".join(f"{value:.7g}" for value in row) + "\n")
    os.replace(staged, args.out)
    print(f"{args.out}: {args.components} components from {len(features)} frames", file=sys.stderr)


if __name__ == "__main__":
    main()
