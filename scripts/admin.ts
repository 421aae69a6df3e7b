/**
 * Operator commands on the database the server would use (DATABASE_URL, or the embedded one in
 * DATA_DIR):
 * - `npm run admin -- promote <email>`: makes an existing account a verified operator;
 * - `npm run admin -- check-ledger`: runs the ledger check (every invariant of docs/architecture.md#where-money-moves) and
 *   exits 0 when the books balance, 1 otherwise; meant for a restored backup before it serves.
 */
import { eq, sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { type DatabaseHandle, openDatabase } from '../src/server/db/client.ts';
import { users } from '../src/server/db/schema.ts';
import { checkLedger } from '../src/server/modules/wallet/ledger-check.ts';

const USAGE = 'Usage: npm run admin -- promote <email>\n       npm run admin -- check-ledger';

async function promote(database: DatabaseHandle, email: string): Promise<number> {
  await database.migrate();
  const promoted = await database.db
    .update(users)
    .set({ role: 'admin', emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .returning({ id: users.id });
  if (promoted.length === 0) {
    console.error(`No account with the e-mail ${email}. Sign up first, then promote.`);
    return 1;
  }
  console.info(`${email} is now an operator.`);
  return 0;
}

/** Read-only: a restored copy is checked as it is, never migrated first. */
async function checkLedgerCommand(database: DatabaseHandle, sandbox: boolean): Promise<number> {
  const result = await checkLedger(database.db, { sandbox });
  for (const invariant of result.invariants) {
    console.info(`${invariant.ok ? 'ok  ' : 'FAIL'} ${invariant.description}`);
    for (const row of invariant.offending) console.info(`       ${JSON.stringify(row)}`);
  }
  console.info(result.ok ? 'The books balance.' : 'The ledger check FAILED.');
  return result.ok ? 0 : 1;
}

const [command, email] = process.argv.slice(2);
if (!((command === 'promote' && email) || command === 'check-ledger')) {
  console.error(USAGE);
  process.exit(2);
}

try {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let code: number;
  try {
    code =
      command === 'promote' && email
        ? await promote(database, email)
        : await checkLedgerCommand(database, config.paymentsSandbox);
  } finally {
    await database.close();
  }
  process.exit(code);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
