#!/usr/bin/env python3
"""How far above the threshold a noisy room should ask first: every reach judged again offline.

    bench/noisy-reaches.py REPORT.json CORPUS [--half tune|test] [--try NAME=VALUE,... ...]

REPORT is `hark bench --json` output over folders of CORPUS (bench-out/real, or the requests
of bench/make-noise-corpus.py), from a build that records each request's margin as heard
(`ConfidenceFeatures.heardMargin`) and its second hearing (`otherHearing`). Each request is
judged again as the recogniser judges it (`NoisyConfirmation`): in a room under `below` dB, a
margin from the ask band's floor up to the reach above the threshold is squeezed into the ask
band; the reach is `reach` for a request heard once, `denoised` for one heard through the noise
suppression, `agreed` for one whose two hearings formed the same phrase, and at least `phone`
for telephone-band audio in any room (`noisy-phone` in a noisy one). A request heard after the
room before it (`signalToNoiseWithRoomBefore`) is judged by that room. First the shipped values
are checked against the run's own outcomes (a report from another build, or other settings, will
not match); then each
--try (e.g. `--try reach=0.6 --try agreed=0.8,reach=0.6`) is printed beside them, per condition:
commands done right / asked about, heard right / asked about, heard wrong / wrong actions, and
false acceptances of speech to reject. --half keeps one half of the corpus (the sidecars'
"split"; recordings without one count as test).
"""
import argparse
import collections
import json
import os
import pathlib
import sys
from importlib import import_module

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
agreeing = import_module("agreeing-hearings")
squeezed, heard_words = agreeing.squeezed, agreeing.heard_words

# NoisyConfirmation.standard*, RecognizerConfiguration.standardTelephoneBandReach.
# "noisy-phone": NoisyConfirmation.standardTelephoneBandReach, a telephone band's in a noisy room.
SHIPPED = {"below": 30.0, "reach": 0.5, "denoised": 1.0, "agreed": 0.65, "phone": 0.6, "noisy-phone": 1.0}
ASK_BAND_DEFAULT = 0.28


def judged(outcome, settings, threshold, band):
    """The margin the recogniser would judge `outcome` at with `settings`."""
    features = outcome.get("features") or {}
    heard = features.get("heardMargin")
    if heard is None:
        return outcome["margin"]
    reach = None
    # The room a request is judged by: with the room heard before it when there was one.
    signal_to_noise = features.get("signalToNoiseWithRoomBefore", features.get("signalToNoise"))
    noisy = (signal_to_noise if signal_to_noise is not None else -1e9) < settings["below"]
    if noisy:
        if features.get("heardThroughSuppression"):
            other = features.get("otherHearing")
            agreed = (other is not None and outcome["understood"] and other["formsPhrase"]
                      and other["words"] == heard_words(outcome))
            reach = settings["agreed"] if agreed else settings["denoised"]
        else:
            reach = settings["reach"]
    if features.get("telephoneBand"):
        reach = max(reach or 0.0, settings["phone"], settings["noisy-phone"] if noisy else 0.0)
    return heard if reach is None else squeezed(heard, threshold, band, reach)


def tally(outcomes, settings, threshold, band):
    """Per folder: done right, asked about right and wrong, wrong actions, false acceptances."""
    counts = collections.defaultdict(collections.Counter)
    for outcome in outcomes:
        margin = judged(outcome, settings, threshold, band)
        folder = counts[outcome["folder"]]
        if outcome["mustReject"]:
            folder["to reject"] += 1
            folder["false acceptances"] += outcome["understood"] and margin >= threshold
        else:
            folder["commands"] += 1
            if outcome["understood"] and margin >= threshold:
                folder["right" if outcome["commandRight"] else "wrong"] += 1
            elif outcome["understood"] and margin >= threshold - band:
                folder["asked, right" if outcome["commandRight"] else "asked, wrong"] += 1
    return counts


def parsed(text):
    settings = dict(SHIPPED)
    for pair in text.split(","):
        name, _, value = pair.partition("=")
        if name not in SHIPPED:
            raise SystemExit(f"--try {text}: {name!r} is none of {', '.join(SHIPPED)}")
        settings[name] = float(value)
    return settings


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=pathlib.Path)
    parser.add_argument("corpus", type=pathlib.Path)
    parser.add_argument("--half", choices=["tune", "test"])
    parser.add_argument("--try", dest="tries", action="append", default=[], metavar="NAME=VALUE,...")
    arguments = parser.parse_args()
    report = json.loads(arguments.report.read_text())
    threshold = report["threshold"]
    band = (report.get("asking") or {}).get("band", ASK_BAND_DEFAULT)
    outcomes = report["outcomes"]
    if not any((o.get("features") or {}).get("heardMargin") is not None for o in outcomes):
        raise SystemExit(f"{arguments.report}: no margin as heard is recorded (a build before heardMargin)")

    differ = sum((judged(o, SHIPPED, threshold, band) >= threshold) != (o["margin"] >= threshold) for o in outcomes)
    print("the shipped reaches reproduce the run" if differ == 0
          else f"the shipped reaches differ from the run in {differ} request{'' if differ == 1 else 's'}")

    if arguments.half:
        def half(outcome):
            sidecar = arguments.corpus / outcome["folder"] / (outcome["recording"].rsplit(".", 1)[0] + ".json")
            return json.loads(sidecar.read_text()).get("split", "test") if sidecar.exists() else "test"
        outcomes = [o for o in outcomes if half(o) == arguments.half]

    for label, settings in [("shipped", SHIPPED)] + [(text, parsed(text)) for text in arguments.tries]:
        counts = tally(outcomes, settings, threshold, band)
        print(f"{label}: right / asked, right / asked, wrong / wrong; false acceptances")
        total = collections.Counter()
        for folder in sorted(counts):
            c = counts[folder]
            total.update(c)
            print(f"  {folder:12s} {c['right']:4d} / {c['asked, right']:4d} / {c['asked, wrong']:4d} / {c['wrong']:2d} of "
                  f"{c['commands']}; {c['false acceptances']} of {c['to reject']}")
        print(f"  {'all':12s} {total['right']:4d} / {total['asked, right']:4d} / {total['asked, wrong']:4d} / "
              f"{total['wrong']:2d} of {total['commands']}; {total['false acceptances']} of {total['to reject']}")


if __name__ == "__main__":
    main()
