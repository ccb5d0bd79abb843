'use client';

import { createUserInput, updateUserInput } from '@music/api-router/schemas';
import { useState } from 'react';
import { useConfirmDelete } from '@/components/confirm-delete';
import { DialogForm } from '@/components/dialog-form';
import { PageHeader, RoleGate } from '@/components/guard';
import { PagedTable, usePaging } from '@/components/paged-table';
import { useMe } from '@/components/session';
import { Button, Dialog, formatDate, Select, TextInput } from '@/components/ui';
import { useSave } from '@/lib/form';
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
  const paging = usePaging(LIMIT);
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const list = trpc.users.list.useQuery(
    { page: paging.page, limit: LIMIT, ...(role ? { role } : {}) },
    { placeholderData: (p) => p },
  );
  const utils = trpc.useUtils();
  const remove = trpc.users.delete.useMutation({ onSuccess: () => utils.users.list.invalidate() });
  const confirmDelete = useConfirmDelete(remove, {
    title: 'Delete user',
    input: (user: User) => ({ userId: user.id }),
    body: (user) => (
      <>
        Delete <strong>{user.username}</strong> ({user.email})? Their playlists and sessions are deleted with
        them; an artist they manage stays, unlinked.
      </>
    ),
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
          onChange={(e) => paging.reset(() => setRole(e.target.value as Role | ''))}
        >
          <option value="">All roles</option>
          <RoleOptions />
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
                onClick={() => confirmDelete.ask(user)}
                disabled={user.id === me.id}
                title={user.id === me.id ? 'You cannot delete yourself here' : undefined}
                aria-label={`Delete ${user.username}`}
              >
                Delete
              </Button>
            </td>
          </>
        )}
        paging={paging}
      />
      {editing && <UserDialog user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {confirmDelete.dialog}
    </>
  );
}

function UserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const utils = trpc.useUtils();
  const done = async () => {
    await utils.users.list.invalidate();
    onClose();
  };
  const { values, field, mutation, save } = useSave(
    {
      username: user?.username ?? '',
      email: user?.email ?? '',
      password: '',
      role: (user?.role ?? 'user') as Role,
    },
    user && { userId: user.id },
    { schema: createUserInput, mutation: trpc.users.create.useMutation({ onSuccess: done }) },
    { schema: updateUserInput, mutation: trpc.users.update.useMutation({ onSuccess: done }) },
  );

  return (
    <Dialog open title={user ? `Edit ${user.username}` : 'New user'} onClose={onClose}>
      <DialogForm
        onSubmit={() => save(values)}
        mutation={mutation}
        submitLabel={user ? 'Save changes' : 'Create user'}
        onCancel={onClose}
      >
        <TextInput label="Name" {...field('username')} />
        <TextInput label="Email" type="email" {...field('email')} />
        <TextInput
          label={user ? 'New password' : 'Password'}
          type="password"
          autoComplete="new-password"
          {...field('password')}
          hint={
            user
              ? 'The API replaces a user as a whole: any change, a role change included, sets a new password (8 to 128 characters). Tell the user.'
              : '8 to 128 characters'
          }
        />
        <Select label="Role" {...field('role')}>
          <RoleOptions />
        </Select>
      </DialogForm>
    </Dialog>
  );
}

function RoleOptions() {
  return ROLES.map((r) => (
    <option key={r} value={r}>
      {ROLE_LABEL[r]}
    </option>
  ));
}
