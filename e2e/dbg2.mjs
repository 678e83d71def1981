import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless=new','--no-sandbox'] });
for (let i = 0; i < 3; i++) {
const ctx = await b.newContext({ baseURL: 'http://127.0.0.1:18777', viewport: {width:1280,height:800} });
const page = await ctx.newPage();
page.on('console', m => console.log('console', m.type(), m.text()));
const t0 = Date.now();
await page.goto('/products');
const card = page.getByTestId('product-card').first();
const form = card.getByTestId('add-to-cart-form');
let release; const held = new Promise(r => release = r);
await page.route('**/cart/items', async (route) => { await held; await route.continue(); });
await form.getByTestId('add-to-cart').click();
await form.getByRole('button', {name: 'Adding…'}).waitFor();
console.log('adding at', Date.now()-t0);
release();
await form.getByRole('button', {name: 'Added ✓'}).waitFor();
console.log('added at', Date.now()-t0, JSON.stringify(await page.locator('nav.nav-wide .cart-badge-slot').innerText()));
await page.waitForTimeout(1500);
console.log(i, JSON.stringify(await page.locator('nav.nav-wide .cart-badge-slot').innerText()), await page.getByTestId('cart-status').textContent());
await ctx.close();
}
await b.close();
