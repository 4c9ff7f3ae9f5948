-- The database and its two roles, run once by the PostgreSQL superuser (see 10-app-roles.sh).
--   owner_role: owns the database and its tables; runs the migrations; no superuser powers.
--   app_role:   what gunicorn, the worker and beat connect as; reads and writes rows only.
-- The app role must never own the tables: an owner may disable triggers, drop or truncate
-- them, and so could rewrite the game's append-only event log.
\set ON_ERROR_STOP on
CREATE ROLE :"owner_role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'owner_password';
CREATE ROLE :"app_role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'app_password';
CREATE DATABASE :"db_name" OWNER :"owner_role";
REVOKE ALL ON DATABASE :"db_name" FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"db_name" TO :"app_role";
\connect :"db_name"
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"app_role";
-- Tables the owner creates later (every migration) are open to the app for rows only:
-- no TRUNCATE, no REFERENCES, no TRIGGER.
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner_role" IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app_role";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner_role" IN SCHEMA public
    GRANT USAGE, SELECT ON SEQUENCES TO :"app_role";
