#!/usr/bin/env bash
# `npm run cloud-support`: fails unless n8n's node CLI reports the package eligible for n8n Cloud
# verification (package.json "n8n.strict": true and eslint.config.mjs exactly the CLI's default
# config). `n8n-node cloud-support` only prints its verdict and exits 0 either way, so this reads it.
set -uo pipefail
out=$(n8n-node cloud-support 2>&1)
status=$?
printf '%s\n' "$out"
plain=$(printf '%s' "$out" | sed 's/\x1b\[[0-9;]*m//g')
if [ "$status" -ne 0 ] || ! grep -q 'Status: eligible' <<<"$plain"; then
  echo "cloud-support: NOT eligible for n8n Cloud verification (see above)" >&2
  exit 1
fi
