'use client';

import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '@/components/ui';

/** A delete mutation as tRPC's useMutation gives it. */
interface DeleteMutation<I> {
  // A method, so tRPC's mutate (which takes the procedure's input, and options) fits.
  mutate(input: I, options?: { onSuccess?: () => void }): void;
  reset(): void;
  isPending: boolean;
  error: unknown;
}

/**
 * Delete with a confirmation: `ask(record)` opens a dialog titled `title` (also its confirm
 * button's label) that says `body(record)`; confirming sends `input(record)` to `mutation`, and
 * the dialog closes once it succeeds. Each ask starts without the last attempt's error. Render
 * `dialog` once in the page.
 */
export function useConfirmDelete<R, I>(
  mutation: DeleteMutation<I>,
  { title, input, body }: { title: string; input: (record: R) => NoInfer<I>; body: (record: R) => ReactNode },
) {
  const [record, setRecord] = useState<{ current: R } | null>(null);
  const close = () => setRecord(null);
  return {
    ask(current: R) {
      mutation.reset();
      setRecord({ current });
    },
    dialog: (
      <ConfirmDialog
        open={record !== null}
        title={title}
        body={record && body(record.current)}
        confirmLabel={title}
        busy={mutation.isPending}
        error={mutation.error}
        onConfirm={() => record && mutation.mutate(input(record.current), { onSuccess: close })}
        onClose={close}
      />
    ),
  };
}
