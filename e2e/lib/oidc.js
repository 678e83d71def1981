// A tiny OpenID Connect provider for the browser tests, on a loopback port.
//
// It speaks just enough of the authorization-code flow for the shop's Google
// sign-in (goth's openidConnect provider):
//
//   GET  /.well-known/openid-configuration  discovery document
//   GET  /authorize                         redirects straight back to redirect_uri
//                                           with ?code=…&state=… (no login screen),
//                                           or with ?error=…&state=… when told to fail
//   POST /token                             code → {access_token, id_token, …}
//   GET  /userinfo                          the claims, for a Bearer access token
//   GET  /jwks                              an empty key set
//
// The id_token is a well-formed but unsigned JWT (header.claims.signature,
// base64url): goth decodes it without checking the signature, and checks
// iss, aud and exp. Tests say who signs in next with nextLogin():
//
//   const idp = await startOIDCProvider();
//   idp.nextLogin({ sub: 'g-1', email: 'grace@example.com', name: 'Grace Hopper' });
//   idp.nextLogin({ error: 'access_denied' });     // the shopper cancels at the provider
//   useShop({ env: idp.env });                    // GOOGLE_* variables for the shop
//
// With nothing queued, /authorize answers error=server_error, so a test that
// forgot to queue a login fails with the shop's error instead of hanging.

import http from 'node:http';
import { randomBytes } from 'node:crypto';

export const CLIENT_ID = 'test-client';
export const CLIENT_SECRET = 'test-secret';

const b64url = (s) => Buffer.from(s).toString('base64url');

/** An unsigned JWT: base64url(header).base64url(claims).base64url('sig'). */
export function unsignedJWT(claims) {
  return [b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'test' })), b64url(JSON.stringify(claims)), b64url('sig')].join('.');
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function json(res, status, obj) {
  const body = JSON.stringify(obj);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** The client credentials of a token request: HTTP Basic or form fields. */
function clientCredentials(req, form) {
  const auth = req.headers.authorization ?? '';
  if (auth.startsWith('Basic ')) {
    const [id, secret] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
    return { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(secret ?? '') };
  }
  return { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
}

/**
 * Starts the provider on a free loopback port. Returns
 * { issuer, discoveryURL, env, nextLogin(login), requests, close() }.
 * requests lists what the provider saw ({path, query, form}), for assertions.
 */
export async function startOIDCProvider({ clientId = CLIENT_ID, clientSecret = CLIENT_SECRET } = {}) {
  const queue = [];
  const codes = new Map(); // code → { user, redirectURI }
  const tokens = new Map(); // access token → claims
  const requests = [];
  let issuer = '';

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, issuer);
      const form = req.method === 'POST' ? new URLSearchParams(await readBody(req)) : new URLSearchParams();
      requests.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), form: Object.fromEntries(form) });

      if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
        return json(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/userinfo`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          scopes_supported: ['openid', 'email', 'profile'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        });
      }

      if (req.method === 'GET' && url.pathname === '/jwks') return json(res, 200, { keys: [] });

      if (req.method === 'GET' && url.pathname === '/authorize') {
        const redirectURI = url.searchParams.get('redirect_uri');
        const state = url.searchParams.get('state');
        if (!redirectURI || url.searchParams.get('client_id') !== clientId || url.searchParams.get('response_type') !== 'code') {
          res.writeHead(400, { 'Content-Type': 'text/plain' });
          return res.end('bad authorization request');
        }
        const back = new URL(redirectURI);
        const login = queue.shift() ?? { error: 'server_error' };
        if (login.error) {
          back.searchParams.set('error', login.error);
        } else {
          const code = randomBytes(16).toString('base64url');
          codes.set(code, { user: login, redirectURI });
          back.searchParams.set('code', code);
        }
        if (state !== null) back.searchParams.set('state', state);
        res.writeHead(302, { Location: back.href });
        return res.end();
      }

      if (req.method === 'POST' && url.pathname === '/token') {
        const cred = clientCredentials(req, form);
        if (cred.id !== clientId || cred.secret !== clientSecret) return json(res, 401, { error: 'invalid_client' });
        const grant = codes.get(form.get('code') ?? '');
        if (form.get('grant_type') !== 'authorization_code' || !grant || grant.redirectURI !== form.get('redirect_uri')) {
          return json(res, 400, { error: 'invalid_grant' });
        }
        codes.delete(form.get('code')); // single use
        const now = Math.floor(Date.now() / 1000);
        const claims = {
          iss: issuer,
          aud: clientId,
          sub: grant.user.sub,
          email: grant.user.email,
          email_verified: grant.user.emailVerified ?? true,
          name: grant.user.name,
          iat: now,
          exp: now + 3600,
        };
        const accessToken = randomBytes(16).toString('base64url');
        tokens.set(accessToken, claims);
        return json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, id_token: unsignedJWT(claims) });
      }

      if (req.method === 'GET' && url.pathname === '/userinfo') {
        const claims = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
        if (!claims) return json(res, 401, { error: 'invalid_token' });
        const { sub, email, email_verified, name } = claims;
        return json(res, 200, { sub, email, email_verified, name });
      }

      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    } catch (err) {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(err));
    }
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  server.unref(); // never keeps the test process alive
  issuer = `http://127.0.0.1:${server.address().port}`;
  const discoveryURL = `${issuer}/.well-known/openid-configuration`;

  return {
    issuer,
    discoveryURL,
    /** The variables that point the shop's Google sign-in at this provider. */
    env: { GOOGLE_CLIENT_ID: clientId, GOOGLE_CLIENT_SECRET: clientSecret, GOOGLE_DISCOVERY_URL: discoveryURL },
    requests,
    /** Queues the outcome of the next /authorize: a user {sub, email, name, emailVerified} or {error}. */
    nextLogin(login) {
      queue.push(login);
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      });
    },
  };
}
