#!/usr/bin/env bash
# Checks that a hark binary runs without the Swift toolchain: every shared library it loads must
# resolve, and from the system's own folders (Debian's packages), never from the toolchain's.
#
#   packaging/check-binary.sh .build/release/hark
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 HARK_BINARY (an executable file)" >&2
  exit 64
fi
binary=$1
libraries=$(ldd "$binary")
status=0
while read -r line; do
  case "$line" in
    *"not found"*)
      echo "missing library: $line" >&2; status=1 ;;
    *"=> /lib/"* | *"=> /usr/lib/"* | "linux-vdso"* | "/lib64/"* | "/lib/"*)
      ;;
    *"=>"*)
      echo "library outside the system's folders: $line" >&2; status=1 ;;
  esac
done <<< "$libraries"
if [ $status -ne 0 ]; then
  echo "$binary needs libraries a speaker without the Swift toolchain does not have" >&2
  exit 1
fi
count=$(grep -c "=>" <<< "$libraries" || true)
echo "$binary: all $count shared libraries come from the system's folders"
