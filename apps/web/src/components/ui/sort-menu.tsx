'use client';

import { Select } from './fields';

/** One order a list offers: its `sort` parameter and how it reads. */
export interface SortChoice {
  value: string;
  label: string;
}

/**
 * A list's order as a choice from a menu, beside its sortable column headers: the one way to
 * sort on a phone (where the headers fold away) and the place for an order no column stands
 * for (a search's best matches). An order that is none of `choices` (a hand-edited address) is
 * listed as it is, so the menu never claims another.
 */
export function SortMenu({
  value,
  choices,
  onChange,
}: {
  value: string;
  choices: readonly SortChoice[];
  onChange: (sort: string) => void;
}) {
  const known = choices.some((choice) => choice.value === value);
  const listed = known ? choices : [...choices, { value, label: `Other order (${value})` }];
  return (
    <Select label="Sort by" value={value} onChange={(e) => onChange(e.target.value)}>
      {listed.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </Select>
  );
}
