// Variants: a shopper chooses a size and a colour on the product page, with
// JavaScript and without: each choice is a link to the variant's own page,
// with its price and stock; a crossed-out combination can't be added; the
// chosen variant is named in the cart, the order and the mail.
//
// The built-in field jacket (nb-014) comes in S, M, L and XL, in Black and
// Olive: M / Black has 3, L / Olive is sold out, XL / Olive isn't sold and
// XL / Black costs $199.00 instead of $189.00.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { useShop, forEachMode, browserTest, checkA11y, expectVisible, text, open, sqlString, awaitPayment, NARROW, submit, follow } from '../lib/harness.js';

const JACKET = '/product/nb-014';
const SHIP = {
  firstName: 'Grace', lastName: 'Hopper', email: '', phone: '(217) 555-0100', address: '1 Main Street',
  city: 'Springfield', state: 'IL', zipCode: '62701', country: 'United States',
};
const CARD = { cardNumber: '4242 4242 4242 4242', cardName: 'Grace Hopper', expiryDate: '12/30', cvv: '123', action: 'next' };

function pathOf(page) {
  return new URL(page.url()).pathname;
}



/** Posts a shop form from the page (its cookies), to set up a state quickly. */
async function postAs(page, action, fields) {
  const res = await page.request.post(new URL(action, page.url()).href, { form: fields, maxRedirects: 0 });
  assert.ok(res.status() < 400, `POST ${action} answered ${res.status()}`);
  return res;
}

/** The product page's value link of an option. */
function optionValue(page, option, value) {
  return page.getByTestId('option-group').filter({ hasText: `${option}:` }).locator(`[data-testid=option-value][data-value="${value}"]`);
}

/** What the product page shows of the variant: the values chosen, price and stock. */
async function shown(page) {
  const detail = page.getByTestId('product-detail');
  return {
    chosen: (await detail.getByTestId('option-selected').allInnerTexts()).join(' / '),
    price: await text(detail.getByTestId('price')),
    stock: await text(detail.getByTestId('stock')),
  };
}

describe('variants', () => {
  const shop = useShop({ env: { PAYMENT_DELAY: '0s' } });
  beforeEach((t) => shop.resetRateLimits(t));

  forEachMode('a shopper chooses Size M in Black, adds it, and finds it named in the cart, the order and the mail', async ({ page, js, shop: s, t }) => {
    await open(page, JACKET);
    assert.deepEqual(await shown(page), { chosen: 'S / Black', price: '$189.00', stock: 'In stock' }, 'the first variant in stock is shown');

    // XL costs more; M / Black has only a few left.
    await follow(page, optionValue(page, 'Size', 'XL'));
    assert.equal(pathOf(page) + new URL(page.url()).search, `${JACKET}?variant=nb-014-xl-black`, 'a variant has its own URL');
    assert.equal((await shown(page)).price, '$199.00');
    assert.equal(await optionValue(page, 'Colour', 'Olive').getAttribute('data-unavailable'), 'true', 'XL / Olive is crossed out');
    await follow(page, optionValue(page, 'Size', 'M'));
    const m = await shown(page);
    assert.equal(m.chosen, 'M / Black');
    assert.equal(m.price, '$189.00');
    assert.match(m.stock, /^Only [1-3] left$/);
    assert.equal(await page.locator('link[rel=canonical]').getAttribute('href'), shop.url(JACKET), 'the product\'s URL stays canonical');

    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/cart/items'),
      page.getByTestId('add-to-cart').click(),
    ]);
    await open(page, '/cart');
    const line = page.getByTestId('cart-line');
    assert.equal(await line.count(), 1);
    assert.equal(await text(line.getByTestId('variation')), 'Size: M / Colour: Black');
    assert.equal(await text(line.getByTestId('unit-price')), '$189.00 each');

    // A sold-out combination can't be added: its page has nothing to press.
    await open(page, `${JACKET}?variant=nb-014-l-black`);
    await follow(page, optionValue(page, 'Colour', 'Olive'));
    assert.deepEqual(await shown(page), { chosen: 'L / Olive', price: '$189.00', stock: 'Out of stock' });
    assert.equal(await page.getByTestId('add-to-cart').count(), 0, 'no Add to Cart for a sold-out variant');
    assert.equal(await text(page.getByTestId('variant-unavailable')), 'Size: L / Colour: Olive is sold out. Please choose another.');
    // Not by a post either.
    const refused = await page.request.post(shop.url('/cart/items'), {
      form: { product_id: 'nb-014', variant: 'nb-014-l-olive', quantity: '1' }, maxRedirects: 0, headers: { Accept: 'application/json' },
    });
    assert.equal(refused.status(), 422);
    assert.match((await refused.json()).error, /Size: L \/ Colour: Olive\) is out of stock/);

    // Checkout as a guest, then the order and its mail name the variant.
    const email = `variant-${js ? 'js' : 'nojs'}-${Date.now()}@example.com`;
    await open(page, '/checkout');
    await submit(page, page.getByTestId('continue-guest'));
    await postAs(page, '/checkout/shipping', { ...SHIP, email });
    await postAs(page, '/checkout/payment', CARD);
    await open(page, '/checkout/review');
    assert.match(await text(page.locator('.review-lines')), /Midnight Waxed Cotton Field Jacket \(Size: M \/ Colour: Black\) × 1/);
    await submit(page, page.getByTestId('place-order'));
    assert.equal(await awaitPayment(page), 'paid');
    assert.equal(await text(page.getByTestId('variation')), 'Size: M / Colour: Black');
    const orderID = pathOf(page).slice('/orders/'.length);
    const mails = s.queryDB(t, `SELECT body FROM outbox WHERE subject = ${sqlString(`Your order ${orderID}`)}`);
    if (mails) assert.match(mails[0].body, /1 × Midnight Waxed Cotton Field Jacket \(Size: M \/ Colour: Black\)/);
  });

  browserTest('axe: a product page with variants, a sold-out one chosen, at 1280 and 390 px', async () => {
    await checkA11y(`${JACKET}?variant=nb-014-l-olive`, {
      prepare: async (page) => expectVisible(page.getByTestId('variant-picker'), 'the choice of size and colour'),
    });
    await checkA11y(`${JACKET}?variant=nb-014-l-olive`, { viewport: NARROW });
  });
});
