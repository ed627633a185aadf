// A club's season (docs/season.md): /season starts one (its name and rule); /season/{id} is the ranking across the
// club's tournament evenings for everyone, and the director's desk where this browser holds the director's key
// (add and take out evenings, members and their accounts, link the evenings' players to members, the rule). The
// server decides everything (who is which member, the counted evenings, totals and places); the page shows. It
// asks for the season again every few seconds while it is shown: the ranking is as live as the evenings'.

import { $, h } from "./dom.js";
import { fill, LANG, setLang } from "./lang.js";
import { ApiError, api } from "./net.js";

/** @typedef {import("./protocol").SeasonState} SeasonState */
/** @typedef {import("./protocol").SeasonStanding} SeasonStanding */
/** @typedef {import("./protocol").SeasonEvening} SeasonEvening */
/** @typedef {import("./protocol").SeasonMember} SeasonMember */
/** @typedef {import("./protocol").SeasonUnmatched} SeasonUnmatched */
/** @typedef {import("./protocol").SeasonCreated} SeasonCreated */

/** A text of this page in the page's language. */
/** @param {string} key @param {import("./text.js").Params} [params] */
const T = (key, params) => fill("season", key, params);
const KEY_HEADER = "X-Season-Key";
/** How often the page asks for the season again (ms). */
const POLL_MS = 4000;
/** The director's key of a season, where this browser holds it. */
/** @param {string} id */
const stored = (id) => localStorage.getItem("skat.season." + id);
/** @param {string} sel */
const input = (sel) => $(sel, HTMLInputElement);
/** @param {string} sel */
const select = (sel) => $(sel, HTMLSelectElement);

/** What the page knows (window.SN for the tests): the season, whether this browser is the director's, whether
 * the last request for the season was answered, and the text of the last state shown (to skip a repeat). */
/** @type {{id: string | null, key: string | null, director: boolean, state: SeasonState | null, connected: boolean, shown: string}} */
const SN = { id: null, key: null, director: false, state: null, connected: false, shown: "" };
Object.assign(window, { SN });

// ------------------------------------------------------------------ words
function applyTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = T(el.getAttribute("data-t") || ""); });
  select("#sn-lang").value = LANG;
  $("#sn-lang").setAttribute("aria-label", T("language"));  // its label's words are hidden on a phone
  input("#f-name").placeholder = T("f_namePh");
  input("#sn-tid").placeholder = location.origin + "/tn/…";  // a link, in no language
  input("#sn-member-account").placeholder = T("accountPh");
  if (SN.state) render(true);
}

/** @param {HTMLElement} el @param {unknown} err */
function showError(el, err) {
  el.textContent = T("error", { m: (err instanceof Error && err.message) || String(err) });
  el.classList.remove("hidden");
}

/** The banner under the top bar (why: "drop" while the server does not answer; cleared when it does). */
/** @param {string} text @param {string} [why] */
function banner(text, why) {
  const b = $("#sn-banner");
  b.textContent = text || "";
  b.dataset.why = why || "";
  b.classList.toggle("hidden", !text);
}

/** Put text on the clipboard (the Clipboard API where the page may use it, else the old way). */
/** @param {string} text */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const area = h("textarea", { readonly: true, cls: "sr-only", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

/** Visible words, and more for a screen reader (a button's name starts with what it shows). */
/** @param {string} visible @param {string} more */
const words = (visible, more) => [visible, h("span", { cls: "sr-only" }, " · " + more)];

// ------------------------------------------------------------------ the new season
/** @param {string} name */
function ruleOf(name) {
  const checked = document.querySelector(`input[name="${name}"]:checked`);
  return checked instanceof HTMLInputElement ? checked.value : "sum";
}

function startNew() {
  $("#sn-new").classList.remove("hidden");
  document.title = T("newTitle");
  $("#sn-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = $("#f-create", HTMLButtonElement);
    button.disabled = true;
    button.textContent = T("creating");
    $("#f-error").classList.add("hidden");
    try {
      const rule = ruleOf("f-rule");
      /** @type {SeasonCreated} */
      const made = await api("POST", "/api/seasons", {
        name: input("#f-name").value.trim(), rule, ...(rule === "best" ? { best: Number(input("#f-best").value) } : {}),
      });
      localStorage.setItem("skat.season." + made.id, made.key);
      location.assign("/season/" + made.id);
    } catch (err) {
      showError($("#f-error"), err);
      button.disabled = false;
      button.textContent = T("create");
    }
  });
}

// ------------------------------------------------------------------ one season
/** A request of the director (with the key). */
/** @template [R=SeasonState] @param {string} method @param {string} path @param {unknown} [body] @returns {Promise<R>} */
function director(method, path, body) {
  return api(method, `/api/seasons/${SN.id}${path}`, body, { [KEY_HEADER]: SN.key || "" });
}

/** A change at the desk: the button waits, the answer is shown, a refusal is said under the part it came from. */
/** @param {HTMLButtonElement | null} button @param {HTMLElement} errorEl @param {() => Promise<SeasonState>} call */
async function deskAction(button, errorEl, call) {
  errorEl.classList.add("hidden");
  if (button) button.disabled = true;
  try {
    update(await call());
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.code === "bad_key") dropKey();
    else showError(errorEl, e);
    return false;
  } finally {
    if (button) button.disabled = false;
  }
}

/** A new state of the season (an answer, or the next poll): shown unless it is the one shown. */
/** @param {SeasonState} state */
function update(state) {
  if (SN.state && state.seq < SN.state.seq) return;  // an older answer overtaken by a newer one
  SN.state = state;
  render(false);
}

function dropKey() {
  localStorage.removeItem("skat.season." + SN.id);
  SN.key = null;
  SN.director = false;
  banner(T("badKey"));
  render(true);
}

/** @param {boolean} always show it even when the state is the one shown (a new language, the key dropped) */
function render(always) {
  const s = SN.state;
  if (!s) return;
  const text = JSON.stringify(s);
  if (!always && text === SN.shown) return;
  SN.shown = text;
  document.body.classList.toggle("director", SN.director);
  document.body.classList.toggle("public", !SN.director);
  document.title = (s.name || T("title")) + " · " + T(SN.director ? "desk" : "ranking");
  $("#sn-title").textContent = SN.director ? T("desk") : T("title");
  $("#sn-name").textContent = s.name || T("title");
  const n = s.best || 0;
  const m = s.evenings.length;
  $("#sn-rule-text").textContent = (s.rule === "best" ? T("ruleTextBest", { n, m }) : T("ruleTextSum")) + " " + T("tieBreak");
  const sw = $("#sn-switch");
  const held = SN.id && stored(SN.id);
  sw.classList.toggle("hidden", !held);
  if (held) {
    sw.textContent = SN.director ? T("publicView") : T("desk");
    $("#sn-switch", HTMLAnchorElement).href = SN.director ? s.url + "?view=public" : s.url;
  }
  $("#sn-desk").classList.toggle("hidden", !SN.director);
  $("#sn-share").classList.toggle("hidden", !SN.director);
  $("#sn-add-evening").classList.toggle("hidden", !SN.director);
  $("#sn-public-url").textContent = location.origin + s.url;
  $("#sn-pdf", HTMLAnchorElement).href = `/api/seasons/${s.id}/ranking.pdf?lang=${LANG}`;
  $("#sn-csv", HTMLAnchorElement).href = `/api/seasons/${s.id}/ranking.csv`;
  $("#sn-live").classList.toggle("off", !SN.connected);
  renderRanking(s);
  renderEvenings(s);
  if (SN.director) renderDesk(s);
}

/** @param {SeasonState} s */
function renderRanking(s) {
  const best = s.rule === "best";
  $("#sn-legend").textContent = best ? T("legendBest", { n: s.best || 0 }) : "";
  $("#sn-legend").classList.toggle("hidden", !best);
  /** @param {string} long @param {string} short @param {string} cls @param {string} [title] @param {string} [sub] */
  const th = (long, short, cls, title, sub) => h("th", { scope: "col", cls, title: title || long },
    h("span", { cls: "long" }, long, sub ? h("small", {}, sub) : ""), h("span", { cls: "short" }, short));
  const head = h("tr", {}, th(T("rank"), T("rankShort"), "num"), h("th", { scope: "col" }, T("member")),
    th(T("total"), T("totalShort"), "num pts"), th(T("played"), T("playedShort"), "num"),
    s.evenings.map((e) => th(T("evening", { n: e.number }), T("eveningShort", { n: e.number }), "num ev",
      [T("evening", { n: e.number }), e.date, e.name].filter(Boolean).join(" · "), e.date)));
  const rows = s.ranking.map((r) => h("tr", { cls: r.rank <= 3 ? "top" : null },
    h("td", { cls: "num rank" }, r.rank),
    h("th", { scope: "row", cls: "who" }, h("span", { cls: "sn-mname" }, r.member),
      r.account ? h("a", { cls: "sn-acc", href: `/players/a-${r.account.id}` }, "@" + r.account.name) : ""),
    h("td", { cls: "num pts" }, r.total),
    h("td", { cls: "num" }, r.played),
    r.points.map((p, i) => p === null ? h("td", { cls: "num ev none" }, T("noPoints"))
      : !r.counted[i] ? h("td", { cls: "num ev off" }, h("span", { "aria-hidden": "true" }, `(${p})`),
        h("span", { cls: "sr-only" }, `${p} · ${T("notCounted")}`))
        : h("td", { cls: "num ev" + (best ? " on" : "") }, p))));
  $("#sn-rank-table").replaceChildren(h("caption", { cls: "sr-only" }, T("ranking")), h("thead", {}, head),
    h("tbody", {}, rows));
  $("#sn-rank-table").classList.toggle("hidden", !s.ranking.length);
  $("#sn-empty").classList.toggle("hidden", s.ranking.length > 0);
  $("#sn-empty").textContent = SN.director ? T("empty") : T("emptyPublic");
}

/** @param {SeasonState} s */
function renderEvenings(s) {
  const list = $("#sn-evening-list");
  if (!s.evenings.length) {
    list.replaceChildren(h("li", { cls: "muted sn-none" }, T("noEvenings")));
    return;
  }
  list.replaceChildren(...s.evenings.map((e) => h("li", { cls: e.missing ? "missing" : null },
    h("span", { cls: "sn-ev-n" }, T("evening", { n: e.number })),
    h("span", { cls: "sn-ev-date" }, e.date),
    h("a", { href: e.url, cls: "sn-ev-name" }, e.name || T("untitled")),
    h("span", { cls: "muted sn-ev-count" }, e.missing ? T("eveningMissing") : T("eveningPlayers", { n: e.players })),
    SN.director ? h("button", { type: "button", cls: "small-btn", onclick: (ev) => {
      const button = ev.currentTarget;
      if (button instanceof HTMLButtonElement && confirm(T("removeEveningConfirm", { n: e.number, name: e.name }))) {
        deskAction(button, $("#sn-evening-error"), () => director("DELETE", `/evenings/${e.tournament}`));
      }
    } }, words(T("removeEvening"), T("evening", { n: e.number }))) : "")));
}

/** @param {SeasonState} s */
function renderDesk(s) {
  // the players to link
  const intro = $("#sn-unmatched-intro");
  intro.textContent = s.unmatched.length ? T("unmatchedIntro") : T("noUnmatched");
  $("#sn-add-all").classList.toggle("hidden", !s.unmatched.some((u) => u.reason === "unknown"));
  $("#sn-unmatched-list").replaceChildren(...s.unmatched.map((u, i) => unmatchedRow(s, u, i)));
  // the members
  $("#sn-member-count").textContent = s.members.length ? T("memberCount", { n: s.members.length }) : T("noMembers");
  const members = byName(s.members);
  $("#sn-member-list").replaceChildren(...members.map(memberRow));
  const chooser = select("#sn-la-member");
  const chosen = chooser.value;
  chooser.replaceChildren(...members.map((mem) => h("option", { value: mem.name }, mem.name)));
  if (s.members.some((mem) => mem.name === chosen)) chooser.value = chosen;
  $("#sn-link-account").classList.toggle("hidden", !s.members.length);
  // the rule (as the season has it, unless the director is choosing another)
  if (!$("#sn-rule-form").contains(document.activeElement)) {
    document.querySelectorAll('input[name="sn-rule"]').forEach((r) => {
      if (r instanceof HTMLInputElement) r.checked = r.value === s.rule;
    });
    if (s.best) input("#sn-best").value = String(s.best);
  }
}

/** The members in the order of their names (in the page's language). */
/** @param {SeasonMember[]} members */
function byName(members) {
  return [...members].sort((a, b) => a.name.localeCompare(b.name, LANG, { sensitivity: "base" }));
}

/** @param {SeasonState} s @param {SeasonUnmatched} u @param {number} i */
function unmatchedRow(s, u, i) {
  const id = `sn-u-${i}`;
  const err = $("#sn-unmatched-error");
  const chooser = h("select", { id: id + "-m" },
    h("option", { value: "" }, T("chooseMember")), byName(s.members).map((mem) => h("option", { value: mem.name }, mem.name)));
  const evenings = T("unmatchedEvenings", { n: u.evenings.length, list: u.evenings.join(", ") });
  return h("li", { cls: "sn-unmatched" },
    h("div", { cls: "sn-u-who" }, h("strong", { cls: "sn-pname", id }, u.player), " ",
      h("span", { cls: "muted" }, evenings), u.reason === "twice" ? h("span", { cls: "sn-tag" }, T("twice")) : ""),
    h("div", { cls: "sn-u-act" },
      h("label", { for: id + "-m", cls: "sr-only" }, T("linkTo", { name: u.player })), chooser,
      h("button", { type: "button", cls: "small-btn", onclick: (ev) => {
        const button = ev.currentTarget;
        if (!chooser.value || !(button instanceof HTMLButtonElement)) { chooser.focus(); return; }
        deskAction(button, err, () => director("POST", "/members", { op: "link", player: u.player, member: chooser.value }));
      } }, words(T("linkBtn"), u.player)),
      u.reason === "unknown" ? h("button", { type: "button", cls: "small-btn", onclick: (ev) => {
        const button = ev.currentTarget;
        if (button instanceof HTMLButtonElement) deskAction(button, err, () => director("POST", "/members", { op: "add", name: u.player }));
      } }, words(T("addAsMember"), u.player)) : ""));
}

/** @param {SeasonMember} mem */
function memberRow(mem) {
  const err = $("#sn-member-error");
  return h("li", { cls: "sn-member" },
    h("div", { cls: "sn-m-who" }, h("span", { cls: "sn-mname" }, mem.name),
      mem.account ? h("a", { cls: "sn-acc", href: `/players/a-${mem.account.id}` }, "@" + mem.account.name) : "",
      mem.players.length ? h("span", { cls: "sn-also" }, h("span", { cls: "muted" }, T("playsAs")), " ",
        mem.players.map((p) => h("span", { cls: "sn-alias" }, p, h("button", { type: "button", cls: "sn-x", title: T("unlinkName", { name: p }),
          onclick: (ev) => {
            const button = ev.currentTarget;
            if (button instanceof HTMLButtonElement) deskAction(button, err, () => director("POST", "/members", { op: "unlink", player: p }));
          } }, h("span", { "aria-hidden": "true" }, "×"), h("span", { cls: "sr-only" }, T("unlinkName", { name: p })))))) : ""),
    h("div", { cls: "sn-m-act" },
      mem.account ? h("button", { type: "button", cls: "small-btn", onclick: (ev) => {
        const button = ev.currentTarget;
        if (button instanceof HTMLButtonElement) deskAction(button, err, () => director("POST", "/members", { op: "account", name: mem.name }));
      } }, words(T("unlinkAccount"), mem.name)) : "",
      h("button", { type: "button", cls: "small-btn", onclick: (ev) => {
        const button = ev.currentTarget;
        if (button instanceof HTMLButtonElement && confirm(T("removeMemberConfirm", { name: mem.name }))) {
          deskAction(button, err, () => director("POST", "/members", { op: "remove", name: mem.name }));
        }
      } }, words(T("removeMember"), mem.name))));
}

function wireDesk() {
  $("#sn-copy-public").addEventListener("click", async () => {
    await copyText($("#sn-public-url").textContent || "");
    const button = $("#sn-copy-public");
    button.textContent = T("copied");
    button.classList.add("done");
    setTimeout(() => { button.textContent = T("copy"); button.classList.remove("done"); }, 2000);
  });
  $("#sn-add-evening").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const ref = input("#sn-tid").value.trim();
    if (!ref) return;
    const date = input("#sn-date").value;
    const ok = await deskAction($("#sn-add-evening-btn", HTMLButtonElement), $("#sn-evening-error"),
      () => director("POST", "/evenings", { tournament_id: ref, ...(date ? { date } : {}) }));
    if (ok) { input("#sn-tid").value = ""; input("#sn-date").value = ""; }
  });
  $("#sn-add-member").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input("#sn-member-name").value.trim();
    const account = input("#sn-member-account").value.trim();
    if (!name) return;
    const ok = await deskAction($("#sn-add-member-btn", HTMLButtonElement), $("#sn-member-error"),
      () => director("POST", "/members", { op: "add", name, ...(account ? { account } : {}) }));
    if (ok) { input("#sn-member-name").value = ""; input("#sn-member-account").value = ""; $("#sn-member-name").focus(); }
  });
  $("#sn-link-account").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const account = input("#sn-la-account").value.trim();
    if (!account) return;
    const ok = await deskAction($("#sn-link-account-btn", HTMLButtonElement), $("#sn-member-error"),
      () => director("POST", "/members", { op: "account", name: select("#sn-la-member").value, account }));
    if (ok) input("#sn-la-account").value = "";
  });
  $("#sn-add-all").addEventListener("click", () => {
    deskAction($("#sn-add-all", HTMLButtonElement), $("#sn-unmatched-error"), () => director("POST", "/members", { op: "add_unmatched" }));
  });
  $("#sn-rule-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const rule = ruleOf("sn-rule");
    const body = rule === "best" ? { rule, best: Number(input("#sn-best").value) } : { rule };
    deskAction($("#sn-rule-btn", HTMLButtonElement), $("#sn-settings-error"), () => director("POST", "/settings", body));
  });
}

// ------------------------------------------------------------------ following
/** Ask for the season again every few seconds while the page is shown; a server that does not answer is said
 * in the banner until it answers again. */
function poll() {
  setInterval(async () => {
    if (document.hidden) return;
    try {
      /** @type {SeasonState} */
      const state = await api("GET", `/api/seasons/${SN.id}`);
      if (!SN.connected) {
        SN.connected = true;
        $("#sn-live").classList.remove("off");
        if ($("#sn-banner").dataset.why === "drop") banner("");
      }
      update(state);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) { banner(T("notFound")); return; }
      SN.connected = false;
      $("#sn-live").classList.add("off");
      banner(T("disconnected"), "drop");
    }
  }, POLL_MS);
}

/** @param {string} id */
async function startSeason(id) {
  SN.id = id;
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (key) {
    localStorage.setItem("skat.season." + id, key);
    history.replaceState(null, "", location.pathname + location.search);
  }
  SN.key = stored(id);
  SN.director = Boolean(SN.key) && new URLSearchParams(location.search).get("view") !== "public";
  $("#sn-view").classList.remove("hidden");
  if (SN.director) wireDesk();
  try {
    /** @type {SeasonState} */
    const state = await api("GET", `/api/seasons/${id}`);
    SN.connected = true;
    update(state);
  } catch (err) {
    banner(err instanceof ApiError && err.status === 404 ? T("notFound") : T("error", { m: err instanceof Error ? err.message : String(err) }));
    $("#sn-view").classList.add("hidden");
    return;
  }
  if (SN.director) {
    try {
      await director("GET", "/director");
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) dropKey();
    }
  }
  poll();
}

// ------------------------------------------------------------------ start
select("#sn-lang").addEventListener("change", () => { setLang(select("#sn-lang").value); applyTexts(); });
applyTexts();
const match = location.pathname.match(/^\/season\/([^/]*)/);
if (!match) startNew();
else if (/^[0-9a-f]{32}$/.test(match[1])) startSeason(match[1]);
else banner(T("notFound"));
