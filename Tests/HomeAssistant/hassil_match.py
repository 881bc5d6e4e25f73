#!/usr/bin/env python3
"""What Home Assistant's own matcher (hassil, installed by make test as a peer) makes of each
text: the intent and its slots, under Home Assistant sentence YAML and a home file in the form
of its intent tests' fixtures (areas with names, entities with names, ids and areas).

    python3 Tests/HomeAssistant/hassil_match.py SENTENCES.yaml HOME.yaml TEXT [TEXT ...] [--area NAME]

Prints one JSON list: {"intent": NAME, "slots": {slot: value}} for each text, or null where
hassil matches nothing. --area is the satellite's area, as Home Assistant gives its context.
"""
import argparse
import json

import yaml
from hassil import Intents, recognize_best
from hassil.intents import TextSlotList


def home_lists(home):
    names = [(entity["name"], entity["name"], {"domain": entity["id"].split(".", 1)[0]})
             for entity in home.get("entities", [])]
    areas = [(area["name"], area["name"]) for area in home.get("areas", [])]
    return {"name": TextSlotList.from_tuples(names, name="name"),
            "area": TextSlotList.from_tuples(areas, name="area")}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sentences")
    parser.add_argument("home")
    parser.add_argument("texts", nargs="+")
    parser.add_argument("--area")
    args = parser.parse_args()
    with open(args.sentences, encoding="utf-8") as handle:
        intents = Intents.from_dict(yaml.safe_load(handle))
    with open(args.home, encoding="utf-8") as handle:
        lists = {**intents.slot_lists, **home_lists(yaml.safe_load(handle))}
    context = {"area": args.area} if args.area else None
    results = []
    for text in args.texts:
        result = recognize_best(text, intents, slot_lists=lists, intent_context=context, language="en",
                                best_slot_name="name")
        results.append(None if result is None else
                       {"intent": result.intent.name, "slots": {name: str(entity.value) for name, entity in result.entities.items()}})
    print(json.dumps(results))


if __name__ == "__main__":
    main()
