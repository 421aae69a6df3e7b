import { and, asc, eq, gt } from 'drizzle-orm';
import { type BeaconChain, firstRoundAfter, roundTime } from '../../../shared/beacon.ts';
import type { DrawProofResponse } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { wonSql } from '../../db/outcome.ts';
import { gameEntries, games, jobs, plans, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { gameFairnessRecords } from '../fairness/log.ts';
import { publicUsername } from '../users/serialize.ts';
import { drawJobKey } from './queue.ts';
import { entryBatches } from './seal.ts';

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

  const sealed = game.drawVersion >= 2;
  const entries: DrawProofResponse['entries'] = [];
  const winners: number[] = [];
  const winnerUsernames: string[] = [];
  // One pass in id order, a batch at a time: only the response itself grows with the game.
  const batches = entryBatches((afterId, limit) =>
    db
      .select({
        id: gameEntries.id,
        isWinner: wonSql(gameEntries),
        playerId: gameEntries.userId,
        answerHash: gameEntries.answerHash,
        handle: users.handle,
        features: plans.features,
      })
      .from(gameEntries)
      .innerJoin(users, eq(users.id, gameEntries.userId))
      .leftJoin(plans, eq(plans.id, users.planId))
      .where(and(eq(gameEntries.gameId, gameId), gt(gameEntries.id, afterId)))
      .orderBy(asc(gameEntries.id))
      .limit(limit),
  );
  for await (const rows of batches) {
    for (const row of rows) {
      const username = publicUsername(row.handle, row.features?.getVerifiedBadge === true);
      entries.push({
        entryId: row.id,
        username,
        ...(sealed ? { playerId: row.playerId, answerHash: row.answerHash.toString('hex') } : {}),
      });
      if (row.isWinner) {
        winners.push(row.id);
        winnerUsernames.push(username);
      }
    }
  }
  return { ...base, entries, winners, winnerUsernames };
}
