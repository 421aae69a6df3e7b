import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (failureCount, error) =>
        failureCount < 2 &&
        !(error instanceof Error && 'statusCode' in error && Number(error.statusCode) >= 400),
      refetchOnWindowFocus: false,
    },
  },
});
