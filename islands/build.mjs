// Bundles the React islands into ../static/dist with esbuild.
//
//   node build.mjs           one production build (npm run build)
//   node build.mjs --watch   rebuild on change, then ping the templ dev proxy (npm run watch)
//
// Every build writes static/dist/manifest.json = {"entry": "entry-HASH.js"} (relative to
// static/dist) and prints the gzip size of each output plus what a page with the cart
// badge downloads in total.

import * as esbuild from "esbuild";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const islandsDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(islandsDir, "..");
const outdir = path.resolve(islandsDir, "../static/dist");
const manifestPath = path.join(outdir, "manifest.json");
const watch = process.argv.includes("--watch");

/** Source (relative to islands/) of the island whose page total is checked against the budget. */
const BUDGET_ISLAND = "cart-badge/CartBadge.tsx";
/** Shared React chunk(s) + badge island, gzipped (see README.md). */
const BUDGET_BYTES = 70 * 1024;

/**
 * Remove earlier build output (*.js, chunks/ and the manifest that names them), keeping
 * README.md. Without a manifest the Go server treats the islands as "not built" instead of
 * failing on an entry that no longer exists.
 */
function cleanOutdir() {
  fs.mkdirSync(outdir, { recursive: true });
  fs.rmSync(manifestPath, { force: true });
  for (const name of fs.readdirSync(outdir)) {
    if (name.endsWith(".js")) fs.rmSync(path.join(outdir, name), { force: true });
  }
  fs.rmSync(path.join(outdir, "chunks"), { recursive: true, force: true });
}

/** Output paths in the metafile are relative to absWorkingDir (islandsDir); make them relative to outdir. */
const rel = (metaPath) => path.relative(outdir, path.resolve(islandsDir, metaPath)).split(path.sep).join("/");

function findEntry(outputs) {
  const found = Object.entries(outputs).find(([, o]) => o.entryPoint === "entry.ts");
  if (!found) throw new Error("build.mjs: no output for entry.ts in the metafile");
  return found[0];
}

function writeManifest(outputs) {
  const json = JSON.stringify({ entry: rel(findEntry(outputs)) }, null, 2) + "\n";
  // Write-then-rename so the Go server never reads a half-written manifest.
  const tmp = `${manifestPath}.tmp`;
  fs.writeFileSync(tmp, json);
  fs.renameSync(tmp, manifestPath);
}

/** In watch mode each rebuild gets new hashes; drop JS files the current build did not produce. */
function pruneStale(outputs) {
  const keep = new Set(Object.keys(outputs).map((p) => path.resolve(islandsDir, p)));
  const walk = (dir) => {
    for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, ent.name);
      if (ent.isDirectory()) walk(full);
      else if (ent.name.endsWith(".js") && !keep.has(full)) fs.rmSync(full, { force: true });
    }
  };
  walk(outdir);
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** Files downloaded when `roots` are loaded: the roots plus everything they import statically. */
function staticClosure(outputs, roots) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length) {
    const p = stack.pop();
    if (seen.has(p)) continue;
    seen.add(p);
    for (const imp of outputs[p]?.imports ?? []) {
      if (imp.kind === "import-statement" && !imp.external) stack.push(imp.path);
    }
  }
  return seen;
}

function reportSizes(outputs) {
  const gz = new Map();
  for (const p of Object.keys(outputs)) {
    // Level 9, as static/embed.go compresses what it serves.
    gz.set(p, gzipSync(fs.readFileSync(path.resolve(islandsDir, p)), { level: 9 }).length);
  }

  const width = Math.max(...[...gz.keys()].map((p) => rel(p).length));
  console.log("\nstatic/dist (gzip -9):");
  for (const [p, size] of [...gz].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${rel(p).padEnd(width)}  ${kb(size).padStart(9)}  (${kb(outputs[p].bytes)} raw)`);
  }

  // What one page with a given island downloads: the entry, then (dynamically) the React
  // runtime and that island's module, each with the chunks it imports statically.
  const entry = findEntry(outputs);
  const dynamic = (outputs[entry].imports ?? []).filter((i) => i.kind === "dynamic-import" && !i.external);
  const runtime = dynamic.filter((i) => outputs[i.path]?.entryPoint === "runtime.ts").map((i) => i.path);
  const islands = dynamic.filter((i) => !runtime.includes(i.path));

  console.log("\nper page (gzip -9): entry + React runtime + the island, with their static imports:");
  let budgetChecked = false;
  for (const island of islands) {
    const src = outputs[island.path]?.entryPoint ?? island.path;
    const files = staticClosure(outputs, [entry, ...runtime, island.path]);
    const total = [...files].reduce((sum, f) => sum + (gz.get(f) ?? 0), 0);
    console.log(`  page with ${src}: ${kb(total)}  [${[...files].map(rel).join(", ")}]`);
    if (src === BUDGET_ISLAND) {
      budgetChecked = true;
      const ok = total < BUDGET_BYTES;
      console.log(`  budget (cart badge page < ${kb(BUDGET_BYTES)} gzip): ${ok ? "OK" : "OVER BUDGET"}`);
      if (!ok) {
        // A one-off build (CI, go tool task build) fails; watch mode only warns, so a
        // developer can keep working while trimming.
        console.warn(`  ${watch ? "warning" : "error"}: cart badge page is ${total - BUDGET_BYTES} bytes over budget`);
        if (!watch) process.exitCode = 1;
      }
    }
  }
  if (!budgetChecked) console.warn(`  warning: no output found for ${BUDGET_ISLAND}; budget not checked`);
  console.log("");
}

/** Ask `templ generate --watch --proxy ...` to reload the browser. Failures are ignored. */
function notifyTemplProxy() {
  const child = spawn("go", ["tool", "templ", "generate", "--notify-proxy"], { cwd: repoRoot, stdio: "ignore" });
  child.on("error", () => {}); // e.g. go not on PATH
}

/** @type {import("esbuild").Plugin} */
const afterBuild = {
  name: "nocturne-after-build",
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0 || !result.metafile) {
        if (watch) console.error(`[islands] build failed with ${result.errors.length} error(s); manifest unchanged`);
        return;
      }
      const { outputs } = result.metafile;
      try {
        writeManifest(outputs); // first, so the manifest never names a pruned file
        if (watch) pruneStale(outputs);
        reportSizes(outputs);
      } catch (err) {
        console.error("[islands]", err);
        if (!watch) process.exitCode = 1;
        return;
      }
      if (watch) {
        console.log(`[islands] rebuilt ${new Date().toLocaleTimeString()}`);
        notifyTemplProxy();
      }
    });
  },
};

/** @type {import("esbuild").BuildOptions} */
const options = {
  absWorkingDir: islandsDir,
  entryPoints: [path.join(islandsDir, "entry.ts")],
  outdir,
  format: "esm",
  bundle: true,
  splitting: true,
  minify: true,
  target: "es2020",
  define: { "process.env.NODE_ENV": '"production"' },
  jsx: "automatic",
  entryNames: "[name]-[hash]",
  chunkNames: "chunks/[name]-[hash]",
  metafile: true,
  logLevel: "warning",
  plugins: [afterBuild],
};

cleanOutdir();

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  console.log("[islands] watching for changes… (Ctrl+C to stop)");
  const stop = async () => {
    await ctx.dispose();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} else {
  try {
    await esbuild.build(options);
  } catch {
    // esbuild has already printed the errors.
    process.exit(1);
  }
}
