import type { UpdateUserBody, User } from '@shared/schemas/users.ts';
import { useMutation } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { setUser } from '@web/lib/session.ts';

interface UpdateUserResult {
  message: string;
  data: { user: User };
}

/** PUT /user: a new password signs out every other session and keeps this one. */
export const updateUser = (body: UpdateUserBody) => http.put<UpdateUserResult>('/user', body);

export function useUpdateUser() {
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (result) => {
      setUser(result.data.user);
    },
  });
}
