#!/bin/sh
# Runs once, when the PostgreSQL volume is first initialised (docker-entrypoint-initdb.d).
set -eu
psql --username "$POSTGRES_USER" --dbname postgres \
  -v owner_role=dune_owner -v owner_password="$DUNE_OWNER_PASSWORD" \
  -v app_role=dune_app -v app_password="$DUNE_APP_PASSWORD" \
  -v db_name=dune \
  -f /docker-entrypoint-initdb.d/app-roles.sql.in
