// Accounts for the journeys: registering and signing in through the
// forms, and staff made with the server binary's `staff add` command (only
// an account whose e-mail is confirmed can be staff, so the account opens
// the link of its confirmation mail, read from the outbox, first).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { open, submit, sqlString, awaitPayment, E2E_DIR, CAREERS_URL } from './harness.js';

export const PASSWORD = 'moonlit-garden-7';

/** An e-mail address no other test uses; js names the mode it runs in. */
export function uniqueEmail(label, js) {
  const rand = Math.random().toString(36).slice(2, 6);
  const mode = js === undefined ? '' : js ? '-js' : '-nojs';
  return `${label}${mode}-${Date.now()}-${rand}@example.com`;
}

export function pathOf(page) {
  return new URL(page.url()).pathname;
}

/** Posts a form from the page's context (its cookies), for quick set-ups. */
export async function postAs(page, pagePath, action, fields) {
  if (pathOf(page) !== pagePath) await open(page, pagePath);
  const res = await page.request.post(new URL(action, page.url()).href, { form: fields, maxRedirects: 0 });
  assert.ok(res.status() < 400, `POST ${action} answered ${res.status()}`);
  return res;
}

/** Registers an account in page through the form. */
export async function register(page, email, name = 'Night Owl') {
  await open(page, '/register');
  const form = page.getByTestId('register-form');
  await form.getByRole('textbox', { name: 'Full name', exact: true }).fill(name);
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByLabel(/^Password\s*\*?$/).fill(PASSWORD);
  await form.getByLabel(/^Confirm password\s*\*?$/).fill(PASSWORD);
  const res = await submit(page, form.getByRole('button', { name: 'Create Account' }));
  assert.equal(res.status(), 303, 'registration succeeded');
}

export async function signIn(page, email) {
  await open(page, '/login');
  const form = page.getByTestId('login-form');
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByLabel(/^Password\s*\*?$/).fill(PASSWORD);
  const res = await submit(page, form.getByRole('button', { name: 'Sign In' }));
  assert.equal(res.status(), 303, 'signed in');
}

/** Runs the server binary's staff command on shop's database. */
export function staffCommand(shop, ...args) {
  const bin = path.resolve(E2E_DIR, process.env.STOREFRONT_BIN || '../bin/storefront');
  const r = spawnSync(bin, ['staff', ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DATA_DIR: shop.server.dataDir, BASE_URL: shop.baseURL, CAREERS_URL, LOG_LEVEL: 'warn' },
    cwd: shop.server.dataDir,
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, `storefront staff ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** A new account with a back-office role (admin or fulfilment), made in a throw-away context. */
export async function staffAccount(shop, role, js) {
  const email = uniqueEmail(role, js);
  const context = await shop.newContext({ js: false });
  try {
    const page = await context.newPage();
    await register(page, email);
    const mails = shop.queryDB({ diagnostic() {} }, `SELECT body FROM outbox WHERE recipient = ${sqlString(email)} AND subject = 'Confirm your e-mail address'`);
    assert.ok(mails, 'the confirmation link is read from the outbox table, which needs sqlite3');
    const link = mails[0]?.body.match(/https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_-]+/);
    assert.ok(link, 'registration mailed a confirmation link');
    const { pathname, search } = new URL(link[0]);
    await open(page, pathname + search);
    const res = await submit(page, page.getByTestId('confirm-email-form').getByRole('button', { name: 'Confirm' }));
    assert.equal(res.status(), 303, 'the address is confirmed');
  } finally {
    await context.close();
  }
  assert.match(staffCommand(shop, 'add', email, '--role', role), /is now .* staff/);
  return email;
}

/**
 * Buys quantity of product as whoever page is (an account or a guest),
 * through the checkout's posts with a US address and the demo card, and
 * returns the order's number once it is paid: a quick set-up for journeys
 * that start from an order.
 */
export async function orderAs(page, { email, product = 'nb-012', quantity = 1, firstName = 'Grace', lastName = 'Hopper' }) {
  await postAs(page, `/product/${product}`, '/cart/items', { product_id: product, quantity: String(quantity) });
  await postAs(page, '/checkout/shipping', '/checkout/shipping', {
    firstName, lastName, email, phone: '+1 555 0199', address: '12 Harbour Lane',
    city: 'Arlington', state: 'VA', zipCode: '22201', country: 'United States',
  });
  const year = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');
  await postAs(page, '/checkout/payment', '/checkout/payment', {
    cardNumber: '4242 4242 4242 4242', cardName: `${firstName} ${lastName}`, expiryDate: `12/${year}`, cvv: '123', action: 'next',
  });
  await open(page, '/checkout/review');
  const key = await page.locator('input[name=key]').first().inputValue();
  const res = await postAs(page, '/checkout/review', '/checkout/place', { key });
  const m = /\/orders\/(NOC-[\w-]+)\/status$/.exec(res.headers().location ?? '');
  assert.ok(m, `Place Order led to the order's status page (${res.status()} ${res.headers().location})`);
  await open(page, `/orders/${m[1]}/status`);
  assert.equal(await awaitPayment(page), 'paid');
  return m[1];
}
