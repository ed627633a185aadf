// Building the page: h() makes an element with its attributes and children (never HTML from data), $() finds one.

/** An attribute's value: null, undefined and false leave it out, true sets it empty; onclick takes a listener. */
/** @typedef {string | number | boolean | null | undefined | ((ev: MouseEvent) => unknown)} AttrValue */
/** @typedef {Record<string, AttrValue>} Attrs */
/** A child: a node, text (numbers written out), nothing (null, undefined, false), or an array of them (one level). */
/** @typedef {Node | string | number | null | undefined | false} Leaf */
/** @typedef {Leaf | Leaf[]} Child */

/** An element: attrs set as attributes, except cls (class), text (text content) and onclick (a listener);
 * null, undefined and false leave an attribute out; children are nodes or text, arrays flattened. */
/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Attrs | null} [attrs] @param {Child[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const k in attrs || {}) {
    const v = /** @type {Attrs} */ (attrs)[k];
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === "function") { if (k === "onclick") el.addEventListener("click", /** @type {EventListener} */ (v)); }
    else if (k === "cls") el.className = String(v);
    else if (k === "text") el.textContent = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** The first element matching a CSS selector, typed as the kind given (HTMLElement when none: for the type
 * checker; a found element of another kind is an error). The page's own elements: never null, though the
 * type checker is not told when a selector finds nothing (use $maybe where that can be). */
/**
 * @template {Element} [T=HTMLElement]
 * @param {string} sel @param {{new (): T, prototype: T}} [kind]
 * @returns {T}
 */
export function $(sel, kind) {
  return /** @type {T} */ ($maybe(sel, kind));
}

/** The first element matching a CSS selector, or null: typed as the kind given, as $. */
/**
 * @template {Element} [T=HTMLElement]
 * @param {string} sel @param {{new (): T, prototype: T}} [kind]
 * @returns {T | null}
 */
export function $maybe(sel, kind) {
  const el = document.querySelector(sel);
  if (el && kind && !(el instanceof kind)) throw new TypeError(`${sel} is a ${el.constructor.name}, not a ${kind.name}`);
  return /** @type {T | null} */ (el);
}
