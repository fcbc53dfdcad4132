#!/bin/sh
# deps.sh: make sure the libraries and tools sbledger builds with are here.
# On Debian as root it installs what is missing with apt-get; elsewhere it
# prints exactly what to install and fails.
set -u
pkgs=""
need() { # need PKG-CONFIG-NAME DEBIAN-PACKAGE
	pkg-config --exists "$1" 2>/dev/null || pkgs="$pkgs $2"
}
command -v pkg-config >/dev/null 2>&1 || pkgs="$pkgs pkg-config"
command -v cc >/dev/null 2>&1 || pkgs="$pkgs gcc"
command -v python3 >/dev/null 2>&1 || pkgs="$pkgs python3"
command -v sqlite3 >/dev/null 2>&1 || pkgs="$pkgs sqlite3"
command -v openssl >/dev/null 2>&1 || pkgs="$pkgs openssl"
[ -x /usr/bin/time ] || pkgs="$pkgs time"
command -v valgrind >/dev/null 2>&1 || pkgs="$pkgs valgrind"
command -v clang >/dev/null 2>&1 || pkgs="$pkgs clang"
need sqlite3 libsqlite3-dev
need jansson libjansson-dev
need libcurl libcurl4-openssl-dev
need libcrypto libssl-dev
need zlib zlib1g-dev
need cmocka libcmocka-dev
# Optional: headless Chromium, with which tests/html/render.sh renders the
# HTML pages; that test is skipped, saying so, where it cannot be had.
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing chromium (optional: the HTML rendering test)" >&2
	if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
	       DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >&2; then
		echo "deps: chromium could not be installed; tests/html/render.sh will be skipped" >&2
	fi
fi
[ -z "$pkgs" ] && exit 0

echo "deps: missing Debian packages:$pkgs" >&2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing them with apt-get" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 && apt-get install -y -qq $pkgs >&2 && exit 0
	echo "deps: apt-get failed; install by hand: apt-get install$pkgs" >&2
	exit 1
fi
echo "deps: install them, e.g. 'sudo apt-get install$pkgs'" >&2
echo "deps: (elsewhere: SQLite 3, jansson, libcurl with OpenSSL, libcrypto, zlib, cmocka, pkg-config)" >&2
exit 1
