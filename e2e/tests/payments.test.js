// The payment methods beside the demo card: paying on Stripe's hosted page
// and coming back to the order, cancelling there and finding the cart as it
// was, a bank transfer that staff mark paid before it can ship, a partial
// refund from the back office, and accessibility of the pages these add.
// Every journey runs with JavaScript on and off.
//
// Stripe is the stand-in (bin/stripestub, started by the harness): its
// hosted page is plain HTML with Pay and Cancel buttons, and Pay delivers
// the signed webhook before it sends the shopper back, so the shop already
// knows of the payment when its status page loads.
//
// The set-ups that are not the journey's subject (a cart, the shipping
// step, an order to look at, a staff account and its sign-in) are posted
// with the context's cookies, without opening pages, to keep the file
// quick.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import {
  useShop,
  forEachMode,
  browserTest,
  checkA11y,
  expectVisible,
  expectHidden,
  text,
  open,
  sqlString,
  E2E_DIR,
  CAREERS_URL,
  NARROW,
} from '../lib/harness.js';

const PASSWORD = 'moonlit-garden-7';
const BANK_DETAILS = 'Nocturne Ltd · IBAN GB33 BUKB 2020 1555 5555 55 · BIC BUKBGB22';

const MSG = {
  placed: 'Thank you! Your order has been placed.',
  abandoned: 'Your payment was cancelled and nothing was charged. Your cart is as you left it.',
  shipUnpaid: "This order isn't paid yet, so it can't be shipped.",
};

function uniqueEmail(label, js) {
  const rand = Math.random().toString(36).slice(2, 6);
  return `${label}-${js ? 'js' : 'nojs'}-${Date.now()}-${rand}@example.com`;
}

function pathOf(page) {
  return new URL(page.url()).pathname;
}

/** Clicks a submit button and waits for the page the POST leads to (after any redirects). */
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

/**
 * Posts a form with the page's cookies, without opening a page: for quick
 * set-ups. (No Origin header is sent, which the shop's cross-origin guard
 * lets through as it does for any non-browser client.)
 */
async function post(page, action, fields) {
  const res = await page.request.post(shopHandle.url(action), { form: fields, maxRedirects: 0 });
  assert.ok(res.status() < 400, `POST ${action} answered ${res.status()}`);
  return res;
}

async function expectFlash(page, message) {
  const flash = page.getByTestId('flash');
  await expectVisible(flash, `the message "${message}"`);
  assert.equal(await text(flash), message);
}

const SHIPPING = {
  firstName: 'Grace', lastName: 'Hopper', phone: '+1 555 0199', address: '12 Harbour Lane',
  city: 'Arlington', state: 'VA', zipCode: '22201', country: 'United States',
};

/**
 * Makes the page's context a guest with items ({id: quantity}) in the cart
 * and the shipping step done, all with requests. Returns the e-mail.
 */
async function guestWithShipping(page, items, js = true) {
  const email = uniqueEmail('payer', js);
  await post(page, '/guest', { from: '/checkout' });
  for (const [id, quantity] of Object.entries(items)) {
    await post(page, '/cart/items', { product_id: id, quantity: String(quantity) });
  }
  await post(page, '/checkout/shipping', { ...SHIPPING, email });
  return email;
}

/** As guestWithShipping, then opens the Payment step. */
async function guestOnPayment(page, items, js = true) {
  const email = await guestWithShipping(page, items, js);
  await open(page, '/checkout/payment');
  return email;
}

/** Chooses a payment method on the Payment step and goes on to the review. */
async function choose(page, method) {
  const form = page.getByTestId('payment-form');
  await form.getByTestId(`method-${method}`).check();
  const res = await submit(page, form.getByTestId('next'));
  assert.equal(res.status(), 303, 'the Payment step was accepted');
  assert.equal(pathOf(page), '/checkout/review');
}

/** As guestWithShipping with method chosen, all with requests. */
async function guestWithMethod(page, items, method) {
  const email = await guestWithShipping(page, items);
  await post(page, '/checkout/payment', { method, action: 'next' });
  return email;
}

/**
 * Presses Place Order and asserts that it answered a redirect (to the
 * payment page, or the order); a refusal fails with the page's alert.
 */
async function placeOrder(page) {
  const res = await submit(page, page.getByTestId('place-order'));
  if (res.status() !== 303) {
    const alert = page.getByTestId('form-alert');
    const why = (await alert.count()) ? await text(alert) : '(no alert)';
    assert.fail(`Place Order answered ${res.status()}: ${why}`);
  }
  return res;
}

/** The stand-in's hosted page: its Pay and Cancel buttons. */
function payButton(page) {
  return page.getByRole('button', { name: /^Pay \$/ });
}
function cancelButton(page) {
  return page.getByRole('button', { name: 'Cancel', exact: true });
}

/**
 * Places the order of the page's checkout with requests (the review's key,
 * then Place Order); returns the absolute URL Place Order redirected to.
 */
async function placeByRequest(page) {
  const review = await page.request.get(shopHandle.url('/checkout/review'), { maxRedirects: 0 });
  assert.equal(review.status(), 200, 'the review is shown');
  const key = /name="key" value="([^"]+)"/.exec(await review.text());
  assert.ok(key, 'the review carries its checkout key');
  const res = await post(page, '/checkout/place', { key: key[1] });
  assert.equal(res.status(), 303, 'Place Order answered a redirect');
  return new URL(res.headers().location, shopHandle.baseURL).href;
}

/** A guest's order paid on the stand-in's page, all with requests; returns its number. */
async function paidByStripe(page, items) {
  await guestWithMethod(page, items, 'stripe');
  const hosted = await placeByRequest(page);
  const res = await page.request.post(`${hosted}/pay`, { maxRedirects: 0 });
  assert.equal(res.status(), 303, 'the stand-in took the payment');
  const m = /\/orders\/(NOC-[\w-]+)\/status$/.exec(res.headers().location ?? '');
  assert.ok(m, `Pay led back to the order's status page (${res.headers().location})`);
  return m[1];
}

/**
 * A guest's Stripe order whose shopper pressed Cancel on the stand-in's
 * page, all with requests; returns the shop's page Cancel led to.
 */
async function cancelledAtStripe(page, items) {
  await guestWithMethod(page, items, 'stripe');
  const hosted = await placeByRequest(page);
  const res = await page.request.post(`${hosted}/cancel`, { maxRedirects: 0 });
  assert.equal(res.status(), 303, 'Cancel leads back to the shop');
  const to = new URL(res.headers().location);
  assert.equal(to.pathname, '/checkout/cancelled');
  return to.pathname + to.search;
}

/** A guest's order to be paid by bank transfer, all with requests; returns its number. */
async function placedByTransfer(page, items) {
  await guestWithMethod(page, items, 'bank_transfer');
  const m = /\/orders\/(NOC-[\w-]+)$/.exec(new URL(await placeByRequest(page)).pathname);
  assert.ok(m, 'Place Order led to the order');
  return m[1];
}

/** Money text ("$1,234.56", "107.8", "98") in cents. */
function cents(s) {
  const m = String(s).replace(/[$,\s]/g, '').match(/^(\d+)(?:\.(\d{1,2}))?$/);
  assert.ok(m, `"${s}" is an amount of money`);
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

/** The cart's lines as { product id: quantity }. */
async function cartLines(page) {
  const out = {};
  const lines = page.getByTestId('cart-line');
  for (let i = 0; i < (await lines.count()); i++) {
    const line = lines.nth(i);
    out[await line.getAttribute('data-product-id')] = Number(await line.getByTestId('quantity').inputValue());
  }
  return out;
}

/** The file's shop, for the set-up helpers above. */
let shopHandle;

describe('payments', () => {
  const shop = (shopHandle = useShop({
    stripe: true,
    env: {
      PAYMENT_METHODS: 'demo,stripe,bank_transfer',
      BANK_TRANSFER_INSTRUCTIONS: BANK_DETAILS,
      PAYMENT_DELAY: '0s',
    },
  }));
  beforeEach((t) => shop.resetRateLimits(t));

  // -------------------------------------------------------------------------
  // Staff accounts (as in admin.test.js): made once per role and shared by
  // the file's tests, since only signing in is part of the journeys.

  function staffCommand(...args) {
    const bin = path.resolve(E2E_DIR, process.env.STOREFRONT_BIN || '../bin/storefront');
    const r = spawnSync(bin, ['staff', ...args], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        DATA_DIR: shop.server.dataDir,
        ...(shop.server.dbURL ? { DATABASE_URL: shop.server.dbURL } : {}),
        BASE_URL: shop.baseURL,
        CAREERS_URL,
        LOG_LEVEL: 'warn',
      },
      cwd: shop.server.dataDir,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 0, `storefront staff ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    return r.stdout;
  }

  const staffAccounts = {};
  /**
   * The e-mail of a staff account with role, registered with requests.
   * Only a confirmed address can be staff: the link of its "Confirm your
   * e-mail address" mail (read from the outbox) is confirmed first.
   */
  async function staffAccount(role) {
    if (staffAccounts[role]) return staffAccounts[role];
    const email = uniqueEmail(role, false);
    const context = await shop.newContext({ js: false });
    try {
      const page = await context.newPage();
      const res = await post(page, '/register', { displayName: 'Night Owl', email, password: PASSWORD, confirmPassword: PASSWORD });
      assert.equal(res.status(), 303, 'registered');
      const mails = shop.queryDB({ diagnostic() {} }, `SELECT body FROM outbox WHERE recipient = ${sqlString(email)} AND subject = 'Confirm your e-mail address'`);
      assert.ok(mails, 'the confirmation link is read from the outbox table, which needs sqlite3');
      const token = mails[0]?.body.match(/\/confirm-email\?token=([A-Za-z0-9_-]+)/);
      assert.ok(token, 'registration mailed a confirmation link');
      assert.equal((await post(page, '/confirm-email', { token: token[1] })).status(), 303, 'the address is confirmed');
    } finally {
      await context.close();
    }
    assert.match(staffCommand('add', email, '--role', role), /is now .* staff/);
    staffAccounts[role] = email;
    return email;
  }

  /** Signs the page's context in with a request (signing in is not what these journeys test). */
  async function signIn(page, email) {
    const res = await post(page, '/login', { email, password: PASSWORD });
    assert.equal(res.status(), 303, 'signed in');
  }

  // -------------------------------------------------------------------------
  // Stripe

  forEachMode('a shopper pays on Stripe\'s page and comes back to a paid order', async ({ page, js }) => {
    await guestOnPayment(page, { 'nb-004': 1 }, js);
    await expectVisible(page.getByTestId('pay-methods'), 'the choice of payment methods');
    await choose(page, 'stripe');
    assert.equal(await text(page.getByTestId('review-card')), 'Card');
    const total = await text(page.getByTestId('checkout-summary').getByTestId('total'));

    await placeOrder(page);
    assert.equal(new URL(page.url()).origin, shop.stripe.url, 'the shopper is on the (stand-in) Stripe page');
    assert.match(pathOf(page), /^\/pay\/cs_/);
    assert.equal(await text(payButton(page)), `Pay ${total}`, 'the payment page charges the review\'s total');

    await submit(page, payButton(page));
    const m = /^\/orders\/(NOC-[\w-]+)\/status$/.exec(pathOf(page));
    assert.ok(m, 'Pay leads back to the order\'s status page');
    const orderID = m[1];
    const status = page.getByTestId('order-status');
    assert.equal(await status.getAttribute('data-state'), 'paid');
    assert.equal(await text(status.locator('h1')), MSG.placed);
    assert.match(await text(status.getByRole('status')), new RegExp(`Order ${orderID} is paid \\(\\${total}\\)`));
    assert.equal(await page.locator('meta[http-equiv=refresh]').count(), 0, 'a paid order\'s status page stays put');

    await follow(page, page.getByTestId('status-order'));
    assert.equal(pathOf(page), `/orders/${orderID}`);
    assert.equal(await text(page.locator('main').getByTestId('status')), 'Processing');
    assert.equal(await text(page.getByTestId('payment-status')), 'Paid');
    assert.equal(await text(page.getByTestId('order-payment')), 'Card (Stripe)');

    await open(page, '/cart');
    await expectVisible(page.getByTestId('cart-empty'), 'the empty cart');
  });

  forEachMode('a shopper cancels on Stripe\'s page and finds the cart as they left it', async ({ page, js }) => {
    const items = { 'nb-008': 2, 'nb-009': 1 };
    await guestOnPayment(page, items, js);
    await choose(page, 'stripe');
    await placeOrder(page);
    const hosted = page.url();
    assert.equal(new URL(hosted).origin, shop.stripe.url, 'the shopper is on the (stand-in) Stripe page');

    await submit(page, cancelButton(page));
    assert.equal(pathOf(page), '/checkout/cancelled');
    const cancelled = page.getByTestId('payment-cancelled');
    await expectVisible(cancelled, 'the "Payment not finished" page');
    assert.equal(await text(cancelled.locator('h1')), 'Payment not finished');
    assert.equal(await cancelled.locator('li').count(), 2, 'it lists the order\'s two lines');

    const res = await submit(page, page.getByTestId('return-to-cart'));
    assert.equal(res.status(), 303);
    assert.equal(pathOf(page), '/cart');
    await expectFlash(page, MSG.abandoned);
    assert.deepEqual(await cartLines(page), items, 'the cart has the same lines and quantities');

    // The page on Stripe's side was closed, so it can no longer take money.
    await open(page, hosted);
    assert.equal(await payButton(page).count(), 0, 'the abandoned payment page has no Pay button');
    await expectVisible(page.getByText('This checkout session has expired.'), 'the expired payment page');
  });

  // -------------------------------------------------------------------------
  // Bank transfer

  forEachMode('a bank transfer is placed, staff mark it paid, and then it ships', async ({ page, js, shop }) => {
    await guestOnPayment(page, { 'nb-017': 1 }, js);
    await choose(page, 'bank_transfer');
    assert.equal(await text(page.getByTestId('review-card')), 'Bank transfer');
    await placeOrder(page);
    const m = /^\/orders\/(NOC-[\w-]+)$/.exec(pathOf(page));
    assert.ok(m, 'Place Order leads to the order');
    const orderID = m[1];
    await expectFlash(page, MSG.placed);
    assert.equal(await text(page.locator('main').getByTestId('status')), 'Processing');
    assert.equal(await text(page.getByTestId('payment-status')), 'Awaiting payment');
    const instructions = page.getByTestId('bank-instructions');
    await expectVisible(instructions, 'the bank details');
    const total = await text(page.getByTestId('order-total'));
    assert.match(await text(instructions), new RegExp(`send \\${total} with your order number, ${orderID}, as the reference`));
    assert.ok((await text(instructions)).includes(BANK_DETAILS), 'the shop\'s bank details are shown');

    const staffContext = await shop.newContext({ js });
    try {
      const admin = await staffContext.newPage();
      await signIn(admin, await staffAccount('admin'));

      // The orders awaiting payment include this one.
      await open(admin, '/admin/orders');
      const filter = admin.getByTestId('admin-orders-filter');
      await filter.getByTestId('filter-payment').selectOption({ label: 'Awaiting payment' });
      await filter.getByRole('searchbox', { name: 'Order number or e-mail' }).fill(orderID);
      await follow(admin, filter.getByRole('button', { name: 'Filter' }));
      const rows = admin.getByTestId('admin-order-row');
      assert.equal(await rows.count(), 1, 'the filter finds the order');
      assert.equal(await text(rows.first().getByTestId('payment-status')), 'Awaiting payment');
      await follow(admin, rows.first().getByRole('link', { name: orderID }));

      // Unpaid, it cannot ship.
      assert.equal(await text(admin.getByTestId('ship-unpaid')), MSG.shipUnpaid);
      assert.equal(await admin.getByTestId('ship-form').count(), 0, 'no ship form before the money is in');
      const markPaid = admin.getByTestId('mark-paid');
      assert.equal(await text(markPaid), `Mark ${total} received`);
      assert.equal((await submit(admin, markPaid)).status(), 303);
      assert.equal(pathOf(admin), `/admin/orders/${orderID}`);
      assert.match(await text(admin.getByTestId('flash')), /marked paid/);
      assert.equal(await text(admin.locator('main').getByTestId('payment-status')), 'Paid');
      assert.equal(await admin.getByTestId('mark-paid-form').count(), 0, 'it is marked paid once');
      assert.equal(await admin.getByTestId('ship-unpaid').count(), 0);

      // The shopper sees it paid, not yet shipped.
      await open(page, `/orders/${orderID}`);
      assert.equal(await text(page.getByTestId('payment-status')), 'Paid');
      assert.equal(await text(page.locator('main').getByTestId('status')), 'Processing');
      await expectHidden(page.getByTestId('bank-instructions'), 'the bank details, no longer needed');

      const ship = admin.getByTestId('ship-form');
      await ship.getByRole('combobox', { name: 'Carrier' }).selectOption('UPS');
      await ship.getByRole('textbox', { name: 'Tracking number' }).fill(`1Z${Date.now().toString().slice(-10)}`);
      assert.equal((await submit(admin, ship.getByRole('button', { name: 'Mark as shipped' }))).status(), 303);
      assert.match(await text(admin.getByTestId('flash')), /marked as shipped/);
    } finally {
      await staffContext.close();
    }

    await open(page, `/orders/${orderID}`);
    assert.equal(await text(page.locator('main').getByTestId('status')), 'Shipped');
    assert.equal(await text(page.getByTestId('payment-status')), 'Paid');
  });

  // -------------------------------------------------------------------------
  // Refunds

  forEachMode('staff refund part of a Stripe payment', async ({ page, js, shop }) => {
    const orderID = await paidByStripe(page, { 'nb-020': 1 });
    await open(page, `/orders/${orderID}`);
    const total = await text(page.getByTestId('order-total'));

    const staffContext = await shop.newContext({ js });
    try {
      const admin = await staffContext.newPage();
      await signIn(admin, await staffAccount('admin'));
      await open(admin, `/admin/orders/${orderID}`);
      const form = admin.getByTestId('refund-form');
      await expectVisible(form, 'the refund form');
      const amount = form.locator('[name=amount]');
      assert.equal(cents(await amount.inputValue()), cents(total), 'the amount starts as all that is left to refund');
      await amount.fill('10.00');
      await form.locator('[name=reason]').fill('One item arrived scratched');
      await submit(admin, form.getByTestId('refund-review'));

      const confirm = admin.getByTestId('refund-confirm');
      await expectVisible(confirm, 'the refund\'s confirmation');
      assert.match(await text(confirm), /Refund \$10\.00 through Stripe/);
      assert.equal((await submit(admin, confirm.getByTestId('refund-confirm-button'))).status(), 303);
      assert.equal(pathOf(admin), `/admin/orders/${orderID}`);
      assert.equal(await text(admin.locator('main').getByTestId('payment-status')), 'Partially refunded');
      await expectVisible(admin.getByTestId('admin-order-refunded'), 'the refunded amount');
      assert.match(await text(admin.getByTestId('admin-order-refunded')), /\$10\.00/);
    } finally {
      await staffContext.close();
    }

    await open(page, `/orders/${orderID}`);
    assert.equal(await text(page.getByTestId('payment-status')), 'Partially refunded');
    assert.equal(await text(page.getByTestId('order-refunded')), 'Refunded $10.00');
  });

  // -------------------------------------------------------------------------
  // Accessibility (each check runs with JavaScript on and with scripts blocked)

  describe('accessibility', () => {
    /**
     * Builds a state once with requests, in a throw-away context (a
     * shopper's checkout, a signed-in staff member), and returns build's
     * result and a setup that gives each axe context those cookies, so the
     * two axe passes (and viewports) share one set-up.
     */
    async function withState(build) {
      const context = await shopHandle.newContext({ js: false });
      try {
        const page = await context.newPage();
        const result = await build(page);
        const { cookies } = await context.storageState();
        return { result, setup: (_page, axeContext) => axeContext.addCookies(cookies) };
      } finally {
        await context.close();
      }
    }

    browserTest('axe: /checkout/payment with three methods, at 1280 and 390 px', async () => {
      const { setup } = await withState((page) => guestWithShipping(page, { 'nb-024': 1 }));
      const prepare = (page) => expectVisible(page.getByTestId('pay-methods'), 'the payment methods');
      await checkA11y('/checkout/payment', { setup, prepare });
      await checkA11y('/checkout/payment', { setup, prepare, viewport: NARROW });
    });

    browserTest('axe: the status page of an order paid on Stripe', async () => {
      const { result: orderID, setup } = await withState((page) => paidByStripe(page, { 'nb-024': 1 }));
      await checkA11y(`/orders/${orderID}/status`, {
        setup,
        prepare: async (page) => assert.equal(await page.getByTestId('order-status').getAttribute('data-state'), 'paid'),
      });
    });

    browserTest('axe: the page after cancelling on Stripe', async () => {
      const { result: cancelled, setup } = await withState((page) => cancelledAtStripe(page, { 'nb-024': 1 }));
      await checkA11y(cancelled, { setup, prepare: (page) => expectVisible(page.getByTestId('payment-cancelled'), 'the cancelled page') });
    });

    browserTest('axe: a bank transfer\'s order in the back office, with Mark paid', async () => {
      const { result: orderID } = await withState((page) => placedByTransfer(page, { 'nb-024': 1 }));
      const email = await staffAccount('admin');
      const { setup } = await withState((page) => signIn(page, email));
      await checkA11y(`/admin/orders/${orderID}`, {
        setup,
        prepare: (page) => expectVisible(page.getByTestId('mark-paid-form'), 'the Mark paid form'),
      });
    });
  });
});
