#!/usr/bin/env python3
"""Whether a second question after a "no" would have named what was said.

    bench/asked-rivals.py REPORT.json

REPORT is `hark bench --json` output (make bench-real writes bench-out/real.json). Of the
commands asked about ("Did you say …?", margins in the ask band below the threshold) and heard
wrong, it counts those whose rival contest found a closest rival (`ConfidenceFeatures.rival`),
and of those, the ones where that rival was what had been said: the intent heard right and the
one slot heard wrong said as the rival word. Those are what "Then did you say …?" would get right
after a "no" (`RivalOutcome.otherMeaning`). Hark asks it only where the grammar allows one other
word in the rival's place (`wordsThere`, 1); for reports written before that was kept, the rival
words "on" and "off" stand for them, two-valued in every bundled app that has them.
"""
import argparse
import collections
import json
import pathlib
import re

ASK_BAND_DEFAULT = 0.28
DIGITS = dict(zip("0123456789", "zero one two three four five six seven eight nine".split()))


def said_values(outcome):
    """The values that were said in the slots heard wrong, as words ("3" → "three")."""
    values = []
    for confusion in outcome.get("slotConfusions") or []:
        found = re.match(r"[^:]+: (.+?) → ", confusion)
        if found:
            value = found.group(1).lower()
            values.append(DIGITS.get(value, value))
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=pathlib.Path)
    arguments = parser.parse_args()
    report = json.loads(arguments.report.read_text())
    threshold = report["threshold"]
    band = (report.get("asking") or {}).get("band", ASK_BAND_DEFAULT)
    asked_wrong, no_rival = 0, 0
    by_word = collections.Counter()
    named = collections.Counter()
    # Keyed by whether a "no" brings the second question (the rival's word is the only other).
    asked_again, asked_again_right = collections.Counter(), collections.Counter()
    for outcome in report["outcomes"]:
        if not outcome["understood"] or outcome["mustReject"] or outcome["commandRight"]:
            continue
        if not threshold - band <= outcome["margin"] < threshold:
            continue
        asked_wrong += 1
        rival = (outcome.get("features") or {}).get("rival")
        if not rival:
            no_rival += 1
            continue
        word = rival["word"]
        by_word[word] += 1
        two_valued = rival.get("wordsThere") == 1 if "wordsThere" in rival else word in ("on", "off")
        values = said_values(outcome)
        right = outcome["intentRight"] and len(values) == 1 and values[0] == word
        named[word] += right
        asked_again[two_valued] += 1
        asked_again_right[two_valued] += right
    if asked_wrong == 0:
        raise SystemExit(f"{arguments.report}: no command asked about and heard wrong")
    print(f"commands asked about and heard wrong: {asked_wrong} ({no_rival} without a rival contest)")
    print(f"  the closest rival was what had been said: {sum(named.values())} of {sum(by_word.values())}")
    print(f"  where a \"no\" brings \"Then did you say …?\" (the rival the only other word there): "
          f"{asked_again_right[True]} of {asked_again[True]} would name what was said")
    for word, count in by_word.most_common(12):
        print(f"    {word:12s} {named[word]:3d} of {count}")


if __name__ == "__main__":
    main()
