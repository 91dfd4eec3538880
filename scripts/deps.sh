#!/bin/sh
# Installs the Debian packages swerve needs when any is missing (run by `make demo` and
# `make test`).  Uses sudo when not root.  Does nothing when everything is present.
set -eu
PKGS="build-essential pkg-config libgsl-dev libxml2-dev check libsleef-dev libcairo2-dev libopenmpi-dev openmpi-bin"
missing=""
# Optional tools named as arguments (`sh scripts/deps.sh valgrind clang`, used by `make valgrind`
# and `make fuzz`): each is a command and a Debian package of the same name.
for tool in "$@"; do
	command -v "$tool" >/dev/null 2>&1 || { PKGS="$PKGS $tool"; missing="yes"; }
done
command -v cc >/dev/null 2>&1 || missing="yes"
command -v pkg-config >/dev/null 2>&1 || missing="yes"
if [ -z "$missing" ]; then
	pkg-config --exists gsl libxml-2.0 check sleef cairo ompi-c 2>/dev/null || missing="yes"
	command -v mpirun >/dev/null 2>&1 || missing="yes"
fi
[ -z "$missing" ] && exit 0
echo "swerve: installing missing packages: $PKGS" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
		echo "swerve: not root and no sudo; please install: $PKGS" >&2; exit 1; fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $PKGS >/dev/null
