#!/bin/sh
# Requests that say free text inside a phrase, spoken by flite voices (Debian's flite and sox).
set -e
cd "$(dirname "$0")"
say() { # voice name text
    flite -voice "$1" -t "$3" -o /tmp/free-text-$$.wav
    sox /tmp/free-text-$$.wav -r 16000 -c 1 -b 16 "$2.$1.wav"
    rm -f /tmp/free-text-$$.wav
    printf '{"text": "%s", "voice": "flite:%s"}\n' "$3" "$1" > "$2.$1.json"
}
say rms put_bread_on_my_shopping_list "put bread on my shopping list"
say slt add_paper_towels_to_my_shopping_list "add paper towels to my shopping list"
say rms play_the_beatles_in_the_living_room "play the beatles in the living room"
say rms announce_dinner_is_ready "announce dinner is ready"
