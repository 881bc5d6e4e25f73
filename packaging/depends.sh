#!/usr/bin/env bash
# Prints the Depends field for a hark binary: the shared libraries it links, each with the
# lowest version Debian's symbols files allow (dpkg-shlibdeps), and the packages it uses at run
# time without linking them, each at least the version it was built and tested against. A
# package without a version would let apt pair Hark with a library too old for it.
#
#   packaging/depends.sh BINARY
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 BINARY (an executable hark)" >&2
  exit 64
fi
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
printf 'Source: hark\n\nPackage: hark\nArchitecture: any\n' > "$work/debian/control"
# Warnings about the build tree's layout go to its log; a real failure stops the script.
if ! shlibs=$(cd "$work" && dpkg-shlibdeps -O -e "$binary" 2>"$work/log"); then
  cat "$work/log" >&2
  exit 1
fi
shlibs=${shlibs#shlibs:Depends=}

# "Package (>= upstream version)" of what is installed here, the Debian revision left off.
at_least() {
  local installed
  if ! installed=$(dpkg-query -W -f='${Version}' "$1" 2>/dev/null) || [ -z "$installed" ]; then
    echo "$0: $1 is not installed; install it before packaging" >&2
    exit 1
  fi
  installed=${installed#*:}
  echo "$1 (>= ${installed%-*})"
}

entries=()
IFS=',' read -ra linked <<< "$shlibs"
for entry in "${linked[@]}"; do
  entry=$(echo "$entry" | xargs)
  [ -z "$entry" ] && continue
  # A library with no symbols file comes without a version: take the one built against.
  if [[ $entry == *"("* ]]; then entries+=("$entry"); else entries+=("$(at_least "$entry")"); fi
done
for package in pocketsphinx-en-us espeak-ng-data libasound2-plugins python3 adduser; do
  entries+=("$(at_least "$package")")
done
(IFS=','; echo "${entries[*]}" | sed 's/,/, /g')
