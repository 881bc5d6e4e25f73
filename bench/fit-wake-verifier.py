#!/usr/bin/env python3
"""Fits the wake-word verifier on the tune half of the wake corpus and judges it on the test half.

    bench/fit-wake-verifier.py BENCH.json... [--out MODEL.json] [--min-score S] [--against MODEL.json]
                               [--with-other-words] [--hold-out]

BENCH.json is what `hark bench-wake --json` wrote (run it with a verifier, any verifier: the
evidence is the same; make bench-wake does). Several may be given, e.g. a `--split tune` run and
the `--split test` runs of some phrases: their recordings and candidates are read as one
report, each phrase's files of one split from one of them. Every phrase's candidates go into one
model: a phrase is a setting, so nothing is learned for one phrase that the others do not share.

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

With --hold-out, each phrase's test figures are also given for a fit on the other phrases' tune
files alone: what a phrase nobody fitted the verifier on gets, as a user's own phrase does.

With --with-other-words, a candidate checked against common words in the run is judged as the
spotter judges it (`WakeWordSpotter.confidence(odds:otherWordsGap:)`): its odds less the check's
penalty, so the figures compare with hark bench-wake's. The run checks only candidates the
verifier it ran with gave odds of -1 or more; others are judged on their odds alone.

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


# WakeWordSpotter.otherWordsFullGap and .otherWordsPenalty: each unit the phrase explains its audio
# less than 1 better than common words do costs 2 log odds.
OTHER_WORDS_FULL_GAP = 1.0
OTHER_WORDS_PENALTY = 2.0


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


def merged(reports, paths):
    """One report of several runs' recordings, candidates and negative files."""
    if len(reports) == 1:
        return reports[0]
    whole = {"phrases": [], "positives": [], "negatives": [], "negativeFiles": []}
    held, files = {}, set()
    for number, (report, path) in enumerate(zip(reports, paths)):
        for phrase in report["phrases"]:
            if phrase not in whole["phrases"]:
                whole["phrases"].append(phrase)
        # A phrase's files of one split heard twice would count its recordings twice.
        for kind in ("positives", "negatives"):
            for entry in report[kind]:
                key = (entry["phrase"], entry["split"])
                if held.setdefault(key, number) != number:
                    sys.exit(f"\"{key[0]}\" has {key[1]} files in both {paths[held[key]]} and {path}")
                whole[kind].append(entry)
        for negative in report["negativeFiles"]:
            if negative["file"] not in files:
                files.add(negative["file"])
                whole["negativeFiles"].append(negative)
    return whole


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bench", nargs="+")
    parser.add_argument("--out")
    parser.add_argument("--min-score", type=float, default=-2.0)
    parser.add_argument("--against", help="a model to compare with the new fit on tune")
    parser.add_argument("--with-other-words", action="store_true",
                        help="judge a candidate checked against common words with the spotter's penalty")
    parser.add_argument("--hold-out", action="store_true",
                        help="also judge each phrase with a fit on the other phrases alone")
    args = parser.parse_args()
    report = merged([json.load(open(path)) for path in args.bench], args.bench)
    families = {f["file"]: (f["split"], f["family"], f["seconds"]) for f in report["negativeFiles"]}
    phrases = report["phrases"]
    if args.hold_out and len(phrases) < 2:
        sys.exit(f"--hold-out needs at least two phrases; {', '.join(args.bench)} measure {', '.join(phrases)}")

    def usable(candidate):
        return candidate and candidate.get("evidence") and candidate["score"] >= args.min_score

    def negatives(phrase, split):
        return [c for c in report["negatives"] if c["phrase"] == phrase and families[c["file"]][0] == split
                and families[c["file"]][1] != "wake-" + phrase and usable(c)]

    def hours(phrase, split):
        return sum(s for f, (sp, fam, s) in families.items() if sp == split and fam != "wake-" + phrase) / 3600

    def fitted(on_phrases):
        """The verifier fitted on these phrases' tune files, with how many candidates of each kind."""
        x, y = [], []
        for phrase in on_phrases:
            for p in report["positives"]:
                if p["phrase"] == phrase and p["split"] == "tune" and usable(p.get("best")):
                    x.append(vector(p["best"]["evidence"]))
                    y.append(1)
            for c in negatives(phrase, "tune"):
                x.append(vector(c["evidence"]))
                y.append(0)
        if not x:
            sys.exit(f"no tune candidates of {', '.join(on_phrases)} in {', '.join(args.bench)}")
        x, y = np.array(x), np.array(y, dtype=float)
        mean, scale, weights, bias = fit(x, y)
        return {"mean": mean, "scale": scale, "weights": weights, "bias": bias}, int(y.sum()), int((1 - y).sum())

    fitted_all, positives_fitted, negatives_fitted = fitted(phrases)
    print(f"tune: {positives_fitted} phrase candidates, {negatives_fitted} false candidates", file=sys.stderr)
    mean, scale, weights, bias = (fitted_all[k] for k in ("mean", "scale", "weights", "bias"))

    def odds_under(model):
        m_mean, m_scale, m_weights = (np.array(model[k]) for k in ("mean", "scale", "weights"))

        def judged(candidate):
            if not usable(candidate):
                return -1e9
            evidence = candidate["evidence"]
            odds = float(model["bias"] + ((np.array(vector(evidence)) - m_mean) / m_scale) @ m_weights)
            gap = evidence.get("otherWordsGap")
            if args.with_other_words and gap is not None:
                odds -= OTHER_WORDS_PENALTY * max(0.0, OTHER_WORDS_FULL_GAP - gap)
            return odds
        return judged

    odds = odds_under(fitted_all)

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

    def judge_on_test(phrase, judged, label):
        tune = sorted((judged(c) for c in negatives(phrase, "tune")), reverse=True)
        test = sorted((judged(c) for c in negatives(phrase, "test")), reverse=True)
        test_hours = hours(phrase, "test")
        if test_hours == 0:
            print(f"\"{phrase}\"{label}: no test negatives in {', '.join(args.bench)}")
            return
        allowed = int(test_hours / 10)
        on_tune = np.nextafter(tune[0], np.inf) if tune else -1e9
        best = np.nextafter(test[allowed], np.inf) if len(test) > allowed else -1e9
        print(f"\"{phrase}\"{label}: test negatives {test_hours:.2f} h")
        for name, threshold in (("no false alarm on tune", on_tune), ("best at <=1/10 h on test", best)):
            alarms = sum(o >= threshold for o in test)
            print(f"  {name:26s} odds {threshold:+7.2f}: missed {missed_on('test', phrase, judged, threshold)}; false alarms {alarms} "
                  f"({10 * alarms / test_hours:.2f} per 10 h)")

    for phrase in phrases:
        judge_on_test(phrase, odds, "")
    if args.hold_out:
        for phrase in phrases:
            others = [other for other in phrases if other != phrase]
            held_out = odds_under(fitted(others)[0])
            judge_on_test(phrase, held_out, f", fitted on {', '.join(others)} alone")
    model = {"features": FEATURES, "mean": [round(v, 6) for v in mean], "scale": [round(v, 6) for v in scale],
             "weights": [round(v, 6) for v in weights], "bias": round(float(bias), 6),
             "trainedOn": f"the tune halves of the wake corpus ({', '.join(phrases)}): "
                          f"{positives_fitted} phrase candidates, {negatives_fitted} false ones"}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(model, f, indent=2)
    print("Swift:\n" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in model.items()))


if __name__ == "__main__":
    main()
