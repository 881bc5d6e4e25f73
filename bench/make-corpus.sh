#!/usr/bin/env bash
# Makes a labelled development corpus for the recogniser benchmark (hark bench).
#
#   bench/make-corpus.sh OUTDIR
#
# Writes OUTDIR/clean, OUTDIR/snr20, OUTDIR/snr10 and OUTDIR/snr5: the same recordings
# (16 kHz mono 16-bit WAV) in each, each with a NAME.json sidecar in the rhasspy-test
# layout ({"text", "intent": {"name"}, "slots"}; "intent": null for speech Hark must
# reject) plus "voice", "rate", "noise" and "snr" for analysis. hark bench ignores the
# extra keys. Names say what a file is, SOURCE-TEXT-VOICE-rRATE, as in
# home-turn_on_the_garage_light-flite_slt-r100.wav. It also writes OUTDIR/real-snr20,
# real-snr10 and real-snr5: the home-en recordings themselves (real people) mixed with the
# same noises, with their own sidecars (plus "voice": "real:home-en", "noise", "snr").
# The output is generated and large: it is not committed.
#
# Sentences, each said by VOICES (default 3) voice and rate combinations:
#   * the texts of the home-en recordings' sidecars (HOME_EN, default
#     ../shared/corpora/home-en), with their intent and slots;
#   * PER_PHRASE (default 5) sentences per phrase of the apps in APPS (default apps/),
#     sampled with SEED (default 1) by `hark sentences` (HARK, default .build/release/hark);
#   * bench/out-of-grammar.txt: requests to other assistants, near misses of the apps'
#     phrases and ordinary conversation, all to be rejected.
# A sentence that appears twice is kept once (the first: home-en, then apps).
#
# Voices: espeak-ng variants, flite voices and, when festival is installed, its English
# voices (apt-get install festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts),
# each at 80, 100 and 120 % of its normal pace (espeak-ng -s, flite duration_stretch,
# festival Duration_Stretch or, for HTS voices, the engine's speed). Combinations are
# taken in turn, one engine after the other, so the corpus is the same on every run (for
# the same voices). Voices that fail to speak are left out with a note.
#
# Conditions: leading and trailing silence is cut from the speech, which is then padded
# with 0.3-0.5 s before and after, and mixed with noise at 20, 10 and 5 dB SNR (speech
# RMS over the speech alone against noise RMS over the whole file); "clean" has the same
# noise 60 dB down, a near-silent floor rather than digital zero. Noise is white, pink,
# brown or babble (six voices reading licence texts, summed), in turn; it is synthesised
# by sox in repeatable mode (-R) and cut at an offset taken from the file name, so every
# run writes the same files.
#
# Rerunning rebuilds OUTDIR's condition folders from scratch; the new ones replace
# the old only once all are made, so an interrupted run leaves the previous corpus.
# Progress goes to standard error every 50 recordings; the summary at the end (files and
# minutes per condition, recordings per voice) also to OUTDIR/summary.txt.
# Needs espeak-ng, flite, sox and python3; festival is optional.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 64
fi
out=$1
repo=$(cd "$(dirname "$0")/.." && pwd)
hark=${HARK:-$repo/.build/release/hark}
apps=${APPS:-$repo/apps}
home_en=${HOME_EN:-$repo/../shared/corpora/home-en}
per_phrase=${PER_PHRASE:-5}
seed=${SEED:-1}
voices_per_sentence=${VOICES:-3}
rejects=$repo/bench/out-of-grammar.txt
conditions=(clean snr20 snr10 snr5)
snrs=(60 20 10 5)
real_conditions=(real-snr20 real-snr10 real-snr5)
real_snrs=(20 10 5)
kinds=(white pink brown babble)
rates=(100 120 80)

for tool in espeak-ng flite sox soxi python3; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is missing (apt-get install espeak-ng flite sox python3)" >&2; exit 69; }
done
if [ ! -x "$hark" ]; then
  echo "$0: no hark at $hark: build it (make release) or point HARK at one" >&2
  exit 69
fi
if ! "$hark" sentences --help >/dev/null 2>&1; then
  echo "$0: $hark has no 'sentences' command: rebuild it (make release)" >&2
  exit 69
fi
[ -f "$rejects" ] || { echo "$0: $rejects is missing" >&2; exit 66; }
case $voices_per_sentence in '' | *[!0-9]* | 0) echo "$0: VOICES must be a positive number" >&2; exit 64 ;; esac

mkdir -p "$out"
work=$(mktemp -d)
stage=$out/.partial
trap 'rm -rf "$work" "$stage"' EXIT
rm -rf "$stage"
for condition in "${conditions[@]}" "${real_conditions[@]}"; do mkdir -p "$stage/$condition"; done
started=$SECONDS

# --- Sentences: NAME-STEM <tab> TEXT <tab> SIDECAR JSON, one a line -------------------
"$hark" sentences --apps "$apps" --per-phrase "$per_phrase" --seed "$seed" > "$work/apps.jsonl" \
  || { echo "$0: $hark sentences failed" >&2; exit 1; }
[ -d "$home_en" ] || echo "note: no home-en recordings at $home_en; their sentences are left out" >&2
python3 - "$home_en" "$work/apps.jsonl" "$rejects" > "$work/sentences.tsv" <<'PYTHON'
import glob, json, os, re, sys

home_en, apps_jsonl, rejects = sys.argv[1:4]
seen, counts = set(), {}

def emit(source, text, intent, slots):
    text = " ".join(text.split())
    key = text.lower()
    if not text or key in seen:
        return
    seen.add(key)
    counts[source] = counts.get(source, 0) + 1
    stem = source + "-" + (re.sub(r"[^a-z0-9]+", "_", key.replace("'", "")).strip("_")[:80] or "empty")
    sidecar = {"text": text, "intent": {"name": intent} if intent else None,
               "slots": {str(k): str(v) for k, v in (slots or {}).items()}}
    print(stem, text, json.dumps(sidecar), sep="\t")

for path in sorted(glob.glob(os.path.join(home_en, "*.json"))):
    with open(path, encoding="utf-8") as f:
        item = json.load(f)
    emit("home", item["text"], (item.get("intent") or {}).get("name"), item.get("slots"))
with open(apps_jsonl, encoding="utf-8") as f:
    for number, line in enumerate(f, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError:
            sys.exit(f"hark sentences, line {number}: not JSON: {line.strip()[:80]}")
        emit(item.get("app") or "apps", item["text"], (item.get("intent") or {}).get("name"), item.get("slots"))
with open(rejects, encoding="utf-8") as f:
    for line in f:
        if line.strip() and not line.lstrip().startswith("#"):
            emit("reject", line, None, None)
print(", ".join(f"{n} {source}" for source, n in counts.items()), "sentences", file=sys.stderr)
PYTHON

# --- Voices ------------------------------------------------------------------------------
espeak_voices=(en-us en-gb en-us+f3 en-us+m3 en-gb-scotland en-029 en-gb-x-rp en-us-nyc
               en-gb-x-gbclan en-gb-x-gbcwmd en-us+f4 en-gb+f2)
flite_voices=(slt rms awb kal16)
festival_voices=(kal_diphone ked_diphone cmu_us_slt_arctic_hts)

# Speaks the text in file $4 with voice $2 of engine $1 at $3 % of its normal pace into $5
# (at the engine's own rate); fails when nothing was written.
speak() { # engine voice rate text-file out.wav
  local stretch
  stretch=$(awk -v r="$3" 'BEGIN { printf "%.3f", 100 / r }')
  rm -f "$5"
  case $1 in
    espeak) espeak-ng -v "$2" -s $(( 175 * $3 / 100 )) -f "$4" -w "$5" ;;
    flite) flite -voice "$2" --setf duration_stretch="$stretch" -f "$4" -o "$5" ;;
    festival)
      local pace="(Parameter.set 'Duration_Stretch $stretch)"
      # HTS voices ignore Duration_Stretch; their engine takes a speed instead.
      case $2 in *_hts) pace="(set! hts_engine_params (append hts_engine_params (list (list \"-r\" $(awk -v r="$3" 'BEGIN { print r / 100 }')))))" ;; esac
      text2wave -eval "(voice_$2)" -eval "$pace" -o "$5" "$4" ;;
  esac >/dev/null 2>&1
  [ -s "$5" ] && [ "$(soxi -s "$5")" -gt 1600 ]
}

echo "testing one two three" > "$work/test.txt"
usable() { # engine voice
  if speak "$1" "$2" 100 "$work/test.txt" "$work/test.wav"; then return 0; fi
  echo "note: $1 voice $2 does not speak here; left out" >&2
  failed+=("$1:$2")
  return 1
}
failed=()
engines=()
declare -A engine_voices=()
for voice in "${espeak_voices[@]}"; do if usable espeak "$voice"; then engine_voices[espeak]+="$voice "; fi; done
for voice in "${flite_voices[@]}"; do if usable flite "$voice"; then engine_voices[flite]+="$voice "; fi; done
if command -v text2wave >/dev/null; then
  for voice in "${festival_voices[@]}"; do if usable festival "$voice"; then engine_voices[festival]+="$voice "; fi; done
else
  echo "note: festival is not installed; using espeak-ng and flite voices only" \
       "(apt-get install festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts)" >&2
fi
for engine in espeak flite festival; do [ -n "${engine_voices[$engine]:-}" ] && engines+=("$engine"); done
[ ${#engines[@]} -gt 0 ] || { echo "$0: no voice could speak" >&2; exit 69; }
for engine in "${engines[@]}"; do echo "$engine voices: ${engine_voices[$engine]}" >&2; done

# --- Noise: two minutes of each kind, cut per recording -----------------------------------
bed_seconds=120
for kind in white pink brown; do
  sox -R -n -r 16000 -c 1 -b 16 "$work/noise-$kind.wav" synth "$bed_seconds" "${kind}noise" norm -6
done
# Babble: six voices each reading a different stretch of licence text, summed.
for licence in GPL-3 Apache-2.0 MPL-2.0 LGPL-3 Artistic BSD; do
  [ -f "/usr/share/common-licenses/$licence" ] && cat "/usr/share/common-licenses/$licence"
done | tr -s ' \n\t' ' ' | tr -cd 'A-Za-z0-9 .,;:()-' | fold -s -w 3000 > "$work/babble.txt" || true
[ -s "$work/babble.txt" ] || grep -v '^#' "$rejects" | tr '\n' ' ' | fold -s -w 3000 > "$work/babble.txt"
talkers=(espeak:en-us espeak:en-gb+f3 flite:slt flite:rms espeak:en-029 flite:awb)
for t in "${!talkers[@]}"; do
  talker=${talkers[$t]}
  sed -n "$(( t % $(wc -l < "$work/babble.txt") + 1 ))p" "$work/babble.txt" > "$work/talker.txt"
  speak "${talker%%:*}" "${talker#*:}" 100 "$work/talker.txt" "$work/talker-raw.wav" \
    || { echo "$0: $talker could not read the babble text" >&2; exit 70; }
  sox -R "$work/talker-raw.wav" -c 1 -b 16 "$work/talker-$t.wav" remix - gain -6 rate 16k norm -3 \
    repeat 9 trim 0 "$bed_seconds"
done
sox -R -m "$work"/talker-[0-9].wav "$work/noise-babble.wav" norm -6
bed_samples=$(( bed_seconds * 16000 ))

# --- Recordings ---------------------------------------------------------------------------
rms() { sox "$1" -n stat 2>&1 | awk '/RMS +amplitude/ { print $3 }'; }
# LENGTH samples of KIND noise, cut at an offset taken from HASH, into $work/noise.wav.
cut_noise() { # kind length hash
  sox -R "$work/noise-$1.wav" "$work/noise.wav" trim "$(( $3 % (bed_samples - $2) ))s" "${2}s"
}
# Speech (RMS measured over the speech alone) and $work/noise.wav (RMS over all of it) at SNR dB:
# mixed at half level, then brought back to a -3 dBFS peak, so no sample clips.
mix() { # speech.wav speech-rms noise-rms snr out.wav
  local gain
  gain=$(awk -v s="$2" -v n="$3" -v snr="$4" 'BEGIN { printf "%.6f", 0.5 * (s / 10 ^ (snr / 20)) / n }')
  sox -R -m -v 0.5 "$1" -v "$gain" "$work/noise.wav" "$5" norm -3
}

sentences=$(wc -l < "$work/sentences.tsv")
total=$(( sentences * voices_per_sentence ))
echo "making $total recordings ($sentences sentences × $voices_per_sentence voices) in ${#conditions[@]} conditions" >&2
declare -A picks=() used=()
made=0
while IFS=$'\t' read -r -u 3 stem text sidecar; do
  printf '%s\n' "$text" > "$work/text.txt"
  for (( v = 0; v < voices_per_sentence; v++ )); do
    # The next voice of the next engine; each voice goes through the rates in turn.
    engine=${engines[$(( made % ${#engines[@]} ))]}
    read -r -a voices <<< "${engine_voices[$engine]}"
    pick=${picks[$engine]:-0}
    picks[$engine]=$(( pick + 1 ))
    voice=${voices[$(( pick % ${#voices[@]} ))]}
    rate=${rates[$(( pick / ${#voices[@]} % ${#rates[@]} ))]}
    tag=$(printf '%s_%s' "$engine" "$voice" | sed -E 's/cmu_us_|_arctic|_diphone//g; s/[^A-Za-z0-9_-]+/-/g')
    name=$stem-$tag-r$rate
    kind=${kinds[$(( made % ${#kinds[@]} ))]}
    made=$(( made + 1 ))

    if ! speak "$engine" "$voice" "$rate" "$work/text.txt" "$work/raw.wav"; then
      echo "$0: $engine voice $voice could not say \"$text\"" >&2
      exit 70
    fi
    # Speech only: mono 16 kHz, silence cut from both ends, peak at -3 dBFS.
    sox -R "$work/raw.wav" -c 1 -b 16 "$work/speech.wav" remix - gain -6 rate 16k \
      silence 1 0.01 -55d reverse silence 1 0.01 -55d reverse norm -6
    speech_rms=$(rms "$work/speech.wav")
    # Padding (0.30-0.50 s each side) and the noise offset follow from the name.
    hash=$(printf '%s' "$name" | cksum | cut -d' ' -f1)
    before=$(( 4800 + hash % 5 * 800 ))
    after=$(( 4800 + hash / 5 % 5 * 800 ))
    sox -R "$work/speech.wav" "$work/padded.wav" pad "${before}s" "${after}s"
    cut_noise "$kind" "$(soxi -s "$work/padded.wav")" "$hash"
    noise_rms=$(rms "$work/noise.wav")
    for c in "${!conditions[@]}"; do
      snr=${snrs[$c]}
      mix "$work/padded.wav" "$speech_rms" "$noise_rms" "$snr" "$stage/${conditions[$c]}/$name.wav"
      printf '%s, "voice": "%s:%s", "rate": %d, "noise": "%s", "snr": %d}\n' \
        "${sidecar%\}}" "$engine" "$voice" "$rate" "$kind" "$snr" > "$stage/${conditions[$c]}/$name.json"
    done
    used[$engine:$voice]=$(( ${used[$engine:$voice]:-0} + 1 ))
    if (( made % 50 == 0 )); then
      echo "$made/$total recordings ($(( SECONDS - started )) s)" >&2
    fi
  done
done 3< "$work/sentences.tsv"

# --- Real voices in noise: the home-en recordings themselves, mixed as above ----------------
# Same noise kinds and levels; the speech level is measured over the speech alone (quiet
# ends cut at -40 dB, as these recordings have a room's floor, not digital silence).
real_made=0
if [ -d "$home_en" ]; then
  for wav in "$home_en"/*.wav; do
    base=$(basename "$wav" .wav)
    [ -f "$home_en/$base.json" ] || continue
    sox -R "$wav" -c 1 -b 16 "$work/real.wav" remix - rate 16k norm -6
    sox -R "$work/real.wav" "$work/real-speech.wav" silence 1 0.01 -40d reverse silence 1 0.01 -40d reverse
    speech_rms=$(rms "$work/real-speech.wav")
    hash=$(printf '%s' "real-$base" | cksum | cut -d' ' -f1)
    kind=${kinds[$(( real_made % ${#kinds[@]} ))]}
    cut_noise "$kind" "$(soxi -s "$work/real.wav")" "$hash"
    noise_rms=$(rms "$work/noise.wav")
    for c in "${!real_conditions[@]}"; do
      snr=${real_snrs[$c]}
      mix "$work/real.wav" "$speech_rms" "$noise_rms" "$snr" "$stage/${real_conditions[$c]}/$base.wav"
      python3 -c 'import json, sys
item = json.load(open(sys.argv[1], encoding="utf-8"))
item.update(voice="real:home-en", noise=sys.argv[2], snr=int(sys.argv[3]))
print(json.dumps(item))' "$home_en/$base.json" "$kind" "$snr" > "$stage/${real_conditions[$c]}/$base.json"
    done
    real_made=$(( real_made + 1 ))
  done
  echo "$real_made home-en recordings mixed with noise" >&2
fi

# --- Into place, and a summary ---------------------------------------------------------------
{
  echo "corpus: $made recordings of $sentences sentences, $voices_per_sentence voices each (PER_PHRASE=$per_phrase SEED=$seed)"
  [ "$real_made" -eq 0 ] || echo "real voices: $real_made home-en recordings at ${real_snrs[*]} dB SNR"
  [ "$real_made" -gt 0 ] || rmdir "${real_conditions[@]/#/$stage/}"
  for condition in "${conditions[@]}" "${real_conditions[@]}"; do
    rm -rf "${out:?}/$condition"
    [ -d "$stage/$condition" ] || continue
    mv "$stage/$condition" "$out/$condition"
    seconds=$(soxi -D "$out/$condition"/*.wav | awk '{ s += $1 } END { printf "%.0f", s }')
    printf '%-6s %5d files, %5.1f minutes\n' "$condition" "$(find "$out/$condition" -name '*.wav' | wc -l)" \
      "$(awk -v s="$seconds" 'BEGIN { print s / 60 }')"
  done
  echo "voices (recordings each):"
  for key in "${!used[@]}"; do printf '  %-32s %d\n' "$key" "${used[$key]}"; done | sort
  [ ${#failed[@]} -eq 0 ] || echo "left out (would not speak): ${failed[*]}"
  echo "made in $(( SECONDS - started )) s"
} | tee "$out/summary.txt" >&2
