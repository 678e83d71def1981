// The foundation journeys: static pages, the shared frame, the responsive
// menu, search, the contact form, cross-site posts, the no-JavaScript promise, the FAQ
// accordion and accessibility. Every journey runs with JavaScript on and off.

import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

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
  CAREERS_URL,
  NARROW,
  WIDE,
  WAIT_MS,
  islandsReady,
} from '../lib/harness.js';

const CONTACT_SUCCESS = "Message sent successfully! We'll get back to you soon.";

/** A value no other test uses, so rows can be told apart in the shared database. */
function unique(label) {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function pathOf(page) {
  return new URL(page.url()).pathname;
}

/** Collects the requests a page makes, so a test can ask what was loaded. */
function recordRequests(page) {
  const requests = [];
  page.on('request', (r) => requests.push({ url: r.url(), type: r.resourceType(), method: r.method() }));
  return requests;
}

/** Clicks Send Message and returns the response to the POST. */
async function submitContact(page) {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/contact', {
      timeout: WAIT_MS,
    }),
    page.getByRole('button', { name: 'Send Message' }).click(),
  ]);
  await page.waitForLoadState('load');
  return res;
}

/** A form field by its accessible name (what a screen reader announces). */
function field(page, name) {
  return page.getByRole('textbox', { name, exact: true });
}

/** Turns off the browser's own validation so the server's is what the shopper sees. */
async function disableBrowserValidation(page) {
  await page.evaluate(() => {
    document.querySelector('[data-testid=contact-form]').noValidate = true;
  });
}

describe('foundation', () => {
  // X-Forwarded-For from the test browser is trusted, so a test can send
  // from an address of its own (the contact form is limited per address).
  const shop = useShop({ env: { TRUSTED_PROXIES: '127.0.0.1,::1' } });

  // -------------------------------------------------------------------------
  // 1. Static pages

  describe('static pages', () => {
    forEachMode('the landing page offers the shop, its benefits and categories', async ({ page }) => {
      await open(page, '/');
      assert.equal(await page.title(), 'Nocturne');
      assert.equal(await page.locator('h1').count(), 1);
      assert.equal(await text(page.locator('h1')), 'Everything you love, in one quiet place');

      const shopNow = page.getByRole('link', { name: 'Shop Now' });
      assert.equal(await shopNow.getAttribute('href'), '/products');
      const featured = page.getByRole('link', { name: 'Featured Products' });
      assert.equal(await featured.getAttribute('href'), '/products?category=featured');

      const benefits = await page.locator('[data-testid=benefits] h3').allInnerTexts();
      assert.deepEqual(
        benefits.map((s) => s.trim()),
        ['Quality Products', 'Fast Delivery', 'Secure Shopping', 'Best Prices'],
      );

      const tiles = page.locator('[data-testid=category-tiles] a');
      assert.equal(await tiles.count(), 3);
      const hrefs = await tiles.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.deepEqual(hrefs, [
        '/products?category=electronics',
        '/products?category=home',
        '/products?category=fashion',
      ]);
      assert.deepEqual(
        (await page.locator('[data-testid=category-tiles] .tile-name').allInnerTexts()).map((s) => s.trim()),
        ['Electronics', 'Home', 'Fashion'],
      );
    });

    forEachMode('the FAQ page lists ten questions, all closed', async ({ page }) => {
      await open(page, '/faq');
      assert.equal(await page.title(), 'FAQ | Nocturne');
      assert.equal(await text(page.locator('h1')), 'Frequently Asked Questions');
      const entries = page.locator('[data-testid=faq] details');
      assert.equal(await entries.count(), 10);
      for (let i = 0; i < 10; i++) {
        const entry = entries.nth(i);
        assert.ok((await text(entry.locator('summary'))).endsWith('?'), `FAQ entry ${i + 1} has a question`);
        assert.equal(await entry.getAttribute('open'), null, `FAQ entry ${i + 1} starts closed`);
        assert.equal(await entry.locator('p').isVisible(), false, `answer ${i + 1} is hidden until opened`);
      }
    });

    forEachMode('the shipping page states the policy figures', async ({ page }) => {
      await open(page, '/shipping');
      assert.equal(await page.title(), 'Shipping Information | Nocturne');
      assert.equal(await text(page.locator('h1')), 'Shipping Information');
      const rows = await page.locator('[data-testid=shipping-table] tbody tr').evaluateAll((trs) =>
        trs.map((tr) => [...tr.children].map((c) => c.textContent.replace(/\s+/g, ' ').trim())),
      );
      // The cut-off is in the shop's time zone: EST in winter, EDT in summer.
      const cutoff = rows[2][2].match(/before 2 PM E[SD]T$/) ? rows[2][2] : 'before 2 PM EST';
      assert.deepEqual(rows, [
        ['Standard', 'United States', '3–5 business days', '$10.00 on orders under $50; free on orders of $50 or more'],
        ['Express', 'United States', '2–3 business days', '$14.99'],
        ['Next Day', 'United States', cutoff, '$19.99'],
        ['International', 'International: Canada, United Kingdom', '7–14 business days', '$24.99'],
      ]);
      assert.match(cutoff, /^1 business day, for orders placed before 2 PM E[SD]T$/);
    });

    forEachMode('the returns page states the window, refund times and exclusions', async ({ page }) => {
      await open(page, '/returns');
      assert.equal(await page.title(), 'Returns & Refunds | Nocturne');
      assert.equal(await text(page.locator('h1')), 'Returns & Refunds');
      assert.match(await text(page.getByTestId('return-window')), /within 30 days of delivery/);
      const refund = await text(page.getByTestId('refund-time'));
      assert.match(refund, /3-5 business days/);
      assert.match(refund, /5-10 days/);
      const excluded = (await page.locator('[data-testid=non-returnable] li').allInnerTexts()).map((s) => s.trim());
      assert.deepEqual(excluded, [
        'Personal care items',
        'Undergarments and swimwear',
        'Final sale items',
        'Custom or personalised items',
        'Digital products',
        'Gift cards',
      ]);
    });

    forEachMode('the contact page shows the form with labelled fields', async ({ page }) => {
      await open(page, '/contact');
      assert.equal(await page.title(), 'Contact Us | Nocturne');
      assert.equal(await text(page.locator('h1')), 'Contact Us');
      for (const label of ['Name', 'Email', 'Subject', 'Message']) {
        const input = field(page, label);
        await expectVisible(input, `the ${label} field`);
        assert.equal(await input.inputValue(), '', `${label} starts empty`);
      }
      await expectVisible(page.getByRole('button', { name: 'Send Message' }), 'the Send Message button');
    });

    forEachMode('an unknown address shows the 404 page with ways on', async ({ page }) => {
      await open(page, '/definitely-missing', 404);
      assert.equal(await page.title(), 'Page Not Found | Nocturne');
      assert.equal(await text(page.locator('h1')), 'Page Not Found');
      const main = page.locator('main');
      assert.equal(await main.getByRole('link', { name: 'Go Home' }).getAttribute('href'), '/');
      assert.equal(await main.getByRole('link', { name: 'Browse Products' }).getAttribute('href'), '/products');
    });
  });

  // -------------------------------------------------------------------------
  // 2. Frame

  describe('frame', () => {
    forEachMode('the header and footer link to every part of the shop', async ({ page }) => {
      await open(page, '/faq');

      // Brand goes home.
      const brand = page.getByTestId('brand');
      assert.equal(await brand.getAttribute('href'), '/');
      assert.match(await text(brand), /Nocturne/);
      await brand.click();
      await page.waitForURL((u) => u.pathname === '/', { timeout: WAIT_MS });

      const footer = page.locator('footer');
      const expected = [
        ['/products', 'All Products'],
        ['/products?category=electronics', 'Electronics'],
        ['/products?category=fashion', 'Fashion'],
        ['/products?category=jewelery', 'Jewelry'],
        ['/contact', 'Contact Us'],
        ['/faq', 'FAQ'],
        ['/shipping', 'Shipping Information'],
        ['/returns', 'Returns & Refunds'],
        ['/orders', 'Track Order'],
        ['/login', 'Login'],
        ['/register', 'Register'],
        ['/cart', 'Cart'],
        ['/profile', 'Profile'],
      ];
      for (const [href, name] of expected) {
        const link = footer.locator(`a[href="${href}"]`);
        assert.equal(await link.count(), 1, `footer links to ${href}`);
        assert.equal(await text(link), name, `footer link to ${href} is called ${name}`);
        assert.ok(await link.isVisible(), `footer link ${name} is visible`);
      }
      assert.equal(
        await text(page.getByTestId('price-notice')),
        'Prices and availability are subject to change without notice.',
      );

      // Careers opens the careers site in a new tab, without handing it our window.
      const careers = page.locator('a', { hasText: 'Careers' });
      assert.ok((await careers.count()) >= 2, 'Careers is linked from the header and the footer');
      for (const link of await careers.all()) {
        assert.equal(await link.getAttribute('href'), CAREERS_URL);
        assert.equal(await link.getAttribute('target'), '_blank');
        const rel = ((await link.getAttribute('rel')) ?? '').split(/\s+/);
        assert.ok(rel.includes('noopener') && rel.includes('noreferrer'), `Careers rel is "${rel.join(' ')}"`);
        assert.match(await link.textContent(), /opens in a new tab/, 'the new tab is announced');
      }
      await expectVisible(page.locator('header').getByRole('link', { name: /^Careers/ }), 'the Careers link in the header');

      // Signed out: a Login link, no account menu.
      const login = page.locator('header nav[aria-label=Main]').getByTestId('login-link');
      await expectVisible(login, 'the header Login link');
      assert.equal(await text(login), 'Login');
      assert.equal(await login.getAttribute('href'), '/login');
      assert.equal(await page.getByTestId('account-menu').count(), 0);
    });

    forEachMode('the Login link brings the shopper back to the page they were on', async ({ page }) => {
      await open(page, '/shipping');
      const login = page.locator('header nav[aria-label=Main]').getByTestId('login-link');
      assert.equal(await login.getAttribute('href'), '/login?from=%2Fshipping');
    });
  });

  // -------------------------------------------------------------------------
  // 3. Responsive menu (needs static/css/app.css for the viewport rules)

  describe('responsive menu', () => {
    forEachMode(
      'on a phone the Menu button opens and closes the links, with mouse and keyboard',
      async ({ page }) => {
        await open(page, '/');
        const wide = page.locator('nav.nav-wide');
        const toggle = page.getByTestId('nav-toggle');
        const summary = toggle.getByTestId('nav-toggle-button'); // a popover button: Escape closes it
        const menuLinks = page.locator('nav.nav-narrow a');
        const products = page.locator('nav.nav-narrow').getByRole('link', { name: 'Products' });

        await expectHidden(wide, 'the wide navigation at 390 px');
        await expectVisible(summary, 'the Menu button at 390 px');
        assert.equal(await text(summary), 'Menu');
        await expectHidden(products, 'the menu links before opening');

        // Mouse / touch.
        await summary.click();
        await expectVisible(products, 'the Products link after opening the menu');
        for (const link of await menuLinks.all()) {
          assert.ok(await link.isVisible(), `menu link ${await link.getAttribute('href')} is visible when open`);
        }
        await summary.click();
        await expectHidden(products, 'the menu links after closing the menu');

        // Keyboard.
        await summary.focus();
        await page.keyboard.press('Enter');
        await expectVisible(products, 'the Products link after opening the menu with Enter');
        await page.keyboard.press('Tab');
        assert.equal(
          await page.evaluate(() => document.activeElement?.textContent?.trim()),
          'Products',
          'Tab moves from the Menu button to the first menu link',
        );
        await summary.focus();
        await page.keyboard.press('Enter');
        await expectHidden(products, 'the menu links after closing the menu with Enter');
      },
      { viewport: NARROW },
    );

    forEachMode(
      'on a desktop the links show inline and there is no Menu button',
      async ({ page }) => {
        await open(page, '/');
        await expectHidden(page.getByTestId('nav-toggle'), 'the Menu button at 1280 px');
        const wide = page.locator('nav.nav-wide');
        for (const name of ['Products', /^Careers/, 'Cart', 'Login']) {
          await expectVisible(wide.getByRole('link', { name }), `the ${name} link at 1280 px`);
        }
      },
      { viewport: WIDE },
    );
  });

  // -------------------------------------------------------------------------
  // 4. Search

  describe('search', () => {
    forEachMode('a blank search stays on the page; a padded one searches for the trimmed words', async ({ page, js }) => {
      const requests = recordRequests(page);
      await open(page, '/faq');
      const startURL = page.url();
      const box = page.getByRole('searchbox', { name: 'Search products' });
      const submit = page.getByTestId('search-form').getByRole('button', { name: 'Search' });

      for (const blank of ['', '   ']) {
        await box.fill(blank);
        await submit.click();
        assert.equal(page.url(), startURL, `searching for ${JSON.stringify(blank)} does not navigate`);
        assert.equal(await box.evaluate((el) => el.matches(':invalid')), true, 'the blank box is marked invalid');
      }

      await box.fill('  lamp ');
      await Promise.all([page.waitForURL((u) => u.pathname === '/search', { timeout: WAIT_MS }), submit.click()]);
      // The server searches for the trimmed words (it may also tidy the address).
      assert.equal(new URL(page.url()).searchParams.get('q').trim(), 'lamp');
      assert.equal(await text(page.locator('h1')), 'Search results for “lamp”');
      assert.equal(await page.title(), 'Search: lamp | Nocturne');
      // Had a blank search gone out, it would show up here (and in the history).
      const searched = requests
        .filter((r) => r.type === 'document' && new URL(r.url).pathname === '/search')
        .map((r) => new URL(r.url).searchParams.get('q'));
      assert.ok(searched.length > 0, 'the search reached the server');
      assert.deepEqual(
        searched.filter((q) => q === null || q.trim() === ''),
        [],
        `no blank search reached the server (searches: ${JSON.stringify(searched)})`,
      );

      // The results grid mounts and tidies its history entry first: a Back
      // pressed meanwhile could be cancelled by that replaceState.
      if (js) await islandsReady(page);
      await page.goBack();
      assert.equal(page.url(), startURL, 'Back returns to the page the search started from');
    });

    forEachMode('opening a blank search address leads to the products page', async ({ page }) => {
      await page.goto('/search?q=%20%20');
      assert.equal(pathOf(page), '/products');
    });
  });

  // -------------------------------------------------------------------------
  // 5. Contact form, 6. Cross-site posts

  describe('contact form', () => {
    forEachMode('missing fields are explained next to each field and typed text is kept', async ({ page }) => {
      await open(page, '/contact');
      await disableBrowserValidation(page);
      await field(page, 'Subject').fill('Order question');
      const res = await submitContact(page);
      assert.equal(res.status(), 422);

      await expectVisible(page.getByTestId('form-alert'), 'the summary above the form');
      const expected = {
        'contact-name': 'Name is required.',
        'contact-email': 'Email is required.',
        'contact-message': 'Message is required.',
      };
      for (const [id, message] of Object.entries(expected)) {
        const error = page.getByTestId(`${id}-error`);
        await expectVisible(error, `the error for #${id}`);
        assert.equal(await text(error), message);
        const input = page.locator(`#${id}`);
        assert.equal(await input.getAttribute('aria-invalid'), 'true', `#${id} is marked invalid`);
        assert.equal(await input.getAttribute('aria-describedby'), `${id}-error`, `#${id} points at its error`);
      }
      assert.equal(await page.getByTestId('contact-subject-error').count(), 0, 'Subject was given, so no error');
      assert.equal(await field(page, 'Subject').inputValue(), 'Order question', 'the typed Subject is kept');
      assert.equal(await page.getByTestId('flash').count(), 0);
    });

    forEachMode('an invalid email address is rejected and nothing is stored', async ({ page, shop, t }) => {
      const name = unique('Invalid Email');
      await open(page, '/contact');
      await disableBrowserValidation(page);
      await field(page, 'Name').fill(name);
      await field(page, 'Email').fill('not-an-email');
      await field(page, 'Subject').fill('Hello');
      await field(page, 'Message').fill('Is this stored?');
      const res = await submitContact(page);
      assert.equal(res.status(), 422);

      assert.equal(await text(page.getByTestId('contact-email-error')), 'Please enter a valid email address');
      for (const id of ['contact-name', 'contact-subject', 'contact-message']) {
        assert.equal(await page.getByTestId(`${id}-error`).count(), 0, `no error for #${id}`);
      }
      assert.equal(await field(page, 'Name').inputValue(), name);
      assert.equal(await field(page, 'Email').inputValue(), 'not-an-email');
      assert.equal(await field(page, 'Message').inputValue(), 'Is this stored?');

      const rows = shop.queryDB(t, `SELECT id FROM contact_messages WHERE name = ${sqlString(name)}`);
      if (rows) assert.deepEqual(rows, [], 'a rejected message is not stored');
    });

    forEachMode('a valid message is stored, confirmed once and the form is emptied', async ({ page, shop, t }) => {
      const msg = {
        name: `  ${unique('Ada Lovelace')} `,
        email: `${unique('ada')}@example.test`,
        subject: 'Where is my order?',
        message: 'Order 1042 has not arrived yet.\nCould you check?',
      };
      await open(page, '/contact');
      await field(page, 'Name').fill(msg.name);
      await field(page, 'Email').fill(msg.email);
      await field(page, 'Subject').fill(msg.subject);
      await field(page, 'Message').fill(msg.message);
      const res = await submitContact(page);
      assert.equal(res.status(), 303, 'the POST answers with a redirect');

      const flash = page.getByTestId('flash');
      await expectVisible(flash, 'the success message');
      assert.equal(await text(flash), CONTACT_SUCCESS);
      assert.equal(await flash.getAttribute('role'), 'status', 'the success message is announced');
      assert.equal(pathOf(page), '/contact');
      for (const label of ['Name', 'Email', 'Subject', 'Message']) {
        assert.equal(await field(page, label).inputValue(), '', `${label} is empty again`);
      }
      assert.equal(await page.locator('.field-error').count(), 0);

      const rows = shop.queryDB(
        t,
        `SELECT name, email, subject, message, created_at FROM contact_messages WHERE email = ${sqlString(msg.email)}`,
      );
      if (rows) {
        assert.equal(rows.length, 1, 'exactly one row is stored');
        assert.deepEqual(
          // Browsers submit a textarea's line breaks as CRLF.
          { ...rows[0], created_at: undefined, message: rows[0].message.replaceAll('\r\n', '\n') },
          { ...msg, name: msg.name.trim(), created_at: undefined },
          'the stored row is what the shopper typed, trimmed',
        );
        assert.ok(rows[0].created_at > 0, 'created_at is set');
      }

      // The confirmation shows once: a reload does not repeat it (nor resubmit).
      const again = await page.reload();
      assert.equal(again.status(), 200);
      assert.equal(await page.getByTestId('flash').count(), 0, 'the flash is gone after a reload');
      const after = shop.queryDB(t, `SELECT count(*) AS n FROM contact_messages WHERE email = ${sqlString(msg.email)}`);
      if (after) assert.equal(after[0].n, 1, 'the reload did not store the message again');
    });

    // The contact form is rate-limited per address (5 messages in
    // 10 minutes); a refused message says when to retry, keeps what was
    // typed and is not stored.
    forEachMode('too many messages from one address: a clear refusal that keeps the text', async ({ page, context, js, shop, t }) => {
      await context.setExtraHTTPHeaders({ 'X-Forwarded-For': js ? '192.0.2.10' : '192.0.2.11' });
      const email = `${unique('flood')}@example.test`;
      const send = async (message) => {
        await open(page, '/contact');
        await field(page, 'Name').fill('Ada');
        await field(page, 'Email').fill(email);
        await field(page, 'Subject').fill('Order');
        await field(page, 'Message').fill(message);
        return submitContact(page);
      };
      for (let i = 1; i <= 5; i++) assert.equal((await send(`Message ${i}`)).status(), 303, `message ${i} is sent`);
      const res = await send('The sixth, typed with care');
      assert.equal(res.status(), 429);
      const alert = page.getByTestId('form-alert');
      await expectVisible(alert, 'the refusal');
      assert.equal(await text(alert), 'Too many messages. Please try again in 10 minutes. Your message has not been sent; it is kept below.');
      assert.equal(await page.getByTestId('flash').count(), 0, 'no success message');
      assert.equal(await field(page, 'Message').inputValue(), 'The sixth, typed with care', 'the message is kept');
      assert.equal(await field(page, 'Subject').inputValue(), 'Order');
      const rows = shop.queryDB(t, `SELECT message FROM contact_messages WHERE email = ${sqlString(email)}`);
      if (rows) assert.equal(rows.length, 5, 'the refused message is not stored');
    });

    forEachMode('a form posted from another site is refused and nothing is stored', async ({ page, shop, t }) => {
      // The attacker's page lives on another origin (localhost, not 127.0.0.1)
      // and carries a look-alike form that posts to the shop.
      const email = `${unique('csrf')}@example.test`;
      const attacker = createServer((req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(`<!DOCTYPE html><title>Win a prize</title><form method="post" action="${shop.url('/contact')}">
          <input name="name" value="Mallory"><input name="email" value="${email}">
          <input name="subject" value="Hi"><input name="message" value="Sent from elsewhere">
          <button type="submit">Claim prize</button></form>`);
      });
      await new Promise((resolve) => attacker.listen(0, '127.0.0.1', resolve));
      t.after(() => attacker.close());
      await page.goto(`http://localhost:${attacker.address().port}/`);
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url() === shop.url('/contact') && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Claim prize' }).click(),
      ]);
      assert.equal(res.status(), 403);
      await page.waitForLoadState();
      assert.equal(await text(page.locator('h1')), 'This form came from another site');
      await expectVisible(page.locator('main').getByRole('link', { name: 'Go Home' }), 'a way home');

      const rows = shop.queryDB(t, `SELECT id FROM contact_messages WHERE email = ${sqlString(email)}`);
      if (rows) assert.deepEqual(rows, [], 'nothing is stored');
    });
  });

  // -------------------------------------------------------------------------
  // 7. JavaScript only where an island needs it

  describe('scripts', () => {
    for (const [pagePath, status] of [
      ['/faq', 200],
      ['/shipping', 200],
      ['/returns', 200],
      ['/contact', 200],
      ['/definitely-missing', 404],
    ]) {
      forEachMode(`${pagePath} loads no JavaScript`, async ({ page }) => {
        const requests = recordRequests(page);
        await open(page, pagePath, status);
        assert.equal(await page.locator('script').count(), 0, 'no <script> element');
        assert.deepEqual(
          requests.filter((r) => r.type === 'script').map((r) => r.url),
          [],
          'no script is requested',
        );
      });
    }

    forEachMode('the landing page loads the islands and the cart badge follows the cart', async ({ page, js }) => {
      const requests = recordRequests(page);
      const scriptResponses = [];
      page.on('response', (r) => {
        if (r.request().resourceType() === 'script') scriptResponses.push({ url: r.url(), status: r.status() });
      });
      await open(page, '/');
      const entry = page.locator('head script[type=module]');
      assert.equal(await entry.count(), 1, 'one module script');
      const src = await entry.getAttribute('src');
      assert.match(src, /^\/static\/dist\/entry-[A-Za-z0-9]+\.js$/);

      const badge = page.locator('nav.nav-wide [data-testid=cart-badge]');
      assert.equal(await badge.count(), 0, 'an empty cart shows no badge');

      if (!js) {
        assert.deepEqual(requests.filter((r) => r.type === 'script'), [], 'no script runs without JavaScript');
        return;
      }

      const entryURL = new URL(src, page.url()).href;
      assert.ok(
        scriptResponses.some((r) => r.url === entryURL && r.status === 200),
        `the entry script ${src} was loaded (got ${JSON.stringify(scriptResponses)})`,
      );
      // The island mounts asynchronously; keep announcing the change until it
      // has subscribed and the shopper sees the badge.
      await page.waitForFunction(
        () => {
          document.dispatchEvent(new CustomEvent('cart:changed', { detail: { count: 3 } }));
          const el = document.querySelector('nav.nav-wide [data-testid=cart-badge]');
          return el !== null && el.textContent.includes('3');
        },
        null,
        { polling: 100, timeout: WAIT_MS },
      );
      await expectVisible(badge, 'the cart badge');
      assert.equal(await text(badge.locator('[aria-hidden=true]')), '3');
      assert.equal(await badge.locator('.sr-only').textContent(), ', 3 items in cart');

      await page.evaluate(() => document.dispatchEvent(new CustomEvent('cart:changed', { detail: { count: 0 } })));
      await expectHidden(badge, 'the cart badge after the cart is emptied');
    });
  });

  // -------------------------------------------------------------------------
  // 9. FAQ accordion

  describe('FAQ accordion', () => {
    forEachMode('opening one question closes the other, and an open one closes again', async ({ page }) => {
      await open(page, '/faq');
      const entry = (n) => page.getByTestId(`faq-${n}`);
      const isOpen = async (n) => (await entry(n).getAttribute('open')) !== null;
      const answer = (n) => entry(n).locator('p');

      await entry(1).locator('summary').click();
      assert.equal(await isOpen(1), true, 'entry 1 opens');
      await expectVisible(answer(1), 'the answer to entry 1');
      assert.match(await text(answer(1)), /Standard arrives in 3–5 business days/);

      await entry(2).locator('summary').click();
      assert.equal(await isOpen(2), true, 'entry 2 opens');
      assert.equal(await isOpen(1), false, 'entry 1 closes when entry 2 opens');
      await expectVisible(answer(2), 'the answer to entry 2');
      await expectHidden(answer(1), 'the answer to entry 1');

      await entry(2).locator('summary').click();
      assert.equal(await isOpen(2), false, 'entry 2 closes when clicked again');
      await expectHidden(answer(2), 'the answer to entry 2');
      assert.equal(await page.locator('[data-testid=faq] details[open]').count(), 0, 'no entry is open');
    });
  });

  // -------------------------------------------------------------------------
  // 8. Accessibility (each check runs with JavaScript on and with scripts blocked)

  describe('accessibility', () => {
    for (const pagePath of ['/', '/faq', '/shipping', '/returns', '/contact', '/definitely-missing']) {
      browserTest(`axe: ${pagePath} at 1280 px`, () => checkA11y(pagePath));
    }

    browserTest('axe: /faq with the first entry open', () =>
      checkA11y('/faq', {
        prepare: async (page) => {
          await page.getByTestId('faq-1').locator('summary').click();
          await expectVisible(page.getByTestId('faq-1').locator('p'), 'the first answer');
        },
      }),
    );

    browserTest('axe: /contact showing errors', () =>
      checkA11y('/contact', {
        prepare: async (page) => {
          await disableBrowserValidation(page);
          const res = await submitContact(page);
          assert.equal(res.status(), 422);
          await expectVisible(page.getByTestId('contact-name-error'), 'the Name error');
        },
      }),
    );

    browserTest('axe: / at 390 px with the menu open', () =>
      checkA11y('/', {
        viewport: NARROW,
        prepare: async (page) => {
          await page.getByTestId('nav-toggle-button').click();
          await expectVisible(page.locator('nav.nav-narrow').getByRole('link', { name: 'Products' }), 'the menu links');
        },
      }),
    );
  });
});
