import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_MESSAGES } from '../shared/kyc.ts';
import { openDatabase } from './db/client.ts';
import { serverSecrets, users } from './db/schema.ts';
import { hashPassword } from './modules/auth/passwords.ts';
import { SANDBOX_NUMBERS } from './providers/kyc/sandbox.ts';
import { createUser } from './test/factories.ts';
import { type Instance, startInstance } from './test/instances.ts';
import { requireTestDatabaseUrl } from './test/scratch-database.ts';

// Two instances on one PostgreSQL, each with a DATA_DIR of its own (as two containers without a
// shared volume): whatever one signs, hashes or hands to a browser, the other must agree with.
describe('two instances with separate data folders', () => {
  let databaseUrl = '';
  let instances: Instance[] = [];

  beforeAll(async () => {
    databaseUrl = requireTestDatabaseUrl();
    instances = await Promise.all([startInstance(databaseUrl), startInstance(databaseUrl)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
    instances = [];
  });

  async function signedIn(instance: Instance, fullname: string) {
    const password = 'Shared-Secrets-2026';
    const handle = await openDatabase({ databaseUrl, dataDir: '' });
    try {
      const user = await createUser(handle.db, {
        fullname,
        passwordHash: await hashPassword(password),
      });
      const login = await fetch(`${instance.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password }),
      });
      expect(login.status).toBe(200);
      const body = (await login.json()) as { data: { accessToken: string } };
      return { user, authorization: `Bearer ${body.data.accessToken}` };
    } finally {
      await handle.close();
    }
  }

  it('a token signed by one verifies on the other', async () => {
    const [first, second] = instances;
    if (!first || !second) throw new Error('two instances expected');
    const { user, authorization } = await signedIn(first, 'Tobi Adewale');
    const me = await fetch(`${second.url}/api/v1/user`, { headers: { authorization } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { id: string } }).data.id).toBe(user.id);
  });

  it('hands browsers one Web Push key, kept once in the database', async () => {
    const [first] = instances;
    if (!first) throw new Error('two instances expected');
    const { authorization } = await signedIn(first, 'Funmi Bello');
    const keys = await Promise.all(
      instances.map(async (instance) => {
        const response = await fetch(`${instance.url}/api/v1/notification/push/key`, {
          headers: { authorization },
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { data: { publicKey: string } }).data.publicKey;
      }),
    );
    expect(new Set(keys).size).toBe(1);
    const handle = await openDatabase({ databaseUrl, dataDir: '' });
    try {
      const [kept] = await handle.db
        .select()
        .from(serverSecrets)
        .where(eq(serverSecrets.name, 'vapid-keys'));
      expect(JSON.parse(kept?.value ?? '{}').publicKey).toBe(keys[0]);
    } finally {
      await handle.close();
    }
  });

  it('one NIN verifies one account, whichever instance checks it', async () => {
    const [first, second] = instances;
    if (!first || !second) throw new Error('two instances expected');
    const check = { idType: 'NIN', idNumber: SANDBOX_NUMBERS.adult.NIN, dateOfBirth: '1990-05-14' };
    const verify = (instance: Instance, authorization: string) =>
      fetch(`${instance.url}/api/v1/kyc/verify`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(check),
      });
    const ada = await signedIn(first, 'Ada Okafor');
    expect((await verify(first, ada.authorization)).status).toBe(200);

    const again = await signedIn(second, 'Ada Ngozi Okafor');
    const duplicate = await verify(second, again.authorization);
    expect(await duplicate.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: KYC_MESSAGES.duplicate,
    });
    const handle = await openDatabase({ databaseUrl, dataDir: '' });
    try {
      const [row] = await handle.db
        .select({ tier: users.kycTier })
        .from(users)
        .where(eq(users.id, again.user.id));
      expect(row?.tier).toBe(1);
    } finally {
      await handle.close();
    }
  });
});
