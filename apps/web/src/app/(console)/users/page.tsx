'use client';

import { listUsersInput } from '@music/api-router/schemas';
import { Suspense, useState } from 'react';
import { ResetLinkDialog } from '@/app/(console)/users/_components/reset-link';
import { ROLE_LABEL, RoleOptions, UserCreateForm, UserEditForm } from '@/components/account/user-form';
import { PageHeader, RoleGate } from '@/components/shell/guard';
import { useMe, useRefreshMe } from '@/components/shell/session';
import { Button, formatDate, Loading, SearchBox, Select } from '@/components/ui';
import { useConfirmDelete } from '@/components/ui/confirm-delete';
import { Dialog } from '@/components/ui/dialog';
import { PageTitle } from '@/components/ui/page-title';
import { PAGE_SIZES, PagedTable, urlPaging } from '@/components/ui/paged-table';
import { trpc, type User } from '@/lib/trpc';
import { param, useUrlState, useUrlText } from '@/lib/url-state';

/** Whether a value is one the users.list procedure takes for `field`: its own schema decides. */
const takes = (field: 'search' | 'sort') => (value: string) =>
  listUsersInput.shape[field].safeParse(value).success;

/** The list's view in the address: /users?search=…&role=…&sort=…&page=…&limit=… (oldest first by default). */
const usersQuery = {
  search: param.text({ valid: takes('search') }),
  role: param.oneOf(['', ...listUsersInput.shape.role.unwrap().options], ''),
  sort: param.text({ fallback: 'createdAt', valid: takes('sort') }),
  page: param.integer({ fallback: 1 }),
  limit: param.oneOf(PAGE_SIZES, 20),
};

export default function UsersPage() {
  return (
    <>
      <PageTitle name="Users" />
      <RoleGate roles={['admin']}>
        {/* The view is read from the address (useSearchParams), which a prerendered page reads in the browser. */}
        <Suspense fallback={<Loading />}>
          <Users />
        </Suspense>
      </RoleGate>
    </>
  );
}

function Users() {
  const me = useMe();
  const refreshMe = useRefreshMe();
  const [view, update] = useUrlState(usersQuery);
  // A typing is one step of history (see useUrlText); a role, a sort or a page is a step of its own.
  const search = useUrlText(view.search, (text, how) => update({ search: text, page: 1 }, how), 250);
  const { role } = view;
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const list = trpc.users.list.useQuery(
    {
      page: view.page,
      limit: view.limit,
      sort: view.sort,
      ...(role ? { role } : {}),
      ...(view.search ? { search: view.search } : {}),
    },
    { placeholderData: (previous) => previous },
  );
  const paging = urlPaging(view, update);
  const utils = trpc.useUtils();
  const remove = trpc.users.delete.useMutation({ onSuccess: () => utils.users.list.invalidate() });
  const confirmDelete = useConfirmDelete(remove, {
    title: 'Delete user',
    input: (user: User) => ({ userId: user.id }),
    body: (user) => (
      <>
        Delete{' '}
        <strong>
          <bdi>{user.username}</bdi>
        </strong>{' '}
        ({user.email})? Their playlists and sessions are deleted with them; an artist they manage stays,
        unlinked.
      </>
    ),
  });

  const close = () => setEditing(null);
  function saved(user: User) {
    close();
    // Your own account: the session follows it (demoted, you may no longer list users: the shell
    // leaves this page once auth.me says so).
    if (user.id === me.id) void refreshMe(user);
    if (user.id !== me.id || user.role === 'admin') void utils.users.list.invalidate();
  }
  return (
    <>
      <PageHeader title="Users">
        <Button variant="primary" onClick={() => setEditing('new')} data-shortcut="new">
          New user
        </Button>
      </PageHeader>
      <div className="toolbar">
        <SearchBox
          label="Search users by name or email"
          value={search.text}
          onChange={search.setText}
          onBlur={search.endTyping}
        />
        <Select
          label="Role"
          value={role}
          onChange={(e) => update({ role: usersQuery.role.parse(e.target.value) ?? '', page: 1 })}
        >
          <option value="">All roles</option>
          <RoleOptions />
        </Select>
      </div>
      <PagedTable
        query={list}
        empty={
          view.search ? (
            <>
              No users match “{view.search}”{role ? ` with the role ${ROLE_LABEL[role]}` : ''}.
            </>
          ) : (
            <>No users{role ? ` with the role ${ROLE_LABEL[role]}` : ''}.</>
          )
        }
        columns={[
          { label: 'Name', sort: 'username' },
          { label: 'Email', sort: 'email' },
          'Role',
          { label: 'Joined', sort: 'createdAt' },
          '',
        ]}
        sorting={{ value: view.sort, onSort: (sort) => update({ sort, page: 1 }) }}
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
                onClick={() => setResetting(user)}
                aria-label={`Reset link for ${user.username}`}
              >
                Reset link
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
          <UserEditForm key={editing.id} user={editing} onSaved={saved} onCancel={close} />
        )}
      </Dialog>
      <ResetLinkDialog user={resetting} onClose={() => setResetting(null)} />
      {confirmDelete.dialog}
    </>
  );
}
