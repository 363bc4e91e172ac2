#!/usr/bin/env bash
# Start PostgreSQL and Redis on this machine if they are not answering (tests need both).
set -euo pipefail

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

if ! pg_up; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start || true
  for _ in $(seq 30); do pg_up && break; sleep 1; done
fi
pg_up || { echo "PostgreSQL is not running on 127.0.0.1:5432" >&2; exit 1; }

if ! redis_up; then
  echo "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  for _ in $(seq 30); do redis_up && break; sleep 1; done
fi
redis_up || { echo "Redis is not running on 127.0.0.1:6379" >&2; exit 1; }
