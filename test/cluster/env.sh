#!/usr/bin/env bash
# A throw-away Kubernetes control plane (etcd + kube-apiserver + kube-controller-manager running only
# the garbage collector) on 127.0.0.1, built from Go modules, with sub-commands to inject faults.
# See test/cluster/README.md.
#
# usage: test/cluster/env.sh <command>
#   build              build etcd, kube-apiserver and kube-controller-manager (no-op when already built
#                      for the same go.mod/go.sum + `go version`; reuses the machine's Go caches)
#   start              build if needed, then start etcd + kube-apiserver + kube-controller-manager on
#                      free 127.0.0.1 ports, wait for /readyz and /healthz, write
#                      $CLUSTER_WORK/kubeconfig and print its path
#   stop               stop kube-controller-manager, kube-apiserver and etcd (by PID) and check nothing is left
#   status             print PIDs, ports, /readyz and the etcd revision
#   restart-apiserver  SIGTERM kube-apiserver, start it again (same etcd), wait for /readyz
#   kill-apiserver     SIGKILL kube-apiserver (clients see a reset mid-stream)
#   start-apiserver    start kube-apiserver again after kill-apiserver, wait for /readyz
#   bump-etcd          write a key outside /registry so the etcd revision moves on
#   compact            compact etcd (physical) so every RV seen before the call is gone; prints the
#                      revision. Only watches/lists served from etcd see it: the watch cache keeps
#                      serving old RVs (use EXTRA_APISERVER_FLAGS=--watch-cache-sizes=configmaps#0)
#   pause-etcd/resume-etcd   SIGSTOP/SIGCONT etcd
#   run -- CMD...      start, run CMD with KUBECONFIG/CLUSTER_* exported, stop (always); exit with CMD's status.
#                      With KUBECONFIG_E2E set: only runs CMD with KUBECONFIG=$KUBECONFIG_E2E.
#   env                print shell assignments (KUBECONFIG, ports, cert paths) for `eval`
#   gomod-replaces VER print the staging `replace` block for k8s.io/kubernetes VER
#
# Environment:
#   KUBECONFIG_E2E=/path   use an existing cluster instead (e.g. kind): neither `build` nor `start` is
#                          needed, `run -- CMD` just runs CMD with KUBECONFIG=/path, and the suite
#                          should skip its fault cases (CLUSTER_API_URL is then unset). Every other
#                          command except build/gomod-replaces refuses to run while it is set, so a
#                          test cannot restart or compact the wrong cluster.
#   CLUSTER_WORK           state dir (certs, logs, pids, etcd data, kubeconfig); default <repo>/.cluster/work
#   CLUSTER_BIN_CACHE      where built binaries are kept, keyed by inputs; default ~/.cache/rx-informer-cluster
#                          (outside the checkout so CI's fresh clones on this machine reuse them)
#   APISERVER_START_TIMEOUT  seconds to wait for /readyz (default 120)
#   EXTRA_APISERVER_FLAGS  appended to kube-apiserver's flags (e.g. --watch-cache-sizes=configmaps#0)
#   ETCD_COMPACTION_INTERVAL  kube-apiserver's own compaction interval (default 0 = off; tests compact)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${CLUSTER_WORK:-$ROOT/.cluster/work}
PKI=$WORK/pki
BIN_CACHE=${CLUSTER_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rx-informer-cluster}
BIN=$ROOT/.cluster/bin          # symlinks to the keyed binaries in $BIN_CACHE
export GOTOOLCHAIN=local        # never fetch another toolchain
export GOFLAGS="${GOFLAGS:-} -mod=readonly"

log() { printf '[cluster %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# ---------------------------------------------------------------- build
gomod_version() { # module-dir module-path -> required version
  awk -v m="$2" '$1==m {print $2; exit} $1=="require" && $2==m {print $3; exit}' "$1/go.mod"
}

build_key() { # module-dir -> short hash of everything that decides the binary
  { go version; cat "$1/go.mod" "$1/go.sum"; sed -n '/^build_one()/,/^}/p' "$0"; } | sha256sum | cut -c1-12
}

build_one() { # name module-dir package ldflags
  local name=$1 dir=$2 pkg=$3 ldflags=$4 key out t0 tmp
  key=$(build_key "$dir")
  out=$BIN_CACHE/$name-$key
  if [[ -x $out/$name ]]; then
    log "$name: up to date ($out)"; touch "$out"
  else
    log "$name: building $pkg (key $key); this can take many minutes on a cold cache"
    mkdir -p "$BIN_CACHE"
    tmp=$(mktemp -d "$out.tmp.XXXXXX")   # private: two checkouts may build at once
    t0=$SECONDS
    (cd "$dir" && CGO_ENABLED=0 nice -n "${BUILD_NICE:-15}" go build -trimpath -ldflags "$ldflags" -o "$tmp/$name" "$pkg") \
      || { rm -rf "$tmp"; die "$name: go build failed"; }
    if [[ -x $out/$name ]]; then rm -rf "$tmp"; else rm -rf "$out"; mv "$tmp" "$out"; fi
    log "$name: built in $((SECONDS - t0)) s"
  fi
  # Keep this build and the one before it (another checkout may still use it); drop older ones.
  find "$BIN_CACHE" -maxdepth 1 -name "$name-*" ! -name '*.tmp.*' -printf '%T@ %p\n' | sort -rn | tail -n +3 |
    cut -d' ' -f2- | while IFS= read -r d; do [[ $d == "$out" ]] || rm -rf -- "$d"; done
  mkdir -p "$BIN"
  ln -sfn "$out/$name" "$BIN/$name"
}

cmd_build() {
  if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then PATH="/usr/local/go/bin:$PATH"; fi
  command -v go >/dev/null || die "go not found on PATH (nor in /usr/local/go/bin)"
  local kv ev minor ldf p
  kv=$(gomod_version "$HERE/kube-apiserver" k8s.io/kubernetes)
  ev=$(gomod_version "$HERE/etcd" go.etcd.io/etcd/server/v3)
  [[ -n $kv && -n $ev ]] || die "cannot read versions from the go.mod files"
  # Upstream's version stamping (hack/lib/version.sh); makes /version truthful.
  minor=${kv#v1.}; minor=${minor%%.*}
  ldf="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldf+=" -X $p.gitVersion=$kv -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean -X $p.buildDate=1970-01-01T00:00:00Z"
  done
  build_one etcd "$HERE/etcd" go.etcd.io/etcd/server/v3 "-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=$ev"
  build_one kube-apiserver "$HERE/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver "$ldf"
  build_one kube-controller-manager "$HERE/kube-controller-manager" k8s.io/kubernetes/cmd/kube-controller-manager "$ldf"
  # Not `| head -1`: under pipefail, etcd's next line can hit a closed pipe (SIGPIPE, exit 141).
  "$BIN/etcd" --version | sed -n 1p >&2
  "$BIN/kube-apiserver" --version >&2
  "$BIN/kube-controller-manager" --version >&2
}

cmd_gomod_replaces() { # print the replace block for a Kubernetes release, from its own go.mod
  local kv=${1:?usage: env.sh gomod-replaces v1.X.Y} sv gomod
  sv="v0.${kv#v1.}"
  gomod=$(cd "$(mktemp -d)" && go mod download -json "k8s.io/kubernetes@$kv" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
  echo "replace ("
  grep -oE 'k8s\.io/[a-z0-9-]+ => \./staging/src/k8s\.io/[a-z0-9-]+' "$gomod" | awk -v v="$sv" '{print "\t" $1 " => " $1 " " v}'
  echo ")"
}

# ---------------------------------------------------------------- helpers
no_e2e() { [[ -z ${KUBECONFIG_E2E:-} ]] || die "KUBECONFIG_E2E is set: the suite uses that cluster; '$1' only manages the local one"; }

free_port() {
  python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1]);s.close()'
}

load() {
  [[ -f $WORK/ports.env ]] || die "no cluster state in $WORK (run: env.sh start)"
  # shellcheck disable=SC1091
  source "$WORK/ports.env"
}

alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

tail_log() { log "last lines of $1:"; tail -n "${2:-40}" "$1" >&2 || true; }

kcurl() { curl -fsS --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" "$@"; }

wait_ok() { # name pidfile logfile timeout_s url [curl args...]
  local name=$1 pidf=$2 logf=$3 t=$4 url=$5; shift 5
  local end=$((SECONDS + t))
  until curl -fsS -o /dev/null --max-time 5 "$@" "$url" 2>/dev/null; do
    if ! alive "$pidf"; then tail_log "$logf"; die "$name exited during start-up"; fi
    if ((SECONDS >= end)); then tail_log "$logf"; die "$name: $url not ok after ${t}s"; fi
    sleep 0.2
  done
}

stop_pid() { # pidfile signal timeout_s
  local f=$1 sig=${2:-TERM} t=${3:-20} p i
  [[ -f $f ]] || return 0
  p=$(cat "$f")
  if kill -"$sig" "$p" 2>/dev/null; then
    for ((i = 0; i < t * 10; i++)); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$p" 2>/dev/null; then log "pid $p still alive after ${t}s, SIGKILL"; kill -KILL "$p" 2>/dev/null || true; sleep 0.2; fi
  fi
  rm -f "$f"
}

gen_pki() {
  mkdir -p "$PKI"
  (
    cd "$PKI"
    set -e
    openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj "/CN=rx-informer-test-ca" \
      -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
      -keyout ca.key -out ca.crt
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n' >server.ext
    printf 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n' >client.ext
    openssl req -newkey rsa:2048 -nodes -subj "/CN=kube-apiserver" -keyout apiserver.key -out apiserver.csr
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 7 -extfile server.ext -out apiserver.crt
    # admin: member of system:masters (all rights). alice: no RBAC binding at all (403 tests).
    openssl req -newkey rsa:2048 -nodes -subj "/O=system:masters/CN=admin" -keyout admin.key -out admin.csr
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 7 -extfile client.ext -out admin.crt
    openssl req -newkey rsa:2048 -nodes -subj "/O=testers/CN=alice" -keyout alice.key -out alice.csr
    openssl x509 -req -in alice.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 7 -extfile client.ext -out alice.crt
    openssl genrsa -out sa.key 2048
    openssl rsa -in sa.key -pubout -out sa.pub
    rm -f ./*.csr ./*.ext ca.srl
  ) >"$WORK/openssl.log" 2>&1 || { tail_log "$WORK/openssl.log"; die "openssl failed"; }
}

write_kubeconfig() { # file user
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: rx-informer-test
  cluster:
    server: https://127.0.0.1:$API_PORT
    certificate-authority: $PKI/ca.crt
users:
- name: $2
  user:
    client-certificate: $PKI/$2.crt
    client-key: $PKI/$2.key
contexts:
- name: $2@rx-informer-test
  context:
    cluster: rx-informer-test
    user: $2
    namespace: default
current-context: $2@rx-informer-test
EOF
}

# ---------------------------------------------------------------- processes
start_etcd() {
  log "starting etcd on 127.0.0.1:$ETCD_PORT"
  setsid "$BIN/etcd" --name=test --data-dir="$WORK/etcd-data" \
    --listen-client-urls="http://127.0.0.1:$ETCD_PORT" --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster="test=http://127.0.0.1:$ETCD_PEER_PORT" \
    --listen-metrics-urls="http://127.0.0.1:$ETCD_METRICS_PORT" \
    --unsafe-no-fsync --watch-progress-notify-interval=5s --log-level=warn \
    </dev/null >>"$WORK/etcd.log" 2>&1 &
  echo $! >"$WORK/etcd.pid"
  wait_ok etcd "$WORK/etcd.pid" "$WORK/etcd.log" 30 "http://127.0.0.1:$ETCD_PORT/health"
}

start_apiserver() {
  local t0=$SECONDS
  log "starting kube-apiserver on https://127.0.0.1:$API_PORT"
  # shellcheck disable=SC2086
  setsid "$BIN/kube-apiserver" \
    --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$API_PORT" \
    --cert-dir="$WORK/apiserver-certs" \
    --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
    --client-ca-file="$PKI/ca.crt" --authorization-mode=RBAC \
    --service-cluster-ip-range=10.0.0.0/24 \
    --service-account-issuer="https://127.0.0.1:$API_PORT/" \
    --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
    --disable-admission-plugins=ServiceAccount --allow-privileged=true \
    --endpoint-reconciler-type=none \
    --etcd-compaction-interval="${ETCD_COMPACTION_INTERVAL:-0}" \
    --feature-gates=WatchCacheInitializationPostStartHook=true,ShardedListAndWatch=true \
    --profiling=false --v=1 ${EXTRA_APISERVER_FLAGS:-} \
    </dev/null >>"$WORK/kube-apiserver.log" 2>&1 &
  echo $! >"$WORK/apiserver.pid"
  local -a auth=(--cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key")
  wait_ok kube-apiserver "$WORK/apiserver.pid" "$WORK/kube-apiserver.log" "${APISERVER_START_TIMEOUT:-120}" \
    "https://127.0.0.1:$API_PORT/readyz" "${auth[@]}"
  wait_ok kube-apiserver "$WORK/apiserver.pid" "$WORK/kube-apiserver.log" 30 \
    "https://127.0.0.1:$API_PORT/api/v1/namespaces/default" "${auth[@]}"
  log "kube-apiserver ready in $((SECONDS - t0)) s"
}

# Only the garbage collector: owner-based deletion (ownerReferences, foreground/background cascade)
# is what the operator tests need. Other controllers would change what the informer tests see
# (root-ca-cert-publisher writes a ConfigMap into every namespace) or need more PKI.
start_controller_manager() {
  log "starting kube-controller-manager (garbagecollector) on https://127.0.0.1:$KCM_PORT"
  setsid "$BIN/kube-controller-manager" \
    --kubeconfig="$WORK/kubeconfig" \
    --authentication-kubeconfig="$WORK/kubeconfig" --authorization-kubeconfig="$WORK/kubeconfig" \
    --bind-address=127.0.0.1 --secure-port="$KCM_PORT" --cert-dir="$WORK/kcm-certs" \
    --controllers=garbagecollector --leader-elect=false \
    --concurrent-gc-syncs=5 --v=1 \
    </dev/null >>"$WORK/kube-controller-manager.log" 2>&1 &
  echo $! >"$WORK/kcm.pid"
  wait_ok kube-controller-manager "$WORK/kcm.pid" "$WORK/kube-controller-manager.log" 60 "https://127.0.0.1:$KCM_PORT/healthz" -k
}

etcd_rev() {
  curl -fsS --max-time "${1:-10}" -X POST "http://127.0.0.1:$ETCD_PORT/v3/maintenance/status" -d '{}' |
    python3 -c 'import sys,json;print(json.load(sys.stdin)["header"]["revision"])'
}

# ---------------------------------------------------------------- commands
STARTING=0 STOP_ON_EXIT=0
on_exit() {
  if ((STARTING)); then
    log "start failed; stopping what was started"
    stop_pid "$WORK/kcm.pid" TERM 5; stop_pid "$WORK/apiserver.pid" TERM 5; stop_pid "$WORK/etcd.pid" TERM 5
  fi
  if ((STOP_ON_EXIT)); then cmd_stop || true; fi
}
trap on_exit EXIT
RUN_CHILD=
on_signal() { # $1 = exit status
  log "interrupted"
  if [[ -n $RUN_CHILD ]]; then kill -TERM "$RUN_CHILD" 2>/dev/null || true; wait "$RUN_CHILD" 2>/dev/null || true; fi
  exit "$1"
}
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
trap 'on_signal 129' HUP

cmd_start() {
  no_e2e start
  local p
  for p in openssl curl python3; do command -v $p >/dev/null || die "$p not found"; done
  if [[ -f $WORK/ports.env ]] && { alive "$WORK/etcd.pid" || alive "$WORK/apiserver.pid" || alive "$WORK/kcm.pid"; }; then
    die "a cluster from $WORK is still running (env.sh stop first)"
  fi
  cmd_build
  local t0=$SECONDS
  rm -rf "$WORK"; mkdir -p "$WORK"
  gen_pki
  # Ports come from the kernel; a race with another process is possible but rare. etcd/apiserver
  # then fail to bind and start fails loudly with the log.
  printf 'ETCD_PORT=%s\nETCD_PEER_PORT=%s\nETCD_METRICS_PORT=%s\nAPI_PORT=%s\nKCM_PORT=%s\n' \
    "$(free_port)" "$(free_port)" "$(free_port)" "$(free_port)" "$(free_port)" >"$WORK/ports.env"
  load
  # die() exits, so on_exit cleans up: a failed start leaves no process behind.
  STARTING=1
  start_etcd
  start_apiserver
  write_kubeconfig "$WORK/kubeconfig" admin
  write_kubeconfig "$WORK/kubeconfig-alice" alice
  start_controller_manager
  STARTING=0
  log "control plane up in $((SECONDS - t0)) s"
  echo "$WORK/kubeconfig"
}

cmd_run() { # start, run "$@" with the cluster's variables exported, always stop; exit with "$@"'s status
  [[ $# -gt 0 ]] || die "usage: env.sh run -- command [args...]"
  if [[ -n ${KUBECONFIG_E2E:-} ]]; then
    [[ -r $KUBECONFIG_E2E ]] || die "KUBECONFIG_E2E=$KUBECONFIG_E2E is not a readable file"
    log "KUBECONFIG_E2E is set: running against that cluster; nothing is built, started or stopped"
    KUBECONFIG=$KUBECONFIG_E2E exec "$@"
  fi
  STOP_ON_EXIT=1
  cmd_start >/dev/null
  local rc=0 line
  while IFS= read -r line; do export "${line?}"; done < <(cmd_env)
  # In the background so that a TERM/INT to this script is handled at once (bash defers traps
  # while a foreground child runs): the child is signalled, then on_exit stops the cluster.
  "$@" &
  RUN_CHILD=$!
  wait "$RUN_CHILD" || rc=$?
  RUN_CHILD=
  log "command exited with $rc"
  return "$rc"
}

cmd_stop() {
  no_e2e stop
  [[ -f $WORK/ports.env ]] || { log "nothing to stop"; return 0; }
  stop_pid "$WORK/kcm.pid" TERM 20
  stop_pid "$WORK/apiserver.pid" TERM 20
  stop_pid "$WORK/etcd.pid" TERM 20
  # Safety net: anything still running from our binaries with our state dir on its command line.
  local left
  left=$(pgrep -f -- "--data-dir=$WORK/etcd-data|--cert-dir=$WORK/apiserver-certs|--cert-dir=$WORK/kcm-certs" || true)
  [[ -z $left ]] || die "processes still running after stop: $left"
  log "stopped"
}

cmd_status() {
  no_e2e status
  load
  local a=down e=down c=down
  alive "$WORK/etcd.pid" && e="pid $(cat "$WORK/etcd.pid")"
  alive "$WORK/apiserver.pid" && a="pid $(cat "$WORK/apiserver.pid")"
  alive "$WORK/kcm.pid" && c="pid $(cat "$WORK/kcm.pid")"
  echo "etcd:           $e, http://127.0.0.1:$ETCD_PORT, revision $(etcd_rev 3 2>/dev/null || echo '?')"
  echo "kube-apiserver: $a, https://127.0.0.1:$API_PORT, readyz $(kcurl --max-time 5 "https://127.0.0.1:$API_PORT/readyz" 2>/dev/null || echo 'not ok')"
  echo "kube-controller-manager: $c, https://127.0.0.1:${KCM_PORT:-?} (garbagecollector)"
  echo "kubeconfig:     $WORK/kubeconfig (alice: $WORK/kubeconfig-alice)"
}

cmd_env() {
  no_e2e env
  load
  cat <<EOF
KUBECONFIG=$WORK/kubeconfig
CLUSTER_KUBECONFIG_ALICE=$WORK/kubeconfig-alice
CLUSTER_API_URL=https://127.0.0.1:$API_PORT
CLUSTER_ETCD_URL=http://127.0.0.1:$ETCD_PORT
CLUSTER_CA=$PKI/ca.crt
EOF
}

case ${1:-} in
  build) cmd_build ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  run) shift; [[ ${1:-} != -- ]] || shift; cmd_run "$@" ;;
  restart-apiserver) no_e2e "$1"; load; stop_pid "$WORK/apiserver.pid" TERM 30; start_apiserver ;;
  kill-apiserver) no_e2e "$1"; load; stop_pid "$WORK/apiserver.pid" KILL 5 ;;
  start-apiserver)
    no_e2e "$1"; load
    alive "$WORK/apiserver.pid" && die "kube-apiserver already running"
    start_apiserver ;;
  bump-etcd) # key "/rx-informer-test/bump" (base64), outside the apiserver's /registry prefix
    no_e2e "$1"; load
    curl -fsS --max-time 10 -X POST "http://127.0.0.1:$ETCD_PORT/v3/kv/put" -d '{"key":"L3J4LWluZm9ybWVyLXRlc3QvYnVtcA==","value":""}' >/dev/null
    etcd_rev ;;
  compact)
    # A watch from RV X resumes at revision X+1, which survives a compaction at X+1. Two writes first
    # make the compaction revision exceed X+1 for every X observed before this call.
    no_e2e "$1"; load
    for _ in 1 2; do
      curl -fsS --max-time 10 -X POST "http://127.0.0.1:$ETCD_PORT/v3/kv/put" -d '{"key":"L3J4LWluZm9ybWVyLXRlc3QvYnVtcA==","value":""}' >/dev/null
    done
    r=$(etcd_rev)
    curl -fsS --max-time 10 -X POST "http://127.0.0.1:$ETCD_PORT/v3/kv/compaction" -d "{\"revision\":\"$r\",\"physical\":true}" >/dev/null
    echo "$r" ;;
  pause-etcd) no_e2e "$1"; load; kill -STOP "$(cat "$WORK/etcd.pid")" ;;
  resume-etcd) no_e2e "$1"; load; kill -CONT "$(cat "$WORK/etcd.pid")" ;;
  gomod-replaces) shift; cmd_gomod_replaces "$@" ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d' >&2; exit 2 ;;
esac
