#!/usr/bin/env bash
# The load figures of docs/PERFORMANCE.md ("Three nodes on one PostgreSQL"):
# the same `dalmuti loadtest` against one SQLite server, one PostgreSQL node
# and three PostgreSQL nodes, one after the other, each report on standard
# output with the nodes' CPU and memory and how many tables each leased.
#
#     cargo build --release -p dalmuti
#     eval "$(bash .ci/postgres start "$(mktemp -d /tmp/pg.XXXXXX)" 54331)"
#     SEATS=10000 THINK=1000 DUR=30 bash deploy/load-nodes.sh
#
# Needs DALMUTI_TEST_DATABASE_URL (a database the user may create others
# next to: `.ci/postgres` gives one); makes databases load1 and load3 there.
# The nodes listen on 127.0.0.1:18441-18443.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bin=target/release/dalmuti
seats=${SEATS:-10000} think=${THINK:-1000} duration=${DUR:-30}
url=${DALMUTI_TEST_DATABASE_URL:?set it: see the top of this script}
base=${url%/*}
ulimit -n "$(ulimit -Hn)"
flags=(--bot-delay 0 --hand-pause 0 --grace 3600 --max-connections 11000
    --max-tables 2100 --max-per-address 11000 --tables-per-address 2100)
load=(--seats "$seats" --duration "$duration" --think-ms "$think")

echo "== SQLite, one node"
"$bin" loadtest "${load[@]}" 2>/dev/null
for nodes in 1 3; do
    psql "$url" -qc "DROP DATABASE IF EXISTS load$nodes" -c "CREATE DATABASE load$nodes"
    pids=() addrs=()
    for i in $(seq 1 "$nodes"); do
        "$bin" serve --addr "127.0.0.1:1844$i" --data "$base/load$nodes" --node-id "n$i" \
            "${flags[@]}" 2>/dev/null &
        pids+=($!) addrs+=(--addr "127.0.0.1:1844$i")
    done
    sleep 3
    echo "== PostgreSQL, $nodes node(s)"
    "$bin" loadtest "${addrs[@]}" "${load[@]}" 2>/dev/null || true
    for p in "${pids[@]}"; do
        echo "node pid $p: cpu $(ps -o times= -p "$p") s, rss $(ps -o rss= -p "$p") KiB"
    done
    echo "tables leased per node:"
    psql "$base/load$nodes" -Atc "SELECT node, count(*) FROM leases GROUP BY node ORDER BY node"
    kill -TERM "${pids[@]}"
    wait "${pids[@]}" 2>/dev/null || true
done
