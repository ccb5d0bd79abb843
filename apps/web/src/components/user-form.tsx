'use client';

import { createUserInput, updateUserInput } from '@music/api-router/schemas';
import { useState } from 'react';
import { NAME_RULE, PASSWORD_RULE } from '@/components/account-form';
import { DialogForm, type RecordFormProps } from '@/components/dialog-form';
import { PasswordInput } from '@/components/password-input';
import { useMe } from '@/components/session';
import { doneMessage, useToast } from '@/components/toast';
import { Select, TextInput } from '@/components/ui';
import { toProblem } from '@/lib/errors';
import { useForm } from '@/lib/form';
import { type Role, trpc, type User } from '@/lib/trpc';
import { differs, useDirty } from '@/lib/unsaved';

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
 * What an edit may send besides the role: the replace procedure's own schema, but the role (that
 * goes through `users.setRole`) and with the password optional (empty: unchanged).
 */
const detailsInput = updateUserInput.omit({ role: true }).partial({ password: true });

// The API has no partial update of a user (PATCH /users/{id} is 405 by contract): a new name or
// email goes through the full replace, which takes a password. A role change never needs one.
const PASSWORD_HINT =
  'Leave empty to keep the current password. A role change needs none; a new name or email is ' +
  'saved only with a new password (8 to 128 characters): tell the user.';
const PASSWORD_NEEDED = 'Set a new password to save a new name or email.';
const LAST_ADMIN = 'You are the only admin: make someone else an admin first.';

/** What each field holds, for the sentence that asks for it ("Enter a name"). */
const NOUNS = { username: 'a name', email: 'an email address', password: 'a password' };

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
      <TextInput label="Name" autoComplete="off" hint={NAME_RULE} {...field('username')} />
      <TextInput label="Email" type="email" autoComplete="off" {...field('email')} />
      <PasswordInput label="Password" autoComplete="new-password" hint={PASSWORD_RULE} {...field('password')} />
      <Select label="Role" {...field('role')}>
        <RoleOptions />
      </Select>
    </DialogForm>
  );
}

/**
 * Edit an account, sending only what changed: the role through `users.setRole` (it needs no
 * password), a new name, email or password through the replace. The role goes first, so the
 * API's refusal to demote the last admin leaves everything as it was. `onWritten` hears of each
 * write that succeeded (the role may be saved and the details then refused); `onSaved` of the
 * end of the edit.
 */
export function UserEditForm({
  user,
  onWritten,
  onSaved,
  onCancel,
}: RecordFormProps<User> & { user: User; onWritten: (user: User) => void }) {
  const me = useMe();
  const notify = useToast();
  const setRole = trpc.users.setRole.useMutation();
  const update = trpc.users.update.useMutation();
  // The account as the API holds it after this form's last write: what "changed" is measured against.
  const [saved, setSaved] = useState(user);
  const [failure, setFailure] = useState<{ error: unknown; words?: string } | null>(null);
  const [pending, setPending] = useState(false);
  // What the replace is sent besides the role (a password only when one is typed).
  const detailsOf = (v: { username: string; email: string; password: string }) => ({
    userId: user.id,
    username: v.username,
    email: v.email,
    ...(v.password === '' ? {} : { password: v.password }),
  });
  const { values, field, check, setFields } = useForm(
    { username: user.username, email: user.email, password: '', role: user.role },
    failure?.error,
    { schema: detailsInput, payload: detailsOf, nouns: NOUNS },
  );

  /** Saves what changed; false when the form refused what was typed (DialogForm focuses it). */
  async function save(): Promise<boolean> {
    const details = check(detailsInput, detailsOf(values));
    if (!details) return false;
    const detailsChanged =
      details.username !== saved.username || details.email !== saved.email || details.password !== undefined;
    const roleChanged = values.role !== saved.role;
    if (detailsChanged && details.password === undefined) {
      setFields({ password: PASSWORD_NEEDED });
      return false;
    }
    if (!roleChanged && !detailsChanged) {
      onSaved(saved);
      return true;
    }

    setFailure(null);
    setPending(true);
    let current = saved;
    try {
      if (roleChanged) {
        try {
          current = await setRole.mutateAsync({ userId: user.id, role: values.role });
        } catch (error) {
          // Only the last admin's own demotion can leave no admin: whoever else is demoted, the
          // caller stays one.
          const lastAdmin = toProblem(error).code === 'CONFLICT' && user.id === me.id;
          setFailure(lastAdmin ? { error, words: LAST_ADMIN } : { error });
          return true;
        }
        setSaved(current);
        onWritten(current);
      }
      if (details.password !== undefined) {
        try {
          current = await update.mutateAsync({ ...details, password: details.password });
        } catch (error) {
          if (roleChanged) notify(`Saved the role of “${current.username}”; the rest was not saved.`);
          setFailure({ error });
          return true;
        }
        setSaved(current);
        onWritten(current);
      }
      setFields({});
      notify(doneMessage('Saved', current));
      onSaved(current);
      return true;
    } finally {
      setPending(false);
    }
  }

  // Unsaved: anything differs from the account as last saved (a typed password always does).
  const dirty = differs(
    { username: values.username, email: values.email, password: values.password, role: values.role },
    { username: saved.username, email: saved.email, password: '', role: saved.role },
  );

  return (
    <DialogForm
      onSubmit={save}
      dirty={dirty}
      // The refusal in this form's words when it has them (the last admin), else the API's.
      mutation={{ error: failure ? (failure.words ?? failure.error) : null, isPending: pending }}
      submitLabel="Save changes"
      onCancel={onCancel}
      requiredNote
    >
      <TextInput label="Name" autoComplete="off" {...field('username')} />
      <TextInput label="Email" type="email" autoComplete="off" {...field('email')} />
      <TextInput
        label="New password"
        type="password"
        autoComplete="new-password"
        {...field('password')}
        hint={PASSWORD_HINT}
      />
      <Select label="Role" {...field('role')}>
        <RoleOptions />
      </Select>
    </DialogForm>
  );
}
