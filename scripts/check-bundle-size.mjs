#!/usr/bin/env node
// Build-size budget: the JavaScript the browser must load before the first screen (the entry chunk
// and what index.html preloads), gzipped. Page chunks loaded later are reported, not budgeted.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = Number(process.env.BUNDLE_BUDGET_KB ?? 350);
const dist = path.resolve('dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file))).length / 1024;

let total = 0;
console.log('initial assets (gzip):');
for (const file of initial) {
  const size = gz(file);
  total += size;
  console.log(`  ${file.padEnd(50)} ${size.toFixed(1)} KiB`);
}
console.log(`initial total: ${total.toFixed(1)} KiB (budget ${BUDGET_KB} KiB)`);
if (total > BUDGET_KB) {
  console.error(`Initial bundle over budget by ${(total - BUDGET_KB).toFixed(1)} KiB`);
  process.exit(1);
}
