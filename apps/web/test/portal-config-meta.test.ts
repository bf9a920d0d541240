import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { PORTAL_CONFIG_META_NAME } from '@customer-core/contracts';

it('index.html carries the config tag exactly as the server expects to replace it', async () => {
  const html = await readFile(new URL('../index.html', import.meta.url), 'utf8');
  assert.ok(html.includes(`<meta name="${PORTAL_CONFIG_META_NAME}" content="">`));
});
