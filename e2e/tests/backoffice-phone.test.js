// The back office on a phone, and its bulk actions. A member of staff
// (made with the server binary's `staff add` command) finds a shopper's
// four orders on /admin/orders at 375 px with JavaScript off, ticks them,
// and marks three shipped from one form, each with its own carrier and
// tracking number: a mistyped tracking number is refused next to its row
// with every row kept as typed, the cancelled order is left out with
// why, and the list then says "3 orders marked as shipped". The same
// ticks print packing slips and export a CSV. With JavaScript on the
// list works the same. Then every back-office page the menu reaches, and
// an order, is opened at 320, 375, 768 and 1280 px in one browser context:
// nothing is wider than the window, the menu is closed above the page
// below 1024 px, order numbers keep to their line, and axe finds nothing
// serious at 375 and 1280 px.
//
// The server runs with PAYMENT_DELAY=0s: the payment's timing is
// checkout.test.js's subject, not this file's.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { AxeBuilder } from '@axe-core/playwright';

import { useShop, browserTest, expectVisible, text, open, sqlString, submit, follow, awaitPayment, WIDE } from '../lib/harness.js';
import { uniqueEmail, pathOf, register, signIn, staffAccount as newStaffAccount } from '../lib/accounts.js';

const PHONE = { width: 375, height: 812 };
const WIDTHS = [320, 375, 768, 1280];
const AXE_WIDTHS = [375, 1280];

/** Posts a form from the page's context (its cookies), for quick set-ups. */
async function postAs(page, action, fields) {
  const res = await page.request.post(new URL(action, page.url()).href, { form: fields, maxRedirects: 0 });
  assert.ok(res.status() < 400, `POST ${action} answered ${res.status()}`);
  return res;
}

/**
 * Measures what the page shows at the window's width: how wide the
 * document is, every element that reaches past the window (unless an
 * ancestor inside the window clips it, as the screen-reader-only table
 * heads are), every box that scrolls sideways, the most lines an order
 * number takes, and where the page's own column starts.
 */
function measure() {
  const width = window.innerWidth;
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
  const clipped = (el) => {
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'hidden' || s.overflowX === 'clip') {
        const r = a.getBoundingClientRect();
        if (r.left >= -0.5 && r.right <= width + 0.5) return true;
      }
    }
    return false;
  };
  const wide = [];
  const scrollers = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && (r.left < -0.5 || r.right > width + 0.5) && !clipped(el)) {
      wide.push(`${name(el)} (${Math.round(r.left)}–${Math.round(r.right)} px)`);
    }
    const s = getComputedStyle(el);
    if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) scrollers.push(name(el));
  }
  let orderLines = 0;
  for (const el of document.querySelectorAll('.order-number, [data-testid="admin-order-row"] a')) {
    orderLines = Math.max(orderLines, el.getClientRects().length);
  }
  const menu = document.querySelector('.admin-menu');
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: width,
    wide: wide.slice(0, 5),
    scrollers,
    orderLines,
    menuOpen: menu ? menu.open : null,
    mainTop: Math.round(document.querySelector('.admin-main')?.getBoundingClientRect().top ?? 0),
  };
}

describe('The back office on a phone', () => {
  const shop = useShop({ env: { PAYMENT_DELAY: '0s' } });
  const staffAccount = (role) => newStaffAccount(shop, role);
  beforeEach((t) => shop.resetRateLimits(t));

  /**
   * A shopper (a throw-away context) who placed one paid order of each
   * cart given ([product, variant] pairs); returns the e-mail and the
   * order numbers, newest last.
   */
  async function shopperWithOrders(carts) {
    const email = uniqueEmail('shopper');
    const context = await shop.newContext({ js: false });
    const ids = [];
    try {
      const page = await context.newPage();
      await register(page, email, 'Grace Hopper');
      const year = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');
      for (const [product, variant] of carts) {
        await open(page, `/product/${product}`);
        await postAs(page, '/cart/items', { product_id: product, quantity: '1', ...(variant ? { variant } : {}) });
        await postAs(page, '/checkout/shipping', {
          firstName: 'Grace', lastName: 'Hopper', email, phone: '+1 555 0199', address: '12 Harbour Lane',
          city: 'Arlington', state: 'VA', zipCode: '22201', country: 'United States',
        });
        await postAs(page, '/checkout/payment', {
          cardNumber: '4242 4242 4242 4242', cardName: 'Grace Hopper', expiryDate: `12/${year}`, cvv: '123', action: 'next',
        });
        await open(page, '/checkout/review');
        const key = await page.locator('input[name=key]').first().inputValue();
        const res = await postAs(page, '/checkout/place', { key });
        const m = /\/orders\/(NOC-[\w-]+)\/status$/.exec(res.headers().location ?? '');
        assert.ok(m, `Place Order led to the order's status page (${res.status()} ${res.headers().location})`);
        await open(page, `/orders/${m[1]}/status`);
        assert.equal(await awaitPayment(page), 'paid');
        ids.push(m[1]);
      }
    } finally {
      await context.close();
    }
    return { email, ids };
  }

  /** Ticks the orders' boxes on the list. */
  async function tick(page, ids) {
    for (const id of ids) await page.getByRole('checkbox', { name: `Select order ${id}` }).check();
  }

  browserTest('bulk-ship 3 orders from the list on a phone, then print their slips and export them [JavaScript off]', async ({ shop: s, t }) => {
    const { email: shopper, ids } = await shopperWithOrders([['nb-001'], ['nb-014', 'nb-014-s-black'], ['nb-002'], ['nb-003']]);
    const [first, jacket, third, gone] = ids;
    const context = await s.newContext({ js: false, viewport: PHONE });
    try {
      const page = await context.newPage();
      await signIn(page, await staffAccount('admin'));
      await open(page, `/admin/orders/${gone}`);
      const cancel = page.getByTestId('cancel-form');
      await cancel.getByRole('textbox', { name: /Reason/ }).fill('Asked by phone');
      // Cancelling is confirmed on a page of its own.
      assert.equal((await submit(page, cancel.getByRole('button', { name: /Cancel order/ }))).status(), 200, 'the confirmation');
      assert.equal((await submit(page, page.getByTestId('confirm-button'))).status(), 303, 'cancelled');

      // The shopper's orders, found by e-mail; all four ticked.
      const list = `/admin/orders?q=${encodeURIComponent(shopper)}`;
      await open(page, list);
      assert.equal(await page.getByTestId('admin-order-row').count(), 4);
      await tick(page, ids);
      assert.equal((await submit(page, page.getByTestId('bulk-ship'))).status(), 200, 'the form, nothing shipped yet');
      const rows = page.getByTestId('bulk-ship-row');
      // In the list's order: newest first, and orders placed in the same
      // second by number, so compared as a set.
      assert.deepEqual((await rows.evaluateAll((els) => els.map((e) => e.dataset.order))).sort(), [first, jacket, third].sort());
      assert.equal(await text(page.getByTestId('bulk-skipped-order')), `${gone}: It was cancelled.`);

      // Each row its own carrier and number; one mistyped.
      const typed = { [first]: ['UPS', '1Z999AA10000001'], [jacket]: ['DHL', 'JD 0002'], [third]: ['FedEx', '7489-0003'] };
      const row = (id) => page.locator(`[data-testid="bulk-ship-row"][data-order="${id}"]`);
      for (const [id, [carrier, tracking]] of Object.entries(typed)) {
        await row(id).getByRole('combobox', { name: 'Carrier' }).selectOption(carrier);
        await row(id).getByRole('textbox', { name: 'Tracking number' }).fill(tracking);
      }
      assert.equal((await submit(page, page.getByTestId('bulk-ship-submit'))).status(), 422, 'refused: a tracking number has a space');
      await expectVisible(page.getByTestId(`tracking-${jacket}-error`), "the error next to the jacket order's tracking number");
      assert.match(await text(page.getByTestId(`tracking-${jacket}-error`)), /4 to 40 letters, digits or dashes/);
      assert.equal(await page.locator('.field-error').count(), 1, 'only that field is marked');
      for (const [id, [carrier, tracking]] of Object.entries(typed)) {
        assert.equal(await row(id).getByRole('combobox', { name: 'Carrier' }).inputValue(), carrier, `${id} keeps its carrier`);
        assert.equal(await row(id).getByRole('textbox', { name: 'Tracking number' }).inputValue(), tracking, `${id} keeps its tracking number`);
      }
      await row(jacket).getByRole('textbox', { name: 'Tracking number' }).fill('JD0002');
      assert.equal((await submit(page, page.getByTestId('bulk-ship-submit'))).status(), 303, 'shipped');
      assert.equal(pathOf(page) + new URL(page.url()).search, list, 'back to the list it came from');
      assert.equal(await text(page.getByTestId('flash')), '3 orders marked as shipped; the shoppers were e-mailed.');
      for (const id of [first, jacket, third]) {
        const r = page.getByTestId('admin-order-row').filter({ has: page.getByRole('link', { name: id, exact: true }) });
        assert.match(await text(r), /\bShipped\b/, `${id} is shipped`);
      }
      const mails = s.queryDB(t, `SELECT subject FROM outbox WHERE recipient = ${sqlString(shopper)} AND subject LIKE '%has shipped'`);
      if (mails) assert.equal(mails.length, 3, 'one e-mail an order');

      // Packing slips of two of them: their addresses and lines, no menus.
      await tick(page, [jacket, third]);
      await follow(page, page.getByTestId('bulk-slips'));
      assert.equal(pathOf(page), '/admin/orders/bulk/packing-slips');
      const slips = page.getByTestId('packing-slip');
      assert.deepEqual((await slips.evaluateAll((els) => els.map((e) => e.dataset.order))).sort(), [jacket, third].sort());
      const slip = page.locator(`[data-testid="packing-slip"][data-order="${jacket}"]`);
      assert.match(await text(slip.getByTestId('slip-address')), /^Grace Hopper 12 Harbour Lane Arlington, VA 22201 United States/);
      assert.match(await text(slip.getByTestId('slip-line')), /Size: S \/ Colour: Black 1$/);
      assert.equal(await page.locator('.topbar, .admin-nav, footer').count(), 0, 'nothing but the slips to print');
      const { scrollWidth, innerWidth } = await page.evaluate(measure);
      assert.ok(scrollWidth <= innerWidth, `the slips are ${scrollWidth} px wide at ${innerWidth} px`);

      // The CSV of the same selection.
      await open(page, list);
      await tick(page, [first, gone]);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bulk-csv').click()]);
      assert.match(download.suggestedFilename(), /^orders-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = await readFile(await download.path(), 'utf8');
      assert.ok(csv.startsWith('\uFEFFOrder,Placed (UTC),Email,'), 'a byte order mark, then the header');
      const lines = csv.trim().split(/\r?\n/);
      assert.equal(lines.length, 3);
      assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]).sort(), [first, gone].sort());
      assert.match(lines.find((l) => l.startsWith(first)), /,'\+1 555 0199,/, 'a phone number starting with + is text, not a formula');
    } finally {
      await context.close();
    }
  });

  browserTest('the orders list with JavaScript on: tick an order, print its slip', async ({ shop: s }) => {
    const { email: shopper, ids } = await shopperWithOrders([['nb-005']]);
    const context = await s.newContext({ js: true, viewport: WIDE });
    const errors = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (err) => errors.push(err.message));
      await signIn(page, await staffAccount('fulfilment'));
      await open(page, `/admin/orders?q=${encodeURIComponent(shopper)}`);
      await expectVisible(page.getByTestId('bulk-actions'), 'the bulk actions');
      await expectVisible(page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Orders' }), 'the side menu, open at 1280 px');
      await tick(page, ids);
      await follow(page, page.getByTestId('bulk-slips'));
      assert.equal(await page.getByTestId('packing-slip').count(), 1);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  browserTest('every back-office page fits 320, 375, 768 and 1280 px, and passes axe at 375 and 1280', async ({ shop: s }) => {
    const { ids } = await shopperWithOrders([['nb-006']]);
    const email = await staffAccount('admin');
    // One crawl in one context: each page is loaded once and measured at
    // every width by resizing the window. The back office loads no script;
    // axe needs JavaScript in the page, so the context runs it but blocks
    // the shop's scripts, as for a visitor who has them off.
    const context = await s.newContext({ js: true, blockScripts: true, viewport: { width: WIDTHS[0], height: 800 } });
    try {
      const page = await context.newPage();
      await signIn(page, email);
      await open(page, '/admin');
      // The menu is closed at this width: its links are read, not seen.
      const nav = await page.locator('.admin-nav a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.ok(nav.length >= 10, `the menu reaches ${nav.length} pages`);
      const pages = [...nav, `/admin/orders/${ids[0]}`];
      const problems = [];
      for (const p of pages) {
        await page.setViewportSize({ width: WIDTHS[0], height: 800 });
        await open(page, p);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 800 });
          const m = await page.evaluate(measure);
          const where = `${p} at ${width} px`;
          if (m.scrollWidth > m.innerWidth) problems.push(`${where}: the page is ${m.scrollWidth} px wide`);
          if (m.wide.length) problems.push(`${where}: wider than the window: ${m.wide.join(', ')}`);
          if (m.scrollers.length) problems.push(`${where}: scrolls sideways: ${m.scrollers.join(', ')}`);
          if (m.orderLines > 2) problems.push(`${where}: an order number takes ${m.orderLines} lines`);
          if (width < 1024 && (m.menuOpen !== false || m.mainTop > 200)) {
            problems.push(`${where}: the menu is ${m.menuOpen ? 'open' : 'closed'} and the page starts ${m.mainTop} px down`);
          }
          if (AXE_WIDTHS.includes(width)) {
            // Buttons can still be fading to their colours just after a
            // load; axe would measure the contrast of a colour on its way.
            await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
            const { violations } = await new AxeBuilder({ page }).analyze();
            for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
              problems.push(`${where}: axe ${v.id} (${v.impact}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
            }
          }
        }
      }
      assert.deepEqual(problems, []);
      // The menu opens, without JavaScript, where it is one.
      await page.setViewportSize(PHONE);
      await open(page, '/admin/orders');
      const menu = page.getByRole('navigation', { name: 'Back office' });
      await page.getByTestId('admin-menu-toggle').click();
      await follow(page, menu.getByRole('link', { name: 'Audit log' }));
      assert.equal(pathOf(page), '/admin/audit');
    } finally {
      await context.close();
    }
  });
});
