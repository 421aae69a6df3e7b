/**
 * What the web tests' server pool says to its server processes and to the test files
 * (src/test/server-pool.ts, server-process.ts, server.ts). Only type imports of server code:
 * test files under src/web import this, and the web app never imports the server.
 */
import type { createUser } from '../server/test/factories.ts';

export type UserOverrides = Parameters<typeof createUser>[1];

/** What a test file asks of its server once it is open. */
export type ServerCommand =
  | { type: 'createUser'; overrides?: UserOverrides; password?: string }
  | { type: 'tokenFor'; user: { id: string; tokenVersion: number } }
  | { type: 'notify'; userId: string; title: string; message: string }
  | { type: 'ageSecondFactor'; userId: string; minutes: number }
  | { type: 'waitForMail'; to: string };

/** How a test file wants its server: the run's database and the file's environment. */
export interface ServerOpening {
  databaseUrl: string | null;
  template: string | null;
  env: Record<string, string>;
  captureMail: boolean;
}

/** Pool → server process (IPC), each with an `id` its result answers. */
export type ProcessCommand =
  | ServerCommand
  | { type: 'open'; opening: ServerOpening }
  | { type: 'close' };

/** Server process → pool (IPC). */
export type ProcessMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; ok: true; result: unknown }
  | { type: 'result'; id: number; ok: false; error: string };

/** Test file → pool (HTTP, v8-serialized so Date and bigint values survive). */
export type PoolRequest =
  | { op: 'lease'; opening: ServerOpening }
  | { op: 'call'; lease: number; command: ServerCommand }
  | { op: 'release'; lease: number };

/** Pool → test file; `log` is what the server process printed since the file's lease began. */
export type PoolAnswer =
  | { ok: true; result: unknown; log: string }
  | { ok: false; error: string; log: string };
