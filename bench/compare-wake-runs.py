#!/usr/bin/env python3
"""Compares runs of `hark bench-wake --json` on one split, phrase by phrase, at the strict end.

    bench/compare-wake-runs.py RUN.json [RUN.json ...] [--split tune|test] [--odds X]

Each RUN.json is what `hark bench-wake --json` wrote, typically two builds of Hark (before and
after a change) on the same corpus with the same --split. `hark bench-wake` prints its figures
for the test files only; a change is chosen on the tune files, and this prints those:

  for each phrase, the hours of negatives (the phrase's own recordings left out, as the benchmark
  leaves them out), the false alarms at the odds (the run's own threshold unless --odds), and the
  loudest negative's confidence; for each condition (clean, snr10, ...) the recordings missed at
  the odds and at the strict end: the strictest odds with no false alarm on those negatives,
  which is where a wake word has to work. A recording the search never proposed is missed.

Then the sums over every phrase, so that a change that helps one phrase and costs another shows
as what it is. Figures are counts of recordings, not percentages: the runs are deterministic,
and one recording is one recording.
"""
import argparse
import json
import sys


def load(path):
    try:
        with open(path) as file:
            run = json.load(file)
    except (OSError, ValueError) as error:
        sys.exit(f"{path}: cannot be read as a bench-wake JSON file: {error}")
    for key in ("phrases", "positives", "negatives", "negativeFiles", "threshold"):
        if key not in run:
            sys.exit(f"{path}: no \"{key}\" in it; write it with hark bench-wake --json")
    return run


def confidence(positive):
    """The best candidate's confidence, or minus infinity when the search never proposed one."""
    best = positive.get("best")
    return best["confidence"] if best else float("-inf")


def figures(run, split, odds):
    """Per phrase: (hours, false alarms at odds, loudest negative, {condition: (n, missed, missed strict)})."""
    files = {f["file"]: f for f in run["negativeFiles"] if f["split"] == split}
    result = {}
    for phrase in run["phrases"]:
        own = "wake-" + phrase
        kept = {name for name, f in files.items() if f["family"] != own}
        hours = sum(files[name]["seconds"] for name in kept) / 3600
        negatives = [c["confidence"] for c in run["negatives"] if c["phrase"] == phrase and c["file"] in kept]
        loudest = max(negatives, default=float("-inf"))
        conditions = {}
        for positive in run["positives"]:
            if positive["phrase"] != phrase or positive["split"] != split:
                continue
            n, missed, strict = conditions.get(positive["condition"], (0, 0, 0))
            value = confidence(positive)
            conditions[positive["condition"]] = (n + 1, missed + (value < odds), strict + (value <= loudest))
        result[phrase] = (hours, sum(value >= odds for value in negatives), loudest, conditions)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", help="bench-wake JSON files")
    parser.add_argument("--split", default="tune", choices=["tune", "test"], help="which files to count (default: tune)")
    parser.add_argument("--odds", type=float, help="the odds to count misses and false alarms at (default: each run's threshold)")
    arguments = parser.parse_args()

    runs = [(path, load(path)) for path in arguments.runs]
    phrases = runs[0][1]["phrases"]
    for path, run in runs[1:]:
        if run["phrases"] != phrases:
            print(f"warning: {path} measures {run['phrases']}, {runs[0][0]} {phrases}: the sums do not compare",
                  file=sys.stderr)
    for path, run in runs:
        odds = run["threshold"] if arguments.odds is None else arguments.odds
        table = figures(run, arguments.split, odds)
        if not any(conditions for _, _, _, conditions in table.values()):
            sys.exit(f"{path}: no {arguments.split} recordings in it; was it run with --split {arguments.split}?")
        print(f"{path} ({arguments.split} files, odds {odds:g})")
        total = strict_total = recordings = alarms = 0
        for phrase, (hours, false_alarms, loudest, conditions) in table.items():
            cells = "  ".join(f"{condition}: missed {missed}/{n}, strict {strict}/{n}"
                              for condition, (n, missed, strict) in sorted(conditions.items()))
            print(f"  {phrase:15s} {hours:5.2f} h of negatives, {false_alarms} false alarms, loudest {loudest:6.2f} | {cells}")
            total += sum(missed for _, missed, _ in conditions.values())
            strict_total += sum(strict for _, _, strict in conditions.values())
            recordings += sum(n for n, _, _ in conditions.values())
            alarms += false_alarms
        print(f"  all phrases: missed {total}/{recordings} at the odds with {alarms} false alarms; "
              f"{strict_total}/{recordings} at each phrase's strict end")


if __name__ == "__main__":
    main()
