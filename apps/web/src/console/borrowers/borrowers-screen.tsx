import {
  BORROWER_SEARCH_LIMIT,
  BorrowerSearchQuerySchema,
  operatorEndpoints,
  type BorrowerList,
  consoleRoutes,
} from '@customer-core/contracts';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { FieldHint, fieldHintId } from '../../components/field-hint';
import { FormField, fieldErrorId } from '../../components/form-field';
import { formatInstant } from '../../loans/loan-format';
import { ConsolePage } from '../components/console-page';
import { ConsoleTable } from '../components/console-table';
import { LoadedView, useConsoleLoad } from '../components/load-state';
import { useConsoleApi } from '../session/console-api';
import type { FromSearch } from './borrower-screen';
import { BorrowerStateBadge } from './borrower-state-badge';
import { borrowerName } from './borrower-words';
import { useQuery } from '../lib/use-query';

const SEARCH_ID = 'console-borrower-search';
const SearchSchema = BorrowerSearchQuerySchema.shape.q.unwrap();

/**
 * Support's way in: a borrower found by name, email address or loan reference. The search is the
 * address's ?q=, so Back returns to the results, and a link to them can be shared with a colleague.
 */
export function BorrowersScreen() {
  const { t } = useLingui();
  const api = useConsoleApi();
  const [params, setParams] = useQuery();
  const q = params.get('q')?.trim() ?? '';
  const [text, setText] = useState(q);
  const [error, setError] = useState<string | null>(null);
  // Back and Forward change ?q=: the field follows.
  const [textFor, setTextFor] = useState(q);
  if (textFor !== q) {
    setTextFor(q);
    setText(q);
  }

  const valid = SearchSchema.safeParse(q).success;
  const { state, retry } = useConsoleLoad(
    (signal) =>
      valid
        ? api.call(operatorEndpoints.borrowers, { query: { q }, signal })
        : Promise.resolve({ ok: true as const, status: 200, data: null }),
    [q],
  );

  const search = (event: FormEvent) => {
    event.preventDefault();
    const checked = SearchSchema.safeParse(text);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? null);
      return document.getElementById(SEARCH_ID)?.focus();
    }
    setError(null);
    setParams({ q: checked.data });
  };

  return (
    <ConsolePage
      title={t`Borrowers`}
      intro={<Trans>Find a borrower by name, email address or loan reference.</Trans>}
      testId="console-borrowers"
    >
      <form className="console-search" role="search" onSubmit={search} noValidate>
        <FormField id={SEARCH_ID} label={t`Search borrowers`} error={error ?? undefined}>
          <FieldHint fieldId={SEARCH_ID}>
            <Trans>2 to 100 characters, e.g. Ruiz, dana@example.com or LN-2045.</Trans>
          </FieldHint>
          <div className="console-search__row">
            <input
              id={SEARCH_ID}
              type="search"
              className="text-input"
              value={text}
              onChange={(event) => setText(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              enterKeyHint="search"
              aria-invalid={error ? true : undefined}
              aria-describedby={[error && fieldErrorId(SEARCH_ID), fieldHintId(SEARCH_ID)]
                .filter(Boolean)
                .join(' ')}
              data-testid="borrower-search"
            />
            <button type="submit" className="button button--primary">
              <Trans>Search</Trans>
            </button>
          </div>
        </FormField>
      </form>

      {valid && (
        <LoadedView state={state} retry={retry}>
          {(found) => found && <Results q={q} borrowers={found.borrowers} />}
        </LoadedView>
      )}
    </ConsolePage>
  );
}

type FoundBorrower = BorrowerList['borrowers'][number];

function Results({ q, borrowers }: { q: string; borrowers: FoundBorrower[] }) {
  const { t } = useLingui();
  const count = borrowers.length;
  const limit = BORROWER_SEARCH_LIMIT;
  return (
    <section
      className="console-section"
      aria-labelledby="borrower-results-title"
      data-testid="borrower-results"
    >
      <header className="console-section__header">
        <h2 id="borrower-results-title">
          <Trans>Results for “{q}”</Trans>
        </h2>
      </header>
      <p className="console-section__intro" role="status">
        <Plural
          value={count}
          _0="No borrower matches."
          one="# borrower matches."
          other="# borrowers match."
        />
      </p>
      {count >= limit && (
        <p className="console-section__intro">
          <Trans>
            Showing the first {limit}. Search with more of the name, address or reference to narrow it down.
          </Trans>
        </p>
      )}
      {count > 0 && (
        <ConsoleTable
          caption={t`Borrowers found`}
          testId="borrower-results-table"
          head={
            <>
              <th scope="col">{t`Name`}</th>
              <th scope="col">{t`Email address`}</th>
              <th scope="col">{t`State`}</th>
              <th scope="col" className="console-table__number">{t`Loans`}</th>
              <th scope="col">{t`Added`}</th>
            </>
          }
        >
          {borrowers.map((borrower) => {
            const name = borrowerName(borrower);
            return (
              <tr key={borrower.id}>
                <th scope="row">
                  <Link
                    to={consoleRoutes.borrower.href({ borrowerId: borrower.id })}
                    state={{ q } satisfies FromSearch}
                  >
                    {name ?? <span className="console-muted">{t`No name yet`}</span>}
                  </Link>
                </th>
                <td className="console-table__wrap">{borrower.email}</td>
                <td>
                  <BorrowerStateBadge state={borrower.state} />
                </td>
                <td className="console-table__number">{borrower.loans}</td>
                <td>
                  <time dateTime={borrower.createdAt}>{formatInstant(borrower.createdAt)}</time>
                </td>
              </tr>
            );
          })}
        </ConsoleTable>
      )}
    </section>
  );
}
