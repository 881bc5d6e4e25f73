#!/usr/bin/env python3
"""Makes a tune corpus of home commands said by synthetic voices in real household noise: what a
setting that decides between "on" and "off", or one colour and another, is chosen on.

    bench/make-voiced-tune-corpus.py HARK CORPORA OUTDIR [--voices-per-sentence N]

home-en's commands are the only real recordings of such requests, and they are all on the test
side: no real tune speaker says "turn off". So the bundled home app's phrases (apps/home, the
grammar home-en was recorded for) are sampled by `hark sentences` (seed 11, 30 a phrase: 79
sentences, most of them also said in home-en's recordings, for the grammar holds few others; every
"turn on" and "turn off" among them is), and each is said by N (default 6) of the synthetic
voices this machine has (flite's and espeak-ng's, taken in turn), then heard as
make-noise-corpus.py hears a request: 5 s of the room before it, 6 s after, the noise over all
of it, clean (60 dB down) and at 20, 10 and 5 dB. The noise is the first stretch of each
household noise (make-real-corpus.py's "learn" part), which the benchmarks never mix in.

Writes OUTDIR/requests/CONDITION/NAME.wav and NAME.json (sidecar with "split": "tune" and
"wakeAt", as `hark bench` reads it) and OUTDIR/apps (the apps make-noise-corpus.py installs).
Synthetic voices are not people: a setting chosen here is judged on make bench-noise and make
bench-real's test speakers. The same files come out on every run. Needs sox, flite, espeak-ng
and python3 with numpy.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zlib
from importlib import import_module

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
real = import_module("make-real-corpus")
noisy = import_module("make-noise-corpus")

CONDITIONS = [("clean", 60.0), ("snr20", 20.0), ("snr10", 10.0), ("snr05", 5.0)]
# (engine, voice, pace): flite's duration stretch (1.15 slower), espeak-ng's words a minute.
VOICES = [("flite", "slt", 1.0), ("espeak-ng", "en-us", 160), ("flite", "rms", 1.0), ("espeak-ng", "en-gb", 175),
          ("flite", "awb", 1.0), ("espeak-ng", "en-gb-scotland", 150), ("flite", "kal16", 1.15),
          ("espeak-ng", "en-gb-x-rp", 190), ("flite", "slt", 1.15), ("espeak-ng", "en-us+f3", 170),
          ("flite", "rms", 0.9), ("espeak-ng", "en-gb-x-gbclan", 165)]


def say(text, engine, voice, pace, path):
    """`text` spoken into `path` (16 kHz mono 16-bit)."""
    with tempfile.NamedTemporaryFile(suffix=".wav") as raw:
        if engine == "flite":
            command = ["flite", "-voice", voice, "--setf", f"duration_stretch={pace}", "-t", text, "-o", raw.name]
        else:
            command = ["espeak-ng", "-v", voice, "-s", str(pace), "-w", raw.name, text]
        subprocess.run(command, check=True, capture_output=True)
        subprocess.run(["sox", raw.name, "-r", str(real.RATE), "-c", "1", "-b", "16", path], check=True, capture_output=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hark")
    parser.add_argument("corpora")
    parser.add_argument("out")
    parser.add_argument("--voices-per-sentence", type=int, default=6)
    args = parser.parse_args()
    for tool in ["sox", "flite", "espeak-ng"]:
        if shutil.which(tool) is None:
            sys.exit(f"make-voiced-tune-corpus.py: {tool} is missing")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sampled = subprocess.run([args.hark, "sentences", "--apps", os.path.join(repo, "apps", "home"),
                              "--per-phrase", "30", "--seed", "11"], check=True, capture_output=True, text=True).stdout
    sentences = [json.loads(line) for line in sampled.splitlines() if line.strip()]
    noises = real.household_noises(args.corpora, "learn")
    stage = args.out.rstrip("/") + ".partial"
    shutil.rmtree(stage, ignore_errors=True)
    spoken = os.path.join(stage, "spoken")
    os.makedirs(spoken)
    takes = []
    for number, sentence in enumerate(sentences):
        for turn in range(args.voices_per_sentence):
            engine, voice, pace = VOICES[(number + turn) % len(VOICES)]
            name = "home-" + sentence["text"].replace(" ", "_") + f"-{engine}_{voice.replace('+', '_')}-{pace}"
            path = os.path.join(spoken, name + ".wav")
            say(sentence["text"], engine, voice, pace, path)
            takes.append((name, path, sentence, f"{engine}:{voice}"))
    for index, (condition, snr) in enumerate(CONDITIONS):
        folder = os.path.join(stage, "requests", condition)
        os.makedirs(folder)
        for number, (name, path, sentence, voice) in enumerate(takes):
            noise_name, noise = noises[(number + index) % len(noises)]
            mixed = noisy.in_room(real.read_audio(path), snr, noise, zlib.crc32(name.encode()), noisy.LEAD, noisy.TAIL)
            real.write_audio(os.path.join(folder, name + ".wav"), mixed)
            sidecar = {"text": sentence["text"], "intent": sentence["intent"], "slots": sentence["slots"], "voice": voice,
                       "split": "tune", "noise": noise_name, "snr": snr, "wakeAt": noisy.LEAD}
            with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(sidecar, f)
    shutil.rmtree(spoken)
    apps = os.path.join(stage, "apps")
    shutil.copytree(os.path.join(repo, "apps"), apps, symlinks=True)
    for app in os.listdir(os.path.join(repo, "bench", "real-apps")):
        shutil.copytree(os.path.join(repo, "bench", "real-apps", app), os.path.join(apps, app))
    shutil.rmtree(args.out, ignore_errors=True)
    os.rename(stage, args.out)
    print(f"{len(sentences)} sentences, {len(takes)} takes, in {len(CONDITIONS)} conditions", file=sys.stderr)


if __name__ == "__main__":
    main()
