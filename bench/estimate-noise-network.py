#!/usr/bin/env python3
"""Learns the noise compensation network Hark ships (models/en-us.noise-network; make adapt).

    bench/estimate-noise-network.py CORPORA OUT [--noises N] [--context C] [--hidden H] [--epochs E] [--skip F]
                                    [--speeds S ...] [--leave-out NOISE ...]

The same stereo speech as bench/estimate-noise-compensation.py (SPLICE), from make adapt's
wideband recordings and, for more voices, the tune side's recordings of the wake phrases
"amelia", "athena" and "hey chatterbox" (202 recordings of about a second, nearly every one
by another person): each clean and in N of the four household noises at 20, 10, 5 and 0 dB SNR
(the first 60 % of each noise; the benchmarks mix in the rest), with 3 s of the room first,
through sphinx_fe with Hark's front-end settings. Here a small network learns
each noisy frame's correction (its clean twin's cepstra less its own) from the noisy frames
around it, C on each side: two layers of H rectified units and a linear layer of 13, trained on
the squared error of the standardised corrections by Adam (a fixed seed, minibatches of 512, the
last round at a third of the rate). The clean mixes are learnt too, with no correction.

One recording in ten (by a hash of its name, as for SPLICE) is held out; after each round it
prints how much of the held-out noisy frames' squared distance from clean half and all of the
predicted correction leave, per SNR. Hark uses half (`RecognizerConfiguration.compensationStrength`).
The file's format is documented in Sources/HarkSpeech/NoiseCompensationNetwork.swift. The same file
comes out on every run on the same machine. Needs numpy, sox and sphinx_fe (sphinxbase-utils).

--leave-out learns without the mixes in some of the household noises (the others are the same
mixes), to measure how the network hears a noise it never learnt: make bench-real's report gives
each noise's figures (byNoise).
"""
import argparse
import importlib.util
import os
import sys
import time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("splice", os.path.join(here, "estimate-noise-compensation.py"))
splice = importlib.util.module_from_spec(spec)
spec.loader.exec_module(splice)

HEADER = "hark-noise-compensation-network 1"
BATCH = 512
RATE = 1e-3
TAGS = ["20", "10", "05", "00"]


def wake_phrases(corpora):
    """(name, path) of the wake phrases' recordings on the side both benchmarks tune on (a UUID
    starting 0-3, as make-adapt-corpus.py takes): more voices to learn from, no transcript needed."""
    for phrase, prefix in [("amelia", "amelia-"), ("athena", "athena-en-"), ("heychatterbox", "heychatterbox-en-us-")]:
        folder = os.path.join(corpora, "wake-mycroft", phrase)
        for wav in sorted(f for f in os.listdir(folder) if f.endswith(".wav") and f.startswith(prefix)):
            if splice.adapt.tune_uuid(wav, prefix):
                yield f"{phrase}-{wav[len(prefix):len(prefix) + 13]}", os.path.join(folder, wav)


def windows(frames, context):
    """Each frame with the `context` frames on each side (the edges held), one row each."""
    padded = np.pad(frames, ((context, context), (0, 0)), mode="edge")
    return np.hstack([padded[k:k + len(frames)] for k in range(2 * context + 1)])


def examples(mixes, context, held):
    """(inputs, corrections, tags) of the held-out mixes or the others, one row a frame, in
    arrays made once (the inputs of three speeds run to gigabytes)."""
    chosen = [(noisy, clean, tag) for noisy, clean, tag, h in mixes if h == held]
    frames = sum(len(noisy) for noisy, _, _ in chosen)
    width = chosen[0][0].shape[1]
    x = np.empty((frames, (2 * context + 1) * width), np.float32)
    y = np.empty((frames, width), np.float32)
    tags = np.empty(frames, dtype=object)
    row = 0
    for noisy, clean, tag in chosen:
        x[row:row + len(noisy)] = windows(noisy, context)
        y[row:row + len(noisy)] = clean - noisy
        tags[row:row + len(noisy)] = tag
        row += len(noisy)
    return x, y, tags


class Network:
    def __init__(self, inputs, hidden, outputs, rng):
        sizes = [inputs, hidden, hidden, outputs]
        self.weights = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
        self.biases = [np.zeros(b, np.float32) for b in sizes[1:]]
        self.moments = [[np.zeros_like(p) for p in self.weights + self.biases] for _ in range(2)]
        self.steps = 0

    def forward(self, x):
        layers = [x]
        for k, (w, b) in enumerate(zip(self.weights, self.biases)):
            z = layers[-1] @ w + b
            layers.append(np.maximum(z, 0) if k < len(self.weights) - 1 else z)
        return layers

    def predict(self, x):
        return np.vstack([self.forward(x[s:s + 65536])[-1] for s in range(0, len(x), 65536)])

    def learn(self, x, y, rate):
        layers = self.forward(x)
        error = (layers[-1] - y) * (2.0 / y.size)
        grads_w, grads_b = [], []
        for k in reversed(range(len(self.weights))):
            grads_w.insert(0, layers[k].T @ error)
            grads_b.insert(0, error.sum(0))
            if k:
                error = (error @ self.weights[k].T) * (layers[k] > 0)
        self.steps += 1
        params = self.weights + self.biases
        for i, grad in enumerate(grads_w + grads_b):
            m, v = self.moments[0][i], self.moments[1][i]
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            params[i] -= rate * (m / (1 - 0.9 ** self.steps)) / (np.sqrt(v / (1 - 0.999 ** self.steps)) + 1e-8)
        return float(((layers[-1] - y) ** 2).mean())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpora")
    parser.add_argument("out")
    parser.add_argument("--noises", type=int, default=4, help="noises at each SNR, each recording")
    parser.add_argument("--context", type=int, default=5, help="frames on each side a correction is learnt from")
    parser.add_argument("--hidden", type=int, default=256, help="units in each of the two hidden layers")
    parser.add_argument("--epochs", type=int, default=8, help="rounds over the training frames")
    parser.add_argument("--speeds", type=float, nargs="+", default=[1.0],
                        help="each recording at these speeds too (sox's speed: 0.9 is slower and lower)")
    parser.add_argument("--skip", type=int, default=splice.SKIP_FRAMES,
                        help="frames of each mix's room left out before learning (100 a second)")
    parser.add_argument("--leave-out", nargs="+", default=[], choices=[name for name, _ in splice.real.NOISES],
                        help="learn without these noises, to hear how the network does in a noise it never heard")
    args = parser.parse_args()
    splice.require(args.corpora, "estimate-noise-network.py")
    mixes = splice.stereo(args.corpora, args.noises, skip=args.skip, extra=list(wake_phrases(args.corpora)),
                           speeds=args.speeds, leave_out=set(args.leave_out))
    x, y, _ = examples(mixes, args.context, held=False)
    held_x, held_y, held_tags = examples(mixes, args.context, held=True)
    print(f"{len(x)} frames to learn from, {len(held_x)} held out", file=sys.stderr)
    means, scales = x.mean(0), x.std(0) + 1e-6
    out_scales = y.std(0) + 1e-6
    x -= means
    x /= scales
    y /= out_scales
    held_x -= means
    held_x /= scales
    rng = np.random.default_rng(1)
    network = Network(x.shape[1], args.hidden, y.shape[1], rng)
    for epoch in range(args.epochs):
        started = time.time()
        rate = RATE / 3 if epoch == args.epochs - 1 else RATE
        order = rng.permutation(len(x))
        losses = [network.learn(x[order[s:s + BATCH]], y[order[s:s + BATCH]], rate)
                  for s in range(0, len(order) - BATCH + 1, BATCH)]
        predicted = network.predict(held_x) * out_scales
        left = []
        for tag in TAGS:
            target, moved = held_y[held_tags == tag], predicted[held_tags == tag]
            before = float((target ** 2).sum())
            left.append(f"{tag} dB {((target - 0.5 * moved) ** 2).sum() / before:.0%} / {((target - moved) ** 2).sum() / before:.0%}")
        print(f"round {epoch + 1}/{args.epochs}: loss {np.mean(losses):.3f}, held out, half / all the correction leaves "
              + ", ".join(left) + f" ({time.time() - started:.0f} s)", file=sys.stderr)

    def numbers(values):
        return " ".join(f"{float(v):.6g}" for v in np.ravel(values))
    staged = args.out + ".partial"
    with open(staged, "w", encoding="utf-8") as out:
        out.write(f"{HEADER}\ncontext {args.context} coefficients {y.shape[1]} layers {len(network.weights)}\n")
        out.write(f"{numbers(means)}\n{numbers(scales)}\n{numbers(out_scales)}\n")
        for k, (w, b) in enumerate(zip(network.weights, network.biases)):
            out.write(f"layer {w.shape[0]} {w.shape[1]} {'relu' if k < len(network.weights) - 1 else 'linear'}\n{numbers(b)}\n")
            for row in w:
                out.write(numbers(row) + "\n")
    os.replace(staged, args.out)
    print(f"{args.out}: {args.hidden} units a layer, {args.context} frames each side, from {len(x)} frames", file=sys.stderr)


if __name__ == "__main__":
    main()
