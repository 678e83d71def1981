// The catalogue journeys: the landing page's featured carousel, the product
// listing's filters and sort, invalid filters, pagination and infinite
// scroll, the product page, search, and accessibility. Journeys run with
// JavaScript on and off; the carousel's auto-advance exists only with
// JavaScript, so those tests run once, with it on.
//
// Expected numbers (counts, prices, orders) come from the built-in
// catalogue the server seeds itself with (internal/catalog/seed), so a test
// checks what the shopper sees against the data, not against itself.

import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

import {
  useShop,
  forEachMode,
  browserTest,
  checkA11y,
  expectVisible,
  text,
  open,
  islandsReady,
  WAIT_MS,
} from '../lib/harness.js';

// ---------------------------------------------------------------------------
// The built-in catalogue

const SEED = JSON.parse(readFileSync(new URL('../../internal/catalog/seed/products.json', import.meta.url), 'utf8')).map(
  (p) => ({
    id: p.id,
    title: p.title,
    category: p.category,
    cents: Math.round(p.price * 100),
    rating: p.rating.rate,
    reviews: p.rating.count,
    featured: p.featured === true,
  }),
);
const PAGE_SIZE = 12;

/** The catalogue's order: price ascending, then id (desc reverses both). */
function byPrice(products, sort = 'asc') {
  const sorted = [...products].sort((a, b) => a.cents - b.cents || a.id.localeCompare(b.id));
  return sort === 'desc' ? sorted.reverse() : sorted;
}

/** The seed products a filter (as in the URL) selects. */
function matching({ category = '', minPrice = '', maxPrice = '', rating = '' } = {}) {
  return SEED.filter(
    (p) =>
      (category === '' || (category === 'featured' ? p.featured : p.category === category)) &&
      (minPrice === '' || p.cents >= Math.round(Number(minPrice) * 100)) &&
      (maxPrice === '' || p.cents <= Math.round(Number(maxPrice) * 100)) &&
      (rating === '' || p.rating >= Number(rating)),
  );
}

/** Cents as the shop shows them: $1,299.00 */
function money(cents) {
  return `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
}

/** "$1,299.00" → 129900; a card's "from $189.00" (variants at several prices) is where it starts. */
function cents(shown) {
  const m = /^(?:from )?\$([\d,]+)\.(\d\d)$/.exec(shown.trim());
  assert.ok(m, `a price like $12.34, got ${JSON.stringify(shown)}`);
  return Number(m[1].replaceAll(',', '')) * 100 + Number(m[2]);
}

/** The struck-through original price: the price plus 20 %, rounded to the cent. */
function originalCents(c) {
  return Math.floor((c * 12 + 5) / 10);
}

function productsLabel(n) {
  return n === 1 ? '1 product' : `${n} products`;
}

// ---------------------------------------------------------------------------
// Page helpers

function pathOf(page) {
  return new URL(page.url()).pathname;
}

/** The query string of the page's address, exactly as the server wrote it ("" for none). */
function searchOf(page) {
  return new URL(page.url()).search;
}

/**
 * The query string with its parameters in alphabetical order. The server
 * redirects a listing address whose filters are not the applied ones, but it
 * accepts the applied filters in any order (a form sends them in the form's
 * order), so addresses reached through the form are compared this way.
 */
function sortedSearch(u) {
  const params = [...new URL(u).searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const s = new URLSearchParams(params).toString();
  return s === '' ? '' : `?${s}`;
}

const CARDS = '[data-testid=product-grid] [data-testid=product-card]';

/**
 * What the grid shows, card by card. (locator.evaluateAll runs in
 * Playwright's own world, so it works with the page's JavaScript disabled.)
 */
async function gridCards(page) {
  const raw = await page.locator(CARDS).evaluateAll((cards) =>
    cards.map((card) => ({
      id: card.getAttribute('data-product-id'),
      title: card.querySelector('.product-title a')?.textContent.trim(),
      href: card.querySelector('.product-title a')?.getAttribute('href'),
      price: card.querySelector('[data-testid=price]')?.textContent.trim(),
      stars: card.querySelector('.stars')?.getAttribute('aria-label'),
    })),
  );
  return raw.map((c) => {
    const m = /^Rated (\d+(?:\.\d+)?) out of 5$/.exec(c.stars ?? '');
    assert.ok(m, `card ${c.id} has a star label "Rated X out of 5", got ${JSON.stringify(c.stars)}`);
    return { ...c, cents: cents(c.price), rating: Number(m[1]) };
  });
}

function isSorted(values, sort) {
  return values.every((v, i) => i === 0 || (sort === 'desc' ? values[i - 1] >= v : values[i - 1] <= v));
}

/** The canonical query of a filter: keys in alphabetical order, empty values and the default sort left out. */
function canonicalSearch(state) {
  const v = new URLSearchParams();
  for (const key of Object.keys(state).sort()) {
    const value = state[key];
    if (value === '' || value === undefined || (key === 'sort' && value === 'asc' && !state.q)) continue;
    v.set(key, value);
  }
  const s = v.toString();
  return s === '' ? '' : `?${s}`;
}

const FILTER_FIELDS = {
  category: { label: 'Category', select: true },
  sort: { label: 'Sort by', select: true },
  minPrice: { label: 'Minimum price', select: false },
  maxPrice: { label: 'Maximum price', select: false },
  rating: { label: 'Minimum rating', select: true },
};

function filterField(page, name) {
  return page.getByTestId('filters').getByLabel(FILTER_FIELDS[name].label, { exact: true });
}

/**
 * Changes the filter form the way a shopper does. With JavaScript a select
 * applies on change and a price on Enter (leaving a price field sends
 * nothing, see polish.test.js), so each change leads to its own
 * canonical address without Apply being pressed; without JavaScript the
 * shopper presses Apply once at the end. Returns the applied filter.
 */
async function applyFilters(page, js, changes) {
  const state = Object.fromEntries(new URL(page.url()).searchParams);
  delete state.page;
  const listing = pathOf(page);
  const reached = (want) => (u) => u.pathname === listing && sortedSearch(u) === want;
  for (const [name, value] of Object.entries(changes)) {
    state[name] = value;
    const field = filterField(page, name);
    const change = FILTER_FIELDS[name].select
      ? () => field.selectOption(value)
      : async () => {
          await field.fill(value);
          if (js) await field.press('Enter'); // Enter sends the form
        };
    if (js) {
      const want = canonicalSearch(state);
      await Promise.all([page.waitForURL(reached(want), { timeout: WAIT_MS }), change()]);
      await islandsReady(page); // the next change needs the page's scripts (before them, Apply does it)
    } else {
      await change();
    }
  }
  if (!js) {
    const want = canonicalSearch(state);
    await Promise.all([
      page.waitForURL(reached(want), { timeout: WAIT_MS }),
      page.getByTestId('filters').getByRole('button', { name: 'Apply' }).click(),
    ]);
  }
  return state;
}

/** Asserts the filter form shows exactly the applied filter. */
async function assertFormShows(page, { category = '', sort = 'asc', minPrice = '', maxPrice = '', rating = '' }) {
  assert.deepEqual(
    {
      category: await filterField(page, 'category').inputValue(),
      sort: await filterField(page, 'sort').inputValue(),
      minPrice: await filterField(page, 'minPrice').inputValue(),
      maxPrice: await filterField(page, 'maxPrice').inputValue(),
      rating: await filterField(page, 'rating').inputValue(),
    },
    { category, sort, minPrice, maxPrice, rating },
    'the filter form shows the applied filter',
  );
}

/**
 * Asserts the page lists exactly the first page of what filter selects, in
 * its order, with the heading and the count above the grid.
 */
async function assertListing(page, filter, heading) {
  const want = byPrice(matching(filter), filter.sort);
  assert.equal(await text(page.locator('h1')), heading);
  assert.equal(await text(page.getByTestId('result-count')), productsLabel(want.length));
  const cards = await gridCards(page);
  // With JavaScript the grid may already have appended the next page: compare what is there.
  assert.ok(cards.length >= Math.min(PAGE_SIZE, want.length), `at least a page of cards (got ${cards.length})`);
  assert.deepEqual(
    cards.map((c) => c.id),
    want.slice(0, cards.length).map((p) => p.id),
    'the cards are the matching products in the chosen order',
  );
  return cards;
}

/** Polls an attribute from the test (not from inside the page, whose timers may be faked). */
async function waitForAttr(locator, name, value, what, timeout = WAIT_MS) {
  const deadline = Date.now() + timeout;
  let seen;
  for (;;) {
    seen = await locator.getAttribute(name);
    if (seen === value) return;
    if (Date.now() > deadline) assert.fail(`expected ${what} to have ${name}="${value}", it has ${JSON.stringify(seen)}`);
    await sleep(50);
  }
}

/** Waits until the carousel track has stopped scrolling (smooth scrolling runs in real time). */
async function trackSettled(track) {
  let last = await track.evaluate((el) => el.scrollLeft);
  let still = 0;
  const deadline = Date.now() + WAIT_MS;
  while (still < 3 && Date.now() < deadline) {
    await sleep(100);
    const now = await track.evaluate((el) => el.scrollLeft);
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return last;
}

/**
 * A test that only makes sense with JavaScript (the carousel's timer):
 * one fresh JavaScript-enabled context, like forEachMode's.
 */
function jsOnlyTest(name, fn) {
  browserTest(`${name} [JavaScript on]`, async ({ shop, t }) => {
    const context = await shop.newContext({ js: true });
    const page = await context.newPage();
    try {
      await fn({ page, context, shop, t });
    } catch (err) {
      if (err && typeof err === 'object') {
        try {
          err.message += `\n  page: ${page.url()}`;
        } catch {
          // frozen error
        }
      }
      throw err;
    } finally {
      await context.close();
    }
  });
}

// ---------------------------------------------------------------------------

describe('catalog', () => {
  const shop = useShop();

  // Sanity of the data the expectations come from.
  assert.equal(SEED.length, 52);
  assert.equal(SEED.filter((p) => p.featured).length, 8);

  // -------------------------------------------------------------------------
  // 1. Landing page carousel

  describe('featured carousel', () => {
    const featured = byPrice(SEED.filter((p) => p.featured));

    forEachMode('the featured products scroll sideways; with JavaScript there are buttons and dots', async ({ page, js }) => {
      await open(page, '/');
      const carousel = page.getByTestId('carousel');
      const track = page.getByTestId('carousel-track');
      await expectVisible(track, 'the carousel track');
      const cards = track.locator('[data-testid=product-card]');
      assert.equal(await cards.count(), 8, 'eight featured products');
      assert.deepEqual(
        (await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-product-id')))).sort(),
        featured.map((p) => p.id).sort(),
        'the carousel shows the featured products',
      );

      if (js) {
        await expectVisible(page.getByTestId('carousel-next'), 'the Next button');
        await expectVisible(page.getByTestId('carousel-prev'), 'the Previous button');
        assert.equal(await page.getByTestId('carousel-next').getAttribute('aria-label'), 'Next products');
        assert.equal(await page.getByTestId('carousel-prev').getAttribute('aria-label'), 'Previous products');
        // Four cards fit at 1280 px: two slides.
        assert.equal(await page.getByTestId('carousel-dot').count(), 2, 'one dot per slide');
        assert.equal(await carousel.getAttribute('data-slide'), '0');
        assert.equal(await carousel.getAttribute('aria-roledescription'), 'carousel');
        assert.equal(await page.getByTestId('carousel-dot').first().getAttribute('aria-current'), 'true');
      } else {
        assert.equal(await page.getByTestId('carousel-next').count(), 0, 'no Next button without JavaScript');
        assert.equal(await page.getByTestId('carousel-prev').count(), 0, 'no Previous button without JavaScript');
        assert.equal(await page.getByTestId('carousel-dot').count(), 0, 'no dots without JavaScript');
        assert.equal(await carousel.getAttribute('data-autoplay'), null, 'nothing advances without JavaScript');
      }

      // The row is wider than its box and scrolls sideways (wheel, touch, keys).
      const { scrollWidth, clientWidth } = await track.evaluate((el) => ({
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
      }));
      assert.ok(scrollWidth > clientWidth, `the track is scrollable (scrollWidth ${scrollWidth} > clientWidth ${clientWidth})`);
      assert.equal(await track.evaluate((el) => el.scrollLeft), 0, 'the track starts at the first card');
      await track.evaluate((el) => el.scrollBy({ left: el.clientWidth, behavior: 'instant' }));
      const left = await trackSettled(track);
      assert.ok(left > 0, `scrolling the track moves it (scrollLeft ${left})`);
      assert.equal(await track.getAttribute('tabindex'), '0', 'the track can be scrolled with the keyboard');

      if (js) {
        // The shopper scrolled: the carousel follows and stops advancing on its own.
        await waitForAttr(carousel, 'data-autoplay', 'off', 'the carousel after the shopper scrolled it');
        await waitForAttr(carousel, 'data-slide', '1', 'the carousel after the shopper scrolled to the second slide');
      }
    });

    jsOnlyTest('the Pause button stops the automatic scrolling and Play starts it again', async ({ page }) => {
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);
      await open(page, '/');
      const carousel = page.getByTestId('carousel');
      await waitForAttr(carousel, 'data-autoplay', 'on', 'the carousel');
      const pause = page.getByTestId('carousel-pause');
      assert.equal(await text(pause), 'Pause automatic scrolling');
      await pause.click();
      // Move the pointer and focus away, so only the button's state counts.
      await page.mouse.move(5, 5);
      await page.evaluate(() => document.activeElement && document.activeElement.blur());
      await waitForAttr(carousel, 'data-autoplay', 'off', 'the carousel after Pause');
      await page.clock.runFor(6_000);
      await sleep(200);
      assert.equal(await carousel.getAttribute('data-slide'), '0', 'no advance after Pause');
      assert.equal(await text(pause), 'Play automatic scrolling');
      await pause.click();
      await page.mouse.move(5, 5);
      await page.evaluate(() => document.activeElement && document.activeElement.blur());
      await waitForAttr(carousel, 'data-autoplay', 'on', 'the carousel after Play');
      await page.clock.runFor(5_100);
      await waitForAttr(carousel, 'data-slide', '1', 'the carousel 5 s after Play');
    });

    jsOnlyTest('the carousel advances every 5 seconds and pauses while the pointer is over it', async ({ page }) => {
      // Fake timers, paused before the page loads: time moves only when the test says.
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);
      await open(page, '/');
      const carousel = page.getByTestId('carousel');
      const track = page.getByTestId('carousel-track');
      await waitForAttr(carousel, 'data-autoplay', 'on', 'the carousel');
      assert.equal(await carousel.getAttribute('data-slide'), '0');

      await page.clock.runFor(4_800);
      await sleep(200);
      assert.equal(await carousel.getAttribute('data-slide'), '0', 'no advance before 5 s');
      await page.clock.runFor(300);
      await waitForAttr(carousel, 'data-slide', '1', 'the carousel after 5 s');
      assert.equal(await carousel.getAttribute('data-autoplay'), 'on', 'it keeps advancing');
      const left = await trackSettled(track);
      assert.ok(left > 0, 'the track scrolled to the second slide');
      await page.clock.runFor(400); // the end of its own scroll is not the shopper's
      assert.equal(await carousel.getAttribute('data-autoplay'), 'on');
      assert.equal(await page.getByTestId('carousel-dot').nth(1).getAttribute('aria-current'), 'true');

      await page.getByTestId('carousel-track').locator('[data-testid=product-card]').nth(5).hover();
      await waitForAttr(carousel, 'data-autoplay', 'paused', 'the carousel under the pointer');
      await page.clock.runFor(6_000);
      await sleep(200);
      assert.equal(await carousel.getAttribute('data-slide'), '1', 'no advance while the pointer is over it');
      assert.equal(await carousel.getAttribute('data-autoplay'), 'paused');

      await page.mouse.move(5, 5);
      await waitForAttr(carousel, 'data-autoplay', 'on', 'the carousel once the pointer has left');
      await page.clock.runFor(5_100);
      await waitForAttr(carousel, 'data-slide', '0', 'the carousel wrapping round to the first slide');
    });

    jsOnlyTest('clicking Next moves one slide and stops the auto-advance for good', async ({ page }) => {
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);
      await open(page, '/');
      const carousel = page.getByTestId('carousel');
      const track = page.getByTestId('carousel-track');
      await waitForAttr(carousel, 'data-autoplay', 'on', 'the carousel');

      await page.getByTestId('carousel-next').click();
      await waitForAttr(carousel, 'data-slide', '1', 'the carousel after Next');
      await waitForAttr(carousel, 'data-autoplay', 'off', 'the carousel after Next');
      const left = await trackSettled(track);
      assert.ok(left > 0, 'the track scrolled to the second slide');

      await page.mouse.move(5, 5); // pointer away: nothing would pause it any more
      await page.getByTestId('carousel-next').evaluate((el) => el.blur());
      await page.clock.runFor(6_000);
      await sleep(200);
      assert.equal(await carousel.getAttribute('data-slide'), '1', 'no advance after the shopper took over');
      assert.equal(await carousel.getAttribute('data-autoplay'), 'off');
      assert.equal(await trackSettled(track), left, 'the track stays where the shopper put it');

      // Previous and the dots still work by hand.
      await page.getByTestId('carousel-prev').click();
      await waitForAttr(carousel, 'data-slide', '0', 'the carousel after Previous');
      await page.getByTestId('carousel-dot').nth(1).click();
      await waitForAttr(carousel, 'data-slide', '1', 'the carousel after the second dot');
      assert.equal(await carousel.getAttribute('data-autoplay'), 'off');
    });

    jsOnlyTest('with reduced motion the carousel never advances by itself', async ({ page }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);
      await open(page, '/');
      const carousel = page.getByTestId('carousel');
      await expectVisible(page.getByTestId('carousel-next'), 'the Next button');
      await waitForAttr(carousel, 'data-autoplay', 'off', 'the carousel under prefers-reduced-motion');
      assert.equal(await carousel.getAttribute('data-slide'), '0');
      await page.clock.runFor(11_000);
      await sleep(200);
      assert.equal(await carousel.getAttribute('data-slide'), '0', 'no advance under reduced motion');
      // The buttons still work.
      await page.getByTestId('carousel-next').click();
      await waitForAttr(carousel, 'data-slide', '1', 'the carousel after Next');
    });
  });

  // -------------------------------------------------------------------------
  // 2. Filters and sort

  describe('filters and sort', () => {
    forEachMode('the category filter changes the heading and the products', async ({ page, js }) => {
      await open(page, '/products');
      await assertListing(page, {}, 'All Products');
      await assertFormShows(page, {});
      assert.deepEqual(
        await filterField(page, 'category').locator('option').evaluateAll((os) => os.map((o) => [o.value, o.textContent.trim()])),
        [
          ['', 'All Categories'],
          ['featured', 'Featured'],
          ['electronics', 'Electronics'],
          ['fashion', 'Fashion'],
          ['home', 'Home'],
          ['jewelery', 'Jewelry'],
        ],
        'the category choices',
      );

      for (const [category, heading] of [
        ['electronics', 'Electronics Products'],
        ['jewelery', 'Jewelry Products'],
        ['featured', 'Featured Products'],
        ['', 'All Products'],
      ]) {
        const state = await applyFilters(page, js, { category });
        assert.equal(sortedSearch(page.url()), category ? `?category=${category}` : '', 'the address shows the category');
        await assertListing(page, state, heading);
        await assertFormShows(page, { category });
        assert.match(await page.title(), new RegExp(`^${heading} \\| `), 'the tab title names the listing');
      }
    });

    forEachMode('sorting by price high to low reverses the order', async ({ page, js }) => {
      await open(page, '/products');
      const asc = (await gridCards(page)).map((c) => c.cents);
      assert.ok(isSorted(asc, 'asc'), `prices ascending by default: ${asc}`);

      const state = await applyFilters(page, js, { sort: 'desc' });
      assert.equal(sortedSearch(page.url()), '?sort=desc');
      const cards = await assertListing(page, state, 'All Products');
      assert.ok(isSorted(cards.map((c) => c.cents), 'desc'), `prices descending: ${cards.map((c) => c.price)}`);
      assert.equal(cards[0].price, money(Math.max(...SEED.map((p) => p.cents))), 'the dearest product comes first');
      await assertFormShows(page, { sort: 'desc' });

      await applyFilters(page, js, { sort: 'asc' });
      assert.equal(sortedSearch(page.url()), '', 'low to high is the default and leaves the address bare');
      await assertFormShows(page, {});
    });

    forEachMode('a price range and a minimum rating narrow the products', async ({ page, js }) => {
      await open(page, '/products');
      let state = await applyFilters(page, js, { minPrice: '50', maxPrice: '150' });
      assert.equal(sortedSearch(page.url()), '?maxPrice=150&minPrice=50');
      let cards = await assertListing(page, state, 'All Products');
      for (const c of cards) {
        assert.ok(c.cents >= 5000 && c.cents <= 15000, `${c.title} at ${c.price} is within $50–$150`);
      }
      await assertFormShows(page, { minPrice: '50', maxPrice: '150' });

      state = await applyFilters(page, js, { rating: '4' });
      assert.equal(sortedSearch(page.url()), '?maxPrice=150&minPrice=50&rating=4');
      cards = await assertListing(page, state, 'All Products');
      assert.ok(cards.length > 0);
      for (const c of cards) {
        assert.ok(c.rating >= 4, `${c.title} is rated ${c.rating}, at least 4`);
        assert.ok(c.cents >= 5000 && c.cents <= 15000, `${c.title} at ${c.price} is within $50–$150`);
      }
      await assertFormShows(page, { minPrice: '50', maxPrice: '150', rating: '4' });
      assert.equal(
        await text(filterField(page, 'rating').locator('option:checked')),
        '4+ stars',
        'the rating select names the applied choice',
      );

      // Rating alone, on the whole catalogue.
      await open(page, '/products?rating=4');
      cards = await assertListing(page, { rating: '4' }, 'All Products');
      for (const c of cards) assert.ok(c.rating >= 4, `${c.title} is rated ${c.rating}, at least 4`);
    });

    forEachMode('all filters combined, then Clear', async ({ page, js }) => {
      await open(page, '/products');
      const state = await applyFilters(page, js, {
        category: 'home',
        sort: 'desc',
        minPrice: '20',
        maxPrice: '300',
        rating: '4',
      });
      assert.equal(sortedSearch(page.url()), '?category=home&maxPrice=300&minPrice=20&rating=4&sort=desc');
      const cards = await assertListing(page, state, 'Home Products');
      const want = byPrice(matching(state), 'desc');
      assert.equal(cards.length, want.length, 'every match is on the one page');
      assert.deepEqual(
        cards.map((c) => c.price),
        want.map((p) => money(p.cents)),
        'home products rated 4+ between $20 and $300, dearest first',
      );
      for (const c of cards) assert.ok(c.rating >= 4 && c.cents >= 2000 && c.cents <= 30000, `${c.title} fits the filter`);
      await assertFormShows(page, { category: 'home', sort: 'desc', minPrice: '20', maxPrice: '300', rating: '4' });
      assert.equal(await page.getByTestId('pagination').count(), 0, 'one page: no pagination');

      await Promise.all([
        page.waitForURL((u) => u.pathname === '/products' && u.search === '', { timeout: WAIT_MS }),
        page.getByTestId('filters').getByRole('link', { name: 'Clear' }).click(),
      ]);
      await assertListing(page, {}, 'All Products');
      await assertFormShows(page, {});
    });
  });

  // -------------------------------------------------------------------------
  // 3. Invalid filters

  describe('invalid filters', () => {
    forEachMode('unknown values are dropped and the address is tidied', async ({ page }) => {
      const res = await open(page, '/products?minPrice=abc&rating=9&category=nope');
      assert.equal((await res.request().redirectedFrom()?.response())?.status(), 302, 'the server redirects');
      assert.equal(pathOf(page), '/products');
      assert.equal(searchOf(page), '', 'nothing of the invalid filter is left in the address');
      await assertListing(page, {}, 'All Products');
      await assertFormShows(page, {});
    });

    forEachMode('a minimum above the maximum is swapped', async ({ page }) => {
      const res = await open(page, '/products?minPrice=100&maxPrice=20');
      assert.equal((await res.request().redirectedFrom()?.response())?.status(), 302, 'the server redirects');
      assert.equal(searchOf(page), '?maxPrice=100&minPrice=20');
      assert.equal(await filterField(page, 'minPrice').inputValue(), '20');
      assert.equal(await filterField(page, 'maxPrice').inputValue(), '100');
      const cards = await assertListing(page, { minPrice: '20', maxPrice: '100' }, 'All Products');
      for (const c of cards) assert.ok(c.cents >= 2000 && c.cents <= 10000, `${c.title} at ${c.price} is within $20–$100`);
    });

    forEachMode('a filter nothing matches shows the empty state', async ({ page }) => {
      await open(page, '/products?minPrice=100000');
      assert.equal(await text(page.locator('h1')), 'All Products');
      const empty = page.getByTestId('catalog-empty');
      await expectVisible(empty, 'the empty state');
      assert.match(await text(empty), /No products found matching your criteria\./);
      assert.equal(await text(page.getByTestId('result-count')), '0 products');
      assert.equal(await page.locator('[data-testid=product-card]').count(), 0, 'no cards');
      assert.equal(await page.getByTestId('pagination').count(), 0, 'no pagination');
      assert.equal(await filterField(page, 'minPrice').inputValue(), '100000', 'the form shows the applied minimum');
      await Promise.all([
        page.waitForURL((u) => u.pathname === '/products' && u.search === '', { timeout: WAIT_MS }),
        empty.getByRole('link', { name: 'Clear filters' }).click(),
      ]);
      await assertListing(page, {}, 'All Products');
    });
  });

  // -------------------------------------------------------------------------
  // 4. Pagination (no JavaScript) and infinite scroll (JavaScript)

  describe('pagination and infinite scroll', () => {
    const all = byPrice(SEED);

    forEachMode('every product is listed once, page by page or by scrolling', async ({ page, js }) => {
      await open(page, '/products');
      const seen = [];

      if (!js) {
        for (let n = 1; ; n++) {
          assert.equal(searchOf(page), n === 1 ? '' : `?page=${n}`, `page ${n}'s address`);
          const cards = await gridCards(page);
          const want = all.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE);
          assert.deepEqual(cards.map((c) => c.id), want.map((p) => p.id), `page ${n} lists the next ${want.length} products by price`);
          for (const c of cards) assert.ok(!seen.includes(c.id), `${c.id} on page ${n} was not on an earlier page`);
          seen.push(...cards.map((c) => c.id));

          const nav = page.getByTestId('pagination');
          await expectVisible(nav, `the pagination on page ${n}`);
          assert.equal(await text(nav.locator('[aria-current=page]')), String(n), `page ${n} is marked current`);
          assert.equal(await nav.locator('a[rel=prev]').count(), n === 1 ? 0 : 1, `Previous on page ${n}`);
          const next = nav.locator('a[rel=next]');
          if (n === 5) {
            assert.equal(await next.count(), 0, 'no Next on the last page');
            assert.equal(cards.length, 4, 'the last page has the remaining 4 products');
            break;
          }
          assert.equal(cards.length, PAGE_SIZE);
          await Promise.all([page.waitForURL((u) => u.search === `?page=${n + 1}`, { timeout: WAIT_MS }), next.click()]);
          assert.equal(await page.title(), `All Products – Page ${n + 1} | Nocturne`);
        }
      } else {
        const grid = page.locator('.grid-wrap[data-island=product-grid]');
        await waitForAttr(grid, 'data-page', '1', 'the product grid island');
        assert.equal(await page.getByTestId('pagination').count(), 0, 'the numbered pagination gives way to scrolling');
        assert.equal(await page.getByTestId('grid-end').count(), 0, 'not at the end yet');
        for (let i = 0; i < 10; i++) {
          if ((await page.getByTestId('grid-end').count()) > 0) break;
          const before = await page.locator(CARDS).count();
          await page.locator(CARDS).last().scrollIntoViewIfNeeded();
          await page.mouse.wheel(0, 400);
          await page.waitForFunction(
            ([sel, n]) => document.querySelectorAll(sel).length > n || document.querySelector('[data-testid=grid-end]') !== null,
            [CARDS, before],
            { timeout: WAIT_MS },
          );
        }
        const end = page.getByTestId('grid-end');
        await expectVisible(end, 'the end of the list');
        assert.equal(await text(end), "You've reached the end.");
        const cards = await gridCards(page);
        seen.push(...cards.map((c) => c.id));
        assert.equal(new Set(seen).size, seen.length, 'no product is listed twice');
        assert.deepEqual(seen, all.map((p) => p.id), 'all 52 products, cheapest first');
        await waitForAttr(grid, 'data-page', '5', 'the grid after the last page');
        assert.ok(page.url().endsWith('?page=5'), `the address follows the pages loaded (${page.url()})`);
        assert.equal(await page.getByTestId('grid-sentinel').count(), 0, 'nothing more to load');
        assert.equal(await page.getByTestId('pagination').count(), 0);
      }
      assert.equal(new Set(seen).size, SEED.length, 'all 52 products were listed');

      // An address past the last page leads to the last page.
      await open(page, '/products?page=99');
      assert.equal(searchOf(page), '?page=5');
      assert.equal(await page.locator(CARDS).count(), SEED.length - 4 * PAGE_SIZE);
    });
    // The grid island works on the server's cards in place. It used to re-render them, and
    // every card image painted again once its script had run: the Largest Contentful Paint
    // moved from the first paint to after React (Lighthouse mobile: LCP 2.2 s on /products).
    jsOnlyTest('the grid island keeps the server\'s cards: none is removed and painted again', async ({ page }) => {
      await page.addInitScript(() => {
        window.__removedCards = 0;
        new MutationObserver((records) => {
          for (const r of records) {
            for (const n of r.removedNodes) {
              if (n instanceof Element && (n.matches('[data-testid=product-card]') || n.querySelector('[data-testid=product-card]'))) window.__removedCards++;
            }
          }
        }).observe(document, { childList: true, subtree: true });
      });
      await open(page, '/products?page=2');
      const grid = page.locator('.grid-wrap[data-island=product-grid]');
      await waitForAttr(grid, 'data-page', '2', 'the product grid island');
      await page.waitForLoadState('networkidle');
      assert.equal(await page.evaluate(() => window.__removedCards), 0, 'no server card was taken out of the page');
      assert.equal(await page.locator(CARDS).count(), PAGE_SIZE);
      assert.equal(await page.getByTestId('pagination').count(), 0, 'the numbered pagination gives way to scrolling');
      await expectVisible(page.getByTestId('show-previous'), 'Show previous, still the server\'s link');
    });
  });

  // -------------------------------------------------------------------------
  // 5. Product page

  describe('product page', () => {
    forEachMode('a card leads to its product page, which leads to its category', async ({ page }) => {
      await open(page, '/products');
      const cheapest = byPrice(SEED)[0];
      const card = page.locator(CARDS).first();
      assert.equal(await card.getAttribute('data-product-id'), cheapest.id);
      assert.equal(await text(card.locator('.discount-badge')), '-20% OFF');
      assert.equal(await text(card.getByTestId('price')), money(cheapest.cents));
      assert.match(await text(card.locator('.price-was')), new RegExp(`\\${money(originalCents(cheapest.cents))}$`));
      assert.equal(await card.locator('s.price-was').count(), 1, 'the original price is struck through');
      assert.equal(await text(card.locator('.shipping')), 'Free shipping over $50');
      const link = card.getByRole('link', { name: cheapest.title, exact: true });
      assert.equal(await link.getAttribute('href'), `/product/${cheapest.id}`);

      await Promise.all([page.waitForURL(`**/product/${cheapest.id}`, { timeout: WAIT_MS }), link.click()]);
      assert.equal(await text(page.getByTestId('product-title')), cheapest.title);
      assert.equal(await page.title(), `${cheapest.title} | Nocturne`);
      assert.equal(await text(page.getByTestId('review-count')), `(${cheapest.reviews} reviews)`);
      const detail = page.getByTestId('product-detail');
      assert.equal(await text(detail.getByTestId('price')), money(cheapest.cents));

      const category = page.getByTestId('category-link');
      assert.equal(await text(category), 'Home');
      assert.equal(await category.getAttribute('href'), '/products?category=home');
      await Promise.all([page.waitForURL((u) => u.search === '?category=home', { timeout: WAIT_MS }), category.click()]);
      await assertListing(page, { category: 'home' }, 'Home Products');
      await assertFormShows(page, { category: 'home' });
    });

    forEachMode('the product page shows price, original price, reviews and the buy box', async ({ page }) => {
      const p = SEED.find((x) => x.id === 'nb-001');
      await open(page, '/product/nb-001');
      assert.equal(await text(page.getByTestId('product-title')), p.title);
      assert.equal(await page.locator('h1').count(), 1);
      const detail = page.getByTestId('product-detail');
      assert.equal(await text(detail.getByTestId('price')), money(p.cents));
      assert.equal(await text(detail.getByTestId('price')), '$229.00');
      assert.equal(await detail.locator('s.price-was').count(), 1);
      assert.match(await text(detail.locator('.price-was')), /\$274\.80$/);
      assert.equal(await text(detail.locator('.discount-badge')), '-20% OFF');
      assert.equal(await text(detail.locator('.shipping')), 'Free shipping over $50');
      assert.equal(await text(page.getByTestId('review-count')), `(${p.reviews.toString()} reviews)`);
      assert.equal(await detail.locator('.stars').getAttribute('aria-label'), `Rated ${p.rating.toFixed(1)} out of 5`);
      assert.equal(await detail.locator('img').first().getAttribute('alt'), p.title);

      const qty = detail.getByRole('spinbutton', { name: 'Quantity' });
      await expectVisible(qty, 'the quantity field');
      assert.equal(await qty.getAttribute('type'), 'number');
      assert.equal(await qty.getAttribute('min'), '1');
      assert.equal(await qty.inputValue(), '1');
      await expectVisible(detail.getByRole('button', { name: 'Add to Cart' }), 'Add to Cart');

      const category = page.getByTestId('category-link');
      assert.equal(await text(category), 'Electronics');
      await Promise.all([page.waitForURL((u) => u.search === '?category=electronics', { timeout: WAIT_MS }), category.click()]);
      assert.equal(await text(page.locator('h1')), 'Electronics Products');
    });

    forEachMode('an unknown product is a 404 with a way back', async ({ page }) => {
      await open(page, '/product/nope', 404);
      const box = page.getByTestId('product-error');
      await expectVisible(box, 'the product error');
      assert.equal(await text(page.locator('h1')), 'Product not found');
      assert.match(await text(box), /Failed to load product details\. Please try again later\./);
      const back = box.getByRole('link', { name: 'Return to Products' });
      assert.equal(await back.getAttribute('href'), '/products');
      await Promise.all([page.waitForURL((u) => u.pathname === '/products', { timeout: WAIT_MS }), back.click()]);
      assert.equal(await text(page.locator('h1')), 'All Products');
    });
  });

  // -------------------------------------------------------------------------
  // 6. Search

  describe('search', () => {
    const cardTitles = async (page) => (await gridCards(page)).map((c) => c.title);

    forEachMode('a word finds its products, best match first; a prefix finds them too', async ({ page }) => {
      await open(page, '/search?q=headphones');
      assert.equal(await text(page.locator('h1')), 'Search results for “headphones”');
      let titles = await cardTitles(page);
      assert.ok(titles.length > 0, 'there are results');
      assert.match(titles[0], /Headphones/, `the first result is the headphones (got ${JSON.stringify(titles)})`);
      assert.equal(await page.getByTestId('suggestion').count(), 0, 'no suggestion for a known word');
      assert.equal(await filterField(page, 'sort').inputValue(), '', 'ranked by relevance');

      await open(page, '/search?q=headph');
      titles = await cardTitles(page);
      assert.ok(
        titles.some((t) => /Headphones/.test(t)),
        `"headph" finds the headphones (got ${JSON.stringify(titles)})`,
      );
      assert.match(titles[0], /Headphones/);
      assert.equal(await page.getByTestId('suggestion').count(), 0, 'a prefix of a known word is not corrected');
    });

    forEachMode('a search without hits says so; a blank one leads to the products', async ({ page }) => {
      await open(page, '/search?q=zzzzqq');
      const empty = page.getByTestId('search-empty');
      await expectVisible(empty, 'the empty search state');
      assert.match(await text(empty), /No products found matching “zzzzqq”\./);
      assert.equal(await text(page.getByTestId('result-count')), '0 products');
      assert.equal(await page.locator('[data-testid=product-card]').count(), 0);
      assert.equal(await empty.getByRole('link', { name: 'Browse Products' }).getAttribute('href'), '/products');

      // Nothing at all to search for: back to the products (no referring page here).
      await page.goto('/search?q=');
      assert.equal(pathOf(page), '/products');
      assert.equal(await text(page.locator('h1')), 'All Products');
    });

    forEachMode('a misspelling offers “Did you mean”, which leads to results', async ({ page }) => {
      // As typed (a misspelling that finds nothing is otherwise corrected: polish.test.js).
      await open(page, '/search?q=headphnoes&exact=1');
      const suggestion = page.getByTestId('suggestion');
      await expectVisible(suggestion, 'the suggestion');
      assert.equal(await text(suggestion), 'Did you mean headphones?');
      const link = suggestion.getByRole('link', { name: 'headphones' });
      await Promise.all([
        page.waitForURL((u) => u.pathname === '/search' && u.searchParams.get('q') === 'headphones', { timeout: WAIT_MS }),
        link.click(),
      ]);
      assert.equal(await text(page.locator('h1')), 'Search results for “headphones”');
      const titles = await cardTitles(page);
      assert.match(titles[0] ?? '', /Headphones/);
    });

    forEachMode('the search box in the top bar searches from any page', async ({ page }) => {
      await open(page, '/products?category=fashion');
      const box = page.getByRole('searchbox', { name: 'Search products' });
      await box.fill('lamp');
      await Promise.all([
        page.waitForURL((u) => u.pathname === '/search' && u.searchParams.get('q') === 'lamp', { timeout: WAIT_MS }),
        box.press('Enter'),
      ]);
      assert.equal(await text(page.locator('h1')), 'Search results for “lamp”');
      const titles = await cardTitles(page);
      assert.ok(titles.some((t) => /Lamp/.test(t)), `a lamp is found (got ${JSON.stringify(titles)})`);
      assert.match(titles[0], /Lamp/, 'the lamp comes first');
    });

  });

  // -------------------------------------------------------------------------
  // 7. Accessibility (each check runs with JavaScript on and with scripts blocked)

  describe('accessibility', () => {
    for (const pagePath of [
      '/products',
      '/products?category=featured',
      '/product/nb-001',
      '/product/nope',
      '/search?q=lamp',
      '/search?q=headphnoes',
      '/',
    ]) {
      browserTest(`axe: ${pagePath}`, () => checkA11y(pagePath));
    }
  });
});
