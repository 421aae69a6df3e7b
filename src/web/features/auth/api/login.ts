import type { LoginBody } from '@shared/schemas/auth.ts';
import type { User } from '@shared/schemas/users.ts';
import { http } from '@web/lib/http.ts';

export interface LoginResult {
  accessToken: string;
  user: User;
}

export const login = (body: LoginBody) =>
  http.post<{ data: LoginResult; message?: string }>('/auth/login', body).then((res) => res.data);
