#!/usr/bin/env bash
# Regenerates the synthetic fixtures: requests of the bundled home app spoken by
# several espeak-ng and flite voices, a few copies at other sample rates, and
# speech that is not in any app's grammar (which Hark must reject).
# Needs espeak-ng, flite and sox (Debian packages of the same names).
set -euo pipefail
cd "$(dirname "$0")"
rm -f ./*.wav ./*.json

# name|text|intent|slots as JSON
requests=(
  "what_time_is_it|what time is it|GetTime|{}"
  "turn_on_the_bedroom_light|turn on the bedroom light|ChangeLightState|{\"state\": \"on\", \"name\": \"bedroom light\"}"
  "turn_the_garage_light_off|turn the garage light off|ChangeLightState|{\"name\": \"garage light\", \"state\": \"off\"}"
  "set_the_living_room_lamp_to_red|set the living room lamp to red|ChangeLightColor|{\"name\": \"living room lamp\", \"color\": \"red\"}"
  "is_the_garage_door_closed|is the garage door closed|GetGarageState|{}"
  "how_hot_is_it|how hot is it|GetTemperature|{}"
  "make_the_bedroom_light_green|make the bedroom light green|ChangeLightColor|{\"name\": \"bedroom light\", \"color\": \"green\"}"
  "tell_me_the_time|tell me the time|GetTime|{}"
)
outside=(
  "what_is_the_weather_tomorrow|what is the weather like tomorrow"
  "play_some_music|play some music by the beatles"
  "open_the_front_door|open the front door please"
  "the_quick_brown_fox|the quick brown fox jumps over the lazy dog"
)
voices=("espeak:en-us" "espeak:en-gb" "espeak:en-us+f3" "espeak:en-gb-scotland" "flite:slt" "flite:rms" "flite:awb" "flite:kal16")

speak() { # voice text out.wav
  local engine=${1%%:*} voice=${1#*:}
  if [ "$engine" = espeak ]; then espeak-ng -v "$voice" -s 165 -w "$3" "$2"; else flite -voice "$voice" -t "$2" -o "$3"; fi
}
sidecar() { # file text intent-json slots-json voice
  printf '{"text": "%s", "intent": %s, "slots": %s, "voice": "%s"}\n' "$2" "$3" "$4" "$5" > "$1"
}

i=0
for entry in "${requests[@]}"; do
  IFS='|' read -r name text intent slots <<<"$entry"
  for offset in 0 4; do
    voice=${voices[$(( (i + offset) % ${#voices[@]} ))]}
    tag=$(echo "${voice#*:}" | tr -c 'a-z0-9\n' '-')
    speak "$voice" "$text" "$name.$tag.wav"
    sidecar "$name.$tag.json" "$text" "{\"name\": \"$intent\"}" "$slots" "$voice"
  done
  i=$((i + 1))
done

# The same request at the rates devices and files often use.
for rate in 8000 44100 48000; do
  sox what_time_is_it.en-us.wav -r $rate "what_time_is_it.en-us.$rate.wav"
  sidecar "what_time_is_it.en-us.$rate.json" "what time is it" '{"name": "GetTime"}' '{}' "espeak:en-us"
done
sox turn_on_the_bedroom_light.en-gb.wav -r 48000 -c 2 -b 24 turn_on_the_bedroom_light.en-gb.48000-stereo-24bit.wav
sidecar turn_on_the_bedroom_light.en-gb.48000-stereo-24bit.json "turn on the bedroom light" '{"name": "ChangeLightState"}' \
  '{"state": "on", "name": "bedroom light"}' "espeak:en-gb"

i=0
for entry in "${outside[@]}"; do
  IFS='|' read -r name text <<<"$entry"
  voice=${voices[$(( i * 2 % ${#voices[@]} ))]}
  tag=$(echo "${voice#*:}" | tr -c 'a-z0-9\n' '-')
  speak "$voice" "$text" "outside.$name.$tag.wav"
  sidecar "outside.$name.$tag.json" "$text" "null" "{}" "$voice"
  i=$((i + 1))
done
echo "made $(ls ./*.wav | wc -l) recordings"
