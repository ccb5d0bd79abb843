import { z } from 'zod';
import { emailSchema, userSchema } from '../users/users.schema';

export const loginInput = z.strictObject({
  email: emailSchema,
  // Any length a real password can have, but never megabytes of input to the hasher.
  password: z.string().min(1).max(1024).meta({ format: 'password' }),
});
export type LoginInput = z.infer<typeof loginInput>;

export const refreshInput = z.strictObject({
  refreshToken: z
    .string()
    .min(1)
    .max(512)
    .meta({ description: 'The refresh token from the last sign-in or refresh' }),
});

export const tokenResponseSchema = z
  .object({
    accessToken: z
      .string()
      .max(4096)
      .meta({ description: 'JWT for `Authorization: Bearer`, valid 24 hours' }),
    refreshToken: z.string().max(512).meta({ description: 'Opaque, single use, valid 30 days' }),
    tokenType: z.literal('Bearer'),
    expiresIn: z.number().int().meta({ description: 'Seconds until the access token expires' }),
    user: userSchema,
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
