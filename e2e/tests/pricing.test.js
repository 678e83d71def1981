// What an order costs, as a shopper meets it: the shipping step offers
// each zone's methods with their prices, and choosing Express changes the
// total; a promo code is applied in the cart and removed, a refused code
// says why next to its field, as typed; a code applied at Review is on the
// order; the /shipping page states what checkout charges. Every journey
// runs with JavaScript on and off; axe checks the cart and the shipping
// step.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { useShop, forEachMode, browserTest, checkA11y, text, open, submit, awaitPayment, sqlString } from '../lib/harness.js';

const CARD = { 'Card Number': '4242 4242 4242 4242', 'Name on Card': 'Grace Hopper', 'Expiry Date (MM/YY)': '12/30', CVV: '123' };

function unique(label, js) {
  return `${label}-${js ? 'js' : 'nojs'}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Money text ("$1,234.56", "−$3.20") in cents; "Free" is 0. */
function cents(s) {
  if (String(s).trim() === 'Free') return 0;
  const m = String(s).replace(/[,\s]/g, '').match(/\$(\d+)\.(\d{2})/);
  assert.ok(m, `"${s}" is an amount of money`);
  return Number(m[1]) * 100 + Number(m[2]);
}

function pathOf(page) {
  return new URL(page.url()).pathname;
}

/** Adds a product through the product page's form, as a shopper would. */
async function addToCart(page, id, quantity = 1) {
  await open(page, `/product/${id}`);
  const form = page.getByTestId('product-detail').getByTestId('add-to-cart-form');
  await form.getByRole('spinbutton', { name: 'Quantity' }).fill(String(quantity));
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/cart/items'),
    form.getByTestId('add-to-cart').click(),
  ]);
  assert.ok(res.status() < 400, 'the add succeeded');
  await page.waitForLoadState('load');
}

/** A guest with a cart on the shipping step. */
async function toShippingStep(page) {
  await open(page, '/login');
  await submit(page, page.getByTestId('continue-guest'));
  await addToCart(page, 'nb-042'); // $16.00
  await open(page, '/checkout/shipping');
}

async function fillAddress(page, js, country = 'United States') {
  const form = page.getByTestId('shipping-form');
  const values = {
    'First Name': 'Grace', 'Last Name': 'Hopper', Email: `${unique('grace', js)}@example.com`, Phone: '+1 555 0199',
    Address: '12 Harbour Lane', City: 'Arlington', State: 'VA', 'ZIP Code': '22201',
  };
  for (const [label, value] of Object.entries(values)) {
    // The State field suggests the states (a datalist), which makes it a combobox.
    const role = label === 'State' ? 'combobox' : 'textbox';
    await form.getByRole(role, { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`) }).fill(value);
  }
  await form.getByRole('combobox', { name: 'Country' }).selectOption(country);
}

async function toReview(page) {
  const pay = page.getByTestId('payment-form');
  for (const [label, value] of Object.entries(CARD)) {
    await pay.getByRole('textbox', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`) }).fill(value);
  }
  const res = await submit(page, pay.getByTestId('next'));
  assert.equal(res.status(), 303);
  assert.equal(pathOf(page), '/checkout/review');
}

/** The summary's sums, in cents. */
async function sums(page, scope) {
  const box = page.getByTestId(scope);
  const out = {};
  for (const id of ['subtotal', 'shipping', 'tax', 'total']) out[id] = cents(await text(box.getByTestId(id)));
  out.discount = (await box.getByTestId('discount').count()) ? cents(await text(box.getByTestId('discount'))) : 0;
  return out;
}

describe('What an order costs', () => {
  const shop = useShop({ env: { PAYMENT_DELAY: '50ms' } });
  beforeEach((t) => shop.resetRateLimits(t));

  /** A promo code made for one test, straight in the store. */
  function promo(t, code, { kind = 'percent', value = 1000, min = 0, endsAt = 0 } = {}) {
    shop.queryDB(t, `INSERT INTO promo_codes (code, kind, value, min_subtotal_cents, ends_at, created_at)
      VALUES (${sqlString(code)}, ${sqlString(kind)}, ${value}, ${min}, ${endsAt}, 1)`);
  }

  forEachMode('choosing Express on the shipping step changes the total to what the order is charged', async ({ page, js }) => {
    await toShippingStep(page);
    const methods = page.getByTestId('ship-methods');
    assert.match(await text(methods), /Standard · \$10\.00/);
    assert.match(await text(methods), /Express · \$14\.99/);
    assert.match(await text(methods), /Next Day · \$19\.99/);
    assert.match(await text(methods), /International · \$24\.99/);
    assert.ok(await page.locator('input[name=shipMethod][value=standard]').isChecked(), 'Standard is chosen at first');
    await fillAddress(page, js);
    await page.locator('input[name=shipMethod][value=express]').check();
    assert.equal((await submit(page, page.getByTestId('shipping-form').getByTestId('next'))).status(), 303);
    await toReview(page);
    const s = await sums(page, 'checkout-summary');
    assert.equal(s.shipping, 1499, 'Express costs $14.99');
    assert.equal(s.total, s.subtotal + s.shipping + s.tax);
    assert.equal(await text(page.getByTestId('review-shipping-method')), 'Shipping: Express');

    await submit(page, page.getByTestId('place-order'));
    await awaitPayment(page);
    assert.match(pathOf(page), /^\/orders\/NOC-/);
    assert.equal(cents(await text(page.locator('main').getByTestId('order-shipping'))), 1499);
    assert.equal(cents(await text(page.locator('main').getByTestId('order-total'))), s.total);
  });

  forEachMode('a code applied in the cart takes its discount off, and can be removed', async ({ page, js, t }) => {
    const code = unique('night', js).toUpperCase();
    promo(t, code, { value: 1000 });
    await toShippingStep(page);
    await addToCart(page, 'nb-042'); // 2 × $16.00
    await open(page, '/cart');
    const before = await sums(page, 'order-summary');
    assert.equal(await text(page.getByTestId('total').locator('xpath=..').locator('dt')), 'Estimated total');

    await page.getByRole('textbox', { name: 'Promo code' }).fill(code.toLowerCase());
    assert.equal((await submit(page, page.getByTestId('apply-code'))).status(), 303);
    assert.equal(await text(page.getByTestId('applied-code')), code);
    const after = await sums(page, 'order-summary');
    assert.equal(after.discount, 320, '10% of $32.00');
    assert.equal(after.total, after.subtotal - after.discount + after.shipping + after.tax);
    assert.ok(after.total < before.total);

    await submit(page, page.getByTestId('remove-code'));
    assert.equal(await page.getByTestId('discount').count(), 0, 'the discount is gone');
    assert.deepEqual(await sums(page, 'order-summary'), before);
  });

  forEachMode('a refused code says why next to the field and keeps what was typed', async ({ page, js, t }) => {
    const expired = unique('old', js).toUpperCase();
    const big = unique('big', js).toUpperCase();
    promo(t, expired, { kind: 'fixed', value: 500, endsAt: 1 });
    promo(t, big, { kind: 'fixed', value: 500, min: 100000 });
    await toShippingStep(page);
    await open(page, '/cart');
    for (const [typed, message] of [
      ['NO-SUCH-CODE', "That code isn't valid."],
      [expired, 'That code has expired.'],
      [big, 'That code needs a subtotal of at least $1,000.00.'],
    ]) {
      const field = page.getByRole('textbox', { name: 'Promo code' });
      await field.fill(typed);
      assert.equal((await submit(page, page.getByTestId('apply-code'))).status(), 422);
      assert.equal(await text(page.locator('#promo-code-error')), message);
      assert.equal(await page.getByRole('textbox', { name: 'Promo code' }).inputValue(), typed);
      assert.equal(await page.getByRole('textbox', { name: 'Promo code' }).getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByTestId('discount').count(), 0);
    }
  });

  forEachMode('a code applied at Review is on the order', async ({ page, js, t }) => {
    const code = unique('ship', js).toUpperCase();
    promo(t, code, { kind: 'free_shipping', value: 0 });
    await toShippingStep(page);
    await fillAddress(page, js);
    await submit(page, page.getByTestId('shipping-form').getByTestId('next'));
    await toReview(page);
    assert.equal(cents(await text(page.getByTestId('checkout-summary').getByTestId('shipping'))), 1000);
    await page.getByRole('textbox', { name: 'Promo code' }).fill(code);
    assert.equal((await submit(page, page.getByTestId('apply-code'))).status(), 303);
    assert.equal(pathOf(page), '/checkout/review');
    assert.equal(await text(page.getByTestId('checkout-summary').getByTestId('shipping')), 'Free');
    await submit(page, page.getByTestId('place-order'));
    await awaitPayment(page);
    assert.equal(await text(page.locator('main').getByTestId('order-shipping')), 'Free');
    const orderId = pathOf(page).split('/')[2];
    const rows = shop.queryDB(t, `SELECT promo_code, used FROM orders JOIN promo_codes ON code = promo_code WHERE id = ${sqlString(orderId)}`);
    if (rows) assert.deepEqual(rows, [{ promo_code: code, used: 1 }], 'the order holds the code and its use is counted');
  });

  forEachMode('the /shipping page states what the shipping step charges', async ({ page }) => {
    await open(page, '/shipping');
    const rows = await page.locator('[data-testid=shipping-table] tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent.replace(/\s+/g, ' ').trim())),
    );
    assert.deepEqual(rows.map((r) => [r[0], r[1]]), [
      ['Standard', 'United States'], ['Express', 'United States'], ['Next Day', 'United States'], ['International', 'International: Canada, United Kingdom'],
    ]);
    await toShippingStep(page);
    const offered = await page.getByTestId('ship-methods').locator('label').allTextContents();
    for (const [name, , , cost] of rows) {
      const price = cost.match(/\$\d+\.\d{2}/)[0];
      assert.ok(offered.some((o) => o.includes(name) && o.includes(price)), `${name} at ${price} is offered at checkout: ${offered}`);
    }
  });

  browserTest('axe: the cart with a code refused and the shipping step', async () => {
    await checkA11y('/cart', {
      setup: toShippingStep,
      prepare: async (page) => {
        await page.getByRole('textbox', { name: 'Promo code' }).fill('NOPE');
        await submit(page, page.getByTestId('apply-code'));
      },
    });
    await checkA11y('/checkout/shipping', { setup: toShippingStep });
  });
});
