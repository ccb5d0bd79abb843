'use client';

import { useEffect, useId, useState } from 'react';
import { Button } from './button';
import { HiddenLabel } from './fields';

export function Pager({
  page,
  limit,
  total,
  onPage,
  label = 'Pages',
}: {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  label?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  if (total <= limit && page === 1) {
    return <p className="pager-summary">{total === 1 ? '1 item' : `${total} items`}</p>;
  }
  return (
    <nav className="pager" aria-label={label}>
      <Button variant="ghost" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        ← Previous
      </Button>
      <span aria-live="polite">
        Page {page} of {pages} · {total} items
      </span>
      <Button variant="ghost" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        Next →
      </Button>
    </nav>
  );
}

export function useDebounced<T>(value: T, ms = 250): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function SearchBox({
  label,
  value,
  onChange,
  onBlur,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="search">
      <HiddenLabel htmlFor={id}>{label}</HiddenLabel>
      <input
        id={id}
        type="search"
        value={value}
        placeholder={placeholder ?? label}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        maxLength={200}
      />
    </div>
  );
}
