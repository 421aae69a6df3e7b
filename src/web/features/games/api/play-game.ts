import type { PlayGameBody, PlayResult } from '@shared/schemas/games.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { noteAnswerSubmitted } from '@web/lib/install-moment.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { adjustBalance } from '@web/lib/session.ts';

/** POST /game/play: takes a place, debits the entry fee, answers 201 {message, data}. */
export const playGame = (body: PlayGameBody) =>
  http
    .post<{ message: string; data: PlayResult }>('/game/play', body)
    .then((result) => result.data);

export function usePlayGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: playGame,
    // Moves money: sent now or failed now, never paused offline and sent later by itself.
    networkMode: 'always',
    retry: false,
    onSuccess: (result) => {
      // docs/product.md#states: the local balance drops by the entry fee until the next user reload.
      if (result.amountPaid > 0) adjustBalance(-result.amountPaid);
      // A player who has answered may now be offered to install the app.
      noteAnswerSubmitted();
      // Lists, this game's details and the submissions all change ('games' prefix).
      void queryClient.invalidateQueries({ queryKey: ['games'] satisfies AppQueryKey });
    },
    onError: () => {
      // A refusal (a new fee, the game full, already played, …) means what the player saw may be
      // out of date: show it afresh (offline, the refresh waits for the connection).
      void queryClient.invalidateQueries({ queryKey: ['games'] satisfies AppQueryKey });
    },
  });
}
