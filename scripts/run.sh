#!/usr/bin/env bash
# `make run`: the web server, and a Celery worker with an embedded beat (the stuck-game
# re-send) on whatever broker is configured (the filesystem broker by default). The worker
# logs to var/log/worker.log; the admin login and the URLs print last, once the web server
# answers /healthz (database and broker reachable) and the worker is ready.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-.venv/bin}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
VAR_DIR=${VAR_DIR:-var}
LOG_DIR="$VAR_DIR/log"
mkdir -p "$LOG_DIR"
WORKER_LOG="$LOG_DIR/worker.log"
: > "$WORKER_LOG"

# beat's schedule file sits beside the other embedded data; REMAP_SIGTERM: the kill below
# stops the worker within seconds, its running games going back to the queue. No -Q: it
# consumes every queue (bots, analysis, notifications; docs/workers.md)
REMAP_SIGTERM=SIGQUIT "$BIN/celery" -A config worker --beat --schedule "$VAR_DIR/celerybeat-schedule" \
  --loglevel=INFO --concurrency=2 --logfile "$WORKER_LOG" &
worker=$!
stop() {
  kill "$worker" 2>/dev/null || true
  wait "$worker" 2>/dev/null || true
}
trap stop EXIT
trap 'exit 130' INT TERM

announce() {
  local url="http://$HOST:$PORT"
  for _ in $(seq 120); do
    if "$BIN/python" - "$url/healthz" <<'PY' 2>/dev/null && grep -q " ready\." "$WORKER_LOG"
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=2) as answer:
    sys.exit(0 if answer.status == 200 else 1)
PY
    then
      login=$("$BIN/python" manage.py ensure_admin 2>/dev/null)
      cat <<TEXT

============================================================================
 Club tournament service is up.
 $login
 Admin:  $url/admin/      (organizers run their tournaments here)
 Public: $url/
 API:    $url/api/        (docs: $url/api/docs/, $url/api/redoc/; schema: $url/api/schema/)
 Health: $url/healthz
 Worker and beat log: $WORKER_LOG
 Stop with Ctrl-C.
============================================================================
TEXT
      return 0
    fi
    sleep 1
  done
  echo "The service did not come up in two minutes: see $WORKER_LOG and the output above." >&2
}
announce &

"$BIN/python" manage.py runserver "$HOST:$PORT"
