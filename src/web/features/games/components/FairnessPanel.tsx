import { PLAYERS_PER_WINNER } from '@shared/constants.ts';
import { formatDate } from '@shared/date.ts';
import type { DrawCheck } from '@shared/draw-check.ts';
import { webFairnessCrypto } from '@shared/fairness.ts';
import type { DrawProofResponse, Game } from '@shared/schemas/games.ts';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { VerifiedTick } from '@web/components/ui/VerifiedTick.tsx';
import { useDrawProof } from '@web/lib/draw-proof.ts';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';

/** A 64-character hash, short enough for a phone: first 10 and last 6 characters. */
export function shortHash(hash: string): string {
  return hash.length > 20 ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : hash;
}

function HashRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-xs text-muted">{label}</dt>
      <dd>
        <details className="group">
          <summary className="cursor-pointer list-none font-mono text-sm text-accent [&::-webkit-details-marker]:hidden">
            <span className="group-open:hidden">{shortHash(value)}</span>
            <span className="ml-2 font-sans text-xs text-muted group-open:hidden">Show all</span>
            <span className="hidden font-sans text-xs text-muted group-open:inline">Hide</span>
          </summary>
          <code className="mt-1 block rounded-lg bg-page p-2 font-mono text-xs break-all text-white/85">
            {value}
          </code>
        </details>
      </dd>
    </div>
  );
}

type Verification =
  | { state: 'checking' }
  | { state: 'done'; checks: DrawCheck[] }
  | { state: 'error'; reason: string };

/**
 * Re-runs every check on this device from the published proof. The checking code (BLS12-381
 * for the beacon signature) loads only here, when a finished game's panel is on screen.
 */
function useVerification(proof: DrawProofResponse | undefined): Verification {
  const [verification, setVerification] = useState<Verification>({ state: 'checking' });
  useEffect(() => {
    if (!proof) return;
    let current = true;
    setVerification({ state: 'checking' });
    import('@shared/draw-check.ts')
      .then(({ checkDraw }) => checkDraw(webFairnessCrypto, proof))
      .then(
        (checks) => current && setVerification({ state: 'done', checks }),
        (error: unknown) =>
          current &&
          setVerification({
            state: 'error',
            reason: error instanceof Error ? error.message : 'The proof could not be checked',
          }),
      );
    return () => {
      current = false;
    };
  }, [proof]);
  return verification;
}

const CHECK_TITLES: Record<DrawCheck['id'], string> = {
  commitment: 'Secret seed',
  seal: 'Sealed entries',
  beacon: 'Public randomness',
  winners: 'Winners',
  log: 'Public log',
};

function CheckList({ checks }: { checks: DrawCheck[] }) {
  return (
    <ul className="flex flex-col gap-2">
      {checks.map((check) => (
        <li
          key={check.id}
          className="flex items-start gap-3 rounded-xl border border-line bg-page p-3 text-sm"
        >
          <span
            aria-hidden="true"
            className={`mt-0.5 text-base leading-none ${
              check.status === 'pass'
                ? 'text-vip'
                : check.status === 'fail'
                  ? 'text-danger'
                  : 'text-muted'
            }`}
          >
            {check.status === 'pass' ? '✓' : check.status === 'fail' ? '✕' : '–'}
          </span>
          <span>
            <strong className="block text-white/90">
              {CHECK_TITLES[check.id]}
              <span className="sr-only">
                {check.status === 'pass'
                  ? ': passed'
                  : check.status === 'fail'
                    ? ': failed'
                    : ': not applicable'}
              </span>
            </strong>
            <span className="text-white/75">{check.text}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

function Verdict({ proof }: { proof: DrawProofResponse }) {
  const verification = useVerification(proof);
  if (verification.state === 'checking') {
    return (
      <p className="flex items-center gap-3 rounded-xl border border-line bg-page p-4 text-sm">
        <Spinner label="Checking" className="size-5" />
        Checking the draw on your device…
      </p>
    );
  }
  // The failing step's reason shows in the list below; without a list, here.
  const failedStep =
    verification.state === 'done'
      ? verification.checks.find((check) => check.status === 'fail')
      : undefined;
  const failed =
    verification.state === 'error'
      ? verification.reason
      : failedStep && `The step “${CHECK_TITLES[failedStep.id]}” failed: see below.`;
  return (
    <div className="flex flex-col gap-3">
      {failed ? (
        <p className="flex items-start gap-3 rounded-xl border border-danger/40 bg-danger/10 p-4 text-sm">
          <span aria-hidden="true" className="text-lg leading-none text-danger">
            ✕
          </span>
          <span>
            <strong className="block text-base text-danger">The draw does not match.</strong>
            {failed}
          </span>
        </p>
      ) : (
        <p className="flex items-start gap-3 rounded-xl border border-vip/40 bg-vip/10 p-4 text-sm">
          <VerifiedTick className="mt-0.5 size-5" />
          <span>
            <strong className="block text-base text-vip">Verified: the draw matches.</strong>
            Your device re-checked the draw from its public proof: every step below passed.
          </span>
        </p>
      )}
      {verification.state === 'done' ? <CheckList checks={verification.checks} /> : null}
    </div>
  );
}

function DrawResult({ proof }: { proof: DrawProofResponse }) {
  return (
    <div className="flex flex-col gap-5">
      <div>
        <h3 className="text-sm font-semibold text-white/90">
          Winners ({proof.winnerUsernames.length} of {proof.entries.length} players)
        </h3>
        {proof.winnerUsernames.length > 0 ? (
          <ul className="mt-2 flex flex-wrap gap-2">
            {proof.winnerUsernames.map((username) => (
              <li
                key={username}
                className="flex items-center gap-1.5 rounded-full border border-wallet/40 bg-wallet/10 px-3 py-1 text-sm font-semibold text-wallet"
              >
                <span aria-hidden="true">🏆</span>
                {username}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-muted">No winners were drawn.</p>
        )}
      </div>

      <div aria-live="polite">
        <Verdict proof={proof} />
      </div>

      <dl className="grid gap-3 sm:grid-cols-2">
        {proof.seed ? <HashRow label="Revealed seed" value={proof.seed} /> : null}
        {proof.merkleRoot ? (
          <HashRow label="Entries sealed at close (Merkle root)" value={proof.merkleRoot} />
        ) : proof.entriesDigest ? (
          <HashRow label="Entries fingerprint" value={proof.entriesDigest} />
        ) : null}
        {proof.beacon?.randomness ? (
          <HashRow
            label={`Public randomness (beacon round ${proof.beacon.round})`}
            value={proof.beacon.randomness}
          />
        ) : null}
      </dl>
    </div>
  );
}

/** Closed, not drawn yet: what is already fixed, and what the draw is waiting for. */
function AwaitingDraw({ proof }: { proof: DrawProofResponse }) {
  return (
    <div className="flex flex-col gap-3 text-sm">
      {proof.merkleRoot ? (
        <dl>
          <HashRow label="Entries sealed at close (Merkle root)" value={proof.merkleRoot} />
        </dl>
      ) : null}
      <p className="text-white/75" aria-live="polite">
        {proof.beacon
          ? `This game is closed and its entries are sealed. The draw uses public randomness round ${proof.beacon.round}, published at ${formatDate(proof.beacon.expectedAt)}: nobody, not even Pluckers, can know it before then.`
          : 'This game is closed. The draw runs shortly; the winners and the seed appear here once it has.'}
      </p>
      {proof.waitingFor ? (
        <p className="rounded-xl border border-line bg-page p-3 text-muted">
          Status: {proof.waitingFor}
        </p>
      ) : null}
    </div>
  );
}

function ProofSection({ game }: { game: Game }) {
  const drawn = game.status !== 'ONGOING' && game.status !== 'UPCOMING';
  const { data: proof, isPending, isError } = useDrawProof(game.id, drawn);
  if (!drawn) return null;
  if (isPending) return <Spinner label="Loading the draw" />;
  if (isError || !proof)
    return <p className="text-sm text-danger">We could not load the draw. Try again shortly.</p>;
  if (proof.status === 'COMPLETED') return <DrawResult proof={proof} />;
  if (proof.status === 'CLOSED') return <AwaitingDraw proof={proof} />;
  return (
    <p className="text-sm text-muted">
      This game was cancelled ({proof.cancelReason ?? 'fewer than 5 players joined'}), so there was
      no draw and every entry fee was refunded. The cancellation is in the public fairness log.
    </p>
  );
}

/**
 * The provably fair draw of docs/product.md#fairness, in players' words: the fingerprint published before
 * play and, once the game is completed, the winners and an in-browser re-check of the draw.
 */
export function FairnessPanel({ game }: { game: Game }) {
  return (
    <section
      aria-labelledby="fairness-title"
      className="flex flex-col gap-4 rounded-2xl border border-line bg-card p-5"
    >
      <div className="flex items-center gap-2">
        <span aria-hidden="true" className="text-lg">
          🔐
        </span>
        <h2 id="fairness-title" className="text-lg font-bold">
          Fair draw
        </h2>
      </div>
      <p className="text-sm text-white/75">
        Software picks one winner for every {PLAYERS_PER_WINNER} players, with no human involvement.
        Before anyone played, we locked in a secret seed and published its fingerprint below. When
        the game closes its entries are sealed, and the winners come from the seed together with
        public randomness published after the close, so nobody (not even Pluckers) could know or
        steer the result. Afterwards anyone can re-check every step.
      </p>
      <dl>
        <HashRow label="Fingerprint (SHA-256 of the secret seed)" value={game.commitment} />
      </dl>
      <ProofSection game={game} />
      <p className="text-sm">
        <Link href="/Fairness" className="text-accent underline underline-offset-2">
          How the draw works, and the public fairness log
        </Link>
      </p>
    </section>
  );
}
