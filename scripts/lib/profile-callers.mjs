#!/usr/bin/env node
// Who calls what in a .cpuprofile (kept by `bench-profile.mjs --keep DIR`): for each function whose
// name matches one of the patterns, its self time and the call paths (outermost last) that led to it,
// by self time below them; and the inclusive time of the functions matching --total.
//   node scripts/lib/profile-callers.mjs FILE [--skip MS] [--fn writev --fn fstat] [--depth 8] [--total pattern]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    skip: { type: "string", default: "0" },
    fn: { type: "string", multiple: true, default: [] },
    total: { type: "string", multiple: true, default: [] },
    depth: { type: "string", default: "8" },
    top: { type: "string", default: "8" },
  },
});
const profile = JSON.parse(readFileSync(positionals[0], "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const self = new Map();
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = (profile.timeDeltas[i] ?? 0) / 1000;
  at += dt;
  if (at < Number(values.skip)) continue;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
}
const name = (id) => {
  const { callFrame } = byId.get(id);
  const file = (callFrame.url ?? "").split("/").slice(-2).join("/");
  return `${callFrame.functionName || "(anonymous)"} ${file}:${callFrame.lineNumber + 1}`;
};
let busy = 0;
for (const [id, ms] of self) if (byId.get(id).callFrame.functionName !== "(idle)") busy += ms;
console.log(`busy ${busy.toFixed(0)} ms`);
const pct = (ms) => `${((100 * ms) / busy).toFixed(1).padStart(5)} %`;

// Self time by function, always: the largest first.
const byFunction = new Map();
for (const [id, ms] of self) {
  if (byId.get(id).callFrame.functionName === "(idle)") continue;
  const n = name(id);
  byFunction.set(n, (byFunction.get(n) ?? 0) + ms);
}
console.log("by function (self):");
for (const [n, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
  console.log(`  ${pct(ms)}  ${n}`);

for (const pattern of values.fn) {
  const re = new RegExp(pattern);
  const paths = new Map();
  let sum = 0;
  for (const [id, ms] of self) {
    if (!re.test(byId.get(id).callFrame.functionName)) continue;
    sum += ms;
    const chain = [];
    for (let p = parent.get(id); p !== undefined && chain.length < Number(values.depth); p = parent.get(p))
      chain.push(name(p));
    const key = chain.join("\n      < ");
    paths.set(key, (paths.get(key) ?? 0) + ms);
  }
  console.log(`\n== ${pattern}: self ${pct(sum)}`);
  for (const [key, ms] of [...paths].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
    console.log(`  ${pct(ms)}  ${key}`);
}

for (const pattern of values.total) {
  const re = new RegExp(pattern);
  // Inclusive: a sample counts once for a function on its stack, however often it recurs.
  const totals = new Map();
  for (const [id, ms] of self) {
    const seen = new Set();
    for (let p = id; p !== undefined; p = parent.get(p)) {
      const n = name(p);
      if (re.test(n) && !seen.has(n)) {
        seen.add(n);
        totals.set(n, (totals.get(n) ?? 0) + ms);
      }
    }
  }
  console.log(`\n== inclusive ${pattern}`);
  for (const [n, ms] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
    console.log(`  ${pct(ms)}  ${n}`);
}
