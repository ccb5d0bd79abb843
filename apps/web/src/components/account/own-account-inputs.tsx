'use client';

import type { ComponentProps } from 'react';
import { NAME_RULE, PASSWORD_RULE } from '@/components/account/account-form';
import { TextInput } from '@/components/ui';
import { PasswordInput } from '@/components/ui/password-input';

type FieldProps = Omit<ComponentProps<typeof TextInput>, 'label'>;

const CURRENT_HINT = 'Needed only to change your email: a new name needs none.';

/**
 * The caller's own name and email (named for the browser to fill from its profile) and a
 * password: a new one at sign-up, the current one on the account page to confirm a new email.
 */
export function OwnAccountInputs(
  props:
    | { password: 'new'; field: (name: 'username' | 'email' | 'password') => FieldProps }
    | { password: 'current'; field: (name: 'username' | 'email' | 'currentPassword') => FieldProps },
) {
  const { field } = props;
  const isNew = props.password === 'new';
  return (
    <>
      <TextInput label="Name" name="username" autoComplete="name" hint={NAME_RULE} {...field('username')} />
      <TextInput label="Email" name="email" type="email" autoComplete="email" {...field('email')} />
      <PasswordInput
        label={isNew ? 'Password' : 'Current password'}
        name={isNew ? 'password' : 'currentPassword'}
        autoComplete={isNew ? 'new-password' : 'current-password'}
        hint={isNew ? PASSWORD_RULE : CURRENT_HINT}
        {...(props.password === 'new' ? props.field('password') : props.field('currentPassword'))}
      />
    </>
  );
}
