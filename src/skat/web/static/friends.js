// Friends (issue 30, point 3; docs/friends.md): the lobby's box of the people you follow (online first, each at
// which table) and the invitations to you; the table's "Invite a friend" list; the Follow and Block buttons of a
// person's page. The server answers GET /api/friends (signed-in people only: null here when signed out).

import { h } from "./dom.js";
import { fill } from "./lang.js";
import { api, ApiError } from "./net.js";

/** @typedef {import("./protocol").FriendsAnswer} FriendsAnswer */
/** @typedef {import("./protocol").Friend} Friend */

/** A text of the friends section in the page's language. */
/** @param {string} key @param {import("./text.js").Params} [params] */
export const F = (key, params) => fill("friends", key, params);

/** The reader's friends, or null when nobody is signed in. */
/** @returns {Promise<FriendsAnswer | null>} */
export async function loadFriends() {
  /** @type {import("./protocol").MeAnswer} */
  const me = await api("GET", "/api/me");  // a guest asks no more (a 401 would show in the console as a fault)
  if (!me.signed_in) return null;
  try {
    return await api("GET", "/api/friends");
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

/** What a friend's entry says of where they are: "online · at Anna's table", "online · at a private table",
 * "offline". */
/** @param {Friend} f */
export function whereText(f) {
  if (!f.online) return F("offline");
  if (!f.table) return F("online");
  return F("online") + " · " + (f.table.name ? F("atTable", { table: f.table.name }) : F("atPrivate"));
}

/** The invitations to you, at the top of the lobby (none: nothing). */
/** @param {FriendsAnswer | null} data @param {() => void} onChange @returns {Node[]} */
export function invitationsBox(data, onChange) {
  if (!data || !data.invitations.length) return [];
  return [h("h2", {}, F("invitations")), h("ul", { cls: "f-invitations" }, ...data.invitations.map((inv) =>
    h("li", { "data-invitation": String(inv.id) },
      h("span", {}, F("invitedBy", { name: inv.by.name, table: inv.table.name })), " ",
      h("a", { href: inv.url, cls: "button primary", text: F("accept") }), " ",
      h("button", { text: F("dismiss"), onclick: async () => {
        await api("DELETE", "/api/friends/invitations/" + inv.id); onChange();
      } }))))];
}

/** The lobby's friends box: the people you follow, online first, and a form to follow somebody by name
 * (`onChange`: ask again). */
/** @param {FriendsAnswer | null} data @param {() => void} onChange @returns {Node[]} */
export function friendsBox(data, onChange) {
  if (!data) return [h("p", { cls: "muted" }, F("signIn"), " ", h("a", { href: "/account" }, F("signInLink")))];
  const out = [];
  out.push(followByName(onChange));
  if (!data.following.length) out.push(h("p", { cls: "muted" }, F("none")));
  else {
    out.push(h("ul", { cls: "f-list" }, ...data.following.map((f) => h("li", { cls: f.online ? "online" : "offline", "data-player": f.player },
      h("span", { cls: "f-dot", "aria-hidden": "true" }), " ",
      h("a", { href: "/players/" + f.player }, f.name), " ",
      h("span", { cls: "muted small" }, whereText(f)), " ",
      f.table && f.table.id ? h("a", { href: "/t/" + f.table.id, cls: "f-go" }, F("goToTable")) : ""))));
  }
  return out;
}

/** A small form: follow a person whose name you know. */
/** @param {() => void} onChange @returns {Node} */
export function followByName(onChange) {
  const field = /** @type {HTMLInputElement} */ (h("input", { id: "f-name-follow", maxlength: "200", autocomplete: "off" }));
  const note = h("span", { cls: "muted small", role: "status" });
  const form = h("form", { cls: "f-by-name" },
    h("label", { for: "f-name-follow" }, F("followByName")), " ", field, " ", h("button", { type: "submit", text: F("follow") }), " ", note);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = field.value.trim();
    if (!name) return;
    try {
      /** @type {import("./protocol").FriendRef} */
      const found = await api("GET", "/api/people?name=" + encodeURIComponent(name));
      await api("PUT", `/api/friends/${found.player}/follow`);
      field.value = "";
      onChange();
    } catch (e) {
      note.textContent = e instanceof ApiError && e.code === "no_player" ? F("noSuchPerson", { name }) : (e instanceof Error ? e.message : String(e));
    }
  });
  return form;
}

/** The table's invite list: each person you follow (online first) with an Invite button. */
/** @param {FriendsAnswer} data @param {string} tableId @param {string | null} invite the private table's secret
 * @returns {Node} */
export function inviteList(data, tableId, invite) {
  if (!data.following.length) return h("p", { cls: "muted" }, F("none"));
  return h("ul", { cls: "f-list f-invite" }, ...data.following.map((f) => {
    const button = h("button", { text: F("invite") });
    button.addEventListener("click", async () => {
      button.setAttribute("disabled", "");
      try {
        await api("POST", `/api/friends/${f.player}/invite`, { table_id: tableId, invite });
        button.textContent = F("invited");
      } catch (e) {
        button.removeAttribute("disabled");
        button.textContent = e instanceof Error ? e.message : String(e);
      }
    });
    return h("li", { cls: f.online ? "online" : "offline" }, h("span", { cls: "f-dot", "aria-hidden": "true" }), " ",
      h("span", {}, f.name), " ", h("span", { cls: "muted small" }, whereText(f)), " ", button);
  }));
}

/** Whether you follow, and whether you blocked, a person (by the URL's a-ID). */
/** @param {FriendsAnswer} data @param {string} player */
export function relation(data, player) {
  return { following: data.following.some((f) => f.player === player),
    blocked: data.blocked.some((b) => b.player === player) };
}

/** A person's page: Follow / Unfollow and Block / Unblock (`onChange` with the new answer). */
/** @param {FriendsAnswer} data @param {string} player @param {string} name @param {(d: FriendsAnswer) => void} onChange
 * @returns {Node} */
export function personButtons(data, player, name, onChange) {
  const r = relation(data, player);
  /** @param {"follow" | "block"} what @param {boolean} on */
  const set = async (what, on) => {
    try { onChange(await api(on ? "PUT" : "DELETE", `/api/friends/${player}/${what}`)); }
    catch (e) { note.textContent = e instanceof Error ? e.message : String(e); }
  };
  const note = h("p", { cls: "muted small f-note", role: "status" }, r.blocked ? F("blockedNote", { name }) : "");
  return h("div", { cls: "f-person" },
    r.blocked ? "" : h("button", { cls: r.following ? "" : "primary", id: "f-follow", text: F(r.following ? "unfollow" : "follow"),
      onclick: () => set("follow", !r.following) }), " ",
    h("button", { id: "f-block", text: F(r.blocked ? "unblock" : "block"), onclick: () => set("block", !r.blocked) }),
    note);
}
