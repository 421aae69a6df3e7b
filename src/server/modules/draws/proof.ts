import { asc, eq } from 'drizzle-orm';
import { type BeaconChain, firstRoundAfter, roundTime } from '../../../shared/beacon.ts';
import type { DrawProofResponse } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { gameEntries, games, jobs, plans, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { gameFairnessRecords } from '../fairness/log.ts';
import { publicUsername } from '../users/serialize.ts';
import { drawJobKey } from './queue.ts';
import { sealedEntries } from './seal.ts';

type GameRow = typeof games.$inferSelect;

function beaconOf(game: GameRow, chain: BeaconChain): DrawProofResponse['beacon'] {
  if (game.drawVersion < 2 || !game.closedAt) return null;
  const round = game.beaconRound ?? firstRoundAfter(chain, game.closedAt);
  return {
    chain,
    round,
    expectedAt: roundTime(chain, round).toISOString(),
    signature: game.beaconSignature,
    randomness: game.beaconRandomness,
  };
}

/** What the draw job last said while it could not run (waiting for the beacon round). */
async function waitingFor(db: Database, game: GameRow): Promise<string | null> {
  if (game.status !== 'CLOSED') return null;
  const [job] = await db
    .select({ lastError: jobs.lastError })
    .from(jobs)
    .where(eq(jobs.key, drawJobKey(game.id)));
  return job?.lastError ?? null;
}

/**
 * What anyone may check: the commitment from the start; from the close the seal (Merkle root)
 * and the beacon round the draw will use; after the draw the seed, the sealed entry list (entry
 * id, player id, answer hash and public username, never answers or e-mails), the beacon's
 * signature, the winners and the game's records in the public fairness log.
 */
export async function loadDrawProof(
  db: Database,
  chain: BeaconChain,
  gameId: string,
): Promise<DrawProofResponse> {
  const [game] = await db.select().from(games).where(eq(games.id, gameId)).limit(1);
  if (!game) throw notFound('Game not found');
  const revealed = game.status === 'COMPLETED';
  const base = {
    gameId: game.id,
    status: game.status,
    version: game.drawVersion,
    commitment: game.commitment,
    seed: revealed ? game.seed : null,
    entriesDigest: revealed ? game.entriesDigest : null,
    closedAt: game.closedAt?.toISOString() ?? null,
    merkleRoot: game.merkleRoot,
    beacon: beaconOf(game, chain),
    waitingFor: await waitingFor(db, game),
    cancelReason: game.cancelReason,
    log: await gameFairnessRecords(db, game.id),
  };
  if (!revealed) return { ...base, entries: [], winners: [], winnerUsernames: [] };

  const [rows, sealed] = await Promise.all([
    db
      .select({
        id: gameEntries.id,
        isWinner: gameEntries.isWinner,
        handle: users.handle,
        features: plans.features,
      })
      .from(gameEntries)
      .innerJoin(users, eq(users.id, gameEntries.userId))
      .leftJoin(plans, eq(plans.id, users.planId))
      .where(eq(gameEntries.gameId, gameId))
      .orderBy(asc(gameEntries.id)),
    game.drawVersion >= 2 ? sealedEntries(db, gameId) : Promise.resolve([]),
  ]);
  const seal = new Map(sealed.map((entry) => [entry.entryId, entry]));
  const entries = rows.map((row) => ({
    entryId: row.id,
    username: publicUsername(row.handle, row.features?.getVerifiedBadge === true),
    ...(seal.has(row.id)
      ? { playerId: seal.get(row.id)?.playerId, answerHash: seal.get(row.id)?.answerHash }
      : {}),
  }));
  const winnerRows = rows.filter((row) => row.isWinner);
  return {
    ...base,
    entries,
    winners: winnerRows.map((row) => row.id),
    winnerUsernames: winnerRows.map((row) =>
      publicUsername(row.handle, row.features?.getVerifiedBadge === true),
    ),
  };
}
