import { formatDate } from '@shared/date.ts';
import { type ProofVerdict, verifyDrawProof } from '@shared/draw-check.ts';
import { webFairnessCrypto } from '@shared/fairness.ts';
import type { DrawProofResponse, Game } from '@shared/schemas/games.ts';
import { Card } from '@web/components/ui/Card.tsx';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { useDrawProof } from '@web/lib/draw-proof.ts';
import { useEffect, useState } from 'react';
import { LoadError, Loading } from './QueryStates.tsx';

function Hash({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="rounded-lg bg-page px-3 py-2 font-mono text-xs break-all text-white/90">
        {value ?? '—'}
      </dd>
    </div>
  );
}

/** Re-runs the draw in this browser from the published proof, as players can. */
function useVerdict(proof: DrawProofResponse | undefined) {
  const [verdict, setVerdict] = useState<ProofVerdict | null>(null);
  useEffect(() => {
    if (!proof?.seed) return;
    let current = true;
    setVerdict(null);
    verifyDrawProof(webFairnessCrypto, proof).then(
      (result) => current && setVerdict(result),
      (error: unknown) =>
        current &&
        setVerdict({
          ok: false,
          reason: error instanceof Error ? error.message : 'The proof could not be checked',
        }),
    );
    return () => {
      current = false;
    };
  }, [proof]);
  return verdict;
}

/** The provably fair draw: commitment before, seed and winners after (docs/product.md#fairness). */
export function DrawProof({ game }: { game: Game }) {
  const completed = game.status === 'COMPLETED';
  const proof = useDrawProof(game.id, completed || game.status === 'CLOSED');
  const verdict = useVerdict(proof.data);

  if (game.status === 'CLOSED' && proof.data?.beacon) {
    const { beacon, merkleRoot, waitingFor } = proof.data;
    return (
      <Card className="flex flex-col gap-4">
        <dl className="grid gap-3 md:grid-cols-2">
          <Hash label="Commitment (sha256 of the secret seed)" value={game.commitment} />
          <Hash label="Entries sealed at close (Merkle root)" value={merkleRoot} />
        </dl>
        <p role="status" className="flex items-center gap-2 text-sm text-muted">
          <Spinner label="Draw pending" className="size-4" /> Waiting for public randomness round{' '}
          {beacon.round}, published at {formatDate(beacon.expectedAt)}. The draw runs as soon as it
          is out and verified; nobody can pick another source.
        </p>
        {waitingFor ? (
          <p className="rounded-lg border border-line bg-page px-3 py-2 text-sm">
            Last attempt: {waitingFor}
          </p>
        ) : null}
      </Card>
    );
  }

  if (!completed) {
    return (
      <Card className="flex flex-col gap-4">
        <dl>
          <Hash label="Commitment (sha256 of the secret seed)" value={game.commitment} />
        </dl>
        <p className="flex items-center gap-2 text-sm text-muted">
          {game.status === 'CLOSED' ? (
            <>
              <Spinner label="Draw pending" className="size-4" /> The draw runs in a moment; the
              seed and winners appear here.
            </>
          ) : game.status === 'CANCELLED' ? (
            'No draw: the game was cancelled and every entry fee refunded.'
          ) : (
            'The seed stays secret until the draw. Winners are drawn when the game closes.'
          )}
        </p>
      </Card>
    );
  }
  if (proof.isPending) return <Loading label="Loading the draw proof" />;
  if (proof.isError) {
    return (
      <LoadError
        error={proof.error}
        what="the draw proof"
        onRetry={() => void proof.refetch()}
        retrying={proof.isFetching}
      />
    );
  }
  const data = proof.data;
  const usernameOf = new Map(data.entries.map((entry) => [entry.entryId, entry.username]));
  // Winners by their place among the game's entries (the proof lists them oldest first, as the
  // entries table numbers them); the proof's own entry id stays in the tooltip.
  const placeOf = new Map(data.entries.map((entry, index) => [entry.entryId, index + 1]));
  return (
    <Card className="flex flex-col gap-4">
      <p
        role="status"
        className={`flex items-center gap-2 text-sm font-semibold ${
          verdict === null ? 'text-muted' : verdict.ok ? 'text-vip' : 'text-danger'
        }`}
      >
        {verdict === null ? (
          <>
            <Spinner label="Checking" className="size-4" /> Re-running the draw in this browser…
          </>
        ) : verdict.ok ? (
          `✓ Verified in this browser: ${
            data.version >= 2
              ? 'seed, sealed entries, beacon round, winners and log records all check out.'
              : 'the seed matches the commitment and picks these winners.'
          }`
        ) : (
          `✗ The proof does not check out: ${verdict.reason}`
        )}
      </p>
      <dl className="grid gap-3 md:grid-cols-2">
        <Hash label="Commitment" value={data.commitment} />
        <Hash label="Seed (revealed)" value={data.seed} />
        <Hash label="Entries digest" value={data.entriesDigest} />
        {data.merkleRoot ? (
          <Hash label="Sealed entries (Merkle root)" value={data.merkleRoot} />
        ) : null}
        {data.beacon?.randomness ? (
          <Hash
            label={`Beacon round ${data.beacon.round} randomness`}
            value={data.beacon.randomness}
          />
        ) : null}
        <div className="flex flex-col gap-1">
          <dt className="text-xs text-muted">Entries</dt>
          <dd className="text-sm font-semibold">{data.entries.length}</dd>
        </div>
      </dl>
      <div>
        <h3 className="mb-2 text-sm font-semibold">
          Winners ({data.winners.length}) <span className="font-normal text-muted">by entry</span>
        </h3>
        {data.winners.length === 0 ? (
          <p className="text-sm text-muted">No winners were drawn.</p>
        ) : (
          <ul className="flex flex-wrap gap-2">
            {data.winners.map((entryId) => (
              <li
                key={entryId}
                title={`Entry id ${entryId}`}
                className="rounded-full border border-wallet/40 bg-wallet/10 px-3 py-1 text-sm text-wallet"
              >
                #{placeOf.get(entryId) ?? entryId} {usernameOf.get(entryId) ?? ''}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
