import type { Envelope } from '@shared/schemas/common.ts';
import type { AdminSettings } from '@shared/schemas/settings.ts';
import type { BankTransferProvider } from '@shared/schemas/wallet.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { withFreshSecondFactor } from '../lib/fresh-second-factor.ts';

/** PUT /admin/settings/bank-transfer-provider. */
const saveBankTransferProvider = withFreshSecondFactor((provider: BankTransferProvider) =>
  http.put<Envelope<null>>('/admin/settings/bank-transfer-provider', { provider }),
);

export function useSaveBankTransferProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBankTransferProvider,
    onSuccess: (_result, provider) =>
      queryClient.setQueryData<AdminSettings>(
        ['admin', 'settings'] satisfies AppQueryKey,
        (settings) => (settings ? { ...settings, bankTransferProvider: provider } : settings),
      ),
  });
}
