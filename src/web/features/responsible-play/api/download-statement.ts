import { useMutation } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';

/**
 * The CSV comes from the server (GET /responsible-play/statement.csv, sent as an attachment);
 * it needs the bearer token, so it is fetched and handed to the browser as a file rather than
 * linked to.
 */
export async function downloadStatement(): Promise<void> {
  const csv = await http.get<string>('/responsible-play/statement.csv', {
    headers: { Accept: 'text/csv' },
  });
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `pluckers-statement-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useDownloadStatement() {
  return useMutation({ mutationFn: downloadStatement });
}
