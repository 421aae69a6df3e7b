import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import type { FileStore } from '../providers/file-store.ts';
import { createFileStore } from '../providers/storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files (profile photos, identity documents), shared by every instance. */
    fileStore: FileStore;
  }
}

/** One store for the whole app, so the players' and the operators' routes read the same files. */
export default fp<{ config: AppConfig }>(
  async function fileStorePlugin(app: FastifyInstance, { config }) {
    const store = await createFileStore(config, app.db);
    app.decorate('fileStore', store);
    app.addHook('onClose', () => store.close());
  },
  { name: 'file-store', dependencies: ['database'] },
);
