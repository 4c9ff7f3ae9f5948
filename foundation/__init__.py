"""The Django layer under every app: what each app's commands share.

- `foundation.idempotency`: exactly once across retries, the `Idempotency-Key` of an API write
  and the `idempotency_key` field of a form, stored with the write's answer;
- `foundation.commands`: the frame of a command (permission asked, services called in one
  transaction, the answer stored with the key, a `Refusal` naming the field or the rule);
- `foundation.json_text`, `foundation.sql_rows`: JSON text and written-out SQL for the hot paths.

It imports no app and no DRF: the apps (tournament, gameplay, scoring, clocks...) sit above it.
"""
