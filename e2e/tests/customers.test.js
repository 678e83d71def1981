// Customers and the accountant's exports. An admin (made with the server
// binary's `staff add` command) exports a month of orders from
// /admin/exports and reads the CSV back: the byte order mark, the header,
// the guest's order of this month and not the one of last month, and the
// guest's name and e-mail, which a spreadsheet would run as a formula,
// with a leading apostrophe. The admin finds a shopper in /admin/customers
// by e-mail, opens their page, sees the order they placed signed in and
// the one they placed as a guest with the same address, and saves a staff
// note. The back office runs with JavaScript off; one smoke runs with it
// on; axe checks the customer list and the exports page.
//
// The server runs with PAYMENT_DELAY=0s: the payment's timing is
// checkout.test.js's subject, not this file's.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import {
  useShop, browserTest, checkA11y, expectVisible, text, open, submit, follow, sqlString,
  NARROW,
} from '../lib/harness.js';
import { uniqueEmail, pathOf, register, signIn, orderAs, staffAccount } from '../lib/accounts.js';

const ZONE = 'America/New_York'; // the shop's time zone (SHOP_TIMEZONE's default)
const HOSTILE_NAME = '=HYPERLINK("http://evil.example","Click")';

/** This month in the shop's time zone: its first and last day, YYYY-MM-DD. */
function thisMonth() {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const [y, m] = today.split('-').map(Number);
  const pad = (n) => String(n).padStart(2, '0');
  return { first: `${y}-${pad(m)}-01`, last: `${y}-${pad(m)}-${pad(new Date(Date.UTC(y, m, 0)).getUTCDate())}` };
}

/** Reads RFC 4180 CSV (CRLF line ends, quoted values) into rows. */
function parseCSV(s) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && s[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** A downloaded file's rows, after checking its byte order mark. */
function csvRows(bytes) {
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the file starts with the UTF-8 byte order mark');
  return parseCSV(bytes.subarray(3).toString('utf8'));
}

async function continueAsGuest(page) {
  await open(page, '/login');
  await submit(page, page.getByTestId('continue-guest'));
}

/** Buys one lamp as whoever page is (an account or a guest); returns the order's number. */
function placeOrder(page, { email, firstName = 'Grace', lastName = 'Hopper' }) {
  return orderAs(page, { email, firstName, lastName });
}

describe('Customers and exports', () => {
  const shop = useShop({ env: { PAYMENT_DELAY: '0s' } });
  const adminAccount = () => staffAccount(shop, 'admin');
  beforeEach((t) => shop.resetRateLimits(t));

  /** Runs fn with a page of a fresh context of its own. */
  async function withPage(options, fn) {
    const context = await shop.newContext(options);
    try {
      return await fn(await context.newPage());
    } finally {
      await context.close();
    }
  }

  browserTest('export a month of orders and read the CSV back [JavaScript off]', async ({ t }) => {
    const admin = await adminAccount();
    const { first, last } = thisMonth();
    // A guest whose name and address a spreadsheet would run.
    const hostile = `-${uniqueEmail('minus')}`;
    const guestOrder = await withPage({ js: false }, async (page) => {
      await continueAsGuest(page);
      return placeOrder(page, { email: hostile, firstName: HOSTILE_NAME, lastName: 'Me' });
    });
    // The same order a month and more before: outside this month.
    const oldOrder = `${guestOrder}-OLD`;
    const before = Math.floor(Date.parse(`${first}T00:00:00Z`) / 1000) - 10 * 86400;
    assert.ok(shop.queryDB(t, `CREATE TEMP TABLE old AS SELECT * FROM orders WHERE id = ${sqlString(guestOrder)};
      UPDATE old SET id = ${sqlString(oldOrder)}, idempotency_key = ${sqlString(`${oldOrder}-key`)}, created_at = ${before};
      INSERT INTO orders SELECT * FROM old;`), 'the older order is stored with sqlite3');

    await withPage({ js: false }, async (page) => {
      await signIn(page, admin);
      await open(page, '/admin');
      await follow(page, page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Exports' }));
      assert.equal(pathOf(page), '/admin/exports');

      const form = page.getByTestId('export-orders');
      await form.getByLabel(/^First day/).fill(first);
      await form.getByLabel(/^Last day/).fill(last);
      const [download] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download orders (CSV)' }).click()]);
      assert.equal(download.suggestedFilename(), `orders-${first}-to-${last}.csv`);
      const rows = csvRows(await readFile(await download.path()));
      assert.deepEqual(rows[0], ['Order', 'Date', 'Status', 'Payment status', 'Currency', 'Subtotal', 'Discount', 'Shipping', 'Tax', 'Total', 'Refunded', 'E-mail', 'Country']);
      const ids = rows.slice(1).map((r) => r[0]);
      assert.ok(ids.includes(guestOrder), `this month's order ${guestOrder} is in the file`);
      assert.ok(!ids.includes(oldOrder), 'last month\'s order is not');
      assert.equal(new Set(ids).size, ids.length, 'one row per order');
      const row = rows.find((r) => r[0] === guestOrder);
      assert.equal(row[11], `'${hostile}`, 'an e-mail starting with - gets a leading apostrophe');
      assert.match(row[1], new RegExp(`^${first.slice(0, 8)}\\d\\d \\d\\d:\\d\\d:\\d\\d$`), 'the date is this month\'s');
      assert.deepEqual([row[2], row[3], row[4], row[12]], ['processing', 'paid', 'USD', 'United States']);
      for (const i of [5, 6, 7, 8, 9, 10]) assert.match(row[i], /^-?\d+\.\d\d$/, `amount ${rows[0][i]} is a plain number: ${row[i]}`);

      // The customers of the month: the guest's name, neutralised too.
      const res = await page.request.get(`/admin/exports/customers.csv?from=${first}&to=${last}`);
      assert.equal(res.status(), 200);
      assert.match(res.headers()['content-disposition'], new RegExp(`^attachment; filename="customers-${first}-to-${last}\\.csv"$`));
      const customers = csvRows(await res.body());
      const guest = customers.find((r) => r[0] === `'${hostile}`);
      assert.ok(guest, 'the guest is a customer by e-mail');
      assert.deepEqual(guest.slice(1, 5), [`'${HOSTILE_NAME} Me`, `'${hostile}`, 'yes', '1']);

      // Days that do not read are refused next to their field.
      await open(page, '/admin/exports');
      const lines = page.getByTestId('export-order-lines');
      await lines.getByLabel(/^First day/).fill(last);
      await lines.getByLabel(/^Last day/).fill(first);
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/admin/exports/order-lines.csv')),
        follow(page, lines.getByRole('button', { name: 'Download order lines (CSV)' })),
      ]);
      assert.equal(refused.status(), 422);
      await expectVisible(page.getByTestId('export-order-lines').getByText('The last day cannot be before the first.'), 'the message next to the last day');

    });
  });

  browserTest('find a customer, see their orders and save a note [JavaScript off]', async () => {
    const admin = await adminAccount();
    const shopper = uniqueEmail('shopper');
    const own = await withPage({ js: false }, async (page) => {
      await register(page, shopper);
      return placeOrder(page, { email: shopper });
    });
    const asGuest = await withPage({ js: false }, async (page) => {
      await continueAsGuest(page);
      return placeOrder(page, { email: shopper, firstName: 'Grace', lastName: 'At Work' });
    });

    await withPage({ js: false, viewport: NARROW }, async (page) => {
      await signIn(page, admin);
      await open(page, '/admin/customers');
      const search = page.getByTestId('customer-search');
      await search.getByRole('searchbox', { name: 'Name or e-mail' }).fill(shopper.toUpperCase());
      await follow(page, search.getByRole('button', { name: 'Search' }));
      const cards = page.getByTestId('customer');
      assert.equal(await cards.count(), 1, 'the search finds the shopper');
      assert.equal(await text(cards.first().getByTestId('customer-orders')), '2', 'both orders count, the guest one too');
      // A phone's width: cards, no sideways scrolling.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing scrolls sideways');

      await follow(page, cards.first().getByRole('link', { name: 'Night Owl' }));
      const orders = page.getByTestId('customer-order');
      assert.deepEqual(await orders.evaluateAll((els) => els.map((e) => e.dataset.id)), [asGuest, own]);
      await expectVisible(orders.first().getByTestId('guest-order'), 'the guest checkout marked');
      assert.equal(await orders.nth(1).getByTestId('guest-order').count(), 0);

      const form = page.getByTestId('note-form');
      await form.getByRole('textbox', { name: 'Note' }).fill('Prefers a call after 5 pm.');
      const res = await submit(page, form.getByRole('button', { name: 'Save note' }));
      assert.equal(res.status(), 303);
      assert.equal(await text(page.getByTestId('flash')), 'Note saved.');
      assert.equal(await page.getByTestId('note-form').getByRole('textbox', { name: 'Note' }).inputValue(), 'Prefers a call after 5 pm.');
      assert.match(await text(page.getByTestId('note-saved')), new RegExp(`by ${admin.replace(/[.]/g, '\\.')}`));
    });
  });

  browserTest('the customers and exports with JavaScript on (smoke)', async () => {
    const admin = await adminAccount();
    const { first, last } = thisMonth();
    await withPage({ js: true }, async (page) => {
      await signIn(page, admin);
      await open(page, '/admin/customers');
      await expectVisible(page.getByRole('heading', { name: 'Customers', exact: true }), 'the customer list');
      const search = page.getByTestId('customer-search');
      await search.getByRole('searchbox', { name: 'Name or e-mail' }).fill(admin);
      await follow(page, search.getByRole('button', { name: 'Search' }));
      await follow(page, page.getByTestId('customer').first().getByRole('link').first());
      assert.match(pathOf(page), /^\/admin\/customers\/usr_/);
      await open(page, '/admin/exports');
      const form = page.getByTestId('export-customers');
      await form.getByLabel(/^First day/).fill(first);
      await form.getByLabel(/^Last day/).fill(last);
      const [download] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download customers (CSV)' }).click()]);
      const rows = csvRows(await readFile(await download.path()));
      assert.deepEqual(rows[0], ['Customer', 'Name', 'E-mail', 'Guest', 'Orders', 'Total spent', 'Last order']);
    });
  });

  browserTest('the customer list and the exports page pass axe', async () => {
    const admin = await adminAccount();
    const setup = (page) => signIn(page, admin);
    await checkA11y('/admin/customers', { setup, noScript: true });
    await checkA11y('/admin/customers', { setup, viewport: NARROW, noScript: true });
    await checkA11y('/admin/exports', { setup, noScript: true });
    // A refused range, with its messages next to the fields.
    await checkA11y('/admin/exports/orders.csv?from=2026-11-30&to=2026-11-01', { setup, noScript: true });
  });
});
