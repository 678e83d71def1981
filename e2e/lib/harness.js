// Browser test harness for Nocturne.
//
// One test file = one process (node --test) = one storefront server on a free
// loopback port with a fresh data directory + one Chromium. Every test gets a
// fresh browser context, so cookies (session, flash) never leak between
// tests.
//
//   import { useShop, forEachMode, browserTest, checkA11y } from '../lib/harness.js';
//   const shop = useShop();                       // inside describe(): before/after hooks
//   forEachMode('the FAQ lists ten questions', async ({ page, js }) => { … });
//   browserTest('axe: /faq', () => checkA11y('/faq'));
//
// The harness builds nothing: it runs the binary at STOREFRONT_BIN (default
// ../bin/storefront, relative to e2e/) and Debian's Chromium at CHROMIUM_PATH
// (default /usr/bin/chromium). With CI=true a missing Chromium or sqlite3
// fails the run instead of skipping.

import { before, after, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, accessSync, constants as fsConstants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { chromium } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';

export const E2E_DIR = fileURLToPath(new URL('..', import.meta.url));
export const IN_CI = process.env.CI === 'true';
export const CAREERS_URL = 'https://careers.example.test';

/** Viewports the tests use. */
export const WIDE = { width: 1280, height: 800 };
export const NARROW = { width: 390, height: 844 };

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const HEALTH_TIMEOUT_MS = 15_000;
/** Upper bound for waits on things the page does by itself (navigation, island mount). */
export const WAIT_MS = 10_000;

// ---------------------------------------------------------------------------
// Environment checks

/**
 * Returns a skip message when Chromium is missing, or false when it is there.
 * With CI=true a missing Chromium throws: CI must never skip browser tests.
 */
function chromiumSkipReason() {
  let reason = '';
  if (!existsSync(CHROMIUM_PATH)) {
    reason = `Chromium not found at ${CHROMIUM_PATH}`;
  } else {
    try {
      accessSync(CHROMIUM_PATH, fsConstants.X_OK);
    } catch {
      reason = `Chromium at ${CHROMIUM_PATH} is not executable`;
    }
  }
  if (!reason) return false;
  const hint = 'install Debian\'s chromium package (apt-get install chromium) or set CHROMIUM_PATH';
  if (IN_CI) throw new Error(`${reason}; CI=true, so browser tests fail instead of skipping: ${hint}.`);
  const msg = `${reason}: browser tests skipped (${hint}).`;
  console.warn(`[e2e] ${msg}`);
  return msg;
}

/** False, or why browser tests are skipped. Evaluated once per test file. */
export const SKIP = chromiumSkipReason();

let sqliteChecked;
let sqliteWarned = false;
function sqliteAvailable() {
  if (sqliteChecked === undefined) {
    const r = spawnSync('sqlite3', ['-version'], { encoding: 'utf8' });
    sqliteChecked = r.status === 0;
  }
  return sqliteChecked;
}

/** Quotes s as an SQL string literal for the sqlite3 CLI. */
export function sqlString(s) {
  return `'${String(s).replaceAll("'", "''")}'`;
}

// ---------------------------------------------------------------------------
// Server

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function storefrontBinary() {
  const bin = path.resolve(E2E_DIR, process.env.STOREFRONT_BIN || '../bin/storefront');
  if (!existsSync(bin)) {
    throw new Error(
      `storefront binary not found at ${bin}. Build it first: ` +
        '(cd .. && go tool templ generate && go build -o bin/storefront .), or set STOREFRONT_BIN.',
    );
  }
  return bin;
}

// E2E_POSTGRES_URL (a PostgreSQL server, e.g.
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable) runs the
// shop on a fresh PostgreSQL database of its own instead of SQLite; queryDB
// then reads it with psql. `go tool task test:e2e:postgres` runs the smoke
// subset this way.
export const POSTGRES_URL = process.env.E2E_POSTGRES_URL || '';

function psql(url, sql, extra = []) {
  const r = spawnSync('psql', [url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', ...extra, '-c', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

function databaseURL(server, name) {
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.href;
}

async function startServer(extraEnv = {}, { port } = {}) {
  const bin = storefrontBinary();
  port ??= await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nocturne-e2e-'));
  let pgDatabase = '';
  if (POSTGRES_URL) {
    pgDatabase = `nocturne_e2e_${port}_${Date.now()}`;
    psql(POSTGRES_URL, `CREATE DATABASE ${pgDatabase}`);
    extraEnv = { DATABASE_URL: databaseURL(POSTGRES_URL, pgDatabase), ...extraEnv };
  }
  const dropDatabase = () => {
    if (pgDatabase) psql(POSTGRES_URL, `DROP DATABASE IF EXISTS ${pgDatabase} WITH (FORCE)`);
  };
  const baseURL = `http://127.0.0.1:${port}`;
  // A minimal environment, so a developer's DEV, DATABASE_URL or
  // SESSION_SECRET never changes what the tests see.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    PORT: String(port),
    DATA_DIR: dataDir,
    BASE_URL: baseURL,
    CAREERS_URL,
    LOG_LEVEL: 'warn',
    // Extra variables a test file asked for with useShop({ env }).
    ...extraEnv,
  };
  const proc = spawn(bin, [], { env, cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (chunk) => {
    log = (log + chunk.toString()).slice(-20_000);
    // E2E_SERVER_LOG=file keeps every server's whole output, for a run
    // whose server died.
    if (process.env.E2E_SERVER_LOG) appendFileSync(process.env.E2E_SERVER_LOG, chunk);
  };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  const exited = new Promise((resolve) => {
    proc.on('exit', (code, signal) => resolve({ code, signal }));
    proc.on('error', (err) => {
      keep(`spawn error: ${err.message}\n`);
      resolve({ code: null, signal: null, error: err });
    });
  });
  let exit;
  exited.then((e) => (exit = e));

  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  for (;;) {
    if (exit) {
      await rm(dataDir, { recursive: true, force: true });
      dropDatabase();
      throw new Error(`storefront exited before it was healthy (${JSON.stringify(exit)}). Its output:\n${log}`);
    }
    try {
      const res = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(1_000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
      dropDatabase();
      throw new Error(`storefront did not answer GET /healthz with 200 within ${HEALTH_TIMEOUT_MS} ms. Its output:\n${log}`);
    }
    await sleep(100);
  }

  return {
    port,
    baseURL,
    dataDir,
    dbPath: path.join(dataDir, 'nocturne.db'),
    dbURL: pgDatabase ? databaseURL(POSTGRES_URL, pgDatabase) : '',
    log: () => log,
    async stop() {
      if (!exit) {
        proc.kill('SIGTERM');
        const killer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(killer);
      }
      await rm(dataDir, { recursive: true, force: true });
      dropDatabase();
    },
  };
}

// ---------------------------------------------------------------------------
// Stripe stand-in (cmd/stripestub): Stripe's API, a plain-HTML hosted payment
// page and signed webhooks, on loopback, so payment journeys never reach
// Stripe.

/** The webhook signing secret the stand-in signs with and the shop checks. */
export const STRIPE_WEBHOOK_SECRET = 'whsec_stripestub';

function stripeStubBinary() {
  const bin = path.resolve(E2E_DIR, process.env.STRIPESTUB_BIN || '../bin/stripestub');
  if (!existsSync(bin)) {
    throw new Error(
      `Stripe stand-in binary not found at ${bin}. Build it first: ` +
        '(cd .. && go build -o bin/stripestub ./cmd/stripestub; `go tool task build` does it too), or set STRIPESTUB_BIN.',
    );
  }
  return bin;
}

/**
 * Starts the stand-in on a free loopback port, sending its webhooks to
 * webhookURL, and returns { url, log(), stop() } once it has said where it
 * listens (its first stdout line, "listening on http://ADDR").
 */
async function startStripeStub(webhookURL) {
  const bin = stripeStubBinary();
  const proc = spawn(bin, ['-addr', '127.0.0.1:0', '-webhook-url', webhookURL, '-webhook-secret', STRIPE_WEBHOOK_SECRET], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let exit;
  const exited = new Promise((resolve) => {
    proc.on('exit', (code, signal) => resolve((exit = { code, signal })));
    proc.on('error', (err) => resolve((exit = { code: null, signal: null, error: err.message })));
  });
  const stop = async () => {
    if (!exit) {
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
  };
  const listening = new Promise((resolve) => {
    const keep = (chunk) => {
      log = (log + chunk.toString()).slice(-20_000);
      const m = /^listening on (http:\/\/\S+)$/m.exec(log);
      if (m) resolve(m[1]);
    };
    proc.stdout.on('data', keep);
    proc.stderr.on('data', keep);
  });
  let timer;
  const url = await Promise.race([
    listening,
    exited.then(() => null),
    new Promise((resolve) => (timer = setTimeout(() => resolve(null), HEALTH_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  if (!url) {
    await stop();
    throw new Error(
      exit
        ? `the Stripe stand-in exited before it listened (${JSON.stringify(exit)}). Its output:\n${log}`
        : `the Stripe stand-in did not say where it listens within ${HEALTH_TIMEOUT_MS} ms. Its output:\n${log}`,
    );
  }
  return { url, log: () => log, stop };
}

// ---------------------------------------------------------------------------
// Shop: server + browser shared by one test file

let active;

function current() {
  if (!active) throw new Error('call useShop() in the test file (inside describe) before registering tests');
  return active;
}

/**
 * Registers before/after hooks that start the storefront and Chromium for
 * this file, and returns the shop handle. Call it once per test file.
 *
 * options.env adds variables to the server's minimal environment (e.g. the
 * GOOGLE_* ones for a local OpenID Connect provider). It may be an object or
 * a function returning one (called when the server starts, after the file's
 * earlier before() hooks). Without it the server starts exactly as before.
 *
 * options.stripe=true also starts the Stripe stand-in (bin/stripestub, or
 * STRIPESTUB_BIN) with its webhooks going to this server, and gives the
 * server STRIPE_API_URL, a test secret key and the matching webhook secret;
 * PAYMENT_METHODS is still the file's to set. shop.stripe.url is the
 * stand-in's address.
 */
export function useShop({ env, stripe = false } = {}) {
  const shop = {
    skip: SKIP,
    server: undefined,
    browser: undefined,
    stripe: undefined,
    get baseURL() {
      return this.server.baseURL;
    },
    /** Absolute URL of a path on the test server. */
    url(p) {
      return new URL(p, this.server.baseURL).href;
    },
    /**
     * A fresh context. js=false turns JavaScript off entirely;
     * blockScripts=true keeps it on but aborts every script request (what
     * a shopper whose scripts are blocked gets; axe needs JS in the page).
     */
    async newContext({ js = true, blockScripts = false, viewport = WIDE } = {}) {
      const context = await this.browser.newContext({
        javaScriptEnabled: js,
        viewport,
        baseURL: this.server.baseURL,
      });
      context.setDefaultTimeout(WAIT_MS);
      if (js && !blockScripts) enhancedContexts.add(context);
      if (blockScripts) {
        await context.route('**/*', (r) => (r.request().resourceType() === 'script' ? r.abort() : r.continue()));
      }
      return context;
    },
    /**
     * Runs a query with the sqlite3 CLI on this server's database and returns
     * the rows as objects. Without sqlite3 it throws when CI=true; otherwise
     * it notes the skipped check on t and returns null.
     */
    queryDB(t, sql) {
      if (this.server.dbURL) {
        // PostgreSQL: the same SQL (the tests' queries are portable; a
        // boolean column compared with 1 is compared with true).
        const pg = sql.replace(/\bis_guest = 1\b/g, 'is_guest');
        if (!/^\s*select\b/i.test(pg)) {
          psql(this.server.dbURL, pg);
          return [];
        }
        const out = psql(this.server.dbURL, `SELECT COALESCE(json_agg(q), '[]') FROM (${pg}) q`, ['-At']).trim();
        return JSON.parse(out);
      }
      if (!sqliteAvailable()) {
        const msg = 'sqlite3 CLI not found: stored-row check skipped (apt-get install sqlite3)';
        if (IN_CI) throw new Error(`${msg.replace(': stored-row check skipped', '')}; CI=true requires it.`);
        t.diagnostic(msg);
        if (!sqliteWarned) console.warn(`[e2e] ${msg}`);
        sqliteWarned = true;
        return null;
      }
      const r = spawnSync('sqlite3', ['-json', '-cmd', '.timeout 5000', this.server.dbPath, sql], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`sqlite3 failed (${r.status}): ${r.stderr}`);
      const out = r.stdout.trim();
      return out === '' ? [] : JSON.parse(out);
    },
    /**
     * Forgets every rate-limit counter (Fiber's limiter keeps them in the kv
     * table under "limit:<name>:<key>"), so a test starts with the limits a
     * shopper arriving fresh would meet. All tests come from 127.0.0.1, so
     * without this a file's tests share one per-address budget (e.g. 10
     * registrations a minute). Needs sqlite3, like queryDB.
     */
    resetRateLimits(t) {
      // Fiber's limiters (kv) and the shop's throttles (sign-in, contact,
      // reset and sign-in-link requests: the throttle table).
      this.queryDB(t, "DELETE FROM kv WHERE key LIKE 'limit:%'; DELETE FROM throttle;");
    },
  };
  active = shop;

  before(async () => {
    if (shop.skip) return;
    let extraEnv = (typeof env === 'function' ? await env() : env) ?? {};
    let port;
    if (stripe) {
      // The stand-in needs the shop's webhook URL before it starts, and the
      // shop needs the stand-in's address: choose the shop's port first.
      port = await freePort();
      shop.stripe = await startStripeStub(`http://127.0.0.1:${port}/webhooks/stripe`);
      extraEnv = {
        STRIPE_API_URL: shop.stripe.url,
        STRIPE_SECRET_KEY: 'sk_test_stripestub',
        STRIPE_WEBHOOK_SECRET,
        ...extraEnv,
      };
    }
    try {
      shop.server = await startServer(extraEnv, { port });
    } catch (err) {
      await shop.stripe?.stop();
      throw err;
    }
    try {
      shop.browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: CHROMIUM_ARGS,
      });
    } catch (err) {
      await shop.server.stop();
      await shop.stripe?.stop();
      throw new Error(`could not launch Chromium at ${CHROMIUM_PATH}: ${err.message}`);
    }
  });

  after(async () => {
    await shop.browser?.close();
    await shop.server?.stop();
    await shop.stripe?.stop();
  });

  return shop;
}

// ---------------------------------------------------------------------------
// Test registration

export const MODES = [
  { name: 'JavaScript on', js: true },
  { name: 'JavaScript off', js: false },
];

function annotate(err, page, shop) {
  if (err && typeof err === 'object' && page) {
    let where = '';
    try {
      where = page.url();
    } catch {
      // page gone
    }
    const tail = shop.server?.log().trim();
    const stubTail = shop.stripe?.log().trim().split('\n').slice(1).join('\n'); // past "listening on"
    const extra =
      `\n  page: ${where}` +
      (tail ? `\n  server output (tail):\n${tail.slice(-2_000)}` : '') +
      (stubTail ? `\n  Stripe stand-in output (tail):\n${stubTail.slice(-1_000)}` : '');
    try {
      err.message += extra;
    } catch {
      // frozen error
    }
  }
  return err;
}

// E2E_ONLY, a regular expression, registers only the tests whose names match
// it: the PostgreSQL smoke run (scripts/test-postgres.sh) runs a subset, and
// Node 20's --test-name-pattern would report every other test as skipped.
const ONLY = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
const wanted = (name) => !ONLY || ONLY.test(name);

/**
 * Registers the test twice: in a context with JavaScript enabled and in one
 * with JavaScript disabled. fn gets { page, context, js, mode, shop, t }.
 * options.viewport sets the viewport (default WIDE); options.skip (a
 * reason) skips both, as node:test's skip does.
 */
export function forEachMode(name, fn, options = {}) {
  const shop = current();
  for (const mode of MODES) {
    if (!wanted(`${name} [${mode.name}]`)) continue;
    it(`${name} [${mode.name}]`, { skip: shop.skip || options.skip }, async (t) => {
      const context = await shop.newContext({ js: mode.js, viewport: options.viewport });
      const page = await context.newPage();
      try {
        await fn({ page, context, js: mode.js, mode: mode.name, shop, t });
      } catch (err) {
        throw annotate(err, page, shop);
      } finally {
        await context.close();
      }
    });
  }
}

/** Registers one test that uses the browser (skipped with the others). */
export function browserTest(name, fn) {
  const shop = current();
  if (!wanted(name)) return;
  it(name, { skip: shop.skip }, (t) => fn({ shop, t }));
}

// ---------------------------------------------------------------------------
// Accessibility

export const AXE_MODES = [
  { name: 'JavaScript on', blockScripts: false },
  { name: 'scripts blocked', blockScripts: true },
];

function formatViolations(violations) {
  return violations
    .map(
      (v) =>
        `  - ${v.id} (${v.impact}): ${v.help}\n    ${v.helpUrl}\n` +
        v.nodes.map((n) => `      at ${JSON.stringify(n.target)}${n.failureSummary ? `\n        ${n.failureSummary.replaceAll('\n', '\n        ')}` : ''}`).join('\n'),
    )
    .join('\n');
}

/**
 * Opens path in both axe modes (normal, and scripts blocked) and asserts that
 * axe finds no violation of impact serious or critical. options.viewport sets
 * the viewport (default WIDE); options.prepare(page) puts the page into the
 * state to check (open an entry, submit a form…) after it has loaded.
 * options.setup(page, context) runs in each fresh context before pagePath is
 * opened (sign in, fill a cart…), for pages that need a state first.
 * options.noScript says the page loads no script (the back office): both
 * modes would see the same page, so it is checked once, scripts blocked.
 */
export async function checkA11y(pagePath, { viewport = WIDE, prepare, setup, noScript = false } = {}) {
  const shop = current();
  const failures = [];
  for (const mode of noScript ? AXE_MODES.filter((m) => m.blockScripts) : AXE_MODES) {
    const context = await shop.newContext({ js: true, blockScripts: mode.blockScripts, viewport });
    try {
      const page = await context.newPage();
      if (setup) await setup(page, context);
      await page.goto(pagePath);
      if (prepare) await prepare(page);
      const results = await new AxeBuilder({ page }).analyze();
      const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      if (bad.length > 0) {
        failures.push(`${pagePath} at ${viewport.width}x${viewport.height}, ${mode.name} (${page.url()}):\n${formatViolations(bad)}`);
      }
    } finally {
      await context.close();
    }
  }
  assert.equal(failures.length, 0, `axe found serious or critical violations:\n${failures.join('\n')}`);
}

// ---------------------------------------------------------------------------
// Small page helpers (playwright-core has no auto-retrying expect)

/** Waits until the locator is visible; fails with what was expected. */
export async function expectVisible(locator, what) {
  try {
    await locator.waitFor({ state: 'visible', timeout: WAIT_MS });
  } catch (err) {
    assert.fail(`expected ${what ?? locator} to be visible: ${err.message.split('\n')[0]}`);
  }
}

/** Waits until the locator is hidden or gone; fails with what was expected. */
export async function expectHidden(locator, what) {
  try {
    await locator.waitFor({ state: 'hidden', timeout: WAIT_MS });
  } catch (err) {
    assert.fail(`expected ${what ?? locator} to be hidden: ${err.message.split('\n')[0]}`);
  }
}

/** Normalised visible text of the first element the locator matches. */
export async function text(locator) {
  return (await locator.first().innerText()).replace(/\s+/g, ' ').trim();
}

/**
 * Goes to path, asserts the HTTP status and returns the response. With
 * JavaScript on it then waits for the page's islands (islandsReady below),
 * unless waitForIslands is false (a test that holds an island's code).
 */
export async function open(page, pagePath, status = 200, { waitForIslands = true } = {}) {
  const res = await page.goto(pagePath);
  assert.ok(res, `no response for ${pagePath}`);
  assert.equal(res.status(), status, `GET ${pagePath} answered ${res.status()}, expected ${status}`);
  if (waitForIslands && enhancedContexts.has(page.context())) await islandsReady(page);
  return res;
}

/**
 * Contexts whose pages run the shop's scripts. Islands start after the first
 * paint (so they never delay it), which can be after the load event that
 * page.goto waits for: a test that clicks at once would get the plain form
 * post, which works but is not what a JS-on test means to check.
 */
const enhancedContexts = new WeakSet();

/** Waits until the page's islands have mounted (<html data-islands="ready">), on pages that load the entry script. */
export async function islandsReady(page) {
  await page.waitForFunction(
    () => !document.querySelector('script[type="module"][src]') || document.documentElement.dataset.islands === 'ready',
    null,
    { timeout: WAIT_MS },
  );
}

/**
 * Waits on an order's status page, where Place Order leads, until the
 * payment has settled: the page reloads itself (a meta refresh, no
 * JavaScript) while it is being processed. Returns the settled state
 * ("paid", "awaiting", "declined" or "gone"), or null when the page is not
 * a status page. A paid order's thanks are checked and its page followed,
 * as a shopper would.
 */
export async function awaitPayment(page) {
  if (!/^\/orders\/[^/]+\/status$/.test(new URL(page.url()).pathname)) return null;
  const settled = page.locator('[data-testid=order-status]:not([data-state=processing])');
  await settled.waitFor({ timeout: WAIT_MS });
  const state = await settled.getAttribute('data-state');
  if (state === 'paid') {
    assert.equal(await text(settled.locator('h1')), 'Thank you! Your order has been placed.');
    await Promise.all([page.waitForEvent('load'), settled.getByTestId('status-order').click()]);
  }
  return state;
}

/**
 * Clicks a submit button and waits until the page the POST leads to (after
 * any redirects) has loaded. Returns the response to the POST itself.
 */
export async function submit(page, button) {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.request().isNavigationRequest() && r.frame() === page.mainFrame()),
    page.waitForEvent('load'),
    button.click(),
  ]);
  return res;
}

/** Clicks a link (or anything that navigates with GET) and waits for the new page. */
export async function follow(page, link) {
  await Promise.all([page.waitForEvent('load'), link.click()]);
}
