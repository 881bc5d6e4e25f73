#!/usr/bin/env python3
"""Fits the recogniser's confidence on the real-voice corpus and judges it on other speakers.

    bench/fit-confidence.py REPORT.json [REPORT.json …]

Each REPORT is `hark bench --json` output over bench/make-real-corpus.py's folders. A
recording is "tune" or "test" as the corpus script splits them (by speaker; by the first hex
digit of a UUID name where no speaker is named). A logistic model over the passes'
measurements (`ConfidenceFeatures`) is fitted on "tune" — positives: commands heard right;
negatives: speech that must be rejected and commands heard wrong — and its threshold set
where at most 1 % of "tune"'s must-reject recordings pass. The same is done for the margin
alone. Both are then judged on "test": commands accepted right, false acceptances, and
commands thrown away (heard right, rejected). Prints the weights to put in
`Confidence.Model`.
"""
import json
import math
import sys

import numpy as np

TUNE_SPEAKERS = {"jackson", "nicolas", "theo"}


def split_of(recording, voice):
    name = recording.rsplit(".", 1)[0]
    if voice and voice.startswith("fsdd:"):
        return "tune" if voice[5:] in TUNE_SPEAKERS else "test"
    if voice == "ljspeech":
        return "tune"
    if voice == "home-en":
        return "test"
    uuid = name.split("-", 1)[1]
    return "tune" if uuid[0] in "01234567" else "test"


FEATURES = ["utterance", "weakest", "word", "silence", "wordShare", "loopSpeechShare", "logWordFrames", "words"]


def features(outcome):
    f = outcome.get("features")
    if not f or not outcome["understood"]:
        return None
    weakest = outcome.get("weakestWord")
    evidence = weakest["margin"] * math.sqrt(weakest["frames"] / 144.0) if weakest else outcome["utteranceMargin"]
    frames = max(f["frames"], 1)
    return [outcome["utteranceMargin"], evidence, f["wordMargin"], f["silenceMargin"], f["wordFrames"] / frames,
            f["loopSpeechFrames"] / frames, math.log(max(f["wordFrames"], 1)), f["words"]]


def load(paths):
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
        for outcome in report["outcomes"]:
            rows.append(dict(outcome, split=split_of(outcome["recording"], outcome.get("voice")),
                             x=features(outcome)))
    return rows


def fit(x, y, l2=1e-2, steps=3000):
    mean, std = x.mean(0), x.std(0) + 1e-9
    z = (x - mean) / std
    w = np.zeros(z.shape[1])
    b = 0.0
    # Balanced classes: each weighs half.
    weights = np.where(y == 1, 0.5 / max(y.sum(), 1), 0.5 / max((1 - y).sum(), 1))
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        g = p - y
        w -= 0.5 * ((z.T @ (g * weights)) + l2 * w)
        b -= 0.5 * (g * weights).sum()
    # Back to raw features: score = b' + w'·x.
    raw_w = w / std
    raw_b = b - (raw_w * mean).sum()
    return raw_b, raw_w


def judge(rows, score, threshold):
    accepted_right = thrown = false_acceptances = must_reject = must_accept = wrong = 0
    for row in rows:
        s = score(row)
        accepted = s is not None and s >= threshold
        if row["mustReject"]:
            must_reject += 1
            false_acceptances += accepted
        else:
            must_accept += 1
            right = row["understood"] and row["commandRight"]
            accepted_right += accepted and right
            wrong += accepted and not right
            thrown += right and not accepted
    return dict(right=accepted_right, of=must_accept, thrown=thrown, wrong=wrong, fa=false_acceptances, rejects=must_reject)


def threshold_for(rows, score, fraction=0.01):
    rejects = sorted((score(r) for r in rows if r["mustReject"] and score(r) is not None), reverse=True)
    allowed = int(fraction * sum(1 for r in rows if r["mustReject"]))
    return rejects[allowed] + 1e-9 if len(rejects) > allowed else -math.inf


def main():
    rows = load(sys.argv[1:])
    tune = [r for r in rows if r["split"] == "tune"]
    test = [r for r in rows if r["split"] == "test"]
    usable = [r for r in tune if r["x"] is not None]
    x = np.array([r["x"] for r in usable])
    y = np.array([0 if r["mustReject"] else int(r["commandRight"]) for r in usable])
    b, w = fit(x, y)
    print("weights (raw features):", f"bias {b:.4f}", ", ".join(f"{n} {v:.4f}" for n, v in zip(FEATURES, w)))

    def model(row):
        return None if row["x"] is None else b + float(np.dot(w, row["x"]))

    def margin(row):
        return row["margin"] if row["understood"] else None

    def everything(row):
        return 0.0 if row["understood"] else None

    for name, score, fixed in [("margin", margin, -1.6), ("model", model, None), ("no rejection", everything, 0.0)]:
        chosen = threshold_for(tune, score) if name != "no rejection" else 0.0
        for label, t in [("at its ≤1% FA threshold on tune", chosen)] + ([("at the setting", fixed)] if fixed is not None and name == "margin" else []):
            print(f"{name} {label} ({t:.3f}):")
            for part, subset in [("tune", tune), ("test", test)]:
                j = judge(subset, score, t)
                print(f"  {part}: right {j['right']}/{j['of']}, thrown away {j['thrown']}, wrong {j['wrong']}, "
                      f"false acceptances {j['fa']}/{j['rejects']}")
            folders = sorted({r["folder"] for r in test})
            for folder in folders:
                j = judge([r for r in test if r["folder"] == folder], score, t)
                print(f"    test {folder}: right {j['right']}/{j['of']}, thrown {j['thrown']}, FA {j['fa']}/{j['rejects']}")


if __name__ == "__main__":
    main()
