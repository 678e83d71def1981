// Google sign-in against a local OpenID Connect provider (lib/oidc.js) on
// loopback: the shop is started with GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET
// and GOOGLE_DISCOVERY_URL pointing at it, so the browser really goes shop →
// provider → shop callback. Every journey runs with JavaScript on and off.

import { describe, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { useShop, forEachMode, browserTest, checkA11y, expectVisible, text, open, sqlString } from '../lib/harness.js';
import { startOIDCProvider, CLIENT_ID } from '../lib/oidc.js';

const GOOGLE_FAILED = 'Failed to login with Google. Please try again.';
const PASSWORD = 'moonlit-garden-7';

// The provider must be listening before the shop starts: its address is
// part of the shop's environment.
const idp = await startOIDCProvider();

function uniqueEmail(label, js) {
  const rand = Math.random().toString(36).slice(2, 6);
  return `${label}-${js ? 'js' : 'nojs'}-${Date.now()}-${rand}@example.com`;
}

/** Clicks a submit button and waits until the page it leads to (after redirects) has loaded. */
async function submit(page, button) {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.request().isNavigationRequest() && r.frame() === page.mainFrame()),
    page.waitForEvent('load'),
    button.click(),
  ]);
  return res;
}

/** Presses "Continue with Google" and returns the final response (the shop's answer to the callback chain). */
async function continueWithGoogle(page) {
  const button = page.getByTestId('google-signin');
  await expectVisible(button, 'the Continue with Google button');
  assert.equal(await text(button), 'Continue with Google');
  let last;
  const onResponse = (r) => {
    if (r.frame() === page.mainFrame() && r.request().isNavigationRequest()) last = r;
  };
  page.on('response', onResponse);
  try {
    await submit(page, button);
  } finally {
    page.off('response', onResponse);
  }
  return last;
}

/** Asserts the browser went through the provider and came back to the shop's callback. */
function assertRoundTrip(shop, since) {
  const seen = idp.requests.slice(since);
  const authorize = seen.find((r) => r.path === '/authorize');
  assert.ok(authorize, 'the browser was sent to the provider');
  assert.equal(authorize.query.client_id, CLIENT_ID);
  assert.equal(authorize.query.redirect_uri, shop.url('/auth/google/callback'), 'the callback is BASE_URL/auth/google/callback');
  assert.ok(authorize.query.state, 'the request carries a state');
  assert.deepEqual(authorize.query.scope.split(' ').sort(), ['email', 'openid', 'profile']);
  return seen;
}

describe('google sign-in', () => {
  after(() => idp.close());
  const shop = useShop({ env: idp.env });
  beforeEach((t) => shop.resetRateLimits(t));

  forEachMode('Continue with Google signs a new shopper in and returns to the page they came from', async ({ page, shop, js, t }) => {
    const email = uniqueEmail('grace', js);
    const sub = `google-${js ? 'js' : 'nojs'}-${Date.now()}`;
    idp.nextLogin({ sub, email, name: 'Grace Hopper' });
    const since = idp.requests.length;

    await open(page, '/login?from=%2Fprofile');
    await continueWithGoogle(page);
    assert.equal(page.url(), shop.url('/profile'), 'back on the profile, signed in');
    assert.equal(await text(page.getByTestId('profile-email')), email);
    assert.equal(await text(page.getByTestId('profile-name')), 'Grace Hopper');

    const seen = assertRoundTrip(shop, since);
    const token = seen.find((r) => r.path === '/token');
    assert.ok(token, 'the shop exchanged the code for tokens');
    assert.equal(token.form.grant_type, 'authorization_code');

    const rows = shop.queryDB(t, `SELECT google_subject, password_hash, is_guest FROM users WHERE email = ${sqlString(email)}`);
    if (rows) assert.deepEqual(rows, [{ google_subject: sub, password_hash: null, is_guest: 0 }], 'one Google-only account');

    // Signing out and in again finds the same account.
    await submit(page, page.getByTestId('profile-signout'));
    idp.nextLogin({ sub, email, name: 'Grace Hopper' });
    await open(page, '/login');
    await continueWithGoogle(page);
    assert.equal(page.url(), shop.url('/'));
    await expectVisible(page.getByTestId('account-menu').filter({ visible: true }), 'the Account menu');
    const again = shop.queryDB(t, `SELECT count(*) AS n FROM users WHERE email = ${sqlString(email)}`);
    if (again) assert.equal(again[0].n, 1, 'no second account');
  });

  forEachMode('a shopper who cancels at Google is told so and stays signed out', async ({ page, shop }) => {
    idp.nextLogin({ error: 'access_denied' });
    const since = idp.requests.length;

    await open(page, '/login?from=%2Fprofile');
    const res = await continueWithGoogle(page);
    assertRoundTrip(shop, since);
    assert.equal(new URL(page.url()).pathname, '/auth/google/callback');
    assert.equal(res.status(), 401);
    const alert = page.getByTestId('form-alert');
    await expectVisible(alert, 'the Google error');
    assert.equal(await text(alert), GOOGLE_FAILED);
    assert.equal(await text(page.locator('h1')), 'Sign In');
    assert.equal(await page.locator('[data-testid=login-form] input[name=from]').inputValue(), '/profile', 'the return address is kept');
    assert.equal(await page.getByTestId('account-menu').count(), 0, 'not signed in');
    assert.equal(idp.requests.slice(since).filter((r) => r.path === '/token').length, 0, 'no token was asked for');

    await open(page, '/profile');
    assert.equal(page.url(), shop.url('/login?from=%2Fprofile'), 'the profile still asks to sign in');
  });

  /** Registers email with a password in page, through the form. */
  async function registerWithPassword(page, email) {
    await open(page, '/register');
    const form = page.getByTestId('register-form');
    await form.getByRole('textbox', { name: 'Full name', exact: true }).fill('Ada Lovelace');
    await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await form.locator('input[name=password]').fill(PASSWORD);
    await form.locator('input[name=confirmPassword]').fill(PASSWORD);
    await submit(page, form.getByRole('button', { name: 'Create Account' }));
    assert.equal(new URL(page.url()).pathname, '/profile/setup');
  }

  /** Opens the newest mailed link with subject to email and presses Confirm; null without sqlite3. */
  async function confirmByMail(page, shop, t, email, subject) {
    const mails = shop.queryDB(t, `SELECT body FROM outbox WHERE recipient = ${sqlString(email)} AND subject = ${sqlString(subject)} ORDER BY id DESC`);
    if (!mails) return null;
    assert.ok(mails.length > 0, `a mail "${subject}" was sent`);
    const link = mails[0].body.match(/https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_-]+/);
    assert.ok(link, `the mail has a confirmation link:\n${mails[0].body}`);
    const { pathname, search } = new URL(link[0]);
    await open(page, pathname + search);
    return submit(page, page.getByTestId('confirm-email-form').getByRole('button', { name: 'Confirm' }));
  }

  forEachMode('Google takes over an account whose e-mail was never confirmed: the other password and session stop working', async ({ page, shop, js, t }) => {
    const email = uniqueEmail('ada', js);
    // Someone registers the address with a password of their own and stays signed in.
    const other = await shop.newContext({ js });
    try {
      const registrant = await other.newPage();
      await registerWithPassword(registrant, email);

      const sub = `google-takeover-${js ? 'js' : 'nojs'}-${Date.now()}`;
      idp.nextLogin({ sub, email, name: 'Augusta Ada King' });
      await open(page, '/login?from=%2Fprofile');
      await continueWithGoogle(page);
      assert.equal(page.url(), shop.url('/profile'));
      assert.equal(await text(page.getByTestId('profile-email')), email);
      assert.match(await text(page.getByTestId('flash')), /The password this account had was removed/);

      const rows = shop.queryDB(t, `SELECT google_subject, password_hash, CASE WHEN email_verified THEN 1 ELSE 0 END AS verified FROM users WHERE email = ${sqlString(email)}`);
      if (rows) assert.deepEqual(rows, [{ google_subject: sub, password_hash: null, verified: 1 }], 'linked, verified, no password');

      // The registrant's session has ended, and the password no longer works.
      await open(registrant, '/profile');
      assert.equal(registrant.url(), shop.url('/login?from=%2Fprofile'), 'the other session is signed out');
      const form = registrant.getByTestId('login-form');
      await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
      await form.locator('input[name=password]').fill(PASSWORD);
      const res = await submit(registrant, form.getByRole('button', { name: 'Sign In' }));
      assert.equal(res.status(), 422, 'the old password is refused');
    } finally {
      await other.close();
    }
  });

  forEachMode('a confirmed account is linked to Google only through the link mailed to it', async ({ page, shop, js, t }) => {
    const email = uniqueEmail('grace', js);
    await registerWithPassword(page, email);
    if (!(await confirmByMail(page, shop, t, email, 'Confirm your e-mail address'))) {
      t.skip('the confirmation links are read from the outbox table, which needs sqlite3');
      return;
    }
    await open(page, '/profile');
    await submit(page, page.getByTestId('profile-signout'));

    const sub = `google-confirm-${js ? 'js' : 'nojs'}-${Date.now()}`;
    idp.nextLogin({ sub, email, name: 'Grace Hopper' });
    await open(page, '/login?from=%2Fprofile');
    await continueWithGoogle(page);
    assert.equal(page.url(), shop.url('/login?from=%2Fprofile'), 'back on the sign-in page');
    assert.equal(await text(page.getByTestId('flash')), `We sent a link to ${email} to confirm adding Google sign-in to your account.`);
    assert.equal(await page.getByTestId('account-menu').count(), 0, 'not signed in');
    let rows = shop.queryDB(t, `SELECT google_subject FROM users WHERE email = ${sqlString(email)}`);
    assert.deepEqual(rows, [{ google_subject: null }], 'not linked before the link is used');

    const res = await confirmByMail(page, shop, t, email, 'Confirm adding Google sign-in');
    assert.equal(res.status(), 303);
    assert.equal(page.url(), shop.url('/profile'));
    assert.equal(await text(page.getByTestId('flash')), 'Google sign-in has been added to your account.');
    assert.equal(await text(page.getByTestId('profile-email')), email);
    rows = shop.queryDB(t, `SELECT google_subject FROM users WHERE email = ${sqlString(email)}`);
    assert.deepEqual(rows, [{ google_subject: sub }], 'linked by the link');
  });

  forEachMode('an unverified Google e-mail does not sign in', async ({ page, shop, js, t }) => {
    const email = uniqueEmail('unverified', js);
    idp.nextLogin({ sub: `google-unverified-${js ? 'js' : 'nojs'}-${Date.now()}`, email, name: 'Eve', emailVerified: false });
    await open(page, '/login');
    const res = await continueWithGoogle(page);
    assert.equal(res.status(), 401);
    assert.equal(await text(page.getByTestId('form-alert')), GOOGLE_FAILED);
    assert.equal(await page.getByTestId('account-menu').count(), 0, 'not signed in');
    const rows = shop.queryDB(t, `SELECT id FROM users WHERE email = ${sqlString(email)}`);
    if (rows) assert.deepEqual(rows, [], 'no account was created');
  });

  browserTest('axe: /login with the Google button', () => checkA11y('/login'));
  browserTest('axe: /login?mode=signup with the Google button', () => checkA11y('/login?mode=signup'));
});
