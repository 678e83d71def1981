// Shopper polish: phones at 320–768 px, the JavaScript
// enhancements' rough edges, search that forgives and honest copy. Journeys
// that exist with and without JavaScript run in both modes (forEachMode);
// phone layouts run at 375 px.

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
  E2E_DIR,
  CAREERS_URL,
  WAIT_MS,
  awaitPayment,
} from '../lib/harness.js';

const PHONE = { width: 375, height: 812 };
const PASSWORD = 'night-owl-42';

// ---------------------------------------------------------------------------
// Helpers

function pathOf(page) {
  return new URL(page.url()).pathname;
}

/** A text field by its name; the State field, which suggests values, is a combobox. */
function textbox(scope, name) {
  return scope.getByRole('textbox', { name, exact: true }).or(scope.getByRole('combobox', { name, exact: true }));
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

/** Clicks a link and waits for the new page. */
async function follow(page, link) {
  await Promise.all([page.waitForEvent('load'), link.click()]);
}

/** Posts a shop form from the page (its cookies), to set up a state quickly. */
async function postAs(page, pagePath, action, fields) {
  if (pathOf(page) !== pagePath) await open(page, pagePath);
  const res = await page.request.post(new URL(action, page.url()).href, { form: fields, maxRedirects: 0 });
  assert.ok(res.status() < 400, `POST ${action} answered ${res.status()}`);
  return res;
}

async function signIn(page, email, password) {
  await open(page, '/login');
  const form = page.getByTestId('login-form');
  await textbox(form, 'Email').fill(email);
  await form.getByLabel(/^Password\s*\*?$/).fill(password);
  const res = await submit(page, form.getByRole('button', { name: 'Sign In' }));
  assert.equal(res.status(), 303, `${email} signed in`);
}

/** "$1,299.00" → 129900; "Free" → 0. */
function cents(shown) {
  if (shown.trim() === 'Free') return 0;
  const m = /^\$([\d,]+)\.(\d\d)$/.exec(shown.trim());
  assert.ok(m, `a price like $12.34, got ${JSON.stringify(shown)}`);
  return Number(m[1].replaceAll(',', '')) * 100 + Number(m[2]);
}

const SHIP = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace.hopper.with.a.long.address@example.com',
  phone: '(217) 555-0100',
  address: '1 Main Street',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'United States',
};
const CARD = { cardNumber: '4242 4242 4242 4242', cardName: 'Grace Hopper', expiryDate: '12/30', cvv: '123', action: 'next' };

/** Fills the cart and walks the checkout to the review step with posts. */
async function toReview(page, { card = CARD, product = 'nb-042', quantity = '1' } = {}) {
  await postAs(page, '/products', '/cart/items', { product_id: product, quantity, return_to: '/products' });
  await open(page, '/checkout');
  if (pathOf(page) === '/checkout') await submit(page, page.getByTestId('continue-guest'));
  await postAs(page, '/checkout/shipping', '/checkout/shipping', SHIP);
  await postAs(page, '/checkout/payment', '/checkout/payment', card);
  await open(page, '/checkout/review');
}

// ---------------------------------------------------------------------------

describe('shopper polish', () => {
  const shop = useShop({ env: { PAYMENT_DELAY: '100ms' } });
  beforeEach((t) => shop.resetRateLimits(t));

  /** The demo account (25 orders), made once by the binary's `demo` command. */
  let demoAccount;
  function demo() {
    if (demoAccount) return demoAccount;
    const bin = path.resolve(E2E_DIR, process.env.STOREFRONT_BIN || '../bin/storefront');
    const r = spawnSync(bin, ['demo'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        PORT: String(shop.server.port),
        DATA_DIR: shop.server.dataDir,
        BASE_URL: shop.baseURL,
        CAREERS_URL,
        LOG_LEVEL: 'warn',
      },
      cwd: shop.server.dataDir,
      encoding: 'utf8',
      timeout: 30_000,
    });
    const m = /Demo account: (\S+) \/ (\S+) \((\d+) orders\)/.exec(r.stdout ?? '');
    assert.ok(m, `the demo command printed the account:\n${r.stdout}\n${r.stderr}`);
    demoAccount = { email: m[1], password: m[2] };
    return demoAccount;
  }

  // -------------------------------------------------------------------------
  // No page is wider than the viewport

  describe('no sideways scrolling', () => {
    const SIGNED_OUT = [
      '/', '/products', '/products?page=3', '/products?category=jewelery&minPrice=20&maxPrice=100&rating=3',
      '/product/nb-001', '/search?q=headphones', '/search?q=hedphones', '/search?q=zzzzqqq', '/cart', '/login',
      '/register', '/forgot-password', '/reset-password?token=garbage', '/contact', '/faq', '/shipping', '/returns',
      '/orders/lookup', '/checkout', '/no-such-page',
    ];
    const SIGNED_IN = [
      '/', '/products', '/cart', '/wishlist', '/profile', '/profile?edit=1', '/profile/setup', '/settings', '/orders',
      '/orders?status=delivered&sort=total&dir=asc', '/orders/NOC-DEMO-002', '/checkout/shipping', '/checkout/payment',
      '/checkout/review', '/faq',
    ];

    async function widths(page, paths) {
      const wide = [];
      for (const width of [320, 375, 768]) {
        await page.setViewportSize({ width, height: 800 });
        for (const p of paths) {
          await page.goto(p);
          const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
          if (w.scroll > w.inner) wide.push(`${p} at ${width} px is ${w.scroll} px wide`);
        }
      }
      return wide;
    }

    forEachMode('signed out, every page fits 320, 375 and 768 px', async ({ page }) => {
      assert.deepEqual(await widths(page, SIGNED_OUT), []);
    });

    forEachMode('signed in, every page fits 320, 375 and 768 px', async ({ page }) => {
      const { email, password } = demo();
      await signIn(page, email, password);
      await postAs(page, '/product/nb-029', '/wishlist/nb-029/toggle', { return_to: '/product/nb-029' });
      await toReview(page);
      assert.deepEqual(await widths(page, SIGNED_IN), []);
    });
  });

  // -------------------------------------------------------------------------
  // Phones

  describe('phones at 375 px', () => {
    /** The element's box in the page, asserted to lie within the viewport's width. */
    async function expectWithinWidth(page, locator, what) {
      const box = await locator.boundingBox();
      assert.ok(box, `${what} is laid out`);
      const width = await page.evaluate(() => window.innerWidth);
      assert.ok(box.x >= 0 && box.x + box.width <= width + 0.5, `${what} lies within the ${width} px viewport (x ${box.x}, width ${box.width})`);
      return box;
    }

    forEachMode(
      'the checkout steps fit, with the current step named in full',
      async ({ page }) => {
        await toReview(page);
        for (const [step, name] of [['/checkout/shipping', 'Shipping'], ['/checkout/payment', 'Payment'], ['/checkout/review', 'Review']]) {
          await open(page, step);
          const steps = page.locator('ol.steps li');
          assert.equal(await steps.count(), 3);
          for (let i = 0; i < 3; i++) await expectWithinWidth(page, steps.nth(i), `step ${i + 1} on ${step}`);
          const current = page.locator('ol.steps li[aria-current=step]');
          assert.equal(await text(current.locator('.step-name')), name);
          assert.ok(await current.locator('.step-name').isVisible(), `"${name}" is on screen`);
          // The others keep their names for screen readers.
          assert.equal((await page.locator('ol.steps').innerText()).replace(/\s+/g, ' ').includes('Shipping'), true);
          assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${step} does not scroll sideways`);
        }
      },
      { viewport: PHONE },
    );

    forEachMode(
      'the profile shows Edit Profile, the e-mail and the address without clipping',
      async ({ page }) => {
        await open(page, '/register');
        const email = `a.shopper.with.a.rather.long.name.${Date.now()}${Math.random().toString(36).slice(2, 6)}@example-mail.com`;
        const form = page.getByTestId('register-form');
        await textbox(form, 'Full name').fill('Alexandra Montgomery-Fitzwilliam');
        await textbox(form, 'Email').fill(email);
        await form.getByLabel(/^Password\s*\*?$/).fill(PASSWORD);
        await form.getByLabel(/^Confirm password\s*\*?$/).fill(PASSWORD);
        await submit(page, form.getByRole('button', { name: 'Create Account' }));
        await postAs(page, '/profile/setup', '/profile/setup', {
          action: 'save', phoneNumber: '+1 (217) 555-0100', address: '1234 Extraordinarily Long Boulevard Name, Apartment 56B',
          city: 'Springfield', state: 'Illinois', zipCode: '62701', country: 'United States',
        });
        await open(page, '/profile');
        await expectWithinWidth(page, page.getByTestId('edit-profile'), 'Edit Profile');
        await expectWithinWidth(page, page.getByTestId('profile-email'), 'the e-mail under the name');
        const info = page.getByTestId('profile-info');
        for (const value of [email, '1234 Extraordinarily Long Boulevard Name, Apartment 56B']) {
          const dd = info.locator('dd', { hasText: value });
          await expectVisible(dd, value);
          await expectWithinWidth(page, dd, value);
        }
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), '/profile does not scroll sideways');
      },
      { viewport: PHONE },
    );

    forEachMode(
      'each order is a stacked card with its status and items on screen',
      async ({ page }) => {
        const { email, password } = demo();
        await signIn(page, email, password);
        await open(page, '/orders');
        const rows = page.getByTestId('order-row');
        assert.equal(await rows.count(), 10);
        for (let i = 0; i < 3; i++) {
          const row = rows.nth(i);
          const box = await expectWithinWidth(page, row, `order card ${i + 1}`);
          const status = await expectWithinWidth(page, row.getByTestId('status'), `the status of order ${i + 1}`);
          const items = await expectWithinWidth(page, row.getByTestId('order-items'), `the items of order ${i + 1}`);
          assert.ok(status.y > box.y && items.y > status.y, 'date, total, status and items are stacked in the card');
          const label = await row.getByTestId('order-items').evaluate((td) => getComputedStyle(td, '::before').content);
          assert.equal(label, '"Items"', 'each value is labelled');
        }
        const wrap = page.locator('.table-wrap');
        assert.ok(await wrap.evaluate((el) => el.scrollWidth <= el.clientWidth), 'no sideways-scrolling box');
      },
      { viewport: PHONE },
    );

    forEachMode(
      'the catalogue folds its filters into "Filters · N active" and shows products on the first screen',
      async ({ page, js }) => {
        await open(page, '/products?category=jewelery&rating=3');
        const summary = page.getByTestId('filters-summary');
        await expectVisible(summary, 'the Filters disclosure');
        assert.equal(await text(summary), 'Filters · 2 active');
        await expectHidden(page.getByTestId('filters').getByRole('button', { name: 'Apply' }), 'the filter form, folded');
        // With JavaScript the grid island takes over the cards as the page
        // settles; a card detached at that moment has no box, so measure again.
        const first = page.getByTestId('product-card').first();
        await expectVisible(first, 'the first product');
        let card = null;
        for (let i = 0; i < 20 && !card; i++) {
          card = await first.boundingBox();
          if (!card) await page.waitForTimeout(100);
        }
        assert.ok(card && card.y < PHONE.height - 100, `the first product starts on the first screen (at ${card?.y} px)`);

        await summary.click();
        await expectVisible(page.getByTestId('filters').getByRole('combobox', { name: 'Category' }), 'the filters, unfolded');
        await page.getByTestId('filters').getByRole('combobox', { name: 'Minimum rating' }).selectOption('');
        if (!js) await follow(page, page.getByTestId('filters').getByRole('button', { name: 'Apply' }));
        else await page.waitForURL((u) => !u.searchParams.has('rating'), { timeout: WAIT_MS });
        assert.equal(await text(page.getByTestId('filters-summary')), 'Filters · 1 active');

        await open(page, '/products');
        assert.equal(await text(page.getByTestId('filters-summary')), 'Filters');
      },
      { viewport: PHONE },
    );

    forEachMode('on a desktop the filters show without a disclosure', async ({ page }) => {
      await open(page, '/products?category=jewelery');
      await expectHidden(page.getByTestId('filters-summary'), 'the Filters summary at 1280 px');
      await expectVisible(page.getByTestId('filters').getByRole('button', { name: 'Apply' }), 'the filter form');
    });

    forEachMode(
      'the sticky top bar is one row: logo, search and Menu',
      async ({ page }) => {
        for (const width of [320, 375]) {
          await page.setViewportSize({ width, height: 812 });
          await open(page, '/');
          const bar = await page.locator('header.topbar').boundingBox();
          assert.ok(bar.height <= 72, `the top bar is ${bar.height} px tall at ${width} px (two rows were 122 px)`);
          const search = await page.getByRole('searchbox', { name: 'Search products' }).boundingBox();
          const menu = await page.getByTestId('nav-toggle-button').boundingBox();
          const brand = await page.getByTestId('brand').boundingBox();
          assert.ok(Math.abs(search.y + search.height / 2 - (menu.y + menu.height / 2)) < 4, 'search and Menu share the row');
          assert.ok(Math.abs(brand.y + brand.height / 2 - (menu.y + menu.height / 2)) < 8, 'the logo shares the row');
          assert.ok(search.width >= 120, `the search box stays usable (${search.width} px)`);
          assert.equal(await page.getByTestId('nav-toggle-button').getAttribute('aria-label') ?? (await text(page.getByTestId('nav-toggle-button'))), 'Menu');
        }
      },
      { viewport: PHONE },
    );

    for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
      browserTest(`the carousel's dots, Pause and arrows cover neither each other nor a card at ${viewport.width} px`, async () => {
        const context = await shop.newContext({ viewport });
        try {
          const page = await context.newPage();
          await open(page, '/');
          const carousel = page.getByTestId('carousel');
          await expectVisible(page.getByTestId('carousel-pause'), 'the Pause button');
          await page.getByTestId('carousel-pause').click(); // hold still while measuring
          const boxes = {
            prev: await page.getByTestId('carousel-prev').boundingBox(),
            next: await page.getByTestId('carousel-next').boundingBox(),
            pause: await page.getByTestId('carousel-pause').boundingBox(),
            track: await page.getByTestId('carousel-track').boundingBox(),
          };
          const dots = await page.getByTestId('carousel-dot').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
          const scrollY = await page.evaluate(() => window.scrollY);
          const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
          const fixed = dots.map((d) => ({ x: d.x, y: d.y + scrollY, width: d.width, height: d.height }));
          for (const [i, d] of fixed.entries()) {
            for (const k of ['prev', 'next', 'pause', 'track']) assert.ok(!overlap(d, boxes[k]), `dot ${i + 1} overlaps ${k}`);
          }
          for (const k of ['prev', 'next', 'pause']) assert.ok(!overlap(boxes[k], boxes.track), `${k} covers the cards`);
          assert.ok(!overlap(boxes.prev, boxes.pause) && !overlap(boxes.next, boxes.pause), 'the arrows and Pause are apart');
          const box = await carousel.boundingBox();
          assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, 'the carousel fits');
        } finally {
          await context.close();
        }
      });
    }
  });

  // -------------------------------------------------------------------------
  // The JavaScript enhancements' rough edges

  describe('enhancements', () => {
    forEachMode('the price range keeps what is typed: Min, Tab, Max, Enter applies both', async ({ page, js }) => {
      await open(page, '/products');
      const filters = page.getByTestId('filters');
      await filters.getByRole('spinbutton', { name: 'Minimum price' }).fill('20');
      await page.keyboard.press('Tab');
      const max = filters.getByRole('spinbutton', { name: 'Maximum price' });
      await max.pressSequentially('100');
      assert.equal(pathOf(page) + new URL(page.url()).search, '/products', 'leaving Min did not send the form');
      await Promise.all([page.waitForEvent('load'), max.press('Enter')]);
      const q = new URL(page.url()).searchParams;
      assert.equal(q.get('minPrice'), '20');
      assert.equal(q.get('maxPrice'), '100');
      if (js) {
        // A select still applies at once.
        await Promise.all([
          page.waitForURL((u) => u.searchParams.get('sort') === 'desc', { timeout: WAIT_MS }),
          page.getByTestId('filters').getByRole('combobox', { name: 'Sort by' }).selectOption('desc'),
        ]);
        assert.equal(new URL(page.url()).searchParams.get('minPrice'), '20');
      }
    });

    forEachMode('landing on a later page offers "Show previous"', async ({ page, js }) => {
      await open(page, '/products?page=3');
      const cards = page.getByTestId('product-card');
      const firstOnPage3 = await cards.first().getAttribute('data-product-id');
      const prev = page.getByTestId('show-previous');
      await expectVisible(prev, 'Show previous');
      assert.equal(await prev.getAttribute('href'), '/products?page=2');
      if (js) {
        await page.waitForLoadState('networkidle'); // the grid island has mounted
        const before = await cards.count();
        await prev.click();
        await page.waitForFunction((n) => document.querySelectorAll('[data-testid=product-card]').length === n + 12, before);
        assert.equal(await cards.nth(12).getAttribute('data-product-id'), firstOnPage3, 'page 2 sits above page 3');
        assert.equal(await page.getByTestId('show-previous').getAttribute('href'), '/products', 'then page 1');
        await page.getByTestId('show-previous').click();
        await page.waitForFunction((n) => document.querySelectorAll('[data-testid=product-card]').length === n + 24, before);
        await expectHidden(page.getByTestId('show-previous'), 'Show previous, with page 1 shown');
      } else {
        await follow(page, prev);
        assert.equal(new URL(page.url()).searchParams.get('page'), '2');
        await follow(page, page.getByTestId('show-previous'));
        assert.equal(new URL(page.url()).search, '');
        assert.equal(await page.getByTestId('show-previous').count(), 0, 'page 1 has nothing before it');
      }
    });

    browserTest('Back from a product returns to the same place in a scrolled grid', async () => {
      const context = await shop.newContext();
      try {
        const page = await context.newPage();
        await open(page, '/products');
        await page.waitForLoadState('networkidle');
        const cards = page.getByTestId('product-card');
        for (let n = 24; (await cards.count()) < 30 && n < 60; n += 12) {
          await cards.last().scrollIntoViewIfNeeded();
          await page.waitForFunction((k) => document.querySelectorAll('[data-testid=product-card]').length > k, (await cards.count()) - 1);
        }
        await page.waitForURL((u) => Number(u.searchParams.get('page')) >= 3, { timeout: WAIT_MS });
        const target = cards.nth(28);
        await target.scrollIntoViewIfNeeded();
        const id = await target.getAttribute('data-product-id');
        const yBefore = (await target.boundingBox()).y;
        await page.waitForTimeout(300); // the grid notes the scroll position when scrolling stops
        await follow(page, target.locator('.product-title a'));
        assert.equal(pathOf(page), `/product/${id}`);
        await page.goBack({ waitUntil: 'load' });
        await page.waitForFunction(() => document.querySelectorAll('[data-testid=product-card]').length >= 30);
        const back = page.locator(`[data-testid=product-card][data-product-id="${id}"]`);
        await page.waitForFunction(
          (pid) => {
            const el = document.querySelector(`[data-testid=product-card][data-product-id="${pid}"]`);
            if (!el) return false;
            const r = el.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= innerHeight;
          },
          id,
          { timeout: WAIT_MS },
        );
        const yAfter = (await back.boundingBox()).y;
        assert.ok(Math.abs(yAfter - yBefore) < 40, `the card is where it was (${yBefore} px, now ${yAfter} px)`);
        assert.equal(await cards.first().getAttribute('data-product-id'), (await (await fetch(shop.url('/api/products'))).json()).html.match(/data-product-id="([^"]+)"/)[1], 'page 1 is above it again');
      } finally {
        await context.close();
      }
    });

    forEachMode('the account menu closes on Escape and on a click outside', async ({ page, shop: s }) => {
      const { email, password } = demo();
      await signIn(page, email, password);
      const button = page.getByTestId('account-menu-button');
      const profile = page.locator('nav.nav-wide').getByRole('link', { name: 'Profile' });
      await button.click();
      await expectVisible(profile, 'the open Account menu');
      await page.keyboard.press('Escape');
      await expectHidden(profile, 'the Account menu after Escape');
      await button.click();
      await expectVisible(profile, 'the Account menu, open again');
      await page.locator('main h1, main h2').first().click();
      await expectHidden(profile, 'the Account menu after a click outside');
      await button.click();
      await follow(page, profile);
      assert.equal(page.url(), s.url('/profile'));
    });

    forEachMode(
      'the phone Menu closes on Escape and on a click outside',
      async ({ page }) => {
        await open(page, '/faq');
        assert.equal(await page.locator('script').count(), 0, 'a page without islands ships no JavaScript');
        const button = page.getByTestId('nav-toggle-button');
        const products = page.locator('nav.nav-narrow').getByRole('link', { name: 'Products' });
        await button.click();
        await expectVisible(products, 'the open Menu');
        await page.keyboard.press('Escape');
        await expectHidden(products, 'the Menu after Escape');
        await button.click();
        await expectVisible(products, 'the Menu, open again');
        await page.mouse.click(187, 700);
        await expectHidden(products, 'the Menu after a click outside');
      },
      { viewport: PHONE },
    );

    forEachMode('the cart\'s Update button shows only without JavaScript', async ({ page, js }) => {
      await postAs(page, '/products', '/cart/items', { product_id: 'nb-042', quantity: '1', return_to: '/products' });
      await open(page, '/cart');
      const line = page.getByTestId('cart-line').first();
      const update = line.getByRole('button', { name: 'Update' });
      if (js) {
        await page.waitForLoadState('networkidle');
        await expectHidden(update, 'Update, with the select saving on change');
        await Promise.all([page.waitForEvent('load'), line.getByTestId('quantity').selectOption('3')]);
      } else {
        await expectVisible(update, 'Update, without JavaScript');
        await line.getByTestId('quantity').selectOption('3');
        await submit(page, update);
      }
      assert.equal(await page.getByTestId('cart-line').first().getByTestId('quantity').inputValue(), '3');
      assert.equal(await text(page.getByTestId('subtotal-label')), 'Subtotal (3 items)');
    });
  });

  // -------------------------------------------------------------------------
  // Search that forgives

  describe('search', () => {
    async function search(page, q) {
      await open(page, '/products');
      const box = page.getByRole('searchbox', { name: 'Search products' });
      await box.fill(q);
      await Promise.all([page.waitForEvent('load'), box.press('Enter')]);
    }

    forEachMode('the category as the shop names it, and its British spelling, find the jewelry', async ({ page }) => {
      for (const q of ['jewelry', 'Jewellery']) {
        await search(page, q);
        assert.equal(await text(page.getByTestId('result-count')), '13 products', `${q} finds the Jewelry category`);
        assert.equal(await page.getByTestId('suggestion').count(), 0, `no "Did you mean" for ${q}`);
        assert.equal(await page.getByTestId('corrected').count(), 0);
      }
    });

    forEachMode('a typo shows the corrected results, with a way to search as typed', async ({ page }) => {
      await search(page, 'hedphones');
      assert.equal(await text(page.getByTestId('corrected')), 'Showing results for headphones — search instead for hedphones');
      assert.match((await page.getByTestId('product-card').first().locator('.product-title').innerText()), /Headphones/);
      await follow(page, page.getByTestId('search-instead'));
      assert.equal(new URL(page.url()).searchParams.get('q'), 'hedphones');
      await expectVisible(page.getByTestId('search-empty'), 'no results as typed');
      assert.equal(await text(page.getByTestId('suggestion')), 'Did you mean headphones?');
    });

    forEachMode('no far-fetched suggestions: "cheap" is not "cap"', async ({ page }) => {
      await search(page, 'cheap');
      assert.equal(await page.getByTestId('suggestion').count(), 0);
      assert.equal(await page.getByTestId('corrected').count(), 0);
      await expectVisible(page.getByTestId('search-empty'), 'an honest "nothing found"');
    });

    forEachMode('every product the landing page promises can be found', async ({ page }) => {
      await open(page, '/');
      const copy = (await page.locator('main').innerText()).toLowerCase();
      for (const gone of ['laptop', 'shirt', 'handbag']) assert.ok(!copy.includes(gone), `the landing page no longer promises ${gone}s`);
      const promised = ['headphones', 'cameras', 'keyboards', 'monitors', 'lamps', 'linens', 'mugs', 'jackets', 'boots', 'backpacks'];
      for (const word of promised) {
        assert.ok(copy.includes(word), `the landing page names ${word}`);
        await open(page, `/search?q=${word}`);
        assert.ok((await page.getByTestId('product-card').count()) > 0, `searching ${word} finds products`);
      }
    });
  });

  // -------------------------------------------------------------------------
  // Words and flows

  describe('words and flows', () => {
    forEachMode('shipping is $10 below a $50 subtotal and free from $50, everywhere', async ({ page, shop: s, t }) => {
      await open(page, '/product/nb-042');
      assert.equal(await text(page.getByTestId('product-detail').locator('.shipping')), 'Free shipping over $50');
      await open(page, '/products');
      assert.equal(await text(page.getByTestId('product-card').first().locator('.shipping')), 'Free shipping over $50');
      for (const [p, sel] of [['/shipping', '[data-testid=standard-cost]'], ['/faq', '[data-testid=faq]'], ['/', 'main']]) {
        await open(page, p);
        assert.match(await page.locator(sel).first().textContent(), /free on orders of \$50 or more/, `${p} states the rule`);
      }

      // $16.00: shipping $10.00, in the cart, at the checkout, on the order and in the e-mail.
      await toReview(page);
      const summary = page.getByTestId('checkout-summary');
      assert.equal(await text(summary.getByTestId('shipping')), '$10.00');
      assert.equal(await text(summary.getByTestId('tax')), '$1.60', 'tax is 10% of the subtotal');
      assert.equal(await text(summary.getByTestId('total')), '$27.60');
      await submit(page, page.getByTestId('place-order'));
      assert.equal(await awaitPayment(page), 'paid');
      assert.match(pathOf(page), /^\/orders\/NOC-/);
      const orderId = pathOf(page).slice('/orders/'.length);
      assert.equal(await text(page.getByTestId('order-shipping')), '$10.00');
      assert.equal(await text(page.locator('main [data-testid=order-total]')), '$27.60');
      const mails = s.queryDB(t, `SELECT body FROM outbox WHERE subject = 'Your order ${orderId}'`);
      if (mails) {
        assert.equal(mails.length, 1);
        assert.match(mails[0].body, /Shipping \(Standard\) \$10\.00/);
        assert.match(mails[0].body, /Springfield, IL 62701, United States/, 'the e-mail keeps the state');
      }

      // $57.99: free.
      await postAs(page, '/products', '/cart/items', { product_id: 'nb-042', quantity: '3', return_to: '/products' });
      await postAs(page, '/products', '/cart/items', { product_id: 'nb-052', quantity: '1', return_to: '/products' });
      await open(page, '/cart');
      assert.equal(await text(page.getByTestId('shipping')), 'Free');
      assert.equal(cents(await text(page.getByTestId('total'))), 6379, 'the estimated total adds 10% tax');
      assert.equal(await text(page.getByTestId('free-shipping-note')), 'Your order ships free.');
      await open(page, '/checkout/shipping');
      assert.equal(await text(page.getByTestId('checkout-summary').getByTestId('shipping')), 'Free');
    });

    forEachMode('the cart counts "1 item", and says how far free shipping is', async ({ page }) => {
      await postAs(page, '/products', '/cart/items', { product_id: 'nb-042', quantity: '1', return_to: '/products' });
      await open(page, '/cart');
      assert.equal(await text(page.getByTestId('subtotal-label')), 'Subtotal (1 item)');
      assert.equal(await text(page.getByTestId('shipping')), '$10.00');
      assert.equal(await text(page.getByTestId('free-shipping-note')), 'Add $34.00 more for free standard shipping (free on orders of $50 or more).');
    });

    forEachMode('a declined card says why and leads straight back to the card', async ({ page }) => {
      await toReview(page, { card: { ...CARD, cardNumber: '4000 0000 0000 0002' } });
      await submit(page, page.getByTestId('place-order'));
      assert.equal(await awaitPayment(page), 'declined');
      const alert = page.getByTestId('form-alert');
      assert.equal(await text(alert), 'Failed to place order. Please try again. Your card was declined. Try another card.');
      assert.equal(await alert.getAttribute('role'), 'alert');
      await submit(page, page.getByRole('button', { name: 'Use another card' }));
      assert.equal(pathOf(page), '/checkout/payment');
      await expectVisible(page.getByTestId('payment-form'), 'the card form');
    });

    forEachMode('the checkout refuses phone "abc" and ZIP "zzzzzzzzzz", next to the fields', async ({ page }) => {
      await postAs(page, '/products', '/cart/items', { product_id: 'nb-042', quantity: '1', return_to: '/products' });
      await open(page, '/checkout');
      await submit(page, page.getByTestId('continue-guest'));
      const form = page.getByTestId('shipping-form');
      for (const [label, value] of [['First Name', 'Grace'], ['Last Name', 'Hopper'], ['Email', 'grace@example.com'], ['Phone', 'abc'],
        ['Address', '1 Main Street'], ['City', 'Springfield'], ['State', 'IL'], ['ZIP Code', 'zzzzzzzzzz']]) {
        await textbox(form, label).fill(value);
      }
      const res = await submit(page, form.getByTestId('next'));
      assert.equal(res.status(), 422);
      assert.match(await text(page.locator('#ship-phone-error')), /^Please enter a valid phone number/);
      assert.equal(await text(page.locator('#ship-zip-error')), 'Please enter a valid ZIP code, e.g. 62701 or 62701-1234.');
      assert.equal(await textbox(page.getByTestId('shipping-form'), 'ZIP Code').inputValue(), 'zzzzzzzzzz', 'what was typed is kept');
      // A Canadian postal code, with a province, for Canada passes.
      const again = page.getByTestId('shipping-form');
      await textbox(again, 'Phone').fill('+1 416 555 0100');
      await textbox(again, 'State').fill('ON');
      await textbox(again, 'ZIP Code').fill('m5v 2t6');
      await again.getByRole('combobox', { name: 'Country' }).selectOption('Canada');
      await submit(page, again.getByTestId('next'));
      assert.equal(pathOf(page), '/checkout/payment');
    });

    forEachMode('Back to Orders keeps the filter and sort', async ({ page }) => {
      const { email, password } = demo();
      await signIn(page, email, password);
      await open(page, '/orders?status=delivered&sort=total&dir=asc');
      const sorted = (u) => [...new URL(u).searchParams].sort().join('&');
      const list = sorted(page.url());
      await follow(page, page.getByTestId('order-row').first().getByRole('link'));
      assert.match(pathOf(page), /^\/orders\/NOC-DEMO-/);
      await follow(page, page.getByTestId('back-to-orders'));
      assert.equal(pathOf(page), '/orders');
      assert.equal(sorted(page.url()), list, 'the same filter and sort');
      assert.equal(await page.getByRole('combobox', { name: 'Status' }).inputValue(), 'delivered');
      assert.match(await page.locator('th[aria-sort=ascending]').innerText(), /^total/i, 'sorted by total, ascending');
    });

    forEachMode('after a guest order lookup, Back leads to the lookup, not to sign-in', async ({ page, shop: s }) => {
      await toReview(page);
      await submit(page, page.getByTestId('place-order'));
      assert.equal(await awaitPayment(page), 'paid');
      const orderPath = pathOf(page);
      const other = await s.newContext();
      try {
        const visitor = await other.newPage();
        await open(visitor, '/orders/lookup');
        const form = visitor.getByTestId('lookup-form');
        await textbox(form, 'Order number').fill(orderPath.slice('/orders/'.length));
        await textbox(form, 'Email').fill(SHIP.email);
        await submit(visitor, form.getByRole('button', { name: 'Find order' }));
        assert.equal(pathOf(visitor), orderPath);
        const back = visitor.getByTestId('back-to-orders');
        assert.equal(await text(back), 'Back to order lookup');
        await follow(visitor, back);
        assert.equal(pathOf(visitor), '/orders/lookup', 'not the sign-in page');
      } finally {
        await other.close();
      }
    });

    forEachMode('a used or garbage reset link says so on arrival', async ({ page }) => {
      await open(page, '/reset-password?token=garbage-not-a-token');
      assert.equal(await text(page.getByTestId('form-alert')), 'This reset link is invalid or has expired. Please request a new one.');
      assert.equal(await page.getByTestId('reset-form').count(), 0, 'no form to fill in for nothing');
      await expectVisible(page.getByRole('link', { name: 'Request a new link' }), 'the way to a new link');
    });

    forEachMode('every page has a meta description', async ({ page }) => {
      const { email, password } = demo();
      const paths = ['/', '/products', '/product/nb-001', '/search?q=lamp', '/cart', '/faq', '/shipping', '/returns', '/contact',
        '/login', '/register', '/forgot-password', '/orders/lookup', '/no-such-page'];
      for (const p of paths) {
        await page.goto(p);
        const d = await page.locator('meta[name=description]').getAttribute('content');
        assert.ok(d && d.length >= 20, `${p} has a meta description (got ${JSON.stringify(d)})`);
      }
      await signIn(page, email, password);
      for (const p of ['/profile', '/orders', '/wishlist', '/settings']) {
        await page.goto(p);
        assert.equal(await page.locator('meta[name=description]').count(), 1, `${p} has a meta description`);
      }
    });
  });

  // -------------------------------------------------------------------------
  // Accessibility of the new states

  describe('accessibility', () => {
    browserTest('axe: /products at 375 px, filters folded and unfolded', async () => {
      await checkA11y('/products?category=jewelery&rating=3', { viewport: PHONE });
      await checkA11y('/products?category=jewelery&rating=3', {
        viewport: PHONE,
        prepare: async (page) => {
          await page.getByTestId('filters-summary').click();
          await expectVisible(page.getByTestId('filters').getByRole('button', { name: 'Apply' }), 'the filters');
        },
      });
    });
    browserTest('axe: /products?page=3 with Show previous', () => checkA11y('/products?page=3'));
    browserTest('axe: a corrected search', () => checkA11y('/search?q=hedphones'));
    browserTest('axe: /orders at 375 px as stacked cards', () =>
      checkA11y('/orders', {
        viewport: PHONE,
        setup: async (page) => {
          const { email, password } = demo();
          await signIn(page, email, password);
        },
      }),
    );
    browserTest('axe: the open account menu', () =>
      checkA11y('/', {
        setup: async (page) => {
          const { email, password } = demo();
          await signIn(page, email, password);
        },
        prepare: async (page) => {
          await page.getByTestId('account-menu-button').click();
          await expectVisible(page.locator('nav.nav-wide').getByRole('link', { name: 'Profile' }), 'the open menu');
        },
      }),
    );
    browserTest('axe: the cart at 375 px with the free-shipping note', () =>
      checkA11y('/cart', {
        viewport: PHONE,
        setup: async (page) => {
          await postAs(page, '/products', '/cart/items', { product_id: 'nb-042', quantity: '1', return_to: '/products' });
        },
      }),
    );
  });
});
