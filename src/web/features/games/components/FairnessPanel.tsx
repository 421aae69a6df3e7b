import { PLAYERS_PER_WINNER } from '@shared/constants.ts';
import { type ProofVerdict, verifyDrawProof } from '@shared/draw-check.ts';
import { webFairnessCrypto } from '@shared/fairness.ts';
import type { DrawProofResponse, Game } from '@shared/schemas/games.ts';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { VerifiedTick } from '@web/components/ui/VerifiedTick.tsx';
import { useEffect, useState } from 'react';
import { useDrawProof } from '../api/get-draw-proof.ts';

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

type Check = { state: 'checking' } | { state: 'done'; verdict: ProofVerdict };

/** Re-runs the draw on this device (Web Crypto) from the published proof. */
function useVerification(proof: DrawProofResponse | undefined): Check {
  const [check, setCheck] = useState<Check>({ state: 'checking' });
  useEffect(() => {
    if (!proof) return;
    let current = true;
    setCheck({ state: 'checking' });
    verifyDrawProof(webFairnessCrypto, proof).then(
      (verdict) => current && setCheck({ state: 'done', verdict }),
      (error: unknown) =>
        current &&
        setCheck({
          state: 'done',
          verdict: {
            ok: false,
            reason: error instanceof Error ? error.message : 'The proof could not be checked',
          },
        }),
    );
    return () => {
      current = false;
    };
  }, [proof]);
  return check;
}

function DrawResult({ gameId }: { gameId: string }) {
  const { data: proof, isPending, isError } = useDrawProof(gameId, true);
  const check = useVerification(proof);

  if (isPending) return <Spinner label="Loading the draw" />;
  if (isError || !proof) {
    return <p className="text-sm text-danger">We could not load the draw. Try again shortly.</p>;
  }

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
        {check.state === 'checking' ? (
          <p className="flex items-center gap-3 rounded-xl border border-line bg-page p-4 text-sm">
            <Spinner label="Checking" className="size-5" />
            Recomputing the draw on your device…
          </p>
        ) : check.verdict.ok ? (
          <p className="flex items-start gap-3 rounded-xl border border-vip/40 bg-vip/10 p-4 text-sm">
            <VerifiedTick className="mt-0.5 size-5" />
            <span>
              <strong className="block text-base text-vip">Verified: the draw matches.</strong>
              Your device recomputed the draw from the revealed seed and the {proof.entries.length}{' '}
              entries and picked exactly the same winners.
            </span>
          </p>
        ) : (
          <p className="flex items-start gap-3 rounded-xl border border-danger/40 bg-danger/10 p-4 text-sm">
            <span aria-hidden="true" className="text-lg leading-none text-danger">
              ✕
            </span>
            <span>
              <strong className="block text-base text-danger">The draw does not match.</strong>
              {check.verdict.reason}
            </span>
          </p>
        )}
      </div>

      <dl className="grid gap-3 sm:grid-cols-2">
        {proof.seed ? <HashRow label="Revealed seed" value={proof.seed} /> : null}
        {proof.entriesDigest ? (
          <HashRow label="Entries fingerprint" value={proof.entriesDigest} />
        ) : null}
      </dl>
    </div>
  );
}

/**
 * The provably fair draw of DESIGN §4, in players' words: the fingerprint published before
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
        Before anyone played, we locked in a secret seed and published its fingerprint below. After
        the draw the seed is revealed, so anyone can recompute the winners and check nothing was
        changed.
      </p>
      <dl>
        <HashRow label="Fingerprint (SHA-256 of the secret seed)" value={game.commitment} />
      </dl>
      {game.status === 'COMPLETED' ? <DrawResult gameId={game.id} /> : null}
      {game.status === 'CLOSED' ? (
        <p className="text-sm text-muted">
          This game is closed. The draw runs shortly; the winners and the seed appear here once it
          has.
        </p>
      ) : null}
      {game.status === 'CANCELLED' ? (
        <p className="text-sm text-muted">
          This game was cancelled (for example, fewer than {PLAYERS_PER_WINNER} players joined), so
          there was no draw and every entry fee was refunded.
        </p>
      ) : null}
    </section>
  );
}
