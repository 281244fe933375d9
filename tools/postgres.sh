#!/usr/bin/env bash
# A throwaway PostgreSQL server for the card room's tests and benches, on 127.0.0.1 only.
#
#   tools/postgres.sh start [--fast]   prints two lines: the DSN, then the cluster's folder
#   tools/postgres.sh stop DIR         stops that cluster and deletes its folder
#
# Installs Debian's postgresql package with apt-get when its binaries are missing. PostgreSQL
# refuses to run as root, so as root the cluster belongs to the 'postgres' system user (made by
# the package). --fast turns fsync off: for tests, never for figures that claim durability.
set -euo pipefail

find_bin() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [[ -n "$dir" && -x "$dir/initdb" ]]; then echo "$dir"; fi
}

install_postgres() {
    if [[ $(id -u) -ne 0 ]]; then
        echo "PostgreSQL is not installed: run 'sudo apt-get install -y postgresql' (Debian)" >&2
        exit 1
    fi
    echo "installing Debian's postgresql package..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
}

as_owner() {
    if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
    local fast=0
    [[ "${1:-}" == "--fast" ]] && fast=1
    local bin
    bin=$(find_bin)
    if [[ -z "$bin" ]]; then
        install_postgres
        bin=$(find_bin)
    fi
    if [[ -z "$bin" ]]; then
        echo "no PostgreSQL binaries under /usr/lib/postgresql after installing" >&2
        exit 1
    fi
    local dir port
    dir=$(mktemp -d -t croupier-pg.XXXXXX)
    chmod 755 "$dir"
    if [[ $(id -u) -eq 0 ]]; then
        id postgres >/dev/null 2>&1 || useradd --system --home "$dir" postgres
        chown postgres "$dir"
    fi
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -U croupier -A trust -E UTF8 --no-sync >/dev/null
    local options="-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200"
    if [[ $fast -eq 1 ]]; then options="$options -c fsync=off -c synchronous_commit=off"; fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "$options" -w -t 60 start >/dev/null
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U croupier croupier
    echo "postgresql://croupier@127.0.0.1:$port/croupier"
    echo "$dir"
}

stop() {
    local dir="${1:?usage: tools/postgres.sh stop DIR}"
    local bin
    bin=$(find_bin)
    if [[ -d "$dir/data" && -n "$bin" ]]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    case "$dir" in
        */croupier-pg.*) rm -rf "$dir" ;;
        *) echo "not a cluster folder made by this script: $dir" >&2; exit 1 ;;
    esac
}

case "${1:-}" in
    start) shift; start "$@" ;;
    stop) shift; stop "$@" ;;
    *) echo "usage: tools/postgres.sh start [--fast] | stop DIR" >&2; exit 2 ;;
esac
