import { operatorEndpoints } from '@customer-core/contracts';
import { table, type Command } from '../command.js';

const STATE_NAMES = {
  registered: 'registered',
  invited: 'invited',
  not_registered: 'not registered',
} as const;

export const listBorrowers: Command = {
  name: 'list-borrowers',
  summary: 'List borrowers: registration state and number of loans',
  help: `Usage: npm run cli -- list-borrowers [--json]

Lists every borrower: registered (has signed in or registered), invited (an invitation is out), or
not registered; and how many loans each has (HIDDEN ones included).

Options:
  --json   Print the list as JSON`,
  options: { json: { type: 'boolean' } },
  async run(values, { portal, print }) {
    const { borrowers } = await portal.call(operatorEndpoints.borrowers, {});
    if (values.json) return print(JSON.stringify(borrowers, null, 2));
    if (borrowers.length === 0) return print('No borrowers yet. Add one with invite or add-loan.');
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
