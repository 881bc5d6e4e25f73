#!/usr/bin/env python3
"""Chirp's handler: speaks Hark's handler protocol on stdin and stdout.

One JSON object per line each way. Hark sends
  {"id": "<32 random hex digits>", "phase": "options" | "resolve" | "confirm" | "handle",
   "app": "messages", "intent": "SendMessage",
   "parameter": "recipient",            # options and resolve only
   "values": {"recipient": {"id": "amy_smith", "spoken": "Amy Smith"}, ...}}
and the handler answers with the same id and
  options: {"options": [{"id": ..., "spoken": ..., "synonyms": [...]}]}
  resolve: {"resolution": "success", "value": {...}} or needsValue, disambiguation
           (with "options"), confirmationRequired (with "value"), unsupported
           (with "reason" or "failure"), notRequired
  confirm, handle: {"code": "success" | "failure" | "inProgress" | "ready" |
           "continueInApp" | "failureRequiringAppLaunch",
           "failure": name or null, "values": {...}}
Any reply may add "deleteDonations": [{"intent": ..., "where": {"param": "id"}}] to
make Hark forget donations about data that no longer exists.
Messages "sent" are appended to sent.jsonl in HARK_APP_DATA.
"""
import json
import os
import sys

CONTACTS = [
    {"id": "amy_smith", "spoken": "Amy Smith", "synonyms": ["Amy"]},
    {"id": "amy_jones", "spoken": "Amy Jones", "synonyms": ["Amy"]},
    {"id": "bob_lee", "spoken": "Bob Lee", "synonyms": ["Bob"]},
]


def deleted_contacts():
    """Ids listed one a line in $HARK_APP_DATA/deleted-contacts, if any."""
    path = os.path.join(os.environ.get("HARK_APP_DATA", "."), "deleted-contacts")
    try:
        with open(path, encoding="utf-8") as listed:
            return {line.strip() for line in listed if line.strip()}
    except FileNotFoundError:
        return set()


def answer(request):
    phase = request.get("phase")
    values = request.get("values", {})
    if phase == "options":
        if request.get("parameter") == "recipient":
            # Contacts deleted since: Hark forgets the donations about them, so
            # it never suggests messaging someone who is gone.
            gone = deleted_contacts()
            reply = {"options": [c for c in CONTACTS if c["id"] not in gone]}
            if gone:
                reply["deleteDonations"] = [{"intent": "SendMessage", "where": {"recipient": c}} for c in sorted(gone)]
            return reply
        return {"options": None}
    if phase == "resolve":
        value = values.get(request.get("parameter"))
        if value is None:
            return {"resolution": "needsValue"}
        return {"resolution": "success", "value": value}
    if phase == "confirm":
        return {"code": "ready"}
    if phase == "handle":
        folder = os.environ.get("HARK_APP_DATA", ".")
        os.makedirs(folder, exist_ok=True)
        message = {
            "to": values["recipient"]["id"],
            "text": values["content"]["id"],
        }
        with open(os.path.join(folder, "sent.jsonl"), "a", encoding="utf-8") as sent:
            sent.write(json.dumps(message) + "\n")
        return {"code": "success"}
    return {"error": "unknown phase %r" % phase}


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        request = json.loads(line)
        reply = answer(request)
        reply["id"] = request.get("id")
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
