/**
 * Operator commands on the database the server would use (DATABASE_URL, or the embedded one in
 * DATA_DIR):
 * - `npm run admin -- promote <email>`: makes an existing account a verified operator;
 * - `npm run admin -- reset-second-factor <email>`: removes an operator's authenticator and
 *   recovery codes (a lost phone) and signs them out; their next console login enrols again;
 * - `npm run admin -- check-ledger`: runs the ledger check (every invariant of docs/architecture.md#where-money-moves) and
 *   exits 0 when the books balance, 1 otherwise; meant for a restored backup before it serves.
 */
import { eq, sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { type DatabaseHandle, openDatabase } from '../src/server/db/client.ts';
import { users } from '../src/server/db/schema.ts';
import { resetSecondFactor } from '../src/server/modules/auth/second-factor.ts';
import { checkLedger } from '../src/server/modules/wallet/ledger-check.ts';

const USAGE = [
  'Usage: npm run admin -- promote <email>',
  '       npm run admin -- reset-second-factor <email>',
  '       npm run admin -- check-ledger',
].join('\n');

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

async function resetSecondFactorCommand(database: DatabaseHandle, email: string): Promise<number> {
  await database.migrate();
  const [operator] = await database.db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  if (operator?.role !== 'admin') {
    console.error(`No operator with the e-mail ${email}.`);
    return 1;
  }
  await resetSecondFactor(database.db, operator.id, new Date());
  console.info(`${email}'s authenticator is removed; their next console login sets up a new one.`);
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
const withEmail = command === 'promote' || command === 'reset-second-factor';
if (!((withEmail && email) || command === 'check-ledger')) {
  console.error(USAGE);
  process.exit(2);
}

try {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let code: number;
  try {
    if (command === 'promote' && email) code = await promote(database, email);
    else if (command === 'reset-second-factor' && email)
      code = await resetSecondFactorCommand(database, email);
    else code = await checkLedgerCommand(database, config.paymentsSandbox);
  } finally {
    await database.close();
  }
  process.exit(code);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
