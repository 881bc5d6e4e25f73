#!/usr/bin/env python3
"""Fits the wake-word verifier on the tune half of the wake corpus and judges it on the test half.

    bench/fit-wake-verifier.py BENCH.json [--out MODEL.json] [--min-score S] [--against MODEL.json]

BENCH.json is what `hark bench-wake --json` wrote (run it with a verifier, any verifier: the
evidence is the same; make bench-wake does). Every phrase's candidates go into one model: a
phrase is a setting, so nothing is learned for one phrase that the others do not share.

Learned from "tune" only: each tune recording of a phrase (clean and in noise) whose phrase was
proposed is a positive, with the evidence of its best candidate; every candidate on the tune
negatives (the phrase's own recordings left out) is a negative. The model is a logistic
regression on the standardised features (WakeWordEvidence.featureNames), fitted by Newton's
method with a small ridge penalty, the classes weighed equally. Candidates whose search score
per frame is below --min-score are not looked at (they are the spotter's proposal threshold).

Prints, on "test" (other speakers: other recordings and other files), for each phrase and
condition, the recordings missed and the false alarms per 10 hours at the log odds with no
false alarm on tune and at the loosest with at most one per 10 hours on test, and writes the
model as JSON for `hark bench-wake --verifier` and as the Swift literal Hark ships.

With --against (a model as --out writes it, e.g. the one shipped now), both models are first
judged on "tune" alone, at the odds with no false alarm on the tune negatives: the choice
between them is then made without looking at "test". A fit weighs every candidate alike, so it
can do worse at that strict end than an older model, even on the recordings it was fitted on.
"""
import argparse
import json
import sys

import numpy as np

FEATURES = ["searchScore", "weakestPhone", "secondWeakestPhone", "shortPhones", "logFramesPerPhone",
            "aligned", "agreement", "leadingSilence"]
# What the spotter gives a candidate the phrase could not be aligned to (WakeWordEvidence.unaligned).
UNALIGNED = {"phraseMargin": -6, "weakestPhone": -25, "secondWeakestPhone": -20, "shortPhones": 1, "framesPerPhone": 3,
             "agreement": 0, "leadingSilence": 0}


def vector(evidence):
    if not evidence["aligned"]:
        evidence = dict(evidence, **UNALIGNED)
    return [evidence["searchScore"], evidence["weakestPhone"],
            evidence["secondWeakestPhone"], evidence["shortPhones"], np.log(max(evidence["framesPerPhone"], 1)),
            1.0 if evidence["aligned"] else 0.0, evidence["agreement"], evidence["leadingSilence"]]


def fit(x, y, ridge=1e-2, iterations=50):
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    weight = np.where(y == 1, 0.5 / max(y.sum(), 1), 0.5 / max((1 - y).sum(), 1))
    w = np.zeros(z.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-z @ w))
        gradient = z.T @ (weight * (p - y)) + ridge * np.r_[w[:-1], 0]
        hessian = (z * (weight * p * (1 - p))[:, None]).T @ z + ridge * np.diag(np.r_[np.ones(len(w) - 1), 0])
        w -= np.linalg.solve(hessian, gradient)
    return mean, scale, w[:-1], w[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bench")
    parser.add_argument("--out")
    parser.add_argument("--min-score", type=float, default=-2.0)
    parser.add_argument("--against", help="a model to compare with the new fit on tune")
    args = parser.parse_args()
    report = json.load(open(args.bench))
    families = {f["file"]: (f["split"], f["family"], f["seconds"]) for f in report["negativeFiles"]}
    phrases = report["phrases"]

    def usable(candidate):
        return candidate and candidate.get("evidence") and candidate["score"] >= args.min_score

    def negatives(phrase, split):
        return [c for c in report["negatives"] if c["phrase"] == phrase and families[c["file"]][0] == split
                and families[c["file"]][1] != "wake-" + phrase and usable(c)]

    def hours(phrase, split):
        return sum(s for f, (sp, fam, s) in families.items() if sp == split and fam != "wake-" + phrase) / 3600

    x, y = [], []
    for phrase in phrases:
        for p in report["positives"]:
            if p["phrase"] == phrase and p["split"] == "tune" and usable(p.get("best")):
                x.append(vector(p["best"]["evidence"]))
                y.append(1)
        for c in negatives(phrase, "tune"):
            x.append(vector(c["evidence"]))
            y.append(0)
    x, y = np.array(x), np.array(y, dtype=float)
    print(f"tune: {int(y.sum())} phrase candidates, {int((1 - y).sum())} false candidates", file=sys.stderr)
    mean, scale, weights, bias = fit(x, y)

    def odds_under(model):
        m_mean, m_scale, m_weights = (np.array(model[k]) for k in ("mean", "scale", "weights"))

        def judged(candidate):
            if not usable(candidate):
                return -1e9
            return float(model["bias"] + ((np.array(vector(candidate["evidence"])) - m_mean) / m_scale) @ m_weights)
        return judged

    odds = odds_under({"mean": mean, "scale": scale, "weights": weights, "bias": bias})

    def missed_on(split, phrase, judged, threshold):
        cells = []
        for condition in sorted({p["condition"] for p in report["positives"]}):
            recordings = [p for p in report["positives"] if p["phrase"] == phrase and p["split"] == split
                          and p["condition"] == condition]
            missed = sum(judged(p.get("best")) < threshold for p in recordings)
            cells.append(f"{condition} {missed}/{len(recordings)} ({100 * missed / max(len(recordings), 1):.1f} %)")
        return ", ".join(cells)

    if args.against:
        with open(args.against, encoding="utf-8") as f:
            other = json.load(f)
        print(f"on tune, with no false alarm on the tune negatives: the new fit against {args.against}")
        for phrase in phrases:
            for name, judged in (("new fit", odds), ("against", odds_under(other))):
                scores = sorted((judged(c) for c in negatives(phrase, "tune")), reverse=True)
                threshold = np.nextafter(scores[0], np.inf) if scores else -1e9
                print(f"  \"{phrase}\" {name:8s} odds {threshold:+7.2f}: missed {missed_on('tune', phrase, judged, threshold)}")

    for phrase in phrases:
        tune = sorted((odds(c) for c in negatives(phrase, "tune")), reverse=True)
        test = sorted((odds(c) for c in negatives(phrase, "test")), reverse=True)
        test_hours = hours(phrase, "test")
        if test_hours == 0:
            print(f"\"{phrase}\": no test negatives in {args.bench}")
            continue
        allowed = int(test_hours / 10)
        on_tune = np.nextafter(tune[0], np.inf) if tune else -1e9
        best = np.nextafter(test[allowed], np.inf) if len(test) > allowed else -1e9
        print(f"\"{phrase}\": test negatives {test_hours:.2f} h")
        for name, threshold in (("no false alarm on tune", on_tune), ("best at <=1/10 h on test", best)):
            alarms = sum(o >= threshold for o in test)
            print(f"  {name:26s} odds {threshold:+7.2f}: missed {missed_on('test', phrase, odds, threshold)}; false alarms {alarms} "
                  f"({10 * alarms / test_hours:.2f} per 10 h)")
    model = {"features": FEATURES, "mean": [round(v, 6) for v in mean], "scale": [round(v, 6) for v in scale],
             "weights": [round(v, 6) for v in weights], "bias": round(float(bias), 6),
             "trainedOn": f"the tune halves of the wake corpus ({', '.join(phrases)}): "
                          f"{int(y.sum())} phrase candidates, {int((1 - y).sum())} false ones"}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(model, f, indent=2)
    print("Swift:\n" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in model.items()))


if __name__ == "__main__":
    main()
