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

import { useShop, forEachMode, browserTest, checkA11y, expectVisible, text, open, sqlString, submit, follow } from '../lib/harness.js';
import { uniqueEmail, pathOf, register, signIn, orderAs, staffAccount as newStaffAccount } from '../lib/accounts.js';


describe('Back office', () => {
  const shop = useShop({ env: { PAYMENT_DELAY: '0s' } });
  const staffAccount = (role, js) => newStaffAccount(shop, role, js);
  beforeEach((t) => shop.resetRateLimits(t));

  /** A shopper (own context) who placed an order; returns its number. */
  async function shopperWithOrder(page, js) {
    const email = uniqueEmail('shopper', js);
    await register(page, email);
    const orderID = await orderAs(page, { email, product: 'nb-012', quantity: 1 });
    return { email, orderID };
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
      await checkA11y(p, { setup, noScript: true });
    }
  });
});
