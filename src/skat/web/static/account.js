// The account page (/account, docs/accounts.md): signed out, a form to sign in and one to make an account; signed
// in, who one is, the way to one's games and the leaderboard, a new password and signing out. The server keeps the
// session in an HttpOnly cookie: this page only asks GET /api/account/me who is signed in, and says every refusal
// in the page's language from its error code (the catalogs' "account" section).

import { $ } from "./dom.js";
import { fill, LANG, setLang } from "./lang.js";
import { ApiError, api } from "./net.js";

/** @typedef {import("./protocol").AccountAnswer} AccountAnswer */
/** @typedef {import("./protocol").AccountInfo} AccountInfo */

/** A text of the account section in the page's language. */
/** @param {string} key @param {import("./text.js").Params} [params] */
const A = (key, params) => fill("account", key, params);

/** The error codes the page says in its own words (others: the server's message). */
const KNOWN = ["name_taken", "bad_login", "throttled", "weak_password", "bad_account_name", "bad_password",
  "account_disabled", "signed_out", "cross_origin"];

/** Who is signed in (once known), the note at the page's top, and the refusal each form last got (said again in
 * a new language). */
/** @type {{account: AccountInfo | null, loaded: boolean, note: {key: string, params?: import("./text.js").Params} | null,
 *   errors: Record<string, unknown>}} */
const P = { account: null, loaded: false, note: null, errors: {} };

const ERROR_LINES = ["#a-in-error", "#a-reg-error", "#a-pw-error", "#a-note-error"];

/** A POST of the account API. Like net.js's api, but a refusal keeps the Retry-After of a 429 (the seconds to wait). */
/** @template T @param {string} path @param {unknown} body @returns {Promise<T>} */
async function post(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new ApiError(data.message || res.statusText || String(res.status), res.status, data.error);
    const wait = Number(res.headers.get("Retry-After"));
    Object.assign(err, { retryAfter: Number.isFinite(wait) && wait > 0 ? Math.ceil(wait) : null });
    throw err;
  }
  return data;
}

/** A refusal in the page's language: its code's text (too many tries: with the seconds to wait). */
/** @param {unknown} e @returns {string} */
function errorText(e) {
  if (e instanceof ApiError && e.code && KNOWN.includes(e.code)) {
    if (e.code === "throttled") {
      const wait = /** @type {{retryAfter?: number | null}} */ (e).retryAfter;
      return wait ? A("err_throttled", { n: wait }) : A("err_throttled_later");
    }
    return A("err_" + e.code);
  }
  return A("err_other", { message: e instanceof Error ? e.message : String(e) });
}

/** A date in the page's language. */
/** @param {number} seconds */
function dateText(seconds) {
  return new Intl.DateTimeFormat(LANG, { dateStyle: "long" }).format(new Date(seconds * 1000));
}

function render() {
  $("#a-loading").classList.toggle("hidden", P.loaded);
  $("#a-out").classList.toggle("hidden", !P.loaded || !!P.account);
  $("#a-in").classList.toggle("hidden", !P.loaded || !P.account);
  $("#a-note").textContent = P.note ? A(P.note.key, P.note.params) : "";
  for (const sel of ERROR_LINES) $(sel).textContent = sel in P.errors ? errorText(P.errors[sel]) : "";
  if (P.account) {
    $("#a-who").textContent = A("signedInAs", { name: P.account.name });
    $("#a-since").textContent = A("memberSince", { date: dateText(P.account.created) });
    $("#a-pw-user", HTMLInputElement).value = P.account.name;
  }
}

/** @param {AccountInfo | null} account @param {{key: string, params?: import("./text.js").Params} | null} note */
function show(account, note) {
  P.account = account;
  P.loaded = true;
  P.note = note;
  P.errors = {};
  render();
}

/** Run `work` for a form: its button busy meanwhile, a refusal said in the form's error line. */
/** @param {HTMLFormElement} form @param {string} errorSel @param {() => Promise<void>} work */
async function submitting(form, errorSel, work) {
  const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
  delete P.errors[errorSel];
  P.note = null;  // what the page said before (signed out, a welcome) is past
  render();
  button.disabled = true;
  form.setAttribute("aria-busy", "true");
  try {
    await work();
  } catch (e) {
    P.errors[errorSel] = e;
    render();
  } finally {
    button.disabled = false;
    form.removeAttribute("aria-busy");
  }
}

/** The note after signing in or registering: a welcome, and the guest's games now the account's. */
/** @param {AccountAnswer} answer @param {boolean} registered */
function welcome(answer, registered) {
  const claimed = answer.claimed || 0;
  if (claimed > 0) return { key: registered ? "welcomeClaimed" : "welcomeBackClaimed", params: { name: answer.account.name, n: claimed } };
  return { key: registered ? "welcome" : "welcomeBack", params: { name: answer.account.name } };
}

/** @param {string} sel */
const field = (sel) => $(sel, HTMLInputElement);

$("#a-in-form", HTMLFormElement).addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = /** @type {HTMLFormElement} */ (ev.currentTarget);
  void submitting(form, "#a-in-error", async () => {
    /** @type {AccountAnswer} */
    const answer = await post("/api/account/login", { name: field("#a-in-name").value, password: field("#a-in-pass").value });
    form.reset();
    show(answer.account, welcome(answer, false));
  });
});

$("#a-reg-form", HTMLFormElement).addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = /** @type {HTMLFormElement} */ (ev.currentTarget);
  void submitting(form, "#a-reg-error", async () => {
    /** @type {AccountAnswer} */
    const answer = await post("/api/account/register", { name: field("#a-reg-name").value, password: field("#a-reg-pass").value });
    form.reset();
    show(answer.account, welcome(answer, true));
  });
});

$("#a-pw-form", HTMLFormElement).addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = /** @type {HTMLFormElement} */ (ev.currentTarget);
  void submitting(form, "#a-pw-error", async () => {
    try {
      /** @type {AccountAnswer} */
      const answer = await post("/api/account/password", { old: field("#a-pw-old").value, new: field("#a-pw-new").value });
      form.reset();
      show(answer.account, { key: "passwordChanged" });
    } catch (e) {
      if (e instanceof ApiError && e.code === "signed_out") { show(null, { key: "err_signed_out" }); return; }
      throw e;
    }
  });
});

$("#a-out-button").addEventListener("click", async () => {
  const button = $("#a-out-button", HTMLButtonElement);
  button.disabled = true;
  try {
    await post("/api/account/logout", {});
    show(null, { key: "signedOut" });
  } catch (e) {
    P.note = null;
    P.errors["#a-note-error"] = e;
    render();
  } finally {
    button.disabled = false;
  }
});

function applyTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-l]").forEach((el) => { el.textContent = A(el.getAttribute("data-l") || ""); });
  document.querySelectorAll("[data-l-label]").forEach((el) => el.setAttribute("aria-label", A(el.getAttribute("data-l-label") || "")));
  document.title = A("pageTitle");
}

const selLang = $("#a-lang", HTMLSelectElement);
selLang.value = LANG;
selLang.addEventListener("change", () => {
  setLang(selLang.value);
  applyTexts();
  render();
});

/** Who is signed in (a 401: nobody). */
async function load() {
  try {
    /** @type {AccountAnswer} */
    const answer = await api("GET", "/api/account/me");
    show(answer.account, null);
  } catch (e) {
    show(null, null);
    if (!(e instanceof ApiError && e.status === 401)) { P.errors["#a-note-error"] = e; render(); }
  }
}

applyTexts();
render();
void load();

// for the browser tests and a curious player's console: who the page thinks is signed in
Object.assign(window, { accountPage: () => ({ loaded: P.loaded, account: P.account }), accountWords: A });
