#!/usr/bin/env python3
"""What was being said when a wake phrase woke Hark by mistake.

    bench/wake-false-alarms.py REPORT.json CORPUS CORPORA [--odds 3.5] [--allowance 1.0]

REPORT is `hark bench-wake --json` output; CORPUS the folder bench/make-wake-corpus.py made
(bench-out/wake), whose negative streams each have a list of their utterances (NAME.tsv);
CORPORA the real recordings they came from (../shared/corpora), for the words said. For
each phrase, every candidate from another phrase's family or from running speech that
reached the odds (lowered by `--allowance` for a room 10 to 15 dB below the phrase, as the
spotter lowers it) is printed with the room, its odds and the utterance it ended in.
"""
import argparse
import csv
import json
import os
import pathlib

NOISY_ROOM = (10.0, 15.0)


def transcripts(corpora):
    """Words said in each recording the streams draw on, by its path under CORPORA."""
    said = {}
    lj = corpora / "read-ljspeech" / "transcripts.txt"
    if lj.exists():
        for line in lj.read_text().splitlines():
            name, _, text = line.partition("|")
            said[f"read-ljspeech/{name}.wav"] = text
    others = corpora / "wake-mycroft" / "not-wake-words" / "metadata.csv"
    if others.exists():
        with others.open(newline="") as listing:
            for row in csv.reader(listing):
                if len(row) >= 2:
                    said[f"wake-mycroft/not-wake-words/{row[0]}"] = row[1]
    for sidecar in (corpora / "home-en").glob("*.json"):
        said[f"home-en/{sidecar.stem}.wav"] = json.loads(sidecar.read_text()).get("text", "")
    return said


def spoken(recording, said):
    if recording in said:
        return said[recording]
    name = os.path.basename(recording)
    if recording.startswith("digits-fsdd/"):
        return "digit " + name.split("_")[0]
    return ""


def utterance_at(listing, seconds):
    """The utterance whose span holds `seconds` (a candidate's end), else the last before it."""
    before = None
    for start, end, recording in listing:
        if start <= seconds <= end + 0.3:
            return recording
        if end < seconds:
            before = recording
    return before


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=pathlib.Path)
    parser.add_argument("corpus", type=pathlib.Path)
    parser.add_argument("corpora", type=pathlib.Path)
    parser.add_argument("--odds", type=float, default=3.5)
    parser.add_argument("--allowance", type=float, default=1.0)
    arguments = parser.parse_args()
    report = json.loads(arguments.report.read_text())
    said = transcripts(arguments.corpora)
    listings = {}

    def listing(stream):
        if stream not in listings:
            path = arguments.corpus / "negatives" / (stream.rsplit(".", 1)[0] + ".tsv")
            if not path.exists():
                raise SystemExit(f"{path} is missing: make the corpus again with bench/make-wake-corpus.py")
            with path.open(newline="") as rows:
                listings[stream] = [(float(r["start"]), float(r["end"]), r["recording"])
                                    for r in csv.DictReader(rows, delimiter="\t")]
        return listings[stream]

    for candidate in sorted(report["negatives"], key=lambda c: (c["phrase"], -c["confidence"])):
        family = "-".join(candidate["file"].split("-")[1:-1])
        if family == "wake-" + candidate["phrase"].replace(" ", "-"):
            continue
        room = candidate.get("signalToNoise")
        lowered = arguments.allowance if room is not None and NOISY_ROOM[0] <= room < NOISY_ROOM[1] else 0
        if candidate["confidence"] < arguments.odds - lowered:
            continue
        recording = utterance_at(listing(candidate["file"]), candidate["end"])
        room_text = f"{room:5.1f} dB" if room is not None else "    ? dB"
        print(f"{candidate['phrase']}\t{candidate['confidence']:5.2f}\t{room_text}\t{candidate['file']} "
              f"{candidate['end']:.1f} s\t{recording}\t{spoken(recording, said) if recording else ''}")


if __name__ == "__main__":
    main()
