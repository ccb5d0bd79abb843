import type { RouterInputs, RouterOutputs } from '@music/api-router/types';
import { toProblem } from '@/lib/errors';

/**
 * Webhooks as the console shows and makes them: the event types picked by resource (each
 * resource's "all of them" sent as `song.*`), the "New webhook" form read into `webhooks.create`'s
 * input (its rules are the procedure's: a URL of up to 2000 characters, 1 to 20 types, a
 * description of up to 500), and each delivery in words.
 */

export type Webhook = RouterOutputs['webhooks']['list']['data'][number];
export type CreatedWebhook = RouterOutputs['webhooks']['create'];
export type Delivery = RouterOutputs['webhooks']['deliveries']['data'][number];
export type CreateWebhookInput = RouterInputs['webhooks']['create'];

/** The resources whose changes a webhook may be sent, in the API's order. */
export const RESOURCES = ['song', 'artist', 'playlist', 'user'] as const;
export type Resource = (typeof RESOURCES)[number];
/** What may happen to each, in the API's order. */
export const VERBS = ['created', 'updated', 'deleted'] as const;
export type Verb = (typeof VERBS)[number];

/** Each resource in words, as the form's groups and the list name them. */
export const RESOURCE_WORDS: Record<Resource, { area: string; one: string; a: string }> = {
  song: { area: 'Songs', one: 'song', a: 'A song' },
  artist: { area: 'Artists', one: 'artist', a: 'An artist' },
  playlist: { area: 'Playlists', one: 'playlist', a: 'A playlist' },
  user: { area: 'Users', one: 'user', a: 'A user' },
};

/** Only admins may be sent user events (the API answers 422 on `events` to anyone else). */
export const resourcesFor = (admin: boolean): readonly Resource[] =>
  admin ? RESOURCES : RESOURCES.filter((resource) => resource !== 'user');

/** What the form holds for one resource: all of its events (`song.*`), or the ones ticked. */
export interface ResourceChoice {
  all: boolean;
  verbs: readonly Verb[];
}
export type EventChoice = Record<Resource, ResourceChoice>;

export const NO_EVENTS: EventChoice = {
  song: { all: false, verbs: [] },
  artist: { all: false, verbs: [] },
  playlist: { all: false, verbs: [] },
  user: { all: false, verbs: [] },
};

/**
 * The choice as `events` takes it, in the API's order: `song.*` for a resource's "all of them"
 * (its verbs ticked or not), else each type ticked (`song.created`).
 */
export function eventsOf(choice: EventChoice): string[] {
  return RESOURCES.flatMap((resource) => {
    const { all, verbs } = choice[resource];
    if (all) return [`${resource}.*`];
    return VERBS.filter((verb) => verbs.includes(verb)).map((verb) => `${resource}.${verb}`);
  });
}

/**
 * A list of `events` as the form's choice, and what it holds that the console does not know (a
 * newer API's types), in the order given. Every verb of a resource ticked one by one stays so: it
 * is not the same as `song.*`, which also takes the types the API may add later.
 */
export function choiceOf(events: readonly string[]): { choice: EventChoice; unknown: string[] } {
  const choice: EventChoice = { ...NO_EVENTS };
  const unknown: string[] = [];
  for (const name of events) {
    const [resource, verb, ...rest] = name.split('.');
    const known = (RESOURCES as readonly string[]).includes(resource ?? '') && rest.length === 0;
    const current = known ? choice[resource as Resource] : undefined;
    if (current && verb === '*') choice[resource as Resource] = { ...current, all: true };
    else if (current && (VERBS as readonly string[]).includes(verb ?? '')) {
      if (!current.verbs.includes(verb as Verb))
        choice[resource as Resource] = { ...current, verbs: [...current.verbs, verb as Verb] };
    } else unknown.push(name);
  }
  return { choice, unknown };
}

/**
 * A webhook's event types in words, one line a resource: "Every song event" for `song.*`,
 * "Artists: created, deleted" for some; then any type the console does not know, as it is.
 */
export function eventLines(events: readonly string[]): string[] {
  const { choice, unknown } = choiceOf(events);
  const lines = RESOURCES.flatMap((resource) => {
    const { all, verbs } = choice[resource];
    if (all) return [`Every ${RESOURCE_WORDS[resource].one} event`];
    if (verbs.length === 0) return [];
    const ordered = VERBS.filter((verb) => verbs.includes(verb));
    return [`${RESOURCE_WORDS[resource].area}: ${ordered.join(', ')}`];
  });
  return [...lines, ...unknown];
}

/** The longest URL and description the procedure takes. */
export const MAX_URL = 2000;
export const MAX_DESCRIPTION = 500;
/** How many webhooks one account may have; the next is refused with a 409. */
export const MAX_WEBHOOKS = 25;

/** What the form holds: the URL and description as typed, and the event types picked. */
export interface WebhookFormValues {
  url: string;
  events: EventChoice;
  description: string;
}

type FormField = 'url' | 'events' | 'description';
export type WebhookFormReading =
  | { ok: true; input: CreateWebhookInput }
  | { ok: false; fields: Partial<Record<FormField, string>> };

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The form's values as `webhooks.create` takes them, or what is wrong with them, field by field.
 * Which schemes and hosts are allowed is the service's to say (a 422 on `url`): here only that
 * there is a URL at all.
 */
export function readWebhookForm(values: WebhookFormValues): WebhookFormReading {
  const fields: Partial<Record<FormField, string>> = {};
  const url = values.url.trim();
  if (url === '') fields.url = 'Enter the URL events are sent to, such as https://hooks.example.com/music';
  else if (url.length > MAX_URL)
    fields.url = `The URL must be at most ${MAX_URL} characters (it has ${url.length})`;
  else if (!isUrl(url)) fields.url = 'Enter a whole URL, starting with https://';
  const events = eventsOf(values.events);
  if (events.length === 0) fields.events = 'Choose at least one event type';
  const description = values.description.trim();
  if ([...description].length > MAX_DESCRIPTION)
    fields.description = `The description must be at most ${MAX_DESCRIPTION} characters (it has ${[...description].length})`;
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, input: { url, events, ...(description ? { description } : {}) } };
}

/** The server's refusal of a new webhook, field by field where it names one; a full account in words. */
export function webhookRefusal(error: unknown): { message: string | null; fields: Record<string, string> } {
  const problem = toProblem(error);
  if (problem.code === 'CONFLICT') {
    return {
      message: `You have ${MAX_WEBHOOKS} webhooks, the most an account may have. Delete one you no longer use, then try again.`,
      fields: {},
    };
  }
  // The API names a type's problem on the list or on one of its items (`events.2`).
  const fields: Record<string, string> = {};
  for (const [field, message] of Object.entries(problem.fields)) {
    fields[field.startsWith('events') ? 'events' : field] ??= message;
  }
  if (Object.keys(fields).length > 0) return { message: null, fields };
  return { message: problem.message, fields };
}

/** A webhook's state in words: enabled, or disabled and why (when the API says). */
export function webhookState(hook: Pick<Webhook, 'enabled' | 'disabledReason'>): {
  label: 'Enabled' | 'Disabled';
  reason: string | null;
} {
  if (hook.enabled) return { label: 'Enabled', reason: null };
  return { label: 'Disabled', reason: hook.disabledReason };
}

/** A delivery's event type in words where it has some: a test ping. */
export const eventTypeWords = (type: string) => (type === 'webhook.ping' ? 'Test ping' : type);

export const STATUS_WORDS: Record<Delivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

/** What the receiver answered to the last attempt: its status, else why there was no answer. */
export function answerWords(delivery: Pick<Delivery, 'responseStatus' | 'error' | 'attempts'>): string {
  if (delivery.responseStatus !== null) return String(delivery.responseStatus);
  if (delivery.error) return delivery.error;
  return delivery.attempts === 0 ? 'Not sent yet' : 'No answer';
}

/** Only a delivery that is no longer pending may be sent again (the API answers 409 otherwise). */
export const canSendAgain = (delivery: Pick<Delivery, 'status'>) => delivery.status !== 'pending';

/**
 * A delivery the page waits on (a test ping, or one sent again): answered once it has had an
 * attempt after `attempts` (how many it had when it was sent).
 */
export interface Watched {
  id: string;
  attempts: number;
  label: string;
}

/**
 * The watched delivery's outcome in words, once its attempt is made: succeeded or failed, with
 * the answer; still pending after a failed attempt, a retry is due. Null until then.
 */
export function outcome(watched: Watched, deliveries: readonly Delivery[]): string | null {
  const found = deliveries.find((delivery) => delivery.id === watched.id);
  if (!found || found.attempts <= watched.attempts) return null;
  const answer = answerWords(found);
  if (found.status === 'pending')
    return `${watched.label}: not delivered (${answer}); it will be tried again.`;
  return `${watched.label}: ${STATUS_WORDS[found.status].toLowerCase()} (${answer}).`;
}

/** How often the deliveries are read again while shown: quickly just after a ping or a resend. */
export const QUICK_POLL_MS = 1000;
export const SLOW_POLL_MS = 10_000;
/** For how long after a ping or a resend the deliveries are read every QUICK_POLL_MS. */
export const QUICK_POLL_FOR_MS = 20_000;

/**
 * When to read the deliveries again: every second for a while after the user sent something,
 * every ten seconds while any is pending (a retry due), else only when asked (false).
 */
export function pollInterval(
  deliveries: readonly Pick<Delivery, 'status'>[],
  sentAt: number | null,
  now = Date.now(),
): number | false {
  if (sentAt !== null && now - sentAt < QUICK_POLL_FOR_MS) return QUICK_POLL_MS;
  if (deliveries.some((delivery) => delivery.status === 'pending')) return SLOW_POLL_MS;
  return false;
}
