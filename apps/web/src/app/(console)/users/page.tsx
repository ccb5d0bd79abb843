'use client';

import { createUserInput, updateUserInput } from '@music/api-router/schemas';
import { type FormEvent, useState } from 'react';
import { DialogForm } from '@/components/dialog-form';
import { PageHeader, RoleGate } from '@/components/guard';
import { PagedTable } from '@/components/paged-table';
import { useMe } from '@/components/session';
import { Button, ConfirmDialog, Dialog, formatDate, Select, TextInput } from '@/components/ui';
import { useFormValues, useSave } from '@/lib/form';
import { type Role, trpc, type User } from '@/lib/trpc';

const LIMIT = 20;
const ROLES: Role[] = ['user', 'artist', 'admin'];
const ROLE_LABEL: Record<Role, string> = { user: 'Listener (user)', artist: 'Artist', admin: 'Admin' };

export default function UsersPage() {
  return (
    <RoleGate roles={['admin']}>
      <Users />
    </RoleGate>
  );
}

function Users() {
  const me = useMe();
  const [role, setRole] = useState<Role | ''>('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const list = trpc.users.list.useQuery(
    { page, limit: LIMIT, ...(role ? { role } : {}) },
    { placeholderData: (p) => p },
  );
  const utils = trpc.useUtils();
  const remove = trpc.users.delete.useMutation({
    onSuccess: async () => {
      setDeleting(null);
      await utils.users.list.invalidate();
    },
  });

  return (
    <>
      <PageHeader title="Users">
        <Button variant="primary" onClick={() => setEditing('new')}>
          New user
        </Button>
      </PageHeader>
      <div className="toolbar">
        <Select
          label="Role"
          value={role}
          onChange={(e) => {
            setRole(e.target.value as Role | '');
            setPage(1);
          }}
        >
          <option value="">All roles</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABEL[r]}
            </option>
          ))}
        </Select>
      </div>
      <PagedTable
        query={list}
        empty={<>No users{role ? ` with the role ${ROLE_LABEL[role]}` : ''}.</>}
        columns={['Name', 'Email', 'Role', 'Joined', '']}
        row={(user) => (
          <>
            <td data-label="Name">{user.username}</td>
            <td data-label="Email">{user.email}</td>
            <td data-label="Role">
              <span className={`badge badge-${user.role}`}>{ROLE_LABEL[user.role]}</span>
            </td>
            <td data-label="Joined">{formatDate(user.createdAt)}</td>
            <td className="row-actions">
              <Button variant="ghost" onClick={() => setEditing(user)} aria-label={`Edit ${user.username}`}>
                Edit
              </Button>
              <Button
                variant="ghost"
                onClick={() => {
                  remove.reset();
                  setDeleting(user);
                }}
                disabled={user.id === me.id}
                title={user.id === me.id ? 'You cannot delete yourself here' : undefined}
                aria-label={`Delete ${user.username}`}
              >
                Delete
              </Button>
            </td>
          </>
        )}
        page={page}
        limit={LIMIT}
        onPage={setPage}
      />
      {editing && <UserDialog user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete user"
        body={
          <>
            Delete <strong>{deleting?.username}</strong> ({deleting?.email})? Their playlists and sessions are
            deleted with them; an artist they manage stays, unlinked.
          </>
        }
        confirmLabel="Delete user"
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate({ userId: deleting.id })}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

function UserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const utils = trpc.useUtils();
  const { values, set } = useFormValues({
    username: user?.username ?? '',
    email: user?.email ?? '',
    password: '',
    role: (user?.role ?? 'user') as Role,
  });
  const done = async () => {
    await utils.users.list.invalidate();
    onClose();
  };
  const { mutation, errorOf, save } = useSave(
    user !== null,
    { schema: createUserInput, mutation: trpc.users.create.useMutation({ onSuccess: done }) },
    { schema: updateUserInput, mutation: trpc.users.update.useMutation({ onSuccess: done }) },
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    save(user ? { userId: user.id, ...values } : values);
  }

  return (
    <Dialog open title={user ? `Edit ${user.username}` : 'New user'} onClose={onClose}>
      <DialogForm
        onSubmit={submit}
        error={mutation.error}
        busy={mutation.isPending}
        submitLabel={user ? 'Save changes' : 'Create user'}
        onCancel={onClose}
      >
        <TextInput
          label="Name"
          value={values.username}
          onChange={set('username')}
          error={errorOf('username')}
        />
        <TextInput
          label="Email"
          type="email"
          value={values.email}
          onChange={set('email')}
          error={errorOf('email')}
        />
        <TextInput
          label={user ? 'New password' : 'Password'}
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={errorOf('password')}
          hint={
            user
              ? 'The API replaces a user as a whole: any change, a role change included, sets a new password (8 to 128 characters). Tell the user.'
              : '8 to 128 characters'
          }
        />
        <Select label="Role" value={values.role} onChange={set('role')} error={errorOf('role')}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABEL[r]}
            </option>
          ))}
        </Select>
      </DialogForm>
    </Dialog>
  );
}
