export interface StoredFile {
  body: Buffer;
  contentType: string;
}

/**
 * Where uploaded files live. Every instance behind a load balancer must reach the same store,
 * so nothing here may be local to one process or one machine.
 */
export interface FileStore {
  readonly kind: 'database' | 's3';
  /**
   * Keys are made by the server and never reused for other content, so putting a key twice
   * (two instances copying the same old file) stores the same file either way.
   */
  put(key: string, file: StoredFile): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  /** Deleting a key that is not there is not an error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}
