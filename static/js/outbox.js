// The table page's outbox: every action the judge records goes through it, online or not.
//
// An action is kept in IndexedDB with a key made on this phone and the sequence number it
// expects, then sent in order (one at a time, each waiting for the last) to the same URL the
// form posts to, as an htmx request with an `Idempotency-Key` header: the server records it
// at most once, however often a flaky connection makes us send it. The answer is the page's
// live part, swapped in place. Sending resumes on `online`, on page load, on a timer and on
// Background Sync. A conflict (409: someone else recorded first) stops the queue and asks the
// judge; a refusal (4xx) is shown next to its form with what was entered. Nothing is dropped
// without the judge deciding it.
(function () {
  "use strict";
  var DB_NAME = "table-outbox";
  var STORE = "actions";
  var RETRY_MS = 15000;
  var DOUBLE_TAP_MS = 1500;

  var live = function () { return document.getElementById("table-live"); };
  if (!live() || !window.indexedDB || !window.fetch) { return; }  // the plain forms still work
  var table = live().dataset.table;
  var counter = document.getElementById("outbox");
  var offlineBanner = document.getElementById("offline-banner");
  var conflict = document.getElementById("conflict");
  var sending = false;
  var stopped = false;
  var lastTap = { form: null, fields: "", at: 0 };

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

  function waiting() {  // this table's actions, oldest first
    return tx("readonly", function (store) { return store.index("table").getAll(table); })
      .then(function (items) { return (items || []).sort(function (a, b) { return a.n - b.n; }); });
  }
  function put(item) { return tx("readwrite", function (store) { return store.put(item); }); }
  function drop(item) { return tx("readwrite", function (store) { return store.delete(item.n); }); }

  // --- what the judge sees -----------------------------------------------------------------
  function pageSeq() { return parseInt(live().dataset.seq, 10); }

  // The count is one line at the bottom; the waiting actions themselves are shown as the next
  // records, clearly pending, at the top of the next step (they are not recorded yet).
  function showCount() {
    return waiting().then(function (items) {
      counter.dataset.queued = String(items.length);
      counter.querySelector(".outbox-count").textContent = String(items.length);
      counter.classList.toggle("has-waiting", items.length > 0);
      showPending(items);
      return items;
    });
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
      list.setAttribute("aria-label", "Waiting on this phone, not recorded yet");
    }
    if (next && list.parentNode !== next) {
      next.insertBefore(list, heading ? heading.nextSibling : next.firstChild);
    } else if (!next && list.parentNode !== live()) {
      live().insertBefore(list, live().firstChild);
    }
    list.textContent = "";
    items.forEach(function (item) {
      var li = document.createElement("li");
      li.textContent = "Record #" + (item.expected + 1) + " (pending, not sent yet): " + item.label;
      list.appendChild(li);
    });
  }

  function showOffline(offline) {
    offlineBanner.hidden = !offline;
    document.body.classList.toggle("is-offline", offline);
  }

  // The parts this page shows (`name:version`): the answer leaves out those it would repeat.
  function partsShown() {
    return Array.prototype.map.call(live().querySelectorAll("[data-part][data-version]"), function (el) {
      return el.dataset.part + ":" + el.dataset.version;
    }).join(",");
  }

  // The answer in place of the live part; a part it left out (unchanged) is the page's own,
  // moved across as it is (what the judge opened or typed there stays).
  function swapIn(html) {
    var target = live();
    var answer = document.createElement("template");
    answer.innerHTML = html.trim();
    var fresh = answer.content.querySelector("#table-live");
    if (!fresh) { return; }
    Array.prototype.forEach.call(answer.content.querySelectorAll("[data-part][data-same]"), function (gap) {
      var kept = target.querySelector('[data-part="' + gap.dataset.part + '"]');
      if (kept && kept.dataset.version === gap.dataset.version) { gap.replaceWith(kept); }
    });
    var missing = fresh.querySelector("[data-part][data-same]");
    if (missing) { location.reload(); return; }  // should not happen: then the whole page, fresh
    target.replaceWith(fresh);
    if (window.htmx && window.htmx.process) { window.htmx.process(fresh); }
    if (window.duneClocks && window.duneClocks.scan) { window.duneClocks.scan(); }
    if (document.documentElement.dataset.offlineCopy) {  // the server answered: this is the table now
      delete document.documentElement.dataset.offlineCopy;
      var line = document.getElementById("offline-copy");
      if (line) { line.hidden = true; }
    }
    document.dispatchEvent(new CustomEvent("table:updated"));
  }

  function describe(form, fields) {
    var button = form.querySelector("button[type=submit]");
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

  // --- the queue ---------------------------------------------------------------------------
  function add(form) {
    var data = new FormData(form);
    var fields = [];
    data.forEach(function (value, name) { fields.push([name, String(value)]); });
    var signature = JSON.stringify(fields.filter(function (p) { return p[0] !== "csrfmiddlewaretoken"; }));
    var now = Date.now();
    if (lastTap.form === form && lastTap.fields === signature && now - lastTap.at < DOUBLE_TAP_MS) {
      return Promise.resolve();  // a double tap, not a second action
    }
    lastTap = { form: form, fields: signature, at: now };
    var label = describe(form, fields);
    return waiting().then(function (items) {
      var expected = items.length ? items[items.length - 1].expected + 1 : pageSeq();
      var key = window.crypto && crypto.randomUUID ? crypto.randomUUID()
        : String(now) + "-" + Math.random().toString(16).slice(2);
      return put({
        table: table, key: key, url: form.getAttribute("action") || location.pathname, fields: fields, expected: expected,
        label: label, eventType: form.dataset.eventType, formKey: form.dataset.formKey || "", created: now
      });
    }).then(function () {
      if (!navigator.onLine) { form.reset(); }
      return showCount();
    }).then(function () {
      if (!navigator.onLine) { document.dispatchEvent(new CustomEvent("table:settle")); }
      askForSync();
      return flush();
    });
  }

  function bodyOf(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) {
      if (pair[0] === "expected_seq") { body.append(pair[0], String(item.expected)); }
      else if (pair[0] === "idempotency_key") { body.append(pair[0], item.key); }
      else { body.append(pair[0], pair[1]); }
    });
    return body;
  }

  function send(item) {
    return fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      body: bodyOf(item),
      headers: { "HX-Request": "true", "HX-Target": "table-live", "Idempotency-Key": item.key, "X-Table-Parts": partsShown() }
    });
  }

  function stop(item, theirs) {
    stopped = true;
    conflict.dataset.n = String(item.n);
    document.getElementById("conflict-mine").textContent = item.label + " (made against record #" + item.expected + ")";
    document.getElementById("conflict-theirs").textContent = theirs;
    conflict.hidden = false;
    window.scrollTo(0, Math.max(0, conflict.getBoundingClientRect().top + window.scrollY - 8));
    document.getElementById("conflict-retry").focus({ preventScroll: true });
  }

  // After the judge's decision or a refusal, the waiting actions follow the table as it is now.
  function rebase(items) {
    var seq = pageSeq();
    return items.reduce(function (done, item, i) {
      return done.then(function () { item.expected = seq + i; return put(item); });
    }, Promise.resolve());
  }

  function flush() {
    if (sending || stopped) { return Promise.resolve(); }
    sending = true;
    return waiting().then(function next(items) {
      if (!items.length) { sending = false; return showCount(); }
      var item = items[0];
      return send(item).then(function (response) {
        showOffline(false);
        if (response.redirected && /\/accounts\/login\//.test(response.url)) {
          sending = false;
          stop(item, "The sign-in ran out: sign in again in another tab; the action stays on this phone.");
          return showCount();
        }
        return response.text().then(function (html) {
          if (response.status >= 200 && response.status < 300) {
            return drop(item).then(function () { swapIn(html); return showCount(); }).then(waiting).then(next);
          }
          if (response.status === 409) {
            sending = false;
            stopped = true;  // before the swap: the page script leaves the view to the conflict box
            conflict.hidden = false;
            swapIn(html);
            var stale = document.getElementById("stale");
            var changes = stale ? stale.querySelector(".changes") : null;
            var theirs = changes ? changes.textContent.replace(/\s+/g, " ").trim() : "see the page";
            if (stale) { stale.remove(); }  // the conflict box says it once
            stop(item, "Recorded meanwhile: " + theirs + " — the table is now at record #" + pageSeq() + ".");
            return showCount();
          }
          if (response.status >= 400 && response.status < 500) {
            // Refused: nothing was recorded. The refusal and the entries are on the page.
            return drop(item).then(function () {
              swapIn(html);
              restore(item);  // the page script then puts the refusal above this form
              return waiting();
            }).then(function (rest) {
              sending = false;
              if (rest.length) {
                return rebase(rest).then(function () {
                  stop(rest[0], "The action before it was refused (see the message above); nothing else changed.");
                  return showCount();
                });
              }
              return showCount();
            });
          }
          sending = false;  // the server is in trouble: keep the action, try again later
          return showCount();
        });
      }, function () {
        sending = false;  // no connection: keep everything, try again later
        showOffline(true);
        return showCount();
      });
    }).catch(function () { sending = false; });
  }

  document.getElementById("conflict-retry").addEventListener("click", function () {
    waiting().then(rebase).then(function () {
      conflict.hidden = true;
      stopped = false;
      document.dispatchEvent(new CustomEvent("table:settle"));
      return flush();
    });
  });
  document.getElementById("conflict-discard").addEventListener("click", function () {
    var n = parseInt(conflict.dataset.n, 10);
    waiting().then(function (items) {
      var first = items.filter(function (i) { return i.n === n; })[0];
      return (first ? drop(first) : Promise.resolve()).then(waiting).then(rebase);
    }).then(function () {
      conflict.hidden = true;
      stopped = false;
      document.dispatchEvent(new CustomEvent("table:settle"));
      return flush();
    });
  });

  // --- the page's copy for offline reloads ---------------------------------------------------
  // The copy is the page as the judge last saw it, taken from the page itself after every
  // answer (no second request): labelled with its record and time, without what only this
  // visit showed (waiting actions, a conflict, a one-off notice).
  function keepPageCopy() {
    if (!window.caches || !navigator.serviceWorker || document.documentElement.dataset.offlineCopy) { return; }
    var now = new Date();
    var hhmm = ("0" + now.getHours()).slice(-2) + ":" + ("0" + now.getMinutes()).slice(-2);
    var root = document.documentElement.cloneNode(true);
    root.dataset.offlineCopy = "record #" + pageSeq() + ", " + hhmm;
    ["#pending", "#pinned .notice", "#live-note button"].forEach(function (selector) {
      Array.prototype.forEach.call(root.querySelectorAll(selector), function (el) { el.remove(); });
    });
    var box = root.querySelector("#conflict");
    if (box) { box.hidden = true; }
    var html = "<!DOCTYPE html>\n" + root.outerHTML;
    caches.open("table-pages-v1").then(function (cache) {
      return cache.put(location.pathname, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
    }).catch(function () { /* no room: the older copy stays */ });
  }
  document.addEventListener("table:updated", keepPageCopy);

  function askForSync() {
    if (!navigator.serviceWorker) { return; }
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) { return registration.sync.register("table-outbox"); }
    }).catch(function () { /* no Background Sync here: the timer and `online` do it */ });
  }

  if (navigator.serviceWorker) {
    var sw = document.getElementById("net-banner").dataset.sw;
    navigator.serviceWorker.register(sw, { scope: "/tables/" }).then(keepPageCopy).catch(function () { /* the page works without it, only not offline */ });
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "flush-outbox") { flush(); }
    });
  }

  // --- wiring ------------------------------------------------------------------------------
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("#table-live form[data-event-type]")) { return; }
    event.preventDefault();
    add(form);
  });
  window.addEventListener("online", function () { showOffline(false); flush(); });
  window.addEventListener("offline", function () { showOffline(true); });
  showOffline(!navigator.onLine);
  setInterval(flush, RETRY_MS);
  showCount().then(flush);
  window.tableOutbox = { flush: flush, waiting: waiting, swapIn: swapIn, partsShown: partsShown };
})();
