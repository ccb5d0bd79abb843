'use client';

import { useRef, useState } from 'react';
import { useConfirmDelete } from '@/components/confirm-delete';
import { Dialog } from '@/components/dialog';
import { PageHeader, RoleGate } from '@/components/guard';
import { PageTitle } from '@/components/page-title';
import { PagedTable, usePaging } from '@/components/paged-table';
import { useMe, useRefreshMe } from '@/components/session';
import { Button, formatDate, SearchBox, Select, useDebounced } from '@/components/ui';
import { ROLE_LABEL, RoleOptions, UserCreateForm, UserEditForm } from '@/components/user-form';
import { type Role, trpc, type User } from '@/lib/trpc';

const LIMIT = 20;

export default function UsersPage() {
  return (
    <>
      <PageTitle name="Users" />
      <RoleGate roles={['admin']}>
        <Users />
      </RoleGate>
    </>
  );
}

function Users() {
  const me = useMe();
  const refreshMe = useRefreshMe();
  const [role, setRole] = useState<Role | ''>('');
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim());
  const paging = usePaging(LIMIT);
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  // The signed-in admin's own account as last written from the dialog: the session follows it on close.
  const ownChange = useRef<User | null>(null);
  const list = trpc.users.list.useQuery(
    { page: paging.page, limit: LIMIT, ...(role ? { role } : {}), ...(term ? { search: term } : {}) },
    { placeholderData: (previous) => previous },
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

  function close() {
    setEditing(null);
    const own = ownChange.current;
    ownChange.current = null;
    // Demoted, they may no longer list users: the shell leaves this page once auth.me says so.
    if (own) void refreshMe(own);
  }
  function written(user: User) {
    if (user.id === me.id) ownChange.current = user;
    if (user.id !== me.id || user.role === 'admin') void utils.users.list.invalidate();
  }
  return (
    <>
      <PageHeader title="Users">
        <Button variant="primary" onClick={() => setEditing('new')}>
          New user
        </Button>
      </PageHeader>
      <div className="toolbar">
        <SearchBox
          label="Search users by name or email"
          value={search}
          onChange={(v) => paging.reset(() => setSearch(v))}
        />
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
        empty={
          term ? (
            <>
              No users match “{term}”{role ? ` with the role ${ROLE_LABEL[role]}` : ''}.
            </>
          ) : (
            <>No users{role ? ` with the role ${ROLE_LABEL[role]}` : ''}.</>
          )
        }
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
      <Dialog
        open={editing !== null}
        title={editing === 'new' ? 'New user' : `Edit ${editing?.username ?? ''}`}
        onClose={close}
      >
        {editing === 'new' && (
          <UserCreateForm
            onSaved={() => {
              void utils.users.list.invalidate();
              close();
            }}
            onCancel={close}
          />
        )}
        {editing !== null && editing !== 'new' && (
          <UserEditForm
            key={editing.id}
            user={editing}
            onWritten={written}
            onSaved={close}
            onCancel={close}
          />
        )}
      </Dialog>
      {confirmDelete.dialog}
    </>
  );
}
