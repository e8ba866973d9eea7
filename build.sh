#!/usr/bin/env bash
# Builds dist/gitstead: one executable (Node's single executable application, made with
# @yao-pkg/pkg's SEA mode from this machine's own node binary, so nothing is downloaded) holding the
# bundled JavaScript and better-sqlite3's native addon as an embedded asset.
# Usage: ./build.sh            (after npm ci)
set -euo pipefail
cd "$(dirname "$0")"
root=$PWD
export PATH="$root/node_modules/.bin:$PATH"   # pkg runs `npx postject`; it must resolve locally

node scripts/bundle.mjs --sea
addon=$(node -p "require.resolve('better-sqlite3/build/Release/better_sqlite3.node')")
mkdir -p dist
rm -f dist/gitstead
node scripts/sea.mjs "$root/build/gitstead-sea.cjs" "$addon" "$root/dist/gitstead"
echo "built dist/gitstead ($(du -h dist/gitstead | cut -f1))"
