#!/bin/sh
# Runs the compiled service (dist/, from `npm run build`) with the V8 heap settings it is sized for:
# `npm start`, the image's CMD and the benchmark all start it through here (docs/decisions.md, "Memory").
exec node --max-semi-space-size=16 "$(dirname "$0")/../dist/src/main.js"
