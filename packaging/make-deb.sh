#!/usr/bin/env bash
# Builds hark_VERSION_ARCH.deb from an installed tree: the release binary (the Swift runtime
# inside it), the bundled apps and models under /usr/share/hark, the settings file as a conffile,
# the systemd unit, and maintainer scripts that make the hark user, enable the service, and keep
# the owner's data (/var/lib/hark: shortcuts, PIN, apps' data; /etc/hark/apps) until purge.
#
#   packaging/make-deb.sh VERSION OUT_DIR        (make deb runs it; needs the release build)
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 VERSION OUT_DIR" >&2
  exit 64
fi
version=$1
out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
arch=$(dpkg --print-architecture)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The installed tree, as `make install` lays it out with PREFIX=/usr.
make -C "$repo" --no-print-directory install DESTDIR="$stage/root" PREFIX=/usr SYSTEMD_DIR=/lib/systemd/system >/dev/null
root=$stage/root
strip --strip-unneeded "$root/usr/bin/hark"
depends=$("$repo/packaging/depends.sh" "$root/usr/bin/hark")
install -d "$root/usr/share/doc/hark" "$root/usr/share/man/man1"
# The manual page is the command's own help.
help2man --no-info --name "offline voice front end: wake word, requests, spoken replies" "$root/usr/bin/hark" \
  | gzip -9n > "$root/usr/share/man/man1/hark.1.gz"
mv "$root/usr/share/hark/README.md" "$root/usr/share/doc/hark/README.md"
ln -s ../../doc/hark/README.md "$root/usr/share/hark/README.md"
# The README links to docs/ beside it: both go to the package's documentation folder.
mv "$root/usr/share/hark/docs" "$root/usr/share/doc/hark/docs"
cat > "$root/usr/share/doc/hark/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: hark

Files: *
Copyright: 2026 the Hark developers
License: MIT

License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a copy of this software
 and associated documentation files (the "Software"), to deal in the Software without
 restriction, including without limitation the rights to use, copy, modify, merge, publish,
 distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
 Software is furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in all copies or
 substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
EOF
printf 'hark (%s) stable; urgency=medium\n\n  * Release %s.\n\n -- Hark developers <hark@localhost>  %s\n' \
  "$version" "$version" "$(date -R)" | gzip -9n > "$root/usr/share/doc/hark/changelog.gz"

install -d "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: hark
Version: $version
Architecture: $arch
Maintainer: Hark developers <hark@localhost>
Installed-Size: $size
Depends: $depends
Section: sound
Priority: optional
Homepage: https://localhost/hark
Description: offline voice front end: wake word, requests, spoken replies
 Hark hears its wake word, recognises requests offline against the phrases
 the installed apps declare (pocketsphinx), runs the conversation (follow-up
 questions, confirmations, a PIN for orders, shortcuts) and answers in speech
 (espeak-ng, ALSA). No network, no cloud key. Runs as the hark service.
EOF
echo "/etc/hark/hark.yaml" > "$root/DEBIAN/conffiles"

cat > "$root/DEBIAN/postinst" <<'EOF'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    install -d -m 750 /var/lib/hark
    if ! getent passwd hark >/dev/null; then
        adduser --system --group --home /var/lib/hark --no-create-home --shell /usr/sbin/nologin \
            --gecos "Hark voice front end" hark >/dev/null
    fi
    adduser hark audio >/dev/null
    chown hark:hark /var/lib/hark
    # Enabled for every boot, with or without systemd running now (a chroot, an image being built).
    deb-systemd-helper enable hark.service >/dev/null
    if [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        deb-systemd-invoke restart hark.service || echo "hark: the service did not start; see journalctl -u hark" >&2
    fi
fi
exit 0
EOF
cat > "$root/DEBIAN/prerm" <<'EOF'
#!/bin/sh
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    deb-systemd-invoke stop hark.service >/dev/null || true
fi
exit 0
EOF
cat > "$root/DEBIAN/postrm" <<'EOF'
#!/bin/sh
set -e
case "$1" in
    remove)
        if [ -d /run/systemd/system ]; then systemctl --system daemon-reload >/dev/null || true; fi
        ;;
    purge)
        # The owner's shortcuts, PIN, apps' data and own apps go only with a purge.
        deb-systemd-helper purge hark.service >/dev/null || true
        rm -rf /var/lib/hark /etc/hark/apps
        rmdir /etc/hark 2>/dev/null || true
        if getent passwd hark >/dev/null; then deluser --quiet --system hark >/dev/null || true; fi
        if getent group hark >/dev/null; then delgroup --quiet --system hark >/dev/null || true; fi
        ;;
esac
exit 0
EOF
chmod 755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"

mkdir -p "$out"
deb="$out/hark_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$root" "$deb" >/dev/null
echo "$deb ($(du -h "$deb" | cut -f1))"
