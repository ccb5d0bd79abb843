'use client';

import { createUserInput, emailSchema, patchUserInput, usernameSchema } from '@music/api-router/schemas';
import { type ComponentProps, useState } from 'react';
import { accountProblem, NAME_RULE, PASSWORD_RULE } from '@/components/account/account-form';
import { useMe } from '@/components/shell/session';
import { Select, TextInput } from '@/components/ui';
import { DialogForm, type RecordFormProps } from '@/components/ui/dialog-form';
import { PasswordInput } from '@/components/ui/password-input';
import { doneMessage, useToast } from '@/components/ui/toast';
import { toProblem } from '@/lib/errors';
import { useForm } from '@/lib/form';
import { type Role, trpc, type User } from '@/lib/trpc';
import { differs, useDirty } from '@/lib/unsaved';
import { type AccountChanges, changedFields, needsCurrentPassword, patchInput } from '@/lib/user-changes';

export const ROLES: Role[] = ['user', 'artist', 'admin'];
export const ROLE_LABEL: Record<Role, string> = { user: 'Listener (user)', artist: 'Artist', admin: 'Admin' };

export function RoleOptions() {
  return ROLES.map((r) => (
    <option key={r} value={r}>
      {ROLE_LABEL[r]}
    </option>
  ));
}

/**
 * The edit's fields as `users.patch` takes them, but the name and the email, which an account
 * always has (the form shows them, so they cannot be left empty).
 */
const editSchema = patchUserInput.extend({ username: usernameSchema, email: emailSchema });

const LAST_ADMIN = 'You are the only admin: make someone else an admin first.';
const EMAIL_TAKEN = 'Another account has this email address';
const CURRENT_NEEDED = 'Enter your current password to change your own email or password';

/** What each field holds, for the sentence that asks for it ("Enter a name"). */
const NOUNS = {
  username: 'a name',
  email: 'an email address',
  password: 'a password',
  currentPassword: 'your current password',
};

/** The name, email and new password both dialogs ask for: only the password's label and hint differ. */
function AccountInputs({
  field,
  passwordLabel,
  passwordHint,
}: {
  field: (name: 'username' | 'email' | 'password') => Omit<ComponentProps<typeof TextInput>, 'label'>;
  passwordLabel: string;
  passwordHint: string;
}) {
  return (
    <>
      <TextInput label="Name" autoComplete="off" hint={NAME_RULE} {...field('username')} />
      <TextInput label="Email" type="email" autoComplete="off" {...field('email')} />
      <PasswordInput
        label={passwordLabel}
        autoComplete="new-password"
        hint={passwordHint}
        {...field('password')}
      />
    </>
  );
}

/** A new account with any role (admin only for roles other than `user`; the API checks). */
export function UserCreateForm({ onSaved, onCancel }: RecordFormProps<User>) {
  const notify = useToast();
  const create = trpc.users.create.useMutation({
    onSuccess: (user) => {
      notify(doneMessage('Created', user));
      onSaved(user);
    },
  });
  const { values, field, check } = useForm(
    { username: '', email: '', password: '', role: 'user' as Role },
    create.error,
    { schema: createUserInput, nouns: NOUNS },
  );
  const dirty = useDirty(values);
  return (
    <DialogForm
      onSubmit={() => {
        const input = check(createUserInput, values);
        if (input !== null) create.mutate(input);
        return input !== null;
      }}
      mutation={create}
      dirty={dirty}
      submitLabel="Create user"
      onCancel={onCancel}
      requiredNote
    >
      <AccountInputs field={field} passwordLabel="Password" passwordHint={PASSWORD_RULE} />
      <Select label="Role" {...field('role')}>
        <RoleOptions />
      </Select>
    </DialogForm>
  );
}

type EditValues = { username: string; email: string; password: string; currentPassword: string; role: Role };

/** The password field's hint: that it is optional, its rule, and whom a new one signs out. */
function passwordHint(user: User, self: boolean): string {
  const whom = self ? 'you out on your other devices' : `${user.username} out everywhere`;
  return `Leave empty to keep the password. A new one (${PASSWORD_RULE}) signs ${whom}.`;
}

/** The confirmation: a new password also ended sessions, which the user may need to hear of. */
function savedMessage(user: User, changes: AccountChanges, self: boolean): string {
  const done = doneMessage('Saved', user);
  if (changes.password === undefined) return done;
  return self
    ? `${done} Your other devices were signed out.`
    : `${done} They are signed out everywhere and sign in with the new password.`;
}

/**
 * Edit an account through `users.patch`, sending only what changed: a role or a new name needs no
 * password; a new password (optional) signs the user out everywhere. Your own email or password
 * also needs your current password, as on your account page. One call, so a refusal (the last
 * admin's demotion) leaves everything as it was.
 */
export function UserEditForm({ user, onSaved, onCancel }: RecordFormProps<User> & { user: User }) {
  const me = useMe();
  const self = user.id === me.id;
  const notify = useToast();
  const patch = trpc.users.patch.useMutation();
  // The account as the API holds it after this form's last write: what "changed" is measured against.
  const [saved, setSaved] = useState(user);
  const [failure, setFailure] = useState<{ error: unknown; words?: string } | null>(null);
  // What the schema checks: the passwords only when typed.
  const payload = ({ password, currentPassword, ...rest }: EditValues) => ({
    userId: user.id,
    ...rest,
    ...(password === '' ? {} : { password }),
    ...(currentPassword === '' ? {} : { currentPassword }),
  });
  const initial: EditValues = {
    username: user.username,
    email: user.email,
    password: '',
    currentPassword: '',
    role: user.role,
  };
  const { values, field, check, setFields } = useForm(initial, failure?.error, {
    schema: editSchema,
    payload,
    nouns: NOUNS,
  });

  /** Saves what changed; false when the form refused what was typed (DialogForm focuses it). */
  async function save(): Promise<boolean> {
    const input = check(editSchema, payload(values));
    if (!input) return false;
    const changes = changedFields(saved, input);
    if (Object.keys(changes).length === 0) {
      onSaved(saved);
      return true;
    }
    const needed = needsCurrentPassword(changes, self);
    if (needed && input.currentPassword === undefined) {
      setFields({ currentPassword: CURRENT_NEEDED });
      return false;
    }
    setFailure(null);
    let fresh: User;
    try {
      fresh = await patch.mutateAsync(patchInput(user.id, changes, needed, input.currentPassword));
    } catch (error) {
      const problem = toProblem(error);
      // A conflict is the last admin's demotion (only your own can leave no admin) or a taken email.
      const demotesSelf = self && changes.role !== undefined && saved.role === 'admin';
      if (problem.code === 'CONFLICT' && changes.email !== undefined && !demotesSelf) {
        setFields({ email: EMAIL_TAKEN });
        return false;
      }
      if (problem.code === 'CONFLICT' && demotesSelf && changes.email === undefined) {
        setFailure({ error, words: LAST_ADMIN });
      } else if (problem.code === 'TOO_MANY_REQUESTS') {
        setFailure({ error, words: accountProblem(error).words });
      } else setFailure({ error });
      return true;
    }
    setSaved(fresh);
    setFields({});
    notify(savedMessage(fresh, changes, self));
    onSaved(fresh);
    return true;
  }

  // Unsaved: anything differs from the account as last saved (a typed password always does).
  const dirty = differs(values, {
    ...initial,
    username: saved.username,
    email: saved.email,
    role: saved.role,
  });

  return (
    <DialogForm
      onSubmit={save}
      dirty={dirty}
      // The refusal in this form's words when it has them (the last admin), else the API's.
      mutation={{ error: failure ? (failure.words ?? failure.error) : null, isPending: patch.isPending }}
      submitLabel="Save changes"
      onCancel={onCancel}
      requiredNote
    >
      <AccountInputs field={field} passwordLabel="New password" passwordHint={passwordHint(saved, self)} />
      {self && (
        <PasswordInput
          label="Your current password"
          autoComplete="current-password"
          hint="Needed only to change your own email or password."
          {...field('currentPassword')}
        />
      )}
      <Select label="Role" {...field('role')}>
        <RoleOptions />
      </Select>
    </DialogForm>
  );
}
