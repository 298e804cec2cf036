#!/bin/sh
# The password goes into a config file, not onto the command line where `ps` would show it.
set -eu
: "${REDIS_PASSWORD:?set REDIS_PASSWORD}"
conf=$(mktemp)
printf 'bind * -::*\nprotected-mode no\nport 6379\nrequirepass "%s"\nsave ""\nappendonly no\ndir /tmp\n' "$REDIS_PASSWORD" > "$conf"
exec redis-server "$conf"
