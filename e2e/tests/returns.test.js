// Returns: a shopper buys two power banks; an admin (made with the
// server binary's `staff add` command) ships and delivers the order; the
// shopper sends one back with the order page's Return items form; staff
// approve the request, mark it received (back in stock) and refund it
// through the order's refund form, which the return fills. After each step
// the shopper's order page shows the return's state and the outbox holds
// the mail. The shopper's journey runs with JavaScript on and off; the back
// office with it off. axe checks the return form and /admin/returns.
//
// The server runs with PAYMENT_DELAY=0s: the payment's timing is
// checkout.test.js's subject, not this file's.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { useShop, forEachMode, browserTest, checkA11y, expectVisible, text, open, sqlString, submit, follow } from '../lib/harness.js';
import { uniqueEmail, pathOf, postAs, register, signIn, orderAs, staffAccount as newStaffAccount } from '../lib/accounts.js';

const PRODUCT = 'nb-012';
const TITLE = 'Voltpack 20000mAh Power Bank';

describe('Returns', () => {
  const shop = useShop({ env: { PAYMENT_DELAY: '0s' } });
  const staffAccount = (role, js) => newStaffAccount(shop, role, js);
  beforeEach((t) => shop.resetRateLimits(t));

  /** A shopper (in page) who bought two power banks; returns the order. */
  async function shopperWithOrder(page, js) {
    const email = uniqueEmail('shopper', js);
    await register(page, email);
    const orderID = await orderAs(page, { email, product: PRODUCT, quantity: 2 });
    return { email, orderID };
  }

  /** Staff ship and deliver the order from its back-office page. */
  async function shipAndDeliver(admin, orderID) {
    await open(admin, `/admin/orders/${orderID}`);
    const ship = admin.getByTestId('ship-form');
    await ship.getByRole('combobox', { name: 'Carrier' }).selectOption('UPS');
    await ship.getByRole('textbox', { name: 'Tracking number' }).fill(`1Z${Date.now().toString().slice(-10)}`);
    assert.equal((await submit(admin, ship.getByRole('button', { name: 'Mark as shipped' }))).status(), 303);
    assert.equal((await submit(admin, admin.getByTestId('deliver-form').getByRole('button', { name: 'Mark as delivered' }))).status(), 303);
  }

  /** The mails to the shopper, newest first (null without sqlite3). */
  function mailsTo(t, email) {
    return shop.queryDB(t, `SELECT subject, body FROM outbox WHERE recipient = ${sqlString(email)} ORDER BY id DESC`);
  }

  /** Opens the shopper's order page and returns its return's state. */
  async function shopperSees(page, orderID) {
    await open(page, `/orders/${orderID}`);
    const ret = page.getByTestId('return').last();
    await expectVisible(ret, 'the return on the order page');
    return text(ret.getByTestId('return-state'));
  }

  forEachMode('a shopper returns 1 of 2 items, staff approve, mark it received and refund it partially, and the shopper sees each state and gets each mail', async ({ page, js, shop, t }) => {
    const { email, orderID } = await shopperWithOrder(page, js);

    // Not delivered yet: nothing to return.
    await open(page, `/orders/${orderID}`);
    assert.equal(await page.getByTestId('return-form').count(), 0, 'no return form before delivery');

    const staffContext = await shop.newContext({ js: false });
    try {
      const admin = await staffContext.newPage();
      await signIn(admin, await staffAccount('admin', js));
      await shipAndDeliver(admin, orderID);

      // The shopper sends one of the two back.
      await open(page, `/orders/${orderID}`);
      const form = page.getByTestId('return-form');
      await expectVisible(form, 'the return form on a delivered order');
      assert.match(await text(form.getByTestId('return-until')), /^You can return items until \w+ \d+, \d{4}\.$/);
      await form.getByRole('spinbutton', { name: TITLE }).fill('1');
      await form.getByRole('combobox', { name: 'Reason' }).selectOption({ label: "Doesn't fit" });
      await form.getByRole('textbox', { name: 'Anything to add (optional)' }).fill('One is enough');
      const sent = await submit(page, form.getByRole('button', { name: 'Request return' }));
      assert.equal(sent.status(), 303, 'the request was sent');
      assert.equal(pathOf(page), `/orders/${orderID}`);
      await expectVisible(page.getByTestId('flash'), 'the confirmation');
      const returnID = /RET-[0-9A-F]+/.exec(await text(page.getByTestId('flash')))?.[0];
      assert.ok(returnID, 'the confirmation names the return');
      assert.equal(await text(page.getByTestId('return').getByTestId('return-state')), 'Requested');
      assert.equal(await text(page.getByTestId('return-items')), `1 × ${TITLE}`);
      let mails = mailsTo(t, email);
      if (mails) assert.equal(mails[0].subject, `Return request ${returnID} for order ${orderID}`);

      // Staff find it in the returns list and approve it.
      await open(admin, '/admin/returns');
      const nav = admin.getByRole('navigation', { name: 'Back office' });
      assert.equal(await nav.getByRole('link', { name: 'Returns' }).getAttribute('aria-current'), 'page');
      const card = admin.getByTestId('admin-returns-item').filter({ hasText: returnID });
      assert.match(await text(card), /Requested/);
      await follow(admin, card.getByRole('link', { name: returnID }));
      assert.equal(pathOf(admin), `/admin/orders/${orderID}`);
      assert.equal((await submit(admin, admin.getByRole('button', { name: `Approve ${returnID}` }))).status(), 303);
      assert.match(await text(admin.getByTestId('flash')), /approved/);
      assert.equal(await shopperSees(page, orderID), 'Approved');
      assert.match(await text(page.getByTestId('return-next')), new RegExp(`${returnID} written on the parcel`));
      mails = mailsTo(t, email);
      if (mails) {
        assert.equal(mails[0].subject, `Your return ${returnID} is approved`);
        assert.ok(mails[0].body.includes(`1 × ${TITLE}`), mails[0].body);
      }

      // The parcel arrives: received, and back in stock.
      const before = shop.queryDB(t, `SELECT stock FROM variants WHERE id = ${sqlString(PRODUCT)}`);
      const receive = admin.getByTestId('return-receive-form');
      await receive.getByRole('checkbox', { name: `1 × ${TITLE}` }).check();
      assert.equal((await submit(admin, receive.getByRole('button', { name: `Mark ${returnID} received` }))).status(), 303);
      assert.match(await text(admin.getByTestId('flash')), /received and back in stock/);
      if (before) {
        const after = shop.queryDB(t, `SELECT stock FROM variants WHERE id = ${sqlString(PRODUCT)}`);
        assert.equal(after[0].stock, before[0].stock + 1, 'the item is back in stock');
      }
      assert.equal(await shopperSees(page, orderID), 'Received');
      mails = mailsTo(t, email);
      if (mails) assert.equal(mails[0].subject, `We received your return ${returnID}`);

      // The refund: the return fills the order's one refund form.
      await submit(admin, admin.getByRole('button', { name: `Refund the items of ${returnID}…` }));
      const refund = admin.getByTestId('refund-form');
      await expectVisible(refund.getByTestId('refund-for-return'), 'the refund form says which return it is for');
      const amount = await refund.getByRole('textbox', { name: /^Amount/ }).inputValue();
      assert.match(amount, /^\d+\.\d\d$/);
      assert.equal(await refund.getByRole('textbox', { name: /^Reason/ }).inputValue(), `Return ${returnID}: items sent back`);
      await submit(admin, refund.getByRole('button', { name: 'Review refund' }));
      const confirm = admin.getByTestId('refund-confirm');
      assert.match(await text(confirm.getByTestId('refund-confirm-return')), new RegExp(returnID));
      assert.equal((await submit(admin, confirm.getByTestId('refund-confirm-button'))).status(), 303);
      assert.match(await text(admin.getByTestId('flash')), new RegExp(`Return ${returnID} is refunded`));

      assert.equal(await shopperSees(page, orderID), 'Refunded');
      assert.equal(await text(page.getByTestId('payment-status')), 'Partially refunded');
      assert.match(await text(page.getByTestId('return-next')), new RegExp(`\\$${amount.replace('.', '\\.')} was refunded`));
      mails = mailsTo(t, email);
      if (mails) {
        assert.deepEqual(mails.slice(0, 2).map((m) => m.subject), [`Your return ${returnID} is refunded`, `Refund for order ${orderID}`]);
        assert.ok(mails[1].body.includes(`Return ${returnID}: items sent back`), mails[1].body);
      }
      // Every step is on the order's timeline.
      const timeline = await text(page.getByTestId('timeline'));
      for (const step of ['Return requested', 'Return approved', 'Return received', 'Return refunded']) {
        assert.ok(timeline.includes(step), `the timeline shows ${step}`);
      }
    } finally {
      await staffContext.close();
    }
  });

  browserTest('the return form and the returns list pass axe', async ({ shop }) => {
    const context = await shop.newContext({ js: false });
    let shopper;
    try {
      shopper = await shopperWithOrder(await context.newPage(), false);
    } finally {
      await context.close();
    }
    const staffEmail = await staffAccount('admin', true);
    const adminContext = await shop.newContext({ js: false });
    try {
      const admin = await adminContext.newPage();
      await signIn(admin, staffEmail);
      await shipAndDeliver(admin, shopper.orderID);
    } finally {
      await adminContext.close();
    }
    // The form, and the form refused (its messages next to the fields).
    const setup = (page) => signIn(page, shopper.email);
    await checkA11y(`/orders/${shopper.orderID}`, { setup });
    await checkA11y(`/orders/${shopper.orderID}`, {
      setup,
      prepare: (page) => submit(page, page.getByTestId('return-form').getByRole('button', { name: 'Request return' })),
    });
    // A list with a request in it.
    const requestContext = await shop.newContext({ js: false });
    try {
      const page = await requestContext.newPage();
      await signIn(page, shopper.email);
      await postAs(page, `/orders/${shopper.orderID}`, `/orders/${shopper.orderID}/returns`, { 'qty-0': '1', reason: 'other' });
    } finally {
      await requestContext.close();
    }
    const staffSetup = (page) => signIn(page, staffEmail);
    await checkA11y('/admin/returns', { setup: staffSetup, noScript: true });
    await checkA11y(`/admin/orders/${shopper.orderID}`, { setup: staffSetup, noScript: true });
  });
});
