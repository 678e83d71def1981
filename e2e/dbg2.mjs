import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless=new','--no-sandbox'] });
for (let i = 0; i < 4; i++) {
const ctx = await b.newContext({ baseURL: 'http://127.0.0.1:18777', viewport: {width:1280,height:800} });
const page = await ctx.newPage();
const reqs = [];
page.on('request', r => reqs.push([Date.now(), new URL(r.url()).pathname]));
const t0 = Date.now();
await page.goto('/products');
const tl = Date.now();
const card = page.getByTestId('product-card').first();
await card.getByTestId('add-to-cart').click();
await page.getByRole('button', {name: 'Added ✓'}).waitFor();
const ta = Date.now();
await page.waitForTimeout(1500);
console.log(i, 'load', tl-t0, 'added', ta-t0, await page.locator('nav.nav-wide .cart-badge-slot').innerText());
console.log(reqs.map(([t,p]) => `${t-t0}:${p}`).join(' '));
await ctx.close();
}
await b.close();
