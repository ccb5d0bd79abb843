import { randomBytes } from 'node:crypto';
import { createTokenService, hashPassword, type TokenService } from '@music/auth';
import { createJobs, type Db, insertSession, insertUser, type Role, uuidv7 } from '@music/db';
import { createTestDatabase, type TestDatabase } from '@music/db/testing';
import { TRPCError } from '@trpc/server';
import {
  type Actor,
  createContextInner,
  createDeps,
  DEFAULT_SETTINGS,
  type Deps,
  type Mail,
  type Mailer,
  type RequestInfo,
  type Settings,
} from '../src/context';
import { AppError } from '../src/errors';
import type { EntityTagCondition } from '../src/etag';
import { jobQueues } from '../src/modules/common/job-queues';
import { appRouter } from '../src/router';
import { createCallerFactory } from '../src/trpc';

const silent = { info() {}, warn() {}, error() {} };
const createCaller = createCallerFactory(appRouter);
let passwordHash: Promise<string> | undefined;

/** The password of every actor `createActor` makes. */
export const ACTOR_PASSWORD = 'password123';

/** An actor with an access token signed by the server's token service. */
export interface SignedActor extends Actor {
  token: string;
}

/**
 * The one fixture factory for callers: a user with a live session, straight in the database
 * (one argon2 hash for the whole run instead of a sign-up and a sign-in each, since the matrix
 * and the property suites need many). Given the server's `tokens`, it also signs an access token.
 */
export async function createActor(db: Db, role?: Role): Promise<Actor>;
export async function createActor(db: Db, role: Role, tokens: TokenService): Promise<SignedActor>;
export async function createActor(
  db: Db,
  role: Role = 'user',
  tokens?: TokenService,
): Promise<Actor | SignedActor> {
  passwordHash ??= hashPassword(ACTOR_PASSWORD);
  const id = uuidv7();
  const user = await insertUser(db, {
    id,
    username: `${role}-${id.slice(-6)}`,
    email: `${role}-${id}@example.com`,
    password_hash: await passwordHash,
    role,
  });
  const sessionId = uuidv7();
  await insertSession(db, { id: sessionId, userId: id, expiresAt: new Date(Date.now() + 3_600_000) });
  if (!tokens) return { user, sessionId };
  return { user, sessionId, token: await tokens.signAccessToken({ sub: id, role, sid: sessionId }) };
}

/**
 * The mailer of procedure tests: keeps what it is given, in order (the HTTP suites send through a
 * real SMTP server instead).
 */
export class MailOutbox implements Mailer {
  readonly sent: Mail[] = [];
  post(mail: Mail): void {
    this.sent.push(mail);
  }
  /** The mails to `to`, oldest first. */
  to(to: string): Mail[] {
    return this.sent.filter((mail) => mail.to === to);
  }
}

export interface RouterHarness {
  database: TestDatabase;
  deps: Deps;
  /** Every mail the services posted. */
  outbox: MailOutbox;
  /** A caller acting as `actor` (null: anonymous), from `address`. */
  caller(actor: Actor | null, address?: string): ReturnType<typeof createCaller>;
  /** A caller acting as `actor` whose requests carry `If-Match` (the REST edge puts it in the context). */
  callerIfMatch(actor: Actor, ifMatch: EntityTagCondition): ReturnType<typeof createCaller>;
  /** `createActor` on the harness's database. */
  makeActor(role?: Role): Promise<Actor>;
  close(): Promise<void>;
}

/**
 * Procedure tests: the real router and services on a fresh database, no HTTP. The limits counted
 * per client address that every test would share (sign-ups, reset requests) are off unless a test
 * sets them: the callers all come from one address.
 */
export async function createRouterHarness(settings: Partial<Settings> = {}): Promise<RouterHarness> {
  const database = await createTestDatabase();
  const outbox = new MailOutbox();
  const jobs = createJobs(database.jobs, {
    queues: jobQueues({
      deliveryExpireSeconds: 30,
      importExpireSeconds: 60,
      retryLimit: 1,
      retryDelaySeconds: 1,
    }),
    maintenanceSeconds: 60,
    onError: () => {},
  });
  const deps = createDeps({
    db: database.db,
    tokens: createTokenService({ secret: randomBytes(32).toString('hex'), issuer: 'test', audience: 'test' }),
    log: silent,
    settings: {
      ...DEFAULT_SETTINGS,
      signupsPerAddressPerHour: 0,
      passwordResetsPerQuarterHour: 0,
      ...settings,
    },
    mailer: outbox,
    // The real queue on the test database; its tables are made only if a test queues a job.
    jobs,
  });
  const callerFor = (request: Omit<RequestInfo, 'requestId'>) =>
    createCaller(createContextInner(deps, { ...request, requestId: uuidv7() }));
  return {
    database,
    deps,
    outbox,
    caller: (actor, address = '127.0.0.1') => callerFor({ actor, clientAddress: address }),
    callerIfMatch: (actor, ifMatch) => callerFor({ actor, clientAddress: '127.0.0.1', ifMatch }),
    makeActor: (role = 'user') => createActor(database.db, role),
    close: async () => {
      await jobs.stop();
      await database.close();
    },
  };
}

/**
 * The AppError a call failed with, as the procedure threw it (createCaller hands it over inside
 * tRPC's wrapper); fails the test when the call succeeded or failed with anything else.
 */
export async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof AppError) return cause;
  throw new Error(error === undefined ? 'the call succeeded' : `not an AppError: ${String(error)}`);
}

/** The contract code a call failed with (or a description of what it did instead). */
export async function appCode(promise: Promise<unknown>): Promise<string> {
  return failureOf(promise).then(
    (error) => error.code,
    (problem: Error) => problem.message,
  );
}
