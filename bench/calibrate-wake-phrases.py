#!/usr/bin/env python3
"""Chooses each wake phrase's calibration (models/wake-phrases.tsv) on the tune half of a
`hark bench-wake --json` report made without one (`--calibration none`), and judges it on the
test half of the same report.

    bench/calibrate-wake-phrases.py REPORT.json [--margin 0.5] [--out models/wake-phrases.tsv]

For each phrase, the loosest odds at which none of the tune half's other speech (the phrase's own
recordings left out, as bench-wake counts) would have woken Hark, plus --margin, is where that
phrase should need what the shipped threshold asks of every phrase: its offset is the shipped
threshold less that. Offsets are kept within ±5 (`WakePhraseCalibration.largestOffset`) and
candidates were checked against the other words only from odds -1, so no phrase's threshold is put
below -1 + margin. Prints, per phrase and condition, the test half's misses and false alarms per
10 hours at the shipped threshold with and without the offsets. Every candidate's odds in the
report are the verifier's as the spotter heard them, so the offsets judged here are exactly what
the spotter would decide with them.
"""
import argparse
import collections
import json
import sys

LARGEST_OFFSET = 5.0
CHECKED_FROM = -1.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("--margin", type=float, default=0.5, help="odds kept above the tune half's loudest false alarm")
    parser.add_argument("--out", help="write the table here (models/wake-phrases.tsv)")
    arguments = parser.parse_args()
    report = json.load(open(arguments.report))
    if report.get("calibration"):
        sys.exit("calibrate-wake-phrases: the report was made with a calibration; run hark bench-wake --calibration none")
    shipped = report["threshold"]
    files = {f["file"]: f for f in report["negativeFiles"]}
    offsets = {}
    rows = []
    for phrase in report["phrases"]:
        own = "wake-" + phrase
        hours = {split: sum(f["seconds"] for f in files.values() if f["split"] == split and f["family"] != own) / 3600
                 for split in ("tune", "test")}
        alarms = collections.defaultdict(list)
        for candidate in report["negatives"]:
            info = files.get(candidate["file"])
            if candidate["phrase"] == phrase and info and info["family"] != own:
                alarms[info["split"]].append(candidate["confidence"])
        if hours["tune"] == 0:
            sys.exit(f"calibrate-wake-phrases: no tune speech for {phrase}: run bench-wake on both halves")
        loudest = max(alarms["tune"], default=-1e9)
        chosen = max(loudest + arguments.margin, CHECKED_FROM + arguments.margin)
        offset = max(-LARGEST_OFFSET, min(LARGEST_OFFSET, shipped - chosen))
        offsets[phrase] = offset
        threshold = shipped - offset
        positives = [p for p in report["positives"] if p["phrase"] == phrase and p["split"] == "test"]
        conditions = sorted({p["condition"] for p in positives})
        for label, at in (("shipped", shipped), ("calibrated", threshold)):
            missed = []
            for condition in conditions:
                these = [p for p in positives if p["condition"] == condition]
                lost = sum(1 for p in these if (p.get("best") or {}).get("confidence", -1e9) < at)
                missed.append(f"{condition} {lost}/{len(these)} ({100 * lost / len(these):.1f} %)")
            count = sum(1 for c in alarms["test"] if c >= at)
            rate = 10 * count / hours["test"] if hours["test"] else float("nan")
            rows.append(f"{phrase:15s} {label:10s} odds {at:+6.2f}  missed {', '.join(missed)};"
                        f" false alarms {count} in {hours['test']:.1f} h ({rate:.1f} per 10 h)")
        print(f"{phrase}: tune's loudest false alarm {loudest:+.2f} in {hours['tune']:.1f} h -> offset {offset:+.2f}")
    print()
    print("\n".join(rows))
    if arguments.out:
        with open(arguments.out, "w", encoding="utf-8") as out:
            out.write("# What each wake phrase adds to the verifier's log odds (WakePhraseCalibration), chosen on\n"
                      "# the tune half of make bench-wake by bench/calibrate-wake-phrases.py "
                      f"(margin {arguments.margin:g}); docs/benchmarks.md judges it on the test half.\n")
            for phrase, offset in offsets.items():
                out.write(f"{phrase.replace('-', ' ')}\t{offset:+.2f}\n")
        print(f"\nwritten to {arguments.out}")


if __name__ == "__main__":
    main()
