import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, messageSchema } from '../../../shared/schemas/common.ts';
import {
  deleteUserSchema,
  PROFILE_PHOTO_MESSAGE,
  profilePhotoResponseSchema,
  updateUserSchema,
  userSchema,
} from '../../../shared/schemas/users.ts';
import type { AppConfig } from '../../config.ts';
import { badRequest, notFound } from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { createAvatarStorage } from '../../providers/storage.ts';
import { authContextOf } from '../auth/service.ts';
import { MAX_PHOTO_BYTES, reencodeProfilePhoto } from './photo.ts';
import { loadApiUser } from './serialize.ts';
import { deleteAccount, PROFILE_MESSAGES, replaceProfilePhoto, updateProfile } from './service.ts';

export async function userRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const storage = createAvatarStorage(config.dataDir);
  const context = authContextOf(app, config.publicUrl);
  const secured = { preValidation: app.authenticate };
  const security = [{ bearerAuth: [] }];

  typed.get(
    '/user',
    {
      ...secured,
      schema: {
        tags: ['users'],
        summary: 'The signed-in player',
        security,
        response: { 200: envelope(userSchema) },
      },
    },
    async (request) => ({ data: await loadApiUser(app.db, requireUser(request).id) }),
  );

  typed.put(
    '/user',
    {
      ...secured,
      schema: {
        tags: ['users'],
        summary: 'Change e-mail, phone, username or password',
        description:
          'Blank fields mean unchanged. A new password needs the current one (when set) and returns a fresh accessToken: every other session is signed out. A new e-mail must be verified again.',
        security,
        body: updateUserSchema,
        response: {
          200: envelope(z.object({ user: userSchema, accessToken: z.string().optional() })),
        },
      },
    },
    async (request) => {
      const { message, ...data } = await updateProfile(
        context,
        requireUser(request).id,
        request.body,
      );
      return { message, data };
    },
  );

  typed.delete(
    '/user',
    {
      ...secured,
      schema: {
        tags: ['users'],
        summary: 'Delete the account (needs the password and an empty wallet)',
        security,
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
    await uploads.register(multipart, {
      limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 5, parts: 6 },
    });
    uploads.withTypeProvider<ZodTypeProvider>().post(
      '/upload/profile-photo',
      {
        ...secured,
        bodyLimit: MAX_PHOTO_BYTES + 64 * 1024,
        schema: {
          tags: ['users'],
          summary: 'Upload a profile photo (JPEG, PNG or WebP, at most 5 MB)',
          consumes: ['multipart/form-data'],
          security,
          response: { 200: envelope(profilePhotoResponseSchema) },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw badRequest(PROFILE_PHOTO_MESSAGE);
        const file = await request.file();
        if (!file) throw badRequest(PROFILE_PHOTO_MESSAGE);
        let bytes: Buffer;
        try {
          bytes = await file.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw badRequest('Profile photo must be 5 MB or smaller');
          }
          throw error;
        }
        if (bytes.length === 0) throw badRequest(PROFILE_PHOTO_MESSAGE);
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

/** Serves stored avatars: fixed names, fixed type, cached for good (names never repeat). */
export async function avatarFileRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const storage = createAvatarStorage(config.dataDir);
  app.get<{ Params: { name: string } }>(
    '/uploads/avatars/:name',
    { schema: { hide: true } },
    async (request, reply) => {
      const { name } = request.params;
      if (!storage.isValidName(name)) throw notFound('Photo not found');
      const file = path.join(storage.directory, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) throw notFound('Photo not found');
      return reply
        .type('image/webp')
        .header('content-length', info.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(createReadStream(file));
    },
  );
}
