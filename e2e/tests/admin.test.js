// The back office: a shopper places an order; a fulfilment
// member of staff (made with the server binary's `staff add` command) signs
// in through the ordinary login, finds the order in /admin/orders, and
// ships it with a carrier and tracking number; the shopper sees the
// tracking number on their order page and gets the e-mail (read from the
// outbox table). /admin answers 404 to anyone who is not staff. A shopper
// cancels their own order within the hour. The journeys run with
// JavaScript on and off; axe checks the back office's pages.
//
// The server runs with PAYMENT_DELAY=0s: the payment's timing is
// checkout.test.js's subject, not this file's.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { useShop, forEachMode, browserTest, checkA11y, expectVisible, text, open, sqlString, E2E_DIR, CAREERS_URL, awaitPayment } from '../lib/harness.js';

const PASSWORD = 'moonlit-garden-7';

function uniqueEmail(label, js) {
  const rand = Math.random().toString(36).slice(2, 6);
  return `${label}-${js ? 'js' : 'nojs'}-${Date.now()}-${rand}@example.com`;
}

function pathOf(page) {
  return new URL(page.url()).pathname;
}

/** Clicks a submit button and waits for the page the POST leads to. */
async function submit(page, button) {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.request().isNavigationRequest() && r.frame() === page.mainFrame()),
    page.waitForEvent('load'),
    button.click(),
  ]);
  return res;
}

async function follow(page, link) {
  await Promise.all([page.waitForEvent('load'), link.click()]);
}

/** Posts a form from the page's context (its cookies), for quick set-ups. */
async function postAs(page, pagePath, action, fields) {
  if (pathOf(page) !== pagePath) await open(page, pagePath);
  const res = await page.request.post(new URL(action, page.url()).href, { form: fields, maxRedirects: 0 });
  assert.ok(res.status() < 400, `POST ${action} answered ${res.status()}`);
  return res;
}

/** Registers an account in page through the form. */
async function register(page, email) {
  await open(page, '/register');
  const form = page.getByTestId('register-form');
  await form.getByRole('textbox', { name: 'Full name', exact: true }).fill('Night Owl');
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByLabel(/^Password\s*\*?$/).fill(PASSWORD);
  await form.getByLabel(/^Confirm password\s*\*?$/).fill(PASSWORD);
  const res = await submit(page, form.getByRole('button', { name: 'Create Account' }));
  assert.equal(res.status(), 303, 'registration succeeded');
}

async function signIn(page, email) {
  await open(page, '/login');
  const form = page.getByTestId('login-form');
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByLabel(/^Password\s*\*?$/).fill(PASSWORD);
  const res = await submit(page, form.getByRole('button', { name: 'Sign In' }));
  assert.equal(res.status(), 303, 'signed in');
}

describe('Back office', () => {
  const shop = useShop({ env: { PAYMENT_DELAY: '0s' } });
  beforeEach((t) => shop.resetRateLimits(t));

  /** Runs the server binary's staff command on this server's database. */
  function staff(...args) {
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

  /**
   * A new account with a back-office role, made in a throw-away context.
   * Only a verified e-mail can be staff: the account opens the link of its
   * "Confirm your e-mail address" mail (read from the outbox) first.
   */
  async function staffAccount(role, js) {
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
    assert.match(staff('add', email, '--role', role), /is now .* staff/);
    return email;
  }

  /** A shopper (own context) who placed an order; returns its number. */
  async function shopperWithOrder(page, js) {
    const email = uniqueEmail('shopper', js);
    await register(page, email);
    await postAs(page, '/product/nb-012', '/cart/items', { product_id: 'nb-012', quantity: '1' });
    await postAs(page, '/checkout/shipping', '/checkout/shipping', {
      firstName: 'Grace', lastName: 'Hopper', email, phone: '+1 555 0199', address: '12 Harbour Lane',
      city: 'Arlington', state: 'VA', zipCode: '22201', country: 'United States',
    });
    const year = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');
    await postAs(page, '/checkout/payment', '/checkout/payment', {
      cardNumber: '4242 4242 4242 4242', cardName: 'Grace Hopper', expiryDate: `12/${year}`, cvv: '123', action: 'next',
    });
    await open(page, '/checkout/review');
    const key = await page.locator('input[name=key]').first().inputValue();
    const res = await postAs(page, '/checkout/review', '/checkout/place', { key });
    const m = /\/orders\/(NOC-[\w-]+)\/status$/.exec(res.headers().location ?? '');
    assert.ok(m, `Place Order led to the order's status page (${res.status()} ${res.headers().location})`);
    await open(page, `/orders/${m[1]}/status`);
    assert.equal(await awaitPayment(page), 'paid');
    return { email, orderID: m[1] };
  }

  forEachMode('staff ship an order; the shopper sees the tracking number and gets the e-mail', async ({ page, js, shop, t }) => {
    const { email: shopperEmail, orderID } = await shopperWithOrder(page, js);

    // The back office does not exist for the shopper.
    const shopperView = await open(page, '/admin/orders', 404);
    assert.ok(!(await shopperView.text()).toLowerCase().includes('back office'), 'no hint of the back office');

    const staffContext = await shop.newContext({ js });
    try {
      const admin = await staffContext.newPage();
      await open(admin, '/admin', 404); // signed out
      await signIn(admin, await staffAccount('fulfilment', js));
      await open(admin, '/admin');
      await expectVisible(admin.getByRole('heading', { name: 'Dashboard' }), 'the dashboard');
      // Fulfilment staff have no product editor: not even its link.
      assert.equal(await admin.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Products', exact: true }).count(), 0);
      await open(admin, '/admin/products', 404);

      // Find the order by its number.
      await open(admin, '/admin/orders');
      const filter = admin.getByTestId('admin-orders-filter');
      await filter.getByRole('searchbox', { name: 'Order number or e-mail' }).fill(orderID);
      await follow(admin, filter.getByRole('button', { name: 'Filter' }));
      const rows = admin.getByTestId('admin-order-row');
      assert.equal(await rows.count(), 1, 'the search finds the order');
      await follow(admin, rows.first().getByRole('link', { name: orderID }));
      assert.equal(pathOf(admin), `/admin/orders/${orderID}`);
      assert.equal(await text(admin.getByTestId('admin-order-payment')), 'Visa ending 4242');

      const ship = admin.getByTestId('ship-form');
      await ship.getByRole('combobox', { name: 'Carrier' }).selectOption('UPS');
      const tracking = `1Z${Date.now().toString().slice(-10)}`;
      await ship.getByRole('textbox', { name: 'Tracking number' }).fill(tracking);
      const res = await submit(admin, ship.getByRole('button', { name: 'Mark as shipped' }));
      assert.equal(res.status(), 303, 'the order was shipped');
      await expectVisible(admin.getByTestId('flash'), 'the confirmation');
      assert.match(await text(admin.getByTestId('flash')), /marked as shipped/);
      await expectVisible(admin.getByTestId('deliver-form'), 'the next step, Mark as delivered');
      assert.match(await text(admin.getByTestId('timeline')), new RegExp(`Shipped.*UPS ${tracking}`));
    } finally {
      await staffContext.close();
    }

    // The shopper's order page.
    await open(page, `/orders/${orderID}`);
    assert.equal(await text(page.getByTestId('status')), 'Shipped');
    assert.equal(await text(page.getByTestId('tracking')), (await text(page.getByTestId('tracking'))).toUpperCase());
    assert.match(await text(page.getByTestId('tracking')), /^1Z\d{10}$/);
    assert.equal(await text(page.getByTestId('carrier')), 'Shipped with UPS');
    const shown = await text(page.getByTestId('tracking'));

    // And the e-mail.
    const mails = shop.queryDB(t, `SELECT subject, body FROM outbox WHERE recipient = ${sqlString(shopperEmail)} ORDER BY id DESC`);
    if (mails) {
      assert.equal(mails[0].subject, `Your order ${orderID} has shipped`);
      assert.ok(mails[0].body.includes(`Tracking number: ${shown}`), mails[0].body);
    }
  });

  forEachMode('a shopper cancels their order within the hour', async ({ page, shop, js, t }) => {
    const { email, orderID } = await shopperWithOrder(page, js);
    await open(page, `/orders/${orderID}`);
    const res = await submit(page, page.getByTestId('shopper-cancel'));
    assert.equal(res.status(), 303);
    assert.equal(pathOf(page), `/orders/${orderID}`);
    await expectVisible(page.getByTestId('flash'), 'the confirmation');
    assert.match(await text(page.getByTestId('flash')), /Your order is cancelled/);
    assert.equal(await text(page.getByTestId('status')), 'Cancelled');
    assert.equal(await page.getByTestId('shopper-cancel').count(), 0, 'no second cancel');
    const mails = shop.queryDB(t, `SELECT subject FROM outbox WHERE recipient = ${sqlString(email)} ORDER BY id DESC`);
    if (mails) assert.equal(mails[0].subject, `Your order ${orderID} was cancelled`);
  });

  browserTest('the back office passes axe', async ({ shop }) => {
    const context = await shop.newContext({ js: false });
    let orderID;
    try {
      ({ orderID } = await shopperWithOrder(await context.newPage(), false));
    } finally {
      await context.close();
    }
    const email = await staffAccount('admin', true);
    const setup = (page) => signIn(page, email);
    for (const p of ['/admin', '/admin/orders', `/admin/orders/${orderID}`, '/admin/messages', '/admin/products',
      '/admin/products/nb-001', '/admin/products/new', '/admin/staff', '/admin/audit']) {
      await checkA11y(p, { setup });
    }
  });
});
