import { AuditQuerySchema, DEFAULT_AUDIT_PAGE } from '@customer-core/contracts';

// The audit trail's filters as the page's address keeps them (?actor=&action=&…), so that Back, a
// reload and a link shared with a colleague show the same records.

export const FILTERS = ['actor', 'action', 'target', 'since', 'until'] as const;
export type Filter = (typeof FILTERS)[number];
export const PAGE_SIZES = [50, 100, 200, 500] as const;

/** The audit query as the page sends it (times as the address has them, ISO 8601 with an offset). */
export type AuditFilters = Partial<Record<Filter, string>> & { order: 'newest' | 'oldest'; limit: number };

/** The query of the address's filters; a filter the API would refuse is left out. */
export function queryOf(params: URLSearchParams): AuditFilters {
  const raw: Record<string, string> = {};
  for (const name of [...FILTERS, 'order', 'limit']) {
    const value = params.get(name)?.trim();
    if (value) raw[name] = value;
  }
  const checked = AuditQuerySchema.safeParse(raw);
  // One bad filter (a hand-edited address) leaves the others.
  const bad = new Set(checked.success ? [] : checked.error.issues.map((issue) => String(issue.path[0])));
  const kept = Object.fromEntries(Object.entries(raw).filter(([name]) => !bad.has(name)));
  const { order, limit } = AuditQuerySchema.parse(kept);
  const filters: AuditFilters = { order, limit };
  for (const name of FILTERS) if (kept[name]) filters[name] = kept[name];
  return filters;
}

/** The address's parameters for a query: defaults left out. */
export function paramsOf(query: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of FILTERS) if (query[name]) params.set(name, query[name]);
  if (query.order !== 'newest') params.set('order', query.order);
  if (query.limit !== DEFAULT_AUDIT_PAGE) params.set('limit', String(query.limit));
  return params;
}

/** A datetime-local field's value (the browser's time zone) as an instant with its offset (UTC). */
export function instantOfLocal(value: string): string | undefined {
  if (!value) return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** An instant as a datetime-local field shows it, in the browser's time zone. */
export function localOfInstant(iso: string | undefined): string {
  if (!iso) return '';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '';
  const local = new Date(time.getTime() - time.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
