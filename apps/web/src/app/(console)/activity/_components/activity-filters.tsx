'use client';

import { useId, useState } from 'react';
import { Button, Select, TextInput, useDebounced } from '@/components/ui';
import { Combobox, type ComboboxOption } from '@/components/ui/combobox';
import {
  ACTION_WORDS,
  ACTIONS,
  type ActivityView,
  activityQuery,
  isId,
  TARGET_TYPES,
  TARGET_WORDS,
} from '@/lib/activity';
import { trpc } from '@/lib/trpc';
import { useUrlText } from '@/lib/url-state';

type Update = (changes: Partial<ActivityView>, how?: 'push' | 'replace') => void;

/**
 * Whose writes: a user picked by searching names and emails (users.list), or an id pasted in.
 * The chosen user is shown with a button that clears the filter.
 */
function UserFilter({
  value,
  name,
  onChange,
}: {
  value: string;
  name: string;
  onChange: (id: string) => void;
}) {
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim(), 200);
  const pasted = isId(search.trim());
  const matches = trpc.users.list.useQuery(
    { search: term, limit: 8 },
    { enabled: term.length > 0 && !isId(term) },
  );
  const settled = term !== '' && term === search.trim();
  const found = settled && !pasted ? matches.data?.data : undefined;
  const options: ComboboxOption[] = pasted
    ? [{ id: search.trim().toLowerCase(), label: `The user with id ${search.trim()}` }]
    : (found ?? []).map((user) => ({ id: user.id, label: user.username, note: user.email }));
  const status = pasted
    ? '1 user id.'
    : settled && matches.isError
      ? 'The search for users failed. Type again to retry.'
      : !found
        ? 'Searching…'
        : options.length === 0
          ? `No user matches “${term}”.`
          : `${options.length} ${options.length === 1 ? 'user' : 'users'} found.`;
  const id = useId();
  return (
    <fieldset className="picker" aria-describedby={`${id}-hint`}>
      <legend>User</legend>
      {value ? (
        <ul className="chips" aria-label="Chosen user">
          <li className="chip">
            {name}
            <button type="button" aria-label={`Any user, not only ${name}`} onClick={() => onChange('')}>
              ×
            </button>
          </li>
        </ul>
      ) : (
        <Combobox
          label="Filter by user: a name, an email or an id"
          listLabel="Matching users"
          text={search}
          onTextChange={setSearch}
          options={options}
          status={status}
          onChoose={(userId) => {
            setSearch('');
            onChange(userId);
          }}
          placeholder="Name, email or id…"
          maxLength={200}
        />
      )}
      <p className="field-hint" id={`${id}-hint`}>
        {value ? 'Only this user’s writes.' : 'Any user.'}
      </p>
    </fieldset>
  );
}

/**
 * The log's filters, each kept in the address: whose writes, which record (its type and id) and
 * which action. A record id is applied once it is a whole id (or cleared).
 */
export function ActivityFilters({
  view,
  update,
  userName,
}: {
  view: ActivityView;
  update: Update;
  userName: string;
}) {
  const recordId = useUrlText(view.id, (text) => update({ id: text }));
  const typed = recordId.text.trim();
  const idError = typed !== '' && !isId(typed) ? 'Enter a whole record id, such as 0190c0de-…' : undefined;
  const filtered = view.user !== '' || view.type !== '' || view.id !== '' || view.action !== '';
  return (
    <div className="toolbar activity-filters">
      <UserFilter value={view.user} name={userName} onChange={(user) => update({ user })} />
      <Select
        label="Record type"
        value={view.type}
        onChange={(e) => update({ type: activityQuery.type.parse(e.target.value) ?? '' })}
      >
        <option value="">Any record</option>
        {TARGET_TYPES.map((type) => (
          <option key={type} value={type}>
            {TARGET_WORDS[type]}
          </option>
        ))}
      </Select>
      <TextInput
        label="Record id"
        value={recordId.text}
        error={idError}
        spellCheck={false}
        autoComplete="off"
        onChange={(e) => {
          recordId.setText(e.target.value);
          const next = e.target.value.trim();
          if (next === '' || isId(next)) recordId.commitNow(next);
        }}
      />
      <Select
        label="Action"
        value={view.action}
        onChange={(e) => update({ action: activityQuery.action.parse(e.target.value) ?? '' })}
      >
        <option value="">Any action</option>
        {ACTIONS.map((action) => (
          <option key={action} value={action}>
            {ACTION_WORDS[action]}
          </option>
        ))}
      </Select>
      {filtered && (
        <Button
          variant="ghost"
          onClick={() => {
            recordId.setText('');
            update({ user: '', type: '', id: '', action: '' });
          }}
        >
          Clear filters
        </Button>
      )}
    </div>
  );
}
