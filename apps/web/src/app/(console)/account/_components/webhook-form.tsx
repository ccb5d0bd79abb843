'use client';

import { useId } from 'react';
import { TextArea, TextInput } from '@/components/ui';
import { DialogForm } from '@/components/ui/dialog-form';
import { trpc } from '@/lib/trpc';
import {
  type CreatedWebhook,
  MAX_DESCRIPTION,
  NO_EVENTS,
  RESOURCE_WORDS,
  type Resource,
  type ResourceChoice,
  readWebhookForm,
  resourcesFor,
  VERBS,
  type Verb,
  type WebhookFormValues,
  webhookRefusal,
} from '@/lib/webhooks';
import { ShownOnce } from './shown-once';
import { useRefusableForm } from './use-refusable-form';

const EMPTY: WebhookFormValues = { url: '', events: NO_EVENTS, description: '' };

/** What happening to a record each verb stands for, in words. */
const VERB_WORDS: Record<Verb, string> = { created: 'added', updated: 'changed', deleted: 'deleted' };

/** One resource's checkboxes: all of its events (`song.*`), or some of them one by one. */
function ResourceEvents({
  resource,
  choice,
  invalid,
  onChange,
}: {
  resource: Resource;
  choice: ResourceChoice;
  invalid: boolean;
  onChange: (choice: ResourceChoice) => void;
}) {
  const { area, one, a } = RESOURCE_WORDS[resource];
  const toggle = (verb: Verb, on: boolean) =>
    onChange({ ...choice, verbs: on ? [...choice.verbs, verb] : choice.verbs.filter((v) => v !== verb) });
  return (
    <fieldset className="scope-group">
      <legend className="scope-area">{area}</legend>
      <label className="checkbox scope-choice">
        <input
          type="checkbox"
          checked={choice.all}
          onChange={(e) => onChange({ ...choice, all: e.target.checked })}
          aria-invalid={invalid || undefined}
        />
        <span>
          All {one} events <code>{resource}.*</code>{' '}
          <span className="muted">Every kind, including any added later</span>
        </span>
      </label>
      {VERBS.map((verb) => (
        <label key={verb} className="checkbox scope-choice">
          <input
            type="checkbox"
            // "All of them" takes every one: shown ticked, and not to be unticked one by one.
            checked={choice.all || choice.verbs.includes(verb)}
            disabled={choice.all}
            onChange={(e) => toggle(verb, e.target.checked)}
            aria-invalid={invalid || undefined}
          />
          <span>
            <code>
              {resource}.{verb}
            </code>{' '}
            <span className="muted">
              {a} is {VERB_WORDS[verb]}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The "New webhook" form: where events are sent (a URL), which ones (checkboxes by resource,
 * each with "all of them"; users only for admins) and an optional description. Its own checks
 * first, then the server's 422 beside the same fields (a URL it refuses, types it refuses); a
 * full account (409) in words above them. `onMade` gets the new webhook, secret and all, once.
 */
export function WebhookForm({
  admin,
  onMade,
  onCancel,
}: {
  admin: boolean;
  onMade: (hook: CreatedWebhook) => void;
  onCancel: () => void;
}) {
  const create = trpc.webhooks.create.useMutation();
  const { values, errors, refusal, setRefusal, setOwn, change } = useRefusableForm<
    WebhookFormValues,
    ReturnType<typeof webhookRefusal>
  >(EMPTY);
  const eventsError = errors.events;
  const eventsHelp = useId();
  const eventsErrorId = useId();

  const choose = (resource: Resource, choice: ResourceChoice) =>
    change({ events: { ...values.events, [resource]: choice } }, 'events');

  function submit(): boolean {
    setRefusal(null);
    const reading = readWebhookForm(values);
    if (!reading.ok) {
      setOwn(reading.fields);
      return false;
    }
    setOwn({});
    create.mutateAsync(reading.input).then(onMade, (error: unknown) => setRefusal(webhookRefusal(error)));
    return true;
  }

  const notice = refusal
    ? (refusal.message ?? (Object.keys(refusal.fields).length > 0 ? 'Some fields need attention.' : null))
    : null;
  const dirty = JSON.stringify(values) !== JSON.stringify(EMPTY);
  return (
    <DialogForm
      onSubmit={submit}
      mutation={{ error: notice, isPending: create.isPending }}
      submitLabel="Make webhook"
      onCancel={onCancel}
      requiredNote
      dirty={dirty}
    >
      <TextInput
        label="URL"
        type="url"
        required
        value={values.url}
        onChange={(e) => change({ url: e.target.value }, 'url')}
        error={errors.url}
        hint="Where each event is sent, as a signed POST. It should answer with a 2xx status within 10 seconds."
        autoComplete="off"
        spellCheck={false}
      />
      <fieldset
        className="picker scope-picker"
        aria-describedby={[eventsHelp, eventsError ? eventsErrorId : ''].filter(Boolean).join(' ')}
      >
        <legend>
          Events to send<span aria-hidden="true"> *</span>
        </legend>
        <p className="field-hint" id={eventsHelp}>
          Only the changes you may read yourself are sent
          {admin ? '.' : ' (user events are for admins only).'}
        </p>
        {resourcesFor(admin).map((resource) => (
          <ResourceEvents
            key={resource}
            resource={resource}
            choice={values.events[resource]}
            invalid={Boolean(eventsError)}
            onChange={(choice) => choose(resource, choice)}
          />
        ))}
        {eventsError && (
          <p className="field-error" id={eventsErrorId}>
            {eventsError}
          </p>
        )}
      </fieldset>
      <TextArea
        label="Description (optional)"
        value={values.description}
        onChange={(e) => change({ description: e.target.value }, 'description')}
        error={errors.description}
        limit={MAX_DESCRIPTION}
        hint="What the webhook is for, so you can tell it from others later."
      />
    </DialogForm>
  );
}

/** The new webhook's signing secret, shown this once. */
export function SecretView({ hook, onDone }: { hook: CreatedWebhook; onDone: () => void }) {
  return (
    <ShownOnce
      warning={
        <>
          <strong>Copy this secret now: it will not be shown again.</strong> Your receiver needs it to check
          that each delivery really comes from the catalogue. If you lose it, delete the webhook and make a
          new one.
        </>
      }
      label="Signing secret"
      hint="Check each delivery’s webhook-signature header with it, as the Standard Webhooks libraries do."
      value={hook.secret}
      noun="secret"
      onDone={onDone}
    />
  );
}
