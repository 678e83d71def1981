// The catalogue file: an admin (made with the server binary's `staff add`
// command) uploads a Shopify product CSV in the back office, with a
// product of two options of three values each whose photos live on another
// host, here a loopback server made in this file; the answer is the
// import's report, with the file's bad row by its line; the product is on
// sale at once, with its options to choose from, and its photos, fetched
// after the answer, are served from the shop's own origin. The download
// gives the product back. The back office runs with JavaScript off; one
// smoke runs with it on; axe checks the catalogue file page and the report.

import { describe, beforeEach, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';

import { useShop, browserTest, checkA11y, expectVisible, text, open, sqlString, WAIT_MS, submit } from '../lib/harness.js';
import { signIn, staffAccount } from '../lib/accounts.js';

// Fetching and resizing the photos runs after the import answered, behind
// whatever else the machine does: the wait is for the photo to be served,
// bounded generously so only a shop that never stores it fails.
const PHOTO_WAIT_MS = 6 * WAIT_MS;

// ---------------------------------------------------------------------------
// Photos on another host: small PNGs, one colour each.

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(w, h, [r, g, b]) {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) raw.set([r, g, b], y * (w * 3 + 1) + 1 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PHOTOS = {
  '/brass.png': png(480, 360, [181, 140, 60]),
  '/steel.png': png(360, 360, [150, 155, 160]),
  '/walnut.png': png(400, 300, [110, 70, 40]),
};

let photoHost;
let photoBase;

// ---------------------------------------------------------------------------
// The file: one product, Size × Finish, 3 × 3 variants, of which the row
// of Large / Walnut has no price (line 10) and is skipped.

function productCSV(handle, title) {
  const head = 'Handle,Title,Body (HTML),Vendor,Type,Tags,Published,Option1 Name,Option1 Value,Option2 Name,Option2 Value,' +
    'Variant SKU,Variant Price,Variant Compare At Price,Variant Inventory Qty,Image Src,Image Position,Image Alt Text,Variant Image,Status';
  const rows = [head];
  const finishes = ['Brass', 'Steel', 'Walnut'];
  let n = 0;
  for (const size of ['Small', 'Medium', 'Large']) {
    for (const finish of finishes) {
      n++;
      const price = size === 'Large' ? (finish === 'Walnut' ? '' : '64.00') : size === 'Medium' ? '52.00' : '45.00';
      const image = `${photoBase}/${finish.toLowerCase()}.png`;
      const img = n <= 3 ? [image, String(n), `${title} in ${finish.toLowerCase()}`] : ['', '', ''];
      const first = n === 1
        ? [title, '"<p>A lamp for <strong>late</strong> reading.</p><script>steal()</script>"', 'Nocturne', 'Lighting', '"night, lamp"', 'TRUE', 'Size']
        : ['', '', '', '', '', '', ''];
      rows.push([handle, ...first, size, n === 1 ? 'Finish' : '', finish, `${handle}-${n}`, price, '', '4', ...img, image, n === 1 ? 'active' : ''].join(','));
    }
  }
  return rows.join('\n') + '\n';
}

function uniqueHandle(label) {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}


/** Uploads a catalogue file from /admin/catalog and returns the answer. */
async function upload(page, name, csv) {
  await open(page, '/admin/catalog');
  const form = page.getByTestId('catalog-import-form');
  await form.getByLabel(/^Product CSV/).setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  return submit(page, form.getByRole('button', { name: 'Import' }));
}

describe('Catalogue file', () => {
  const shop = useShop({ env: { IMAGE_FETCH_ALLOW_PRIVATE: 'true' } });
  const adminAccount = () => staffAccount(shop, 'admin');
  beforeEach((t) => shop.resetRateLimits(t));

  before(async () => {
    photoHost = http.createServer((req, res) => {
      const body = PHOTOS[new URL(req.url, 'http://x').pathname];
      if (!body) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': body.length }).end(body);
    });
    await new Promise((resolve) => photoHost.listen(0, '127.0.0.1', resolve));
    photoBase = `http://127.0.0.1:${photoHost.address().port}`;
  });
  after(() => new Promise((resolve) => (photoHost ? photoHost.close(resolve) : resolve())));

  /** The product's page as a shopper sees it, once its photo is stored. */
  async function productPageWithPhoto(page, handle) {
    // The photos are fetched after the import answered: wait for the shop
    // to show the product's own photo as its main one. The gallery's
    // thumbnails, read from the store, can show a photo a moment before
    // the reloaded catalogue holds the cover: only the main photo says it
    // is done. Polled from here: with JavaScript off the page runs no
    // timers, so a wait inside it would look once.
    const deadline = Date.now() + PHOTO_WAIT_MS;
    for (;;) {
      const html = await (await page.request.get(`/product/${handle}`)).text();
      const main = /id="photo"[^>]*>[\s\S]*?<img src="([^"]*)"/.exec(html);
      if (main && main[1].startsWith(`/img/${handle}/`)) break;
      assert.ok(Date.now() < deadline, `the product's photo is not its main one yet: ${main && main[1]}`);
      await sleep(250);
    }
    await open(page, `/product/${handle}`);
  }


  browserTest('an admin imports a product with 2 options × 3 values; its page shows it [JavaScript off]', async ({ shop: s }) => {
    const email = await adminAccount();
    const handle = uniqueHandle('reading-lamp');
    const context = await s.newContext({ js: false });
    try {
      const page = await context.newPage();
      await signIn(page, email);
      await open(page, '/admin');
      const nav = page.getByRole('navigation', { name: 'Back office' });
      await Promise.all([page.waitForEvent('load'), nav.getByRole('link', { name: 'Catalogue file' }).click()]);
      assert.equal(new URL(page.url()).pathname, '/admin/catalog');

      const res = await upload(page, 'lamps.csv', productCSV(handle, 'Reading Lamp'));
      assert.equal(res.status(), 200, 'the report is the answer');
      await expectVisible(page.getByRole('heading', { name: 'Import of lamps.csv' }), 'the report');
      assert.equal(await text(page.getByTestId('import-summary')), '1 product new, 0 products updated, 1 line skipped.');
      const skipped = page.getByTestId('import-skipped').locator('tbody tr');
      assert.equal(await skipped.count(), 1);
      assert.equal(await text(skipped.locator('th')), '10');
      assert.match(await text(skipped), /Variant Price is empty/);
      await expectVisible(page.getByTestId('import-created').getByRole('link', { name: handle }), 'the new product');

      // The audit log has it.
      await open(page, '/admin/audit');
      assert.match(await text(page.getByTestId('audit-entry').first()), new RegExp(`catalog\\.import lamps\\.csv .*${handle}`));

      // The download gives the product back with its eight variants.
      const csv = await (await page.request.get('/admin/catalog/export.csv')).text();
      assert.equal(csv.split('\n').filter((l) => l.startsWith(`${handle},`)).length, 8);
      assert.match(csv.split('\n')[0], /,Status,Exported Inventory Qty$/);

      // A shopper, also without JavaScript, sees the product and its photo,
      // served from the shop's own origin; the body's script is gone.
      const shopper = await (await s.newContext({ js: false })).newPage();
      try {
        await productPageWithPhoto(shopper, handle);
        assert.equal(await text(shopper.getByTestId('product-title')), 'Reading Lamp');
        assert.equal(await text(shopper.getByTestId('description')), 'A lamp for late reading.');
        assert.match(await text(shopper.getByTestId('stock')), /^(In stock|Only \d+ left)$/);
        // Its options, as the file has them, to choose from.
        const groups = shopper.getByTestId('option-group');
        assert.equal(await groups.count(), 2);
        for (const [i, [name, values]] of [['Size', ['Small', 'Medium', 'Large']], ['Finish', ['Brass', 'Steel', 'Walnut']]].entries()) {
          assert.match(await text(groups.nth(i).locator('.option-name')), new RegExp(`^${name}:`));
          assert.deepEqual(await groups.nth(i).getByTestId('option-value').evaluateAll((els) => els.map((e) => e.dataset.value)), values);
        }
        assert.equal(await text(shopper.getByTestId('category-link')), 'Lighting');
        const img = shopper.getByTestId('product-detail').locator('img').first();
        assert.match(await img.getAttribute('src'), new RegExp(`^/img/${handle}/\\d+\\.jpg\\?v=`));
        assert.equal(await img.getAttribute('alt'), 'Reading Lamp in brass', 'the photo shown is described by its own alt text');
        const photo = await shopper.request.get(await img.getAttribute('src'));
        assert.equal(photo.status(), 200);
        assert.equal(photo.headers()['content-type'], 'image/jpeg');
      } finally {
        await shopper.context().close();
      }
    } finally {
      await context.close();
    }
  });

  browserTest('an admin imports a product with JavaScript on (smoke)', async ({ shop: s }) => {
    const email = await adminAccount();
    const handle = uniqueHandle('desk-lamp');
    const context = await s.newContext({ js: true });
    try {
      const page = await context.newPage();
      await signIn(page, email);
      const res = await upload(page, 'desk.csv', productCSV(handle, 'Desk Lamp'));
      assert.equal(res.status(), 200);
      assert.equal(await text(page.getByTestId('import-summary')), '1 product new, 0 products updated, 1 line skipped.');
      await productPageWithPhoto(page, handle);
      assert.equal(await text(page.getByTestId('product-title')), 'Desk Lamp');
      const naturalWidth = await page.getByTestId('product-detail').locator('img').first().evaluate((el) => el.complete && el.naturalWidth);
      assert.ok(naturalWidth > 0, 'the photo loads in the browser');
    } finally {
      await context.close();
    }
  });

  browserTest('the catalogue file page and the report pass axe', async () => {
    const email = await adminAccount();
    const setup = (page) => signIn(page, email);
    await checkA11y('/admin/catalog', { setup, noScript: true });
    await checkA11y('/admin/catalog', {
      setup,
      noScript: true,
      prepare: async (page) => {
        const res = await upload(page, 'axe.csv', productCSV(uniqueHandle('axe-lamp'), 'Axe Lamp'));
        assert.equal(res.status(), 200);
      },
    });
    // A refused upload, with its message next to the field.
    await checkA11y('/admin/catalog', {
      setup,
      noScript: true,
      prepare: async (page) => {
        await open(page, '/admin/catalog');
        const form = page.getByTestId('catalog-import-form');
        await form.getByLabel(/^Product CSV/).setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from('name,price\nx,1\n') });
        const res = await submit(page, form.getByRole('button', { name: 'Import' }));
        assert.equal(res.status(), 422);
      },
    });
  });
});
