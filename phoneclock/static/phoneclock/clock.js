// The phone clock: two halves to tap, an arbiter's panel (pause, add time, flag, resign,
// draw), sound, vibration and a screen kept awake. Every tap is stored in IndexedDB first
// and sent when the phone is online (POST JSON with the CSRF token and this phone's id);
// the server replays the taps through the same rules (games/clocks/control.py) and keeps
// the times. A follow page (a second phone) polls the stored taps and shows the same
// clock; a clock page whose clock runs on another phone (409) follows it the same way
// until its user takes the clock over. A tap the server refuses is dropped with the taps
// made after it, and the page goes back to the clock as stored: the queue never sticks.
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
  var takeover = document.getElementById("clock-takeover");
  var taps = [];          // every tap known here, in sequence order
  var following = !!data.follow;  // showing the clock read-only (polling its state)
  var single = false;     // after a refused batch: send one tap at a time to find the bad one
  var polling = null;
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
    if (tap.kind === "draw") { return this.end(seat, at, "draw"); }
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
    this.finished = how; this.loser = how === "draw" ? null : seat; this.paused = true;
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
    if (!following && clock.flagAt() !== null && now >= clock.flagAt()) {
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
    root.classList.toggle("following", following);
    banner.hidden = !clock.finished;
    if (clock.finished === "draw") {
      banner.querySelector(".what").textContent = texts.drawn;
    } else if (clock.finished) {
      banner.querySelector(".what").textContent = (clock.finished === "flag"
        ? texts.flagged : texts.resigned).replace("{loser}", state.names[clock.loser])
        .replace("{winner}", state.names[1 - clock.loser]);
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
    var loud = kind === "flag" || kind === "resign" || kind === "draw";
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
    if (following || clock.finished || clock.paused && clock.started) { return; }
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

  function phoneId() {
    var id = "";
    try { id = window.localStorage.getItem("phoneclock-phone") || ""; } catch (e) { /* private mode */ }
    if (!/^[0-9a-f]{32}$/.test(id)) {
      var bytes = new Uint8Array(16);
      window.crypto.getRandomValues(bytes);
      id = Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
      try { window.localStorage.setItem("phoneclock-phone", id); } catch (e) { /* kept for this page only */ }
    }
    return id;
  }
  var phone = data.follow ? "" : phoneId();

  function plain(t) { return {seq: t.seq, seat: t.seat, kind: t.kind, at: t.at, amount: t.amount}; }

  // POST taps (none: only claims the clock for this phone); done(answer) with ok, status, body.
  function send(items, takeOver, done) {
    fetch(data.base + "taps/", {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") || data.csrf},
      body: JSON.stringify({session: state.session, phone: phone, take_over: !!takeOver,
                            taps: items.map(plain)})
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        return {ok: response.ok, status: response.status, body: body};
      });
    }).then(done).catch(function () { done(null); });
  }

  // Show the clock as the server stores it (the taps made here and not stored are gone).
  function adopt(body) {
    taps = body.taps.map(plain);
    lastAt = 0;
    taps.forEach(function (t) { lastAt = Math.max(lastAt, t.at); });
    state.finish = body.finish; state.confirmed = body.confirmed;
    rebuild(); render();
  }

  function resync(done) {
    fetch(data.stateUrl, {credentials: "same-origin", cache: "no-store"})
      .then(function (response) { return response.json(); })
      .then(function (body) { adopt(body); if (done) { done(); } })
      .catch(function () { if (done) { done(); } });
  }

  function follow(problem) {
    pending(function (items) { forget(items); });
    following = true; sending = false;
    if (takeover) {
      takeover.hidden = false;
      takeover.querySelector(".what").textContent = problem || texts.otherPhone;
    }
    if (!polling) { poll(); polling = window.setInterval(poll, 1500); }
    render(); showStatus();
  }

  function takeOver() {
    if (!window.confirm(texts.confirmTakeOver)) { return; }
    send([], true, function (answer) {
      if (!answer || !answer.ok) { showStatus(0, answer && answer.body.detail); return; }
      window.clearInterval(polling); polling = null;
      following = false;
      if (takeover) { takeover.hidden = true; }
      adopt(answer.body); showStatus(0);
    });
  }

  var sending = false;
  function flush() {
    if (following || sending || navigator.onLine === false) { showStatus(); return; }
    pending(function (items) {
      items = items.sort(function (a, b) { return a.seq - b.seq; }).slice(0, single ? 1 : 500);
      if (!items.length) { single = false; showStatus(0); return; }
      sending = true;
      send(items, false, function (answer) {
        sending = false;
        if (!answer) { showStatus(items.length); return; }  // offline: the taps wait
        if (answer.ok) {
          forget(items);
          state.finish = answer.body.finish;
          state.confirmed = answer.body.confirmed;
          flush();
        } else if (answer.status === 409) {
          follow(answer.body.code === "other_phone" ? answer.body.detail : texts.otherPhone);
        } else if (answer.status === 400 && items.length > 1) {
          single = true; flush();
        } else if (answer.status === 400) {
          refused(items[0], answer.body.detail || String(answer.status));
        } else {
          showStatus(items.length, answer.body.detail || String(answer.status));  // kept: tried again
        }
      });
    });
  }

  // The server cannot take ``tap``: it and every later tap made here go, the clock as stored stays.
  function refused(tap, problem) {
    pending(function (items) {
      var dropped = items.filter(function (item) { return item.seq >= tap.seq; });
      forget(dropped);
      single = false;
      resync(function () {
        statusLine.textContent = texts.resynced.replace("{problem}", problem)
          .replace("{n}", String(dropped.length));
        statusLine.setAttribute("data-waiting", "0");
        flush();
      });
    });
  }

  function showStatus(waiting, problem) {
    var offline = navigator.onLine === false;
    if (following) { statusLine.textContent = data.follow ? texts.following : ""; return; }  // else the take-over box says it
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
    fetch(data.stateUrl, {credentials: "same-origin", cache: "no-store"})
      .then(function (response) { return response.json(); })
      .then(function (body) { adopt(body); showStatus(); })
      .catch(function () { statusLine.textContent = texts.offline.replace("{n}", "?"); });
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
        if (action === "takeover") { takeOver(); return; }
        if (following && action !== "agree") { return; }
        if (action === "pause") {
          if (clock.paused) { record("resume", clock.running === null ? 0 : clock.running); }
          else { record("pause", clock.running === null ? 0 : clock.running); }
        } else if (action === "add") {
          record("add_time", seat, 60000);
        } else if (action === "flag") {
          if (clock.running !== null) { record("flag", clock.running); }
        } else if (action === "resign") {
          if (window.confirm(texts.confirmResign.replace("{name}", state.names[seat]))) { record("resign", seat); }
        } else if (action === "draw") {
          if (clock.started && window.confirm(texts.confirmDraw)) { record("draw", clock.running === null ? 0 : clock.running); }
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

  // Tell the server this phone runs the clock (it follows when another phone does).
  function claim() {
    if (navigator.onLine === false) { flush(); return; }
    send([], false, function (answer) {
      if (answer && answer.status === 409) { follow(answer.body.detail); } else { flush(); }
    });
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
      if (data.follow) {
        poll(); polling = window.setInterval(poll, 1500);
      } else {
        claim();
        window.setInterval(flush, 5000);
      }
      root.setAttribute("data-ready", "1");
    });
  });
  registerWorker();
})();
