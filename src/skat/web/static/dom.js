// Building the page: h() makes an element with its attributes and children (never HTML from data), $() finds one.

/** An element: attrs set as attributes, except cls (class), text (text content) and onclick (a listener);
 * null, undefined and false leave an attribute out; children are nodes or text, arrays flattened. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const k in attrs || {}) {
    const v = attrs[k];
    if (v === null || v === undefined || v === false) continue;
    if (k === "onclick") el.addEventListener("click", v);
    else if (k === "cls") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** The first element matching a CSS selector. */
export const $ = (sel) => document.querySelector(sel);
