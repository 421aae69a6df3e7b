import { z } from 'zod';

export const categorySchema = z.object({
  id: z.string(),
  title: z.string(),
  emoji: z.string(),
});
export type Category = z.infer<typeof categorySchema>;

export const bankSchema = z.object({
  id: z.string(),
  bankName: z.string(),
  code: z.string(),
});
export type Bank = z.infer<typeof bankSchema>;
