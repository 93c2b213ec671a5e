#!/usr/bin/env bash
# The relay's load curve (docs/relay.md, capacity plan): `cockpit-relay bench` against an in-memory relay, then
# against two relays sharing a throwaway PostgreSQL + PostGIS cluster. Not part of the tests (timing goals are
# benchmarks). Usage: Scripts/relay-bench.sh [BIN_DIR] ["memory N…"] ["postgres N…"]   (release build recommended)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release}
memory_counts=${2:-"5000 10000 20000 30000"}
postgres_counts=${3:-"2000 5000 8000"}
seconds=${SECONDS_PER_POINT:-10}
key=000102030405060708090a0b0c0d0e0f
work=$(mktemp -d /tmp/relay-bench-XXXXXX)
chmod 755 "$work"
echo "club $key" > "$work/keys"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -d "$work/pg" ]; then runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -n 200000 || true

echo "== in memory, one relay"
"$bin/cockpit-relay" --listen 127.0.0.1:4160 --device-keys "$work/keys" --status-interval 0 > "$work/relay.out" 2>&1 &
pid=$!; pids+=($pid); sleep 1
for n in $memory_counts; do
  echo "-- $n aircraft"
  "$bin/cockpit-relay" bench --relay 127.0.0.1:4160 --aircraft "$n" --seconds "$seconds" --key "$key" --pid "$pid"
done
kill "$pid"; wait "$pid" 2>/dev/null || true

echo "== two relays + PostgreSQL"
chown postgres "$work"
runuser -u postgres -- /usr/lib/postgresql/15/bin/initdb -D "$work/pg" -A trust -U postgres --no-sync > /dev/null
runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D "$work/pg" -l "$work/pg.log" -w \
  -o "-p 55432 -k $work -c listen_addresses=127.0.0.1" start > /dev/null
psql -h 127.0.0.1 -p 55432 -U postgres -qc "CREATE DATABASE relay"
url=postgres://postgres@127.0.0.1:55432/relay
"$bin/cockpit-relay" --listen 127.0.0.1:4161 --postgres $url --relay-name a --device-keys "$work/keys" --status-interval 0 > "$work/a.out" 2>&1 &
a=$!; pids+=($a); sleep 2
"$bin/cockpit-relay" --listen 127.0.0.1:4162 --postgres $url --relay-name b --status-interval 0 > "$work/b.out" 2>&1 &
b=$!; pids+=($b); sleep 2
postmaster=$(head -1 "$work/pg/postmaster.pid")
for n in $postgres_counts; do
  echo "-- $n aircraft"
  before=$(ps -o cputimes= --ppid "$postmaster" | awk '{s+=$1} END {print s+0}')
  "$bin/cockpit-relay" bench --relay 127.0.0.1:4161 --relay 127.0.0.1:4162 --aircraft "$n" --seconds "$seconds" --key "$key" --pid "$a" --pid "$b"
  after=$(ps -o cputimes= --ppid "$postmaster" | awk '{s+=$1} END {print s+0}')
  echo "cpu postgres (all backends): $(( (after - before) * 100 / (seconds + 4) )) % of one core (approx.)"
done
kill -TERM "$a" "$b"; wait "$a" "$b" 2>/dev/null || true
grep -h '^status' "$work/a.out" "$work/b.out" || true
