import { describe, expect, it } from 'vitest';
import { playerFiles } from './player-files.ts';

const chunk = (
  fileName: string,
  links: { imports?: string[]; dynamicImports?: string[]; facade?: string; entry?: boolean } = {},
) => ({
  type: 'chunk' as const,
  fileName,
  isEntry: links.entry ?? false,
  imports: links.imports ?? [],
  dynamicImports: links.dynamicImports ?? [],
  facadeModuleId: links.facade ?? null,
});

describe('playerFiles', () => {
  it('lists what the player screens load later, without the entry’s own files or what only other screens load', () => {
    const bundle = Object.fromEntries(
      [
        chunk('assets/index.js', {
          entry: true,
          imports: ['assets/runtime.js'],
          dynamicImports: [
            'assets/Home.js',
            'assets/Wallet.js',
            'assets/AdminApp.js',
            'assets/LoginPage.js',
          ],
        }),
        chunk('assets/runtime.js'),
        chunk('assets/Home.js', { imports: ['assets/runtime.js', 'assets/cards.js'] }),
        chunk('assets/cards.js'),
        chunk('assets/Wallet.js', { imports: ['assets/schemas.js'], facade: '/web/Wallet.tsx' }),
        chunk('assets/schemas.js'),
        chunk('assets/AdminApp.js', {
          imports: ['assets/schemas.js', 'assets/charts.js'],
          facade: '/web/features/admin/AdminApp.tsx',
        }),
        chunk('assets/charts.js'),
        chunk('assets/LoginPage.js', {
          imports: ['assets/auth-ui.js'],
          facade: '/web/features/auth/routes/LoginPage.tsx',
        }),
        chunk('assets/auth-ui.js'),
        { type: 'asset' as const, fileName: 'assets/index.css' },
      ].map((file) => [file.fileName, file]),
    );
    expect(playerFiles(bundle, (id) => /^\/web\/features\/(admin|auth)\//.test(id))).toEqual([
      '/assets/Home.js',
      '/assets/Wallet.js',
      '/assets/cards.js',
      '/assets/schemas.js',
    ]);
  });
});
