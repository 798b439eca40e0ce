#!/usr/bin/env bash
# Smoke test of the local control plane and its fault sub-commands, with curl only.
# Run it inside `env.sh run` (which starts and always stops the cluster):
#   bash test/cluster/env.sh run -- bash test/cluster/smoke.sh
# Checks: /readyz, namespaces, ConfigMap create/list, 403 for the unprivileged user alice, owner-based
# garbage collection by kube-controller-manager,
# 410 on a watch from an old RV after restart-apiserver, and 410 from etcd after `compact`
# with the ConfigMap watch cache turned off. Prints "N passed, N failed"; exits non-zero on failure.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ENV=$HERE/env.sh
[[ -z ${KUBECONFIG_E2E:-} ]] || { echo "smoke.sh checks the local control plane and its fault commands; unset KUBECONFIG_E2E" >&2; exit 2; }
: "${CLUSTER_API_URL:?run me through: env.sh run -- bash $0}"
PKI=$(dirname "$CLUSTER_CA")
ADMIN=(-sS -N --max-time 30 --cacert "$CLUSTER_CA" --cert "$PKI/admin.crt" --key "$PKI/admin.key")
ALICE=(-sS --max-time 30 --cacert "$CLUSTER_CA" --cert "$PKI/alice.crt" --key "$PKI/alice.key")
API=$CLUSTER_API_URL
NS=smoke-$$
passed=0 failed=0
check() { # name expected actual
  if [[ $3 == *"$2"* ]]; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1: expected '$2', got: ${3:0:300}"; fi
}
json() { python3 -c "import sys,json;d=json.load(sys.stdin);print($1)"; }
list_rv() { curl "${ADMIN[@]}" "$API/api/v1/namespaces/$NS/configmaps" | json 'd["metadata"]["resourceVersion"]'; }
create_cm() {
  curl "${ADMIN[@]}" -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -X POST \
    "$API/api/v1/namespaces/$NS/configmaps" -d "{\"metadata\":{\"name\":\"$1\"},\"data\":{\"k\":\"v\"}}"
}
watch_from() { curl "${ADMIN[@]}" "$API/api/v1/namespaces/$NS/configmaps?watch=1&resourceVersion=$1&timeoutSeconds=3"; }

check readyz "ok" "$(curl "${ADMIN[@]}" "$API/readyz")"
check "version is v1.x" '"gitVersion": "v1.' "$(curl "${ADMIN[@]}" "$API/version")"
check "namespace default exists" '"name": "default"' "$(curl "${ADMIN[@]}" "$API/api/v1/namespaces/default")"
check "create namespace" 201 "$(curl "${ADMIN[@]}" -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -X POST \
  "$API/api/v1/namespaces" -d "{\"metadata\":{\"name\":\"$NS\"}}")"
check "create configmap" 201 "$(create_cm a)"
check "list configmaps" "['a']" "$(curl "${ADMIN[@]}" "$API/api/v1/namespaces/$NS/configmaps" | json '[i["metadata"]["name"] for i in d["items"]]')"
check "alice list configmaps -> 403" 403 "$(curl "${ALICE[@]}" -o /dev/null -w '%{http_code}' "$API/api/v1/namespaces/$NS/configmaps")"
check "alice watch configmaps -> 403" 403 "$(curl "${ALICE[@]}" -o /dev/null -w '%{http_code}' "$API/api/v1/namespaces/$NS/configmaps?watch=1")"

# Garbage collection (kube-controller-manager): a ConfigMap owned by a deleted ConfigMap goes too.
OWNER_UID=$(curl "${ADMIN[@]}" -H 'Content-Type: application/json' -X POST "$API/api/v1/namespaces/$NS/configmaps" -d '{"metadata":{"name":"owner"}}' | json 'd["metadata"]["uid"]')
curl "${ADMIN[@]}" -o /dev/null -H 'Content-Type: application/json' -X POST "$API/api/v1/namespaces/$NS/configmaps" \
  -d "{\"metadata\":{\"name\":\"owned\",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"owner\",\"uid\":\"$OWNER_UID\"}]}}"
curl "${ADMIN[@]}" -o /dev/null -X DELETE "$API/api/v1/namespaces/$NS/configmaps/owner"
gc=200
for _ in $(seq 1 300); do # polls for up to 60 s
  gc=$(curl "${ADMIN[@]}" -o /dev/null -w '%{http_code}' "$API/api/v1/namespaces/$NS/configmaps/owned")
  [[ $gc == 404 ]] && break
  sleep 0.2
done
check "garbage collector deletes the dependent of a deleted owner" 404 "$gc"

# 410 through the watch cache: a restarted apiserver's cache starts at the current etcd revision.
X=$(list_rv)
create_cm b >/dev/null
check "watch from X before restart sees ADDED b" '"type":"ADDED"' "$(watch_from "$X")"
bash "$ENV" bump-etcd >/dev/null
bash "$ENV" restart-apiserver
check "watch from X after restart-apiserver -> 410" '"code":410' "$(watch_from "$X")"

# 410 from etcd: only reaches watches that bypass the watch cache.
EXTRA_APISERVER_FLAGS=--watch-cache-sizes=configmaps#0 bash "$ENV" restart-apiserver
Y=$(list_rv)
create_cm c >/dev/null
check "uncached watch from Y before compact sees ADDED c" '"type":"ADDED"' "$(watch_from "$Y")"
bash "$ENV" compact >/dev/null
check "uncached watch from Y after compact -> 410" 'The resourceVersion for the provided watch is too old' "$(watch_from "$Y")"
check "exact list at Y after compact -> 410" 410 "$(curl "${ADMIN[@]}" -o /dev/null -w '%{http_code}' \
  "$API/api/v1/namespaces/$NS/configmaps?resourceVersion=$Y&resourceVersionMatch=Exact")"

# Crash and come back.
bash "$ENV" kill-apiserver
check "apiserver down after kill-apiserver" 000 "$(curl "${ADMIN[@]}" -o /dev/null -w '%{http_code}' --max-time 3 "$API/readyz" 2>/dev/null || true)"
bash "$ENV" start-apiserver
check "configmaps survive the restarts" "['a', 'b', 'c']" "$(curl "${ADMIN[@]}" "$API/api/v1/namespaces/$NS/configmaps" | json 'sorted(i["metadata"]["name"] for i in d["items"])')"

echo "smoke: $passed passed, $failed failed"
((failed == 0))
