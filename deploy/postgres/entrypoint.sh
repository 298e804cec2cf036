#!/bin/sh
# First start on an empty volume: a cluster whose superuser is POSTGRES_USER (password
# POSTGRES_PASSWORD, SCRAM), with a database POSTGRES_DB, reachable from the compose network.
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
case "$user$db" in
  *[!a-z0-9_]*) echo "POSTGRES_USER and POSTGRES_DB must be lower-case letters, digits and _" >&2; exit 64 ;;
esac

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=peer --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm "$pwfile"
  printf 'host all all 0.0.0.0/0 scram-sha-256\nhost all all ::/0 scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    echo "CREATE DATABASE $db OWNER $user;" | postgres --single -D "$PGDATA" -j postgres >/dev/null
  fi
  echo "tributary-postgres: created the cluster, superuser $user, database $db" >&2
fi

exec postgres -D "$PGDATA" -c listen_addresses='*'
