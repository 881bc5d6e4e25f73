#!/usr/bin/env python3
"""Writes the stretch of each household noise that the benchmarks mix in (make bench-echo).

    bench/noise-stretches.py CORPORA OUTDIR

For a benchmark that takes noise as WAV files rather than mixing it itself: OUTDIR/FILE.wav
(16 kHz mono 16-bit) for each of make-real-corpus.py's four household noises, under the
recording's own file name, holding only the last 40 % of it, the part `make adapt` never
learns from (`household_noises`), and OUTDIR/noises.txt, their paths one a line in
make-real-corpus.py's order of the noises. Files already there are written again. Needs numpy
and sox.
"""
import os
import sys
from importlib import import_module

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
real = import_module("make-real-corpus")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: noise-stretches.py CORPORA OUTDIR")
    corpora, out = sys.argv[1:3]
    if not os.path.isdir(os.path.join(corpora, "noise-household")):
        sys.exit(f"noise-stretches.py: {os.path.join(corpora, 'noise-household')} is missing")
    os.makedirs(out, exist_ok=True)
    files = dict(real.NOISES)
    written = []
    for name, samples in real.household_noises(corpora, "measure"):
        staged = os.path.join(out, files[name] + ".partial")
        real.write_audio(staged, samples)
        os.replace(staged, os.path.join(out, files[name]))
        written.append(os.path.join(out, files[name]))
    with open(os.path.join(out, "noises.txt.partial"), "w", encoding="utf-8") as f:
        f.write("".join(path + "\n" for path in written))
    os.replace(os.path.join(out, "noises.txt.partial"), os.path.join(out, "noises.txt"))


if __name__ == "__main__":
    main()
