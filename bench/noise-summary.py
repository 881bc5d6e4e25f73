#!/usr/bin/env python3
"""Prints make bench-noise's table from the reports its runs wrote.

    bench/noise-summary.py REQUESTS.json WAKE-DIR [--markdown TABLE.md]

REQUESTS.json is `hark bench --baseline --json`'s report on the corpus's requests/ folders (one
per condition); WAKE-DIR holds `hark bench-wake --baseline --json` reports named CONDITION.json.
For each condition (and, for requests, each noise) it prints Hark's row and plain
pocketsphinx's, from the same run:
  accepted   commands carried out as meant, of all commands;
  wrong      commands carried out with a wrong intent or value: a wrong action;
  rejected   commands not carried out (Hark rejected them or heard no speech);
  heard right at any margin
             commands whose words were heard right, carried out or not: the most any judging of
             these hearings could accept (plain pocketsphinx judges nothing: its own right);
  false acc. speech to reject that was carried out as a command;
  wake miss  wake words missed, of all (every phrase) at the shipped sensitivity; plain
             pocketsphinx's keyword search at its default threshold;
  false wakes per 10 hours of other speech in the same room.
With --markdown it also writes the table as docs/benchmarks.md keeps it (bench/update-figures.py
puts it in place).
"""
import collections
import json
import os
import sys

CONDITIONS = ["clean", "snr20", "snr10", "snr05", "snr00"]


def request_rows(report):
    threshold = report["threshold"]
    band = (report.get("asking") or {}).get("band", 0)
    rows = collections.defaultdict(collections.Counter)
    for outcome in report["outcomes"]:
        keys = [(outcome["folder"], "all"), (outcome["folder"], (outcome.get("noise") or "-"))]
        plain = outcome.get("baseline")
        for who, heard, acted, right in [
                ("hark", outcome["understood"], outcome["understood"] and outcome["margin"] >= threshold, outcome["commandRight"]),
                ("plain", plain and plain["understood"], plain and plain["understood"], plain and plain["commandRight"])]:
            if who == "plain" and plain is None:
                continue
            for key in keys:
                tally = rows[key + (who,)]
                if outcome["mustReject"]:
                    tally["reject"] += 1
                    tally["false"] += bool(acted)
                else:
                    tally["commands"] += 1
                    tally["right"] += bool(acted and right)
                    tally["wrong"] += bool(acted and not right)
                    tally["rejected"] += not acted
                    tally["heard"] += bool(heard and right)
                    # Hark asks "Did you say …?" about a phrase just below its threshold.
                    tally["asked"] += bool(who == "hark" and not acted and outcome["understood"] and right
                                           and outcome["margin"] >= threshold - band)
    return rows


def wake_rows(directory):
    rows = {}
    for condition in CONDITIONS:
        path = os.path.join(directory, condition + ".json")
        if not os.path.exists(path):
            continue
        report = json.load(open(path))
        for who, point in [("hark", "atSetting"), ("plain", "plainPocketsphinx")]:
            missed = recordings = 0
            alarms, hours = 0.0, 0.0
            for figures in report["figures"]:
                chosen = figures.get(point)
                if chosen is None:
                    break
                missed += sum(chosen["missed"].values())
                recordings += sum(chosen["recordings"].values())
                alarms += chosen["falseAlarms"]
                hours += figures["testHours"]
            else:
                rows[condition, who] = (missed, recordings, 10 * alarms / hours if hours else float("nan"), hours / len(report["figures"]))
    return rows


def percent(part, whole):
    return f"{part:4d}/{whole:<4d} {100 * part / whole:5.1f} %" if whole else "      -       "


def fraction(part, whole):
    return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else "–"


def markdown(requests, wake):
    """The table per condition, Hark's row then plain pocketsphinx's, as docs/benchmarks.md keeps it."""
    lines = ["| condition | who | commands right | wrong actions | rejected or asked | heard right at any margin "
             "| false acceptances | wake words missed | false wakes / 10 h |",
             "|---|---|---|---|---|---|---|---|---|"]
    for condition in CONDITIONS:
        for who in ["hark", "plain"]:
            tally = requests.get((condition, "all", who))
            if tally is None:
                continue
            missed, per10 = "–", "–"
            if (condition, who) in wake:
                wake_missed, recordings, rate, _ = wake[condition, who]
                missed, per10 = fraction(wake_missed, recordings), f"{rate:.0f}"
            wrong = f"**{tally['wrong']}**" + (f" ({100 * tally['wrong'] / tally['commands']:.1f} %)" if tally["commands"] else "")
            rejected = f"{tally['rejected']}" + (f" ({tally['asked']} asked about, heard right)" if who == "hark" else "")
            name = "clean" if condition == "clean" else f"{int(condition[3:])} dB"
            lines.append(f"| {name if who == 'hark' else ''} | {'Hark' if who == 'hark' else 'plain pocketsphinx'} "
                         f"| {fraction(tally['right'], tally['commands'])} | {wrong} | {rejected} "
                         f"| {fraction(tally['heard'], tally['commands'])} "
                         f"| {tally['false']}/{tally['reject']} | {missed} | {per10} |")
    return "\n".join(lines) + "\n"


def main():
    arguments = sys.argv[1:]
    table = None
    if "--markdown" in arguments:
        at = arguments.index("--markdown")
        if at + 1 >= len(arguments):
            sys.exit("usage: noise-summary.py REQUESTS.json WAKE-DIR [--markdown TABLE.md]")
        table = arguments[at + 1]
        del arguments[at:at + 2]
    if len(arguments) != 2:
        sys.exit("usage: noise-summary.py REQUESTS.json WAKE-DIR [--markdown TABLE.md]")
    requests = request_rows(json.load(open(arguments[0])))
    wake = wake_rows(arguments[1])
    if table:
        with open(table, "w", encoding="utf-8") as file:
            file.write(markdown(requests, wake))
        print(f"table written to {table}")
    header = (f"{'condition':10s} {'who':6s} {'accepted':>16s} {'wrong':>16s} {'rejected':>16s} {'heard right':>16s} "
              f"{'false acc.':>16s} {'wake missed':>16s} {'false wakes/10 h':>17s}")
    print(header)
    print("-" * len(header))
    for condition in CONDITIONS:
        for who in ["hark", "plain"]:
            tally = requests.get((condition, "all", who))
            if tally is None:
                continue
            cells = [percent(tally["right"], tally["commands"]), percent(tally["wrong"], tally["commands"]),
                     percent(tally["rejected"], tally["commands"]), percent(tally["heard"], tally["commands"]),
                     percent(tally["false"], tally["reject"])]
            if (condition, who) in wake:
                missed, recordings, per10, _ = wake[condition, who]
                cells += [percent(missed, recordings), f"{per10:17.1f}"]
            print(f"{condition:10s} {'Hark' if who == 'hark' else 'plain':6s} " + " ".join(f"{c:>16s}" for c in cells))
    hours = sorted({round(v[3], 2) for v in wake.values()})
    if hours:
        print(f"(false wakes from {', '.join(map(str, hours))} h of other speech per condition: one false wake is "
              f"{10 / hours[0]:.0f} per 10 h; make bench-wake measures over 10 h)")
    print()
    print("Requests by noise (accepted / wrong / false acceptances; Hark, then plain pocketsphinx):")
    noises = sorted({key[1] for key in requests if key[1] != "all"})
    print(f"{'condition':10s} " + " ".join(f"{n:>28s}" for n in noises))
    for condition in CONDITIONS:
        cells = []
        for noise in noises:
            hark, plain = requests.get((condition, noise, "hark")), requests.get((condition, noise, "plain"))
            if hark is None:
                cells.append("-")
                continue
            text = f"{hark['right']}/{hark['commands']} {hark['wrong']}w {hark['false']}fa"
            if plain:
                text += f" | {plain['right']} {plain['wrong']}w {plain['false']}fa"
            cells.append(text)
        print(f"{condition:10s} " + " ".join(f"{c:>28s}" for c in cells))


if __name__ == "__main__":
    main()
