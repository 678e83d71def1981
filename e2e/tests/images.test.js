// Imported product photos: a catalogue file whose images live on
// another host is imported with the binary's `catalog import` command; the
// shop fetches each photo once, stores resized WebP and JPEG variants and
// serves them from its own origin. The photos' host here is a loopback
// server made in this file, serving PNGs drawn in this file; one of its
// "images" is an HTML page, which must fall back to the category's
// illustration.

import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { after } from 'node:test';

import { useShop, forEachMode, browserTest, checkA11y, open, E2E_DIR, WIDE, WAIT_MS } from '../lib/harness.js';

const PHONE = { width: 375, height: 812 };
const PHOTOS = 14; // a full first page of 12 and two on the next
const BROKEN_ID = 'broken';
// The gallery product's photos are the first five drawn for the listing.
const GALLERY_ID = 'gallery-lamp';

// ---------------------------------------------------------------------------
// Photo-like PNGs: an item lit on a pale backdrop, with some grain so the
// encoders meet something closer to a photo than a flat drawing.

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(w, h, seed) {
  let rnd = seed * 7919 + 17;
  const noise = () => {
    rnd = (rnd * 1103515245 + 12345) & 0x7fffffff;
    return (rnd % 25) - 12;
  };
  const hue = [(seed * 53) % 200, (seed * 97) % 200, (seed * 31) % 200];
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < w; x++) {
      const dx = (x - w / 2) / (w * 0.32);
      const dy = (y - h / 2) / (h * 0.4);
      const inside = dx * dx + dy * dy < 1;
      const shade = 1 - 0.35 * (x / w) - 0.2 * (y / h);
      for (let c = 0; c < 3; c++) {
        const base = inside ? 40 + hue[c] * shade : 246 - 10 * (y / h);
        raw[row + 1 + x * 3 + c] = Math.max(0, Math.min(255, Math.round(base + (inside ? noise() : noise() / 4))));
      }
    }
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

// Source sizes like a real catalogue's: 600 to 1,500 px, square and not.
const SIZES = [
  [1000, 1000], [800, 1000], [1200, 900], [600, 800], [1500, 1500], [700, 700], [900, 1200],
];

const products = Array.from({ length: PHOTOS }, (_, i) => ({
  id: `p${String(i + 1).padStart(2, '0')}`,
  title: `Imported Item ${i + 1}`,
  price: 10 + i,
  category: i % 2 ? "men's clothing" : 'electronics',
  size: SIZES[i % SIZES.length],
}));
const GALLERY = products.slice(0, 5);

// ---------------------------------------------------------------------------
// The photos' host, and the import before the shop starts

let photoHost;
let workDir;

// PHOTO_DIR=/some/jpegs serves those files instead of the drawn PNGs (in
// turn), to measure the byte budget with real photos; CI uses the PNGs.
function photoBodies() {
  const dir = process.env.PHOTO_DIR;
  if (!dir) return new Map(products.map((p, i) => [`/${p.id}.png`, png(p.size[0], p.size[1], i + 1)]));
  const files = readdirSync(dir).filter((f) => /\.(jpe?g|png)$/i.test(f)).map((f) => readFileSync(path.join(dir, f)));
  return new Map(products.map((p, i) => [`/${p.id}.png`, files[i % files.length]]));
}

function startPhotoHost() {
  const bodies = photoBodies();
  const srv = http.createServer((req, res) => {
    if (req.url === `/${BROKEN_ID}.jpg`) {
      res.writeHead(200, { 'Content-Type': 'image/jpeg' });
      res.end('<!doctype html><title>Not found</title><p>This page is not an image.</p>');
      return;
    }
    const body = bodies.get(req.url);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': body.length }); // as a careless host would
    res.end(body);
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

function run(bin, args, env) {
  return new Promise((resolve, reject) => {
    // Asynchronous: the photo host answers from this same process.
    const p = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

let importOutput = '';
let galleryOutput = '';

async function importCatalogue() {
  photoHost = await startPhotoHost();
  const host = `http://127.0.0.1:${photoHost.address().port}`;
  workDir = await mkdtemp(path.join(os.tmpdir(), 'nocturne-images-'));
  const items = products.map((p) => ({
    id: p.id, title: p.title, price: p.price, description: `A photo of ${p.title}.`, category: p.category,
    image: `${host}/${p.id}.png`, rating: { rate: 4.2, count: 10 },
  }));
  items.push({ id: BROKEN_ID, title: 'Item With A Broken Photo', price: 99, description: 'Its image is an HTML page.',
    category: "men's clothing", image: `${host}/${BROKEN_ID}.jpg`, rating: { rate: 4, count: 3 } });
  const file = path.join(workDir, 'catalogue.json');
  await writeFile(file, JSON.stringify(items));
  const databaseURL = `sqlite://${path.join(workDir, 'shop.db')}`;
  const bin = path.resolve(E2E_DIR, process.env.STOREFRONT_BIN || '../bin/storefront');
  importOutput = await run(bin, ['catalog', 'import', file], {
    PATH: process.env.PATH ?? '/usr/bin:/bin', DATA_DIR: workDir, DATABASE_URL: databaseURL,
    IMAGE_FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'error',
  });
  // A product with a gallery of five photos, in the back office's product
  // CSV, imported on top.
  const csv = [
    'Handle,Title,Body (HTML),Vendor,Type,Tags,Published,Option1 Name,Option1 Value,Variant SKU,Variant Price,Variant Inventory Qty,Image Src,Image Position,Image Alt Text,Status',
    ...GALLERY.map((p, i) => i === 0
      ? `${GALLERY_ID},Gallery Lamp,A lamp with five photos.,Nocturne,Lighting,,TRUE,Title,Default Title,${GALLERY_ID}-1,48.00,5,${host}/${p.id}.png,1,Gallery Lamp photo 1,active`
      : `${GALLERY_ID},,,,,,,,,,,,${host}/${p.id}.png,${i + 1},Gallery Lamp photo ${i + 1},`),
  ].join('\n') + '\n';
  const csvFile = path.join(workDir, 'gallery.csv');
  await writeFile(csvFile, csv);
  galleryOutput = await run(bin, ['catalog', 'import', csvFile], {
    PATH: process.env.PATH ?? '/usr/bin:/bin', DATA_DIR: workDir, DATABASE_URL: databaseURL,
    IMAGE_FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'error',
  });
  // The shop starts on the database the imports filled.
  return { DATABASE_URL: databaseURL };
}

after(async () => {
  photoHost?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------

/**
 * Scrolls every image matched into view, one by one (lazy images load as
 * they near the viewport; with JavaScript the grid may grow meanwhile),
 * waits until each has loaded and returns each one's currentSrc and
 * naturalWidth.
 */
async function loadAll(page, selector) {
  // Polled from here: with JavaScript off the page runs no timers.
  const all = page.locator(selector);
  const out = [];
  for (let i = 0; ; i++) {
    if (i >= (await all.count())) {
      await sleep(500); // let an infinite scroll append its next page
      if (i >= (await all.count())) return out;
    }
    const el = all.nth(i);
    await el.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const info = await el.evaluate((e) => ({
        id: e.closest('[data-product-id]')?.dataset.productId,
        src: e.currentSrc,
        naturalWidth: e.naturalWidth,
        complete: e.complete,
      }));
      if ((info.complete && info.src) || Date.now() > deadline) {
        out.push(info);
        break;
      }
      await sleep(50);
    }
  }
}

function assertLoaded(images, what) {
  assert.ok(images.length > 0, `no image on ${what}`);
  for (const img of images) assert.ok(img.naturalWidth > 0, `${img.src} on ${what} did not load`);
}

describe('imported product photos', () => {
  const shop = useShop({ env: importCatalogue });

  browserTest('the import reports the photo that failed beside the items skipped', () => {
    assert.match(importOutput, new RegExp(`imported ${PHOTOS + 1} products \\(0 skipped, 1 images failed\\)`));
    assert.match(importOutput, new RegExp(`images: ${PHOTOS + 1}/${PHOTOS + 1} fetched, 1 failed`));
  });

  for (const viewport of [PHONE, WIDE]) {
    forEachMode(`every photo on /products loads from our origin at ${viewport.width} px`, async ({ page, shop }) => {
      await open(page, '/products');
      const images = await loadAll(page, '[data-testid="product-card"] img');
      assertLoaded(images, '/products');
      // JavaScript off: the first page of 12; on: the grid scrolls on to all.
      assert.ok(images.length >= 12, `${images.length} cards`);
      for (const { id, src } of images) {
        if (id === BROKEN_ID) assert.match(src, /\/static\/img\/categories\/fashion\.[^/]+\.svg$/);
        else assert.ok(src.startsWith(`${shop.baseURL}/img/${id}/`), `${id}: ${src} is not our stored photo`);
      }
      // The browser picks a variant near the drawn size: a phone's one
      // column needs 480 px, a laptop's four-column grid 320 px.
      const widths = images.filter((i) => i.id !== BROKEN_ID).map((i) => Number(/\/(\d+)\.(webp|jpg)/.exec(i.src)[1]));
      assert.ok(Math.max(...widths) <= (viewport === PHONE ? 480 : 320), `variants picked: ${widths}`);
    }, { viewport });

    forEachMode(`a product page's photo and a failed photo's illustration load at ${viewport.width} px`, async ({ page, shop }) => {
      await open(page, '/product/p03');
      const main = page.locator('[data-testid="product-detail"] img');
      assertLoaded(await loadAll(page, '[data-testid="product-detail"] img'), '/product/p03');
      assert.equal(await main.getAttribute('alt'), 'Imported Item 3');
      assert.equal(await main.getAttribute('fetchpriority'), 'high');
      assert.ok((await main.evaluate((el) => el.currentSrc)).startsWith(`${shop.baseURL}/img/p03/`));
      // Shown whole (contained, not cropped) on the light photo tile.
      const style = await main.evaluate((el) => ({ fit: getComputedStyle(el).objectFit, bg: getComputedStyle(el).backgroundColor }));
      assert.deepEqual(style, { fit: 'contain', bg: 'rgb(242, 241, 238)' });

      await open(page, `/product/${BROKEN_ID}`);
      const [fallback] = await loadAll(page, '[data-testid="product-detail"] img');
      assertLoaded([fallback], `/product/${BROKEN_ID}`);
      assert.match(fallback.src, /\/static\/img\/categories\/fashion\.[^/]+\.svg$/);
    }, { viewport });
  }

  for (const [what, url] of [['/products', '/products'], ['a product page with a gallery', `/product/${GALLERY_ID}`]]) {
  browserTest(`a 375 px phone downloads at most 100 KB of images for the first screen of ${what}`, async ({ shop, t }) => {
    if (url !== '/products') assert.match(galleryOutput, /photos: 5 images: .* 0 failed/, galleryOutput);
    const totals = [];
    for (const deviceScaleFactor of [1, 2, 3]) {
      const context = await shop.browser.newContext({ viewport: PHONE, deviceScaleFactor, baseURL: shop.baseURL, isMobile: true, hasTouch: true });
      try {
        const page = await context.newPage();
        const sizes = [];
        page.on('requestfinished', async (req) => {
          if (req.resourceType() === 'image') sizes.push((await req.sizes()).responseBodySize);
        });
        await page.goto(url, { waitUntil: 'networkidle' });
        if (url !== '/products') {
          assert.equal(await page.getByTestId('gallery-thumb').count(), 5, 'the gallery shows five thumbnails');
        }
        const total = sizes.reduce((a, b) => a + b, 0);
        t.diagnostic(`DPR ${deviceScaleFactor}: ${sizes.length} images, ${total} bytes (${(total / 1024).toFixed(1)} KB)`);
        totals.push([deviceScaleFactor, total]);
      } finally {
        await context.close();
      }
    }
    for (const [dpr, total] of totals) assert.ok(total <= 100 * 1024, `DPR ${dpr}: ${total} bytes of images`);
  });
  }

  browserTest('axe: /products and a product page with photos', async () => {
    await checkA11y('/products');
    await checkA11y('/product/p01');
  });
});
