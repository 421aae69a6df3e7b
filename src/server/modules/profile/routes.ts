import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, messageSchema } from '../../../shared/schemas/common.ts';
import {
  confirmEmailChangeSchema,
  deleteUserSchema,
  PROFILE_PHOTO_MESSAGE,
  profilePhotoResponseSchema,
  updateUserSchema,
  userSchema,
} from '../../../shared/schemas/users.ts';
import type { AppConfig } from '../../config.ts';
import { badRequest, notFound } from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { acceptUploads, readUploadedFile, uploadRouteOptions } from '../../plugins/uploads.ts';
import {
  type AvatarStorage,
  createAvatarStorage,
  legacyAvatarDirectory,
} from '../../providers/storage.ts';
import { authContextOf } from '../auth/service.ts';
import { sendStepUpCode } from '../auth/step-up.ts';
import { MAX_PHOTO_BYTES, reencodeProfilePhoto } from '../users/photo.ts';
import { loadApiUser } from '../users/serialize.ts';
import {
  cancelEmailChange,
  confirmEmailChange,
  deleteAccount,
  importLegacyPhotos,
  PROFILE_MESSAGES,
  replaceProfilePhoto,
  updateProfile,
} from './service.ts';

export async function userRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const storage = avatarStorageOf(app, config);
  const context = authContextOf(app, config.publicUrl);

  typed.get(
    '/user',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in player',
        response: { 200: envelope(userSchema) },
      },
    },
    async (request) => ({ data: await loadApiUser(app.db, requireUser(request).id) }),
  );

  typed.put(
    '/user',
    {
      schema: {
        tags: ['users'],
        summary: 'Change e-mail, phone, username or password',
        description:
          'Blank fields mean unchanged. A new e-mail or password needs the current password (an account without one: `code`, e-mailed by POST /user/step-up-code). A new password signs out every other session; this one stays signed in. A new e-mail is only pending (`pendingEmail`) until the code sent to it is entered with POST /user/email/confirm.',
        body: updateUserSchema,
        response: {
          200: envelope(z.object({ user: userSchema })),
        },
      },
    },
    async (request) => {
      const { message, ...data } = await updateProfile(context, requireUser(request), request.body);
      return { message, data };
    },
  );

  typed.post(
    '/user/step-up-code',
    {
      config: { rateLimit: { max: 5, timeWindow: 15 * 60_000 } },
      schema: {
        tags: ['users'],
        summary:
          'E-mail a 6-digit code to confirm a sensitive change (accounts without a password)',
        response: { 200: messageSchema },
      },
    },
    async (request) => ({ message: await sendStepUpCode(context, requireUser(request).id) }),
  );

  typed.post(
    '/user/email/confirm',
    {
      schema: {
        tags: ['users'],
        summary: 'Finish an e-mail change with the code sent to the new address',
        body: confirmEmailChangeSchema,
        response: { 200: envelope(z.object({ user: userSchema })) },
      },
    },
    async (request) => {
      const { message, user } = await confirmEmailChange(
        context,
        requireUser(request).id,
        request.body.code,
      );
      return { message, data: { user } };
    },
  );

  typed.delete(
    '/user/email/pending',
    {
      schema: {
        tags: ['users'],
        summary: 'Cancel a pending e-mail change',
        response: { 200: envelope(z.object({ user: userSchema })) },
      },
    },
    async (request) => {
      const { message, user } = await cancelEmailChange(app.db, requireUser(request).id);
      return { message, data: { user } };
    },
  );

  typed.delete(
    '/user',
    {
      schema: {
        tags: ['users'],
        summary: 'Delete the account (needs the password and an empty wallet)',
        body: deleteUserSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => ({
      message: await deleteAccount(
        context,
        storage,
        requireUser(request).id,
        request.body.password,
      ),
    }),
  );

  await app.register(async (uploads) => {
    await acceptUploads(uploads, MAX_PHOTO_BYTES);
    uploads.withTypeProvider<ZodTypeProvider>().post(
      '/upload/profile-photo',
      {
        ...uploadRouteOptions(MAX_PHOTO_BYTES, 'JPEG, PNG or WebP, at most 5 MB'),
        schema: {
          tags: ['users'],
          summary: 'Upload a profile photo (JPEG, PNG or WebP, at most 5 MB)',
          consumes: ['multipart/form-data'],
          response: { 200: envelope(profilePhotoResponseSchema) },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw badRequest(PROFILE_PHOTO_MESSAGE);
        const bytes = await readUploadedFile(request, {
          invalid: PROFILE_PHOTO_MESSAGE,
          tooLarge: 'Profile photo must be 5 MB or smaller',
        });
        const webp = await reencodeProfilePhoto(bytes);
        const profilePhoto = await replaceProfilePhoto(
          app.db,
          storage,
          requireUser(request).id,
          webp,
        );
        return { message: PROFILE_MESSAGES.photoUpdated, data: { profilePhoto } };
      },
    );
  });
}

/**
 * Photos on the store every instance shares (S3 when configured, else the database), so any
 * instance behind the balancer serves a photo another one received.
 */
function avatarStorageOf(app: FastifyInstance, config: AppConfig): AvatarStorage {
  return createAvatarStorage(app.fileStore, {
    legacyDirectory: legacyAvatarDirectory(config.dataDir),
    log: app.log,
  });
}

/**
 * Serves stored avatars: server-made names, cached for good (names never repeat). The app
 * serves them rather than redirecting to the bucket: URLs and caching stay as they were, the
 * bucket can stay private, and the page's CSP keeps images to its own origin.
 */
export async function avatarFileRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const storage = avatarStorageOf(app, config);
  app.addHook('onReady', async () => {
    app.background.run('copy profile photos from DATA_DIR to the shared store', async () => {
      const imported = await importLegacyPhotos(app.db, storage);
      if (imported > 0)
        app.log.info({ imported }, 'profile photos copied from DATA_DIR to the shared store');
    });
  });
  app.get<{ Params: { name: string } }>(
    '/uploads/avatars/:name',
    { schema: { hide: true } },
    async (request, reply) => {
      const file = await storage.read(request.params.name);
      if (!file) throw notFound('Photo not found');
      return reply
        .type(file.contentType)
        .header('content-length', file.body.length)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(file.body);
    },
  );
}
