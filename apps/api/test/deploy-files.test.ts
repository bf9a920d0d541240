import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../../scripts/server-env.mjs';

// The image and compose.yaml repeat what is defined elsewhere: npm start's memory settings and the
// example nginx configuration's upstream. These hold them equal; npm run image:check runs the image.

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the image and compose file', () => {
  const dockerfile = read('Dockerfile');
  const compose = read('compose.yaml');

  it("starts the server with npm start's node flags and environment", () => {
    const command = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    assert.ok(command, 'the Dockerfile has no CMD in exec form');
    const args = JSON.parse(command) as string[];
    assert.deepEqual(args, ['node', ...SERVER_NODE_ARGS, 'apps/api/dist/main.js']);
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    for (const [key, value] of Object.entries(SERVER_ENV))
      assert.match(runtimeStage, new RegExp(`\\b${key}=${value}\\b`));
  });

  it("gives the portal instances the example nginx configuration's upstream addresses", () => {
    const upstream = [
      ...read('deploy/nginx/customer-core.conf').matchAll(/^\s*server (\d+\.\d+\.\d+\.\d+):(\d+)/gm),
    ];
    assert.ok(upstream.length > 0);
    const instances = [...compose.matchAll(/ipv4_address: (\S+)/g)].map((m) => m[1]);
    assert.deepEqual(
      instances,
      upstream.map((m) => m[1]),
    );
    for (const [, , port] of upstream) assert.match(dockerfile, new RegExp(`\\bPORT=${port}\\b`));
    assert.match(compose, /customer-core\.conf:\/etc\/nginx\/conf\.d\/default\.conf:ro/);
  });

  it('migrates as a step of its own before the instances start', () => {
    assert.match(compose, /MIGRATE_ON_START: 'false'/);
    assert.match(compose, /command: \['node', 'apps\/api\/dist\/cli\/main\.js', 'migrate', 'up'/);
    assert.match(compose, /migrate:\n\s+condition: service_completed_successfully/);
  });
});
