import { BorrowerSearchQuerySchema, operatorEndpoints } from '@customer-core/contracts';
import { table, text, validated, type Command } from '../command.js';

const STATE_NAMES = {
  registered: 'registered',
  invited: 'invited',
  not_registered: 'not registered',
} as const;

export const listBorrowers: Command = {
  name: 'list-borrowers',
  summary: 'List borrowers, or find them: registration state and number of loans',
  help: `Usage: npm run cli -- list-borrowers [--search <text>] [--json]

Lists every borrower: registered (has signed in or registered), invited (an invitation is out), or
not registered; and how many loans each has (HIDDEN ones included). With --search, those whose name
or e-mail address contains the text, or one of whose loans' reference starts with it (50 at most).

Options:
  --search <text>   2 to 100 characters of a name, an e-mail address or a loan reference
  --json            Print the list as JSON`,
  options: { search: { type: 'string' }, json: { type: 'boolean' } },
  async run(values, { portal, print }) {
    const query = validated(BorrowerSearchQuerySchema, { q: text(values, 'search') }, { q: '--search' });
    const { borrowers } = await portal.call(operatorEndpoints.borrowers, { query });
    if (values.json) return print(JSON.stringify(borrowers, null, 2));
    if (borrowers.length === 0)
      return print(
        query.q === undefined
          ? 'No borrowers yet. Add one with invite or add-loan.'
          : `No borrower matches "${query.q}".`,
      );
    const rows = borrowers.map((b) => [
      b.email,
      [b.firstName, b.lastName].filter(Boolean).join(' ') || '-',
      STATE_NAMES[b.state],
      String(b.loans),
      b.createdAt.slice(0, 10),
    ]);
    for (const line of table(['E-MAIL', 'NAME', 'STATE', 'LOANS', 'SINCE'], rows)) print(line);
    print('');
    print(`${borrowers.length} borrower${borrowers.length === 1 ? '' : 's'}.`);
  },
};
