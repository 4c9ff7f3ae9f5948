// The table page's outbox: every action the judge records goes through it, online or not.
//
// An action is kept on this phone (IndexedDB, by the page itself: it works at the venue's
// plain-HTTP address, where browsers run no service worker) with a key made here and the
// sequence number it expects, then sent in order, one at a time, to the same URL the form
// posts to, as an htmx request with an `Idempotency-Key` header: the server records it at most
// once, however often a flaky connection makes us send it. The rules (what each answer means,
// what holds the queue, what may leave it) are static/js/outbox_core.js; this file is the
// page around them: the store, the request, and what the judge sees.
//
// Only a recorded answer (`X-Record`) or the judge's "Discard" takes an action out. Anything
// else keeps it in view as "not sent" with the reason in words and what to do: sign in again
// here (a sheet on this page, the page and the queue stay), a fresh security token fetched
// when the old one went stale, a refusal with its rule, a conflict with another judge's record.
(function () {
  "use strict";
  // The words a person reads come from the page's JavaScript catalogue (/jsi18n/<lang>/, loaded
  // before this script); without it they stay as written.
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };
  var DB_NAME = "table-outbox";
  var STORE = "actions";
  var RETRY_MS = 15000;
  var RETRY_MAX_MS = 20000;  // the longest wait between tries while the server is away (10-20 s, spread)
  var CHECK_MS = 20000;
  var DOUBLE_TAP_MS = 1500;
  var core = window.DuneOutboxCore;

  var live = function () { return document.getElementById("table-live"); };
  if (!live() || !window.indexedDB || !window.fetch || !core) { return; }  // the plain forms still work
  var table = live().dataset.table;
  var banner = document.getElementById("net-banner");
  var counter = document.getElementById("outbox");
  var offlineBanner = document.getElementById("offline-banner");
  var conflict = document.getElementById("conflict");
  var sheet = document.getElementById("sign-in-sheet");
  var lastTap = { form: null, fields: "", at: 0 };
  // Browsers keep a copy of the page for offline reloads (a service worker) only in a secure
  // context: HTTPS, or this laptop itself. At the venue's plain-HTTP address they do not.
  var keepsCopy = !!(window.isSecureContext && navigator.serviceWorker && window.caches);

  // --- IndexedDB ---------------------------------------------------------------------------
  var dbPromise = new Promise(function (resolve, reject) {
    var request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = function () {
      var store = request.result.createObjectStore(STORE, { keyPath: "n", autoIncrement: true });
      store.createIndex("table", "table");
    };
    request.onsuccess = function () { resolve(request.result); };
    request.onerror = function () { reject(request.error); };
  });

  function tx(mode, work) {
    return dbPromise.then(function (db) {
      return new Promise(function (resolve, reject) {
        var t = db.transaction(STORE, mode);
        var result = work(t.objectStore(STORE));
        t.oncomplete = function () { resolve(result && "result" in result ? result.result : result); };
        t.onerror = function () { reject(t.error); };
        t.onabort = function () { reject(t.error); };
      });
    });
  }

  var store = {
    load: function () {  // this table's actions, oldest first
      return tx("readonly", function (s) { return s.index("table").getAll(table); })
        .then(function (items) { return (items || []).sort(function (a, b) { return a.n - b.n; }); });
    },
    save: function (item) { return tx("readwrite", function (s) { return s.put(item); }); },
    remove: function (item) { return tx("readwrite", function (s) { return s.delete(item.n); }); }
  };

  // --- what the judge sees -----------------------------------------------------------------
  function pageSeq() { return parseInt(live().dataset.seq, 10); }

  function showOffline(offline) {
    offlineBanner.hidden = !offline;
    document.body.classList.toggle("is-offline", offline);
    if (offline) {
      offlineBanner.textContent = keepsCopy
        ? interpolate(gettext("Offline: a reload shows record #%(seq)s."), { seq: pageSeq() }, true)
        : gettext("Offline: actions wait on this phone. Do not reload: at this address a reload shows the " +
          "browser's offline page until the Wi-Fi is back (the actions stay on this phone).");
    }
  }

  var STATE_WORDS = { queued: gettext("waiting, not sent yet"), sending: gettext("sending"), refused: gettext("not sent"),
    signin: gettext("not sent"), recorded: gettext("recorded"), discarded: gettext("discarded") };
  // The words of the waiting list's buttons (one place, for translation; the page's own
  // translated words where it gives them).
  var WORDS = { edit: gettext("Edit"), discard: gettext("Discard"), earlier: gettext("↑ Earlier"), signIn: gettext("Sign in"),
    sendIt: gettext("Send it"), retry: gettext("Retry"),
    earlierLabel: gettext("Move earlier, before the action ahead of it: %(label)s"),
    recordBefore: counter.dataset.recordBefore || gettext("Record it before #%(seq)s"),
    beforeReason: counter.dataset.beforeReason || gettext("Entered late: it belongs before record #%(seq)s"),
    beforeLabel: counter.dataset.beforeLabel || gettext("%(label)s, before record #%(seq)s") };

  // The waiting actions are shown as the next records, clearly not recorded, at the top of the
  // next step; the first one that cannot go carries its reason and the judge's choices.
  function render(items) {
    var open = items.filter(function (i) { return !core.leaves(i); });
    var summary = core.summary(open);
    counter.dataset.queued = String(open.length);
    counter.dataset.summary = summary.kind;
    counter.querySelector(".outbox-count").textContent = String(open.length);
    var words = counter.querySelector(".outbox-words");
    if (summary.kind === "waiting" || summary.kind === "empty") {
      words.textContent = gettext("waiting to be sent");
    } else {  // the reason and what to do, in words
      counter.querySelector(".outbox-count").textContent = "";
      words.textContent = summary.text;
    }
    counter.classList.toggle("has-waiting", open.length > 0);
    counter.classList.toggle("has-problem", summary.kind === "signin" || summary.kind === "refused");
    showSheet(summary.kind === "signin", open);
    showPending(open);
  }

  function button(text, cls, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }

  function showPending(items) {
    var list = document.getElementById("pending");
    if (!items.length) { if (list) { list.remove(); } return; }
    var next = document.getElementById("next");
    var heading = document.getElementById("next-h");
    if (!list) {
      list = document.createElement("ol");
      list.id = "pending";
      list.className = "pending";
      list.setAttribute("aria-label", gettext("Waiting on this phone, not recorded yet"));
    }
    if (next && list.parentNode !== next) {
      next.insertBefore(list, heading ? heading.nextSibling : next.firstChild);
    } else if (!next && list.parentNode !== live()) {
      live().insertBefore(list, live().firstChild);
    }
    list.textContent = "";
    items.forEach(function (item, i) {
      var li = document.createElement("li");
      li.dataset.state = item.state;
      li.dataset.key = item.key;
      var line = document.createElement("span");
      line.textContent = interpolate(gettext("Record #%(seq)s (%(state)s): %(label)s"),
        { seq: item.expected + 1, state: STATE_WORDS[item.state] || item.state, label: item.label }, true);
      li.appendChild(line);
      var problem = item.problem;
      if (problem && (i === 0 || item.state !== "queued")) {
        var why = document.createElement("span");
        why.className = "why";
        why.textContent = problem.reason + " " + problem.todo;
        li.appendChild(why);
      }
      var quiet = problem && (problem.kind === "network" || problem.kind === "lost");
      if (i === 0 && (item.state === "refused" || item.state === "signin" || (problem && !quiet))) {
        li.classList.add("held");
        var actions = document.createElement("span");
        actions.className = "actions";
        if (item.state === "signin") {
          actions.appendChild(button(WORDS.signIn, "primary", function () { openSheet(); }));
        } else if (problem && problem.insertBefore) {  // sent again as it is, it is refused again
          actions.appendChild(button(WORDS.recordBefore.replace("%(seq)s", problem.insertBefore), "primary record-before",
            function () { recordBefore(item, problem.insertBefore); }));
        } else if (!problem || problem.kind !== "conflict") {
          actions.appendChild(button(item.state === "refused" && problem && problem.kind === "after-discarded"
            ? WORDS.sendIt : WORDS.retry, "", function () { rebase().then(function () { return outbox.retry(item.key); }); }));
        }
        if (item.state === "refused" && formOf(item)) {
          actions.appendChild(button(WORDS.edit, "", function () { edit(item); }));
        }
        actions.appendChild(button(WORDS.discard, "danger", function () { discard(item.key); }));
        li.appendChild(actions);
      }
      if (i > 0 && item.state !== "sending" && items[i - 1].state !== "sending") {
        var earlier = button(WORDS.earlier, "earlier", function () { moveEarlier(item.key); });
        earlier.setAttribute("aria-label", WORDS.earlierLabel.replace("%(label)s", item.label));
        li.appendChild(earlier);
      }
      list.appendChild(li);
    });
  }

  function showSheet(needed, items) {
    if (!needed) { sheet.hidden = true; return; }
    var first = items[0];
    var notJudge = first && first.problem && first.problem.kind === "not-judge";
    sheet.querySelector("h2").textContent = notJudge ? gettext("Sign in as this table's judge or a head judge") : gettext("Sign in again");
    document.getElementById("sign-in-why").textContent = (notJudge ? first.problem.reason : gettext("Not signed in.")) + " " +
      interpolate(ngettext("%(count)s action waits on this phone; it is sent, in order, once you are signed in. This page stays as it is.",
        "%(count)s actions wait on this phone; they are sent, in order, once you are signed in. This page stays as it is.",
        items.length), { count: items.length }, true);
    if (sheet.hidden) { sheet.hidden = false; }
  }

  function openSheet() {
    sheet.hidden = false;
    sheet.scrollIntoView({ block: "end" });
    document.getElementById("sign-in-username").focus({ preventScroll: true });
  }

  // The versions of the parts this page shows: the answer leaves out those it would repeat.
  function partsShown() {
    return Array.prototype.map.call(live().querySelectorAll("[data-part][data-version]"), function (el) {
      return el.dataset.version;  // a version names its part
    }).join(",");
  }

  // --- what the judge is typing ------------------------------------------------------------
  // A field the judge changed since it was last sent or drawn is theirs: an answer that comes in
  // meanwhile (the previous send's, a poll's) never replaces it. Its value, the caret and the
  // focus are carried into the answer's copy of the same form, and the page does not scroll.
  var typed = new WeakSet();
  document.addEventListener("input", markTyped, true);
  document.addEventListener("change", markTyped, true);
  function markTyped(event) {
    var el = event.target;
    if (el && el.form && el.name && el.type !== "hidden" && el.closest("#table-live")) { typed.add(el); }
  }
  function formId(form) { return (form.dataset.action || form.id || "") + "|" + (form.dataset.formKey || ""); }

  function typedNow(root) {  // [{form id, fields: [[name, value, checked]], focus, caret, open}]
    var out = [];
    var active = document.activeElement;
    Array.prototype.forEach.call(root.querySelectorAll("form[data-event-type]"), function (form) {
      var fields = [];
      Array.prototype.forEach.call(form.elements, function (el) {
        if (typed.has(el)) { fields.push([el.name, el.value, el.checked, el.type]); }
      });
      if (!fields.length) { return; }
      var focused = active && active.form === form && typed.has(active) ? active : null;
      var caret = null;
      try { caret = focused && focused.selectionStart !== null ? [focused.selectionStart, focused.selectionEnd] : null; } catch (e) { caret = null; }
      var details = form.closest("details");
      out.push({ id: formId(form), fields: fields, focus: focused ? [focused.name, focused.value] : null, caret: caret,
        open: details ? details.open : null });
    });
    return out;
  }

  function putTyped(root, kept) {
    var focusEl = null;
    kept.forEach(function (k) {
      var form = Array.prototype.filter.call(root.querySelectorAll("form[data-event-type]"), function (f) { return formId(f) === k.id; })[0];
      if (!form) { return; }
      k.fields.forEach(function (f) {
        var els = form.elements.namedItem(f[0]);
        if (!els) { return; }
        var list = els.length !== undefined && !els.tagName ? Array.prototype.slice.call(els) : [els];
        list.forEach(function (el) {
          if (el.type === "checkbox" || el.type === "radio") {
            if (el.value === f[1]) { el.checked = f[2]; typed.add(el); }
          } else if (el.type !== "hidden") {
            el.value = f[1];
            typed.add(el);
          }
        });
      });
      var details = form.closest("details");
      if (details && k.open) { details.open = true; }
      if (k.focus) {
        var el = form.elements.namedItem(k.focus[0]);
        if (el && !el.tagName && el.length) {
          el = Array.prototype.filter.call(el, function (e) { return e.value === k.focus[1]; })[0] || el[0];
        }
        if (el && el.focus) { focusEl = el; }
        if (el && k.caret && el.setSelectionRange) {
          try { el.setSelectionRange(k.caret[0], k.caret[1]); } catch (e) { /* a field without a caret */ }
        }
      }
    });
    if (focusEl) { focusEl.focus({ preventScroll: true }); }
  }

  // The judge is typing: the focus is in a field they changed (the page keeps still for them).
  function typing() {
    var el = document.activeElement;
    return !!(el && el.form && typed.has(el) && el.closest("#table-live"));
  }

  // The answer in place of the live part; a part it left out (unchanged) is the page's own,
  // moved across as it is (what the judge opened or typed there stays).
  function swapIn(html) {
    var target = live();
    var kept = typedNow(target);
    var answer = document.createElement("template");
    answer.innerHTML = html.trim();
    var fresh = answer.content.querySelector("#table-live");
    if (!fresh) { return false; }
    Array.prototype.forEach.call(answer.content.querySelectorAll("[data-part][data-same]"), function (gap) {
      var kept = target.querySelector('[data-part="' + gap.dataset.part + '"]');
      if (kept && kept.dataset.version === gap.dataset.version) { gap.replaceWith(kept); }
    });
    var missing = fresh.querySelector("[data-part][data-same]");
    if (missing) { location.reload(); return false; }  // should not happen: then the whole page, fresh
    var scrolled = window.scrollY;
    target.replaceWith(fresh);
    putTyped(fresh, kept);
    if (kept.length && typing()) { window.scrollTo(0, scrolled); }
    if (window.htmx && window.htmx.process) { window.htmx.process(fresh); }
    if (window.duneClocks && window.duneClocks.scan) { window.duneClocks.scan(); }
    if (document.documentElement.dataset.offlineCopy) {  // the server answered: this is the table now
      delete document.documentElement.dataset.offlineCopy;
      var line = document.getElementById("offline-copy");
      if (line) { line.hidden = true; }
    }
    document.dispatchEvent(new CustomEvent("table:updated"));
    return true;
  }

  // The form just recorded starts afresh, also where the answer left its part as the page had it;
  // what the judge typed there since sending it stays.
  function clearSent(item) {
    var action = "";
    item.fields.forEach(function (p) { if (p[0] === "action") { action = p[1]; } });
    Array.prototype.forEach.call(live().querySelectorAll('form[data-event-type="' + item.eventType + '"]'), function (form) {
      if (!form.elements.action || form.elements.action.value !== action) { return; }
      Array.prototype.forEach.call(form.elements, function (el) {
        if (typed.has(el) || el.type === "hidden" || !el.name) { return; }
        if (el.type === "checkbox" || el.type === "radio") { el.checked = el.defaultChecked; }
        else if (el.tagName === "SELECT") {
          Array.prototype.forEach.call(el.options, function (o) { o.selected = o.defaultSelected; });
        } else if (el.value !== undefined && el.type !== "submit" && el.type !== "button") { el.value = el.defaultValue; }
      });
    });
  }

  // What a form held when it was sent is no longer the judge's typing: the next keys are.
  function sentFrom(form) {
    Array.prototype.forEach.call(form.elements, function (el) { typed.delete(el); });
  }

  function describe(form, submitter) {
    // The button that sent it ("Record the battle", "Move, then Spice Blow"), else the form's own.
    var button = submitter || form.querySelector("button[type=submit]:not([name=preview])") ||
      form.querySelector("button[type=submit]");
    var what = button ? button.textContent.trim() : form.dataset.eventType;
    var parts = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit") { return; }
      if ((el.type === "checkbox" || el.type === "radio") && !el.checked) { return; }
      var text = el.tagName === "SELECT" ? (el.selectedOptions[0] || {}).textContent : el.value;
      if (el.type === "checkbox") {
        var label = el.closest("label");
        text = el.getAttribute("aria-label") || (label ? label.textContent.trim() : el.value);
      }
      if (text && text !== "—") { parts.push(text.trim()); }
    });
    return what + (parts.length ? ": " + parts.join(", ") : "");
  }

  // The re-rendered form an action came from: the one with its `data-form-key` where the page
  // has several forms of one kind (a put-back form per removed stack), else the kind's form.
  function formOf(item) {
    var forms = live().querySelectorAll('form[data-event-type="' + item.eventType + '"]');
    for (var i = 0; i < forms.length; i++) {
      if (item.formKey && forms[i].dataset.formKey === item.formKey) { return forms[i]; }
    }
    return item.formKey ? null : forms[0] || null;
  }

  // Put what was sent back into the re-rendered form (checkboxes included) after a refusal.
  function restore(item) {
    var form = formOf(item);
    if (!form) { return; }
    var sent = {};
    item.fields.forEach(function (pair) { (sent[pair[0]] = sent[pair[0]] || []).push(pair[1]); });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || !(el.name in sent)) {
        if (el.type === "checkbox" && el.name && !(el.name in sent)) { el.checked = false; }
        return;
      }
      if (el.type === "checkbox" || el.type === "radio") {
        el.checked = sent[el.name].indexOf(el.value) !== -1;
      } else if ((el.type === "text" || el.tagName === "TEXTAREA") && el.value) {
        // The server sent the text back as it kept it (without characters it cannot store).
      } else {
        el.value = sent[el.name][0];
      }
    });
    var details = form.closest("details");
    if (details) { details.open = true; }
  }

  // What the answer's page says: the refusal's rule and message, whether it is a conflict.
  function readAnswer(html) {
    var doc = new DOMParser().parseFromString(html || "", "text/html");
    var refusal = doc.querySelector("#refusal > p") || doc.querySelector("#refusal");  // its words, not its forms
    var text = refusal ? refusal.textContent.replace(/\s+/g, " ").trim() : "";
    if (!text) {
      var alert = doc.querySelector("main [role=alert], .field-error");
      text = alert ? alert.textContent.replace(/\s+/g, " ").trim() : "";
    }
    var shown = doc.querySelector("#table-live");
    var seq = shown ? parseInt(shown.dataset.seq, 10) : NaN;
    var before = doc.querySelector("#insert-before");
    return { refusal: text.slice(0, 300), stale: !!doc.querySelector("#stale"), page: !!shown,
      seq: isNaN(seq) ? null : seq, insertBefore: before ? parseInt(before.dataset.insertBefore, 10) || null : null };
  }

  // --- the queue ---------------------------------------------------------------------------
  function newKey(now) {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }  // secure contexts only
    var bytes = new Uint8Array(16);
    if (window.crypto && crypto.getRandomValues) { crypto.getRandomValues(bytes); }
    else { for (var i = 0; i < 16; i++) { bytes[i] = Math.floor(Math.random() * 256); } }
    return String(now) + "-" + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // The form's fields with the button that sent it (a "then" button moves on to a later phase).
  function formData(form, submitter) {
    if (!submitter || !submitter.name) { return new FormData(form); }
    try { return new FormData(form, submitter); } catch (e) {
      var data = new FormData(form);
      data.append(submitter.name, submitter.value);
      return data;
    }
  }

  // How many records an action makes: its event, and the phase a "then" button moves on to.
  function span(item) {
    return item.fields.some(function (p) { return p[0] === "then" && p[1]; }) ? 2 : 1;
  }

  function add(form, submitter) {
    // Asking the engine for a battle's resolution needs the server: a phone without one queues
    // the battle itself, as "Record the battle" (the judge sees it waiting and can discard it).
    if (submitter && submitter.name === "preview") { submitter = null; }
    var data = formData(form, submitter);
    var fields = [];
    data.forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") { fields.push([name, String(value)]); }  // sent fresh, as a header
    });
    var signature = JSON.stringify(fields.filter(function (p) { return p[0] !== "idempotency_key"; }));
    var now = Date.now();
    if (lastTap.form === form && lastTap.fields === signature && now - lastTap.at < DOUBLE_TAP_MS) {
      return Promise.resolve();  // a double tap, not a second action
    }
    lastTap = { form: form, fields: signature, at: now };
    var label = describe(form, submitter);
    sentFrom(form);
    // Offline no answer starts the form afresh: it is cleared now, with what it sent already
    // read, so the judge's next entry typed while this one is being queued is kept.
    if (!navigator.onLine) { form.reset(); }
    var eventType = form.dataset.eventType;
    var formKey = form.dataset.formKey || "";
    return outbox.open().then(function (items) {
      // The judge corrected a refused form (or took it back to edit) and sent it again: the new
      // one takes its place in the queue, ahead of what was made after it.
      var first = items[0];
      var replaced = first && first.state === "refused" && first.problem &&
        (first.problem.kind === "refused" || first.problem.kind === "after-discarded") &&
        first.eventType === eventType && first.formKey === formKey ? first : null;
      var last = items[items.length - 1];
      var action = {
        table: table, key: newKey(now), url: form.getAttribute("action") || location.pathname, fields: fields,
        expected: replaced ? replaced.expected : last ? last.expected + span(last) : pageSeq(),
        label: label, eventType: eventType, formKey: formKey, created: now, state: "queued"
      };
      if (replaced) { action.n = replaced.n; }
      return store.save(action).then(function () { return replaced ? rebase() : null; });
    }).then(function () {
      return outbox.changed();
    }).then(function () {
      if (!navigator.onLine) { document.dispatchEvent(new CustomEvent("table:settle")); }
      askForSync();
      return outbox.flush();
    });
  }

  function bodyOf(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) {
      if (pair[0] === "expected_seq") { body.append(pair[0], String(item.expected)); }
      else if (pair[0] === "idempotency_key") { body.append(pair[0], item.key); }
      else if (pair[0] !== "csrfmiddlewaretoken") { body.append(pair[0], pair[1]); }
    });
    return body;
  }

  function send(item, token) {
    var headers = { "HX-Request": "true", "HX-Target": "table-live", "Idempotency-Key": item.key,
      "X-Table-Parts": partsShown(), "X-Outbox": "1" };
    if (token) { headers["X-CSRFToken"] = token; }
    return fetch(item.url, { method: "POST", credentials: "same-origin", body: bodyOf(item), headers: headers })
      .then(function (response) {
        return response.text().then(function (text) {
          var read = /html/.test(response.headers.get("Content-Type") || "") ? readAnswer(text) : {};
          return core.answerOf(response, text, read);
        });
      });
  }

  function session() {
    return fetch(banner.dataset.session, { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (body) { return { signedIn: !!body.signed_in, token: body.csrf_token, username: body.username }; });
  }

  // The waiting actions follow the table as it is now (after the judge's decision).
  function rebase() {
    var seq = pageSeq();
    return outbox.open().then(function (items) {
      var next = seq;
      return items.reduce(function (done, item) {
        item.expected = next;
        next += span(item);
        return done.then(function () { return store.save(item); });
      }, Promise.resolve());
    });
  }

  function showConflict(item) {
    conflict.dataset.key = item.key;
    document.getElementById("conflict-mine").textContent = interpolate(gettext("%(label)s (made against record #%(seq)s)"),
      { label: item.label, seq: item.expected }, true);
    var stale = document.getElementById("stale");
    var changes = stale ? stale.querySelector(".changes") : null;
    var theirs = changes ? changes.textContent.replace(/\s+/g, " ").trim() : gettext("see the page");
    if (stale) { stale.remove(); }  // the conflict box says it once
    document.getElementById("conflict-theirs").textContent =
      interpolate(gettext("Recorded meanwhile: %(theirs)s — the table is now at record #%(seq)s."), { theirs: theirs, seq: pageSeq() }, true);
    conflict.hidden = false;
    window.scrollTo(0, Math.max(0, conflict.getBoundingClientRect().top + window.scrollY - 8));
    document.getElementById("conflict-retry").focus({ preventScroll: true });
  }

  var outbox = core.create({
    store: store,
    token: (sheet.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "",
    send: send,
    session: session,
    hooks: {
      recorded: function (item, answer) {
        journalRecorded(item);
        swapIn(answer.html);
        clearSent(item);
      },
      problem: function (item, answer, outcome) {
        if (outcome.kind === "network" || outcome.kind === "server") { scheduleRetry(outcome.retryAfter); }
        var range = outcome.kind === "conflict" && journalKey ? J.lost(readJournal(), answer.seq, item.expected) : null;
        if (range) {  // not a conflict: the server lost records this phone holds
          swapIn(answer.html);
          refilled(item, range, answer.seq);
        } else if (outcome.kind === "conflict") {
          conflict.hidden = false;  // before the swap: the page script leaves the view to the conflict box
          swapIn(answer.html);
          showConflict(item);
        } else if (outcome.kind === "refused" && answer.page) {
          swapIn(answer.html);
          restore(item);  // the page script then puts the refusal above this form
        }
      },
      changed: render,
      offline: function (offline) {
        showOffline(offline);
        if (!offline) { retryAttempt = 0; }
      }
    }
  });

  // --- sending again soon after a lost connection, the phones of a hall spread apart ---------
  var retryAttempt = 0;
  var retryTimer = null;
  function scheduleRetry(retryAfter) {
    if (retryTimer) { return; }
    var wait = Math.max((retryAfter || 0) * 1000, core.retryDelay(retryAttempt, Math.random(), RETRY_MAX_MS));
    retryAttempt += 1;
    retryTimer = setTimeout(function () {
      retryTimer = null;
      if (navigator.onLine) { outbox.flush(); }
    }, wait);
  }

  // --- the journal: acknowledged actions, sent again to a server that lost them ---------------
  // Per tournament and table (static/js/journal.js), in localStorage: a phone that reaches the
  // event at the same address after a restore finds it there. When the server shows a record
  // number below the highest this phone was told, the acknowledged actions it lacks go back
  // into the outbox ahead of everything else, with their own keys and in order, and are sent
  // once each; the phone reports what it saw and sent again (the head judge's dashboard).
  var J = window.DuneJournal;
  var journalKey = J && window.localStorage ? J.keyOf(banner.dataset.tournament, table) : null;
  var REFILL_BASE = -1e12;  // ahead of every queued action (their numbers count up from 1)
  var refillNote = document.getElementById("refill-note");

  function readJournal() {
    try { return JSON.parse(localStorage.getItem(journalKey) || "null") || J.empty(); } catch (e) { return J.empty(); }
  }
  function writeJournal(j) {
    try { localStorage.setItem(journalKey, JSON.stringify(j)); } catch (e) { /* full: the oldest entries go first next time */ }
  }
  function sentAgain(n) {
    var key = journalKey + ":sent-again";
    if (n === undefined) { return parseInt(localStorage.getItem(key) || "0", 10); }
    localStorage.setItem(key, String(n));
    return n;
  }

  function reportSeen(body) {
    var headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (outbox.token()) { headers["X-CSRFToken"] = outbox.token(); }
    return fetch(banner.dataset.seen, { method: "POST", credentials: "same-origin", headers: headers, body: JSON.stringify(body) })
      .catch(function () { /* told again with the next refill */ });
  }

  function journalRecorded(item) {
    if (!journalKey) { return; }
    writeJournal(J.recorded(readJournal(), {
      key: item.key, seq: item.record, url: item.url, fields: item.fields, label: item.label,
      eventType: item.eventType, formKey: item.formKey
    }, Date.now()));
    if (!item.refill) { return; }
    var done = sentAgain(sentAgain() + 1);
    store.load().then(function (items) {
      if (items.some(function (i) { return i.refill; })) { return; }
      sentAgain(0);
      var had = localStorage.getItem(journalKey + ":server-had");
      localStorage.removeItem(journalKey + ":server-had");
      refillNote.textContent = J.words(done) + ".";
      refillNote.hidden = false;
      // Said again here: the first report may have found no session on the restored server.
      reportSeen({ seen: readJournal().highest, refilled: done, server_had: had === null ? null : parseInt(had, 10) });
    });
  }

  function noteWords(name, values) {
    var text = refillNote.dataset[name] || "";
    Object.keys(values).forEach(function (k) { text = text.split("%(" + k + ")s").join(String(values[k])); });
    return text;
  }

  // The same refill again (the server still shows the same record after taking the same
  // records again): never at once; each repeat waits twice as long, and the judge reads why.
  var refillBackoff = {};
  var refillTimer = null;
  function heldBack(signature, values, again) {
    var step = core.backoff(refillBackoff, signature, Date.now());
    refillBackoff = step.state;
    if (!step.waitMs) { return false; }
    refillNote.textContent = noteWords("loop", {
      seq: values.seq, from: values.from, to: values.to, seconds: Math.round(step.waitMs / 1000) });
    refillNote.hidden = false;
    if (!refillTimer) {
      refillTimer = setTimeout(function () { refillTimer = null; again(); }, step.waitMs);
    }
    return true;
  }

  // The server answered "the game moved on" to `item` while it shows fewer records than the
  // action was made against, all of them in this phone's journal: it lost them. They go back
  // ahead of the action, which waits for them without a decision. The same answer again for
  // the same action (the refill did not take) waits twice as long each time, in words.
  var lostBackoff = {};
  function refilled(item, range, serverSeq) {
    var words = J.lostWords(range, { one: refillNote.dataset.lostOne, many: refillNote.dataset.lostMany });
    conflict.hidden = true;
    var now = Date.now();
    var step = core.backoff(lostBackoff, item.key + ":" + serverSeq, now);
    lostBackoff = step.state;
    var waiting = {};
    Object.keys(item).forEach(function (k) { waiting[k] = item[k]; });
    waiting.state = "queued";
    waiting.notBefore = step.waitMs ? now + step.waitMs : null;
    waiting.problem = { kind: "lost", todo: refillNote.dataset.lostTodo || "", reason: step.waitMs
      ? noteWords("loop", { seq: serverSeq, from: range.from, to: range.to, seconds: Math.round(step.waitMs / 1000) })
      : words };
    refillNote.textContent = waiting.problem.reason;
    refillNote.hidden = false;
    return store.save(waiting).then(function () {
      if (step.waitMs) {
        setTimeout(function () { outbox.flush(); }, step.waitMs);
        return outbox.changed();
      }
      return checkServer(serverSeq).then(function () { return outbox.flush(); })
        .then(function () { return outbox.flush(); });
    });
  }

  // The acknowledged records the server lacks go back into the outbox ahead of everything else,
  // with their own keys and in order.
  function refill(j, serverSeq, lost) {
    if (localStorage.getItem(journalKey + ":server-had") === null) { localStorage.setItem(journalKey + ":server-had", String(serverSeq)); }
    reportSeen({ seen: j.highest, server_had: serverSeq });
    return Promise.all(lost.map(function (e) {
      return store.save({
        n: REFILL_BASE + e.seq, table: table, key: e.key, url: e.url, fields: e.fields, expected: e.seq - 1,
        label: e.label, eventType: e.eventType, formKey: e.formKey || "", created: e.at, state: "queued", refill: true
      });
    })).then(outbox.changed);
  }

  // The server shows record #serverSeq for this table. One check at a time: a second one (the
  // page updated meanwhile) finds the first one's records already queued, never queues them twice.
  var checking = Promise.resolve();
  function checkServer(serverSeq) {
    var run = checking.then(function () { return checkOnce(serverSeq); });
    checking = run.catch(function () { return null; });
    return run.then(function (queued) { return queued ? outbox.flush() : null; });
  }

  function checkOnce(seen) {
    var serverSeq = typeof seen === "function" ? seen() : seen;  // the page's number as it is when the check runs
    if (!journalKey || !(serverSeq >= 0) || document.documentElement.dataset.offlineCopy) { return Promise.resolve(); }
    var j = readJournal();
    if (!J.behind(j, serverSeq)) { writeJournal(J.saw(j, serverSeq)); return Promise.resolve(); }
    return store.load().then(function (items) {
      var queued = {};
      items.forEach(function (i) { queued[i.key] = true; });
      var lost = J.missing(j, serverSeq).filter(function (e) { return !queued[e.key]; });
      if (!lost.length) { return null; }
      var range = { from: serverSeq + 1, to: j.highest };
      var signature = serverSeq + ":" + lost.map(function (e) { return e.key; }).join(",");
      if (heldBack(signature, { seq: serverSeq, from: range.from, to: range.to }, function () { checkServer(pageSeq); })) {
        return null;
      }
      refillNote.textContent = J.lostWords(range, { one: refillNote.dataset.lostOne, many: refillNote.dataset.lostMany });
      refillNote.hidden = false;
      return refill(j, serverSeq, lost).then(function () { return true; });
    });
  }

  // While nothing waits, ask now and then whether the server still has what this phone saw
  // (an unchanged table answers 304: a few hundred bytes).
  function askServer() {
    if (!journalKey || !navigator.onLine || !readJournal().entries.length) { return; }
    if (counter.dataset.queued !== "0") { return; }
    var headers = { Accept: "application/json" };
    if (live().dataset.etag) { headers["If-None-Match"] = live().dataset.etag; }
    fetch(live().dataset.api, { credentials: "same-origin", headers: headers })
      .then(function (r) { return r.status === 200 ? r.json() : null; })
      .then(function (data) { if (data && typeof data.seq === "number") { return checkServer(data.seq); } })
      .catch(function () { /* no server now: asked again later */ });
  }
  document.addEventListener("table:updated", function () { checkServer(pageSeq); });

  // "Record it before #N": a refused action the engine found holds before record N (it was
  // entered late, after records it should precede) goes as an insert correction in its place
  // in the queue, under a key of its own: recorded once, logged with its reason, nothing voided.
  function recordBefore(item, before) {
    var action = "";
    var fields = item.fields.filter(function (p) {
      if (p[0] === "action") { action = p[1]; }
      return ["action", "then", "before", "inner_action", "reason"].indexOf(p[0]) === -1;
    });
    var seq = String(before);
    fields.unshift(["action", "insert"]);
    fields.push(["inner_action", action], ["before", seq], ["reason", WORDS.beforeReason.replace("%(seq)s", seq)]);
    var moved = {};
    Object.keys(item).forEach(function (k) { moved[k] = item[k]; });
    moved.fields = fields;
    moved.key = newKey(Date.now());
    moved.label = WORDS.beforeLabel.replace("%(label)s", item.label).replace("%(seq)s", seq);
    moved.state = "queued";
    moved.problem = null;
    return store.save(moved).then(rebase).then(outbox.changed).then(function () { return outbox.flush(); });
  }

  // "Earlier": a waiting action goes before the one ahead of it; nothing is voided.
  function moveEarlier(key) {
    return outbox.earlier(key, rebase).then(function () { return outbox.flush(); });
  }

  // "Edit": the refused action's entries go back into its form, opened and in view; sending the
  // form again puts the corrected action in the same place in the queue (see `add`).
  function edit(item) {
    restore(item);
    var form = formOf(item);
    if (!form) { return; }
    form.scrollIntoView({ block: "start" });
    var field = form.querySelector("input:not([type=hidden]), select, textarea");
    if (field) { field.focus({ preventScroll: true }); }
  }

  function discard(key) {
    return outbox.discard(key, rebase).then(function () {
      document.dispatchEvent(new CustomEvent("table:settle"));
      return outbox.flush();
    });
  }

  document.getElementById("conflict-retry").addEventListener("click", function () {
    conflict.hidden = true;
    var key = conflict.dataset.key;
    rebase().then(function () {
      document.dispatchEvent(new CustomEvent("table:settle"));
      return outbox.retry(key);
    });
  });
  document.getElementById("conflict-discard").addEventListener("click", function () {
    conflict.hidden = true;
    discard(conflict.dataset.key);
  });

  // --- signing in again, in place -----------------------------------------------------------
  // The page and its queue stay: a fresh token first (the page's may be stale), then the
  // sign-in as JSON, then the queue in order with its keys unchanged.
  sheet.addEventListener("submit", function (event) {
    event.preventDefault();
    var error = document.getElementById("sign-in-error");
    var submit = sheet.querySelector("button[type=submit]");
    error.hidden = true;
    submit.disabled = true;
    session().then(function (now) {
      var body = new URLSearchParams();
      body.append("username", sheet.elements.username.value);
      body.append("password", sheet.elements.password.value);
      return fetch(banner.dataset.login, {
        method: "POST", credentials: "same-origin", body: body,
        headers: { Accept: "application/json", "X-CSRFToken": now.token }
      });
    }).then(function (r) {
      return r.json().catch(function () {
        var wait = r.headers.get("Retry-After");
        return { signed_in: false, error: r.status === 429
          ? (wait ? interpolate(gettext("Too many tries for this account: wait %(seconds)s seconds, then sign in again."), { seconds: wait }, true)
            : gettext("Too many tries for this account: wait a few seconds, then sign in again."))
          : interpolate(gettext("The server answered %(status)s: try again."), { status: r.status }, true) };
      });
    }).then(function (answer) {
      submit.disabled = false;
      if (!answer.signed_in) {
        error.textContent = answer.error || gettext("Not signed in.");
        error.hidden = false;
        return null;
      }
      sheet.elements.password.value = "";
      sheet.hidden = true;
      return outbox.signedIn(answer.csrf_token);
    }, function () {
      submit.disabled = false;
      error.textContent = gettext("No connection to the server: try again when the phone is back online.");
      error.hidden = false;
    });
  });

  // --- the page's copy for offline reloads (secure contexts) ---------------------------------
  // The copy is the page as the judge last saw it, taken from the page itself after every
  // answer (no second request): labelled with its record and time, without what only this
  // visit showed (waiting actions, a conflict, a one-off notice).
  function keepPageCopy() {
    if (!keepsCopy || document.documentElement.dataset.offlineCopy) { return; }
    var now = new Date();
    var hhmm = ("0" + now.getHours()).slice(-2) + ":" + ("0" + now.getMinutes()).slice(-2);
    var root = document.documentElement.cloneNode(true);
    root.dataset.offlineCopy = "record #" + pageSeq() + ", " + hhmm;
    ["#pending", "#pinned .notice", "#live-note button"].forEach(function (selector) {
      Array.prototype.forEach.call(root.querySelectorAll(selector), function (el) { el.remove(); });
    });
    var box = root.querySelector("#conflict");
    if (box) { box.hidden = true; }
    var form = root.querySelector("#sign-in-sheet");
    if (form) { form.hidden = true; }
    var html = "<!DOCTYPE html>\n" + root.outerHTML;
    caches.open(banner.dataset.cache).then(function (cache) {
      return cache.put(location.pathname, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
    }).catch(function () { /* no room: the older copy stays */ });
  }
  document.addEventListener("table:updated", keepPageCopy);

  function askForSync() {
    if (!keepsCopy) { return; }
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) { return registration.sync.register("table-outbox"); }
    }).catch(function () { /* no Background Sync here: the timer and `online` do it */ });
  }

  if (keepsCopy) {
    navigator.serviceWorker.register(banner.dataset.sw, { scope: "/tables/" }).then(keepPageCopy).catch(function () { /* the page works without it, only not offline */ });
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "flush-outbox") { outbox.flush(); }
    });
  }

  // --- wiring ------------------------------------------------------------------------------
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("#table-live form[data-event-type]")) { return; }
    event.preventDefault();
    add(form, event.submitter);
  });
  window.addEventListener("online", function () { showOffline(false); outbox.flush(); });
  window.addEventListener("offline", function () { showOffline(true); });
  showOffline(!navigator.onLine);
  // Now and then, whatever the last answer was; not while a try is already planned (after a lost
  // connection the planned tries grow apart, and this would ask in between).
  setInterval(function () { if (navigator.onLine && !retryTimer) { outbox.flush(); } }, RETRY_MS);
  setInterval(askServer, CHECK_MS);
  outbox.changed().then(function () { return checkServer(pageSeq); })
    .then(function () { return navigator.onLine ? outbox.flush() : null; });
  window.tableOutbox = {
    flush: outbox.flush, waiting: outbox.open, swapIn: swapIn, partsShown: partsShown, outbox: outbox, keepsCopy: keepsCopy,
    typing: typing
  };
})();
