'use client';

import { useId } from 'react';
import { Field, TextInput } from '@/components/ui';
import { DialogForm } from '@/components/ui/dialog-form';
import {
  type CreatedApiKey,
  type KeyFormValues,
  keyRefusal,
  MAX_KEY_NAME,
  readKeyForm,
  SCOPE_GROUPS,
  SCOPE_WORDS,
  type Scope,
} from '@/lib/api-keys';
import { trpc } from '@/lib/trpc';
import { ShownOnce } from './shown-once';
import { useRefusableForm } from './use-refusable-form';

const EMPTY: KeyFormValues = { name: '', scopes: [], expires: '' };

/** Tomorrow as a date input writes it (yyyy-mm-dd, local): the first day a key may expire on. */
function tomorrow(): string {
  const day = new Date();
  day.setDate(day.getDate() + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/**
 * The "New API key" form: a name, what the key may do (scopes by area, each in words) and an
 * optional last day. Its own checks first (the procedure's rules), then the server's 422 beside
 * the same fields; a full account (409) in words above them. `onMade` gets the new key, token
 * and all, once.
 */
export function ApiKeyForm({
  onMade,
  onCancel,
}: {
  onMade: (key: CreatedApiKey) => void;
  onCancel: () => void;
}) {
  const create = trpc.apiKeys.create.useMutation();
  const { values, errors, refusal, setRefusal, setOwn, change } = useRefusableForm<
    KeyFormValues,
    ReturnType<typeof keyRefusal>
  >(EMPTY);
  const scopesError = errors.scopes;
  const scopesHelp = useId();
  const scopesErrorId = useId();

  const toggle = (scope: Scope, on: boolean) =>
    change({ scopes: on ? [...values.scopes, scope] : values.scopes.filter((s) => s !== scope) }, 'scopes');

  function submit(): boolean {
    setRefusal(null);
    const reading = readKeyForm(values);
    if (!reading.ok) {
      setOwn(reading.fields);
      return false;
    }
    setOwn({});
    create.mutateAsync(reading.input).then(onMade, (error: unknown) => setRefusal(keyRefusal(error)));
    return true;
  }

  const notice = refusal
    ? (refusal.message ?? (Object.keys(refusal.fields).length > 0 ? 'Some fields need attention.' : null))
    : null;
  const dirty = values.name !== '' || values.scopes.length > 0 || values.expires !== '';
  return (
    <DialogForm
      onSubmit={submit}
      mutation={{ error: notice, isPending: create.isPending }}
      submitLabel="Make key"
      onCancel={onCancel}
      requiredNote
      dirty={dirty}
    >
      <TextInput
        label="Name"
        required
        value={values.name}
        onChange={(e) => change({ name: e.target.value }, 'name')}
        error={errors.name}
        hint={`What uses the key, so you can tell it from others later (up to ${MAX_KEY_NAME} characters).`}
        autoComplete="off"
      />
      <fieldset
        className="picker scope-picker"
        aria-describedby={[scopesHelp, scopesError ? scopesErrorId : ''].filter(Boolean).join(' ')}
      >
        <legend>
          What the key may do<span aria-hidden="true"> *</span>
        </legend>
        <p className="field-hint" id={scopesHelp}>
          A key acts as you, only within what you tick here, and never beyond what your role allows.
        </p>
        {SCOPE_GROUPS.map((group) => (
          <fieldset key={group.area} className="scope-group">
            <legend className="scope-area">{group.area}</legend>
            {group.scopes.map((scope) => (
              <label key={scope} className="checkbox scope-choice">
                <input
                  type="checkbox"
                  checked={values.scopes.includes(scope)}
                  onChange={(e) => toggle(scope, e.target.checked)}
                  aria-invalid={scopesError ? true : undefined}
                />
                <span>
                  <code>{scope}</code> <span className="muted">{SCOPE_WORDS[scope]}</span>
                </span>
              </label>
            ))}
          </fieldset>
        ))}
        {scopesError && (
          <p className="field-error" id={scopesErrorId}>
            {scopesError}
          </p>
        )}
      </fieldset>
      <Field
        label="Expires after (optional)"
        error={errors.expiresAt}
        hint="The key stops working at the end of this day. Leave empty for a key that never expires."
      >
        {(control) => (
          <input
            {...control}
            type="date"
            min={tomorrow()}
            value={values.expires}
            onChange={(e) => change({ expires: e.target.value }, 'expiresAt')}
          />
        )}
      </Field>
    </DialogForm>
  );
}

/** The new key's token, shown this once. */
export function TokenView({ apiKey, onDone }: { apiKey: CreatedApiKey; onDone: () => void }) {
  return (
    <ShownOnce
      warning={
        <>
          <strong>Copy this key now: it will not be shown again.</strong> Only a hash of it is kept, so
          nobody, not even an admin, can show it to you later. If you lose it, revoke the key and make a new
          one.
        </>
      }
      label={`Token of “${apiKey.name}”`}
      hint="Send it as: Authorization: Bearer <token>"
      value={apiKey.token}
      noun="token"
      onDone={onDone}
    />
  );
}
