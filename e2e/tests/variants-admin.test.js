// The back office's options and variants editor: a staff member (an
// admin, made with the server binary's `staff add` command) opens a
// product's editor, follows "Options and variants", adds the option Size
// with its values, is told beforehand that the product's stock moves to
// the first variant, generates the combinations and sees the variants,
// then adds a size and generates again. The journey runs with JavaScript
// off (the back office needs none) and once with it on; axe checks the
// page at 1280 and 375 pixels, and from 320 to 768 pixels nothing scrolls
// sideways.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { useShop, forEachMode, browserTest, checkA11y, expectVisible, text, open, sqlString, submit, follow } from '../lib/harness.js';
import { signIn, staffAccount } from '../lib/accounts.js';

const PHONE = { width: 375, height: 812 };



describe('Options and variants in the back office', () => {
  const shop = useShop();
  const adminAccount = () => staffAccount(shop, 'admin');
  beforeEach((t) => shop.resetRateLimits(t));

  /** The variant rows as "label id stock", in order. */
  async function rows(page) {
    const out = [];
    for (const row of await page.getByTestId('variant-row').all()) {
      const id = await row.getAttribute('data-variant');
      out.push(`${await text(row.getByTestId('variant-label'))} ${id} ${await row.getByRole('spinbutton', { name: 'Stock' }).inputValue()}`);
    }
    return out;
  }

  /** Adds a value to the option through its form. */
  async function addValue(page, option, value) {
    const form = page.getByTestId('option').filter({ has: page.getByRole('heading', { name: option }) }).getByTestId('add-value-form');
    await form.getByRole('textbox', { name: `New value for ${option}` }).fill(value);
    assert.equal((await submit(page, form.getByRole('button', { name: 'Add value' }))).status(), 303, `${value} added`);
    await expectVisible(page.getByTestId('flash'), 'the confirmation');
    assert.match(await text(page.getByTestId('flash')), new RegExp(`${value} added to ${option}`));
  }

  // Each mode edits its own product (the database is the file's), sold
  // as one item with stock from the built-in catalogue.
  const products = { true: 'nb-041', false: 'nb-042' };

  forEachMode('a staff member adds a size to a product', async ({ page, js, shop, t }) => {
    const id = products[js];
    const before = shop.queryDB(t, `SELECT stock FROM variants WHERE id = ${sqlString(id)}`);
    const stock = before ? before[0].stock : null;

    await signIn(page, await adminAccount());
    await open(page, `/admin/products/${id}`);
    await follow(page, page.getByTestId('variants-link'));
    assert.equal(new URL(page.url()).pathname, `/admin/products/${id}/variants`);
    await expectVisible(page.getByRole('heading', { name: 'Options and variants' }), 'the editor');
    assert.equal((await rows(page)).length, 1, 'sold as one item');

    // The option, then its values.
    const add = page.getByTestId('add-option-form');
    await add.getByRole('textbox', { name: 'New option' }).fill('Size');
    assert.equal((await submit(page, add.getByRole('button', { name: 'Add option' }))).status(), 303);
    assert.match(await text(page.getByTestId('flash')), /Option Size added/);
    await addValue(page, 'Size', 'M');
    await addValue(page, 'Size', 'L');

    // Told beforehand where the stock goes.
    const notice = await text(page.getByTestId('default-stock-notice'));
    assert.match(notice, /move to the first variant, Size: M/);
    if (stock !== null) assert.match(notice, new RegExp(`with ${stock} in stock`));

    const generate = page.getByTestId('generate-form');
    assert.match(await text(generate), /2 combinations have no variant yet/);
    assert.equal((await submit(page, generate.getByRole('button', { name: 'Generate combinations' }))).status(), 303);
    assert.match(await text(page.getByTestId('flash')), /2 variants generated/);
    let shown = await rows(page);
    assert.equal(shown.length, 2, shown.join('; '));
    assert.match(shown[0], new RegExp(`^Size: M ${id}-m \\d+$`));
    assert.match(shown[1], new RegExp(`^Size: L ${id}-l 0$`));
    if (stock !== null) assert.equal(shown[0], `Size: M ${id}-m ${stock}`, "the product's stock is on the first variant");
    assert.equal(await page.getByTestId('default-stock-notice').count(), 0, 'the notice is gone with the default variant');

    // A size more.
    await addValue(page, 'Size', 'XL');
    await submit(page, page.getByTestId('generate-form').getByRole('button', { name: 'Generate combinations' }));
    assert.match(await text(page.getByTestId('flash')), /1 variant generated/);
    shown = await rows(page);
    assert.deepEqual(shown.map((r) => r.split(' ').slice(0, 3).join(' ')), [`Size: M ${id}-m`, `Size: L ${id}-l`, `Size: XL ${id}-xl`]);

    // Stock for the new size, saved from its row.
    const xl = page.locator(`[data-testid="variant-row"][data-variant="${id}-xl"]`);
    await xl.getByRole('spinbutton', { name: 'Stock' }).fill('4');
    assert.equal((await submit(page, page.getByRole('button', { name: 'Save variants' }))).status(), 303);
    assert.match(await text(page.getByTestId('flash')), /1 variant saved/);
    assert.equal(await xl.getByRole('spinbutton', { name: 'Stock' }).inputValue(), '4');

    const stored = shop.queryDB(t, `SELECT id, stock FROM variants WHERE product_id = ${sqlString(id)} ORDER BY position`);
    if (stored) assert.deepEqual(stored.map((v) => v.id), [`${id}-m`, `${id}-l`, `${id}-xl`]);
    const audit = shop.queryDB(t, `SELECT action FROM audit_log WHERE subject IN (${sqlString(id)}, ${sqlString(`${id}-xl`)}) ORDER BY id`);
    if (audit) {
      assert.deepEqual(audit.map((e) => e.action), ['variant.option.add', 'variant.value.add', 'variant.value.add', 'variant.generate',
        'variant.value.add', 'variant.generate', 'variant.update']);
    }
  });

  browserTest('the options and variants editor passes axe and fits a phone', async ({ shop }) => {
    const email = await adminAccount();
    const setup = (page) => signIn(page, email);
    // One product with a colour option (swatches) and its variants, one
    // still sold as one item.
    const withVariants = '/admin/products/nb-043/variants';
    const plain = '/admin/products/nb-044/variants';
    const context = await shop.newContext({ js: false });
    try {
      const page = await context.newPage();
      await signIn(page, email);
      await open(page, withVariants);
      const post = async (action, form) => {
        const res = await page.request.post(new URL(`${withVariants}${action}`, page.url()).href, { form, maxRedirects: 0 });
        assert.equal(res.status(), 303, `POST ${action} ${JSON.stringify(form)}`);
      };
      await post('/options', { name: 'Colour' });
      await post('/values', { option: 'Colour', value: 'Midnight', swatch: '#1e1b4b' });
      await post('/values', { option: 'Colour', value: 'Sand', swatch: '#d6c7a1' });
      await post('/options', { name: 'Size' });
      await post('/values', { option: 'Size', value: 'One size' });
      await post('/generate', {});
    } finally {
      await context.close();
    }
    // The photos editor of the same product too.
    for (const p of [withVariants, plain, '/admin/products/nb-043/photos']) {
      await checkA11y(p, { setup, noScript: true });
      await checkA11y(p, { setup, viewport: PHONE, noScript: true });
    }
    // With a refused form's messages shown: a name the product has.
    await checkA11y(withVariants, {
      setup,
      viewport: PHONE,
      noScript: true,
      prepare: async (page) => {
        const form = page.getByTestId('add-option-form');
        await form.getByRole('textbox', { name: 'New option' }).fill('colour');
        assert.equal((await submit(page, form.getByRole('button', { name: 'Add option' }))).status(), 422);
      },
    });
    // Nothing scrolls sideways, from the narrowest phone to a tablet.
    const narrow = await shop.newContext({ js: false, viewport: { width: 320, height: 640 } });
    try {
      const page = await narrow.newPage();
      await signIn(page, email);
      for (const width of [320, 480, 768]) {
        await page.setViewportSize({ width, height: 800 });
        for (const p of [withVariants, plain]) {
          await open(page, p);
          const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
          assert.ok(scroll <= client, `${p} at ${width} px is ${scroll} px wide`);
        }
      }
    } finally {
      await narrow.close();
    }
  });
});
