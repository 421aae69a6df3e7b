import { PLAYERS_PER_WINNER } from '@shared/constants.ts';
import type { FairnessLogRecord } from '@shared/fairness-log.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useState } from 'react';
import { Link } from 'wouter';
import { getFairnessLog, useFairnessHead } from '../api/get-fairness-log.ts';
import { Callout, Section, StaticPage, type TocEntry } from '../components/StaticPage.tsx';

const SECTIONS = {
  steps: { id: 'how-it-works', title: 'How a draw is kept fair' },
  log: { id: 'public-log', title: 'The public fairness log' },
  check: { id: 'check-yourself', title: 'Check it yourself' },
} satisfies Record<string, TocEntry>;

type Verification =
  | { state: 'idle' }
  | { state: 'running'; checked: number; total: number }
  | { state: 'done'; records: FairnessLogRecord[]; headHash: string }
  | { state: 'broken'; reason: string; records: FairnessLogRecord[] }
  | { state: 'error'; message: string };

/**
 * Downloads the whole log page by page and checks every link on this device: a record changed
 * after it was written breaks its own hash, and every later link.
 */
async function downloadAndVerify(
  onProgress: (checked: number, total: number) => void,
): Promise<Verification> {
  const { verifyFairnessLog, GENESIS_HASH } = await import('@shared/fairness-log.ts');
  const records: FairnessLogRecord[] = [];
  let from = 1;
  let prevHash = GENESIS_HASH;
  for (;;) {
    const page = await getFairnessLog(from);
    const verdict = verifyFairnessLog(page.records, prevHash, from);
    records.push(...page.records);
    if (!verdict.ok) return { state: 'broken', reason: verdict.reason, records };
    prevHash = verdict.headHash;
    onProgress(records.length, page.head?.position ?? records.length);
    if (page.next === null) return { state: 'done', records, headHash: prevHash };
    from = page.next;
  }
}

function saveAsFile(records: FairnessLogRecord[]) {
  const blob = new Blob([JSON.stringify(records, null, 2)], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `pluckers-fairness-log-${records.length}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
}

function LogHead() {
  const head = useFairnessHead();
  if (head.status === 'pending') return <Spinner label="Loading the log" />;
  if (head.status === 'error')
    return (
      <p className="text-danger">
        {errorMessage(head.error, 'We could not load the log.')}{' '}
        <button type="button" className="underline" onClick={head.retry}>
          Retry
        </button>
      </p>
    );
  if (!head.head) return <p>The log is empty: no game has been created yet.</p>;
  return (
    <dl className="grid gap-2 rounded-2xl border border-line bg-card p-4 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
      <dt className="text-muted">Records</dt>
      <dd className="font-semibold">{head.head.position.toLocaleString('en-NG')}</dd>
      <dt className="text-muted">Latest hash (the head)</dt>
      <dd className="font-mono text-xs break-all">{head.head.hash}</dd>
    </dl>
  );
}

function VerifyLog() {
  const [verification, setVerification] = useState<Verification>({ state: 'idle' });
  const run = () => {
    setVerification({ state: 'running', checked: 0, total: 0 });
    downloadAndVerify((checked, total) =>
      setVerification({ state: 'running', checked, total }),
    ).then(setVerification, (error: unknown) =>
      setVerification({
        state: 'error',
        message: errorMessage(error, 'The log could not be downloaded'),
      }),
    );
  };
  return (
    <div className="flex flex-col gap-3">
      <div>
        <Button
          type="button"
          onClick={run}
          disabled={verification.state === 'running'}
          className="w-full sm:w-auto"
        >
          {verification.state === 'running' ? 'Checking…' : 'Download and verify the whole log'}
        </Button>
      </div>
      <div aria-live="polite" className="text-sm">
        {verification.state === 'running' ? (
          <p className="flex items-center gap-2 text-muted">
            <Spinner label="Checking" className="size-4" />
            Checked {verification.checked.toLocaleString('en-NG')}
            {verification.total ? ` of ${verification.total.toLocaleString('en-NG')}` : ''} records…
          </p>
        ) : null}
        {verification.state === 'done' ? (
          <div className="flex flex-col gap-2 rounded-xl border border-vip/40 bg-vip/10 p-4">
            <p>
              <strong className="text-vip">The log is intact.</strong> All{' '}
              {verification.records.length.toLocaleString('en-NG')} records link up, each to the one
              before, up to the head{' '}
              <code className="font-mono text-xs break-all">{verification.headHash}</code>.
            </p>
            <div>
              <Button
                type="button"
                variant="outline"
                onClick={() => saveAsFile(verification.records)}
              >
                Save a copy (JSON)
              </Button>
            </div>
          </div>
        ) : null}
        {verification.state === 'broken' ? (
          <p className="rounded-xl border border-danger/40 bg-danger/10 p-4">
            <strong className="text-danger">The log does not check out.</strong>{' '}
            {verification.reason}.
          </p>
        ) : null}
        {verification.state === 'error' ? (
          <p className="text-danger">{verification.message}. Try again shortly.</p>
        ) : null}
      </div>
    </div>
  );
}

export function FairnessPage() {
  return (
    <StaticPage
      eyebrow="Fairness"
      title="Draws nobody can bend, not even us"
      intro={
        <p>
          Software picks one winner for every {PLAYERS_PER_WINNER} players. This page explains why
          nobody, including the Pluckers team, can know or choose the winners, and lets you check
          the public record of every draw yourself.
        </p>
      }
      toc={Object.values(SECTIONS)}
    >
      <Section {...SECTIONS.steps}>
        <ol>
          <li>
            <strong>Before anyone plays</strong>, the game gets a secret random seed, and its
            SHA-256 fingerprint (the commitment) is published on the game and in the log.
          </li>
          <li>
            <strong>When the game closes</strong>, its entries (entry number, player and a hash of
            the answer, in the order received) are sealed: their Merkle root is published on the
            game and in the log. No entry can be added, removed or changed after that.
          </li>
          <li>
            <strong>The draw waits for public randomness</strong>: the first round of the League of
            Entropy's drand beacon published after the close. Nobody knows it in advance, and its
            signature proves it is genuine. If the beacon cannot be reached, the draw waits; it
            never uses anything else.
          </li>
          <li>
            <strong>The winners</strong> come from the seed, the sealed entries and that round
            together, so knowing the seed alone tells nobody who will win.
          </li>
          <li>
            <strong>Everything is logged</strong>: commitments, seals, beacon rounds, results and
            cancellations go into a public log where each record carries the hash of the one before.
          </li>
        </ol>
        <Callout>
          A game is only cancelled by the published rule (fewer than {PLAYERS_PER_WINNER} players)
          or by our team with a reason, which is itself written in the log, and never once the
          draw's randomness is public.
        </Callout>
      </Section>
      <Section {...SECTIONS.log}>
        <p>
          Rewriting any record would change its hash and break every record after it, so a copy
          saved today shows any change made later.
        </p>
        <LogHead />
        <VerifyLog />
      </Section>
      <Section {...SECTIONS.check}>
        <p>
          Every finished game's page has a <strong>Fair draw</strong> panel that re-checks the seed,
          the seal, the beacon signature, the winners and the log records on your device. From a
          computer, <code>npm run verify-draw -- &lt;game id&gt;</code> runs the same checks. The
          log is also open to programs at <code>GET /api/v1/fairness/log?from=1</code>.
        </p>
        <p>
          See also the <Link href="/GameRules">game rules</Link>.
        </p>
      </Section>
    </StaticPage>
  );
}
