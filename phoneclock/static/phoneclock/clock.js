// The phone clock: two halves to tap, an arbiter's panel (pause, add time, flag, resign),
// sound, vibration and a screen kept awake. Every tap is stored in IndexedDB first and
// sent when the phone is online (POST JSON with the CSRF token); the server replays the
// taps through the same rules (games/clocks/control.py) and keeps the times. A follow
// page (a second phone) polls the stored taps and shows the same clock.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("clock-data").textContent);
  var texts = data.texts;
  var state = data.state;
  var root = document.getElementById("clock");
  var halves = [document.getElementById("half-0"), document.getElementById("half-1")];
  var shows = [document.getElementById("time-0"), document.getElementById("time-1")];
  var counts = [document.getElementById("moves-0"), document.getElementById("moves-1")];
  var statusLine = document.getElementById("clock-status");
  var panel = document.getElementById("arbiter");
  var banner = document.getElementById("clock-result");
  var taps = [];          // every tap known here, in sequence order
  var failed = {};        // seq -> the server's refusal
  var lastAt = 0;
  var clock = null;
  var db = null;

  // -- the clock rules (a copy of games/clocks/control.py's GameClock) -----------------
  function Clock(controls) {
    this.controls = controls;
    this.left = [controls[0][0].base, controls[1][0].base];
    this.moves = [0, 0]; this.periods = [0, 0]; this.inPeriod = [0, 0];
    this.running = null; this.paused = false; this.started = false;
    this.elapsedSoFar = 0; this.since = 0; this.finished = ""; this.loser = null;
  }
  Clock.prototype.period = function (seat) {
    var list = this.controls[seat];
    return list[Math.min(this.periods[seat], list.length - 1)];
  };
  Clock.prototype.elapsed = function (at) {
    if (this.running === null || this.paused) { return this.elapsedSoFar; }
    return this.elapsedSoFar + at - this.since;
  };
  Clock.prototype.available = function (seat) {
    var p = this.period(seat);
    return this.left[seat] + (p.kind === "simple_delay" ? p.bonus : 0);
  };
  Clock.prototype.leftAfter = function (seat, used, bonus) {
    var p = this.period(seat), left = this.left[seat];
    if (p.kind === "simple_delay") { return left - Math.max(0, used - p.bonus); }
    if (!bonus) { return left - used; }
    if (p.kind === "fischer") { return left - used + p.bonus; }
    if (p.kind === "bronstein") { return left - used + Math.min(p.bonus, used); }
    return left - used;
  };
  Clock.prototype.shown = function (seat, at) {
    if (seat !== this.running || this.finished) { return this.left[seat]; }
    return Math.max(0, this.leftAfter(seat, this.elapsed(at), false));
  };
  // When the running seat's flag falls if nobody taps (ms timestamp), or null.
  Clock.prototype.flagAt = function () {
    if (this.running === null || this.paused || this.finished) { return null; }
    return this.since + this.available(this.running) - this.elapsedSoFar;
  };
  Clock.prototype.apply = function (tap) {
    var seat = tap.seat, at = tap.at;
    if (this.finished) { return false; }
    if (tap.kind === "start") {
      if (this.started) { return false; }
      this.started = true; this.running = seat; this.since = at; this.elapsedSoFar = 0;
      return true;
    }
    if (!this.started) { return false; }
    if (tap.kind === "pause") {
      if (this.paused) { return false; }
      this.elapsedSoFar = this.elapsed(at); this.paused = true; return true;
    }
    if (tap.kind === "resume") {
      if (!this.paused) { return false; }
      this.paused = false; this.since = at; return true;
    }
    if (tap.kind === "add_time") { this.left[seat] += tap.amount; return true; }
    if (tap.kind === "flag") {
      if (seat !== this.running || this.shown(seat, at) > 1000) { return false; }
      return this.end(seat, at, "flag");
    }
    if (tap.kind === "resign") { return this.end(seat, at, "resign"); }
    // a move
    if (this.running !== seat || this.paused) { return false; }
    var used = this.elapsed(at);
    if (used >= this.available(seat)) { return this.end(seat, at, "flag"); }
    this.left[seat] = this.leftAfter(seat, used, true);
    this.moves[seat] += 1; this.inPeriod[seat] += 1;
    var p = this.period(seat);
    if (p.moves !== null && this.inPeriod[seat] >= p.moves) {
      this.periods[seat] += 1; this.inPeriod[seat] = 0;
      this.left[seat] += this.period(seat).base;
    }
    this.running = 1 - seat; this.since = at; this.elapsedSoFar = 0;
    return true;
  };
  Clock.prototype.end = function (seat, at, how) {
    this.elapsedSoFar = this.elapsed(at);
    if (this.running !== null) {  // the running clock stops where it is
      this.left[this.running] = Math.max(0, this.leftAfter(this.running, this.elapsedSoFar, false));
    }
    this.finished = how; this.loser = seat; this.paused = true;
    if (how === "flag") { this.left[seat] = 0; }
    return true;
  };

  function rebuild() {
    clock = new Clock(state.controls);
    taps.forEach(function (tap) { clock.apply(tap); });
  }

  // -- display -------------------------------------------------------------------------
  function format(ms) {
    var tenths = ms < 20000;
    var total = tenths ? Math.floor(ms / 100) : Math.ceil(ms / 1000);
    var seconds = tenths ? Math.floor(total / 10) : total;
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    var text = (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (s < 10 ? "0" : "") + s;
    return tenths ? text + "." + (total % 10) : text;
  }

  function render() {
    var now = Math.max(Date.now(), lastAt);
    if (!data.follow && clock.flagAt() !== null && now >= clock.flagAt()) {
      record("flag", clock.running, 0, clock.flagAt());
    }
    for (var seat = 0; seat < 2; seat += 1) {
      shows[seat].textContent = format(clock.shown(seat, now));
      counts[seat].textContent = texts.moves.replace("{n}", String(clock.moves[seat]));
      halves[seat].classList.toggle("running", clock.running === seat && !clock.paused);
      halves[seat].classList.toggle("flagged", clock.finished === "flag" && clock.loser === seat);
    }
    root.classList.toggle("paused", clock.started && clock.paused && !clock.finished);
    root.classList.toggle("finished", !!clock.finished);
    if (clock.finished) {
      var winner = state.names[1 - clock.loser];
      banner.hidden = false;
      banner.querySelector(".what").textContent = (clock.finished === "flag"
        ? texts.flagged : texts.resigned).replace("{loser}", state.names[clock.loser])
        .replace("{winner}", winner);
    }
  }

  // -- taps ----------------------------------------------------------------------------
  function record(kind, seat, amount, at) {
    var tap = {seq: taps.length + 1, seat: seat, kind: kind,
               at: Math.round(Math.max(at || Date.now(), lastAt)), amount: amount || 0};
    if (!clock.apply(tap)) { return false; }
    lastAt = tap.at;
    taps.push(tap);
    save(tap);
    feedback(kind);
    render();
    return true;
  }

  function feedback(kind) {
    var loud = kind === "flag" || kind === "resign";
    var active = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (navigator.vibrate && active) { try { navigator.vibrate(loud ? [300, 100, 300] : 30); } catch (e) { /* not allowed */ } }
    beep(loud ? 440 : 880, loud ? 0.6 : 0.05);
  }

  var audio = null;
  function beep(frequency, seconds) {
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) { return; }
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = frequency; gain.gain.value = 0.1;
      tone.connect(gain); gain.connect(audio.destination);
      tone.start(); tone.stop(audio.currentTime + seconds);
    } catch (e) { /* no sound on this phone */ }
  }

  var wakeLock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator) || wakeLock || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { /* refused: the phone's own setting decides */ });
  }
  document.addEventListener("visibilitychange", keepAwake);

  function tapHalf(seat) {
    keepAwake();
    if (clock.finished || clock.paused && clock.started) { return; }
    if (!clock.started) { record("start", 1 - seat); return; }
    if (clock.running === seat) { record("move", seat); }
  }

  // -- the queue: IndexedDB, then the server -------------------------------------------
  function openDb(done) {
    if (!window.indexedDB) { done(); return; }
    var request = indexedDB.open("phoneclock", 1);
    request.onupgradeneeded = function () {
      request.result.createObjectStore("taps", {keyPath: ["session", "seq"]});
    };
    request.onsuccess = function () { db = request.result; done(); };
    request.onerror = function () { done(); };
  }

  var memoryQueue = {};
  function save(tap) {
    var item = {session: state.session, seq: tap.seq, seat: tap.seat, kind: tap.kind,
                at: tap.at, amount: tap.amount};
    memoryQueue[tap.seq] = item;
    if (db) { db.transaction("taps", "readwrite").objectStore("taps").put(item); }
    flush();
  }

  function pending(done) {
    if (!db) { done(Object.keys(memoryQueue).map(function (k) { return memoryQueue[k]; })); return; }
    var found = [];
    var range = IDBKeyRange.bound([state.session, 0], [state.session, Infinity]);
    var cursor = db.transaction("taps").objectStore("taps").openCursor(range);
    cursor.onsuccess = function () {
      var at = cursor.result;
      if (at) { found.push(at.value); at.continue(); } else { done(found); }
    };
    cursor.onerror = function () { done(found); };
  }

  function forget(items) {
    items.forEach(function (item) { delete memoryQueue[item.seq]; });
    if (!db) { return; }
    var store = db.transaction("taps", "readwrite").objectStore("taps");
    items.forEach(function (item) { store.delete([item.session, item.seq]); });
  }

  function cookie(name) {
    var found = document.cookie.split("; ").filter(function (item) {
      return item.indexOf(name + "=") === 0;
    })[0];
    return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
  }

  var sending = false;
  function flush() {
    if (data.follow || sending || navigator.onLine === false) { showStatus(); return; }
    pending(function (items) {
      items = items.filter(function (item) { return !failed[item.seq]; })
        .sort(function (a, b) { return a.seq - b.seq; }).slice(0, 500);
      if (!items.length) { showStatus(0); return; }
      sending = true;
      fetch(data.base + "taps/", {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") || data.csrf},
        body: JSON.stringify({session: state.session, taps: items.map(function (item) {
          return {seq: item.seq, seat: item.seat, kind: item.kind, at: item.at, amount: item.amount};
        })})
      }).then(function (response) {
        return response.json().then(function (body) { return {ok: response.ok, status: response.status, body: body}; });
      }).then(function (answer) {
        sending = false;
        if (answer.ok) {
          forget(items);
          state.finish = answer.body.finish;
          state.confirmed = answer.body.confirmed;
          flush();
        } else {
          items.forEach(function (item) { failed[item.seq] = answer.body.detail || String(answer.status); });
          showStatus(items.length, answer.body.detail);
        }
      }).catch(function () { sending = false; showStatus(items.length); });
    });
  }

  function showStatus(waiting, problem) {
    var offline = navigator.onLine === false;
    if (data.follow) { statusLine.textContent = texts.following; return; }
    if (problem) { statusLine.textContent = texts.refused.replace("{problem}", problem); return; }
    if (waiting === undefined) {
      pending(function (items) { showStatus(items.length); });
      return;
    }
    statusLine.textContent = waiting
      ? (offline ? texts.offline : texts.sending).replace("{n}", String(waiting))
      : texts.saved;
    statusLine.setAttribute("data-waiting", String(waiting));
  }

  // -- follow ---------------------------------------------------------------------------
  function poll() {
    fetch(data.base + "state/", {credentials: "same-origin", cache: "no-store"})
      .then(function (response) { return response.json(); })
      .then(function (body) {
        taps = body.taps.map(function (t) { return {seq: t.seq, seat: t.seat, kind: t.kind, at: t.at, amount: t.amount}; });
        rebuild(); render(); showStatus();
      }).catch(function () { statusLine.textContent = texts.offline.replace("{n}", "?"); });
  }

  // -- the buttons ------------------------------------------------------------------------
  function wire() {
    if (!data.follow) {
      halves.forEach(function (half, seat) {
        half.addEventListener("pointerdown", function (event) { event.preventDefault(); tapHalf(seat); });
        half.addEventListener("keydown", function (event) {
          if (event.key === " " || event.key === "Enter") { event.preventDefault(); tapHalf(seat); }
        });
      });
    }
    document.querySelectorAll("[data-action]").forEach(function (button) {
      button.addEventListener("click", function () {
        var action = button.getAttribute("data-action");
        var seat = Number(button.getAttribute("data-seat") || 0);
        if (action === "pause") {
          if (clock.paused) { record("resume", clock.running === null ? 0 : clock.running); }
          else { record("pause", clock.running === null ? 0 : clock.running); }
        } else if (action === "add") {
          record("add_time", seat, 60000);
        } else if (action === "flag") {
          if (clock.running !== null) { record("flag", clock.running); }
        } else if (action === "resign") {
          if (window.confirm(texts.confirmResign.replace("{name}", state.names[seat]))) { record("resign", seat); }
        } else if (action === "agree") {
          fetch(data.base + "agree/", {
            method: "POST", credentials: "same-origin",
            headers: {"Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") || data.csrf},
            body: JSON.stringify({session: state.session})
          }).then(function (response) {
            button.disabled = response.ok;
            button.textContent = response.ok ? texts.agreed : button.textContent;
          });
        }
      });
    });
    window.addEventListener("online", flush);
    window.addEventListener("offline", function () { showStatus(); });
  }

  function registerWorker() {
    if (!("serviceWorker" in navigator) || !data.sw) { return; }
    navigator.serviceWorker.register(data.sw, {scope: data.base}).then(function (registration) {
      var worker = registration.active || registration.waiting || registration.installing;
      var urls = [location.href].concat(data.assets);
      if (worker) { worker.postMessage({cache: urls}); }
      navigator.serviceWorker.ready.then(function (ready) {
        if (ready.active) { ready.active.postMessage({cache: urls}); }
      });
    }).catch(function () { /* no offline copy of the page: the clock still runs */ });
  }

  taps = state.taps.map(function (t) { return {seq: t.seq, seat: t.seat, kind: t.kind, at: t.at, amount: t.amount}; });
  state.names = data.names;
  openDb(function () {
    pending(function (items) {
      var known = {};
      taps.forEach(function (t) { known[t.seq] = true; });
      items.forEach(function (item) {
        if (!known[item.seq]) { taps.push(item); }
        memoryQueue[item.seq] = item;
      });
      taps.sort(function (a, b) { return a.seq - b.seq; });
      taps.forEach(function (t) { lastAt = Math.max(lastAt, t.at); });
      rebuild();
      wire();
      render();
      showStatus();
      window.setInterval(render, 100);
      if (data.follow) { poll(); window.setInterval(poll, 1500); } else { flush(); window.setInterval(flush, 5000); }
      root.setAttribute("data-ready", "1");
    });
  });
  registerWorker();
})();
