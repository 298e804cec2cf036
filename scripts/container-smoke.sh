#!/usr/bin/env bash
# Container smoke test: builds the four images on a Debian base made here (no image registry needed),
# starts compose.yaml's topology with podman-compose under its own project name and ports, and calls
# it through the TLS-terminating proxy: health, readiness with shared Redis, a plain-HTTP redirect,
# a sandbox connection synced by the worker, requests spread over both api instances, the image's
# HEALTHCHECK, the non-root user, and service surviving one api instance's loss. Removes everything
# it started unless SMOKE_KEEP=1.
#
# Not part of `npm test`: it needs root and takes minutes (the first build much longer).
#   sudo scripts/container-smoke.sh
# Environment (all optional):
#   BASE_IMAGE      Debian bookworm image to build on; default localhost/debian:bookworm-minbase,
#                   made with deploy/debian-base.sh when missing
#   BUILD_CA_FILE   PEM of a CA to trust while building (TLS-intercepting proxy to the npm registry)
#   SMOKE_PROJECT   compose project name (default tributary-smoke)
#   HTTPS_PORT, HTTP_PORT  host ports for the proxy (default 18443, 18080)
#   SMOKE_KEEP=1    leave the stack running
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
project=${SMOKE_PROJECT:-tributary-smoke}
base=${BASE_IMAGE:-localhost/debian:bookworm-minbase}
export HTTPS_PORT=${HTTPS_PORT:-18443} HTTP_PORT=${HTTP_PORT:-18080}
public=https://localhost:$HTTPS_PORT
work=$(mktemp -d)

step() { printf '\n== %s\n' "$*" >&2; }
fail() {
  printf '\nFAIL: %s\n' "$*" >&2
  exit 1
}
container() { echo "${project}_$1_1"; }

[ "$(id -u)" = 0 ] || fail "run as root: the images are built and run with rootful Podman"
for tool in podman podman-compose runc debootstrap curl jq openssl; do
  command -v "$tool" >/dev/null || fail "$tool is missing: apt-get install -y podman podman-compose runc debootstrap curl jq openssl"
done

# Podman's defaults fail on machines like these build VMs (no systemd, hybrid cgroups with hugetlb on
# the v2 mount, hard limits under Podman's default ulimits): crun 1.8 refuses such a hierarchy and
# the OCI runtime may not raise rlimits. runc, and ulimits within the hard limits, work. Only this
# script's Podman commands use this configuration (CONTAINERS_CONF).
cat > "$work/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=32768:32768"]
[engine]
runtime = "runc"
EOF
export CONTAINERS_CONF=$work/containers.conf
compose() { (cd "$repo" && podman-compose -p "$project" "$@"); }

cleanup() {
  local status=$?
  if [ "$status" != 0 ]; then
    for service in migrate api-1 api-2 worker proxy; do
      printf '\n-- last log lines of %s\n' "$service" >&2
      podman logs --tail 15 "$(container "$service")" >&2 2>&1 || true
    done
  fi
  if [ "${SMOKE_KEEP:-}" = 1 ]; then
    export -p | grep -E ' (CONTAINERS_CONF|POSTGRES_PASSWORD|REDIS_PASSWORD|ENCRYPTION_KEYS|SESSION_SECRET|PUBLIC_URL|BASE_IMAGE|HTTPS?_PORT)=' >"$work/env"
    echo "stack left running (project $project, $public); stop it with:" >&2
    echo "  (. $work/env && cd $repo && podman-compose -p $project down -v && podman network rm ${project}_default; rm -r $work)" >&2
  else
    compose down -v >/dev/null 2>&1 || true
    podman network rm -f "${project}_default" >/dev/null 2>&1 || true
    rm -rf "$work"
  fi
}
trap cleanup EXIT

step "Podman $(podman version --format '{{.Client.Version}}'), runc $(runc --version | head -1 | cut -d' ' -f3)"
if ! podman image exists "$base"; then
  step "making the Debian base image $base with debootstrap"
  "$repo/deploy/debian-base.sh" "$base" >/dev/null
fi

step "building the images on $base"
build_args=(--format docker --build-arg "BASE_IMAGE=$base")
[ -n "${BUILD_CA_FILE:-}" ] && build_args+=(--build-arg "BUILD_CA_CERT=$(cat "$BUILD_CA_FILE")")
podman build "${build_args[@]}" -t tributary:latest "$repo" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; fail "building tributary"; }
for image in proxy postgres redis; do
  podman build "${build_args[@]}" -t "tributary-$image:latest" "$repo/deploy/$image" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; fail "building tributary-$image"; }
done
podman image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep tributary >&2

step "image: non-root, Node 24, production dependencies only"
[ "$(podman run --rm --no-healthcheck tributary:latest id -u)" = 10001 ] || fail "the image does not run as uid 10001"
node_version=$(podman run --rm --no-healthcheck tributary:latest node --version)
case "$node_version" in v24.*) ;; *) fail "Node is $node_version, not 24" ;; esac
podman run --rm --no-healthcheck tributary:latest sh -c '! test -e node_modules/vitest && ! test -e node_modules/typescript && ! test -e node_modules/node' ||
  fail "dev dependencies in the image"
echo "uid 10001, node $node_version, no dev dependencies" >&2

# compose.yaml reads its secrets from the environment; fresh ones for every run.
export POSTGRES_PASSWORD=$(openssl rand -hex 16) REDIS_PASSWORD=$(openssl rand -hex 16)
export ENCRYPTION_KEYS="k1:$(openssl rand -base64 32)" SESSION_SECRET=$(openssl rand -hex 32)
export PUBLIC_URL=$public BASE_IMAGE=$base

# podman-compose 1.0 ignores depends_on conditions, so the start order is driven step by step. It
# also ignores --no-deps: starting the instances starts migrate again, which finds nothing to do.
step "compose: postgres and redis"
compose down -v >/dev/null 2>&1 || true
compose up -d --no-build --no-deps postgres redis >>"$work/compose.log" 2>&1 || { cat "$work/compose.log" >&2; fail "podman-compose up"; }
for _ in $(seq 60); do
  podman exec "$(container postgres)" pg_isready -q -h 127.0.0.1 -U tributary -d tributary && break
  sleep 1
done
podman exec "$(container postgres)" pg_isready -h 127.0.0.1 -U tributary -d tributary >&2 || fail "PostgreSQL did not become ready"

step "compose: migrate (one-shot)"
compose up -d --no-build --no-deps migrate >>"$work/compose.log" 2>&1 || { cat "$work/compose.log" >&2; fail "podman-compose up"; }
exit_code=$(podman wait "$(container migrate)")
podman logs "$(container migrate)" >&2
[ "$exit_code" = 0 ] || fail "migrate exited with $exit_code"

step "compose: api-1, api-2, worker, proxy"
compose up -d --no-build --no-deps api-1 api-2 worker proxy >>"$work/compose.log" 2>&1 || { cat "$work/compose.log" >&2; fail "podman-compose up"; }
# The proxy's self-signed certificate, to verify TLS against it rather than switch verification off.
for _ in $(seq 30); do
  podman cp "$(container proxy):/var/lib/haproxy/tls/self-signed.crt" "$work/proxy.crt" 2>/dev/null && break
  sleep 1
done
[ -s "$work/proxy.crt" ] || fail "the proxy made no certificate"
api() { curl -sS --cacert "$work/proxy.crt" --max-time 10 "$@"; }
for _ in $(seq 90); do
  [ "$(api -o /dev/null -w '%{http_code}' "$public/readyz" 2>/dev/null)" = 200 ] && break
  sleep 1
done

step "calls through the proxy ($public)"
ready=$(api "$public/readyz")
echo "GET /readyz: $ready" >&2
[ "$(jq -r .rateLimits <<<"$ready")" = shared ] || fail "readiness is not 200 with Redis-shared rate limits: $ready"
health=$(api -D "$work/headers" "$public/healthz")
[ "$(jq -r .status <<<"$health")" = ok ] || fail "GET /healthz: $health"
grep -qi '^strict-transport-security:' "$work/headers" || fail "no HSTS: the api did not see the request as HTTPS"
echo "GET /healthz: $health, with HSTS (X-Forwarded-Proto https reached the api)" >&2
redirect=$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' "http://localhost:$HTTP_PORT/healthz")
[ "$redirect" = "308 $public/healthz" ] || fail "plain HTTP is not redirected to $public/healthz: $redirect"
echo "plain HTTP: $redirect" >&2
# SECLEVEL=0 lets this client offer what OpenSSL 3 would otherwise refuse itself: the proxy must refuse.
tls() { openssl s_client -connect "localhost:$HTTPS_PORT" -servername localhost "$@" </dev/null 2>&1 || true; }
tls -tls1_1 -cipher 'DEFAULT:@SECLEVEL=0' | grep -q 'alert protocol version' || fail "the proxy did not refuse TLS 1.1"
tls -tls1_2 -cipher 'AES128-SHA:@SECLEVEL=0' | grep -q 'alert handshake failure' || fail "the proxy did not refuse a CBC cipher"
tls -tls1_2 | grep -q 'Cipher is ECDHE-ECDSA-AES128-GCM-SHA256' || fail "TLS 1.2 with ECDHE and AES-GCM failed"
echo "TLS 1.1 and CBC ciphers refused; TLS 1.2 uses ECDHE-ECDSA-AES128-GCM-SHA256" >&2

# The first instance to start (any role) made the Sandbox environment and kept its key in its DATA_DIR.
key=
for service in api-1 api-2 worker; do
  key=$(podman exec "$(container "$service")" cat /var/lib/tributary/bootstrap.json 2>/dev/null | jq -r .apiKey) && break
done
[ -n "$key" ] || fail "no instance kept the bootstrap API key"
environments=$(podman exec "$(container api-1)" node dist/scripts/cli.js environments list) || fail "the operator CLI does not run in the image"
echo "operator CLI in api-1, environments list: $environments" >&2
auth=(-H "Authorization: Bearer $key" -H 'Content-Type: application/json')
profile=$(api "${auth[@]}" -d '{}' "$public/v1/profiles" | jq -r .id)
[ "${profile#p_}" != "$profile" ] || fail "POST /v1/profiles did not create a profile"
connection=$(api "${auth[@]}" -d "{\"profileId\":\"$profile\",\"institutionId\":\"ins_first_platypus\",\"username\":\"user_good\",\"password\":\"pass_good\"}" "$public/v1/sandbox/connections" | jq -r .id)
[ "${connection#conn_}" != "$connection" ] || fail "POST /v1/sandbox/connections did not create a connection"
query="{\"query\":\"query(\$id: ID!) { connection(id: \$id) { status } }\",\"variables\":{\"id\":\"$connection\"}}"
status=
for _ in $(seq 60); do
  status=$(api -u "$profile:$key" -H 'Content-Type: application/json' -d "$query" "$public/v1/graphql" | jq -r .data.connection.status)
  [ "$status" = SYNCED ] && break
  sleep 1
done
[ "$status" = SYNCED ] || fail "connection $connection is $status, not SYNCED: the worker did not sync it"
echo "profile $profile, sandbox connection $connection: SYNCED (queued by an api instance, synced by the worker)" >&2
for _ in $(seq 10); do api "${auth[@]}" -o /dev/null "$public/v1/profiles"; done
for service in api-1 api-2; do
  served=$(podman logs "$(container "$service")" 2>/dev/null | grep -c '"path":"/v1/' || true)
  [ "$served" -gt 0 ] || fail "$service served no /v1 request: the proxy does not balance"
  echo "$service served $served /v1 requests" >&2
done

step "HEALTHCHECK and users inside the running containers"
for service in api-1 api-2 worker; do
  podman healthcheck run "$(container "$service")" >/dev/null 2>&1 || fail "$service: HEALTHCHECK failed"
  echo "$service: HEALTHCHECK passes, runs as $(podman exec "$(container "$service")" id -un)" >&2
done
echo "proxy runs as $(podman exec "$(container proxy)" id -un), postgres as $(podman exec "$(container postgres)" id -un), redis as $(podman exec "$(container redis)" id -un)" >&2

step "losing api-1"
podman stop -t 20 "$(container api-1)" >/dev/null 2>&1
for _ in $(seq 5); do
  [ "$(api "${auth[@]}" -o /dev/null -w '%{http_code}' "$public/v1/profiles")" = 200 ] || fail "a request failed with api-1 stopped"
done
echo "5 requests answered 200 by api-2 alone" >&2

step "OK"
