import crypto from 'node:crypto';
import fs from 'node:fs';
import { expect, test } from './fixtures';
import type { CustomerList } from '../common/api/customers';
import { LicenceFile, LicenceFilePayload, LicenceSigningKeyList } from '../common/api/licence-files';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';
import { apiSession } from './helpers/api';
import { signInThroughApi } from './helpers/axe';
import { demoAccount } from './helpers/demo';

/**
 * A technical contact saves the licence file from the customer page, and the file verifies with the
 * keys the portal publishes (docs/licence-files.md).
 */
test('a technical contact saves the licence file, which verifies with the published key', async ({ page }) => {
  const tech = demoAccount('technicalContact');
  await signInThroughApi(page, tech);
  const customers = (await (await page.request.get('/api/customers')).json()) as CustomerList;
  const acme = customers.data.find((c) => c.name === DEMO_CUSTOMER_NAME)!;

  await page.goto(`/en/accounts/${acme.id}`);
  const row = page.getByTestId('licences-section').locator('[data-testid="licence-row"][data-product="graph-server"]');
  const link = row.getByRole('link', { name: 'Licence file of Graph Server (with Entity resolution), to download' });
  const [saved] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(saved.suggestedFilename()).toMatch(/-graph-server\.license\.json$/);

  const file = LicenceFile.parse(JSON.parse(fs.readFileSync((await saved.path())!, 'utf8')));
  const keys = LicenceSigningKeyList.parse(await (await page.request.get('/api/licence-files/keys')).json()).data;
  const key = keys.find((k) => k.keyId === file.keyId)!;
  expect(key.retiredAt).toBeNull();
  const signed = crypto.verify(
    null,
    Buffer.from(file.payload, 'ascii'),
    crypto.createPublicKey(key.publicKey),
    Buffer.from(file.signature, 'base64url'),
  );
  expect(signed).toBe(true);
  const payload = LicenceFilePayload.parse(JSON.parse(Buffer.from(file.payload, 'base64url').toString('utf8')));
  expect(payload.customer.name).toBe(DEMO_CUSTOMER_NAME);
  expect(payload.product).toEqual({ key: 'graph-server', name: 'Graph Server' });
  expect(saved.suggestedFilename()).toBe(`${payload.customer.key}-graph-server.license.json`);

  // the download is in the customer's recent actions, as the team's managers see them
  const admin = await apiSession(demoAccount('admin'));
  try {
    const logs = await admin.get(`/api/customers/${acme.id}/logs?action=downloadLicenceFile`);
    expect(logs.status()).toBe(200);
    expect(JSON.stringify(await logs.json())).toContain(tech.email);
  } finally {
    await admin.dispose();
  }
});
