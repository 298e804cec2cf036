#!/usr/bin/env bash
# Makes a Debian bookworm base image without any image registry: debootstrap a minbase root
# filesystem from a Debian mirror, trim it the way debian:bookworm-slim is trimmed, and import it
# into Podman as localhost/debian:bookworm-minbase (or $1). Build Tributary's images on it with
# --build-arg BASE_IMAGE=localhost/debian:bookworm-minbase. Needs root, debootstrap and podman.
#
#   DEBIAN_MIRROR   default http://deb.debian.org/debian
set -euo pipefail

image=${1:-localhost/debian:bookworm-minbase}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
rootfs=$(mktemp -d /var/tmp/debian-base.XXXXXX)
chmod 0755 "$rootfs" # it becomes the image's /
trap 'umount "$rootfs/proc" 2>/dev/null || true; rm -rf --one-file-system "$rootfs"' EXIT

debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >&2

# Security and point-release updates, as in the official images.
rm -f "$rootfs/etc/apt/sources.list"
cat > "$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF

# Like debian:bookworm-slim: packages installed later leave out documentation and translations too
# (copyright files stay), and services are not started during image builds.
cat > "$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
printf '#!/bin/sh\nexit 101\n' > "$rootfs/usr/sbin/policy-rc.d"
chmod 0755 "$rootfs/usr/sbin/policy-rc.d"
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
mount -t proc proc "$rootfs/proc"
chroot "$rootfs" apt-get update >&2
DEBIAN_FRONTEND=noninteractive chroot "$rootfs" apt-get -y upgrade >&2
chroot "$rootfs" apt-get clean
umount "$rootfs/proc"
: > "$rootfs/etc/resolv.conf"
find "$rootfs/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete
find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log "$rootfs"/var/cache/debconf/*-old
find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +

tar --numeric-owner -C "$rootfs" -c . | podman import --change 'CMD ["/bin/bash"]' - "$image" >&2
echo "$image"
