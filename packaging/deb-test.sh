#!/usr/bin/env bash
# Installs hark's .deb on a clean Debian 12 made with debootstrap, as on a speaker: installs it
# with apt-get (dependencies from the archive), runs it as the hark user, upgrades it to a second
# build and checks the owner's shortcut and settings survived, then removes and purges it.
#
#   packaging/deb-test.sh FIRST.deb SECOND.deb     (make deb-test builds both and runs it)
#
# Needs root, debootstrap and the Debian archive (MIRROR, default deb.debian.org). The clean
# system is made once into DEB_TEST_CACHE (a tarball) and unpacked fresh for every run.
set -euo pipefail

if [ $# -ne 2 ] || [ ! -f "$1" ] || [ ! -f "$2" ]; then
  echo "usage: $0 FIRST.deb SECOND.deb" >&2
  exit 64
fi
first=$(realpath "$1")
second=$(realpath "$2")
repo=$(cd "$(dirname "$0")/.." && pwd)
mirror=${MIRROR:-http://deb.debian.org/debian}
cache=${DEB_TEST_CACHE:-/var/tmp/hark-deb-test-bookworm.tar}
root=$(mktemp -d /var/tmp/hark-deb-test.XXXXXX)
chmod 755 "$root"   # the system's / : the hark user must reach it
cleanup() {
  for mount in proc dev/pts dev; do umount "$root/$mount" 2>/dev/null || true; done
  rm -rf "$root"
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
inside() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }
as_hark() { chroot --userspec=hark:hark "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/var/lib/hark "$@"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

if [ ! -f "$cache" ]; then
  step "making a clean Debian 12 (debootstrap, once; cached in $cache)"
  command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
  tar -C "$root" -cf "$cache" .
  rm -rf "$root" && mkdir -m 755 "$root"
fi
step "unpacking the clean system"
tar -C "$root" -xf "$cache"
chmod 755 "$root"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount -t devpts devpts "$root/dev/pts" 2>/dev/null || true
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$first" "$root/tmp/first.deb"
cp "$second" "$root/tmp/second.deb"
cp "$repo/audio-fixtures/home-en/what_time_is_it.wav" "$root/tmp/what_time_is_it.wav"

step "apt-get install ./$(basename "$first")"
inside apt-get update -qq
started=$(date +%s.%N)
inside apt-get install -y -qq /tmp/first.deb >/dev/null
installed=$(date +%s.%N)
inside hark --version
[ -L "$root/etc/systemd/system/multi-user.target.wants/hark.service" ] || fail "the service is not enabled for boot"
getent_user=$(inside getent passwd hark) || fail "no hark user"
echo "user: $getent_user"
inside id -nG hark | grep -qw audio || fail "hark is not in the audio group"

step "hark run, as the hark user"
as_hark hark run /tmp/what_time_is_it.wav --reply-out /tmp/reply.wav | tee "$root/tmp/run.txt"
answered=$(date +%s.%N)
awk -v s="$started" -v i="$installed" -v a="$answered" \
  'BEGIN { printf "apt-get install (dependencies from the archive included): %.1f s; then hark run to its answer: %.2f s\n", i - s, a - i }'
grep -q 'intent:     home.GetTime' "$root/tmp/run.txt" || fail "the request was not understood"
[ -s "$root/tmp/reply.wav" ] || fail "no reply was written"

step "the owner's shortcut, settings and app before the upgrade"
as_hark hark shortcuts add "tea time" --intent home.GetTime
sed -i 's/^#rate: 170$/rate: 150/' "$root/etc/hark/hark.yaml"
grep -q '^rate: 150$' "$root/etc/hark/hark.yaml" || fail "could not change the settings file"
mkdir -p "$root/etc/hark/apps/lamp"
printf 'name: Lamp\nintents:\n  LampOn:\n    phrases: [switch the reading lamp on]\n    responses: {success: ok}\n' \
  > "$root/etc/hark/apps/lamp/app.yaml"

step "upgrade: apt-get install ./$(basename "$second")"
inside apt-get install -y -qq /tmp/second.deb >/dev/null
inside dpkg-query -W hark
as_hark hark shortcuts list | tee "$root/tmp/list.txt"
grep -q 'tea time' "$root/tmp/list.txt" || fail "the shortcut did not survive the upgrade"
grep -q '^rate: 150$' "$root/etc/hark/hark.yaml" || fail "the settings file was replaced by the upgrade"
as_hark hark apps check | tee "$root/tmp/apps.txt"
grep -q 'lamp (Lamp)' "$root/tmp/apps.txt" || fail "the owner's app is not loaded after the upgrade"

step "apt-get remove hark: the owner's data stays"
inside apt-get remove -y -qq hark >/dev/null
[ ! -e "$root/usr/bin/hark" ] || fail "the binary is still there"
ls "$root/var/lib/hark/.local/share/hark/shortcuts.sqlite" || fail "the shortcuts were removed with the package"
[ -f "$root/etc/hark/apps/lamp/app.yaml" ] || fail "the owner's app was removed with the package"

step "apt-get purge hark: everything goes"
inside apt-get purge -y -qq hark >/dev/null
[ ! -e "$root/var/lib/hark" ] || fail "/var/lib/hark is still there after purge"
[ ! -e "$root/etc/hark" ] || fail "/etc/hark is still there after purge"
! inside getent passwd hark >/dev/null || fail "the hark user is still there after purge"

step "passed"
