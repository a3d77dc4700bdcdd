#!/usr/bin/env bash
# The README's set-up commands, run as written on a fresh Debian that has only python3 and git.
#
#   sudo bash .ci/fresh_debian.sh [BRANCH]      (default: the branch checked out here)
#
# Builds a minimal Debian (debootstrap, cached as a tarball under $WORK), unpacks a fresh copy, installs
# python3 and git with apt as a user would, clones BRANCH of this repository into it as an ordinary
# user, and runs each command of the README's "Set up" block in the clone; then builds the sdist and
# wheel there and installs each into a fresh virtual environment.  Exits non-zero if any step fails.
# Needs root, debootstrap and access to Debian's and Python's package archives; takes about ten
# minutes, so CI does not run it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BRANCH=${1:-$(git -C "$ROOT" rev-parse --abbrev-ref HEAD)}
SUITE=${SUITE:-bookworm}
WORK=${WORK:-/tmp/fresh-debian}
BASE="$WORK/base-$SUITE.tar"
TARGET="$WORK/root"

[ "$(id -u)" = 0 ] || { echo "fresh_debian: run as root (debootstrap and chroot need it)" >&2; exit 1; }
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
mkdir -p "$WORK"

if [ ! -f "$BASE" ]; then
    echo "== debootstrap $SUITE (minbase), cached in $BASE"
    rm -rf "$WORK/base"
    debootstrap --variant=minbase "$SUITE" "$WORK/base" >"$WORK/debootstrap.log" 2>&1
    tar -C "$WORK/base" -cf "$BASE" .
    rm -rf "$WORK/base"
fi

cleanup() {
    for mount in dev/shm dev/pts dev proc; do
        mountpoint -q "$TARGET/$mount" && umount -l "$TARGET/$mount"
    done
    return 0
}
trap cleanup EXIT
cleanup
rm -rf --one-file-system "$TARGET" && mkdir -p "$TARGET"  # never into a mount left behind
tar -C "$TARGET" -xf "$BASE"
mount -t proc proc "$TARGET/proc"
mount --bind /dev "$TARGET/dev"
mount -t devpts devpts "$TARGET/dev/pts"
mount -t tmpfs tmpfs "$TARGET/dev/shm"
cp /etc/resolv.conf "$TARGET/etc/resolv.conf"
git -C "$ROOT" bundle create "$TARGET/tmp/repo.bundle" "$BRANCH" 2>/dev/null
chmod 644 "$TARGET/tmp/repo.bundle"

in_root() { chroot "$TARGET" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
as_user() { in_root su - user -c "$1"; }

echo "== apt-get install python3 git"
in_root sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 git' >"$WORK/apt.log" 2>&1

# A machine on this network trusts what this host trusts: its local CA certificates (a TLS proxy's,
# for instance) and /etc/pip.conf, if it has them, are carried over. Nothing else is.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$TARGET/usr/local/share/ca-certificates/"
    in_root update-ca-certificates >/dev/null 2>&1
fi
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$TARGET/etc/pip.conf"
in_root useradd --create-home --shell /bin/bash user
echo "python3: $(in_root python3 --version); git: $(in_root git --version)"
echo "python (unversioned): $(in_root sh -c 'command -v python || echo absent')"
echo "python3 -m venv has pip: $(in_root python3 -c 'import ensurepip' >/dev/null 2>&1 && echo yes || echo no)"

echo "== git clone (branch $BRANCH)"
as_user "git clone --quiet --branch '$BRANCH' /tmp/repo.bundle project && git -C project log -1 --format='%h %<(72,trunc)%s'"

# The README's "Set up" block: every line of its first fenced block that is not a comment.
mapfile -t COMMANDS < <(awk '/^## Set up/{on=1} on&&/^```/{n++; next} on&&n==1&&!/^#/&&NF' "$ROOT/README.md")
[ ${#COMMANDS[@]} -ge 2 ] || { echo "fresh_debian: no set-up commands found in README.md" >&2; exit 1; }

status=0
for command in "${COMMANDS[@]}"; do
    echo "== \$ $command"
    started=$SECONDS
    if as_user "cd project && $command" >"$WORK/command.log" 2>&1; then result=passed; else result=FAILED; status=1; fi
    grep -v "^SKIPPED" "$WORK/command.log" | tail -n 25
    echo "== $result in $((SECONDS - started)) s: $command"
done

# The distribution: sdist and wheel built, checked by twine, and each installed into a fresh
# virtual environment of its own, whose command then cleans the bundled saved pages.
echo "== python -m build; twine check; each of wheel and sdist installed in a fresh venv"
distribution_check='set -e
rm -rf dist && .venv/bin/python -m build --outdir dist . >/dev/null 2>&1
.venv/bin/python -m twine check --strict dist/*
for file in dist/*.whl dist/*.tar.gz; do
    rm -rf /tmp/fresh-venv && python3 -m venv --without-pip /tmp/fresh-venv
    .venv/bin/python -m pip --python /tmp/fresh-venv/bin/python install --quiet --quiet "$file"
    echo "$(basename "$file"): $(/tmp/fresh-venv/bin/scrapy-boilerplate extract --model style_tree example_project/saved_pages /tmp/out)"
done'
if as_user "cd project && $distribution_check" >"$WORK/command.log" 2>&1; then result=passed; else result=FAILED; status=1; fi
tail -n 25 "$WORK/command.log"
echo "== $result: the distribution"
exit $status
