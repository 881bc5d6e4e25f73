#!/usr/bin/env python3
"""Whether a second question after a "no" would have named what was said.

    bench/asked-rivals.py REPORT.json

REPORT is `hark bench --json` output (make bench-real writes bench-out/real.json). Of the
commands asked about ("Did you say …?", margins in the ask band below the threshold) and heard
wrong, it counts those whose rival contest found a closest rival (`ConfidenceFeatures.rival`),
and of those, the ones where that rival was what had been said: the intent heard right and the
one slot heard wrong said as the rival word. Those are what "Then did you say …?" would get right
after a "no" (`RivalOutcome.otherMeaning`). Hark asks it only where the grammar allows one other
word in the rival's place; the report does not say how many words it allowed, so the counts are
given by rival word, "on" and "off" being two-valued in every bundled app that has them.
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
        values = said_values(outcome)
        if outcome["intentRight"] and len(values) == 1 and values[0] == word:
            named[word] += 1
    if asked_wrong == 0:
        raise SystemExit(f"{arguments.report}: no command asked about and heard wrong")
    print(f"commands asked about and heard wrong: {asked_wrong} ({no_rival} without a rival contest)")
    print(f"  the closest rival was what had been said: {sum(named.values())} of {sum(by_word.values())}")
    two_valued = [w for w in ("on", "off") if by_word[w]]
    if two_valued:
        print("  where the rival was " + " or ".join(f'"{w}"' for w in two_valued) + ": "
              + f"{sum(named[w] for w in two_valued)} of {sum(by_word[w] for w in two_valued)}")
    for word, count in by_word.most_common(12):
        print(f"    {word:12s} {named[word]:3d} of {count}")


if __name__ == "__main__":
    main()
