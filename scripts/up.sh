#!/usr/bin/env sh
# Fresh machine, one command: installs pnpm when missing, the dependencies, then `pnpm start`
# (which checks or starts PostgreSQL and Redis, migrates, and runs the services).
set -eu
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null 2>&1; then
  echo "up.sh: Node.js 20.19+ is required: https://nodejs.org/ (or: sudo apt-get install -y nodejs)" >&2
  exit 1
fi

if ! command -v pnpm >/dev/null 2>&1; then
  echo "up.sh: pnpm not found; installing it with: npm i -g pnpm@10"
  # corepack cannot always download pnpm; npm can. A root-owned global prefix needs sudo.
  npm i -g pnpm@10 || {
    echo "up.sh: could not install pnpm; run: sudo npm i -g pnpm@10" >&2
    exit 1
  }
fi

if [ -f pnpm-lock.yaml ]; then
  pnpm install --frozen-lockfile
else
  pnpm install
fi

exec pnpm start "$@"
