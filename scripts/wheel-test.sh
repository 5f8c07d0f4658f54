#!/usr/bin/env bash
# The Python wheel end to end: build it with maturin (`bindings = "bin"`), install
# it into a fresh virtualenv, and run the installed `poolguard` on fixtures: a
# finding must exit 1, a clean file 0. Run by .ci/run (needs PyPI for maturin).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/build"
"$work/build/bin/pip" install --quiet "maturin>=1.5,<2"
echo "maturin build --release (wheel)"
"$work/build/bin/maturin" build --quiet --release --locked \
    --manifest-path "$repo/Cargo.toml" --out "$work/dist"
wheel="$(ls "$work"/dist/poolguard-*.whl)"
echo "built $(basename "$wheel")"

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index "$wheel"
pg="$work/venv/bin/poolguard"
test -x "$pg" || { echo "FAIL: the wheel installed no poolguard executable" >&2; exit 1; }
"$pg" --version | grep -q "poolguard $(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -1)" \
    || { "$pg" --version; echo "FAIL: wrong version" >&2; exit 1; }

cd "$repo"
set +e
"$pg" check fixtures/incidents/java/incident4_gateway --format concise > "$work/out.txt" 2>&1
code=$?
set -e
if [ "$code" -ne 1 ] || ! grep -q "error\[caller_runs_under_join\]" "$work/out.txt"; then
    cat "$work/out.txt"
    echo "FAIL: the installed poolguard should report the incident (exit 1), got $code" >&2
    exit 1
fi
"$pg" check fixtures/unbounded_queue/rust/bounded.rs > "$work/clean.txt" 2>&1 \
    || { cat "$work/clean.txt"; echo "FAIL: the installed poolguard failed on a clean file" >&2; exit 1; }
echo "wheel: OK"
