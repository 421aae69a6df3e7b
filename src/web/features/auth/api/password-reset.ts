import { http } from '@web/lib/http.ts';

export const forgotPassword = (email: string) =>
  http.post<{ message: string }>('/auth/forgot-password', { email }).then((res) => res.message);

export const resetPassword = (body: {
  email: string;
  otp: string;
  password: string;
  confirmPassword: string;
}) => http.post<{ message: string }>('/auth/reset-password', body).then((res) => res.message);
