#!/usr/bin/env bash
# Rewrites the README's configuration table from the settings' definitions (src/config/, one file per area) (the unit test prints it when they differ).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --lib the_readme_holds 2>&1 | sed -n '/verbatim:/,/^$/p' | tail -n +2 > /tmp/readme-table.md || true
python3 - <<'PY'
lines = open('README.md').read().split('\n')
start = next(i for i, l in enumerate(lines) if l.startswith('| Variable | Default | Meaning |'))
end = start
while end < len(lines) and lines[end].startswith('|'):
    end += 1
table = open('/tmp/readme-table.md').read().rstrip('\n').split('\n')
if len(table) > 2:
    lines[start:end] = table
    open('README.md', 'w').write('\n'.join(lines))
PY
