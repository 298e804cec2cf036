#!/bin/sh
# Runs the compiled service (dist/, from `npm run build`) the way production runs it: `npm start`, the
# image's CMD and the benchmark all start it through here. The V8 heap settings and glibc's two
# malloc arenas keep one process within about 250 MB under load (docs/decisions/build-one-launcher.md);
# an operator's own NODE_OPTIONS come after them and win, e.g. NODE_OPTIONS=--max-old-space-size=1024.
export NODE_OPTIONS="--max-semi-space-size=16 --max-old-space-size=256${NODE_OPTIONS:+ $NODE_OPTIONS}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
# No allocation-site pretenuring (a V8 flag Node refuses in NODE_OPTIONS, hence here): once V8 sees a
# site's objects outlive scavenges (a GraphQL page's rows while the young generation regrows after an
# idle spell), it allocates them in the old generation, where each dead row keeps its young field
# values alive through every scavenge until a full collection: 22-38 KB promoted a page instead of
# ~1 (docs/decisions/build-one-launcher.md, "Revised in round four").
exec node --no-allocation-site-pretenuring "$(dirname "$0")/../dist/src/main.js"
