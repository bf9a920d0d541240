import { auditEndpoints, type AuditChainCheckView, type AuditRecordView } from '@customer-core/contracts';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { TextField } from '../../components/text-field';
import { formatInstant } from '../../loans/loan-format';
import { ConsolePage } from '../components/console-page';
import { ConsoleSection } from '../components/console-section';
import { ConsoleTable } from '../components/console-table';
import { LoadedView, useConsoleLoad } from '../components/load-state';
import { SelectField } from '../components/select-field';
import { fileStamp, saveFile } from '../lib/download';
import { useConsoleApi } from '../session/console-api';
import { auditCsv, auditJsonLines } from './audit-export';
import { useQuery } from '../lib/use-query';
import {
  FILTERS,
  PAGE_SIZES,
  instantOfLocal,
  localOfInstant,
  paramsOf,
  queryOf,
  type Filter,
} from './audit-filters';

type Fields = Record<Filter, string> & { order: 'newest' | 'oldest'; limit: string };

function fieldsOf(params: URLSearchParams): Fields {
  const query = queryOf(params);
  return {
    actor: query.actor ?? '',
    action: query.action ?? '',
    target: query.target ?? '',
    since: localOfInstant(query.since),
    until: localOfInstant(query.until),
    order: query.order,
    limit: String(query.limit),
  };
}

/**
 * The audit trail for admins: every operator call and every change a borrower made to their account,
 * filtered (kept in the address), a page at a time; its chain of hashes checked end to end; the records
 * shown saved as CSV or JSON lines.
 */
export function AuditScreen() {
  const { t } = useLingui();
  const api = useConsoleApi();
  const [params, setParams] = useQuery();
  const key = params.toString();
  const [fields, setFields] = useState(() => fieldsOf(params));
  // Back and Forward change the filters: the form follows.
  const [fieldsFor, setFieldsFor] = useState(key);
  if (fieldsFor !== key) {
    setFieldsFor(key);
    setFields(fieldsOf(params));
  }

  const [more, setMore] = useState<{ records: AuditRecordView[]; next: number | null } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState<string | null>(null);
  const { state, retry } = useConsoleLoad(
    async (signal) => {
      const outcome = await api.call(auditEndpoints.records, {
        query: queryOf(new URLSearchParams(key)),
        signal,
      });
      if (!signal.aborted) setMore(null);
      return outcome;
    },
    [key],
  );

  const first = state.kind === 'loaded' ? state.data : null;
  const records = first ? [...first.records, ...(more?.records ?? [])] : [];
  const next = more ? more.next : (first?.next ?? null);
  const shown = records.length;

  const filter = (event: FormEvent) => {
    event.preventDefault();
    setParams(
      paramsOf(
        queryOf(
          new URLSearchParams(
            Object.entries({
              ...fields,
              since: instantOfLocal(fields.since) ?? '',
              until: instantOfLocal(fields.until) ?? '',
            }),
          ),
        ),
      ),
    );
  };

  const showMore = async (after: number) => {
    setLoadingMore(true);
    setMoreFailed(null);
    const outcome = await api.call(auditEndpoints.records, {
      query: { ...queryOf(new URLSearchParams(key)), after },
    });
    setLoadingMore(false);
    if (!outcome.ok) return setMoreFailed(outcome.failure.quiet ? null : outcome.failure.message);
    setMore((current) => ({
      records: [...(current?.records ?? []), ...outcome.data.records],
      next: outcome.data.next,
    }));
  };

  const field = (name: Filter, label: string, type = 'text') => (
    <TextField
      id={`audit-${name}`}
      label={label}
      input={{
        type,
        value: fields[name],
        onChange: (event) => setFields((current) => ({ ...current, [name]: event.target.value })),
        autoComplete: 'off',
        spellCheck: false,
      }}
    />
  );

  return (
    <ConsolePage
      title={t`Audit trail`}
      intro={
        <Trans>
          Every staff and operator action, and every change borrowers made to their accounts, in order.
        </Trans>
      }
      testId="console-audit"
    >
      <VerifyChain />
      <ConsoleSection id="audit-filters" title={t`Filters`}>
        <form
          className="console-form console-form--wide"
          onSubmit={filter}
          noValidate
          role="search"
          aria-label={t`Audit trail`}
        >
          <div className="console-form__grid">
            {field('actor', t`Actor`)}
            {field('action', t`Action`)}
            {field('target', t`Target`)}
            {field('since', t`From`, 'datetime-local')}
            {field('until', t`Until`, 'datetime-local')}
            <SelectField
              id="audit-order"
              label={t`Order`}
              select={{
                value: fields.order,
                onChange: (event) =>
                  setFields((current) => ({ ...current, order: event.target.value as Fields['order'] })),
              }}
            >
              <option value="newest">{t`Newest first`}</option>
              <option value="oldest">{t`Oldest first`}</option>
            </SelectField>
            <SelectField
              id="audit-limit"
              label={t`Records per page`}
              select={{
                value: fields.limit,
                onChange: (event) => setFields((current) => ({ ...current, limit: event.target.value })),
              }}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="console-actions">
            <button type="submit" className="button button--primary">
              <Trans>Show records</Trans>
            </button>
            {FILTERS.some((name) => params.get(name)) && (
              <button
                type="button"
                className="button button--secondary"
                onClick={() => setParams(new URLSearchParams())}
              >
                <Trans>Clear filters</Trans>
              </button>
            )}
          </div>
        </form>
      </ConsoleSection>

      <ConsoleSection
        id="audit-records"
        title={t`Records`}
        actions={
          records.length > 0 && (
            <>
              <button
                type="button"
                className="button button--secondary console-button--small"
                onClick={() =>
                  saveFile(
                    new Blob(['\uFEFF', auditCsv(records)], { type: 'text/csv;charset=utf-8' }),
                    `audit-trail-${fileStamp()}.csv`,
                  )
                }
                data-testid="audit-csv"
              >
                <Trans>Download CSV</Trans>
              </button>
              <button
                type="button"
                className="button button--secondary console-button--small"
                onClick={() =>
                  saveFile(
                    new Blob([auditJsonLines(records)], { type: 'application/x-ndjson' }),
                    `audit-trail-${fileStamp()}.jsonl`,
                  )
                }
                data-testid="audit-jsonl"
              >
                <Trans>Download JSON lines</Trans>
              </button>
            </>
          )
        }
      >
        <LoadedView state={state} retry={retry}>
          {() =>
            records.length === 0 ? (
              <p className="console-empty">{t`No record matches these filters.`}</p>
            ) : (
              <>
                <p className="console-section__intro" role="status">
                  <Plural value={shown} one="# record shown." other="# records shown." />{' '}
                  {next !== null && <Trans>There are more.</Trans>}
                </p>
                <AuditTable records={records} />
                {moreFailed && (
                  <p className="console-problem" role="alert">
                    {moreFailed}
                  </p>
                )}
                {next !== null && (
                  <div className="console-actions">
                    <button
                      type="button"
                      className="button button--secondary console-button--small"
                      disabled={loadingMore}
                      onClick={() => void showMore(next)}
                      data-testid="audit-more"
                    >
                      {loadingMore ? t`Showing more records…` : t`Show more records`}
                    </button>
                  </div>
                )}
              </>
            )
          }
        </LoadedView>
      </ConsoleSection>
    </ConsolePage>
  );
}

function AuditTable({ records }: { records: AuditRecordView[] }) {
  const { t } = useLingui();
  return (
    <ConsoleTable
      caption={t`Audit records`}
      testId="audit-table"
      head={
        <>
          <th scope="col">{t`Time`}</th>
          <th scope="col">{t`Actor`}</th>
          <th scope="col">{t`Role`}</th>
          <th scope="col">{t`Action`}</th>
          <th scope="col">{t`Target`}</th>
          <th scope="col">{t`Outcome`}</th>
          <th scope="col">{t`Reason`}</th>
          <th scope="col">{t`Client address`}</th>
          <th scope="col">{t`Details`}</th>
        </>
      }
    >
      {records.map((record) => {
        const details = { request: record.request, before: record.before, after: record.after };
        const hasDetails = Object.values(details).some((value) => value !== undefined);
        return (
          <tr key={record.seq}>
            <td>
              <time dateTime={record.recordedAt}>{formatInstant(record.recordedAt)}</time>
            </td>
            <td className="console-table__wrap">{record.actor}</td>
            <td>{record.role}</td>
            <th scope="row" className="console-code">
              {record.action}
            </th>
            <td className="console-table__wrap console-code">{record.target ?? '—'}</td>
            <td>
              <span className={`console-tag console-tag--${record.outcome < 400 ? 'good' : 'bad'}`}>
                {record.outcome}
              </span>
            </td>
            <td className="console-table__wrap">{record.reason ?? '—'}</td>
            <td className="console-code">{record.clientAddress ?? '—'}</td>
            <td>
              {hasDetails ? (
                <details className="console-details">
                  <summary>{t`Show`}</summary>
                  <pre>{JSON.stringify(details, null, 2)}</pre>
                </details>
              ) : (
                '—'
              )}
            </td>
          </tr>
        );
      })}
    </ConsoleTable>
  );
}

/** Checks the audit trail's chain of hashes end to end, and says whether it holds or where it breaks. */
function VerifyChain() {
  const { t } = useLingui();
  const api = useConsoleApi();
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<AuditChainCheckView | { failed: string } | null>(null);

  const verify = async () => {
    setChecking(true);
    setResult(null);
    const outcome = await api.call(auditEndpoints.verification, {});
    setChecking(false);
    if (outcome.ok) setResult(outcome.data);
    else if (!outcome.failure.quiet) setResult({ failed: outcome.failure.message });
  };

  let banner = null;
  if (result && 'failed' in result)
    banner = (
      <Banner type="error" onDismiss={() => setResult(null)} testId="audit-verification">
        {result.failed}
      </Banner>
    );
  else if (result?.intact) {
    const { records, firstSeq, lastSeq } = result;
    banner = (
      <Banner type="success" onDismiss={() => setResult(null)} takeFocus testId="audit-verification">
        {firstSeq === null ? (
          <Trans>The chain is intact: there are no records yet.</Trans>
        ) : (
          <Trans>
            The chain is intact: <Plural value={records} one="# record" other="# records" /> checked, from #
            {firstSeq} to #{lastSeq}.
          </Trans>
        )}
      </Banner>
    );
  } else if (result?.problem) {
    const { seq, what } = result.problem;
    banner = (
      <Banner type="error" onDismiss={() => setResult(null)} testId="audit-verification">
        <Trans>
          The chain breaks at record #{seq}: {what}
        </Trans>
      </Banner>
    );
  }

  return (
    <ConsoleSection
      id="audit-chain"
      title={t`Chain of records`}
      intro={t`Each record holds the hash of the one before it, so a record changed, removed or added breaks the chain.`}
    >
      <div className="console-verify">
        <BusyButton
          type="button"
          busy={checking}
          busyText={t`Verifying the chain`}
          className="button button--secondary"
          onClick={() => void verify()}
          data-testid="audit-verify"
        >
          <Trans>Verify the chain</Trans>
        </BusyButton>
        {banner}
      </div>
    </ConsoleSection>
  );
}
