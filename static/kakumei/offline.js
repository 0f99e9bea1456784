// The 大富豪 referee console's offline mode (docs/offline.md).
//
// The page carries the game as the server has it (the seed, #offline-seed, refreshed with every
// htmx swap of #console). This script keeps it per table in localStorage with the moves made
// while the network was gone, judges each tap with the project's own engine running under
// Pyodide (games/offline.py, the same reading of a form as the server's), and sends the queue in
// order when the network is back. The server's seq rules make a resend harmless; a game that
// moved on elsewhere is shown move by move for the referee to resolve, never merged silently.
//
// Every word a person reads comes from the page (the templates in console.html, translated by
// Django); the engine's refusals come with their own English and Japanese.
const root = document.getElementById("offline-root");

if (root) start();

function start() {
  const tableId = root.dataset.table;
  const STORE_KEY = "kakumei-offline:table:" + tableId;
  const SYNCED_KEY = "kakumei-offline:synced:" + tableId;
  const japanese = (document.documentElement.lang || "").toLowerCase().startsWith("ja");
  const labels = JSON.parse(document.getElementById("offline-labels").textContent);
  const words = {};
  for (const el of fromTemplate("offline-words").querySelectorAll("[data-word]")) {
    words[el.dataset.word] = el.textContent.trim();
  }
  const banner = document.getElementById("sync-banner");
  const slot = (scope, name) => scope.querySelector(`[data-slot="${name}"]`);

  let store = loadStore();
  let offline = false; // the offline console is shown in place of the server's forms
  let syncing = false;
  let engine = null; // games.offline under Pyodide, once started
  // Pyodide starts only when the phone may have to judge (network gone, moves waiting, a
  // conflict): starting it costs seconds of CPU, which a page that stays online never pays.
  let engineState = "idle";
  let lastError = null;
  // A refused quick result's selects, drawn again as chosen to be put right (never queued).
  let quickChosen = {};
  let engineStarted;
  // The page a finished sync reloads says so once; a later tap or reload clears it.
  let justSynced = sessionStorage.getItem(SYNCED_KEY) === "1";
  sessionStorage.removeItem(SYNCED_KEY);

  const engineReady = new Promise((resolve) => {
    engineStarted = resolve;
  });

  // --- the store: per table, per game (a queue belongs to its game; never mixed) -----------

  function loadStore() {
    try {
      const kept = JSON.parse(localStorage.getItem(STORE_KEY));
      if (kept && kept.games) return kept;
    } catch (_) {
      // A damaged entry is replaced below; the server still has every move it accepted.
    }
    return { current: null, games: {} };
  }

  function save() {
    localStorage.setItem(STORE_KEY, JSON.stringify(store));
  }

  function entry() {
    return store.current == null ? null : store.games[store.current] || null;
  }

  function waiting() {
    return Object.values(store.games).reduce((n, g) => n + g.queue.length, 0);
  }

  function conflicted() {
    return Object.values(store.games).find((g) => g.conflict) || null;
  }

  // The moves the phone counts as played on top of the seed's record: those the server has
  // taken since (sent) and those still waiting (queue).
  function playedMoves(game) {
    return game.sent.concat(game.queue.filter((item) => item.move).map((item) => item.move));
  }

  function nextSeq(game) {
    const last = game.queue.length ? game.queue[game.queue.length - 1].seq : null;
    return (last ?? game.seed.last_seq + game.sent.length) + 1;
  }

  // A seed the page (or the server) gives: taken as the game's base unless moves made on top
  // of an older one still wait, or it is older than the one kept (a cached page).
  function adopt(seed) {
    if (!seed) return;
    if (seed.game == null || !seed.supported) {
      store.current = null;
    } else {
      const key = String(seed.game);
      const kept = store.games[key];
      if (!kept) {
        store.games[key] = { seed, sent: [], queue: [], conflict: null };
      } else if (
        !kept.queue.length &&
        !kept.conflict &&
        seed.last_seq >= kept.seed.last_seq + kept.sent.length
      ) {
        Object.assign(kept, { seed, sent: [] });
      }
      store.current = key;
    }
    // Games with nothing left to send are forgotten; the others stay until sent or resolved.
    for (const [key, game] of Object.entries(store.games)) {
      if (key !== store.current && !game.queue.length && !game.conflict) delete store.games[key];
    }
    save();
  }

  function pageSeed() {
    const el = document.getElementById("offline-seed");
    return el ? JSON.parse(el.textContent) : null;
  }

  // --- words ---------------------------------------------------------------------------------

  function fromTemplate(id) {
    return document.getElementById(id).content.cloneNode(true);
  }

  function fill(text, values) {
    return text.replace(/%(\w+)%/g, (_, name) => (name in values ? values[name] : ""));
  }

  function seatRow(seat) {
    return entry()?.seed.seats.find((s) => s.seat === seat) || { seat, position: seat + 1, name: "" };
  }

  function seatName(seat) {
    const row = seatRow(seat);
    return fill(words["name-seat"], { name: row.name, seat: row.position });
  }

  function cardSpan(face) {
    const span = document.createElement("span");
    span.className = "card " + face.colour;
    span.textContent = face.label;
    return span;
  }

  function refusalText(verdict) {
    const message = japanese ? verdict.message_ja : verdict.message_en;
    return message || verdict.detail || verdict.code || "";
  }

  function moveLine(item) {
    const li = document.createElement("li");
    if (item.quick) {
      const { finishing_order: order, fouls, miyako_ochi: miyako } = item.quick;
      const parts = [order.map((s) => seatRow(s).name).join(" → ")];
      for (const seat of fouls) parts.push(`${seatRow(seat).name} ${words["mark-foul"]}`);
      if (miyako != null) parts.push(`${seatRow(miyako).name} ${words["mark-miyako"]}`);
      li.append(words["quick-result"] + ": " + parts.join(" · "));
      return li;
    }
    const move = item.move;
    const kind = move.pass ? "pass" : move.give ? "give" : move.misplay ? "misplay" : "play";
    li.append(seatName(move.seat) + ": " + words["move-" + kind]);
    // The judge's faces: the cards as the pages show them (games/offline.py, card_face).
    for (const face of item.faces || []) li.append(" ", cardSpan(face));
    if (item.seq) li.value = item.seq;
    return li;
  }

  // --- the banner ----------------------------------------------------------------------------

  function showBanner(state) {
    const count = waiting();
    // The banner promises offline mode only where the console can provide it: a game the
    // server's seed says the phone can judge (`supported`, games/offline_views.py
    // offline_capable), or moves and conflicts still kept on the phone. Otherwise it is silent.
    if (!entry() && !count && !conflicted()) {
      banner.hidden = true;
      return;
    }
    banner.hidden = false;
    banner.dataset.state = state;
    banner.dataset.engine = engineState;
    slot(banner, "status").textContent = fill(words["banner-" + state], { count });
    slot(banner, "engine").textContent = words["engine-" + engineState];
    slot(banner, "send").hidden = !count || syncing || !!conflicted() || !navigator.onLine;
  }

  function bannerState() {
    if (conflicted()) return "conflict";
    if (syncing) return "syncing";
    if (!navigator.onLine) return "offline";
    if (waiting()) return "waiting";
    return justSynced ? "synced" : "online";
  }

  function refreshBanner() {
    showBanner(bannerState());
  }

  // --- the engine, under Pyodide -------------------------------------------------------------

  // Starts the engine once; the banner says it is loading until it is ready.
  function wakeEngine() {
    if (engineState !== "idle") return;
    engineState = "loading";
    refreshBanner();
    startEngine();
  }

  async function startEngine() {
    try {
      if (!root.dataset.pyodide) throw new Error("this site serves no Pyodide");
      const pyodideModule = await import(root.dataset.pyodide);
      const indexURL = new URL(".", new URL(root.dataset.pyodide, location.href)).href;
      const pyodide = await pyodideModule.loadPyodide({ indexURL });
      const archive = await fetch(root.dataset.engine, { credentials: "same-origin" });
      if (!archive.ok) throw new Error(String(archive.status));
      pyodide.unpackArchive(await archive.arrayBuffer(), "zip", { extractDir: "/kakumei" });
      pyodide.runPython(
        "import os, sys\nsys.path.insert(0, '/kakumei')\nos.environ['KAKUMEI_ENGINE'] = 'pure'",
      );
      engine = pyodide.pyimport("games.offline");
      engineState = "ready";
    } catch (error) {
      engineState = "unavailable";
      console.warn("offline engine unavailable", error);
    }
    engineStarted(engine);
    refreshBanner();
    if (offline) render();
  }

  function call(name, ...args) {
    return JSON.parse(engine[name](...args.map((a) => JSON.stringify(a))));
  }

  // --- the service worker --------------------------------------------------------------------

  async function registerWorker() {
    if (!("serviceWorker" in navigator)) return;
    try {
      await navigator.serviceWorker.register(root.dataset.worker, { scope: root.dataset.scope });
      const ready = await navigator.serviceWorker.ready;
      // The page that registered the worker was fetched before it: keep this page now, so that
      // a reload without a network still opens the console.
      navigator.serviceWorker.addEventListener("message", (event) => {
        if (event.data && event.data.kept === location.pathname) root.dataset.kept = "yes";
      });
      ready.active.postMessage({ keep: location.pathname });
    } catch (error) {
      console.warn("service worker not registered", error);
    }
  }

  // --- going offline -------------------------------------------------------------------------

  function goOffline() {
    wakeEngine();
    if (offline) return; // already shown: a re-render would drop the cards being picked
    const game = entry();
    if (!game && !waiting()) {
      const notice = document.getElementById("offline-unsupported");
      if (notice) notice.hidden = false;
      refreshBanner();
      return;
    }
    offline = true;
    document.getElementById("console").hidden = true;
    render();
  }

  function formFields(form, submitter) {
    const fields = {};
    for (const [name, value] of new FormData(form, submitter)) {
      (fields[name] ||= []).push(String(value));
    }
    return fields;
  }

  async function tap(fields) {
    const game = entry();
    if (!game) return;
    lastError = null;
    if (!(await engineOrRefusal())) return;
    const verdict = call("judge", game.seed.record, playedMoves(game), fields);
    if (!verdict.ok) {
      lastError = verdict;
    } else {
      game.queue.push({ seq: nextSeq(game), move: verdict.move, faces: verdict.faces, form: fields });
      justSynced = false;
      save();
    }
    render();
  }

  // Waits for the engine when it is still starting; false (and says so) when there is none.
  async function engineOrRefusal() {
    wakeEngine();
    if (!engine && engineState !== "unavailable") await engineReady;
    if (engine) return true;
    const unavailable = words["engine-unavailable"];
    lastError = { code: "engine_unavailable", message_en: unavailable, message_ja: unavailable };
    render();
    return false;
  }

  async function recordQuick(form) {
    const game = entry();
    lastError = null;
    if (!(await engineOrRefusal())) return;
    // Read and judged as the server's quick view reads and judges it (games/offline.py).
    const fields = formFields(form);
    const verdict = call("judge_quick", game.seed.quick, fields);
    if (!verdict.ok) {
      lastError = verdict;
      quickChosen = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0]]));
      render();
      return;
    }
    quickChosen = {};
    queueQuick(game, verdict.result);
  }

  function queueQuick(game, result) {
    game.queue = [{ quick: result }];
    justSynced = false;
    save();
    render();
  }

  // --- the offline console -------------------------------------------------------------------

  function render() {
    refreshBanner();
    const host = document.getElementById("offline-console");
    host.replaceChildren();
    const pending = conflicted();
    if (pending) {
      host.append(conflictPanel(pending));
      host.hidden = false;
      return;
    }
    if (!offline) {
      host.hidden = true;
      return;
    }
    host.hidden = false;
    const game = entry();
    if (!game) return;
    const playable = game.seed.mode === "quick" || game.seed.record;
    if (!playable || (game.seed.status !== "in_play" && !game.queue.length)) {
      // Nothing to play offline (the game is over or ruled on, or its set-up is one the engine
      // cannot start): the server's page says what comes next, when the network is back.
      document.getElementById("offline-unsupported").hidden = false;
      return;
    }
    const view = fromTemplate("offline-console-template");
    const panel = view.firstElementChild;
    if (game.seed.mode === "quick") {
      quickConsole(panel, game);
    } else if (!engine) {
      slot(panel, "state").hidden = true;
      slot(panel, "seats-table").hidden = true;
      slot(panel, "loading").hidden = false;
    } else {
      playConsole(panel, game);
    }
    const queue = slot(panel, "queue");
    for (const item of game.queue) queue.append(moveLine(item));
    slot(panel, "queue-box").hidden = !game.queue.length;
    host.append(panel);
  }

  function showError(panel) {
    const box = slot(panel, "error");
    if (!lastError) return;
    box.hidden = false;
    box.replaceChildren(refusalText(lastError) + " ");
    const code = document.createElement("code");
    code.textContent = lastError.code;
    box.append(code);
  }

  function playConsole(panel, game) {
    const view = call("state_view", game.seed.record, playedMoves(game));
    slot(panel, "loading").hidden = true;
    slot(panel, "phase").textContent = words["phase-" + view.phase];
    slot(panel, "turn").textContent = view.turn == null ? "—" : seatName(view.turn);
    const revolution = slot(panel, "revolution");
    revolution.textContent = view.revolution ? words["revolution-on"] : words["revolution-off"];
    revolution.classList.toggle("on", view.revolution);
    const lock = slot(panel, "lock");
    const suits = { S: "♠", H: "♥", D: "♦", C: "♣" };
    lock.textContent = view.lock.length
      ? fill(words["locked"], { suits: view.lock.map((s) => suits[s] || s).join("") })
      : words["lock-none"];
    lock.classList.toggle("on", view.lock.length > 0);
    const trick = slot(panel, "trick");
    if (view.table) {
      for (const face of view.table.cards) trick.append(cardSpan(face));
      const kind = labels.combinations[view.table.combination] || view.table.combination;
      const small = document.createElement("small");
      small.textContent = " " + fill(words["trick-by"], { kind, seat: view.table.seat + 1 });
      trick.append(small);
    } else {
      trick.textContent = words["trick-empty"];
    }
    const placed = Object.fromEntries(view.placings.map((p) => [p.seat, p]));
    const rows = slot(panel, "seats");
    for (const s of game.seed.seats) {
      const tr = document.createElement("tr");
      if (view.turn === s.seat) tr.className = "turn";
      const cells = [String(s.position), `${s.name} #${s.number}`, String(view.counts[s.seat])];
      const place = placed[s.seat];
      let state = "";
      if (place && place.place) state = `${place.place}. ${labels.titles[place.title] || ""}`;
      else if (view.out.includes(s.seat)) state = words["seat-out"];
      else if (view.turn === s.seat) state = "▶ " + words["seat-turn"];
      else if (view.passed.includes(s.seat)) state = words["seat-passed"];
      for (const [i, text] of [...cells, state].entries()) {
        const td = document.createElement("td");
        if (i === 0 || i === 2) td.className = "num";
        td.textContent = text;
        tr.append(td);
      }
      rows.append(tr);
    }
    const forms = slot(panel, "forms");
    if (view.over) {
      slot(panel, "over").hidden = false;
      const list = slot(panel, "placings");
      for (const p of [...view.placings].sort((a, b) => a.place - b.place)) {
        const li = document.createElement("li");
        li.textContent = `${seatRow(p.seat).name} — ${labels.titles[p.title] || ""}`;
        list.append(li);
      }
    } else if (view.phase === "exchange") {
      for (const owed of view.pending.filter((d) => d.kind === "give")) {
        forms.append(handForm("offline-give-form", owed.seat, view.hands[owed.seat], {
          legend: fill(words["gives"], { name: seatName(owed.seat), count: owed.count }),
        }));
      }
    } else if (view.turn != null) {
      forms.append(handForm("offline-play-form", view.turn, view.hands[view.turn], {
        legend: fill(words["hand-of"], { name: seatRow(view.turn).name }),
      }));
    }
    showError(panel);
    const errorBox = slot(panel, "error");
    const form = forms.querySelector("form");
    if (form && !errorBox.hidden) form.append(errorBox);
  }

  function handForm(templateId, seat, hand, { legend }) {
    const form = fromTemplate(templateId).firstElementChild;
    form.elements.seat.value = String(seat);
    slot(form, "legend").textContent = legend;
    const picker = slot(form, "hand");
    if (hand) {
      slot(form, "typed")?.remove();
      for (const face of hand) {
        const label = document.createElement("label");
        label.className = "card " + face.colour;
        const box = document.createElement("input");
        box.type = "checkbox";
        box.name = "cards";
        box.value = face.code;
        box.setAttribute("aria-label", face.code);
        const span = document.createElement("span");
        span.textContent = face.label;
        label.append(box, span);
        picker.append(label);
      }
    } else {
      picker.remove();
    }
    if (root.dataset.elevenBackCall !== "yes") slot(form, "calls")?.remove();
    if (root.dataset.instantWin !== "yes") slot(form, "instant-win")?.remove();
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      tap(formFields(form, event.submitter));
    });
    return form;
  }

  function quickConsole(panel, game) {
    slot(panel, "state").hidden = true;
    slot(panel, "seats-table").hidden = true;
    slot(panel, "loading").hidden = true;
    if (game.queue.length) {
      slot(panel, "quick-waiting").hidden = false;
      return;
    }
    const form = fromTemplate("offline-quick-form").firstElementChild;
    const rows = slot(form, "rows");
    for (const s of game.seed.seats) {
      const row = fromTemplate("offline-quick-row").firstElementChild;
      slot(row, "name").textContent = `${s.position}. ${s.name}`;
      const select = row.querySelector("select");
      select.name = "outcome_" + s.seat;
      select.setAttribute("aria-label", fill(words["outcome-of"], { name: s.name }));
      for (const [value, text] of [["", "—"], ...game.seed.quick_choices]) {
        select.append(new Option(text, value));
      }
      if (quickChosen[select.name]) select.value = quickChosen[select.name];
      rows.append(row);
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      recordQuick(form);
    });
    slot(panel, "forms").append(form);
    showError(panel);
  }

  // --- sync ----------------------------------------------------------------------------------

  function csrfToken() {
    const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
    if (cookie) return decodeURIComponent(cookie.split("=")[1]);
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["x-csrftoken"];
    } catch (_) {
      return "";
    }
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json" },
      body: JSON.stringify(body),
    });
    let answer = {};
    try {
      answer = await response.json();
    } catch (_) {
      // An answer without a body (a proxy's error page) says enough by its status.
    }
    return { status: response.status, answer };
  }

  async function freshSeed(game) {
    const response = await fetch(game.seed.urls.seed, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) throw new Error(String(response.status));
    return response.json();
  }

  async function sync() {
    if (syncing || conflicted() || !navigator.onLine) {
      refreshBanner();
      return;
    }
    syncing = true;
    refreshBanner();
    let stopped = false;
    try {
      // The oldest games first: their moves were made before the current game's.
      const keys = Object.keys(store.games).sort((a, b) => (a === store.current) - (b === store.current) || a - b);
      for (const key of keys) {
        const game = store.games[key];
        while (game.queue.length && !stopped) {
          const item = game.queue[0];
          const { status, answer } = item.quick
            ? await post(game.seed.urls.quick, item.quick)
            : await post(game.seed.urls.moves, { seq: item.seq, move: item.move });
          if (status === 200 || status === 201) {
            // 201 taken; 200 the same move was already there (a resend, harmless).
            game.queue.shift();
            if (item.move) game.sent.push(item.move);
            save();
            refreshBanner();
            if (offline) render();
          } else if ([400, 409, 422].includes(status)) {
            await openConflict(game, answer);
            stopped = true;
          } else {
            lastError = answer.code ? answer : { code: String(status), message_en: words["send-failed"], message_ja: words["send-failed"] };
            stopped = true;
          }
        }
        if (stopped) break;
      }
    } catch (error) {
      // The network went again mid-way: what was not acknowledged is still queued.
      stopped = true;
    } finally {
      syncing = false;
    }
    if (!stopped && !waiting() && !conflicted()) {
      sessionStorage.setItem(SYNCED_KEY, "1");
      // Everything is on the server: its own console takes over again.
      location.reload();
      return;
    }
    if (offline || conflicted()) render();
    refreshBanner();
  }

  async function openConflict(game, refusal) {
    wakeEngine();
    await engineReady;
    let fresh = null;
    try {
      fresh = await freshSeed(game);
    } catch (_) {
      fresh = null;
    }
    const known = game.seed.last_seq + game.sent.length;
    const sameGame = fresh && String(fresh.game) === String(game.seed.game);
    let verdicts;
    if (sameGame && engine && fresh.record && !game.queue[0].quick) {
      verdicts = call("rebase", fresh.record, game.queue.map((item) => item.move));
    } else {
      verdicts = game.queue.map(() => ({ ok: false, ...refusal, code: refusal.code || "game_moved_on" }));
    }
    game.conflict = {
      fresh: sameGame ? fresh : null,
      verdicts,
      server: sameGame ? fresh.log.filter((line) => line.seq > known) : [],
    };
    save();
  }

  function conflictPanel(game) {
    const panel = fromTemplate("offline-conflict-template").firstElementChild;
    const serverList = slot(panel, "server");
    for (const line of game.conflict.server) {
      const li = document.createElement("li");
      li.value = line.seq;
      li.textContent = line.text;
      serverList.append(li);
    }
    slot(panel, "server-none").hidden = game.conflict.server.length > 0;
    const mine = slot(panel, "mine");
    // Moves can be judged again on the server's game; a quick result refused stays refused.
    const resendable = !!game.conflict.fresh && !game.queue.some((item) => item.quick);
    game.queue.forEach((item, i) => {
      const verdict = game.conflict.verdicts[i] || {};
      const row = fromTemplate("offline-conflict-row").firstElementChild;
      const box = row.querySelector("input");
      box.checked = !!verdict.ok && resendable;
      box.disabled = !resendable;
      box.value = String(i);
      const line = moveLine({ ...item, seq: null });
      slot(row, "move").append(...line.childNodes);
      const verdictBox = slot(row, "verdict");
      if (verdict.ok) {
        verdictBox.textContent = words["still-legal"];
        verdictBox.className = "verdict ok";
      } else {
        verdictBox.textContent = refusalText(verdict) + " ";
        const code = document.createElement("code");
        code.textContent = verdict.code;
        verdictBox.append(code);
        verdictBox.className = "verdict refused";
      }
      mine.append(row);
    });
    const send = slot(panel, "send");
    send.hidden = !resendable;
    send.addEventListener("click", () => {
      const ticked = [...mine.querySelectorAll("input:checked")].map((b) => Number(b.value));
      sendTicked(game, ticked);
    });
    slot(panel, "discard").addEventListener("click", () => {
      if (!window.confirm(words["discard-confirm"])) return;
      discard(game);
    });
    return panel;
  }

  function sendTicked(game, ticked) {
    const fresh = game.conflict.fresh;
    const chosen = ticked.map((i) => game.queue[i]);
    // Judged again in the order they will be sent, on the server's game as it is now.
    const verdicts = call("rebase", fresh.record, chosen.map((item) => item.move));
    const refused = verdicts.findIndex((v) => !v.ok);
    if (refused >= 0) {
      const at = ticked[refused];
      game.conflict.verdicts = game.queue.map((_, i) =>
        i === at ? verdicts[refused] : { ...game.conflict.verdicts[i], ok: ticked.includes(i) && game.conflict.verdicts[i].ok },
      );
      save();
      render();
      return;
    }
    Object.assign(game, {
      seed: fresh,
      sent: [],
      conflict: null,
      queue: chosen.map((item, k) => ({ ...item, seq: fresh.last_seq + 1 + k, move: verdicts[k].move, faces: verdicts[k].faces })),
    });
    save();
    sync();
  }

  function discard(game) {
    const key = Object.keys(store.games).find((k) => store.games[k] === game);
    if (game.conflict.fresh) {
      Object.assign(game, { seed: game.conflict.fresh, sent: [], queue: [], conflict: null });
    } else {
      delete store.games[key];
    }
    save();
    sync();
  }

  // --- wiring --------------------------------------------------------------------------------

  function onSwap() {
    adopt(pageSeed());
    refreshBanner();
  }

  const lastSubmit = new WeakMap();
  // A console tap whose request never reached the server: judged here so it is not lost, and
  // the generic "could not complete" banner is not shown for it (htmx-errors.js checks).
  window.addEventListener(
    "htmx:sendError",
    (event) => {
      if (!entry()) return;
      const form = event.detail.elt?.closest?.("form");
      // Not a move (the time-fault button): nothing to judge here; the banner says it failed.
      if (form && "onlineOnly" in form.dataset) return;
      const fields = form && form.closest("#console") ? lastSubmit.get(form) : null;
      if (!fields) {
        // A refresh of the seats that failed: nothing was tapped, nothing to keep.
        if (offline) event.preventDefault();
        return;
      }
      event.preventDefault();
      goOffline();
      tap(fields);
    },
    true,
  );
  document.addEventListener(
    "submit",
    (event) => {
      if (event.target.closest("#console")) lastSubmit.set(event.target, formFields(event.target, event.submitter));
    },
    true,
  );
  // Any swap may have brought a fresh #console, and with it a fresh seed.
  document.addEventListener("htmx:afterSettle", onSwap);
  window.addEventListener("offline", goOffline);
  window.addEventListener("online", () => {
    refreshBanner();
    if (waiting()) sync();
    else if (offline) location.reload();
  });
  slot(banner, "send").addEventListener("click", () => sync());

  adopt(pageSeed());
  if (!navigator.onLine || waiting() || conflicted()) goOffline();
  refreshBanner();
  if (navigator.onLine && waiting()) sync();
  // The worker keeps the files (Pyodide among them) on the phone; the engine starts from them
  // when it is first needed (wakeEngine).
  if (entry() || waiting()) registerWorker();
}
