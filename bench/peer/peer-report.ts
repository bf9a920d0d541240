import type { LoadResult } from '../http-load.js';
import { flowRow, httpRow, mb, perSecond, printColumns, type Verdict } from '../report.js';
import type { FlowResult } from '../sign-in-flow.js';
import type { PeerResults } from './peer-phases.js';

// The second table: each of the peer's figures next to ours from the same run, the ratio ours/peer
// and the target for it where there is one. A missed target is reported, not an error.

export interface OurFigures {
  flows?: FlowResult | undefined;
  authn?: FlowResult | undefined;
  validate?: LoadResult | undefined;
  peakRss: number;
}

export interface PeerRow {
  measure: string;
  peer: string;
  ours: string;
  ratio: string;
  target: string;
  verdict: Verdict | '';
  failures: string;
  peakRss: string;
  cpu: string;
}

const HEADER: PeerRow = {
  measure: 'measure (ours vs peer)',
  peer: 'peer (better-auth)',
  ours: 'ours',
  ratio: 'ours/peer',
  target: 'target',
  verdict: 'verdict' as Verdict,
  failures: 'peer non-2xx/errors',
  peakRss: 'peer peak RSS',
  cpu: 'peer cpu',
};

export function peerRows(peer: PeerResults, ours: OurFigures): PeerRow[] {
  const used = (phase: string) => peer.usage.get(phase);
  const signIn = flowRow('', peer.signIns, { perSecond: 0 }, used('sign-in'));
  const session = httpRow('', peer.sessionCheck, { perSecond: 0 }, used('get-session'));
  const cached = httpRow(
    '',
    peer.sessionCheckCookieCache,
    { perSecond: 0 },
    used('cookie cache: get-session, cookie cache'),
  );
  const validate = ours.validate?.medianPerSecond;
  const peerPeak = Math.max(...[...peer.usage.values()].map((u) => u.peakRss));
  return [
    compare(
      'sign-in flow (4 requests) vs POST sign-in/email',
      signIn,
      peer.signIns.medianPerSecond,
      ours.flows?.medianPerSecond,
      1,
    ),
    compare(
      'POST authn alone vs POST sign-in/email',
      signIn,
      peer.signIns.medianPerSecond,
      ours.authn?.medianPerSecond,
    ),
    compare(
      'POST validate vs GET get-session, no cookie cache',
      session,
      peer.sessionCheck.medianPerSecond,
      validate,
      2,
    ),
    compare(
      'POST validate vs GET get-session, cookie cache',
      cached,
      peer.sessionCheckCookieCache.medianPerSecond,
      validate,
    ),
    {
      ...compare(
        'POST validate vs its JWT verified in process',
        undefined,
        peer.jwtVerifyPerSecond,
        validate,
      ),
      peer: `${perSecond(peer.jwtVerifyPerSecond)} (ES256, node:crypto, 1 core)`,
    },
    {
      measure: 'server RSS, peak over the run',
      peer: mb(peerPeak),
      ours: mb(ours.peakRss),
      ratio: `${(ours.peakRss / peerPeak).toFixed(2)}x`,
      target: 'ours <= peer',
      verdict: ours.peakRss <= peerPeak ? 'meets' : 'misses',
      failures: '',
      peakRss: mb(peerPeak),
      cpu: '',
    },
  ];
}

export function printPeerTable(rows: readonly PeerRow[]): void {
  printColumns(HEADER, rows);
}

/** `minRatio`: the target for ours/peer, if it sets one; an invalid peer phase wins over it. */
function compare(
  measure: string,
  row: { result: string; verdict: Verdict; failures: string; peakRss: string; cpu: string } | undefined,
  peerRate: number,
  ourRate: number | undefined,
  minRatio?: number,
): PeerRow {
  const ratio = ourRate === undefined ? undefined : ourRate / peerRate;
  let verdict: PeerRow['verdict'] = '';
  if (row?.verdict === 'INVALID') verdict = 'INVALID';
  else if (minRatio !== undefined && ratio !== undefined) verdict = ratio >= minRatio ? 'meets' : 'misses';
  return {
    measure,
    peer: row?.result ?? perSecond(peerRate),
    ours: ourRate === undefined ? 'not measured' : perSecond(ourRate),
    ratio: ratio === undefined ? '' : `${ratio.toFixed(2)}x`,
    target: minRatio === undefined ? '' : `>= ${minRatio.toFixed(1)}x`,
    verdict,
    failures: row?.failures ?? '',
    peakRss: row?.peakRss ?? '',
    cpu: row?.cpu ?? '',
  };
}
