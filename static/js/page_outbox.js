// The phone's other writes (a clock action, filing or reopening a report, the kept card,
// self check-in) under the same outbox rules as the table page (static/js/outbox_core.js):
// a form marked `data-outbox` is kept on this phone (localStorage, by the page) with a key,
// sent with `X-Outbox: 1` (config/outbox_answers.py answers a done write with `X-Record`), and
// leaves only when the server did it or the judge discards it. A lost session is signed in
// again here, in place; a stale token is renewed; a refusal stays in view with its words.
// After a done write the page goes where the form's redirect pointed (the message is there).
// Without JavaScript the forms post as they always did.
(function () {
  "use strict";
  // The words a person reads come from the page's JavaScript catalogue (/jsi18n/<lang>/, loaded
  // before this script); without it they stay as written.
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };
  var core = window.DuneOutboxCore;
  var script = document.currentScript;
  if (!core || !window.fetch || !window.localStorage || !script) { return; }
  var SESSION = script.dataset.session;
  var LOGIN = script.dataset.login;
  var STORE_KEY = "dune-page-outbox-v1";
  var RETRY_MS = 15000;
  var here = location.pathname;

  function all() {
    try { return JSON.parse(localStorage.getItem(STORE_KEY) || "[]"); } catch (e) { return []; }
  }
  function write(items) { localStorage.setItem(STORE_KEY, JSON.stringify(items)); }
  var store = {
    load: function () {
      return Promise.resolve(all().filter(function (i) { return i.page === here; }).sort(function (a, b) { return a.n - b.n; }));
    },
    save: function (item) {
      write(all().filter(function (i) { return i.n !== item.n; }).concat([item]));
      return Promise.resolve();
    },
    remove: function (item) {
      write(all().filter(function (i) { return i.n !== item.n; }));
      return Promise.resolve();
    }
  };

  // --- what the judge sees: a panel at the bottom edge ---------------------------------------
  var panel = document.createElement("section");
  panel.id = "page-outbox";
  panel.className = "page-outbox";
  panel.hidden = true;
  panel.setAttribute("aria-live", "polite");
  panel.innerHTML = '<p class="page-outbox-summary" role="status"></p><ol class="pending"></ol>' +
    '<form class="sign-in-sheet" hidden><h2>Sign in again</h2>' +
    '<p class="field-error" role="alert" hidden></p>' +
    '<label>Username <input name="username" autocomplete="username" autocapitalize="none" required></label>' +
    '<label>Password <input name="password" type="password" autocomplete="current-password" required></label>' +
    '<p class="actions"><button type="submit" class="primary">' + gettext("Sign in and send") + '</button></p></form>';
  document.body.appendChild(panel);
  var sheet = panel.querySelector("form");

  function button(text, cls, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }

  function render(items) {
    var summary = core.summary(items);
    panel.hidden = !items.length;
    panel.dataset.queued = String(items.length);
    panel.dataset.summary = summary.kind;
    panel.querySelector(".page-outbox-summary").textContent = summary.text;
    var list = panel.querySelector(".pending");
    list.textContent = "";
    items.forEach(function (item, i) {
      var li = document.createElement("li");
      li.dataset.state = item.state;
      li.appendChild(document.createTextNode(interpolate(item.state === "queued" || item.state === "sending" ? gettext("%(label)s (waiting, not sent yet)") : gettext("%(label)s (not sent)"), { label: item.label }, true)));
      if (item.problem && (i === 0 || item.state !== "queued")) {
        var why = document.createElement("span");
        why.className = "why";
        why.textContent = " " + item.problem.reason + " " + item.problem.todo;
        li.appendChild(why);
      }
      if (i === 0 && (item.state === "refused" || item.state === "signin" || (item.problem && item.problem.kind !== "network"))) {
        var actions = document.createElement("span");
        actions.className = "actions";
        if (item.state !== "signin") { actions.appendChild(button(gettext("Retry"), "", function () { outbox.retry(item.key); })); }
        actions.appendChild(button(gettext("Discard"), "danger", function () { outbox.discard(item.key); }));
        li.appendChild(actions);
      }
      list.appendChild(li);
    });
    sheet.hidden = summary.kind !== "signin";
  }

  function readAnswer(html) {
    var doc = new DOMParser().parseFromString(html || "", "text/html");
    var alert = doc.querySelector("main .field-error, main [role=alert], main .error");
    return { refusal: alert ? alert.textContent.replace(/\s+/g, " ").trim().slice(0, 300) : "", doc: doc };
  }

  function send(item, token) {
    var body = new URLSearchParams();
    item.fields.forEach(function (p) { body.append(p[0], p[1]); });
    var headers = { "X-Outbox": "1", "Idempotency-Key": item.key };
    if (token) { headers["X-CSRFToken"] = token; }
    return fetch(item.url, { method: "POST", credentials: "same-origin", body: body, headers: headers })
      .then(function (response) {
        return response.text().then(function (text) {
          var read = /html/.test(response.headers.get("Content-Type") || "") ? readAnswer(text) : {};
          return core.answerOf(response, text, read);
        });
      });
  }

  function session() {
    return fetch(SESSION, { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (body) { return { signedIn: !!body.signed_in, token: body.csrf_token }; });
  }

  var tokenField = document.querySelector("input[name=csrfmiddlewaretoken]");
  var outbox = core.create({
    store: store,
    token: tokenField ? tokenField.value : "",
    send: send,
    session: session,
    hooks: {
      recorded: function (item, answer) {
        if (answer.location) { location.assign(answer.location); }
      },
      problem: function (item, answer, outcome) {
        // A refused form comes back with its message next to the field and what was typed.
        var main = answer.doc && answer.doc.querySelector("main");
        if (outcome.state === "refused" && main && document.querySelector("main")) {
          document.querySelector("main").replaceWith(document.adoptNode(main));
        }
      },
      changed: render
    }
  });

  sheet.addEventListener("submit", function (event) {
    event.preventDefault();
    var error = sheet.querySelector(".field-error");
    error.hidden = true;
    session().then(function (now) {
      var body = new URLSearchParams();
      body.append("username", sheet.elements.username.value);
      body.append("password", sheet.elements.password.value);
      return fetch(LOGIN, { method: "POST", credentials: "same-origin", body: body,
        headers: { Accept: "application/json", "X-CSRFToken": now.token } });
    }).then(function (r) {
      return r.json().catch(function () { return { signed_in: false, error: interpolate(gettext("The server answered %(status)s: try again."), { status: r.status }, true) }; });
    }).then(function (answer) {
      if (!answer.signed_in) { error.textContent = answer.error || gettext("Not signed in."); error.hidden = false; return null; }
      sheet.elements.password.value = "";
      return outbox.signedIn(answer.csrf_token);
    }, function () {
      error.textContent = gettext("No connection to the server: try again when the phone is back online.");
      error.hidden = false;
    });
  });

  var n = Date.now();
  // Capture: before htmx or the page's own handlers see the submit.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-outbox]")) { return; }
    if (!form.checkValidity()) { return; }  // the browser says what is missing first
    event.preventDefault();
    event.stopImmediatePropagation();
    var fields = [];
    new FormData(form, event.submitter || undefined).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") { fields.push([name, String(value)]); }
    });
    var keyField = form.querySelector("input[name=idempotency_key]");
    var bytes = new Uint8Array(8);
    if (window.crypto && crypto.getRandomValues) { crypto.getRandomValues(bytes); }
    var key = keyField && keyField.value ? keyField.value
      : Date.now() + "-" + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    var submitter = event.submitter;
    var label = form.dataset.outbox || (submitter ? submitter.textContent.trim() : "Form");
    var url = form.getAttribute("action") || location.pathname + location.search;
    n = Math.max(n + 1, Date.now());
    outbox.open().then(function (items) {
      // The same form sent again after a refusal takes the refused one's place.
      var first = items[0];
      if (first && first.state === "refused" && first.url === url) { return store.remove(core.discard(first)); }
      return null;
    }).then(function () {
      return store.save({ n: n, page: here, key: key, url: url, fields: fields, label: label, state: "queued", expected: 0 });
    }).then(outbox.flush);
  }, true);

  window.addEventListener("online", function () { outbox.flush(); });
  setInterval(function () { if (navigator.onLine) { outbox.flush(); } }, RETRY_MS);
  outbox.changed().then(function () { return navigator.onLine ? outbox.flush() : null; });
  window.pageOutbox = outbox;
})();
