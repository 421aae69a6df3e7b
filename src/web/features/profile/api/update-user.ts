import type { UpdateUserBody, User } from '@shared/schemas/users.ts';
import { useMutation } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { replaceAccessToken, setUser } from '@web/lib/session.ts';

interface UpdateUserResult {
  message: string;
  data: { user: User; accessToken?: string };
}

export const updateUser = (body: UpdateUserBody) => http.put<UpdateUserResult>('/user', body);

export function useUpdateUser() {
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (result) => {
      if (result.data.accessToken) replaceAccessToken(result.data.accessToken);
      setUser(result.data.user);
    },
  });
}
