#!/usr/bin/env bash
# deploy/compose.yaml without Docker: the same deploy/nginx.conf in front of
# three `dalmuti serve` nodes on one private PostgreSQL, all on loopback,
# then the browser test of failover through it (e2e/cluster.mjs).
#
#     cargo build --release -p dalmuti && npm ci --prefix e2e
#     bash deploy/test-local.sh            # runs e2e/cluster.mjs, exit 0 or 1
#     bash deploy/test-local.sh --serve    # only starts everything: play at
#                                          # the printed address; Ctrl-C stops
#
# Ports (DALMUTI_DEPLOY_PORT, default 18500): the load balancer on PORT,
# node-1..3 on PORT+1..PORT+3, PostgreSQL on PORT+9, all on 127.0.0.1.
# Needs nginx (Debian's `nginx` package), PostgreSQL's server (`postgresql`,
# for .ci/postgres), Node.js and Chromium as the other e2e tests; run as
# root (CI) or not. Everything it starts runs in temporary folders under
# /tmp and is stopped, and the folders removed, however it exits (set
# DALMUTI_DEPLOY_KEEP=1 to keep the logs).
#
# The nginx configuration is rendered from deploy/nginx.conf by one sed
# step (see `render` below): each `node-N:8080` (compose's service names)
# becomes 127.0.0.1:PORT+N and `listen 8080` becomes the local port. The
# nodes run as compose.yaml runs them, with --public-url
# http://127.0.0.1:PORT/n/node-N, and --lease-seconds 2 so that a killed
# node's tables are taken over in seconds (DALMUTI_DEPLOY_LEASE to change
# it; the server's default is 10).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

mode=test
case ${1:-} in
'') ;;
--serve) mode=serve ;;
*)
    echo "usage: $0 [--serve]" >&2
    exit 2
    ;;
esac

base=${DALMUTI_DEPLOY_PORT:-18500}
lb_port=$base
pg_port=$((base + 9))
bin=${DALMUTI_BIN:-$root/target/release/dalmuti}
lease=${DALMUTI_DEPLOY_LEASE:-2}

[[ -x $bin ]] || { echo "error: no server binary at $bin: run cargo build --release -p dalmuti" >&2; exit 1; }
nginx_bin=$(command -v nginx || true)
[[ -n $nginx_bin ]] || nginx_bin=/usr/sbin/nginx
[[ -x $nginx_bin ]] || { echo "error: nginx not found: apt-get install -y nginx" >&2; exit 1; }

# Logs, the nginx prefix and the nodes' pid files. Readable by nginx's
# workers (which run as `nobody` when nginx starts as root).
work=$(mktemp -d /tmp/dalmuti-deploy.XXXXXX)
chmod 755 "$work"
# PostgreSQL's own folder (.ci/postgres hands it to the `postgres` user as root).
pg_dir=$(mktemp -d /tmp/dalmuti-deploy-pg.XXXXXX)

node_pids=()
nginx_pid=
cleanup() {
    local status=$?
    set +e
    if [[ -n $nginx_pid ]] && kill -0 "$nginx_pid" 2>/dev/null; then
        kill -TERM "$nginx_pid"
        wait "$nginx_pid" 2>/dev/null
    fi
    for pid in "${node_pids[@]}"; do
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
        wait "$pid" 2>/dev/null
    done
    bash .ci/postgres stop "$pg_dir" >/dev/null 2>&1
    rm -rf "$pg_dir"
    if [[ ${DALMUTI_DEPLOY_KEEP:-} == 1 ]]; then
        echo "[deploy] logs kept in $work" >&2
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say() { echo "[deploy] $*" >&2; }

say "PostgreSQL on 127.0.0.1:$pg_port ($pg_dir)"
eval "$(bash .ci/postgres start "$pg_dir" "$pg_port" 2>"$work/postgres-start.log")" || {
    cat "$work/postgres-start.log" >&2
    exit 1
}
db_url=$DALMUTI_TEST_DATABASE_URL

# The one template, for loopback. A node name or listen line this does not
# find means nginx.conf changed form: fail rather than run something else.
render() {
    sed -e "s/\bnode-1:8080\b/127.0.0.1:$((base + 1))/" \
        -e "s/\bnode-2:8080\b/127.0.0.1:$((base + 2))/" \
        -e "s/\bnode-3:8080\b/127.0.0.1:$((base + 3))/" \
        -e "s/^\(\s*\)listen 8080;/\1listen 127.0.0.1:$lb_port;/" \
        deploy/nginx.conf
}
mkdir -p "$work/nginx"
render >"$work/nginx/dalmuti.conf"
if grep -Eq 'node-[0-9]+:8080|listen 8080;' "$work/nginx/dalmuti.conf" ||
    ! grep -q "listen 127.0.0.1:$lb_port;" "$work/nginx/dalmuti.conf"; then
    echo "error: deploy/nginx.conf no longer has the node-N:8080 and 'listen 8080;' forms this script renders" >&2
    exit 1
fi
# What the nginx image's main configuration gives the server block, here
# with every file nginx writes in $work (no root needed).
cat >"$work/nginx/nginx.conf" <<EOF
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log notice;
daemon off;
events { worker_connections 1024; }
http {
    access_log $work/nginx/access.log;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    include $work/nginx/dalmuti.conf;
}
EOF
"$nginx_bin" -t -q -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf"

for n in 1 2 3; do
    port=$((base + n))
    "$bin" serve --addr "127.0.0.1:$port" --data "$db_url" \
        --node-id "node-$n" --public-url "http://127.0.0.1:$lb_port/n/node-$n" \
        --lease-seconds "$lease" --max-per-address 10000 --tables-per-address 1000 \
        --bot-delay 50 --hand-pause 500 --setup-pause 1500 \
        >"$work/node-$n.log" 2>&1 &
    node_pids+=($!)
    echo $! >"$work/node-$n.pid"
done
for n in 1 2 3; do
    for _ in $(seq 100); do
        grep -q 'open http://' "$work/node-$n.log" && break
        kill -0 "${node_pids[n - 1]}" 2>/dev/null || break
        sleep 0.1
    done
    if ! grep -q 'open http://' "$work/node-$n.log"; then
        echo "error: node-$n did not start; its log:" >&2
        cat "$work/node-$n.log" >&2
        exit 1
    fi
    say "$(grep 'open http://' "$work/node-$n.log")"
done

"$nginx_bin" -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf" &
nginx_pid=$!
lb=http://127.0.0.1:$lb_port
for _ in $(seq 100); do
    curl -fsS -o /dev/null "$lb/api/tables" 2>/dev/null && break
    kill -0 "$nginx_pid" 2>/dev/null || break
    sleep 0.1
done
if ! curl -fsS -o /dev/null "$lb/api/tables"; then
    echo "error: nginx does not answer on $lb; its log:" >&2
    cat "$work/nginx/error.log" >&2
    exit 1
fi
say "load balancer: $lb/ (nginx, deploy/nginx.conf rendered in $work/nginx/dalmuti.conf)"

if [[ $mode == serve ]]; then
    say "serving until Ctrl-C"
    wait "$nginx_pid"
    exit 0
fi

# The test's output on stdout, both streams. The shell's own stderr is
# silenced meanwhile: it would print a "Killed" line for the node the test
# kills on purpose.
status=0
{
    DEPLOY_LB=$lb DEPLOY_WORK=$work DEPLOY_LEASE_SECONDS=$lease \
        DALMUTI_BIN=$bin node e2e/cluster.mjs 2>&1 || status=$?
} 2>/dev/null
exit "$status"
