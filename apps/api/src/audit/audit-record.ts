import { createHash } from 'node:crypto';

/** A value a record carries as it was (a loan's terms before and after, a request's fields). */
export type AuditValue = string | number | boolean | null | AuditValue[] | { [key: string]: AuditValue };

/** What an audit record says: who, in which role, did what to what, with which outcome, why, from where. */
export interface AuditEntry {
  /** `service:<credential name>` (an operator call), `borrower:<id>` (their own account). */
  actor: string;
  /** `operator` (a service credential of that scope) or `borrower`. */
  role: string;
  /** The call: its method and route, e.g. `PATCH /api/operator/loans/:reference`. */
  action: string;
  /** What it was done to: `borrower:<id>`, `email:<address>`, `reference:<loan>`, `sessionId:<id>`. */
  target: string | null;
  /** The answer's HTTP status: a refusal is recorded as well as a change. */
  outcome: number;
  /** The fields asked for (a change's request), never a credential or a password. */
  request?: AuditValue;
  before?: AuditValue;
  after?: AuditValue;
  /** Why, as the actor gave it (the CLI's --reason). */
  reason: string | null;
  clientAddress: string | null;
  requestId: string | null;
}

/** A record as stored: its entry, its place in the chain and when it was appended. */
export interface AuditRecord extends AuditEntry {
  seq: number;
  recordedAt: string;
}

/** JSON with object keys sorted at every depth: one text per record, whatever built it. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** A record's hash: sha-256 of the previous record's hash and its own canonical JSON. */
export function chainHash(previousHash: string, entryJson: string): string {
  return createHash('sha256').update(`${previousHash}\n${entryJson}`).digest('hex');
}
