// Shopper polish (issue 16): phones at 320–768 px, the JavaScript
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
  expectVisible,
  expectHidden,
  text,
  open,
  E2E_DIR,
  CAREERS_URL,
  WAIT_MS,
} from '../lib/harness.js';

const PHONE = { width: 375, height: 812 };
const PASSWORD = 'night-owl-42';

// ---------------------------------------------------------------------------
// Helpers

function pathOf(page) {
  return new URL(page.url()).pathname;
}

function textbox(scope, name) {
  return scope.getByRole('textbox', { name, exact: true });
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
});
