/**
 * `npm run admin -- promote <email>`: makes an existing account a verified operator, on the
 * database the server would use (DATABASE_URL, or the embedded one in DATA_DIR).
 */
import { eq, sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { users } from '../src/server/db/schema.ts';

const [command, email] = process.argv.slice(2);
if (command !== 'promote' || !email) {
  console.error('Usage: npm run admin -- promote <email>');
  process.exit(2);
}

try {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const promoted = await database.db
    .update(users)
    .set({ role: 'admin', emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .returning({ id: users.id });
  await database.close();
  if (promoted.length === 0) {
    console.error(`No account with the e-mail ${email}. Sign up first, then promote.`);
    process.exit(1);
  }
  console.info(`${email} is now an operator.`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
