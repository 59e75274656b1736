import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const port = readFileSync('/tmp/ble-dbg/port', 'utf8').trim();
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
await page.goto(`http://127.0.0.1:${port}/device-details-old/HX5K-24-000123`);
await page.getByRole('button', { name: 'Use demo device' }).click();
await page.getByText('Connected to HX5K-24-000123').waitFor();
await page.getByLabel('Device password').fill('0000');
await page.getByRole('button', { name: 'Unlock' }).click();
await page.getByText('Unlocked: the settings can be changed.').waitFor();
await page.getByLabel(/Float voltage/).fill('55.5');
await page.screenshot({ path: '/tmp/ble-dbg/phone.png', fullPage: true });
const v = await page.evaluate(
  `(async () => { ${AXE}\n const r = await axe.run(document, { resultTypes: ['violations'] }); return r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0,3).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)})); })()`,
);
console.log(JSON.stringify(v, null, 1));
await page.setViewportSize({ width: 1280, height: 800 });
await page.screenshot({ path: '/tmp/ble-dbg/wide.png', fullPage: true });
await browser.close();
