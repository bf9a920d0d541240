import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks (standardwebhooks.com): a secret `whsec_` + base64 of its bytes; each message
// signed as HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`, sent as `v1,<base64>`.

const SECRET_PREFIX = 'whsec_';

/** A new endpoint's signing secret: 24 random bytes. */
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

/** The headers that let the receiver check a message came from the portal, unchanged, and when. */
export function signedWebhookHeaders(
  secret: string,
  message: { id: string; timestampSeconds: number; body: string },
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key)
    .update(`${message.id}.${message.timestampSeconds}.${message.body}`)
    .digest('base64');
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}
