#!/usr/bin/env python3
"""Makes the real-voice wake-word fixtures from the development corpora.

    audio-fixtures/wake/make-real.py CORPORA

CORPORA is ../shared/corpora, given as make bench-wake gives it (run from the repository's
top): the wake corpus places each recording's room by its path as given, and real_pruned must
match that corpus. Writes, beside this script, 16 kHz mono 16-bit WAVs and a NAME.txt sidecar
each (start, end, kind, voice, text; tab-separated, seconds), in the format of the other
wake fixtures:

  real_wakes.wav        the first three test-split recordings (by file name) of each of "jarvis",
                        "athena" and "amelia", one after another with 1.5 s pauses, the room
                        (running tap) 50 dB below the speech;
  real_wakes_noisy.wav  the same, with a kitchen (doing the dishes) at 10 dB SNR;
  real_speech.wav       speech that must not wake Hark: LJ Speech sentences LJ001-0002..0006
                        and the first three test-split not-wake-word phrases, with the cat's room
                        at 10 dB SNR;
  real_pruned.wav       the first three test-split "jarvis" recordings (by name) that the search
                        never proposed at pocketsphinx's default beam (1e-48) in make bench-wake
                        (PRUNED below), one after another, each exactly as make bench-wake's
                        corpus has it "clean": 1 s of a quiet room (60 dB down) either side.

The recordings are chosen by rule, not by how the spotter scores them (real_pruned's rule is
about the search at another beam, and names a measurement made once). SNR as in
bench/make-real-corpus.py. Needs python3 with numpy, and sox.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from importlib import import_module

real = import_module("make-real-corpus")
wake_corpus = import_module("make-wake-corpus")
RATE = real.RATE
HERE = os.path.dirname(os.path.abspath(__file__))


# Test-split "jarvis" recordings that `hark bench-wake --search-beam 1e-48` never proposed (no
# candidate with a search score of -2 or more), the first three by name.
PRUNED = ["40f2e596", "54c68cc7", "54d20a90"]


def test_split(folder, prefix, count):
    names = sorted(f for f in os.listdir(folder) if f.endswith(".wav") and f[len(prefix)] in "456789abcdef")
    return [os.path.join(folder, name) for name in names[:count]]


def stream(name, pieces, noise, snr):
    """pieces: (path, kind, voice, text). Writes NAME.wav and NAME.txt."""
    import numpy as np
    parts, lines, at = [np.zeros(RATE)], [], 1.0
    levels = []
    for path, kind, voice, text in pieces:
        speech = real.read_audio(path)
        levels.append(real.speech_power(speech))
        parts += [speech, np.zeros(int(1.5 * RATE))]
        lines.append(f"{at:.3f}\t{at + len(speech) / RATE:.3f}\t{kind}\t{voice}\t{text}")
        at += len(speech) / RATE + 1.5
    audio = np.concatenate(parts)
    bed = noise[np.arange(len(audio)) % len(noise)]
    gain = np.sqrt(np.mean(levels) / np.mean(bed ** 2) / 10 ** (snr / 10))
    mixed = audio + gain * bed
    mixed *= min(1.0, 0.7 / np.abs(mixed).max())
    real.write_audio(os.path.join(HERE, name + ".wav"), mixed)
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make-real.py CORPORA")
    corpora = sys.argv[1]
    noise = lambda file: real.read_audio(os.path.join(corpora, "noise-household", file))
    wakes = []
    for phrase, folder, prefix in (("jarvis", "wake-jarvis", ""), ("athena", "wake-mycroft/athena", "athena-en-"),
                                   ("amelia", "wake-mycroft/amelia", "amelia-")):
        for path in test_split(os.path.join(corpora, folder), prefix, 3):
            wakes.append((path, "wake", os.path.basename(path)[:len(prefix) + 8], phrase))
    stream("real_wakes", wakes, noise("running_tap.wav"), 50)
    stream("real_wakes_noisy", wakes, noise("doing_the_dishes.wav"), 10)
    transcripts = dict(line.strip().split("|", 1) for line in open(os.path.join(corpora, "read-ljspeech", "transcripts.txt")))
    speech = [(os.path.join(corpora, "read-ljspeech", f"LJ001-000{i}.wav"), "speech", "ljspeech", transcripts[f"LJ001-000{i}"])
              for i in range(2, 7)]
    other = os.path.join(corpora, "wake-mycroft", "not-wake-words")
    said = {row.split(",")[0]: row.split(",")[1] for row in open(os.path.join(other, "metadata.csv")) if "," in row}
    speech += [(path, "speech", os.path.basename(path)[:23], said.get(os.path.basename(path), ""))
               for path in test_split(other, "notwakeword-en-", 3)]
    stream("real_speech", speech, noise("dude_miaowing.wav"), 10)
    pruned(corpora)


def pruned(corpora):
    """real_pruned: the PRUNED recordings as the wake corpus's clean positives, end to end."""
    import numpy as np
    noises = [real.read_audio(os.path.join(corpora, "noise-household", name)) for name in wake_corpus.NOISES]
    parts, lines, at = [], [], 0.0
    for number, (path, _, ident) in enumerate(wake_corpus.wake_recordings(corpora, "wake-jarvis", "")):
        if ident in PRUNED:
            piece = wake_corpus.positive(path, number, "clean", noises)
            parts.append(piece)
            lines.append(f"{at + 1:.3f}\t{at + len(piece) / RATE - 1:.3f}\twake\t{ident}\tjarvis")
            at += len(piece) / RATE
    real.write_audio(os.path.join(HERE, "real_pruned.wav"), np.concatenate(parts))
    with open(os.path.join(HERE, "real_pruned.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
