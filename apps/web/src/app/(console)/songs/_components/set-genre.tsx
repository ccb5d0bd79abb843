'use client';

import { createSongInput } from '@music/api-router/schemas';
import { useId, useState } from 'react';
import { TextInput } from '@/components/ui';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { songCount } from '@/lib/bulk';
import { trpc } from '@/lib/trpc';
import { issueInWords } from '@/lib/validation-words';
import { GenreOptions, useGenreSuggestions } from './genre-suggestions';

/**
 * The genre for many songs at once: suggested from the genres in use, saved in the catalogue's
 * spelling of one ("folk" as "Folk", as the song form does), checked by the songs' own rule;
 * left empty, it clears their genre.
 */
export function SetGenreDialog({
  open,
  count,
  onCancel,
  onChoose,
}: {
  open: boolean;
  count: number;
  onCancel: () => void;
  onChoose: (genre: string | null) => void;
}) {
  return (
    <Dialog open={open} title={`Set the genre of ${songCount(count)}`} onClose={onCancel}>
      {open && <GenreForm onCancel={onCancel} onChoose={onChoose} />}
    </Dialog>
  );
}

function GenreForm({
  onCancel,
  onChoose,
}: {
  onCancel: () => void;
  onChoose: (genre: string | null) => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const genres = useGenreSuggestions(text);
  const list = useId();
  const utils = trpc.useUtils();
  const [checking, setChecking] = useState(false);
  /** The catalogue's spelling of a genre in use that `typed` names, asked for if not suggested yet. */
  async function spelling(typed: string): Promise<string> {
    if (genres.named(typed)) return genres.spelling(typed);
    const found = await utils.genres.list.fetch({ limit: 20, search: typed }).catch(() => null);
    return found?.data.find((genre) => genre.name.toLowerCase() === typed.toLowerCase())?.name ?? typed;
  }
  return (
    <DialogForm
      submitLabel="Set genre"
      mutation={{ error: null, isPending: checking }}
      onCancel={onCancel}
      dirty={text !== ''}
      onSubmit={async () => {
        const typed = text.trim();
        const parsed = createSongInput.shape.genre.safeParse(typed === '' ? null : typed);
        if (!parsed.success) {
          setError(issueInWords(parsed.error.issues[0]!, { noun: 'a genre' }));
          return;
        }
        setChecking(true);
        const genre = parsed.data ? await spelling(parsed.data) : null;
        setChecking(false);
        onChoose(genre);
      }}
    >
      <TextInput
        label="Genre"
        value={text}
        list={list}
        limit={50}
        error={error}
        onFocus={genres.use}
        hint="Suggests the genres in use as you type; leave it empty to clear the songs’ genre"
        onChange={(event) => {
          setText(event.target.value);
          if (error) setError(undefined);
        }}
      />
      <GenreOptions id={list} genres={genres.suggestions} />
    </DialogForm>
  );
}
