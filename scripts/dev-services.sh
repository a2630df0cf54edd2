#!/usr/bin/env bash
# The cluster services of svcdb's scale-out, on loopback, for development and CI:
# a real PostgreSQL and a single-node Ceph RGW (S3), from Debian packages.
#
#   scripts/dev-services.sh up     installs what is missing, starts both (about a minute from
#                                  nothing; instant when they run already) and prints
#                                  KEY=VALUE lines on stdout: DATABASE_URL, S3_ENDPOINT,
#                                  S3_BUCKET, S3_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY.
#                                  Use: set -a; eval "$(scripts/dev-services.sh up)"; set +a
#   scripts/dev-services.sh down   stops exactly what `up` started and removes its directory.
#   scripts/dev-services.sh env    prints the lines again (fails when the services are down).
#
# Exit status 3: the packages cannot be installed on this machine (no apt-get, no root, no
# such package in its apt sources). Any other failure is an error.
#
# Everything lives in $SVCDB_SERVICES_DIR (default /tmp/svcdb-services) on ports of our own
# (PostgreSQL 25432, Ceph monitor 26789, RGW 27480), so a packaged cluster never interferes.
# They lie below Linux's ephemeral range (32768–60999): a port in it can be held, when the
# services start, by any of the many connections the tests before them made.
# Progress goes to stderr. The recipe and its measurements: ../shared/SCALE-OUT.md §3.
set -euo pipefail

DIR="${SVCDB_SERVICES_DIR:-/tmp/svcdb-services}"
PG_PORT="${SVCDB_PG_PORT:-25432}"
MON_PORT="${SVCDB_MON_PORT:-26789}"
RGW_PORT="${SVCDB_RGW_PORT:-27480}"
BUCKET=svcdb-dev
REGION=us-east-1
ACCESS_KEY=SVCDBDEVKEY
SECRET_KEY=svcdb-dev-secret
PG_PACKAGE=postgresql-15
CEPH_PACKAGES=(ceph-mon ceph-mgr ceph-osd radosgw)

say() { echo "dev-services: $*" >&2; }
as_root() { if [[ "$(id -u)" -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
as_postgres() { as_root runuser -u postgres -- "$@"; }

print_env() {
  cat <<EOF
DATABASE_URL=postgres://postgres@127.0.0.1:${PG_PORT}/postgres
S3_ENDPOINT=http://127.0.0.1:${RGW_PORT}
S3_BUCKET=${BUCKET}
S3_REGION=${REGION}
AWS_ACCESS_KEY_ID=${ACCESS_KEY}
AWS_SECRET_ACCESS_KEY=${SECRET_KEY}
EOF
}

install_missing() {
  local missing=()
  dpkg -s "$PG_PACKAGE" >/dev/null 2>&1 || missing+=("$PG_PACKAGE")
  for p in "${CEPH_PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [[ ${#missing[@]} -eq 0 ]] && return
  say "installing ${missing[*]}"
  # Exit 3 says "cannot be installed here" (no apt, no root, no package), so callers can tell it
  # from services that were installed but failed to start.
  command -v apt-get >/dev/null || { say "no apt-get: install ${missing[*]} by hand"; exit 3; }
  if [[ "$(id -u)" -ne 0 ]] && ! sudo -n true 2>/dev/null; then
    say "installing ${missing[*]} needs root or sudo"
    exit 3
  fi
  # A failing apt-get (a network blip) is an error, not "cannot be installed here": CI must
  # not pass green without the cluster tests because a mirror hiccuped.
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  if ! apt-cache show "${missing[@]}" >/dev/null 2>&1; then
    say "no package for ${missing[*]} in this system's apt sources"
    exit 3
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >&2
}

pg_bin() { dirname "$(dpkg -L "$PG_PACKAGE" | grep '/bin/initdb$')"; }

pg_running() {
  [[ -f "$DIR/pg/data/postmaster.pid" ]] && as_postgres "$(pg_bin)/pg_ctl" -D "$DIR/pg/data" status >/dev/null 2>&1
}

pg_up() {
  if pg_running; then return; fi
  local bin
  bin="$(pg_bin)"
  if [[ ! -f "$DIR/pg/data/PG_VERSION" ]]; then
    as_root install -d -o postgres "$DIR/pg"
    as_postgres "$bin/initdb" -D "$DIR/pg/data" -A trust -U postgres >/dev/null
  fi
  say "starting PostgreSQL on 127.0.0.1:$PG_PORT"
  pg_start "$bin" && return
  # Say why (pg_ctl only says "examine the log"), then try once more: a start can lose to a
  # machine still busy with the tests before it, or to a stale postmaster.pid whose PID a
  # container has reused.
  pg_log_tail
  local pid
  pid="$(head -n 1 "$DIR/pg/data/postmaster.pid" 2>/dev/null || true)"
  if [[ -n "$pid" && "$(cat "/proc/$pid/comm" 2>/dev/null)" == postgres ]]; then
    # A postmaster of ours is still starting (crash recovery, a slow disk): wait for it.
    wait_for "$(pg_bin)/pg_isready -q -h 127.0.0.1 -p $PG_PORT" 120 && return
  fi
  rm -f "$DIR/pg/data/postmaster.pid"
  sleep 2
  say "starting PostgreSQL again"
  pg_start "$bin" || { pg_log_tail; return 1; }
}

pg_start() {
  as_postgres "$1/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/log" -w -t 120 start \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $DIR/pg" >/dev/null 9>&-
}

pg_log_tail() {
  say "PostgreSQL did not start; the end of $DIR/pg/log:"
  tail -n 20 "$DIR/pg/log" >&2 2>/dev/null || true
}

ceph() { command ceph -c "$DIR/ceph/ceph.conf" "$@"; }

rgw_answers() { curl -fsS -o /dev/null "http://127.0.0.1:$RGW_PORT/" 2>/dev/null; }

# Waits up to $2 seconds for the command "$1" to succeed.
wait_for() {
  local deadline=$((SECONDS + $2))
  until eval "$1" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      say "timed out waiting for: $1 (logs in $DIR/ceph/log)"
      return 1
    fi
    sleep 0.5
  done
}

ceph_config() {
  local c="$DIR/ceph" fsid=$1
  cat >"$c/ceph.conf" <<EOF
[global]
fsid = $fsid
mon_host = v1:127.0.0.1:$MON_PORT
public_addr = 127.0.0.1
auth_cluster_required = none
auth_service_required = none
auth_client_required = none
run_dir = $c/run
admin_socket = $c/run/\$name.asok
log_file = $c/log/\$name.log
pid_file = $c/run/\$name.pid
keyring = $c/keyring
osd_pool_default_size = 1
osd_pool_default_min_size = 1
mon_allow_pool_size_one = true
osd_pool_default_pg_num = 8
osd_crush_chooseleaf_type = 0
mon_warn_on_pool_no_redundancy = false
[mon]
mon_data = $c/mon/\$cluster-\$id
[mgr]
mgr_data = $c/mgr/\$cluster-\$id
[osd]
osd_data = $c/osd/\$cluster-\$id
osd_objectstore = bluestore
bluestore_block_path = $c/osd/block.file
bluestore_block_size = 4294967296
bluestore_block_create = true
osd_memory_target = 1073741824
[client.rgw.a]
rgw_frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw_data = $c/rgw
EOF
}

ceph_up() {
  if rgw_answers; then return; fi
  local c="$DIR/ceph"
  if [[ -f "$c/ceph.conf" ]]; then
    # A half-started or crashed cluster from an earlier run: start it again from nothing.
    ceph_down
    rm -rf "$c"
  fi
  say "starting Ceph (monitor, manager, one OSD, RGW on 127.0.0.1:$RGW_PORT)"
  mkdir -p "$c"/{run,log,mon,mgr,osd,rgw}
  local fsid uuid id
  fsid="$(uuidgen)"
  ceph_config "$fsid"
  ceph-authtool --create-keyring "$c/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  monmaptool --create --addv a "v1:127.0.0.1:$MON_PORT" --fsid "$fsid" "$c/monmap" >/dev/null
  ceph-mon -c "$c/ceph.conf" --mkfs -i a --monmap "$c/monmap" --keyring "$c/keyring" \
    2>>"$c/log/mon-mkfs.log"
  ceph-mon -c "$c/ceph.conf" -i a 9>&-
  mkdir -p "$c/mgr/ceph-x"
  ceph-mgr -c "$c/ceph.conf" -i x 9>&-
  uuid="$(uuidgen)"
  # A monitor just started can answer EPERM ("problem getting command descriptions") until it
  # has formed its quorum of one; `osd new` with the same uuid is idempotent, so ask again.
  local asks=0
  until id="$(ceph osd new "$uuid" 2>>"$c/log/osd-new.log")"; do
    asks=$((asks + 1))
    if ((asks >= 30)); then
      say "the monitor would not register the OSD (logs in $c/log)"
      return 1
    fi
    sleep 1
  done
  mkdir -p "$c/osd/ceph-$id"
  ceph-osd -c "$c/ceph.conf" -i "$id" --mkfs --osd-uuid "$uuid" 2>>"$c/log/osd-mkfs.log"
  # Now and then the OSD's first command reaches the monitor before it knows the cluster's
  # fsid (the monitor logs "handle_command on fsid 0000…") and the OSD exits: start it again.
  local tries=0
  until ceph-osd -c "$c/ceph.conf" -i "$id" 9>&- 2>>"$c/log/osd-start.log"; do
    tries=$((tries + 1))
    if ((tries >= 5)); then
      say "the OSD would not start (logs in $c/log)"
      return 1
    fi
    sleep 2
  done
  wait_for "ceph osd stat | grep -q '1 up'" 60
  mkdir -p "$c/rgw/ceph-rgw.a"
  radosgw -c "$c/ceph.conf" -n client.rgw.a 9>&-
  wait_for rgw_answers 90
  radosgw-admin -c "$c/ceph.conf" user create --uid=svcdb-dev --display-name=svcdb-dev \
    --access-key="$ACCESS_KEY" --secret="$SECRET_KEY" >/dev/null
}

bucket_up() {
  local url="http://127.0.0.1:$RGW_PORT/$BUCKET"
  # RGW wants the payload hash header, which curl signs but does not add by itself.
  local sign=(--aws-sigv4 "aws:amz:$REGION:s3" --user "$ACCESS_KEY:$SECRET_KEY"
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")
  curl -fsS -o /dev/null -I "${sign[@]}" "$url" 2>/dev/null && return
  curl -fsS -o /dev/null -X PUT "${sign[@]}" "$url"
}

ceph_down() {
  local c="$DIR/ceph" pids=()
  for f in "$c"/run/*.pid; do
    [[ -f "$f" ]] && pids+=("$(cat "$f")")
  done
  [[ ${#pids[@]} -eq 0 ]] && return
  kill "${pids[@]}" 2>/dev/null || true
  # The OSD takes 5–8 s to exit on SIGTERM.
  local deadline=$((SECONDS + 20))
  while kill -0 "${pids[@]}" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
  kill -9 "${pids[@]}" 2>/dev/null || true
}

pg_down() {
  [[ -f "$DIR/pg/data/postmaster.pid" ]] || return 0
  as_postgres "$(pg_bin)/pg_ctl" -D "$DIR/pg/data" -m fast -w stop >/dev/null 2>&1 || true
}

# One `up` or `down` at a time: a second `up` racing a first would see RGW not answering yet
# and restart Ceph under it. Daemons are started with the lock's descriptor closed (9>&-), or
# they would hold the lock for their whole life.
lock() {
  mkdir -p "$(dirname "$DIR")"
  exec 9>"$DIR.lock"
  flock 9
}

case "${1:-}" in
  up)
    lock
    install_missing
    mkdir -p "$DIR"
    chmod 755 "$DIR"
    pg_up
    ceph_up
    bucket_up
    say "up (stop with: scripts/dev-services.sh down)"
    print_env
    ;;
  env)
    pg_running && rgw_answers || { say "the services are not running"; exit 1; }
    print_env
    ;;
  down)
    lock
    ceph_down
    pg_down
    rm -rf "$DIR"
    say "down"
    ;;
  *)
    echo "usage: scripts/dev-services.sh up|down|env" >&2
    exit 2
    ;;
esac
