// A day in the back office: staff cancel a paid order through the
// confirmation page (which states the order and the amount, and changes
// nothing until confirmed; a second confirmation does nothing more), add an
// internal note the shopper never sees, add a carrier with its tracking
// page and ship with it, so the shopper's tracking number links there. The
// journeys run with JavaScript off, as the back office needs none; one
// smoke test runs them with it on. axe checks the confirmation page and
// /admin/carriers.
//
// The server runs with PAYMENT_DELAY=0s: the payment's timing is
// checkout.test.js's subject, not this file's.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { useShop, browserTest, checkA11y, expectVisible, text, open, submit, sqlString } from '../lib/harness.js';
import { uniqueEmail, pathOf, register, signIn, orderAs, staffAccount as newStaffAccount } from '../lib/accounts.js';


/** A name no other test of this server's life has used. */
function unique(label) {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
}

/** The hidden fields of a form, as it would post them. */
async function hiddenFields(form) {
  const inputs = form.locator('input[type=hidden]');
  const fields = {};
  for (let i = 0; i < (await inputs.count()); i++) {
    fields[await inputs.nth(i).getAttribute('name')] = (await inputs.nth(i).getAttribute('value')) ?? '';
  }
  return fields;
}

describe('A day in the back office', () => {
  const shop = useShop({ env: { PAYMENT_DELAY: '0s' } });
  const staffAccount = (role, js) => newStaffAccount(shop, role, js);
  beforeEach((t) => shop.resetRateLimits(t));

  /** A shopper (page's context) who placed and paid an order; ends on its page. */
  async function shopperWithOrder(page, js) {
    const email = uniqueEmail('shopper', js);
    await register(page, email);
    const orderID = await orderAs(page, { email, product: 'nb-012', quantity: 1 });
    return { email, orderID, total: await text(page.getByTestId('order-total')) };
  }

  /**
   * Registers name with JavaScript off or on: fn gets a shopper's page and
   * a signed-in admin's page, each in its own context.
   */
  function journey(name, js, fn) {
    browserTest(`${name} [JavaScript ${js ? 'on' : 'off'}]`, async ({ shop, t }) => {
      const shopperContext = await shop.newContext({ js });
      const staffContext = await shop.newContext({ js });
      try {
        const shopper = await shopperContext.newPage();
        const admin = await staffContext.newPage();
        const email = await staffAccount('admin', js);
        await signIn(admin, email);
        await fn({ shopper, admin, email, js, t });
      } finally {
        await shopperContext.close();
        await staffContext.close();
      }
    });
  }

  /** Fills the cancel form and presses its button: the confirmation page. */
  async function reviewCancel(admin, reason) {
    const cancel = admin.getByTestId('cancel-form');
    await cancel.getByRole('textbox', { name: 'Reason (the shopper reads it)' }).fill(reason);
    return submit(admin, cancel.getByRole('button', { name: 'Cancel order and refund' }));
  }

  journey('the cancel confirmation', false, async ({ shopper, admin, t }) => {
    const { orderID, total } = await shopperWithOrder(shopper, false);
    const ordersRow = `SELECT status, refunded_cents, total_cents FROM orders WHERE id = ${sqlString(orderID)}`;

    await open(admin, `/admin/orders/${orderID}`);
    const res = await reviewCancel(admin, 'Damaged in the warehouse');
    assert.equal(res.status(), 200, 'the first post answers the confirmation page');
    const says = `Cancel order ${orderID} and refund ${total} to the demo card •••• 4242`;
    assert.equal(await text(admin.getByTestId('confirm-text')), `${says}?`, 'the page states the order and the amount');
    assert.equal(await text(admin.getByTestId('confirm-button')), says);
    assert.match(await text(admin.getByTestId('confirm')), /Damaged in the warehouse/, 'and the reason the shopper will read');
    let rows = shop.queryDB(t, ordersRow);
    if (rows) assert.deepEqual([rows[0].status, rows[0].refunded_cents], ['processing', 0], 'nothing changed before confirming');

    // What the confirmation posts, to post it again afterwards.
    const form = admin.getByTestId('confirm').locator('form');
    const action = new URL(await form.getAttribute('action'), admin.url()).href;
    const fields = await hiddenFields(form);

    const done = await submit(admin, admin.getByTestId('confirm-button'));
    assert.equal(done.status(), 303);
    assert.equal(pathOf(admin), `/admin/orders/${orderID}`);
    assert.match(await text(admin.getByTestId('flash')), /cancelled and refunded/);
    assert.equal(await text(admin.getByTestId('status')), 'Cancelled');
    assert.equal(await text(admin.getByTestId('payment-status')), 'Refunded');

    // The same confirmation again, as a double submit sends it.
    const again = await admin.request.post(action, { form: fields, maxRedirects: 0 });
    assert.equal(again.status(), 303);
    await open(admin, `/admin/orders/${orderID}`);
    assert.match(await text(admin.getByTestId('flash')), /is cancelled already; nothing more was done/);

    rows = shop.queryDB(t, ordersRow);
    if (rows) {
      assert.equal(rows[0].status, 'cancelled');
      assert.equal(rows[0].refunded_cents, rows[0].total_cents, 'refunded in full, once');
      const mails = shop.queryDB(t, `SELECT COUNT(*) AS n FROM outbox WHERE subject = ${sqlString(`Your order ${orderID} was cancelled`)}`);
      assert.equal(mails[0].n, 1, 'one cancel mail');
      const audit = shop.queryDB(t, `SELECT COUNT(*) AS n FROM audit_log WHERE action = 'order.cancelled' AND subject = ${sqlString(orderID)}`);
      assert.equal(audit[0].n, 1, 'one cancel in the audit log');
    }
    await open(shopper, `/orders/${orderID}`);
    assert.equal(await text(shopper.getByTestId('status')), 'Cancelled');
    assert.equal(await text(shopper.getByTestId('order-refunded')), `Refunded ${total}`);
  });

  journey('a note and a carrier template', false, async ({ shopper, admin, email }) => {
    const { orderID } = await shopperWithOrder(shopper, false);
    const note = `Called ${orderID}: fragile, double-box it`;

    await open(admin, `/admin/orders/${orderID}`);
    const noteForm = admin.getByTestId('note-form');
    await noteForm.getByRole('textbox', { name: 'Internal note' }).fill(note);
    const res = await submit(admin, noteForm.getByRole('button', { name: 'Add note' }));
    assert.equal(res.status(), 303);
    assert.match(await text(admin.getByTestId('flash')), /Note added/);
    const entry = admin.getByTestId('timeline-event').filter({ hasText: note });
    await expectVisible(entry, 'the note on the timeline');
    assert.match(await text(entry), new RegExp(`^Internal note .* by ${email.replace(/[.+]/g, '\\$&')}$`), 'with when and who');

    await open(shopper, `/orders/${orderID}`);
    assert.ok(!(await shopper.locator('main').innerText()).includes('fragile'), 'the shopper never sees the note');

    // A carrier, refused first for a page that is not https.
    await open(admin, '/admin/orders');
    await Promise.all([admin.waitForEvent('load'), admin.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Carriers' }).click()]);
    assert.equal(pathOf(admin), '/admin/carriers');
    const carrier = unique('Night Post');
    const add = admin.getByTestId('new-carrier-form');
    await add.getByRole('textbox', { name: 'Name' }).fill(carrier);
    await add.getByRole('textbox', { name: 'Tracking page' }).fill('http://nightpost.example/track?n={tracking}');
    const refused = await submit(admin, add.getByRole('button', { name: 'Add carrier' }));
    assert.equal(refused.status(), 422);
    assert.match(await text(admin.getByTestId('carrier-template-error')), /an https:\/\/ address with \{tracking\}/);
    const again = admin.getByTestId('new-carrier-form');
    assert.equal(await again.getByRole('textbox', { name: 'Name' }).inputValue(), carrier, 'the name typed is kept');
    await again.getByRole('textbox', { name: 'Tracking page' }).fill('https://nightpost.example/track?n={tracking}');
    assert.equal((await submit(admin, again.getByRole('button', { name: 'Add carrier' }))).status(), 303);
    assert.match(await text(admin.getByTestId('flash')), /added/);

    // Its template changed on its own form.
    const row = admin.getByTestId('carrier').filter({ hasText: carrier });
    await row.getByRole('textbox', { name: `Tracking page of ${carrier}` }).fill('https://nightpost.example/t/{tracking}');
    assert.equal((await submit(admin, row.getByRole('button', { name: `Save ${carrier}'s page` }))).status(), 303);
    assert.match(await text(admin.getByTestId('flash')), /tracking page saved/);

    // Shipped with it: the shopper's tracking number links to its page.
    await open(admin, `/admin/orders/${orderID}`);
    const ship = admin.getByTestId('ship-form');
    await ship.getByRole('combobox', { name: 'Carrier' }).selectOption(carrier);
    await ship.getByRole('textbox', { name: 'Tracking number' }).fill('NP-20261121');
    assert.equal((await submit(admin, ship.getByRole('button', { name: 'Mark as shipped' }))).status(), 303);
    await open(shopper, `/orders/${orderID}`);
    const link = shopper.getByTestId('tracking-link');
    assert.equal(await link.getAttribute('href'), 'https://nightpost.example/t/NP-20261121');
    assert.equal(await text(link), 'NP-20261121');
  });

  journey('smoke: a note and a cancel confirmed', true, async ({ shopper, admin }) => {
    const { orderID, total } = await shopperWithOrder(shopper, true);
    await open(admin, `/admin/orders/${orderID}`);
    const noteForm = admin.getByTestId('note-form');
    await noteForm.getByRole('textbox', { name: 'Internal note' }).fill('Checked with JavaScript on');
    assert.equal((await submit(admin, noteForm.getByRole('button', { name: 'Add note' }))).status(), 303);
    await expectVisible(admin.getByTestId('timeline-event').filter({ hasText: 'Checked with JavaScript on' }), 'the note');
    assert.equal((await reviewCancel(admin, 'Asked to by phone')).status(), 200);
    assert.match(await text(admin.getByTestId('confirm-text')), new RegExp(`^Cancel order ${orderID} and refund \\${total} `));
    assert.equal((await submit(admin, admin.getByTestId('confirm-button'))).status(), 303);
    assert.equal(await text(admin.getByTestId('status')), 'Cancelled');
  });

  browserTest('the confirmation page and /admin/carriers pass axe', async ({ shop }) => {
    const context = await shop.newContext({ js: false });
    let orderID;
    try {
      ({ orderID } = await shopperWithOrder(await context.newPage(), false));
    } finally {
      await context.close();
    }
    const email = await staffAccount('admin', true);
    const setup = (page) => signIn(page, email);
    await checkA11y(`/admin/orders/${orderID}`, {
      setup,
      noScript: true,
      prepare: async (page) => {
        assert.equal((await reviewCancel(page, 'Checked by axe')).status(), 200);
        await expectVisible(page.getByTestId('confirm'), 'the confirmation page');
      },
    });
    await checkA11y('/admin/carriers', { setup, noScript: true });
  });
});
