// The outbox's state machine over every answer a phone can get (node --test; run by
// tests/platform/test_outbox_js.py). Nothing leaves the queue but a recorded answer or the
// judge's "Discard".
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const core = require("../../static/js/outbox_core.js");

function item(n, extra = {}) {
  return { n, key: "key-" + n, label: "action " + n, state: "queued", expected: 10 + n, ...extra };
}

function response(status, { headers = {}, redirected = false, url = "http://10.0.0.1/tables/1/" } = {}) {
  const r = new Response(status === 204 || status === 304 ? null : "body", { status, headers });
  Object.defineProperty(r, "redirected", { value: redirected });
  Object.defineProperty(r, "url", { value: url });
  return r;
}

// A server the test scripts: each send takes the next answer (a Response, or "network").
function harness(answers, { items = [item(1), item(2)], session = { signedIn: true, token: "fresh" } } = {}) {
  const store = core.memoryStore(items);
  const sent = [];
  const recorded = [];
  const problems = [];
  let sessions = 0;
  const outbox = core.create({
    store,
    token: "old",
    send: async (it, token) => {
      sent.push([it.key, token]);
      const next = answers.shift();
      if (next === undefined) { throw new Error("no more answers scripted"); }
      if (next === "network") { throw new TypeError("Failed to fetch"); }
      return core.answerOf(next.response, "", next.extra);
    },
    session: async () => { sessions += 1; return typeof session === "function" ? session() : session; },
    hooks: {
      recorded: (it) => { recorded.push(it.key); },
      problem: (it, answer, outcome) => { problems.push([it.key, it.state, outcome.kind]); },
    },
  });
  return { store, outbox, sent, recorded, problems, sessions: () => sessions };
}

const keys = (store) => store.items().sort((a, b) => a.n - b.n).map((i) => [i.key, i.state]);
const ok = (record) => ({ response: response(200, { headers: { "X-Record": String(record) } }) });

test("a recorded answer (X-Record) takes each action out, in order", async () => {
  const h = harness([ok(11), ok(12)]);
  await h.outbox.flush();
  assert.deepEqual(h.recorded, ["key-1", "key-2"]);
  assert.deepEqual(h.sent.map((s) => s[0]), ["key-1", "key-2"]);
  assert.deepEqual(keys(h.store), []);
});

test("a network error keeps everything queued, nothing sent after it", async () => {
  const h = harness(["network"]);
  await h.outbox.flush();
  assert.deepEqual(keys(h.store), [["key-1", "queued"], ["key-2", "queued"]]);
  assert.equal(h.store.items().find((i) => i.n === 1).problem.kind, "network");
  assert.equal(h.sent.length, 1);
});

test("401 waits for a sign-in; the sign-in sends the queue in order with unchanged keys", async () => {
  const h = harness([{ response: response(401) }, ok(11), ok(12)]);
  await h.outbox.flush();
  assert.deepEqual(keys(h.store), [["key-1", "signin"], ["key-2", "queued"]]);
  assert.equal(core.summary(h.store.items()).text, "Sign in again to send 2 actions");
  await h.outbox.signedIn("after-sign-in");
  assert.deepEqual(keys(h.store), []);
  assert.deepEqual(h.sent, [["key-1", "old"], ["key-1", "after-sign-in"], ["key-2", "after-sign-in"]]);
});

test("403 not signed in (X-Refused: sign-in) waits for a sign-in", async () => {
  const h = harness([{ response: response(403, { headers: { "X-Refused": "sign-in" } }) }]);
  await h.outbox.flush();
  assert.deepEqual(keys(h.store), [["key-1", "signin"], ["key-2", "queued"]]);
});

test("a redirect to the sign-in page waits for a sign-in", async () => {
  const h = harness([{ response: response(200, { redirected: true, url: "http://x/accounts/login/?next=/t/" }) }]);
  await h.outbox.flush();
  assert.deepEqual(keys(h.store), [["key-1", "signin"], ["key-2", "queued"]]);
});

test("403 stale CSRF token: a fresh token is fetched and the same key sent again", async () => {
  const h = harness([{ response: response(403, { headers: { "X-Refused": "csrf" } }) }, ok(11), ok(12)]);
  await h.outbox.flush();
  assert.deepEqual(keys(h.store), []);
  assert.deepEqual(h.sent, [["key-1", "old"], ["key-1", "fresh"], ["key-2", "fresh"]]);
  assert.equal(h.sessions(), 1);
});

test("403 stale CSRF token with the session gone: waits for a sign-in", async () => {
  const h = harness([{ response: response(403, { headers: { "X-Refused": "csrf" } }) }],
    { session: { signedIn: false, token: "anon" } });
  await h.outbox.flush();
  assert.deepEqual(keys(h.store), [["key-1", "signin"], ["key-2", "queued"]]);
});

test("403 twice for a token: the second time it waits, it does not loop", async () => {
  const csrf = () => ({ response: response(403, { headers: { "X-Refused": "csrf" } }) });
  const h = harness([csrf(), csrf()]);
  await h.outbox.flush();
  assert.deepEqual(keys(h.store), [["key-1", "queued"], ["key-2", "queued"]]);
  assert.equal(h.sent.length, 2);
  assert.equal(core.summary(h.store.items()).kind, "trouble");
});

test("403 not this table's judge keeps the actions, waiting for the right sign-in", async () => {
  const h = harness([{ response: response(403, { headers: { "X-Refused": "forbidden" } }) }]);
  await h.outbox.flush();
  assert.deepEqual(keys(h.store), [["key-1", "signin"], ["key-2", "queued"]]);
  assert.match(core.summary(h.store.items()).text, /Not this table's judge/);
});

test("403 saying nothing: the session is asked; signed out means sign in", async () => {
  const h = harness([{ response: response(403) }], { session: { signedIn: false, token: "t" } });
  await h.outbox.flush();
  assert.deepEqual(keys(h.store), [["key-1", "signin"], ["key-2", "queued"]]);
});

for (const [status, kind] of [[404, "not-found"], [413, "too-large"], [400, "refused"], [422, "refused"]]) {
  test(`${status} is refused: kept in view until the judge discards it`, async () => {
    const h = harness([{ response: response(status) }]);
    await h.outbox.flush();
    assert.deepEqual(keys(h.store), [["key-1", "refused"], ["key-2", "queued"]]);
    assert.deepEqual(h.problems, [["key-1", "refused", kind]]);
    await h.outbox.flush();  // a flush does not skip it: the queue holds
    assert.equal(h.sent.length, 1);
    await h.outbox.discard("key-1");
    // The next one was made after the discarded one: the judge decides it too.
    assert.deepEqual(keys(h.store), [["key-2", "refused"]]);
    assert.equal(h.store.items()[0].problem.kind, "after-discarded");
  });
}

test("an engine refusal carries its rule in the reason", async () => {
  const h = harness([{ response: response(400), extra: { refusal: "1.06.03 cannot ship into the storm" } }]);
  await h.outbox.flush();
  assert.match(h.store.items().find((i) => i.n === 1).problem.reason, /1\.06\.03 cannot ship/);
});

test("409 stale: a conflict, kept; sending it on the new position records it", async () => {
  const h = harness([{ response: response(409), extra: { stale: true } }, ok(12), ok(13)]);
  await h.outbox.flush();
  assert.deepEqual(h.problems, [["key-1", "refused", "conflict"]]);
  assert.deepEqual(keys(h.store), [["key-1", "refused"], ["key-2", "queued"]]);
  await h.outbox.retry("key-1");
  assert.deepEqual(keys(h.store), []);
  assert.deepEqual(h.sent.map((s) => s[0]), ["key-1", "key-1", "key-2"]);
});

for (const status of [500, 502, 503, 429]) {
  test(`${status} keeps it queued and holds the queue`, async () => {
    const h = harness([{ response: response(status, { headers: { "Retry-After": "5" } }) }]);
    await h.outbox.flush();
    assert.deepEqual(keys(h.store), [["key-1", "queued"], ["key-2", "queued"]]);
    assert.equal(h.store.items().find((i) => i.n === 1).problem.kind, "server");
  });
}

test("a page instead of the answer (no X-Record, e.g. a Wi-Fi portal) is not taken as recorded", async () => {
  const h = harness([{ response: new Response("<html>Welcome to the hotel Wi-Fi</html>", { status: 200 }) }, ok(11), ok(12)]);
  await h.outbox.flush();
  assert.deepEqual(keys(h.store), [["key-1", "queued"], ["key-2", "queued"]]);
  assert.equal(h.store.items().find((i) => i.n === 1).problem.kind, "unexpected");
  await h.outbox.flush();  // sent again with the same key: the server records it at most once
  assert.deepEqual(keys(h.store), []);
  assert.deepEqual(h.sent.map((s) => s[0]), ["key-1", "key-1", "key-2"]);
});

test("an action a reload left `sending` is sent again with its key", async () => {
  const h = harness([ok(11)], { items: [item(1, { state: "sending" })] });
  await h.outbox.flush();
  assert.deepEqual(h.sent, [["key-1", "old"]]);
  assert.deepEqual(keys(h.store), []);
});

test("only recorded and discarded leave; discarding a recorded or sending action is refused", () => {
  assert.deepEqual(core.STATES, ["queued", "sending", "recorded", "refused", "signin", "discarded"]);
  for (const state of core.STATES) {
    assert.equal(core.leaves({ state }), state === "recorded" || state === "discarded", state);
  }
  assert.throws(() => core.discard(item(1, { state: "recorded" })));
  assert.throws(() => core.discard(item(1, { state: "sending" })));
  for (const state of ["queued", "refused", "signin"]) {
    assert.equal(core.discard(item(1, { state })).state, "discarded");
  }
});

test("every answer kind but a recorded one keeps the action", () => {
  const answers = [
    { network: true }, { status: 401 }, { status: 403, refused: "sign-in" }, { status: 403, refused: "csrf" },
    { status: 403, refused: "forbidden" }, { status: 403 }, { status: 404 }, { status: 409, stale: true },
    { status: 409 }, { status: 413 }, { status: 400 }, { status: 422 }, { status: 429 }, { status: 500 },
    { status: 503 }, { status: 200 }, { status: 204 }, { status: 302 }, { status: 200, loginPage: true, record: null },
  ];
  for (const answer of answers) {
    const outcome = core.classify(answer);
    const after = core.apply(item(1), outcome);
    assert.ok(!core.leaves(after), JSON.stringify(answer) + " -> " + after.state);
    assert.ok(outcome.reason && outcome.todo, "words for " + JSON.stringify(answer));
  }
  assert.equal(core.apply(item(1), core.classify({ status: 200, record: "12" })).state, "recorded");
});

test("Earlier: an action swaps places with the one ahead of it; the first, and one on its way, stay", async () => {
  const items = [item(1, { state: "refused" }), item(2), item(3)];
  const pair = core.moveEarlier(items, "key-3");
  assert.deepEqual(pair.map((i) => [i.key, i.n]), [["key-3", 2], ["key-2", 3]]);
  assert.deepEqual(core.moveEarlier(items, "key-1"), []);
  assert.deepEqual(core.moveEarlier([item(1, { state: "sending" }), item(2)], "key-2"), []);
  const store = core.memoryStore(items);
  const outbox = core.create({ store, token: "t", send: async () => { throw new Error("not sent"); },
    session: async () => ({ signedIn: true }), hooks: {} });
  await outbox.earlier("key-2");
  assert.deepEqual((await store.load()).map((i) => i.key), ["key-2", "key-1", "key-3"]);
  assert.equal((await store.load()).every((i) => i.state !== "discarded"), true);
});

test("the same answer again backs off twice as long each time; another answer starts afresh", () => {
  let state = {};
  const waits = [];
  let now = 0;
  for (let i = 0; i < 5; i++) {
    const step = core.backoff(state, "32:k33,k34", now);
    state = step.state;
    waits.push(step.waitMs);
    now += step.waitMs;
  }
  assert.deepEqual(waits, [0, 2000, 4000, 8000, 16000]);
  const asked = core.backoff(state, "32:k33,k34", now - 1000);  // asked again while waiting: no new repeat
  assert.equal(asked.count, 5);
  assert.equal(core.backoff(state, "40:k41", now).waitMs, 0);
  let capped = {};
  for (let i = 0; i < 20; i++) { capped = core.backoff(capped, "s", capped.until || 0).state; }
  assert.equal(core.backoff(capped, "s", capped.until).waitMs, 120000);
});

test("after a lost connection the next try comes soon, then later, spread by chance, never past the limit", () => {
  assert.equal(core.retryDelay(0, 0), 500);
  assert.ok(core.retryDelay(0, 0.999) <= 1000);
  assert.ok(core.retryDelay(1, 0.5) > core.retryDelay(0, 0.5));
  assert.ok(core.retryDelay(10, 0.999) <= 15000 && core.retryDelay(10, 0.999) > 14000);
  assert.ok(core.retryDelay(10, 0) < core.retryDelay(10, 0.999));
});

test("an action held back by a repeated answer waits until its time; a judge's retry sends it at once", () => {
  const item = { n: 1, key: "k", state: "queued", notBefore: 5000 };
  assert.equal(core.nextToSend([item], 4000), null);
  assert.equal(core.nextToSend([item], 5000), item);
  assert.equal(core.retry(item).notBefore, null);
  const lost = { n: 1, key: "k", state: "queued", problem: { kind: "lost", reason: "The server lost records #33–#51; sending them again." } };
  assert.deepEqual(core.summary([lost]), { kind: "refilling", text: "The server lost records #33–#51; sending them again." });
});
