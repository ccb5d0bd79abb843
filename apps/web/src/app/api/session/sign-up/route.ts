import type { RouterInputs, RouterOutputs } from '@music/api-router/types';
import { type NextRequest, NextResponse } from 'next/server';
import { answerFailure, readSameOriginBody } from '@/server/answers';
import { apiClient, apiFailure } from '@/server/api-client';
import { forwardedFor, NO_STORE, replaceSession } from '@/server/session';

/**
 * Sign-up in one step: the API's public `users.create` (POST /v1/users) makes the account, then
 * the console signs it in as POST /api/session does, tokens into httpOnly cookies. Answers 201
 * `{user}` with the cookies set; the API's refusal of the account (409 for a taken email, 422,
 * 403, 429) in the `/v1` error body, nothing made. Should the account be made but the sign-in
 * then fail (the service gone meanwhile), the answer is still 201, with `signedIn: false` and
 * no cookies: the account exists, and signing in is left to the person.
 */
export async function POST(req: NextRequest) {
  const input = await readSameOriginBody(req);
  if (input instanceof NextResponse) return input;
  // Anonymous whatever the cookies say: a sign-up never borrows a signed-in admin's rights (a
  // role other than `user` is the API's 403, as it is for any visitor).
  const api = apiClient(forwardedFor(req));
  let user: RouterOutputs['users']['create'];
  try {
    // Validated once, by the procedure: its 422 names the fields.
    user = await api.users.create.mutate(input as RouterInputs['users']['create']);
  } catch (error) {
    return answerFailure(apiFailure(error));
  }
  // The procedure took the body, so its password is a string of 8 to 128 characters.
  const { password } = input as RouterInputs['users']['create'];
  let signedIn: RouterOutputs['auth']['login'];
  try {
    signedIn = await api.auth.login.mutate({ email: user.email, password });
  } catch {
    return NextResponse.json({ user, signedIn: false }, { status: 201, headers: NO_STORE });
  }
  // A browser signed in as someone else: that session is replaced, so it ends.
  return replaceSession(req, signedIn, 201);
}
