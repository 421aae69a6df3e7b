import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The channel the database triggers of migration 0010 notify on. */
const CLUSTER_CHANNEL = 'pluckers_events';

/**
 * A committed change that makes what an instance keeps in memory stale. Sent by database
 * triggers, so every instance hears of it whoever made it (another instance, `npm run admin`,
 * plain SQL), and only once it is committed.
 */
export type ClusterEvent =
  | { kind: 'account'; userId: string }
  | { kind: 'session'; sessionId: string }
  | { kind: 'games' }
  | { kind: 'played'; userId: string; gameId: string }
  | { kind: 'allPlayed' }
  | { kind: 'job' };

function parseClusterEvent(payload: string): ClusterEvent | null {
  const [tag, first, second] = payload.split(':');
  if (tag === 'u' && first) return { kind: 'account', userId: first };
  if (tag === 's' && first) return { kind: 'session', sessionId: first };
  if (tag === 'g') return { kind: 'games' };
  if (tag === 'p' && first && second) return { kind: 'played', userId: first, gameId: second };
  if (tag === 'P') return { kind: 'allPlayed' };
  if (tag === 'j') return { kind: 'job' };
  return null;
}

export interface ClusterEventSubscriber {
  onEvent: (event: ClusterEvent) => void;
  /** Notifications may have been missed (the listening connection dropped): forget everything. */
  onResync: () => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    clusterEvents: {
      subscribe: (subscriber: ClusterEventSubscriber) => void;
      /**
       * Tells every instance (this one included) of a play this process committed without the
       * triggers' notifications (`pluckers_play`, src/server/db/functions/pluckers_play.sql). Sent after the commit, with
       * the other plays of the same turn of the event loop in one statement.
       */
      announcePlay: (userId: string, gameId: string) => void;
      /** Events delivered so far, by kind (metrics, tests). */
      readonly received: Readonly<Record<ClusterEvent['kind'] | 'resync', number>>;
    };
  }
}

export default fp(
  async function clusterEventsPlugin(app: FastifyInstance) {
    const subscribers: ClusterEventSubscriber[] = [];
    const received = {
      account: 0,
      session: 0,
      games: 0,
      played: 0,
      allPlayed: 0,
      job: 0,
      resync: 0,
    };

    const stopListening = await app.database.listen(CLUSTER_CHANNEL, {
      onMessage(payload) {
        const event = parseClusterEvent(payload);
        if (!event) {
          app.log.warn({ payload }, 'unknown cluster event ignored');
          return;
        }
        received[event.kind] += 1;
        for (const subscriber of subscribers) subscriber.onEvent(event);
      },
      onResync() {
        received.resync += 1;
        app.log.info('cluster events: listening again; cached state forgotten');
        for (const subscriber of subscribers) subscriber.onResync();
      },
      onError(error) {
        app.log.warn(
          { err: error },
          'cluster events: listening connection lost; cached state expires on its own until it is back',
        );
      },
    });
    // A database closed first (tests share one per file) has stopped listening with it.
    app.addHook('onClose', () => stopListening().catch(() => {}));

    let announcements: string[] = [];
    let flushing: Promise<void> | null = null;
    async function flushAnnouncements(): Promise<void> {
      const events = announcements;
      announcements = [];
      try {
        await app.db.execute(
          sql`SELECT pluckers_announce(${JSON.stringify(['g', ...events])}::jsonb)`,
        );
      } catch (error) {
        // As with a lost notification: the other instances' caches expire on their own.
        app.log.warn({ err: error }, 'cluster events: plays not announced');
      }
    }
    app.addHook('onClose', async () => {
      await flushing;
      if (announcements.length > 0) await flushAnnouncements();
    });

    app.decorate('clusterEvents', {
      subscribe: (subscriber: ClusterEventSubscriber) => {
        subscribers.push(subscriber);
      },
      announcePlay: (userId: string, gameId: string) => {
        announcements.push(`p:${userId}:${gameId}`);
        if (announcements.length > 1) return;
        setImmediate(() => {
          flushing = flushAnnouncements().finally(() => {
            flushing = null;
          });
        });
      },
      received,
    });
  },
  { name: 'cluster-events', dependencies: ['database'] },
);
