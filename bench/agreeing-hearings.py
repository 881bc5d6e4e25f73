#!/usr/bin/env python3
"""How far up a noisy request heard the same both ways should be asked about.

    bench/agreeing-hearings.py REPORT.json CORPUS [--reaches 1.0,0.9,0.8,0.7,0.65,0.6,0.5]

REPORT is `hark bench --json` output over bench/make-real-corpus.py's folders in CORPUS
(bench-out/real), from a build that records both hearings of a request heard through the
noise suppression (`ConfidenceFeatures.otherHearing`, `heardMargin`). Each such request is
judged again offline as the recogniser judges it: its margin as heard squeezed into the ask
band from `reach` above the threshold, where `reach` is the one tried for two hearings that
formed the same phrase and the suppressed request's own (1.0) for the others. Prints, per
half of the corpus (the sidecars' "split") and per reach, the requests done right and wrong
added, and the score it was chosen by: done right added less six times the wrong ones.
"""
import argparse
import collections
import json
import pathlib
import re

ASK_BAND_DEFAULT = 0.28
DENOISED_REACH = 1.0
WRONG_WEIGHT = 6


def squeezed(margin, threshold, band, reach):
    """NoisyConfirmation.squeezed: margins from the band's floor to `reach` above the
    threshold moved, in proportion, into the band."""
    floor, top = threshold - band, threshold + reach
    if reach <= 0 or not floor <= margin < top:
        return margin
    return floor + (margin - floor) * band / (top - floor)


def heard_words(outcome):
    found = re.search(r'heard "(.*?)"', outcome["account"])
    return found.group(1).split() if found else None


def judged(outcome, reach, threshold, band):
    """The margin `outcome` would be judged at with `reach` for agreeing hearings."""
    features = outcome.get("features") or {}
    other = features.get("otherHearing")
    if other is None or features.get("heardMargin") is None:
        return outcome["margin"]
    agree = outcome["understood"] and other["formsPhrase"] and other["words"] == heard_words(outcome)
    return squeezed(features["heardMargin"], threshold, band, reach if agree else DENOISED_REACH)


def verdict(outcome, margin, threshold):
    """'right' or 'wrong' for a command acted on, None otherwise."""
    if not outcome["understood"] or outcome["mustReject"] or margin < threshold:
        return None
    return "right" if outcome["commandRight"] else "wrong"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=pathlib.Path)
    parser.add_argument("corpus", type=pathlib.Path)
    parser.add_argument("--reaches", default="1.0,0.9,0.8,0.7,0.65,0.6,0.5")
    arguments = parser.parse_args()
    report = json.loads(arguments.report.read_text())
    threshold = report["threshold"]
    band = (report.get("asking") or {}).get("band", ASK_BAND_DEFAULT)
    outcomes = report["outcomes"]
    halves = {}
    for outcome in outcomes:
        sidecar = arguments.corpus / outcome["folder"] / (outcome["recording"].rsplit(".", 1)[0] + ".json")
        halves[id(outcome)] = json.loads(sidecar.read_text()).get("split", "test")
    if not any((o.get("features") or {}).get("otherHearing") for o in outcomes):
        raise SystemExit(f"{arguments.report}: no request heard twice is recorded with both hearings")

    reaches = [float(r) for r in arguments.reaches.split(",")]
    for half in ("tune", "test"):
        counts = {}
        for reach in [DENOISED_REACH] + reaches:
            tally = collections.Counter()
            for outcome in outcomes:
                if halves[id(outcome)] == half:
                    tally[verdict(outcome, judged(outcome, reach, threshold, band), threshold)] += 1
            counts[reach] = tally
        base = counts[DENOISED_REACH]
        print(f"{half} half (reach for agreeing hearings: done right added / wrong added / score)")
        for reach in reaches:
            right = counts[reach]["right"] - base["right"]
            wrong = counts[reach]["wrong"] - base["wrong"]
            print(f"  {reach:4.2f}: {right:+d} / {wrong:+d} / {right - WRONG_WEIGHT * wrong:+d}")


if __name__ == "__main__":
    main()
