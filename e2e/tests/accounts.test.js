// The account journeys: registering and completing the profile, signing in
// and out, guests, the forgotten-password e-mail, safe return addresses,
// sign-in throttling, the settings page and accessibility. Every journey runs
// with JavaScript on and off. (Google sign-in is in google.test.js: it needs
// the server started with a local OpenID Connect provider.)
//
// All tests reach the shop from 127.0.0.1, and the shop limits some actions
// per address (10 registrations, 20 failed sign-ins a minute…). Each test
// therefore starts with the rate-limit counters cleared (shop.resetRateLimits),
// as a shopper arriving fresh would; the throttling journey checks the limit
// itself within one test.

import { describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

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
  NARROW,
} from '../lib/harness.js';

const MSG = {
  badCredentials: 'Invalid email or password.',
  emailTaken: 'An account with this email already exists.',
  passwordsDiffer: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters',
  profileUpdated: 'Profile updated successfully!',
  signedOut: 'You have been signed out.',
  resetSent: 'If an account exists for that email, we have sent a link to reset your password.',
  passwordReset: 'Your password has been reset and you are signed in.',
  resetLinkInvalid: 'This reset link is invalid or has expired. Please request a new one.',
  tooManyAttempts: 'Too many sign-in attempts. Please try again in 15 minutes.',
  linkSent: 'If an account exists for that email, we have sent you a one-time sign-in link. It works once, within 15 minutes.',
  linkSignedIn: 'You are signed in.',
  passwordCommon: 'This password is too common or too easy to guess. Please choose another one.',
  passwordBlank: 'Password cannot be only spaces.',
  wrongPassword: 'Your current password is incorrect.',
  passwordChanged: 'Your password has been changed. Other devices have been signed out.',
  othersSignedOut: 'You have been signed out everywhere else.',
  deleteConfirm: 'Type DELETE to confirm.',
  accountDeleted: 'Your account has been deleted.',
};

const PASSWORD = 'moonlit-garden-7';

// ---------------------------------------------------------------------------
// Helpers

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

/**
 * A password field by its label (password inputs have no ARIA role, so no
 * accessible-name lookup; the label's text ends with the required marker *).
 */
function passwordField(scope, label) {
  return scope.getByLabel(new RegExp(`^${label}\\s*\\*?$`));
}

/**
 * Clicks a submit button and waits until the page the POST leads to (after
 * any redirects) has loaded. Returns the response to the POST itself.
 */
async function submit(page, button) {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.request().isNavigationRequest() && r.frame() === page.mainFrame()),
    page.waitForEvent('load'),
    button.click(),
  ]);
  return res;
}

/** Turns off the browser's own validation so the server's is what the shopper sees. */
async function disableBrowserValidation(page, testid) {
  await page.getByTestId(testid).evaluate((form) => {
    form.noValidate = true;
  });
}

/** Fills the registration form (on /login?mode=signup or /register) and submits it. */
async function register(page, { name, email, password = PASSWORD, confirm = password }) {
  const form = page.getByTestId('register-form');
  await textbox(form, 'Full name').fill(name);
  await textbox(form, 'Email').fill(email);
  await passwordField(form, 'Password').fill(password);
  await passwordField(form, 'Confirm password').fill(confirm);
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

/**
 * Registers an account in a throw-away context (so the test's own context
 * stays signed out) and returns its details.
 */
async function createAccount(shop, { js, label = 'shopper', name = 'Ada Lovelace' }) {
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

/** Opens the Menu (a popover) below 768 px, when it is shown and closed. */
async function openNavToggle(page) {
  const button = page.getByTestId('nav-toggle-button');
  if ((await button.isVisible()) && !(await page.locator('#nav-menu').evaluate((el) => el.matches(':popover-open')))) await button.click();
}

/** The Account menu in the top bar, opened; below 768 px it opens the Menu toggle first. */
async function openAccountMenu(page) {
  await openNavToggle(page);
  const menu = page.getByTestId('account-menu').filter({ visible: true });
  await expectVisible(menu, 'the Account menu');
  // A popover button in the wide bar, a <details> inside the Menu.
  await menu.locator(':scope > summary, :scope > button').click();
  await expectVisible(menu.getByRole('link', { name: 'Profile' }), 'the Profile link in the open Account menu');
  return menu;
}

/** The Login link of the top bar that is on screen (inline, or inside the Menu toggle, which it opens on a phone). */
async function headerLoginLink(page) {
  await openNavToggle(page);
  return page.locator('header').getByTestId('login-link').filter({ visible: true });
}

/** Asserts the top bar shows a signed-out visitor: a Login link and no Account menu. */
async function expectSignedOut(page) {
  await expectVisible(await headerLoginLink(page), 'the Login link');
  assert.equal(await page.getByTestId('account-menu').count(), 0, 'no Account menu');
}

/** Asserts the flash message. */
async function expectFlash(page, message) {
  const flash = page.getByTestId('flash');
  await expectVisible(flash, `the message "${message}"`);
  assert.equal(await text(flash), message);
}

/** The profile's facts (Full name, Email, Phone, …) as an object. */
async function profileFacts(page) {
  return page.getByTestId('profile-info').evaluate((dl) => {
    const facts = {};
    for (const dt of dl.querySelectorAll('dt')) facts[dt.textContent.trim()] = dt.nextElementSibling.textContent.trim();
    return facts;
  });
}

/** Asserts that /profile sends this browser to sign in. */
async function expectProfileNeedsSignIn(page, shop) {
  await open(page, '/profile');
  assert.equal(page.url(), shop.url('/login?from=%2Fprofile'), '/profile redirects to sign in');
}

// ---------------------------------------------------------------------------

describe('accounts', () => {
  // The shop trusts X-Forwarded-For from the test browser, so a test can
  // sign in "from another address": failures from one address must not lock
  // the owner out when they sign in from theirs.
  const shop = useShop({ env: { TRUSTED_PROXIES: '127.0.0.1,::1' } });
  beforeEach((t) => shop.resetRateLimits(t));

  // -------------------------------------------------------------------------
  // 1. Registration, profile, sign out and back in

  describe('registration and profile', () => {
    forEachMode('a new shopper registers, completes and edits the profile, signs out and back in', async ({ page, shop, js, t }) => {
      const email = uniqueEmail('ada', js);
      const name = 'Ada Lovelace';

      await open(page, '/login?mode=signup');
      assert.equal(await text(page.locator('h1')), 'Create Account');
      const res = await register(page, { name, email });
      assert.equal(res.status(), 303);

      // Step 2: the profile set-up.
      assert.equal(pathOf(page), '/profile/setup');
      assert.equal(await text(page.locator('h1')), 'Complete your profile');
      const setup = page.getByTestId('setup-form');
      await textbox(setup, 'City').fill('Toronto');
      await setup.getByRole('combobox', { name: 'Country' }).selectOption('Canada');
      await submit(page, setup.getByRole('button', { name: 'Save', exact: true }));

      assert.equal(pathOf(page), '/profile');
      await expectFlash(page, MSG.profileUpdated);
      assert.equal(await text(page.getByTestId('profile-name')), name);
      assert.equal(await text(page.getByTestId('profile-email')), email);
      let facts = await profileFacts(page);
      assert.equal(facts['Full name'], name);
      assert.equal(facts.Email, email);
      assert.equal(facts.City, 'Toronto');
      assert.equal(facts.Country, 'Canada');
      assert.equal(facts.Phone, '—', 'no phone yet');

      // Edit the phone number.
      await Promise.all([page.waitForEvent('load'), page.getByTestId('edit-profile').click()]);
      assert.equal(page.url(), shop.url('/profile?edit=1'));
      const form = page.getByTestId('profile-form');
      // (By name attribute: the Full name field's label is tested in "account forms label every field".)
      assert.equal(await form.locator('input[name=displayName]').inputValue(), name, 'the form starts with the saved name');
      assert.equal(await textbox(form, 'City').inputValue(), 'Toronto', 'the form starts with the saved city');
      await form.getByRole('textbox', { name: 'Phone' }).fill('+1 (416) 555-0199');
      await submit(page, form.getByRole('button', { name: 'Save Changes' }));

      assert.equal(page.url(), shop.url('/profile'));
      await expectFlash(page, MSG.profileUpdated);
      facts = await profileFacts(page);
      assert.equal(facts.Phone, '+1 (416) 555-0199');
      assert.equal(facts.City, 'Toronto', 'the city is kept');

      const rows = shop.queryDB(t, `SELECT display_name, phone_number, city, country, is_guest FROM users WHERE email = ${sqlString(email)}`);
      if (rows) {
        assert.deepEqual(rows, [{ display_name: name, phone_number: '+1 (416) 555-0199', city: 'Toronto', country: 'Canada', is_guest: 0 }]);
      }

      // Sign out from the profile.
      await submit(page, page.getByTestId('profile-signout'));
      assert.equal(page.url(), shop.url('/'));
      await expectFlash(page, MSG.signedOut);
      await expectSignedOut(page);

      // The profile now asks to sign in, and signing in returns to it.
      await expectProfileNeedsSignIn(page, shop);
      assert.equal(await text(page.locator('h1')), 'Sign In');
      await signIn(page, email, PASSWORD, { navigate: false });
      assert.equal(page.url(), shop.url('/profile'));
      assert.equal(await text(page.getByTestId('profile-email')), email);
      assert.equal((await profileFacts(page)).Phone, '+1 (416) 555-0199');
    });

    forEachMode('Skip leaves the profile for later and returns to the page the shopper came from', async ({ page, shop, js }) => {
      const email = uniqueEmail('skip', js);
      await open(page, '/faq');
      await Promise.all([page.waitForEvent('load'), (await headerLoginLink(page)).click()]);
      assert.equal(page.url(), shop.url('/login?from=%2Ffaq'));
      await Promise.all([page.waitForEvent('load'), page.getByTestId('mode-signup').click()]);
      assert.equal(await text(page.locator('h1')), 'Create Account');

      await register(page, { name: 'Charles Babbage', email });
      assert.equal(page.url(), shop.url('/profile/setup?from=%2Ffaq'));
      await submit(page, page.getByTestId('setup-form').getByRole('button', { name: 'Skip' }));
      assert.equal(page.url(), shop.url('/faq'), 'Skip goes back to the FAQ');
      assert.equal(await page.getByTestId('flash').count(), 0, 'skipping saves nothing, so no message');

      await open(page, '/profile');
      const facts = await profileFacts(page);
      assert.equal(facts.City, '—');
      assert.equal(facts.Country, 'United States', 'the default country');
    });
  });

  // -------------------------------------------------------------------------
  // Markup every account page shares

  describe('forms', () => {
    forEachMode('the Sign In / Create Account switch tells which mode is current', async ({ page }) => {
      for (const [pagePath, current, other] of [
        ['/login', 'mode-signin', 'mode-signup'],
        ['/login?mode=signup', 'mode-signup', 'mode-signin'],
      ]) {
        await open(page, pagePath);
        // aria-current needs a value: a bare (empty) aria-current means "false".
        assert.equal(await page.getByTestId(current).getAttribute('aria-current'), 'page', `${current} is marked current on ${pagePath}`);
        assert.equal(await page.getByTestId(other).getAttribute('aria-current'), null, `${other} is not marked current on ${pagePath}`);
      }
    });

    browserTest('account forms label every field and use each id once', async () => {
      const context = await shop.newContext();
      try {
        const page = await context.newPage();
        const problems = [];
        const check = async (pagePath) => {
          await open(page, pagePath);
          const found = await page.evaluate(() => {
            const out = [];
            const seen = new Map();
            for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
            for (const [id, n] of seen) if (n > 1) out.push(`id "${id}" is used ${n} times`);
            for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
              if (el.labels.length === 0 && !el.getAttribute('aria-label')) out.push(`<${el.localName} name="${el.name}"> has no label`);
            }
            return out;
          });
          problems.push(...found.map((p) => `${pagePath}: ${p}`));
        };
        for (const p of ['/login', '/login?mode=signup', '/register', '/forgot-password', '/reset-password?token=x']) await check(p);
        const account = await createAccount(shop, { js: true, label: 'labels' });
        await signIn(page, account.email, account.password);
        for (const p of ['/profile', '/profile?edit=1', '/profile/setup', '/settings']) await check(p);
        assert.deepEqual(problems, [], `account pages have unlabelled fields or repeated ids:\n  ${problems.join('\n  ')}`);
      } finally {
        await context.close();
      }
    });
  });

  // -------------------------------------------------------------------------
  // 2. Wrong credentials

  describe('sign-in errors', () => {
    forEachMode('a wrong password and an unknown e-mail get the same answer, keeping the e-mail', async ({ page, shop, js }) => {
      const account = await createAccount(shop, { js, label: 'wrongpw' });

      await open(page, '/login');
      let res = await signIn(page, account.email, 'not-the-password', { navigate: false });
      assert.equal(res.status(), 422);
      const alert = page.getByTestId('form-alert');
      await expectVisible(alert, 'the sign-in error');
      assert.equal(await text(alert), MSG.badCredentials);
      assert.equal(await alert.getAttribute('role'), 'alert', 'the error is announced');
      const form = page.getByTestId('login-form');
      assert.equal(await textbox(form, 'Email').inputValue(), account.email, 'the typed e-mail is kept');
      assert.equal(await passwordField(form, 'Password').inputValue(), '', 'the password is never sent back');
      await expectSignedOut(page);

      const unknown = uniqueEmail('nobody', js);
      res = await signIn(page, unknown, PASSWORD, { navigate: false });
      assert.equal(res.status(), 422);
      assert.equal(await text(page.getByTestId('form-alert')), MSG.badCredentials, 'an unknown e-mail gets the same text');
      assert.equal(await textbox(form, 'Email').inputValue(), unknown);
      await expectSignedOut(page);

      // The right password signs in, whatever the e-mail's case.
      res = await signIn(page, account.email.toUpperCase(), PASSWORD, { navigate: false });
      assert.equal(res.status(), 303);
      assert.equal(page.url(), shop.url('/'));
      await expectVisible(page.getByTestId('account-menu').filter({ visible: true }), 'the Account menu');
    });
  });

  // -------------------------------------------------------------------------
  // 3. Registration errors

  describe('registration errors', () => {
    forEachMode('registration errors are explained next to the field and the name and e-mail are kept', async ({ page, shop, js, t }) => {
      const taken = await createAccount(shop, { js, label: 'taken' });
      const fresh = uniqueEmail('fresh', js);

      /** Asserts one field error on the registration form and the kept name and e-mail. */
      async function expectRegisterError(fieldId, message, { name, email }) {
        assert.equal(await text(page.locator('h1')), 'Create Account', 'still on the registration form');
        const error = page.getByTestId(`${fieldId}-error`);
        await expectVisible(error, `the error for #${fieldId}`);
        assert.equal(await text(error), message);
        const input = page.locator(`#${fieldId}`);
        assert.equal(await input.getAttribute('aria-invalid'), 'true', `#${fieldId} is marked invalid`);
        assert.match(await input.getAttribute('aria-describedby'), new RegExp(`\\b${fieldId}-error\\b`), `#${fieldId} points at its error`);
        assert.equal(await page.locator('.field-error').count(), 1, 'only that field has an error');
        const form = page.getByTestId('register-form');
        assert.equal(await textbox(form, 'Full name').inputValue(), name, 'the typed name is kept');
        assert.equal(await textbox(form, 'Email').inputValue(), email, 'the typed e-mail is kept');
        assert.equal(await passwordField(form, 'Password').inputValue(), '', 'passwords are not sent back');
      }

      // An e-mail that already has an account (from the login page's sign-up mode).
      await open(page, '/login?mode=signup');
      let res = await register(page, { name: 'Ada Again', email: taken.email });
      assert.equal(res.status(), 422);
      assert.equal(pathOf(page), '/register');
      assert.equal(await page.getByTestId('mode-signup').count(), 1, 'the login page is shown again, in Create Account mode');
      await expectRegisterError('register-email', MSG.emailTaken, { name: 'Ada Again', email: taken.email });

      // Passwords that differ (on the stand-alone page).
      await open(page, '/register');
      res = await register(page, { name: 'Grace Hopper', email: fresh, password: 'secret-one', confirm: 'secret-two' });
      assert.equal(res.status(), 422);
      await expectRegisterError('register-confirm', MSG.passwordsDiffer, { name: 'Grace Hopper', email: fresh });

      // A password that is too short.
      await open(page, '/login?mode=signup');
      res = await register(page, { name: 'Grace Hopper', email: fresh, password: 'abc' });
      assert.equal(res.status(), 422);
      await expectRegisterError('register-password', MSG.passwordTooShort, { name: 'Grace Hopper', email: fresh });

      // What the browser would normally catch is checked again on the server.
      await open(page, '/register');
      await disableBrowserValidation(page, 'register-form');
      res = await register(page, { name: '', email: 'not-an-email' });
      assert.equal(res.status(), 422);
      assert.equal(await text(page.getByTestId('register-name-error')), 'Full name is required.');
      assert.equal(await text(page.getByTestId('register-email-error')), 'Please enter a valid email address');
      assert.equal(await textbox(page.getByTestId('register-form'), 'Email').inputValue(), 'not-an-email');

      await expectSignedOut(page);
      const rows = shop.queryDB(t, `SELECT id FROM users WHERE email IN (${sqlString(fresh)}, 'not-an-email')`);
      if (rows) assert.deepEqual(rows, [], 'no account was created');
    });
  });

  // -------------------------------------------------------------------------
  // 4. Guests

  describe('guests', () => {
    forEachMode('a guest gets the Account menu, is sent to sign in for the profile, and can log out', async ({ page, shop, t }) => {
      const guestsBefore = shop.queryDB(t, 'SELECT count(*) AS n FROM users WHERE is_guest = 1');

      await open(page, '/login');
      await submit(page, page.getByTestId('continue-guest'));
      assert.equal(page.url(), shop.url('/'));
      assert.equal(await page.locator('header').getByTestId('login-link').count(), 0, 'no Login link for a guest');

      const menu = await openAccountMenu(page);
      assert.equal(await menu.getByRole('link', { name: 'Profile' }).getAttribute('href'), '/profile');
      assert.equal(await menu.getByRole('link', { name: 'Orders' }).getAttribute('href'), '/orders');
      await expectVisible(menu.getByRole('button', { name: 'Logout' }), 'the Logout button');

      const guestsAfter = shop.queryDB(t, 'SELECT count(*) AS n FROM users WHERE is_guest = 1');
      if (guestsBefore && guestsAfter) assert.equal(guestsAfter[0].n, guestsBefore[0].n + 1, 'one guest was created');

      // The profile needs an account.
      await expectProfileNeedsSignIn(page, shop);
      assert.equal(await text(page.locator('h1')), 'Sign In');
      await expectVisible(page.getByTestId('account-menu').filter({ visible: true }), 'the guest keeps the Account menu');

      const again = await openAccountMenu(page);
      await submit(page, again.getByRole('button', { name: 'Logout' }));
      assert.equal(page.url(), shop.url('/'));
      await expectFlash(page, MSG.signedOut);
      await expectSignedOut(page);
    });

    forEachMode(
      'on a phone the Account menu sits inside the Menu toggle and logs out',
      async ({ page, shop, js }) => {
        const account = await createAccount(shop, { js, label: 'phone' });
        await signIn(page, account.email, account.password);
        assert.equal(page.url(), shop.url('/'));

        await expectHidden(page.locator('header').getByTestId('account-menu').first(), 'the Account menu before the Menu is opened');
        const menu = await openAccountMenu(page);
        await submit(page, menu.getByRole('button', { name: 'Logout' }));
        assert.equal(page.url(), shop.url('/'));
        await expectFlash(page, MSG.signedOut);
        await expectSignedOut(page);
      },
      { viewport: NARROW },
    );
  });

  // -------------------------------------------------------------------------
  // 5. Forgotten password

  describe('forgotten password', () => {
    forEachMode('the e-mailed link sets a new password and signs the shopper in', async ({ page, shop, js, t }) => {
      const account = await createAccount(shop, { js, label: 'forgot', name: 'Mary Somerville' });
      const newPassword = 'starlit-river-9';

      await open(page, '/login');
      await Promise.all([page.waitForEvent('load'), page.getByTestId('forgot-link').click()]);
      assert.equal(pathOf(page), '/forgot-password');
      assert.equal(await text(page.locator('h1')), 'Forgot your password?');
      await textbox(page.getByTestId('forgot-form'), 'Email').fill(account.email);
      const res = await submit(page, page.getByRole('button', { name: 'Send reset link' }));
      assert.equal(res.status(), 303);
      assert.equal(pathOf(page), '/forgot-password');
      await expectFlash(page, MSG.resetSent);

      // Registering mailed a confirmation link first; the reset is the one after it.
      const mails = shop.queryDB(t, `SELECT recipient, subject, body FROM outbox WHERE recipient = ${sqlString(account.email)} AND subject <> 'Confirm your e-mail address' ORDER BY id DESC`);
      if (!mails) {
        t.skip('the reset link is read from the outbox table, which needs sqlite3');
        return;
      }
      assert.equal(mails.length, 1, 'one reset e-mail was sent');
      assert.equal(mails[0].subject, 'Reset your password');
      assert.match(mails[0].body, /Hello Mary Somerville/);
      const found = mails[0].body.match(/https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/);
      assert.ok(found, `the e-mail contains a reset link:\n${mails[0].body}`);
      const link = new URL(found[0]);
      assert.equal(link.origin, shop.baseURL, 'the link points at this shop (BASE_URL)');
      const resetPath = link.pathname + link.search;

      await open(page, resetPath);
      assert.equal(await text(page.locator('h1')), 'Choose a new password');
      const form = page.getByTestId('reset-form');
      await passwordField(form, 'New password').fill(newPassword);
      await passwordField(form, 'Confirm new password').fill(newPassword);
      await submit(page, form.getByRole('button', { name: 'Set new password' }));
      assert.equal(page.url(), shop.url('/profile'));
      await expectFlash(page, MSG.passwordReset);
      assert.equal(await text(page.getByTestId('profile-email')), account.email);

      // The old password no longer works; the new one does.
      await submit(page, page.getByTestId('profile-signout'));
      await expectSignedOut(page);
      let signin = await signIn(page, account.email, account.password);
      assert.equal(signin.status(), 422);
      assert.equal(await text(page.getByTestId('form-alert')), MSG.badCredentials);
      signin = await signIn(page, account.email, newPassword, { navigate: false });
      assert.equal(signin.status(), 303);
      assert.equal(page.url(), shop.url('/'));
      await expectVisible(page.getByTestId('account-menu').filter({ visible: true }), 'the Account menu');

      // The link works once: opened again, it says so on arrival rather than
      // after the shopper has typed a new password.
      await open(page, resetPath);
      assert.equal(await text(page.getByTestId('form-alert')), MSG.resetLinkInvalid);
      assert.equal(await page.getByTestId('reset-form').count(), 0, 'no form for a used link');
    });

    forEachMode('an unknown e-mail gets the same answer and no e-mail is sent', async ({ page, shop, js, t }) => {
      const before = shop.queryDB(t, 'SELECT count(*) AS n FROM outbox');
      await open(page, '/forgot-password');
      await textbox(page.getByTestId('forgot-form'), 'Email').fill(uniqueEmail('nobody', js));
      await submit(page, page.getByRole('button', { name: 'Send reset link' }));
      assert.equal(pathOf(page), '/forgot-password');
      await expectFlash(page, MSG.resetSent);
      const after = shop.queryDB(t, 'SELECT count(*) AS n FROM outbox');
      if (before && after) assert.equal(after[0].n, before[0].n, 'the outbox is unchanged');
    });
  });

  // -------------------------------------------------------------------------
  // 6. Return addresses

  describe('return addresses', () => {
    forEachMode('after signing in, the shopper returns to a page of the shop and never to another site', async ({ page, context, shop, js }) => {
      const account = await createAccount(shop, { js, label: 'redirect' });
      // Should the shop ever send the browser elsewhere, answer locally instead
      // of leaving the loopback, so the assertion below says where it went.
      const home = new URL(shop.baseURL).host;
      await context.route(
        (url) => url.host !== home,
        (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>elsewhere</title>' }),
      );

      // A local page is honoured.
      await open(page, '/login?from=%2Ffaq');
      await signIn(page, account.email, account.password, { navigate: false });
      assert.equal(page.url(), shop.url('/faq'));

      for (const target of ['//evil.example', 'https://evil.example', '/\\evil.example']) {
        await context.clearCookies();
        const loginPath = `/login?from=${encodeURIComponent(target)}`;
        await open(page, loginPath);
        assert.equal(await page.locator('[data-testid=login-form] input[name=from]').inputValue(), '', `${target} is not kept as the return address`);
        await signIn(page, account.email, account.password, { navigate: false });
        const landed = new URL(page.url());
        assert.equal(landed.origin, shop.baseURL, `signing in from ${loginPath} stays on the shop (landed on ${page.url()})`);
        assert.equal(landed.pathname, '/', `signing in from ${loginPath} lands on the home page`);

        // Already signed in, the login page sends the shopper on at once.
        await page.goto(loginPath);
        assert.equal(page.url(), shop.url('/'), `a signed-in visit to ${loginPath} goes home`);
      }
    });
  });

  // -------------------------------------------------------------------------
  // 8. Throttling

  describe('throttling', () => {
    forEachMode('five wrong passwords pause that e-mail from that address only; the owner gets in elsewhere or by an e-mailed link', async ({ page, shop, js, t }) => {
      const account = await createAccount(shop, { js, label: 'throttle' });
      await open(page, '/login');
      for (let i = 1; i <= 5; i++) {
        const res = await signIn(page, account.email, `wrong-${i}`, { navigate: false });
        assert.equal(res.status(), 422, `attempt ${i} is simply wrong`);
        assert.equal(await text(page.getByTestId('form-alert')), MSG.badCredentials);
      }

      // The sixth attempt from here is refused, even with the right password,
      // and says when to retry.
      let res = await signIn(page, account.email, account.password, { navigate: false });
      assert.equal(res.status(), 429);
      assert.equal(await text(page.getByTestId('form-alert')), MSG.tooManyAttempts);
      assert.equal(await textbox(page.getByTestId('login-form'), 'Email').inputValue(), account.email, 'the e-mail is kept');
      await expectSignedOut(page);

      // The same address in capitals is the same e-mail.
      res = await signIn(page, account.email.toUpperCase(), account.password, { navigate: false });
      assert.equal(res.status(), 429);
      assert.equal(await text(page.getByTestId('form-alert')), MSG.tooManyAttempts);

      // Another e-mail is not affected.
      res = await signIn(page, uniqueEmail('other', js), 'whatever-1', { navigate: false });
      assert.equal(res.status(), 422);
      assert.equal(await text(page.getByTestId('form-alert')), MSG.badCredentials);

      // The owner, at another address, is not locked out.
      const elsewhere = await shop.newContext({ js });
      try {
        await elsewhere.setExtraHTTPHeaders({ 'X-Forwarded-For': js ? '198.51.100.7' : '198.51.100.8' });
        const owner = await elsewhere.newPage();
        res = await signIn(owner, account.email, account.password);
        assert.equal(res.status(), 303, 'the owner signs in from another address');
      } finally {
        await elsewhere.close();
      }

      // Here, the owner can ask for a one-time sign-in link by e-mail.
      res = await signIn(page, account.email, account.password, { navigate: false });
      assert.equal(res.status(), 429);
      res = await submit(page, page.getByTestId('signin-link-send'));
      assert.equal(res.status(), 303);
      await expectFlash(page, MSG.linkSent);
      const mails = shop.queryDB(t, `SELECT body FROM outbox WHERE recipient = ${sqlString(account.email)} ORDER BY id DESC`);
      if (!mails) {
        t.skip('the sign-in link is read from the outbox table, which needs sqlite3');
        return;
      }
      const link = mails[0].body.match(/https?:\/\/\S+\/login\/link\?token=[A-Za-z0-9_-]+/);
      assert.ok(link, 'the e-mail has a sign-in link');
      const { pathname, search } = new URL(link[0]);
      await open(page, pathname + search);
      await expectSignedOut(page); // opening the link alone signs nobody in
      res = await submit(page, page.getByTestId('signin-link-confirm').getByRole('button', { name: 'Sign in' }));
      assert.equal(res.status(), 303);
      await expectFlash(page, MSG.linkSignedIn);
      await open(page, '/profile');
      assert.equal(pathOf(page), '/profile', 'signed in by the link');

      // The link works once.
      await open(page, pathname + search);
      res = await submit(page, page.getByTestId('signin-link-confirm').getByRole('button', { name: 'Sign in' }));
      assert.equal(res.status(), 422);
      assert.match(await text(page.getByTestId('form-alert')), /invalid, used or expired/);
    });
  });

  // -------------------------------------------------------------------------
  // 8b. Passwords and reset links

  describe('password rules and reset links', () => {
    forEachMode('common and blank passwords are refused with a clear message', async ({ page, js }) => {
      await open(page, '/register');
      await disableBrowserValidation(page, 'register-form');
      for (const [password, message] of [
        ['123456', MSG.passwordCommon],
        ['password1', MSG.passwordCommon],
        ['      ', MSG.passwordBlank],
      ]) {
        const res = await register(page, { name: 'Ada Lovelace', email: uniqueEmail('weak', js), password });
        assert.equal(res.status(), 422, `${JSON.stringify(password)} is refused`);
        assert.equal(await text(page.getByTestId('register-password-error')), message);
        await disableBrowserValidation(page, 'register-form');
      }
      const res = await register(page, { name: 'Ada Lovelace', email: uniqueEmail('strong', js), password: PASSWORD });
      assert.equal(res.status(), 303, 'a good password is accepted');
    });

    forEachMode('a newer reset link revokes the older one, and a used link revokes the rest', async ({ page, shop, js, t }) => {
      const account = await createAccount(shop, { js, label: 'revoke' });
      const requestLink = async () => {
        await open(page, '/forgot-password');
        await textbox(page.getByTestId('forgot-form'), 'Email').fill(account.email);
        await submit(page, page.getByTestId('forgot-form').getByRole('button', { name: 'Send reset link' }));
        const mails = shop.queryDB(t, `SELECT body FROM outbox WHERE recipient = ${sqlString(account.email)} ORDER BY id DESC`);
        if (!mails) return null;
        const { pathname, search } = new URL(mails[0].body.match(/https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/)[0]);
        return pathname + search;
      };
      const first = await requestLink();
      if (!first) {
        t.skip('reset links are read from the outbox table, which needs sqlite3');
        return;
      }
      const second = await requestLink();
      assert.notEqual(first, second);
      const reset = async (link, password) => {
        await open(page, link);
        const form = page.getByTestId('reset-form');
        await passwordField(form, 'New password').fill(password);
        await passwordField(form, 'Confirm new password').fill(password);
        return submit(page, form.getByRole('button', { name: 'Set new password' }));
      };
      // The older link says at once that it no longer works, and offers no form.
      await open(page, first);
      assert.equal(await text(page.getByTestId('form-alert')), MSG.resetLinkInvalid, 'the older link no longer works');
      assert.equal(await page.getByTestId('reset-form').count(), 0, 'no form for a revoked link');
      const res = await reset(second, 'quiet-harbor-21');
      assert.equal(res.status(), 303, 'the newest link works');
      await expectFlash(page, MSG.passwordReset);
      // Used, it works no more.
      await open(page, second);
      assert.equal(await text(page.getByTestId('form-alert')), MSG.resetLinkInvalid, 'a used link no longer works');
    });
  });

  // -------------------------------------------------------------------------
  // 9. Settings

  describe('settings', () => {
    /** A second browser (another device) signed in to the same account. */
    async function otherDevice(shop, js, account) {
      const context = await shop.newContext({ js });
      const page = await context.newPage();
      await signIn(page, account.email, account.password);
      await open(page, '/profile');
      assert.equal(pathOf(page), '/profile', 'the other device is signed in');
      return { context, page };
    }

    forEachMode('changing the password checks the current one and signs out other devices', async ({ page, shop, js }) => {
      const account = await createAccount(shop, { js, label: 'change' });
      const newPassword = 'silver-comet-3';
      await signIn(page, account.email, account.password);
      const other = await otherDevice(shop, js, account);
      try {
        await open(page, '/settings');
        assert.equal(await text(page.locator('h1')), 'Account Settings');
        const form = page.getByTestId('password-form');
        const fill = async (current) => {
          await passwordField(form, 'Current password').fill(current);
          await passwordField(form, 'New password').fill(newPassword);
          await passwordField(form, 'Confirm new password').fill(newPassword);
        };

        await fill('not-my-password');
        let res = await submit(page, form.getByRole('button', { name: 'Update password' }));
        assert.equal(res.status(), 422);
        assert.equal(await text(page.getByTestId('current-password-error')), MSG.wrongPassword);
        assert.equal(await page.locator('#current-password').getAttribute('aria-invalid'), 'true');

        await fill(account.password);
        res = await submit(page, form.getByRole('button', { name: 'Update password' }));
        assert.equal(res.status(), 303);
        assert.equal(page.url(), shop.url('/settings'));
        await expectFlash(page, MSG.passwordChanged);

        // This device stays signed in; the other one is signed out.
        await open(page, '/profile');
        assert.equal(pathOf(page), '/profile', 'this device is still signed in');
        await expectProfileNeedsSignIn(other.page, shop);
        res = await signIn(other.page, account.email, account.password, { navigate: false });
        assert.equal(res.status(), 422, 'the old password no longer works');
        res = await signIn(other.page, account.email, newPassword, { navigate: false });
        assert.equal(res.status(), 303, 'the new password works');
        assert.equal(other.page.url(), shop.url('/profile'));
      } finally {
        await other.context.close();
      }
    });

    forEachMode('"Sign out everywhere else" keeps this device signed in', async ({ page, shop, js }) => {
      const account = await createAccount(shop, { js, label: 'everywhere' });
      await signIn(page, account.email, account.password);
      const other = await otherDevice(shop, js, account);
      try {
        await open(page, '/settings');
        await submit(page, page.getByTestId('signout-others'));
        assert.equal(page.url(), shop.url('/settings'));
        await expectFlash(page, MSG.othersSignedOut);
        await open(page, '/profile');
        assert.equal(pathOf(page), '/profile', 'this device is still signed in');
        await expectProfileNeedsSignIn(other.page, shop);
      } finally {
        await other.context.close();
      }
    });

    forEachMode('deleting the account needs DELETE typed, signs out and the account is gone', async ({ page, shop, js, t }) => {
      const account = await createAccount(shop, { js, label: 'delete' });
      await signIn(page, account.email, account.password);
      const other = await otherDevice(shop, js, account);
      try {
        await open(page, '/settings');
        const form = page.getByTestId('delete-form');
        const confirm = textbox(form, 'Type DELETE to confirm');

        await confirm.fill('delete');
        let res = await submit(page, form.getByRole('button', { name: 'Delete my account' }));
        assert.equal(res.status(), 422);
        assert.equal(await text(page.getByTestId('delete-confirm-error')), MSG.deleteConfirm);
        await open(page, '/profile');
        assert.equal(pathOf(page), '/profile', 'a wrong confirmation deletes nothing');

        await open(page, '/settings');
        await confirm.fill('DELETE');
        res = await submit(page, form.getByRole('button', { name: 'Delete my account' }));
        assert.equal(res.status(), 303);
        assert.equal(page.url(), shop.url('/'));
        await expectFlash(page, MSG.accountDeleted);
        await expectSignedOut(page);

        const rows = shop.queryDB(t, `SELECT id FROM users WHERE email = ${sqlString(account.email)}`);
        if (rows) assert.deepEqual(rows, [], 'the account row is gone');

        await expectProfileNeedsSignIn(other.page, shop);
        res = await signIn(page, account.email, account.password);
        assert.equal(res.status(), 422);
        assert.equal(await text(page.getByTestId('form-alert')), MSG.badCredentials, 'the deleted account cannot sign in');
      } finally {
        await other.context.close();
      }
    });
  });

  // -------------------------------------------------------------------------
  // Google is off without its configuration

  describe('google', () => {
    forEachMode('without Google configured there is no Google button', async ({ page }) => {
      for (const p of ['/login', '/login?mode=signup', '/register']) {
        await open(page, p);
        assert.equal(await page.getByTestId('google-signin').count(), 0, `no Google button on ${p}`);
        await expectVisible(page.getByTestId('continue-guest'), `Continue as Guest on ${p}`);
      }
    });
  });

  // -------------------------------------------------------------------------
  // 10. Accessibility (each check runs with JavaScript on and with scripts blocked)

  describe('accessibility', () => {
    for (const pagePath of ['/login', '/login?mode=signup', '/register', '/forgot-password', '/reset-password?token=x', '/reset-password']) {
      browserTest(`axe: ${pagePath}`, () => checkA11y(pagePath));
    }

    browserTest('axe: /login showing a sign-in error', () =>
      checkA11y('/login', {
        prepare: async (page) => {
          const res = await signIn(page, uniqueEmail('axe-nobody', true), 'wrong-password', { navigate: false });
          assert.equal(res.status(), 422);
          await expectVisible(page.getByTestId('form-alert'), 'the sign-in error');
        },
      }),
    );

    browserTest('axe: /login?mode=signup showing field errors', () =>
      checkA11y('/login?mode=signup', {
        prepare: async (page) => {
          await disableBrowserValidation(page, 'register-form');
          const res = await submit(page, page.getByTestId('register-form').getByRole('button', { name: 'Create Account' }));
          assert.equal(res.status(), 422);
          await expectVisible(page.getByTestId('register-name-error'), 'the Full name error');
        },
      }),
    );

    // Signed-in pages share one account; each axe mode signs in its own context.
    let account;
    const signedIn = (extra = {}) => ({
      ...extra,
      setup: async (page) => {
        account ??= await createAccount(shop, { js: true, label: 'axe' });
        const res = await signIn(page, account.email, account.password);
        assert.equal(res.status(), 303, 'signed in for the accessibility check');
      },
    });

    for (const pagePath of ['/profile', '/profile?edit=1', '/profile/setup', '/settings']) {
      browserTest(`axe: ${pagePath} signed in`, () => checkA11y(pagePath, signedIn()));
    }

    browserTest('axe: /profile?edit=1 showing a field error', () =>
      checkA11y(
        '/profile?edit=1',
        signedIn({
          prepare: async (page) => {
            const form = page.getByTestId('profile-form');
            await form.getByRole('textbox', { name: 'Phone' }).fill('call me maybe');
            const res = await submit(page, form.getByRole('button', { name: 'Save Changes' }));
            assert.equal(res.status(), 422);
            await expectVisible(page.getByTestId('profile-phone-error'), 'the Phone error');
          },
        }),
      ),
    );

    browserTest('axe: /settings showing a wrong current password', () =>
      checkA11y(
        '/settings',
        signedIn({
          prepare: async (page) => {
            const form = page.getByTestId('password-form');
            await passwordField(form, 'Current password').fill('not-my-password');
            await passwordField(form, 'New password').fill('whatever-123');
            await passwordField(form, 'Confirm new password').fill('whatever-123');
            const res = await submit(page, form.getByRole('button', { name: 'Update password' }));
            assert.equal(res.status(), 422);
            await expectVisible(page.getByTestId('current-password-error'), 'the current password error');
          },
        }),
      ),
    );

    browserTest('axe: / with the Account menu open', () =>
      checkA11y('/', signedIn({ prepare: (page) => openAccountMenu(page) })),
    );

    browserTest('axe: / at 390 px with the Menu and the Account menu open', () =>
      checkA11y('/', signedIn({ viewport: NARROW, prepare: (page) => openAccountMenu(page) })),
    );
  });
});
