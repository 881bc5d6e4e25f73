#!/usr/bin/env python3
"""make bench-ha: Home Assistant's own English sentences imported into Hark, and typed requests
understood as Home Assistant's own matcher (hassil) understands them.

Imports the home-assistant-intents package's data/en.json with `hark import home-assistant
--entities HOME`, draws sentences from the same templates with hassil's sampler (the home's
entities, areas and floors filling {name}, {area} and {floor}), has hassil recognise each (the
reference: its intent and slot values; a sentence that means the satellite's own area is asked as
said in one of the home's areas), then sends each to `hark serve` as a Wyoming `recognize` event
through the reference `wyoming` client (from the satellite named after that area). Per intent and in all it prints: sentences Hark
understood exactly (the same intent and every slot value), missed (not recognised) and WRONG
(another intent, or a slot value that differs: an action Home Assistant would carry out wrongly).

    python3 bench/bench-ha.py --hark HARK --home HOME.yaml --out DIR [--per-intent N] [--json FILE] [--spoken N]
                              [--recordings DIR...]

--recordings: real recordings (WAV with a sidecar giving their "text", as ../shared/corpora's
home-en), each labelled with what hassil understands its text as, and decoded against the
imported home by `hark bench` beside plain pocketsphinx.

hassil and home-assistant-intents serve as peers here only, never in the product.
"""
import argparse
import asyncio
import collections
import itertools
import json
import os
import random
import re
import subprocess
import sys
import time

import yaml
from hassil import Intents, recognize_best
from hassil.intents import TextSlotList
from hassil.errors import MissingListError
from hassil.sample import sample_sentence
from wyoming.client import AsyncTcpClient
from wyoming.intent import Intent, NotRecognized, Recognize

import home_assistant_intents


def home_lists(path):
    """hassil's slot lists for the home file: name (with each entity's domain, device class and
    area as the context requires_context: matches), area and floor."""
    with open(path, encoding="utf-8") as handle:
        home = yaml.safe_load(handle)
    names, areas, floors = [], [], []
    for entity in home.get("entities", []):
        context = {"domain": entity["id"].split(".", 1)[0]}
        device_class = (entity.get("attributes") or {}).get("device_class")
        if device_class:
            context["device_class"] = device_class
        if entity.get("area"):
            context["area"] = entity["area"]
        for said in [entity["name"]] + entity.get("aliases", []):
            names.append((said, entity["name"], context))
    for area in home.get("areas", []):
        for said in [area["name"]] + area.get("aliases", []):
            areas.append((said, area["name"]))
    for floor in home.get("floors", []):
        floors.append((floor["name"], floor["name"]))
    return {
        "name": TextSlotList.from_tuples(names, allow_template=True, name="name"),
        "area": TextSlotList.from_tuples(areas, allow_template=True, name="area"),
        "floor": TextSlotList.from_tuples(floors, allow_template=True, name="floor"),
    }


def same_value(hark_value, hassil_value):
    """The same value: case does not matter, nor how a number is written (-3 and -3.0)."""
    try:
        return float(hark_value) == float(hassil_value)
    except (TypeError, ValueError):
        return str(hark_value).lower() == str(hassil_value).lower()


async def hark_recognize(port, requests):
    """Each (text, room)'s intent from hark serve: (name, {slot: value}) or None when not
    recognised; a room is sent as the satellite's (context.satellite_id)."""
    results = []
    client = AsyncTcpClient("127.0.0.1", port)
    await client.connect()
    try:
        for text, room in requests:
            await client.write_event(Recognize(text=text, context={"satellite_id": room} if room else None).event())
            event = await client.read_event()
            if event is None:
                raise SystemExit("hark serve closed the connection")
            if Intent.is_type(event.type):
                intent = Intent.from_event(event)
                name = intent.name.split(".", 1)[-1]
                results.append((name, {entity.name: entity.value for entity in intent.entities}))
            elif NotRecognized.is_type(event.type):
                results.append(None)
            else:
                raise SystemExit(f"unexpected {event.type} for recognize")
    finally:
        await client.disconnect()
    return results


VOICES = [("espeak-ng", "en-us"), ("flite", "slt"), ("espeak-ng", "en-gb"), ("flite", "rms"), ("flite", "awb")]


# What a person says where Home Assistant's sentences take any words (its wildcard lists).
WILDCARD_WORDS = {
    "search_query": ["miles davis", "the morning news", "jazz"],
    "timer_name": ["pasta", "boiled eggs"],
    "timer_command": ["turn off the oven", "open the blinds"],
    "message": ["dinner is ready", "time to go"],
    "shopping_list_item": ["oat milk", "paper towels"],
    "todo_list_item": ["call the plumber", "oat milk"],
    "zone": ["gym", "school"],
}


def said_as_people_say(sentence):
    """`sentence` with each wildcard's name hassil sampled ("{search_query}") said as words a
    person would say there, chosen by the sentence so each run draws the same."""
    def words(found):
        choices = WILDCARD_WORDS.get(found.group(1))
        if not choices:
            return found.group(0)
        return choices[sum(map(ord, sentence)) % len(choices)]
    return re.sub(r"\{(\w+)\}", words, sentence)


def sidecar_value(value):
    """A slot value as a sidecar gives it: whole numbers without ".0"."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def speak_and_decode(args, app, reference):
    """Speaks a random share of the sentences hassil understood, each in one of five voices, with
    the sidecar hark bench reads (hassil's intent and slots), and decodes them against the
    imported home, plain pocketsphinx beside it."""
    folder = os.path.join(args.out, "spoken")
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    # hark bench names no room: the sentences that mean a satellite's area are not spoken.
    anywhere = [item for item in reference if not item[3]]
    chosen = random.Random(1).sample(anywhere, min(args.spoken, len(anywhere)))
    for index, (text, intent_name, slots, _) in enumerate(chosen):
        engine, voice = VOICES[index % len(VOICES)]
        wav = os.path.join(folder, f"{index:04d}.wav")
        command = ["espeak-ng", "-v", voice, "-w", wav, text] if engine == "espeak-ng" else ["flite", "-voice", voice, "-t", text, "-o", wav]
        subprocess.run(command, check=True, capture_output=True)
        with open(os.path.join(folder, f"{index:04d}.json"), "w", encoding="utf-8") as handle:
            json.dump({"text": text, "intent": {"name": intent_name},
                       "slots": {name: sidecar_value(value) for name, value in slots.items()},
                       "voice": f"{engine}:{voice}"}, handle)
    report = os.path.join(args.out, "spoken.json")
    decoded = subprocess.run([args.hark, "bench", folder, "--apps", app, "--baseline", "--json", report],
                             capture_output=True, text=True)
    if decoded.returncode != 0:
        sys.exit(f"hark bench failed ({decoded.returncode}): {decoded.stderr[-2000:]}")
    keep = ("commands accepted", "misrecognitions", "false rejections", "real-time factor", "peak resident", "plain pocketsphinx",
            "no phrase found")
    print(f"spoken, {len(chosen)} sentences in {len(VOICES)} synthetic voices (hark bench {folder} --baseline):")
    for line in decoded.stdout.splitlines():
        if line.startswith(keep):
            print("  " + line)


def decode_recordings(args, app, intents, lists):
    """Real recordings labelled by hassil (its intent and slots for each one's text; one hassil
    does not understand without a satellite's area is left out, as hark bench names no room),
    decoded against the imported home by hark bench beside plain pocketsphinx, a folder each.
    Returns hark bench's Markdown table, or None with no recording."""
    folders = []
    for source in args.recordings:
        folder = os.path.join(args.out, "recordings", os.path.basename(os.path.normpath(source)))
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            os.remove(os.path.join(folder, name))
        kept = unknown = 0
        for wav in sorted(f for f in os.listdir(source) if f.endswith(".wav")):
            stem = wav[:-4]
            try:
                with open(os.path.join(source, stem + ".json"), encoding="utf-8") as handle:
                    sidecar = json.load(handle)
            except FileNotFoundError:
                continue
            if not sidecar.get("text"):
                continue
            result = recognize_best(sidecar["text"], intents, slot_lists=lists, language="en", best_slot_name="name")
            if result is None:
                unknown += 1
                continue
            sidecar["intent"] = {"name": result.intent.name}
            sidecar["slots"] = {name: sidecar_value(entity.value) for name, entity in result.entities.items()}
            os.symlink(os.path.abspath(os.path.join(source, wav)), os.path.join(folder, wav))
            with open(os.path.join(folder, stem + ".json"), "w", encoding="utf-8") as handle:
                json.dump(sidecar, handle)
            kept += 1
        print(f"{source}: {kept} recordings labelled by hassil, {unknown} whose text hassil does not understand "
              "without a satellite's area (left out)", file=sys.stderr)
        if kept:
            folders.append(folder)
    if not folders:
        return None
    table = os.path.join(args.out, "recordings.md")
    decoded = subprocess.run([args.hark, "bench", *folders, "--apps", app, "--baseline",
                              "--json", os.path.join(args.out, "recordings.json"), "--markdown", table],
                             capture_output=True, text=True)
    if decoded.returncode != 0:
        sys.exit(f"hark bench failed ({decoded.returncode}): {decoded.stderr[-2000:]}")
    keep = ("commands accepted", "misrecognitions", "false rejections", "real-time factor", "plain pocketsphinx", "no phrase found")
    print(f"real recordings, labelled by hassil (hark bench {' '.join(folders)} --baseline):")
    for line in decoded.stdout.splitlines():
        if line.startswith(keep):
            print("  " + line)
    with open(table, encoding="utf-8") as handle:
        return handle.read()


def summary_table(total, sentences, seconds, in_area, in_area_right, not_right):
    """The run's figures as docs/benchmarks.md keeps them: the totals, then each sentence not understood."""
    lines = ["| sentences | understood as hassil understands them | missed | **wrong actions** | said in a satellite's area: right | per sentence |",
             "|---|---|---|---|---|---|",
             f"| {sentences} | {total['right']} ({100 * total['right'] / max(sentences, 1):.1f} %) | {total['missed']} "
             f"| **{total['wrong']}** | {in_area_right} of {in_area} | {1000 * seconds / max(sentences, 1):.1f} ms |"]
    if not_right:
        lines += ["", "Not understood as hassil understands them:"]
        lines += [f"- \"{o['text']}\" ({o['intent']}): {o['verdict']}" for o in not_right[:20]]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hark", required=True)
    parser.add_argument("--home", required=True, help="areas, floors and entities (the intent tests' fixture YAML)")
    parser.add_argument("--out", required=True, help="folder for the imported app and the report")
    parser.add_argument("--per-intent", type=int, default=60, help="sentences drawn from each intent at most")
    parser.add_argument("--json", help="write every sentence's outcome here")
    parser.add_argument("--markdown", help="write the summary here as docs/benchmarks.md keeps it (bench/update-figures.py)")
    parser.add_argument("--spoken", type=int, default=0,
                        help="also speak this many of the sentences (espeak-ng and flite voices) and decode them with "
                             "hark bench beside plain pocketsphinx")
    parser.add_argument("--recordings", nargs="*", default=[],
                        help="folders of real recordings (WAV and a sidecar with their text) to label with hassil and "
                             "decode against the imported home, beside plain pocketsphinx")
    args = parser.parse_args()

    data_path = os.path.join(os.path.dirname(home_assistant_intents.__file__), "data", "en.json")
    with open(data_path, encoding="utf-8") as handle:
        data = json.load(handle)
    app = os.path.join(args.out, "ha_home")
    started = time.monotonic()
    imported = subprocess.run([args.hark, "import", "home-assistant", data_path, "--entities", args.home,
                               "--out", app, "--force"], capture_output=True, text=True)
    if imported.returncode != 0:
        sys.exit(f"hark import failed ({imported.returncode}):\n{imported.stdout[-3000:]}{imported.stderr}")
    print(f"imported {data_path} in {time.monotonic() - started:.1f} s: {imported.stdout.strip().splitlines()[-1]}", file=sys.stderr)

    intents = Intents.from_dict(data)
    # The sentences' own lists, and the home's (which Home Assistant fills from its devices).
    lists = {**intents.slot_lists, **home_lists(args.home)}
    random.seed(0)
    # Every template of an intent, a few of its first expansions each (all of them would not
    # fit in memory: a home multiplies them by its entities), then a random share per intent.
    drawn = collections.defaultdict(set)
    for intent_name, intent in intents.intents.items():
        for block in intent.data:
            for template in block.sentences:
                try:
                    ways = list(itertools.islice(sample_sentence(template, slot_lists=lists, expansion_rules=intents.expansion_rules,
                                                                 language="en"), 400))
                except MissingListError:
                    continue
                # A wildcard's words are anyone's: hassil samples its name ("{search_query}"), which
                # is no request, so each is said as one of a few things a person would say there.
                ways = [said_as_people_say(way) for way in ways]
                ways = [way for way in ways if "{" not in way]
                drawn[intent_name].update(random.sample(ways, min(len(ways), 4)))
    sentences = []
    for intent_name in sorted(drawn):
        texts = sorted(drawn[intent_name])
        random.shuffle(texts)
        sentences += [(intent_name, " ".join(text.split())) for text in texts[:args.per_intent]]

    # The reference: what hassil itself understands each sentence as. A sentence that means the
    # satellite's own area ("turn on the lights") is asked again as said in one of the home's
    # areas, in turn, and sent to Hark from the satellite named after it ("dining-room"); a
    # sentence hassil cannot match back either way is left out of the comparison.
    with open(args.home, encoding="utf-8") as handle:
        areas = [area["name"] for area in yaml.safe_load(handle).get("areas", [])]
    reference = []
    for intent_name, text in sentences:
        # As Home Assistant's own conversation agent asks: the best of the matches, preferring
        # one whose entity name is a real name over a wildcard's words.
        result = recognize_best(text, intents, slot_lists=lists, language="en", best_slot_name="name")
        room = None
        if result is None and areas:
            area = areas[len(reference) % len(areas)]
            result = recognize_best(text, intents, slot_lists=lists, intent_context={"area": area}, language="en",
                                    best_slot_name="name")
            room = area.lower().replace(" ", "-")
        if result is None:
            continue
        slots = {name: entity.value for name, entity in result.entities.items()}
        reference.append((text, result.intent.name, slots, room))
    from_rooms = sum(1 for *_, room in reference if room)
    print(f"{len(reference)} sentences from {len(drawn)} intents, as hassil understands them "
          f"({from_rooms} said in a satellite's area)", file=sys.stderr)

    server = subprocess.Popen([args.hark, "serve", "--uri", "tcp://127.0.0.1:0", "--apps", app, "--log-level", "error"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        if "serving Wyoming on tcp://" not in line:
            sys.exit(f"hark serve did not start: {line}")
        port = int(line.strip().rsplit(":", 1)[1])
        started = time.monotonic()
        heard = asyncio.run(hark_recognize(port, [(text, room) for text, _, _, room in reference]))
        seconds = time.monotonic() - started
    finally:
        server.terminate()
        server.wait()

    by_intent = collections.defaultdict(collections.Counter)
    outcomes = []
    for (text, intent_name, slots, room), hark in zip(reference, heard):
        if hark is None:
            verdict = "missed"
        elif hark[0] == intent_name and set(hark[1]) >= set(slots) and all(
                same_value(hark[1][name], value) for name, value in slots.items()):
            verdict = "right"
        else:
            verdict = "wrong"
        by_intent[intent_name][verdict] += 1
        outcomes.append({"text": text, "room": room, "intent": intent_name, "slots": slots, "verdict": verdict,
                         "hark": None if hark is None else {"intent": hark[0], "slots": hark[1]}})

    print(f"{'intent':34} {'right':>7} {'missed':>7} {'WRONG':>7}")
    total = collections.Counter()
    for intent_name in sorted(by_intent):
        counts = by_intent[intent_name]
        total.update(counts)
        print(f"{intent_name:34} {counts['right']:>7} {counts['missed']:>7} {counts['wrong']:>7}")
    n = sum(total.values())
    print(f"{'all':34} {total['right']:>7} {total['missed']:>7} {total['wrong']:>7}")
    print(f"understood as hassil does: {total['right']}/{n} ({100 * total['right'] / max(n, 1):.1f} %); "
          f"wrong actions: {total['wrong']} ({100 * total['wrong'] / max(n, 1):.1f} %); "
          f"{1000 * seconds / max(n, 1):.1f} ms a sentence through hark serve")
    wrong = [o for o in outcomes if o["verdict"] == "wrong"]
    if wrong:
        print("wrong actions (first 20):")
        for outcome in wrong[:20]:
            print(f"  \"{outcome['text']}\": hassil {outcome['intent']} {outcome['slots']}, Hark {outcome['hark']}")
    recorded = decode_recordings(args, app, intents, lists) if args.recordings else None
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as handle:
            handle.write(summary_table(total, n, seconds, sum(1 for o in outcomes if o["room"]),
                                       sum(1 for o in outcomes if o["room"] and o["verdict"] == "right"),
                                       [o for o in outcomes if o["verdict"] != "right"]))
            if recorded:
                handle.write("\nReal recordings, each labelled with what hassil understands its text as, spoken against "
                             "the imported home (`hark bench --baseline`):\n\n" + recorded)
        print(f"table written to {args.markdown}")
    if args.spoken:
        speak_and_decode(args, app, reference)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"sentences": n, "right": total["right"], "missed": total["missed"], "wrong": total["wrong"],
                       "outcomes": outcomes}, handle, indent=1)


if __name__ == "__main__":
    main()
