import { z } from 'zod';
import { emailSchema, passwordSchema } from '../users/users.schema';

export const requestResetInput = z.strictObject({
  email: emailSchema.meta({
    description: 'The account’s email; the answer is the same whether it has one or not',
  }),
});

export const confirmResetInput = z.strictObject({
  token: z.string().min(1).max(512).meta({ description: 'The token of the reset link (after `#token=`)' }),
  password: passwordSchema.meta({ description: 'The new password, 8 to 128 characters', format: 'password' }),
});
export type ConfirmResetInput = z.infer<typeof confirmResetInput>;

export const resetLinkSchema = z
  .object({
    url: z.string().max(2048).meta({
      description: 'The console’s page where the user sets a new password; works once',
      format: 'uri',
    }),
    expiresAt: z.string().meta({
      format: 'date-time',
      example: '2026-11-22T12:30:00Z',
      description: 'When the link stops working (30 minutes after it was made)',
    }),
  })
  .meta({ id: 'PasswordResetLink' });
export type ResetLink = z.infer<typeof resetLinkSchema>;
