#!/usr/bin/env node
// The browser client's protocol types from the protocol's JSON Schema: reads docs/protocol.schema.json (generated
// from the server's pydantic models by `python -m skat.server.routes.schema`) and writes
// src/skat/web/static/protocol.generated.d.ts, one named export per `$defs` entry, with json-schema-to-typescript.
// The client imports them through src/skat/web/static/protocol.d.ts, which keeps their names and adds what the
// schema does not describe.
//
//   npm run gen:protocol                         write the file
//   node tools/protocol_types.mjs --check        exit 1 when the file differs from what the schema gives
//   node tools/protocol_types.mjs --out FILE     write FILE instead (`-` for stdout)
//
// The output depends on the schema and the locked versions of json-schema-to-typescript and prettier only: the
// definitions are compiled in name order and the declarations sorted by name.

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SCHEMA = join(ROOT, "docs", "protocol.schema.json");
const TARGET = join(ROOT, "src", "skat", "web", "static", "protocol.generated.d.ts");
const COMMAND = "npm run gen:protocol";
/** The root of the generated wrapper: an object with a property per definition; dropped from the output. */
const WRAPPER = "ProtocolDefinitions";

/**
 * Value types the models write inline (pydantic `Annotated` aliases, no `$defs` entry of their own), recognised by
 * their constraints and description and given a named alias, so that the client reads `Card[]`, not `string[]`.
 * @type {{name: string, matches: (s: Record<string, any>) => boolean}[]}
 */
const ALIASES = [
  { name: "Card", matches: (s) => s.type === "string" && s.pattern === "^[CSHD][789TJQKA]$" },
  {
    name: "Seat",
    matches: (s) => s.type === "integer" && s.minimum === 0 && s.maximum === 2 && /^a game seat\b/.test(s.description ?? ""),
  },
  {
    name: "Position",
    matches: (s) =>
      s.type === "integer" && s.minimum === 0 && s.maximum === 4 && /^a table position\b/.test(s.description ?? ""),
  },
];

/**
 * The schema as json-schema-to-typescript renders well: no `title` below a definition (pydantic titles every
 * property, which would become a type alias of its own: `Seq1`, `Hand5`...), no `default` (a `$ref` beside one
 * renders as an open object), 2020-12 `prefixItems` as the draft-07 tuple (`items` as a list) it knows, and the
 * inline value types of ALIASES as references to definitions of their own.
 * @param {Record<string, any>} defs the schema's `$defs`
 * @returns {Record<string, any>} the definitions to compile, in name order
 */
function prepare(defs) {
  /** @type {Record<string, any>} */
  const aliases = {};
  /** @param {any} node @param {boolean} top @returns {any} */
  const walk = (node, top) => {
    if (Array.isArray(node)) return node.map((item) => walk(item, false));
    if (node === null || typeof node !== "object") return node;
    const alias = top ? undefined : ALIASES.find((a) => a.matches(node));
    if (alias && !(alias.name in defs)) {
      aliases[alias.name] ??= { title: alias.name, description: node.description, type: node.type };
      return { $ref: `#/$defs/${alias.name}` };
    }
    /** @type {Record<string, any>} */
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if ((key === "title" && !top) || key === "default") continue;
      if (key === "prefixItems") {
        out.items = walk(value, false);
        out.additionalItems = false;
      } else {
        out[key] = walk(value, false);
      }
    }
    return out;
  };
  /** @type {Record<string, any>} */
  const prepared = {};
  for (const name of Object.keys(defs).sort()) prepared[name] = walk(defs[name], true);
  for (const name of Object.keys(aliases).sort()) prepared[name] = aliases[name];
  return Object.fromEntries(Object.entries(prepared).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The top-level declarations of prettier's output, each with its doc comment, sorted by name.
 * @param {string} code @returns {string}
 */
function sortDeclarations(code) {
  /** @type {{name: string, lines: string[]}[]} */
  const blocks = [];
  /** @type {string[]} */
  let pending = [];
  let inComment = false;
  for (const line of code.split("\n")) {
    if (!inComment && line.startsWith("/**")) {
      pending = [line];
      inComment = !line.includes("*/");
      continue;
    }
    if (inComment) {
      pending.push(line);
      if (line.includes("*/")) inComment = false;
      continue;
    }
    const declared = /^export (?:interface|type|const enum|enum) ([A-Za-z_$][\w$]*)/.exec(line);
    if (declared) {
      blocks.push({ name: declared[1], lines: [...pending, line] });
      pending = [];
    } else if (line.trim() !== "") {
      if (!blocks.length) throw new Error(`unexpected line before any declaration: ${line}`);
      blocks[blocks.length - 1].lines.push(line);
    }
  }
  const names = blocks.map((b) => b.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length) throw new Error(`declared twice: ${twice.join(", ")}`);
  return blocks
    .filter((b) => b.name !== WRAPPER)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((b) => b.lines.join("\n"))
    .join("\n\n");
}

/** @returns {Promise<string>} the text protocol.generated.d.ts should have */
async function generate() {
  const schema = JSON.parse(readFileSync(SCHEMA, "utf8"));
  const defs = prepare(schema.$defs);
  if (WRAPPER in defs) throw new Error(`the schema defines ${WRAPPER}, the generator's own wrapper name`);
  const wrapper = {
    title: WRAPPER,
    type: "object",
    additionalProperties: false,
    required: Object.keys(defs),
    properties: Object.fromEntries(Object.keys(defs).map((name) => [name, { $ref: `#/$defs/${name}` }])),
    $defs: defs,
  };
  const body = await compile(wrapper, WRAPPER, {
    bannerComment: "",
    declareExternallyReferenced: true,
    unreachableDefinitions: false,
    additionalProperties: true, // JSON Schema's default: a model without `additionalProperties: false` is open
    strictIndexSignatures: false, // as the client reads records elsewhere (tsconfig: no noUncheckedIndexedAccess)
    unknownAny: true,
    enableConstEnums: false,
    format: true,
    style: { printWidth: 120, singleQuote: false, semi: true, tabWidth: 2, trailingComma: "all", bracketSpacing: true },
  });
  const version = createRequire(import.meta.url)("json-schema-to-typescript/package.json").version;
  const header = [
    `// GENERATED by \`${COMMAND}\` (tools/protocol_types.mjs, json-schema-to-typescript ${version}) from`,
    "// docs/protocol.schema.json, the protocol's JSON Schema (`python -m skat.server.routes.schema`): do not edit.",
    "// One export per definition of the schema (and Card, Seat, Position for the value types the models write",
    "// inline). The client imports them through protocol.d.ts, which keeps the names it uses.",
    "",
  ].join("\n");
  return `${header}\n${sortDeclarations(body)}\n`;
}

async function main() {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const at = args.indexOf("--out");
  const out = at >= 0 ? args[at + 1] : TARGET;
  const unknown = args.filter((a, i) => !(a === "--check" || a === "--out" || (at >= 0 && i === at + 1)));
  if (unknown.length || !out) {
    console.error("usage: node tools/protocol_types.mjs [--check] [--out FILE|-]");
    process.exit(2);
  }
  const text = await generate();
  if (check) {
    let current = "";
    try {
      current = readFileSync(out, "utf8");
    } catch {
      current = "";
    }
    if (current !== text) {
      console.error(`${relative(ROOT, out)} differs from what ${relative(ROOT, SCHEMA)} gives: run \`${COMMAND}\``);
      process.exit(1);
    }
    console.log(`${relative(ROOT, out)} is up to date with ${relative(ROOT, SCHEMA)}`);
  } else if (out === "-") {
    process.stdout.write(text);
  } else {
    writeFileSync(out, text);
    console.log(`wrote ${relative(ROOT, out)}`);
  }
}

await main();
