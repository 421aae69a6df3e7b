/**
 * Moved: game and plan builders live in src/server/test/factories.ts, the ledger check in
 * test/ledger.ts, the planted fault in test/failing-writes.ts. Kept only for test files written
 * against this path before the move.
 */
export { createGame, createPlan, type GameRow, play } from '../../test/factories.ts';
export { failingAtWrite } from '../../test/failing-writes.ts';
export { expectLedgerOk } from '../../test/ledger.ts';
