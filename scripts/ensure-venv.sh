#!/usr/bin/env bash
# Creates .venv and installs the project into it when missing or when pyproject.toml changed.
# Sourced by ./start and ./run-tests, so that both README commands work on a fresh machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
extras="${1:-}"
python="${PYTHON:-python3}"
if ! command -v "$python" >/dev/null 2>&1; then
    echo "logic-bot needs Python 3.11 or newer (python3 was not found)." >&2
    exit 1
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "logic-bot needs Python 3.11 or newer; $("$python" --version) was found." >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "Setting up $venv (first run only)…" >&2
    "$python" -m venv "$venv"
fi
stamp="$venv/.installed${extras:+-$extras}"
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip >&2
    # Without PYTHONWARNINGS, setuptools' "Editable installation !! ****" warning block (a
    # note for package authors) greets every newcomer's first start.
    PYTHONWARNINGS=ignore "$venv/bin/python" -m pip install --quiet -e "$root${extras:+[$extras]}" >&2
    touch "$stamp"
fi
