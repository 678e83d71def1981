// The shopping journeys: Add to Cart from a card and from the product page,
// the header badge, the cart page (quantities, remove, clear, the empty
// state), an anonymous visitor's cart surviving sign-in, the wishlist heart
// (visitors and guests are sent to sign in; an account's heart toggles and
// persists), the wishlist page and accessibility. Every journey runs with
// JavaScript on and off.
//
// All tests reach the shop from 127.0.0.1 and some actions are limited per
// address (10 registrations a minute…), so each test starts with the
// rate-limit counters cleared, as a shopper arriving fresh would.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

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
  WAIT_MS,
} from '../lib/harness.js';

const MSG = {
  added: 'Added to cart',
  updated: 'Cart updated',
  removed: 'Removed from cart',
  cleared: 'Your cart is empty now',
  tooMany: 'You can have at most 10 of an item in your cart.',
  cartEmpty: 'Your cart is empty',
  wishAdded: 'Added to your wishlist',
  wishRemoved: 'Removed from your wishlist',
  moved: 'Moved to your cart',
  wishlistEmpty: 'Your wishlist is empty',
};

const PASSWORD = 'moonlit-garden-7';

// ---------------------------------------------------------------------------
// Helpers (the account ones as in accounts.test.js)

/** An e-mail address no other test uses. */
function uniqueEmail(label, js) {
  const rand = Math.random().toString(36).slice(2, 6);
  return `${label}-${js ? 'js' : 'nojs'}-${Date.now()}-${rand}@example.com`;
}

function pathOf(page) {
  return new URL(page.url()).pathname;
}

/** A text field by its accessible name. */
function textbox(scope, name) {
  return scope.getByRole('textbox', { name, exact: true });
}

/** A password field by its label (the label ends with the required marker *). */
function passwordField(scope, label) {
  return scope.getByLabel(new RegExp(`^${label}\\s*\\*?$`));
}

/**
 * Runs action (a click, a select…) that posts a form in the page and waits
 * until the page the POST leads to (after any redirects) has loaded. Returns
 * the response to the POST itself.
 */
async function navigateBy(page, action) {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.request().isNavigationRequest() && r.frame() === page.mainFrame()),
    page.waitForEvent('load'),
    action(),
  ]);
  return res;
}

/** Clicks a submit button and waits for the page the POST leads to. */
function submit(page, button) {
  return navigateBy(page, () => button.click());
}

/** Fills the registration form and submits it. */
async function register(page, { name, email, password = PASSWORD }) {
  const form = page.getByTestId('register-form');
  await textbox(form, 'Full name').fill(name);
  await textbox(form, 'Email').fill(email);
  await passwordField(form, 'Password').fill(password);
  await passwordField(form, 'Confirm password').fill(password);
  return submit(page, form.getByRole('button', { name: 'Create Account' }));
}

/** Signs in with the login form; opens /login first unless the page is already on it. */
async function signIn(page, email, password, { navigate = true } = {}) {
  if (navigate) await open(page, '/login');
  const form = page.getByTestId('login-form');
  await textbox(form, 'Email').fill(email);
  await passwordField(form, 'Password').fill(password);
  return submit(page, form.getByRole('button', { name: 'Sign In' }));
}

/** Registers an account in a throw-away context (so the test's own context stays signed out). */
async function createAccount(shop, { js = true, label = 'shopper', name = 'Ada Lovelace' } = {}) {
  const account = { name, email: uniqueEmail(label, js), password: PASSWORD };
  const context = await shop.newContext({ js });
  try {
    const page = await context.newPage();
    await open(page, '/register');
    const res = await register(page, account);
    assert.equal(res.status(), 303, 'registration succeeded');
    assert.equal(pathOf(page), '/profile/setup');
  } finally {
    await context.close();
  }
  return account;
}

/** Continues as a guest from the login page. */
async function continueAsGuest(page) {
  await open(page, '/login');
  await submit(page, page.getByTestId('continue-guest'));
  await expectVisible(page.getByTestId('account-menu').filter({ visible: true }), 'the Account menu of the guest');
}

/** Asserts the flash message (and whether it is an error). */
async function expectFlash(page, message, { error = false } = {}) {
  const flash = page.getByTestId('flash');
  await expectVisible(flash, `the message "${message}"`);
  assert.equal(await text(flash), message);
  assert.equal(await flash.getAttribute('role'), error ? 'alert' : 'status', `the message is ${error ? 'an alert' : 'a status'}`);
}

/** The header badge of the wide navigation (the one on screen at 1280 px). */
function badge(page) {
  return page.locator('nav.nav-wide [data-testid=cart-badge]');
}

/** The count the header badge shows; 0 when there is no badge. */
async function badgeCount(page) {
  const b = badge(page);
  if ((await b.count()) === 0) return 0;
  return Number(await text(b.locator('[aria-hidden=true]')));
}

/** Waits until the header badge shows n (0: no badge), e.g. after a script updated it. */
async function expectBadge(page, n) {
  const deadline = Date.now() + WAIT_MS;
  let seen;
  for (;;) {
    seen = await badgeCount(page);
    if (seen === n) break;
    if (Date.now() > deadline) assert.fail(`expected the cart badge to show ${n}, it shows ${seen}`);
    await sleep(50);
  }
  if (n > 0) {
    const sr = await text(badge(page).locator('.sr-only'));
    assert.equal(sr, `, ${n} ${n === 1 ? 'item' : 'items'} in cart`, 'the badge tells screen readers the count');
  }
}

/**
 * Presses an Add to Cart button (a card's or the product page's form). With
 * JavaScript the page stays and the button confirms; without, the form posts
 * and the shop comes back to the page with a message. Returns the response
 * to the POST.
 */
async function addToCart(page, form, js) {
  const button = form.getByTestId('add-to-cart');
  if (!js) return submit(page, button);
  await islandsReady(page);
  const before = page.url();
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/cart/items'),
    button.click(),
  ]);
  assert.equal(page.url(), before, 'with JavaScript the page stays');
  return res;
}

/**
 * Waits until the page has loaded its islands (nothing more on the network),
 * so the header badge is listening before the cart changes. (A badge that
 * mounts after an add shows the old count: see "the badge is right when the
 * shopper adds before the page has finished loading".)
 */
async function islandsReady(page) {
  await page.waitForLoadState('networkidle');
}

/** The product page's Add to Cart form. */
function productForm(page) {
  return page.getByTestId('product-detail').getByTestId('add-to-cart-form');
}

/** Money text ("$1,234.56") in cents; "Free" (shipping from $50) is 0. */
function cents(s) {
  if (String(s).trim() === 'Free') return 0;
  const m = String(s).replace(/[,\s]/g, '').match(/\$?(\d+)(?:\.(\d{2}))?/);
  assert.ok(m, `"${s}" is an amount of money`);
  return Number(m[1]) * 100 + Number(m[2] ?? 0);
}

/** The cart page's lines as {id, quantity, unit, total} (cents). */
async function cartLines(page) {
  const lines = [];
  for (const line of await page.getByTestId('cart-line').all()) {
    lines.push({
      id: await line.getAttribute('data-product-id'),
      quantity: Number(await line.getByTestId('quantity').inputValue()),
      unit: cents(await text(line.getByTestId('unit-price'))),
      total: cents(await text(line.getByTestId('line-total'))),
    });
  }
  return lines;
}

/**
 * Asserts the cart page's summary adds up: subtotal = Σ lines, estimated
 * total = subtotal + shipping + tax (the default country's, estimated).
 */
async function expectSummaryAddsUp(page) {
  const lines = await cartLines(page);
  for (const l of lines) assert.equal(l.total, l.unit * l.quantity, `line ${l.id}: ${l.quantity} × unit price`);
  const subtotal = cents(await text(page.getByTestId('subtotal')));
  const shipping = cents(await text(page.getByTestId('shipping')));
  const tax = cents(await text(page.getByTestId('tax')));
  const total = cents(await text(page.getByTestId('total')));
  assert.equal(subtotal, lines.reduce((s, l) => s + l.total, 0), 'the subtotal is the sum of the lines');
  assert.equal(total, subtotal + shipping + tax, 'the estimated total is subtotal plus shipping plus tax');
  return { lines, subtotal, shipping, total };
}

/**
 * Posts a form of the shop from the page's context, the way a form would
 * (this browser's cookies), to build a state quickly in a
 * set-up. Opens pagePath first, as a shopper would.
 */
async function postAs(page, pagePath, action, fields) {
  if (pathOf(page) !== pagePath.split('?')[0]) await open(page, pagePath);
  const res = await page.request.post(new URL(action, page.url()).href, { form: fields, maxRedirects: 0 });
  assert.ok(res.status() < 400, `POST ${action} answered ${res.status()}`);
  return res;
}

/** The wishlist heart of the product page. */
function productHeart(page) {
  return page.getByTestId('product-detail').getByTestId('wishlist-heart');
}

/** Presses a heart; with JavaScript waits for the server's answer, without for the page it leads to. */
async function pressHeart(page, heart, js) {
  if (!js) return submit(page, heart);
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && /^\/wishlist\/[^/]+\/toggle$/.test(new URL(r.url()).pathname)),
    heart.click(),
  ]);
  return res;
}

/** "Jan 2, 2006" for d in UTC and in local time (the server may use either). */
function shortDates(d = new Date()) {
  const fmt = (tz) => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: tz }).format(d);
  return new Set([fmt('UTC'), fmt(undefined)]);
}

// ---------------------------------------------------------------------------

describe('shopping', () => {
  const shop = useShop();
  beforeEach((t) => shop.resetRateLimits(t));

  // -------------------------------------------------------------------------
  // 1. Adding to the cart

  describe('add to cart', () => {
    forEachMode('Add to Cart on a product card adds one item and the badge counts it', async ({ page, js }) => {
      await open(page, '/products');
      assert.equal(await badge(page).count(), 0, 'no badge while the cart is empty');
      const card = page.getByTestId('product-card').first();
      const id = await card.getAttribute('data-product-id');
      const title = await text(card.locator('.product-title'));
      const form = card.getByTestId('add-to-cart-form');

      if (js) {
        await islandsReady(page);
        // Hold the request so the in-between state can be seen.
        let release;
        const held = new Promise((r) => (release = r));
        await page.route('**/cart/items', async (route) => {
          await held;
          await route.continue();
        });
        const [res] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/cart/items'),
          (async () => {
            await form.getByTestId('add-to-cart').click();
            await expectVisible(form.getByRole('button', { name: 'Adding…' }), 'the button saying "Adding…"');
            assert.equal(await form.getByTestId('add-to-cart').isDisabled(), true, 'the button is disabled while adding');
            release();
          })(),
        ]);
        assert.equal(res.status(), 200);
        await expectVisible(form.getByRole('button', { name: 'Added ✓' }), 'the button saying "Added ✓"');
        await page.unroute('**/cart/items');
        assert.equal(pathOf(page), '/products', 'the page stays');
        assert.equal(await page.getByTestId('flash').count(), 0, 'no page message: the button confirms');
        await expectBadge(page, 1);
        assert.equal(await page.getByTestId('cart-status').textContent(), 'Added to cart. 1 item in your cart.', 'screen readers hear it');
        // The label comes back for the next press.
        await expectVisible(form.getByRole('button', { name: 'Add to Cart' }), 'the button saying "Add to Cart" again');
      } else {
        const res = await addToCart(page, form, js);
        assert.equal(res.status(), 303);
        assert.equal(pathOf(page), '/products', 'back on the products page');
        await expectFlash(page, MSG.added);
        await expectBadge(page, 1);
      }

      // The badge is on every page, and the cart has the product.
      await open(page, '/faq');
      await expectBadge(page, 1);
      await open(page, '/cart');
      const lines = await cartLines(page);
      assert.deepEqual(lines.map((l) => [l.id, l.quantity]), [[id, 1]]);
      assert.equal(await text(page.getByTestId('cart-line').locator('.cart-line-title')), title);
    });

    forEachMode('the product page adds the chosen quantity', async ({ page, js }) => {
      await open(page, '/product/nb-001');
      const form = productForm(page);
      const qty = form.getByRole('spinbutton', { name: 'Quantity' });
      assert.equal(await qty.inputValue(), '1', 'the quantity starts at 1');
      await qty.fill('3');
      const res = await addToCart(page, form, js);
      if (js) {
        assert.equal(res.status(), 200);
        await expectVisible(form.getByRole('button', { name: 'Added ✓' }), 'the button saying "Added ✓"');
      } else {
        assert.equal(res.status(), 303);
        assert.equal(pathOf(page), '/product/nb-001');
        await expectFlash(page, MSG.added);
      }
      await expectBadge(page, 3);

      // Two more of the same product add up on one line.
      await productForm(page).getByRole('spinbutton', { name: 'Quantity' }).fill('2');
      await addToCart(page, productForm(page), js);
      await expectBadge(page, 5);

      await open(page, '/cart');
      await expectBadge(page, 5);
      const { lines } = await expectSummaryAddsUp(page);
      assert.deepEqual(lines.map((l) => [l.id, l.quantity]), [['nb-001', 5]]);
      assert.match(await text(page.getByTestId('order-summary').locator('dt').first()), /Subtotal \(5 items\)/);
    });

    forEachMode('more than 10 of an item is refused with a message', async ({ page, js }) => {
      await open(page, '/product/nb-002');
      const form = productForm(page);
      const qty = form.getByRole('spinbutton', { name: 'Quantity' });
      if (!js) {
        // The field says max=10, so the browser would stop 11 itself; the shop must too.
        await form.evaluate((f) => {
          f.noValidate = true;
        });
      }
      await qty.fill('11');
      const res = await addToCart(page, form, js);
      if (js) {
        assert.equal(res.status(), 422);
        const error = page.getByTestId('cart-error');
        await expectVisible(error, 'the error under the form');
        assert.equal(await text(error), MSG.tooMany);
        assert.equal(await error.getAttribute('role'), 'alert', 'the error is announced');
        assert.equal(await qty.getAttribute('aria-invalid'), 'true', 'the quantity is marked invalid');
        assert.equal(await qty.getAttribute('aria-describedby'), await error.getAttribute('id'), 'the quantity points at its error');
        assert.equal(await qty.inputValue(), '11', 'the typed quantity is kept');

        // A valid quantity clears the error.
        await qty.fill('2');
        await addToCart(page, form, js);
        await expectHidden(error, 'the error after a valid add');
        assert.equal(await qty.getAttribute('aria-invalid'), null, 'the quantity is no longer invalid');
        await expectBadge(page, 2);
      } else {
        assert.equal(res.status(), 303);
        assert.equal(pathOf(page), '/product/nb-002');
        await expectFlash(page, MSG.tooMany, { error: true });
        await expectBadge(page, 0);
      }
      await open(page, '/cart');
      const lines = await cartLines(page);
      assert.deepEqual(lines.map((l) => [l.id, l.quantity]), js ? [['nb-002', 2]] : [], 'nothing was added for 11');
    });

    browserTest('the badge is right when the shopper adds before the page has finished loading', async () => {
      // The badge island's code arrives late (a slow connection); the shopper
      // has already pressed Add to Cart on the product page.
      const context = await shop.newContext();
      try {
        const page = await context.newPage();
        let release;
        const held = new Promise((r) => (release = r));
        await page.route(/\/static\/dist\/chunks\/CartBadge-/, async (route) => {
          await held;
          await route.continue();
        });
        await open(page, '/product/nb-016', 200, { waitForIslands: false }); // the badge's island is held
        const form = productForm(page);
        await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/cart/items'),
          form.getByTestId('add-to-cart').click(),
        ]);
        await expectVisible(form.getByRole('button', { name: 'Added ✓' }), 'the button saying "Added ✓"');
        release();
        await page.waitForLoadState('networkidle');
        await expectBadge(page, 1);
      } finally {
        await context.close();
      }
    });
  });

  // -------------------------------------------------------------------------
  // 2. The cart page

  describe('cart page', () => {
    forEachMode('a new visitor sees the empty cart', async ({ page }) => {
      await open(page, '/cart');
      assert.equal(await text(page.locator('h1')), 'Shopping Cart');
      const empty = page.getByTestId('cart-empty');
      await expectVisible(empty, 'the empty state');
      assert.equal(await text(empty.locator('.lead')), MSG.cartEmpty);
      assert.equal(await empty.getByRole('link', { name: 'Continue Shopping' }).getAttribute('href'), '/products');
      assert.equal(await page.getByTestId('cart-line').count(), 0);
      assert.equal(await page.getByTestId('checkout').count(), 0, 'no checkout button');
      await expectBadge(page, 0);
    });

    forEachMode('the cart page changes a quantity, removes a line and clears the cart', async ({ page, js }) => {
      // Two products from their pages.
      await open(page, '/product/nb-003');
      await addToCart(page, productForm(page), js);
      await expectBadge(page, 1);
      await open(page, '/product/nb-004');
      await productForm(page).getByRole('spinbutton', { name: 'Quantity' }).fill('2');
      await addToCart(page, productForm(page), js);
      await expectBadge(page, 3);

      await page.locator('nav.nav-wide').getByTestId('cart-link').click();
      await page.waitForURL((u) => u.pathname === '/cart');
      let summary = await expectSummaryAddsUp(page);
      assert.deepEqual(summary.lines.map((l) => [l.id, l.quantity]).sort(), [['nb-003', 1], ['nb-004', 2]]);
      assert.equal(await page.getByTestId('checkout').getAttribute('href'), '/checkout');

      // Change nb-003 to 4: with JavaScript the choice applies at once, without it Update does.
      const line3 = page.locator('[data-testid=cart-line][data-product-id=nb-003]');
      const select = line3.getByRole('combobox', { name: 'Quantity' });
      const res = await navigateBy(page, async () => {
        await select.selectOption('4');
        if (!js) await line3.locator('.btn-update').click();
      });
      assert.equal(res.status(), 303);
      assert.equal(pathOf(page), '/cart');
      await expectFlash(page, MSG.updated);
      summary = await expectSummaryAddsUp(page);
      assert.deepEqual(summary.lines.map((l) => [l.id, l.quantity]).sort(), [['nb-003', 4], ['nb-004', 2]]);
      await expectBadge(page, 6);
      assert.match(await text(page.getByTestId('order-summary').locator('dt').first()), /Subtotal \(6 items\)/);

      // Remove nb-004.
      const line4 = page.locator('[data-testid=cart-line][data-product-id=nb-004]');
      const remove = line4.getByTestId('remove');
      assert.match(await remove.textContent(), /^Remove .+/, 'the Remove button names the product for screen readers');
      await submit(page, remove);
      assert.equal(pathOf(page), '/cart');
      await expectFlash(page, MSG.removed);
      summary = await expectSummaryAddsUp(page);
      assert.deepEqual(summary.lines.map((l) => [l.id, l.quantity]), [['nb-003', 4]]);
      await expectBadge(page, 4);

      // Clear the cart.
      await submit(page, page.getByTestId('clear-cart'));
      assert.equal(pathOf(page), '/cart');
      await expectFlash(page, MSG.cleared);
      await expectVisible(page.getByTestId('cart-empty'), 'the empty state');
      assert.equal(await text(page.getByTestId('cart-empty').locator('.lead')), MSG.cartEmpty);
      assert.equal(await page.getByTestId('cart-line').count(), 0);
      await expectBadge(page, 0);
    });

    forEachMode('a visitor\'s cart is kept after signing in', async ({ page, js, shop, t }) => {
      const account = await createAccount(shop, { js, label: 'keepcart' });

      await open(page, '/product/nb-005');
      await productForm(page).getByRole('spinbutton', { name: 'Quantity' }).fill('2');
      await addToCart(page, productForm(page), js);
      await open(page, '/products');
      const card = page.locator('[data-testid=product-card]:not([data-product-id=nb-005])').first();
      const other = await card.getAttribute('data-product-id');
      await addToCart(page, card.getByTestId('add-to-cart-form'), js);
      await expectBadge(page, 3);

      const res = await signIn(page, account.email, account.password);
      assert.equal(res.status(), 303);
      await expectVisible(page.getByTestId('account-menu').filter({ visible: true }), 'the Account menu');
      await expectBadge(page, 3);
      await open(page, '/cart');
      const lines = await cartLines(page);
      assert.deepEqual(lines.map((l) => [l.id, l.quantity]).sort(), [['nb-005', 2], [other, 1]].sort());

      const rows = shop.queryDB(
        t,
        `SELECT c.variant_id AS product_id, c.quantity FROM cart_items c JOIN users u ON u.id = c.owner WHERE u.email = ${sqlString(account.email)} ORDER BY c.variant_id`,
      );
      if (rows) {
        const expected = [{ product_id: 'nb-005', quantity: 2 }, { product_id: other, quantity: 1 }];
        assert.deepEqual(rows, expected.sort((a, b) => a.product_id.localeCompare(b.product_id)), 'the cart is stored for the account');
      }
    });
  });

  // -------------------------------------------------------------------------
  // 3. Wishlist

  describe('wishlist', () => {
    forEachMode('the heart sends a visitor to sign in, and back to the product afterwards', async ({ page, js, shop }) => {
      const account = await createAccount(shop, { js, label: 'heart-visitor' });
      await open(page, '/product/nb-006');
      const heart = productHeart(page);
      assert.equal(await heart.getAttribute('aria-pressed'), 'false');
      assert.match(await heart.textContent(), /Add .+ to wishlist/, 'the heart is named for screen readers');
      await Promise.all([page.waitForURL((u) => u.pathname === '/login'), heart.click()]);
      assert.equal(page.url(), shop.url('/login?from=%2Fproduct%2Fnb-006'));
      assert.equal(await text(page.locator('h1')), 'Sign In');

      await signIn(page, account.email, account.password, { navigate: false });
      assert.equal(page.url(), shop.url('/product/nb-006'), 'signing in returns to the product');
      assert.equal(await productHeart(page).getAttribute('aria-pressed'), 'false', 'nothing was added before signing in');
    });

    forEachMode('the heart sends a guest to sign in too', async ({ page, shop }) => {
      await continueAsGuest(page);
      await open(page, '/product/nb-007');
      await Promise.all([page.waitForURL((u) => u.pathname === '/login'), productHeart(page).click()]);
      assert.equal(page.url(), shop.url('/login?from=%2Fproduct%2Fnb-007'));
      await expectVisible(page.getByTestId('account-menu').filter({ visible: true }), 'the guest is still a guest');

      // The wishlist page needs an account as well.
      await open(page, '/wishlist');
      assert.equal(page.url(), shop.url('/login?from=%2Fwishlist'));
    });

    forEachMode('signed in, the heart toggles and stays toggled after a reload', async ({ page, js, shop, t }) => {
      const account = await createAccount(shop, { js, label: 'heart' });
      await signIn(page, account.email, account.password);
      await open(page, '/product/nb-008');
      const title = await text(page.getByTestId('product-title'));

      let res = await pressHeart(page, productHeart(page), js);
      if (js) {
        assert.equal(res.status(), 200);
        assert.equal(pathOf(page), '/product/nb-008', 'the page stays');
      } else {
        assert.equal(res.status(), 303);
        assert.equal(pathOf(page), '/product/nb-008', 'back on the product');
        await expectFlash(page, MSG.wishAdded);
      }
      assert.equal(await productHeart(page).getAttribute('aria-pressed'), 'true');
      assert.equal(await text(productHeart(page).locator('.sr-only')), `Remove ${title} from wishlist`);
      await page.reload();
      assert.equal(await productHeart(page).getAttribute('aria-pressed'), 'true', 'still on the wishlist after a reload');

      let rows = shop.queryDB(t, `SELECT w.product_id FROM wishlist_items w JOIN users u ON u.id = w.user_id WHERE u.email = ${sqlString(account.email)}`);
      if (rows) assert.deepEqual(rows, [{ product_id: 'nb-008' }]);

      await open(page, '/wishlist');
      assert.equal(await text(page.locator('h1')), 'My Wishlist');
      assert.equal(await text(page.getByTestId('wishlist-count')), '1 item');
      const item = page.getByTestId('wishlist-item');
      assert.equal(await item.count(), 1);
      assert.equal(await item.getAttribute('data-product-id'), 'nb-008');
      const added = await text(item.getByTestId('added-date'));
      assert.ok([...shortDates()].some((d) => added === `Added ${d}`), `"${added}" is today's date`);

      // Off again.
      await open(page, '/product/nb-008');
      res = await pressHeart(page, productHeart(page), js);
      if (!js) await expectFlash(page, MSG.wishRemoved);
      assert.equal(await productHeart(page).getAttribute('aria-pressed'), 'false');
      await page.reload();
      assert.equal(await productHeart(page).getAttribute('aria-pressed'), 'false', 'off after a reload');
      await open(page, '/wishlist');
      await expectVisible(page.getByTestId('wishlist-empty'), 'the empty wishlist');
      rows = shop.queryDB(t, `SELECT w.product_id FROM wishlist_items w JOIN users u ON u.id = w.user_id WHERE u.email = ${sqlString(account.email)}`);
      if (rows) assert.deepEqual(rows, []);
    });

    forEachMode('the wishlist page moves an item to the cart and removes another', async ({ page, js, shop }) => {
      const account = await createAccount(shop, { js, label: 'wishmove' });
      await signIn(page, account.email, account.password);
      await open(page, '/wishlist');
      const empty = page.getByTestId('wishlist-empty');
      await expectVisible(empty, 'the empty wishlist');
      assert.equal(await text(empty.locator('.lead')), MSG.wishlistEmpty);
      assert.equal(await empty.getByRole('link', { name: 'Browse Products' }).getAttribute('href'), '/products');

      for (const id of ['nb-009', 'nb-010']) {
        await open(page, `/product/${id}`);
        await pressHeart(page, productHeart(page), js);
        assert.equal(await productHeart(page).getAttribute('aria-pressed'), 'true', `${id} is on the wishlist`);
      }

      await open(page, '/wishlist');
      assert.equal(await text(page.getByTestId('wishlist-count')), '2 items');
      const ids = await page.getByTestId('wishlist-item').evaluateAll((els) => els.map((e) => e.dataset.productId));
      assert.deepEqual(ids.sort(), ['nb-009', 'nb-010']);

      // Add to Cart moves nb-009 to the cart.
      const item9 = page.locator('[data-testid=wishlist-item][data-product-id=nb-009]');
      const res = await submit(page, item9.getByTestId('wishlist-add-to-cart'));
      assert.equal(res.status(), 303);
      assert.equal(pathOf(page), '/wishlist');
      await expectFlash(page, MSG.moved);
      assert.equal(await item9.count(), 0, 'nb-009 left the wishlist');
      assert.equal(await page.getByTestId('wishlist-item').count(), 1);
      assert.equal(await text(page.getByTestId('wishlist-count')), '1 item');
      await expectBadge(page, 1);
      await open(page, '/cart');
      assert.deepEqual((await cartLines(page)).map((l) => [l.id, l.quantity]), [['nb-009', 1]]);

      // Remove nb-010.
      await open(page, '/wishlist');
      await submit(page, page.locator('[data-testid=wishlist-item][data-product-id=nb-010]').getByTestId('wishlist-remove'));
      assert.equal(pathOf(page), '/wishlist');
      await expectFlash(page, MSG.wishRemoved);
      await expectVisible(page.getByTestId('wishlist-empty'), 'the empty wishlist');
      assert.equal(await page.getByTestId('wishlist-item').count(), 0);
    });
  });

  // -------------------------------------------------------------------------
  // 4. Accessibility (each check runs with JavaScript on and with scripts blocked)

  describe('accessibility', () => {
    /** Puts products in this context's cart (as the Add to Cart form would). */
    const fillCart = async (page) => {
      await postAs(page, '/product/nb-001', '/cart/items', { product_id: 'nb-001', quantity: '2' });
      await postAs(page, '/product/nb-011', '/cart/items', { product_id: 'nb-011', quantity: '1' });
    };

    browserTest('axe: /cart empty', () =>
      checkA11y('/cart', { prepare: (page) => expectVisible(page.getByTestId('cart-empty'), 'the empty cart') }),
    );

    browserTest('axe: /cart with items', () =>
      checkA11y('/cart', {
        setup: fillCart,
        prepare: async (page) => assert.equal(await page.getByTestId('cart-line').count(), 2),
      }),
    );

    browserTest('axe: /product/nb-001 after adding to the cart', () =>
      checkA11y('/product/nb-001', {
        prepare: async (page) => {
          await Promise.all([
            page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/cart/items'),
            productForm(page).getByTestId('add-to-cart').click(),
          ]);
          // With scripts the button confirms; without, the page comes back with the message.
          await expectVisible(
            page.locator('[data-testid=flash], [data-testid=add-to-cart]:has-text("Added ✓")').first(),
            'the confirmation',
          );
          await expectBadge(page, 1);
        },
      }),
    );

    browserTest('axe: /product/nb-001 with the quantity error', () =>
      checkA11y('/product/nb-001', {
        prepare: async (page) => {
          const form = productForm(page);
          await form.evaluate((f) => {
            f.noValidate = true;
          });
          await form.getByRole('spinbutton', { name: 'Quantity' }).fill('11');
          await Promise.all([
            page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/cart/items'),
            form.getByTestId('add-to-cart').click(),
          ]);
          await expectVisible(page.locator('[data-testid=flash], [data-testid=cart-error]').first(), 'the error');
        },
      }),
    );

    // Signed-in pages: one account with an empty wishlist, one with items.
    const accounts = {};
    const signedIn = (which, extra = {}) => ({
      ...extra,
      setup: async (page) => {
        accounts[which] ??= await createAccount(shop, { label: `axe-${which}` });
        const res = await signIn(page, accounts[which].email, accounts[which].password);
        assert.equal(res.status(), 303, 'signed in for the accessibility check');
        if (which === 'filled') {
          for (const id of ['nb-012', 'nb-013']) {
            await open(page, `/product/${id}`);
            if ((await productHeart(page).getAttribute('aria-pressed')) === 'false') {
              await postAs(page, `/product/${id}`, `/wishlist/${id}/toggle`, { return_to: `/product/${id}` });
            }
          }
        }
      },
    });

    browserTest('axe: /wishlist empty', () =>
      checkA11y('/wishlist', signedIn('empty', { prepare: (page) => expectVisible(page.getByTestId('wishlist-empty'), 'the empty wishlist') })),
    );

    browserTest('axe: /wishlist with items', () =>
      checkA11y(
        '/wishlist',
        signedIn('filled', { prepare: async (page) => assert.equal(await page.getByTestId('wishlist-item').count(), 2) }),
      ),
    );

    browserTest('axe: /product/nb-012 with the heart on', () =>
      checkA11y(
        '/product/nb-012',
        signedIn('filled', { prepare: async (page) => assert.equal(await productHeart(page).getAttribute('aria-pressed'), 'true') }),
      ),
    );
  });
});
