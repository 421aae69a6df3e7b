import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { KYC_MESSAGES } from '../../../shared/kyc.ts';
import { KYC_REJECT_REASON } from '../../../shared/schemas/kyc.ts';
import { adminAudit, kycDocuments, storedFiles, users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createAdmin, createUser } from '../../test/factories.ts';
import { notificationTitles } from '../../test/fake-money.ts';
import { pngOf } from '../profile/test-fixtures.ts';

/** Tier 3: a document uploaded, re-encoded and kept private; an operator approves or rejects. */
const database = testDatabasePerFile();

async function upload(
  app: FastifyInstance,
  headers: Record<string, string>,
  bytes: Buffer,
  type = 'passport',
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'passport.png');
  const encoded = new Request('http://pluckers.test/', { method: 'POST', body: form });
  return app.inject({
    method: 'POST',
    url: `/api/v1/kyc/documents?type=${type}`,
    headers: { ...headers, 'content-type': encoded.headers.get('content-type') ?? '' },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
}

async function setup() {
  const app = await buildTestApp(database());
  const player = await createUser(app.db, {
    kycTier: 2,
    verifiedName: 'Ada Ngozi Okafor',
    verifiedBirthDate: '1990-05-14',
  });
  const admin = await createAdmin(app.db);
  return {
    app,
    player,
    headers: await bearerFor(app, player),
    admin,
    adminHeaders: await bearerFor(app, admin),
  };
}

const review = (
  app: FastifyInstance,
  headers: Record<string, string>,
  id: string,
  payload: Record<string, unknown>,
) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/admin/kyc/documents/${id}/review`,
    headers,
    payload,
  });

async function tierOf(app: FastifyInstance, userId: string) {
  const [row] = await app.db
    .select({ tier: users.kycTier })
    .from(users)
    .where(eq(users.id, userId));
  return row?.tier;
}

describe('identity documents (tier 3)', () => {
  it('stores a re-encoded WebP under a private key and shows it to operators only', async () => {
    const { app, player, headers, adminHeaders } = await setup();
    // A camera photo with metadata; the stored copy must carry none of it.
    const photo = await sharp(await pngOf(40))
      .withMetadata({ exif: { IFD0: { Copyright: 'GPS-SECRET' } } })
      .jpeg()
      .toBuffer();
    const response = await upload(app, headers, photo, 'drivers_licence');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      message: KYC_MESSAGES.documentSubmitted,
      data: { documentType: 'drivers_licence', status: 'PENDING', reviewNote: null },
    });
    const id = response.json().data.id as string;
    const [row] = await app.db.select().from(kycDocuments).where(eq(kycDocuments.id, id));
    expect(row?.fileKey).toMatch(new RegExp(`^kyc-documents/${player.id}/[0-9a-f]{32}\\.webp$`));
    const [file] = await app.db
      .select()
      .from(storedFiles)
      .where(eq(storedFiles.key, row?.fileKey ?? ''));
    expect(file?.contentType).toBe('image/webp');
    expect(file?.body.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(file?.body.includes(Buffer.from('GPS-SECRET'))).toBe(false);

    // Not under /uploads, whatever the name.
    const name = row?.fileKey.split('/').at(-1) ?? '';
    expect((await app.inject({ url: `/uploads/avatars/${name}` })).statusCode).toBe(404);
    // A player (even its owner) cannot open it; an operator gets it, not cached.
    const fileUrl = `/api/v1/admin/kyc/documents/${id}/file`;
    expect((await app.inject({ url: fileUrl, headers })).statusCode).toBe(403);
    const seen = await app.inject({ url: fileUrl, headers: adminHeaders });
    expect(seen.statusCode).toBe(200);
    expect(seen.headers['cache-control']).toBe('no-store');
    expect(seen.json().data.dataUrl).toMatch(/^data:image\/webp;base64,UklGR/);

    const queue = await app.inject({ url: '/api/v1/admin/kyc/documents', headers: adminHeaders });
    expect(queue.json().data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id,
          userId: player.id,
          verifiedName: 'Ada Ngozi Okafor',
          fileUrl,
        }),
      ]),
    );

    // One at a time.
    const second = await upload(app, headers, await pngOf(60));
    expect(second.json()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: KYC_MESSAGES.documentPending,
    });
  });

  it('needs tier 2 first, and an image', async () => {
    const { app } = await setup();
    const tier1 = await createUser(app.db);
    const early = await upload(app, await bearerFor(app, tier1), await pngOf(10));
    expect(early.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: KYC_MESSAGES.documentNeedsTier2,
    });
    const tier2 = await createUser(app.db, { kycTier: 2, verifiedName: 'Ada Okafor' });
    const text = await upload(
      app,
      await bearerFor(app, tier2),
      Buffer.from('%PDF-1.4 not an image'),
    );
    expect(text.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: KYC_MESSAGES.documentImage,
    });
    const kind = await upload(app, await bearerFor(app, tier2), await pngOf(10), 'selfie');
    expect(kind.statusCode).toBe(400);
    expect(
      await app.db.select().from(kycDocuments).where(eq(kycDocuments.userId, tier2.id)),
    ).toEqual([]);
  });

  it('approval sets tier 3, tells the player and is audited', async () => {
    const { app, player, headers, admin, adminHeaders } = await setup();
    const id = (await upload(app, headers, await pngOf(90))).json().data.id as string;
    const approved = await review(app, adminHeaders, id, { decision: 'approve' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({ id, status: 'APPROVED', tier: 3 });
    expect(await tierOf(app, player.id)).toBe(3);
    expect(await notificationTitles(app.db, player.id)).toContain('Documents approved');
    const audit = await app.db.select().from(adminAudit).where(eq(adminAudit.targetId, player.id));
    expect(audit).toEqual([
      expect.objectContaining({
        adminId: admin.id,
        action: 'kyc.document.approve',
        before: expect.objectContaining({ documentId: id, tier: 2 }),
        after: expect.objectContaining({ documentId: id, status: 'APPROVED', tier: 3 }),
      }),
    ]);
    const twice = await review(app, adminHeaders, id, { decision: 'reject', reason: 'Blurry' });
    expect(twice.statusCode).toBe(409);
    const status = await app.inject({ url: '/api/v1/kyc', headers });
    expect(status.json().data).toMatchObject({ tier: 3 });
    const more = await upload(app, headers, await pngOf(91));
    expect(more.json()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: KYC_MESSAGES.alreadyTier3,
    });
  });

  it('rejection needs a reason, which the player is told; the tier stays', async () => {
    const { app, player, headers, adminHeaders } = await setup();
    const id = (await upload(app, headers, await pngOf(120))).json().data.id as string;
    const bare = await review(app, adminHeaders, id, { decision: 'reject' });
    expect(bare.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: KYC_REJECT_REASON,
    });
    const rejected = await review(app, adminHeaders, id, {
      decision: 'reject',
      reason: 'The photo is too blurred to read',
    });
    expect(rejected.json().data).toMatchObject({
      status: 'REJECTED',
      reviewNote: 'The photo is too blurred to read',
      tier: 2,
    });
    expect(await tierOf(app, player.id)).toBe(2);
    const [audit] = await app.db
      .select()
      .from(adminAudit)
      .where(eq(adminAudit.targetId, player.id));
    expect(audit?.action).toBe('kyc.document.reject');
    const status = (await app.inject({ url: '/api/v1/kyc', headers })).json().data;
    expect(status.documents[0]).toMatchObject({
      status: 'REJECTED',
      reviewNote: 'The photo is too blurred to read',
    });
    // Another may be uploaded after a rejection.
    expect((await upload(app, headers, await pngOf(121))).statusCode).toBe(201);

    // The operator's view of the player: tier, verified identity, every document.
    const kyc = await app.inject({
      url: `/api/v1/admin/kyc/users/${player.id}`,
      headers: adminHeaders,
    });
    expect(kyc.statusCode, kyc.body).toBe(200);
    expect(kyc.json().data).toMatchObject({
      tier: 2,
      verifiedName: 'Ada Ngozi Okafor',
      verifiedBirthDate: '1990-05-14',
      attempts: [],
    });
    expect(
      kyc.json().data.documents.map((document: { status: string }) => document.status),
    ).toEqual(['PENDING', 'REJECTED']);
    expect(
      (await app.inject({ url: `/api/v1/admin/kyc/users/${player.id}`, headers })).statusCode,
    ).toBe(403);
  });
});
