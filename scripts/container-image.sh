#!/usr/bin/env bash
# Builds the local test image for the container sandbox from Debian's packages, without any image registry.
#
# Usage: bash scripts/container-image.sh            (prints the image name as its last line, on stdout)
# Env:   VERIFIED_FIX_IMAGE  image name (default localhost/verified-fix-test:1)
#        VERIFIED_FIX_CACHE  cache folder for the rootfs tarball and containers.conf (default ~/.cache/verified-fix)
#        VERIFIED_FIX_PACKAGES  packages in the image (default nodejs,python3,python3-pytest)
set -euo pipefail

image="${VERIFIED_FIX_IMAGE:-localhost/verified-fix-test:1}"
cache="${VERIFIED_FIX_CACHE:-${HOME:-/root}/.cache/verified-fix}"
packages="${VERIFIED_FIX_PACKAGES:-nodejs,python3,python3-pytest}"
say() { printf 'container-image: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

mkdir -p "$cache"
# Podman's stock settings fail on these machines: root cannot raise RLIMIT_NOFILE to the 1048576 podman asks
# for, and crun refuses cgroup v1/v2 "hybrid" hosts. Our own file fixes both without touching /etc.
conf="$cache/containers.conf"
cat > "$conf.tmp" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
mv "$conf.tmp" "$conf"
export CONTAINERS_CONF="$conf"

# Two CI jobs on one machine must not build the same tarball at once.
exec 9>"$cache/build.lock"
flock 9

missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
# Rootless podman and mmdebstrap's unshare mode map subordinate ids; root needs neither.
if [ "$(id -u)" != 0 ] && ! command -v newuidmap >/dev/null; then missing+=(uidmap); fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing ${missing[*]} from the distribution's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2 || say "apt-get update failed; trying the package lists already here"
    # With recommends: podman's bring catatonit (for --init) and mmdebstrap's gpg and mount, both needed here.
    apt-get install -y -q "${missing[@]}" >&2
  else
    die "missing ${missing[*]}: install them (Debian/Ubuntu: sudo apt-get install ${missing[*]}) and run this again"
  fi
fi

if podman image exists "$image"; then
  say "$image already exists"
  printf '%s\n' "$image"
  exit 0
fi

# The rootfs is cached by suite and package list, so a changed list builds a new one.
suite="$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")"
suite="${suite:-bookworm}"
key="$(printf '%s %s' "$suite" "$packages" | sha256sum | cut -c1-12)"
tarball="$cache/rootfs-$suite-$key.tar"
if [ ! -s "$tarball" ]; then
  # Reuse apt's own mirror configuration (proxies and snapshot mirrors included) rather than guessing a mirror.
  mirror=()
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    mirror=(/etc/apt/sources.list.d/debian.sources)
  elif [ -s /etc/apt/sources.list ]; then
    mirror=(/etc/apt/sources.list)
  fi
  say "building the rootfs ($suite: $packages); this takes several minutes"
  start=$SECONDS
  # The image never runs apt: its sources are removed so it does not carry the host's mirror settings.
  # An interrupted build leaves a partial file (or folder) behind; --format because the name does not end in .tar.
  rm -rf "$tarball.partial"
  trap 'rm -rf "$tarball.partial"' EXIT
  mmdebstrap --variant=minbase --format=tar --include="$packages" \
    --customize-hook='rm -f "$1"/etc/apt/sources.list "$1"/etc/apt/sources.list.d/*' \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
    "$suite" "$tarball.partial" "${mirror[@]}" >&2
  mv "$tarball.partial" "$tarball"
  trap - EXIT
  say "rootfs built in $((SECONDS - start)) s: $(du -h "$tarball" | cut -f1)"
fi

# podman import keeps no environment: without PATH, programs are found only by full path (kube play fails).
podman import \
  --change 'ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD=["/bin/bash"]' \
  --change 'LABEL=verified-fix.image=1' \
  "$tarball" "$image" >&2
podman run --rm --network=none "$image" sh -c 'node --version && python3 -m pytest --version' >&2 \
  || die "the image was imported but a container does not run; see the error above"
say "built $image ($(podman image inspect --format '{{.Size}}' "$image") bytes)"
# Verified Fix finds (and passes as flags) what podman needs on this machine; a person running podman by hand does not.
say "to run podman by hand with the settings used here: export CONTAINERS_CONF=$conf"
printf '%s\n' "$image"
