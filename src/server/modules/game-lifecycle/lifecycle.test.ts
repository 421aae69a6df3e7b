import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GAME_STATUSES, type GameStatus } from '../../../shared/constants.ts';
import { adminGameBodySchema } from '../../../shared/schemas/admin.ts';
import type { Database } from '../../db/client.ts';
import { pgCode } from '../../db/errors.ts';
import { games } from '../../db/schema.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createGame, createUser } from '../../test/factories.ts';
import { NOT_EDITABLE, updateGame } from '../games/admin-service.ts';
import { GAME_MOVES, type GameMover, isGameMove, sourcesOf } from './machine.ts';
import { moveGame, moveGames } from './moves.ts';

const database = testDatabasePerFile();

const MOVERS: GameMover[] = ['schedule', 'player', 'operator', 'draw'];

/** The status a direct update leaves, or the SQLSTATE it was refused with. */
async function setStatus(db: Database, gameId: string, to: GameStatus): Promise<string> {
  try {
    const [row] = await db
      .update(games)
      .set({ status: to })
      .where(eq(games.id, gameId))
      .returning({ status: games.status });
    return row?.status ?? 'missing';
  } catch (error) {
    return `refused ${pgCode(error)}`;
  }
}

function serverSources(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) return entry === 'test' ? [] : serverSources(full);
    return /\.ts$/.test(entry) && !/\.test\.ts$|test-fixtures\.ts$/.test(entry) ? [full] : [];
  });
}

/** Each statement of `source` from `start` to its end, roughly: up to the next semicolon. */
function statementsFrom(source: string, start: RegExp): string[] {
  return [...source.matchAll(start)].map((match) =>
    source.slice(match.index, source.indexOf(';', match.index)),
  );
}

describe('the game lifecycle', () => {
  it('the database refuses every change of status the lifecycle does not list', async () => {
    const db = database().db;
    const outcomes: string[] = [];
    for (const from of GAME_STATUSES)
      for (const to of GAME_STATUSES) {
        if (from === to) continue;
        const game = await createGame(db, { status: from });
        const result = await setStatus(db, game.id, to);
        outcomes.push(`${from} → ${to}: ${result}`);
      }
    expect(outcomes).toEqual(
      GAME_STATUSES.flatMap((from) =>
        GAME_STATUSES.filter((to) => to !== from).map(
          (to) => `${from} → ${to}: ${isGameMove(from, to) ? to : 'refused 23514'}`,
        ),
      ),
    );
    // A game back from CLOSED to taking answers, or drawn twice, is among those refused.
    expect(outcomes).toContain('CLOSED → ONGOING: refused 23514');
    expect(outcomes).toContain('COMPLETED → CANCELLED: refused 23514');
  });

  it('only a game nobody has played waits for its start again', async () => {
    const db = database().db;
    const played = await createGame(db, { status: 'ONGOING', playerCount: 1 });
    expect(await setStatus(db, played.id, 'UPCOMING')).toBe('refused 23514');
    const empty = await createGame(db, { status: 'ONGOING' });
    expect(await setStatus(db, empty.id, 'UPCOMING')).toBe('UPCOMING');
  });

  it('an update that leaves the status as it is passes, whatever it is', async () => {
    const db = database().db;
    for (const status of GAME_STATUSES) {
      const game = await createGame(db, { status });
      expect(await setStatus(db, game.id, status)).toBe(status);
      const [renamed] = await db
        .update(games)
        .set({ title: `${game.title} renamed` })
        .where(eq(games.id, game.id))
        .returning({ status: games.status });
      expect(renamed?.status).toBe(status);
    }
  });

  it('each mover moves a game only from the statuses the table gives it', async () => {
    const db = database().db;
    for (const by of MOVERS)
      for (const to of GAME_STATUSES) {
        if (sourcesOf(by, to).length === 0) {
          await expect(moveGames(db, by, to, sql`false`)).rejects.toThrow(
            `the ${by} never moves a game to ${to}`,
          );
          continue;
        }
        for (const from of GAME_STATUSES) {
          if (from === to) continue;
          const game = await createGame(db, { status: from });
          const moved = await moveGame(db, game.id, by, to);
          const allowed = GAME_MOVES.some(
            (move) => move.by === by && move.from === from && move.to === to,
          );
          expect(moved?.status, `${by}: ${from} → ${to}`).toBe(allowed ? to : undefined);
        }
      }
  });

  it("an operator's edit moves an unplayed game's start either way, and a played game not at all", async () => {
    const db = database().db;
    const admin = await createUser(db, { role: 'admin' });
    const now = new Date();
    const game = await createGame(db);
    const edit = (id: string, startsAt: string | null) =>
      updateGame(
        db,
        admin.id,
        id,
        adminGameBodySchema.parse({ title: game.title, reward: 500, maximumPlayers: 10, startsAt }),
        now,
      );
    const later = new Date(now.getTime() + 3_600_000).toISOString();
    expect(await edit(game.id, later)).toMatchObject({ status: 'UPCOMING', startsAt: later });
    expect(await edit(game.id, null)).toMatchObject({ status: 'ONGOING', startsAt: null });

    const played = await createGame(db, { playerCount: 1 });
    await expect(edit(played.id, later)).rejects.toThrow(NOT_EDITABLE);
    const [row] = await db.select().from(games).where(eq(games.id, played.id));
    expect(row).toMatchObject({ status: 'ONGOING', startsAt: null });
  });

  it('only the lifecycle module writes a game status', () => {
    const root = path.resolve('src/server');
    const writers: string[] = [];
    for (const file of serverSources(root)) {
      if (file.startsWith(path.join(root, 'modules', 'game-lifecycle'))) continue;
      const source = readFileSync(file, 'utf8');
      const statements = [
        ...statementsFrom(source, /\.(update|insert)\(games\)/g),
        ...statementsFrom(source, /\b(UPDATE|INSERT INTO)\s+"?games"?\s/gi),
      ];
      if (statements.some((statement) => /\bstatus\b/.test(statement)))
        writers.push(path.relative(root, file));
    }
    expect(writers).toEqual([]);
  });
});
