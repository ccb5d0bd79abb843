'use client';

import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/dialog';
import { doneMessage, useToast } from '@/components/ui/toast';

/** A delete mutation as tRPC's useMutation gives it. */
interface DeleteMutation<I> {
  // A method, so tRPC's mutateAsync (which takes the procedure's input, and options) fits. Its
  // promise settles even when the page is gone by then (one that navigates away on success),
  // unlike mutate's own callbacks, so the confirmation is never lost.
  mutateAsync(input: I): Promise<unknown>;
  reset(): void;
  isPending: boolean;
  error: unknown;
}

/**
 * Delete with a confirmation: `ask(record)` opens a dialog titled `title` (also its confirm
 * button's label) that says `body(record)`; confirming sends `input(record)` to `mutation`, and
 * the dialog closes once it succeeds, and a toast says "Deleted “name”." (the record's title, name
 * or username). Each ask starts without the last attempt's error. Render `dialog` once in the page.
 */
export function useConfirmDelete<R, I>(
  mutation: DeleteMutation<I>,
  { title, input, body }: { title: string; input: (record: R) => NoInfer<I>; body: (record: R) => ReactNode },
) {
  const [record, setRecord] = useState<{ current: R } | null>(null);
  const close = () => setRecord(null);
  const notify = useToast();
  const confirm = (current: R) => {
    void mutation.mutateAsync(input(current)).then(
      () => {
        close();
        notify(doneMessage('Deleted', current));
      },
      // The refusal is shown in the dialog, from `mutation.error`.
      () => {},
    );
  };
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
        onConfirm={() => record && confirm(record.current)}
        onClose={close}
      />
    ),
  };
}
