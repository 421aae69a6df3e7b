import type { RegisterBody } from '@shared/schemas/auth.ts';
import { http } from '@web/lib/http.ts';

export const register = (body: RegisterBody) =>
  http.post<{ message: string }>('/auth/register', body).then((res) => res.message);
